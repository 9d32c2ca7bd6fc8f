//! Where a blackboard key is used, and renaming it: its declaration, bindings, parameters
//! that name keys, Subtree remaps and scripts (as their tokens, see
//! [`crate::script::rename_key`]). Which parameters name keys comes from the node types,
//! so a host node's key parameter counts when its manifest is known. `@name` (the root
//! tree's key, rule 70) counts as a use of `name`.

use serde_json::Value;

use super::usage::{Usage, UsageKind};
use crate::format::TreeFile;
use crate::spec::{NodeTypes, ParamKind};

/// Why a key was not renamed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RenameError {
    /// The file already declares a key with the new name.
    #[error("the file already declares a key `{0}`; renaming would declare it twice")]
    Taken(String),
}

/// Every use of key `key` in `file`. `subtree_key` says, for a Subtree node's `path`,
/// whether the subtree file's keys count too (its `remap` names).
pub fn key_usages(
    file: &TreeFile,
    types: &NodeTypes,
    key: &str,
    subtree_key: &dyn Fn(&str) -> bool,
) -> Vec<Usage> {
    let mut copy = file.clone();
    walk(&mut copy, types, key, None, subtree_key)
}

/// Renames key `old` to `new` at every use [`key_usages`] finds; returns those places.
/// Refused, with nothing changed, when the file declares `new` already.
pub fn rename_key(
    file: &mut TreeFile,
    types: &NodeTypes,
    old: &str,
    new: &str,
    subtree_key: &dyn Fn(&str) -> bool,
) -> Result<Vec<Usage>, RenameError> {
    let declares = |k: &str| file.blackboard.iter().any(|d| d.key == k);
    if old != new && declares(old) && declares(new) {
        return Err(RenameError::Taken(new.to_owned()));
    }
    Ok(walk(file, types, old, Some(new), subtree_key))
}

fn walk(
    file: &mut TreeFile,
    types: &NodeTypes,
    old: &str,
    new: Option<&str>,
    subtree_key: &dyn Fn(&str) -> bool,
) -> Vec<Usage> {
    let mut out = Vec::new();
    for (i, decl) in file.blackboard.iter_mut().enumerate() {
        if decl.key == old {
            out.push(Usage::at(
                UsageKind::KeyDeclaration,
                format!("$.blackboard[{i}].key"),
                None,
            ));
            if let Some(new) = new {
                decl.key = new.to_owned();
            }
        }
    }
    for (i, node) in file.nodes.iter_mut().enumerate() {
        let label = Usage::at(UsageKind::Binding, String::new(), Some(node));
        let path = node
            .params
            .get("path")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let subtree = node.kind == "Subtree" && path.as_deref().is_some_and(subtree_key);
        let site = Site {
            label: &label,
            old,
            new,
            subtree,
        };
        let ty = types.node(&node.kind);
        site.params(&mut node.params, ty, &format!("$.nodes[{i}]"), &mut out);
        for (j, d) in node.decorators.iter_mut().enumerate() {
            let ty = types.decorator(&d.kind);
            let at = format!("$.nodes[{i}].decorators[{j}]");
            Site {
                subtree: false,
                ..site
            }
            .params(&mut d.params, ty, &at, &mut out);
        }
    }
    out
}

/// One node or decorator being walked.
#[derive(Clone, Copy)]
struct Site<'a> {
    label: &'a Usage,
    old: &'a str,
    new: Option<&'a str>,
    /// Whether this is a Subtree node whose file's keys are renamed too.
    subtree: bool,
}

impl Site<'_> {
    fn params(
        &self,
        params: &mut serde_json::Map<String, Value>,
        ty: Option<&crate::spec::NodeType>,
        at: &str,
        out: &mut Vec<Usage>,
    ) {
        for (name, value) in params.iter_mut() {
            let path = format!("{at}.params.{name}");
            if let Ok(Some(bound)) = crate::binding(value) {
                if let Some(renamed) = self.renamed(bound) {
                    self.found(UsageKind::Binding, &path, out);
                    if let Some(renamed) = renamed {
                        *value = crate::binding_json(&renamed);
                    }
                }
                continue;
            }
            let Some(spec) = ty.and_then(|t| t.param_spec(name)) else {
                continue;
            };
            match spec.kind {
                ParamKind::Key => {
                    if let Some(renamed) = value.as_str().and_then(|k| self.renamed(k)) {
                        self.found(UsageKind::KeyParam, &path, out);
                        if let Some(renamed) = renamed {
                            *value = Value::String(renamed);
                        }
                    }
                }
                ParamKind::KeyMap => self.remap(value, &path, out),
                ParamKind::Script => {
                    let Some(text) = value.as_str() else { continue };
                    let spans = crate::script::key_name_spans(text, self.old).unwrap_or_default();
                    if spans.is_empty() {
                        continue;
                    }
                    self.found(UsageKind::Script, &path, out);
                    if let Some(new) = self.new {
                        if let Some((text, _)) = crate::script::rename_key(text, self.old, new) {
                            *value = Value::String(text);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A Subtree remap `{subtree key: this file's key}`.
    fn remap(&self, value: &mut Value, path: &str, out: &mut Vec<Usage>) {
        let Some(map) = value.as_object_mut() else {
            return;
        };
        for (name, target) in map.iter_mut() {
            if let Some(renamed) = target.as_str().and_then(|k| self.renamed(k)) {
                self.found(UsageKind::Remap, &format!("{path}.{name}"), out);
                if let Some(renamed) = renamed {
                    *target = Value::String(renamed);
                }
            }
        }
        if self.subtree && map.contains_key(self.old) {
            self.found(UsageKind::RemapName, &format!("{path}.{}", self.old), out);
            if let Some(new) = self.new {
                if !map.contains_key(new) {
                    if let Some(v) = map.remove(self.old) {
                        map.insert(new.to_owned(), v);
                    }
                }
            }
        }
    }

    /// For a key name as written (`name` or `@name`): `None` when it is not the key;
    /// else the name to write (`None` inside when only finding).
    fn renamed(&self, written: &str) -> Option<Option<String>> {
        let (root, name) = match written.strip_prefix('@') {
            Some(name) => (true, name),
            None => (false, written),
        };
        (name == self.old).then(|| {
            self.new.map(|new| {
                if root {
                    format!("@{new}")
                } else {
                    new.to_owned()
                }
            })
        })
    }

    fn found(&self, kind: UsageKind, path: &str, out: &mut Vec<Usage>) {
        out.push(Usage {
            kind,
            json_path: path.to_owned(),
            ..self.label.clone()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file() -> TreeFile {
        let text = serde_json::json!({
            "format": "arbor-tree", "version": 3,
            "guid": "00000000-0000-4000-8000-000000000000", "name": "t",
            "blackboard": [{"key": "hp", "type": "int"}],
            "root": "00000000-0000-4000-8000-000000000001",
            "nodes": [{"guid": "00000000-0000-4000-8000-000000000001", "type": "Subtree",
                       "params": {"path": "sub.json", "remap": {"hp": "hp", "x": "@hp"}}}]
        });
        crate::parse_str(&text.to_string(), None).expect("parses")
    }

    #[test]
    fn remap_targets_are_renamed_and_names_only_for_renamed_subtrees() {
        let types = NodeTypes::builtin();
        let mut f = file();
        let uses = rename_key(&mut f, &types, "hp", "life", &|_| false).expect("renamed");
        let kinds: Vec<_> = uses.iter().map(|u| u.kind).collect();
        assert_eq!(
            kinds,
            [
                UsageKind::KeyDeclaration,
                UsageKind::Remap,
                UsageKind::Remap
            ]
        );
        assert_eq!(
            f.nodes[0].params["remap"],
            serde_json::json!({"hp": "life", "x": "@life"})
        );
        let mut f = file();
        rename_key(&mut f, &types, "hp", "life", &|p| p == "sub.json").expect("renamed");
        assert_eq!(
            f.nodes[0].params["remap"],
            serde_json::json!({"life": "life", "x": "@life"})
        );
    }

    #[test]
    fn finding_changes_nothing() {
        let f = file();
        let uses = key_usages(&f, &NodeTypes::builtin(), "hp", &|_| true);
        assert_eq!(uses.len(), 4);
        assert_eq!(f, file());
    }
}
