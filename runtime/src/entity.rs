//! Entity: a 64-bit id naming a thing in the host's world, stored unboxed on the blackboard.
//!
//! The runtime gives it no meaning beyond equality: the host decides what the number
//! names (an ECS entity's bits, an index, a network id). Its JSON form is a non-negative
//! integer; ids above 2^53 survive JSON read by serde_json but not by JavaScript.

use std::fmt;

/// A 64-bit entity id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entity(pub u64);

impl Entity {
    /// The id's bits.
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// The JSON form: the id as an integer.
    pub fn to_json(self) -> serde_json::Value {
        serde_json::Value::from(self.0)
    }

    /// Reads a non-negative integer; the message says what was found otherwise.
    pub fn from_json(json: &serde_json::Value) -> Result<Entity, String> {
        json.as_u64().map(Entity).ok_or_else(|| {
            format!(
                "expected an entity id (an integer from 0 to 2^64-1), found {}",
                crate::value::describe_json(json)
            )
        })
    }
}

impl From<u64> for Entity {
    fn from(bits: u64) -> Entity {
        Entity(bits)
    }
}

impl From<Entity> for serde_json::Value {
    fn from(e: Entity) -> serde_json::Value {
        e.to_json()
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entities_are_unsigned_integers_in_json() {
        assert_eq!(Entity::from_json(&json!(u64::MAX)), Ok(Entity(u64::MAX)));
        assert_eq!(Entity(7).to_json(), json!(7));
        assert!(Entity::from_json(&json!(-1)).is_err());
        assert!(Entity::from_json(&json!(1.5)).is_err());
        assert!(Entity::from_json(&json!("7")).is_err());
    }
}
