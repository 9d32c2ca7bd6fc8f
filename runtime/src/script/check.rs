//! The script's typing rules, checked at load against the tree's declared keys.
//!
//! Scripts work on four types: bool, int, float and string (keys of other types cannot
//! be used, except `vec2` and `vec3` keys through their float components, `pos.x`). BT.CPP computes every arithmetic result as a double and converts when it
//! stores; Arbor keeps ints as ints where it can, so the type of a key never changes:
//! - `+ - *` of two ints is an int (wrapping on overflow), with a float it is a float;
//!   `/` is always a float (BT.CPP: `5/2` is 2.5);
//! - `& | ^ ~` take and give ints; `..` joins any two values into a string;
//! - comparisons take two numbers, two strings or (`==`, `!=`) two bools, and give a bool;
//! - `!`, `&&`, `||` and the condition of `?:` take bools or numbers (non-zero is true);
//! - an assignment must keep the key's type (an int widens into a float key).

use crate::blackboard::Key;
use crate::value::ValueType;

/// The type of a script value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `true` or `false`.
    Bool,
    /// A 64-bit integer.
    Int,
    /// A 64-bit float.
    Float,
    /// Text.
    Str,
}

impl Ty {
    /// The script type of a key's type, if scripts can use such keys.
    pub fn of_key(ty: ValueType) -> Option<Ty> {
        match ty {
            ValueType::Bool => Some(Ty::Bool),
            ValueType::Int => Some(Ty::Int),
            ValueType::Float => Some(Ty::Float),
            ValueType::String => Some(Ty::Str),
            _ => None,
        }
    }

    /// The blackboard type that holds values of this type.
    pub fn value_type(self) -> ValueType {
        match self {
            Ty::Bool => ValueType::Bool,
            Ty::Int => ValueType::Int,
            Ty::Float => ValueType::Float,
            Ty::Str => ValueType::String,
        }
    }

    pub(crate) fn numeric(self) -> bool {
        matches!(self, Ty::Int | Ty::Float)
    }

    /// Bools and numbers can be tested for truth.
    pub(crate) fn testable(self) -> bool {
        self != Ty::Str
    }

    pub(crate) fn name(self) -> &'static str {
        self.value_type().as_str()
    }

    /// The name with its article: "an int", "a string".
    pub(crate) fn a(self) -> &'static str {
        match self {
            Ty::Bool => "a bool",
            Ty::Int => "an int",
            Ty::Float => "a float",
            Ty::Str => "a string",
        }
    }
}

/// What the checker may look up: keys and enum names.
pub trait Names {
    /// The key `name` (`root` when written `@name`) and its type, if declared.
    fn key(&self, name: &str, root: bool) -> Option<(Key, ValueType)>;
    /// The value of the scripting enum `name`, if there is one.
    fn enum_value(&self, _name: &str) -> Option<i64> {
        None
    }
}

/// The result type of `l op r` for an arithmetic, bitwise or concatenation operator.
pub(crate) fn binary(op: &str, l: Ty, r: Ty) -> Result<Ty, String> {
    match op {
        ".." => Ok(Ty::Str),
        "+" | "-" | "*" if l == Ty::Int && r == Ty::Int => Ok(Ty::Int),
        "+" | "-" | "*" | "/" if l.numeric() && r.numeric() => Ok(Ty::Float),
        "&" | "|" | "^" if l == Ty::Int && r == Ty::Int => Ok(Ty::Int),
        "&" | "|" | "^" => Err(format!(
            "`{op}` works on ints; this is {} {op} {}",
            l.name(),
            r.name()
        )),
        "&&" | "||" if l.testable() && r.testable() => Ok(Ty::Bool),
        "&&" | "||" => Err(format!("`{op}` works on bools and numbers, not on strings")),
        _ if l == Ty::Str || r == Ty::Str => Err(format!(
            "`{op}` does not work on strings (join strings with `..`)"
        )),
        _ => Err(format!(
            "`{op}` works on numbers; this is {} {op} {}",
            l.name(),
            r.name()
        )),
    }
}

/// Whether `l op r` is a valid comparison.
pub(crate) fn comparison(op: &str, l: Ty, r: Ty) -> Result<(), String> {
    let ok = (l.numeric() && r.numeric())
        || (l == Ty::Str && r == Ty::Str)
        || (l == Ty::Bool && r == Ty::Bool && matches!(op, "==" | "!="));
    if ok {
        Ok(())
    } else {
        Err(format!("cannot compare {} {op} {}", l.name(), r.name()))
    }
}

/// The result type of a prefix operator.
pub(crate) fn unary(op: &str, t: Ty) -> Result<Ty, String> {
    match op {
        "-" if t.numeric() => Ok(t),
        "~" if t == Ty::Int => Ok(Ty::Int),
        "!" if t.testable() => Ok(Ty::Bool),
        _ => Err(format!("`{op}` does not work on {}", t.a())),
    }
}

/// The type of `c ? a : b`.
pub(crate) fn ternary(a: Ty, b: Ty) -> Result<Ty, String> {
    match (a, b) {
        _ if a == b => Ok(a),
        _ if a.numeric() && b.numeric() => Ok(Ty::Float),
        _ => Err(format!(
            "both branches of `?:` must have one type; these are {} and {}",
            a.name(),
            b.name()
        )),
    }
}

/// Checks `key op value` for a key of type `key`; the type the value is converted to
/// before the operation.
pub(crate) fn assignment(op: &str, name: &str, key: Ty, value: Ty) -> Result<(), String> {
    let fits = |v: Ty| v == key || (v == Ty::Int && key == Ty::Float);
    let ok = match op {
        ":=" | "=" => fits(value),
        "+=" if key == Ty::Str => value == Ty::Str,
        "+=" | "-=" | "*=" => key.numeric() && value.numeric() && fits(value),
        "/=" => key == Ty::Float && value.numeric(),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    Err(match op {
        "/=" if key == Ty::Int => {
            format!("`{name}` is an int key and `/` gives a float; declare it float or use `:=`")
        }
        ":=" | "=" => format!("`{name}` is {} key; this value is {}", key.a(), value.a()),
        _ => format!(
            "`{op}` on the {} key `{name}` with {} value",
            key.name(),
            value.a()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typing_rules() {
        assert_eq!(binary("+", Ty::Int, Ty::Int), Ok(Ty::Int));
        assert_eq!(binary("+", Ty::Int, Ty::Float), Ok(Ty::Float));
        assert_eq!(binary("/", Ty::Int, Ty::Int), Ok(Ty::Float));
        assert_eq!(binary("..", Ty::Str, Ty::Float), Ok(Ty::Str));
        assert!(binary("+", Ty::Str, Ty::Int).is_err());
        assert!(binary("&", Ty::Float, Ty::Int).is_err());
        assert!(binary("+", Ty::Bool, Ty::Int).is_err());
        assert!(comparison("<", Ty::Str, Ty::Int).is_err());
        assert!(comparison("<", Ty::Bool, Ty::Bool).is_err());
        assert!(comparison("==", Ty::Int, Ty::Float).is_ok());
        assert!(unary("!", Ty::Str).is_err());
        assert_eq!(ternary(Ty::Int, Ty::Float), Ok(Ty::Float));
        assert!(ternary(Ty::Str, Ty::Int).is_err());
        assert!(assignment(":=", "a", Ty::Float, Ty::Int).is_ok());
        assert!(assignment(":=", "a", Ty::Int, Ty::Float).is_err());
        assert!(assignment("/=", "a", Ty::Int, Ty::Int).is_err());
        assert!(assignment("+=", "s", Ty::Str, Ty::Str).is_ok());
        assert!(assignment("-=", "s", Ty::Str, Ty::Str).is_err());
    }
}
