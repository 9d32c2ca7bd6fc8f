//! Args: a node's parameters after the loader checked them against the node type's
//! declaration: typed, defaults filled in, blackboard keys resolved.

use std::sync::{Arc, Mutex};

use crate::blackboard::Key;
use crate::port::{InPort, OutPort, PortType};
use crate::spec::{NodeType, ParamKind, ParamSpec};
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
    /// For a registration's probe ([`Args::probe`]): the names asked for that the node
    /// type does not declare.
    undeclared: Option<Arc<Mutex<Vec<String>>>>,
}

impl Args {
    pub(crate) fn push(&mut self, name: &str, arg: Arg) {
        self.items.push((name.to_owned(), arg));
    }

    /// Parameters for every parameter `ty` declares, with placeholder values (its default,
    /// or a plain value of its kind), for running a factory once as it is registered; the
    /// list fills with the names the factory asks for that `ty` does not declare.
    pub(crate) fn probe(ty: &NodeType) -> (Args, Arc<Mutex<Vec<String>>>) {
        let undeclared = Arc::new(Mutex::new(Vec::new()));
        let mut args = Args {
            items: Vec::new(),
            undeclared: Some(undeclared.clone()),
        };
        for spec in &ty.params {
            args.push(&spec.name, placeholder(spec));
        }
        (args, undeclared)
    }

    /// The checked parameter `name`, if the node type declares it.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        let found = self.items.iter().find(|(n, _)| n == name).map(|(_, a)| a);
        if let (None, Some(undeclared)) = (found, &self.undeclared) {
            if let Ok(mut names) = undeclared.lock() {
                names.push(name.to_owned());
            }
        }
        found
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

    /// Every parameter, in declaration order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Arg> {
        self.items.iter().map(|(_, arg)| arg)
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

/// A value of `spec`'s kind and direction that a factory can take: its default, or a
/// plain one (1 for numbers, so that a factory checking for a positive value goes on to
/// read the rest). The placeholder key is never read or written.
fn placeholder(spec: &ParamSpec) -> Arg {
    let key = Key(0);
    let ty = spec.kind.value_type().unwrap_or(ValueType::Json);
    if spec.direction.writes() {
        return Arg::Bound { key, ty };
    }
    let plain = match spec.kind {
        ParamKind::Key => return Arg::Key(key),
        ParamKind::Statuses => return Arg::Statuses(Arc::from([Status::Success])),
        ParamKind::KeyMap => return Arg::KeyMap(Vec::new()),
        ParamKind::KeyValue | ParamKind::Json => Value::Int(1),
        ParamKind::Enum => spec
            .values
            .first()
            .map_or(Value::Null, |v| Value::from(v.as_str())),
        ParamKind::Bool => Value::Bool(false),
        ParamKind::Int => Value::Int(1),
        ParamKind::Float => Value::Float(1.0),
        _ => ty
            .coerce(&serde_json::Value::String("x".to_owned()))
            .or_else(|_| ty.coerce(&serde_json::json!([])))
            .or_else(|_| ty.coerce(&serde_json::json!({})))
            .or_else(|_| ty.coerce(&serde_json::json!([0, 0, 0])))
            .or_else(|_| ty.coerce(&serde_json::json!([0, 0])))
            .unwrap_or(Value::Null),
    };
    let value = spec
        .default
        .as_ref()
        .and_then(|json| ty.coerce(json).ok())
        .unwrap_or(plain);
    Arg::Value(value)
}

fn missing(name: &str, what: &str) -> String {
    format!("parameter `{name}` should be {what}")
}
