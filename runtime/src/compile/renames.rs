//! Renames: node types and parameters a file still calls by an old name (a type's or a
//! parameter's declared `aliases`), rewritten to their current names.
//!
//! The loader applies them before it checks a file, with one warning each, so an old file
//! loads as a new one; `arbor migrate` applies them and writes the file back. A name that
//! is current is never rewritten, and a parameter whose new name the node also gives is
//! left alone (the loader then reports the old one as unknown).

use std::fmt;
use std::sync::Arc;

use crate::format::TreeFile;
use crate::spec::{NodeType, NodeTypes};

use super::problem::{Problem, ProblemKind};

/// One old name rewritten to the current one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rename {
    /// Where, as a JSON path (`$.nodes[3].type`, `$.nodes[3].params.speed`).
    pub path: String,
    /// The node's index in the file's `nodes`.
    pub node: usize,
    /// A node or decorator type, or a parameter.
    pub what: Renamed,
    /// The name the file used.
    pub old: String,
    /// The current name.
    pub new: String,
}

/// What a [`Rename`] renamed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renamed {
    /// A node's or an attached decorator's `type`.
    Type,
    /// A key of a node's or decorator's `params`.
    Param,
}

impl fmt::Display for Rename {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.what {
            Renamed::Type => "type",
            Renamed::Param => "parameter",
        };
        write!(f, "{}: {what} `{}` -> `{}`", self.path, self.old, self.new)
    }
}

/// Rewrites every old type and parameter name in `file` to its current name, by the
/// aliases `types` declares; returns what it changed, in file order.
pub fn migrate(file: &mut TreeFile, types: &NodeTypes) -> Vec<Rename> {
    let mut done = Vec::new();
    for (i, node) in file.nodes.iter_mut().enumerate() {
        let at = format!("$.nodes[{i}]");
        rename_type(&mut node.kind, types, &at, i, &mut done);
        if let Some(ty) = types.node(&node.kind) {
            rename_params(&mut node.params, ty, &at, i, &mut done);
        }
        for (j, d) in node.decorators.iter_mut().enumerate() {
            let at = format!("$.nodes[{i}].decorators[{j}]");
            rename_type(&mut d.kind, types, &at, i, &mut done);
            if let Some(ty) = types.decorator(&d.kind) {
                rename_params(&mut d.params, ty, &at, i, &mut done);
            }
        }
    }
    done
}

/// [`migrate`], with a warning per rename, located at the node.
pub(crate) fn apply(file: &mut TreeFile, types: &NodeTypes, origin: &Arc<str>) -> Vec<Problem> {
    let renames = migrate(file, types);
    renames
        .into_iter()
        .map(|r| {
            let node = &file.nodes[r.node];
            let kind = match r.what {
                Renamed::Type => ProblemKind::RenamedType {
                    old: r.old,
                    new: r.new,
                },
                Renamed::Param => ProblemKind::RenamedParam {
                    old: r.old,
                    new: r.new,
                },
            };
            Problem::new(origin, r.path, kind)
                .at_node(&node.guid, &node.name, &node.kind)
                .warning()
        })
        .collect()
}

fn rename_type(
    kind: &mut String,
    types: &NodeTypes,
    at: &str,
    node: usize,
    done: &mut Vec<Rename>,
) {
    if let Some(new) = types.renamed(kind) {
        done.push(Rename {
            path: format!("{at}.type"),
            node,
            what: Renamed::Type,
            old: std::mem::replace(kind, new.to_owned()),
            new: new.to_owned(),
        });
    }
}

fn rename_params(
    params: &mut serde_json::Map<String, serde_json::Value>,
    ty: &NodeType,
    at: &str,
    node: usize,
    done: &mut Vec<Rename>,
) {
    let old: Vec<(String, String)> = params
        .keys()
        .filter(|name| ty.param_spec(name).is_none())
        .filter_map(|name| {
            let spec = ty.param_by_alias(name)?;
            (!params.contains_key(&spec.name)).then(|| (name.clone(), spec.name.clone()))
        })
        .collect();
    for (old, new) in old {
        // Two old names of one parameter: the first one wins, the other stays unknown.
        if params.contains_key(&new) {
            continue;
        }
        if let Some(value) = params.remove(&old) {
            params.insert(new.clone(), value);
            done.push(Rename {
                path: format!("{at}.params.{old}"),
                node,
                what: Renamed::Param,
                old,
                new,
            });
        }
    }
}
