//! Ticking a population of agents on every core (feature `parallel`, on rayon's work
//! stealing pool).
//!
//! Each agent owns its state, blackboard, clock and seeded RNG, and each gets its own host
//! data, so agents are independent: ticking them in parallel gives exactly what ticking
//! them one after another gives (`tests/engine/parallel.rs` checks it), whatever the
//! number of threads. Host actions must not share mutable state between agents other than
//! through their per-agent data (`Action` is `Send + Sync`, so the compiler holds them to
//! it).
//!
//! Three shapes of population, for three ways a game may hold its agents:
//! - [`tick_all`]: a slice of `(Agent, data)` pairs;
//! - [`tick_zip`]: two slices of the same length, agents and their data apart;
//! - [`tick_each`]: a slice of the game's own entities, each lending its agent and data
//!   through a function (`|e| (&mut e.brain, &mut e.body)`).
//!
//! Work is handed out in chunks of at least [`MIN_CHUNK`] agents: a tick is tens of
//! nanoseconds, so finer chunks would spend more on scheduling than on ticking.

use rayon::prelude::*;

use crate::agent::Agent;

/// The fewest agents one task ticks in a row.
pub const MIN_CHUNK: usize = 256;

/// Ticks every agent once with its own data (`Agent::tick(data, dt)`), in parallel.
pub fn tick_all<C: Send>(population: &mut [(Agent<C>, C)], dt: f64) {
    population
        .par_iter_mut()
        .with_min_len(MIN_CHUNK)
        .for_each(|(agent, data)| {
            agent.tick(data, dt);
        });
}

/// Ticks `agents[i]` with `data[i]` for every `i`, in parallel.
///
/// # Panics
/// If the slices' lengths differ: every agent needs its own data.
pub fn tick_zip<C: Send>(agents: &mut [Agent<C>], data: &mut [C], dt: f64) {
    assert_eq!(
        agents.len(),
        data.len(),
        "tick_zip: {} agents but data for {}",
        agents.len(),
        data.len()
    );
    agents
        .par_iter_mut()
        .zip(data.par_iter_mut())
        .with_min_len(MIN_CHUNK)
        .for_each(|(agent, data)| {
            agent.tick(data, dt);
        });
}

/// Ticks the agent of every entity with that entity's data, in parallel; `parts` lends
/// both from an entity (for a game whose entities hold their agent beside other fields).
pub fn tick_each<E, C, F>(entities: &mut [E], dt: f64, parts: F)
where
    E: Send,
    F: Fn(&mut E) -> (&mut Agent<C>, &mut C) + Sync,
{
    entities
        .par_iter_mut()
        .with_min_len(MIN_CHUNK)
        .for_each(|e| {
            let (agent, data) = parts(e);
            agent.tick(data, dt);
        });
}
