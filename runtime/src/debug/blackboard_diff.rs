//! BlackboardDiff: which keys' valid values changed since the last watched tick.
//! Values are compared with rule 7's equality, except that NaN equals NaN, in a float or a
//! vector's component (a NaN that stays NaN has not changed).

use crate::blackboard::Blackboard;
use crate::value::Value;

#[derive(Default)]
pub(crate) struct BlackboardDiff {
    last: Vec<Value>,
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => same_float(*x, *y),
        (Value::Vec2(p), Value::Vec2(q)) => same_float(p.x, q.x) && same_float(p.y, q.y),
        (Value::Vec3(p), Value::Vec3(q)) => {
            same_float(p.x, q.x) && same_float(p.y, q.y) && same_float(p.z, q.z)
        }
        _ => a.strict_eq(b),
    }
}

fn same_float(x: f64, y: f64) -> bool {
    x == y || (x.is_nan() && y.is_nan())
}

impl BlackboardDiff {
    /// Compares `bb` with the previous call's and remembers it; returns the changed keys'
    /// indices with their valid value (`Null` when none).
    pub fn changes(&mut self, bb: &Blackboard) -> Vec<(u32, Value)> {
        let mut changed = Vec::new();
        for (key, _) in bb.keys() {
            let now = bb.get(key).cloned().unwrap_or_default();
            let i = key.index();
            match self.last.get_mut(i) {
                Some(last) if same(last, &now) => {}
                Some(last) => {
                    changed.push((i as u32, now.clone()));
                    *last = now;
                }
                None => {
                    self.last.resize(i, Value::Null);
                    self.last.push(now.clone());
                    changed.push((i as u32, now));
                }
            }
        }
        changed
    }

    /// Every key as of the last [`BlackboardDiff::changes`].
    pub fn all(&self) -> Vec<(u32, Value)> {
        self.last
            .iter()
            .enumerate()
            .map(|(i, v)| (i as u32, v.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackboard::KeyInfo;
    use crate::value::ValueType;
    use crate::vector::Vec2;
    use std::sync::Arc;

    #[test]
    fn vectors_are_sent_when_they_change_and_a_nan_component_is_not_a_change() {
        let mut bb = Blackboard::new(Arc::from(vec![KeyInfo {
            name: "pos".into(),
            ty: ValueType::Vec2,
            default: Value::Vec2(Vec2::new(f64::NAN, 1.0)),
        }]));
        let mut diff = BlackboardDiff::default();
        assert_eq!(diff.changes(&bb).len(), 1, "the first call sends every key");
        assert!(diff.changes(&bb).is_empty(), "NaN stays NaN");
        let pos = bb.key("pos").unwrap();
        bb.set(pos, Vec2::new(1.0, 2.0)).unwrap();
        let changes = diff.changes(&bb);
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].1.to_json(), serde_json::json!([1.0, 2.0]));
    }
}
