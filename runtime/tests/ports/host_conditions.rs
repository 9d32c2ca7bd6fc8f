//! Host conditions attached as decorators (rules 21 to 27 and 30): a condition the program
//! registers can be attached to any node with `invert` and `abort`, and then behaves
//! exactly as the built-in Condition decorator testing a blackboard key. Each rule is shown
//! with its expected trace, and every tree shape is run against the built-in decorator
//! under every sequence of inputs, trace for trace.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use arbor_runtime::{
    Action, ActionCtx, Agent, CompiledTree, ConditionFn, NodeType, ParamKind, ParamSpec, Recorder,
    Registry, Status,
};
use common::{lifecycle, render, scripted, scripted_with, sel, seq, strs, tree_json};
use serde_json::{json, Value};

/// What the program senses: named facts, kept in its own data rather than on the
/// blackboard.
#[derive(Default)]
struct Senses {
    facts: BTreeMap<String, bool>,
    /// How many times each fact was looked at.
    looks: usize,
}

fn registry() -> Registry<Senses> {
    let mut registry = Registry::<Senses>::new();
    registry.register(
        NodeType::condition("Senses", "True while the named fact holds.").param(ParamSpec::new(
            "fact",
            ParamKind::String,
            "The fact's name.",
        )),
        |args| {
            let fact = args.str("fact")?.to_owned();
            Ok(ConditionFn(move |cx: &mut ActionCtx<'_, Senses>| {
                cx.agent.looks += 1;
                cx.agent.facts.get(&fact).copied().unwrap_or(false)
            }))
        },
    );
    registry
}

/// The host form of a condition decorator on fact `name`.
fn senses(name: &str, abort: &str, invert: bool) -> Value {
    json!({"type": "Senses", "params": {"fact": name, "abort": abort, "invert": invert}})
}

/// The built-in form: a Condition decorator on the blackboard key of the same name.
fn builtin(name: &str, abort: &str, invert: bool) -> Value {
    json!({"type": "Condition",
           "params": {"key": name, "equals": true, "abort": abort, "invert": invert}})
}

fn facts_decl() -> Value {
    json!([
        {"key": "a", "type": "bool", "default": true},
        {"key": "b", "type": "bool", "default": true}
    ])
}

fn load(root: Value) -> Arc<CompiledTree<Senses>> {
    let text = tree_json(root, facts_decl()).to_string();
    match registry().loader().load_str(&text, None) {
        Ok(tree) => Arc::new(tree),
        Err(e) => panic!("test tree should load: {e}"),
    }
}

/// An agent whose facts start as the blackboard defaults do (both true).
struct Run {
    agent: Agent<Senses>,
    senses: Senses,
}

impl Run {
    fn new(root: Value) -> Run {
        let mut senses = Senses::default();
        senses.facts.insert("a".into(), true);
        senses.facts.insert("b".into(), true);
        Run {
            agent: Agent::new(load(root), 1),
            senses,
        }
    }

    /// Sets fact `name` both in the program's data and on the blackboard, then ticks.
    fn tick(&mut self, set: &[(&str, bool)]) -> (Status, Vec<String>) {
        self.agent.advance(1.0);
        for (name, value) in set {
            self.senses.facts.insert((*name).to_owned(), *value);
            self.agent
                .blackboard_mut()
                .set_json(name, &json!(value), None)
                .expect("declared bool key");
        }
        let mut rec = Recorder::default();
        let status = self.agent.run_traced(&mut self.senses, &mut rec);
        (status, render(self.agent.tree(), &rec))
    }
}

#[test]
fn rule48_a_host_condition_is_offered_as_an_attached_decorator_with_invert_and_abort() {
    let registry = registry();
    let ty = registry.types().decorator("Senses").expect("attached form");
    let names: Vec<&str> = ty.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["fact", "invert", "abort"]);
    assert!(registry.types().decorators().any(|d| d.name == "Senses"));
    // The manifest lists the condition once, as a node type; the attached form is derived.
    let manifest: Value = serde_json::from_str(&registry.manifest()).expect("JSON");
    assert_eq!(manifest["decorators"], json!([]));
    assert_eq!(manifest["nodes"][0]["name"], "Senses");
}

#[test]
fn rule21_an_idle_node_runs_only_while_the_host_condition_holds() {
    let mut run = Run::new(scripted_with(
        "A",
        &["success"],
        json!([senses("a", "None", false)]),
    ));
    let (status, events) = run.tick(&[]);
    assert_eq!(status, Status::Success);
    assert_eq!(events[0], "check A#0 true");
    let (status, events) = run.tick(&[("a", false)]);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        events,
        strs(&["check A#0 false"]),
        "blocked: no lifecycle event"
    );
}

#[test]
fn rule23_self_rechecks_each_tick_and_false_aborts_the_node() {
    let root = seq(
        "S",
        vec![scripted_with(
            "A",
            &["running"],
            json!([senses("a", "Self", false)]),
        )],
    );
    let mut run = Run::new(root);
    assert_eq!(run.tick(&[]).0, Status::Running);
    let (_, events) = run.tick(&[]);
    assert_eq!(events[0], "check A#0 true", "re-checked while running");
    let (status, events) = run.tick(&[("a", false)]);
    assert_eq!(status, Status::Failure);
    assert_eq!(
        lifecycle(events),
        strs(&[
            "abort A",
            "exit A aborted",
            "tick S failure",
            "exit S failure"
        ])
    );
}

#[test]
fn rule24_lower_priority_under_a_selector_preempts_the_running_later_child() {
    let root = sel(
        "Sel",
        vec![
            scripted_with(
                "Hi",
                &["success"],
                json!([senses("a", "LowerPriority", false)]),
            ),
            scripted("Lo", &["running"]),
        ],
    );
    let mut run = Run::new(root);
    let (_, events) = run.tick(&[("a", false)]);
    assert!(events.contains(&"tick Lo running".to_owned()));
    // Still false: Lo keeps running, Hi is only re-checked.
    let (status, events) = run.tick(&[]);
    assert_eq!(status, Status::Running);
    assert!(events.contains(&"check Hi#0 false".to_owned()));
    // True: Hi is ticked, succeeds, and Lo is aborted.
    let (status, events) = run.tick(&[("a", true)]);
    assert_eq!(status, Status::Success);
    let life = lifecycle(events);
    let at = |e: &str| life.iter().position(|x| x == e).unwrap_or(usize::MAX);
    assert!(at("tick Hi success") < at("abort Lo"), "{life:?}");
    assert!(life.contains(&"exit Lo aborted".to_owned()));
}

#[test]
fn rule25_lower_priority_under_a_sequence_rechecks_only_the_condition() {
    let root = seq(
        "Seq",
        vec![
            scripted_with(
                "A",
                &["success"],
                json!([senses("a", "LowerPriority", false)]),
            ),
            scripted("B", &["running"]),
        ],
    );
    let mut run = Run::new(root);
    let (_, events) = run.tick(&[]);
    assert!(events.contains(&"tick B running".to_owned()));
    // True: A's body is not ticked again; B resumes.
    let (status, events) = run.tick(&[]);
    assert_eq!(status, Status::Running);
    assert!(!events.iter().any(|e| e == "enter A"), "{events:?}");
    assert!(events.contains(&"check A#0 true".to_owned()));
    // False: the running B is aborted and the sequence fails.
    let (status, events) = run.tick(&[("a", false)]);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort B".to_owned()), "{events:?}");
}

#[test]
fn rule26_both_acts_as_self_and_as_lower_priority() {
    // As Self on the running node.
    let root = seq(
        "S",
        vec![scripted_with(
            "A",
            &["running"],
            json!([senses("a", "Both", false)]),
        )],
    );
    let mut run = Run::new(root);
    run.tick(&[]);
    let (status, events) = run.tick(&[("a", false)]);
    assert_eq!(status, Status::Failure);
    assert!(events.contains(&"abort A".to_owned()));
    // As LowerPriority under a selector.
    let root = sel(
        "Sel",
        vec![
            scripted_with("Hi", &["success"], json!([senses("a", "Both", false)])),
            scripted("Lo", &["running"]),
        ],
    );
    let mut run = Run::new(root);
    run.tick(&[("a", false)]);
    let (status, events) = run.tick(&[("a", true)]);
    assert_eq!(status, Status::Success);
    assert!(events.contains(&"abort Lo".to_owned()));
}

#[test]
fn rule27_dynamic_composites_retick_earlier_children_whatever_the_abort_type() {
    let root = json!({"type": "Selector", "name": "Dyn", "params": {"dynamic": true},
    "children": [
        scripted_with("C", &["success"], json!([senses("a", "None", false)])),
        scripted("D", &["running"]),
    ]});
    let mut run = Run::new(root);
    let (_, events) = run.tick(&[("a", false)]);
    assert!(events.contains(&"tick D running".to_owned()));
    let (status, events) = run.tick(&[("a", true)]);
    assert_eq!(status, Status::Success);
    assert!(events.contains(&"tick C success".to_owned()));
    assert!(events.contains(&"abort D".to_owned()));
}

#[test]
fn rule48_invert_negates_the_host_condition() {
    let mut run = Run::new(scripted_with(
        "A",
        &["success"],
        json!([senses("a", "None", true)]),
    ));
    let (status, events) = run.tick(&[]);
    assert_eq!(status, Status::Failure);
    assert_eq!(events, strs(&["check A#0 false"]));
    let (status, _) = run.tick(&[("a", false)]);
    assert_eq!(status, Status::Success);
}

#[test]
fn rule22_a_host_condition_is_evaluated_again_on_every_check() {
    let root = seq(
        "S",
        vec![scripted_with(
            "A",
            &["running"],
            json!([senses("a", "Self", false)]),
        )],
    );
    let mut run = Run::new(root);
    for _ in 0..4 {
        run.tick(&[]);
    }
    assert_eq!(run.senses.looks, 4, "one look per check, never cached");
}

/// Tree shapes covering the abort types, both composites, dynamic composites, stacked
/// decorators and invert. `d` makes a condition decorator (host or built-in).
fn shapes(d: &dyn Fn(&str, &str, bool) -> Value) -> Vec<Value> {
    vec![
        seq(
            "S",
            vec![scripted_with(
                "A",
                &["running", "running", "success"],
                json!([d("a", "Self", false)]),
            )],
        ),
        sel(
            "Sel",
            vec![
                scripted_with(
                    "Hi",
                    &["failure", "success", "running"],
                    json!([d("a", "LowerPriority", false)]),
                ),
                scripted("Lo", &["running", "running", "success"]),
            ],
        ),
        seq(
            "Seq",
            vec![
                scripted_with("A", &["success"], json!([d("a", "LowerPriority", true)])),
                scripted_with(
                    "B",
                    &["running", "success", "running"],
                    json!([d("b", "Self", false)]),
                ),
            ],
        ),
        sel(
            "Sel",
            vec![
                seq(
                    "Inner",
                    vec![
                        scripted_with("X", &["running", "success"], json!([d("b", "Both", false)])),
                        scripted("Y", &["running"]),
                    ],
                ),
                scripted_with(
                    "Z",
                    &["running"],
                    json!([d("a", "Both", true), d("b", "None", false)]),
                ),
            ],
        ),
        json!({"type": "Sequence", "name": "Dyn", "params": {"dynamic": true}, "children": [
            scripted_with("C", &["success", "failure"], json!([d("a", "None", false)])),
            scripted_with("D", &["running"], json!([d("b", "LowerPriority", false)])),
        ]}),
        json!({"type": "Selector", "name": "DynSel", "params": {"dynamic": true}, "children": [
            scripted_with("C", &["failure", "success"], json!([d("a", "Self", true)])),
            scripted_with("D", &["running", "failure"], json!([d("b", "Both", false)])),
        ]}),
    ]
}

/// Every shape, under every sequence of 4 ticks of (a, b) inputs, gives the same statuses
/// and traces with host conditions as with the built-in Condition decorator.
#[test]
fn rule48_host_conditions_trace_exactly_as_builtin_conditions() {
    let host = shapes(&senses);
    let built = shapes(&builtin);
    let mut compared = 0;
    for (h, b) in host.into_iter().zip(built) {
        for inputs in 0..(1u32 << 8) {
            let mut hr = Run::new(h.clone());
            let mut br = Run::new(b.clone());
            for t in 0..4 {
                let set = [
                    ("a", inputs >> (2 * t) & 1 == 1),
                    ("b", inputs >> (2 * t + 1) & 1 == 1),
                ];
                assert_eq!(
                    hr.tick(&set),
                    br.tick(&set),
                    "shape {h}, inputs {inputs:b}, tick {t}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 6 * 256 * 4);
}

#[test]
fn rule48_a_host_condition_decorator_runs_its_whole_lifecycle_per_check() {
    struct Counting;
    impl Action<Vec<&'static str>> for Counting {
        fn enter(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>) {
            cx.agent.push("enter");
        }
        fn tick(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>) -> Status {
            cx.agent.push("tick");
            Status::Success
        }
        fn exit(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>, _: Status) {
            cx.agent.push("exit");
        }
    }
    let mut registry = Registry::<Vec<&'static str>>::new();
    registry.register(NodeType::condition("Counting", "Logs."), |_| Ok(Counting));
    let text = tree_json(
        scripted_with("A", &["success"], json!([{"type": "Counting"}])),
        json!([]),
    )
    .to_string();
    let tree = Arc::new(registry.loader().load_str(&text, None).expect("loads"));
    let mut agent = Agent::new(tree, 1);
    let mut log = Vec::new();
    assert_eq!(agent.tick(&mut log, 1.0), Status::Success);
    assert_eq!(log, ["enter", "tick", "exit"]);
}

#[test]
fn a_host_condition_decorator_gets_its_parameters_checked() {
    let text = tree_json(
        scripted_with(
            "A",
            &["success"],
            json!([{"type": "Senses", "params": {"fakt": "a"}}]),
        ),
        json!([]),
    )
    .to_string();
    let err = registry()
        .loader()
        .load_str(&text, None)
        .expect_err("bad params");
    let messages: Vec<String> = err.problems.iter().map(ToString::to_string).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("$.nodes[0].decorators[0].params.fakt")
                && m.contains("unknown parameter `fakt` for Senses; did you mean `fact`?")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("missing parameter `fact`")),
        "{messages:?}"
    );
}
