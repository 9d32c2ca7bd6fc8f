//! Snapshot: an agent's whole state as a versioned, self-describing serde value, and the
//! restore that gives an agent which goes on exactly as the one saved (rules 90 to 93).
//!
//! What an agent owns is its tree (shared, not saved) and its `exec::State`: node slots,
//! events, triggers, timers, the tick count, the blackboard (values, deadlines, update
//! numbers, clock) and the host side (the RNG and the host nodes' states). A snapshot holds
//! all of that state; the tree is named by its GUID and a hash of its structure, and a
//! restore into any other tree is refused.
//!
//! Bounded: a snapshot is read from text no larger than [`MAX_SNAPSHOT_BYTES`] (files go
//! through `files::read_text`), and every list in it is checked against the tree's own
//! sizes before the agent is built, so nothing is sized from a count the snapshot gives.
//! A restore either succeeds or returns an error and no agent.
//!
//! Limitations: a host node's state is saved only when it opts in
//! ([`crate::Registry::register_stateful_saved`]), a host composite's or decorator's never
//! (the built-in controls' always); a running node whose state is not saved is restarted
//! on restore (rule 92), and a stateful host condition attached as a decorator starts from
//! a fresh state. A non-finite float in the blackboard saves as no value.
//!
//! [`crate::Agent::restore`] takes a snapshot only into its own tree (same structure);
//! [`crate::Agent::restore_edited`] takes it into a later version of the tree, matching
//! state by place and shape (`edited`, rules 94 to 97), and hot reload does the same.

use std::path::Path;

use serde::{Deserialize, Serialize};

mod edited;
mod layout;
mod report;

pub use report::{DropReason, DroppedNode, NodeRef, RestoreReport};

pub(crate) use edited::apply_edited;
pub(crate) use layout::Layout;

use crate::blackboard::Key;
use crate::exec::{EventSlot, Slot};
use crate::trace::NodeId;
use crate::tree::CompiledTree;
use layout::{shape_text, Fnv};

/// The `format` field of every snapshot.
pub const SNAPSHOT_FORMAT: &str = "arbor-agent-snapshot";

/// The snapshot format version this runtime writes (docs/format.md). It reads this one and
/// version 1, which lacks the places and shapes a restore into an edited tree matches.
pub const SNAPSHOT_VERSION: u32 = 2;

/// The oldest snapshot format version this runtime reads.
pub const SNAPSHOT_OLDEST_VERSION: u32 = 1;

/// A snapshot's size checked before it is parsed: [`MAX_SNAPSHOT_BYTES`] at most.
fn within_limit(size: usize) -> Result<(), SnapshotError> {
    if size as u64 > MAX_SNAPSHOT_BYTES {
        return Err(SnapshotError::TooLarge {
            size,
            limit: MAX_SNAPSHOT_BYTES,
        });
    }
    Ok(())
}

/// A snapshot's format and version, read before the rest (in either form), so that a
/// future version is reported as such rather than as whatever field it added or changed.
#[derive(Deserialize)]
struct Header {
    format: String,
    version: u32,
}

impl Header {
    fn readable(self) -> Result<(), SnapshotError> {
        if readable(&self.format, self.version) {
            Ok(())
        } else {
            Err(SnapshotError::Version {
                format: self.format,
                version: self.version,
            })
        }
    }
}

fn readable(format: &str, version: u32) -> bool {
    format == SNAPSHOT_FORMAT && (SNAPSHOT_OLDEST_VERSION..=SNAPSHOT_VERSION).contains(&version)
}

/// The largest snapshot text read (16 MiB): far above any agent's state, small enough to
/// hold in memory.
pub const MAX_SNAPSHOT_BYTES: u64 = 16 << 20;

/// One agent's state at a moment between ticks ([`crate::Agent::snapshot`]). Serialise it
/// with serde (JSON: [`Snapshot::to_json`]); restore it with [`crate::Agent::restore`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Snapshot {
    /// Always [`SNAPSHOT_FORMAT`].
    pub format: String,
    /// The format version, [`SNAPSHOT_VERSION`] when written by this runtime.
    pub version: u32,
    /// The GUID of the tree the agent ran.
    pub tree: String,
    /// A hash of the tree's structure (nodes, kinds, GUIDs, keys, events, triggers).
    pub structure: String,
    /// Root ticks run so far.
    pub ticks: u64,
    /// The agent's clock, in seconds.
    pub now: f64,
    /// The clock at the last root tick and at the one before (`ActionCtx::dt`).
    #[serde(default)]
    pub ticked: [f64; 2],
    /// The RNG's state.
    pub rng: u64,
    /// Every blackboard key, in declaration order.
    pub blackboard: Vec<SavedKey>,
    /// The nodes whose slot is not idle and empty, by pre-order index and GUID.
    pub nodes: Vec<SavedNode>,
    /// Deadlines of the timed nodes, one per timer of the tree.
    pub timers: Vec<f64>,
    /// The names of the triggers set.
    pub triggers: Vec<String>,
    /// The events raised or sent recently enough to matter, by name.
    pub events: Vec<SavedEvent>,
    /// Host nodes' states, one per stateful node; `null` for a state that did not opt in.
    pub host: Vec<serde_json::Value>,
    /// The owner of each host state, parallel to `host` (rule 96); empty in version 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_owners: Vec<SavedOwner>,
    /// What the program keeps beside the agent's state (its own data for the agent, which
    /// the runtime does not know): `null` in a new snapshot, kept as is, never read by a
    /// restore. `arbor run` keeps its stubs' counts here.
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub program: serde_json::Value,
}

/// One blackboard key's entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedKey {
    /// The key's full name.
    pub key: String,
    /// Its value (`null`: none).
    pub value: serde_json::Value,
    /// When the value expires on the agent's clock (the write time plus the ttl); absent
    /// for a value that never does. The time left is `expires - now`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<f64>,
    /// Writes so far (rule 66).
    #[serde(default)]
    pub updates: u32,
}

/// One node's slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedNode {
    /// The node's pre-order index.
    pub index: u32,
    /// The node's GUID (checked against the tree's node at `index`).
    pub guid: String,
    /// In the middle of an execution.
    #[serde(default)]
    pub running: bool,
    /// Succeeded in its Parallel parent's current execution (rule 13).
    #[serde(default)]
    pub parallel_done: bool,
    /// A composite's current child, a Repeat's or Retry's count.
    #[serde(default)]
    pub cursor: u32,
    /// What the node keeps across executions (rules 6 and 19).
    #[serde(default)]
    pub persist: u32,
    /// The GUIDs of the Subtree nodes above it, joined by `/` (absent at top level).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub within: String,
    /// The node's name, for restore reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// A hash of its type, mode parameters, children and attached decorators (rule 94);
    /// absent in version 1.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub shape: String,
    /// A running timed node's deadline (also in `timers`, which a restore into an edited
    /// tree cannot index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<f64>,
}

/// The node or attached host condition that owns a host state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedOwner {
    /// Its place: the GUIDs of the Subtree nodes above it and its own, joined by `/`.
    pub place: String,
    /// Its shape (as [`SavedNode::shape`]).
    pub shape: String,
}

/// One event's last raise and send (rule 31).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedEvent {
    /// The event's name.
    pub name: String,
    /// The tick in which a host-raised event is visible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<u64>,
    /// The tick in which a SendEvent leaf last sent it, and that leaf's pre-order index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent: Option<(u64, u32)>,
    /// The place of the leaf that sent it (rule 97).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sender: Option<String>,
}

/// Why a snapshot could not be read or restored. No agent is built when there is one.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    /// The file could not be read (missing, not a regular file, too large, not UTF-8).
    #[error("{}: {problem}", .path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        problem: crate::files::ReadError,
    },
    /// The text is not a snapshot (corrupt or truncated JSON, a field missing or mistyped).
    #[error("not an agent snapshot: {0}")]
    Json(String),
    /// The bytes are not a snapshot in binary form (corrupt or truncated, a field missing
    /// or mistyped).
    #[error("not an agent snapshot in binary form: {0}")]
    Binary(String),
    /// The text is larger than [`MAX_SNAPSHOT_BYTES`].
    #[error("the snapshot is {size} bytes, more than the {limit} allowed")]
    TooLarge {
        /// Bytes given.
        size: usize,
        /// Bytes allowed.
        limit: u64,
    },
    /// Another format, or a version this runtime does not read.
    #[error("`{format}` version {version}: this runtime reads `{SNAPSHOT_FORMAT}` versions {SNAPSHOT_OLDEST_VERSION} to {SNAPSHOT_VERSION}")]
    Version {
        /// The snapshot's `format`.
        format: String,
        /// The snapshot's `version`.
        version: u32,
    },
    /// The snapshot was taken of an agent of another tree, or of another version of it.
    #[error("the snapshot is of tree {found} (structure {found_structure}), not of tree {tree} (structure {structure})")]
    OtherTree {
        /// The tree restored into.
        tree: String,
        /// Its structure hash.
        structure: String,
        /// The snapshot's tree.
        found: String,
        /// The snapshot's structure hash.
        found_structure: String,
    },
    /// A part of the snapshot does not fit the tree it names.
    #[error("{what}: {problem}")]
    Invalid {
        /// Where in the snapshot (`blackboard.hp`, `nodes[3]`).
        what: String,
        /// What is wrong.
        problem: String,
    },
}

fn invalid(what: impl Into<String>, problem: impl Into<String>) -> SnapshotError {
    SnapshotError::Invalid {
        what: what.into(),
        problem: problem.into(),
    }
}

impl Snapshot {
    /// The snapshot as pretty JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a snapshot is plain data and serialises")
    }

    /// Reads a snapshot from JSON text, checking its format and version (not yet its tree:
    /// [`crate::Agent::restore`] does).
    pub fn from_json(text: &str) -> Result<Snapshot, SnapshotError> {
        within_limit(text.len())?;
        serde_json::from_str::<Header>(text)
            .map_err(|e| SnapshotError::Json(e.to_string()))?
            .readable()?;
        let mut de = serde_json::Deserializer::from_str(text);
        let snapshot = serde_path_to_error::deserialize(&mut de)
            .map_err(|e| SnapshotError::Json(format!("{}: {}", e.path(), e.inner())))?;
        de.end().map_err(|e| SnapshotError::Json(e.to_string()))?;
        Ok(snapshot)
    }

    /// The snapshot in its compact binary form: MessagePack, fields by name (so that the
    /// optional ones may be absent, as in JSON): about half of the pretty JSON text.
    pub fn to_binary(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("a snapshot is plain data and serialises")
    }

    /// Reads a snapshot from its binary form ([`Snapshot::to_binary`]), checking its format
    /// and version first, as [`Snapshot::from_json`] does. At most [`MAX_SNAPSHOT_BYTES`];
    /// a length inside the data never sizes an allocation beyond what the data holds.
    pub fn from_binary(bytes: &[u8]) -> Result<Snapshot, SnapshotError> {
        within_limit(bytes.len())?;
        rmp_serde::from_slice::<Header>(bytes)
            .map_err(|e| SnapshotError::Binary(e.to_string()))?
            .readable()?;
        let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
        serde_path_to_error::deserialize(&mut de)
            .map_err(|e| SnapshotError::Binary(format!("{}: {}", e.path(), e.inner())))
    }

    /// Reads a snapshot file through the bounded reader ([`crate::files::read_text`]).
    pub fn read(path: &Path) -> Result<Snapshot, SnapshotError> {
        let text = crate::files::read_text(path, MAX_SNAPSHOT_BYTES).map_err(|problem| {
            SnapshotError::Read {
                path: path.to_owned(),
                problem,
            }
        })?;
        Snapshot::from_json(&text)
    }
}

/// A hash of what a snapshot's state depends on: every node's GUID, kind, children and
/// attached decorators, the keys' names and types, the events, triggers, timers and host
/// states. Parameter values are not in it: a snapshot restores into a tree whose only
/// changes are parameter values (rule 91). FNV-1a, 64 bits, as 16 hex digits.
pub fn structure_hash<C>(tree: &CompiledTree<C>) -> String {
    let mut h = Fnv::new();
    for (i, info) in tree.info.iter().enumerate() {
        let node = &tree.nodes[i];
        h.text(&info.guid);
        h.text(&info.kind);
        h.num(u64::from(node.child_count));
        for &c in tree.child_indices(i as u32) {
            h.num(u64::from(c));
        }
        for d in tree.decorators(NodeId(i as u32)) {
            h.text(&d.guid);
            h.text(&d.kind);
        }
        h.num(u64::MAX);
    }
    for key in tree.keys.iter() {
        h.text(&key.name);
        h.text(&key.ty.to_string());
    }
    for name in tree.events.iter().chain(&tree.triggers) {
        h.text(name);
    }
    h.num(u64::from(tree.timers));
    h.num(tree.states.len() as u64);
    format!("{:016x}", h.0)
}

/// The snapshot of an agent's state (`Agent::snapshot`).
pub(crate) fn capture<C>(tree: &CompiledTree<C>, state: &crate::exec::State) -> Snapshot {
    let bb = &state.bb;
    let layout = tree.layout();
    let blackboard = tree
        .keys
        .iter()
        .enumerate()
        .map(|(i, info)| {
            let (value, expires, updates) = bb.saved_entry(Key(i as u32));
            SavedKey {
                key: info.name.clone(),
                value: value.to_json(),
                expires,
                updates,
            }
        })
        .collect();
    let nodes = state
        .nodes
        .slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.running || s.parallel_done || s.cursor != 0 || s.persist != 0)
        .map(|(i, s)| SavedNode {
            index: i as u32,
            guid: tree.info[i].guid.clone(),
            running: s.running,
            parallel_done: s.parallel_done,
            cursor: s.cursor,
            persist: s.persist,
            within: layout.within[i].clone(),
            name: tree.info[i].name.clone(),
            shape: shape_text(layout.shape[i]),
            deadline: match tree.nodes[i].kind.duration() {
                Some(d) if s.running => Some(state.nodes.timers[d.timer as usize]),
                _ => None,
            },
        })
        .collect();
    let events = tree
        .events
        .iter()
        .zip(&state.nodes.events)
        .filter(|(_, e)| e.external.is_some() || e.sent.is_some())
        .map(|(name, e)| SavedEvent {
            name: name.clone(),
            external: e.external,
            sent: e.sent,
            sender: e
                .sent
                .map(|(_, sender)| sender as usize)
                .filter(|&sender| sender < tree.nodes.len())
                .map(|sender| layout.place_of(tree, sender)),
        })
        .collect();
    let host = tree
        .states
        .iter()
        .zip(&state.host.states)
        .map(|(maker, s)| match maker.saved {
            Some(saved) => (saved.save)(&**s),
            None => serde_json::Value::Null,
        })
        .collect();
    Snapshot {
        format: SNAPSHOT_FORMAT.to_owned(),
        version: SNAPSHOT_VERSION,
        tree: tree.guid.clone(),
        structure: structure_hash(tree),
        ticks: state.nodes.run,
        now: bb.now(),
        ticked: [state.host.ticked_at, state.host.ticked_before],
        rng: state.host.rng.state(),
        blackboard,
        nodes,
        timers: state.nodes.timers.clone(),
        triggers: tree
            .triggers
            .iter()
            .zip(&state.nodes.triggers)
            .filter(|(_, set)| **set)
            .map(|(name, _)| name.clone())
            .collect(),
        events,
        host,
        host_owners: layout
            .state_owner
            .iter()
            .map(|(place, shape)| SavedOwner {
                place: place.clone(),
                shape: shape_text(*shape),
            })
            .collect(),
        program: serde_json::Value::Null,
    }
}

/// Writes `snapshot` into `state`, a fresh agent's state for `tree`, checking every part
/// against the tree first. Returns the host-state indices that were not saved (their nodes
/// restart, rule 92). On error `state` may be half written: the caller drops it.
pub(crate) fn apply<C>(
    tree: &CompiledTree<C>,
    snapshot: &Snapshot,
    state: &mut crate::exec::State,
) -> Result<Vec<u32>, SnapshotError> {
    if !readable(&snapshot.format, snapshot.version) {
        return Err(SnapshotError::Version {
            format: snapshot.format.clone(),
            version: snapshot.version,
        });
    }
    let structure = structure_hash(tree);
    if snapshot.tree != tree.guid || snapshot.structure != structure {
        return Err(SnapshotError::OtherTree {
            tree: tree.guid.clone(),
            structure,
            found: snapshot.tree.clone(),
            found_structure: snapshot.structure.clone(),
        });
    }
    // Sizes first: each list is at most as long as the tree's own.
    if snapshot.blackboard.len() != tree.keys.len() {
        return Err(invalid(
            "blackboard",
            format!(
                "{} keys, the tree declares {}",
                snapshot.blackboard.len(),
                tree.keys.len()
            ),
        ));
    }
    if snapshot.nodes.len() > tree.nodes.len() {
        return Err(invalid(
            "nodes",
            format!(
                "{} entries, the tree has {} nodes",
                snapshot.nodes.len(),
                tree.nodes.len()
            ),
        ));
    }
    if snapshot.timers.len() != tree.timers as usize {
        return Err(invalid(
            "timers",
            format!(
                "{} deadlines, the tree has {} timers",
                snapshot.timers.len(),
                tree.timers
            ),
        ));
    }
    if snapshot.host.len() != tree.states.len() {
        return Err(invalid(
            "host",
            format!(
                "{} states, the tree has {} stateful nodes",
                snapshot.host.len(),
                tree.states.len()
            ),
        ));
    }
    if !snapshot.now.is_finite()
        || snapshot.ticked.iter().any(|t| !t.is_finite())
        || snapshot.timers.iter().any(|t| !t.is_finite())
    {
        return Err(invalid("now", "times must be finite numbers"));
    }

    for (i, (saved, info)) in snapshot.blackboard.iter().zip(tree.keys.iter()).enumerate() {
        let what = || format!("blackboard.{}", saved.key);
        if saved.key != info.name {
            return Err(invalid(what(), format!("expected key `{}`", info.name)));
        }
        let value = if saved.value.is_null() {
            crate::value::Value::Null
        } else {
            info.ty
                .coerce(&saved.value)
                .map_err(|found| invalid(what(), format!("not a {} value: {found}", info.ty)))?
        };
        if saved.expires.is_some_and(|t| !t.is_finite()) {
            return Err(invalid(what(), "`expires` must be a finite time"));
        }
        state
            .bb
            .restore_entry(Key(i as u32), value, saved.expires, saved.updates);
    }
    state.bb.restore_clock(snapshot.now);

    for (k, saved) in snapshot.nodes.iter().enumerate() {
        let what = || format!("nodes[{k}]");
        let Some(info) = tree.info.get(saved.index as usize) else {
            return Err(invalid(
                what(),
                format!("node {} of a tree of {}", saved.index, tree.nodes.len()),
            ));
        };
        if info.guid != saved.guid {
            return Err(invalid(
                what(),
                format!("node {} is {}, not {}", saved.index, info.guid, saved.guid),
            ));
        }
        state.nodes.slots[saved.index as usize] = Slot {
            running: saved.running,
            parallel_done: saved.parallel_done,
            cursor: saved.cursor,
            persist: saved.persist,
        };
    }
    check_cursors(tree, state)?;
    state.nodes.timers.copy_from_slice(&snapshot.timers);

    for name in &snapshot.triggers {
        let i = tree
            .triggers
            .iter()
            .position(|t| t == name)
            .ok_or_else(|| invalid(format!("triggers.{name}"), "the tree has no such trigger"))?;
        state.nodes.triggers[i] = true;
    }
    for saved in &snapshot.events {
        let what = || format!("events.{}", saved.name);
        let i = tree
            .events
            .iter()
            .position(|e| *e == saved.name)
            .ok_or_else(|| invalid(what(), "the tree has no such event"))?;
        if saved
            .sent
            .is_some_and(|(_, sender)| sender as usize >= tree.nodes.len() && sender != u32::MAX)
        {
            return Err(invalid(what(), "sent by a node the tree does not have"));
        }
        state.nodes.events[i] = EventSlot {
            external: saved.external,
            sent: saved.sent,
        };
    }
    state.nodes.run = snapshot.ticks;
    [state.host.ticked_at, state.host.ticked_before] = snapshot.ticked;
    state.host.rng = crate::rng::Rng::with_seed(snapshot.rng);

    let mut restart = Vec::new();
    for (i, (maker, json)) in tree.states.iter().zip(&snapshot.host).enumerate() {
        match maker.saved {
            Some(saved) => {
                state.host.states[i] =
                    (saved.load)(json).map_err(|e| invalid(format!("host[{i}]"), e))?;
            }
            None => restart.push(i as u32),
        }
    }
    Ok(restart)
}

/// The engine's own invariants on slots, which it relies on without checking (plain
/// loops index their children unchecked, `exec::unchecked`): an idle node's cursor is 0,
/// and a Sequence's or Selector's cursor and remembered child name one of its children.
fn check_cursors<C>(
    tree: &CompiledTree<C>,
    state: &crate::exec::State,
) -> Result<(), SnapshotError> {
    use crate::nodes::Kind;
    for (i, slot) in state.nodes.slots.iter().enumerate() {
        let node = &tree.nodes[i];
        let what = || format!("nodes[{}]", tree.info[i].guid);
        if !slot.running && slot.cursor != 0 {
            return Err(invalid(what(), "an idle node with a cursor"));
        }
        let children = node.child_count;
        let composite = matches!(node.kind, Kind::Sequence { .. } | Kind::Selector { .. });
        if composite && (slot.cursor >= children.max(1) || slot.persist > children) {
            return Err(invalid(
                what(),
                format!(
                    "cursor {} (remembered {}) of a node with {children} children",
                    slot.cursor, slot.persist
                ),
            ));
        }
    }
    Ok(())
}
