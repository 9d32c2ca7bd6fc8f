//! Args: a node's parameters after the loader checked them against the node type's
//! declaration: typed, defaults filled in, blackboard keys resolved.

use std::sync::Arc;

use crate::blackboard::Key;
use crate::port::{InPort, OutPort, PortType};
use crate::status::Status;
use crate::value::{Value, ValueType};

/// One checked parameter.
#[derive(Clone, Debug)]
pub enum Arg {
    /// bool, int, float, string, enum, path, event and trigger parameters, and key values.
    Value(Value),
    /// A blackboard key (a `key` parameter: the name of the key a node works on).
    Key(Key),
    /// A value parameter bound to a blackboard key (`{"$key": "name"}`): read, or for
    /// outputs written, at tick time. `ty` is the key's declared type.
    Bound {
        /// The key, resolved.
        key: Key,
        /// The key's declared type.
        ty: ValueType,
    },
    /// A list of statuses (`Scripted.returns`).
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

    /// The checked parameter `name`, if the node type declares it.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.items.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    /// A plain value parameter; `None` if absent (optional and not given) or bound to a
    /// key (read those through [`Args::port`]).
    pub fn value(&self, name: &str) -> Option<&Value> {
        match self.get(name) {
            Some(Arg::Value(v)) if !v.is_null() => Some(v),
            _ => None,
        }
    }

    /// Whether the file binds this parameter to a blackboard key.
    pub fn is_bound(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Arg::Bound { .. }))
    }

    /// An input port: the literal or the bound key, read at tick time with
    /// [`crate::ActionCtx::get`]. Call it in the factory, once per node.
    ///
    /// ```
    /// # use arbor_runtime::{Args, InPort};
    /// struct MoveTo { speed: InPort<f64> }
    /// fn make(args: &Args) -> Result<MoveTo, String> {
    ///     Ok(MoveTo { speed: args.port("speed")? })
    /// }
    /// ```
    pub fn port<T: PortType + ?Sized>(&self, name: &str) -> Result<InPort<T>, String> {
        match self.get(name) {
            Some(Arg::Bound { key, ty }) if T::reads_from(*ty) => Ok(InPort::bound(*key, *ty)),
            Some(Arg::Bound { ty, .. }) => Err(format!(
                "parameter `{name}` is bound to a {ty} key; this action reads it as {}",
                T::NAME
            )),
            Some(Arg::Value(v)) if !v.is_null() => T::literal(v)
                .map(InPort::literal)
                .ok_or_else(|| missing(name, T::NAME)),
            _ => Err(missing(name, T::NAME)),
        }
    }

    /// As [`Args::port`], `None` for an optional parameter the file leaves out.
    pub fn optional_port<T: PortType + ?Sized>(
        &self,
        name: &str,
    ) -> Result<Option<InPort<T>>, String> {
        match self.get(name) {
            None | Some(Arg::Value(Value::Null)) => Ok(None),
            Some(_) => self.port(name).map(Some),
        }
    }

    /// An output port: the key the node writes with [`crate::ActionCtx::set`]. An
    /// optional output the file leaves unbound writes nowhere.
    pub fn output<T: PortType + ?Sized>(&self, name: &str) -> Result<OutPort<T>, String> {
        match self.get(name) {
            Some(Arg::Bound { key, ty }) if T::writes_to(*ty) => Ok(OutPort::bound(*key, *ty)),
            Some(Arg::Bound { ty, .. }) => Err(format!(
                "output `{name}` is bound to a {ty} key; this action writes {}",
                T::NAME
            )),
            None | Some(Arg::Value(Value::Null)) => Ok(OutPort::unbound()),
            Some(_) => Err(format!(
                "parameter `{name}` should be bound to a blackboard key"
            )),
        }
    }

    /// A number parameter given as a literal (a bound one is an error: read it through
    /// [`Args::port`]).
    pub fn f64(&self, name: &str) -> Result<f64, String> {
        self.literal(name, Value::as_f64, "a number")
    }

    /// An integer parameter given as a literal.
    pub fn i64(&self, name: &str) -> Result<i64, String> {
        self.literal(name, Value::as_i64, "an integer")
    }

    /// A boolean parameter given as a literal.
    pub fn bool(&self, name: &str) -> Result<bool, String> {
        self.literal(name, Value::as_bool, "a boolean")
    }

    /// A string parameter given as a literal.
    pub fn str(&self, name: &str) -> Result<&str, String> {
        self.literal(name, Value::as_str, "a string")
    }

    fn literal<'a, T>(
        &'a self,
        name: &str,
        read: impl Fn(&'a Value) -> Option<T>,
        what: &str,
    ) -> Result<T, String> {
        if self.is_bound(name) {
            return Err(format!(
                "parameter `{name}` is bound to a blackboard key, but this node reads it only \
                 when the tree loads; give a literal (or read it through a port)"
            ));
        }
        self.value(name)
            .and_then(read)
            .ok_or_else(|| missing(name, what))
    }

    /// A key parameter (`ParamKind::Key`): the resolved key, for array-speed reads and writes at tick time.
    pub fn key(&self, name: &str) -> Result<Key, String> {
        match self.get(name) {
            Some(Arg::Key(k)) => Ok(*k),
            _ => Err(missing(name, "a blackboard key")),
        }
    }

    /// A statuses parameter (`ParamKind::Statuses`).
    pub fn statuses(&self, name: &str) -> Result<Arc<[Status]>, String> {
        match self.get(name) {
            Some(Arg::Statuses(s)) => Ok(s.clone()),
            _ => Err(missing(name, "a list of statuses")),
        }
    }

    /// Rewrites every key through `map`: file-local keys become the instance's keys.
    pub(crate) fn map_keys(&mut self, map: impl Fn(Key) -> Key) {
        for (_, arg) in &mut self.items {
            if let Arg::Key(k) | Arg::Bound { key: k, .. } = arg {
                *k = map(*k);
            }
        }
    }
}

fn missing(name: &str, what: &str) -> String {
    format!("parameter `{name}` should be {what}")
}
