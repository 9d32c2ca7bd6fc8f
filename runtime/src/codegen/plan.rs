//! What the generated code does, node by node: the root and every plain loop become
//! functions; their children are calls of three kinds, by `exec::Shape` (the
//! interpreter's own choice of fast path). Loops below a node the interpreter ticks are
//! reached from the interpreter (`support::Loops`).

use crate::exec::{shape_of, Shape};
use crate::tree::CompiledTree;

/// How generated code ticks one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Call {
    /// A decorator-free host leaf: `leaf` indexes the generated leaf array.
    Leaf { node: u32, leaf: usize },
    /// A plain Sequence or Selector: its own generated function.
    Loop { node: u32 },
    /// Anything else: the interpreter's general path.
    Node { node: u32 },
}

/// A plain loop's generated function.
#[derive(Debug)]
pub(super) struct Loop {
    pub node: u32,
    pub seq: bool,
    pub children: Vec<Call>,
}

#[derive(Debug)]
pub(super) struct Plan {
    pub root: Call,
    /// Every plain loop of the tree, by node index.
    pub loops: Vec<Loop>,
    /// The loops whose parent the interpreter ticks (not a plain loop): the only ones it
    /// hands back to the generated code (`support::Loops`), in node order. The others are
    /// called only from their parent loop's function, so each has one call site and is
    /// inlined there.
    pub reentries: Vec<u32>,
    /// The node of each generated leaf, in the order of `Call::Leaf::leaf`.
    pub leaves: Vec<u32>,
}

impl Plan {
    pub fn of<C>(tree: &CompiledTree<C>) -> Plan {
        let mut plan = Plan {
            root: Call::Node { node: 0 },
            loops: Vec::new(),
            reentries: Vec::new(),
            leaves: Vec::new(),
        };
        plan.root = plan.call(tree, 0);
        // The loops below nodes the interpreter ticks (a Repeat's Sequence): reached from
        // the interpreter through `support::Loops`, each with the loops and leaves under it.
        let mut planned = vec![false; tree.nodes.len()];
        let mut marked = 0;
        for i in 0..tree.nodes.len() {
            for l in &plan.loops[marked..] {
                planned[l.node as usize] = true;
            }
            marked = plan.loops.len();
            if !planned[i] && matches!(shape_of(&tree.nodes[i]), Shape::Loop { .. }) {
                plan.reentries.push(i as u32);
                plan.call(tree, i as u32);
            }
        }
        plan.loops.sort_by_key(|l| l.node);
        plan
    }

    /// The call for node `i`, planning its loop (and those below it) first if it is one.
    fn call<C>(&mut self, tree: &CompiledTree<C>, i: u32) -> Call {
        let node = &tree.nodes[i as usize];
        match shape_of(node) {
            Shape::Leaf => {
                self.leaves.push(i);
                Call::Leaf {
                    node: i,
                    leaf: self.leaves.len() - 1,
                }
            }
            Shape::Loop { seq } => {
                let at = self.loops.len();
                self.loops.push(Loop {
                    node: i,
                    seq,
                    children: Vec::new(),
                });
                let children: Vec<Call> = tree
                    .children_of(node)
                    .iter()
                    .map(|&c| self.call(tree, c))
                    .collect();
                self.loops[at].children = children;
                Call::Loop { node: i }
            }
            Shape::Node => Call::Node { node: i },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Call, Plan};
    use crate::builder::{action, decorator, node, sel, seq, TreeBuilder};
    use crate::{NodeType, Registry, Status};

    #[test]
    fn loops_and_leaves_are_planned_and_the_rest_falls_back() {
        let mut r = Registry::<()>::new();
        r.action(NodeType::action("A", "Succeeds."), |_| Status::Success);
        // 0 sel, 1 seq, 2 A, 3 A (decorated), 4 Repeat, 5 seq (under Repeat), 6 A, 7 A
        let tree = TreeBuilder::new("t")
            .root(sel([
                seq([action("A"), action("A").decorator(decorator("Inverter"))]),
                node("Repeat").param("count", 2).child(seq([action("A")])),
                action("A"),
            ]))
            .build(&r)
            .expect("loads");
        let plan = Plan::of(&tree);
        assert_eq!(plan.root, Call::Loop { node: 0 });
        // Every plain loop, by node index: the Sequence under the Repeat too (the
        // interpreter, ticking the Repeat, hands it back to the generated code).
        let loops: Vec<u32> = plan.loops.iter().map(|l| l.node).collect();
        assert_eq!(loops, vec![0, 1, 5], "{plan:?}");
        assert_eq!(
            plan.loops[1].children,
            vec![Call::Leaf { node: 2, leaf: 0 }, Call::Node { node: 3 }]
        );
        assert_eq!(
            plan.loops[0].children,
            vec![
                Call::Loop { node: 1 },
                Call::Node { node: 4 },
                Call::Leaf { node: 7, leaf: 1 }
            ]
        );
        assert_eq!(
            plan.loops[2].children,
            vec![Call::Leaf { node: 6, leaf: 2 }]
        );
        assert_eq!(plan.leaves, vec![2, 7, 6]);
        assert_eq!(plan.reentries, vec![5]);
    }
}
