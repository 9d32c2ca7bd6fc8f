//! Subtree export and inline, each one undoable step built from smaller commands (a
//! [`Batch`]).
//!
//! - [`replace_with_subtree`]: a branch is replaced by a `Subtree` node referring to a file
//!   (written beforehand with [`crate::document::extract_subtree`]), in the branch's place:
//!   same parent, same slot among the children, same position; root if the branch was. Its
//!   `remap` maps every key the branch uses to the key of the same name here, and it
//!   carries the branch's attached decorators (the file's root has none), so the tree
//!   behaves exactly as before: the Subtree node passes its child's status through
//!   (semantics rule 43), and a decorator on it guards, inverts and aborts (LowerPriority
//!   included, rules 24 and 25) as it did on the branch's top.
//! - [`inline_subtree`]: a `Subtree` node is replaced by a copy of the referenced tree
//!   (its root's branch), under new GUIDs. `remap` is applied: a subtree key mapped to a
//!   key of this tree is renamed to it in the copy; the other keys the copy uses are
//!   declared here if missing. The Subtree node's attached decorators go to the copy's top;
//!   if the file's root has decorators of its own, the copy is put under a one-child
//!   Sequence that carries the Subtree node's, since merging the two lists would change
//!   what they do (a condition of the inner list would block before the outer Inverter,
//!   and an inner LowerPriority condition would start acting on this tree's composite).
//!   Limitation: an unmapped subtree key whose name this tree already declares becomes
//!   shared rather than private.

use arbor_runtime::format::NodeDef;
use arbor_runtime::NodeTypes;
use serde_json::json;
use undo::Edit as _;

use super::{
    quoted, refused, AddNode, Batch, BatchBuilder, CommandError, Connect, Paste, RemoveItems,
    RenameKey,
};
use crate::document::{branch_keys, Document, Fragment, LayoutOptions, Selection};

/// Replaces the branch under `top` by a `Subtree` node whose `path` is `path`.
pub fn replace_with_subtree(
    doc: &Document,
    types: &NodeTypes,
    top: &str,
    path: &str,
) -> Result<Batch, CommandError> {
    if !doc.contains(top) {
        return Err(CommandError::UnknownNode(top.to_owned()));
    }
    let parent = doc.parent_of(top).map(str::to_owned);
    let slot = parent
        .as_deref()
        .and_then(|p| doc.children(p).iter().position(|c| c == top));
    let mut node = NodeDef::new("Subtree");
    node.name = doc.label(top);
    node.params.insert("path".into(), json!(path));
    // The branch keeps working on this tree's keys: every key it uses is remapped to
    // itself. With an empty remap the subtree's keys would be private copies and the
    // export would silently change what the tree does.
    let remap: serde_json::Map<String, serde_json::Value> = branch_keys(doc, types, top)
        .into_iter()
        .map(|decl| (decl.key.clone(), json!(decl.key)))
        .collect();
    node.params
        .insert("remap".into(), serde_json::Value::Object(remap));
    // The branch's attached decorators stay here, on the Subtree node: they guard it as
    // before and still take part in this tree's aborts (module documentation).
    node.decorators = doc
        .node(top)
        .map(|n| n.decorators.clone())
        .unwrap_or_default();
    // So does the switch (rule 79): a disabled branch is absent from this tree; in the
    // file, a disabled root would run as an empty Sequence instead.
    node.enabled = doc.node(top).is_none_or(|n| n.enabled);
    let add = AddNode::with_node(node, doc.position(top).unwrap_or([0.0, 0.0]));
    let new = add.guid().to_owned();

    let mut batch = BatchBuilder::new(doc, types);
    batch.push(RemoveItems::new(
        doc,
        &Selection::of_nodes(doc.subtree(top)),
    ))?;
    batch.push(add)?;
    if let (Some(parent), Some(slot)) = (parent, slot) {
        let connect = Connect::new(batch.doc(), types, &parent, &new)?.at_index(slot);
        batch.push(connect)?;
    }
    Ok(batch.finish(format!("Export {} as a subtree", quoted(doc, top))))
}

/// Replaces the `Subtree` node `node` by a copy of `file`'s tree, placed from the node's
/// position to the nearest spot clear of the other nodes and notes (`sizes`: drawn node
/// sizes). Returns the step and the GUIDs of the copied nodes.
pub fn inline_subtree(
    doc: &Document,
    types: &NodeTypes,
    node: &str,
    file: &Document,
    sizes: &LayoutOptions,
) -> Result<(Batch, Selection), CommandError> {
    let Some(def) = doc.node(node) else {
        return Err(CommandError::UnknownNode(node.to_owned()));
    };
    if def.kind != "Subtree" {
        return refused(format!("{} is not a Subtree node", quoted(doc, node)));
    }
    if file.root().is_none() {
        return refused("the subtree file has no root");
    }
    // Apply the remap in a scratch copy of the subtree file.
    let mut sub = file.clone();
    let remap = def.params.get("remap").and_then(|v| v.as_object());
    for (from, to) in remap.into_iter().flatten() {
        let Some(to) = to.as_str() else { continue };
        if from == to || sub.key(from).is_none() {
            continue;
        }
        if sub.key(to).is_some() {
            return refused(format!(
                "the subtree declares both `{from}` and `{to}`, which `remap` maps together"
            ));
        }
        let mut rename = RenameKey::new(&sub, types, from, to)?;
        rename.edit(&mut sub);
    }
    let branch = Selection::of_nodes(sub.execution_order());
    let mut fragment = Fragment::copy(&sub, &branch, types);
    wear_decorators(&mut fragment, def, sizes);

    let parent = doc.parent_of(node).map(str::to_owned);
    let slot = parent
        .as_deref()
        .and_then(|p| doc.children(p).iter().position(|c| c == node));
    // The Subtree node itself goes away in the same step, so its place is free.
    let paste = Paste::new(&fragment, doc.position(node).unwrap_or([0.0, 0.0]))?.clear_of(
        doc,
        sizes,
        &std::collections::HashSet::from([node]),
    )?;
    let pasted = paste.selection();
    let top = paste.tops().first().map(|t| t.to_string());

    let mut batch = BatchBuilder::new(doc, types);
    batch.push(RemoveItems::new(doc, &Selection::of_nodes([node])))?;
    batch.push(paste)?;
    if let (Some(parent), Some(slot), Some(top)) = (parent, slot, top) {
        let connect = Connect::new(batch.doc(), types, &parent, &top)?.at_index(slot);
        batch.push(connect)?;
    }
    let label = format!("Inline {}", quoted(doc, node));
    Ok((batch.finish(label), pasted))
}

/// Gives the copied tree's top the Subtree node `def`'s attached decorators, or a one-child
/// Sequence wearing them above the top if the top has decorators of its own (see the
/// module documentation). The Sequence takes the top's place; the copy moves a column to
/// the right, where the layout puts children.
fn wear_decorators(fragment: &mut Fragment, def: &NodeDef, sizes: &LayoutOptions) {
    if !def.enabled {
        // A disabled Subtree node's branch stays off inlined (rule 79).
        if let Some(top) = fragment.tops().first().map(|t| t.to_string()) {
            if let Some(n) = fragment.nodes.iter_mut().find(|n| n.guid == top) {
                n.enabled = false;
            }
        }
    }
    if def.decorators.is_empty() {
        return;
    }
    let Some(top) = fragment.tops().first().map(|t| t.to_string()) else {
        return;
    };
    let Some(i) = fragment.nodes.iter().position(|n| n.guid == top) else {
        return;
    };
    if fragment.nodes[i].decorators.is_empty() {
        fragment.nodes[i].decorators = def.decorators.clone();
        return;
    }
    let mut wrapper = NodeDef::new("Sequence");
    wrapper.name = def.name.clone();
    wrapper.decorators = def.decorators.clone();
    wrapper.children.push(top.clone());
    let at = fragment.positions.get(&top).copied().unwrap_or([0.0, 0.0]);
    let column = sizes.node_size[0] + sizes.level_gap;
    for p in fragment.positions.values_mut() {
        p[0] += column;
    }
    fragment.positions.insert(wrapper.guid.clone(), at);
    fragment.nodes.insert(0, wrapper);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::{extract_subtree, sample};
    use arbor_runtime::format::KeyDecl;
    use arbor_runtime::ValueType;

    #[test]
    fn export_replaces_the_branch_in_place() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, c, d, _]) = sample();
        let batch = replace_with_subtree(&doc, &types, &c, "branch.json").unwrap();
        let after = round_trip(&mut doc, batch);
        assert!(!after.contains(&c) && !after.contains(&d));
        let children = after.children(&a);
        assert_eq!(children.len(), 2);
        assert_eq!(children[0], b);
        let sub = after.node(&children[1]).unwrap();
        assert_eq!(sub.kind, "Subtree");
        assert_eq!(sub.name, "Inverter");
        assert_eq!(sub.params["path"], json!("branch.json"));
        assert_eq!(after.position(&sub.guid), doc.position(&c));
    }

    #[test]
    fn exporting_the_root_makes_the_subtree_node_the_root() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, ..]) = sample();
        let batch = replace_with_subtree(&doc, &types, &a, "all.json").unwrap();
        let after = round_trip(&mut doc, batch);
        assert_eq!(after.node_count(), 2); // the Subtree node and the unconnected Log
        assert_eq!(after.node(after.root().unwrap()).unwrap().kind, "Subtree");
    }

    #[test]
    fn inline_pastes_the_file_in_place_with_remapped_keys() {
        let types = NodeTypes::builtin();
        // The subtree: a Condition on its key `target`, and a private key `mood`.
        let mut file = Document::new("sub");
        let mut cond = NodeDef::new("Condition");
        cond.params.insert("key".into(), json!("target"));
        let mut seq = NodeDef::new("Sequence");
        seq.children.push(cond.guid.clone());
        let mut set = NodeDef::new("SetBlackboard");
        set.params.insert("key".into(), json!("mood"));
        seq.children.push(set.guid.clone());
        file.file.root = Some(seq.guid.clone());
        file.editor.positions.insert(seq.guid.clone(), [50.0, 10.0]);
        file.editor
            .positions
            .insert(cond.guid.clone(), [0.0, 100.0]);
        file.file.nodes = vec![seq, cond, set];
        for key in ["target", "mood"] {
            file.file.blackboard.push(KeyDecl {
                key: key.into(),
                ty: ValueType::String,
                default: None,
                description: String::new(),
                unknown: Default::default(),
            });
        }

        let (mut doc, [a, b, ..]) = sample();
        let mut sub_node = NodeDef::new("Subtree");
        sub_node.params.insert("path".into(), json!("sub.json"));
        sub_node
            .params
            .insert("remap".into(), json!({"target": "zone"}));
        let s = sub_node.guid.clone();
        doc.file.nodes.push(sub_node);
        doc.node_mut(&a).unwrap().children.insert(0, s.clone());
        doc.set_position(&s, Some([7.0, 8.0]));

        let (batch, pasted) =
            inline_subtree(&doc, &types, &s, &file, &LayoutOptions::default()).unwrap();
        let after = round_trip(&mut doc, batch);
        assert!(!after.contains(&s));
        assert_eq!(pasted.nodes.len(), 3);
        let first = &after.children(&a)[0];
        assert!(pasted.nodes.contains(first));
        assert_eq!(after.children(&a)[1], b);
        assert_eq!(after.node(first).unwrap().kind, "Sequence");
        // The copy keeps its shape, and stands clear of the nodes already there (the
        // sample's nodes are around the Subtree node's place, so it moved off them).
        let cond = after.children(first)[0].clone();
        let (p, q) = (
            after.position(first).unwrap(),
            after.position(&cond).unwrap(),
        );
        assert_eq!([q[0] - p[0], q[1] - p[1]], [-50.0, 90.0]);
        let options = LayoutOptions::default();
        let skip = pasted.nodes.iter().map(String::as_str).collect();
        let others = crate::document::obstacles(&after, &options, &skip);
        for (guid, at) in pasted
            .nodes
            .iter()
            .filter_map(|g| Some((g, after.position(g)?)))
        {
            let mine = crate::document::node_box(&options, guid, at);
            assert!(others.iter().all(|o| !o.overlaps(&mine)), "{guid} overlaps");
        }
        assert_eq!(after.node(&cond).unwrap().params["key"], json!("zone"));
        // `mood` is declared here now; `target` was mapped, so it is not.
        assert!(after.key("mood").is_some());
        assert!(after.key("target").is_none());
    }

    #[test]
    fn inline_refuses_other_nodes() {
        let types = NodeTypes::builtin();
        let (doc, [a, ..]) = sample();
        let err = inline_subtree(&doc, &types, &a, &doc, &LayoutOptions::default()).unwrap_err();
        assert!(err.to_string().contains("not a Subtree node"), "{err}");
    }

    #[test]
    fn export_then_inline_gives_back_the_same_shape() {
        let types = NodeTypes::builtin();
        let (doc, [a, _, c, ..]) = sample();
        let file = extract_subtree(&doc, &c, &types, "branch").unwrap();
        let mut exported = doc.clone();
        let mut step = super::super::Command::from(
            replace_with_subtree(&doc, &types, &c, "branch.json").unwrap(),
        );
        step.edit(&mut exported);
        let s = exported.children(&a)[1].clone();
        let (batch, _) =
            inline_subtree(&exported, &types, &s, &file, &LayoutOptions::default()).unwrap();
        let after = round_trip(&mut exported, batch);
        let kinds = |d: &Document| -> Vec<String> {
            d.execution_order()
                .iter()
                .map(|g| d.node(g).unwrap().kind.clone())
                .collect()
        };
        assert_eq!(kinds(&after), kinds(&doc));
    }

    /// A condition on the sample's Inverter `c`, with an abort type.
    fn guarded(doc: &mut Document, node: &str) -> arbor_runtime::format::DecoratorDef {
        let mut cond = arbor_runtime::format::DecoratorDef::new("Condition");
        cond.params.insert("key".into(), json!("alert"));
        cond.params.insert("equals".into(), json!(true));
        cond.params.insert("abort".into(), json!("LowerPriority"));
        doc.file.blackboard.push(KeyDecl {
            key: "alert".into(),
            ty: ValueType::Bool,
            default: None,
            description: String::new(),
            unknown: Default::default(),
        });
        doc.node_mut(node).unwrap().decorators.push(cond.clone());
        cond
    }

    #[test]
    fn rule43_export_leaves_the_branchs_decorators_on_the_subtree_node() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, _, c, ..]) = sample();
        let cond = guarded(&mut doc, &c);
        let file = extract_subtree(&doc, &c, &types, "branch").unwrap();
        let root = file.node(file.root().unwrap()).unwrap();
        assert!(root.decorators.is_empty(), "the file's root is undecorated");
        assert!(
            file.key("alert").is_none(),
            "only the decorator used `alert`"
        );
        let batch = replace_with_subtree(&doc, &types, &c, "branch.json").unwrap();
        let after = round_trip(&mut doc, batch);
        let sub = after.node(&after.children(&a)[1]).unwrap();
        assert_eq!(sub.decorators, vec![cond]);
        assert_eq!(sub.params["remap"], json!({}), "{:?}", sub.params);
    }

    #[test]
    fn rule43_inline_gives_the_subtree_nodes_decorators_to_the_copy() {
        let types = NodeTypes::builtin();
        let (doc, [a, _, c, ..]) = sample();
        let mut guarded_doc = doc.clone();
        let cond = guarded(&mut guarded_doc, &c);
        let file = extract_subtree(&guarded_doc, &c, &types, "branch").unwrap();
        let mut exported = guarded_doc.clone();
        let mut step = super::super::Command::from(
            replace_with_subtree(&guarded_doc, &types, &c, "branch.json").unwrap(),
        );
        step.edit(&mut exported);
        let s = exported.children(&a)[1].clone();

        // The file's root is undecorated: the copy's top wears the decorator.
        let (batch, _) =
            inline_subtree(&exported, &types, &s, &file, &LayoutOptions::default()).unwrap();
        let after = round_trip(&mut exported.clone(), batch);
        let top = after.node(&after.children(&a)[1]).unwrap();
        assert_eq!(top.kind, "Inverter");
        let worn: Vec<_> = top.decorators.iter().map(|d| &d.params).collect();
        assert_eq!(worn, vec![&cond.params]);

        // The file's root has its own: a one-child Sequence wears the Subtree node's.
        let mut own = file.clone();
        let root = own.root().unwrap().to_owned();
        own.node_mut(&root)
            .unwrap()
            .decorators
            .push(arbor_runtime::format::DecoratorDef::new("Inverter"));
        let (batch, _) =
            inline_subtree(&exported, &types, &s, &own, &LayoutOptions::default()).unwrap();
        let after = round_trip(&mut exported, batch);
        let wrapper = after.node(&after.children(&a)[1]).unwrap();
        assert_eq!(wrapper.kind, "Sequence");
        assert_eq!(wrapper.decorators.len(), 1);
        assert_eq!(wrapper.decorators[0].params, cond.params);
        let inner = after.node(&wrapper.children[0]).unwrap();
        assert_eq!(inner.kind, "Inverter");
        assert_eq!(inner.decorators.len(), 1);
        assert_eq!(inner.decorators[0].kind, "Inverter");
    }
}
