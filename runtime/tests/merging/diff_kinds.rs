//! Every kind of change `diff` reports, each from one edit of the base tree.

use arbor_runtime::format::{DecoratorDef, KeyDecl, TreeFile};
use arbor_runtime::merge::{diff, ChangeKind};
use arbor_runtime::ValueType;
use serde_json::json;

use super::cases::*;
use crate::common::guid;

/// The (kind, id, field) of each change from the base to the base after `edit`.
fn changes(edit: impl FnOnce(&mut TreeFile)) -> Vec<(ChangeKind, String, String)> {
    let base = base();
    diff(&base, &edited(&base, edit))
        .into_iter()
        .map(|c| (c.kind, c.id, c.field))
        .collect()
}

fn one(kind: ChangeKind, n: usize, field: &str) -> Vec<(ChangeKind, String, String)> {
    vec![(kind, guid(n), field.to_owned())]
}

#[test]
fn the_same_tree_has_no_changes() {
    assert_eq!(changes(|_| {}), vec![]);
}

#[test]
fn node_order_in_the_file_is_not_a_change() {
    assert_eq!(changes(|f| f.nodes.reverse()), vec![]);
}

#[test]
fn node_added_and_removed() {
    let added = changes(|f| add_wait(f, C, 30));
    assert_eq!(added, one(ChangeKind::NodeAdded, 30, ""));
    let removed = changes(|f| remove(f, D));
    assert_eq!(removed, one(ChangeKind::NodeRemoved, D, ""));
}

#[test]
fn node_renamed_retyped_and_disabled() {
    assert_eq!(
        changes(|f| node(f, B).name = "Bee".into()),
        one(ChangeKind::NodeRenamed, B, "name")
    );
    assert_eq!(
        changes(|f| node(f, C).kind = "Sequence".into()),
        one(ChangeKind::NodeTypeChanged, C, "type")
    );
    assert_eq!(
        changes(|f| node(f, B).enabled = false),
        one(ChangeKind::NodeEnabledChanged, B, "enabled")
    );
}

#[test]
fn node_moved_to_another_parent() {
    let base = base();
    let after = edited(&base, |f| reparent(f, B, C));
    let all = diff(&base, &after);
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0].kind, ChangeKind::NodeMoved);
    assert_eq!(all[0].old, Some(json!(guid(ROOT))));
    assert_eq!(all[0].new, Some(json!(guid(C))));
}

#[test]
fn children_reordered() {
    let all = changes(|f| node(f, ROOT).children.reverse());
    assert_eq!(all, one(ChangeKind::ChildrenReordered, ROOT, "children"));
}

#[test]
fn node_repositioned() {
    let all = changes(|f| editor_member(f, "positions")[guid(A)] = json!([5.0, 5.0]));
    assert_eq!(all, one(ChangeKind::NodeRepositioned, A, "position"));
}

#[test]
fn params_and_bindings() {
    assert_eq!(
        changes(|f| {
            node(f, B).params.insert("seconds".into(), json!(9.0));
        }),
        one(ChangeKind::ParamChanged, B, "params.seconds")
    );
    assert_eq!(
        changes(|f| {
            node(f, B).params.remove("seconds");
        }),
        one(ChangeKind::ParamChanged, B, "params.seconds")
    );
    assert_eq!(
        changes(|f| {
            node(f, B)
                .params
                .insert("seconds".into(), json!({"$key": "hp"}));
        }),
        one(ChangeKind::BindingChanged, B, "params.seconds")
    );
}

#[test]
fn decorators_added_removed_changed_and_reordered() {
    assert_eq!(
        changes(|f| node(f, A).decorators.clear()),
        one(ChangeKind::DecoratorRemoved, INVERTER, "")
    );
    assert_eq!(
        changes(|f| node(f, A).decorators[0].name = "Not!".into()),
        one(ChangeKind::DecoratorChanged, INVERTER, "name")
    );
    assert_eq!(
        changes(|f| {
            node(f, A).decorators[0].params.insert("x".into(), json!(1));
        }),
        one(ChangeKind::ParamChanged, INVERTER, "params.x")
    );
    let mut second = DecoratorDef::new("Inverter");
    second.guid = guid(11);
    let with_two = edited(&base(), |f| node(f, A).decorators.push(second.clone()));
    assert_eq!(
        diff(&base(), &with_two)
            .iter()
            .map(|c| (c.kind, c.id.clone()))
            .collect::<Vec<_>>(),
        vec![(ChangeKind::DecoratorAdded, guid(11))]
    );
    let swapped = edited(&with_two, |f| node(f, A).decorators.reverse());
    let all: Vec<_> = diff(&with_two, &swapped).iter().map(|c| c.kind).collect();
    assert_eq!(all, vec![ChangeKind::DecoratorsReordered]);
}

#[test]
fn blackboard_keys() {
    let key = |c: &(ChangeKind, String, String)| (c.0, c.1.clone(), c.2.clone());
    let added = changes(|f| {
        f.blackboard.push(KeyDecl {
            key: "mana".into(),
            ty: ValueType::Float,
            default: None,
            description: String::new(),
            unknown: Default::default(),
        })
    });
    assert_eq!(
        added.iter().map(key).collect::<Vec<_>>(),
        vec![(ChangeKind::KeyAdded, "mana".into(), String::new())]
    );
    let removed = changes(|f| {
        f.blackboard.remove(1);
    });
    assert_eq!(
        removed,
        vec![(ChangeKind::KeyRemoved, "target".into(), String::new())]
    );
    let changed = changes(|f| f.blackboard[0].default = Some(json!(20)));
    assert_eq!(
        changed,
        vec![(ChangeKind::KeyChanged, "hp".into(), "default".into())]
    );
    let reordered = changes(|f| f.blackboard.reverse());
    assert_eq!(
        reordered,
        vec![(
            ChangeKind::KeysReordered,
            String::new(),
            "blackboard".into()
        )]
    );
}

#[test]
fn notes_and_groups() {
    assert_eq!(
        changes(|f| editor_member(f, "notes")[0]["text"] = json!("bye")),
        one(ChangeKind::NoteChanged, NOTE, "text")
    );
    assert_eq!(
        changes(|f| *editor_member(f, "notes") = json!([])),
        one(ChangeKind::NoteRemoved, NOTE, "")
    );
    assert_eq!(
        changes(|f| editor_member(f, "groups")[0]["members"] = json!([guid(A), guid(B)])),
        one(ChangeKind::GroupChanged, GROUP, "members")
    );
    let added = changes(|f| {
        editor_member(f, "groups")
            .as_array_mut()
            .expect("groups")
            .push(json!({"guid": guid(22), "title": "H"}))
    });
    assert_eq!(added, one(ChangeKind::GroupAdded, 22, ""));
}

#[test]
fn tree_and_other_editor_data() {
    let all = changes(|f| f.name = "renamed".into());
    assert_eq!(
        all,
        vec![(ChangeKind::TreeChanged, String::new(), "name".into())]
    );
    let all = changes(|f| {
        f.editor
            .as_mut()
            .and_then(|e| e.as_object_mut())
            .expect("editor")
            .insert("manifests".into(), json!(["m.json"]));
    });
    assert_eq!(
        all,
        vec![(
            ChangeKind::EditorChanged,
            String::new(),
            "editor.manifests".into()
        )]
    );
}

#[test]
fn change_lines_name_the_kind_the_node_and_both_values() {
    let base = base();
    let after = edited(&base, |f| {
        node(f, B).params.insert("seconds".into(), json!(9.0));
    });
    let lines: Vec<String> = diff(&base, &after)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        lines,
        vec![format!(
            "param-changed: node \"B\" (Wait) {} params.seconds: 2.0 -> 9.0",
            guid(B)
        )]
    );
}
