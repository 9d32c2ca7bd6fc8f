//! Vec2 and Vec3: positions and directions stored unboxed on the blackboard.
//!
//! A `vec2` or `vec3` key holds its components inline in the value (no `Arc`, no JSON),
//! so writing one at tick time is a copy and never allocates. Components are 64-bit floats,
//! as `float` keys are, so that `pos.x` in a script reads exactly what a `float` key
//! would hold.
//!
//! The JSON form (files, the debug protocol, stimuli, the CLI) is an array of numbers,
//! `[1.5, 2]` or `[1, 2, 3]`; an object `{"x": 1.5, "y": 2}` (with `"z"` for a `vec3`) is
//! accepted on input too. See docs/format.md "Vectors and entities".

use std::ops::{Add, Mul, Neg, Sub};

/// A 2D vector of 64-bit floats.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    /// The first component.
    pub x: f64,
    /// The second component.
    pub y: f64,
}

/// A 3D vector of 64-bit floats.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    /// The first component.
    pub x: f64,
    /// The second component.
    pub y: f64,
    /// The third component.
    pub z: f64,
}

impl Vec2 {
    /// `(0, 0)`.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// A vector from its components.
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }

    /// The Euclidean length.
    pub fn length(self) -> f64 {
        self.x.hypot(self.y)
    }

    /// The Euclidean distance to `other`.
    pub fn distance(self, other: Vec2) -> f64 {
        (other - self).length()
    }

    /// This vector scaled to length 1; zero stays zero.
    pub fn normalized(self) -> Vec2 {
        let len = self.length();
        if len > 0.0 {
            self * (1.0 / len)
        } else {
            Vec2::ZERO
        }
    }

    /// Moves towards `target` by at most `step`, landing exactly on it when it is closer
    /// than that: a mover never overshoots and oscillates around its goal, so "arrived"
    /// can be tested as `pos == target`.
    pub fn toward(self, target: Vec2, step: f64) -> Vec2 {
        let delta = target - self;
        let distance = delta.length();
        if distance <= step || distance == 0.0 {
            target
        } else {
            self + delta * (step / distance)
        }
    }

    /// The component named `x` or `y`.
    pub fn component(self, name: &str) -> Option<f64> {
        match name {
            "x" => Some(self.x),
            "y" => Some(self.y),
            _ => None,
        }
    }

    /// The JSON form: `[x, y]`.
    pub fn to_json(self) -> serde_json::Value {
        components_json(&[self.x, self.y])
    }

    /// Reads `[x, y]` or `{"x": x, "y": y}`; the message says what was wrong.
    pub fn from_json(json: &serde_json::Value) -> Result<Vec2, String> {
        let [x, y] = components(json, ["x", "y"], "vec2")?;
        Ok(Vec2 { x, y })
    }
}

impl Vec3 {
    /// `(0, 0, 0)`.
    pub const ZERO: Vec3 = Vec3 {
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };

    /// A vector from its components.
    pub const fn new(x: f64, y: f64, z: f64) -> Vec3 {
        Vec3 { x, y, z }
    }

    /// The Euclidean length.
    pub fn length(self) -> f64 {
        (self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }

    /// The Euclidean distance to `other`.
    pub fn distance(self, other: Vec3) -> f64 {
        (other - self).length()
    }

    /// The component named `x`, `y` or `z`.
    pub fn component(self, name: &str) -> Option<f64> {
        match name {
            "x" => Some(self.x),
            "y" => Some(self.y),
            "z" => Some(self.z),
            _ => None,
        }
    }

    /// The JSON form: `[x, y, z]`.
    pub fn to_json(self) -> serde_json::Value {
        components_json(&[self.x, self.y, self.z])
    }

    /// Reads `[x, y, z]` or `{"x": x, "y": y, "z": z}`; the message says what was wrong.
    pub fn from_json(json: &serde_json::Value) -> Result<Vec3, String> {
        let [x, y, z] = components(json, ["x", "y", "z"], "vec3")?;
        Ok(Vec3 { x, y, z })
    }
}

/// Non-finite components have no JSON number: they are written as `null`, as a
/// non-finite `float` is.
fn components_json(values: &[f64]) -> serde_json::Value {
    serde_json::Value::Array(
        values
            .iter()
            .map(|&f| serde_json::Number::from_f64(f).map_or(serde_json::Value::Null, Into::into))
            .collect(),
    )
}

/// The components of an array of exactly `N` numbers, or an object with exactly the
/// fields `names` (numbers).
fn components<const N: usize>(
    json: &serde_json::Value,
    names: [&str; N],
    ty: &str,
) -> Result<[f64; N], String> {
    use serde_json::Value as J;
    let mut out = [0.0; N];
    match json {
        J::Array(items) if items.len() == N => {
            for (slot, item) in out.iter_mut().zip(items) {
                *slot = number(item, ty)?;
            }
        }
        J::Object(fields) if fields.len() == N => {
            for (slot, name) in out.iter_mut().zip(names) {
                let item = fields
                    .get(name)
                    .ok_or_else(|| format!("a {ty} object needs the field \"{name}\""))?;
                *slot = number(item, ty)?;
            }
        }
        other => {
            return Err(format!(
                "expected a {ty} ([{}] or {{{}}}), found {}",
                names.map(|_| "number").join(", "),
                names.map(|n| format!("\"{n}\": number")).join(", "),
                crate::value::describe_json(other)
            ))
        }
    }
    Ok(out)
}

fn number(json: &serde_json::Value, ty: &str) -> Result<f64, String> {
    json.as_f64().ok_or_else(|| {
        format!(
            "a {ty} component must be a number, found {}",
            crate::value::describe_json(json)
        )
    })
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}
impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}
impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}
impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        Vec3::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}
impl Mul<f64> for Vec3 {
    type Output = Vec3;
    fn mul(self, k: f64) -> Vec3 {
        Vec3::new(self.x * k, self.y * k, self.z * k)
    }
}
impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        Vec3::new(-self.x, -self.y, -self.z)
    }
}

impl From<[f64; 2]> for Vec2 {
    fn from([x, y]: [f64; 2]) -> Vec2 {
        Vec2 { x, y }
    }
}
impl From<(f64, f64)> for Vec2 {
    fn from((x, y): (f64, f64)) -> Vec2 {
        Vec2 { x, y }
    }
}
impl From<Vec2> for [f64; 2] {
    fn from(v: Vec2) -> [f64; 2] {
        [v.x, v.y]
    }
}
impl From<Vec2> for serde_json::Value {
    fn from(v: Vec2) -> serde_json::Value {
        v.to_json()
    }
}
impl From<Vec3> for serde_json::Value {
    fn from(v: Vec3) -> serde_json::Value {
        v.to_json()
    }
}
impl From<[f64; 3]> for Vec3 {
    fn from([x, y, z]: [f64; 3]) -> Vec3 {
        Vec3 { x, y, z }
    }
}
impl From<(f64, f64, f64)> for Vec3 {
    fn from((x, y, z): (f64, f64, f64)) -> Vec3 {
        Vec3 { x, y, z }
    }
}
impl From<Vec3> for [f64; 3] {
    fn from(v: Vec3) -> [f64; 3] {
        [v.x, v.y, v.z]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_json_form_is_an_array_and_objects_are_accepted() {
        assert_eq!(Vec2::new(1.5, 2.0).to_json(), json!([1.5, 2.0]));
        assert_eq!(Vec2::from_json(&json!([1.5, 2])), Ok(Vec2::new(1.5, 2.0)));
        assert_eq!(
            Vec2::from_json(&json!({"x": 1.5, "y": 2})),
            Ok(Vec2::new(1.5, 2.0))
        );
        assert_eq!(
            Vec3::from_json(&json!([1, 2, 3])),
            Ok(Vec3::new(1.0, 2.0, 3.0))
        );
        assert_eq!(Vec3::new(1.0, 2.0, 3.0).to_json(), json!([1.0, 2.0, 3.0]));
    }

    #[test]
    fn toward_never_overshoots() {
        let a = Vec2::ZERO;
        let b = Vec2::new(3.0, 4.0);
        assert_eq!(a.toward(b, 2.5), Vec2::new(1.5, 2.0));
        assert_eq!(a.toward(b, 5.0), b);
        assert_eq!(a.toward(b, 50.0), b);
        assert_eq!(b.toward(b, 1.0), b);
    }

    #[test]
    fn bad_vectors_say_what_was_found() {
        assert_eq!(
            Vec2::from_json(&json!([1, 2, 3])).unwrap_err(),
            "expected a vec2 ([number, number] or {\"x\": number, \"y\": number}), found an array"
        );
        assert_eq!(
            Vec2::from_json(&json!([1, "a"])).unwrap_err(),
            "a vec2 component must be a number, found string \"a\""
        );
        assert_eq!(
            Vec3::from_json(&json!({"x": 1, "y": 2, "w": 3})).unwrap_err(),
            "a vec3 object needs the field \"z\""
        );
    }

    #[test]
    fn arithmetic_and_lengths() {
        let a = Vec2::new(3.0, 4.0);
        assert_eq!(a.length(), 5.0);
        assert_eq!(Vec2::ZERO.distance(a), 5.0);
        assert_eq!((a - a).normalized(), Vec2::ZERO);
        assert_eq!(Vec3::new(2.0, 3.0, 6.0).length(), 7.0);
        assert_eq!(a.component("y"), Some(4.0));
        assert_eq!(a.component("z"), None);
    }
}
