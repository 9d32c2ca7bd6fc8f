//! The one table of BehaviorTree.CPP node IDs and their Arbor counterparts, with the port
//! conversions that need no context (docs/interop.md prints the same table).
//!
//! Import looks an element up by its BT.CPP ID (v3 names are aliases); export looks an
//! Arbor node up by its type and takes the first entry whose conversion accepts it, unless
//! the node's recorded origin (`editor.btcpp.origins`) names another entry of the same
//! Arbor type. Conversions that need the blackboard or the tree around the node
//! (SetBlackboard, Script, ScriptCondition, Precondition, SubTree) are carried out in
//! `import/builtins.rs` and `export/builtins.rs`; this file says which entries they are.

use serde_json::{json, Map, Value as Json};

use crate::format::NodeDef;
use crate::spec::Category;
use crate::status::Status;
use crate::value::Scalar;

/// How an entry's ports become Arbor parameters and back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Conv {
    /// No ports, no parameters.
    Plain,
    /// Sequence/Selector: no ports; the Arbor `dynamic` flag is fixed (and `memory` off).
    Dynamic(bool),
    /// SequenceWithMemory: a Sequence with `memory: true` (rule 50).
    Memory,
    /// AsyncSequence / AsyncFallback: `yield: true` (rule 63).
    Yield,
    /// An integer port to an integer parameter; -1 means forever on both sides, 0 and
    /// other negative values have no Arbor equivalent (Repeat, RetryUntilSuccessful).
    Count {
        port: &'static str,
        param: &'static str,
    },
    /// Milliseconds to seconds (Timeout, Delay, Sleep).
    Msec {
        port: &'static str,
        param: &'static str,
    },
    /// A boolean port with a default (RunOnce `then_skip`).
    Flag {
        port: &'static str,
        param: &'static str,
        default: bool,
    },
    /// `success_count` / `failure_count` to `need` and `failures` (see `parallel_need`).
    Parallel,
    /// SwitchN: `variable` and `case_1` … `case_N` (N + 1 children).
    Switch(usize),
    /// AlwaysSuccess / AlwaysFailure: a Scripted leaf returning this status.
    Always(Status),
    /// `value` + `output_key` -> SetBlackboard (import/builtins.rs, export/builtins.rs).
    SetBlackboard,
    /// `code` -> SetBlackboard when it is `key := literal` (the export writes SetBlackboard
    /// and Increment back as such statements).
    Script,
    /// `code` -> a Condition leaf when it is one recognised test.
    ScriptCondition,
    /// `if` + `else="FAILURE"` -> a Sequence with Condition decorators over the child.
    Precondition,
    /// `<SubTree ID=…>` -> Subtree.
    SubTree,
    /// ParallelAll: `max_failures` as it is (rule 64).
    ParallelAll,
    /// LoopInt, LoopDouble, LoopString, LoopBool: a Loop whose elements have this type
    /// (rule 65; import/builtins.rs, export/builtins.rs).
    Loop(Scalar),
    /// WaitValueUpdate (`running`) and SkipUnlessUpdated (SKIPPED: `success`, or `failure`
    /// under a Fallback): an IfUpdated's `otherwise` (rule 67; import/builtins.rs).
    Updated(Status),
    /// A port naming a key, as `{key}` or `key` (`braces`), or only as the plain name
    /// (WasEntryUpdated `entry`, UnsetBlackboard `key`): the Arbor `key` (import/builtins.rs).
    /// Export writes the plain name.
    KeyName { port: &'static str, braces: bool },
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct Entry {
    /// The BT.CPP v4 registration ID.
    pub id: &'static str,
    /// Older names accepted on import (BT.CPP v3).
    pub aliases: &'static [&'static str],
    /// The Arbor node type.
    pub arbor: &'static str,
    pub conv: Conv,
}

const fn entry(id: &'static str, arbor: &'static str, conv: Conv) -> Entry {
    Entry {
        id,
        aliases: &[],
        arbor,
        conv,
    }
}

/// Export takes, for each Arbor type, the first entry that accepts the node; so the
/// canonical BT.CPP form of a type comes first.
pub(crate) const TABLE: &[Entry] = &[
    entry("Sequence", "Sequence", Conv::Dynamic(false)),
    entry("ReactiveSequence", "Sequence", Conv::Dynamic(true)),
    Entry {
        id: "SequenceWithMemory",
        aliases: &["SequenceStar"],
        arbor: "Sequence",
        conv: Conv::Memory,
    },
    entry("Precondition", "Sequence", Conv::Precondition),
    entry("AsyncSequence", "Sequence", Conv::Yield),
    entry("Fallback", "Selector", Conv::Dynamic(false)),
    entry("ReactiveFallback", "Selector", Conv::Dynamic(true)),
    entry("AsyncFallback", "Selector", Conv::Yield),
    Entry {
        id: "Parallel",
        aliases: &[],
        arbor: "Parallel",
        conv: Conv::Parallel,
    },
    entry("IfThenElse", "IfThenElse", Conv::Plain),
    entry("WhileDoElse", "WhileDoElse", Conv::Plain),
    entry("Switch2", "Switch", Conv::Switch(2)),
    entry("Switch3", "Switch", Conv::Switch(3)),
    entry("Switch4", "Switch", Conv::Switch(4)),
    entry("Switch5", "Switch", Conv::Switch(5)),
    entry("Switch6", "Switch", Conv::Switch(6)),
    entry("Inverter", "Inverter", Conv::Plain),
    entry("ForceSuccess", "Succeeder", Conv::Plain),
    entry("ForceFailure", "ForceFailure", Conv::Plain),
    entry(
        "Repeat",
        "Repeat",
        Conv::Count {
            port: "num_cycles",
            param: "count",
        },
    ),
    Entry {
        id: "RetryUntilSuccessful",
        // v3 shipped with this misspelling.
        aliases: &["RetryUntilSuccesful"],
        arbor: "Retry",
        conv: Conv::Count {
            port: "num_attempts",
            param: "attempts",
        },
    },
    entry(
        "KeepRunningUntilFailure",
        "KeepRunningUntilFailure",
        Conv::Plain,
    ),
    entry(
        "Timeout",
        "Timeout",
        Conv::Msec {
            port: "msec",
            param: "seconds",
        },
    ),
    entry(
        "Delay",
        "Delay",
        Conv::Msec {
            port: "delay_msec",
            param: "seconds",
        },
    ),
    entry(
        "RunOnce",
        "RunOnce",
        Conv::Flag {
            port: "then_skip",
            param: "then_skip",
            default: true,
        },
    ),
    entry("AlwaysSuccess", "Scripted", Conv::Always(Status::Success)),
    entry("AlwaysFailure", "Scripted", Conv::Always(Status::Failure)),
    entry(
        "Sleep",
        "Wait",
        Conv::Msec {
            port: "msec",
            param: "seconds",
        },
    ),
    entry("SetBlackboard", "SetBlackboard", Conv::SetBlackboard),
    entry("Script", "SetBlackboard", Conv::Script),
    entry("Script", "Increment", Conv::Script),
    entry("ScriptCondition", "Condition", Conv::ScriptCondition),
    // Any other script runs natively (after the forms above, which `by_id` finds first).
    entry("Script", "Script", Conv::Script),
    entry("ScriptCondition", "ScriptCondition", Conv::ScriptCondition),
    entry("ParallelAll", "ParallelAll", Conv::ParallelAll),
    entry("LoopInt", "Loop", Conv::Loop(Scalar::Int)),
    entry("LoopDouble", "Loop", Conv::Loop(Scalar::Float)),
    entry("LoopString", "Loop", Conv::Loop(Scalar::String)),
    entry("LoopBool", "Loop", Conv::Loop(Scalar::Bool)),
    entry(
        "WaitValueUpdate",
        "IfUpdated",
        Conv::Updated(Status::Running),
    ),
    entry(
        "SkipUnlessUpdated",
        "IfUpdated",
        Conv::Updated(Status::Success),
    ),
    entry(
        "WasEntryUpdated",
        "WasUpdated",
        Conv::KeyName {
            port: "entry",
            braces: true,
        },
    ),
    entry(
        "UnsetBlackboard",
        "UnsetBlackboard",
        Conv::KeyName {
            port: "key",
            braces: false,
        },
    ),
    Entry {
        id: "SubTree",
        // v3's SubTreePlus is v4's SubTree (with `__autoremap`, now `_autoremap`).
        aliases: &["SubTreePlus"],
        arbor: "Subtree",
        conv: Conv::SubTree,
    },
];

/// The entry for a BT.CPP ID or v3 alias.
pub(crate) fn by_id(id: &str) -> Option<&'static Entry> {
    TABLE.iter().find(|e| e.id == id || e.aliases.contains(&id))
}

/// The entries for an Arbor type, canonical first.
pub(crate) fn by_arbor(arbor: &str) -> impl Iterator<Item = &'static Entry> + '_ {
    TABLE.iter().filter(move |e| e.arbor == arbor)
}

/// BT.CPP built-in nodes with no Arbor equivalent. They are imported as opaque node types
/// (kept with all their attributes, exported unchanged) and left out of the exported
/// `<TreeNodesModel>`, since BT.CPP and Groot2 know them already.
pub(crate) const OPAQUE_BUILTINS: &[(&str, Category)] = &[
    ("TryCatch", Category::Composite),
    ("ManualSelector", Category::Composite),
    ("ConsumeQueue", Category::Decorator),
    ("BlackboardCheckInt", Category::Decorator),
    ("BlackboardCheckDouble", Category::Decorator),
    ("BlackboardCheckString", Category::Decorator),
    ("BlackboardCheckBool", Category::Decorator),
    ("PopFromQueue", Category::Action),
    ("AlwaysRunning", Category::Action),
];

/// Every BT.CPP built-in ID (mapped or not), for leaving them out of exported models.
pub(crate) fn is_btcpp_builtin(id: &str) -> bool {
    by_id(id).is_some() || OPAQUE_BUILTINS.iter().any(|(b, _)| *b == id)
}

/// The category of an unmapped BT.CPP built-in (also used when a mapped one had to be
/// imported opaquely).
pub(crate) fn builtin_category(id: &str) -> Option<Category> {
    if let Some((_, c)) = OPAQUE_BUILTINS.iter().find(|(b, _)| *b == id) {
        return Some(*c);
    }
    let entry = by_id(id)?;
    if entry.conv == Conv::Precondition {
        // Arbor writes it as a Sequence, but in BT.CPP it is a decorator.
        return Some(Category::Decorator);
    }
    super::builtin().node(entry.arbor).map(|t| t.category)
}

/// Arbor parameters of an entry with a context-free conversion, from the element's
/// attributes; `Err` says why this element cannot be mapped (it is then imported
/// opaquely). `take` removes a consumed attribute.
pub(crate) fn import_params(
    entry: &Entry,
    take: &mut dyn FnMut(&str) -> Option<String>,
    children: usize,
) -> Result<Map<String, Json>, String> {
    let mut params = Map::new();
    match entry.conv {
        Conv::Plain => {}
        Conv::Dynamic(dynamic) => {
            // Writers omit the default; `dynamic: true` is what matters.
            if dynamic {
                params.insert("dynamic".into(), json!(true));
            }
        }
        Conv::Memory => {
            params.insert("memory".into(), json!(true));
        }
        Conv::Yield => {
            params.insert("yield".into(), json!(true));
        }
        Conv::Count { port, param } => {
            // BT.CPP 4.8 ends the tick after a run that completed at once (rule 49).
            params.insert("yield".into(), json!(true));
            let text = take(port).ok_or_else(|| format!("`{port}` is missing"))?;
            if let Some(key) = super::import::blackboard_ref(&text) {
                // Read when the node starts, as BT.CPP reads it (docs/interop.md).
                params.insert(param.into(), crate::port::binding_json(key));
                return Ok(params);
            }
            let n = int_port(port, &text)?;
            if n == 0 || n < -1 {
                return Err(format!(
                    "`{port}=\"{n}\"` has no Arbor equivalent (only -1 and 1 or more)"
                ));
            }
            params.insert(param.into(), json!(n));
        }
        Conv::Msec { port, param } => {
            let text = take(port).ok_or_else(|| format!("`{port}` is missing"))?;
            if let Some(key) = super::import::blackboard_ref(&text) {
                // The key holds milliseconds: the node reads it with `unit: "ms"`.
                params.insert(param.into(), crate::port::binding_json(key));
                params.insert("unit".into(), json!("ms"));
                return Ok(params);
            }
            let ms = int_port(port, &text)?;
            if ms < 0 {
                return Err(format!("`{port}` must not be negative"));
            }
            params.insert(param.into(), json!(ms as f64 / 1000.0));
        }
        Conv::Flag {
            port,
            param,
            default,
        } => {
            let value = match take(port) {
                None => default,
                Some(text) => bool_port(port, &text)?,
            };
            if value != default {
                params.insert(param.into(), json!(value));
            }
        }
        Conv::Parallel => {
            let success = take("success_count")
                .or_else(|| take("success_threshold"))
                .map(|t| int_port("success_count", &t))
                .transpose()?
                .unwrap_or(-1);
            let failure = take("failure_count")
                .or_else(|| take("failure_threshold"))
                .map(|t| int_port("failure_count", &t))
                .transpose()?
                .unwrap_or(1);
            let (need, failures) = parallel_need(success, failure, children)?;
            params.insert("need".into(), json!(need));
            params.insert("failures".into(), json!(failures));
        }
        Conv::Switch(n) => {
            if children != n + 1 {
                return Err(format!(
                    "{} needs {} children ({} cases and the default), found {children}",
                    entry.id,
                    n + 1,
                    n
                ));
            }
            for k in 1..=n {
                let name = format!("case_{k}");
                if let Some(text) = take(&name) {
                    if super::import::blackboard_ref(&text).is_some() {
                        return Err(format!(
                            "`{name}` reads the blackboard; Arbor cases are fixed"
                        ));
                    }
                    params.insert(name, json!(text));
                }
            }
        }
        Conv::Always(status) => {
            params.insert("returns".into(), json!([status.as_str()]));
        }
        Conv::ParallelAll => {
            let text = take("max_failures").unwrap_or_else(|| "1".to_owned());
            params.insert(
                "max_failures".into(),
                json!(int_port("max_failures", &text)?),
            );
        }
        Conv::SetBlackboard
        | Conv::Script
        | Conv::ScriptCondition
        | Conv::Precondition
        | Conv::SubTree
        | Conv::Loop(_)
        | Conv::Updated(_)
        | Conv::KeyName { .. } => {
            unreachable!("context conversions are done in import/builtins.rs")
        }
    }
    Ok(params)
}

/// BT.CPP Parallel thresholds to Arbor's `need` and `failures` (rule 62, BT.CPP's
/// counting): negative thresholds count from the end (-1 = all children).
pub(crate) fn parallel_need(
    success: i64,
    failure: i64,
    children: usize,
) -> Result<(i64, i64), String> {
    let n = children as i64;
    let resolve = |t: i64| if t < 0 { (n + t + 1).max(0) } else { t };
    let (s, f) = (resolve(success), resolve(failure));
    if s > n || f > n {
        return Err(format!(
            "thresholds success_count={success}, failure_count={failure} exceed the {n} children"
        ));
    }
    if s == 0 && n > 0 {
        // BT.CPP then succeeds after its first child, whatever that child returns.
        return Err(format!(
            "success_count={success} needs no success; Arbor's Parallel needs at least one"
        ));
    }
    Ok((s.max(1), f))
}

/// The Arbor node of an entry with a context-free conversion, as attributes; `Err` says
/// why the node cannot be written this way.
pub(crate) fn export_attrs(
    entry: &Entry,
    node: &NodeDef,
    children: usize,
) -> Result<Vec<(String, String)>, String> {
    let p = &node.params;
    let mut attrs = Vec::new();
    match entry.conv {
        Conv::Plain => {
            if matches!(entry.id, "IfThenElse" | "WhileDoElse") && !(2..=3).contains(&children) {
                return Err(format!(
                    "{} needs 2 or 3 children in BT.CPP, found {children}",
                    entry.id
                ));
            }
        }
        Conv::Dynamic(dynamic) => {
            let is = p.get("dynamic").and_then(Json::as_bool).unwrap_or(false);
            let memory = p.get("memory").and_then(Json::as_bool).unwrap_or(false);
            let yields = p.get("yield").and_then(Json::as_bool).unwrap_or(false);
            if is != dynamic || memory || yields {
                return Err(String::new());
            }
        }
        Conv::Memory => {
            if p.get("memory").and_then(Json::as_bool) != Some(true) {
                return Err(String::new());
            }
        }
        Conv::Yield => {
            let memory = p.get("memory").and_then(Json::as_bool).unwrap_or(false);
            if p.get("yield").and_then(Json::as_bool) != Some(true) || memory {
                return Err(String::new());
            }
        }
        Conv::Count { port, param } => {
            if let Some(key) = p
                .get(param)
                .and_then(|v| crate::port::binding(v).ok().flatten())
            {
                attrs.push((port.to_owned(), format!("{{{key}}}")));
                return Ok(attrs);
            }
            let n = p.get(param).and_then(Json::as_i64).unwrap_or(0);
            // Arbor: count <= 0 repeats forever, attempts -1 retries forever.
            let n = if n <= 0 { -1 } else { n };
            attrs.push((port.to_owned(), n.to_string()));
        }
        Conv::Msec { port, param } => {
            let ms_unit = p.get("unit").and_then(Json::as_str) == Some("ms");
            if let Some(key) = p
                .get(param)
                .and_then(|v| crate::port::binding(v).ok().flatten())
            {
                if !ms_unit {
                    return Err(format!(
                        "`{param}` is bound to `{key}` in seconds; BT.CPP reads milliseconds \
                         (use `unit: \"ms\"`)"
                    ));
                }
                attrs.push((port.to_owned(), format!("{{{key}}}")));
                return Ok(attrs);
            }
            let seconds = p.get(param).and_then(Json::as_f64).unwrap_or(0.0);
            let seconds = if ms_unit { seconds / 1000.0 } else { seconds };
            let ms = (seconds * 1000.0).round();
            if (ms / 1000.0 - seconds).abs() > 1e-9 {
                return Err(format!(
                    "{seconds} s is not a whole number of milliseconds (BT.CPP's unit)"
                ));
            }
            attrs.push((port.to_owned(), format!("{}", ms as i64)));
        }
        Conv::Flag {
            port,
            param,
            default,
        } => {
            let value = p.get(param).and_then(Json::as_bool).unwrap_or(default);
            if value != default {
                attrs.push((port.to_owned(), value.to_string()));
            }
        }
        Conv::Parallel => {
            if children == 0 {
                return Err("a Parallel needs children in BT.CPP".to_owned());
            }
            let n = children as i64;
            let need = p
                .get("need")
                .and_then(Json::as_i64)
                .unwrap_or(1)
                .clamp(1, n);
            // Without `failures` (rule 13's counting) the nearest BT.CPP thresholds; BT.CPP
            // then does not tick a failed child again (docs/interop.md).
            let failures = match p.get("failures").and_then(Json::as_i64) {
                Some(f) if (0..=n).contains(&f) => f,
                Some(f) => return Err(format!("failures={f} exceeds the {n} children")),
                None => n - need + 1,
            };
            attrs.push(("success_count".to_owned(), need.to_string()));
            attrs.push(("failure_count".to_owned(), failures.to_string()));
        }
        Conv::Switch(n) => {
            if children != n + 1 {
                return Err(String::new());
            }
            for k in 1..=n {
                let name = format!("case_{k}");
                if let Some(case) = p.get(&name).and_then(Json::as_str) {
                    attrs.push((name, case.to_owned()));
                }
            }
        }
        Conv::Always(status) => {
            let returns = p
                .get("returns")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_else(|| vec![json!("success")]);
            if !returns.iter().all(|r| r.as_str() == Some(status.as_str())) {
                return Err(String::new());
            }
        }
        Conv::ParallelAll => {
            let m = p.get("max_failures").and_then(Json::as_i64).unwrap_or(1);
            let n = children as i64;
            let threshold = if m < 0 { (n + m + 1).max(0) } else { m };
            if threshold > n {
                return Err(format!(
                    "max_failures={m} exceeds the {n} children; BT.CPP refuses to tick it"
                ));
            }
            attrs.push(("max_failures".to_owned(), m.to_string()));
        }
        Conv::Updated(status) => {
            let otherwise = p
                .get("otherwise")
                .and_then(Json::as_str)
                .unwrap_or("running");
            // SKIPPED is written as success or failure on import (rule 67).
            if (otherwise == "running") != (status == Status::Running) {
                return Err(String::new());
            }
            // The plain name: BT.CPP 4.8 declares an `entry="{n}"` key of type `BT::Any`,
            // which a SetBlackboard of the same key then cannot write ("Can't convert
            // string [7] to type [BT::Any]", seen in the differential test).
            attrs.push(("entry".to_owned(), key_param(p)));
        }
        Conv::KeyName { port, .. } => {
            // The plain name, for WasEntryUpdated too (see `Conv::Updated`).
            attrs.push((port.to_owned(), key_param(p)));
        }
        Conv::SetBlackboard
        | Conv::Script
        | Conv::ScriptCondition
        | Conv::Precondition
        | Conv::SubTree
        | Conv::Loop(_) => {
            unreachable!("context conversions are done in export/builtins.rs")
        }
    }
    Ok(attrs)
}

fn key_param(p: &Map<String, Json>) -> String {
    p.get("key").and_then(Json::as_str).unwrap_or("").to_owned()
}

/// BT.CPP's `if_empty` / SKIPPED-style status port as Arbor's `success` / `failure`: a
/// skipped node is passed over, which is success in a Sequence and failure under a
/// Fallback (`in_selector`, rule 56).
pub(crate) fn skip_status(port: &str, text: &str, in_selector: bool) -> Result<Status, String> {
    match text.trim() {
        "SUCCESS" => Ok(Status::Success),
        "FAILURE" => Ok(Status::Failure),
        "SKIPPED" if in_selector => Ok(Status::Failure),
        "SKIPPED" => Ok(Status::Success),
        _ => Err(format!(
            "`{port}=\"{text}\"` is not SUCCESS, FAILURE or SKIPPED"
        )),
    }
}

/// A BT.CPP `queue` literal of a Loop (`"1;2;3"`, split at `;` as BT.CPP does) as a JSON
/// list of `element`s.
pub(crate) fn queue_literal(text: &str, element: Scalar) -> Result<Json, String> {
    // BT.CPP's split: no element after a final `;`, none at all in an empty text.
    let mut parts: Vec<&str> = text.split(';').collect();
    if text.is_empty() || text.ends_with(';') {
        parts.pop();
    }
    parts
        .into_iter()
        .map(|part| {
            let bad = || format!("queue element `{part}` is not {}", element.as_str());
            Ok(match element {
                Scalar::Int => json!(part.trim().parse::<i64>().map_err(|_| bad())?),
                Scalar::Float => json!(part.trim().parse::<f64>().map_err(|_| bad())?),
                Scalar::Bool => json!(bool_port("queue", part).map_err(|_| bad())?),
                Scalar::String => json!(part),
            })
        })
        .collect::<Result<Vec<Json>, String>>()
        .map(Json::Array)
}

fn int_port(port: &str, text: &str) -> Result<i64, String> {
    if super::import::blackboard_ref(text).is_some() {
        return Err(format!(
            "`{port}` reads the blackboard; the Arbor parameter is fixed"
        ));
    }
    text.trim()
        .parse::<i64>()
        .map_err(|_| format!("`{port}=\"{text}\"` is not an integer"))
}

fn bool_port(port: &str, text: &str) -> Result<bool, String> {
    match text.trim() {
        "true" | "1" | "TRUE" | "True" => Ok(true),
        "false" | "0" | "FALSE" | "False" => Ok(false),
        _ if super::import::blackboard_ref(text).is_some() => Err(format!(
            "`{port}` reads the blackboard; the Arbor parameter is fixed"
        )),
        _ => Err(format!("`{port}=\"{text}\"` is not a boolean")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_thresholds() {
        // BT.CPP defaults: all must succeed, one failure fails.
        assert_eq!(parallel_need(-1, 1, 3), Ok((3, 1)));
        // One success is enough and all must fail.
        assert_eq!(parallel_need(1, -1, 3), Ok((1, 3)));
        // One success, one failure (a race): whichever comes first.
        assert_eq!(parallel_need(1, 1, 3), Ok((1, 1)));
        assert!(parallel_need(4, 1, 3).is_err());
        assert!(parallel_need(0, 1, 3).is_err());
    }

    #[test]
    fn every_table_entry_names_a_builtin_arbor_type() {
        let types = crate::NodeTypes::builtin();
        for e in TABLE {
            assert!(types.node(e.arbor).is_some(), "{} -> {}", e.id, e.arbor);
            assert_eq!(by_id(e.id).map(|f| f.id), Some(e.id));
            for a in e.aliases {
                assert_eq!(by_id(a).map(|f| f.id), Some(e.id));
            }
        }
        assert!(is_btcpp_builtin("LoopInt"));
        assert!(!is_btcpp_builtin("OpenDoor"));
    }

    #[test]
    fn rule65_queue_literals_split_as_btcpp_does() {
        assert_eq!(queue_literal("1;2;3", Scalar::Int), Ok(json!([1, 2, 3])));
        assert_eq!(queue_literal("1;2;", Scalar::Int), Ok(json!([1, 2])));
        assert_eq!(queue_literal("", Scalar::Int), Ok(json!([])));
        assert_eq!(
            queue_literal("a; b", Scalar::String),
            Ok(json!(["a", " b"]))
        );
        assert_eq!(queue_literal("0.5;2", Scalar::Float), Ok(json!([0.5, 2.0])));
        assert_eq!(
            queue_literal("true;0", Scalar::Bool),
            Ok(json!([true, false]))
        );
        assert!(queue_literal("1;x", Scalar::Int).is_err());
    }

    #[test]
    fn skipped_is_passed_over_by_the_parent() {
        assert_eq!(
            skip_status("if_empty", "SKIPPED", false),
            Ok(Status::Success)
        );
        assert_eq!(
            skip_status("if_empty", "SKIPPED", true),
            Ok(Status::Failure)
        );
        assert_eq!(
            skip_status("if_empty", "FAILURE", false),
            Ok(Status::Failure)
        );
        assert!(skip_status("if_empty", "RUNNING", false).is_err());
    }
}
