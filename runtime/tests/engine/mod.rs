//! The engine as a host sees it: no allocation per tick (the soldier tree's too), bytes per agent, `LastVisits`, hot
//! reload.

mod controls;
pub(crate) mod counting_alloc;
mod custom_nodes_example;
mod declared;
mod edited;
mod fast_paths;
mod generated;
mod layers;
// The reference tree of docs/performance.md, shared with benches/tick.rs.
#[path = "../../benches/reference/mod.rs"]
pub(crate) mod reference;

mod last_visits;
mod no_alloc;
mod observing;
mod parallel;
mod population;
mod reload;
mod snapshot;
mod soldier;
mod state_size;
#[cfg(feature = "tracing")]
mod tracing_events;
// The soldier tree, shared with benches/soldier.rs.
#[path = "../../benches/soldier_tree/mod.rs"]
pub(crate) mod soldier_tree;
