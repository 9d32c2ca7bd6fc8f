//! Every merge case: clean merges of changes that do not overlap, and each kind of
//! conflict, with what the result holds and how the loader reports it.

use arbor_runtime::format::{Conflict, TreeFile};
use arbor_runtime::merge::{diff, merge, MergeError};
use serde_json::json;

use super::cases::*;
use crate::common::guid;

/// Merges the base edited two ways.
fn merged(ours: impl FnOnce(&mut TreeFile), theirs: impl FnOnce(&mut TreeFile)) -> TreeFile {
    let base = base();
    merge(&base, &edited(&base, ours), &edited(&base, theirs)).expect("same tree")
}

/// The (scope, id, field) of each conflict.
fn conflicts(file: &TreeFile) -> Vec<(String, String, String)> {
    file.conflicts
        .iter()
        .map(|c: &Conflict| (c.scope.clone(), c.id.clone(), c.field.clone()))
        .collect()
}

fn at(scope: &str, n: usize, field: &str) -> (String, String, String) {
    (scope.to_owned(), guid(n), field.to_owned())
}

#[test]
fn changes_to_different_nodes_merge_cleanly() {
    let out = merged(
        |f| node(f, A).name = "Aa".into(),
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
        },
    );
    assert!(out.conflicts.is_empty(), "{:?}", out.conflicts);
    let expected = edited(&base(), |f| {
        node(f, A).name = "Aa".into();
        node(f, B).params.insert("seconds".into(), json!(5.0));
    });
    assert_eq!(diff(&expected, &out), vec![]);
}

#[test]
fn different_fields_of_one_node_merge_cleanly() {
    let out = merged(
        |f| node(f, B).name = "Bee".into(),
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
        },
    );
    assert!(out.conflicts.is_empty());
    let b = out.nodes.iter().find(|n| n.guid == guid(B)).expect("B");
    assert_eq!(
        (b.name.as_str(), &b.params["seconds"]),
        ("Bee", &json!(5.0))
    );
}

#[test]
fn the_same_change_on_both_sides_is_one_change() {
    let out = merged(
        |f| node(f, B).name = "Bee".into(),
        |f| node(f, B).name = "Bee".into(),
    );
    assert!(out.conflicts.is_empty());
}

#[test]
fn the_same_parameter_changed_two_ways_conflicts_and_keeps_ours() {
    let out = merged(
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
        },
        |f| {
            node(f, B).params.insert("seconds".into(), json!(7.0));
        },
    );
    assert_eq!(conflicts(&out), vec![at("node", B, "params.seconds")]);
    let c = &out.conflicts[0];
    assert_eq!(
        (c.base.clone(), c.ours.clone(), c.theirs.clone()),
        (Some(json!(2.0)), Some(json!(5.0)), Some(json!(7.0)))
    );
    let b = out.nodes.iter().find(|n| n.guid == guid(B)).expect("B");
    assert_eq!(b.params["seconds"], json!(5.0));
}

#[test]
fn deleted_on_one_side_and_edited_on_the_other_keeps_the_node() {
    for ours_deletes in [true, false] {
        let delete = |f: &mut TreeFile| remove(f, B);
        let edit = |f: &mut TreeFile| node(f, B).name = "Bee".into();
        let out = if ours_deletes {
            merged(delete, edit)
        } else {
            merged(edit, delete)
        };
        assert_eq!(conflicts(&out), vec![at("node", B, "")]);
        let b = out
            .nodes
            .iter()
            .find(|n| n.guid == guid(B))
            .expect("B kept");
        assert_eq!(b.name, "Bee");
        let root = out
            .nodes
            .iter()
            .find(|n| n.guid == guid(ROOT))
            .expect("root");
        assert!(root.children.contains(&guid(B)), "kept in its place");
    }
}

#[test]
fn deleted_on_one_side_and_untouched_on_the_other_is_deleted() {
    let out = merged(|f| remove(f, B), |f| node(f, A).name = "Aa".into());
    assert!(out.conflicts.is_empty());
    assert!(out.nodes.iter().all(|n| n.guid != guid(B)));
}

#[test]
fn a_node_moved_on_the_canvas_and_deleted_on_the_other_side_is_deleted() {
    let out = merged(
        |f| remove(f, A),
        |f| editor_member(f, "positions")[guid(A)] = json!([9.0, 9.0]),
    );
    assert!(out.conflicts.is_empty(), "{:?}", out.conflicts);
    assert!(out.nodes.iter().all(|n| n.guid != guid(A)));
}

#[test]
fn a_child_added_under_a_node_the_other_side_deleted_keeps_both() {
    let out = merged(
        |f| add_wait(f, C, 30),
        |f| {
            remove(f, D);
            remove(f, C);
        },
    );
    assert_eq!(conflicts(&out), vec![at("node", C, "")]);
    let c = out
        .nodes
        .iter()
        .find(|n| n.guid == guid(C))
        .expect("C kept");
    // D, which ours left alone, goes with their deletion.
    assert_eq!(c.children, vec![guid(30)]);
}

#[test]
fn the_same_children_reordered_two_ways_conflicts() {
    let out = merged(
        |f| node(f, ROOT).children = vec![guid(C), guid(A), guid(B)],
        |f| node(f, ROOT).children = vec![guid(B), guid(C), guid(A)],
    );
    assert_eq!(conflicts(&out), vec![at("node", ROOT, "children")]);
    let root = out
        .nodes
        .iter()
        .find(|n| n.guid == guid(ROOT))
        .expect("root");
    assert_eq!(root.children, vec![guid(C), guid(A), guid(B)]);
}

#[test]
fn a_reorder_on_one_side_and_an_addition_on_the_other_merge() {
    let out = merged(
        |f| node(f, ROOT).children = vec![guid(C), guid(B), guid(A)],
        |f| add_wait(f, ROOT, 30),
    );
    assert!(out.conflicts.is_empty());
    let root = out
        .nodes
        .iter()
        .find(|n| n.guid == guid(ROOT))
        .expect("root");
    assert_eq!(root.children, vec![guid(C), guid(30), guid(B), guid(A)]);
}

#[test]
fn a_node_moved_to_two_places_conflicts() {
    let out = merged(|f| reparent(f, B, C), |f| reparent(f, B, A));
    assert_eq!(conflicts(&out), vec![at("node", B, "parent")]);
    let c = out.nodes.iter().find(|n| n.guid == guid(C)).expect("C");
    assert!(c.children.contains(&guid(B)), "where ours put it");
}

#[test]
fn moves_that_form_a_cycle_leave_a_node_unconnected() {
    // Ours puts C under B; theirs puts B under C.
    let out = merged(|f| reparent(f, C, B), |f| reparent(f, B, C));
    assert_eq!(conflicts(&out), vec![at("node", B, "parent")]);
    arbor_runtime::check_shape(
        &TreeFile {
            conflicts: vec![],
            ..out.clone()
        },
        None,
    )
    .expect("no cycle, one parent each");
}

#[test]
fn the_same_key_default_changed_two_ways_conflicts() {
    let out = merged(
        |f| f.blackboard[0].default = Some(json!(1)),
        |f| f.blackboard[0].default = Some(json!(2)),
    );
    assert_eq!(
        conflicts(&out),
        vec![("key".to_owned(), "hp".to_owned(), "default".to_owned())]
    );
}

#[test]
fn a_key_both_sides_added_differently_conflicts() {
    let add = |ty: &str| {
        let ty = ty.to_owned();
        move |f: &mut TreeFile| {
            let key = serde_json::from_value(json!({"key": "mana", "type": ty})).expect("key");
            f.blackboard.push(key);
        }
    };
    let out = merged(add("int"), add("float"));
    assert_eq!(
        conflicts(&out),
        vec![("key".to_owned(), "mana".to_owned(), "type".to_owned())]
    );
    let same = merged(add("int"), add("int"));
    assert!(same.conflicts.is_empty());
    assert_eq!(same.blackboard.len(), 3);
}

#[test]
fn the_same_note_text_changed_two_ways_conflicts() {
    let out = merged(
        |f| editor_member(f, "notes")[0]["text"] = json!("ours"),
        |f| editor_member(f, "notes")[0]["text"] = json!("theirs"),
    );
    assert_eq!(conflicts(&out), vec![at("note", NOTE, "text")]);
}

#[test]
fn notes_and_groups_from_both_sides_are_kept() {
    let out = merged(
        |f| editor_member(f, "notes")[0]["color"] = json!("red"),
        |f| editor_member(f, "groups")[0]["collapsed"] = json!(true),
    );
    assert!(out.conflicts.is_empty());
    let editor = out.editor.expect("editor");
    assert_eq!(editor["notes"][0]["color"], "red");
    assert_eq!(editor["groups"][0]["collapsed"], true);
}

#[test]
fn a_decorator_edited_where_the_other_side_deleted_its_node_keeps_both() {
    let out = merged(
        |f| remove(f, A),
        |f| node(f, A).decorators[0].name = "No".into(),
    );
    assert_eq!(
        conflicts(&out),
        vec![at("node", A, ""), at("decorator", INVERTER, "")]
    );
    let a = out
        .nodes
        .iter()
        .find(|n| n.guid == guid(A))
        .expect("A kept");
    assert_eq!(a.decorators[0].name, "No");
}

#[test]
fn different_trees_are_refused() {
    let base = base();
    let other = edited(&base, |f| f.guid = guid(99));
    assert_eq!(
        merge(&base, &base, &other),
        Err(MergeError::DifferentTrees {
            which: "theirs",
            found: guid(99),
            base: guid(0),
        })
    );
}

#[test]
fn a_file_with_conflicts_is_refused_as_an_input() {
    let base = base();
    let out = merged(|f| f.name = "x".into(), |f| f.name = "y".into());
    assert!(matches!(
        merge(&base, &out, &base),
        Err(MergeError::Unresolved {
            which: "ours",
            count: 1
        })
    ));
}

#[test]
fn the_loader_reports_each_conflict_at_its_node_and_the_file_still_parses() {
    let out = merged(
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
        },
        |f| {
            node(f, B).params.insert("seconds".into(), json!(7.0));
        },
    );
    let text = out.to_json_pretty();
    let parsed = arbor_runtime::parse_str(&text, None).expect("the editor can open it");
    assert_eq!(parsed.conflicts, out.conflicts);
    let report = arbor_runtime::check_tree(
        &parsed,
        None,
        &arbor_runtime::NodeTypes::builtin(),
        &arbor_runtime::LoadOptions::default(),
    );
    let errors: Vec<_> = report.problems.iter().filter(|p| p.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].json_path, "$.conflicts[0]");
    assert_eq!(errors[0].node.as_deref(), Some(guid(B).as_str()));
    assert!(
        errors[0].message().starts_with("merge conflict: node"),
        "{}",
        errors[0].message()
    );
}

#[test]
fn a_conflict_resolved_to_either_side_takes_its_value_and_leaves_the_others() {
    use arbor_runtime::merge::{resolve, Side};
    let out = merged(
        |f| {
            node(f, B).params.insert("seconds".into(), json!(5.0));
            node(f, A).name = "ours".into();
        },
        |f| {
            node(f, B).params.insert("seconds".into(), json!(7.0));
            node(f, A).name = "theirs".into();
        },
    );
    assert_eq!(
        conflicts(&out),
        vec![at("node", A, "name"), at("node", B, "params.seconds")]
    );
    let theirs = resolve(&out, 1, Side::Theirs).expect("resolved");
    assert_eq!(conflicts(&theirs), vec![at("node", A, "name")]);
    let b = theirs.nodes.iter().find(|n| n.guid == guid(B)).expect("B");
    assert_eq!(b.params["seconds"], json!(7.0));
    let base = resolve(&theirs, 0, Side::Base).expect("resolved");
    assert!(base.conflicts.is_empty());
    let a = base.nodes.iter().find(|n| n.guid == guid(A)).expect("A");
    assert_eq!(a.name, "A");
}

#[test]
fn a_deleted_and_edited_node_resolved_to_the_deleting_side_is_gone() {
    use arbor_runtime::merge::{resolve, Side};
    let out = merged(|f| remove(f, B), |f| node(f, B).name = "Bee".into());
    let gone = resolve(&out, 0, Side::Ours).expect("resolved");
    assert!(gone.conflicts.is_empty());
    assert!(gone.nodes.iter().all(|n| n.guid != guid(B)));
    let root = gone
        .nodes
        .iter()
        .find(|n| n.guid == guid(ROOT))
        .expect("root");
    assert_eq!(root.children, vec![guid(A), guid(C)]);
    let kept = resolve(&out, 0, Side::Theirs).expect("resolved");
    assert_eq!(
        kept.nodes
            .iter()
            .find(|n| n.guid == guid(B))
            .map(|n| n.name.as_str()),
        Some("Bee")
    );
}

#[test]
fn a_reorder_conflict_resolved_to_theirs_takes_their_order() {
    use arbor_runtime::merge::{resolve, ResolveError, Side};
    let out = merged(
        |f| node(f, ROOT).children = vec![guid(C), guid(A), guid(B)],
        |f| node(f, ROOT).children = vec![guid(B), guid(C), guid(A)],
    );
    let theirs = resolve(&out, 0, Side::Theirs).expect("resolved");
    let root = theirs
        .nodes
        .iter()
        .find(|n| n.guid == guid(ROOT))
        .expect("root");
    assert_eq!(root.children, vec![guid(B), guid(C), guid(A)]);
    assert_eq!(
        resolve(&out, 5, Side::Ours),
        Err(ResolveError::NoConflict(5))
    );
}
