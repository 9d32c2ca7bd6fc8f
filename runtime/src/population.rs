//! Population: many agents ticked frame by frame, each only when it is due (rule 87) and
//! awake (rules 82 to 84), at a cost per frame proportional to the agents ticked, not to
//! the agents held.
//!
//! The agents run on the population's clock: each frame advances it by `dt` (one addition,
//! as [`Agent::advance`] makes it) and a ticked agent's clock is set to it
//! ([`Agent::catch_up`]), so a sleeping agent wakes at exactly the time an agent ticked
//! every frame would have reached. Agents ticked every frame wait in a list for the next
//! frame; the others (asleep, or with a tick interval) wait in a binary heap ordered by the
//! time of their next due frame ([`Pacing::next_check`]): a frame pops what is due, so a
//! sleeping agent costs nothing until then, and a wake-up costs `O(log n)`. An input given
//! through the population (blackboard, events, triggers, the agent's data) wakes the agent;
//! a blackboard write through [`Population::set`] only if the agent's next tick may then
//! do something (rules 98 and 99).

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use crate::agent::Agent;
use crate::blackboard::{Blackboard, BlackboardError, Key};
use crate::pacing::Pacing;
use crate::status::Status;
use crate::value::Value;

/// An agent's place in a [`Population`]: its index, in insertion order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberId(pub u32);

/// Agents with their program data, ticked together (see the module documentation).
pub struct Population<C> {
    members: Vec<Member<C>>,
    /// Agents ticked at the next frame: awake without an interval, or woken by an input.
    next: Vec<u32>,
    /// The frame's list while `next` fills for the following one (kept for its capacity).
    ready: Vec<u32>,
    /// Agents waiting for a later frame, by the time from which they are due.
    timers: BinaryHeap<Reverse<Timer>>,
    /// Per agent, whether it is considered at the frame being made
    /// (`Population::frame_parallel`); all false between frames, empty until first used.
    #[cfg(feature = "parallel")]
    due: Vec<bool>,
    now: f64,
    ticked: u64,
}

struct Member<C> {
    agent: Agent<C>,
    data: C,
    pacing: Pacing,
    status: Option<Status>,
    /// In `next`.
    queued: bool,
    /// Counts reschedulings: a heap entry with an older generation is stale.
    generation: u32,
}

/// A heap entry: check member `id` at the first frame at or after `at`.
#[derive(Clone, Copy, Debug)]
struct Timer {
    at: f64,
    id: u32,
    generation: u32,
}

impl PartialEq for Timer {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Timer {}

impl PartialOrd for Timer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timer {
    fn cmp(&self, other: &Self) -> Ordering {
        self.at
            .total_cmp(&other.at)
            .then(self.id.cmp(&other.id))
            .then(self.generation.cmp(&other.generation))
    }
}

impl<C> Default for Population<C> {
    fn default() -> Self {
        Population::new()
    }
}

impl<C> Population<C> {
    /// An empty population at time 0.
    pub fn new() -> Population<C> {
        Population {
            members: Vec::new(),
            next: Vec::new(),
            ready: Vec::new(),
            timers: BinaryHeap::new(),
            #[cfg(feature = "parallel")]
            due: Vec::new(),
            now: 0.0,
            ticked: 0,
        }
    }

    /// Adds an agent with its program data: it joins at the population's time (its clock
    /// is set to it) and is ticked at the next frame.
    pub fn insert(&mut self, agent: Agent<C>, data: C) -> MemberId {
        let id = self.members.len() as u32;
        let mut agent = agent;
        agent.catch_up(self.now, self.now);
        self.members.push(Member {
            agent,
            data,
            pacing: Pacing::new(self.now),
            status: None,
            queued: true,
            generation: 0,
        });
        self.next.push(id);
        MemberId(id)
    }

    /// As [`Population::insert`], with the agent's first tick at the first frame at or
    /// after `start` (its clock set then): to spread many agents' first ticks, so that
    /// agents running the same tree do not all wake at the same frame.
    pub fn insert_at(&mut self, agent: Agent<C>, data: C, start: f64) -> MemberId {
        let id = self.insert(agent, data);
        let m = &mut self.members[id.0 as usize];
        m.pacing = Pacing::starting_at(self.now, start);
        m.queued = false;
        self.next.pop();
        self.timers.push(Reverse(Timer {
            at: start,
            id: id.0,
            generation: m.generation,
        }));
        id
    }

    /// Number of agents.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the population holds no agent.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The population's clock, in seconds: the sum of the frames' `dt`.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Root ticks made so far, over all agents (slept-through frames are not ticks).
    pub fn ticks(&self) -> u64 {
        self.ticked
    }

    /// The agent.
    pub fn agent(&self, id: MemberId) -> &Agent<C> {
        &self.members[id.0 as usize].agent
    }

    /// The agent's program data.
    pub fn data(&self, id: MemberId) -> &C {
        &self.members[id.0 as usize].data
    }

    /// What the agent's root returned at its last due frame: a slept-through frame returns
    /// `running` (rule 82); `None` before its first tick.
    pub fn status(&self, id: MemberId) -> Option<Status> {
        self.members[id.0 as usize].status
    }

    /// The agent's schedule (interval, sleep).
    pub fn pacing(&self, id: MemberId) -> &Pacing {
        &self.members[id.0 as usize].pacing
    }

    /// Ticks the agent at most once per `seconds` (rule 87); 0: every frame.
    pub fn set_interval(&mut self, id: MemberId, seconds: f64) {
        self.members[id.0 as usize].pacing.set_interval(seconds);
        self.requeue(id);
    }

    /// Lets the agent sleep (the default) or not.
    pub fn set_sleeps(&mut self, id: MemberId, sleeps: bool) {
        self.members[id.0 as usize].pacing.set_sleeps(sleeps);
        self.requeue(id);
    }

    /// Ends the agent's sleep (rule 84): it is ticked at its next due frame. For changes
    /// the population does not see, such as world state that a sleeping host action reads.
    pub fn wake(&mut self, id: MemberId) {
        let m = &mut self.members[id.0 as usize];
        m.pacing.wake();
        // With an interval the agent's timer is at its next due frame already.
        if m.pacing.interval() == 0.0 {
            self.requeue(id);
        }
    }

    /// Considers the agent at the next frame, its timer (if any) made stale.
    fn requeue(&mut self, id: MemberId) {
        let m = &mut self.members[id.0 as usize];
        if !m.queued {
            m.generation = m.generation.wrapping_add(1);
            m.queued = true;
            self.next.push(id.0);
        }
    }

    /// The agent, to change anything (this wakes it).
    pub fn agent_mut(&mut self, id: MemberId) -> &mut Agent<C> {
        self.wake(id);
        let agent = &mut self.members[id.0 as usize].agent;
        // Inputs apply at the population's time (rule 2): a sleeping agent's clock is
        // brought forward first, as ticking it at every frame would have moved it.
        agent.set_clock(self.now);
        agent
    }

    /// The agent and its program data, to change both (to halt it, say; this wakes it).
    pub fn member_mut(&mut self, id: MemberId) -> (&mut Agent<C>, &mut C) {
        self.agent_mut(id);
        let m = &mut self.members[id.0 as usize];
        (&mut m.agent, &mut m.data)
    }

    /// The agent's program data, to change it (this wakes it).
    pub fn data_mut(&mut self, id: MemberId) -> &mut C {
        self.wake(id);
        &mut self.members[id.0 as usize].data
    }

    /// The agent's blackboard, to write inputs between frames (this wakes it).
    pub fn blackboard_mut(&mut self, id: MemberId) -> &mut Blackboard {
        self.agent_mut(id).blackboard_mut()
    }

    /// Writes `value` to the agent's key `key` (as [`Blackboard::set`], at the population's
    /// time), waking the agent only if its next tick may now do something (rules 98, 99):
    /// an agent asleep in a Wait, or in a host action waiting for another key, or
    /// re-checking conditions that do not read `key`, sleeps on. An agent asleep in a host
    /// action that slept by time ([`crate::ActionCtx::sleep_until`]) wakes, as that action
    /// may read any key.
    pub fn set(
        &mut self,
        id: MemberId,
        key: Key,
        value: impl Into<Value>,
    ) -> Result<(), BlackboardError> {
        let now = self.now;
        let agent = &mut self.members[id.0 as usize].agent;
        agent.set_clock(now);
        let written = agent.blackboard_mut().set(key, value);
        self.written(id);
        written
    }

    /// As [`Population::set`], by key name and from JSON, with an optional ttl in seconds
    /// (as [`Blackboard::set_json`]).
    pub fn set_json(
        &mut self,
        id: MemberId,
        name: &str,
        value: &serde_json::Value,
        ttl: Option<f64>,
    ) -> Result<(), BlackboardError> {
        let now = self.now;
        let agent = &mut self.members[id.0 as usize].agent;
        agent.set_clock(now);
        let written = agent.blackboard_mut().set_json(name, value, ttl);
        self.written(id);
        written
    }

    /// After a write to a sleeping agent's blackboard: wakes it unless its next tick is
    /// still idle, no later than it was due to wake.
    fn written(&mut self, id: MemberId) {
        let m = &self.members[id.0 as usize];
        if !m.pacing.is_asleep() {
            return;
        }
        match m.agent.next_wake() {
            Some(wake) if !wake.any_input && wake.at >= m.pacing.wake_at() => {}
            _ => self.wake(id),
        }
    }

    /// Raises an event for the agent's next tick (rule 31), waking it; as
    /// [`Agent::raise_event`].
    pub fn raise_event(&mut self, id: MemberId, name: &str) -> bool {
        self.agent_mut(id).raise_event(name)
    }

    /// Sets a trigger of the agent (rule 32), waking it; as [`Agent::set_trigger`].
    pub fn set_trigger(&mut self, id: MemberId, name: &str) -> bool {
        self.agent_mut(id).set_trigger(name)
    }

    /// One frame of `dt` seconds: every due, awake agent is ticked once ([`Agent::run`]).
    pub fn frame(&mut self, dt: f64) {
        self.frame_with(dt, |_, agent, data| agent.run(data));
    }

    /// As [`Population::frame`], with the root tick made by `tick` (a traced run, a
    /// debugger's): it gets the agent with its clock already set, and must tick the root
    /// once ([`Agent::run`], [`Agent::run_traced`]), not advance the clock.
    pub fn frame_with(
        &mut self,
        dt: f64,
        mut tick: impl FnMut(MemberId, &mut Agent<C>, &mut C) -> Status,
    ) {
        let (now, previous, ready) = self.begin_frame(dt);
        for &id in &ready {
            let m = &mut self.members[id as usize];
            self.ticked += u64::from(m.run(id, now, previous, &mut tick));
        }
        self.end_frame(ready);
    }

    /// Starts a frame of `dt` seconds: advances the clock and returns it, the previous
    /// frame's time and the agents to consider (`next` and the timers that are due).
    fn begin_frame(&mut self, dt: f64) -> (f64, f64, Vec<u32>) {
        let previous = self.now;
        self.now = previous + dt;
        let now = self.now;
        let mut ready = std::mem::take(&mut self.ready);
        ready.clear();
        std::mem::swap(&mut ready, &mut self.next);
        while let Some(Reverse(timer)) = self.timers.peek().copied() {
            if now < timer.at {
                break;
            }
            self.timers.pop();
            let m = &mut self.members[timer.id as usize];
            if m.generation == timer.generation && !m.queued {
                m.queued = true;
                ready.push(timer.id);
            }
        }
        (now, previous, ready)
    }

    /// Ends a frame: each agent considered waits for the next frame or for its timer.
    fn end_frame(&mut self, ready: Vec<u32>) {
        let now = self.now;
        for &id in &ready {
            let m = &mut self.members[id as usize];
            m.queued = false;
            let at = m.pacing.next_check();
            if at <= now {
                m.queued = true;
                self.next.push(id);
            } else {
                m.generation = m.generation.wrapping_add(1);
                self.timers.push(Reverse(Timer {
                    at,
                    id,
                    generation: m.generation,
                }));
            }
        }
        self.ready = ready;
    }
}

impl<C> Member<C> {
    /// At the frame whose time is `now`: ticks the agent (member `id`) with `tick` if it
    /// is due and awake, and keeps its status and schedule. Whether it was ticked.
    #[inline]
    fn run(
        &mut self,
        id: u32,
        now: f64,
        previous: f64,
        tick: &mut impl FnMut(MemberId, &mut Agent<C>, &mut C) -> Status,
    ) -> bool {
        let Some(before) = self.pacing.due(now, previous) else {
            return false;
        };
        self.agent.catch_up(now, before);
        let status = tick(MemberId(id), &mut self.agent, &mut self.data);
        self.status = Some(status);
        self.pacing.ticked(&self.agent, status);
        true
    }
}

/// Frames on every core (feature `parallel`).
#[cfg(feature = "parallel")]
impl<C: Send> Population<C> {
    /// As [`Population::frame`], ticking the due agents on every core (rayon's pool): the
    /// same agents, ticked once each, with the same results as [`Population::frame`]
    /// (agents are independent, `crate::parallel`); only the order in which they are
    /// ticked differs.
    pub fn frame_parallel(&mut self, dt: f64) {
        self.frame_parallel_with(dt, |_, agent, data| agent.run(data));
    }

    /// As [`Population::frame_with`], on every core: `tick` is called from several
    /// threads at once, each time for another agent.
    pub fn frame_parallel_with(
        &mut self,
        dt: f64,
        tick: impl Fn(MemberId, &mut Agent<C>, &mut C) -> Status + Sync,
    ) {
        use rayon::prelude::*;
        let (now, previous, ready) = self.begin_frame(dt);
        // The due agents marked in a flag per agent, scanned in chunks beside the agents:
        // disjoint borrows without sorting, at one byte per agent read per frame.
        let mut due = std::mem::take(&mut self.due);
        due.resize(self.members.len(), false);
        for &id in &ready {
            due[id as usize] = true;
        }
        let chunk = crate::parallel::MIN_CHUNK;
        let ticked: u64 = self
            .members
            .par_chunks_mut(chunk)
            .zip(due.par_chunks(chunk))
            .enumerate()
            .map(|(c, (members, due))| {
                let mut ticked = 0;
                let mut tick = |id, agent: &mut Agent<C>, data: &mut C| tick(id, agent, data);
                for (k, (m, &due)) in members.iter_mut().zip(due).enumerate() {
                    if due {
                        let id = (c * chunk + k) as u32;
                        ticked += u64::from(m.run(id, now, previous, &mut tick));
                    }
                }
                ticked
            })
            .sum();
        self.ticked += ticked;
        for &id in &ready {
            due[id as usize] = false;
        }
        self.due = due;
        self.end_frame(ready);
    }
}
