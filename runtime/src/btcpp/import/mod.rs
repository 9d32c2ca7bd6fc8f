//! BT.CPP XML -> Arbor tree files.
//!
//! Passes, each over the whole document so that every problem is reported, one file each:
//! 1. load.rs: parse (with `<include>`s), find the trees, the models and the main tree;
//! 2. elements.rs: each element becomes a `Draft` node (draft.rs): a mapped Arbor node
//!    (the table in `mapping`, and builtins.rs for the conversions that need more), or an
//!    opaque host node that keeps its attributes; pre-conditions become attached
//!    decorators where the semantics match;
//! 3. keys.rs: every `{key}` becomes a declared blackboard key of its tree, with a
//!    type inferred from the literals it meets (`json` when they disagree), unified across
//!    SubTree remappings since Arbor requires equal types on both sides; then the scripts
//!    are checked against those keys (scripts.rs, unset_keys.rs);
//! 4. hosts.rs: custom and opaque nodes become host node types whose ports are
//!    parameters (`key` when every use is `{key}`, a typed value otherwise);
//! 5. tree_files.rs: tree files with fresh GUIDs, tidy positions and the `editor.btcpp`
//!    data.
//!
//! The driver, `Importer::import`, is below. Nothing here panics on any input: errors
//! carry the element's line and column.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

mod builtins;
mod draft;
mod elements;
mod hosts;
mod keys;
mod load;
mod scripts;
mod tree_files;
mod try_catch;
mod unset_keys;
mod v3_checks;
mod vector_loops;

use builtins::loop_element;
use draft::{Call, Draft, DraftDecorator, HostUse, ParamValue, Parent};
use hosts::typed_port;
pub(crate) use hosts::{host_type_name, CUSTOM_NOTE, HOST_PREFIX, OPAQUE_NOTE};
use load::{read_xml, Includes};

use super::model::NodeModel;
use super::script::Lit;
use super::xml::Element;
use super::{ImportError, XmlProblem};
use crate::format::TreeFile;
use crate::spec::{NodeType, NodeTypes};

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
    let mut cx = Importer::new(options);
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

/// The import in progress.
struct Importer<'o> {
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

impl<'o> Importer<'o> {
    fn new(options: &'o ImportOptions) -> Self {
        Importer {
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

    /// The passes, in order (see the module documentation).
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
        self.mark_vector_loops(&mut drafts);
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
