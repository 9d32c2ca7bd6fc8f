//! RandomSelector: tries children in a weighted random order until one succeeds (rule 77).
//! - on enter no child is tried; each time a child is needed, one is drawn among the
//!   children not yet tried in this execution whose weight is above 0, with probability
//!   proportional to its weight, from the agent's seeded generator (rule 2)
//! - child Failure -> the next child is drawn and ticked in the same tick (rule 5)
//! - child Running -> Running; the next tick resumes that child, without a draw
//! - child Success -> Success
//! - no child left to draw -> Failure (so no children, or all weights 0, fail)
//!
//! `weights[k]` is child k's weight; a child past the list's end, or every child when
//! `weights` is left out, weighs 1. A literal list must hold numbers, 0 or more; a bound
//! list without a valid value, or holding anything else, fails the node (rule 47).
//! JSON: `{"type":"RandomSelector","params":{"weights":[3,1]},"children":[…]}`
//!
//! Written with the public `Control` API only, as a program's own composite would be.

use super::weights::{list_port, nth, numbers, MAX_CHILDREN};
use crate::{
    Args, Category, Control, ControlCtx, InPort, NodeType, ParamKind, ParamSpec, Scalar, Status,
    Value,
};

pub(crate) fn spec() -> NodeType {
    NodeType::new(
        "RandomSelector",
        Category::Composite,
        "Tries children in a weighted random order until one succeeds; fails when all fail.",
    )
    .param(
        ParamSpec::new(
            "weights",
            ParamKind::List(Scalar::Float),
            "One weight per child (0 or more): the chance of being tried next among the \
             children not yet tried. Left out, or past the list's end: 1.",
        )
        .optional(),
    )
    .child_range(0, MAX_CHILDREN)
}

pub(crate) fn factory<C: 'static>() -> crate::control::ControlFactory<C> {
    crate::control::ControlFactory::saved(RandomSelector::new)
}

/// The composite: its weights, if given.
pub(crate) struct RandomSelector {
    weights: Option<InPort<Value>>,
}

impl RandomSelector {
    fn new(args: &Args) -> Result<RandomSelector, String> {
        let weights = list_port(args, "weights")?;
        if let Some(list) = weights.as_ref().and_then(|w| w.as_literal()) {
            if numbers(list).is_some_and(|mut n| n.any(|w| !w.is_some_and(valid))) {
                return Err("`weights` must be finite numbers, 0 or more".to_owned());
            }
        }
        Ok(RandomSelector { weights })
    }

    /// Child `k`'s weight; `None` when the bound list cannot be read (rule 47).
    fn weight<C>(&self, cx: &ControlCtx<'_, C>, k: usize) -> Option<f64> {
        let Some(port) = &self.weights else {
            return Some(1.0);
        };
        let list = cx.get(port)?;
        match nth(list, k) {
            Some(w) if valid(w) => Some(w),
            Some(_) => None,
            None if numbers(list).is_some_and(|n| n.count() <= k) => Some(1.0),
            None => None,
        }
    }

    /// Draws the next child among those not in `tried`; `Ok(None)` when none is left,
    /// `Err` when the weights cannot be read.
    fn draw<C>(&self, cx: &mut ControlCtx<'_, C>, tried: u64) -> Result<Option<usize>, ()> {
        let n = cx.child_count().min(MAX_CHILDREN);
        let mut total = 0.0;
        for k in (0..n).filter(|k| tried & (1 << k) == 0) {
            total += self.weight(cx, k).ok_or(())?;
        }
        if total <= 0.0 {
            return Ok(None);
        }
        let mut r = cx.rng().f64() * total;
        let mut last = None;
        for k in (0..n).filter(|k| tried & (1 << k) == 0) {
            let w = self.weight(cx, k).ok_or(())?;
            if w <= 0.0 {
                continue;
            }
            last = Some(k);
            if r < w {
                return Ok(Some(k));
            }
            r -= w;
        }
        // Rounding can leave `r` just above the last weight: that child was drawn.
        Ok(last)
    }
}

fn valid(w: f64) -> bool {
    w.is_finite() && w >= 0.0
}

/// One execution's draw: the children tried so far and the one being run.
#[derive(Clone, Copy, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Draw {
    tried: u64,
    /// The running child, if any.
    current: Option<u8>,
}

impl<C> Control<C> for RandomSelector {
    type State = Draw;

    fn enter(&self, _cx: &mut ControlCtx<'_, C>, draw: &mut Draw) {
        *draw = Draw::default();
    }

    fn tick(&self, cx: &mut ControlCtx<'_, C>, draw: &mut Draw) -> Status {
        loop {
            let k = match draw.current {
                Some(k) => usize::from(k),
                None => match self.draw(cx, draw.tried) {
                    Ok(Some(k)) => {
                        draw.tried |= 1 << k;
                        k
                    }
                    Ok(None) | Err(()) => return Status::Failure,
                },
            };
            match cx.tick_child(k) {
                Status::Failure => draw.current = None,
                Status::Running => {
                    draw.current = Some(k as u8);
                    return Status::Running;
                }
                Status::Success => return Status::Success,
            }
        }
    }
}
