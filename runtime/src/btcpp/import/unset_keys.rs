//! Scripts that can only stop: a script that reads a key, or changes it with `=` or
//! `+=`, when nothing in its tree ever gives that key a value (no `:=`, no port, no
//! default, no SubTree remapping). BT.CPP throws there ("Variable not found", "doesn't
//! exist, yet"), Arbor's script stops (docs/semantics.md rule 86); the import says so
//! when it can see it, as a warning located at the element.
//!
//! Only what is certain is reported: keys written `@x` (the root tree's, which any tree
//! may create) and the keys of a subtree called with `_autoremap` are not checked.

use std::collections::HashSet;

use super::{blackboard_ref, Doc, Draft, Importer, ParamValue};
use crate::btcpp::XmlProblem;
use crate::format::KeyDecl;
use crate::script::{self, KeyRole};

impl Importer<'_> {
    /// Warns about each script use of a key that its tree never gives a value.
    pub(super) fn warn_about_unset_keys(
        &mut self,
        doc: &Doc,
        drafts: &[Draft],
        decls: &[Vec<KeyDecl>],
    ) {
        for (t, draft) in drafts.iter().enumerate() {
            if self.calls.iter().any(|c| c.sub == t && c.autoremap) {
                continue;
            }
            let given = self.given_keys(t, draft, &decls[t]);
            let mut problems = Vec::new();
            draft.walk(&mut |d| {
                for code in scripts_of(d) {
                    let mut named = HashSet::new();
                    for (key, role) in script::key_roles(code).unwrap_or_default() {
                        if role == KeyRole::Create
                            || key.starts_with('@')
                            || given.contains(key.as_str())
                            || self.options.script_enums.contains_key(&key)
                            || !named.insert(key.clone())
                        {
                            continue;
                        }
                        let thrown = match role {
                            KeyRole::Change => {
                                format!("The blackboard entry [{key}] doesn't exist, yet")
                            }
                            _ => format!("Variable not found: {key}"),
                        };
                        problems.push((
                            d.line,
                            d.column,
                            format!(
                                "the script `{code}` uses `{key}`, which nothing in tree \
                                 `{}` gives a value (no `:=`, port, default or remapping): \
                                 BT.CPP throws \"{thrown}\" when it runs, Arbor's script \
                                 stops there (docs/semantics.md rule 86)",
                                doc.trees[t].id
                            ),
                        ));
                    }
                }
            });
            let origin = &doc.trees[t].origin;
            for (line, column, message) in problems {
                self.warnings.push(XmlProblem {
                    origin: origin.clone(),
                    line,
                    column,
                    message,
                });
            }
        }
    }

    /// The keys of tree `t` that something may give a value: a default, a port or a
    /// binding of any node, a SubTree remapping on either side, a script's `:=`.
    fn given_keys(&self, t: usize, draft: &Draft, decls: &[KeyDecl]) -> HashSet<String> {
        let mut given: HashSet<String> = decls
            .iter()
            .filter(|d| d.default.is_some())
            .map(|d| d.key.clone())
            .collect();
        for call in self.calls.iter().filter(|c| c.sub == t) {
            given.extend(call.remap.iter().map(|(sub, _)| sub.clone()));
        }
        draft.walk(&mut |d| {
            for (_, p) in &d.params {
                match p {
                    ParamValue::Key(k) | ParamValue::Bind(k) | ParamValue::Typed { key: k, .. } => {
                        given.insert(k.clone());
                    }
                    ParamValue::Port(text) => given.extend(blackboard_ref(text).map(str::to_owned)),
                    ParamValue::Remap(pairs) => given.extend(pairs.iter().map(|(_, k)| k.clone())),
                    ParamValue::Json(_) | ParamValue::Path(_) | ParamValue::Script(_) => {}
                }
            }
            given.extend(
                d.kept
                    .values()
                    .filter_map(|v| blackboard_ref(v).map(str::to_owned)),
            );
            for code in scripts_of(d) {
                for (key, role) in script::key_roles(code).unwrap_or_default() {
                    if role == KeyRole::Create {
                        given.insert(key);
                    }
                }
            }
        });
        given
    }
}

/// The scripts a draft runs: its Script or ScriptCondition code and its script
/// decorators'.
fn scripts_of(d: &Draft) -> impl Iterator<Item = &str> {
    let own = d.params.iter().filter_map(|(n, p)| match p {
        ParamValue::Script(code) if n == "code" => Some(code.as_str()),
        _ => None,
    });
    own.chain(d.scripts.iter().map(|s| s.code.as_str()))
}
