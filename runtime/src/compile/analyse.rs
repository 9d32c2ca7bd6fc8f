//! Checks one file completely (structure, keys, every node and decorator, connected or not)
//! and lowers what it can, so that emission only has to lay nodes out.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

use super::conflicts;
use super::graph::{self, Graph};
use super::key_use::KeyUse;
use super::params::{self, FileKeys, RootKeys, Site};
use super::problem::{Problem, ProblemKind};
use super::renames;
use super::running_condition;
use super::suggest::Suggestions;
use super::LoadOptions;
use crate::args::{Arg, Args};
use crate::format::TreeFile;
use crate::nodes::attached::{self, Decorator};
use crate::nodes::{Kind, Lower, LowerCx, Names, RootKey};
use crate::spec::{Category, ChildCount, NodeType, NodeTypes};

/// One node after checking.
pub(crate) struct Lowered {
    /// Built-in kinds; `None` for host nodes and nodes with problems.
    pub kind: Option<Kind>,
    /// Host nodes' checked parameters, for their factory.
    pub host: Option<Args>,
    pub decorators: Vec<Decorator>,
    /// For each of `decorators`: a host condition's checked parameters, for its factory.
    pub decorator_args: Vec<Option<Args>>,
    /// Subtree nodes: the path and the remapping.
    pub subtree: Option<(String, Vec<(String, String)>)>,
    /// Whether the node's children have roles by position (one child, IfThenElse,
    /// WhileDoElse, Switch, a child list matched by a per-child parameter): such a node
    /// cannot run without one of them (rule 79).
    pub roles: bool,
}

/// One file after checking.
pub(crate) struct Analysed {
    pub file: TreeFile,
    pub origin: Arc<str>,
    /// Where the file is, for resolving its subtree paths.
    pub path: Option<PathBuf>,
    pub graph: Graph,
    pub keys: FileKeys,
    pub nodes: Vec<Lowered>,
    /// For each node: whether it runs as if absent (rule 79): disabled, or a node whose
    /// children have roles with a child that is absent.
    pub absent: Vec<bool>,
    /// No error anywhere in this file.
    pub ok: bool,
    /// The top-level file (not a subtree file): emitted once, so its names can be moved
    /// into the compiled tree.
    pub top: bool,
}

pub(crate) struct Analyser<'a> {
    pub types: &'a NodeTypes,
    /// `None` for a built-in kind made as a control (lowered as a host node is).
    pub lowers: &'a HashMap<String, Option<Lower>>,
    pub names: &'a mut Names,
    pub opts: &'a LoadOptions,
    pub suggestions: &'a Suggestions,
    /// Set when the file is a subtree file: the top file's keys, for `@name` (rule 70).
    pub root: Option<Rc<RootKeys>>,
}

impl<'a> Analyser<'a> {
    pub(crate) fn analyse(
        &mut self,
        file: TreeFile,
        origin: Arc<str>,
        path: Option<PathBuf>,
        problems: &mut Vec<Problem>,
    ) -> Analysed {
        let start = problems.len();
        let mut file = file;
        problems.extend(renames::apply(&mut file, self.types, &origin));
        problems.extend(conflicts::problems(&file, &origin));
        let graph = graph::analyse(&file, &origin, self.opts, problems);
        check_keys(&file, &origin, problems);
        // Only a file that writes `@` somewhere can name a root key; the others skip
        // taking on the root's key types, which keeps a load linear in its files.
        let root = self.root.clone().filter(|_| mentions_at(&file));
        let keys = FileKeys::new(&file).under(root);
        let mut nodes = Vec::with_capacity(file.nodes.len());
        let mut last_type = None;
        let mut key_use = KeyUse::new(&file);
        for (i, _) in file.nodes.iter().enumerate() {
            let cx = NodeCx {
                graph: &graph,
                keys: &keys,
                origin: &origin,
                last_type: &mut last_type,
                key_use: &mut key_use,
            };
            let lowered = self.node(&file, i, cx, problems);
            nodes.push(lowered);
        }
        problems.extend(running_condition::warnings(
            &file, &graph, self.types, &origin,
        ));
        // A subtree file's keys may be written by the tree that uses it (key_use.rs).
        if self.opts.lint_keys && self.root.is_none() {
            problems.extend(key_use.warnings(&file, &origin));
        }
        let ok = problems[start..].iter().all(|p| !p.is_error());
        let absent = absent(&file, &graph, &nodes);
        Analysed {
            file,
            origin,
            path,
            graph,
            keys,
            nodes,
            absent,
            ok,
            top: false,
        }
    }

    fn node<'f>(
        &mut self,
        file: &'f TreeFile,
        i: usize,
        cx: NodeCx<'_, 'f, 'a>,
        problems: &mut Vec<Problem>,
    ) -> Lowered {
        let NodeCx {
            graph,
            keys,
            origin,
            last_type,
            key_use,
        } = cx;
        let node = &file.nodes[i];
        let root_key = self
            .root
            .is_some()
            .then_some(|name: &str| keys.root_key(name));
        let site = Site {
            origin,
            node_index: i,
            decorator: None,
            node: (&node.guid, &node.name, &node.kind),
        };
        let mut lowered = Lowered {
            kind: None,
            host: None,
            decorators: Vec::new(),
            decorator_args: Vec::new(),
            subtree: None,
            roles: false,
        };
        for (j, d) in node.decorators.iter().enumerate() {
            let dsite = Site {
                origin,
                node_index: i,
                decorator: Some(j),
                node: (&node.guid, &node.name, &node.kind),
            };
            let Some(ty) = self.types.decorator(&d.kind) else {
                if let Some(node_ty) = self.types.node(&d.kind) {
                    problems.push(dsite.problem(
                        ".type",
                        ProblemKind::NodeAsDecorator {
                            kind: d.kind.clone(),
                            category: node_ty.category.as_str(),
                        },
                    ));
                    continue;
                }
                problems.push(
                    dsite.problem(
                        ".type",
                        ProblemKind::UnknownDecoratorType {
                            found: d.kind.clone(),
                            suggestion: self
                                .suggestions
                                .closest(&d.kind, self.types.decorator_names()),
                        },
                    ),
                );
                continue;
            };
            let before = problems.len();
            let args = params::check(ty, &d.params, keys, &dsite, problems);
            if problems.len() > before {
                continue;
            }
            key_use.record(i, ty, &args, keys);
            let mut cx = LowerCx {
                key_types: &keys.types,
                key_names: &keys.by_name,
                script_enums: self.types.script_enums(),
                names: self.names,
                root_key: root_key.as_ref().map(|f| f as &RootKey<'_>),
            };
            match attached::lower(ty, &args, &mut cx) {
                Ok(dec) => {
                    lowered.decorator_args.push(dec.is_host().then_some(args));
                    lowered.decorators.push(dec);
                }
                Err(e) => problems.push(dsite.problem(
                    &format!(".params.{}", e.param),
                    ProblemKind::BadParam {
                        param: e.param.to_owned(),
                        message: e.message,
                    },
                )),
            }
        }

        let ty = match *last_type {
            Some((kind, ty)) if kind == node.kind => Some(ty),
            _ => self.types.node(&node.kind),
        };
        let Some(ty) = ty else {
            let kind = if self.types.decorator(&node.kind).is_some() {
                ProblemKind::DecoratorAsNode(node.kind.clone())
            } else {
                ProblemKind::UnknownNodeType {
                    found: node.kind.clone(),
                    suggestion: self
                        .suggestions
                        .closest(&node.kind, self.types.node_names()),
                }
            };
            problems.push(site.problem(".type", kind));
            return lowered;
        };
        *last_type = Some((&node.kind, ty));
        lowered.roles = matches!(ty.children(), ChildCount::One | ChildCount::Range { .. })
            || (!ty.host && matches!(ty.name.as_str(), "RandomSelector" | "UtilitySelector"));
        let found = graph.children[i].len().max(node.children.len());
        let expected = ty.children().violation(found);
        if let Some(expected) = expected {
            problems.push(site.problem(
                ".children",
                ProblemKind::ChildCount {
                    kind: ty.name.clone(),
                    expected,
                    found,
                },
            ));
        } else if ty.category == Category::Composite && found == 0 {
            // Rule 12's composites succeed; others do what their own rule says.
            let kind = if matches!(
                ty.name.as_str(),
                "Sequence" | "Selector" | "Parallel" | "ParallelAll"
            ) && !ty.host
            {
                ProblemKind::EmptyComposite(ty.name.clone())
            } else {
                ProblemKind::NoChildren(ty.name.clone())
            };
            problems.push(site.problem("", kind).warning());
        }

        let before = problems.len();
        let args = params::check(ty, &node.params, keys, &site, problems);
        if problems.len() > before {
            return lowered;
        }
        key_use.record(i, ty, &args, keys);
        if ty.host || matches!(self.lowers.get(&ty.name), Some(None)) {
            lowered.host = Some(args);
            return lowered;
        }
        if ty.category == Category::Subtree {
            let path = args.str("path").unwrap_or_default().to_owned();
            let remap = match args.get("remap") {
                Some(Arg::KeyMap(pairs)) => pairs.clone(),
                _ => Vec::new(),
            };
            lowered.subtree = Some((path, remap));
        }
        match self.lowers.get(&ty.name).copied().flatten() {
            Some(lower) => {
                let mut cx = LowerCx {
                    key_types: &keys.types,
                    key_names: &keys.by_name,
                    script_enums: self.types.script_enums(),
                    names: self.names,
                    root_key: root_key.as_ref().map(|f| f as &RootKey<'_>),
                };
                match lower(&args, &mut cx) {
                    Ok(kind) => lowered.kind = Some(kind),
                    Err(e) => problems.push(site.problem(
                        &format!(".params.{}", e.param),
                        ProblemKind::BadParam {
                            param: e.param.to_owned(),
                            message: e.message,
                        },
                    )),
                }
            }
            None => {
                problems.push(site.problem(".type", ProblemKind::NoImplementation(ty.name.clone())))
            }
        }
        lowered
    }
}

/// Which nodes run as if absent (rule 79): a disabled node, and a node whose children have
/// roles (`Lowered::roles`) when one of its children is absent, and so up. Children
/// first: the nodes the root reaches, in reverse pre-order (iterative; a file with a
/// cycle is not emitted, and the walk visits each node once regardless).
fn absent(file: &TreeFile, graph: &Graph, nodes: &[Lowered]) -> Vec<bool> {
    let n = file.nodes.len();
    let mut absent: Vec<bool> = file.nodes.iter().map(|node| !node.enabled).collect();
    if file.nodes.iter().all(|node| node.enabled) {
        return absent;
    }
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = graph.root.into_iter().collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        order.push(i);
        stack.extend(graph.children[i].iter().copied());
    }
    for &i in order.iter().rev() {
        if !absent[i] && nodes[i].roles && graph.children[i].iter().any(|&c| absent[c]) {
            absent[i] = true;
        }
    }
    absent
}

/// What checking one node needs besides the file: the file's structure and keys, its
/// name for messages, and the previous node's type.
struct NodeCx<'c, 'f, 't> {
    graph: &'c Graph,
    keys: &'c FileKeys,
    origin: &'c Arc<str>,
    /// The type of the last node whose type was known, by its name: runs of nodes of one
    /// type skip the lookup by name, a search of the sorted type table with a string
    /// comparison per step that made a twentieth of loading a large tree.
    last_type: &'c mut Option<(&'f str, &'t NodeType)>,
    /// What the file's nodes do with its keys.
    key_use: &'c mut KeyUse,
}

pub(super) fn check_keys(file: &TreeFile, origin: &Arc<str>, problems: &mut Vec<Problem>) {
    let mut seen = HashMap::new();
    for (i, decl) in file.blackboard.iter().enumerate() {
        let path = format!("$.blackboard[{i}]");
        if seen.insert(decl.key.as_str(), i).is_some() {
            problems.push(Problem::new(
                origin,
                format!("{path}.key"),
                ProblemKind::DuplicateKey(decl.key.clone()),
            ));
        }
        if decl.key.trim().is_empty() {
            problems.push(Problem::new(
                origin,
                format!("{path}.key"),
                ProblemKind::Shape("a blackboard key needs a name".to_owned()),
            ));
        }
        if let Some(default) = &decl.default {
            if let Err(message) = decl.ty.coerce(default) {
                problems.push(Problem::new(
                    origin,
                    format!("{path}.default"),
                    ProblemKind::BadDefault {
                        key: decl.key.clone(),
                        message,
                    },
                ));
            }
        }
    }
}

/// Whether any parameter of the file's nodes or decorators holds `@` (a root key, rule 70).
fn mentions_at(file: &TreeFile) -> bool {
    fn holds(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::String(s) => s.contains('@'),
            serde_json::Value::Array(a) => a.iter().any(holds),
            serde_json::Value::Object(m) => m.values().any(holds),
            _ => false,
        }
    }
    file.nodes.iter().any(|n| {
        n.params.values().any(holds) || n.decorators.iter().any(|d| d.params.values().any(holds))
    })
}
