//! The shape of one file's tree: GUIDs valid and unique, a root, children that exist, one
//! parent per node, no cycles, depth within the limit, and which nodes the root reaches.
//! Everything here is iterative, so a hostile file cannot overflow the stack.

use std::collections::HashMap;
use std::sync::Arc;

use super::problem::{Problem, ProblemKind};
use super::LoadOptions;
use crate::format::TreeFile;

/// A file's structure, as far as it could be read.
pub(crate) struct Graph {
    /// The root's index, when it exists.
    pub root: Option<usize>,
    /// Children of each node as file indices (unknown GUIDs dropped).
    pub children: Vec<Vec<usize>>,
}

pub(crate) fn analyse(
    file: &TreeFile,
    origin: &Arc<str>,
    opts: &LoadOptions,
    problems: &mut Vec<Problem>,
) -> Graph {
    let start = problems.len();
    let n = file.nodes.len();
    if n > opts.max_nodes {
        problems.push(Problem::new(
            origin,
            "$.nodes",
            ProblemKind::TooManyNodes {
                count: n,
                limit: opts.max_nodes,
            },
        ));
    }
    if !is_guid(&file.guid) {
        problems.push(Problem::new(
            origin,
            "$.guid",
            ProblemKind::InvalidGuid(file.guid.clone()),
        ));
    }

    // GUIDs: nodes and decorators share one namespace.
    let mut index = HashMap::with_capacity(n);
    // Where each GUID was first seen: (node, decorator). Paths are only formatted for a
    // problem; formatting them for every node made a tenth of loading a large tree.
    let mut seen: HashMap<&str, (usize, Option<usize>)> = HashMap::with_capacity(n);
    for (i, node) in file.nodes.iter().enumerate() {
        claim(
            &node.guid,
            (i, None),
            &mut seen,
            origin,
            problems,
            (&node.guid, &node.name, &node.kind),
        );
        index.entry(node.guid.clone()).or_insert(i);
        for (j, d) in node.decorators.iter().enumerate() {
            claim(
                &d.guid,
                (i, Some(j)),
                &mut seen,
                origin,
                problems,
                (&node.guid, &node.name, &node.kind),
            );
        }
    }

    // Children and parents.
    let mut parent: Vec<Option<usize>> = vec![None; n];
    let mut children = vec![Vec::new(); n];
    for (i, node) in file.nodes.iter().enumerate() {
        for (j, guid) in node.children.iter().enumerate() {
            let path = || format!("$.nodes[{i}].children[{j}]");
            let at = |p: Problem| p.at_node(&node.guid, &node.name, &node.kind);
            match index.get(guid) {
                None => problems.push(at(Problem::new(
                    origin,
                    path(),
                    ProblemKind::UnknownChild(guid.clone()),
                ))),
                Some(&c) => match parent[c] {
                    Some(first) => problems.push(at(Problem::new(
                        origin,
                        path(),
                        ProblemKind::SecondParent {
                            child: describe(file, c),
                            first: describe(file, first),
                        },
                    ))),
                    None => {
                        parent[c] = Some(i);
                        children[i].push(c);
                    }
                },
            }
        }
    }

    // Cycles: with one parent per node, a cycle is a loop of parent links.
    let mut state = vec![0u8; n]; // 0 unvisited, 1 on the current walk, 2 done
    for startnode in 0..n {
        let mut walk = Vec::new();
        let mut at = Some(startnode);
        while let Some(i) = at {
            match state[i] {
                2 => break,
                1 => {
                    let from = walk.iter().position(|&w| w == i).unwrap_or(0);
                    let mut names: Vec<String> = walk[from..]
                        .iter()
                        .rev()
                        .map(|&w| describe(file, w))
                        .collect();
                    names.push(describe(file, walk[walk.len() - 1]));
                    let node = &file.nodes[i];
                    problems.push(
                        Problem::new(
                            origin,
                            format!("$.nodes[{i}].children"),
                            ProblemKind::Cycle(names.join(" -> ")),
                        )
                        .at_node(&node.guid, &node.name, &node.kind),
                    );
                    break;
                }
                _ => {
                    state[i] = 1;
                    walk.push(i);
                    at = parent[i];
                }
            }
        }
        for w in walk {
            state[w] = 2;
        }
    }

    // Root.
    let root = match &file.root {
        None if n == 0 => {
            problems.push(Problem::new(origin, "$", ProblemKind::MissingRoot));
            None
        }
        None => {
            problems.push(Problem::new(origin, "$", ProblemKind::MissingRoot));
            None
        }
        Some(guid) => match index.get(guid) {
            None => {
                problems.push(Problem::new(
                    origin,
                    "$.root",
                    ProblemKind::UnknownRoot(guid.clone()),
                ));
                None
            }
            Some(&r) => {
                if parent[r].is_some() {
                    problems.push(Problem::new(
                        origin,
                        "$.root",
                        ProblemKind::RootHasParent(guid.clone()),
                    ));
                }
                Some(r)
            }
        },
    };

    let structural_ok = problems[start..].iter().all(|p| !p.is_error());
    let mut reachable = vec![false; n];
    if let (Some(r), true) = (root, structural_ok) {
        let mut stack = vec![(r, 1usize)];
        let mut too_deep = false;
        while let Some((i, depth)) = stack.pop() {
            reachable[i] = true;
            if depth > opts.max_depth && !too_deep {
                too_deep = true;
                let node = &file.nodes[i];
                problems.push(
                    Problem::new(
                        origin,
                        format!("$.nodes[{i}]"),
                        ProblemKind::TooDeep {
                            depth,
                            limit: opts.max_depth,
                        },
                    )
                    .at_node(&node.guid, &node.name, &node.kind),
                );
            }
            stack.extend(children[i].iter().map(|&c| (c, depth + 1)));
        }
        for (i, node) in file.nodes.iter().enumerate() {
            if !reachable[i] {
                problems.push(
                    Problem::new(origin, format!("$.nodes[{i}]"), ProblemKind::Unreachable)
                        .at_node(&node.guid, &node.name, &node.kind)
                        .warning(),
                );
            }
        }
    }
    Graph { root, children }
}

/// The JSON path of a node, or of one of its decorators.
fn site_path((i, decorator): (usize, Option<usize>)) -> String {
    match decorator {
        Some(j) => format!("$.nodes[{i}].decorators[{j}]"),
        None => format!("$.nodes[{i}]"),
    }
}

fn claim<'f>(
    guid: &'f str,
    here: (usize, Option<usize>),
    seen: &mut HashMap<&'f str, (usize, Option<usize>)>,
    origin: &Arc<str>,
    problems: &mut Vec<Problem>,
    (node_guid, name, kind): (&str, &str, &str),
) {
    if !is_guid(guid) {
        problems.push(
            Problem::new(
                origin,
                format!("{}.guid", site_path(here)),
                ProblemKind::InvalidGuid(guid.to_owned()),
            )
            .at_node(node_guid, name, kind),
        );
    } else if let Some(first) = seen.get(guid) {
        problems.push(
            Problem::new(
                origin,
                format!("{}.guid", site_path(here)),
                ProblemKind::DuplicateGuid {
                    guid: guid.to_owned(),
                    first: site_path(*first),
                },
            )
            .at_node(node_guid, name, kind),
        );
    } else {
        seen.insert(guid, here);
    }
}

/// GUIDs are compared as strings, so only the hyphenated 36-character spelling is
/// accepted: `{…}`, `urn:uuid:` or unhyphenated forms of one UUID would not compare equal.
fn is_guid(text: &str) -> bool {
    text.len() == 36 && uuid::Uuid::parse_str(text).is_ok()
}

/// `"Walk" (WalkTo)` for messages.
fn describe(file: &TreeFile, i: usize) -> String {
    let node = &file.nodes[i];
    format!("\"{}\" ({})", node.name, node.kind)
}
