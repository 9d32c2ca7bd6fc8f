//! Document: the tree being edited, as the runtime's [`TreeFile`] plus typed [`EditorData`]
//! (positions, notes, groups, manifests). Selection and zoom are view state and live
//! elsewhere.
//!
//! Invariants:
//! - `file.editor` is always `None`; the editor data lives in `editor` and is put back by
//!   [`Document::to_tree_file`]. One copy, so the two cannot disagree.
//! - Only commands (crate `commands`) mutate a document; everything public here is a query.
//!   That is what lets the undo history be the single record of change.
//! - The stored node order is insertion order. It is observable only through the order of
//!   unconnected fragments in a saved file, and commands restore it exactly on undo.
//!
//! A document may hold what the runtime rejects (a missing root, unknown types, even cycles or
//! a node listed by two parents in a hand-edited file): the editor must open such a file to
//! let the user fix it. Every query therefore tolerates them (visited sets, first parent wins)
//! and [`crate::document::validate`] reports them.
//!
//! Limitations: lookups by GUID scan the node list, which is fine for hand-made trees of
//! hundreds of nodes; a GUID index would be the first thing to add for much larger ones.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use arbor_runtime::format::{DecoratorDef, KeyDecl, NodeDef, TreeFile};
use arbor_runtime::{
    binding, Category, ChildCount, Direction, LoadError, NodeTypes, ParamKind, Problem, ProblemKind,
};
use serde_json::{Map, Value};

use super::editor_data::{EditorData, Group, Note, Pos};
use super::node_index::NodeIndex;

/// The thing a parameter or a name belongs to: a node, or a decorator attached to a node.
/// Decorators are named by their own GUID so that reordering them does not retarget edits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    Node(String),
    Decorator { node: String, decorator: String },
}

impl Owner {
    /// The node concerned (the decorator's node for a decorator).
    pub fn node(&self) -> &str {
        match self {
            Owner::Node(node) | Owner::Decorator { node, .. } => node,
        }
    }
}

/// One reference to a blackboard key from a parameter: see [`Document::key_usages`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyUsage {
    pub owner: Owner,
    pub param: String,
    /// For key-map parameters (`Subtree.remap`): the entry whose value is the key.
    pub entry: Option<String>,
    /// Whether the node reads the key, writes it or both, as the parameter's declared
    /// direction says (a remapping: both, as the subtree may do either).
    pub access: Direction,
}

/// An axis-aligned rectangle in canvas units: `min` is the top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: Pos,
    pub max: Pos,
}

impl Bounds {
    fn point(p: Pos) -> Bounds {
        Bounds { min: p, max: p }
    }

    fn include(&mut self, other: Bounds) {
        self.min = [self.min[0].min(other.min[0]), self.min[1].min(other.min[1])];
        self.max = [self.max[0].max(other.max[0]), self.max[1].max(other.max[1])];
    }
}

/// The tree being edited. See the module documentation for its invariants.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    pub(crate) file: TreeFile,
    pub(crate) editor: EditorData,
    /// Places for nodes the file gives none (a tree written by hand, by a program or by
    /// the runtime's builder), laid out when it loaded. Shown, never saved: opening and
    /// saving such a file changes nothing, and a node moved by hand gets a stored place.
    pub(crate) derived: BTreeMap<String, Pos>,
    /// GUID → place in `file.nodes`, a self-checking cache (node_index.rs).
    index: NodeIndex,
}

impl Default for Document {
    fn default() -> Self {
        Document::new("untitled")
    }
}

/// Indices derived from the node list, built once per query that needs them.
struct Links<'a> {
    index: HashMap<&'a str, usize>,
    /// First parent of each node (a hand-edited file may list a node twice).
    parent: Vec<Option<usize>>,
}

impl<'a> Links<'a> {
    fn new(nodes: &'a [NodeDef]) -> Links<'a> {
        let mut index = HashMap::with_capacity(nodes.len());
        for (i, node) in nodes.iter().enumerate() {
            index.entry(node.guid.as_str()).or_insert(i);
        }
        let mut parent = vec![None; nodes.len()];
        for (i, node) in nodes.iter().enumerate() {
            for child in &node.children {
                if let Some(&c) = index.get(child.as_str()) {
                    if parent[c].is_none() && c != i {
                        parent[c] = Some(i);
                    }
                }
            }
        }
        Links { index, parent }
    }
}

impl Document {
    /// An empty document with a fresh tree GUID.
    pub fn new(name: &str) -> Document {
        Document {
            file: TreeFile::new(name),
            editor: EditorData::default(),
            derived: BTreeMap::new(),
            index: NodeIndex::default(),
        }
    }

    /// Rewrites node types and parameters the file names by an old name (an alias `types`
    /// declares) to their current names, as the loader and `arbor migrate` do; returns
    /// what it renamed. GUIDs and links are untouched, so the node index stays valid.
    pub fn apply_renames(&mut self, types: &NodeTypes) -> Vec<arbor_runtime::Rename> {
        arbor_runtime::migrate(&mut self.file, types)
    }

    /// Takes a parsed tree file. Fails only when its `editor` object has the wrong shape;
    /// the error is located like the runtime's (`$.editor.positions.<guid>`).
    pub fn from_tree_file(
        mut file: TreeFile,
        origin: Option<&Path>,
    ) -> Result<Document, LoadError> {
        let editor = EditorData::from_value(file.editor.as_ref()).map_err(|e| {
            let file: Arc<str> = Arc::from(
                origin.map_or_else(|| "<memory>".to_owned(), |p| p.display().to_string()),
            );
            let (json_path, message) = (e.path, e.message);
            LoadError {
                problems: vec![Problem::new(&file, json_path, ProblemKind::Shape(message))],
            }
        })?;
        file.editor = None;
        let mut doc = Document {
            file,
            editor,
            derived: BTreeMap::new(),
            index: NodeIndex::default(),
        };
        doc.place_unplaced_nodes();
        Ok(doc)
    }

    /// Gives every node without a stored position the place auto-layout would give it, in
    /// `derived`: drawing them all at the origin would stack them into one unreadable pile.
    fn place_unplaced_nodes(&mut self) {
        if self
            .file
            .nodes
            .iter()
            .all(|n| self.editor.positions.contains_key(&n.guid))
        {
            return;
        }
        let laid_out = super::tidy_layout(self, &super::LayoutOptions::default());
        self.derived = laid_out
            .into_iter()
            .filter(|(guid, _)| !self.editor.positions.contains_key(guid))
            .collect();
    }

    /// The file to save or to hand to the runtime: nodes in canonical order (depth-first
    /// from the root, then each unconnected fragment depth-first, in stored order), editor
    /// data attached.
    pub fn to_tree_file(&self) -> TreeFile {
        let mut file = self.file.clone();
        // A version-1 file is saved in the version this build writes: the editor offers
        // bindings and list types, which only the newer version has.
        file.version = arbor_runtime::format::FORMAT_VERSION;
        file.nodes = self
            .canonical_order()
            .into_iter()
            .map(|i| self.file.nodes[i].clone())
            .collect();
        file.editor = self.editor.to_value();
        file
    }

    /// [`Document::to_tree_file`] without the editor's own data (positions, notes, groups,
    /// manifests), which the runtime's checks never read: what a validation needs, made
    /// without writing every position out as JSON (the cost of a check started after a
    /// drag of one node in a large tree).
    pub fn to_checked_file(&self) -> TreeFile {
        TreeFile {
            format: self.file.format.clone(),
            version: arbor_runtime::format::FORMAT_VERSION,
            guid: self.file.guid.clone(),
            name: self.file.name.clone(),
            description: self.file.description.clone(),
            blackboard: self.file.blackboard.clone(),
            root: self.file.root.clone(),
            nodes: self
                .canonical_order()
                .into_iter()
                .map(|i| self.file.nodes[i].clone())
                .collect(),
            editor: None,
            conflicts: self.file.conflicts.clone(),
            unknown: self.file.unknown.clone(),
        }
    }

    /// The canonical text of the document (see [`Document::to_tree_file`]).
    pub fn to_json(&self) -> String {
        self.to_tree_file().to_json_pretty()
    }

    // ---- Tree-level queries -------------------------------------------------------------

    pub fn name(&self) -> &str {
        &self.file.name
    }

    /// What a merge left undecided (`arbor merge`'s `conflicts`), in file order;
    /// `ResolveConflict` settles one.
    pub fn conflicts(&self) -> &[arbor_runtime::format::Conflict] {
        &self.file.conflicts
    }

    pub fn description(&self) -> &str {
        &self.file.description
    }

    /// The tree's own GUID.
    pub fn guid(&self) -> &str {
        &self.file.guid
    }

    pub fn root(&self) -> Option<&str> {
        self.file.root.as_deref()
    }

    /// The tree file as stored (nodes in insertion order, `editor` not filled in).
    pub fn tree(&self) -> &TreeFile {
        &self.file
    }

    pub fn editor_data(&self) -> &EditorData {
        &self.editor
    }

    pub fn manifests(&self) -> &[String] {
        &self.editor.manifests
    }

    pub fn notes(&self) -> &[Note] {
        &self.editor.notes
    }

    pub fn note(&self, guid: &str) -> Option<&Note> {
        self.editor.note(guid)
    }

    pub fn groups(&self) -> &[Group] {
        &self.editor.groups
    }

    pub fn group(&self, guid: &str) -> Option<&Group> {
        self.editor.group(guid)
    }

    pub fn blackboard(&self) -> &[KeyDecl] {
        &self.file.blackboard
    }

    pub fn key(&self, name: &str) -> Option<&KeyDecl> {
        self.file.blackboard.iter().find(|k| k.key == name)
    }

    // ---- Node queries -------------------------------------------------------------------

    /// Every node, in stored (insertion) order.
    pub fn nodes(&self) -> impl Iterator<Item = &NodeDef> {
        self.file.nodes.iter()
    }

    pub fn node_count(&self) -> usize {
        self.file.nodes.len()
    }

    pub fn node(&self, guid: &str) -> Option<&NodeDef> {
        let i = self.index.find(&self.file.nodes, guid)?;
        self.file.nodes.get(i)
    }

    /// Work the node lookups did so far: index entries built and list entries scanned
    /// (tests prove with it that loading is linear).
    pub fn lookup_work(&self) -> u64 {
        self.index.work()
    }

    pub fn contains(&self, guid: &str) -> bool {
        self.node(guid).is_some()
    }

    pub fn decorator(&self, node: &str, decorator: &str) -> Option<&DecoratorDef> {
        self.node(node)?
            .decorators
            .iter()
            .find(|d| d.guid == decorator)
    }

    /// The parameters of a node or decorator.
    pub fn params(&self, owner: &Owner) -> Option<&Map<String, Value>> {
        match owner {
            Owner::Node(guid) => self.node(guid).map(|n| &n.params),
            Owner::Decorator { node, decorator } => {
                self.decorator(node, decorator).map(|d| &d.params)
            }
        }
    }

    /// The name shown for a node in messages and undo labels: its name, or its type.
    pub fn label(&self, guid: &str) -> String {
        match self.node(guid) {
            Some(n) if !n.name.is_empty() => n.name.clone(),
            Some(n) => n.kind.clone(),
            None => guid.to_owned(),
        }
    }

    pub fn position(&self, guid: &str) -> Option<Pos> {
        self.editor
            .positions
            .get(guid)
            .or_else(|| self.derived.get(guid))
            .copied()
    }

    /// The node whose `children` lists `guid` (the first one, should a broken file have two).
    pub fn parent_of(&self, guid: &str) -> Option<&str> {
        self.file
            .nodes
            .iter()
            .find(|n| n.guid != guid && n.children.iter().any(|c| c == guid))
            .map(|n| n.guid.as_str())
    }

    /// The children of a node, in execution order (empty for an unknown node).
    pub fn children(&self, guid: &str) -> &[String] {
        self.node(guid).map_or(&[], |n| n.children.as_slice())
    }

    /// Whether `ancestor` is `node` or lies on the path from `node` up to its top.
    pub fn is_ancestor_or_self(&self, ancestor: &str, node: &str) -> bool {
        let mut seen = HashSet::new();
        let mut at = Some(node);
        while let Some(guid) = at {
            if guid == ancestor {
                return true;
            }
            if !seen.insert(guid) {
                return false; // a cycle in a hand-edited file
            }
            at = self.parent_of(guid);
        }
        false
    }

    /// Every node that does not run because it or an ancestor is disabled (`enabled:
    /// false`, semantics rule 79): what a view greys out. One walk down from each disabled
    /// node, so a view can ask once per frame for the whole tree.
    pub fn disabled_branches(&self) -> HashSet<&str> {
        let mut out = HashSet::new();
        let mut stack: Vec<&str> = self
            .file
            .nodes
            .iter()
            .filter(|n| !n.enabled)
            .map(|n| n.guid.as_str())
            .collect();
        while let Some(guid) = stack.pop() {
            // Already seen: a shared subtree of a hand-edited file, or a cycle.
            if out.insert(guid) {
                stack.extend(self.children(guid).iter().map(String::as_str));
            }
        }
        out
    }

    /// Whether node `guid` does not run because it or an ancestor is disabled.
    pub fn is_disabled(&self, guid: &str) -> bool {
        let mut seen = HashSet::new();
        let mut at = Some(guid);
        while let Some(g) = at {
            if self.node(g).is_some_and(|n| !n.enabled) {
                return true;
            }
            if !seen.insert(g) {
                return false; // a cycle in a hand-edited file
            }
            at = self.parent_of(g);
        }
        false
    }

    /// The nodes in execution order: depth-first pre-order from the root. Nodes the root
    /// does not reach are not included (they never run).
    pub fn execution_order(&self) -> Vec<&str> {
        let links = Links::new(&self.file.nodes);
        let mut visited = vec![false; self.file.nodes.len()];
        let mut out = Vec::new();
        if let Some(root) = self.root().and_then(|r| links.index.get(r)) {
            self.preorder(*root, &links, &mut visited, &mut |i| {
                out.push(self.file.nodes[i].guid.as_str())
            });
        }
        out
    }

    /// Each reachable node's execution index (0 for the root), for the canvas badges.
    pub fn execution_index(&self) -> HashMap<String, usize> {
        self.execution_order()
            .into_iter()
            .enumerate()
            .map(|(i, g)| (g.to_owned(), i))
            .collect()
    }

    /// `top` and everything below it, in pre-order (empty for an unknown node).
    pub fn subtree(&self, top: &str) -> Vec<&str> {
        let links = Links::new(&self.file.nodes);
        let mut visited = vec![false; self.file.nodes.len()];
        let mut out = Vec::new();
        if let Some(&start) = links.index.get(top) {
            self.preorder(start, &links, &mut visited, &mut |i| {
                out.push(self.file.nodes[i].guid.as_str())
            });
        }
        out
    }

    /// Nodes without a parent other than the root, in stored order: the tops of the
    /// unconnected fragments.
    pub fn unconnected_tops(&self) -> Vec<&str> {
        let links = Links::new(&self.file.nodes);
        self.file
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| links.parent[*i].is_none() && Some(n.guid.as_str()) != self.root())
            .map(|(_, n)| n.guid.as_str())
            .collect()
    }

    /// Nodes the root does not reach (they will not run), in stored order.
    pub fn unconnected(&self) -> Vec<&str> {
        let reached: HashSet<&str> = self.execution_order().into_iter().collect();
        self.file
            .nodes
            .iter()
            .map(|n| n.guid.as_str())
            .filter(|g| !reached.contains(g))
            .collect()
    }

    /// Every GUID in the document: tree, nodes, decorators, notes, groups (duplicates
    /// included, so that a caller can check uniqueness).
    pub fn all_guids(&self) -> Vec<&str> {
        let mut out = vec![self.file.guid.as_str()];
        for node in &self.file.nodes {
            out.push(&node.guid);
            out.extend(node.decorators.iter().map(|d| d.guid.as_str()));
        }
        out.extend(self.editor.notes.iter().map(|n| n.guid.as_str()));
        out.extend(self.editor.groups.iter().map(|g| g.guid.as_str()));
        out
    }

    /// The box around every positioned node (its top-left corner only: the document does
    /// not know drawn sizes), note and group; `None` for an empty canvas.
    pub fn bounds(&self) -> Option<Bounds> {
        let mut bounds: Option<Bounds> = None;
        let mut add = |b: Bounds| match &mut bounds {
            Some(acc) => acc.include(b),
            None => bounds = Some(b),
        };
        for node in &self.file.nodes {
            if let Some(p) = self.position(&node.guid) {
                add(Bounds::point(p));
            }
        }
        for note in &self.editor.notes {
            add(Bounds {
                min: note.pos,
                max: [note.pos[0] + note.size[0], note.pos[1] + note.size[1]],
            });
        }
        for group in &self.editor.groups {
            let [x, y, w, h] = group.rect;
            add(Bounds {
                min: [x, y],
                max: [x + w, y + h],
            });
        }
        bounds
    }

    // ---- Blackboard ---------------------------------------------------------------------

    /// Every parameter (of a node or decorator) that names the blackboard key `name`, as
    /// declared by `types`: `key` parameters, the values of key maps, and parameters bound
    /// to the key (`{"$key": name}`). The UI asks before deleting a used key;
    /// `RenameKey` rewrites exactly these.
    pub fn key_usages(&self, types: &NodeTypes, name: &str) -> Vec<KeyUsage> {
        self.all_key_usages(types).remove(name).unwrap_or_default()
    }

    /// [`Document::key_usages`] of every key, by key name, in one pass over the nodes (the
    /// blackboard panel lists readers and writers of each key every frame).
    pub fn all_key_usages(&self, types: &NodeTypes) -> BTreeMap<String, Vec<KeyUsage>> {
        let mut out: BTreeMap<String, Vec<KeyUsage>> = BTreeMap::new();
        let mut scan =
            |owner: Owner, spec: Option<&arbor_runtime::NodeType>, params: &Map<String, Value>| {
                let Some(spec) = spec else { return };
                for (param, value) in params {
                    let Some(p) = spec.param_spec(param) else {
                        continue;
                    };
                    let mut usage = |key: &str, entry: Option<&String>, access| {
                        out.entry(key.to_owned()).or_default().push(KeyUsage {
                            owner: owner.clone(),
                            param: param.clone(),
                            entry: entry.cloned(),
                            access,
                        })
                    };
                    match (p.kind, value) {
                        (ParamKind::Key, Value::String(key)) => usage(key, None, p.direction),
                        (ParamKind::KeyMap, Value::Object(map)) => {
                            for (entry, key) in map {
                                if let Some(key) = key.as_str() {
                                    usage(key, Some(entry), Direction::InOut);
                                }
                            }
                        }
                        _ => {
                            if let Ok(Some(key)) = binding(value) {
                                usage(key, None, p.direction);
                            }
                        }
                    }
                }
            };
        for node in &self.file.nodes {
            scan(
                Owner::Node(node.guid.clone()),
                types.node(&node.kind),
                &node.params,
            );
            for d in &node.decorators {
                let owner = Owner::Decorator {
                    node: node.guid.clone(),
                    decorator: d.guid.clone(),
                };
                scan(owner, types.decorator(&d.kind), &d.params);
            }
        }
        out
    }

    // ---- Connections --------------------------------------------------------------------

    /// Whether `child` may become a child of `parent`; the error is a sentence for the
    /// user. Refused: self-loops, cycles, a second parent, a second child under a
    /// one-child decorator, any child under a leaf. A parent of unknown type is allowed
    /// (validation reports the unknown type itself).
    pub fn can_connect(&self, types: &NodeTypes, parent: &str, child: &str) -> Result<(), String> {
        let (Some(p), Some(c)) = (self.node(parent), self.node(child)) else {
            return Err("that node no longer exists".to_owned());
        };
        let (pl, cl) = (self.label(parent), self.label(child));
        if parent == child {
            return Err(format!("cannot connect \"{pl}\" to itself"));
        }
        if let Some(ty) = types.node(&p.kind) {
            match ty.children() {
                ChildCount::None => {
                    let what = match ty.category {
                        Category::Action => "an action",
                        Category::Condition => "a condition",
                        Category::Subtree => "a subtree reference (its child comes from its file)",
                        _ => "a leaf",
                    };
                    return Err(format!("\"{pl}\" is {what} and cannot have children"));
                }
                ChildCount::One if !p.children.is_empty() => {
                    return Err(format!(
                        "\"{pl}\" ({}) takes one child and already has \"{}\"",
                        p.kind,
                        self.label(&p.children[0])
                    ));
                }
                ChildCount::Range { max, .. } if p.children.len() >= max => {
                    return Err(format!(
                        "\"{pl}\" ({}) takes at most {max} children and has them all",
                        p.kind
                    ));
                }
                _ => {}
            }
        }
        if let Some(other) = self.parent_of(&c.guid) {
            return Err(if other == parent {
                format!("\"{cl}\" is already a child of \"{pl}\"")
            } else {
                format!(
                    "\"{cl}\" already has a parent (\"{}\"); a node has one parent: disconnect it first",
                    self.label(other)
                )
            });
        }
        if self.is_ancestor_or_self(child, parent) {
            return Err(format!(
                "connecting would make a cycle: \"{cl}\" is above \"{pl}\""
            ));
        }
        Ok(())
    }

    // ---- Internals for commands ---------------------------------------------------------

    pub(crate) fn node_mut(&mut self, guid: &str) -> Option<&mut NodeDef> {
        let i = self.index.find(&self.file.nodes, guid)?;
        self.file.nodes.get_mut(i)
    }

    pub(crate) fn params_mut(&mut self, owner: &Owner) -> Option<&mut Map<String, Value>> {
        match owner {
            Owner::Node(guid) => self.node_mut(guid).map(|n| &mut n.params),
            Owner::Decorator { node, decorator } => self
                .node_mut(node)?
                .decorators
                .iter_mut()
                .find(|d| d.guid == *decorator)
                .map(|d| &mut d.params),
        }
    }

    /// Sets (or clears) a node's position; returns the previous one.
    pub(crate) fn set_position(&mut self, guid: &str, pos: Option<Pos>) -> Option<Pos> {
        match pos {
            Some(p) => self.editor.positions.insert(guid.to_owned(), p),
            None => self.editor.positions.remove(guid),
        }
    }

    /// The y used to order children (the layout runs left to right, so siblings stack top
    /// to bottom); nodes without a position sort after the others.
    pub(crate) fn order_y(&self, guid: &str) -> f64 {
        self.position(guid).map_or(f64::INFINITY, |p| p[1])
    }

    /// `parent`'s children sorted top to bottom by y (stable: equal y keeps the order).
    pub(crate) fn children_sorted_by_y(&self, parent: &str) -> Vec<String> {
        let mut children = self.children(parent).to_vec();
        children.sort_by(|a, b| self.order_y(a).total_cmp(&self.order_y(b)));
        children
    }

    /// Indices of the nodes in canonical (saved) order; see [`Document::to_tree_file`].
    fn canonical_order(&self) -> Vec<usize> {
        let links = Links::new(&self.file.nodes);
        let n = self.file.nodes.len();
        let mut visited = vec![false; n];
        let mut out = Vec::with_capacity(n);
        let root = self.root().and_then(|r| links.index.get(r)).copied();
        let tops = (0..n).filter(|&i| links.parent[i].is_none() && Some(i) != root);
        // Whatever no top reaches (cycles in a hand-edited file) comes last, so no node is
        // ever dropped from a save.
        let starts: Vec<usize> = root.into_iter().chain(tops).chain(0..n).collect();
        for start in starts {
            self.preorder(start, &links, &mut visited, &mut |i| out.push(i));
        }
        out
    }

    /// Iterative pre-order walk (a hostile file cannot overflow the stack).
    fn preorder(
        &self,
        start: usize,
        links: &Links<'_>,
        visited: &mut [bool],
        visit: &mut dyn FnMut(usize),
    ) {
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            if visited[i] {
                continue;
            }
            visited[i] = true;
            visit(i);
            for child in self.file.nodes[i].children.iter().rev() {
                if let Some(&c) = links.index.get(child.as_str()) {
                    if !visited[c] {
                        stack.push(c);
                    }
                }
            }
        }
    }
}

/// A small document for tests, here and in `arbor-editor`'s (feature `fixtures`).
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures {
    use super::*;

    /// Sequence(a) -> [Wait(b), Inverter(c) -> Wait(d)], plus an unconnected Log(e) -> none.
    /// Returns the document and the GUIDs a..e.
    pub fn sample() -> (Document, [String; 5]) {
        let mut doc = Document::new("sample");
        let mk = |kind: &str| NodeDef::new(kind);
        let (mut a, b, mut c, d, e) = (
            mk("Sequence"),
            mk("Wait"),
            mk("Inverter"),
            mk("Wait"),
            mk("Log"),
        );
        a.children = vec![b.guid.clone(), c.guid.clone()];
        c.children = vec![d.guid.clone()];
        let guids = [
            a.guid.clone(),
            b.guid.clone(),
            c.guid.clone(),
            d.guid.clone(),
            e.guid.clone(),
        ];
        doc.file.root = Some(a.guid.clone());
        // Stored order deliberately not canonical.
        doc.file.nodes = vec![e, d, c, b, a];
        for (i, g) in guids.iter().enumerate() {
            doc.editor
                .positions
                .insert(g.clone(), [i as f64 * 100.0, i as f64 * 50.0]);
        }
        (doc, guids)
    }

    /// The text of a merged file with one conflict: B's `seconds`, 2 in the base, 5 ours
    /// (what the file holds), 7 theirs.
    pub fn conflicted_text() -> String {
        let g = |n: u32| format!("00000000-0000-4000-8000-{n:012}");
        serde_json::json!({
            "format": "arbor-tree", "version": 3, "guid": g(0), "name": "t", "root": g(1),
            "nodes": [
                {"guid": g(1), "name": "Root", "type": "Sequence", "children": [g(2)]},
                {"guid": g(2), "name": "B", "type": "Wait", "params": {"seconds": 5.0}}
            ],
            "conflicts": [{"scope": "node", "id": g(2), "field": "params.seconds",
                           "message": "changed differently on the two sides; kept ours",
                           "base": 2.0, "ours": 5.0, "theirs": 7.0}]
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::sample;
    use super::*;
    use serde_json::json;

    #[test]
    fn a_file_without_editor_data_opens_laid_out_not_piled_up() {
        let text = json!({
            "format": "arbor-tree", "version": 2,
            "guid": "6e0a0000-0000-4000-8000-000000000000", "name": "plain",
            "root": "6e0a0000-0000-4000-8000-000000000001",
            "nodes": [
                {"guid": "6e0a0000-0000-4000-8000-000000000001", "name": "s", "type": "Sequence",
                 "children": ["6e0a0000-0000-4000-8000-000000000002", "6e0a0000-0000-4000-8000-000000000003"]},
                {"guid": "6e0a0000-0000-4000-8000-000000000002", "name": "a", "type": "Succeeder"},
                {"guid": "6e0a0000-0000-4000-8000-000000000003", "name": "b", "type": "Succeeder"}
            ]
        })
        .to_string();
        let doc = crate::document::io::load_str(&text, None).expect("loads");
        let mut placed: Vec<Pos> = doc
            .file
            .nodes
            .iter()
            .map(|n| doc.position(&n.guid).expect("every node has a place"))
            .collect();
        placed.sort_by(|a, b| a.partial_cmp(b).expect("finite"));
        placed.dedup();
        assert_eq!(placed.len(), 3, "three distinct places: {placed:?}");
        // Derived places are shown, not saved: the file saves back as it was.
        assert!(
            doc.to_tree_file().editor.is_none(),
            "{:?}",
            doc.to_tree_file().editor
        );
    }

    #[test]
    fn structure_queries() {
        let (doc, [a, b, c, d, e]) = sample();
        assert_eq!(doc.parent_of(&b), Some(a.as_str()));
        assert_eq!(doc.parent_of(&a), None);
        assert_eq!(doc.children(&a), [b.clone(), c.clone()]);
        assert_eq!(doc.execution_order(), [&a, &b, &c, &d]);
        assert_eq!(doc.execution_index()[&d], 3);
        assert_eq!(doc.unconnected(), [&e]);
        assert_eq!(doc.unconnected_tops(), [&e]);
        assert!(doc.is_ancestor_or_self(&a, &d));
        assert_eq!(doc.subtree(&c), [&c, &d]);
        assert!(doc.subtree("gone").is_empty());
        assert!(!doc.is_ancestor_or_self(&d, &a));
    }

    #[test]
    fn saved_order_is_depth_first_then_unconnected() {
        let (doc, [a, b, c, d, e]) = sample();
        let file = doc.to_tree_file();
        let order: Vec<&str> = file.nodes.iter().map(|n| n.guid.as_str()).collect();
        assert_eq!(order, [&a, &b, &c, &d, &e]);
        assert!(file.editor.is_some());
    }

    #[test]
    fn can_connect_refuses_with_reasons() {
        let types = NodeTypes::builtin();
        let (doc, [a, b, c, d, e]) = sample();
        let err = doc.can_connect(&types, &b, &e).unwrap_err();
        assert!(
            err.contains("is an action and cannot have children"),
            "{err}"
        );
        let err = doc.can_connect(&types, &c, &e).unwrap_err();
        assert!(err.contains("takes one child and already has"), "{err}");
        let err = doc.can_connect(&types, &a, &d).unwrap_err();
        assert!(err.contains("already has a parent"), "{err}");
        let err = doc.can_connect(&types, &a, &a).unwrap_err();
        assert!(err.contains("to itself"), "{err}");
        assert!(doc.can_connect(&types, &a, &e).is_ok());
    }

    #[test]
    fn can_connect_refuses_cycles() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let mut top = NodeDef::new("Sequence");
        let mut mid = NodeDef::new("Sequence");
        let low = NodeDef::new("Sequence");
        mid.children.push(low.guid.clone());
        top.children.push(mid.guid.clone());
        let (t, l) = (top.guid.clone(), low.guid.clone());
        doc.file.nodes = vec![top, mid, low];
        let err = doc.can_connect(&types, &l, &t).unwrap_err();
        assert!(err.contains("cycle"), "{err}");
    }

    #[test]
    fn can_connect_stops_a_positional_composite_at_its_last_role() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let mut ite = NodeDef::new("IfThenElse");
        let branches: Vec<NodeDef> = (0..4).map(|_| NodeDef::new("Wait")).collect();
        ite.children = branches[..3].iter().map(|b| b.guid.clone()).collect();
        let (i, extra) = (ite.guid.clone(), branches[3].guid.clone());
        doc.file.nodes = std::iter::once(ite).chain(branches).collect();
        let err = doc.can_connect(&types, &i, &extra).unwrap_err();
        assert!(err.contains("takes at most 3 children"), "{err}");
        doc.file.nodes[0].children.pop();
        assert!(doc.can_connect(&types, &i, &extra).is_ok());
    }

    #[test]
    fn key_usages_finds_key_params_and_key_maps() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let mut cond = NodeDef::new("Condition");
        cond.params.insert("key".into(), json!("hp"));
        cond.params.insert("equals".into(), json!("hp")); // a value, not a key reference
        let mut sub = NodeDef::new("Subtree");
        sub.params
            .insert("remap".into(), json!({"health": "hp", "other": "x"}));
        let mut deco = DecoratorDef::new("Condition");
        deco.params.insert("key".into(), json!("hp"));
        sub.decorators.push(deco.clone());
        let (cg, sg) = (cond.guid.clone(), sub.guid.clone());
        doc.file.nodes = vec![cond, sub];
        let usages = doc.key_usages(&types, "hp");
        assert_eq!(usages.len(), 3, "{usages:?}");
        assert!(usages.contains(&KeyUsage {
            owner: Owner::Node(cg),
            param: "key".into(),
            entry: None,
            access: Direction::In,
        }));
        assert!(usages.contains(&KeyUsage {
            owner: Owner::Node(sg.clone()),
            param: "remap".into(),
            entry: Some("health".into()),
            access: Direction::InOut,
        }));
        assert!(usages.contains(&KeyUsage {
            owner: Owner::Decorator {
                node: sg,
                decorator: deco.guid
            },
            param: "key".into(),
            entry: None,
            access: Direction::In,
        }));
        assert!(doc.key_usages(&types, "x").len() == 1);
    }

    #[test]
    fn key_usages_find_bindings_with_their_direction() {
        let types = NodeTypes::builtin();
        let mut doc = Document::new("t");
        let mut set = NodeDef::new("SetBlackboard");
        set.params.insert("key".into(), json!("dst"));
        set.params.insert("value".into(), json!({"$key": "src"}));
        let mut wait = NodeDef::new("Wait");
        wait.params.insert("seconds".into(), json!({"$key": "src"}));
        let (sg, wg) = (set.guid.clone(), wait.guid.clone());
        doc.file.nodes = vec![set, wait];
        let src = doc.key_usages(&types, "src");
        let readers: Vec<&str> = src.iter().map(|u| u.owner.node()).collect();
        assert_eq!(readers, [sg.as_str(), wg.as_str()]);
        assert!(src.iter().all(|u| u.access == Direction::In));
        let dst = doc.key_usages(&types, "dst");
        assert_eq!(dst.len(), 1);
        assert_eq!(
            dst[0].access,
            Direction::Out,
            "SetBlackboard writes its key"
        );
    }

    #[test]
    fn broken_structure_is_tolerated() {
        // A cycle and a node listed twice: queries terminate and saving keeps every node.
        let mut doc = Document::new("t");
        let mut x = NodeDef::new("Sequence");
        let mut y = NodeDef::new("Sequence");
        x.children.push(y.guid.clone());
        y.children.push(x.guid.clone());
        y.children.push("not-a-node".into());
        let (xg, yg) = (x.guid.clone(), y.guid.clone());
        doc.file.root = Some(xg.clone());
        doc.file.nodes = vec![x, y];
        assert_eq!(doc.execution_order(), [&xg, &yg]);
        assert_eq!(doc.to_tree_file().nodes.len(), 2);
        assert!(!doc.is_ancestor_or_self("zzz", &xg));
    }

    #[test]
    fn bounds_cover_nodes_notes_and_groups() {
        let (mut doc, _) = sample();
        doc.editor.notes.push(Note {
            pos: [-10.0, 0.0],
            size: [5.0, 5.0],
            ..Note::default()
        });
        let b = doc.bounds().unwrap();
        assert_eq!(b.min, [-10.0, 0.0]);
        assert_eq!(b.max, [400.0, 200.0]);
        assert_eq!(Document::new("e").bounds(), None);
    }

    #[test]
    fn bad_editor_data_is_a_located_load_error() {
        let mut file = TreeFile::new("t");
        file.editor = Some(json!({"positions": []}));
        let err = Document::from_tree_file(file, Some(Path::new("x.json"))).unwrap_err();
        let p = &err.problems[0];
        assert_eq!(p.json_path, "$.editor.positions");
        assert_eq!(&*p.file, "x.json");
    }
}
