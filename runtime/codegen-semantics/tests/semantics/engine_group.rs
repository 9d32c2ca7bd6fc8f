//! The runtime's engine group (runtime/tests/engine), the tests whose trees go through the
//! helpers: no allocation per tick, `LastVisits`, hot reload. The rest of the group builds
//! the reference tree itself or needs features of its own.

// `net_bytes` serves state_size, which is not included.
#[allow(dead_code)]
#[path = "../../../tests/engine/counting_alloc.rs"]
pub(crate) mod counting_alloc;
#[path = "../../../tests/engine/last_visits.rs"]
mod last_visits;
#[path = "../../../tests/engine/no_alloc.rs"]
mod no_alloc;
#[path = "../../../tests/engine/reload.rs"]
mod reload;
