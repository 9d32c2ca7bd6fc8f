//! The fingerprint generated code bakes in and checks at load (`support::check`): exactly
//! what the code relies on, each node's form (`plan::Form`), whether it has a
//! LowerPriority/Both condition, and its children, so any edit that changes the emitted
//! code changes it, and edits that do not (a parameter's value, a name, a script, which
//! conditions a decorated node carries) leave it alone: those are read from the file at
//! load.

use super::plan::{form_of, Form};
use crate::tree::CompiledTree;

/// FNV-1a over the node count and, per node in pre-order, its form tag, its LowerPriority
/// flag, child count and children's indices.
pub(crate) fn of<C>(tree: &CompiledTree<C>) -> u64 {
    let mut h = Fnv::new();
    h.word(tree.nodes.len() as u64);
    for node in &tree.nodes {
        h.word(match form_of(node) {
            Form::Leaf => 1,
            Form::Loop { seq: true } => 2,
            Form::Loop { seq: false } => 3,
            Form::Node => 4,
            Form::Walk {
                seq,
                dynamic,
                decorated,
            } => 8 | u64::from(seq) | u64::from(dynamic) << 1 | u64::from(decorated) << 2,
        });
        h.word(u64::from(node.lower_priority));
        let children = tree.children_of(node);
        h.word(children.len() as u64);
        for &c in children {
            h.word(u64::from(c));
        }
    }
    h.0
}

struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn word(&mut self, w: u64) {
        for b in w.to_le_bytes() {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::builder::{action, node, sel, seq, TreeBuilder};
    use crate::{NodeType, Registry, Status};

    fn registry() -> Registry<()> {
        let mut r = Registry::new();
        r.action(NodeType::action("A", "Succeeds."), |_| Status::Success);
        r
    }

    #[test]
    fn shape_changes_change_it_and_parameters_do_not() {
        let r = registry();
        let fp = |root| {
            let tree = TreeBuilder::new("t").root(root).build(&r).expect("loads");
            super::of(&tree)
        };
        let base = fp(sel([seq([action("A"), action("A")]), action("A")]));
        assert_eq!(
            base,
            fp(sel([seq([action("A"), action("A")]), action("A")]))
        );
        // Another kind of composite, another order, a wait's duration: shape changes…
        assert_ne!(
            base,
            fp(seq([seq([action("A"), action("A")]), action("A")]))
        );
        assert_ne!(
            base,
            fp(sel([action("A"), seq([action("A"), action("A")])]))
        );
        let wait = |s: f64| sel([node("Wait").param("seconds", s), action("A")]);
        // …a parameter does not.
        assert_eq!(fp(wait(1.0)), fp(wait(2.0)));
    }
}
