//! The native value types `vec2`, `vec3` and `entity` (docs/format.md, "Vectors and
//! entities"): declared keys with defaults in either JSON form, located errors for bad
//! values and mismatched bindings, rule 7's equality in Conditions, built-in nodes writing
//! them, host ports reading and writing them, and scripts using components (rule 80).

use crate::common;

use std::sync::Arc;

use arbor_runtime::{
    Action, ActionCtx, Agent, Args, Entity, InPort, NodeType, OutPort, ParamKind, ParamSpec,
    Registry, Status, Value, Vec2, Vec3,
};
use common::tree_json;
use serde_json::{json, Value as Json};

fn v2(root: Json, blackboard: Json) -> String {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    file.to_string()
}

fn keys() -> Json {
    json!([
        {"key": "pos", "type": "vec2", "default": [1.5, 2]},
        {"key": "goal", "type": "vec2", "default": {"x": 4, "y": -1}},
        {"key": "aim", "type": "vec3", "default": [0, 0, 1]},
        {"key": "target", "type": "entity", "default": 42},
        {"key": "list", "type": "list<float>", "default": [1, 2]}
    ])
}

/// Copies `from` to `to` (a vec2), reads a vec3 literal and an entity, writes the entity.
struct Carry {
    from: InPort<Vec2>,
    to: OutPort<Vec2>,
    aim: InPort<Vec3>,
    who: InPort<Entity>,
    seen: OutPort<Entity>,
}

impl Action<Vec<String>> for Carry {
    fn tick(&self, cx: &mut ActionCtx<'_, Vec<String>>) -> Status {
        let (Some(from), Some(aim), Some(who)) =
            (cx.get(&self.from), cx.get(&self.aim), cx.get(&self.who))
        else {
            return Status::Failure;
        };
        cx.agent.push(format!("{from:?} {aim:?} {who}"));
        cx.set(&self.to, from + Vec2::new(1.0, 1.0));
        cx.set(&self.seen, Entity(who.to_bits() + 1));
        Status::Success
    }
}

fn registry() -> Registry<Vec<String>> {
    let mut registry = Registry::new();
    registry.register(
        NodeType::action("Carry", "")
            .param(ParamSpec::new("from", ParamKind::Vec2, ""))
            .param(ParamSpec::new("to", ParamKind::Vec2, "").output())
            .param(ParamSpec::new("aim", ParamKind::Vec3, ""))
            .param(ParamSpec::new("who", ParamKind::Entity, ""))
            .param(ParamSpec::new("seen", ParamKind::Entity, "").output()),
        |args: &Args| {
            Ok(Carry {
                from: args.port("from")?,
                to: args.output("to")?,
                aim: args.port("aim")?,
                who: args.port("who")?,
                seen: args.output("seen")?,
            })
        },
    );
    registry
}

fn load(root: Json) -> Result<Agent<Vec<String>>, String> {
    registry()
        .loader()
        .load_str(&v2(root, keys()), None)
        .map(|tree| Agent::new(Arc::new(tree), 1))
        .map_err(|e| e.to_string())
}

fn value(agent: &Agent<Vec<String>>, key: &str) -> Json {
    let bb = agent.blackboard();
    bb.get(bb.key(key).unwrap())
        .map_or(Json::Null, Value::to_json)
}

#[test]
fn defaults_load_in_both_forms_and_read_back_as_arrays() {
    let agent = load(json!({"type": "Log", "params": {"message": "-"}})).unwrap();
    let bb = agent.blackboard();
    assert_eq!(
        bb.get_vec2(bb.key("pos").unwrap()),
        Some(Vec2::new(1.5, 2.0))
    );
    assert_eq!(
        bb.get_vec2(bb.key("goal").unwrap()),
        Some(Vec2::new(4.0, -1.0))
    );
    assert_eq!(
        bb.get_vec3(bb.key("aim").unwrap()),
        Some(Vec3::new(0.0, 0.0, 1.0))
    );
    assert_eq!(bb.get_entity(bb.key("target").unwrap()), Some(Entity(42)));
    let all = bb.to_json();
    assert_eq!(all["goal"], json!([4.0, -1.0]));
    assert_eq!(all["target"], json!(42));
}

#[test]
fn bad_values_are_located() {
    let bad = |decl: Json| {
        registry()
            .loader()
            .load_str(
                &v2(
                    json!({"type": "Log", "params": {"message": "-"}}),
                    json!([decl]),
                ),
                None,
            )
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let err = bad(json!({"key": "pos", "type": "vec2", "default": [1]}));
    assert!(err.contains("$.blackboard[0].default"), "{err}");
    assert!(err.contains("expected a vec2 ([number, number]"), "{err}");
    let err = bad(json!({"key": "id", "type": "entity", "default": -3}));
    assert!(err.contains("expected an entity id"), "{err}");
    let err = bad(json!({"key": "p", "type": "vec4"}));
    assert!(err.contains("vec2, vec3, entity"), "{err}");
}

#[test]
fn host_ports_read_and_write_native_values() {
    let mut agent = load(json!({"type": "Carry", "params": {
        "from": {"$key": "pos"}, "to": {"$key": "goal"}, "aim": [1, 2, 3],
        "who": {"$key": "target"}, "seen": {"$key": "target"}}}))
    .unwrap();
    let mut log = Vec::new();
    assert_eq!(agent.tick(&mut log, 0.1), Status::Success);
    assert_eq!(
        log,
        ["Vec2 { x: 1.5, y: 2.0 } Vec3 { x: 1.0, y: 2.0, z: 3.0 } 42"]
    );
    assert_eq!(value(&agent, "goal"), json!([2.5, 3.0]));
    assert_eq!(value(&agent, "target"), json!(43));
}

#[test]
fn a_list_key_does_not_bind_to_a_vec2_parameter() {
    let err = load(json!({"type": "Carry", "params": {
        "from": {"$key": "list"}, "to": {"$key": "goal"}, "aim": [1, 2, 3],
        "who": 1, "seen": {"$key": "target"}}}))
    .map(|_| ())
    .unwrap_err();
    assert!(err.contains("`list`"), "{err}");
    assert!(err.contains("list<float>") && err.contains("vec2"), "{err}");
}

#[test]
fn rule7_conditions_compare_vectors_and_entities_by_type_and_value() {
    let check = |equals: Json, key: &str| {
        let mut agent =
            load(json!({"type": "Condition", "params": {"key": key, "equals": equals}}))
                .unwrap_or_else(|e| panic!("{e}"));
        agent.tick(&mut Vec::new(), 0.1)
    };
    assert_eq!(check(json!([1.5, 2]), "pos"), Status::Success);
    assert_eq!(check(json!({"x": 1.5, "y": 2.0}), "pos"), Status::Success);
    assert_eq!(check(json!([1.5, 2.5]), "pos"), Status::Failure);
    assert_eq!(check(json!(42), "target"), Status::Success);
    assert_eq!(check(json!(41), "target"), Status::Failure);
    let err = load(json!({"type": "Condition", "params": {"key": "pos", "equals": [1, 2, 3]}}))
        .map(|_| ())
        .unwrap_err();
    assert!(err.contains("equals") && err.contains("vec2"), "{err}");
}

#[test]
fn set_blackboard_writes_a_vec2() {
    let mut agent =
        load(json!({"type": "SetBlackboard", "params": {"key": "pos", "value": [7, 8]}})).unwrap();
    assert_eq!(agent.tick(&mut Vec::new(), 0.1), Status::Success);
    let bb = agent.blackboard();
    assert_eq!(
        bb.get_vec2(bb.key("pos").unwrap()),
        Some(Vec2::new(7.0, 8.0))
    );
}

#[test]
fn rule80_scripts_read_and_assign_components_of_loaded_keys() {
    let mut agent = load(json!({"type": "Script", "params": {
        "code": "pos.x := goal.x + aim.z; pos.y -= 0.5"}}))
    .unwrap();
    assert_eq!(agent.tick(&mut Vec::new(), 0.1), Status::Success);
    assert_eq!(value(&agent, "pos"), json!([5.0, 1.5]));
    let err = load(json!({"type": "Script", "params": {"code": "pos.z := 1"}}))
        .map(|_| ())
        .unwrap_err();
    assert!(err.contains("$.nodes[0].params.code"), "{err}");
    assert!(
        err.contains("`pos` is a vec2 key: its components are `x`, `y`"),
        "{err}"
    );
}
