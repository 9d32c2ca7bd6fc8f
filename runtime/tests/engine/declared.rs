//! Host nodes declared with `NodeDecl`: ports through handles (defaults, bindings,
//! outputs, in-out), the declaration as the editor sees it, the context's `dt`, name and
//! GUID, state per execution or across executions, hooks, the registration checks, and no
//! allocation per tick.

use std::sync::Arc;

use arbor_runtime::builder::{action, bind, node, seq, TreeBuilder};
use arbor_runtime::{
    Agent, Args, Direction, InPort, NodeCtx, NodeDecl, NodeType, ParamKind, ParamSpec, Registry,
    Status, ValueType,
};

use super::counting_alloc::allocations;

/// What the nodes under test report back.
#[derive(Default)]
struct Log {
    lines: Vec<String>,
    burned: f64,
}

/// `Burn` reads `rate` (default 2) and writes `left`, `Tally` counts its own ticks in a
/// state that lasts across executions, `Fresh` in one reset per execution.
fn registry() -> Registry<Log> {
    let mut registry = Registry::<Log>::new();

    let mut burn = NodeDecl::<Log>::action("Burn", "Burns `rate` litres per second for one tick.");
    let rate = burn
        .input::<f64>("rate")
        .doc("Litres per second.")
        .default(2.0);
    let left = burn.output::<f64>("left").doc("What is left.").optional();
    let tank = burn.in_out::<f64>("tank").doc("The tank.").required();
    registry.add(burn.tick(move |cx| {
        let (Some(rate), Some(fuel)) = (cx.get(&rate), cx.get(&tank)) else {
            return Status::Failure;
        };
        let burned = rate * cx.dt();
        cx.agent.burned += burned;
        cx.set(&tank, fuel - burned);
        cx.set(&left, fuel - burned);
        Status::Success
    }));

    let tally = NodeDecl::<Log>::action("Tally", "Counts its ticks over every execution.")
        .state::<u32>()
        .keep_state();
    registry.add(tally.tick(|cx| {
        *cx.state += 1;
        let line = format!("{} {} {}", cx.name(), cx.guid().len(), cx.state);
        cx.agent.lines.push(line);
        Status::Success
    }));

    let fresh = NodeDecl::<Log>::action("Fresh", "Runs two ticks per execution.").state::<u32>();
    registry.add(
        fresh
            .tick(two_ticks)
            .on_enter(|cx| cx.agent.lines.push(format!("enter {}", cx.state)))
            .on_exit(|cx, status| cx.agent.lines.push(format!("exit {status:?} {}", cx.state))),
    );
    registry
}

/// Counts this execution's ticks in the node's state; succeeds on the second.
fn two_ticks<C>(cx: &mut NodeCtx<'_, C, u32>) -> Status {
    *cx.state += 1;
    if *cx.state >= 2 {
        Status::Success
    } else {
        Status::Running
    }
}

fn tree() -> TreeBuilder {
    TreeBuilder::new("declared")
        .key("fuel", ValueType::Float, 10.0)
        .key("left", ValueType::Float, 0.0)
        .root(
            seq([
                action("Burn")
                    .name("burn")
                    .param("tank", bind("fuel"))
                    .param("left", bind("left")),
                action("Tally").name("first"),
                action("Tally").name("second"),
                action("Fresh").name("fresh"),
            ])
            // Reactive: every node runs every tick, Fresh resuming its execution.
            .param("dynamic", true),
        )
}

#[test]
fn a_declaration_is_the_node_type_the_editor_sees() {
    let registry = registry();
    let burn = registry.types().node("Burn").expect("declared");
    let kinds: Vec<(&str, ParamKind, Direction)> = burn
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.kind, p.direction))
        .collect();
    assert_eq!(
        kinds,
        [
            ("rate", ParamKind::Float, Direction::In),
            ("left", ParamKind::Float, Direction::Out),
            ("tank", ParamKind::Float, Direction::InOut),
        ]
    );
    assert_eq!(burn.params[0].default, Some(serde_json::json!(2.0)));
    assert_eq!(burn.params[0].description, "Litres per second.");
    assert!(burn.params[1].optional);
    assert!(burn.params[2].is_required());
    // Where it was declared, for the editor's "open source".
    let source = burn.source.as_ref().expect("declared here");
    assert!(source.file.ends_with("declared.rs"), "{}", source.file);
    assert!(registry.manifest().contains("\"Burn\""));
}

#[test]
fn declared_ports_read_defaults_and_keys_and_write_outputs() {
    let tree = Arc::new(tree().build(&registry()).expect("loads"));
    let mut agent = Agent::new(tree.clone(), 1);
    let mut log = Log::default();
    agent.tick(&mut log, 0.5);
    // rate 2 (the default) for 0.5 s: one litre.
    assert_eq!(log.burned, 1.0);
    let bb = agent.blackboard();
    let read = |name: &str| bb.get_f64(bb.key(name).expect("declared key"));
    assert_eq!(read("fuel"), Some(9.0));
    assert_eq!(read("left"), Some(9.0));
}

#[test]
fn dt_is_the_time_since_the_agents_previous_tick() {
    let tree = Arc::new(tree().build(&registry()).expect("loads"));
    let mut agent = Agent::new(tree, 1);
    let mut log = Log::default();
    agent.tick(&mut log, 0.5);
    // Two clock moves before one run: dt spans both.
    agent.advance(0.25);
    agent.advance(0.25);
    agent.run(&mut log);
    assert_eq!(log.burned, 2.0);
}

#[test]
fn kept_state_lasts_across_executions_and_fresh_state_does_not() {
    let tree = Arc::new(tree().build(&registry()).expect("loads"));
    let mut agent = Agent::new(tree, 1);
    let mut log = Log::default();
    for _ in 0..4 {
        agent.tick(&mut log, 0.1);
    }
    let tallies: Vec<&str> = log
        .lines
        .iter()
        .filter(|l| l.starts_with("first") || l.starts_with("second"))
        .map(String::as_str)
        .collect();
    // Each node has its own count (36-character GUIDs), kept from one execution (one root
    // tick) to the next.
    assert_eq!(
        tallies,
        [
            "first 36 1",
            "second 36 1",
            "first 36 2",
            "second 36 2",
            "first 36 3",
            "second 36 3",
            "first 36 4",
            "second 36 4"
        ]
    );
    let fresh: Vec<&str> = log
        .lines
        .iter()
        .filter(|l| l.starts_with("enter") || l.starts_with("exit"))
        .map(String::as_str)
        .collect();
    // Reset to 0 as each execution enters, two ticks each.
    assert_eq!(
        fresh,
        ["enter 0", "exit Success 2", "enter 0", "exit Success 2"]
    );
}

#[test]
fn the_action_context_names_the_node() {
    let mut registry = Registry::<Vec<String>>::new();
    registry.action(NodeType::action("Say", "Says who it is."), |cx| {
        let line = format!("{} {} {}", cx.name(), cx.guid(), cx.dt());
        cx.agent.push(line);
        Status::Success
    });
    let tree = TreeBuilder::new("names").root(seq([action("Say")
        .name("hello")
        .guid("00000000-0000-4000-8000-000000000007")]));
    let mut agent = Agent::new(Arc::new(tree.build(&registry).expect("loads")), 1);
    let mut lines = Vec::new();
    agent.tick(&mut lines, 0.25);
    agent.tick(&mut lines, 0.5);
    assert_eq!(
        lines,
        [
            "hello 00000000-0000-4000-8000-000000000007 0.25",
            "hello 00000000-0000-4000-8000-000000000007 0.5"
        ]
    );
}

#[test]
#[should_panic(expected = "node type `Burn` declares port `rate` twice")]
fn a_port_declared_twice_is_refused_where_it_is_declared() {
    let mut decl = NodeDecl::<()>::action("Burn", "…");
    let _ = decl.input::<f64>("rate").required();
    let _ = decl.input::<i64>("rate").required();
}

/// A factory that reads a parameter under a name its declaration does not have fails
/// when the program registers it, naming the node type and the name as the code spells it.
#[test]
#[should_panic(
    expected = "node type `Pulse`: the code reads parameter `per_secnd`, which its declaration \
                does not have (did you mean `per_second`?)"
)]
fn a_misspelt_parameter_in_a_factory_fails_at_registration() {
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("Pulse", "Pulses.").param(ParamSpec::new(
            "per_second",
            ParamKind::Float,
            "How often.",
        )),
        |args: &Args| {
            let rate: InPort<f64> = args.port("per_secnd")?;
            Ok(arbor_runtime::ActionFn(
                move |cx: &mut arbor_runtime::ActionCtx<'_, ()>| {
                    Status::from_bool(cx.get(&rate).is_some())
                },
            ))
        },
    );
}

/// A stateful node whose state agent snapshots save is checked the same way.
#[test]
#[should_panic(
    expected = "node type `Charge`: the code reads parameter `secnds`, which its declaration \
                does not have (did you mean `seconds`?)"
)]
fn a_misspelt_parameter_in_a_saved_stateful_factory_fails_at_registration() {
    struct Charge;
    impl arbor_runtime::StatefulAction<()> for Charge {
        type State = u32;
        fn tick(&self, _: &mut arbor_runtime::ActionCtx<'_, ()>, runs: &mut u32) -> Status {
            *runs += 1;
            Status::Success
        }
    }
    let mut registry = Registry::<()>::new();
    registry.register_stateful_saved(
        NodeType::action("Charge", "Charges.").param(ParamSpec::new(
            "seconds",
            ParamKind::Float,
            "How long.",
        )),
        |args: &Args| {
            let _ = args.f64("secnds")?;
            Ok(Charge)
        },
    );
}

#[test]
fn a_factory_reading_only_declared_parameters_registers() {
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("Pulse", "Pulses.")
            .param(ParamSpec::new("per_second", ParamKind::Float, "How often.").default(1.into()))
            .param(ParamSpec::new("into", ParamKind::Key, "Where.")),
        |args: &Args| {
            let _ = args.f64("per_second")?;
            let _ = args.key("into")?;
            Ok(arbor_runtime::ActionFn(
                |_: &mut arbor_runtime::ActionCtx<'_, ()>| Status::Success,
            ))
        },
    );
    assert!(registry.types().node("Pulse").is_some());
}

/// Declared nodes that allocate nothing themselves: one with ports, one with state kept
/// across executions, one with state reset per execution and hooks.
fn quiet_registry() -> Registry<u64> {
    let mut registry = Registry::<u64>::new();
    let mut burn = NodeDecl::<u64>::action("Burn", "Burns fuel.");
    let rate = burn.input::<f64>("rate").default(2.0);
    let tank = burn.in_out::<f64>("tank").required();
    registry.add(burn.tick(move |cx| {
        let (Some(rate), Some(fuel)) = (cx.get(&rate), cx.get(&tank)) else {
            return Status::Failure;
        };
        cx.set(&tank, fuel - rate * cx.dt());
        Status::Success
    }));
    let tally = NodeDecl::<u64>::action("Tally", "Counts.")
        .state::<u64>()
        .keep_state();
    registry.add(tally.tick(|cx| {
        *cx.state += 1;
        *cx.agent += *cx.state + cx.name().len() as u64;
        Status::Success
    }));
    let fresh = NodeDecl::<u64>::action("Fresh", "Two ticks.").state::<u32>();
    registry.add(
        fresh
            .tick(two_ticks)
            .on_enter(|cx| *cx.agent += 1)
            .on_exit(|cx, _| *cx.agent += 1),
    );
    registry
}

#[test]
fn declared_nodes_with_state_tick_without_allocating() {
    let tree = Arc::new(
        TreeBuilder::new("warm")
            .key("fuel", ValueType::Float, 1e9)
            .root(seq([
                action("Burn").param("tank", bind("fuel")),
                action("Fresh"),
                action("Tally"),
                node("Wait").param("seconds", 0.05),
            ]))
            .build(&quiet_registry())
            .expect("loads"),
    );
    let mut agents: Vec<Agent<u64>> = (0..8).map(|i| Agent::new(tree.clone(), i)).collect();
    let mut total = 0u64;
    for agent in &mut agents {
        agent.tick(&mut total, 0.01);
    }
    let before = allocations();
    for _ in 0..200 {
        for agent in &mut agents {
            agent.tick(&mut total, 0.01);
        }
    }
    assert_eq!(allocations() - before, 0);
    assert!(total > 1000, "the nodes ran: {total}");
}
