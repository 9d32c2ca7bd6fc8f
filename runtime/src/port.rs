//! Ports: a parameter as a node reads or writes it at tick time.
//!
//! A parameter in a file is either a literal (`"speed": 2.5`) or bound to a blackboard key
//! (`"speed": {"$key": "run_speed"}`). The loader checks both against the parameter's
//! declared type and resolves the key to its index, so an [`InPort`] reads either with one
//! `match` and, for a key, one array access: no string lookup, no allocation. An
//! [`OutPort`] writes the key an output is bound to.
//!
//! A host action gets its ports from its checked parameters when the tree loads
//! ([`crate::Args::port`], [`crate::Args::output`]) and reads them with
//! [`crate::ActionCtx::get`] / writes them with [`crate::ActionCtx::set`].

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::blackboard::{Blackboard, BlackboardError, Key};
use crate::entity::Entity;
use crate::value::{Value, ValueType};
use crate::value_text::Text;
use crate::vector::{Vec2, Vec3};

mod sealed {
    pub trait Sealed {}
}

/// A Rust type a port can carry: `f64`, `i64`, `bool`, `str`, [`Vec2`], [`Vec3`],
/// [`Entity`] or [`Value`] (any type, lists and maps included).
pub trait PortType: sealed::Sealed + 'static {
    /// How a literal is kept, ready to read.
    type Literal: Clone + fmt::Debug + Send + Sync;
    /// What a read gives: a copy for numbers and booleans, a borrow for text and values.
    type Read<'a>;
    /// For messages: "a number".
    const NAME: &'static str;
    /// The value type a declaration of a port of this type has (`float` for `f64`,
    /// `json` for [`Value`]).
    const TYPE: ValueType;
    #[doc(hidden)]
    fn literal(value: &Value) -> Option<Self::Literal>;
    #[doc(hidden)]
    fn read_literal(literal: &Self::Literal) -> Self::Read<'_>;
    /// Reads a key's value; `None` for `Null` (no value) or another shape.
    #[doc(hidden)]
    fn read(value: &Value) -> Option<Self::Read<'_>>;
    /// Reads a key whose values may need converting (an `int` or `json` key read as a
    /// float); `read` only sees values of the port's own type.
    #[doc(hidden)]
    #[inline(always)]
    fn read_converted(value: &Value) -> Option<Self::Read<'_>> {
        Self::read(value)
    }
    /// Whether a key of type `ty` needs [`PortType::read_converted`].
    #[doc(hidden)]
    fn converts(_ty: ValueType) -> bool {
        false
    }
    /// Whether a key of type `ty` can be read as this type.
    #[doc(hidden)]
    fn reads_from(ty: ValueType) -> bool;
    /// Whether a value of this type can be written to a key of type `ty`.
    #[doc(hidden)]
    fn writes_to(ty: ValueType) -> bool;
}

/// A port type that can be written without a run-time type check: the key it is bound to
/// was checked against it when the tree loaded.
pub trait ScalarPort: PortType {
    /// What a write takes.
    type Write;
    #[doc(hidden)]
    fn to_value(value: Self::Write) -> Value;
}

impl sealed::Sealed for f64 {}
impl PortType for f64 {
    type Literal = f64;
    type Read<'a> = f64;
    const NAME: &'static str = "a number";
    const TYPE: ValueType = ValueType::Float;
    fn literal(value: &Value) -> Option<f64> {
        value.as_f64()
    }
    #[inline(always)]
    fn read_literal(literal: &f64) -> f64 {
        *literal
    }
    #[inline(always)]
    fn read(value: &Value) -> Option<f64> {
        // A float key holds floats only: the blackboard widens ints as they are written.
        match value {
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }
    #[inline(always)]
    fn read_converted(value: &Value) -> Option<f64> {
        value.as_f64()
    }
    fn converts(ty: ValueType) -> bool {
        matches!(ty, ValueType::Int | ValueType::Json)
    }
    fn reads_from(ty: ValueType) -> bool {
        matches!(ty, ValueType::Int | ValueType::Float | ValueType::Json)
    }
    fn writes_to(ty: ValueType) -> bool {
        matches!(ty, ValueType::Float | ValueType::Json)
    }
}
impl ScalarPort for f64 {
    type Write = f64;
    fn to_value(value: f64) -> Value {
        Value::Float(value)
    }
}

impl sealed::Sealed for i64 {}
impl PortType for i64 {
    type Literal = i64;
    type Read<'a> = i64;
    const NAME: &'static str = "an integer";
    const TYPE: ValueType = ValueType::Int;
    fn literal(value: &Value) -> Option<i64> {
        value.as_i64()
    }
    #[inline(always)]
    fn read_literal(literal: &i64) -> i64 {
        *literal
    }
    #[inline(always)]
    fn read(value: &Value) -> Option<i64> {
        value.as_i64()
    }
    fn reads_from(ty: ValueType) -> bool {
        matches!(ty, ValueType::Int | ValueType::Json)
    }
    fn writes_to(ty: ValueType) -> bool {
        matches!(ty, ValueType::Int | ValueType::Float | ValueType::Json)
    }
}
impl ScalarPort for i64 {
    type Write = i64;
    fn to_value(value: i64) -> Value {
        Value::Int(value)
    }
}

impl sealed::Sealed for bool {}
impl PortType for bool {
    type Literal = bool;
    type Read<'a> = bool;
    const NAME: &'static str = "a boolean";
    const TYPE: ValueType = ValueType::Bool;
    fn literal(value: &Value) -> Option<bool> {
        value.as_bool()
    }
    #[inline(always)]
    fn read_literal(literal: &bool) -> bool {
        *literal
    }
    #[inline(always)]
    fn read(value: &Value) -> Option<bool> {
        value.as_bool()
    }
    fn reads_from(ty: ValueType) -> bool {
        matches!(ty, ValueType::Bool | ValueType::Json)
    }
    fn writes_to(ty: ValueType) -> bool {
        matches!(ty, ValueType::Bool | ValueType::Json)
    }
}
impl ScalarPort for bool {
    type Write = bool;
    fn to_value(value: bool) -> Value {
        Value::Bool(value)
    }
}

impl sealed::Sealed for str {}
impl PortType for str {
    type Literal = Text;
    type Read<'a> = &'a str;
    const NAME: &'static str = "a string";
    const TYPE: ValueType = ValueType::String;
    fn literal(value: &Value) -> Option<Text> {
        match value {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        }
    }
    #[inline(always)]
    fn read_literal(literal: &Text) -> &str {
        literal
    }
    #[inline(always)]
    fn read(value: &Value) -> Option<&str> {
        value.as_str()
    }
    fn reads_from(ty: ValueType) -> bool {
        matches!(ty, ValueType::String | ValueType::Json)
    }
    fn writes_to(ty: ValueType) -> bool {
        matches!(ty, ValueType::String | ValueType::Json)
    }
}
impl ScalarPort for str {
    type Write = Arc<str>;
    fn to_value(value: Arc<str>) -> Value {
        Value::Str(Text::from(value))
    }
}

/// The native `Copy` types: a key of the port's own type or, read through `json`, any key
/// holding one; written to a key of their own type or a `json` key.
macro_rules! native_port {
    ($ty:ident, $name:literal) => {
        impl sealed::Sealed for $ty {}
        impl PortType for $ty {
            type Literal = $ty;
            type Read<'a> = $ty;
            const NAME: &'static str = $name;
            const TYPE: ValueType = ValueType::$ty;
            fn literal(value: &Value) -> Option<$ty> {
                Self::read(value)
            }
            #[inline(always)]
            fn read_literal(literal: &$ty) -> $ty {
                *literal
            }
            #[inline(always)]
            fn read(value: &Value) -> Option<$ty> {
                match value {
                    Value::$ty(v) => Some(*v),
                    _ => None,
                }
            }
            fn reads_from(ty: ValueType) -> bool {
                matches!(ty, ValueType::$ty | ValueType::Json)
            }
            fn writes_to(ty: ValueType) -> bool {
                matches!(ty, ValueType::$ty | ValueType::Json)
            }
        }
        impl ScalarPort for $ty {
            type Write = $ty;
            #[inline(always)]
            fn to_value(value: $ty) -> Value {
                Value::$ty(value)
            }
        }
    };
}
native_port!(Vec2, "a vec2");
native_port!(Vec3, "a vec3");
native_port!(Entity, "an entity id");

impl sealed::Sealed for Value {}
impl PortType for Value {
    type Literal = Value;
    type Read<'a> = &'a Value;
    const NAME: &'static str = "a value";
    const TYPE: ValueType = ValueType::Json;
    fn literal(value: &Value) -> Option<Value> {
        Some(value.clone())
    }
    #[inline(always)]
    fn read_literal(literal: &Value) -> &Value {
        literal
    }
    #[inline(always)]
    fn read(value: &Value) -> Option<&Value> {
        (!value.is_null()).then_some(value)
    }
    fn reads_from(_: ValueType) -> bool {
        true
    }
    fn writes_to(_: ValueType) -> bool {
        true
    }
}

/// An input parameter: a literal, or the blackboard key it is bound to.
pub struct InPort<T: PortType + ?Sized> {
    source: Source<T::Literal>,
    _type: PhantomData<fn() -> Box<T>>,
}

#[derive(Clone, Debug)]
enum Source<L> {
    Literal(L),
    /// A key of the port's own type.
    Key(Key),
    /// A key whose values are converted as they are read (an int key read as a float).
    Converted(Key),
}

impl<T: PortType + ?Sized> InPort<T> {
    /// A port that always reads `literal`.
    pub fn literal(literal: T::Literal) -> InPort<T> {
        InPort {
            source: Source::Literal(literal),
            _type: PhantomData,
        }
    }

    /// A port reading `key`, declared `ty`.
    pub(crate) fn bound(key: Key, ty: ValueType) -> InPort<T> {
        let source = if T::converts(ty) {
            Source::Converted(key)
        } else {
            Source::Key(key)
        };
        InPort {
            source,
            _type: PhantomData,
        }
    }

    /// The literal, if it is one.
    pub fn as_literal(&self) -> Option<&T::Literal> {
        match &self.source {
            Source::Literal(l) => Some(l),
            Source::Key(_) | Source::Converted(_) => None,
        }
    }

    /// The key it reads, if it is bound.
    pub fn key(&self) -> Option<Key> {
        match self.source {
            Source::Key(k) | Source::Converted(k) => Some(k),
            Source::Literal(_) => None,
        }
    }

    /// The literal, or the key's valid value; `None` when the key has none (never
    /// written, expired) or, for a `json` key, holds another shape.
    #[inline(always)]
    pub fn read<'a>(&'a self, blackboard: &'a Blackboard) -> Option<T::Read<'a>> {
        match &self.source {
            Source::Literal(l) => Some(T::read_literal(l)),
            Source::Key(k) => T::read(blackboard.value(*k)),
            Source::Converted(k) => T::read_converted(blackboard.value(*k)),
        }
    }

    pub(crate) fn map_key(&mut self, map: &impl Fn(Key) -> Key) {
        if let Source::Key(k) | Source::Converted(k) = &mut self.source {
            *k = map(*k);
        }
    }
}

impl<T: PortType + ?Sized> Clone for InPort<T> {
    fn clone(&self) -> Self {
        InPort {
            source: self.source.clone(),
            _type: PhantomData,
        }
    }
}

impl<T: PortType + ?Sized> fmt::Debug for InPort<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.source {
            Source::Literal(l) => write!(f, "InPort({l:?})"),
            Source::Key(k) | Source::Converted(k) => write!(f, "InPort(key {})", k.index()),
        }
    }
}

/// An output parameter: the blackboard key the node writes (none when an optional output
/// is left unbound: writes are then dropped).
pub struct OutPort<T: PortType + ?Sized> {
    key: Option<Key>,
    /// The key's declared type, for the int-to-float widening and the check of
    /// [`OutPort::write_value`].
    ty: ValueType,
    _type: PhantomData<fn() -> Box<T>>,
}

impl<T: PortType + ?Sized> OutPort<T> {
    pub(crate) fn bound(key: Key, ty: ValueType) -> OutPort<T> {
        OutPort {
            key: Some(key),
            ty,
            _type: PhantomData,
        }
    }

    /// An output that writes nowhere.
    pub fn unbound() -> OutPort<T> {
        OutPort {
            key: None,
            ty: ValueType::Json,
            _type: PhantomData,
        }
    }

    /// The key it writes, if bound.
    pub fn key(&self) -> Option<Key> {
        self.key
    }
}

impl<T: ScalarPort + ?Sized> OutPort<T> {
    /// Writes `value` to the bound key, valid forever; an int written to a float key
    /// becomes a float.
    #[inline]
    pub fn write(&self, blackboard: &mut Blackboard, value: T::Write) {
        if let Some(key) = self.key {
            let value = match T::to_value(value) {
                Value::Int(i) if self.ty == ValueType::Float => Value::Float(i as f64),
                other => other,
            };
            blackboard.write(key, value, -1.0);
        }
    }
}

impl<T: ScalarPort + ?Sized> OutPort<T> {
    /// As [`OutPort::write`], valid for `ttl` seconds (rule 33).
    pub fn write_with_ttl(&self, blackboard: &mut Blackboard, value: T::Write, ttl: f64) {
        if let Some(key) = self.key {
            let value = match T::to_value(value) {
                Value::Int(i) if self.ty == ValueType::Float => Value::Float(i as f64),
                other => other,
            };
            blackboard.write(key, value, ttl.max(0.0));
        }
    }
}

impl OutPort<Value> {
    /// Writes any value, checked against the key's type at run time (a `Value` port can
    /// carry lists and maps, whose shape the loader cannot know).
    pub fn write_value(
        &self,
        blackboard: &mut Blackboard,
        value: Value,
    ) -> Result<(), BlackboardError> {
        match self.key {
            Some(key) => blackboard.set(key, value),
            None => Ok(()),
        }
    }
}

impl<T: PortType + ?Sized> Clone for OutPort<T> {
    fn clone(&self) -> Self {
        OutPort {
            key: self.key,
            ty: self.ty,
            _type: PhantomData,
        }
    }
}

impl<T: PortType + ?Sized> fmt::Debug for OutPort<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.key {
            Some(k) => write!(f, "OutPort(key {})", k.index()),
            None => f.write_str("OutPort(unbound)"),
        }
    }
}

/// The object form of a binding in a file: `{"$key": "name"}`.
pub const BINDING_FIELD: &str = "$key";

/// The key name of a binding, if `json` is one (an object whose only member is `$key`
/// with a string). `Err` for an object that has `$key` but is not a well-formed binding.
pub fn binding(json: &serde_json::Value) -> Result<Option<&str>, String> {
    let Some(object) = json.as_object() else {
        return Ok(None);
    };
    let Some(key) = object.get(BINDING_FIELD) else {
        return Ok(None);
    };
    match key.as_str() {
        Some(name) if object.len() == 1 && !name.trim().is_empty() => Ok(Some(name)),
        Some(_) if object.len() == 1 => {
            Err("a binding needs a key name: {\"$key\": \"name\"}".to_owned())
        }
        _ => Err(format!(
            "a binding is an object with one member, {{\"{BINDING_FIELD}\": \"key name\"}}"
        )),
    }
}

/// The JSON form of a binding to `key`.
pub fn binding_json(key: &str) -> serde_json::Value {
    serde_json::json!({ BINDING_FIELD: key })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackboard::KeyInfo;
    use serde_json::json;

    fn board() -> Blackboard {
        Blackboard::new(Arc::from(vec![
            KeyInfo {
                name: "speed".into(),
                ty: ValueType::Float,
                default: Value::Float(2.5),
            },
            KeyInfo {
                name: "count".into(),
                ty: ValueType::Int,
                default: Value::Null,
            },
        ]))
    }

    #[test]
    fn a_port_reads_its_literal_or_its_key() {
        let mut bb = board();
        let literal = InPort::<f64>::literal(1.5);
        let bound = InPort::<f64>::bound(Key(0), ValueType::Float);
        assert_eq!(literal.read(&bb), Some(1.5));
        assert_eq!(bound.read(&bb), Some(2.5));
        bb.write(Key(0), Value::Float(4.0), -1.0);
        assert_eq!(bound.read(&bb), Some(4.0));
        let unset = InPort::<i64>::bound(Key(1), ValueType::Int);
        assert_eq!(unset.read(&bb), None, "never written: no value");
    }

    #[test]
    fn an_int_output_widens_into_a_float_key() {
        let mut bb = board();
        OutPort::<i64>::bound(Key(0), ValueType::Float).write(&mut bb, 3);
        assert_eq!(bb.get(Key(0)), Some(&Value::Float(3.0)));
        assert!(matches!(bb.get(Key(0)), Some(Value::Float(_))));
        OutPort::<i64>::unbound().write(&mut bb, 9);
    }

    #[test]
    fn bindings_are_recognised_only_in_their_exact_form() {
        assert_eq!(binding(&json!({"$key": "goal"})), Ok(Some("goal")));
        assert_eq!(binding(&json!({"key": "goal"})), Ok(None));
        assert_eq!(binding(&json!("{goal}")), Ok(None));
        assert!(binding(&json!({"$key": "goal", "x": 1})).is_err());
        assert!(binding(&json!({"$key": 3})).is_err());
        assert!(binding(&json!({"$key": ""})).is_err());
    }
}
