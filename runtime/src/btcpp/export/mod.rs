//! Arbor tree files -> one BT.CPP v4 XML document.
//!
//! The main tree and every tree it reaches through Subtree nodes become `<BehaviorTree>`
//! elements of one document (main first, `main_tree_to_execute` set); Subtree nodes become
//! `<SubTree ID=…>` with their remapping as port attributes. Custom (host) node types are
//! written as elements of their own name and listed in `<TreeNodesModel>` for Groot2.
//! Attached Condition decorators become `_failureIf` (or `_skipIf`), Preconditions and
//! Self-aborting Conditions `_while` where BT.CPP means the same thing.
//!
//! Every node that has no BT.CPP form is reported (`node "name" (Type) in tree: why`); the
//! export succeeds only when there is none. What the import kept in `editor.btcpp` is used
//! to write the original BT.CPP form back.
//!
//! Here: the `Exporter` and the trees it writes (a Subtree's tree is written when first
//! reached). nodes.rs writes a node and its children, builtins.rs Arbor's built-in nodes,
//! decorators.rs the attached decorators, models.rs the `<TreeNodesModel>` entries.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use super::import::{CUSTOM_NOTE, HOST_PREFIX, OPAQUE_NOTE};
use super::mapping::{self, Conv, Entry};
use super::meta::Meta;
use super::model::{self, Direction, ModelKind, NodeModel, PortModel};
use super::script::{self, Join, Lit, Stmt, Test};
use super::xml::Out;
use crate::format::{DecoratorDef, NodeDef, TreeFile};
use crate::spec::{Category, NodeType, NodeTypes, ParamKind};

mod builtins;
mod decorators;
mod models;
mod nodes;

use builtins::text;
use decorators::{merge_script, script_attribute};
use models::{btcpp_id, model_of, subtree_model};
use nodes::Element;

/// Why a tree cannot be exported: one line per node (or file) that has no BT.CPP form.
#[derive(Debug, thiserror::Error)]
#[error("cannot export to BehaviorTree.CPP:\n{}", super::lines(.problems))]
pub struct ExportError {
    /// Every reason the tree cannot be written as BT.CPP XML, one line each.
    pub problems: Vec<String>,
}

/// A successful export.
#[derive(Clone, Debug)]
pub struct Exported {
    /// The v4 document.
    pub xml: String,
    /// What BT.CPP files cannot hold and was left out (for example the main tree's key
    /// defaults, which the program sets in BT.CPP).
    pub warnings: Vec<String>,
}

/// Exports the tree file at `path` and the subtree files it refers to. Host node types
/// are taken from `types` and from the manifests the files list in `editor.manifests`.
pub fn export_file(path: &Path, types: &NodeTypes) -> Result<Exported, ExportError> {
    let main = read(path).map_err(|e| ExportError { problems: vec![e] })?;
    let mut load = |p: &Path| read(p);
    export(&main, Some(path), types, &mut load)
}

fn read(path: &Path) -> Result<TreeFile, String> {
    let limit = crate::LoadOptions::default().max_file_bytes;
    let text = crate::files::read_text(path, limit)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    crate::parse_str(&text, Some(path)).map_err(|e| e.to_string())
}

/// Exports `main` (read from `path`, which anchors relative subtree paths) and the
/// subtree files `load` returns.
pub fn export(
    main: &TreeFile,
    path: Option<&Path>,
    types: &NodeTypes,
    load: &mut dyn FnMut(&Path) -> Result<TreeFile, String>,
) -> Result<Exported, ExportError> {
    let mut ex = Exporter {
        types: types.clone(),
        problems: Vec::new(),
        warnings: Vec::new(),
        trees: Vec::new(),
        by_path: HashMap::new(),
        hosts: BTreeMap::new(),
        sub_models: BTreeMap::new(),
        load,
    };
    let main_path = path.map(crate::files::normalise);
    ex.merge_manifests(main, main_path.as_deref());
    let main_index = ex.tree(main.clone(), main_path);
    let defaults: Vec<String> = main
        .blackboard
        .iter()
        .filter_map(|d| d.default.as_ref().map(|v| format!("{} = {v}", d.key)))
        .collect();
    if !defaults.is_empty() {
        ex.warnings.push(format!(
            "the main tree's key defaults ({}) are not part of a BT.CPP file; the program \
             sets initial blackboard values",
            defaults.join(", ")
        ));
    }
    // What `check` refuses is not exported either (an Inverter without a child would
    // become XML the importer rejects). Only for a file: its subtree paths need a folder.
    if path.is_some() {
        let report = crate::check_tree(main, path, &ex.types, &crate::LoadOptions::default());
        ex.problems.extend(
            report
                .problems
                .iter()
                .filter(|p| p.is_error())
                .map(ToString::to_string),
        );
    }
    if !ex.problems.is_empty() {
        return Err(ExportError {
            problems: ex.problems,
        });
    }
    let mut root = Out::new("root").attr("BTCPP_format", "4");
    root.push_attr("main_tree_to_execute", ex.trees[main_index].id.clone());
    for t in &ex.trees {
        let mut bt = Out::new("BehaviorTree").attr("ID", &t.id);
        for (k, v) in &super::meta::Meta::read(&t.file).tree_attributes {
            bt.push_attr(k, v.clone());
        }
        if let Some(x) = &t.xml {
            bt.children.push(x.clone());
        }
        root.children.push(bt);
    }
    let mut models = Out::new("TreeNodesModel");
    for (id, m) in &ex.sub_models {
        models.children.push(model::write(id, m));
    }
    for (id, m) in &ex.hosts {
        models.children.push(model::write(id, m));
    }
    if !models.children.is_empty() {
        root.children.push(models);
    }
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    root.write(&mut xml, 0);
    Ok(Exported {
        xml,
        warnings: ex.warnings,
    })
}

/// The first character of the node's name, type or string parameters (and their keys)
/// that XML 1.0 cannot hold, even as a character reference (most C0 controls, U+FFFE,
/// U+FFFF).
fn xml_unfit_char(node: &NodeDef) -> Option<char> {
    let mut strings: Vec<&str> = vec![&node.name, &node.kind];
    let mut stack: Vec<&Json> = node.params.values().collect();
    strings.extend(node.params.keys().map(String::as_str));
    for d in &node.decorators {
        strings.push(&d.name);
        stack.extend(d.params.values());
        strings.extend(d.params.keys().map(String::as_str));
    }
    while let Some(v) = stack.pop() {
        match v {
            Json::String(s) => strings.push(s),
            Json::Array(items) => stack.extend(items),
            Json::Object(map) => {
                strings.extend(map.keys().map(String::as_str));
                stack.extend(map.values());
            }
            _ => {}
        }
    }
    strings
        .into_iter()
        .find_map(|s| s.chars().find(|&c| !super::xml::fits_xml(c)))
}

struct ExportedTree {
    id: String,
    /// `None` while the tree is being written (a Subtree reaching it then is a cycle).
    xml: Option<Out>,
    file: TreeFile,
}

struct Exporter<'l> {
    types: NodeTypes,
    problems: Vec<String>,
    warnings: Vec<String>,
    trees: Vec<ExportedTree>,
    by_path: HashMap<PathBuf, usize>,
    /// BT.CPP ID -> model of the custom node types used.
    hosts: BTreeMap<String, NodeModel>,
    /// Subtree ID -> its model (ports with defaults).
    sub_models: BTreeMap<String, NodeModel>,
    load: &'l mut dyn FnMut(&Path) -> Result<TreeFile, String>,
}

/// What a node's place in its tree tells the export.
struct Place<'f> {
    file: &'f TreeFile,
    /// The file's nodes by GUID: finding each by scanning the list made exporting a wide
    /// tree quadratic.
    nodes: NodeIndex<'f>,
    meta: &'f Meta,
    tree_id: &'f str,
    path: Option<&'f Path>,
}

/// A tree file's nodes by GUID (the first of a repeated GUID, as [`TreeFile::node`]).
struct NodeIndex<'f>(HashMap<&'f str, &'f NodeDef>);

impl<'f> NodeIndex<'f> {
    fn of(file: &'f TreeFile) -> NodeIndex<'f> {
        let mut map = HashMap::with_capacity(file.nodes.len());
        for node in &file.nodes {
            map.entry(node.guid.as_str()).or_insert(node);
        }
        NodeIndex(map)
    }

    fn get(&self, guid: &str) -> Option<&'f NodeDef> {
        crate::work::add(crate::work::Counter::GuidSteps, 1);
        self.0.get(guid).copied()
    }
}

impl Exporter<'_> {
    /// Adds the manifests a file lists (relative to it) to the known types. A manifest
    /// that cannot be read only matters if a node needs it; that node is then reported.
    fn merge_manifests(&mut self, file: &TreeFile, path: Option<&Path>) {
        let list = file
            .editor
            .as_ref()
            .and_then(|e| e.get("manifests"))
            .and_then(Json::as_array)
            .cloned()
            .unwrap_or_default();
        let dir = path
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        for m in list.iter().filter_map(Json::as_str) {
            let limit = crate::LoadOptions::default().max_file_bytes;
            if let Ok(text) = crate::files::read_text(&dir.join(m), limit) {
                let mut merged = self.types.clone();
                if merged.merge_manifest(&text).is_ok() {
                    self.types = merged;
                }
            }
        }
    }

    /// Registers a tree and writes it; returns its index.
    fn tree(&mut self, file: TreeFile, path: Option<PathBuf>) -> usize {
        let meta = Meta::read(&file);
        let wanted = [meta.id.as_str(), file.name.as_str()]
            .into_iter()
            .find(|s| !s.trim().is_empty())
            .map(str::to_owned)
            .or_else(|| {
                path.as_ref()
                    .and_then(|p| p.file_stem())
                    .map(|s| s.to_string_lossy().into_owned())
            })
            .unwrap_or_else(|| "MainTree".to_owned());
        let mut id = wanted.clone();
        let mut n = 2;
        while self.trees.iter().any(|t| t.id == id) {
            id = format!("{wanted}_{n}");
            n += 1;
        }
        let index = self.trees.len();
        self.trees.push(ExportedTree {
            id: id.clone(),
            xml: None,
            file: file.clone(),
        });
        if let Some(p) = &path {
            self.by_path.insert(p.clone(), index);
        }
        let at = Place {
            file: &file,
            nodes: NodeIndex::of(&file),
            meta: &meta,
            tree_id: &id,
            path: path.as_deref(),
        };
        let xml = match file.root.as_deref() {
            Some(root) => self.node(&at, root, None, 0),
            None => {
                self.problems
                    .push(format!("tree `{id}`: it has no root node"));
                None
            }
        };
        self.trees[index].xml = xml.or_else(|| Some(Out::new("AlwaysFailure")));
        index
    }
}
