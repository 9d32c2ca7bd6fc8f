//! UserValue: a value of one of the program's own `Copy` types ([`UserType`]), held inline
//! in a [`crate::Value`] so that writing it to the blackboard never allocates.
//!
//! The only `unsafe` outside `exec::unchecked`: the bytes of a `T` are copied into a buffer
//! and read back as a `T`. The invariant that makes it sound: a `UserValue`'s bytes are the
//! bytes of a valid value of the Rust type its [`UserType`] was registered with. They are
//! written only by [`UserValue::new`], which checks that `T` is that type (by `TypeId`;
//! a type's registration never changes, `user_type`), and read only by
//! [`UserValue::get`], which checks the same; a registered type is `Copy` (no `Drop`, no
//! owned resources, so a bitwise copy is a valid value) and no larger than
//! [`USER_VALUE_BYTES`] (checked at registration, and again here: a constant per `T`). The buffer is `MaybeUninit<u8>` because `T` may have padding; reads and writes
//! are unaligned because the buffer has alignment 1. `tests` check both refusals.

#![allow(unsafe_code)]

use std::any::TypeId;
use std::fmt;
use std::mem::{size_of, MaybeUninit};

use crate::user_type::UserType;

/// The largest user value type, in bytes: a [`crate::Value`] stays 32 bytes with it.
pub const USER_VALUE_BYTES: usize = 24;

/// A value of a registered user type, stored inline (see [`crate::Value::user`]).
#[derive(Clone, Copy)]
pub struct UserValue {
    ty: UserType,
    bytes: [MaybeUninit<u8>; USER_VALUE_BYTES],
}

impl UserValue {
    /// `value` as a value of `ty`; `None` if `ty` was not registered with the Rust type `T`.
    pub(crate) fn new<T: Copy + 'static>(ty: UserType, value: T) -> Option<UserValue> {
        if size_of::<T>() > USER_VALUE_BYTES || ty.type_id() != Some(TypeId::of::<T>()) {
            return None;
        }
        let mut bytes = [MaybeUninit::<u8>::uninit(); USER_VALUE_BYTES];
        // SAFETY: the buffer holds at least `size_of::<T>()` bytes (checked above), and an
        // unaligned write needs no alignment. See the module doc for the invariant.
        unsafe { std::ptr::write_unaligned(bytes.as_mut_ptr().cast::<T>(), value) };
        Some(UserValue { ty, bytes })
    }

    /// The value as a `T`; `None` if its type was registered with another Rust type.
    pub fn get<T: Copy + 'static>(&self) -> Option<T> {
        if size_of::<T>() > USER_VALUE_BYTES || self.ty.type_id() != Some(TypeId::of::<T>()) {
            return None;
        }
        // SAFETY: `new` wrote a valid `T` here (the type ids match, and a registration
        // never changes); `T: Copy`, so reading it out leaves nothing to drop twice.
        Some(unsafe { std::ptr::read_unaligned(self.bytes.as_ptr().cast::<T>()) })
    }

    /// The value's type.
    pub fn ty(&self) -> UserType {
        self.ty
    }

    /// The JSON form, through the type's `Serialize`.
    pub fn to_json(&self) -> serde_json::Value {
        self.ty.value_to_json(self)
    }
}

impl PartialEq for UserValue {
    /// Values of the same type compare with the type's `PartialEq`; of different types,
    /// never equal.
    fn eq(&self, other: &UserValue) -> bool {
        self.ty == other.ty && self.ty.values_equal(self, other)
    }
}

impl fmt::Debug for UserValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.ty.name(), self.to_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Wrapped(u32, u8);

    #[test]
    fn a_value_reads_back_only_as_its_registered_type() {
        let ty = crate::user_type::register::<Wrapped>("user_value_test_wrapped", "A test type.")
            .unwrap();
        let value = UserValue::new(ty, Wrapped(7, 3)).unwrap();
        assert_eq!(value.get::<Wrapped>(), Some(Wrapped(7, 3)));
        assert_eq!(value.get::<u64>(), None, "another Rust type is refused");
        assert!(
            UserValue::new(ty, 5_u64).is_none(),
            "writing another type is refused"
        );
        assert_eq!(value, UserValue::new(ty, Wrapped(7, 3)).unwrap());
        assert_ne!(value, UserValue::new(ty, Wrapped(7, 4)).unwrap());
    }
}
