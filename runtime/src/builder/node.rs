//! NodeBuilder and DecoratorBuilder: one node (with its subtree of children) and one
//! attached decorator, before they are placed in a tree and given GUIDs.

use serde_json::{Map, Value};

use crate::format::{DecoratorDef, NodeDef};

use super::guid;

/// A node under construction: its type, name, parameters, attached decorators and children.
/// Made by [`super::node`], [`super::action`], [`super::seq`], …; placed by
/// [`super::TreeBuilder::root`].
#[derive(Clone, Debug, PartialEq)]
pub struct NodeBuilder {
    kind: String,
    name: Option<String>,
    guid: Option<String>,
    params: Map<String, Value>,
    decorators: Vec<DecoratorBuilder>,
    children: Vec<NodeBuilder>,
}

impl NodeBuilder {
    /// A node of type `kind` (built-in or host).
    pub fn new(kind: &str) -> NodeBuilder {
        NodeBuilder {
            kind: kind.to_owned(),
            name: None,
            guid: None,
            params: Map::new(),
            decorators: Vec::new(),
            children: Vec::new(),
        }
    }

    /// The node's name, shown in the editor, traces and problems (default: its type).
    pub fn name(mut self, name: &str) -> NodeBuilder {
        self.name = Some(name.to_owned());
        self
    }

    /// A fixed GUID instead of the derived one (see the [module docs](super)).
    pub fn guid(mut self, guid: &str) -> NodeBuilder {
        self.guid = Some(guid.to_owned());
        self
    }

    /// Sets a parameter: a literal (`3.0`, `"home"`, `true`, `serde_json::json!([…])`) or a
    /// binding ([`super::bind`]). It is checked against the type's declaration when the tree
    /// is built, as a file's would be.
    pub fn param(mut self, name: &str, value: impl Into<Value>) -> NodeBuilder {
        self.params.insert(name.to_owned(), value.into());
        self
    }

    /// Appends a child.
    pub fn child(mut self, child: NodeBuilder) -> NodeBuilder {
        self.children.push(child);
        self
    }

    /// Appends children, in execution order.
    pub fn children(mut self, children: impl IntoIterator<Item = NodeBuilder>) -> NodeBuilder {
        self.children.extend(children);
        self
    }

    /// Attaches a decorator below those already attached (the first is the outermost,
    /// rule 21).
    pub fn decorator(mut self, decorator: DecoratorBuilder) -> NodeBuilder {
        self.decorators.push(decorator);
        self
    }

    /// Writes this node and its descendants, depth first, into `out`; returns its GUID.
    /// `place` is its position (`0`, `0.1`, …) from which its GUID is derived.
    pub(super) fn emit(&self, tree: &str, place: &str, out: &mut Vec<NodeDef>) -> String {
        let guid = self
            .guid
            .clone()
            .unwrap_or_else(|| guid::derived(tree, place));
        let at = out.len();
        out.push(NodeDef {
            guid: guid.clone(),
            name: self.name.clone().unwrap_or_else(|| self.kind.clone()),
            kind: self.kind.clone(),
            enabled: true,
            params: self.params.clone(),
            decorators: self
                .decorators
                .iter()
                .enumerate()
                .map(|(k, d)| d.emit(tree, &format!("{place}@{k}")))
                .collect(),
            children: Vec::new(),
            unknown: Default::default(),
        });
        let children = self
            .children
            .iter()
            .enumerate()
            .map(|(i, child)| child.emit(tree, &format!("{place}.{i}"), out))
            .collect();
        out[at].children = children;
        guid
    }
}

/// An attached decorator under construction, for [`NodeBuilder::decorator`].
#[derive(Clone, Debug, PartialEq)]
pub struct DecoratorBuilder {
    kind: String,
    name: Option<String>,
    guid: Option<String>,
    params: Map<String, Value>,
}

impl DecoratorBuilder {
    /// An attached decorator of type `kind`.
    pub fn new(kind: &str) -> DecoratorBuilder {
        DecoratorBuilder {
            kind: kind.to_owned(),
            name: None,
            guid: None,
            params: Map::new(),
        }
    }

    /// Its name (default: its type).
    pub fn name(mut self, name: &str) -> DecoratorBuilder {
        self.name = Some(name.to_owned());
        self
    }

    /// A fixed GUID instead of the derived one.
    pub fn guid(mut self, guid: &str) -> DecoratorBuilder {
        self.guid = Some(guid.to_owned());
        self
    }

    /// Sets a parameter, as [`NodeBuilder::param`].
    pub fn param(mut self, name: &str, value: impl Into<Value>) -> DecoratorBuilder {
        self.params.insert(name.to_owned(), value.into());
        self
    }

    fn emit(&self, tree: &str, place: &str) -> DecoratorDef {
        DecoratorDef {
            guid: self
                .guid
                .clone()
                .unwrap_or_else(|| guid::derived(tree, place)),
            name: self.name.clone().unwrap_or_else(|| self.kind.clone()),
            kind: self.kind.clone(),
            params: self.params.clone(),
            unknown: Default::default(),
        }
    }
}
