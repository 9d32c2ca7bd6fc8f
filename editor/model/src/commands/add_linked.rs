//! Adding a node already connected, as one undo step: the node a wire dragged from a port
//! to empty canvas asks for, and the child or sibling added to the selected node from the
//! keyboard. It is an [`AddNode`] and a [`Connect`] in one [`Batch`].
//!
//! The new node lands on free canvas: where it was asked for (the end of the wire), or
//! else beside its relative (right of a parent, below a sibling or the last child, left of
//! a child), pushed clear of every node and note as pastes are
//! ([`crate::document::free_offset`]).

use arbor_runtime::NodeTypes;

use super::{quoted, AddNode, Batch, BatchBuilder, CommandError, Connect};
use crate::document::{free_offset, node_box, obstacles, Document, LayoutOptions, Pos};

/// How the new node is connected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Its parent's last child.
    ChildOf(String),
    /// Its parent's child just after this node.
    SiblingAfter(String),
    /// The parent of this node, which has none (a root gets wrapped: the new node becomes
    /// the root).
    ParentOf(String),
}

/// The batch that adds a `kind` node linked as `link` says, at `at` (its top-left corner)
/// or beside its relative, clear of other items measured with `sizes`; and the new node's
/// GUID.
pub fn add_linked(
    doc: &Document,
    types: &NodeTypes,
    sizes: &LayoutOptions,
    kind: &str,
    link: &Link,
    at: Option<Pos>,
) -> Result<(Batch, String), CommandError> {
    let relative = match link {
        Link::ChildOf(g) | Link::SiblingAfter(g) | Link::ParentOf(g) => g.as_str(),
    };
    let Some(rel_pos) = doc.node(relative).and(doc.position(relative)) else {
        return Err(CommandError::UnknownNode(relative.to_owned()));
    };
    let (parent, index) = match link {
        Link::ChildOf(p) => (Some(p.as_str()), doc.children(p).len()),
        Link::SiblingAfter(s) => {
            let Some(p) = doc.parent_of(s) else {
                return Err(CommandError::Refused(format!(
                    "{} has no parent to add a sibling under",
                    quoted(doc, s)
                )));
            };
            let i = doc.children(p).iter().position(|c| c == s).unwrap_or(0);
            (Some(p), i + 1)
        }
        Link::ParentOf(_) => (None, 0),
    };
    let mut add = AddNode::new(types, kind, [0.0, 0.0])?;
    let guid = add.guid().to_owned();
    let [w, _] = sizes.size(&guid);
    let [rw, rh] = sizes.size(relative);
    let gap = sizes.sibling_gap;
    let wanted = at.unwrap_or(match link {
        Link::ChildOf(p) => {
            let below_last = doc
                .children(p)
                .iter()
                .filter_map(|c| doc.position(c).map(|q| q[1] + sizes.size(c)[1] + gap))
                .fold(f64::NEG_INFINITY, f64::max);
            let y = if below_last.is_finite() {
                below_last
            } else {
                rel_pos[1]
            };
            [rel_pos[0] + rw + sizes.level_gap, y]
        }
        Link::SiblingAfter(_) => [rel_pos[0], rel_pos[1] + rh + gap],
        Link::ParentOf(_) => [rel_pos[0] - w - sizes.level_gap, rel_pos[1]],
    });
    let block = node_box(sizes, &guid, wanted);
    let offset = free_offset(block, &obstacles(doc, sizes, &Default::default()));
    add = add.at([wanted[0] + offset[0], wanted[1] + offset[1]])?;
    let mut batch = BatchBuilder::new(doc, types);
    let label = match link {
        Link::ParentOf(child) => format!("Add \"{kind}\" above {}", quoted(doc, child)),
        Link::ChildOf(p) | Link::SiblingAfter(p) => {
            let p = parent.unwrap_or(p);
            format!("Add \"{kind}\" under {}", quoted(doc, p))
        }
    };
    batch.push(add)?;
    let connect = match (link, parent) {
        (Link::ParentOf(child), _) => Connect::new(batch.doc(), types, &guid, child)?,
        (_, Some(p)) => Connect::new(batch.doc(), types, p, &guid)?.at_index(index),
        (_, None) => return Err(CommandError::UnknownNode(relative.to_owned())),
    };
    batch.push(connect)?;
    Ok((batch.finish(label), guid))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::testing::round_trip;
    use crate::document::sample;

    fn sizes() -> LayoutOptions {
        LayoutOptions::default()
    }

    #[test]
    fn a_child_is_added_last_beside_its_parent_as_one_step() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, c, ..]) = sample();
        let (batch, guid) = add_linked(
            &doc,
            &types,
            &sizes(),
            "Wait",
            &Link::ChildOf(a.clone()),
            None,
        )
        .unwrap();
        let batch = crate::commands::Command::from(batch);
        assert_eq!(batch.label(), "Add \"Wait\" under \"Sequence\"");
        let after = round_trip(&mut doc, batch);
        assert_eq!(after.children(&a), [b, c, guid.clone()]);
        let p = after.position(&guid).unwrap();
        assert!(p[0] > after.position(&a).unwrap()[0], "right of its parent");
    }

    #[test]
    fn a_sibling_goes_right_after_its_sibling() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, c, ..]) = sample();
        let (batch, guid) = add_linked(
            &doc,
            &types,
            &sizes(),
            "Log",
            &Link::SiblingAfter(b.clone()),
            None,
        )
        .unwrap();
        let after = round_trip(&mut doc, batch);
        assert_eq!(after.children(&a), [b, guid, c]);
    }

    #[test]
    fn a_parent_above_the_root_becomes_the_root() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, ..]) = sample();
        let (batch, guid) = add_linked(
            &doc,
            &types,
            &sizes(),
            "Sequence",
            &Link::ParentOf(a.clone()),
            None,
        )
        .unwrap();
        let after = round_trip(&mut doc, batch);
        assert_eq!(after.children(&guid), [a]);
        assert_eq!(after.root(), Some(guid.as_str()));
    }

    #[test]
    fn the_new_node_never_overlaps_another() {
        let types = NodeTypes::builtin();
        let (mut doc, [a, b, ..]) = sample();
        let options = sizes();
        // Asked for right on top of an existing node.
        let on_b = doc.position(&b).unwrap();
        let (batch, guid) = add_linked(
            &doc,
            &types,
            &options,
            "Wait",
            &Link::ChildOf(a),
            Some(on_b),
        )
        .unwrap();
        let after = round_trip(&mut doc, batch);
        let mine = node_box(&options, &guid, after.position(&guid).unwrap());
        for other in after.nodes().filter(|n| n.guid != guid) {
            let theirs = node_box(&options, &other.guid, after.position(&other.guid).unwrap());
            assert!(!mine.overlaps(&theirs), "overlaps {}", other.name);
        }
    }

    #[test]
    fn refusals_say_why_and_change_nothing() {
        let types = NodeTypes::builtin();
        let (doc, [a, b, ..]) = sample();
        // The root has no parent to add a sibling under; a leaf takes no children.
        assert!(add_linked(&doc, &types, &sizes(), "Wait", &Link::SiblingAfter(a), None).is_err());
        assert!(add_linked(&doc, &types, &sizes(), "Wait", &Link::ChildOf(b), None).is_err());
        let unknown = Link::ChildOf("nope".to_owned());
        assert!(add_linked(&doc, &types, &sizes(), "Wait", &unknown, None).is_err());
    }
}
