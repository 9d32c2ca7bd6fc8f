//! Comparison: the document against another version of its tree, mapped from the runtime's
//! semantic diff to what the compare view draws.
//!
//! The diff runs from the other version (old) to the document (new), so "added" means the
//! document has it and the other version does not. Its changes, sorted by part, become:
//! - one [`Entry`] per part (node, decorator, key, note, group, the tree), the list the
//!   view steps through; a decorator's entry points at the node it is attached to;
//! - one [`NodeMark`] per node of the document that differs: added, changed (its fields,
//!   parameters, decorators or the order of its children; the details say what) or only
//!   moved (another parent, another place on the canvas);
//! - one [`Ghost`] per node only the other version has, at its old place on the canvas.
//!
//! Invariant: the marks, ghosts and entries always describe the document last given to
//! [`Comparison::new`] or [`Comparison::update`]; the view calls `update` when the
//! document's generation changes, so an edit made while comparing shows at once. Linear
//! in the size of the two trees (the diff's cost).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use arbor_runtime::format::TreeFile;
use arbor_runtime::merge::{diff, Change, ChangeKind, Scope};
use serde_json::Value;

/// How a part differs, as the list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Only the document has it.
    Added,
    /// Only the other version has it.
    Removed,
    /// Both have it, with different fields.
    Changed,
    /// Both have it; only its place differs (parent, order, canvas position).
    Moved,
}

/// Where stepping to an entry takes the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A node of the document (for a decorator: the node it is attached to).
    Node(String),
    /// A node only the other version has, drawn as a ghost.
    Ghost(String),
    /// Nothing on the canvas (a blackboard key, the tree's own fields, an annotation).
    None,
}

/// One part that differs, with what differs about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub kind: EntryKind,
    pub scope: Scope,
    /// The part's GUID or key name (empty for the tree).
    pub id: String,
    /// The part for people (the runtime diff's label).
    pub label: String,
    /// One line per changed field: `params.seconds: 2.0 → 5.0`.
    pub details: Vec<String>,
    /// A node whose parent differs.
    pub reparented: bool,
    pub target: Target,
}

/// How a node of the document is marked on the canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Added,
    Changed,
    /// Only its place differs.
    Moved,
}

/// A node of the document that differs from the other version.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeMark {
    pub kind: MarkKind,
    /// Its parent differs (whatever `kind` says): it was moved to another branch.
    pub moved: bool,
    /// What differs, one line each (for the tooltip and the inspector).
    pub details: Vec<String>,
}

/// A node only the other version has: drawn faded at its old place.
#[derive(Clone, Debug, PartialEq)]
pub struct Ghost {
    pub guid: String,
    pub name: String,
    pub kind: String,
    /// Its old place on the canvas (none if the other version had no position for it).
    pub pos: Option<[f64; 2]>,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// What the document is compared with, for people: a path, or `HEAD:trees/a.json`.
    label: String,
    other: TreeFile,
    entries: Vec<Entry>,
    /// Shared with the canvas, which reads them every frame.
    marks: Arc<HashMap<String, NodeMark>>,
    ghosts: Arc<Vec<Ghost>>,
    /// The entry stepped to, if any.
    cursor: Option<usize>,
}

impl Comparison {
    /// `current` (the document as a file) compared with `other`, labelled `label`.
    pub fn new(label: impl Into<String>, other: TreeFile, current: &TreeFile) -> Comparison {
        let mut c = Comparison {
            label: label.into(),
            other,
            entries: Vec::new(),
            marks: Arc::default(),
            ghosts: Arc::default(),
            cursor: None,
        };
        c.update(current);
        c
    }

    /// Recomputes the difference for the document as it is now; the entry stepped to stays
    /// the same part if it still differs.
    pub fn update(&mut self, current: &TreeFile) {
        let stepped = self.current().map(|e| (e.scope, e.id.clone()));
        let changes = diff(&self.other, current);
        let present: HashSet<&str> = current.nodes.iter().map(|n| n.guid.as_str()).collect();
        let ghosts = ghosts(&changes);
        let ghosted: HashSet<&str> = ghosts.iter().map(|g| g.guid.as_str()).collect();
        let owners = owners(&self.other, current);
        let target = |scope: Scope, id: &str| {
            let node = match scope {
                Scope::Node => Some(id),
                Scope::Decorator => owners.get(id).map(String::as_str),
                _ => None,
            };
            match node {
                Some(n) if present.contains(n) => Target::Node(n.to_owned()),
                Some(n) if ghosted.contains(n) => Target::Ghost(n.to_owned()),
                _ => Target::None,
            }
        };
        let mut entries: Vec<Entry> = Vec::new();
        for part in changes.chunk_by(|a, b| a.scope == b.scope && a.id == b.id) {
            let first = &part[0];
            entries.push(Entry {
                kind: entry_kind(part),
                scope: first.scope,
                id: first.id.clone(),
                label: first.label.clone(),
                details: part.iter().map(detail).collect(),
                reparented: part.iter().any(|c| c.kind == ChangeKind::NodeMoved),
                target: target(first.scope, &first.id),
            });
        }
        let mut marks: HashMap<String, NodeMark> = HashMap::new();
        for e in &entries {
            let Target::Node(guid) = &e.target else {
                continue;
            };
            let (kind, moved, details) = match e.scope {
                Scope::Node => {
                    let kind = match e.kind {
                        EntryKind::Added => MarkKind::Added,
                        EntryKind::Moved => MarkKind::Moved,
                        EntryKind::Changed | EntryKind::Removed => MarkKind::Changed,
                    };
                    (kind, e.reparented, e.details.clone())
                }
                // A decorator that differs is a change of the node it is attached to.
                _ => {
                    let what = format!("decorator {}", e.label);
                    let details = e.details.iter().map(|d| format!("{what}: {d}")).collect();
                    (MarkKind::Changed, false, details)
                }
            };
            let mark = marks.entry(guid.clone()).or_insert(NodeMark {
                kind,
                moved: false,
                details: Vec::new(),
            });
            mark.kind = stronger(mark.kind, kind);
            mark.moved |= moved;
            mark.details.extend(details);
        }
        self.cursor = stepped
            .and_then(|(scope, id)| entries.iter().position(|e| e.scope == scope && e.id == id))
            .or_else(|| self.cursor.map(|i| i.min(entries.len().saturating_sub(1))))
            .filter(|_| !entries.is_empty());
        self.entries = entries;
        self.marks = Arc::new(marks);
        self.ghosts = Arc::new(ghosts);
    }

    /// What the document is compared with.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The parts that differ, in the runtime diff's order (tree, keys, nodes, decorators,
    /// notes, groups; by identity within each).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The marks of the document's nodes that differ, by GUID.
    pub fn marks(&self) -> &Arc<HashMap<String, NodeMark>> {
        &self.marks
    }

    pub fn mark(&self, guid: &str) -> Option<&NodeMark> {
        self.marks.get(guid)
    }

    /// The nodes only the other version has.
    pub fn ghosts(&self) -> &Arc<Vec<Ghost>> {
        &self.ghosts
    }

    /// Whether the two versions are the same tree.
    pub fn is_same(&self) -> bool {
        self.entries.is_empty()
    }

    /// The index of the entry stepped to.
    pub fn cursor(&self) -> Option<usize> {
        self.cursor
    }

    /// The entry stepped to.
    pub fn current(&self) -> Option<&Entry> {
        self.entries.get(self.cursor?)
    }

    /// Steps to entry `i` (ignored when there is none).
    pub fn select(&mut self, i: usize) -> Option<&Entry> {
        if i < self.entries.len() {
            self.cursor = Some(i);
        }
        self.current()
    }

    /// Steps to the next entry, from the last back to the first.
    pub fn step_next(&mut self) -> Option<&Entry> {
        let n = self.entries.len();
        if n == 0 {
            return None;
        }
        self.cursor = Some(self.cursor.map_or(0, |i| (i + 1) % n));
        self.current()
    }

    /// Steps to the previous entry, from the first back to the last.
    pub fn step_previous(&mut self) -> Option<&Entry> {
        let n = self.entries.len();
        if n == 0 {
            return None;
        }
        self.cursor = Some(self.cursor.map_or(n - 1, |i| (i + n - 1) % n));
        self.current()
    }
}

/// How a part's changes read in the list.
fn entry_kind(part: &[Change]) -> EntryKind {
    use ChangeKind::*;
    let any = |kinds: &[ChangeKind]| part.iter().any(|c| kinds.contains(&c.kind));
    if any(&[NodeAdded, DecoratorAdded, KeyAdded, NoteAdded, GroupAdded]) {
        EntryKind::Added
    } else if any(&[
        NodeRemoved,
        DecoratorRemoved,
        KeyRemoved,
        NoteRemoved,
        GroupRemoved,
    ]) {
        EntryKind::Removed
    } else if part
        .iter()
        .all(|c| matches!(c.kind, NodeMoved | NodeRepositioned))
    {
        EntryKind::Moved
    } else {
        EntryKind::Changed
    }
}

/// The stronger of two marks of one node: added, then changed, then moved.
fn stronger(a: MarkKind, b: MarkKind) -> MarkKind {
    let rank = |k| match k {
        MarkKind::Added => 2,
        MarkKind::Changed => 1,
        MarkKind::Moved => 0,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// One change for people: `params.seconds: 2.0 → 5.0`, or what happened to the part.
fn detail(c: &Change) -> String {
    let shown = |v: &Option<Value>| v.as_ref().map_or("(none)".to_owned(), short);
    if c.field.is_empty() {
        return match (&c.old, &c.new) {
            (None, Some(_)) => "added".to_owned(),
            (Some(_), None) => "removed".to_owned(),
            _ => format!("{}: {} → {}", c.kind.as_str(), shown(&c.old), shown(&c.new)),
        };
    }
    format!("{}: {} → {}", c.field, shown(&c.old), shown(&c.new))
}

/// A JSON value in at most 40 characters.
fn short(v: &Value) -> String {
    let text = v.to_string();
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// The nodes the diff reports removed, from their old fields.
fn ghosts(changes: &[Change]) -> Vec<Ghost> {
    changes
        .iter()
        .filter(|c| c.kind == ChangeKind::NodeRemoved)
        .map(|c| {
            let old = c.old.as_ref();
            let text = |k: &str| {
                old.and_then(|o| o.get(k))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let pos = old.and_then(|o| o.get("position")).and_then(|p| {
                let x = p.get(0)?.as_f64()?;
                let y = p.get(1)?.as_f64()?;
                (x.is_finite() && y.is_finite()).then_some([x, y])
            });
            Ghost {
                guid: c.id.clone(),
                name: text("name"),
                kind: text("type"),
                pos,
            }
        })
        .collect()
}

/// Which node each decorator is attached to: in the document, else in the other version
/// (a decorator removed, or removed with its node).
fn owners(other: &TreeFile, current: &TreeFile) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for file in [other, current] {
        for n in &file.nodes {
            for d in &n.decorators {
                out.insert(d.guid.clone(), n.guid.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn g(n: u32) -> String {
        format!("00000000-0000-4000-8000-{n:012}")
    }

    /// Root (Sequence) → A (Wait 1 s, with a Cooldown), B (Wait 2 s); C unconnected.
    fn base() -> Value {
        json!({
            "format": "arbor-tree", "version": 3, "guid": g(0), "name": "t", "root": g(1),
            "blackboard": [{"key": "hp", "type": "int"}],
            "nodes": [
                {"guid": g(1), "name": "Root", "type": "Sequence", "children": [g(2), g(3)]},
                {"guid": g(2), "name": "A", "type": "Wait", "params": {"seconds": 1.0},
                 "decorators": [{"guid": g(9), "name": "Cool", "type": "Cooldown",
                                 "params": {"seconds": 3.0}}]},
                {"guid": g(3), "name": "B", "type": "Wait", "params": {"seconds": 2.0}},
                {"guid": g(4), "name": "C", "type": "Wait", "params": {"seconds": 4.0}}
            ],
            "editor": {"positions": {
                g(1): [0.0, 0.0], g(2): [300.0, 0.0], g(3): [300.0, 120.0], g(4): [600.0, 300.0]
            }}
        })
    }

    fn file(v: &Value) -> TreeFile {
        arbor_runtime::merge::tree_from_str(&v.to_string(), None).unwrap()
    }

    fn nodes(v: &mut Value) -> &mut Vec<Value> {
        v["nodes"].as_array_mut().unwrap()
    }

    #[test]
    fn the_same_tree_has_no_entries_marks_or_ghosts() {
        let c = Comparison::new("HEAD", file(&base()), &file(&base()));
        assert!(c.is_same());
        assert!(c.marks().is_empty() && c.ghosts().is_empty());
        assert_eq!(c.current(), None);
    }

    #[test]
    fn added_changed_moved_and_removed_nodes_are_mapped_for_the_canvas() {
        let mut now = base();
        // B's seconds changed; C removed; D added under Root; A moved down the canvas.
        nodes(&mut now)[2]["params"]["seconds"] = json!(5.0);
        nodes(&mut now).remove(3);
        nodes(&mut now).push(json!({"guid": g(5), "name": "D", "type": "Wait"}));
        nodes(&mut now)[0]["children"] = json!([g(2), g(3), g(5)]);
        now["editor"]["positions"] = json!({g(1): [0.0, 0.0], g(2): [300.0, 40.0],
                                           g(3): [300.0, 120.0], g(5): [300.0, 240.0]});
        let c = Comparison::new("other.json", file(&base()), &file(&now));

        let b = c.mark(&g(3)).unwrap();
        assert_eq!(b.kind, MarkKind::Changed);
        assert_eq!(b.details, ["params.seconds: 2.0 → 5.0"]);
        assert_eq!(c.mark(&g(5)).unwrap().kind, MarkKind::Added);
        let a = c.mark(&g(2)).unwrap();
        assert_eq!((a.kind, a.moved), (MarkKind::Moved, false));
        assert_eq!(a.details, ["position: [300.0,0.0] → [300.0,40.0]"]);
        assert_eq!(
            c.mark(&g(1)),
            None,
            "Root's children grew, in the same order"
        );
        assert_eq!(
            *c.ghosts().as_slice(),
            [Ghost {
                guid: g(4),
                name: "C".into(),
                kind: "Wait".into(),
                pos: Some([600.0, 300.0]),
            }]
        );
        let removed = c.entries().iter().find(|e| e.id == g(4)).unwrap();
        assert_eq!(removed.kind, EntryKind::Removed);
        assert_eq!(removed.target, Target::Ghost(g(4)));
    }

    #[test]
    fn a_reparented_node_is_marked_moved_as_well_as_changed() {
        let mut now = base();
        // B goes under... A cannot hold children: make C Root's child instead, and rename it.
        nodes(&mut now)[0]["children"] = json!([g(2), g(3), g(4)]);
        nodes(&mut now)[3]["name"] = json!("C2");
        let c = Comparison::new("x", file(&base()), &file(&now));
        let mark = c.mark(&g(4)).unwrap();
        assert_eq!((mark.kind, mark.moved), (MarkKind::Changed, true));
        assert!(mark.details.iter().any(|d| d == "name: \"C\" → \"C2\""));
    }

    #[test]
    fn a_decorator_change_marks_the_node_it_is_attached_to() {
        let mut now = base();
        nodes(&mut now)[1]["decorators"][0]["params"]["seconds"] = json!(9.0);
        let c = Comparison::new("x", file(&base()), &file(&now));
        let entry = &c.entries()[0];
        assert_eq!(
            (entry.scope, &entry.target),
            (Scope::Decorator, &Target::Node(g(2)))
        );
        let a = c.mark(&g(2)).unwrap();
        assert_eq!(a.kind, MarkKind::Changed);
        assert!(
            a.details[0].ends_with(": params.seconds: 3.0 → 9.0"),
            "{:?}",
            a.details
        );
    }

    #[test]
    fn parts_off_the_canvas_are_listed_without_a_target() {
        let mut now = base();
        now["blackboard"] = json!([{"key": "hp", "type": "int"}, {"key": "ammo", "type": "int"}]);
        let c = Comparison::new("x", file(&base()), &file(&now));
        assert_eq!(c.entries().len(), 1);
        let e = &c.entries()[0];
        assert_eq!(
            (e.kind, e.scope, &e.target),
            (EntryKind::Added, Scope::Key, &Target::None)
        );
    }

    #[test]
    fn stepping_wraps_both_ways_and_follows_its_part_through_updates() {
        let mut now = base();
        nodes(&mut now)[1]["name"] = json!("A2");
        nodes(&mut now)[2]["name"] = json!("B2");
        nodes(&mut now)[3]["name"] = json!("C2");
        let mut c = Comparison::new("x", file(&base()), &file(&now));
        let ids: Vec<String> = c.entries().iter().map(|e| e.id.clone()).collect();
        assert_eq!(ids, [g(2), g(3), g(4)]);
        assert_eq!(
            c.step_previous().map(|e| e.id.clone()),
            Some(g(4)),
            "from none to the last"
        );
        assert_eq!(
            c.step_next().map(|e| e.id.clone()),
            Some(g(2)),
            "from the last to the first"
        );
        assert_eq!(c.step_next().map(|e| e.id.clone()), Some(g(3)));
        // B's rename undone: the list loses B, and the cursor moves on to the next part.
        nodes(&mut now)[2]["name"] = json!("B");
        c.update(&file(&now));
        assert_eq!(c.entries().len(), 2);
        assert_eq!(c.current().map(|e| e.id.clone()), Some(g(4)));
        // A renamed back too: C stays the one stepped to.
        nodes(&mut now)[1]["name"] = json!("A");
        c.update(&file(&now));
        assert_eq!(c.current().map(|e| e.id.clone()), Some(g(4)));
        nodes(&mut now)[3]["name"] = json!("C");
        c.update(&file(&now));
        assert!(c.is_same() && c.current().is_none() && c.step_next().is_none());
    }
}
