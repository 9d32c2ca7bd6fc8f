//! User value types registered by name (docs/format.md, "User value types"): keys and
//! parameters of the type in files and manifests, located errors for values that do not
//! match, host ports reading and writing them unboxed with no allocation per write, rule
//! 100's equality in Conditions and scripts, and the JSON form through the type's serde.

use std::sync::Arc;

use arbor_runtime::{
    Action, ActionCtx, Agent, Args, InPort, NodeType, NodeTypes, OutPort, ParamKind, ParamSpec,
    Registry, Status, Value, ValueType,
};
use serde_json::{json, Value as Json};

use crate::common::tree_json;
use crate::engine::counting_alloc::allocations;

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Faction {
    #[default]
    Neutral,
    Red,
    Blue,
}

/// A struct-shaped user type: its JSON form is an object.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct WeaponId {
    slot: u8,
    id: u32,
}

fn v2(root: Json, blackboard: Json) -> String {
    let mut file = tree_json(root, blackboard);
    file["version"] = json!(2);
    file.to_string()
}

fn keys() -> Json {
    json!([
        {"key": "side", "type": "faction", "default": "red"},
        {"key": "enemy", "type": "faction", "default": "blue"},
        {"key": "other", "type": "faction", "default": "blue"},
        {"key": "weapon", "type": "weapon_id", "default": {"slot": 1, "id": 7}}
    ])
}

/// Reads `side`, writes its opposite to `out`.
struct Turn {
    side: InPort<Value>,
    out: OutPort<Value>,
}

impl Action<u32> for Turn {
    fn tick(&self, cx: &mut ActionCtx<'_, u32>) -> Status {
        let now = cx.get(&self.side).and_then(Value::as_user::<Faction>);
        let next = match now {
            Some(Faction::Red) => Faction::Blue,
            _ => Faction::Red,
        };
        *cx.agent += 1;
        // Checked against the key's type here: `Value` ports take any type.
        match Value::user(next).map(|value| cx.set_value(&self.out, value)) {
            Some(Ok(())) => Status::Success,
            _ => Status::Failure,
        }
    }
}

fn registry() -> Registry<u32> {
    let mut registry = Registry::new();
    registry
        .value_type::<Faction>("faction", "Which side an agent fights for.")
        .value_type::<WeaponId>("weapon_id", "A weapon in an inventory slot.");
    registry.register(
        NodeType::action("Turn", "")
            .param(ParamSpec::new(
                "side",
                ParamKind::parse("faction").unwrap(),
                "",
            ))
            .param(ParamSpec::new("out", ParamKind::parse("faction").unwrap(), "").output()),
        |args: &Args| {
            Ok(Turn {
                side: args.port("side")?,
                out: args.output("out")?,
            })
        },
    );
    registry
}

fn load(root: Json) -> Result<Agent<u32>, String> {
    registry()
        .loader()
        .load_str(&v2(root, keys()), None)
        .map(|tree| Agent::new(Arc::new(tree), 1))
        .map_err(|e| e.to_string())
}

fn value(agent: &Agent<u32>, key: &str) -> Json {
    let bb = agent.blackboard();
    bb.get(bb.key(key).unwrap())
        .map_or(Json::Null, Value::to_json)
}

#[test]
fn keys_of_a_user_type_load_unboxed_and_read_back_as_their_json() {
    let agent = load(json!({"type": "Log", "params": {"message": "-"}})).unwrap();
    let bb = agent.blackboard();
    let side = bb.get(bb.key("side").unwrap()).unwrap();
    assert!(matches!(side, Value::User(_)), "{side:?}");
    assert_eq!(side.as_user::<Faction>(), Some(Faction::Red));
    let weapon = bb.get(bb.key("weapon").unwrap()).unwrap();
    assert_eq!(
        weapon.as_user::<WeaponId>(),
        Some(WeaponId { slot: 1, id: 7 })
    );
    assert_eq!(bb.to_json()["weapon"], json!({"slot": 1, "id": 7}));
    assert_eq!(
        bb.info(bb.key("side").unwrap()).ty,
        ValueType::parse("faction").unwrap()
    );
}

#[test]
fn a_value_that_does_not_match_its_type_is_located() {
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
    let err = bad(json!({"key": "side", "type": "faction", "default": "purple"}));
    assert!(err.contains("$.blackboard[0].default"), "{err}");
    assert!(err.contains("unknown variant `purple`"), "{err}");
    let err = bad(json!({"key": "w", "type": "weapon_id", "default": {"slot": 1}}));
    assert!(err.contains("missing field `id`"), "{err}");
    let err = bad(json!({"key": "w", "type": "weapon"}));
    assert!(
        err.contains("a user value type: ") && err.contains("faction"),
        "{err}"
    );
    let err = load(json!({"type": "Turn", "params": {"side": "green", "out": {"$key": "side"}}}))
        .map(|_| ())
        .unwrap_err();
    assert!(err.contains("params.side"), "{err}");
}

#[test]
fn host_ports_read_and_write_user_values() {
    let mut agent = load(json!({"type": "Turn", "params": {
        "side": {"$key": "side"}, "out": {"$key": "side"}}}))
    .unwrap();
    let mut turns = 0;
    assert_eq!(agent.tick(&mut turns, 0.1), Status::Success);
    assert_eq!(value(&agent, "side"), json!("blue"));
    assert_eq!(agent.tick(&mut turns, 0.1), Status::Success);
    assert_eq!(value(&agent, "side"), json!("red"));
    let err = load(json!({"type": "Turn", "params": {
        "side": {"$key": "side"}, "out": {"$key": "weapon"}}}))
    .map(|_| ())
    .unwrap_err();
    assert!(
        err.contains("`weapon`") && err.contains("weapon_id"),
        "{err}"
    );
}

#[test]
fn writing_a_user_value_does_not_allocate() {
    let mut agent = load(json!({"type": "Turn", "params": {
        "side": {"$key": "side"}, "out": {"$key": "side"}}}))
    .unwrap();
    let mut turns = 0;
    agent.tick(&mut turns, 0.1);
    let before = allocations();
    for _ in 0..1_000 {
        agent.tick(&mut turns, 0.1);
    }
    assert_eq!(allocations() - before, 0, "allocations over 1,000 writes");
    assert_eq!(turns, 1_001);
}

#[test]
fn rule100_user_values_compare_by_type_then_the_types_equality() {
    let run = |root: Json| {
        let mut agent = load(root).unwrap_or_else(|e| panic!("{e}"));
        agent.tick(&mut 0, 0.1)
    };
    let condition =
        |equals: Json| json!({"type": "Condition", "params": {"key": "side", "equals": equals}});
    assert_eq!(run(condition(json!("red"))), Status::Success);
    assert_eq!(run(condition(json!("blue"))), Status::Failure);
    let script = |code: &str| json!({"type": "ScriptCondition", "params": {"code": code}});
    assert_eq!(run(script("enemy == other")), Status::Success);
    assert_eq!(run(script("side == other")), Status::Failure);
    assert_eq!(run(script("side != enemy")), Status::Success);
    // Scripts have no literals of user types: a comparison with a string is refused.
    let err = load(script("side == 'red'")).map(|_| ()).unwrap_err();
    assert!(
        err.contains("`side` holds faction values: scripts compare them with `==` or `!=` to another faction key only"),
        "{err}"
    );
}

#[test]
fn the_manifest_describes_user_types_and_declares_them_where_there_is_no_code() {
    let manifest = registry().manifest();
    let parsed: Json = serde_json::from_str(&manifest).unwrap();
    let faction = parsed["value_types"]
        .as_array()
        .and_then(|types| types.iter().find(|t| t["name"] == "faction"))
        .cloned()
        .unwrap();
    assert_eq!(faction["default"], json!("neutral"));
    assert_eq!(
        faction["description"],
        json!("Which side an agent fights for.")
    );

    let declared = r#"{"format": "arbor-node-types", "version": 1,
        "value_types": [{"name": "user_values_test_squad", "default": "alpha",
                         "values": ["alpha", "bravo"]}],
        "nodes": [{"name": "Rally", "category": "Action", "description": "",
                   "params": [{"name": "squad", "type": "user_values_test_squad",
                               "description": ""}]}]}"#;
    let mut types = NodeTypes::builtin();
    assert_eq!(types.merge_manifest(declared), Ok(1));
    let ty = ValueType::parse("user_values_test_squad").unwrap();
    assert!(ty.coerce(&json!("bravo")).is_ok());
    assert_eq!(
        ty.coerce(&json!("charlie")).unwrap_err(),
        "expected one of \"alpha\", \"bravo\", found string \"charlie\""
    );
}
