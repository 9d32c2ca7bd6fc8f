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
    let mut ex = Ex {
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

struct ExTree {
    id: String,
    /// `None` while the tree is being written (a Subtree reaching it then is a cycle).
    xml: Option<Out>,
    file: TreeFile,
}

struct Ex<'l> {
    types: NodeTypes,
    problems: Vec<String>,
    warnings: Vec<String>,
    trees: Vec<ExTree>,
    by_path: HashMap<PathBuf, usize>,
    /// BT.CPP ID -> model of the custom node types used.
    hosts: BTreeMap<String, NodeModel>,
    /// Subtree ID -> its model (ports with defaults).
    sub_models: BTreeMap<String, NodeModel>,
    load: &'l mut dyn FnMut(&Path) -> Result<TreeFile, String>,
}

/// What a node's place in its tree tells the export.
struct At<'f> {
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

impl Ex<'_> {
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
        self.trees.push(ExTree {
            id: id.clone(),
            xml: None,
            file: file.clone(),
        });
        if let Some(p) = &path {
            self.by_path.insert(p.clone(), index);
        }
        let at = At {
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

    fn node(
        &mut self,
        at: &At<'_>,
        guid: &str,
        parent: Option<&NodeDef>,
        depth: usize,
    ) -> Option<Out> {
        let Some(node) = at.nodes.get(guid) else {
            self.problems.push(format!(
                "tree `{}`: no node has the GUID {guid}",
                at.tree_id
            ));
            return None;
        };
        if depth > super::xml::MAX_DEPTH {
            self.problems.push(format!(
                "tree `{}`: nodes nest more than {} levels deep",
                at.tree_id,
                super::xml::MAX_DEPTH
            ));
            return None;
        }
        let label = format!(
            "node \"{}\" ({}) in tree `{}`",
            node.name, node.kind, at.tree_id
        );
        if let Some(c) = xml_unfit_char(node) {
            self.problems.push(format!(
                "{label}: holds the character U+{:04X}, which XML 1.0 cannot hold",
                c as u32
            ));
            return None;
        }
        let children: Vec<&NodeDef> = node
            .children
            .iter()
            .filter_map(|c| at.nodes.get(c))
            .collect();
        let element = match self.element(at, node, &children) {
            Ok(e) => e,
            Err(why) => {
                self.problems.push(format!("{label}: {why}"));
                return None;
            }
        };
        let (pre, inverters) = if element.consumed_decorators {
            (Vec::new(), 0)
        } else {
            self.decorators(at, node, parent, &label)
        };
        let mut out = element.out;
        if !node.name.is_empty() && node.name != element.id_for_name {
            out.attrs.insert(
                usize::from(out.has_attr("ID")),
                ("name".to_owned(), node.name.clone()),
            );
        }
        for (k, v) in pre {
            out.push_attr(k, v);
        }
        if let Some(kept) = at.meta.attributes.get(&node.guid) {
            for (k, v) in kept {
                if k != "_autoremap" {
                    out.push_attr(k.clone(), v.clone());
                }
            }
        }
        if element.children {
            for child in children.iter().skip(element.skip) {
                if let Some(c) = self.node(at, &child.guid, Some(node), depth + 1) {
                    out.children.push(c);
                }
            }
        }
        for _ in 0..inverters {
            let mut inverter = Out::new("Inverter");
            inverter.children.push(out);
            out = inverter;
        }
        Some(out)
    }

    /// The attached decorators as pre-condition attributes, and how many Inverter nodes
    /// wrap the element.
    fn decorators(
        &mut self,
        at: &At<'_>,
        node: &NodeDef,
        parent: Option<&NodeDef>,
        label: &str,
    ) -> (Vec<(String, String)>, usize) {
        let under_selector = parent.is_some_and(|p| p.kind == "Selector");
        let mut fail: Vec<String> = Vec::new();
        let mut scripts: Vec<(String, String)> = Vec::new();
        let mut all_skip = true;
        let mut hold: Vec<String> = Vec::new();
        let mut inverters = 0;
        let mut conditions = 0;
        for d in &node.decorators {
            // Implied by the children's own attributes (rule 72).
            if at.meta.decorators.get(&d.guid).map(String::as_str)
                == Some(super::meta::DERIVED_SKIP)
            {
                continue;
            }
            let abort = d
                .params
                .get("abort")
                .and_then(Json::as_str)
                .unwrap_or("None");
            let (self_abort, lower) = match (d.kind.as_str(), abort) {
                ("Precondition", _) => (true, false),
                ("Condition", "None") => (false, false),
                ("Condition", "Self") => (true, false),
                ("Condition", _) => (false, true),
                ("Inverter", _) => {
                    inverters += 1;
                    continue;
                }
                (kind, _) if script_attribute(kind).is_some() => {
                    let attr = script_attribute(kind).unwrap_or_default();
                    let code = d.params.get("code").and_then(Json::as_str).unwrap_or("");
                    scripts.push((attr.to_owned(), code.to_owned()));
                    continue;
                }
                (other, _) => {
                    self.problems.push(format!(
                        "{label}: the attached {other} has no BT.CPP equivalent (events and \
                         triggers are Arbor's)"
                    ));
                    continue;
                }
            };
            conditions += 1;
            if lower {
                self.problems.push(format!(
                    "{label}: a Condition with abort {abort} re-checks while a sibling runs; \
                     BT.CPP has no such pre-condition (a Reactive* parent re-ticks whole children)"
                ));
                continue;
            }
            let Some(test) = self.test(d, label) else {
                continue;
            };
            if self_abort {
                if !under_selector {
                    self.problems.push(format!(
                        "{label}: the {} re-checks while the node runs; BT.CPP's `_while` \
                         skips the node instead of failing it, which means the same only \
                         under a Fallback",
                        d.kind
                    ));
                    continue;
                }
                hold.push(test);
            } else {
                all_skip &= at.meta.decorators.get(&d.guid).map(String::as_str) == Some("_skipIf");
                // `_failureIf` states when to fail: the negation of the pass test.
                fail.push(negate(&test));
            }
        }
        if inverters > 0 && conditions > 0 {
            self.problems.push(format!(
                "{label}: an attached Inverter together with conditions has no BT.CPP form \
                 (an Inverter node would also invert the conditions' failure)"
            ));
        }
        let mut attrs = Vec::new();
        if !fail.is_empty() {
            let name = if all_skip && under_selector {
                "_skipIf"
            } else {
                "_failureIf"
            };
            attrs.push((name.to_owned(), fail.join(" || ")));
        }
        if !hold.is_empty() {
            attrs.push(("_while".to_owned(), hold.join(" && ")));
        }
        for (attr, code) in scripts {
            merge_script(&mut attrs, attr, code);
        }
        if !node.enabled {
            // Rule 79: BT.CPP passes over a skipped node as Arbor leaves out a disabled
            // one; a skip of its own no longer matters. Import reads it back as
            // `enabled: false`.
            attrs.retain(|(a, _)| a != "_skipIf");
            attrs.push(("_skipIf".to_owned(), "true".to_owned()));
        }
        (attrs, inverters)
    }

    /// A Condition/Precondition decorator's pass test as script text.
    fn test(&mut self, d: &DecoratorDef, label: &str) -> Option<String> {
        let key = d.params.get("key").and_then(Json::as_str).unwrap_or("");
        let invert = d
            .params
            .get("invert")
            .and_then(Json::as_bool)
            .unwrap_or(false);
        if let Some(other) = d.params.get("equals_key").and_then(Json::as_str) {
            let op = if invert { "!=" } else { "==" };
            return Some(format!("{key} {op} {other}"));
        }
        let value = d.params.get("equals").unwrap_or(&Json::Null);
        match Lit::from_json(value) {
            Some(value) => Some(
                Test {
                    key: key.to_owned(),
                    value,
                    negated: invert,
                }
                .print(),
            ),
            None => {
                self.problems.push(format!(
                    "{label}: the {} compares `{key}` with {value}, which a BT.CPP script \
                     cannot spell",
                    d.kind
                ));
                None
            }
        }
    }

    fn element(
        &mut self,
        at: &At<'_>,
        node: &NodeDef,
        children: &[&NodeDef],
    ) -> Result<Element, String> {
        let kind = node.kind.as_str();
        let ty = self.types.node(kind).cloned();
        if kind == "Subtree" {
            return self.subtree(at, node);
        }
        match ty {
            Some(ty) if !ty.host => self.builtin(at, node, children, &ty),
            Some(ty) => Ok(self.host(at, node, &ty)),
            None => Err(format!(
                "`{kind}` is not a known node type; give the manifest that declares it"
            )),
        }
    }

    fn builtin(
        &mut self,
        at: &At<'_>,
        node: &NodeDef,
        children: &[&NodeDef],
        ty: &NodeType,
    ) -> Result<Element, String> {
        let origin = at.meta.origins.get(&node.guid).map(String::as_str);
        let entries: Vec<&'static Entry> = mapping::by_arbor(&ty.name).collect();
        if entries.is_empty() {
            return Err(no_equivalent(&ty.name));
        }
        // The recorded origin first, then the table order.
        let preferred = entries
            .iter()
            .copied()
            .filter(|e| Some(e.id) == origin)
            .chain(entries.iter().copied().filter(|e| Some(e.id) != origin));
        let mut why = String::new();
        for entry in preferred {
            match self.convert(at, entry, node, children) {
                Ok(e) => return Ok(e),
                Err(w) if !w.is_empty() && why.is_empty() => why = w,
                Err(_) => {}
            }
        }
        Err(if why.is_empty() {
            format!("no BT.CPP node matches this {}", ty.name)
        } else {
            why
        })
    }

    fn convert(
        &mut self,
        at: &At<'_>,
        entry: &'static Entry,
        node: &NodeDef,
        children: &[&NodeDef],
    ) -> Result<Element, String> {
        let p = &node.params;
        let str_param = |name: &str| p.get(name).and_then(Json::as_str).unwrap_or("").to_owned();
        let mut out = Out::new(entry.id);
        match entry.conv {
            Conv::SetBlackboard => {
                if p.contains_key("ttl") {
                    return Err("`ttl`: BT.CPP blackboard values do not expire".to_owned());
                }
                out.push_attr("value", text(p.get("value").unwrap_or(&Json::Null)));
                // A plain key name: BT.CPP 4.8 reads `output_key="{k}"` as the key whose
                // *value* names the target, and throws "missing port" when `k` is unset.
                out.push_attr("output_key", str_param("key"));
            }
            Conv::Script | Conv::ScriptCondition
                if matches!(node.kind.as_str(), "Script" | "ScriptCondition") =>
            {
                out.push_attr("code", str_param("code"));
            }
            Conv::Script => {
                let key = str_param("key");
                let stmt = if node.kind == "Increment" {
                    let by = p.get("by").cloned().unwrap_or(Json::from(1));
                    Stmt::Add {
                        key,
                        by: Lit::from_json(&by).unwrap_or(Lit::Int(1)),
                    }
                } else {
                    if p.contains_key("ttl") {
                        return Err(String::new());
                    }
                    let value = p.get("value").unwrap_or(&Json::Null);
                    let Some(value) = Lit::from_json(value) else {
                        return Err(String::new());
                    };
                    Stmt::Assign { key, value }
                };
                out.push_attr("code", script::print_stmt(&stmt));
            }
            Conv::ScriptCondition => {
                let key = str_param("key");
                let code = match (p.get("equals"), p.get("equals_key").and_then(Json::as_str)) {
                    (_, Some(other)) => format!("{key} == {other}"),
                    (Some(v), None) => match Lit::from_json(v) {
                        Some(value) => Test {
                            key,
                            value,
                            negated: false,
                        }
                        .print(),
                        None => {
                            return Err(format!(
                                "a BT.CPP script cannot compare with the value {v}"
                            ))
                        }
                    },
                    (None, None) => return Err("the Condition has no value".to_owned()),
                };
                out.push_attr("code", code);
            }
            Conv::Precondition => {
                // Post-condition scripts stay attributes of the `<Precondition>` (BT.CPP
                // runs them when it completes); the other decorators are its test.
                let (post, gate): (Vec<&DecoratorDef>, Vec<&DecoratorDef>) =
                    node.decorators.iter().partition(|d| {
                        matches!(
                            d.kind.as_str(),
                            "OnSuccess" | "OnFailure" | "Post" | "OnHalted"
                        )
                    });
                let mut post_attrs = Vec::new();
                for d in &post {
                    if let Some(attr) = script_attribute(&d.kind) {
                        let code = d.params.get("code").and_then(Json::as_str).unwrap_or("");
                        merge_script(&mut post_attrs, attr.to_owned(), code.to_owned());
                    }
                }
                if let Some(test) = running_precondition(&at.nodes, children) {
                    out.push_attr("if", test);
                    out.push_attr("else", "RUNNING");
                    return Ok(Element {
                        id_for_name: entry.id.to_owned(),
                        out,
                        children: true,
                        consumed_decorators: false,
                        skip: 1,
                    });
                }
                if let Some((test, otherwise)) = script_precondition(&gate, children.len()) {
                    out.push_attr("if", test);
                    out.push_attr("else", otherwise);
                    for (k, v) in post_attrs {
                        out.push_attr(k, v);
                    }
                    return Ok(Element {
                        id_for_name: entry.id.to_owned(),
                        out,
                        children: true,
                        consumed_decorators: true,
                        skip: 0,
                    });
                }
                // Written back only as it was imported: one child and only plain
                // Conditions. Otherwise the Sequence is exported as a Sequence.
                let plain = !gate.is_empty()
                    && gate.iter().all(|d| {
                        d.kind == "Condition"
                            && d.params
                                .get("abort")
                                .and_then(Json::as_str)
                                .unwrap_or("None")
                                == "None"
                            && !d.params.contains_key("equals_key")
                    });
                if children.len() != 1 || !plain {
                    return Err(String::new());
                }
                let mut tests = Vec::new();
                for d in &gate {
                    let value = Lit::from_json(d.params.get("equals").unwrap_or(&Json::Null))
                        .ok_or_else(String::new)?;
                    tests.push(Test {
                        key: d
                            .params
                            .get("key")
                            .and_then(Json::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        value,
                        negated: d
                            .params
                            .get("invert")
                            .and_then(Json::as_bool)
                            .unwrap_or(false),
                    });
                }
                out.push_attr("if", script::print_tests(&tests, Join::All));
                out.push_attr("else", "FAILURE");
                for (k, v) in post_attrs {
                    out.push_attr(k, v);
                }
                return Ok(Element {
                    id_for_name: entry.id.to_owned(),
                    out,
                    children: true,
                    consumed_decorators: true,
                    skip: 0,
                });
            }
            Conv::SubTree => return Err(String::new()),
            Conv::Loop(element) => {
                for (k, v) in loop_attrs(at.file, node, element)? {
                    out.push_attr(k, v);
                }
            }
            _ => {
                for (k, v) in mapping::export_attrs(entry, node, children.len())? {
                    out.push_attr(k, v);
                }
                if let Conv::Switch(_) = entry.conv {
                    out.attrs.insert(
                        0,
                        (
                            "variable".to_owned(),
                            format!("{{{}}}", str_param("variable")),
                        ),
                    );
                }
            }
        }
        Ok(Element {
            id_for_name: entry.id.to_owned(),
            out,
            children: true,
            consumed_decorators: false,
            skip: 0,
        })
    }

    fn host(&mut self, at: &At<'_>, node: &NodeDef, ty: &NodeType) -> Element {
        let id = btcpp_id(&ty.name);
        // BT.CPP 4 reads `<Foo.Bar/>` as the node `Foo`; an ID that is not a plain element
        // name is written in the explicit form `<Action ID="Foo.Bar"/>`, which it reads.
        let plain = id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            && !id.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        let mut out = if plain {
            Out::new(&id)
        } else {
            let tag = match ty.category {
                crate::spec::Category::Condition => "Condition",
                crate::spec::Category::Decorator => "Decorator",
                crate::spec::Category::Composite => "Control",
                _ => "Action",
            };
            Out::new(tag).attr("ID", &id)
        };
        for spec in &ty.params {
            let Some(value) = node.params.get(&spec.name) else {
                continue;
            };
            let value = match (spec.kind, value) {
                (ParamKind::Key, _) => format!("{{{}}}", value.as_str().unwrap_or("")),
                // BT.CPP 4.9's `json:` literal: a list or an object for a port of a
                // vector or custom type (BT.CPP 4.8 reads it for custom types).
                (_, Json::Array(_) | Json::Object(_))
                    if matches!(crate::port::binding(value), Ok(None)) =>
                {
                    format!("json:{value}")
                }
                _ => text(value),
            };
            out.push_attr(&spec.name, value);
        }
        if !mapping::is_btcpp_builtin(&id) && !self.hosts.contains_key(&id) {
            // The imported model (port directions, C++ types), completed with parameters
            // added since.
            let declared = model_of(ty);
            let m = match at.meta.models.get(&ty.name) {
                Some(m) => {
                    let mut m = m.clone();
                    for p in declared.ports {
                        if m.port(&p.name).is_none() {
                            m.ports.push(p);
                        }
                    }
                    m
                }
                None => declared,
            };
            self.hosts.insert(id.clone(), m);
        }
        Element {
            id_for_name: id,
            out,
            children: true,
            consumed_decorators: false,
            skip: 0,
        }
    }

    fn subtree(&mut self, at: &At<'_>, node: &NodeDef) -> Result<Element, String> {
        let rel = node
            .params
            .get("path")
            .and_then(Json::as_str)
            .ok_or("the Subtree has no `path`")?;
        let base = at
            .path
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        // Two spellings of one subtree path are one tree.
        let target = crate::files::normalise(&base.join(rel));
        let index = match self.by_path.get(&target) {
            Some(&i) => {
                if self.trees[i].xml.is_none() {
                    return Err(format!("subtree `{rel}` contains itself (a cycle)"));
                }
                i
            }
            None => {
                // Trees being written enclose this call: bound the nesting (and with it
                // the recursion) as the loader does.
                let open = self.trees.iter().filter(|t| t.xml.is_none()).count();
                if open > 16 {
                    return Err(format!(
                        "subtree `{rel}`: subtrees nest more than 16 deep (Arbor's loader \
                         refuses such trees)"
                    ));
                }
                let file = (self.load)(&target).map_err(|e| format!("subtree `{rel}`: {e}"))?;
                self.merge_manifests(&file, Some(&target));
                self.tree(file, Some(target))
            }
        };
        let sub_id = self.trees[index].id.clone();
        let sub_file = self.trees[index].file.clone();
        let remap: Vec<(String, String)> = node
            .params
            .get("remap")
            .and_then(Json::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        let mut out = Out::new("SubTree").attr("ID", &sub_id);
        let autoremap = at
            .meta
            .attributes
            .get(&node.guid)
            .and_then(|a| a.get("_autoremap"))
            .is_some_and(|v| v == "true")
            && sub_file
                .blackboard
                .iter()
                .all(|d| d.default.is_some() || remap.iter().any(|(s, _)| *s == d.key));
        if autoremap {
            out.push_attr("_autoremap", "true");
        }
        for (s, p) in &remap {
            if autoremap && s == p {
                continue;
            }
            out.push_attr(s, format!("{{{p}}}"));
        }
        if autoremap {
            // A key the call does not remap has its default: a literal port of the call
            // (BT.CPP does not apply a model's defaults to an autoremapped call).
            for d in &sub_file.blackboard {
                if let Some(v) = d.default.as_ref() {
                    if !remap.iter().any(|(s, _)| *s == d.key) {
                        out.push_attr(&d.key, text(v));
                    }
                }
            }
        }
        let model = subtree_model(&sub_id, &sub_file);
        if !model.ports.is_empty() || !model.description.is_empty() {
            self.sub_models.insert(sub_id.clone(), model);
        }
        Ok(Element {
            id_for_name: sub_id,
            out,
            children: false,
            consumed_decorators: false,
            skip: 0,
        })
    }
}

/// A node's element before its name, pre-conditions and children are added.
struct Element {
    /// BT.CPP names an unnamed node after this; `name` is written only when different.
    id_for_name: String,
    out: Out,
    /// Whether the node's children are written inside it (not for SubTree).
    children: bool,
    /// The decorators became the element itself (Precondition).
    consumed_decorators: bool,
    /// Leading children that became the element itself (a Precondition's test).
    skip: usize,
}

/// Why an Arbor built-in without a table entry cannot be exported.
fn no_equivalent(kind: &str) -> String {
    match kind {
        "Limiter" => "BT.CPP has no Limiter (RunOnce differs: it skips or repeats the first \
                      result instead of failing once the count is used up)"
            .to_owned(),
        "SendEvent" | "SetTrigger" => {
            "events and triggers are Arbor's; BT.CPP has no equivalent".to_owned()
        }
        "Log" => "BT.CPP has no logging node".to_owned(),
        "Random" => "BT.CPP has no random node".to_owned(),
        other => format!("BT.CPP has no equivalent of {other}"),
    }
}

/// The BT.CPP ID of a host type (see `import::host_type_name`).
fn btcpp_id(name: &str) -> String {
    match name.strip_prefix(HOST_PREFIX) {
        Some(id) if super::is_arbor_builtin(id) => id.to_owned(),
        _ => name.to_owned(),
    }
}

/// A model for a host type from its declaration. C++ types are claimed only for types
/// declared in Arbor: an imported type without a model does not know them.
fn model_of(ty: &NodeType) -> NodeModel {
    let imported =
        ty.description.starts_with(CUSTOM_NOTE) || ty.description.starts_with(OPAQUE_NOTE);
    NodeModel {
        kind: ModelKind::from_category(if ty.category == Category::Subtree {
            Category::Action
        } else {
            ty.category
        }),
        ports: ty
            .params
            .iter()
            .map(|p| PortModel {
                name: p.name.clone(),
                // A key parameter may be read or written: inout is the honest direction.
                direction: if p.kind == ParamKind::Key {
                    Direction::InOut
                } else {
                    Direction::Input
                },
                ty: match p.kind {
                    _ if imported => None,
                    ParamKind::Bool => Some("bool".to_owned()),
                    ParamKind::Int => Some("int".to_owned()),
                    ParamKind::Float => Some("double".to_owned()),
                    ParamKind::String => Some("std::string".to_owned()),
                    _ => None,
                },
                default: p.default.as_ref().map(text),
                description: p.description.clone(),
            })
            .collect(),
        description: if imported {
            String::new()
        } else {
            ty.description.clone()
        },
    }
}

/// The `<SubTree>` model of a subtree file: the ports of the model it was imported with
/// (directions, C++ types, descriptions), and every key with a default, which a call that
/// does not remap it gets in Arbor and BT.CPP reads from the model. The file is the
/// truth: a key's default is its declared one, and a port the model did not type gets
/// the key's type, so that a string default such as `"42"` comes back a string.
fn subtree_model(id: &str, file: &TreeFile) -> NodeModel {
    let imported = Meta::read(file)
        .models
        .remove(id)
        .filter(|m| m.kind == ModelKind::SubTree);
    let mut ports: Vec<PortModel> = imported
        .as_ref()
        .map(|m| m.ports.clone())
        .unwrap_or_default();
    // Ports whose key the file no longer has are left out (BT.CPP would declare a key
    // nothing uses).
    ports.retain(|p| file.blackboard.iter().any(|d| d.key == p.name));
    for d in &file.blackboard {
        let default = d.default.as_ref().map(text);
        match ports.iter_mut().find(|p| p.name == d.key) {
            Some(p) => {
                // A `{key}` default is a remapping the calls write out; keep it for Groot2.
                p.default = default.or_else(|| {
                    p.default
                        .take()
                        .filter(|d| super::import::blackboard_ref(d).is_some())
                });
                if p.ty.is_none() {
                    p.ty = cpp_type_of(d.ty);
                }
            }
            None if default.is_some() => ports.push(PortModel {
                name: d.key.clone(),
                direction: Direction::Input,
                ty: cpp_type_of(d.ty),
                default,
                description: d.description.clone(),
            }),
            None => {}
        }
    }
    NodeModel {
        kind: ModelKind::SubTree,
        ports,
        description: imported.map(|m| m.description).unwrap_or_default(),
    }
}

/// The C++ type BT.CPP names a key of this type with, for the scalar types.
fn cpp_type_of(ty: crate::value::ValueType) -> Option<String> {
    use crate::value::ValueType;
    match ty {
        ValueType::Bool => Some("bool".to_owned()),
        ValueType::Int => Some("int".to_owned()),
        ValueType::Float => Some("double".to_owned()),
        ValueType::String => Some("std::string".to_owned()),
        _ => None,
    }
}

/// A Loop as LoopInt, LoopDouble, LoopString or LoopBool (rule 65): the one whose element
/// type is the `value` key's; a literal queue is written as BT.CPP's `a;b;c` text.
fn loop_attrs(
    file: &TreeFile,
    node: &NodeDef,
    element: crate::value::Scalar,
) -> Result<Vec<(String, String)>, String> {
    let p = &node.params;
    let value = p.get("value").and_then(Json::as_str).unwrap_or("");
    let ty = file
        .blackboard
        .iter()
        .find(|k| k.key == value)
        .map(|k| k.ty);
    if ty != Some(element.value_type()) {
        let other = crate::value::Scalar::ALL
            .iter()
            .any(|s| Some(s.value_type()) == ty);
        return Err(if other {
            String::new()
        } else {
            format!(
                "BT.CPP loops over bool, int, float or string elements; `{value}` is {}",
                ty.map_or("not a declared key", |t| t.as_str())
            )
        });
    }
    let queue = match p.get("queue") {
        Some(Json::Array(items)) => {
            let parts: Vec<String> = items.iter().map(queue_element).collect();
            if parts.iter().any(|t| t.contains(';')) {
                return Err("a queue element holds `;`, BT.CPP's separator".to_owned());
            }
            if parts.last().is_some_and(String::is_empty) {
                return Err("BT.CPP's queue text cannot end in an empty element".to_owned());
            }
            parts.join(";")
        }
        Some(bound) if crate::port::binding(bound).ok().flatten().is_some() => text(bound),
        _ => return Err("the queue is neither a list nor bound to a key".to_owned()),
    };
    let mut attrs = vec![
        ("queue".to_owned(), queue),
        ("value".to_owned(), format!("{{{value}}}")),
    ];
    if p.get("if_empty").and_then(Json::as_str) == Some("failure") {
        attrs.push(("if_empty".to_owned(), "FAILURE".to_owned()));
    }
    Ok(attrs)
}

/// A JSON value as an attribute: strings as they are, other scalars as JSON text.
/// A parameter value as attribute text; a binding (`{"$key": "k"}`) is BT.CPP's `{k}`.
/// One element of a literal queue: a float in its shortest form (`1`, not `1.0`), as
/// BT.CPP's `LoopDouble queue="1;2;3"` is written and read back (`std::stod`); the rest as
/// [`text`].
fn queue_element(value: &Json) -> String {
    match value.as_f64() {
        Some(f) if value.is_f64() => f.to_string(),
        _ => text(value),
    }
}

fn text(value: &Json) -> String {
    if let Ok(Some(key)) = crate::port::binding(value) {
        return format!("{{{key}}}");
    }
    match value {
        Json::String(s) => s.clone(),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) => Lit::Float(f).text(),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// `a` -> `!a`, `a == 1` -> `a != 1`, and back.
fn negate(test: &str) -> String {
    if let Some(rest) = test.strip_prefix('!') {
        return rest.to_owned();
    }
    if let Some((l, r)) = test.split_once(" == ") {
        return format!("{l} != {r}");
    }
    if let Some((l, r)) = test.split_once(" != ") {
        return format!("{l} == {r}");
    }
    format!("!{test}")
}

/// A Sequence imported from a `<Precondition>` with a script test: one child and one
/// FailureIf / SuccessIf / SkipIf whose code is `!(S)`; gives `S` and the `else` status.
fn script_precondition(
    decorators: &[&DecoratorDef],
    children: usize,
) -> Option<(String, &'static str)> {
    let [d] = decorators else {
        return None;
    };
    let otherwise = match d.kind.as_str() {
        "FailureIf" => "FAILURE",
        "SuccessIf" => "SUCCESS",
        "SkipIf" => "SKIPPED",
        _ => return None,
    };
    let code = d.params.get("code").and_then(Json::as_str)?;
    let test = code.strip_prefix("!(")?.strip_suffix(')')?;
    // `!(a) || (b)` also starts with `!(` and ends with `)`; only a whole test is one.
    let whole = crate::script::parse_error(test).is_none();
    (children == 1 && whole).then(|| (test.to_owned(), otherwise))
}

/// A Sequence imported from `<Precondition else="RUNNING">` (rule 71): a dynamic Selector
/// over a ScriptCondition and a Scripted leaf that only runs, then the one child; gives
/// the test.
fn running_precondition(nodes: &NodeIndex<'_>, children: &[&NodeDef]) -> Option<String> {
    let [gate, _] = children else {
        return None;
    };
    let dynamic = gate.params.get("dynamic").and_then(Json::as_bool) == Some(true);
    if gate.kind != "Selector" || !dynamic || !gate.decorators.is_empty() {
        return None;
    }
    let [test, wait] = gate.children.as_slice() else {
        return None;
    };
    let (test, wait) = (nodes.get(test)?, nodes.get(wait)?);
    let only_runs = wait.kind == "Scripted"
        && wait.params.get("returns") == Some(&Json::from(vec!["running"]))
        && wait.decorators.is_empty();
    let code = test.params.get("code").and_then(Json::as_str)?;
    (test.kind == "ScriptCondition" && test.decorators.is_empty() && only_runs)
        .then(|| code.to_owned())
}

/// The BT.CPP attribute of a script decorator type (`SkipIf` -> `_skipIf`).
fn script_attribute(kind: &str) -> Option<&'static str> {
    crate::nodes::attached::script::attribute_of(kind)
}

/// Adds a script decorator's attribute; one already there (two decorators of a type, or a
/// Condition exported as `_failureIf`) is combined as BT.CPP would evaluate both: tests
/// with `||` (`&&` for `_while`), post-scripts one after the other.
fn merge_script(attrs: &mut Vec<(String, String)>, attr: String, code: String) {
    match attrs.iter_mut().find(|(a, _)| *a == attr) {
        Some((_, old)) => {
            *old = match attr.as_str() {
                "_while" => format!("({old}) && ({code})"),
                "_failureIf" | "_successIf" | "_skipIf" => format!("({old}) || ({code})"),
                _ => format!("{old}; {code}"),
            }
        }
        None => attrs.push((attr, code)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_of_printed_tests() {
        assert_eq!(negate("door_open"), "!door_open");
        assert_eq!(negate("!door_open"), "door_open");
        assert_eq!(negate("mode == 'x'"), "mode != 'x'");
        assert_eq!(negate("n != 2"), "n == 2");
    }

    #[test]
    fn attribute_text_of_values() {
        assert_eq!(text(&Json::from("a b")), "a b");
        assert_eq!(text(&Json::from(3)), "3");
        assert_eq!(text(&Json::from(2.5)), "2.5");
        assert_eq!(text(&Json::from(true)), "true");
    }
}
