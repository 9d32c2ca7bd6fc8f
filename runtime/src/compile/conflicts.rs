//! The `conflicts` a merge left in a file, reported as located errors: a half-merged tree
//! must not run, and the editor lists them with the other problems, marked on their nodes.

use std::collections::HashMap;
use std::sync::Arc;

use super::problem::{Problem, ProblemKind};
use crate::format::{NodeDef, TreeFile};

/// One error per entry of `file.conflicts`, at `$.conflicts[i]`, marked on the node (or
/// decorator) it names when there is one.
pub(crate) fn problems(file: &TreeFile, origin: &Arc<str>) -> Vec<Problem> {
    if file.conflicts.is_empty() {
        return Vec::new();
    }
    // Node and decorator GUIDs to their node, once: a lookup per conflict would make many
    // conflicts in a large file quadratic.
    let mut owner: HashMap<&str, &NodeDef> = HashMap::new();
    for n in &file.nodes {
        owner.insert(&n.guid, n);
        for d in &n.decorators {
            owner.insert(&d.guid, n);
        }
    }
    file.conflicts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut what = c.scope.clone();
            if !c.id.is_empty() {
                what.push_str(&format!(" `{}`", c.id));
            }
            if !c.field.is_empty() {
                what.push_str(&format!(", `{}`", c.field));
            }
            let p = Problem::new(
                origin,
                format!("$.conflicts[{i}]"),
                ProblemKind::MergeConflict(format!("{what}: {}", c.message)),
            );
            match owner.get(c.id.as_str()) {
                Some(n) => p.at_node(&n.guid, &n.name, &n.kind),
                None => p,
            }
        })
        .collect()
}
