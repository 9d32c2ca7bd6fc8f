//! Random valid trees for the differential test: every built-in node kind, host leaves
//! (with and without hooks, stateful), attached decorators of every kind with every abort
//! type, and choices between guarded branches (the usual game shape). Seeded and deterministic: tree `i` is the same on every machine.

use serde_json::{json, Map, Value};

/// xorshift64*: enough for shapes, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// The host node types random trees use, as a node-types manifest.
pub const HOST_MANIFEST: &str = r#"{
  "format": "arbor-node-types", "version": 1,
  "nodes": [
    {"name": "HostA", "category": "Action", "description": "Hooks; status from the host's script.", "host": true},
    {"name": "HostB", "category": "Action", "description": "No hooks; status from the host's script.", "host": true},
    {"name": "HostC", "category": "Condition", "description": "Success or failure from the host's script.", "host": true},
    {"name": "HostS", "category": "Action", "description": "Stateful: counts its ticks per execution.", "host": true}
  ]
}"#;

/// The blackboard every random tree declares.
fn blackboard() -> Value {
    json!([
        {"key": "b", "type": "bool", "default": true},
        {"key": "c", "type": "bool", "default": false},
        {"key": "n", "type": "int", "default": 0},
        {"key": "f", "type": "float", "default": 0.5},
        {"key": "s", "type": "json"}
    ])
}

const ABORTS: &[&str] = &["None", "Self", "LowerPriority", "Both"];

fn leaf(r: &mut Rng) -> Value {
    match r.below(16) {
        0..=2 => json!({"type": "HostA"}),
        3..=4 => json!({"type": "HostB"}),
        5 => json!({"type": "HostC"}),
        6 => json!({"type": "HostS"}),
        7 => {
            let k = 1 + r.below(3);
            let returns: Vec<&str> = (0..k)
                .map(|_| r.pick(&["success", "failure", "running"]))
                .collect();
            json!({"type": "Scripted", "params": {"returns": returns}})
        }
        8 => {
            json!({"type": "Wait", "params": {"seconds": r.pick(&["0.1", "0.2", "0.3"]).parse::<f64>().unwrap_or(0.1)}})
        }
        9 => {
            json!({"type": "Condition", "params": {"key": r.pick(&["b", "c"]), "equals": r.chance(50)}})
        }
        10 => json!({"type": "Increment", "params": {"key": "n", "by": 1 + r.below(2)}}),
        11 => {
            let mut params = json!({"key": r.pick(&["b", "c"]), "value": r.chance(50)});
            if r.chance(40) {
                params["ttl"] = json!(0.25);
            }
            json!({"type": "SetBlackboard", "params": params})
        }
        12 => json!({"type": r.pick(&["SendEvent", "SetTrigger"]), "params": {}}),
        13 => json!({"type": "Log", "params": {"message": "n is {n}"}}),
        14 => json!({"type": "Random", "params": {"probability": 0.5}}),
        _ => {
            if r.chance(50) {
                json!({"type": "Script", "params": {"code": r.pick(&["n = n + 1", "c = !c", "f = f + 0.5"])}})
            } else {
                json!({"type": "ScriptCondition", "params": {"code": r.pick(&["n > 2", "b && !c", "f < 1.5"])}})
            }
        }
    }
}

/// Fills in the event/trigger parameter of a SendEvent/SetTrigger leaf.
fn signal_params(node: &mut Value, r: &mut Rng) {
    match node["type"].as_str() {
        Some("SendEvent") => node["params"] = json!({"event": r.pick(&["e1", "e2"])}),
        Some("SetTrigger") => node["params"] = json!({"trigger": r.pick(&["t1", "t2"])}),
        _ => {}
    }
}

fn children(r: &mut Rng, depth: u32, min: u64, max: u64) -> Vec<Value> {
    let k = min + r.below(max - min + 1);
    (0..k).map(|_| node(r, depth - 1)).collect()
}

fn node(r: &mut Rng, depth: u32) -> Value {
    let mut n = if depth == 0 || r.chance(30) {
        leaf(r)
    } else {
        match r.below(22) {
            // Plain loops are what generated code emits: the commonest.
            0..=4 => json!({"type": "Sequence", "children": children(r, depth, 0, 4)}),
            // The usual game shape: a choice between guarded branches whose conditions
            // abort (rules 23 to 27), which generated code emits too.
            20 | 21 => guarded_choice(r, depth),
            5..=8 => json!({"type": "Selector", "children": children(r, depth, 0, 4)}),
            9 => {
                let mut params = Map::new();
                params.insert("dynamic".into(), json!(r.chance(50)));
                if !params["dynamic"].as_bool().unwrap_or(false) {
                    params.insert("memory".into(), json!(r.chance(50)));
                }
                // `yield` excludes `dynamic` (the loader refuses both).
                let dynamic = params["dynamic"].as_bool().unwrap_or(false);
                params.insert("yield".into(), json!(!dynamic && r.chance(30)));
                json!({"type": "Sequence", "params": params, "children": children(r, depth, 1, 3)})
            }
            10 => {
                let dynamic = r.chance(60);
                json!({"type": "Selector", "params": {"dynamic": dynamic, "yield": !dynamic && r.chance(30)}, "children": children(r, depth, 1, 3)})
            }
            11 => {
                let kids = children(r, depth, 1, 3);
                let need = 1 + r.below(kids.len() as u64);
                let mut params = json!({"need": need});
                if r.chance(40) {
                    params["failures"] = json!(1 + r.below(kids.len() as u64));
                }
                json!({"type": "Parallel", "params": params, "children": kids})
            }
            12 => {
                json!({"type": r.pick(&["IfThenElse", "WhileDoElse"]), "children": children(r, depth, 2, 3)})
            }
            13 => {
                json!({"type": "Switch", "params": {"variable": "s", "case_1": "a", "case_2": "1"}, "children": children(r, depth, 3, 3)})
            }
            14 => {
                json!({"type": r.pick(&["Inverter", "Succeeder", "ForceFailure", "KeepRunningUntilFailure"]), "children": children(r, depth, 1, 1)})
            }
            15 => {
                json!({"type": "Repeat", "params": {"count": r.below(4), "yield": r.chance(30)}, "children": children(r, depth, 1, 1)})
            }
            16 => {
                json!({"type": "Retry", "params": {"attempts": 1 + r.below(3), "yield": r.chance(30)}, "children": children(r, depth, 1, 1)})
            }
            17 => {
                json!({"type": "Limiter", "params": {"max": 1 + r.below(3)}, "children": children(r, depth, 1, 1)})
            }
            18 => {
                json!({"type": r.pick(&["Timeout", "Delay"]), "params": {"seconds": 0.25}, "children": children(r, depth, 1, 1)})
            }
            _ => {
                json!({"type": "RunOnce", "params": {"then_skip": r.chance(50)}, "children": children(r, depth, 1, 1)})
            }
        }
    };
    signal_params(&mut n, r);
    // Rule 79: a few branches switched off (the root is kept on by `tree`).
    if r.chance(6) {
        n["enabled"] = json!(false);
    }
    if r.chance(25) {
        let k = 1 + r.below(2);
        let ds: Vec<Value> = (0..k).map(|_| decorator(r)).collect();
        n["decorators"] = json!(ds);
    }
    n
}

/// A Selector (or, less often, a Sequence; either `dynamic` at times) whose children are
/// Sequences or Selectors guarded by Condition or CheckTrigger decorators with every abort
/// type, the last child often unguarded (the fallback branch).
fn guarded_choice(r: &mut Rng, depth: u32) -> Value {
    let k = 2 + r.below(3);
    let kids: Vec<Value> = (0..k)
        .map(|i| {
            let kind = if r.chance(70) { "Sequence" } else { "Selector" };
            let mut kid = json!({"type": kind, "children": children(r, depth.max(2) - 1, 1, 3)});
            if i + 1 < k || r.chance(30) {
                let abort = r.pick(ABORTS);
                let guard = if r.chance(75) {
                    json!({"type": "Condition", "params": {"key": r.pick(&["b", "c"]), "equals": true, "invert": r.chance(25), "abort": abort}})
                } else {
                    json!({"type": "CheckTrigger", "params": {"trigger": r.pick(&["t1", "t2"]), "reset": r.pick(&["Immediate", "EnterNode", "LeaveNode"]), "abort": abort}})
                };
                kid["decorators"] = json!([guard]);
            }
            kid
        })
        .collect();
    let kind = if r.chance(75) { "Selector" } else { "Sequence" };
    json!({"type": kind, "params": {"dynamic": r.chance(20)}, "children": kids})
}

fn decorator(r: &mut Rng) -> Value {
    let abort = r.pick(ABORTS);
    let invert = r.chance(25);
    match r.below(13) {
        0 => {
            json!({"type": "Precondition", "params": {"key": r.pick(&["b", "c"]), "equals": true, "invert": invert}})
        }
        1 | 2 => {
            json!({"type": "Condition", "params": {"key": r.pick(&["b", "c"]), "equals": true, "invert": invert, "abort": abort}})
        }
        3 => {
            json!({"type": "CheckEvent", "params": {"event": r.pick(&["e1", "e2"]), "invert": invert, "abort": abort}})
        }
        4 => {
            json!({"type": "CheckTrigger", "params": {"trigger": r.pick(&["t1", "t2"]), "reset": r.pick(&["Immediate", "EnterNode", "LeaveNode"]), "invert": invert, "abort": abort}})
        }
        5 => json!({"type": "Inverter"}),
        6 => {
            json!({"type": "SkipIf", "params": {"code": "n > 3", "skipped": r.pick(&["success", "failure"])}})
        }
        7 => {
            json!({"type": "While", "params": {"code": "n < 5", "skipped": r.pick(&["success", "failure"])}})
        }
        8 => json!({"type": r.pick(&["SuccessIf", "FailureIf"]), "params": {"code": "c"}}),
        9 => json!({"type": "Post", "params": {"code": "n = n + 1"}}),
        10 => json!({"type": "OnSuccess", "params": {"code": "c = !c"}}),
        11 => json!({"type": "OnFailure", "params": {"code": "f = f + 1.0"}}),
        _ => json!({"type": "OnHalted", "params": {"code": "n = 0"}}),
    }
}

fn guid(tree: u64, n: usize) -> String {
    format!("{:08x}-0000-4000-8000-{n:012}", tree as u32)
}

fn flatten(node: &Value, tree: u64, out: &mut Vec<Value>, counter: &mut usize) -> String {
    let id = guid(tree, *counter);
    *counter += 1;
    let index = out.len();
    let mut def = Map::new();
    def.insert("guid".into(), json!(id));
    def.insert("name".into(), json!(format!("n{index}")));
    def.insert("type".into(), node["type"].clone());
    if let Some(enabled) = node.get("enabled") {
        def.insert("enabled".into(), enabled.clone());
    }
    if let Some(p) = node.get("params") {
        def.insert("params".into(), p.clone());
    }
    if let Some(ds) = node.get("decorators").and_then(Value::as_array) {
        let ds: Vec<Value> = ds
            .iter()
            .map(|d| {
                let mut d = d.clone();
                d["guid"] = json!(guid(tree, *counter));
                *counter += 1;
                d
            })
            .collect();
        def.insert("decorators".into(), json!(ds));
    }
    out.push(Value::Object(def));
    if let Some(children) = node.get("children").and_then(Value::as_array) {
        let ids: Vec<String> = children
            .iter()
            .map(|c| flatten(c, tree, out, counter))
            .collect();
        out[index]["children"] = json!(ids);
    }
    id
}

/// Random tree number `i`: its file's text.
pub fn tree(i: u64) -> String {
    let mut r = Rng::new(0x5eed_0000 + i);
    let depth = 2 + r.below(3) as u32;
    // The root is a composite most of the time: a leaf root is a tree too.
    let mut root = node(&mut r, depth);
    if let Some(root) = root.as_object_mut() {
        root.remove("enabled");
    }
    let mut nodes = Vec::new();
    let mut counter = 1;
    flatten(&root, i, &mut nodes, &mut counter);
    let file = json!({
        "format": "arbor-tree",
        "version": 3,
        "guid": guid(i, 0),
        "name": format!("random{i}"),
        "blackboard": blackboard(),
        "root": guid(i, 1),
        "nodes": nodes,
    });
    serde_json::to_string_pretty(&file).unwrap_or_default()
}
