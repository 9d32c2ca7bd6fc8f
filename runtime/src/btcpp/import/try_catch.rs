//! BT.CPP 4.10's `TryCatch` read as Arbor nodes: children 1..N-1 run as a Sequence (the
//! try block); when one fails, the last child runs (the catch) and the node fails
//! whatever the catch returns. That is a Fallback over the try Sequence and a
//! ForceFailure over the catch:
//!
//! ```xml
//! <TryCatch><A/><B/><Cleanup/></TryCatch>
//! <!-- is read as -->
//! <Fallback name="TryCatch">
//!   <Sequence name="try"><A/><B/></Sequence>
//!   <ForceFailure name="catch"><Cleanup/></ForceFailure>
//! </Fallback>
//! ```
//!
//! As in BT.CPP (`src/controls/try_catch_node.cpp`): a running try child or catch makes
//! the node running and is resumed on the next tick; the catch starts in the tick the try
//! child failed; after the catch the next tick starts at the first try child again.
//! `catch_on_halt="true"` (run the catch when the node is halted in its try block) has no
//! Arbor form: such a TryCatch stays an opaque node. The export writes the Fallback form,
//! which BT.CPP 4.8 (without TryCatch) loads too.

use crate::btcpp::xml::Element;

/// The Fallback that `<TryCatch>` element `el` (of BT.CPP ID `id`) is, or `None` when it
/// is no TryCatch, has fewer than two children (BT.CPP refuses it when it ticks) or asks
/// for `catch_on_halt`.
pub(super) fn as_fallback(el: &Element, id: &str) -> Option<Element> {
    if id != "TryCatch" || el.children.len() < 2 {
        return None;
    }
    let on_halt = el.attr("catch_on_halt").map(str::trim);
    if !matches!(on_halt, None | Some("false" | "0" | "False" | "FALSE")) {
        return None;
    }
    let mut attrs: Vec<(String, String)> = el
        .attrs
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "ID" | "catch_on_halt"))
        .cloned()
        .collect();
    if el.attr("name").is_none() {
        attrs.insert(0, ("name".to_owned(), "TryCatch".to_owned()));
    }
    let (catch, tries) = el.children.split_last()?;
    let part = |tag: &str, name: &str, children: Vec<Element>| Element {
        tag: tag.to_owned(),
        attrs: vec![("name".to_owned(), name.to_owned())],
        children,
        text: String::new(),
        line: el.line,
        column: el.column,
    };
    Some(Element {
        tag: "Fallback".to_owned(),
        attrs,
        children: vec![
            part("Sequence", "try", tries.to_vec()),
            part("ForceFailure", "catch", vec![catch.clone()]),
        ],
        text: String::new(),
        line: el.line,
        column: el.column,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(tag: &str, attrs: &[(&str, &str)], children: Vec<Element>) -> Element {
        Element::for_test(tag, attrs, children)
    }

    #[test]
    fn try_catch_is_a_fallback_over_try_and_catch() {
        let leaf = |t: &str| element(t, &[], Vec::new());
        let el = element("TryCatch", &[], vec![leaf("A"), leaf("B"), leaf("Clean")]);
        let f = as_fallback(&el, "TryCatch").expect("a TryCatch");
        assert_eq!(f.tag, "Fallback");
        assert_eq!(f.attr("name"), Some("TryCatch"));
        let tags: Vec<&str> = f.children.iter().map(|c| c.tag.as_str()).collect();
        assert_eq!(tags, ["Sequence", "ForceFailure"]);
        assert_eq!(f.children[0].children.len(), 2);
        assert_eq!(f.children[1].children[0].tag, "Clean");
        // `catch_on_halt` has no Arbor form; one child is not a TryCatch BT.CPP runs.
        let on_halt = element(
            "TryCatch",
            &[("catch_on_halt", "true")],
            vec![leaf("A"), leaf("B")],
        );
        assert!(as_fallback(&on_halt, "TryCatch").is_none());
        assert!(as_fallback(&element("TryCatch", &[], vec![leaf("A")]), "TryCatch").is_none());
    }
}
