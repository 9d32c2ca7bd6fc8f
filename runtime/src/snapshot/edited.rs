//! Restoring a snapshot into an edited version of its tree: state matched by place and
//! shape (rules 94 to 97). [`crate::Agent::restore_edited`] and hot reload
//! ([`crate::Agent::reload`]) both go through [`apply_edited`].
//!
//! The saved nodes are taken in the new tree's pre-order, so a node's parent is decided
//! before the node: a running node stays running only under a parent that stays running
//! with the same shape, whose cursor therefore still names it. A running node whose parent
//! did not keep its run is restored and then aborted (its branch restarts through its
//! abort and exit calls, rule 96); a running node that was removed or changed has no code
//! in the new tree to call, and its parent, if kept, ticks the node at its place afresh.

use std::collections::HashMap;

use super::layout::{place, shape_text};
use super::report::{DropReason, DroppedNode, NodeRef, RestoreReport};
use super::{invalid, readable, Snapshot, SnapshotError};
use crate::blackboard::Key;
use crate::exec::{EventSlot, Slot};
use crate::trace::NodeId;
use crate::tree::CompiledTree;

/// What [`apply_edited`] leaves to the caller, who owns the engine.
pub(crate) struct Applied {
    /// Nodes of the new tree to abort, in pre-order (rules 92 and 96).
    pub abort: Vec<u32>,
    /// Saved nodes (by index in the snapshot's tree) that were running and do not stay
    /// running where they were: hot reload aborts these in the old tree first.
    pub ended: Vec<u32>,
    /// The report so far (the caller adds the nodes its aborts end).
    pub report: RestoreReport,
}

/// Writes `snapshot` into `state`, a fresh agent's state for `tree`, matching saved state
/// to the tree's nodes by place and shape. `same_tree`: refuse a snapshot of a tree with
/// another GUID (`restore_edited`; hot reload may switch files). On error `state` may be
/// half written: the caller drops it.
pub(crate) fn apply_edited<C>(
    tree: &CompiledTree<C>,
    snapshot: &Snapshot,
    state: &mut crate::exec::State,
    same_tree: bool,
) -> Result<Applied, SnapshotError> {
    if !readable(&snapshot.format, snapshot.version) {
        return Err(SnapshotError::Version {
            format: snapshot.format.clone(),
            version: snapshot.version,
        });
    }
    if same_tree && snapshot.tree != tree.guid {
        return Err(SnapshotError::OtherTree {
            tree: tree.guid.clone(),
            structure: super::structure_hash(tree),
            found: snapshot.tree.clone(),
            found_structure: snapshot.structure.clone(),
        });
    }
    let finite = |t: &f64| t.is_finite();
    if !finite(&snapshot.now)
        || !snapshot.ticked.iter().all(finite)
        || !snapshot.timers.iter().all(finite)
        || !snapshot
            .nodes
            .iter()
            .all(|n| n.deadline.as_ref().is_none_or(finite))
    {
        return Err(invalid("now", "times must be finite numbers"));
    }
    if !snapshot.host_owners.is_empty() && snapshot.host_owners.len() != snapshot.host.len() {
        return Err(invalid(
            "host_owners",
            format!(
                "{} owners of {} host states",
                snapshot.host_owners.len(),
                snapshot.host.len()
            ),
        ));
    }
    let mut report = RestoreReport::default();

    // Rule 97: keys by name and type.
    let keys: HashMap<&str, usize> = tree
        .keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.name.as_str(), i))
        .collect();
    for saved in &snapshot.blackboard {
        if saved.expires.is_some_and(|t| !t.is_finite()) {
            return Err(invalid(
                format!("blackboard.{}", saved.key),
                "`expires` must be a finite time",
            ));
        }
        let Some(&i) = keys.get(saved.key.as_str()) else {
            report.dropped_keys.push(saved.key.clone());
            continue;
        };
        let value = if saved.value.is_null() {
            crate::value::Value::Null
        } else {
            match tree.keys[i].ty.coerce(&saved.value) {
                Ok(v) => v,
                Err(_) => {
                    report.dropped_keys.push(saved.key.clone());
                    continue;
                }
            }
        };
        state
            .bb
            .restore_entry(Key(i as u32), value, saved.expires, saved.updates);
    }
    state.bb.restore_clock(snapshot.now);
    state.nodes.run = snapshot.ticks;
    [state.host.ticked_at, state.host.ticked_before] = snapshot.ticked;
    state.host.rng = crate::rng::Rng::with_seed(snapshot.rng);

    // Rules 94 and 95: each saved node to the node at its place, if of the same shape.
    let layout = tree.layout();
    let mut saved_at: Vec<Option<usize>> = vec![None; tree.nodes.len()];
    let mut ended = Vec::new();
    for (k, saved) in snapshot.nodes.iter().enumerate() {
        let node = NodeRef {
            guid: saved.guid.clone(),
            name: saved.name.clone(),
        };
        let drop = |reason| DroppedNode {
            node: node.clone(),
            reason,
            was_running: saved.running,
        };
        let reason = match layout.find(&place(&saved.within, &saved.guid)) {
            None => DropReason::Removed,
            Some(n) if saved.shape != shape_text(layout.shape[n as usize]) => DropReason::Changed,
            Some(n) => {
                if saved_at[n as usize].replace(k).is_some() {
                    return Err(invalid(
                        format!("nodes[{k}]"),
                        format!("a second entry for node {}", saved.guid),
                    ));
                }
                continue;
            }
        };
        report.dropped.push(drop(reason));
        if saved.running {
            ended.push(saved.index);
        }
    }
    let mut abort = Vec::new();
    for (n, at) in saved_at.iter().enumerate() {
        let Some(k) = *at else { continue };
        let saved = &snapshot.nodes[k];
        // The parent kept its run and its shape, so its cursor names this node as it did.
        let placed = match tree.parent(NodeId(n as u32)) {
            None => saved.index == 0,
            Some(p) => state.nodes.slots[p.index()].running,
        };
        if saved.running && !placed {
            abort.push(n as u32);
            ended.push(saved.index);
        }
        state.nodes.slots[n] = Slot {
            running: saved.running,
            parallel_done: saved.parallel_done && placed,
            cursor: saved.cursor,
            persist: saved.persist,
        };
        if let (true, Some(d)) = (saved.running, tree.nodes[n].kind.duration()) {
            let deadline = saved.deadline.ok_or_else(|| {
                invalid(
                    format!("nodes[{k}]"),
                    "a running timed node without its deadline",
                )
            })?;
            state.nodes.timers[d.timer as usize] = deadline;
        }
        report.kept.push(NodeRef {
            guid: tree.info[n].guid.clone(),
            name: tree.info[n].name.clone(),
        });
    }
    super::check_cursors(tree, state)?;

    // Rule 97: triggers and events by name; a sent event keeps its sender by place.
    for name in &snapshot.triggers {
        if let Some(i) = tree.triggers.iter().position(|t| t == name) {
            state.nodes.triggers[i] = true;
        }
    }
    for saved in &snapshot.events {
        let Some(i) = tree.events.iter().position(|e| *e == saved.name) else {
            continue;
        };
        let sender = |run| {
            let at = saved.sender.as_deref().and_then(|p| layout.find(p));
            (run, at.unwrap_or(u32::MAX))
        };
        state.nodes.events[i] = EventSlot {
            external: saved.external,
            sent: saved.sent.map(|(run, _)| sender(run)),
        };
    }

    // Rule 96: host states by their owner's place and shape.
    let owners: HashMap<(&str, &str), usize> = snapshot
        .host_owners
        .iter()
        .enumerate()
        .map(|(j, o)| ((o.place.as_str(), o.shape.as_str()), j))
        .collect();
    let mut fresh = vec![false; tree.states.len()];
    for (i, maker) in tree.states.iter().enumerate() {
        let (place, shape) = &layout.state_owner[i];
        let saved = owners
            .get(&(place.as_str(), shape_text(*shape).as_str()))
            .map(|&j| &snapshot.host[j]);
        match (maker.saved, saved) {
            (Some(kind), Some(json)) => {
                state.host.states[i] =
                    (kind.load)(json).map_err(|e| invalid(format!("host[{place}]"), e))?;
            }
            _ => fresh[i] = true,
        }
    }
    // Rule 92: a running owner of a state not restored restarts with a fresh state.
    for (n, node) in tree.nodes.iter().enumerate() {
        if let crate::nodes::Kind::Host { state: s, .. }
        | crate::nodes::Kind::Control { state: s, .. } = node.kind
        {
            if fresh.get(s as usize).copied().unwrap_or(false) && state.nodes.slots[n].running {
                abort.push(n as u32);
                if let Some(k) = saved_at[n] {
                    ended.push(snapshot.nodes[k].index);
                }
            }
        }
    }
    abort.sort_unstable();
    abort.dedup();
    Ok(Applied {
        abort,
        ended,
        report,
    })
}
