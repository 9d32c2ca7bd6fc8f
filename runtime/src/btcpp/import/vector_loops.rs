//! Loops over BT.CPP vectors. BT.CPP 4.9+'s LoopNode takes its `queue` port either as its
//! shared deque, which it pops in place, or as a `std::vector`, which it copies when the
//! loop starts, leaving the blackboard's vector whole (`decorators/loop_node.h`). The XML
//! tells them apart only through the model of a node that writes the key: a Loop whose
//! `queue` key a port of type `std::vector<…>` uses, in the same tree, walks the key
//! instead of taking from it (`consume: false`, rule 65). A key no model types is taken
//! for the deque, BT.CPP's own queue type.

use std::collections::HashSet;

use serde_json::json;

use super::{blackboard_ref, Draft, Importer, ParamValue};

impl Importer<'_> {
    /// Gives `consume: false` to every Loop over a vector key (see the module documentation).
    pub(super) fn mark_vector_loops(&self, drafts: &mut [Draft]) {
        for draft in drafts {
            let mut vectors = HashSet::new();
            draft.walk(&mut |d| {
                let Some(model) = d.host.as_ref().and_then(|h| self.models.get(h)) else {
                    return;
                };
                for (name, value) in &d.params {
                    let ParamValue::Port(raw) = value else {
                        continue;
                    };
                    let typed = model.port(name).and_then(|p| p.ty.as_deref());
                    if let (Some(key), Some(ty)) = (blackboard_ref(raw), typed) {
                        if is_vector(ty) {
                            vectors.insert(key.to_owned());
                        }
                    }
                }
            });
            if vectors.is_empty() {
                continue;
            }
            draft.walk_mut(&mut |d| {
                let over_vector = d.kind == "Loop"
                    && d.params.iter().any(|(name, value)| {
                        name == "queue"
                            && matches!(value, ParamValue::Bind(k) if vectors.contains(k))
                    });
                if over_vector {
                    d.params
                        .push(("consume".to_owned(), ParamValue::Json(json!(false))));
                }
            });
        }
    }
}

/// A C++ `std::vector<T>` type, as BT.CPP's models spell it.
fn is_vector(cpp: &str) -> bool {
    let cpp = cpp.trim();
    cpp.starts_with("std::vector<") || cpp.starts_with("vector<")
}

#[cfg(test)]
mod tests {
    use super::is_vector;

    #[test]
    fn vectors_are_named_as_models_name_them() {
        assert!(is_vector("std::vector<double>"));
        assert!(is_vector(
            " std::vector<std::string, std::allocator<std::string> >"
        ));
        assert!(!is_vector("std::shared_ptr<std::deque<double>>"));
        assert!(!is_vector("double"));
    }
}
