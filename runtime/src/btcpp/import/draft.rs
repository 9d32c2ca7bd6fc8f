//! The import's intermediate form: a `Draft` per node, holding `ParamValue`s and
//! `DraftDecorator`s until key types and host types are known (passes 3 and 4).

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::super::model;
use super::super::script::{Lit, Test};
use super::super::xml::Element;
use super::*;

/// Where a node sits, for pre-conditions whose meaning depends on the parent.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Parent {
    Root,
    /// A Selector (Fallback or ReactiveFallback): a skipped child and a failed one are
    /// treated alike (the next child is tried).
    Selector,
    Other,
}

/// A parameter value before key types are known.
#[derive(Clone, Debug)]
pub(super) enum ParamValue {
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
pub(super) struct DraftDecorator {
    /// "Condition" (abort None) or "Precondition".
    pub(super) kind: &'static str,
    /// The test that lets the node run.
    pub(super) test: Test,
    /// The attribute it came from, for `editor.btcpp.decorators`.
    pub(super) origin: &'static str,
}

/// A node before key types and host types are known.
#[derive(Clone, Debug)]
pub(super) struct Draft {
    /// The Arbor type; for host nodes filled in by `host_types`.
    pub(super) kind: String,
    /// For host nodes: the BT.CPP ID.
    pub(super) host: Option<String>,
    pub(super) name: String,
    pub(super) params: Vec<(String, ParamValue)>,
    pub(super) decorators: Vec<DraftDecorator>,
    /// Script decorators (the pre- and post-condition attributes), after `decorators`.
    pub(super) scripts: Vec<scripts::SDec>,
    pub(super) children: Vec<Draft>,
    /// The BT.CPP ID, when it is not the canonical export of `kind`.
    pub(super) origin: Option<String>,
    /// Attributes with no Arbor equivalent.
    pub(super) kept: BTreeMap<String, String>,
    /// For Subtree: ports the call sets to a literal, which `_autoremap` must not remap
    /// (BT.CPP: the literal wins over the parent's key of the same name).
    pub(super) literal_ports: Vec<String>,
    /// `false` for a node written `_skipIf="true"`: switched off (rule 79).
    pub(super) enabled: bool,
    pub(super) line: u32,
    pub(super) column: u32,
}

impl Draft {
    pub(super) fn new(kind: &str, name: &str, el: &Element) -> Draft {
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

    pub(super) fn walk(&self, f: &mut impl FnMut(&Draft)) {
        f(self);
        for c in &self.children {
            c.walk(f);
        }
    }

    pub(super) fn walk_mut(&mut self, f: &mut impl FnMut(&mut Draft)) {
        f(self);
        for c in &mut self.children {
            c.walk_mut(f);
        }
    }
}

/// How a custom or opaque node type is used across the document.
#[derive(Default)]
pub(super) struct HostUse {
    pub(super) child_counts: Vec<usize>,
    /// Port -> every value seen, in document order.
    pub(super) ports: BTreeMap<String, Vec<String>>,
    /// Ports in first-seen order.
    pub(super) order: Vec<String>,
    /// The opaque form of a mapped or known BT.CPP node.
    pub(super) builtin: bool,
    /// The element of the explicit form (`<Condition ID="X"/>`), if used.
    pub(super) explicit: Option<model::ModelKind>,
    pub(super) line: u32,
    pub(super) column: u32,
    pub(super) origin: String,
}

/// A SubTree call: the parent tree, the subtree, and how it connects them.
pub(super) struct Call {
    pub(super) parent: usize,
    pub(super) sub: usize,
    /// Subtree key -> parent key.
    pub(super) remap: Vec<(String, String)>,
    pub(super) autoremap: bool,
}
