//! A tree file seen as *parts* with *fields*, plus the order of a few lists: the one shape
//! that diffing and merging both work on, so that each compares like with like.
//!
//! Parts are matched by identity: nodes, decorators, notes and groups by GUID, blackboard
//! keys by name, and one part for the tree itself. A node's fields are `name`, `type`,
//! `enabled` (only when `false`), `params.NAME` for each parameter, `parent` (absent for
//! the root and unconnected nodes) and `position` (from `editor.positions`); a decorator's
//! are `node` (its owner), `name`, `type`, `params.NAME`; a key's `type`, `default`,
//! `description`; a note's or a group's are its members; the tree's are `name`,
//! `description`, `root` and `editor.MEMBER` for the editor members other than positions,
//! notes and groups. Which node is a child of which is held by the `parent` fields; the
//! lists ([`List`]) hold only the order.
//!
//! [`Flat::to_file`] turns parts back into a file in canonical form; for a canonical file,
//! `Flat::new(&f).to_file() == f`.
//!
//! Limitations: a blackboard key renamed is a key removed and a key added (keys have no
//! GUID); `editor` data that is not the documented shape (a note without a GUID, say) is
//! one field of the tree, compared as a whole.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::format::{DecoratorDef, KeyDecl, NodeDef, TreeFile, FORMAT_NAME};

/// What kind of part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The tree's own fields (name, description, root, other editor data).
    Tree,
    /// A blackboard key, by name.
    Key,
    /// A node, by GUID.
    Node,
    /// An attached decorator, by GUID.
    Decorator,
    /// A sticky note of the editor, by GUID.
    Note,
    /// A group frame of the editor, by GUID.
    Group,
}

impl Scope {
    /// The name used in output and in `conflicts` entries.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Tree => "tree",
            Scope::Key => "key",
            Scope::Node => "node",
            Scope::Decorator => "decorator",
            Scope::Note => "note",
            Scope::Group => "group",
        }
    }
}

/// A part's identity: its scope and its GUID (or key name; empty for the tree).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PartId {
    /// What kind of part.
    pub scope: Scope,
    /// GUID, key name, or empty.
    pub id: String,
}

impl PartId {
    pub(crate) fn new(scope: Scope, id: impl Into<String>) -> PartId {
        PartId {
            scope,
            id: id.into(),
        }
    }

    pub(crate) fn tree() -> PartId {
        PartId::new(Scope::Tree, "")
    }
}

/// An ordered list of part ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum ListKind {
    /// A node's children (members: nodes whose `parent` is the node).
    Children,
    /// A node's decorators, top first (members: decorators whose `node` is the node).
    Decorators,
    /// The blackboard's keys.
    Keys,
    /// The editor's notes.
    Notes,
    /// The editor's groups.
    Groups,
    /// Every node in file order; it orders the unconnected nodes.
    Nodes,
}

/// A list and its owner (a node, or the tree).
pub(crate) type List = (PartId, ListKind);

/// A part's fields by name.
pub(crate) type Fields = BTreeMap<String, Value>;

/// A tree file as parts and lists.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Flat {
    pub guid: String,
    pub version: u64,
    pub parts: BTreeMap<PartId, Fields>,
    pub lists: BTreeMap<List, Vec<String>>,
}

pub(crate) const PARAMS: &str = "params.";
pub(crate) const EDITOR: &str = "editor.";

impl Flat {
    /// The parts of `file`. The file is assumed to have passed the input checks (unique
    /// GUIDs and key names, one parent per node): a repeated identity keeps its last part.
    pub(crate) fn new(file: &TreeFile) -> Flat {
        let mut flat = Flat {
            guid: file.guid.clone(),
            version: file.version,
            parts: BTreeMap::new(),
            lists: BTreeMap::new(),
        };
        let mut tree = Fields::new();
        tree.insert("name".into(), Value::String(file.name.clone()));
        if !file.description.is_empty() {
            tree.insert("description".into(), file.description.clone().into());
        }
        if let Some(root) = &file.root {
            tree.insert("root".into(), root.clone().into());
        }
        let keys = file.blackboard.iter().map(|k| k.key.clone()).collect();
        flat.lists.insert((PartId::tree(), ListKind::Keys), keys);
        for k in &file.blackboard {
            let mut fields = Fields::new();
            fields.insert("type".into(), k.ty.as_str().into());
            if let Some(d) = &k.default {
                fields.insert("default".into(), d.clone());
            }
            if !k.description.is_empty() {
                fields.insert("description".into(), k.description.clone().into());
            }
            flat.parts.insert(PartId::new(Scope::Key, &k.key), fields);
        }
        let all = file.nodes.iter().map(|n| n.guid.clone()).collect();
        flat.lists.insert((PartId::tree(), ListKind::Nodes), all);
        let mut parent: HashMap<&str, &str> = HashMap::new();
        for n in &file.nodes {
            for c in &n.children {
                parent.insert(c, &n.guid);
            }
        }
        for n in &file.nodes {
            let id = PartId::new(Scope::Node, &n.guid);
            let mut fields = Fields::new();
            fields.insert("name".into(), n.name.clone().into());
            fields.insert("type".into(), n.kind.clone().into());
            if !n.enabled {
                fields.insert("enabled".into(), false.into());
            }
            params_into(&n.params, &mut fields);
            if let Some(p) = parent.get(n.guid.as_str()) {
                fields.insert("parent".into(), (*p).into());
            }
            flat.parts.insert(id.clone(), fields);
            flat.lists
                .insert((id.clone(), ListKind::Children), n.children.clone());
            let decorators = n.decorators.iter().map(|d| d.guid.clone()).collect();
            flat.lists.insert((id, ListKind::Decorators), decorators);
            for d in &n.decorators {
                let mut fields = Fields::new();
                fields.insert("node".into(), n.guid.clone().into());
                fields.insert("name".into(), d.name.clone().into());
                fields.insert("type".into(), d.kind.clone().into());
                params_into(&d.params, &mut fields);
                flat.parts
                    .insert(PartId::new(Scope::Decorator, &d.guid), fields);
            }
        }
        match &file.editor {
            Some(Value::Object(editor)) => flat.editor_into(editor, &mut tree),
            Some(other) => {
                tree.insert("editor".into(), other.clone());
            }
            None => {}
        }
        flat.parts.insert(PartId::tree(), tree);
        flat
    }

    /// Spreads the editor section over the parts: positions onto nodes, notes and groups
    /// as parts of their own, the rest as tree fields.
    fn editor_into(&mut self, editor: &Map<String, Value>, tree: &mut Fields) {
        for (member, value) in editor {
            let spread = match (member.as_str(), value) {
                ("positions", Value::Object(positions)) => {
                    let mut rest = Map::new();
                    for (guid, pos) in positions {
                        match self.parts.get_mut(&PartId::new(Scope::Node, guid)) {
                            Some(node) => {
                                node.insert("position".into(), pos.clone());
                            }
                            None => {
                                rest.insert(guid.clone(), pos.clone());
                            }
                        }
                    }
                    if !rest.is_empty() {
                        tree.insert(format!("{EDITOR}positions"), Value::Object(rest));
                    }
                    true
                }
                ("notes", Value::Array(items)) => self.items_into(items, Scope::Note),
                ("groups", Value::Array(items)) => self.items_into(items, Scope::Group),
                _ => false,
            };
            if !spread {
                tree.insert(format!("{EDITOR}{member}"), value.clone());
            }
        }
    }

    /// Notes or groups as parts, when every item is an object with a GUID of its own;
    /// `false` (nothing added) otherwise.
    fn items_into(&mut self, items: &[Value], scope: Scope) -> bool {
        let mut parts = Vec::with_capacity(items.len());
        let mut seen = HashSet::new();
        for item in items {
            let Some(object) = item.as_object() else {
                return false;
            };
            let Some(guid) = object.get("guid").and_then(Value::as_str) else {
                return false;
            };
            if !seen.insert(guid) {
                return false;
            }
            let fields: Fields = object
                .iter()
                .filter(|(k, _)| *k != "guid")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            parts.push((guid.to_owned(), fields));
        }
        let kind = if scope == Scope::Note {
            ListKind::Notes
        } else {
            ListKind::Groups
        };
        let order = parts.iter().map(|(g, _)| g.clone()).collect();
        self.lists.insert((PartId::tree(), kind), order);
        for (guid, fields) in parts {
            self.parts.insert(PartId::new(scope, guid), fields);
        }
        true
    }

    /// The file these parts make, in canonical form: nodes in tree order from the root,
    /// then the unconnected ones (each followed by its descendants).
    pub(crate) fn to_file(&self) -> TreeFile {
        let tree = self.parts.get(&PartId::tree()).cloned().unwrap_or_default();
        let text = |fields: &Fields, name: &str| {
            fields
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let mut file = TreeFile::new(text(&tree, "name"));
        file.format = FORMAT_NAME.to_owned();
        file.version = self.version;
        file.guid = self.guid.clone();
        file.description = text(&tree, "description");
        file.root = tree.get("root").and_then(Value::as_str).map(str::to_owned);
        let members = self.members();
        let empty = BTreeSet::new();
        let of = |owner: &PartId, kind: ListKind| -> Vec<String> {
            let key = (owner.clone(), kind);
            let set = members.get(&key).unwrap_or(&empty);
            ordered(self.lists.get(&key).map_or(&[][..], Vec::as_slice), set)
        };
        file.blackboard = of(&PartId::tree(), ListKind::Keys)
            .into_iter()
            .filter_map(|k| {
                let fields = self.parts.get(&PartId::new(Scope::Key, &k))?;
                let ty = fields.get("type").cloned().unwrap_or_default();
                Some(KeyDecl {
                    key: k,
                    // Every key part was read from a parsed file, whose types are valid.
                    ty: serde_json::from_value(ty).unwrap_or(crate::ValueType::Json),
                    default: fields.get("default").cloned(),
                    description: text(fields, "description"),
                    unknown: BTreeMap::new(),
                })
            })
            .collect();
        let mut positions = match tree.get(&format!("{EDITOR}positions")) {
            Some(Value::Object(rest)) => rest.clone(),
            _ => Map::new(),
        };
        let mut nodes: HashMap<&str, NodeDef> = HashMap::new();
        for (id, fields) in of_scope(&self.parts, Scope::Node) {
            let node_id = PartId::new(Scope::Node, &id.id);
            let decorators = of(&node_id, ListKind::Decorators)
                .into_iter()
                .filter_map(|d| {
                    let fields = self.parts.get(&PartId::new(Scope::Decorator, &d))?;
                    Some(DecoratorDef {
                        guid: d,
                        name: text(fields, "name"),
                        kind: text(fields, "type"),
                        params: params_of(fields),
                        unknown: BTreeMap::new(),
                    })
                })
                .collect();
            if let Some(pos) = fields.get("position") {
                positions.insert(id.id.clone(), pos.clone());
            }
            nodes.insert(
                &id.id,
                NodeDef {
                    guid: id.id.clone(),
                    name: text(fields, "name"),
                    kind: text(fields, "type"),
                    enabled: fields.get("enabled") != Some(&Value::Bool(false)),
                    params: params_of(fields),
                    decorators,
                    children: of(&node_id, ListKind::Children),
                    unknown: BTreeMap::new(),
                },
            );
        }
        file.nodes = tree_order(
            file.root.as_deref(),
            &of(&PartId::tree(), ListKind::Nodes),
            &mut nodes,
        );
        file.editor = self.editor(&tree, positions, &of);
        file
    }

    /// The editor section: tree fields `editor.*`, positions, notes and groups; `None`
    /// when there is nothing to store.
    fn editor(
        &self,
        tree: &Fields,
        positions: Map<String, Value>,
        of: &dyn Fn(&PartId, ListKind) -> Vec<String>,
    ) -> Option<Value> {
        if let Some(whole) = tree.get("editor") {
            return Some(whole.clone());
        }
        let mut editor = Map::new();
        for (name, value) in tree {
            if let Some(member) = name.strip_prefix(EDITOR) {
                editor.insert(member.to_owned(), value.clone());
            }
        }
        if !positions.is_empty() {
            editor.insert("positions".into(), Value::Object(positions));
        } else {
            editor.remove("positions");
        }
        for (scope, kind, member) in [
            (Scope::Note, ListKind::Notes, "notes"),
            (Scope::Group, ListKind::Groups, "groups"),
        ] {
            let items: Vec<Value> = of(&PartId::tree(), kind)
                .into_iter()
                .filter_map(|g| {
                    let fields = self.parts.get(&PartId::new(scope, &g))?;
                    let mut object: Map<String, Value> =
                        fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                    object.insert("guid".into(), Value::String(g));
                    Some(Value::Object(object))
                })
                .collect();
            if !items.is_empty() {
                editor.insert(member.into(), Value::Array(items));
            }
        }
        (!editor.is_empty()).then_some(Value::Object(editor))
    }

    /// Which parts each list holds, by the `parent` and `node` fields (a node whose parent
    /// is not a node of the file counts as unconnected).
    pub(crate) fn members(&self) -> HashMap<List, BTreeSet<String>> {
        let mut out: HashMap<List, BTreeSet<String>> = HashMap::new();
        for id in self.parts.keys() {
            let tree = |kind| (PartId::tree(), kind);
            let list = match id.scope {
                Scope::Tree => continue,
                Scope::Key => tree(ListKind::Keys),
                Scope::Note => tree(ListKind::Notes),
                Scope::Group => tree(ListKind::Groups),
                Scope::Node => {
                    out.entry(tree(ListKind::Nodes))
                        .or_default()
                        .insert(id.id.clone());
                    match self.owner(id, "parent") {
                        Some(p) => (p, ListKind::Children),
                        None => continue,
                    }
                }
                Scope::Decorator => match self.owner(id, "node") {
                    Some(n) => (n, ListKind::Decorators),
                    // A decorator belongs to a node; without one it has nowhere to be.
                    None => continue,
                },
            };
            out.entry(list).or_default().insert(id.id.clone());
        }
        out
    }

    /// The node that `field` of part `id` names, when that node exists.
    pub(crate) fn owner(&self, id: &PartId, field: &str) -> Option<PartId> {
        let guid = self.parts.get(id)?.get(field)?.as_str()?;
        let owner = PartId::new(Scope::Node, guid);
        self.parts.contains_key(&owner).then_some(owner)
    }
}

/// The parts of one scope, in id order.
pub(crate) fn of_scope(
    parts: &BTreeMap<PartId, Fields>,
    scope: Scope,
) -> impl Iterator<Item = (&PartId, &Fields)> {
    parts
        .range(PartId::new(scope, "")..)
        .take_while(move |(id, _)| id.scope == scope)
}

fn params_into(params: &Map<String, Value>, fields: &mut Fields) {
    for (name, value) in params {
        fields.insert(format!("{PARAMS}{name}"), value.clone());
    }
}

fn params_of(fields: &Fields) -> Map<String, Value> {
    fields
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix(PARAMS)?.to_owned(), v.clone())))
        .collect()
}

/// `members` in the order `order` gives, then those it does not list, sorted.
pub(crate) fn ordered(order: &[String], members: &BTreeSet<String>) -> Vec<String> {
    let mut placed = HashSet::new();
    let mut out: Vec<String> = order
        .iter()
        .filter(|g| members.contains(*g) && placed.insert(g.as_str()))
        .cloned()
        .collect();
    out.extend(
        members
            .iter()
            .filter(|g| !placed.contains(g.as_str()))
            .cloned(),
    );
    out
}

/// The nodes in canonical order: depth first from the root, then each unconnected node
/// (in `order`) with its descendants. Iterative; a node is written once even if a broken
/// input reached it twice, and nodes reached from nowhere come last.
fn tree_order(
    root: Option<&str>,
    order: &[String],
    nodes: &mut HashMap<&str, NodeDef>,
) -> Vec<NodeDef> {
    let children: HashSet<String> = nodes
        .values()
        .flat_map(|n| n.children.iter().cloned())
        .collect();
    let mut heads: Vec<String> = root.map(str::to_owned).into_iter().collect();
    heads.extend(
        order
            .iter()
            .filter(|g| !children.contains(*g) && Some(g.as_str()) != root)
            .cloned(),
    );
    let mut rest: Vec<String> = nodes.keys().map(|g| (*g).to_owned()).collect();
    rest.sort();
    heads.extend(rest);
    let mut out = Vec::with_capacity(nodes.len());
    for head in heads {
        let mut stack = vec![head];
        while let Some(g) = stack.pop() {
            if let Some(node) = nodes.remove(g.as_str()) {
                stack.extend(node.children.iter().rev().cloned());
                out.push(node);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_tree_round_trips_through_parts() {
        for name in [
            "villager.json",
            "guard.json",
            "card_duel.json",
            "counting.json",
        ] {
            let path = format!("{}/../samples/trees/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let file = crate::parse_str(&text, None).unwrap();
            assert_eq!(Flat::new(&file).to_file(), file, "{name}");
        }
    }
}
