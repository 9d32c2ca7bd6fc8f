//! BT.CPP v3's `BlackboardCheckInt`, `BlackboardCheckDouble`, `BlackboardCheckString` and
//! `BlackboardCheckBool`, which BT.CPP 4 no longer has (a file that names them does not
//! load there): read as the `<Precondition>` BT.CPP 4 offers in their place, so that the
//! export writes a node BT.CPP 4 loads.
//!
//! `<BlackboardCheckString value_A="{mode}" value_B="guard" return_on_mismatch="FAILURE">`
//! becomes `<Precondition if="mode == 'guard'" else="FAILURE">`. One difference: v3's node
//! tested again on every tick while its child ran, BT.CPP 4's Precondition (and Arbor's
//! import of it) tests before the child starts.

use crate::btcpp::xml::Element;

/// The v3 IDs and how each writes a literal operand.
const CHECKS: [(&str, Operand); 4] = [
    ("BlackboardCheckInt", Operand::Number),
    ("BlackboardCheckDouble", Operand::Number),
    ("BlackboardCheckString", Operand::Text),
    ("BlackboardCheckBool", Operand::Bool),
];

#[derive(Clone, Copy)]
enum Operand {
    Number,
    Text,
    Bool,
}

/// The `<Precondition>` that element `el` (of BT.CPP ID `id`) stands for, or `None` when it
/// is no v3 check, or one whose operands a script cannot spell (it then stays opaque).
pub(super) fn as_precondition(el: &Element, id: &str) -> Option<Element> {
    let (_, kind) = CHECKS.iter().find(|(c, _)| *c == id)?;
    let a = operand(el.attr("value_A")?, *kind)?;
    let b = operand(el.attr("value_B")?, *kind)?;
    let otherwise = el.attr("return_on_mismatch").unwrap_or("FAILURE");
    let mut attrs: Vec<(String, String)> = el
        .attrs
        .iter()
        .filter(|(k, _)| {
            !matches!(
                k.as_str(),
                "ID" | "value_A" | "value_B" | "return_on_mismatch"
            )
        })
        .cloned()
        .collect();
    attrs.push(("if".to_owned(), format!("{a} == {b}")));
    attrs.push(("else".to_owned(), otherwise.to_owned()));
    Some(Element {
        tag: "Precondition".to_owned(),
        attrs,
        ..el.clone()
    })
}

/// A port value as a script operand: `{key}` is the key, anything else a literal.
fn operand(value: &str, kind: Operand) -> Option<String> {
    if let Some(key) = super::blackboard_ref(value) {
        let plain = key
            .strip_prefix('@')
            .unwrap_or(key)
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
        return plain.then(|| key.to_owned());
    }
    let v = value.trim();
    match kind {
        Operand::Number => v
            .parse::<f64>()
            .is_ok_and(f64::is_finite)
            .then(|| v.to_owned()),
        Operand::Bool => match v {
            "true" | "1" => Some("true".to_owned()),
            "false" | "0" => Some("false".to_owned()),
            _ => None,
        },
        Operand::Text => (!value.contains('\'')).then(|| format!("'{value}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(tag: &str, attrs: &[(&str, &str)]) -> Element {
        Element::for_test(tag, attrs, Vec::new())
    }

    #[test]
    fn v3_checks_become_preconditions() {
        let el = element(
            "BlackboardCheckString",
            &[
                ("name", "mode?"),
                ("value_A", "{mode}"),
                ("value_B", "guard"),
                ("return_on_mismatch", "SUCCESS"),
            ],
        );
        let pre = as_precondition(&el, "BlackboardCheckString").expect("a check");
        assert_eq!(pre.tag, "Precondition");
        assert_eq!(pre.attr("name"), Some("mode?"));
        assert_eq!(pre.attr("if"), Some("mode == 'guard'"));
        assert_eq!(pre.attr("else"), Some("SUCCESS"));
        let el = element(
            "BlackboardCheckInt",
            &[("value_A", "{n}"), ("value_B", "3")],
        );
        let pre = as_precondition(&el, "BlackboardCheckInt").expect("a check");
        assert_eq!(pre.attr("if"), Some("n == 3"));
        assert_eq!(pre.attr("else"), Some("FAILURE"));
        // Operands a script cannot spell keep the node opaque.
        let el = element(
            "BlackboardCheckInt",
            &[("value_A", "{n}"), ("value_B", "x")],
        );
        assert!(as_precondition(&el, "BlackboardCheckInt").is_none());
        assert!(as_precondition(&el, "Sequence").is_none());
    }
}
