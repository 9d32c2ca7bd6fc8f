//! Attached decorators as BT.CPP's pre- and post-condition attributes (`_failureIf`,
//! `_skipIf`, `_while`, the script decorators' attributes), or an `<Inverter>` around
//! the node; what BT.CPP cannot mean the same way is reported.

use serde_json::Value as Json;

use super::*;

impl Exporter<'_> {
    /// The attached decorators as pre-condition attributes, and how many Inverter nodes
    /// wrap the element.
    pub(super) fn decorators(
        &mut self,
        at: &Place<'_>,
        node: &NodeDef,
        parent: Option<&NodeDef>,
        label: &str,
    ) -> (Vec<(String, String)>, usize) {
        let under_selector = parent.is_some_and(|p| p.kind == "Selector");
        let mut fail: Vec<String> = Vec::new();
        let mut scripts: Vec<(String, String)> = Vec::new();
        let mut all_skip = true;
        let mut hold: Vec<String> = Vec::new();
        let mut inverters = 0;
        let mut conditions = 0;
        for d in &node.decorators {
            // Implied by the children's own attributes (rule 72).
            if at.meta.decorators.get(&d.guid).map(String::as_str)
                == Some(crate::btcpp::meta::DERIVED_SKIP)
            {
                continue;
            }
            let abort = d
                .params
                .get("abort")
                .and_then(Json::as_str)
                .unwrap_or("None");
            let (self_abort, lower) = match (d.kind.as_str(), abort) {
                ("Precondition", _) => (true, false),
                ("Condition", "None") => (false, false),
                ("Condition", "Self") => (true, false),
                ("Condition", _) => (false, true),
                ("Inverter", _) => {
                    inverters += 1;
                    continue;
                }
                (kind, _) if script_attribute(kind).is_some() => {
                    let attr = script_attribute(kind).unwrap_or_default();
                    let code = d.params.get("code").and_then(Json::as_str).unwrap_or("");
                    scripts.push((attr.to_owned(), code.to_owned()));
                    continue;
                }
                (other, _) => {
                    self.problems.push(format!(
                        "{label}: the attached {other} has no BT.CPP equivalent (events and \
                         triggers are Arbor's)"
                    ));
                    continue;
                }
            };
            conditions += 1;
            if lower {
                self.problems.push(format!(
                    "{label}: a Condition with abort {abort} re-checks while a sibling runs; \
                     BT.CPP has no such pre-condition (a Reactive* parent re-ticks whole children)"
                ));
                continue;
            }
            let Some(test) = self.test(d, label) else {
                continue;
            };
            if self_abort {
                if !under_selector {
                    self.problems.push(format!(
                        "{label}: the {} re-checks while the node runs; BT.CPP's `_while` \
                         skips the node instead of failing it, which means the same only \
                         under a Fallback",
                        d.kind
                    ));
                    continue;
                }
                hold.push(test);
            } else {
                all_skip &= at.meta.decorators.get(&d.guid).map(String::as_str) == Some("_skipIf");
                // `_failureIf` states when to fail: the negation of the pass test.
                fail.push(negate(&test));
            }
        }
        if inverters > 0 && conditions > 0 {
            self.problems.push(format!(
                "{label}: an attached Inverter together with conditions has no BT.CPP form \
                 (an Inverter node would also invert the conditions' failure)"
            ));
        }
        let mut attrs = Vec::new();
        if !fail.is_empty() {
            let name = if all_skip && under_selector {
                "_skipIf"
            } else {
                "_failureIf"
            };
            attrs.push((name.to_owned(), fail.join(" || ")));
        }
        if !hold.is_empty() {
            attrs.push(("_while".to_owned(), hold.join(" && ")));
        }
        for (attr, code) in scripts {
            merge_script(&mut attrs, attr, code);
        }
        if !node.enabled {
            // Rule 79: BT.CPP passes over a skipped node as Arbor leaves out a disabled
            // one; a skip of its own no longer matters. Import reads it back as
            // `enabled: false`.
            attrs.retain(|(a, _)| a != "_skipIf");
            attrs.push(("_skipIf".to_owned(), "true".to_owned()));
        }
        (attrs, inverters)
    }

    /// A Condition/Precondition decorator's pass test as script text.
    pub(super) fn test(&mut self, d: &DecoratorDef, label: &str) -> Option<String> {
        let key = d.params.get("key").and_then(Json::as_str).unwrap_or("");
        let invert = d
            .params
            .get("invert")
            .and_then(Json::as_bool)
            .unwrap_or(false);
        if let Some(other) = d.params.get("equals_key").and_then(Json::as_str) {
            let op = if invert { "!=" } else { "==" };
            return Some(format!("{key} {op} {other}"));
        }
        let value = d.params.get("equals").unwrap_or(&Json::Null);
        match Lit::from_json(value) {
            Some(value) => Some(
                Test {
                    key: key.to_owned(),
                    value,
                    negated: invert,
                }
                .print(),
            ),
            None => {
                self.problems.push(format!(
                    "{label}: the {} compares `{key}` with {value}, which a BT.CPP script \
                     cannot spell",
                    d.kind
                ));
                None
            }
        }
    }
}

/// `a` -> `!a`, `a == 1` -> `a != 1`, and back.
pub(super) fn negate(test: &str) -> String {
    if let Some(rest) = test.strip_prefix('!') {
        return rest.to_owned();
    }
    if let Some((l, r)) = test.split_once(" == ") {
        return format!("{l} != {r}");
    }
    if let Some((l, r)) = test.split_once(" != ") {
        return format!("{l} == {r}");
    }
    format!("!{test}")
}

/// The BT.CPP attribute of a script decorator type (`SkipIf` -> `_skipIf`).
pub(super) fn script_attribute(kind: &str) -> Option<&'static str> {
    crate::nodes::attached::script::attribute_of(kind)
}

/// Adds a script decorator's attribute; one already there (two decorators of a type, or a
/// Condition exported as `_failureIf`) is combined as BT.CPP would evaluate both: tests
/// with `||` (`&&` for `_while`), post-scripts one after the other.
pub(super) fn merge_script(attrs: &mut Vec<(String, String)>, attr: String, code: String) {
    match attrs.iter_mut().find(|(a, _)| *a == attr) {
        Some((_, old)) => {
            *old = match attr.as_str() {
                "_while" => format!("({old}) && ({code})"),
                "_failureIf" | "_successIf" | "_skipIf" => format!("({old}) || ({code})"),
                _ => format!("{old}; {code}"),
            }
        }
        None => attrs.push((attr, code)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_of_printed_tests() {
        assert_eq!(negate("door_open"), "!door_open");
        assert_eq!(negate("!door_open"), "door_open");
        assert_eq!(negate("mode == 'x'"), "mode != 'x'");
        assert_eq!(negate("n != 2"), "n == 2");
    }
}
