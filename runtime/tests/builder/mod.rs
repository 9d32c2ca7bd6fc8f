//! Trees from code (`arbor_runtime::builder`): a built tree is checked and compiled by the
//! same loader as a file, with the same located problems, and written back as a file.

use std::sync::Arc;

use arbor_runtime::builder::{action, bind, condition, decorator, node, sel, seq, TreeBuilder};
use arbor_runtime::{
    Agent, Args, InPort, NodeType, ParamSpec, Registry, StatefulAction, Status, ValueType,
};

struct Walker {
    position: f64,
}

/// Steps one unit a tick towards `target`.
struct MoveTo {
    target: InPort<f64>,
}

impl StatefulAction<Walker> for MoveTo {
    type State = ();
    fn tick(&self, cx: &mut arbor_runtime::ActionCtx<'_, Walker>, _: &mut ()) -> Status {
        let Some(goal) = cx.get(&self.target) else {
            return Status::Failure;
        };
        cx.agent.position += (goal - cx.agent.position).clamp(-1.0, 1.0);
        if cx.agent.position == goal {
            Status::Success
        } else {
            Status::Running
        }
    }
}

fn registry() -> Registry<Walker> {
    let mut registry = Registry::new();
    registry
        .register_stateful(
            NodeType::action("MoveTo", "Walks to `target`.").param(ParamSpec::typed(
                "target",
                ValueType::Float,
                "Where to go.",
            )),
            |args: &Args| {
                Ok(MoveTo {
                    target: args.port("target")?,
                })
            },
        )
        .condition(NodeType::condition("IsTired", "Whether to rest."), |cx| {
            cx.agent.position > 10.0
        });
    registry
}

fn errand() -> TreeBuilder {
    TreeBuilder::new("errand")
        .key("goal", ValueType::Float, 3.0)
        .root(sel([
            seq([
                condition("IsTired").name("tired?"),
                node("Wait").param("seconds", 1.0),
            ]),
            action("MoveTo")
                .name("go")
                .param("target", bind("goal"))
                .decorator(decorator("Inverter").name("not")),
        ]))
}

#[test]
fn a_built_tree_runs() {
    let tree = Arc::new(errand().build(&registry()).expect("loads"));
    assert_eq!(tree.len(), 5);
    let mut agent = Agent::new(tree, 1);
    let mut walker = Walker { position: 0.0 };
    // The inverted MoveTo fails once it arrives; the selector then fails.
    let statuses: Vec<Status> = (0..3).map(|_| agent.tick(&mut walker, 0.1)).collect();
    assert_eq!(
        statuses,
        [Status::Running, Status::Running, Status::Failure]
    );
    assert_eq!(walker.position, 3.0);
}

#[test]
fn guids_are_derived_deterministically_and_nodes_listed_depth_first() {
    let a = errand().to_file();
    assert_eq!(
        errand().to_json(),
        errand().to_json(),
        "same tree, same text"
    );
    let kinds: Vec<&str> = a.nodes.iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(kinds, ["Selector", "Sequence", "IsTired", "Wait", "MoveTo"]);
    assert_eq!(a.root.as_deref(), Some(a.nodes[0].guid.as_str()));
    assert_eq!(
        a.nodes[0].children,
        [a.nodes[1].guid.clone(), a.nodes[4].guid.clone()]
    );
    let mut guids: Vec<&str> = a.nodes.iter().map(|n| n.guid.as_str()).collect();
    guids.push(&a.nodes[4].decorators[0].guid);
    guids.push(&a.guid);
    for g in &guids {
        assert!(uuid_like(g), "{g}");
    }
    guids.sort_unstable();
    guids.dedup();
    assert_eq!(guids.len(), 7, "all distinct");
    // Another tree name, other GUIDs; a fixed GUID is kept.
    let renamed = TreeBuilder::new("errand2")
        .root(node("Wait").guid("6f1c1a52-0000-4000-8000-000000000001"))
        .to_file();
    assert_ne!(renamed.guid, a.guid);
    assert_eq!(
        renamed.nodes[0].guid,
        "6f1c1a52-0000-4000-8000-000000000001"
    );
    assert_eq!(
        renamed.nodes[0].name, "Wait",
        "a node's name defaults to its type"
    );
}

fn uuid_like(text: &str) -> bool {
    text.len() == 36 && text.chars().filter(|c| *c == '-').count() == 4
}

/// The JSON text a builder writes loads as the tree it built.
#[test]
fn to_json_round_trips_through_the_loader() {
    let registry = registry();
    let text = errand().to_json();
    let parsed = arbor_runtime::parse_str(&text, None).expect("parses");
    assert_eq!(parsed, errand().to_file());
    let from_text = registry.loader().load_str(&text, None).expect("loads");
    let built = errand().build(&registry).expect("loads");
    assert_eq!(from_text.len(), built.len());
    assert_eq!(from_text.guid(), built.guid());
}

/// A built tree with mistakes gets the same problems, with the same JSON paths and
/// nodes, as the equivalent file written by hand.
#[test]
fn a_built_tree_reports_the_same_problems_as_the_equivalent_file() {
    let g = |n: u32| format!("00000000-0000-4000-8000-{n:012}");
    let built = TreeBuilder::new("broken")
        .guid(&g(0))
        .key("goal", ValueType::Float, "far")
        .root(
            seq([
                action("MoveTo")
                    .guid(&g(2))
                    .name("go")
                    .param("target", bind("gaol")),
                node("Wiat").guid(&g(3)).param("seconds", 1.0),
                node("Wait").guid(&g(4)).param("seconds", "long"),
            ])
            .guid(&g(1))
            .name("main"),
        );
    let file = serde_json::json!({
        "format": "arbor-tree", "version": 2, "guid": g(0), "name": "broken",
        "blackboard": [{"key": "goal", "type": "float", "default": "far"}],
        "root": g(1),
        "nodes": [
            {"guid": g(1), "name": "main", "type": "Sequence", "children": [g(2), g(3), g(4)]},
            {"guid": g(2), "name": "go", "type": "MoveTo", "params": {"target": {"$key": "gaol"}}},
            {"guid": g(3), "name": "Wiat", "type": "Wiat", "params": {"seconds": 1.0}},
            {"guid": g(4), "name": "Wait", "type": "Wait", "params": {"seconds": "long"}}
        ]
    })
    .to_string();
    let registry = registry();
    let from_builder = built.build(&registry).expect_err("does not load");
    let from_file = registry
        .loader()
        .load_str(&file, None)
        .expect_err("does not load");
    let lines = |e: &arbor_runtime::LoadError| -> Vec<String> {
        e.problems.iter().map(ToString::to_string).collect()
    };
    assert_eq!(lines(&from_builder), lines(&from_file));
    let all = lines(&from_builder).join("\n");
    assert!(all.contains("$.blackboard[0]"), "{all}");
    assert!(all.contains("`gaol`"), "{all}");
    assert!(all.contains("did you mean `Wait`?"), "{all}");
    assert!(all.contains("$.nodes[3].params.seconds"), "{all}");
    assert!(from_builder.problems.len() >= 4, "{all}");
    // `check` (declarations only, as the editor and `arbor check`) agrees.
    let report = built.check(registry.types());
    let checked: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    assert_eq!(checked, lines(&from_file));
}

#[test]
fn a_tree_without_a_root_is_a_load_error() {
    let e = TreeBuilder::new("empty")
        .build(&registry())
        .expect_err("no root");
    assert!(!e.problems.is_empty());
}
