//! UserType: the program's own value types (a `Faction`, a `WeaponId`), registered by name
//! so that files, manifests, bindings, scripts and the debug protocol can name them, and
//! stored unboxed on the blackboard ([`crate::UserValue`]).
//!
//! The table of types is process-wide, like the names in a file: a [`crate::ValueType`] is
//! `Copy` and is parsed from text by serde with no registry at hand, and a
//! [`crate::Value`] is turned into JSON anywhere. It only grows: a registration never
//! changes or goes away, which is what `user_value`'s safety rests on. Registering the same
//! Rust type under the same name again gives the same [`UserType`]; at most
//! [`MAX_USER_TYPES`] types exist.
//!
//! A type is either a Rust type ([`register`]), whose values are held inline, or only
//! declared by a manifest ([`declare`]), as in the editor, which has no code for it: its
//! values are held as JSON and checked against the declaration ([`ValueTypeDecl::check`]).

use std::any::TypeId;
use std::sync::{Mutex, OnceLock};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::spec::ValueTypeDecl;
use crate::user_value::{UserValue, USER_VALUE_BYTES};
use crate::value::{Value, ValueType};

/// How many user value types a process can register.
pub const MAX_USER_TYPES: usize = 64;

/// A registered user value type: an index into the process's table of types.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct UserType(u16);

/// Why a user value type could not be registered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UserTypeError {
    /// The Rust type is larger than a value can hold inline.
    #[error(
        "value type `{name}`: `{rust}` is {size} bytes; a user value type holds at most \
         {USER_VALUE_BYTES} (store an id and keep the data in the program)"
    )]
    TooLarge {
        /// The type's name in files.
        name: String,
        /// The Rust type's name.
        rust: &'static str,
        /// Its size in bytes.
        size: usize,
    },
    /// The name is taken by a built-in type or by another registration.
    #[error("value type `{name}` is already {taken}")]
    NameTaken {
        /// The name.
        name: String,
        /// What has it.
        taken: String,
    },
    /// The name is not a type name.
    #[error(
        "value type `{0}`: a name is lowercase letters, digits and `_`, starting with a letter"
    )]
    BadName(String),
    /// The table is full.
    #[error("value type `{0}`: a program registers at most {MAX_USER_TYPES} value types")]
    TooMany(String),
    /// The type's default has no JSON form.
    #[error("value type `{name}`: its default value has no JSON form: {message}")]
    NoJson {
        /// The name.
        name: String,
        /// serde's message.
        message: String,
    },
}

/// What the table holds for one type.
struct Info {
    name: &'static str,
    /// "a value of type `faction`", for messages that take a `&'static str`.
    described: &'static str,
    decl: ValueTypeDecl,
    rust: Option<RustType>,
}

/// The monomorphised functions of a Rust type.
struct RustType {
    id: TypeId,
    rust_name: &'static str,
    to_json: fn(&UserValue) -> serde_json::Value,
    from_json: fn(UserType, &serde_json::Value) -> Result<UserValue, String>,
    eq: fn(&UserValue, &UserValue) -> bool,
}

static TABLE: [OnceLock<Info>; MAX_USER_TYPES] = [const { OnceLock::new() }; MAX_USER_TYPES];
/// Held while a registration looks for its name and takes the next slot.
static REGISTERING: Mutex<()> = Mutex::new(());

/// Registers the Rust type `T` as value type `name`, its manifest declaration made from
/// `description` and `T::default()`.
pub fn register<T>(name: &str, description: &str) -> Result<UserType, UserTypeError>
where
    T: Copy + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static,
{
    let rust = std::any::type_name::<T>();
    if std::mem::size_of::<T>() > USER_VALUE_BYTES {
        return Err(UserTypeError::TooLarge {
            name: name.to_owned(),
            rust,
            size: std::mem::size_of::<T>(),
        });
    }
    let default = serde_json::to_value(T::default()).map_err(|e| UserTypeError::NoJson {
        name: name.to_owned(),
        message: e.to_string(),
    })?;
    let mut decl = ValueTypeDecl::new(name, default);
    decl.description = description.to_owned();
    let rust = RustType {
        id: TypeId::of::<T>(),
        rust_name: rust,
        to_json: |v| {
            v.get::<T>()
                .and_then(|t| serde_json::to_value(t).ok())
                .unwrap_or(serde_json::Value::Null)
        },
        from_json: |ty, json| {
            let value = T::deserialize(json).map_err(|e| e.to_string())?;
            UserValue::new(ty, value).ok_or_else(|| "a value of another type".to_owned())
        },
        eq: |a, b| a.get::<T>() == b.get::<T>(),
    };
    insert(decl, Some(rust))
}

/// Declares value type `decl.name` with no Rust code (a manifest's declaration, read by a
/// program that does not have the type): its values are held as JSON. If the name is
/// already a registered type, that type is returned (the program's code is the better
/// judge of its values).
pub fn declare(decl: &ValueTypeDecl) -> Result<UserType, UserTypeError> {
    insert(decl.clone(), None)
}

fn insert(decl: ValueTypeDecl, rust: Option<RustType>) -> Result<UserType, UserTypeError> {
    let name = decl.name.clone();
    check_name(&name)?;
    // A poisoned lock only means another registration panicked; the table is still whole.
    let _guard = REGISTERING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(ty) = find(&name) {
        let existing = &ty.info().rust;
        return match (existing, &rust) {
            (Some(old), Some(new)) if old.id == new.id => Ok(ty),
            (Some(_), None) => Ok(ty),
            (None, None) => Ok(ty),
            (Some(old), Some(_)) => Err(UserTypeError::NameTaken {
                name,
                taken: format!("the Rust type `{}`", old.rust_name),
            }),
            (None, Some(_)) => Err(UserTypeError::NameTaken {
                name,
                taken: "declared by a manifest, with no Rust type".to_owned(),
            }),
        };
    }
    let slot = TABLE
        .iter()
        .position(|s| s.get().is_none())
        .ok_or_else(|| UserTypeError::TooMany(name.clone()))?;
    let info = Info {
        name: Box::leak(name.clone().into_boxed_str()),
        described: Box::leak(format!("a value of type `{name}`").into_boxed_str()),
        decl,
        rust,
    };
    // Only this thread fills slots while it holds the lock, so the slot is still empty.
    let _ = TABLE[slot].set(info);
    Ok(UserType(slot as u16))
}

fn check_name(name: &str) -> Result<(), UserTypeError> {
    if ValueType::ALL.iter().any(|t| t.as_str() == name) {
        return Err(UserTypeError::NameTaken {
            name: name.to_owned(),
            taken: "a built-in type".to_owned(),
        });
    }
    let good = name.len() <= 64
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if good {
        Ok(())
    } else {
        Err(UserTypeError::BadName(name.chars().take(64).collect()))
    }
}

/// The registered type called `name`.
pub(crate) fn find(name: &str) -> Option<UserType> {
    registered().find(|t| t.name() == name)
}

/// Every registered type, in registration order.
pub fn registered() -> impl Iterator<Item = UserType> {
    TABLE
        .iter()
        .take_while(|s| s.get().is_some())
        .enumerate()
        .map(|(i, _)| UserType(i as u16))
}

impl UserType {
    /// The type registered for the Rust type `T`, if any.
    pub fn of<T: 'static>() -> Option<UserType> {
        registered().find(|t| t.type_id() == Some(TypeId::of::<T>()))
    }

    fn info(self) -> &'static Info {
        match TABLE[usize::from(self.0)].get() {
            Some(info) => info,
            // A `UserType` is only made for a filled slot, and slots are never emptied.
            None => unreachable!("user type {} has no registration", self.0),
        }
    }

    /// The name in files (`faction`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// "a value of type `faction`", for messages.
    pub fn describe(self) -> &'static str {
        self.info().described
    }

    /// The type's declaration, as a manifest lists it.
    pub fn decl(self) -> &'static ValueTypeDecl {
        &self.info().decl
    }

    /// Whether the type has Rust code in this program (its values are held inline), rather
    /// than only a manifest's declaration (its values are held as JSON).
    pub fn has_rust_type(self) -> bool {
        self.info().rust.is_some()
    }

    pub(crate) fn type_id(self) -> Option<TypeId> {
        self.info().rust.as_ref().map(|r| r.id)
    }

    pub(crate) fn value_to_json(self, value: &UserValue) -> serde_json::Value {
        match &self.info().rust {
            Some(rust) => (rust.to_json)(value),
            None => serde_json::Value::Null,
        }
    }

    pub(crate) fn values_equal(self, a: &UserValue, b: &UserValue) -> bool {
        self.info().rust.as_ref().is_some_and(|r| (r.eq)(a, b))
    }

    /// A value of this type from its JSON form: through the Rust type's `Deserialize`
    /// (held inline), or checked against the declaration (held as JSON).
    pub(crate) fn value_from_json(self, json: &serde_json::Value) -> Result<Value, String> {
        match &self.info().rust {
            Some(rust) => (rust.from_json)(self, json).map(Value::User),
            None => {
                self.decl().check(json)?;
                Ok(Value::from_json(json))
            }
        }
    }

    /// Whether `value` is a value of this type.
    pub(crate) fn fits(self, value: &Value) -> bool {
        match value {
            Value::User(u) => u.ty() == self,
            other if !self.has_rust_type() => self.decl().check(&other.to_json()).is_ok(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Team {
        #[default]
        Neutral,
        Red,
    }

    #[test]
    fn registering_again_gives_the_same_type_and_another_rust_type_is_refused() {
        let a = register::<Team>("user_type_test_team", "").unwrap();
        assert_eq!(register::<Team>("user_type_test_team", "").unwrap(), a);
        assert_eq!(UserType::of::<Team>(), Some(a));
        assert_eq!(a.decl().default, json!("neutral"));
        let err = register::<u8>("user_type_test_team", "").unwrap_err();
        assert!(err.to_string().contains("already the Rust type"), "{err}");
        assert!(matches!(
            register::<u8>("vec2", ""),
            Err(UserTypeError::NameTaken { .. })
        ));
        assert!(matches!(
            register::<u8>("Team", ""),
            Err(UserTypeError::BadName(_))
        ));
    }

    #[test]
    fn a_type_larger_than_the_inline_buffer_is_refused_with_its_size() {
        let err = register::<[u64; 4]>("user_type_test_big", "").unwrap_err();
        assert_eq!(
            err.to_string(),
            "value type `user_type_test_big`: `[u64; 4]` is 32 bytes; a user value type holds \
             at most 24 (store an id and keep the data in the program)"
        );
    }

    #[test]
    fn values_convert_from_json_and_back() {
        let ty = register::<Team>("user_type_test_team", "").unwrap();
        let red = ty.value_from_json(&json!("red")).unwrap();
        assert!(ty.fits(&red));
        assert_eq!(red.to_json(), json!("red"));
        assert!(ty.value_from_json(&json!("purple")).is_err());
        assert!(!ty.fits(&Value::Int(1)));
    }

    #[test]
    fn a_declared_type_holds_json_checked_against_its_declaration() {
        let mut decl = ValueTypeDecl::new("user_type_test_declared", json!("a"));
        decl.values = vec![json!("a"), json!("b")];
        let ty = declare(&decl).unwrap();
        assert!(!ty.has_rust_type());
        let b = ty.value_from_json(&json!("b")).unwrap();
        assert!(ty.fits(&b));
        assert!(ty.value_from_json(&json!("c")).is_err());
        assert!(!ty.fits(&Value::from("c")));
    }
}
