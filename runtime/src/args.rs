//! Args: a node's parameters after the loader checked them against the node type's
//! declaration: typed, defaults filled in, blackboard keys resolved.

use std::sync::Arc;

use crate::blackboard::Key;
use crate::status::Status;
use crate::value::Value;

/// One checked parameter.
#[derive(Clone, Debug)]
pub enum Arg {
    /// bool, int, float, string, enum, path, event and trigger parameters, and key values.
    Value(Value),
    /// A blackboard key.
    Key(Key),
    Statuses(Arc<[Status]>),
    /// `name -> parent key name` pairs of a remapping, in file order.
    KeyMap(Vec<(String, String)>),
}

/// The checked parameters of one node, in declaration order.
#[derive(Clone, Debug, Default)]
pub struct Args {
    items: Vec<(String, Arg)>,
}

impl Args {
    pub(crate) fn push(&mut self, name: &str, arg: Arg) {
        self.items.push((name.to_owned(), arg));
    }

    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.items.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// A plain value parameter; `None` if absent (optional and not given).
    pub fn value(&self, name: &str) -> Option<&Value> {
        match self.get(name) {
            Some(Arg::Value(v)) if !v.is_null() => Some(v),
            _ => None,
        }
    }

    pub fn f64(&self, name: &str) -> Result<f64, String> {
        self.value(name)
            .and_then(Value::as_f64)
            .ok_or_else(|| missing(name, "a number"))
    }

    pub fn i64(&self, name: &str) -> Result<i64, String> {
        self.value(name)
            .and_then(Value::as_i64)
            .ok_or_else(|| missing(name, "an integer"))
    }

    pub fn bool(&self, name: &str) -> Result<bool, String> {
        self.value(name)
            .and_then(Value::as_bool)
            .ok_or_else(|| missing(name, "a boolean"))
    }

    pub fn str(&self, name: &str) -> Result<&str, String> {
        self.value(name)
            .and_then(Value::as_str)
            .ok_or_else(|| missing(name, "a string"))
    }

    pub fn key(&self, name: &str) -> Result<Key, String> {
        match self.get(name) {
            Some(Arg::Key(k)) => Ok(*k),
            _ => Err(missing(name, "a blackboard key")),
        }
    }

    pub fn statuses(&self, name: &str) -> Result<Arc<[Status]>, String> {
        match self.get(name) {
            Some(Arg::Statuses(s)) => Ok(s.clone()),
            _ => Err(missing(name, "a list of statuses")),
        }
    }

    /// Rewrites every key through `map`: file-local keys become the instance's keys.
    pub(crate) fn map_keys(&mut self, map: impl Fn(Key) -> Key) {
        for (_, arg) in &mut self.items {
            if let Arg::Key(k) = arg {
                *k = map(*k);
            }
        }
    }
}

fn missing(name: &str, what: &str) -> String {
    format!("parameter `{name}` should be {what}")
}
