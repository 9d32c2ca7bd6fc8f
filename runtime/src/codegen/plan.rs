//! What the generated code does, node by node: the root and every plain loop reached from
//! it through plain loops become functions; their children are calls of three kinds, by
//! `exec::Shape` (the interpreter's own choice of fast path).

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
    /// In pre-order.
    pub loops: Vec<Loop>,
    /// The node of each generated leaf, in the order of `Call::Leaf::leaf`.
    pub leaves: Vec<u32>,
}

impl Plan {
    pub fn of<C>(tree: &CompiledTree<C>) -> Plan {
        let mut plan = Plan {
            root: Call::Node { node: 0 },
            loops: Vec::new(),
            leaves: Vec::new(),
        };
        plan.root = plan.call(tree, 0);
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
        assert_eq!(plan.loops.len(), 2, "{plan:?}");
        assert_eq!(
            plan.loops[1].children,
            vec![Call::Leaf { node: 2, leaf: 0 }, Call::Node { node: 3 }]
        );
        // Below a general node, the interpreter ticks everything.
        assert_eq!(
            plan.loops[0].children,
            vec![
                Call::Loop { node: 1 },
                Call::Node { node: 4 },
                Call::Leaf { node: 7, leaf: 1 }
            ]
        );
        assert_eq!(plan.leaves, vec![2, 7]);
    }
}
