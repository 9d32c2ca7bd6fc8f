//! Composites: nodes with any number of children.

pub(crate) mod if_then_else;
pub(crate) mod parallel;
pub(crate) mod parallel_all;
pub(crate) mod random_selector;
pub(crate) mod selector;
pub(crate) mod sequence;
pub(crate) mod switch;
pub(crate) mod utility_selector;
pub(crate) mod weights;
pub(crate) mod while_do_else;

use crate::exec::Exec;
use crate::spec::{ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::tree::Node;

/// The `yield` flag of Sequence and Selector (rule 63): BT.CPP's `async_id` node, which
/// ends the tick after a child that started and `completed` in it.
pub(crate) fn yield_param(async_id: &str, completed: &str) -> ParamSpec {
    ParamSpec::new(
        "yield",
        ParamKind::Bool,
        &format!(
            "BehaviorTree.CPP's {async_id}: a child that started and {completed} in this tick \
             ends the tick (returns running) when more children follow (rule 63)."
        ),
    )
    .literal()
    .default(false.into())
}

/// The walk of a Sequence (`go_on` Success) or Selector (`go_on` Failure) from its child
/// `current` (rules 3 and 4): a child that returns `go_on` passes to the next, the first
/// other status ends the walk with it, and Running keeps that child as the cursor. All
/// children returning `go_on` give `go_on`.
#[inline(always)]
pub(crate) fn walk_from<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    node: &Node,
    current: usize,
    go_on: Status,
) -> Status {
    for (k, e) in x.tree.entries_of(node).iter().enumerate().skip(current) {
        match x.tick_entry(e) {
            Status::Running => {
                // Resuming at the same child, the commonest case, leaves the cursor as is.
                if k != current {
                    x.slot(i).cursor = k as u32;
                }
                return Status::Running;
            }
            status if status == go_on => {}
            stop => return stop,
        }
    }
    go_on
}

/// One instantly completed child per tick (rules 50 and 63), for the yielding Sequence
/// (`go_on` Success) and the yielding Selector (`go_on` Failure): a child that was not
/// running and returns `go_on` ends the tick with Running when more children follow, and
/// the next one runs next tick. Any other final status ends the composite with it; with
/// `remember`, `persist` keeps 1 + that child (rule 50: the next execution resumes there).
#[inline(never)]
pub(crate) fn tick_one_per_tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    children: &[u32],
    current: u32,
    go_on: Status,
    remember: bool,
) -> Status {
    let mut current = current as usize;
    let slot = x.slot(i);
    if slot.persist > 0 {
        // Entering after a remembered stop: resume at that child.
        current = (slot.persist - 1) as usize;
        slot.persist = 0;
    }
    for (k, &child) in children.iter().enumerate().skip(current) {
        let resumed = x.is_running(child);
        match x.tick(child) {
            Status::Running => {
                x.slot(i).cursor = k as u32;
                return Status::Running;
            }
            status if status == go_on => {
                if !resumed && k + 1 < children.len() {
                    x.wake_up();
                    x.slot(i).cursor = k as u32 + 1;
                    return Status::Running;
                }
            }
            stop => {
                if remember {
                    x.slot(i).persist = k as u32 + 1;
                }
                return stop;
            }
        }
    }
    go_on
}
