//! Value: a blackboard value, and the type-strict equality of docs/semantics.md rule 7.
//!
//! Strings and JSON containers sit behind `Arc` so that copying a value into the blackboard
//! at tick time never allocates; vectors, entities and the program's own value types
//! ([`UserType`]) are held inline (`Copy` payloads).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

use crate::entity::Entity;
use crate::user_type::UserType;
use crate::user_value::UserValue;
use crate::value_text::Text;
use crate::vector::{Vec2, Vec3};

/// The type of one element of a list or one value of a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `true` or `false`.
    Bool,
    /// A 64-bit integer.
    Int,
    /// A 64-bit float.
    Float,
    /// Text.
    String,
}

impl Scalar {
    /// Every scalar type.
    pub const ALL: [Scalar; 4] = [Scalar::Bool, Scalar::Int, Scalar::Float, Scalar::String];

    /// The name used in files: `bool`, `int`, `float`, `string`.
    pub fn as_str(self) -> &'static str {
        self.value_type().as_str()
    }

    /// The blackboard type of a single value of this scalar type.
    pub fn value_type(self) -> ValueType {
        match self {
            Scalar::Bool => ValueType::Bool,
            Scalar::Int => ValueType::Int,
            Scalar::Float => ValueType::Float,
            Scalar::String => ValueType::String,
        }
    }
}

/// The declared type of a blackboard key or parameter value.
///
/// In files it is a string: `bool`, `int`, `float`, `string`, `json`, a list or map of
/// one of the four scalar types, `list<float>`, `map<string>` (file format version 2), or
/// one of the native types `vec2`, `vec3`, `entity`, whose values are stored unboxed, or
/// the name of a user value type the program registered ([`UserType`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// `true` or `false`.
    Bool,
    /// A 64-bit integer.
    Int,
    /// A 64-bit float.
    Float,
    /// Text.
    String,
    /// Any JSON value (arrays and objects included).
    Json,
    /// A JSON array whose elements all have one scalar type.
    List(Scalar),
    /// A JSON object whose values all have one scalar type (keys are strings).
    Map(Scalar),
    /// A 2D vector of floats ([`Vec2`]).
    Vec2,
    /// A 3D vector of floats ([`Vec3`]).
    Vec3,
    /// A 64-bit entity id ([`Entity`]).
    Entity,
    /// A user value type ([`UserType`]): `faction`, `weapon_id`.
    User(UserType),
}

impl ValueType {
    /// Every built-in type, in the order the editor offers them (user types:
    /// [`crate::user_type::registered`]).
    pub const ALL: [ValueType; 16] = [
        ValueType::Bool,
        ValueType::Int,
        ValueType::Float,
        ValueType::String,
        ValueType::Json,
        ValueType::List(Scalar::Bool),
        ValueType::List(Scalar::Int),
        ValueType::List(Scalar::Float),
        ValueType::List(Scalar::String),
        ValueType::Map(Scalar::Bool),
        ValueType::Map(Scalar::Int),
        ValueType::Map(Scalar::Float),
        ValueType::Map(Scalar::String),
        ValueType::Vec2,
        ValueType::Vec3,
        ValueType::Entity,
    ];

    /// The name used in files (`float`, `list<int>`, `map<string>`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::Bool => "bool",
            ValueType::Int => "int",
            ValueType::Float => "float",
            ValueType::String => "string",
            ValueType::Json => "json",
            ValueType::List(Scalar::Bool) => "list<bool>",
            ValueType::List(Scalar::Int) => "list<int>",
            ValueType::List(Scalar::Float) => "list<float>",
            ValueType::List(Scalar::String) => "list<string>",
            ValueType::Map(Scalar::Bool) => "map<bool>",
            ValueType::Map(Scalar::Int) => "map<int>",
            ValueType::Map(Scalar::Float) => "map<float>",
            ValueType::Map(Scalar::String) => "map<string>",
            ValueType::Vec2 => "vec2",
            ValueType::Vec3 => "vec3",
            ValueType::Entity => "entity",
            ValueType::User(ty) => ty.name(),
        }
    }

    /// Reads the file form (`"float"`, `"list<int>"`, a registered user type's name);
    /// `None` for anything else.
    pub fn parse(text: &str) -> Option<ValueType> {
        ValueType::ALL
            .into_iter()
            .find(|t| t.as_str() == text)
            .or_else(|| crate::user_type::find(text).map(ValueType::User))
    }

    /// Whether a value of type `self` (a key's) can be read where `wanted` is expected: the
    /// same type, an int where a float is wanted (ints widen, as on the blackboard), and
    /// anything where `json` is wanted.
    pub fn reads_as(self, wanted: ValueType) -> bool {
        self == wanted
            || wanted == ValueType::Json
            || matches!(
                (self, wanted),
                (ValueType::Int, ValueType::Float)
                    | (ValueType::List(Scalar::Int), ValueType::List(Scalar::Float))
                    | (ValueType::Map(Scalar::Int), ValueType::Map(Scalar::Float))
            )
    }

    /// Converts a JSON value to this type, or says what was found instead.
    /// Ints are accepted where floats are expected; floats with no fraction where ints are.
    /// List and map elements follow the same rules, and the check stops at the first bad one.
    pub fn coerce(self, json: &serde_json::Value) -> Result<Value, String> {
        use serde_json::Value as J;
        let value = match (self, json) {
            (ValueType::Bool, J::Bool(b)) => Value::Bool(*b),
            (ValueType::Int, J::Number(n)) => Value::Int(int_of(n)?),
            (ValueType::Float, J::Number(n)) => match n.as_f64() {
                Some(f) => Value::Float(f),
                None => return Err(format!("expected a number, found {n}")),
            },
            (ValueType::String, J::String(s)) => Value::Str(Text::from(s.as_str())),
            (ValueType::Json, other) => Value::from_json(other),
            (ValueType::Vec2, json) => Value::Vec2(Vec2::from_json(json)?),
            (ValueType::Vec3, json) => Value::Vec3(Vec3::from_json(json)?),
            (ValueType::Entity, json) => Value::Entity(Entity::from_json(json)?),
            (ValueType::User(ty), json) => ty.value_from_json(json)?,
            (ValueType::List(element), J::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    out.push(coerce_scalar(element, item).map_err(|m| format!("item {i}: {m}"))?);
                }
                Value::Json(Arc::new(J::Array(out)))
            }
            (ValueType::Map(element), J::Object(entries)) => {
                let mut out = serde_json::Map::new();
                for (name, item) in entries {
                    let item = coerce_scalar(element, item)
                        .map_err(|m| format!("entry \"{}\": {m}", short(name)))?;
                    out.insert(name.clone(), item);
                }
                Value::Json(Arc::new(J::Object(out)))
            }
            (expected, found) => {
                return Err(format!(
                    "expected {}, found {}",
                    expected.describe(),
                    describe_json(found)
                ))
            }
        };
        Ok(value)
    }

    /// "a boolean", "an integer", …: for messages.
    pub fn describe(self) -> &'static str {
        match self {
            ValueType::Bool => "a boolean",
            ValueType::Int => "an integer",
            ValueType::Float => "a number",
            ValueType::String => "a string",
            ValueType::Json => "any JSON value",
            ValueType::List(Scalar::Bool) => "a list of booleans",
            ValueType::List(Scalar::Int) => "a list of integers",
            ValueType::List(Scalar::Float) => "a list of numbers",
            ValueType::List(Scalar::String) => "a list of strings",
            ValueType::Map(Scalar::Bool) => "a map of booleans",
            ValueType::Map(Scalar::Int) => "a map of integers",
            ValueType::Map(Scalar::Float) => "a map of numbers",
            ValueType::Map(Scalar::String) => "a map of strings",
            ValueType::Vec2 => "a vec2",
            ValueType::Vec3 => "a vec3",
            ValueType::Entity => "an entity id",
            ValueType::User(ty) => ty.describe(),
        }
    }

    /// A list or map element's type, if this is a list or map.
    pub fn element(self) -> Option<Scalar> {
        match self {
            ValueType::List(s) | ValueType::Map(s) => Some(s),
            _ => None,
        }
    }
}

/// An integer from a JSON number: floats with no fraction count (as `2.0`).
fn int_of(n: &serde_json::Number) -> Result<i64, String> {
    match n.as_i64() {
        Some(i) => Ok(i),
        None => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(f as i64),
            _ => Err(format!("expected an integer, found {n}")),
        },
    }
}

/// One list element or map value, normalised to its scalar type (ints in a float list
/// become floats), as JSON.
fn coerce_scalar(element: Scalar, json: &serde_json::Value) -> Result<serde_json::Value, String> {
    use serde_json::Value as J;
    match (element, json) {
        (Scalar::Bool, J::Bool(_)) | (Scalar::String, J::String(_)) => Ok(json.clone()),
        (Scalar::Int, J::Number(n)) => int_of(n).map(J::from),
        (Scalar::Float, J::Number(n)) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map(J::Number)
            .ok_or_else(|| format!("expected a number, found {n}")),
        (element, found) => Err(format!(
            "expected {}, found {}",
            element.value_type().describe(),
            describe_json(found)
        )),
    }
}

/// Whether a JSON value is a valid element of a list or map of `element` (ints count as
/// floats), without building the normalised copy.
fn scalar_fits(element: Scalar, json: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (element, json) {
        (Scalar::Bool, J::Bool(_))
        | (Scalar::String, J::String(_))
        | (Scalar::Float, J::Number(_)) => true,
        (Scalar::Int, J::Number(n)) => int_of(n).is_ok(),
        _ => false,
    }
}

fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ValueType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ValueType {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ValueType, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        ValueType::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown value type `{}`; expected bool, int, float, string, json, \
                 vec2, vec3, entity, list<T> or map<T> (T one of bool, int, float, string){}",
                short(&text),
                user_type_names()
            ))
        })
    }
}

/// ", or a user value type: faction, weapon_id" when the program registered any.
fn user_type_names() -> String {
    let names: Vec<&str> = crate::user_type::registered().map(UserType::name).collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(", or a user value type: {}", names.join(", "))
    }
}

/// Describes a JSON value for an error message: `string "fast"`, `array`, `null`.
pub fn describe_json(value: &serde_json::Value) -> String {
    use serde_json::Value as J;
    match value {
        J::Null => "null".to_owned(),
        J::Bool(b) => format!("boolean {b}"),
        J::Number(n) => format!("number {n}"),
        J::String(s) => {
            let short: String = s.chars().take(40).collect();
            format!("string \"{short}\"")
        }
        J::Array(_) => "an array".to_owned(),
        J::Object(_) => "an object".to_owned(),
    }
}

/// A value stored on the blackboard or carried by a parameter.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// No value: never written, or expired (rule 33).
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string (shared; a script's appends grow it in place: [`Text`]).
    Str(Text),
    /// Arrays and objects.
    Json(Arc<serde_json::Value>),
    /// A 2D vector, inline.
    Vec2(Vec2),
    /// A 3D vector, inline.
    Vec3(Vec3),
    /// An entity id.
    Entity(Entity),
    /// A value of a user value type with Rust code, inline ([`Value::user`]).
    User(UserValue),
}

impl Value {
    /// The value of a JSON value: integers stay `Int`, arrays and objects become `Json`.
    pub fn from_json(json: &serde_json::Value) -> Value {
        use serde_json::Value as J;
        match json {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::Str(Text::from(s.as_str())),
            other => Value::Json(Arc::new(other.clone())),
        }
    }

    /// The JSON form of this value (`null` for [`Value::Null`]).
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match self {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Int(i) => J::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
            Value::Str(s) => J::String(s.to_string()),
            Value::Json(j) => (**j).clone(),
            Value::Vec2(v) => v.to_json(),
            Value::Vec3(v) => v.to_json(),
            Value::Entity(e) => e.to_json(),
            Value::User(u) => u.to_json(),
        }
    }

    /// `value` as a value of its registered user type (`registry.value_type::<T>(…)`);
    /// `None` if `T` is not registered. Finding the type scans the table of user types:
    /// in a hot loop, keep the [`UserType`] and use [`Value::user_of`].
    pub fn user<T: Copy + 'static>(value: T) -> Option<Value> {
        UserType::of::<T>().and_then(|ty| Value::user_of(ty, value))
    }

    /// `value` as a value of `ty`; `None` if `ty` was registered with another Rust type.
    pub fn user_of<T: Copy + 'static>(ty: UserType, value: T) -> Option<Value> {
        UserValue::new(ty, value).map(Value::User)
    }

    /// The user value, if this is a value of the user type registered for `T`.
    pub fn as_user<T: Copy + 'static>(&self) -> Option<T> {
        match self {
            Value::User(u) => u.get::<T>(),
            _ => None,
        }
    }

    /// The number, if this is an int or a float.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The integer, if this is an `Int`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The boolean, if this is a `Bool`.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The string, if this is a `Str`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// Whether there is no value.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Whether a value of this shape may be stored under a key of type `ty`.
    pub fn fits(&self, ty: ValueType) -> bool {
        matches!(
            (ty, self),
            (_, Value::Null)
                | (ValueType::Json, _)
                | (ValueType::Bool, Value::Bool(_))
                | (ValueType::Int, Value::Int(_))
                | (ValueType::Float, Value::Float(_) | Value::Int(_))
                | (ValueType::String, Value::Str(_))
                | (ValueType::Vec2, Value::Vec2(_))
                | (ValueType::Vec3, Value::Vec3(_))
                | (ValueType::Entity, Value::Entity(_))
        ) || match (ty, self) {
            (ValueType::User(t), value) => t.fits(value),
            (ValueType::List(e), Value::Json(j)) => j
                .as_array()
                .is_some_and(|items| items.iter().all(|i| scalar_fits(e, i))),
            (ValueType::Map(e), Value::Json(j)) => j
                .as_object()
                .is_some_and(|items| items.values().all(|i| scalar_fits(e, i))),
            _ => false,
        }
    }

    /// Type-strict equality of rule 7: a boolean never equals a number, numbers compare
    /// numerically (`1 == 1.0`), strings and containers structurally, vectors component by
    /// component, entities by id, user values of one type with the type's `PartialEq`; a
    /// vector never equals a list, nor an entity a number, nor values of different types.
    pub fn strict_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
                self.as_f64() == other.as_f64()
            }
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Json(a), Value::Json(b)) => json_eq(a, b),
            (Value::Vec2(a), Value::Vec2(b)) => a == b,
            (Value::Vec3(a), Value::Vec3(b)) => a == b,
            (Value::Entity(a), Value::Entity(b)) => a == b,
            (Value::User(a), Value::User(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.strict_eq(other)
    }
}

/// Structural JSON equality in which numbers compare numerically (rule 7).
pub fn json_eq(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as J;
    match (a, b) {
        (J::Number(x), J::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (J::Array(x), J::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (J::Object(x), J::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}
impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}
impl From<i32> for Value {
    fn from(i: i32) -> Value {
        Value::Int(i64::from(i))
    }
}
impl From<f64> for Value {
    fn from(f: f64) -> Value {
        Value::Float(f)
    }
}
impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(Text::from(s))
    }
}
impl From<Arc<str>> for Value {
    fn from(s: Arc<str>) -> Value {
        Value::Str(Text::from(s))
    }
}
impl From<Text> for Value {
    fn from(s: Text) -> Value {
        Value::Str(s)
    }
}
impl From<serde_json::Value> for Value {
    fn from(json: serde_json::Value) -> Value {
        Value::from_json(&json)
    }
}
impl From<Vec2> for Value {
    fn from(v: Vec2) -> Value {
        Value::Vec2(v)
    }
}
impl From<Vec3> for Value {
    fn from(v: Vec3) -> Value {
        Value::Vec3(v)
    }
}
impl From<Entity> for Value {
    fn from(e: Entity) -> Value {
        Value::Entity(e)
    }
}
impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::Str(Text::from(s))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn rule7_numbers_compare_numerically_but_never_with_booleans() {
        assert!(Value::Int(1).strict_eq(&Value::Float(1.0)));
        assert!(!Value::Bool(true).strict_eq(&Value::Int(1)));
        assert!(!Value::Str("1".into()).strict_eq(&Value::Int(1)));
        let a = Value::from_json(&json!({"x": [1, 2.0]}));
        let b = Value::from_json(&json!({"x": [1.0, 2]}));
        assert!(a.strict_eq(&b));
        assert!(!a.strict_eq(&Value::from_json(&json!({"x": [1, 3]}))));
    }

    #[test]
    fn rule7_vectors_and_entities_compare_by_type_then_components() {
        let a = Value::Vec2(Vec2::new(1.0, 2.0));
        assert!(a.strict_eq(&Value::Vec2(Vec2::new(1.0, 2.0))));
        assert!(!a.strict_eq(&Value::Vec2(Vec2::new(1.0, 2.5))));
        assert!(
            !a.strict_eq(&Value::from_json(&json!([1.0, 2.0]))),
            "a vec2 is not a list"
        );
        assert!(!a.strict_eq(&Value::Vec3(Vec3::new(1.0, 2.0, 0.0))));
        assert!(Value::Entity(Entity(5)).strict_eq(&Value::Entity(Entity(5))));
        assert!(!Value::Entity(Entity(5)).strict_eq(&Value::Int(5)));
    }

    #[test]
    fn native_types_coerce_from_both_json_forms_and_round_trip() {
        for (ty, json) in [
            (ValueType::Vec2, json!([1.5, 2.0])),
            (ValueType::Vec3, json!([1.0, -2.0, 3.5])),
            (ValueType::Entity, json!(42)),
        ] {
            assert_eq!(ValueType::parse(ty.as_str()), Some(ty));
            let value = ty.coerce(&json).unwrap();
            assert!(value.fits(ty), "{ty}");
            assert_eq!(value.to_json(), json, "{ty}");
        }
        assert_eq!(
            ValueType::Vec2.coerce(&json!({"x": 1.5, "y": 2})),
            Ok(Value::Vec2(Vec2::new(1.5, 2.0)))
        );
        assert!(!Value::Vec2(Vec2::ZERO).fits(ValueType::List(Scalar::Float)));
        assert!(ValueType::Vec3.coerce(&json!([1, 2])).is_err());
    }

    #[test]
    fn native_values_are_no_bigger_than_a_string_value_plus_a_vec3() {
        assert!(std::mem::size_of::<Value>() <= 32);
    }

    #[test]
    fn coerce_reports_what_was_found() {
        let err = ValueType::Float.coerce(&json!("fast")).unwrap_err();
        assert_eq!(err, "expected a number, found string \"fast\"");
        assert!(matches!(ValueType::Float.coerce(&json!(3)), Ok(Value::Float(f)) if f == 3.0));
        assert!(ValueType::Int.coerce(&json!(2.5)).is_err());
        assert!(matches!(
            ValueType::Int.coerce(&json!(2.0)),
            Ok(Value::Int(2))
        ));
    }
}
