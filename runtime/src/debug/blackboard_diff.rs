//! BlackboardDiff: which keys' valid values changed since the last watched tick.
//! Values are compared with rule 7's equality, except that NaN equals NaN (a NaN that
//! stays NaN has not changed).

use crate::blackboard::Blackboard;
use crate::value::Value;

#[derive(Default)]
pub(crate) struct BlackboardDiff {
    last: Vec<Value>,
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) if x.is_nan() && y.is_nan() => true,
        _ => a.strict_eq(b),
    }
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
