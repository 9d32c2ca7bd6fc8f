//! The conversions of BT.CPP's built-in nodes that need more than the table in
//! `mapping` (part of pass 2): SetBlackboard, Script, ScriptCondition, Precondition,
//! the Loops, the update watchers and the nodes that name a key.

use serde_json::json;

use super::super::mapping::{self, Conv, Entry};
use super::super::script::{self, Join, Lit, Stmt, Test};
use super::super::xml::Element;
use super::*;
use crate::status::Status;
use crate::value::Scalar;

/// Is `entry` the one export picks for its Arbor type by default?
pub(super) fn is_canonical(entry: &Entry) -> bool {
    mapping::by_arbor(entry.arbor)
        .next()
        .is_some_and(|first| std::ptr::eq(first, entry))
        || matches!(
            entry.conv,
            Conv::Dynamic(true) | Conv::Memory | Conv::Yield | Conv::Switch(_) | Conv::Always(_)
        )
}

pub(super) fn parse(src: &str, join: Join) -> Result<Vec<Test>, String> {
    script::parse_tests(src, join).ok_or_else(|| {
        "only `key`, `!key`, `key == value` and `key != value` (joined by one of && or ||) \
         have an Arbor equivalent"
            .to_owned()
    })
}

pub(super) fn map_set_blackboard(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let key_text = take("output_key").ok_or("`output_key` is missing")?;
    let key = blackboard_ref(&key_text)
        .unwrap_or(key_text.trim())
        .to_owned();
    if key.is_empty() {
        // An Arbor key needs a name; the loader would refuse the file.
        return Err("`output_key` is empty".into());
    }
    let value = take("value").ok_or("`value` is missing")?;
    let mut d = Draft::new("SetBlackboard", name, el);
    if let Some(other) = blackboard_ref(&value) {
        // A copy: the value is bound to the other key, read when the node runs.
        d.params = vec![
            ("key".into(), ParamValue::Key(key)),
            ("value".into(), ParamValue::Bind(other.to_owned())),
        ];
        return Ok(d);
    }
    d.params = vec![
        ("key".into(), ParamValue::Key(key.clone())),
        (
            "value".into(),
            ParamValue::Typed {
                lit: Lit::from_text(&value),
                key,
            },
        ),
    ];
    Ok(d)
}

pub(super) fn map_script(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let code = take("code").ok_or("`code` is missing")?;
    let Some(stmt) = script::parse_stmt(&code) else {
        return Importer::script_leaf(el, "Script", name, &code);
    };
    let d = match stmt {
        Stmt::Assign { key, value } => {
            let mut d = Draft::new("SetBlackboard", name, el);
            d.params = vec![
                ("key".into(), ParamValue::Key(key.clone())),
                ("value".into(), ParamValue::Typed { lit: value, key }),
            ];
            d
        }
        // Never read (`parse_stmt` gives only `:=`): the export's form of an Increment.
        Stmt::Add { .. } => return Importer::script_leaf(el, "Script", name, &code),
    };
    Ok(d)
}

pub(super) fn map_script_condition(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let code = take("code").ok_or("`code` is missing")?;
    // A Condition leaf tests equality; `!=` is the same leaf under an Inverter, which
    // would change the shape, so only `key` and `key == value` map to it.
    let test = match parse(&code, Join::All).ok().as_deref() {
        Some([test]) if !test.negated => test.clone(),
        _ => return Importer::script_leaf(el, "ScriptCondition", name, &code),
    };
    let mut d = Draft::new("Condition", name, el);
    d.params = vec![
        ("key".into(), ParamValue::Key(test.key.clone())),
        (
            "equals".into(),
            ParamValue::Typed {
                lit: test.value.clone(),
                key: test.key.clone(),
            },
        ),
    ];
    Ok(d)
}

pub(super) fn map_precondition(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let otherwise = take("else").unwrap_or_else(|| "FAILURE".to_owned());
    let src = take("if").ok_or("`if` is missing")?;
    let tests = match parse(&src, Join::All) {
        Ok(tests) if otherwise.trim() == "FAILURE" => tests,
        _ => return Importer::script_precondition(el, name, &src, otherwise.trim()),
    };
    let mut d = Draft::new("Sequence", name, el);
    d.decorators = tests
        .into_iter()
        .map(|test| DraftDecorator {
            kind: "Condition",
            test,
            origin: "if",
        })
        .collect();
    Ok(d)
}

/// The element type of a Loop draft: its BT.CPP ID (LoopInt when it is the canonical
/// one, which records no origin).
pub(super) fn loop_element(d: &Draft) -> Scalar {
    match d.origin.as_deref() {
        Some("LoopDouble") => Scalar::Float,
        Some("LoopString") => Scalar::String,
        Some("LoopBool") => Scalar::Bool,
        _ => Scalar::Int,
    }
}

/// LoopInt, LoopDouble, LoopString, LoopBool -> Loop (rule 65): a `queue` text becomes a
/// list, `{key}` stays bound; `value` must name a key.
pub(super) fn map_loop(
    el: &Element,
    name: &str,
    element: Scalar,
    in_selector: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let queue = take("queue").ok_or("`queue` is missing")?;
    let value = take("value").ok_or("`value` is missing")?;
    let value = blackboard_ref(&value)
        .ok_or_else(|| format!("`value=\"{value}\"` must name a key, as `{{key}}`"))?
        .to_owned();
    let queue = match blackboard_ref(&queue) {
        Some(key) => ParamValue::Bind(key.to_owned()),
        None => ParamValue::Json(mapping::queue_literal(&queue, element)?),
    };
    let mut d = Draft::new("Loop", name, el);
    d.params.push(("queue".to_owned(), queue));
    d.params.push(("value".to_owned(), ParamValue::Key(value)));
    if let Some(text) = take("if_empty") {
        if mapping::skip_status("if_empty", &text, in_selector)? == Status::Failure {
            d.params
                .push(("if_empty".to_owned(), ParamValue::Json(json!("failure"))));
        }
    }
    Ok(d)
}

/// WaitValueUpdate / SkipUnlessUpdated -> IfUpdated (rule 67): `entry` names the key,
/// with or without braces (BT.CPP reads both as the key's name).
pub(super) fn map_updated(
    el: &Element,
    name: &str,
    status: Status,
    in_selector: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let key = named_key("entry", true, take)?;
    let otherwise = match status {
        Status::Running => "running",
        // SKIPPED: passed over by the parent (rule 56).
        _ if in_selector => "failure",
        _ => "success",
    };
    let mut d = Draft::new("IfUpdated", name, el);
    d.params.push(("key".to_owned(), ParamValue::Key(key)));
    d.params
        .push(("otherwise".to_owned(), ParamValue::Json(json!(otherwise))));
    Ok(d)
}

/// WasEntryUpdated / UnsetBlackboard -> WasUpdated / UnsetBlackboard: the port names the
/// key; with `braces` also as `{key}`, without them `{key}` would read the name from the
/// blackboard, which an Arbor key parameter cannot.
pub(super) fn map_key_name(
    el: &Element,
    arbor: &str,
    name: &str,
    port: &str,
    braces: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let key = named_key(port, braces, take)?;
    let mut d = Draft::new(arbor, name, el);
    d.params.push(("key".to_owned(), ParamValue::Key(key)));
    Ok(d)
}

/// The key a port names: `key`, or with `braces` also `{key}`.
pub(super) fn named_key(
    port: &str,
    braces: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<String, String> {
    let text = take(port).ok_or_else(|| format!("`{port}` is missing"))?;
    let key = match blackboard_ref(&text) {
        Some(key) if braces => key,
        Some(_) => {
            return Err(format!(
                "`{port}=\"{text}\"` reads the key's name from the blackboard; Arbor's key is fixed"
            ))
        }
        None => text.trim(),
    };
    if key.is_empty() {
        return Err(format!("`{port}` is empty"));
    }
    Ok(key.to_owned())
}
