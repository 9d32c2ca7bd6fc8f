//! Instance: the host's handle on one registered agent. The host ticks through it instead
//! of `Agent::tick`; it applies the clients' requests at the start of the tick and, when
//! someone watches, traces the tick and queues a frame for each subscriber.
//!
//! Limitation: the handle describes the tree the agent ran when it was registered. After
//! `Agent::reload` onto another tree, register the agent again (frames for nodes or keys the
//! old tree did not have are left out, never trusted).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::blackboard_diff::BlackboardDiff;
use super::collector::TickCollector;
use super::hub::{lock, Hub};
use super::protocol::{PauseReason, ServerMessage};
use super::shared::{InstanceShared, Mode, TickFrame};
use crate::agent::Agent;
use crate::status::Status;

/// The host's handle on a registered agent, listed to clients until the handle is dropped.
/// Create it with [`DebugServer::register`](super::DebugServer::register) (the example
/// there shows a game loop), then tick the agent through [`Instance::tick`] or
/// [`Instance::tick_with`] instead of [`Agent::tick`]: that is where the clients' requests
/// (pause, step, breakpoints, blackboard writes) are applied, and where the ticks clients
/// watch are traced. The network threads never touch the agent.
///
/// The handle holds no borrow of the agent: pass the same agent to every tick call. It is
/// `Send` and `Sync`, so it can live next to the agent (in a game's component, on a
/// worker thread) away from the [`DebugServer`](super::DebugServer) that made it.
///
/// Limitation: the handle describes the tree the agent ran when it was registered. After
/// [`Agent::reload`] onto another tree, drop it and register the agent again.
pub struct Instance {
    shared: Arc<InstanceShared>,
    hub: Arc<Hub>,
    collector: TickCollector,
    diff: BlackboardDiff,
}

/// What the clients asked for, as read at the start of a tick call.
struct Plan {
    run: bool,
    stepping: bool,
    trace: bool,
}

impl Instance {
    pub(crate) fn new(shared: Arc<InstanceShared>, hub: Arc<Hub>) -> Instance {
        let mut collector = TickCollector::default();
        collector.resize(shared.guids.len());
        Instance {
            shared,
            hub,
            collector,
            diff: BlackboardDiff::default(),
        }
    }

    /// The instance id clients see (in `instances` listings, and in the requests that name
    /// this instance). Unique for the server's lifetime: registering the agent again gives
    /// a new one.
    pub fn id(&self) -> u64 {
        self.shared.id
    }

    /// The name the agent was registered under (e.g. `villager #3`), as clients list it.
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// Whether a client has paused the instance: a tick call would not tick (unless a
    /// client asked for a step). Always `false` while no client is connected, since the
    /// last client's disconnect releases every pause.
    pub fn is_paused(&self) -> bool {
        self.shared.mode() == Mode::Attend && self.shared.control().paused
    }

    /// `agent.tick(data, dt)`, unless a client paused the instance: then nothing happens
    /// and `None` is returned (the clock does not advance either). First applies what the
    /// clients queued for this instance (blackboard writes, breakpoints, steps), even
    /// while it is paused.
    ///
    /// With no client connected, this costs one relaxed atomic load on top of
    /// [`Agent::tick`] (benches/debug.rs measures both); nothing is traced unless a client
    /// subscribed to the instance or set a breakpoint on it.
    #[inline]
    pub fn tick<C>(&mut self, agent: &mut Agent<C>, data: &mut C, dt: f64) -> Option<Status> {
        match self.shared.mode() {
            Mode::Idle => Some(agent.tick(data, dt)),
            Mode::Count => {
                let status = agent.tick(data, dt);
                self.shared.ticks.store(agent.ticks(), Ordering::Relaxed);
                Some(status)
            }
            Mode::Attend => self.tick_attended(agent, data, dt, |_, _| {}),
        }
    }

    /// As [`Instance::tick`] for hosts with inputs (rule 2): advances the clock by `dt`,
    /// calls `inputs` (move the world, write the blackboard, raise events), then ticks the
    /// root. When the instance is paused neither happens.
    #[inline]
    pub fn tick_with<C, F>(
        &mut self,
        agent: &mut Agent<C>,
        data: &mut C,
        dt: f64,
        inputs: F,
    ) -> Option<Status>
    where
        F: FnOnce(&mut Agent<C>, &mut C),
    {
        // The cost of being debuggable when no client is connected: the relaxed load in
        // `mode`. With clients connected but none watching, a relaxed store as well.
        let mode = self.shared.mode();
        if mode == Mode::Attend {
            return self.tick_attended(agent, data, dt, inputs);
        }
        agent.advance(dt);
        inputs(agent, data);
        let status = agent.run(data);
        if mode == Mode::Count {
            self.shared.ticks.store(agent.ticks(), Ordering::Relaxed);
        }
        Some(status)
    }

    #[inline(never)]
    fn tick_attended<C, F>(
        &mut self,
        agent: &mut Agent<C>,
        data: &mut C,
        dt: f64,
        inputs: F,
    ) -> Option<Status>
    where
        F: FnOnce(&mut Agent<C>, &mut C),
    {
        let plan = self.take_requests(agent);
        if !plan.run {
            return None;
        }
        agent.advance(dt);
        inputs(agent, data);
        let status = if plan.trace {
            agent.run_traced(data, &mut self.collector)
        } else {
            agent.run(data)
        };
        self.shared.ticks.store(agent.ticks(), Ordering::Relaxed);
        if plan.trace {
            self.publish(agent, status);
        }
        let hit = self.collector.hit.take();
        self.pause_after(agent, hit, plan.stepping);
        Some(status)
    }

    /// Applies queued requests: blackboard writes (even while paused, so the next tick sees
    /// them) and breakpoint changes; decides whether to tick and trace.
    fn take_requests<C>(&mut self, agent: &mut Agent<C>) -> Plan {
        let (writes, plan) = {
            let mut control = self.shared.control();
            let writes = std::mem::take(&mut control.writes);
            control.writes_bytes = 0;
            if control.breakpoints_changed {
                control.breakpoints_changed = false;
                self.collector
                    .set_breakpoints(control.breakpoints.iter().copied());
            }
            // A step on a running instance pauses it after its next tick.
            let stepping = control.steps > 0;
            if stepping {
                control.steps -= 1;
            }
            let plan = Plan {
                run: !control.paused || stepping,
                stepping,
                trace: !control.subscribers.is_empty() || !control.breakpoints.is_empty(),
            };
            self.shared.update_active(&control);
            (writes, plan)
        };
        for (key, value) in writes {
            if let Err(e) = agent.blackboard_mut().set_json(&key, &value, None) {
                self.hub.log(&format!(
                    "instance {} ({}): cannot apply a client's write: {e}",
                    self.shared.id, self.shared.name
                ));
            }
        }
        plan
    }

    /// Queues this tick's frame to the subscribers (the fresh ones get every key).
    fn publish<C>(&mut self, agent: &Agent<C>, status: Status) {
        let nodes = self.collector.take_nodes();
        let shared = &self.shared;
        let mut control = shared.control();
        if control.subscribers.is_empty() {
            // Traced for breakpoints only. The snapshot may go stale: a new subscriber
            // gets every key anyway.
            return;
        }
        let changes = self.diff.changes(agent.blackboard());
        let frame = |nodes, blackboard| {
            Arc::new(TickFrame {
                instance: shared.id,
                tick: agent.ticks(),
                time: agent.now(),
                status,
                nodes,
                blackboard,
                guids: shared.guids.clone(),
                keys: shared.keys.clone(),
            })
        };
        let diff = frame(nodes, changes);
        // Built once, and only if a subscriber is fresh: it copies every value.
        let mut full = None;
        let every_key = &self.diff;
        control.publish(shared.id, &diff, || {
            full.get_or_insert_with(|| frame(diff.nodes.clone(), every_key.all()))
                .clone()
        });
        shared.update_active(&control);
    }

    /// Pauses after a tick that entered a breakpoint node or was a step, and says so.
    fn pause_after<C>(&mut self, agent: &Agent<C>, hit: Option<u32>, stepping: bool) {
        let reason = match (hit, stepping) {
            (Some(_), _) => PauseReason::Breakpoint,
            (None, true) => PauseReason::Step,
            (None, false) => return,
        };
        {
            let mut control = self.shared.control();
            control.paused = true;
            self.shared.update_active(&control);
        }
        let node = hit.and_then(|n| self.shared.guids.get(n as usize));
        self.hub.broadcast(&ServerMessage::Paused {
            instance: self.shared.id,
            reason,
            node: node.map(|g| g.to_string()),
            tick: agent.ticks(),
        });
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        lock(&self.hub.instances).remove(&self.shared.id);
        self.hub.instances_changed();
    }
}

impl std::fmt::Debug for Instance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Instance")
            .field("id", &self.shared.id)
            .field("name", &self.shared.name)
            .finish_non_exhaustive()
    }
}
