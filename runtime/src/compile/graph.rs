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

/// Checks the shape of `file`'s tree, in stages that each report every problem they find:
/// the file's limits and GUID, the node and decorator GUIDs, child links, cycles, the root,
/// and (when the structure is sound) depth and reachability.
pub(crate) fn analyse(
    file: &TreeFile,
    origin: &Arc<str>,
    opts: &LoadOptions,
    problems: &mut Vec<Problem>,
) -> Graph {
    let start = problems.len();
    let mut shape = Shape {
        file,
        origin,
        problems,
    };
    shape.check_file(opts);
    let index = shape.index_guids();
    let (parent, children) = shape.link_children(&index);
    shape.report_cycles(&parent);
    let root = shape.find_root(&index, &parent);
    let structural_ok = shape.problems[start..].iter().all(|p| !p.is_error());
    if let (Some(r), true) = (root, structural_ok) {
        shape.check_depth_and_reach(r, &children, opts.max_depth);
    }
    Graph { root, children }
}

/// One file's shape check in progress: the file, and the problems found so far.
struct Shape<'a> {
    file: &'a TreeFile,
    origin: &'a Arc<str>,
    problems: &'a mut Vec<Problem>,
}

impl<'a> Shape<'a> {
    /// The file as a whole: the node count within the limit, and a valid GUID.
    fn check_file(&mut self, opts: &LoadOptions) {
        let n = self.file.nodes.len();
        if n > opts.max_nodes {
            self.problems.push(Problem::new(
                self.origin,
                "$.nodes",
                ProblemKind::TooManyNodes {
                    count: n,
                    limit: opts.max_nodes,
                },
            ));
        }
        if !is_guid(&self.file.guid) {
            self.problems.push(Problem::new(
                self.origin,
                "$.guid",
                ProblemKind::InvalidGuid(self.file.guid.clone()),
            ));
        }
    }

    /// Each node's index by GUID (the first node with a GUID wins), reporting invalid and
    /// repeated GUIDs. Nodes and decorators share one namespace.
    fn index_guids(&mut self) -> HashMap<String, usize> {
        let file = self.file;
        let mut index = HashMap::with_capacity(file.nodes.len());
        // Where each GUID was first seen: (node, decorator). Paths are only formatted for a
        // problem; formatting them for every node made a tenth of loading a large tree.
        let mut seen: HashMap<&str, (usize, Option<usize>)> =
            HashMap::with_capacity(file.nodes.len());
        for (i, node) in file.nodes.iter().enumerate() {
            let owner = (node.guid.as_str(), node.name.as_str(), node.kind.as_str());
            claim(
                &node.guid,
                (i, None),
                &mut seen,
                self.origin,
                self.problems,
                owner,
            );
            index.entry(node.guid.clone()).or_insert(i);
            for (j, d) in node.decorators.iter().enumerate() {
                claim(
                    &d.guid,
                    (i, Some(j)),
                    &mut seen,
                    self.origin,
                    self.problems,
                    owner,
                );
            }
        }
        index
    }

    /// Each node's parent and children (as node indices), reporting children that do not
    /// exist and children claimed by a second parent (the first parent keeps them).
    fn link_children(
        &mut self,
        index: &HashMap<String, usize>,
    ) -> (Vec<Option<usize>>, Vec<Vec<usize>>) {
        let file = self.file;
        let n = file.nodes.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut children = vec![Vec::new(); n];
        for (i, node) in file.nodes.iter().enumerate() {
            for (j, guid) in node.children.iter().enumerate() {
                let kind = match index.get(guid) {
                    None => ProblemKind::UnknownChild(guid.clone()),
                    Some(&c) => match parent[c] {
                        Some(first) => ProblemKind::SecondParent {
                            child: describe(file, c),
                            first: describe(file, first),
                        },
                        None => {
                            parent[c] = Some(i);
                            children[i].push(c);
                            continue;
                        }
                    },
                };
                self.problems.push(
                    Problem::new(self.origin, format!("$.nodes[{i}].children[{j}]"), kind)
                        .at_node(&node.guid, &node.name, &node.kind),
                );
            }
        }
        (parent, children)
    }

    /// Reports each cycle once. With one parent per node, a cycle is a loop of parent links.
    fn report_cycles(&mut self, parent: &[Option<usize>]) {
        let file = self.file;
        let n = file.nodes.len();
        let mut state = vec![0u8; n]; // 0 unvisited, 1 on the current walk, 2 done
        for start in 0..n {
            let mut walk = Vec::new();
            let mut at = Some(start);
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
                        self.problems.push(
                            Problem::new(
                                self.origin,
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
    }

    /// The root's index: it must be named, exist, and have no parent (a root with a parent
    /// is reported but still returned).
    fn find_root(
        &mut self,
        index: &HashMap<String, usize>,
        parent: &[Option<usize>],
    ) -> Option<usize> {
        let Some(guid) = &self.file.root else {
            self.problems
                .push(Problem::new(self.origin, "$", ProblemKind::MissingRoot));
            return None;
        };
        let Some(&r) = index.get(guid) else {
            self.problems.push(Problem::new(
                self.origin,
                "$.root",
                ProblemKind::UnknownRoot(guid.clone()),
            ));
            return None;
        };
        if parent[r].is_some() {
            self.problems.push(Problem::new(
                self.origin,
                "$.root",
                ProblemKind::RootHasParent(guid.clone()),
            ));
        }
        Some(r)
    }

    /// From the root: reports the first node deeper than `max_depth`, then warns about
    /// every node the root does not reach.
    fn check_depth_and_reach(&mut self, root: usize, children: &[Vec<usize>], max_depth: usize) {
        let file = self.file;
        let mut reachable = vec![false; file.nodes.len()];
        let mut stack = vec![(root, 1usize)];
        let mut too_deep = false;
        while let Some((i, depth)) = stack.pop() {
            reachable[i] = true;
            if depth > max_depth && !too_deep {
                too_deep = true;
                let node = &file.nodes[i];
                self.problems.push(
                    Problem::new(
                        self.origin,
                        format!("$.nodes[{i}]"),
                        ProblemKind::TooDeep {
                            depth,
                            limit: max_depth,
                        },
                    )
                    .at_node(&node.guid, &node.name, &node.kind),
                );
            }
            stack.extend(children[i].iter().map(|&c| (c, depth + 1)));
        }
        for (i, node) in file.nodes.iter().enumerate() {
            if !reachable[i] {
                self.problems.push(
                    Problem::new(
                        self.origin,
                        format!("$.nodes[{i}]"),
                        ProblemKind::Unreachable,
                    )
                    .at_node(&node.guid, &node.name, &node.kind)
                    .warning(),
                );
            }
        }
    }
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
