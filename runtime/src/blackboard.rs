//! Blackboard: one agent's typed key/value store with expiry (docs/semantics.md rule 33).
//!
//! Keys are declared in the tree file and resolved to [`Key`] indices when the tree is
//! compiled, so reads and writes at tick time are array accesses, never string hashing.
//! A value written at time `s` with ttl `n` is valid while `now <= s + n` (inclusive).
//!
//! Expiry happens when the clock moves ([`Blackboard::set_now`]): the clock only changes
//! between ticks, so clearing the values whose time is up then is exact, and a read is one
//! array access with no time test. Only keys written with a ttl are looked at (a list kept
//! with capacity for every key, so writing never allocates). Expiry is final: a clock
//! moved backwards does not bring an expired value back.
//!
//! Every write also counts: each key keeps an update number that every write (a node's,
//! the host's, an unset) increments, for the nodes that ask whether a key was written since
//! they last looked (rules 67 and 68). Only writes pay for it, one increment; reads do not
//! touch it. Expiry is not a write.

use std::sync::Arc;

use crate::entity::Entity;
use crate::value::{Value, ValueType};
use crate::vector::{Vec2, Vec3};

/// Time comparisons forgive this much rounding, so that ten steps of 0.1 s reach 1 s.
pub(crate) const TIME_EPSILON: f64 = 1e-9;

/// A resolved blackboard key: an index into the agent's key table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub(crate) u32);

impl Key {
    /// The key's slot in the blackboard (its declaration order).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A declared key as compiled: its full name, type and default.
#[derive(Clone, Debug)]
pub struct KeyInfo {
    /// For keys private to a subtree instance, `instance/key`.
    pub name: String,
    /// The declared value type.
    pub ty: ValueType,
    /// The value at time 0 ([`Value::Null`] when none is declared).
    pub default: Value,
}

/// Bytes one key takes in an agent's blackboard (values' shared heap data aside): its
/// entry, its place in the expiry list and its update number.
pub(crate) const ENTRY_SIZE: usize = std::mem::size_of::<Entry>()
    + std::mem::size_of::<u32>()
    + std::mem::size_of::<bool>()
    + std::mem::size_of::<u32>();

#[derive(Clone, Debug)]
struct Entry {
    value: Value,
    /// The value is valid while `now <= deadline`: the write time plus the ttl plus
    /// [`TIME_EPSILON`], or infinity for a value that never expires.
    deadline: f64,
}

impl Entry {
    fn new(value: Value, now: f64, ttl: f64) -> Entry {
        if ttl.is_nan() {
            // Never valid, as `now <= written + NaN` never holds.
            return Entry {
                value: Value::Null,
                deadline: f64::INFINITY,
            };
        }
        let deadline = if ttl < 0.0 {
            f64::INFINITY
        } else {
            now + ttl + TIME_EPSILON
        };
        Entry { value, deadline }
    }
}

/// A host write the blackboard refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BlackboardError {
    #[error("no blackboard key named `{0}`")]
    /// No key of that name is declared.
    UnknownKey(String),
    #[error("key `{key}` holds {expected} values; got {found}")]
    /// The value does not have the key's declared type.
    WrongType {
        /// The key.
        key: String,
        /// Its declared type.
        expected: ValueType,
        /// What was given.
        found: String,
    },
}

/// One agent's blackboard.
#[derive(Clone, Debug)]
pub struct Blackboard {
    keys: Arc<[KeyInfo]>,
    entries: Vec<Entry>,
    now: f64,
    /// Keys whose value has a finite deadline (and some that had one since the last
    /// sweep), each at most once, as `listed` says; capacity for all keys.
    expiring: Vec<u32>,
    listed: Vec<bool>,
    /// Writes so far per key, wrapping (rules 66 to 68); 0 for a key never written (its
    /// default is not a write). Kept beside the entries, not in them: an entry stays a
    /// value and a deadline (40 bytes, a `vec3` being the largest value), which is what a
    /// read's address arithmetic and a write's move cost.
    updates: Vec<u32>,
}

impl Blackboard {
    /// A blackboard holding every key's default, written at time 0 (rule 2).
    pub(crate) fn new(keys: Arc<[KeyInfo]>) -> Blackboard {
        let entries = keys
            .iter()
            .map(|k| Entry::new(k.default.clone(), 0.0, -1.0))
            .collect();
        Blackboard {
            expiring: Vec::with_capacity(keys.len()),
            listed: vec![false; keys.len()],
            updates: vec![0; keys.len()],
            keys,
            entries,
            now: 0.0,
        }
    }

    /// The current time on the agent's clock, in seconds.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Moves the clock and clears the values whose time is up (rule 33).
    #[inline]
    pub(crate) fn set_now(&mut self, now: f64) {
        self.now = now;
        if !self.expiring.is_empty() {
            self.expire();
        }
    }

    /// The earliest time at which a value may expire as the clock moves (the value is
    /// valid up to this time, inclusive); `None` when no value has a deadline. For a
    /// sleeping agent (rule 82), whose conditions may read the value.
    pub(crate) fn next_expiry(&self) -> Option<f64> {
        self.expiring
            .iter()
            .map(|&k| self.entries[k as usize].deadline)
            .filter(|d| d.is_finite())
            .min_by(f64::total_cmp)
    }

    #[inline(never)]
    fn expire(&mut self) {
        let now = self.now;
        let (entries, listed) = (&mut self.entries, &mut self.listed);
        self.expiring.retain(|&k| {
            let entry = &mut entries[k as usize];
            let keep = if entry.deadline == f64::INFINITY {
                false // rewritten without a ttl since
            } else if now <= entry.deadline {
                true
            } else {
                entry.value = Value::Null;
                entry.deadline = f64::INFINITY;
                false
            };
            listed[k as usize] = keep;
            keep
        });
    }

    /// Resolves a key by name; do this once, not per tick.
    pub fn key(&self, name: &str) -> Option<Key> {
        self.keys
            .iter()
            .position(|k| k.name == name)
            .map(|i| Key(i as u32))
    }

    /// The declaration of `key`.
    pub fn info(&self, key: Key) -> &KeyInfo {
        &self.keys[key.index()]
    }

    /// All keys in declaration order.
    pub fn keys(&self) -> impl Iterator<Item = (Key, &KeyInfo)> {
        self.keys
            .iter()
            .enumerate()
            .map(|(i, k)| (Key(i as u32), k))
    }

    /// The key's valid value: `None` if it was never written or has expired (rule 33).
    pub fn get(&self, key: Key) -> Option<&Value> {
        match self.value(key) {
            Value::Null => None,
            value => Some(value),
        }
    }

    /// The key's value, `Null` when it has none (expired values are cleared as the clock
    /// moves): for typed reads, which turn `Null` into `None` themselves, so the hot path
    /// tests it once.
    #[inline(always)]
    pub(crate) fn value(&self, key: Key) -> &Value {
        &self.entries[key.index()].value
    }

    /// Seconds until the key's value expires; `None` if it never expires or is not valid.
    pub fn remaining(&self, key: Key) -> Option<f64> {
        let entry = &self.entries[key.index()];
        if entry.deadline == f64::INFINITY || self.get(key).is_none() {
            None
        } else {
            Some((entry.deadline - TIME_EPSILON - self.now).max(0.0))
        }
    }

    /// The key's valid value as a number (an int is widened); `None` if it has none or another type.
    pub fn get_f64(&self, key: Key) -> Option<f64> {
        self.get(key).and_then(Value::as_f64)
    }

    /// The key's valid value as an integer; `None` if it has none or another type.
    pub fn get_i64(&self, key: Key) -> Option<i64> {
        self.get(key).and_then(Value::as_i64)
    }

    /// The key's valid value as a boolean; `None` if it has none or another type.
    pub fn get_bool(&self, key: Key) -> Option<bool> {
        self.get(key).and_then(Value::as_bool)
    }

    /// The key's valid value as a string; `None` if it has none or another type.
    pub fn get_str(&self, key: Key) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    /// The key's valid value as a [`Vec2`]; `None` if it has none or another type.
    pub fn get_vec2(&self, key: Key) -> Option<Vec2> {
        match self.value(key) {
            Value::Vec2(v) => Some(*v),
            _ => None,
        }
    }

    /// The key's valid value as a [`Vec3`]; `None` if it has none or another type.
    pub fn get_vec3(&self, key: Key) -> Option<Vec3> {
        match self.value(key) {
            Value::Vec3(v) => Some(*v),
            _ => None,
        }
    }

    /// The key's valid value as an [`Entity`]; `None` if it has none or another type.
    pub fn get_entity(&self, key: Key) -> Option<Entity> {
        match self.value(key) {
            Value::Entity(e) => Some(*e),
            _ => None,
        }
    }

    /// Writes a value that never expires, at the current time.
    pub fn set(&mut self, key: Key, value: impl Into<Value>) -> Result<(), BlackboardError> {
        self.set_with_ttl(key, value, None)
    }

    /// Writes a value valid for `ttl` seconds (none or negative: forever).
    pub fn set_with_ttl(
        &mut self,
        key: Key,
        value: impl Into<Value>,
        ttl: Option<f64>,
    ) -> Result<(), BlackboardError> {
        let info = &self.keys[key.index()];
        let mut value = value.into();
        if !value.fits(info.ty) {
            return Err(BlackboardError::WrongType {
                key: info.name.clone(),
                expected: info.ty,
                found: value.to_string(),
            });
        }
        if let (ValueType::Float, Value::Int(i)) = (info.ty, &value) {
            value = Value::Float(*i as f64);
        }
        self.write(key, value, ttl.unwrap_or(-1.0));
        Ok(())
    }

    /// Writes a JSON value by key name, converting it to the key's type: the form used by
    /// stimuli files, the CLI and the editor's blackboard view.
    pub fn set_json(
        &mut self,
        name: &str,
        json: &serde_json::Value,
        ttl: Option<f64>,
    ) -> Result<(), BlackboardError> {
        let key = self
            .key(name)
            .ok_or_else(|| BlackboardError::UnknownKey(name.to_owned()))?;
        let info = &self.keys[key.index()];
        let value = if json.is_null() {
            Value::Null
        } else {
            info.ty
                .coerce(json)
                .map_err(|found| BlackboardError::WrongType {
                    key: info.name.clone(),
                    expected: info.ty,
                    found,
                })?
        };
        self.write(key, value, ttl.unwrap_or(-1.0));
        Ok(())
    }

    /// Number of keys.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// How many times `key` has been written (wrapping at `u32::MAX`): a number that
    /// changes with every write, the host's and the tree's, unsets included, and never
    /// otherwise (expiry is not a write). 0 for a key never written. Nodes compare it with
    /// the number they saw last to tell whether the key was written since (rules 67, 68).
    pub fn updates(&self, key: Key) -> u32 {
        self.updates[key.index()]
    }

    /// Removes the key's value (rule 69): reads then find none, as for a key never
    /// written; counts as a write.
    pub fn unset(&mut self, key: Key) {
        self.write(key, Value::Null, -1.0);
    }

    /// Typed writes from nodes: the value was checked against the key's type at load.
    /// Always inlined: as an out-of-line call the update count made every output write
    /// cost about 25 instructions more (callgrind, docs/performance.md "Bound parameters").
    #[inline(always)]
    pub(crate) fn write(&mut self, key: Key, value: Value, ttl: f64) {
        if ttl < 0.0 {
            // The common case: a value that never expires.
            self.entries[key.index()] = Entry {
                value,
                deadline: f64::INFINITY,
            };
        } else {
            let entry = Entry::new(value, self.now, ttl);
            self.list_if_expiring(key.index(), &entry);
            self.entries[key.index()] = entry;
        }
        // Counted after the store: counted before it, the value was moved through the
        // stack around the count (callgrind: about 10 instructions more per write).
        let updates = &mut self.updates[key.index()];
        *updates = updates.wrapping_add(1);
    }

    /// Appends `tail` to the valid string value of `key`, as a write of the longer text
    /// that never expires (`write` with a negative ttl): in place when the blackboard holds
    /// the only handle on it (`Text::push_str`). Returns the bytes written or moved;
    /// `None`, and nothing written, when the key holds no string.
    pub(crate) fn append_str(&mut self, key: Key, tail: &str) -> Option<u64> {
        let entry = &mut self.entries[key.index()];
        let Value::Str(text) = &mut entry.value else {
            return None;
        };
        let moved = text.push_str(tail);
        entry.deadline = f64::INFINITY;
        let updates = &mut self.updates[key.index()];
        *updates = updates.wrapping_add(1);
        Some(moved)
    }

    fn list_if_expiring(&mut self, i: usize, entry: &Entry) {
        if entry.deadline != f64::INFINITY && !self.listed[i] {
            self.listed[i] = true;
            self.expiring.push(i as u32);
        }
    }

    /// Key `key`'s entry as a snapshot saves it: the value (`Null` when none), its
    /// deadline (`None`: never expires) and its update number.
    pub(crate) fn saved_entry(&self, key: Key) -> (&Value, Option<f64>, u32) {
        let entry = &self.entries[key.index()];
        let deadline = (entry.deadline != f64::INFINITY).then_some(entry.deadline);
        (&entry.value, deadline, self.updates[key.index()])
    }

    /// Puts back an entry [`Blackboard::saved_entry`] gave, the value already checked
    /// against the key's type; the clock is set apart ([`Blackboard::restore_clock`]).
    pub(crate) fn restore_entry(
        &mut self,
        key: Key,
        value: Value,
        deadline: Option<f64>,
        updates: u32,
    ) {
        let entry = Entry {
            value,
            deadline: deadline.unwrap_or(f64::INFINITY),
        };
        self.list_if_expiring(key.index(), &entry);
        self.entries[key.index()] = entry;
        self.updates[key.index()] = updates;
    }

    /// Sets the clock without expiring anything: a snapshot's values are as they were at
    /// its time.
    pub(crate) fn restore_clock(&mut self, now: f64) {
        self.now = now;
    }

    /// Every key with its valid value as JSON (`null` when none), in declaration order.
    pub fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.keys()
            .map(|(key, info)| {
                let value = self
                    .get(key)
                    .map_or(serde_json::Value::Null, Value::to_json);
                (info.name.clone(), value)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Blackboard {
        Blackboard::new(Arc::from(vec![
            KeyInfo {
                name: "hp".into(),
                ty: ValueType::Float,
                default: Value::Float(10.0),
            },
            KeyInfo {
                name: "seen".into(),
                ty: ValueType::Bool,
                default: Value::Null,
            },
            KeyInfo {
                name: "pos".into(),
                ty: ValueType::Vec2,
                default: Value::Vec2(Vec2::new(1.0, 2.0)),
            },
            KeyInfo {
                name: "target".into(),
                ty: ValueType::Entity,
                default: Value::Null,
            },
        ]))
    }

    #[test]
    fn rule33_ttl_bound_is_inclusive() {
        let mut bb = board();
        let seen = bb.key("seen").unwrap();
        bb.set_now(2.0);
        bb.set_with_ttl(seen, true, Some(3.0)).unwrap();
        bb.set_now(5.0);
        assert_eq!(bb.get_bool(seen), Some(true));
        assert_eq!(bb.remaining(seen), Some(0.0));
        bb.set_now(5.5);
        assert_eq!(bb.get(seen), None);
    }

    #[test]
    fn rule33_defaults_never_expire_and_negative_ttl_means_forever() {
        let mut bb = board();
        let hp = bb.key("hp").unwrap();
        let seen = bb.key("seen").unwrap();
        assert_eq!(bb.get(seen), None, "no default: no valid value");
        bb.set_with_ttl(seen, false, Some(-1.0)).unwrap();
        bb.set_now(1e9);
        assert_eq!(bb.get_f64(hp), Some(10.0));
        assert_eq!(bb.get_bool(seen), Some(false));
    }

    #[test]
    fn host_writes_are_type_checked() {
        let mut bb = board();
        let hp = bb.key("hp").unwrap();
        assert!(bb.set(hp, 3).is_ok(), "ints widen to float keys");
        assert_eq!(bb.get(hp), Some(&Value::Float(3.0)));
        let err = bb.set(hp, "lots").unwrap_err();
        assert_eq!(err.to_string(), "key `hp` holds float values; got \"lots\"");
        assert!(bb.set_json("nope", &serde_json::json!(1), None).is_err());
    }

    #[test]
    fn native_values_are_typed_on_write_and_read_back_unboxed() {
        let mut bb = board();
        let (pos, target) = (bb.key("pos").unwrap(), bb.key("target").unwrap());
        assert_eq!(bb.get_vec2(pos), Some(Vec2::new(1.0, 2.0)), "the default");
        bb.set(pos, Vec2::new(3.0, 4.0)).unwrap();
        assert_eq!(bb.get_vec2(pos), Some(Vec2::new(3.0, 4.0)));
        assert_eq!(bb.get_vec3(pos), None, "another type");
        let err = bb.set(pos, Vec3::new(1.0, 2.0, 3.0)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "key `pos` holds vec2 values; got [1.0,2.0,3.0]"
        );
        assert!(bb.set(pos, 7).is_err());
        assert!(bb.set(target, Entity(9)).is_ok());
        assert_eq!(bb.get_entity(target), Some(Entity(9)));
        assert!(bb.set(target, 9).is_err(), "an int is not an entity");
        bb.set_json("pos", &serde_json::json!({"x": 5, "y": 6}), None)
            .unwrap();
        assert_eq!(bb.get_vec2(pos), Some(Vec2::new(5.0, 6.0)));
        assert_eq!(bb.to_json()["pos"], serde_json::json!([5.0, 6.0]));
    }

    #[test]
    fn rule66_every_write_counts_and_nothing_else_does() {
        let mut bb = board();
        let (hp, seen) = (bb.key("hp").unwrap(), bb.key("seen").unwrap());
        assert_eq!(bb.updates(hp), 0, "a default is not a write");
        bb.set(hp, 3.0).unwrap();
        bb.set(hp, 3.0).unwrap();
        assert_eq!(bb.updates(hp), 2, "the same value written again is a write");
        assert_eq!(bb.updates(seen), 0, "other keys are not touched");
        bb.set_with_ttl(seen, true, Some(1.0)).unwrap();
        bb.set_now(5.0);
        assert_eq!(bb.get(seen), None);
        assert_eq!(bb.updates(seen), 1, "expiry is not a write");
        bb.unset(hp);
        assert_eq!(bb.get(hp), None, "rule 69: an unset key has no value");
        assert_eq!(bb.updates(hp), 3, "an unset is a write");
        assert!(bb.set(hp, "x").is_err());
        assert_eq!(bb.updates(hp), 3, "a refused write is not a write");
    }

    #[test]
    fn rule66_update_numbers_wrap_and_reads_leave_them_alone() {
        let mut bb = board();
        let hp = bb.key("hp").unwrap();
        bb.updates[hp.index()] = u32::MAX;
        bb.set(hp, 1.0).unwrap();
        assert_eq!(bb.updates(hp), 0, "the 2^32-th write wraps to 0");
        bb.set(hp, 2.0).unwrap();
        assert_eq!(bb.get_f64(hp), Some(2.0));
        assert_eq!(bb.updates(hp), 1, "a read is not a write");
    }
}
