//! BT.CPP XML -> Arbor tree files.
//!
//! Passes, each over the whole document so that every problem is reported:
//! 1. `load`: parse (with `<include>`s), find the trees, the models and the main tree;
//! 2. `map_element`: each element becomes a `Draft` node: a mapped Arbor node (the table
//!    in `mapping`), or an opaque host node that keeps its attributes; pre-conditions
//!    become attached decorators where the semantics match;
//! 3. `declare_keys`: every `{key}` becomes a declared blackboard key of its tree, with a
//!    type inferred from the literals it meets (`json` when they disagree), unified across
//!    SubTree remappings since Arbor requires equal types on both sides;
//! 4. `host_types`: custom and opaque nodes become host node types whose ports are
//!    parameters (`key` when every use is `{key}`, a typed value otherwise);
//! 5. `build`: tree files with fresh GUIDs, tidy positions and the `editor.btcpp` data.
//!
//! Nothing here panics on any input: errors carry the element's line and column.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value as Json};

mod hosts;
mod keys;
mod scripts;
mod try_catch;
mod unset_keys;
mod v3_checks;

use hosts::typed_port;
pub(crate) use hosts::{host_type_name, CUSTOM_NOTE, HOST_PREFIX, OPAQUE_NOTE};

use super::mapping::{self, Conv, Entry};
use super::meta::{self, Meta};
use super::model::{self, NodeModel};
use super::script::{self, Join, Lit, Stmt, Test};
use super::xml::{self, Element};
use super::{ImportError, XmlProblem};
use crate::format::layout;
use crate::format::{DecoratorDef, KeyDecl, NodeDef, TreeFile};
use crate::spec::{Category, NodeType, NodeTypes, ParamKind};
use crate::status::Status;
use crate::value::{Scalar, ValueType};

/// How to name the imported files.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The main tree is `<stem>.json`, another tree `<stem>.<ID>.json`, the manifest of
    /// custom node types `<stem>.types.json`.
    pub stem: String,
    /// The folder `<include path=…>` is relative to, and which included files must lie in;
    /// `None` skips includes with a warning.
    pub base_dir: Option<PathBuf>,
    /// How the document is named in messages.
    pub origin: String,
    /// The scripting enums the program registers (BT.CPP's `registerScriptingEnum`): a
    /// script name that is one is its value, not a key. They go into the manifest, which
    /// accepts only names [`NodeTypes::check_script_enum_name`] accepts.
    pub script_enums: BTreeMap<String, i64>,
}

impl ImportOptions {
    /// Options for a document whose files are named after `stem`, read from memory (no
    /// base folder for `<include>`, messages name `<memory>`).
    pub fn new(stem: impl Into<String>) -> ImportOptions {
        ImportOptions {
            stem: stem.into(),
            base_dir: None,
            origin: "<memory>".to_owned(),
            script_enums: BTreeMap::new(),
        }
    }
}

/// One imported tree.
#[derive(Clone, Debug)]
pub struct ImportedFile {
    /// The file name, relative to the folder of the main file.
    pub file_name: String,
    /// The `<BehaviorTree ID>` it came from.
    pub tree_id: String,
    /// The Arbor tree file it became.
    pub tree: TreeFile,
}

/// The result of an import.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The main tree first, then the trees it uses (in order of first use), then trees it
    /// does not use.
    pub files: Vec<ImportedFile>,
    /// Host node types declared by the import: custom nodes and BT.CPP nodes Arbor has no
    /// equivalent for. The program that runs the tree registers types with these names
    /// and parameters; until then [`super::stand_in_registry`] runs them.
    pub types: Vec<NodeType>,
    /// `<stem>.types.json`, listed in each file's `editor.manifests` when `types` is not
    /// empty.
    pub manifest_name: String,
    /// What was approximated, kept as text, or skipped.
    pub warnings: Vec<XmlProblem>,
    /// The scripting enums of the import's options, written to the manifest.
    pub script_enums: BTreeMap<String, i64>,
}

impl Imported {
    /// The main tree.
    pub fn main(&self) -> &TreeFile {
        &self.files[0].tree
    }

    /// The file of a BT.CPP tree.
    pub fn file(&self, tree_id: &str) -> Option<&ImportedFile> {
        self.files.iter().find(|f| f.tree_id == tree_id)
    }

    /// The host types as a node-types manifest (JSON), as written to `manifest_name`.
    pub fn manifest(&self) -> String {
        self.node_types().manifest_where(|t| t.host)
    }

    /// The built-in types plus the host types of this import: what the editor and
    /// `check_tree` need to check the files.
    pub fn node_types(&self) -> NodeTypes {
        let mut types = NodeTypes::builtin();
        for ty in &self.types {
            types.insert(ty.clone());
        }
        for (name, value) in &self.script_enums {
            types.script_enum(name, *value);
        }
        types
    }

    /// Whether there is a manifest to write: host types or scripting enums.
    fn has_manifest(&self) -> bool {
        !self.types.is_empty() || !self.script_enums.is_empty()
    }

    /// Writes every file (and the manifest, if there are host types) into `dir`, each
    /// atomically ([`crate::files::write_atomic`]: a failure leaves the file it would have
    /// replaced as it was); returns the paths written.
    pub fn write_to(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let mut written = Vec::new();
        for f in &self.files {
            let path = dir.join(&f.file_name);
            crate::files::write_atomic(&path, f.tree.to_json_pretty().as_bytes())?;
            written.push(path);
        }
        if self.has_manifest() {
            let path = dir.join(&self.manifest_name);
            crate::files::write_atomic(&path, self.manifest().as_bytes())?;
            written.push(path);
        }
        Ok(written)
    }
}

/// Imports a document from text.
pub fn import_str(text: &str, options: &ImportOptions) -> Result<Imported, ImportError> {
    import_text(text, options, None)
}

/// [`import_str`] of the text of the file `top` (canonical), if it came from one: an
/// `<include>` of that file is then a cycle.
fn import_text(
    text: &str,
    options: &ImportOptions,
    top: Option<PathBuf>,
) -> Result<Imported, ImportError> {
    let mut cx = Cx::new(options);
    let mut includes = Includes::default();
    if let Some(top) = top {
        includes.seen.insert(top.clone());
        includes.chain.push((top, options.origin.clone()));
    }
    let doc = cx.load(text, &options.origin, options.base_dir.as_deref(), includes);
    let Some(doc) = doc.filter(|_| cx.errors.is_empty()) else {
        return Err(ImportError {
            problems: cx.errors,
        });
    };
    cx.import(doc)
}

/// Imports a file; `<include>` paths are relative to its folder.
pub fn import_file(path: &Path, stem: &str) -> Result<Imported, ImportError> {
    import_file_with(path, ImportOptions::new(stem))
}

/// [`import_file`] with options (`script_enums`); `base_dir` and `origin` are the file's.
pub fn import_file_with(path: &Path, options: ImportOptions) -> Result<Imported, ImportError> {
    let origin = path.display().to_string();
    let text = read_xml(path).map_err(|(line, column, message)| ImportError {
        problems: vec![XmlProblem {
            origin: origin.clone(),
            line,
            column,
            message,
        }],
    })?;
    let options = ImportOptions {
        base_dir: Some(
            path.parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        ),
        origin,
        ..options
    };
    import_text(&text, &options, path.canonicalize().ok())
}

/// The files `<include>`d so far, and the chain of files whose includes are being read
/// (the top document first), to tell a file included twice (read once) from a cycle (an
/// error naming the chain).
#[derive(Default)]
struct Includes {
    seen: HashSet<PathBuf>,
    /// Canonical path and name in messages of each file being read.
    chain: Vec<(PathBuf, String)>,
}

/// Reads an XML file as the loader reads tree files: a regular file (a FIFO or device is
/// refused before it is opened), at most `max_file_bytes`, UTF-8 with a located error.
/// Errors give the line, column and message.
fn read_xml(path: &Path) -> Result<String, (u32, u32, String)> {
    let limit = crate::LoadOptions::default().max_file_bytes;
    crate::files::read_text(path, limit).map_err(|e| match e {
        crate::files::ReadError::Utf8 { line, column } => {
            (line as u32, column as u32, e.to_string())
        }
        other => (1, 1, format!("cannot read the file: {other}")),
    })
}

/// The key named by a port value `{key}` (BT.CPP's blackboard pointer), if it is one.
pub(crate) fn blackboard_ref(text: &str) -> Option<&str> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    (!inner.is_empty() && inner != "=").then_some(inner)
}

/// Pre-condition attributes, in the order BT.CPP evaluates them.
const PRE_CONDITIONS: [&str; 4] = ["_failureIf", "_successIf", "_skipIf", "_while"];
/// Post-condition scripts: kept for export, never run by Arbor.
const POST_CONDITIONS: [&str; 4] = ["_onSuccess", "_onFailure", "_post", "_onHalted"];
/// Elements of the explicit form `<Action ID="X"/>`.
const EXPLICIT: [&str; 4] = ["Action", "Condition", "Decorator", "Control"];
/// Most SubTrees nested inside one another (the loader's default `max_subtree_depth`).
const MAX_SUBTREE_NESTING: usize = 16;
/// Most nested `<include>` levels followed.
const MAX_INCLUDE_DEPTH: usize = 8;

/// One `<BehaviorTree>`.
struct TreeSrc {
    id: String,
    /// The `<BehaviorTree>` attributes other than `ID`.
    attrs: BTreeMap<String, String>,
    root: Element,
    origin: String,
}

/// The loaded document(s).
struct Doc {
    trees: Vec<TreeSrc>,
    main: usize,
}

/// Where a node sits, for pre-conditions whose meaning depends on the parent.
#[derive(Clone, Copy, PartialEq)]
enum Parent {
    Root,
    /// A Selector (Fallback or ReactiveFallback): a skipped child and a failed one are
    /// treated alike (the next child is tried).
    Selector,
    Other,
}

/// A parameter value before key types are known.
#[derive(Clone, Debug)]
enum PVal {
    Json(Json),
    Key(String),
    /// A literal for the key `key`: typed by that key's type.
    Typed {
        lit: Lit,
        key: String,
    },
    /// A host node's port value: typed by the parameter kind chosen for the port.
    Port(String),
    /// A binding of a built-in's parameter to a key (`msec="{t}"`): `{"$key": key}`.
    Bind(String),
    /// A Subtree's path: the tree ID, resolved to its file name.
    Path(String),
    /// A Subtree's remapping, subtree key -> key of this tree.
    Remap(Vec<(String, String)>),
    /// A script (Script and ScriptCondition `code`).
    Script(String),
}

/// An attached decorator before key types are known.
#[derive(Clone, Debug)]
struct DDec {
    /// "Condition" (abort None) or "Precondition".
    kind: &'static str,
    /// The test that lets the node run.
    test: Test,
    /// The attribute it came from, for `editor.btcpp.decorators`.
    origin: &'static str,
}

/// A node before key types and host types are known.
#[derive(Clone, Debug)]
struct Draft {
    /// The Arbor type; for host nodes filled in by `host_types`.
    kind: String,
    /// For host nodes: the BT.CPP ID.
    host: Option<String>,
    name: String,
    params: Vec<(String, PVal)>,
    decorators: Vec<DDec>,
    /// Script decorators (the pre- and post-condition attributes), after `decorators`.
    scripts: Vec<scripts::SDec>,
    children: Vec<Draft>,
    /// The BT.CPP ID, when it is not the canonical export of `kind`.
    origin: Option<String>,
    /// Attributes with no Arbor equivalent.
    kept: BTreeMap<String, String>,
    /// For Subtree: ports the call sets to a literal, which `_autoremap` must not remap
    /// (BT.CPP: the literal wins over the parent's key of the same name).
    literal_ports: Vec<String>,
    /// `false` for a node written `_skipIf="true"`: switched off (rule 79).
    enabled: bool,
    line: u32,
    column: u32,
}

impl Draft {
    fn new(kind: &str, name: &str, el: &Element) -> Draft {
        Draft {
            kind: kind.to_owned(),
            host: None,
            name: name.to_owned(),
            params: Vec::new(),
            decorators: Vec::new(),
            scripts: Vec::new(),
            children: Vec::new(),
            origin: None,
            kept: BTreeMap::new(),
            literal_ports: Vec::new(),
            enabled: true,
            line: el.line,
            column: el.column,
        }
    }

    fn walk(&self, f: &mut impl FnMut(&Draft)) {
        f(self);
        for c in &self.children {
            c.walk(f);
        }
    }

    fn walk_mut(&mut self, f: &mut impl FnMut(&mut Draft)) {
        f(self);
        for c in &mut self.children {
            c.walk_mut(f);
        }
    }
}

/// How a custom or opaque node type is used across the document.
#[derive(Default)]
struct HostUse {
    child_counts: Vec<usize>,
    /// Port -> every value seen, in document order.
    ports: BTreeMap<String, Vec<String>>,
    /// Ports in first-seen order.
    order: Vec<String>,
    /// The opaque form of a mapped or known BT.CPP node.
    builtin: bool,
    /// The element of the explicit form (`<Condition ID="X"/>`), if used.
    explicit: Option<model::ModelKind>,
    line: u32,
    column: u32,
    origin: String,
}

/// A SubTree call: the parent tree, the subtree, and how it connects them.
struct Call {
    parent: usize,
    sub: usize,
    /// Subtree key -> parent key.
    remap: Vec<(String, String)>,
    autoremap: bool,
}

/// The import in progress.
struct Cx<'o> {
    options: &'o ImportOptions,
    errors: Vec<XmlProblem>,
    warnings: Vec<XmlProblem>,
    models: BTreeMap<String, NodeModel>,
    /// Tree IDs, by index (filled by `load`).
    tree_ids: Vec<String>,
    /// Each tree ID's first position in `tree_ids`: looking IDs up by scanning made a
    /// document of many trees quadratic.
    tree_index: HashMap<String, usize>,
    /// BT.CPP ID of each host node type, by its Arbor type name (filled before `build`).
    host_ids: HashMap<String, String>,
    hosts: BTreeMap<String, HostUse>,
    calls: Vec<Call>,
    /// Subtree -> key -> literal defaults from SubTree ports, in document order.
    sub_defaults: BTreeMap<usize, BTreeMap<String, Vec<Lit>>>,
    /// main_tree_to_execute of the first document.
    main_attr: Option<(String, u32, u32, String)>,
    /// The document has no `BTCPP_format="4"`: v3, where a `<SubTree>` port names a key
    /// without braces.
    v3: bool,
}

impl<'o> Cx<'o> {
    fn new(options: &'o ImportOptions) -> Self {
        Cx {
            options,
            errors: Vec::new(),
            warnings: Vec::new(),
            models: BTreeMap::new(),
            tree_ids: Vec::new(),
            tree_index: HashMap::new(),
            host_ids: HashMap::new(),
            hosts: BTreeMap::new(),
            calls: Vec::new(),
            sub_defaults: BTreeMap::new(),
            main_attr: None,
            v3: false,
        }
    }

    /// The position of the tree with this ID in `tree_ids`.
    fn tree_position(&self, id: &str) -> Option<usize> {
        self.tree_index.get(id).copied()
    }

    fn warn(&mut self, origin: &str, el: &Element, message: impl Into<String>) {
        self.warnings.push(el.problem(origin, message));
    }

    fn error(&mut self, origin: &str, el: &Element, message: impl Into<String>) {
        self.errors.push(el.problem(origin, message));
    }

    // ---- pass 1: load ----------------------------------------------------------------

    fn load(
        &mut self,
        text: &str,
        origin: &str,
        base: Option<&Path>,
        mut includes: Includes,
    ) -> Option<Doc> {
        let mut trees = Vec::new();
        self.load_into(text, origin, base, 0, &mut trees, &mut includes);
        if !self.errors.is_empty() {
            return None;
        }
        let mut ids = HashMap::new();
        for (i, t) in trees.iter().enumerate() {
            if let Some(first) = ids.insert(t.id.clone(), i) {
                let message = format!(
                    "tree `{}` is defined twice (first in {})",
                    t.id, trees[first].origin
                );
                self.errors.push(t.root.problem(&t.origin, message));
            }
        }
        if trees.is_empty() {
            self.errors.push(XmlProblem {
                origin: origin.to_owned(),
                line: 1,
                column: 1,
                message: "no <BehaviorTree> in the document".to_owned(),
            });
            return None;
        }
        self.tree_ids = trees.iter().map(|t| t.id.clone()).collect();
        self.tree_index.clear();
        for (i, id) in self.tree_ids.iter().enumerate() {
            self.tree_index.entry(id.clone()).or_insert(i);
        }
        let main = match self.main_attr.clone() {
            Some((id, line, column, o)) => match self.tree_position(&id) {
                Some(i) => i,
                None => {
                    self.errors.push(XmlProblem {
                        origin: o,
                        line,
                        column,
                        message: format!("main_tree_to_execute names `{id}`, which is not defined"),
                    });
                    return None;
                }
            },
            None => {
                if trees.len() > 1 {
                    self.warnings.push(XmlProblem {
                        origin: origin.to_owned(),
                        line: 1,
                        column: 1,
                        message: format!(
                            "no main_tree_to_execute and {} trees; `{}` (the first) is the main one",
                            trees.len(),
                            trees[0].id
                        ),
                    });
                }
                0
            }
        };
        Some(Doc { trees, main })
    }

    fn load_into(
        &mut self,
        text: &str,
        origin: &str,
        base: Option<&Path>,
        depth: usize,
        trees: &mut Vec<TreeSrc>,
        includes: &mut Includes,
    ) {
        let root = match xml::parse_tolerant(text, origin) {
            Ok((root, warnings)) => {
                self.warnings.extend(warnings);
                root
            }
            Err(p) => return self.errors.push(p),
        };
        if root.tag != "root" {
            return self.error(
                origin,
                &root,
                format!(
                    "the document element is <{}>; BT.CPP files start with <root>",
                    root.tag
                ),
            );
        }
        if depth == 0 {
            match root.attr("BTCPP_format") {
                Some("4") => {}
                Some("3") | None => {
                    self.v3 = true;
                    self.warn(
                        origin,
                        &root,
                        "no BTCPP_format=\"4\": read as a BehaviorTree.CPP v3 file (v3 node names \
                     are accepted); exports are written as v4",
                    );
                }
                Some(other) => self.warn(
                    origin,
                    &root,
                    format!("BTCPP_format=\"{other}\" is not known; read as version 4"),
                ),
            }
            if let Some(main) = root.attr("main_tree_to_execute") {
                self.main_attr = Some((
                    main.trim().to_owned(),
                    root.line,
                    root.column,
                    origin.to_owned(),
                ));
            }
        }
        for child in &root.children {
            match child.tag.as_str() {
                "BehaviorTree" => {
                    let id = child
                        .attr("ID")
                        .map(str::to_owned)
                        .unwrap_or_else(|| format!("BehaviorTree_{}", trees.len()));
                    let mut elements = child.children.iter();
                    match (elements.next(), elements.next()) {
                        (Some(first), None) => trees.push(TreeSrc {
                            id,
                            attrs: child
                                .attrs
                                .iter()
                                .filter(|(k, _)| k != "ID")
                                .cloned()
                                .collect(),
                            root: first.clone(),
                            origin: origin.to_owned(),
                        }),
                        _ => self.error(
                            origin,
                            child,
                            format!(
                                "<BehaviorTree ID=\"{id}\"> must have exactly one child element"
                            ),
                        ),
                    }
                }
                "TreeNodesModel" => match model::parse(child, origin, &mut self.warnings) {
                    Ok(models) => self.models.extend(models),
                    Err(p) => self.errors.push(p),
                },
                "include" => self.include(child, origin, base, depth, trees, includes),
                other => self.warn(
                    origin,
                    child,
                    format!("<{other}> is not part of a BT.CPP document; skipped"),
                ),
            }
        }
    }

    fn include(
        &mut self,
        el: &Element,
        origin: &str,
        base: Option<&Path>,
        depth: usize,
        trees: &mut Vec<TreeSrc>,
        includes: &mut Includes,
    ) {
        let Some(rel) = el.attr("path") else {
            return self.error(origin, el, "<include> needs a path attribute");
        };
        if el.attr("ros_pkg").is_some() {
            return self.warn(
                origin,
                el,
                format!("<include path=\"{rel}\" ros_pkg=…> needs ROS to resolve; skipped"),
            );
        }
        let Some(base) = base else {
            return self.warn(
                origin,
                el,
                format!("<include path=\"{rel}\"> skipped: the document has no folder"),
            );
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return self.error(
                origin,
                el,
                format!("includes nest more than {MAX_INCLUDE_DEPTH} files deep"),
            );
        }
        let path = base.join(rel);
        let canonical = match path.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                return self.error(
                    origin,
                    el,
                    format!("cannot read the included file {}: {e}", path.display()),
                )
            }
        };
        // Confined like subtree paths: an include may not leave the imported document's
        // folder (`<include path="/etc/passwd"/>` is refused, not read).
        let root = self
            .options
            .base_dir
            .as_deref()
            .and_then(|d| d.canonicalize().ok());
        if root.is_some_and(|root| !canonical.starts_with(root)) {
            return self.error(
                origin,
                el,
                format!(
                    "<include path=\"{rel}\"> is outside the imported document's folder; not read"
                ),
            );
        }
        if let Some(first) = includes.chain.iter().position(|(p, _)| *p == canonical) {
            let mut files: Vec<&str> = includes.chain[first..]
                .iter()
                .map(|(_, shown)| shown.as_str())
                .collect();
            files.push(&includes.chain[first].1);
            return self.error(
                origin,
                el,
                format!(
                    "<include path=\"{rel}\"> makes a cycle: {}",
                    files.join(" -> ")
                ),
            );
        }
        if !includes.seen.insert(canonical.clone()) {
            // Included twice: its trees are already there.
            return;
        }
        match read_xml(&path).map_err(|(_, _, m)| m) {
            Ok(text) => {
                let shown = path.display().to_string();
                let folder = path.parent().map(Path::to_path_buf);
                includes.chain.push((canonical, shown.clone()));
                self.load_into(&text, &shown, folder.as_deref(), depth + 1, trees, includes);
                includes.chain.pop();
            }
            Err(e) => self.error(origin, el, format!("included file {}: {e}", path.display())),
        }
    }

    // ---- the whole import --------------------------------------------------------------

    fn import(mut self, doc: Doc) -> Result<Imported, ImportError> {
        let mut drafts = Vec::with_capacity(doc.trees.len());
        // Held to the loader's limits: an import that `arbor check` would refuse is
        // refused here, located at the tree.
        let limits = crate::LoadOptions::default();
        for (i, t) in doc.trees.iter().enumerate() {
            let draft = self.map_element(&t.root, i, &t.origin, Parent::Root, 1);
            let mut count = 0usize;
            draft.walk(&mut |_| count += 1);
            if count > limits.max_nodes {
                self.error(
                    &t.origin,
                    &t.root,
                    format!(
                        "<BehaviorTree ID=\"{}\"> has {count} nodes; Arbor loads at most {}",
                        t.id, limits.max_nodes
                    ),
                );
            }
            drafts.push(draft);
        }
        if !self.errors.is_empty() {
            return Err(ImportError {
                problems: self.errors,
            });
        }
        let order = self.file_order(&doc, &drafts)?;
        let mut keys = self.declare_keys(&doc, &mut drafts);
        self.type_script_copies(&drafts, &mut keys);
        self.check_scripts(&doc, &mut drafts, &keys);
        self.warn_about_unset_keys(&doc, &drafts, &keys);
        for draft in &mut drafts {
            scripts::derive_skips(draft, Parent::Root);
        }
        let types = self.host_types(&mut drafts);
        if !self.errors.is_empty() {
            return Err(ImportError {
                problems: self.errors,
            });
        }
        let names = self.file_names(&doc, &order);
        for id in self.hosts.keys() {
            self.host_ids
                .entry(host_type_name(id))
                .or_insert_with(|| id.clone());
        }
        let manifest_name = self.manifest_name();
        let mut files = Vec::new();
        for &t in &order {
            let tree = self.build(
                &doc.trees[t],
                &drafts[t],
                &keys[t],
                &names,
                &types,
                (!types.is_empty() || !self.options.script_enums.is_empty())
                    .then_some(manifest_name.as_str()),
            );
            files.push(ImportedFile {
                file_name: names[&t].clone(),
                tree_id: doc.trees[t].id.clone(),
                tree,
            });
        }
        Ok(Imported {
            files,
            types: types.into_values().collect(),
            manifest_name,
            warnings: self.warnings,
            script_enums: self.options.script_enums.clone(),
        })
    }

    // ---- pass 2: elements to drafts ------------------------------------------------------

    fn map_element(
        &mut self,
        el: &Element,
        tree: usize,
        origin: &str,
        parent: Parent,
        depth: usize,
    ) -> Draft {
        let explicit = EXPLICIT.contains(&el.tag.as_str());
        let id = if explicit || el.tag == "SubTree" || el.tag == "SubTreePlus" {
            match el.attr("ID") {
                Some(id) => id.to_owned(),
                None => {
                    self.error(origin, el, format!("<{}> needs an ID attribute", el.tag));
                    el.tag.clone()
                }
            }
        } else {
            el.tag.clone()
        };
        if let Some(fallback) = try_catch::as_fallback(el, &id) {
            return self.map_element(&fallback, tree, origin, parent, depth);
        }
        if let Some(pre) = v3_checks::as_precondition(el, &id) {
            self.warn(
                origin,
                el,
                format!(
                    "<{id}> (BT.CPP v3) is read as BT.CPP 4's <Precondition if=\"{}\" \
                     else=\"{}\">, which tests before its child starts where v3 tested \
                     on every tick",
                    pre.attr("if").unwrap_or(""),
                    pre.attr("else").unwrap_or("")
                ),
            );
            return self.map_element(&pre, tree, origin, parent, depth);
        }
        // BT.CPP names an unnamed node after its ID; a v3 alias is named after the v4 ID,
        // so that the export (which writes the v4 ID) needs no `name`.
        let default_name = mapping::by_id(&id).map_or(id.as_str(), |e| e.id);
        let name = el.attr("name").unwrap_or(default_name).to_owned();
        // Ports in document order, and the underscore attributes.
        let mut ports: Vec<(String, String)> = Vec::new();
        let mut special: Vec<(String, String)> = Vec::new();
        let max_string_len = crate::LoadOptions::default().max_string_len;
        for (k, v) in &el.attrs {
            if v.len() > max_string_len {
                self.error(
                    origin,
                    el,
                    format!(
                        "attribute `{k}` is {} bytes; Arbor loads strings of at most {max_string_len}",
                        v.len()
                    ),
                );
            }
            match k.as_str() {
                "ID" | "name" => {}
                k if k.starts_with('_') => special.push((k.to_owned(), v.clone())),
                _ => ports.push((k.clone(), v.clone())),
            }
        }

        let is_subtree = el.tag == "SubTree"
            || el.tag == "SubTreePlus"
            || (!explicit && mapping::by_id(&id).is_none() && self.tree_position(&id).is_some());
        let mut draft = if is_subtree {
            self.map_subtree(el, &id, &name, tree, origin, &mut ports, &mut special)
        } else {
            match mapping::by_id(&id) {
                Some(entry) => self.map_builtin(el, entry, &id, &name, origin, parent, &mut ports),
                None => self.host_draft(el, &id, &name, origin, &ports, false),
            }
        };
        if draft.host.is_none() {
            for (k, v) in ports {
                self.warn(
                    origin,
                    el,
                    format!(
                        "attribute `{k}` of <{}> has no Arbor equivalent; kept for export only",
                        el.tag
                    ),
                );
                draft.kept.insert(k, v);
            }
        }
        self.pre_post(&mut draft, el, origin, parent, special);

        let parent_of_children = if draft.kind == "Selector" {
            Parent::Selector
        } else {
            Parent::Other
        };
        if depth >= xml::MAX_DEPTH {
            self.error(
                origin,
                el,
                format!("the tree nests more than {} levels deep", xml::MAX_DEPTH),
            );
            return draft;
        }
        // A Precondition with `else="RUNNING"` already holds its test (rule 71).
        let prefilled = draft.children.len();
        if !is_subtree {
            for child in &el.children {
                let c = self.map_element(child, tree, origin, parent_of_children, depth + 1);
                draft.children.push(c);
            }
        }
        if draft.origin.as_deref() == Some("Precondition") {
            // The Precondition's child sits under the Sequence that stands in for it (no
            // child at all is reported by `check_children`).
            let own = draft.children.len() - prefilled;
            if own > 1 || (prefilled > 0 && own == 0) {
                self.error(origin, el, "<Precondition> must have exactly one child");
            }
        }
        self.check_children(&draft, el, origin);
        draft
    }

    /// BT.CPP refuses a mapped node with the wrong number of children; so does Arbor.
    fn check_children(&mut self, draft: &Draft, el: &Element, origin: &str) {
        if draft.host.is_some() {
            return;
        }
        let Some(ty) = super::builtin().node(&draft.kind) else {
            return;
        };
        let n = draft.children.len();
        let problem = match ty.category {
            Category::Decorator if n != 1 => Some("exactly one child"),
            Category::Action | Category::Condition | Category::Subtree if n != 0 => {
                Some("no children")
            }
            Category::Composite if n == 0 => Some("at least one child"),
            _ => None,
        };
        if let Some(expected) = problem {
            self.error(
                origin,
                el,
                format!("<{}> must have {expected}, found {n}", el.tag),
            );
        }
    }

    // `parent` decides what BT.CPP's SKIPPED becomes (rule 56), like `pre_post`'s.
    #[allow(clippy::too_many_arguments)]
    fn map_builtin(
        &mut self,
        el: &Element,
        entry: &'static Entry,
        id: &str,
        name: &str,
        origin: &str,
        parent: Parent,
        ports: &mut Vec<(String, String)>,
    ) -> Draft {
        if let Conv::Msec { port, .. } = entry.conv {
            // BT.CPP reads the duration when the node starts and throws without it; the
            // tree cannot run there, so it is not imported.
            if !ports.iter().any(|(k, _)| k == port) {
                self.error(
                    origin,
                    el,
                    format!(
                        "<{id}> has no `{port}`: BT.CPP throws \"Missing parameter [{port}] \
                         in {}Node\" when it ticks",
                        entry.id
                    ),
                );
            }
        }
        let in_selector = parent == Parent::Selector;
        let mut take = |port: &str| {
            let i = ports.iter().position(|(k, _)| k == port)?;
            Some(ports.remove(i).1)
        };
        let result: Result<Draft, String> = match entry.conv {
            Conv::SetBlackboard => map_set_blackboard(el, name, &mut take),
            Conv::Script => map_script(el, name, &mut take),
            Conv::ScriptCondition => map_script_condition(el, name, &mut take),
            Conv::Precondition => map_precondition(el, name, &mut take),
            Conv::Loop(element) => map_loop(el, name, element, in_selector, &mut take),
            Conv::Updated(status) => map_updated(el, name, status, in_selector, &mut take),
            Conv::KeyName { port, braces } => {
                map_key_name(el, entry.arbor, name, port, braces, &mut take)
            }
            Conv::Switch(_) => {
                let variable = take("variable").unwrap_or_default();
                match blackboard_ref(&variable).map(str::to_owned) {
                    None => Err("`variable` must name a blackboard key, as `{key}`".to_owned()),
                    Some(key) => {
                        mapping::import_params(entry, &mut take, el.children.len()).map(|params| {
                            let mut d = Draft::new(entry.arbor, name, el);
                            d.params.push(("variable".to_owned(), PVal::Key(key)));
                            d.params
                                .extend(params.into_iter().map(|(k, v)| (k, PVal::Json(v))));
                            d
                        })
                    }
                }
            }
            _ => mapping::import_params(entry, &mut take, el.children.len()).map(|params| {
                let mut d = Draft::new(entry.arbor, name, el);
                d.params = params
                    .into_iter()
                    .map(|(k, v)| match crate::port::binding(&v) {
                        Ok(Some(key)) => (k, PVal::Bind(key.to_owned())),
                        _ => (k, PVal::Json(v)),
                    })
                    .collect();
                d
            }),
        };
        match result {
            Ok(mut draft) => {
                if !is_canonical(entry) {
                    draft.origin = Some(entry.id.to_owned());
                }
                if entry.id != id {
                    self.warn(
                        origin,
                        el,
                        format!(
                            "<{id}> is the BT.CPP v3 name of {}; exported as <{}>",
                            entry.id, entry.id
                        ),
                    );
                }
                draft
            }
            Err(why) => {
                // Put back what the conversion consumed: the opaque node keeps everything.
                let all: Vec<(String, String)> = el
                    .attrs
                    .iter()
                    .filter(|(k, _)| k != "ID" && k != "name" && !k.starts_with('_'))
                    .cloned()
                    .collect();
                *ports = Vec::new();
                let draft = self.host_draft(el, id, name, origin, &all, true);
                let host_name = host_type_name(id);
                self.warn(
                    origin,
                    el,
                    format!("<{id}>: {why}; imported as the opaque node type `{host_name}`"),
                );
                draft
            }
        }
    }

    /// A custom node, or a BT.CPP node Arbor cannot express: a host node whose ports are
    /// parameters (their kinds are chosen once every use is known).
    fn host_draft(
        &mut self,
        el: &Element,
        id: &str,
        name: &str,
        origin: &str,
        ports: &[(String, String)],
        builtin: bool,
    ) -> Draft {
        let usage = self.hosts.entry(id.to_owned()).or_insert_with(|| HostUse {
            line: el.line,
            column: el.column,
            origin: origin.to_owned(),
            ..HostUse::default()
        });
        usage.builtin |= builtin || mapping::is_btcpp_builtin(id);
        usage.child_counts.push(el.children.len());
        let mut clash = None;
        if let Some(kind) = model::ModelKind::parse(&el.tag).filter(|_| el.tag != "SubTree") {
            match usage.explicit {
                // One ID is one registered type in BT.CPP: `<Action ID="X">` and
                // `<Condition ID="X">` in one document cannot both be right.
                Some(first) if first != kind => clash = Some(first),
                Some(_) => {}
                None => usage.explicit = Some(kind),
            }
        }
        let mut draft = Draft::new("", name, el);
        draft.host = Some(id.to_owned());
        for (k, v) in ports {
            if !usage.ports.contains_key(k) {
                usage.order.push(k.clone());
            }
            usage.ports.entry(k.clone()).or_default().push(v.clone());
            draft.params.push((k.clone(), PVal::Port(v.clone())));
        }
        if let Some(first) = clash {
            self.warn(
                origin,
                el,
                format!(
                    "`{id}` is used as <{}> here and as <{}> before; one BT.CPP ID is one node \
                     type, imported as {}",
                    el.tag,
                    first.tag(),
                    first.tag()
                ),
            );
        }
        draft
    }

    #[allow(clippy::too_many_arguments)]
    fn map_subtree(
        &mut self,
        el: &Element,
        id: &str,
        name: &str,
        tree: usize,
        origin: &str,
        ports: &mut Vec<(String, String)>,
        special: &mut Vec<(String, String)>,
    ) -> Draft {
        let mut draft = Draft::new("Subtree", name, el);
        let Some(sub) = self.tree_position(id) else {
            self.error(
                origin,
                el,
                format!("<SubTree ID=\"{id}\">: no tree `{id}` is defined"),
            );
            return draft;
        };
        let mut autoremap = false;
        special.retain(|(k, v)| {
            let flag = matches!(
                k.as_str(),
                "_autoremap" | "__autoremap" | "__shared_blackboard"
            );
            if flag {
                autoremap |= matches!(v.trim(), "true" | "1" | "TRUE" | "True");
            }
            !flag
        });
        let mut remap: Vec<(String, String)> = Vec::new();
        let literal = |cx: &mut Self, port: &str, text: &str| {
            // A port the subtree's model types as a string keeps its text (`"007"` is not
            // the number 7); others are read as the literal they spell.
            let string_port = cx
                .models
                .get(id)
                .and_then(|m| m.port(port))
                .and_then(|p| p.ty.as_deref())
                .is_some_and(|t| hosts::cpp_type(t) == ValueType::String);
            let lit = if string_port {
                Lit::Str(text.to_owned())
            } else {
                Lit::from_text(text)
            };
            cx.sub_defaults
                .entry(sub)
                .or_default()
                .entry(port.to_owned())
                .or_default()
                .push(lit);
        };
        // In v3 a <SubTree>'s ports name parent keys without braces (SubTreePlus, like v4,
        // takes `{key}` or a literal).
        let bare_keys = self.v3 && el.tag == "SubTree";
        let mut literal_ports = Vec::new();
        for (port, value) in std::mem::take(ports) {
            if value.trim() == "{=}" {
                remap.push((port.clone(), port));
            } else if let Some(key) = blackboard_ref(&value) {
                remap.push((port, key.to_owned()));
            } else if bare_keys && !value.trim().is_empty() {
                remap.push((port, value.trim().to_owned()));
            } else {
                literal(self, &port, &value);
                literal_ports.push(port);
            }
        }
        draft.literal_ports = literal_ports;
        // v2/v3: <remap internal="…" external="…"/> children.
        for child in &el.children {
            match (
                child.tag.as_str(),
                child.attr("internal"),
                child.attr("external"),
            ) {
                ("remap", Some(internal), Some(external)) => {
                    let external = blackboard_ref(external).unwrap_or(external);
                    remap.push((internal.to_owned(), external.to_owned()));
                }
                _ => self.error(
                    origin,
                    child,
                    format!(
                        "<SubTree ID=\"{id}\"> must not have children (found <{}>)",
                        child.tag
                    ),
                ),
            }
        }
        // Ports of the subtree's model that this call does not set: BT.CPP uses their
        // defaults (a `{key}` default remaps, a literal one sets the value).
        if !autoremap {
            if let Some(m) = self.models.get(id).cloned() {
                for port in &m.ports {
                    let set = remap.iter().any(|(s, _)| *s == port.name)
                        || self
                            .sub_defaults
                            .get(&sub)
                            .is_some_and(|d| d.contains_key(&port.name));
                    if set {
                        continue;
                    }
                    match port.default.as_deref() {
                        Some(d) => match blackboard_ref(d) {
                            Some(key) => remap.push((port.name.clone(), key.to_owned())),
                            None => literal(self, &port.name, d),
                        },
                        None => self.warn(
                            origin,
                            el,
                            format!(
                                "<SubTree ID=\"{id}\"> does not set the port `{}` its model \
                                 declares (BT.CPP refuses this); it stays private to the subtree",
                                port.name
                            ),
                        ),
                    }
                }
            }
        }
        self.calls.push(Call {
            parent: tree,
            sub,
            remap: remap.clone(),
            autoremap,
        });
        draft.params = vec![
            ("path".to_owned(), PVal::Path(id.to_owned())),
            ("remap".to_owned(), PVal::Remap(remap)),
        ];
        if autoremap {
            // Recorded so that the export writes `_autoremap` again rather than a long
            // explicit list.
            draft
                .kept
                .insert("_autoremap".to_owned(), "true".to_owned());
        }
        draft
    }

    /// Pre- and post-conditions become attached decorators: Condition/Precondition where
    /// those match exactly, script decorators otherwise (`scripts.rs`); one that does not
    /// parse is kept as text for export.
    fn pre_post(
        &mut self,
        draft: &mut Draft,
        el: &Element,
        origin: &str,
        parent: Parent,
        special: Vec<(String, String)>,
    ) {
        let mut specials: BTreeMap<String, String> = special.into_iter().collect();
        // A literal `_skipIf="true"` always skips: what export writes for a disabled node
        // (rule 79). Any other skip stays a script.
        if specials
            .get("_skipIf")
            .is_some_and(|src| src.trim() == "true")
        {
            specials.remove("_skipIf");
            draft.enabled = false;
        }
        let legacy_ok = |attr: &str, src: &str| match attr {
            "_failureIf" => script::parse_tests(src, Join::Any).is_some(),
            "_skipIf" => {
                parent == Parent::Selector && script::parse_tests(src, Join::Any).is_some()
            }
            "_while" => parent == Parent::Selector && script::parse_tests(src, Join::All).is_some(),
            _ => false,
        };
        if self.pre_post_scripts(draft, el, origin, parent, &mut specials, &legacy_ok) {
            draft.kept.extend(specials);
            return;
        }
        let mut own = Vec::new();
        for attr in PRE_CONDITIONS {
            let Some(src) = specials.get(attr).cloned() else {
                continue;
            };
            let mapped: Result<Vec<DDec>, String> = match attr {
                // Fail if any test holds: each test's negation must hold.
                "_failureIf" => parse(&src, Join::Any).map(|tests| {
                    tests
                        .iter()
                        .map(|t| DDec {
                            kind: "Condition",
                            test: t.not(),
                            origin: "_failureIf",
                        })
                        .collect()
                }),
                "_skipIf" if parent == Parent::Selector => parse(&src, Join::Any).map(|tests| {
                    tests
                        .iter()
                        .map(|t| DDec {
                            kind: "Condition",
                            test: t.not(),
                            origin: "_skipIf",
                        })
                        .collect()
                }),
                "_while" if parent == Parent::Selector => parse(&src, Join::All).map(|tests| {
                    tests
                        .into_iter()
                        .map(|test| DDec {
                            kind: "Precondition",
                            test,
                            origin: "_while",
                        })
                        .collect()
                }),
                "_skipIf" | "_while" => Err(
                    "a skipped node is passed over, which Arbor expresses only under a \
                     Selector (as a failure)"
                        .to_owned(),
                ),
                _ => {
                    Err("Arbor has no condition that succeeds without running the node".to_owned())
                }
            };
            match mapped {
                Ok(decs) => {
                    specials.remove(attr);
                    own.extend(decs);
                }
                Err(why) => self.warn(
                    origin,
                    el,
                    format!("`{attr}=\"{src}\"` is kept for export but not evaluated: {why}"),
                ),
            }
        }
        // The node's own pre-conditions are checked before a Precondition node's `if`.
        own.append(&mut draft.decorators);
        draft.decorators = own;
        for attr in POST_CONDITIONS {
            if let Some(src) = specials.get(attr) {
                self.warn(
                    origin,
                    el,
                    format!("`{attr}=\"{src}\"` is kept for export but not run by Arbor"),
                );
            }
        }
        draft.kept.extend(specials);
    }

    /// Trees in file order: the main tree, the trees it uses (depth-first, in order of
    /// first use), then the others. Recursive subtrees are refused (BT.CPP would recurse
    /// forever; Arbor's loader refuses cycles too).
    fn file_order(&mut self, doc: &Doc, drafts: &[Draft]) -> Result<Vec<usize>, ImportError> {
        let uses: Vec<Vec<usize>> = (0..drafts.len())
            .map(|t| {
                let mut out: Vec<usize> = Vec::new();
                for c in self.calls.iter().filter(|c| c.parent == t) {
                    if !out.contains(&c.sub) {
                        out.push(c.sub);
                    }
                }
                out
            })
            .collect();
        let mut order = Vec::new();
        let mut state = vec![0u8; drafts.len()]; // 0 new, 1 on the path, 2 done
        fn visit(
            t: usize,
            uses: &[Vec<usize>],
            state: &mut [u8],
            order: &mut Vec<usize>,
            path: &mut Vec<usize>,
        ) -> Result<(), (Vec<usize>, bool)> {
            match state[t] {
                2 => return Ok(()),
                1 => {
                    let start = path.iter().position(|&p| p == t).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(t);
                    return Err((cycle, true));
                }
                _ => {}
            }
            // Arbor's loader refuses deeper subtree nesting; stopping here also bounds
            // this recursion (a chain of 4,000 SubTrees overflowed the stack of export).
            if path.len() > MAX_SUBTREE_NESTING {
                let mut chain = path.clone();
                chain.push(t);
                return Err((chain, false));
            }
            state[t] = 1;
            path.push(t);
            order.push(t);
            for &s in &uses[t] {
                visit(s, uses, state, order, path)?;
            }
            path.pop();
            state[t] = 2;
            Ok(())
        }
        let roots = std::iter::once(doc.main).chain(0..drafts.len());
        for root in roots {
            let before = order.len();
            if let Err((chain, cycle)) = visit(root, &uses, &mut state, &mut order, &mut Vec::new())
            {
                let names: Vec<&str> = chain.iter().map(|&t| doc.trees[t].id.as_str()).collect();
                let (t, message) = if cycle {
                    (
                        &doc.trees[chain[0]],
                        format!("recursive subtrees: {}", names.join(" -> ")),
                    )
                } else {
                    let last = &doc.trees[*chain.last().expect("a chain")];
                    let shown = if names.len() > 6 {
                        format!(
                            "{} -> … -> {}",
                            names[..3].join(" -> "),
                            names[names.len() - 2..].join(" -> ")
                        )
                    } else {
                        names.join(" -> ")
                    };
                    (
                        last,
                        format!(
                            "SubTrees nest more than {MAX_SUBTREE_NESTING} deep ({shown}); Arbor's \
                             loader refuses such trees"
                        ),
                    )
                };
                return Err(ImportError {
                    problems: vec![t.root.problem(&t.origin, message)],
                });
            }
            if root != doc.main && order.len() > before {
                let t = &doc.trees[root];
                let message = format!(
                    "tree `{}` is not used by the main tree `{}`; imported as its own file",
                    t.id, doc.trees[doc.main].id
                );
                self.warnings.push(t.root.problem(&t.origin, message));
            }
        }
        Ok(order)
    }

    /// The node-types manifest's file name.
    fn manifest_name(&self) -> String {
        format!("{}.types.json", self.options.stem)
    }

    /// Each tree's file name: `<stem>.json` for the main tree, `<stem>.<ID>.json` for the
    /// others, with `-2`, `-3`, … added where two would clash. The manifest's name
    /// (`<stem>.types.json`) is taken first, so a tree whose ID is `types` cannot overwrite
    /// it; names are compared ignoring case, as case-insensitive file systems do.
    fn file_names(&self, doc: &Doc, order: &[usize]) -> HashMap<usize, String> {
        let mut names = HashMap::new();
        let mut used = HashSet::new();
        used.insert(self.manifest_name().to_lowercase());
        for &t in order {
            let base = if t == doc.main {
                self.options.stem.clone()
            } else {
                format!("{}.{}", self.options.stem, file_safe(&doc.trees[t].id))
            };
            let mut name = format!("{base}.json");
            let mut n = 2;
            while !used.insert(name.to_lowercase()) {
                name = format!("{base}-{n}.json");
                n += 1;
            }
            names.insert(t, name);
        }
        names
    }

    // ---- pass 5: tree files --------------------------------------------------------------

    fn build(
        &self,
        src: &TreeSrc,
        root: &Draft,
        keys: &[KeyDecl],
        names: &HashMap<usize, String>,
        types: &BTreeMap<String, NodeType>,
        manifest: Option<&str>,
    ) -> TreeFile {
        let mut file = TreeFile::new(&src.id);
        // The file name only: an absolute path would make the output depend on where the
        // XML happened to be.
        let source = Path::new(&src.origin)
            .file_name()
            .map_or_else(|| src.origin.clone(), |n| n.to_string_lossy().into_owned());
        file.description = format!(
            "Imported from BehaviorTree.CPP: <BehaviorTree ID=\"{}\"> of {source}.",
            src.id
        );
        file.blackboard = keys.to_vec();
        let mut meta = Meta {
            id: src.id.clone(),
            tree_attributes: src.attrs.clone(),
            ..Meta::default()
        };
        // By name: scanning the keys for each node that names one made many keys
        // quadratic.
        let index = scripts::key_index(keys);
        let key_type = |k: &str| {
            crate::work::add(crate::work::Counter::KeySteps, 1);
            index.get(k).map_or(ValueType::Json, |&i| keys[i].ty)
        };
        let mut nodes = Vec::new();
        let root_guid = self.emit(root, &mut nodes, &mut meta, &key_type, names, types);
        file.root = Some(root_guid);
        file.nodes = nodes;
        for node in &file.nodes {
            if let Some(m) = self
                .host_ids
                .get(&node.kind)
                .and_then(|id| self.models.get(id))
            {
                meta.models.insert(node.kind.clone(), m.clone());
            }
        }
        // The tree's own `<SubTree>` model (port directions, C++ types, descriptions),
        // which the export writes again.
        if let Some(m) = self
            .models
            .get(&src.id)
            .filter(|m| m.kind == model::ModelKind::SubTree)
        {
            meta.models.insert(src.id.clone(), m.clone());
        }
        let positions = layout::tidy(&file, layout::LayoutDirection::LeftToRight);
        let mut editor = Map::new();
        if let Some(m) = manifest {
            editor.insert("manifests".into(), json!([m]));
        }
        editor.insert(
            "positions".into(),
            Json::Object(
                positions
                    .into_iter()
                    .map(|(g, p)| (g, json!([p[0], p[1]])))
                    .collect(),
            ),
        );
        editor.insert(meta::KEY.into(), meta.to_json());
        file.editor = Some(Json::Object(editor));
        file
    }

    /// Appends `d` and its subtree in pre-order; returns its GUID.
    fn emit(
        &self,
        d: &Draft,
        nodes: &mut Vec<NodeDef>,
        meta: &mut Meta,
        key_type: &dyn Fn(&str) -> ValueType,
        names: &HashMap<usize, String>,
        types: &BTreeMap<String, NodeType>,
    ) -> String {
        let mut node = NodeDef::new(d.kind.clone());
        node.name = d.name.clone();
        node.enabled = d.enabled;
        let host = types.get(&d.kind);
        for (name, value) in &d.params {
            let json = match value {
                PVal::Json(v) => v.clone(),
                PVal::Key(k) => json!(k),
                PVal::Bind(k) => crate::port::binding_json(k),
                PVal::Typed { lit, key } => lit.to_json(key_type(key)),
                PVal::Port(raw) => {
                    let kind = host
                        .and_then(|t| t.param_spec(name))
                        .map_or(ParamKind::String, |p| p.kind);
                    match kind {
                        ParamKind::Key => json!(blackboard_ref(raw).unwrap_or(raw)),
                        _ if blackboard_ref(raw).is_some() => {
                            crate::port::binding_json(blackboard_ref(raw).unwrap_or(raw))
                        }
                        other => typed_port(other, raw).unwrap_or_else(|| json!(raw)),
                    }
                }
                PVal::Path(id) => {
                    let file = self
                        .tree_position(id)
                        .and_then(|i| names.get(&i))
                        .cloned()
                        .unwrap_or_default();
                    json!(file)
                }
                PVal::Remap(pairs) => {
                    Json::Object(pairs.iter().map(|(s, p)| (s.clone(), json!(p))).collect())
                }
                PVal::Script(code) => json!(code),
            };
            node.params.insert(name.clone(), json);
        }
        for dec in &d.decorators {
            let mut def = DecoratorDef::new(dec.kind);
            def.params.insert("key".into(), json!(dec.test.key));
            def.params.insert(
                "equals".into(),
                dec.test.value.to_json(key_type(&dec.test.key)),
            );
            if dec.test.negated {
                def.params.insert("invert".into(), json!(true));
            }
            meta.decorators
                .insert(def.guid.clone(), dec.origin.to_owned());
            node.decorators.push(def);
        }
        for s in &d.scripts {
            let mut def = DecoratorDef::new(s.kind);
            def.params = scripts::params(s);
            if s.attr == super::meta::DERIVED_SKIP {
                meta.decorators.insert(def.guid.clone(), s.attr.to_owned());
            }
            node.decorators.push(def);
        }
        if let Some(origin) = &d.origin {
            meta.origins.insert(node.guid.clone(), origin.clone());
        }
        if !d.kept.is_empty() {
            meta.attributes.insert(node.guid.clone(), d.kept.clone());
        }
        let guid = node.guid.clone();
        let index = nodes.len();
        nodes.push(node);
        let children: Vec<String> = d
            .children
            .iter()
            .map(|c| self.emit(c, nodes, meta, key_type, names, types))
            .collect();
        nodes[index].children = children;
        guid
    }
}

/// Is `entry` the one export picks for its Arbor type by default?
fn is_canonical(entry: &Entry) -> bool {
    mapping::by_arbor(entry.arbor)
        .next()
        .is_some_and(|first| std::ptr::eq(first, entry))
        || matches!(
            entry.conv,
            Conv::Dynamic(true) | Conv::Memory | Conv::Yield | Conv::Switch(_) | Conv::Always(_)
        )
}

fn parse(src: &str, join: Join) -> Result<Vec<Test>, String> {
    script::parse_tests(src, join).ok_or_else(|| {
        "only `key`, `!key`, `key == value` and `key != value` (joined by one of && or ||) \
         have an Arbor equivalent"
            .to_owned()
    })
}

fn map_set_blackboard(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let key_text = take("output_key").ok_or("`output_key` is missing")?;
    let key = blackboard_ref(&key_text)
        .unwrap_or(key_text.trim())
        .to_owned();
    if key.is_empty() {
        // An Arbor key needs a name; the loader would refuse the file.
        return Err("`output_key` is empty".into());
    }
    let value = take("value").ok_or("`value` is missing")?;
    let mut d = Draft::new("SetBlackboard", name, el);
    if let Some(other) = blackboard_ref(&value) {
        // A copy: the value is bound to the other key, read when the node runs.
        d.params = vec![
            ("key".into(), PVal::Key(key)),
            ("value".into(), PVal::Bind(other.to_owned())),
        ];
        return Ok(d);
    }
    d.params = vec![
        ("key".into(), PVal::Key(key.clone())),
        (
            "value".into(),
            PVal::Typed {
                lit: Lit::from_text(&value),
                key,
            },
        ),
    ];
    Ok(d)
}

fn map_script(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let code = take("code").ok_or("`code` is missing")?;
    let Some(stmt) = script::parse_stmt(&code) else {
        return Cx::script_leaf(el, "Script", name, &code);
    };
    let d = match stmt {
        Stmt::Assign { key, value } => {
            let mut d = Draft::new("SetBlackboard", name, el);
            d.params = vec![
                ("key".into(), PVal::Key(key.clone())),
                ("value".into(), PVal::Typed { lit: value, key }),
            ];
            d
        }
        // Never read (`parse_stmt` gives only `:=`): the export's form of an Increment.
        Stmt::Add { .. } => return Cx::script_leaf(el, "Script", name, &code),
    };
    Ok(d)
}

fn map_script_condition(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let code = take("code").ok_or("`code` is missing")?;
    // A Condition leaf tests equality; `!=` is the same leaf under an Inverter, which
    // would change the shape, so only `key` and `key == value` map to it.
    let test = match parse(&code, Join::All).ok().as_deref() {
        Some([test]) if !test.negated => test.clone(),
        _ => return Cx::script_leaf(el, "ScriptCondition", name, &code),
    };
    let mut d = Draft::new("Condition", name, el);
    d.params = vec![
        ("key".into(), PVal::Key(test.key.clone())),
        (
            "equals".into(),
            PVal::Typed {
                lit: test.value.clone(),
                key: test.key.clone(),
            },
        ),
    ];
    Ok(d)
}

fn map_precondition(
    el: &Element,
    name: &str,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let otherwise = take("else").unwrap_or_else(|| "FAILURE".to_owned());
    let src = take("if").ok_or("`if` is missing")?;
    let tests = match parse(&src, Join::All) {
        Ok(tests) if otherwise.trim() == "FAILURE" => tests,
        _ => return Cx::script_precondition(el, name, &src, otherwise.trim()),
    };
    let mut d = Draft::new("Sequence", name, el);
    d.decorators = tests
        .into_iter()
        .map(|test| DDec {
            kind: "Condition",
            test,
            origin: "if",
        })
        .collect();
    Ok(d)
}

/// The element type of a Loop draft: its BT.CPP ID (LoopInt when it is the canonical
/// one, which records no origin).
fn loop_element(d: &Draft) -> Scalar {
    match d.origin.as_deref() {
        Some("LoopDouble") => Scalar::Float,
        Some("LoopString") => Scalar::String,
        Some("LoopBool") => Scalar::Bool,
        _ => Scalar::Int,
    }
}

/// LoopInt, LoopDouble, LoopString, LoopBool -> Loop (rule 65): a `queue` text becomes a
/// list, `{key}` stays bound; `value` must name a key.
fn map_loop(
    el: &Element,
    name: &str,
    element: Scalar,
    in_selector: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let queue = take("queue").ok_or("`queue` is missing")?;
    let value = take("value").ok_or("`value` is missing")?;
    let value = blackboard_ref(&value)
        .ok_or_else(|| format!("`value=\"{value}\"` must name a key, as `{{key}}`"))?
        .to_owned();
    let queue = match blackboard_ref(&queue) {
        Some(key) => PVal::Bind(key.to_owned()),
        None => PVal::Json(mapping::queue_literal(&queue, element)?),
    };
    let mut d = Draft::new("Loop", name, el);
    d.params.push(("queue".to_owned(), queue));
    d.params.push(("value".to_owned(), PVal::Key(value)));
    if let Some(text) = take("if_empty") {
        if mapping::skip_status("if_empty", &text, in_selector)? == Status::Failure {
            d.params
                .push(("if_empty".to_owned(), PVal::Json(json!("failure"))));
        }
    }
    Ok(d)
}

/// WaitValueUpdate / SkipUnlessUpdated -> IfUpdated (rule 67): `entry` names the key,
/// with or without braces (BT.CPP reads both as the key's name).
fn map_updated(
    el: &Element,
    name: &str,
    status: Status,
    in_selector: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let key = named_key("entry", true, take)?;
    let otherwise = match status {
        Status::Running => "running",
        // SKIPPED: passed over by the parent (rule 56).
        _ if in_selector => "failure",
        _ => "success",
    };
    let mut d = Draft::new("IfUpdated", name, el);
    d.params.push(("key".to_owned(), PVal::Key(key)));
    d.params
        .push(("otherwise".to_owned(), PVal::Json(json!(otherwise))));
    Ok(d)
}

/// WasEntryUpdated / UnsetBlackboard -> WasUpdated / UnsetBlackboard: the port names the
/// key; with `braces` also as `{key}`, without them `{key}` would read the name from the
/// blackboard, which an Arbor key parameter cannot.
fn map_key_name(
    el: &Element,
    arbor: &str,
    name: &str,
    port: &str,
    braces: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Draft, String> {
    let key = named_key(port, braces, take)?;
    let mut d = Draft::new(arbor, name, el);
    d.params.push(("key".to_owned(), PVal::Key(key)));
    Ok(d)
}

/// The key a port names: `key`, or with `braces` also `{key}`.
fn named_key(
    port: &str,
    braces: bool,
    take: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<String, String> {
    let text = take(port).ok_or_else(|| format!("`{port}` is missing"))?;
    let key = match blackboard_ref(&text) {
        Some(key) if braces => key,
        Some(_) => {
            return Err(format!(
                "`{port}=\"{text}\"` reads the key's name from the blackboard; Arbor's key is fixed"
            ))
        }
        None => text.trim(),
    };
    if key.is_empty() {
        return Err(format!("`{port}` is empty"));
    }
    Ok(key.to_owned())
}

fn file_safe(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blackboard_refs() {
        assert_eq!(blackboard_ref("{goal}"), Some("goal"));
        assert_eq!(blackboard_ref(" { goal } "), Some("goal"));
        assert_eq!(blackboard_ref("{=}"), None);
        assert_eq!(blackboard_ref("{}"), None);
        assert_eq!(blackboard_ref("goal"), None);
    }
}
