//! What the generated code does, node by node: the root and every Sequence and Selector
//! whose walk it emits become functions; their children are calls of three kinds, by
//! [`Form`]. Such nodes below a node the interpreter ticks are reached from the interpreter
//! (`program::Loops`).

use crate::exec::{shape_of, Shape};
use crate::nodes::Kind;
use crate::tree::{CompiledTree, Node};

/// How generated code ticks a node, from the node alone: what the code relies on, so
/// what `fingerprint` hashes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// A decorator-free host leaf (`exec::Shape::Leaf`): the interpreter's leaf code.
    Leaf,
    /// A plain Sequence or Selector (`exec::Shape::Loop`): the walk emitted, with the
    /// interpreter's loop lifecycle around it (`exec::loop_start_at`, `loop_finish_at`).
    Loop { seq: bool },
    /// A Sequence or Selector that is not plain but neither `memory` nor `yield`: the
    /// walk emitted, earlier children re-ticked or re-checked while a later one runs
    /// (`dynamic` or a child with a LowerPriority/Both condition: rules 24, 25, 27), with
    /// the interpreter's general lifecycle around it when it carries decorators
    /// (`decorated`: `Exec::start_full`, `Exec::finish_full`), else the loop lifecycle.
    Walk {
        seq: bool,
        dynamic: bool,
        decorated: bool,
    },
    /// Anything else: the interpreter's general path.
    Node,
}

/// The [`Form`] of `node`, a node of a finished node array.
pub(super) fn form_of(node: &Node) -> Form {
    match shape_of(node) {
        Shape::Leaf => return Form::Leaf,
        Shape::Loop { seq } => return Form::Loop { seq },
        Shape::Node => {}
    }
    let decorated = node.decorator_count > 0;
    match node.kind {
        Kind::Sequence {
            dynamic,
            memory: false,
            yields: false,
        } => Form::Walk {
            seq: true,
            dynamic,
            decorated,
        },
        Kind::Selector {
            dynamic,
            yields: false,
        } => Form::Walk {
            seq: false,
            dynamic,
            decorated,
        },
        _ => Form::Node,
    }
}

/// How generated code ticks one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Call {
    /// A decorator-free host leaf: `leaf` indexes the generated leaf array.
    Leaf { node: u32, leaf: usize },
    /// A Sequence or Selector whose walk is emitted ([`Form::Loop`], [`Form::Walk`]): its
    /// own generated function.
    Loop { node: u32 },
    /// Anything else: the interpreter's general path.
    Node { node: u32 },
}

/// The generated function of a Sequence or Selector.
#[derive(Debug)]
pub(super) struct Loop {
    pub node: u32,
    pub seq: bool,
    /// Every earlier child is re-ticked while a later one runs (rule 27).
    pub dynamic: bool,
    /// Has attached decorators: the general lifecycle around the walk.
    pub decorated: bool,
    pub children: Vec<Call>,
    /// The children with a LowerPriority/Both condition, by child (rules 24, 25).
    pub guarded: Vec<bool>,
}

impl Loop {
    /// Whether child `k` is re-ticked (a Selector's, or a `dynamic` Sequence's) or has
    /// its conditions re-checked (a Sequence's) while a later child runs.
    pub fn rescans(&self, k: usize) -> bool {
        self.dynamic || self.guarded[k]
    }
}

#[derive(Debug)]
pub(super) struct Plan {
    pub root: Call,
    /// Every Sequence and Selector whose walk is emitted, by node index.
    pub loops: Vec<Loop>,
    /// The loops whose parent the interpreter ticks (not an emitted loop): the only ones
    /// it hands back to the generated code (`program::Loops`), in node order. The others
    /// are called only from their parent loop's function, so each has one call site and
    /// is inlined there.
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
        // the interpreter through `program::Loops`, each with the loops and leaves under it.
        let mut planned = vec![false; tree.nodes.len()];
        let mut marked = 0;
        for i in 0..tree.nodes.len() {
            for l in &plan.loops[marked..] {
                planned[l.node as usize] = true;
            }
            marked = plan.loops.len();
            let emitted = matches!(
                form_of(&tree.nodes[i]),
                Form::Loop { .. } | Form::Walk { .. }
            );
            if !planned[i] && emitted {
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
        let (seq, dynamic, decorated) = match form_of(node) {
            Form::Leaf => {
                self.leaves.push(i);
                return Call::Leaf {
                    node: i,
                    leaf: self.leaves.len() - 1,
                };
            }
            Form::Node => return Call::Node { node: i },
            Form::Loop { seq } => (seq, false, false),
            Form::Walk {
                seq,
                dynamic,
                decorated,
            } => (seq, dynamic, decorated),
        };
        let at = self.loops.len();
        let kids = tree.children_of(node);
        self.loops.push(Loop {
            node: i,
            seq,
            dynamic,
            decorated,
            children: Vec::new(),
            guarded: kids
                .iter()
                .map(|&c| tree.nodes[c as usize].lower_priority)
                .collect(),
        });
        let children: Vec<Call> = kids.iter().map(|&c| self.call(tree, c)).collect();
        self.loops[at].children = children;
        Call::Loop { node: i }
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

    #[test]
    fn guarded_dynamic_and_decorated_composites_are_walks() {
        let mut r = Registry::<()>::new();
        r.action(NodeType::action("A", "Succeeds."), |_| Status::Success);
        let guard = |abort: &str| {
            decorator("Condition")
                .param("key", "b")
                .param("equals", true)
                .param("abort", abort)
        };
        // 0 dynamic seq, 1 A, 2 sel (a guarded child), 3 seq (LowerPriority), 4 A,
        // 5 seq (Self), 6 A, 7 memory seq, 8 A
        let tree = TreeBuilder::new("t")
            .key("b", crate::ValueType::Bool, true)
            .root(
                seq([
                    action("A"),
                    sel([
                        seq([action("A")]).decorator(guard("LowerPriority")),
                        seq([action("A")]).decorator(guard("Self")),
                        node("Sequence").param("memory", true).child(action("A")),
                    ]),
                ])
                .param("dynamic", true),
            )
            .build(&r)
            .expect("loads");
        let plan = Plan::of(&tree);
        let forms: Vec<(u32, bool, bool, Vec<bool>)> = plan
            .loops
            .iter()
            .map(|l| (l.node, l.dynamic, l.decorated, l.guarded.clone()))
            .collect();
        assert_eq!(
            forms,
            vec![
                (0, true, false, vec![false, false]),
                (2, false, false, vec![true, false, false]),
                (3, false, true, vec![false]),
                (5, false, true, vec![false]),
            ],
            "{plan:?}"
        );
        assert_eq!(plan.loops[1].children[2], Call::Node { node: 7 });
        assert!(plan.loops[1].rescans(0) && !plan.loops[1].rescans(1));
        assert!(plan.reentries.is_empty());
        assert_eq!(plan.leaves, vec![1, 4, 6]);
    }
}
