//! Cooldown: after its child completes, fails for `seconds` without ticking it (rule 76).
//! - child idle and the cooldown not over -> Failure, the child is not ticked
//! - otherwise the child is ticked; Running -> Running
//! - child Success or Failure -> that status, and the cooldown starts: `now + seconds`
//! - an aborted run of the child starts no cooldown
//!
//! The end of the cooldown is per agent and persistent (rule 4): it outlives the
//! Cooldown's own executions, aborts and root restarts; a new or reloaded agent starts
//! ready. Measured on the agent's clock, with rule 2's time tolerance.
//! JSON: `{"type":"Cooldown","params":{"seconds":2},"children":[…]}`
//!
//! Written with the public `Control` API only, as a program's own decorator would be.

use crate::{Args, Category, Control, ControlCtx, InPort, NodeType, ParamKind, ParamSpec, Status};

/// Rule 2's time tolerance.
const TOLERANCE: f64 = 1e-9;

pub(crate) fn spec() -> NodeType {
    NodeType::new(
        "Cooldown",
        Category::Decorator,
        "After its child completes, fails for `seconds` without ticking it.",
    )
    .param(ParamSpec::new(
        "seconds",
        ParamKind::Float,
        "How long after the child completes the Cooldown fails without ticking it, on the \
         agent's clock; read when the child completes.",
    ))
}

pub(crate) fn factory<C: 'static>() -> crate::control::ControlFactory<C> {
    crate::control::ControlFactory::saved(Cooldown::new)
}

/// The decorator: its duration.
pub(crate) struct Cooldown {
    seconds: InPort<f64>,
}

impl Cooldown {
    fn new(args: &Args) -> Result<Cooldown, String> {
        let seconds = args.port::<f64>("seconds")?;
        if let Some(&s) = seconds.as_literal() {
            if !valid(s) {
                return Err(format!(
                    "`seconds` must be a finite number of seconds, 0 or more; found {s}"
                ));
            }
        }
        Ok(Cooldown { seconds })
    }
}

fn valid(s: f64) -> bool {
    s.is_finite() && s >= 0.0
}

impl<C> Control<C> for Cooldown {
    /// When the cooldown ends; `None` while ready.
    type State = Option<f64>;

    fn tick(&self, cx: &mut ControlCtx<'_, C>, until: &mut Option<f64>) -> Status {
        if !cx.is_child_running(0) {
            if let Some(end) = *until {
                if cx.now() < end - TOLERANCE {
                    return Status::Failure;
                }
                *until = None;
            }
        }
        let status = cx.tick_child(0);
        if status == Status::Running {
            return status;
        }
        // Rule 47: a bound duration without a valid value fails the node, and starts none.
        match cx.get(&self.seconds).filter(|s| valid(*s)) {
            Some(s) => {
                *until = Some(cx.now() + s);
                status
            }
            None => Status::Failure,
        }
    }
}
