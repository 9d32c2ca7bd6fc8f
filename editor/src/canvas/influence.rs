//! Abort influence: the nodes an abort condition of a node can interrupt (rules 23–26).
//! Self: the node itself (and so everything running below it). LowerPriority: the siblings
//! after it under its parent (a Selector or Sequence), and their descendants.

use std::collections::HashSet;

use serde_json::Value;

use crate::document::Document;

/// The GUIDs `guid`'s abort conditions can interrupt; empty if it has none.
pub fn influenced(doc: &Document, guid: &str) -> HashSet<String> {
    let Some(node) = doc.node(guid) else {
        return HashSet::new();
    };
    let (mut self_abort, mut lower) = (false, false);
    for d in &node.decorators {
        let abort = d
            .params
            .get("abort")
            .and_then(Value::as_str)
            .unwrap_or("None");
        self_abort |= d.kind == "Precondition" || matches!(abort, "Self" | "Both");
        lower |= matches!(abort, "LowerPriority" | "Both");
    }
    let mut out = HashSet::new();
    if self_abort {
        descendants(doc, guid, &mut out);
    }
    if lower {
        if let Some(parent) = doc.parent_of(guid) {
            let siblings = doc.children(parent);
            if let Some(at) = siblings.iter().position(|s| s == guid) {
                for later in &siblings[at + 1..] {
                    descendants(doc, later, &mut out);
                }
            }
        }
    }
    out
}

/// `guid` and everything below it (iterative; hand-edited cycles are cut by the set).
fn descendants(doc: &Document, guid: &str, out: &mut HashSet<String>) {
    let mut stack = vec![guid.to_owned()];
    while let Some(g) = stack.pop() {
        if out.insert(g.clone()) {
            stack.extend(doc.children(&g).iter().cloned());
        }
    }
}
