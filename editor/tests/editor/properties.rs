//! Properties of the document model over random command sequences on random small
//! documents:
//! (a) undoing every step restores the original document exactly, step by step, and
//!     redoing them restores each later state, up to the final one;
//! (b) after any sequence of pastes, duplicates and cuts, every GUID is unique;
//! (c) save -> load round-trips: the loaded document saves to the same bytes.
//!
//! A random document is made by random commands on an empty one, so it is whatever users
//! can make (unconnected fragments, decorators, keys, notes, groups, odd floats). Ops are
//! interpreted against the current document: indices pick existing nodes modulo their
//! count, and an op that does not apply is skipped, as the UI would refuse it.
//!
//! Skipping must not make the properties vacuous: each test asserts how many ops were
//! applied (at least every `Add`, which always applies), and
//! `every_kind_of_op_is_applied_in_random_runs` fails if some kind of op never is.

use std::collections::HashSet;

use arbor_editor::commands::{
    inline_subtree, replace_with_subtree, AddDecorator, AddKey, AddNode, BatchBuilder, Command,
    Connect, Disconnect, Item, MoveDecorator, MoveItems, RemoveDecorator, RemoveItems, RemoveKey,
    RenameKey, RetypeKey, SetGroup, SetKeyDefault, SetManifests, SetNote, SetParam, SetRoot,
    SetText, TextField,
};
use arbor_editor::document::{
    extract_subtree, io, Color, Document, Group, LayoutOptions, Note, Owner, Selection,
};
use arbor_editor::Session;
use arbor_runtime::ValueType;
use proptest::prelude::*;
use serde_json::{json, Value};

const KINDS: &[&str] = &[
    "Sequence",
    "Selector",
    "Parallel",
    "Inverter",
    "Repeat",
    "Wait",
    "Log",
    "Condition",
    "SetBlackboard",
    "Subtree",
];
const DECORATORS: &[&str] = &[
    "Condition",
    "Precondition",
    "CheckEvent",
    "CheckTrigger",
    "Inverter",
];
const KEYS: &[&str] = &["hp", "ammo", "target", "zone"];
const TYPES: &[ValueType] = &[
    ValueType::Bool,
    ValueType::Int,
    ValueType::Float,
    ValueType::String,
    ValueType::Json,
];
const ABORTS: &[&str] = &["None", "Self", "LowerPriority", "Both"];

#[derive(Clone, Debug)]
enum Op {
    Add {
        kind: usize,
        x: f64,
        y: f64,
    },
    Remove {
        pick: Vec<usize>,
    },
    Connect {
        parent: usize,
        child: usize,
    },
    Disconnect {
        child: usize,
    },
    Move {
        pick: Vec<usize>,
        dx: f64,
        dy: f64,
        gesture: u8,
    },
    /// Several frames of one drag (they merge into one step).
    Drag {
        pick: Vec<usize>,
        frames: Vec<(f64, f64)>,
        gesture: u8,
    },
    /// Keystrokes in one parameter field (they merge into one step).
    Type {
        node: usize,
        values: Vec<Value>,
        gesture: u8,
    },
    CopyPaste {
        pick: Vec<usize>,
        x: f64,
        y: f64,
    },
    Duplicate {
        pick: Vec<usize>,
        dx: f64,
        dy: f64,
    },
    Cut {
        pick: Vec<usize>,
    },
    PasteTree {
        x: f64,
    },
    SetParam {
        node: usize,
        param: usize,
        value: Value,
        gesture: u8,
    },
    Rename {
        node: usize,
        text: String,
        gesture: u8,
    },
    AddDecorator {
        node: usize,
        kind: usize,
    },
    RemoveDecorator {
        node: usize,
        index: usize,
    },
    MoveDecorator {
        node: usize,
        index: usize,
        to: usize,
    },
    DecoratorParam {
        node: usize,
        index: usize,
        abort: usize,
        gesture: u8,
    },
    AddKey {
        key: usize,
        ty: usize,
        default: Option<Value>,
    },
    RenameKey {
        from: usize,
        to: usize,
    },
    RemoveKey {
        key: usize,
    },
    RetypeKey {
        key: usize,
        ty: usize,
    },
    SetDefault {
        key: usize,
        value: Option<Value>,
        gesture: u8,
    },
    AutoLayout,
    SetRoot {
        node: Option<usize>,
    },
    AddNote {
        text: String,
        x: f64,
    },
    EditNote {
        index: usize,
        color: usize,
        w: f64,
    },
    NoteText {
        index: usize,
        text: String,
        gesture: u8,
    },
    AddGroup {
        pick: Vec<usize>,
    },
    EditGroup {
        index: usize,
        collapsed: bool,
    },
    RemoveNoteOrGroup {
        index: usize,
        note: bool,
    },
    Wrap {
        child: usize,
    },
    Export {
        node: usize,
    },
    Inline {
        node: usize,
        from: usize,
    },
    Manifests {
        on: bool,
    },
    Undo,
    Redo,
}

fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-2000i32..2000).prop_map(f64::from),
        -1.0e6f64..1.0e6,
        Just(0.1),
        Just(-0.0),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i32>().prop_map(|v| json!(v)),
        (-1.0e9f64..1.0e9).prop_map(|v| json!(v)),
        any::<bool>().prop_map(|v| json!(v)),
        (0..KEYS.len()).prop_map(|k| json!(KEYS[k])),
        "[a-zé ]{0,6}".prop_map(|s| json!(s)),
        Just(json!({"health": "hp"})),
    ]
}

fn pick() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..64, 1..4)
}

fn op() -> impl Strategy<Value = Op> {
    let g = 0u8..3;
    prop_oneof![
        4 => (0..KINDS.len(), coord(), coord()).prop_map(|(kind, x, y)| Op::Add { kind, x, y }),
        1 => pick().prop_map(|pick| Op::Remove { pick }),
        6 => (0usize..64, 0usize..64).prop_map(|(parent, child)| Op::Connect { parent, child }),
        1 => (0usize..64).prop_map(|child| Op::Disconnect { child }),
        3 => (pick(), coord(), coord(), g.clone())
            .prop_map(|(pick, dx, dy, gesture)| Op::Move { pick, dx, dy, gesture }),
        2 => (pick(), prop::collection::vec((coord(), coord()), 2..6), g.clone())
            .prop_map(|(pick, frames, gesture)| Op::Drag { pick, frames, gesture }),
        2 => (0usize..64, prop::collection::vec(value(), 2..5), g.clone())
            .prop_map(|(node, values, gesture)| Op::Type { node, values, gesture }),
        2 => (pick(), coord(), coord()).prop_map(|(pick, x, y)| Op::CopyPaste { pick, x, y }),
        1 => (pick(), coord(), coord()).prop_map(|(pick, dx, dy)| Op::Duplicate { pick, dx, dy }),
        1 => pick().prop_map(|pick| Op::Cut { pick }),
        1 => coord().prop_map(|x| Op::PasteTree { x }),
        3 => (0usize..64, 0usize..8, value(), g.clone())
            .prop_map(|(node, param, value, gesture)| Op::SetParam { node, param, value, gesture }),
        2 => (0usize..64, "[A-Za-z ]{0,5}", g.clone())
            .prop_map(|(node, text, gesture)| Op::Rename { node, text, gesture }),
        2 => (0usize..64, 0..DECORATORS.len()).prop_map(|(node, kind)| Op::AddDecorator { node, kind }),
        1 => (0usize..64, 0usize..4).prop_map(|(node, index)| Op::RemoveDecorator { node, index }),
        1 => (0usize..64, 0usize..4, 0usize..4)
            .prop_map(|(node, index, to)| Op::MoveDecorator { node, index, to }),
        1 => (0usize..64, 0usize..4, 0..ABORTS.len(), g.clone())
            .prop_map(|(node, index, abort, gesture)| Op::DecoratorParam { node, index, abort, gesture }),
        2 => (0..KEYS.len(), 0..TYPES.len(), prop::option::of(value()))
            .prop_map(|(key, ty, default)| Op::AddKey { key, ty, default }),
        1 => (0..KEYS.len(), 0..KEYS.len()).prop_map(|(from, to)| Op::RenameKey { from, to }),
        1 => (0..KEYS.len()).prop_map(|key| Op::RemoveKey { key }),
        1 => (0..KEYS.len(), 0..TYPES.len()).prop_map(|(key, ty)| Op::RetypeKey { key, ty }),
        1 => (0..KEYS.len(), prop::option::of(value()), g.clone())
            .prop_map(|(key, value, gesture)| Op::SetDefault { key, value, gesture }),
        1 => Just(Op::AutoLayout),
        1 => prop::option::of(0usize..64).prop_map(|node| Op::SetRoot { node }),
        1 => ("[a-z]{0,8}", coord()).prop_map(|(text, x)| Op::AddNote { text, x }),
        1 => (0usize..8, 0..Color::ALL.len(), coord()).prop_map(|(index, color, w)| Op::EditNote { index, color, w }),
        1 => (0usize..8, "[a-z]{0,8}", g.clone())
            .prop_map(|(index, text, gesture)| Op::NoteText { index, text, gesture }),
        1 => pick().prop_map(|pick| Op::AddGroup { pick }),
        1 => (0usize..8, any::<bool>()).prop_map(|(index, collapsed)| Op::EditGroup { index, collapsed }),
        1 => (0usize..8, any::<bool>()).prop_map(|(index, note)| Op::RemoveNoteOrGroup { index, note }),
        1 => (0usize..64).prop_map(|child| Op::Wrap { child }),
        1 => (0usize..64).prop_map(|node| Op::Export { node }),
        1 => (0usize..64, 0usize..64).prop_map(|(node, from)| Op::Inline { node, from }),
        1 => any::<bool>().prop_map(|on| Op::Manifests { on }),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
    ]
}

fn nth_node(doc: &Document, i: usize) -> Option<String> {
    let n = doc.node_count();
    (n > 0)
        .then(|| doc.nodes().nth(i % n).map(|n| n.guid.clone()))
        .flatten()
}

/// A node that can take children (so random connections mostly succeed).
fn nth_parent(doc: &Document, i: usize) -> Option<String> {
    let types = arbor_runtime::NodeTypes::builtin();
    let parents: Vec<&str> = doc
        .nodes()
        .filter(|n| {
            types
                .node(&n.kind)
                .is_some_and(|t| t.category.children() != arbor_runtime::ChildCount::None)
        })
        .map(|n| n.guid.as_str())
        .collect();
    (!parents.is_empty()).then(|| parents[i % parents.len()].to_owned())
}

/// A node without a parent.
fn nth_orphan(doc: &Document, i: usize) -> Option<String> {
    let tops: Vec<&str> = doc
        .nodes()
        .map(|n| n.guid.as_str())
        .filter(|g| doc.parent_of(g).is_none())
        .collect();
    (!tops.is_empty()).then(|| tops[i % tops.len()].to_owned())
}

fn select(doc: &Document, pick: &[usize]) -> Selection {
    let mut sel = Selection::of_nodes(pick.iter().filter_map(|&i| nth_node(doc, i)));
    // Some notes and groups come along, picked by the same numbers.
    if let Some(&i) = pick.first() {
        if !doc.notes().is_empty() && i % 3 == 0 {
            sel.notes
                .insert(doc.notes()[i % doc.notes().len()].guid.clone());
        }
        if !doc.groups().is_empty() && i % 4 == 0 {
            sel.groups
                .insert(doc.groups()[i % doc.groups().len()].guid.clone());
        }
    }
    sel
}

/// Turns an op into a command against the session's document and applies it; ops that do
/// not apply are skipped. Returns whether the op changed the session (its generation
/// moved), so the tests can count what was applied: a property that holds because every
/// command was refused proves nothing.
fn run(s: &mut Session, op: &Op) -> bool {
    let before = s.generation();
    apply_op(s, op);
    s.generation() != before
}

/// The number of `Op::Add` in `ops`: each always applies (a known kind at a finite
/// position on an editable document), so at least this many ops must change the session.
fn adds(ops: &[Op]) -> usize {
    ops.iter().filter(|op| matches!(op, Op::Add { .. })).count()
}

/// The variant's name, for counting which kinds of op were applied.
fn name(op: &Op) -> String {
    let text = format!("{op:?}");
    text.split([' ', '{', '('])
        .next()
        .unwrap_or_default()
        .to_owned()
}

fn apply_op(s: &mut Session, op: &Op) {
    let doc = s.document().clone();
    let types = s.types().clone();
    let decorator = |node: usize, index: usize| -> Option<(String, String)> {
        let g = nth_node(&doc, node)?;
        let ds = &doc.node(&g)?.decorators;
        (!ds.is_empty()).then(|| (g.clone(), ds[index % ds.len()].guid.clone()))
    };
    let key = |k: usize| KEYS[k].to_owned();
    let cmd: Option<Command> = match op {
        Op::Add { kind, x, y } => {
            let _ = s.add_node(KINDS[*kind], [*x, *y]);
            None
        }
        Op::Remove { pick } => Some(RemoveItems::new(&doc, &select(&doc, pick)).into()),
        Op::Connect { parent, child } => {
            match (nth_parent(&doc, *parent), nth_orphan(&doc, *child)) {
                (Some(p), Some(c)) => Connect::new(&doc, &types, &p, &c).ok().map(Into::into),
                _ => None,
            }
        }
        Op::Disconnect { child } => nth_node(&doc, *child)
            .and_then(|c| Disconnect::from_parent(&doc, &c).ok())
            .map(Into::into),
        Op::Move {
            pick,
            dx,
            dy,
            gesture,
        } => MoveItems::by(&doc, &select(&doc, pick), [*dx, *dy])
            .ok()
            .map(|m| m.gesture(u64::from(*gesture)).into()),
        Op::Drag {
            pick,
            frames,
            gesture,
        } => {
            let sel = select(&doc, pick);
            for (dx, dy) in frames {
                if let Ok(m) = MoveItems::by(s.document(), &sel, [*dx, *dy]) {
                    let _ = s.apply(m.gesture(u64::from(*gesture)));
                }
            }
            None
        }
        Op::Type {
            node,
            values,
            gesture,
        } => {
            if let Some(g) = nth_node(&doc, *node) {
                let name = doc.node(&g).and_then(|n| n.params.keys().next().cloned());
                let name = name.unwrap_or_else(|| "seconds".to_owned());
                for v in values {
                    let owner = Owner::Node(g.clone());
                    if let Ok(c) = SetParam::new(s.document(), owner, &name, Some(v.clone())) {
                        let _ = s.apply(c.gesture(u64::from(*gesture)));
                    }
                }
            }
            None
        }
        Op::CopyPaste { pick, x, y } => {
            let text = s.copy(&select(&doc, pick));
            let _ = s.paste(&text, [*x, *y]);
            None
        }
        Op::Duplicate { pick, dx, dy } => {
            let _ = s.duplicate(&select(&doc, pick), [*dx, *dy]);
            None
        }
        Op::Cut { pick } => {
            let _ = s.cut(&select(&doc, pick));
            None
        }
        Op::PasteTree { x } => {
            let _ = s.paste(&doc.to_json(), [*x, 0.0]);
            None
        }
        Op::SetParam {
            node,
            param,
            value,
            gesture,
        } => nth_node(&doc, *node).and_then(|g| {
            let kind = &doc.node(&g)?.kind;
            let mut names: Vec<String> = types
                .node(kind)
                .map(|t| t.params.iter().map(|p| p.name.clone()).collect())
                .unwrap_or_default();
            names.push("bogus".into());
            let name = &names[param % names.len()];
            let value = (param % 5 != 4).then(|| value.clone());
            SetParam::new(&doc, Owner::Node(g), name, value)
                .ok()
                .map(|c| c.gesture(u64::from(*gesture)).into())
        }),
        Op::Rename {
            node,
            text,
            gesture,
        } => nth_node(&doc, *node).and_then(|g| {
            SetText::new(&doc, TextField::NodeName(g), text.clone())
                .ok()
                .map(|c| c.gesture(u64::from(*gesture)).into())
        }),
        Op::AddDecorator { node, kind } => nth_node(&doc, *node)
            .and_then(|g| AddDecorator::new(&doc, &types, &g, DECORATORS[*kind]).ok())
            .map(Into::into),
        Op::RemoveDecorator { node, index } => decorator(*node, *index)
            .and_then(|(n, d)| RemoveDecorator::new(&doc, &n, &d).ok())
            .map(Into::into),
        Op::MoveDecorator { node, index, to } => {
            // Only a node with two or more decorators has somewhere to move one to: pick
            // among those, or the op would almost never apply.
            let stacked: Vec<_> = doc.nodes().filter(|n| n.decorators.len() > 1).collect();
            (!stacked.is_empty())
                .then(|| {
                    let n = stacked[node % stacked.len()];
                    let d = &n.decorators[index % n.decorators.len()];
                    MoveDecorator::new(&doc, &n.guid, &d.guid, to % n.decorators.len()).ok()
                })
                .flatten()
                .map(Into::into)
        }
        Op::DecoratorParam {
            node,
            index,
            abort,
            gesture,
        } => decorator(*node, *index).and_then(|(node, decorator)| {
            let owner = Owner::Decorator { node, decorator };
            SetParam::new(&doc, owner, "abort", Some(json!(ABORTS[*abort])))
                .ok()
                .map(|c| c.gesture(u64::from(*gesture)).into())
        }),
        Op::AddKey {
            key: k,
            ty,
            default,
        } => Some(AddKey::new(&key(*k), TYPES[*ty], default.clone()).into()),
        Op::RenameKey { from, to } => RenameKey::new(&doc, &types, &key(*from), &key(*to))
            .ok()
            .map(Into::into),
        Op::RemoveKey { key: k } => RemoveKey::new(&doc, &key(*k)).ok().map(Into::into),
        Op::RetypeKey { key: k, ty } => RetypeKey::new(&doc, &key(*k), TYPES[*ty])
            .ok()
            .map(Into::into),
        Op::SetDefault {
            key: k,
            value,
            gesture,
        } => SetKeyDefault::new(&doc, &key(*k), value.clone())
            .ok()
            .map(|c| c.gesture(u64::from(*gesture)).into()),
        Op::AutoLayout => {
            let _ = s.auto_layout(&LayoutOptions::default());
            None
        }
        Op::SetRoot { node } => {
            let g = node.and_then(|n| nth_node(&doc, n));
            SetRoot::new(&doc, g.as_deref()).ok().map(Into::into)
        }
        Op::AddNote { text, x } => Some(
            SetNote::add(Note {
                text: text.clone(),
                pos: [*x, 0.0],
                ..Note::default()
            })
            .into(),
        ),
        Op::EditNote { index, color, w } => (!doc.notes().is_empty()).then(|| {
            let mut n = doc.notes()[index % doc.notes().len()].clone();
            n.color = Color::ALL[*color];
            n.size = [*w, 80.0];
            SetNote::replace(n).into()
        }),
        Op::NoteText {
            index,
            text,
            gesture,
        } => (!doc.notes().is_empty())
            .then(|| {
                let g = doc.notes()[index % doc.notes().len()].guid.clone();
                SetText::new(&doc, TextField::NoteText(g), text.clone())
                    .map(|c| c.gesture(u64::from(*gesture)).into())
                    .ok()
            })
            .flatten(),
        Op::AddGroup { pick } => Some(
            SetGroup::add(Group {
                members: select(&doc, pick).nodes.into_iter().collect(),
                ..Group::default()
            })
            .into(),
        ),
        Op::EditGroup { index, collapsed } => (!doc.groups().is_empty()).then(|| {
            let mut g = doc.groups()[index % doc.groups().len()].clone();
            g.collapsed = *collapsed;
            g.title.push('x');
            SetGroup::replace(g).into()
        }),
        Op::RemoveNoteOrGroup { index, note } => {
            if *note && !doc.notes().is_empty() {
                Some(SetNote::remove(&doc.notes()[index % doc.notes().len()].guid).into())
            } else if !*note && !doc.groups().is_empty() {
                Some(SetGroup::remove(&doc.groups()[index % doc.groups().len()].guid).into())
            } else {
                None
            }
        }
        Op::Wrap { child } => nth_node(&doc, *child).and_then(|c| {
            // "Wrap in a Sequence": one step made of several commands.
            let add = AddNode::new(&types, "Sequence", [0.0, -100.0]).ok()?;
            let wrapper = add.guid().to_owned();
            let mut batch = BatchBuilder::new(&doc, &types);
            if let Some(p) = doc.parent_of(&c) {
                batch.push(Disconnect::new(&doc, p, &c).ok()?).ok()?;
            }
            batch.push(add).ok()?;
            let connect = Connect::new(batch.doc(), &types, &wrapper, &c).ok()?;
            batch.push(connect).ok()?;
            Some(batch.finish("Wrap in Sequence").into())
        }),
        Op::Export { node } => nth_node(&doc, *node)
            .and_then(|g| replace_with_subtree(&doc, &types, &g, "part.json").ok())
            .map(Into::into),
        Op::Inline { node, from } => {
            // Inline the first Subtree node, with a branch of this document as its file.
            let target = doc
                .nodes()
                .find(|n| n.kind == "Subtree")
                .map(|n| n.guid.clone());
            let file =
                nth_node(&doc, *from).and_then(|g| extract_subtree(&doc, &g, &types, "part"));
            let _ = node;
            match (target, file) {
                (Some(t), Some(f)) => inline_subtree(&doc, &types, &t, &f, &Default::default())
                    .ok()
                    .map(|(b, _)| b.into()),
                _ => None,
            }
        }
        Op::Manifests { on } => Some(
            SetManifests::new(if *on {
                vec!["types.json".into()]
            } else {
                vec![]
            })
            .into(),
        ),
        Op::Undo => {
            s.undo();
            None
        }
        Op::Redo => {
            s.redo();
            None
        }
    };
    if let Some(cmd) = cmd {
        let _ = s.apply(cmd);
    }
    // Positions of moved items are of no use here; only that the op did not break
    // anything. `Item` is part of the public API the canvas uses.
    let _ = Item::Node(String::new());
}

fn guids_unique(doc: &Document) -> bool {
    let all = doc.all_guids();
    all.iter().collect::<HashSet<_>>().len() == all.len()
}

/// A random small document: the result of random ops on an empty one, as a fresh session;
/// and how many of the ops were applied.
fn build(setup: &[Op]) -> (Session, usize) {
    let mut s = Session::new(Document::new("random"));
    let applied = setup.iter().filter(|op| run(&mut s, op)).count();
    (Session::new(s.document().clone()), applied)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// (a) Undo restores every earlier state exactly; redo every later one.
    #[test]
    fn undo_all_restores_the_original_and_redo_all_the_final(
        setup in prop::collection::vec(op(), 0..20),
        ops in prop::collection::vec(op(), 1..40),
    ) {
        let (mut s, built) = build(&setup);
        prop_assert!(built >= adds(&setup), "{built} of {} ops applied", setup.len());
        let original = s.document().clone();
        let applied = ops.iter().filter(|op| run(&mut s, op)).count();
        prop_assert!(applied >= adds(&ops), "{applied} of {} ops applied", ops.len());
        while s.redo() {}
        let mut states = vec![s.document().clone()];
        while s.undo() {
            states.push(s.document().clone());
        }
        prop_assert_eq!(s.document(), &original);
        prop_assert!(!s.is_modified());
        // Every applied op left at least one step unless a later op undid it; an added
        // node is one step that only Undo can take away.
        let undos = ops.iter().filter(|op| matches!(op, Op::Undo)).count();
        prop_assert!(states.len() > adds(&ops).saturating_sub(undos), "{} steps", states.len() - 1);
        states.pop();
        while let Some(expected) = states.pop() {
            prop_assert!(s.redo());
            prop_assert_eq!(s.document(), &expected);
        }
        prop_assert!(!s.redo());
    }

    /// (b) Pasting, duplicating and cutting never produce a GUID twice.
    #[test]
    fn guids_stay_unique_through_paste_and_duplicate(
        setup in prop::collection::vec(op(), 0..20),
        ops in prop::collection::vec(
            prop_oneof![
                (pick(), coord(), coord()).prop_map(|(pick, x, y)| Op::CopyPaste { pick, x, y }),
                (pick(), coord(), coord()).prop_map(|(pick, dx, dy)| Op::Duplicate { pick, dx, dy }),
                pick().prop_map(|pick| Op::Cut { pick }),
                coord().prop_map(|x| Op::PasteTree { x }),
                Just(Op::Undo),
                Just(Op::Redo),
                op(),
            ],
            1..30,
        ),
    ) {
        let (mut s, built) = build(&setup);
        prop_assert!(built >= adds(&setup), "{built} of {} ops applied", setup.len());
        prop_assert!(guids_unique(s.document()));
        let mut applied = 0;
        for op in &ops {
            applied += usize::from(run(&mut s, op));
            prop_assert!(guids_unique(s.document()), "after {:?}", op);
        }
        prop_assert!(applied >= adds(&ops), "{applied} of {} ops applied", ops.len());
    }

    /// (c) Save -> load -> save is byte-for-byte, and the loaded document is the same tree.
    #[test]
    fn save_load_round_trips_byte_for_byte(setup in prop::collection::vec(op(), 0..40)) {
        let (s, built) = build(&setup);
        prop_assert!(built >= adds(&setup), "{built} of {} ops applied", setup.len());
        let doc = s.document();
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("tree.json");
        io::save(doc, &path).expect("save");
        let text = std::fs::read_to_string(&path).expect("read back");
        prop_assert_eq!(&text, &doc.to_json());
        let loaded = io::load(&path).expect("a saved document loads");
        prop_assert_eq!(loaded.to_tree_file(), doc.to_tree_file());
        prop_assert_eq!(loaded.editor_data(), doc.editor_data());
        io::save(&loaded, &path).expect("save again");
        prop_assert_eq!(std::fs::read_to_string(&path).expect("read back"), text);
        // The runtime's checks run on anything the editor can make, without panicking.
        let _ = s.validate();
    }
}

/// Every kind of op is applied somewhere in a few hundred random runs: if one kind were
/// always refused (a command that stopped working), the properties above would hold
/// vacuously for it, and this fails instead.
#[test]
fn every_kind_of_op_is_applied_in_random_runs() {
    use proptest::strategy::ValueTree as _;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let ops = prop::collection::vec(op(), 1..60);
    let mut applied: std::collections::BTreeMap<String, usize> = Default::default();
    let mut seen: std::collections::BTreeSet<String> = Default::default();
    for _ in 0..300 {
        let ops = ops.new_tree(&mut runner).expect("ops").current();
        let mut s = Session::new(Document::new("random"));
        for op in &ops {
            seen.insert(name(op));
            if run(&mut s, op) {
                *applied.entry(name(op)).or_default() += 1;
            }
        }
    }
    let never: Vec<&String> = seen.iter().filter(|n| !applied.contains_key(*n)).collect();
    assert!(
        never.is_empty(),
        "never applied: {never:?}; applied: {applied:?}"
    );
    assert!(
        seen.len() >= 30,
        "only {} kinds of op generated",
        seen.len()
    );
}
