//! Which of a file's keys its nodes read and write, for the warning "read but never
//! written": a key that some node reads, that no node, decorator, script or subtree
//! remapping of the file writes, and that has no declared default, has no value when it
//! is read unless the program writes it.
//!
//! Conservative, so that it never warns about a key something does write: a key a script
//! names counts as written (the script may assign it), and so does a key handed to a
//! subtree (the subtree may write it). Subtree files are not checked: their keys may be
//! written by the tree that uses them. Linear in the file's parameters and script text.

use crate::args::{Arg, Args};
use crate::format::TreeFile;
use crate::spec::{NodeType, ParamKind};

use super::params::FileKeys;
use super::problem::{Problem, ProblemKind};
use std::sync::Arc;

/// Per key of the file: the first node that reads it, and whether anything writes it.
pub(crate) struct KeyUse {
    read: Vec<Option<usize>>,
    written: Vec<bool>,
}

impl KeyUse {
    pub(crate) fn new(file: &TreeFile) -> KeyUse {
        let n = file.blackboard.len();
        KeyUse {
            read: vec![None; n],
            written: file
                .blackboard
                .iter()
                .map(|d| d.default.is_some())
                .collect(),
        }
    }

    /// Records what node `node`'s checked parameters (or one of its decorators') do with
    /// keys, by their declared directions.
    pub(crate) fn record(&mut self, node: usize, ty: &NodeType, args: &Args, keys: &FileKeys) {
        for spec in &ty.params {
            match args.get(&spec.name) {
                Some(Arg::Key(key)) | Some(Arg::Bound { key, .. }) => {
                    let k = key.index();
                    if spec.direction.reads() {
                        self.read(k, node);
                    }
                    if spec.direction.writes() {
                        self.write(k);
                    }
                }
                Some(Arg::KeyMap(pairs)) => {
                    for (_, parent) in pairs {
                        if let Some(key) = keys.by_name.get(parent.as_str()) {
                            self.write(key.index());
                        }
                    }
                }
                Some(Arg::Value(value)) if spec.kind == ParamKind::Script => {
                    let text = value.as_str().unwrap_or_default();
                    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                        if let Some(key) = keys.by_name.get(word) {
                            self.write(key.index());
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn read(&mut self, k: usize, node: usize) {
        if let Some(slot) = self.read.get_mut(k) {
            slot.get_or_insert(node);
        }
    }

    fn write(&mut self, k: usize) {
        if let Some(slot) = self.written.get_mut(k) {
            *slot = true;
        }
    }

    /// One warning per key read and never written, at its declaration.
    pub(crate) fn warnings(&self, file: &TreeFile, origin: &Arc<str>) -> Vec<Problem> {
        let mut warnings = Vec::new();
        for (i, decl) in file.blackboard.iter().enumerate() {
            let (Some(Some(reader)), Some(false)) = (self.read.get(i), self.written.get(i)) else {
                continue;
            };
            let node = &file.nodes[*reader];
            let reader = if node.name.is_empty() {
                node.kind.clone()
            } else {
                format!("{} ({})", node.name, node.kind)
            };
            warnings.push(
                Problem::new(
                    origin,
                    format!("$.blackboard[{i}].key"),
                    ProblemKind::KeyNeverWritten {
                        key: decl.key.clone(),
                        reader,
                    },
                )
                .warning(),
            );
        }
        warnings
    }
}
