//! Observes: what a host condition's result depends on (rule 98), so that an agent whose
//! running path re-checks it can sleep.
//!
//! A host condition declared with [`Observes`] promises two things: its result is a
//! function of the inputs it names (the keys bound to its input ports, blackboard keys by
//! name, events, triggers) and of nothing else (not the clock, the RNG, the program's data
//! or the host world), and evaluating it has no effect. A condition registered without a
//! declaration reads the host world, which changes at every frame: attached with an abort,
//! it keeps its agent awake.
//!
//! While the agent sleeps, the engine reuses the result the condition gave at its last
//! evaluation as long as the keys it observes were not written since (their update numbers,
//! rule 66) and the triggers it observes hold the same values. Events need no record: an
//! agent with a visible event is awake anyway (rule 31).
//!
//! Limitations: a condition that observes more than 64 triggers is treated as reading the
//! host world.

use crate::args::{Arg, Args};
use crate::blackboard::{Blackboard, Key, KeyInfo};

/// What a host condition reads (rule 98); see the module documentation.
///
/// ```
/// use arbor_runtime::{NodeDecl, Observes, Registry};
///
/// struct Guard;
/// let mut decl = NodeDecl::<Guard>::condition("Alarmed", "Whether `level` is above 3.");
/// let level = decl.input::<i64>("level").required();
/// let mut registry = Registry::<Guard>::new();
/// registry.add(
///     decl.observes(Observes::ports().trigger("alarm"))
///         .tick(move |cx| arbor_runtime::Status::from_bool(cx.get(&level).is_some_and(|l| l > 3))),
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observes {
    ports: bool,
    keys: Vec<String>,
    events: Vec<String>,
    triggers: Vec<String>,
}

impl Observes {
    /// Nothing yet: add keys, events and triggers by name.
    pub fn nothing() -> Observes {
        Observes::default()
    }

    /// The keys bound to the node's parameters (a literal never changes).
    pub fn ports() -> Observes {
        Observes {
            ports: true,
            ..Observes::default()
        }
    }

    /// Also the blackboard key `name`, as [`Blackboard::key`] finds it (a key of the top
    /// tree); a name the tree does not declare observes nothing.
    pub fn key(mut self, name: &str) -> Observes {
        self.keys.push(name.to_owned());
        self
    }

    /// Also the event `name`.
    pub fn event(mut self, name: &str) -> Observes {
        self.events.push(name.to_owned());
        self
    }

    /// Also the trigger `name`.
    pub fn trigger(mut self, name: &str) -> Observes {
        self.triggers.push(name.to_owned());
        self
    }

    /// The events it names.
    pub fn events(&self) -> &[String] {
        &self.events
    }

    /// One node's observation in a loaded tree: `args` are the node's checked parameters
    /// (keys already the tree's), `keys` the tree's keys, `trigger` the tree's index of a
    /// trigger name. `None` when it cannot be followed exactly (more than 64 triggers):
    /// the node reads the host world.
    pub(crate) fn resolve(
        &self,
        args: &Args,
        keys: &[KeyInfo],
        mut trigger: impl FnMut(&str) -> u32,
    ) -> Option<Observation> {
        let mut found: Vec<Key> = Vec::new();
        if self.ports {
            found.extend(args.iter().filter_map(|arg| match arg {
                Arg::Bound { key, .. } => Some(*key),
                _ => None,
            }));
        }
        found.extend(self.keys.iter().filter_map(|name| {
            keys.iter()
                .position(|k| k.name == *name)
                .map(|i| Key(i as u32))
        }));
        found.sort();
        found.dedup();
        let mut watched: Vec<u32> = self.triggers.iter().map(|name| trigger(name)).collect();
        watched.sort();
        watched.dedup();
        (watched.len() <= 64).then(|| Observation {
            keys: found.into(),
            triggers: watched.into(),
        })
    }
}

/// An [`Observes`] resolved in one tree: the keys and triggers one condition node reads.
#[derive(Clone, Debug, Default)]
pub(crate) struct Observation {
    keys: Box<[Key]>,
    triggers: Box<[u32]>,
}

/// What an observed condition saw of its inputs: equal stamps, equal inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The sum of the observed keys' update numbers: each only grows by one per write, so
    /// the sum changes whenever one of them is written (fewer than 2^32 writes in a tick).
    writes: u32,
    /// The observed triggers' values, one bit each.
    triggers: u64,
}

impl Observation {
    /// The stamp of the inputs as they are.
    pub(crate) fn stamp(&self, bb: &Blackboard, triggers: &[bool]) -> Stamp {
        let writes = self
            .keys
            .iter()
            .fold(0u32, |sum, &k| sum.wrapping_add(bb.updates(k)));
        let triggers = self
            .triggers
            .iter()
            .enumerate()
            .fold(0u64, |bits, (bit, &t)| {
                bits | (u64::from(triggers.get(t as usize).copied().unwrap_or(false)) << bit)
            });
        Stamp { writes, triggers }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::value::{Value, ValueType};

    fn keys() -> Arc<[KeyInfo]> {
        ["a", "b"]
            .iter()
            .map(|n| KeyInfo {
                name: (*n).to_owned(),
                ty: ValueType::Int,
                default: Value::from(0i64),
            })
            .collect()
    }

    /// A write of an observed key changes the stamp, one of another key does not; a
    /// trigger's value is part of it.
    #[test]
    fn the_stamp_changes_with_what_is_observed_only() {
        let keys = keys();
        let triggers = ["t".to_owned(), "u".to_owned()];
        let seen = Observes::nothing()
            .key("b")
            .key("missing")
            .trigger("u")
            .resolve(&Args::default(), &keys, |name| {
                triggers.iter().position(|t| t == name).unwrap_or(9) as u32
            })
            .expect("few triggers");
        let mut bb = Blackboard::new(keys.clone());
        let before = seen.stamp(&bb, &[false, false]);
        bb.set(Key(0), 5i64).expect("an int key");
        assert_eq!(seen.stamp(&bb, &[true, false]), before);
        bb.set(Key(1), 5i64).expect("an int key");
        let written = seen.stamp(&bb, &[false, false]);
        assert_ne!(written, before);
        assert_ne!(seen.stamp(&bb, &[false, true]), written);
    }
}
