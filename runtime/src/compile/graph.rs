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
    /// repeated GUIDs. Nodes and decorators share one namespace. The map borrows the
    /// file's GUIDs and answers both questions with one hash per node: cloning each GUID
    /// into a second map was a tenth of loading a large tree.
    fn index_guids(&mut self) -> Guids<'a> {
        let file = self.file;
        let mut guids = Guids {
            by_guid: HashMap::with_capacity(file.nodes.len()),
        };
        for (i, node) in file.nodes.iter().enumerate() {
            let owner = (node.guid.as_str(), node.name.as_str(), node.kind.as_str());
            let seen = guids.by_guid.entry(&node.guid).or_default();
            seen.node.get_or_insert(i);
            claim(
                &node.guid,
                seen,
                (i, None),
                self.origin,
                self.problems,
                owner,
            );
            for (j, d) in node.decorators.iter().enumerate() {
                let seen = guids.by_guid.entry(&d.guid).or_default();
                claim(
                    &d.guid,
                    seen,
                    (i, Some(j)),
                    self.origin,
                    self.problems,
                    owner,
                );
            }
        }
        guids
    }

    /// Each node's parent and children (as node indices), reporting children that do not
    /// exist and children claimed by a second parent (the first parent keeps them).
    fn link_children(&mut self, index: &Guids<'_>) -> (Vec<Option<usize>>, Vec<Vec<usize>>) {
        let file = self.file;
        let n = file.nodes.len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut children = vec![Vec::new(); n];
        for (i, node) in file.nodes.iter().enumerate() {
            children[i].reserve_exact(node.children.len());
            for (j, guid) in node.children.iter().enumerate() {
                let kind = match index.node(guid) {
                    None => ProblemKind::UnknownChild(guid.clone()),
                    Some(c) => match parent[c] {
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
                                      // One buffer for every walk: a fresh one per node was an allocation per node.
        let mut walk = Vec::new();
        for start in 0..n {
            walk.clear();
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
            for &w in &walk {
                state[w] = 2;
            }
        }
    }

    /// The root's index: it must be named, exist, and have no parent (a root with a parent
    /// is reported but still returned).
    fn find_root(&mut self, index: &Guids<'_>, parent: &[Option<usize>]) -> Option<usize> {
        let Some(guid) = &self.file.root else {
            self.problems
                .push(Problem::new(self.origin, "$", ProblemKind::MissingRoot));
            return None;
        };
        let Some(r) = index.node(guid) else {
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

/// Every GUID in a file, nodes' and decorators' alike, borrowed from the file.
struct Guids<'f> {
    by_guid: HashMap<&'f str, Seen>,
}

/// What one GUID names.
#[derive(Default)]
struct Seen {
    /// The first node with this GUID, valid or not (children and the root name nodes by
    /// GUID, whatever it looks like).
    node: Option<usize>,
    /// Where a valid GUID was first used: (node, decorator).
    first: Option<(usize, Option<usize>)>,
}

impl Guids<'_> {
    /// The first node with this GUID.
    fn node(&self, guid: &str) -> Option<usize> {
        self.by_guid.get(guid).and_then(|seen| seen.node)
    }
}

/// Claims `guid` for the node or decorator at `here`: reports it when it is invalid or
/// was claimed before.
fn claim(
    guid: &str,
    seen: &mut Seen,
    here: (usize, Option<usize>),
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
    } else if let Some(first) = seen.first {
        problems.push(
            Problem::new(
                origin,
                format!("{}.guid", site_path(here)),
                ProblemKind::DuplicateGuid {
                    guid: guid.to_owned(),
                    first: site_path(first),
                },
            )
            .at_node(node_guid, name, kind),
        );
    } else {
        seen.first = Some(here);
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
