//! UtilitySelector: ticks the child with the highest score (rule 78).
//! - a child's score is a number from the node's scorer; a child whose score is missing
//!   or not finite is not a candidate
//! - the best candidate has the highest score; of equal scores, the first child wins
//! - idle: the best candidate is ticked and its status returned (no candidate -> Failure);
//!   a child that fails is not followed by another: the UtilitySelector fails
//! - child Running -> Running; the next tick resumes that child. Without `dynamic` the
//!   scores are not read again until the next execution. With `dynamic: true` they are
//!   read on every tick: when the best candidate scores strictly higher than the running
//!   child (or the running child is no longer a candidate), the running child is aborted
//!   (rule 28) and the best candidate is ticked in the same tick
//!
//! The built-in node reads `scores`, a `list<float>` literal or key (`scores[k]` is child
//! k's score; a bound list without a valid value fails the node, rule 47). A program
//! scores with its own code through [`UtilitySelector::scored_by`].
//! JSON: `{"type":"UtilitySelector","params":{"scores":{"$key":"utilities"}},"children":[…]}`
//!
//! Written with the public `Control` API only, as a program's own composite would be.

use super::weights::{list_port, nth, MAX_CHILDREN};
use crate::{
    Args, Category, Control, ControlCtx, InPort, NodeType, ParamKind, ParamSpec, Scalar, Status,
    Value,
};

pub(crate) fn spec() -> NodeType {
    NodeType::new(
        "UtilitySelector",
        Category::Composite,
        "Ticks the child with the highest score; the first of equal scores.",
    )
    .param(ParamSpec::new(
        "scores",
        ParamKind::List(Scalar::Float),
        "One score per child, usually bound to a key the program updates; a child without \
         a score is never chosen.",
    ))
    .param(
        ParamSpec::new(
            "dynamic",
            ParamKind::Bool,
            "Read the scores on every tick while a child runs, and switch (aborting it) when \
             another child scores strictly higher.",
        )
        .literal()
        .default(false.into()),
    )
    .child_range(0, MAX_CHILDREN)
}

pub(crate) fn factory<C: 'static>() -> crate::control::ControlFactory<C> {
    crate::control::ControlFactory::saved(|args: &Args| {
        let scores = list_port(args, "scores")?.ok_or("`scores` is required")?;
        Ok(UtilitySelector::scored_by(
            Listed(scores),
            args.bool("dynamic")?,
        ))
    })
}

/// Scores children: child `k`'s score, or `None` when it is not a candidate.
pub trait Scorer<C>: Send + Sync {
    /// The score of child `child` now.
    fn score(&self, cx: &mut ControlCtx<'_, C>, child: usize) -> Option<f64>;
}

impl<C, F> Scorer<C> for F
where
    F: Fn(&mut ControlCtx<'_, C>, usize) -> Option<f64> + Send + Sync,
{
    fn score(&self, cx: &mut ControlCtx<'_, C>, child: usize) -> Option<f64> {
        self(cx, child)
    }
}

/// The built-in node's scores: a list parameter.
struct Listed(InPort<Value>);

impl<C> Scorer<C> for Listed {
    fn score(&self, cx: &mut ControlCtx<'_, C>, child: usize) -> Option<f64> {
        nth(cx.get(&self.0)?, child)
    }
}

/// A composite that ticks its best-scoring child (rule 78), scored by `S`: the built-in
/// `UtilitySelector` reads a list, a program's own can score with host code.
///
/// ```
/// use arbor_runtime::{NodeType, Registry, UtilitySelector};
///
/// struct Soldier { health: f64, ammo: f64 }
/// let mut registry = Registry::<Soldier>::new();
/// registry.composite(
///     NodeType::composite("Tactics", "Flees when hurt, else fights while it has ammo."),
///     |_| {
///         Ok(UtilitySelector::scored_by(
///             |cx: &mut arbor_runtime::ControlCtx<'_, Soldier>, child: usize| {
///                 let s = cx.agent();
///                 Some(match child {
///                     0 => 1.0 - s.health,
///                     1 => s.ammo,
///                     _ => return None,
///                 })
///             },
///             false,
///         ))
///     },
/// );
/// ```
pub struct UtilitySelector<S> {
    scorer: S,
    dynamic: bool,
}

impl<S> UtilitySelector<S> {
    /// A utility selector whose scores come from `scorer`; with `dynamic`, re-scored on
    /// every tick while a child runs.
    pub fn scored_by(scorer: S, dynamic: bool) -> Self {
        UtilitySelector { scorer, dynamic }
    }

    /// The best candidate and its score: the highest, the first of equal ones.
    fn best<C>(&self, cx: &mut ControlCtx<'_, C>) -> Option<(usize, f64)>
    where
        S: Scorer<C>,
    {
        let mut best: Option<(usize, f64)> = None;
        for k in 0..cx.child_count().min(MAX_CHILDREN) {
            let Some(score) = self.scorer.score(cx, k).filter(|s| s.is_finite()) else {
                continue;
            };
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((k, score));
            }
        }
        best
    }
}

impl<C, S: Scorer<C>> Control<C> for UtilitySelector<S> {
    /// The running child, if any.
    type State = Option<u8>;

    fn enter(&self, _cx: &mut ControlCtx<'_, C>, running: &mut Option<u8>) {
        *running = None;
    }

    fn tick(&self, cx: &mut ControlCtx<'_, C>, running: &mut Option<u8>) -> Status {
        let child = match *running {
            Some(k) if !self.dynamic => usize::from(k),
            Some(k) => {
                let k = usize::from(k);
                let current = self.scorer.score(cx, k).filter(|s| s.is_finite());
                match (self.best(cx), current) {
                    (Some((b, score)), Some(now)) if score > now => {
                        cx.halt_child(k);
                        b
                    }
                    (_, Some(_)) => k,
                    (Some((b, _)), None) => {
                        cx.halt_child(k);
                        b
                    }
                    (None, None) => return Status::Failure,
                }
            }
            None => match self.best(cx) {
                Some((b, _)) => b,
                None => return Status::Failure,
            },
        };
        let status = cx.tick_child(child);
        *running = (status == Status::Running).then_some(child as u8);
        status
    }
}
