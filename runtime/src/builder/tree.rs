//! TreeBuilder: a whole tree (name, blackboard keys, root) written as a [`TreeFile`] and
//! compiled through the same loader as files.

use std::collections::BTreeMap;

use crate::compile::{check_tree, LoadError, LoadOptions, Report};
use crate::format::{KeyDecl, TreeFile, FORMAT_NAME, FORMAT_VERSION};
use crate::registry::Registry;
use crate::spec::NodeTypes;
use crate::tree::CompiledTree;
use crate::value::ValueType;

use super::guid;
use super::node::NodeBuilder;

/// A tree under construction. See the [module docs](super) for an example and for how
/// GUIDs are chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeBuilder {
    name: String,
    guid: Option<String>,
    description: String,
    keys: Vec<KeyDecl>,
    root: Option<NodeBuilder>,
}

impl TreeBuilder {
    /// An empty tree called `name` (its name also seeds the derived GUIDs).
    pub fn new(name: &str) -> TreeBuilder {
        TreeBuilder {
            name: name.to_owned(),
            guid: None,
            description: String::new(),
            keys: Vec::new(),
            root: None,
        }
    }

    /// The tree's description, shown in the editor.
    pub fn description(mut self, text: &str) -> TreeBuilder {
        self.description = text.to_owned();
        self
    }

    /// A fixed tree GUID instead of the derived one.
    pub fn guid(mut self, guid: &str) -> TreeBuilder {
        self.guid = Some(guid.to_owned());
        self
    }

    /// Declares a blackboard key with the value it holds at time 0 (rule 2). The default
    /// is checked against `ty` when the tree is built.
    ///
    /// ```
    /// use arbor_runtime::{builder::TreeBuilder, ValueType};
    /// let tree = TreeBuilder::new("t")
    ///     .key("goal", ValueType::Float, 3.0)
    ///     .key("zones", ValueType::parse("list<string>").unwrap(), serde_json::json!(["home"]));
    /// ```
    pub fn key(mut self, name: &str, ty: ValueType, default: impl Into<serde_json::Value>) -> Self {
        self.keys.push(key_decl(name, ty, Some(default.into())));
        self
    }

    /// Declares a blackboard key that has no valid value until something writes it.
    pub fn key_unset(mut self, name: &str, ty: ValueType) -> TreeBuilder {
        self.keys.push(key_decl(name, ty, None));
        self
    }

    /// Sets the root node (and with it, the whole tree below it).
    pub fn root(mut self, root: NodeBuilder) -> TreeBuilder {
        self.root = Some(root);
        self
    }

    /// The tree file: nodes in depth-first order from the root, GUIDs derived (or as
    /// given), the newest format version. Nothing is checked yet.
    pub fn to_file(&self) -> TreeFile {
        let mut nodes = Vec::new();
        let root = self
            .root
            .as_ref()
            .map(|root| root.emit(&self.name, "0", &mut nodes));
        TreeFile {
            format: FORMAT_NAME.to_owned(),
            version: FORMAT_VERSION,
            guid: self
                .guid
                .clone()
                .unwrap_or_else(|| guid::derived(&self.name, "tree")),
            name: self.name.clone(),
            description: self.description.clone(),
            blackboard: self.keys.clone(),
            root,
            nodes,
            editor: None,
            conflicts: Vec::new(),
            unknown: BTreeMap::new(),
        }
    }

    /// The tree file's canonical JSON text, as the editor saves it: give it to designers.
    pub fn to_json(&self) -> String {
        self.to_file().to_json_pretty()
    }

    /// Checks and compiles the tree with `registry`'s node types: the same checks and
    /// problems as the equivalent file, located in `<memory>` by JSON path and node.
    /// Subtree paths are relative to [`crate::LoadOptions::project_root`], or else the
    /// working directory; to anchor them at a file's folder use
    /// `registry.loader().load_tree(&builder.to_file(), Some(path))`.
    pub fn build<C: 'static>(&self, registry: &Registry<C>) -> Result<CompiledTree<C>, LoadError> {
        registry.loader().load_tree(&self.to_file(), None)
    }

    /// Every problem, errors and warnings, against node type declarations only (as
    /// `arbor check` and the editor check).
    pub fn check(&self, types: &NodeTypes) -> Report {
        check_tree(&self.to_file(), None, types, &LoadOptions::default())
    }
}

fn key_decl(name: &str, ty: ValueType, default: Option<serde_json::Value>) -> KeyDecl {
    KeyDecl {
        key: name.to_owned(),
        ty,
        default,
        description: String::new(),
        unknown: BTreeMap::new(),
    }
}
