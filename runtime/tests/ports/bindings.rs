//! Parameters bound to blackboard keys (format version 2): `{"$key": "name"}` in place of
//! a literal. The loader checks the key's declared type against the parameter's in each
//! direction the parameter is used; hosts read bound inputs and write outputs through
//! ports; built-in nodes read their bindable parameters from the blackboard; version-1
//! files keep their old meaning.

use crate::common;

use std::sync::Arc;

use arbor_runtime::{
    Action, ActionCtx, Agent, Args, InPort, NodeType, OutPort, ParamKind, ParamSpec, Registry,
    Scalar, Status, Value, ValueType,
};
use common::{guid, tree_json};
use serde_json::{json, Value as Json};

/// A version-2 tree file from a nested root.
fn v2(root: Json, blackboard: Json) -> String {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    file.to_string()
}

/// Moves toward `target` at `speed`, writes the distance left to `left` and the number of
/// steps taken to `steps`.
struct MoveTo {
    target: InPort<f64>,
    speed: InPort<f64>,
    left: OutPort<f64>,
    steps: OutPort<i64>,
}

#[derive(Default)]
struct Walker {
    x: f64,
    taken: i64,
}

impl Action<Walker> for MoveTo {
    fn tick(&self, cx: &mut ActionCtx<'_, Walker>) -> Status {
        let (Some(target), Some(speed)) = (cx.get(&self.target), cx.get(&self.speed)) else {
            return Status::Failure;
        };
        let dx = (target - cx.agent.x).clamp(-speed, speed);
        cx.agent.x += dx;
        cx.agent.taken += 1;
        let left = (target - cx.agent.x).abs();
        let taken = cx.agent.taken;
        cx.set(&self.left, left);
        cx.set(&self.steps, taken);
        if left == 0.0 {
            Status::Success
        } else {
            Status::Running
        }
    }
}

fn move_to_type() -> NodeType {
    NodeType::action("MoveTo", "Walks toward a target.")
        .param(ParamSpec::new("target", ParamKind::Float, "Where to."))
        .param(ParamSpec::new("speed", ParamKind::Float, "Per tick.").default(json!(1.0)))
        .param(
            ParamSpec::new("left", ParamKind::Float, "Distance left.")
                .output()
                .optional(),
        )
        .param(
            ParamSpec::new("steps", ParamKind::Int, "Steps taken.")
                .output()
                .optional(),
        )
}

fn registry() -> Registry<Walker> {
    let mut registry = Registry::new();
    registry.register(move_to_type(), |args: &Args| {
        Ok(MoveTo {
            target: args.port("target")?,
            speed: args.port("speed")?,
            left: args.output("left")?,
            steps: args.output("steps")?,
        })
    });
    registry
}

fn keys() -> Json {
    json!([
        {"key": "goal", "type": "float", "default": 3.0},
        {"key": "pace", "type": "int", "default": 2},
        {"key": "remaining", "type": "float"},
        {"key": "count", "type": "float"},
        {"key": "label", "type": "string", "default": "x"},
        {"key": "whole", "type": "int"}
    ])
}

fn load(root: Json) -> Result<arbor_runtime::CompiledTree<Walker>, Vec<String>> {
    registry()
        .loader()
        .load_str(&v2(root, keys()), None)
        .map_err(|e| e.problems.iter().map(ToString::to_string).collect())
}

fn bound(key: &str) -> Json {
    json!({ "$key": key })
}

#[test]
fn rule47_a_bound_input_reads_the_key_and_an_output_writes_its_key() {
    let root = json!({"type": "MoveTo", "name": "Go", "params": {
        "target": bound("goal"), "speed": bound("pace"),
        "left": bound("remaining"), "steps": bound("count")}});
    let tree = Arc::new(load(root).expect("loads"));
    let mut agent = Agent::new(tree, 1);
    let mut walker = Walker::default();
    // goal 3, pace 2 (an int key read as a float input): 2 then 1.
    assert_eq!(agent.tick(&mut walker, 1.0), Status::Running);
    let bb = agent.blackboard();
    let key = |n: &str| bb.key(n).expect("declared");
    assert_eq!(bb.get(key("remaining")), Some(&Value::Float(1.0)));
    // An int output written to a float key is stored as a float.
    assert!(matches!(bb.get(key("count")), Some(Value::Float(c)) if *c == 1.0));
    assert_eq!(agent.tick(&mut walker, 1.0), Status::Success);
    assert_eq!(walker.x, 3.0);
    // The key is read on every tick: moving the goal moves the walker.
    let goal = agent.blackboard().key("goal").expect("declared");
    agent.blackboard_mut().set(goal, -1.0).expect("float");
    assert_eq!(agent.tick(&mut walker, 1.0), Status::Running);
    assert_eq!(walker.x, 1.0);
}

#[test]
fn rule47_an_input_bound_to_a_key_without_a_value_reads_none() {
    let root = json!({"type": "MoveTo", "params": {"target": bound("remaining")}});
    let tree = Arc::new(load(root).expect("loads"));
    let mut agent = Agent::new(tree, 1);
    assert_eq!(agent.tick(&mut Walker::default(), 1.0), Status::Failure);
}

#[test]
fn rule47_a_key_of_the_wrong_type_is_a_located_problem_naming_the_keys_type() {
    let root = json!({"type": "MoveTo", "params": {
        "target": bound("label"), "left": bound("whole")}});
    let problems = load(root).expect_err("type mismatches");
    assert_eq!(
        problems,
        [
            "<memory>: $.nodes[0].params.target (node \"MoveTo\" (MoveTo)): parameter `target` (float) cannot read key `label`: the key is declared string",
            "<memory>: $.nodes[0].params.left (node \"MoveTo\" (MoveTo)): output `left` (float) cannot write key `whole`: the key is declared int",
        ]
    );
}

#[test]
fn an_undeclared_key_is_reported_with_a_suggestion() {
    let root = json!({"type": "MoveTo", "params": {"target": bound("gaol")}});
    let problems = load(root).expect_err("undeclared");
    assert_eq!(
        problems,
        ["<memory>: $.nodes[0].params.target (node \"MoveTo\" (MoveTo)): blackboard key `gaol` is not declared; did you mean `goal`?"]
    );
}

#[test]
fn an_output_given_a_literal_and_a_malformed_binding_are_refused() {
    let root = json!({"type": "MoveTo", "params": {
        "target": {"$key": "goal", "also": 1}, "left": 2.0}});
    let problems = load(root).expect_err("refused");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].contains("params.target")
            && problems[0].contains("a binding is an object with one member"),
        "{problems:?}"
    );
    assert!(
        problems[1].contains("params.left")
            && problems[1].contains("is an output: bind it to a blackboard key"),
        "{problems:?}"
    );
}

#[test]
fn a_literal_only_parameter_cannot_be_bound() {
    let root = json!({"type": "Parallel", "params": {"need": bound("whole")},
        "children": [{"type": "Wait", "params": {"seconds": 1}}]});
    let text = v2(root, keys());
    let err = Registry::<()>::new()
        .loader()
        .load_str(&text, None)
        .expect_err("literal only");
    assert!(
        err.to_string().contains("parameter `need`: cannot be bound to a blackboard key: an integer must be written out in the file"),
        "{err}"
    );
}

#[test]
fn a_version_1_file_reads_a_binding_shaped_object_as_before() {
    // In version 1 a `$key` object is only a value: a json key's default-like literal.
    let mut file = tree_json(
        json!({"type": "SetBlackboard", "params": {"key": "j", "value": {"$key": "goal"}}}),
        json!([{"key": "j", "type": "json"}, {"key": "goal", "type": "float", "default": 1.0}]),
    );
    file["version"] = json!(1);
    let tree = Registry::<()>::new()
        .loader()
        .load_str(&file.to_string(), None)
        .expect("version 1 loads unchanged");
    let mut agent = Agent::new(Arc::new(tree), 1);
    agent.tick(&mut (), 1.0);
    let j = agent.blackboard().key("j").expect("declared");
    assert_eq!(
        agent.blackboard().get(j).map(Value::to_json),
        Some(json!({"$key": "goal"}))
    );
    // The same file as version 2 copies the key instead.
    file["version"] = json!(2);
    let tree = Registry::<()>::new()
        .loader()
        .load_str(&file.to_string(), None)
        .expect("v2");
    let mut agent = Agent::new(Arc::new(tree), 1);
    agent.tick(&mut (), 1.0);
    assert_eq!(
        agent.blackboard().get(j).map(Value::to_json),
        Some(json!(1.0))
    );
}

/// One built-in node with one bound parameter, run for `ticks`: the root statuses.
fn run_builtin(root: Json, blackboard: Json, ticks: usize) -> (Vec<Status>, Agent<()>) {
    let tree = Registry::<()>::new()
        .loader()
        .load_str(&v2(root, blackboard), None)
        .unwrap_or_else(|e| panic!("loads: {e}"));
    let mut agent = Agent::new(Arc::new(tree), 1);
    let statuses = (0..ticks).map(|_| agent.tick(&mut (), 1.0)).collect();
    (statuses, agent)
}

#[test]
fn rule47_wait_reads_its_bound_duration_once_as_it_starts() {
    use Status::*;
    let keys = json!([{"key": "t", "type": "float", "default": 2.0}]);
    let root = json!({"type": "Wait", "params": {"seconds": bound("t")}});
    let (statuses, _) = run_builtin(root.clone(), keys, 4);
    // Entered at t=1: done at t=3; again at t=4.
    assert_eq!(statuses, [Running, Running, Success, Running]);
    // No value: the Wait fails; a negative duration too.
    let (statuses, _) = run_builtin(root.clone(), json!([{"key": "t", "type": "float"}]), 1);
    assert_eq!(statuses, [Failure]);
    let (statuses, _) = run_builtin(
        root,
        json!([{"key": "t", "type": "float", "default": -1}]),
        1,
    );
    assert_eq!(statuses, [Failure]);
}

#[test]
fn rule47_timeout_and_delay_read_bound_durations() {
    use Status::*;
    let keys = json!([{"key": "t", "type": "int", "default": 2}]);
    let timeout = json!({"type": "Timeout", "params": {"seconds": bound("t")},
        "children": [{"type": "Scripted", "params": {"returns": ["running"]}}]});
    assert_eq!(
        run_builtin(timeout, keys.clone(), 3).0,
        [Running, Running, Failure]
    );
    let delay = json!({"type": "Delay", "params": {"seconds": bound("t")},
        "children": [{"type": "Scripted", "params": {"returns": ["success"]}}]});
    assert_eq!(run_builtin(delay, keys, 3).0, [Running, Running, Success]);
}

#[test]
fn rule47_a_bound_duration_is_read_once_per_execution_and_a_missing_one_fails_at_once() {
    use Status::*;
    let keys = json!([{"key": "t", "type": "float", "default": 2.0}]);
    let root = json!({"type": "Wait", "params": {"seconds": bound("t")}});
    let (statuses, mut agent) = run_builtin(root, keys, 1);
    assert_eq!(statuses, [Running]);
    // Entered at t=1 for 2 s: a longer duration written meanwhile does not move the end.
    let t = agent.blackboard().key("t").expect("declared");
    agent.blackboard_mut().set(t, 100.0).expect("float");
    assert_eq!(agent.tick(&mut (), 1.0), Running);
    assert_eq!(agent.tick(&mut (), 1.0), Success, "t=3");
    // The next execution reads the key again: 100 s from t=4, not done at t=6.
    let next: Vec<Status> = (0..3).map(|_| agent.tick(&mut (), 1.0)).collect();
    assert_eq!(next, [Running, Running, Running]);

    for kind in ["Delay", "Timeout"] {
        let root = json!({"type": kind, "params": {"seconds": bound("t")},
            "children": [{"type": "SetBlackboard", "params": {"key": "mark", "value": true}}]});
        let keys = json!([{"key": "t", "type": "float"}, {"key": "mark", "type": "bool"}]);
        let (statuses, agent) = run_builtin(root, keys, 1);
        assert_eq!(statuses, [Failure], "{kind}");
        let bb = agent.blackboard();
        assert_eq!(
            bb.get(bb.key("mark").expect("declared")),
            None,
            "{kind}: the child was not ticked"
        );
    }
}

#[test]
fn rule47_repeat_and_retry_read_bound_counts() {
    use Status::*;
    let count = |n: i64| json!([{"key": "n", "type": "int", "default": n}]);
    // The child succeeds, then fails: a count of 1 succeeds, a count of 2 meets the failure.
    let repeat = json!({"type": "Repeat", "params": {"count": bound("n")},
        "children": [{"type": "Scripted", "params": {"returns": ["success", "failure"]}}]});
    assert_eq!(run_builtin(repeat.clone(), count(1), 1).0, [Success]);
    assert_eq!(run_builtin(repeat, count(2), 1).0, [Failure]);
    let keys = count(3);
    let retry = json!({"type": "Retry", "params": {"attempts": bound("n")},
        "children": [{"type": "Scripted", "params": {"returns": ["failure"]}}]});
    assert_eq!(run_builtin(retry.clone(), keys, 1).0, [Failure]);
    // An invalid bound limit (0) fails at once.
    assert_eq!(
        run_builtin(retry, json!([{"key": "n", "type": "int", "default": 0}]), 1).0,
        [Failure]
    );
}

#[test]
fn rule47_set_blackboard_copies_another_key_and_increment_adds_a_bound_amount() {
    let keys = json!([
        {"key": "src", "type": "int", "default": 4},
        {"key": "dst", "type": "float"},
        {"key": "step", "type": "int", "default": 5},
        {"key": "n", "type": "int", "default": 1}
    ]);
    let root = json!({"type": "Sequence", "children": [
        {"type": "SetBlackboard", "params": {"key": "dst", "value": bound("src")}},
        {"type": "Increment", "params": {"key": "n", "by": bound("step")}}
    ]});
    let (statuses, agent) = run_builtin(root, keys, 1);
    assert_eq!(statuses, [Status::Success]);
    let bb = agent.blackboard();
    assert!(matches!(bb.get(bb.key("dst").expect("k")), Some(Value::Float(f)) if *f == 4.0));
    assert_eq!(bb.get(bb.key("n").expect("k")), Some(&Value::Int(6)));
    // A source of a type that does not fit the destination is refused at load.
    let bad = json!({"type": "SetBlackboard", "params": {"key": "n", "value": bound("dst")}});
    let err = Registry::<()>::new()
        .loader()
        .load_str(
            &v2(
                bad,
                json!([{"key": "n", "type": "int"}, {"key": "dst", "type": "float"}]),
            ),
            None,
        )
        .expect_err("float into int");
    assert!(
        err.to_string()
            .contains("parameter `value` (int) cannot read key `dst`: the key is declared float"),
        "{err}"
    );
}

#[test]
fn rule47_random_and_condition_read_bound_values() {
    let keys = json!([
        {"key": "p", "type": "float", "default": 1.0},
        {"key": "a", "type": "int", "default": 3},
        {"key": "b", "type": "int", "default": 3}
    ]);
    let root = json!({"type": "Sequence", "children": [
        {"type": "Random", "params": {"probability": bound("p")}},
        {"type": "Condition", "params": {"key": "a", "equals": bound("b")}}
    ]});
    assert_eq!(run_builtin(root.clone(), keys, 1).0, [Status::Success]);
    let other = json!([
        {"key": "p", "type": "float", "default": 0.0},
        {"key": "a", "type": "int", "default": 3},
        {"key": "b", "type": "int", "default": 3}
    ]);
    assert_eq!(run_builtin(root, other, 1).0, [Status::Failure]);
}

#[test]
fn list_and_map_keys_are_typed_and_checked() {
    let keys = json!([
        {"key": "route", "type": "list<float>", "default": [1, 2.5]},
        {"key": "names", "type": "map<string>", "default": {"a": "x"}}
    ]);
    let tree = Registry::<()>::new()
        .loader()
        .load_str(
            &v2(json!({"type": "Wait", "params": {"seconds": 0}}), keys),
            None,
        )
        .expect("loads");
    let agent = Agent::new(Arc::new(tree), 1);
    let bb = agent.blackboard();
    assert_eq!(
        bb.info(bb.key("route").expect("k")).ty,
        ValueType::List(Scalar::Float)
    );
    assert_eq!(
        bb.get(bb.key("route").expect("k")).map(Value::to_json),
        Some(json!([1.0, 2.5]))
    );
    // A wrong element is a located problem that names the element.
    let bad = json!([{"key": "route", "type": "list<int>", "default": [1, "two"]}]);
    let err = Registry::<()>::new()
        .loader()
        .load_str(
            &v2(json!({"type": "Wait", "params": {"seconds": 0}}), bad),
            None,
        )
        .expect_err("bad element");
    assert!(
        err.to_string().contains("$.blackboard[0].default")
            && err
                .to_string()
                .contains("item 1: expected an integer, found string \"two\""),
        "{err}"
    );
}

#[test]
fn a_list_parameter_binds_to_a_list_key_of_a_fitting_type() {
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("Follow", "Follows a route.").param(ParamSpec::typed(
            "route",
            ValueType::List(Scalar::Float),
            "Waypoints.",
        )),
        |args| {
            let route: InPort<Value> = args.port("route")?;
            Ok(arbor_runtime::ActionFn(
                move |cx: &mut ActionCtx<'_, ()>| {
                    let n = cx.get(&route).and_then(|v| match v {
                        Value::Json(j) => j.as_array().map(Vec::len),
                        _ => None,
                    });
                    Status::from_bool(n == Some(2))
                },
            ))
        },
    );
    let keys = json!([
        {"key": "ints", "type": "list<int>", "default": [1, 2]},
        {"key": "texts", "type": "list<string>", "default": ["a"]}
    ]);
    let ok = json!({"type": "Follow", "params": {"route": bound("ints")}});
    let tree = registry
        .loader()
        .load_str(&v2(ok, keys.clone()), None)
        .expect("int list reads as float list");
    assert_eq!(
        Agent::new(Arc::new(tree), 1).tick(&mut (), 1.0),
        Status::Success
    );
    let literal = json!({"type": "Follow", "params": {"route": [0.5, 1]}});
    assert!(registry
        .loader()
        .load_str(&v2(literal, keys.clone()), None)
        .is_ok());
    let bad = json!({"type": "Follow", "params": {"route": bound("texts")}});
    let err = registry
        .loader()
        .load_str(&v2(bad, keys), None)
        .expect_err("strings");
    assert!(err.to_string().contains("parameter `route` (list<float>) cannot read key `texts`: the key is declared list<string>"), "{err}");
}

#[test]
fn a_factory_reading_a_bound_parameter_as_a_literal_gets_a_clear_error() {
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("Old", "Reads at load.").param(ParamSpec::new("n", ParamKind::Int, "")),
        |args| {
            let n = args.i64("n")?;
            Ok(arbor_runtime::ActionFn(move |_: &mut ActionCtx<'_, ()>| {
                Status::from_bool(n > 0)
            }))
        },
    );
    let root = json!({"type": "Old", "params": {"n": bound("k")}});
    let err = registry
        .loader()
        .load_str(&v2(root, json!([{"key": "k", "type": "int"}])), None)
        .expect_err("read at load");
    assert!(
        err.to_string()
            .contains("parameter `n` is bound to a blackboard key"),
        "{err}"
    );
    assert_eq!(err.problems[0].node.as_deref(), Some(guid(1).as_str()));
}

#[test]
fn a_declared_default_binding_applies_in_files_of_either_version() {
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("Read", "Succeeds while `flag` holds.").param(
            ParamSpec::new("flag", ParamKind::Bool, "").default(arbor_runtime::binding_json("on")),
        ),
        |args| {
            let flag: InPort<bool> = args.port("flag")?;
            Ok(arbor_runtime::ActionFn(
                move |cx: &mut ActionCtx<'_, ()>| Status::from_bool(cx.get(&flag) == Some(true)),
            ))
        },
    );
    for version in [1, 2] {
        let mut file = tree_json(
            json!({"type": "Read"}),
            json!([{"key": "on", "type": "bool", "default": true}]),
        );
        file["version"] = json!(version);
        let tree = registry
            .loader()
            .load_str(&file.to_string(), None)
            .expect("the default binding resolves");
        let mut agent = Agent::new(Arc::new(tree), 1);
        assert_eq!(
            agent.tick(&mut (), 1.0),
            Status::Success,
            "version {version}"
        );
        let on = agent.blackboard().key("on").expect("declared");
        agent.blackboard_mut().set(on, false).expect("bool");
        assert_eq!(
            agent.tick(&mut (), 1.0),
            Status::Failure,
            "version {version}"
        );
    }
}
