//! Pacing: when one agent of a frame-driven host is ticked — its tick interval (rule 87)
//! and its sleep (rules 82 to 84). [`crate::Population`] keeps one per agent; a host that
//! stores agents itself (an ECS) can keep one beside each agent.
//!
//! A frame is a step of the host's clock. Each frame the host asks [`Pacing::due`]; when it
//! answers, the host sets the agent's clock with [`crate::Agent::catch_up`], ticks the root
//! and reports the status to [`Pacing::ticked`]. Inputs from outside (blackboard writes,
//! events, triggers, changes to what host actions read) go with [`Pacing::wake`].

use crate::agent::Agent;
use crate::blackboard::TIME_EPSILON;
use crate::status::Status;

/// One agent's tick schedule: its interval, the time of its last due frame, and until when
/// it sleeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pacing {
    interval: f64,
    /// The host's time at the agent's last due frame (ticked or slept through), or at its
    /// insertion before the first.
    last_due: f64,
    /// Before its first due frame.
    fresh: bool,
    /// Sleeping until the first due frame at or after this time; `-inf` when awake.
    wake_at: f64,
    /// Whether the agent may sleep at all.
    sleeps: bool,
}

impl Pacing {
    /// An agent that joins at the host's time `now`: due at the next frame, ticked every
    /// frame, allowed to sleep.
    pub fn new(now: f64) -> Pacing {
        Pacing {
            interval: 0.0,
            last_due: now,
            fresh: true,
            wake_at: f64::NEG_INFINITY,
            sleeps: true,
        }
    }

    /// As [`Pacing::new`], with the first tick at the first frame at or after `start`: to
    /// spread the first ticks of many agents over several frames.
    pub fn starting_at(now: f64, start: f64) -> Pacing {
        Pacing {
            wake_at: start,
            ..Pacing::new(now)
        }
    }

    /// Ticks the agent at most once per `seconds` of the host's clock (rule 87), with the
    /// time in between accumulated into its tick; 0 (or a negative or non-finite value):
    /// every frame.
    pub fn set_interval(&mut self, seconds: f64) {
        self.interval = if seconds.is_finite() && seconds > 0.0 {
            seconds
        } else {
            0.0
        };
    }

    /// The tick interval in seconds; 0 for every frame.
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// Lets the agent sleep (the default) or keeps it ticked at every due frame.
    pub fn set_sleeps(&mut self, sleeps: bool) {
        self.sleeps = sleeps;
        if !sleeps {
            self.wake();
        }
    }

    /// Ends the agent's sleep: its inputs changed (rule 84).
    pub fn wake(&mut self) {
        self.wake_at = f64::NEG_INFINITY;
    }

    /// Whether the agent sleeps (no tick before [`Pacing::wake_at`] unless woken).
    pub fn is_asleep(&self) -> bool {
        self.wake_at > f64::NEG_INFINITY
    }

    /// The time the agent sleeps until; `-inf` when awake.
    pub fn wake_at(&self) -> f64 {
        self.wake_at
    }

    /// The earliest host time at which [`Pacing::due`] can answer: a scheduler need not ask
    /// before. With an interval that is the next due frame (asleep or not, each due frame
    /// counts, rule 87); without, the wake time.
    pub fn next_check(&self) -> f64 {
        if self.interval > 0.0 && !self.fresh {
            self.last_due + self.interval - TIME_EPSILON
        } else {
            self.wake_at
        }
    }

    /// At the frame whose time is `now` (the previous frame's being `previous`): whether the
    /// agent is ticked now, and if so the host time of its previous tick, slept-through ones
    /// included, for [`crate::Agent::catch_up`]. Ask once per frame, or only at frames at or
    /// after [`Pacing::next_check`].
    pub fn due(&mut self, now: f64, previous: f64) -> Option<f64> {
        let before = if self.fresh {
            // The first due frame is the first at or after the start, whatever the interval.
            if now < self.wake_at {
                return None;
            }
            self.fresh = false;
            std::mem::replace(&mut self.last_due, now)
        } else if self.interval > 0.0 {
            if now < self.last_due + self.interval - TIME_EPSILON {
                return None;
            }
            std::mem::replace(&mut self.last_due, now)
        } else {
            previous
        };
        (now >= self.wake_at).then_some(before)
    }

    /// After a tick that returned `status`: the agent sleeps if its next tick would be
    /// idle (rule 82), else it stays awake.
    pub fn ticked<C>(&mut self, agent: &Agent<C>, status: Status) {
        self.wake_at = match (self.sleeps, status) {
            (true, Status::Running) => agent.next_wake().map_or(f64::NEG_INFINITY, |wake| wake.at),
            _ => f64::NEG_INFINITY,
        };
    }
}
