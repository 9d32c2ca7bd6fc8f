//! Writing Arbor's built-in nodes as BT.CPP's: the table in `mapping` read backwards,
//! preferring the ID the node was imported from; Loops, Preconditions and the
//! attribute text of parameter values.

use serde_json::Value as Json;

use super::*;

impl Exporter<'_> {
    pub(super) fn builtin(
        &mut self,
        at: &Place<'_>,
        node: &NodeDef,
        children: &[&NodeDef],
        ty: &NodeType,
    ) -> Result<Element, String> {
        let origin = at.meta.origins.get(&node.guid).map(String::as_str);
        let entries: Vec<&'static Entry> = mapping::by_arbor(&ty.name).collect();
        if entries.is_empty() {
            return Err(no_equivalent(&ty.name));
        }
        // The recorded origin first, then the table order.
        let preferred = entries
            .iter()
            .copied()
            .filter(|e| Some(e.id) == origin)
            .chain(entries.iter().copied().filter(|e| Some(e.id) != origin));
        let mut why = String::new();
        for entry in preferred {
            match self.convert(at, entry, node, children) {
                Ok(e) => return Ok(e),
                Err(w) if !w.is_empty() && why.is_empty() => why = w,
                Err(_) => {}
            }
        }
        Err(if why.is_empty() {
            format!("no BT.CPP node matches this {}", ty.name)
        } else {
            why
        })
    }

    pub(super) fn convert(
        &mut self,
        at: &Place<'_>,
        entry: &'static Entry,
        node: &NodeDef,
        children: &[&NodeDef],
    ) -> Result<Element, String> {
        let p = &node.params;
        let str_param = |name: &str| p.get(name).and_then(Json::as_str).unwrap_or("").to_owned();
        let mut out = Out::new(entry.id);
        match entry.conv {
            Conv::SetBlackboard => {
                if p.contains_key("ttl") {
                    return Err("`ttl`: BT.CPP blackboard values do not expire".to_owned());
                }
                out.push_attr("value", text(p.get("value").unwrap_or(&Json::Null)));
                // A plain key name: BT.CPP 4.8 reads `output_key="{k}"` as the key whose
                // *value* names the target, and throws "missing port" when `k` is unset.
                out.push_attr("output_key", str_param("key"));
            }
            Conv::Script | Conv::ScriptCondition
                if matches!(node.kind.as_str(), "Script" | "ScriptCondition") =>
            {
                out.push_attr("code", str_param("code"));
            }
            Conv::Script => {
                let key = str_param("key");
                let stmt = if node.kind == "Increment" {
                    let by = p.get("by").cloned().unwrap_or(Json::from(1));
                    Stmt::Add {
                        key,
                        by: Lit::from_json(&by).unwrap_or(Lit::Int(1)),
                    }
                } else {
                    if p.contains_key("ttl") {
                        return Err(String::new());
                    }
                    let value = p.get("value").unwrap_or(&Json::Null);
                    let Some(value) = Lit::from_json(value) else {
                        return Err(String::new());
                    };
                    Stmt::Assign { key, value }
                };
                out.push_attr("code", script::print_stmt(&stmt));
            }
            Conv::ScriptCondition => {
                let key = str_param("key");
                let code = match (p.get("equals"), p.get("equals_key").and_then(Json::as_str)) {
                    (_, Some(other)) => format!("{key} == {other}"),
                    (Some(v), None) => match Lit::from_json(v) {
                        Some(value) => Test {
                            key,
                            value,
                            negated: false,
                        }
                        .print(),
                        None => {
                            return Err(format!(
                                "a BT.CPP script cannot compare with the value {v}"
                            ))
                        }
                    },
                    (None, None) => return Err("the Condition has no value".to_owned()),
                };
                out.push_attr("code", code);
            }
            Conv::Precondition => {
                // Post-condition scripts stay attributes of the `<Precondition>` (BT.CPP
                // runs them when it completes); the other decorators are its test.
                let (post, gate): (Vec<&DecoratorDef>, Vec<&DecoratorDef>) =
                    node.decorators.iter().partition(|d| {
                        matches!(
                            d.kind.as_str(),
                            "OnSuccess" | "OnFailure" | "Post" | "OnHalted"
                        )
                    });
                let mut post_attrs = Vec::new();
                for d in &post {
                    if let Some(attr) = script_attribute(&d.kind) {
                        let code = d.params.get("code").and_then(Json::as_str).unwrap_or("");
                        merge_script(&mut post_attrs, attr.to_owned(), code.to_owned());
                    }
                }
                if let Some(test) = running_precondition(&at.nodes, children) {
                    out.push_attr("if", test);
                    out.push_attr("else", "RUNNING");
                    return Ok(Element {
                        id_for_name: entry.id.to_owned(),
                        out,
                        children: true,
                        consumed_decorators: false,
                        skip: 1,
                    });
                }
                if let Some((test, otherwise)) = script_precondition(&gate, children.len()) {
                    return Ok(precondition(entry.id, out, test, otherwise, post_attrs));
                }
                // Written back only as it was imported: one child and only plain
                // Conditions. Otherwise the Sequence is exported as a Sequence.
                let plain = !gate.is_empty()
                    && gate.iter().all(|d| {
                        d.kind == "Condition"
                            && d.params
                                .get("abort")
                                .and_then(Json::as_str)
                                .unwrap_or("None")
                                == "None"
                            && !d.params.contains_key("equals_key")
                    });
                if children.len() != 1 || !plain {
                    return Err(String::new());
                }
                let mut tests = Vec::new();
                for d in &gate {
                    let value = Lit::from_json(d.params.get("equals").unwrap_or(&Json::Null))
                        .ok_or_else(String::new)?;
                    tests.push(Test {
                        key: d
                            .params
                            .get("key")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        value,
                        negated: d
                            .params
                            .get("invert")
                            .and_then(Json::as_bool)
                            .unwrap_or(false),
                    });
                }
                let test = script::print_tests(&tests, Join::All);
                return Ok(precondition(entry.id, out, test, "FAILURE", post_attrs));
            }
            Conv::SubTree => return Err(String::new()),
            Conv::Loop(element) => {
                for (k, v) in loop_attrs(at.file, node, element)? {
                    out.push_attr(k, v);
                }
            }
            _ => {
                for (k, v) in mapping::export_attrs(entry, node, children.len())? {
                    out.push_attr(k, v);
                }
                if let Conv::Switch(_) = entry.conv {
                    out.attrs.insert(
                        0,
                        (
                            "variable".to_owned(),
                            format!("{{{}}}", str_param("variable")),
                        ),
                    );
                }
            }
        }
        Ok(Element {
            id_for_name: entry.id.to_owned(),
            out,
            children: true,
            consumed_decorators: false,
            skip: 0,
        })
    }
}

/// A `<Precondition if="test" else="otherwise">` made of the node's decorators (which it
/// consumes), with their post-condition attributes after.
fn precondition(
    id: &str,
    mut out: Out,
    test: String,
    otherwise: &str,
    post_attrs: Vec<(String, String)>,
) -> Element {
    out.push_attr("if", test);
    out.push_attr("else", otherwise);
    for (k, v) in post_attrs {
        out.push_attr(k, v);
    }
    Element {
        id_for_name: id.to_owned(),
        out,
        children: true,
        consumed_decorators: true,
        skip: 0,
    }
}

/// Why an Arbor built-in without a table entry cannot be exported.
pub(super) fn no_equivalent(kind: &str) -> String {
    match kind {
        "Limiter" => "BT.CPP has no Limiter (RunOnce differs: it skips or repeats the first \
                      result instead of failing once the count is used up)"
            .to_owned(),
        "SendEvent" | "SetTrigger" => {
            "events and triggers are Arbor's; BT.CPP has no equivalent".to_owned()
        }
        "Log" => "BT.CPP has no logging node".to_owned(),
        "Random" => "BT.CPP has no random node".to_owned(),
        other => format!("BT.CPP has no equivalent of {other}"),
    }
}

/// A Loop as LoopInt, LoopDouble, LoopString or LoopBool (rule 65): the one whose element
/// type is the `value` key's; a literal queue is written as BT.CPP's `a;b;c` text.
pub(super) fn loop_attrs(
    file: &TreeFile,
    node: &NodeDef,
    element: crate::value::Scalar,
) -> Result<Vec<(String, String)>, String> {
    let p = &node.params;
    let value = p.get("value").and_then(Json::as_str).unwrap_or("");
    let ty = file
        .blackboard
        .iter()
        .find(|k| k.key == value)
        .map(|k| k.ty);
    if ty != Some(element.value_type()) {
        let other = crate::value::Scalar::ALL
            .iter()
            .any(|s| Some(s.value_type()) == ty);
        return Err(if other {
            String::new()
        } else {
            format!(
                "BT.CPP loops over bool, int, float or string elements; `{value}` is {}",
                ty.map_or("not a declared key", |t| t.as_str())
            )
        });
    }
    let queue = match p.get("queue") {
        Some(Json::Array(items)) => {
            let parts: Vec<String> = items.iter().map(queue_element).collect();
            if parts.iter().any(|t| t.contains(';')) {
                return Err("a queue element holds `;`, BT.CPP's separator".to_owned());
            }
            if parts.last().is_some_and(String::is_empty) {
                return Err("BT.CPP's queue text cannot end in an empty element".to_owned());
            }
            parts.join(";")
        }
        Some(bound) if crate::port::binding(bound).ok().flatten().is_some() => text(bound),
        _ => return Err("the queue is neither a list nor bound to a key".to_owned()),
    };
    let mut attrs = vec![
        ("queue".to_owned(), queue),
        ("value".to_owned(), format!("{{{value}}}")),
    ];
    if p.get("if_empty").and_then(Json::as_str) == Some("failure") {
        attrs.push(("if_empty".to_owned(), "FAILURE".to_owned()));
    }
    Ok(attrs)
}

/// One element of a literal queue: a float in its shortest form (`1`, not `1.0`), as
/// BT.CPP's `LoopDouble queue="1;2;3"` is written and read back (`std::stod`); the rest as
/// [`text`].
pub(super) fn queue_element(value: &Json) -> String {
    match value.as_f64() {
        Some(f) if value.is_f64() => f.to_string(),
        _ => text(value),
    }
}

/// A parameter value as attribute text: a binding (`{"$key": "k"}`) is BT.CPP's `{k}`,
/// strings are as they are, other scalars JSON text.
pub(super) fn text(value: &Json) -> String {
    if let Ok(Some(key)) = crate::port::binding(value) {
        return format!("{{{key}}}");
    }
    match value {
        Json::String(s) => s.clone(),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => Lit::Float(f).text(),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// A Sequence imported from a `<Precondition>` with a script test: one child and one
/// FailureIf / SuccessIf / SkipIf whose code is `!(S)`; gives `S` and the `else` status.
pub(super) fn script_precondition(
    decorators: &[&DecoratorDef],
    children: usize,
) -> Option<(String, &'static str)> {
    let [d] = decorators else {
        return None;
    };
    let otherwise = match d.kind.as_str() {
        "FailureIf" => "FAILURE",
        "SuccessIf" => "SUCCESS",
        "SkipIf" => "SKIPPED",
        _ => return None,
    };
    let code = d.params.get("code").and_then(Json::as_str)?;
    let test = code.strip_prefix("!(")?.strip_suffix(')')?;
    // `!(a) || (b)` also starts with `!(` and ends with `)`; only a whole test is one.
    let whole = crate::script::parse_error(test).is_none();
    (children == 1 && whole).then(|| (test.to_owned(), otherwise))
}

/// A Sequence imported from `<Precondition else="RUNNING">` (rule 71): a dynamic Selector
/// over a ScriptCondition and a Scripted leaf that only runs, then the one child; gives
/// the test.
pub(super) fn running_precondition(nodes: &NodeIndex<'_>, children: &[&NodeDef]) -> Option<String> {
    let [gate, _] = children else {
        return None;
    };
    let dynamic = gate.params.get("dynamic").and_then(Json::as_bool) == Some(true);
    if gate.kind != "Selector" || !dynamic || !gate.decorators.is_empty() {
        return None;
    }
    let [test, wait] = gate.children.as_slice() else {
        return None;
    };
    let (test, wait) = (nodes.get(test)?, nodes.get(wait)?);
    let only_runs = wait.kind == "Scripted"
        && wait.params.get("returns") == Some(&Json::from(vec!["running"]))
        && wait.decorators.is_empty();
    let code = test.params.get("code").and_then(Json::as_str)?;
    (test.kind == "ScriptCondition" && test.decorators.is_empty() && only_runs)
        .then(|| code.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_text_of_values() {
        assert_eq!(text(&Json::from("a b")), "a b");
        assert_eq!(text(&Json::from(3)), "3");
        assert_eq!(text(&Json::from(2.5)), "2.5");
        assert_eq!(text(&Json::from(true)), "true");
    }
}
