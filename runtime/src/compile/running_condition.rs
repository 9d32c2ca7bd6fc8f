//! The warning "a condition that can return running", decided from declarations.
//!
//! A node can return running by itself when its type says so (`NodeType::may_run`: `Wait`,
//! `Delay`, a host type declared so) or when one of its `statuses` parameters lists
//! `running` (a `Scripted` leaf); a composite or decorator can when a node below it can.
//! Host actions declare nothing either way and are not counted. Warned about:
//! - a node of a Condition type declared `may_run`, and an attached condition of one;
//! - the condition child of `IfThenElse` and `WhileDoElse` (rules 37 and 38), when it can.
//!
//! A disabled node and everything below it runs as if absent (rule 79): it is neither
//! warned about nor counted as a node that can return running.
//!
//! One pass over the file, children before parents; linear in its nodes.

use std::sync::Arc;

use crate::format::TreeFile;
use crate::spec::{Category, NodeType, NodeTypes, ParamKind};

use super::graph::Graph;
use super::problem::{Problem, ProblemKind};

/// Composites whose child at this place is a condition.
const CONDITION_CHILD: [(&str, usize); 2] = [("IfThenElse", 0), ("WhileDoElse", 0)];

pub(crate) fn warnings(
    file: &TreeFile,
    graph: &Graph,
    types: &NodeTypes,
    origin: &Arc<str>,
) -> Vec<Problem> {
    let off = switched_off(file, graph);
    let runner = runners(file, graph, types, &off);
    let label = |i: usize| {
        let node = &file.nodes[i];
        if node.name.is_empty() || node.name == node.kind {
            format!("`{}`", node.kind)
        } else {
            format!("`{}` ({})", node.name, node.kind)
        }
    };
    let at = |i: usize, path: String, kind: ProblemKind| {
        let node = &file.nodes[i];
        Problem::new(origin, path, kind)
            .at_node(&node.guid, &node.name, &node.kind)
            .warning()
    };
    let mut warnings = Vec::new();
    for (i, node) in file.nodes.iter().enumerate() {
        let Some(ty) = types.node(&node.kind).filter(|_| !off[i]) else {
            continue;
        };
        if ty.category == Category::Condition && ty.may_run {
            warnings.push(at(
                i,
                format!("$.nodes[{i}]"),
                ProblemKind::RunningCondition {
                    condition: label(i),
                    because: format!("its type `{}` declares it may", ty.name),
                },
            ));
        }
        for (j, d) in node.decorators.iter().enumerate() {
            let declared = types
                .node(&d.kind)
                .filter(|t| t.host && t.category == Category::Condition && t.may_run);
            if declared.is_some() {
                warnings.push(at(
                    i,
                    format!("$.nodes[{i}].decorators[{j}]"),
                    ProblemKind::RunningCondition {
                        condition: format!("`{}` attached to {}", d.kind, label(i)),
                        because: format!("its type `{}` declares it may", d.kind),
                    },
                ));
            }
        }
        let slot = CONDITION_CHILD
            .iter()
            .find(|(kind, _)| *kind == ty.name && !ty.host)
            .map(|(_, k)| *k);
        let child = slot.and_then(|k| graph.children.get(i)?.get(k).copied());
        if let Some((child, leaf)) = child.and_then(|c| Some((c, runner[c]?))) {
            let because = if leaf == child {
                "it may".to_owned()
            } else {
                format!("{} below it may", label(leaf))
            };
            warnings.push(at(
                child,
                format!("$.nodes[{child}]"),
                ProblemKind::RunningCondition {
                    condition: format!("{}, the condition of {}", label(child), label(i)),
                    because,
                },
            ));
        }
    }
    warnings
}

/// For each node, a node at or below it that can return running by itself, if any.
fn runners(file: &TreeFile, graph: &Graph, types: &NodeTypes, off: &[bool]) -> Vec<Option<usize>> {
    let n = file.nodes.len();
    let mut runner: Vec<Option<usize>> = vec![None; n];
    // Iterative post-order from every node not yet done; `entered` cuts cycles, which the
    // graph check reports on its own.
    let mut done = vec![false; n];
    let mut entered = vec![false; n];
    let mut stack: Vec<(usize, bool)> = Vec::new();
    for start in 0..n {
        if done[start] {
            continue;
        }
        stack.push((start, false));
        while let Some((i, expanded)) = stack.pop() {
            if done[i] || (!expanded && entered[i]) {
                continue;
            }
            let children = graph.children.get(i).map_or(&[][..], Vec::as_slice);
            if !expanded {
                entered[i] = true;
                stack.push((i, true));
                stack.extend(children.iter().filter(|c| !done[**c]).map(|c| (*c, false)));
                continue;
            }
            done[i] = true;
            let own = types
                .node(&file.nodes[i].kind)
                .is_some_and(|ty| runs_by_itself(ty, &file.nodes[i].params));
            runner[i] = if off[i] {
                None
            } else if own {
                Some(i)
            } else {
                children.iter().find_map(|c| runner[*c])
            };
        }
    }
    runner
}

/// For each node, whether it is disabled (`"enabled": false`) or below a disabled node.
/// Each node is marked once, so the walk is linear even where nodes share children.
fn switched_off(file: &TreeFile, graph: &Graph) -> Vec<bool> {
    let mut off = vec![false; file.nodes.len()];
    let mut stack: Vec<usize> = (0..file.nodes.len())
        .filter(|&i| !file.nodes[i].enabled)
        .collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut off[i], true) {
            continue;
        }
        stack.extend(graph.children.get(i).into_iter().flatten().copied());
    }
    off
}

/// Whether a node of type `ty` with these parameters can return running by itself.
fn runs_by_itself(ty: &NodeType, params: &serde_json::Map<String, serde_json::Value>) -> bool {
    ty.may_run
        || ty
            .params
            .iter()
            .filter(|p| p.kind == ParamKind::Statuses)
            .filter_map(|p| params.get(&p.name)?.as_array())
            .flatten()
            .any(|s| {
                s.as_str()
                    .is_some_and(|s| s.eq_ignore_ascii_case("running"))
            })
}
