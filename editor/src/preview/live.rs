//! Live statuses: what each node of the document did in the ticks the preview ran, read
//! from the runtime's trace events, for the canvas to colour nodes and conditions.
//!
//! - [`NodeMap`] maps the compiled tree's [`NodeId`]s to document GUIDs. Nodes spliced in
//!   from a subtree file carry that file's GUIDs, which the document does not have: they
//!   map to the enclosing Subtree node (the outermost one, for nested subtrees), and their
//!   own events are not shown, because the Subtree node's own events already say whether
//!   the subtree is running, succeeded or failed.
//! - [`TickRecorder`] is the [`Observer`] for one tick: it keeps each visited node's final
//!   outcome (through the runtime's `LastVisits`) and each condition decorator's last
//!   result, compactly ([`TickRecord`]), and notices the first breakpoint entered.
//! - [`LiveState`] folds records into "the last visit of each node", keyed by GUID so it
//!   survives hot reloads (GUIDs are stable across edits; `NodeId`s are not).
//!
//! Mapping events to outcomes (docs/semantics.md rules 3 and 28): `Enter` and a `Tick` returning
//! running mean running; `Exit(Some(s))` is final (after post-decorators); `Abort` and
//! `Exit(None)` mean aborted, which counts as failure where a status is needed (rule 28).
//! A failed condition check on a node that did nothing else this tick means the node
//! returned failure without entering (rule 3, step 1): it is shown as failure too.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arbor_runtime::{LastVisits, NodeId, Observer, Status, TraceEvent};
use arbor_samples::TreeView;

use crate::live::{NodeLive, Outcome};

#[derive(Clone, Debug)]
struct MapEntry {
    /// The document GUID this node's statuses are shown on.
    shown_on: String,
    /// The node itself is in the document (not spliced in from a subtree file).
    own: bool,
    decorators: usize,
    name: String,
}

/// The compiled tree's node ids, mapped to the document's GUIDs. Built once per load.
#[derive(Clone, Debug, Default)]
pub struct NodeMap {
    entries: Vec<MapEntry>,
    own: HashMap<String, NodeId>,
}

impl NodeMap {
    pub fn new(tree: &dyn TreeView) -> NodeMap {
        let mut entries: Vec<MapEntry> = Vec::with_capacity(tree.len());
        let mut own = HashMap::new();
        for i in 0..tree.len() {
            let id = NodeId::from_index(i);
            let info = tree.info(id);
            // Pre-order: a parent's entry is always made before its children's.
            let enclosing = tree
                .parent(id)
                .and_then(|p| entries.get(p.index()).map(|e| (p, e)))
                .and_then(|(p, e)| {
                    if !e.own {
                        Some(e.shown_on.clone())
                    } else if tree.info(p).kind == "Subtree" {
                        Some(tree.info(p).guid.clone())
                    } else {
                        None
                    }
                });
            let entry = match enclosing {
                Some(shown_on) => MapEntry {
                    shown_on,
                    own: false,
                    decorators: tree.decorators(id).len(),
                    name: info.name.clone(),
                },
                None => {
                    own.entry(info.guid.clone()).or_insert(id);
                    MapEntry {
                        shown_on: info.guid.clone(),
                        own: true,
                        decorators: tree.decorators(id).len(),
                        name: info.name.clone(),
                    }
                }
            };
            entries.push(entry);
        }
        NodeMap { entries, own }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The document GUID whose node shows this node's activity: its own, or the enclosing
    /// Subtree node's. `None` for an id outside the tree.
    pub fn shown_on(&self, node: NodeId) -> Option<&str> {
        self.entries.get(node.index()).map(|e| e.shown_on.as_str())
    }

    /// Whether the node is one of the document's own (not from a subtree file).
    pub fn is_own(&self, node: NodeId) -> bool {
        self.entries.get(node.index()).is_some_and(|e| e.own)
    }

    /// The compiled node of a document GUID.
    pub fn find(&self, guid: &str) -> Option<NodeId> {
        self.own.get(guid).copied()
    }

    pub fn decorator_count(&self, node: NodeId) -> usize {
        self.entries.get(node.index()).map_or(0, |e| e.decorators)
    }

    pub fn name(&self, node: NodeId) -> &str {
        self.entries
            .get(node.index())
            .map_or("", |e| e.name.as_str())
    }
}

/// One recorded tick: which nodes it visited and how each visit ended, compactly.
#[derive(Clone, Debug)]
pub struct TickRecord {
    /// Tick number since the last reset, from 1.
    pub seq: u64,
    /// Preview time when it ran (see [`NodeLive::age`]).
    pub clock: f64,
    /// The agent's clock after the tick.
    pub now: f64,
    pub root: Status,
    /// The tree the node indices refer to (a hot reload changes them).
    pub map: Arc<NodeMap>,
    /// (node index, final outcome) of the nodes visited, in node (pre-)order.
    pub visits: Vec<(u32, Outcome)>,
    /// (node index, decorator index, passed): the last result of each check.
    pub checks: Vec<(u32, u32, bool)>,
}

/// The observer of one tick. Node outcomes go to the runtime's [`LastVisits`] (one store
/// per event, so the preview's tracing costs little next to the tick: docs/performance.md);
/// this adds condition results and the breakpoint check.
pub struct TickRecorder<'a> {
    map: &'a NodeMap,
    breakpoints: &'a HashSet<String>,
    visits: LastVisits,
    checks: Vec<(u32, u32, bool)>,
    /// The first node with a breakpoint that entered during the tick.
    pub hit: Option<NodeId>,
    /// Events observed: the tick's work, for the preview's budget (budget.rs).
    pub events: u64,
}

impl<'a> TickRecorder<'a> {
    pub fn new(map: &'a NodeMap, breakpoints: &'a HashSet<String>) -> TickRecorder<'a> {
        TickRecorder {
            map,
            breakpoints,
            visits: LastVisits::new(map.len()),
            checks: Vec::new(),
            hit: None,
            events: 0,
        }
    }

    /// The record of the tick, which returned `root`.
    pub fn finish(
        self,
        seq: u64,
        clock: f64,
        now: f64,
        root: Status,
        map: Arc<NodeMap>,
    ) -> TickRecord {
        TickRecord {
            seq,
            clock,
            now,
            root,
            map,
            visits: self
                .visits
                .visited()
                .map(|(n, v)| (n.index() as u32, Outcome::from_visit(v)))
                .collect(),
            checks: self.checks,
        }
    }
}

impl Observer for TickRecorder<'_> {
    // Inlined into the engine's call sites, where the event kind is known, so the match
    // folds away and a visit costs a store (docs/performance.md, "Tracing overhead").
    #[inline(always)]
    fn event(&mut self, event: TraceEvent<'_>) {
        self.events += 1;
        match event {
            TraceEvent::Enter(n) => {
                self.visits.record(n, arbor_runtime::Visit::Running);
                if !self.breakpoints.is_empty() && self.hit.is_none() {
                    self.check_breakpoint(n);
                }
            }
            TraceEvent::Check {
                node,
                decorator,
                passed,
            } => {
                let i = node.index() as u32;
                match self
                    .checks
                    .iter_mut()
                    .find(|c| c.0 == i && c.1 == decorator)
                {
                    Some(c) => c.2 = passed,
                    None => self.checks.push((i, decorator, passed)),
                }
                if !passed && self.visits.get(node).is_none() {
                    // Blocked before entering (rule 3): the parent sees failure. A node that
                    // was running is aborted next, which the following events record.
                    self.visits.record(node, arbor_runtime::Visit::Failure);
                }
            }
            other => self.visits.event(other),
        }
    }
}

impl TickRecorder<'_> {
    /// Out of line: it hashes a GUID, and runs only while breakpoints are set.
    #[inline(never)]
    fn check_breakpoint(&mut self, n: NodeId) {
        let hit = self.map.is_own(n)
            && self
                .map
                .shown_on(n)
                .is_some_and(|g| self.breakpoints.contains(g));
        if hit {
            self.hit = Some(n);
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Visit {
    outcome: Outcome,
    clock: f64,
    seq: u64,
}

#[derive(Clone, Debug, Default)]
struct Slot {
    visit: Option<Visit>,
    decorators: Vec<Option<bool>>,
    /// Preview time of the last check, for nodes only checked so far.
    checked: f64,
    checked_seq: u64,
}

/// The last visit of each document node, folded from tick records.
#[derive(Clone, Debug, Default)]
pub struct LiveState {
    slots: HashMap<String, Slot>,
}

impl LiveState {
    /// Folds one tick in.
    pub fn apply(&mut self, record: &TickRecord) {
        let map = &record.map;
        for &(node, outcome) in &record.visits {
            let id = NodeId::from_index(node as usize);
            if let Some(slot) = self.own_slot(map, id) {
                slot.visit = Some(Visit {
                    outcome,
                    clock: record.clock,
                    seq: record.seq,
                });
            }
        }
        for &(node, decorator, passed) in &record.checks {
            let id = NodeId::from_index(node as usize);
            if let Some(slot) = self.own_slot(map, id) {
                if let Some(d) = slot.decorators.get_mut(decorator as usize) {
                    *d = Some(passed);
                }
                slot.checked = record.clock;
                slot.checked_seq = record.seq;
            }
        }
    }

    fn own_slot(&mut self, map: &NodeMap, id: NodeId) -> Option<&mut Slot> {
        if !map.is_own(id) {
            return None;
        }
        let guid = map.shown_on(id)?;
        let count = map.decorator_count(id);
        // `get_mut` first: the GUID is only copied the first time a node is seen.
        if !self.slots.contains_key(guid) {
            self.slots.insert(guid.to_owned(), Slot::default());
        }
        let slot = self.slots.get_mut(guid)?;
        if slot.decorators.len() != count {
            slot.decorators = vec![None; count];
        }
        Some(slot)
    }

    /// After a hot reload to `map`: the old tree's running nodes were halted, nodes that
    /// are gone are forgotten, and decorator results are dropped where the list changed.
    pub fn rebase(&mut self, map: &NodeMap) {
        self.slots.retain(|guid, slot| {
            let Some(id) = map.find(guid) else {
                return false;
            };
            if let Some(visit) = &mut slot.visit {
                if visit.outcome == Outcome::Running {
                    visit.outcome = Outcome::Aborted;
                }
            }
            if slot.decorators.len() != map.decorator_count(id) {
                slot.decorators = vec![None; map.decorator_count(id)];
            }
            true
        });
    }

    /// What the canvas shows of `guid`, as seen at preview time `clock` and tick `seq`.
    pub fn node_live(&self, guid: &str, clock: f64, seq: u64) -> Option<NodeLive> {
        let slot = self.slots.get(guid)?;
        let (since, since_seq) = match slot.visit {
            Some(v) => (v.clock, v.seq),
            None => (slot.checked, slot.checked_seq),
        };
        Some(NodeLive {
            status: slot.visit.map(|v| v.outcome.status()),
            age: (clock - since).max(0.0) as f32,
            decorators: slot.decorators.clone(),
            aborted: slot.visit.is_some_and(|v| v.outcome == Outcome::Aborted),
            ticks_ago: seq.saturating_sub(since_seq),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use arbor_runtime::{CompiledTree, Registry};

    pub(crate) fn guid(n: u32) -> String {
        format!("00000000-0000-4000-8000-{n:012}")
    }

    /// `Sequence(1)[Scripted(2) with a Condition decorator on `go`, Scripted(3)]`.
    pub(crate) fn small_tree() -> CompiledTree<()> {
        let text = format!(
            r#"{{"format":"arbor-tree","version":1,"guid":"{t}","name":"t",
            "blackboard":[{{"key":"go","type":"bool","default":true}}],
            "root":"{a}","nodes":[
              {{"guid":"{a}","type":"Sequence","children":["{b}","{c}"]}},
              {{"guid":"{b}","type":"Scripted","params":{{"returns":["success"]}},
                "decorators":[{{"guid":"{d}","type":"Condition","params":{{"key":"go","equals":true}}}}]}},
              {{"guid":"{c}","type":"Scripted","params":{{"returns":["running"]}}}}
            ]}}"#,
            t = guid(0),
            a = guid(1),
            b = guid(2),
            c = guid(3),
            d = guid(4)
        );
        Registry::<()>::new()
            .loader()
            .load_str(&text, None)
            .expect("the test tree loads")
    }

    fn record(map: &Arc<NodeMap>, events: &[TraceEvent<'_>], seq: u64) -> TickRecord {
        let none = HashSet::new();
        let mut rec = TickRecorder::new(map, &none);
        for e in events {
            rec.event(*e);
        }
        rec.finish(seq, seq as f64, seq as f64, Status::Running, map.clone())
    }

    #[test]
    fn events_map_to_outcomes() {
        let tree = small_tree();
        let map = Arc::new(NodeMap::new(&tree));
        let [a, b, c] = [0, 1, 2].map(NodeId::from_index);
        let rec = record(
            &map,
            &[
                TraceEvent::Enter(a),
                TraceEvent::Check {
                    node: b,
                    decorator: 0,
                    passed: true,
                },
                TraceEvent::Enter(b),
                TraceEvent::Tick(b, Status::Success),
                TraceEvent::Exit(b, Some(Status::Failure)),
                TraceEvent::Enter(c),
                TraceEvent::Tick(c, Status::Running),
                TraceEvent::Tick(a, Status::Running),
            ],
            1,
        );
        assert_eq!(
            rec.visits,
            [
                (0, Outcome::Running),
                (1, Outcome::Failure),
                (2, Outcome::Running)
            ],
            "the exit's status (after post-decorators) is final"
        );
        let mut live = LiveState::default();
        live.apply(&rec);
        let b_live = live.node_live(&guid(2), 1.5, 1).expect("visited");
        assert_eq!(b_live.status, Some(Status::Failure));
        assert_eq!(b_live.decorators, [Some(true)]);
        assert_eq!(b_live.age, 0.5);
        assert_eq!(b_live.ticks_ago, 0);

        // Next tick the running leaf is aborted, and the first leaf's condition blocks it.
        let rec = record(
            &map,
            &[
                TraceEvent::Abort(a),
                TraceEvent::Abort(c),
                TraceEvent::Exit(c, None),
                TraceEvent::Exit(a, None),
                TraceEvent::Check {
                    node: b,
                    decorator: 0,
                    passed: false,
                },
            ],
            2,
        );
        live.apply(&rec);
        let c_live = live.node_live(&guid(3), 2.0, 2).expect("visited");
        assert_eq!(c_live.status, Some(Status::Failure));
        assert!(c_live.aborted);
        let b_live = live.node_live(&guid(2), 2.0, 2).expect("checked");
        assert_eq!(
            b_live.status,
            Some(Status::Failure),
            "blocked by its condition"
        );
        assert!(!b_live.aborted);
        assert_eq!(b_live.decorators, [Some(false)]);
        assert!(live.node_live(&guid(9), 2.0, 2).is_none());
    }

    #[test]
    fn a_reload_marks_halted_nodes_and_forgets_removed_ones() {
        let tree = small_tree();
        let map = Arc::new(NodeMap::new(&tree));
        let mut live = LiveState::default();
        let rec = record(
            &map,
            &[
                TraceEvent::Enter(NodeId::from_index(2)),
                TraceEvent::Tick(NodeId::from_index(2), Status::Running),
            ],
            1,
        );
        live.apply(&rec);
        live.rebase(&map);
        let c_live = live.node_live(&guid(3), 1.0, 1).expect("kept");
        assert!(c_live.aborted, "halted by the reload");
        live.rebase(&NodeMap::default());
        assert!(live.is_empty());
    }

    #[test]
    fn breakpoints_are_noticed_on_enter() {
        let tree = small_tree();
        let map = NodeMap::new(&tree);
        let breakpoints: HashSet<String> = [guid(3)].into_iter().collect();
        let mut rec = TickRecorder::new(&map, &breakpoints);
        rec.event(TraceEvent::Enter(NodeId::from_index(0)));
        rec.event(TraceEvent::Tick(NodeId::from_index(2), Status::Running));
        assert_eq!(rec.hit, None, "ticking a running node is not entering it");
        rec.event(TraceEvent::Enter(NodeId::from_index(2)));
        assert_eq!(rec.hit, Some(NodeId::from_index(2)));
    }

    #[test]
    fn subtree_nodes_map_to_the_subtree_node() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sub = format!(
            r#"{{"format":"arbor-tree","version":1,"guid":"{t}","name":"sub","root":"{a}",
            "nodes":[{{"guid":"{a}","type":"Inverter","children":["{b}"]}},
                     {{"guid":"{b}","type":"Scripted","params":{{"returns":["failure"]}}}}]}}"#,
            t = guid(20),
            a = guid(21),
            b = guid(22)
        );
        std::fs::write(dir.path().join("sub.json"), sub).expect("write the subtree");
        let main = format!(
            r#"{{"format":"arbor-tree","version":1,"guid":"{t}","name":"main","root":"{a}",
            "nodes":[{{"guid":"{a}","type":"Sequence","children":["{b}"]}},
                     {{"guid":"{b}","type":"Subtree","params":{{"path":"sub.json"}}}}]}}"#,
            t = guid(10),
            a = guid(11),
            b = guid(12)
        );
        let path = dir.path().join("main.json");
        let tree = Registry::<()>::new()
            .loader()
            .load_str(&main, Some(&path))
            .expect("loads with its subtree");
        assert_eq!(tree.len(), 4);
        let map = NodeMap::new(&tree);
        let shown: Vec<_> = (0..4)
            .map(|i| map.shown_on(NodeId::from_index(i)).map(str::to_owned))
            .collect();
        assert_eq!(
            shown,
            [guid(11), guid(12), guid(12), guid(12)].map(Some),
            "the subtree's Inverter and leaf show on the Subtree node"
        );
        assert!(map.is_own(NodeId::from_index(1)));
        assert!(!map.is_own(NodeId::from_index(3)));
        assert_eq!(map.find(&guid(12)), Some(NodeId::from_index(1)));
        assert_eq!(map.find(&guid(22)), None);

        // Ticking the real agent: the subtree's Inverter turns its leaf's failure into
        // success, so the Subtree node succeeds; the leaf's own failure is not shown.
        let mut agent = arbor_runtime::Agent::new(Arc::new(tree), 1);
        let map = Arc::new(map);
        let none = HashSet::new();
        let mut rec = TickRecorder::new(&map, &none);
        let root = agent.tick_traced(&mut (), 1.0, &mut rec);
        let record = rec.finish(1, 1.0, 1.0, root, map.clone());
        let mut live = LiveState::default();
        live.apply(&record);
        let sub_live = live.node_live(&guid(12), 1.0, 1).expect("the Subtree node");
        assert_eq!(sub_live.status, Some(Status::Success));
        assert!(live.node_live(&guid(22), 1.0, 1).is_none());
    }
}
