//! Loop: runs its child once per element of a queue, writing the element to `value`
//! first (rule 65).
//! - whenever the child is not running, the queue's first element is taken off and written
//!   to `value`, then the child is ticked; an empty queue ends the Loop with `if_empty`
//!   (success by default) without ticking the child
//! - child Running -> Running; it resumes next tick with the same element
//! - child Success -> Running: the next element is taken next tick (one child run per tick)
//! - child Failure -> Failure at once
//!
//! The queue is a list: a literal (`[1, 2, 3]`), copied afresh each time the Loop starts,
//! or a key of type `list<…>` or `json` holding an array, which the Loop consumes: each
//! element taken is removed from the key (a write), so another Loop over the same key, or
//! this one started again, sees only what is left. With `consume: false` the key's list is
//! walked by position instead and left as it is, so each execution of the Loop starts at
//! its first element. A key without a value is an empty queue; one holding something other
//! than an array, or an element `value`'s key cannot hold, fails the Loop. Taking from a
//! key allocates the shorter list; a literal queue, and a key walked by position, are read
//! by position and allocate nothing.
//!
//! BehaviorTree.CPP's LoopInt, LoopDouble, LoopString and LoopBool (their `queue`,
//! `value` and `if_empty` ports; its "1;2;3" text becomes a list on import): a queue key
//! holding BT.CPP's shared deque is consumed, one holding a `std::vector` (BT.CPP 4.9+)
//! is walked (`consume: false`).
//! JSON: `{"type":"Loop","params":{"queue":[1,2,3],"value":"n"},"children":[child]}`

use std::sync::Arc;

use crate::args::{Arg, Args};
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::value::{Value, ValueType};

/// Where a Loop takes its elements from.
#[derive(Clone, Debug)]
pub(crate) enum Queue {
    /// A literal list, already converted to `value`'s type; the node's `cursor` is the
    /// position of the next element.
    Literal(Arc<[Value]>),
    /// A key holding an array, consumed as elements are taken.
    Key(Key),
    /// A key holding an array, read by position (the node's `cursor`) and left as it is.
    Walk(Key),
}

pub(crate) fn spec() -> NodeType {
    ty(
        "Loop",
        Category::Decorator,
        "Runs the child once per element of a queue, writing each element to a key first.",
    )
    .param(ParamSpec::new(
        "queue",
        ParamKind::Json,
        "The elements: a list, or bound to a list key, which the Loop empties as it goes.",
    ))
    .param(
        ParamSpec::new(
            "value",
            ParamKind::Key,
            "The key each element is written to before the child runs.",
        )
        .output(),
    )
    .param(
        ParamSpec::new(
            "consume",
            ParamKind::Bool,
            "With a bound queue: take each element off the key (default), or, when off, \
             walk the key's list by position and leave it as it is.",
        )
        .literal()
        .default(true.into()),
    )
    .param(
        ParamSpec::new(
            "if_empty",
            ParamKind::Enum,
            "The status once the queue is empty: success (default) or failure.",
        )
        .literal()
        .values(&["success", "failure"])
        .default("success".into()),
    )
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let value = args.key("value").map_err(|m| ParamError::new("value", m))?;
    let value_ty = cx.key_types[value.index()];
    let queue = match args.get("queue") {
        Some(Arg::Bound { key, .. }) => {
            let queue_ty = cx.key_types[key.index()];
            let fits = match queue_ty {
                ValueType::Json => true,
                ValueType::List(element) => element.value_type().reads_as(value_ty),
                _ => false,
            };
            if !fits {
                return Err(ParamError::new(
                    "queue",
                    format!(
                        "is bound to a {queue_ty} key; the Loop needs a list whose elements \
                         the {value_ty} key `value` can hold (or a json key)"
                    ),
                ));
            }
            if args.bool("consume").unwrap_or(true) {
                Queue::Key(*key)
            } else {
                Queue::Walk(*key)
            }
        }
        _ => {
            let items = match args.value("queue").map(Value::to_json) {
                Some(serde_json::Value::Array(items)) => items,
                Some(other) => {
                    return Err(ParamError::new(
                        "queue",
                        format!("must be a list (or bound to a list key); found {other}"),
                    ))
                }
                None => return Err(ParamError::new("queue", "give the list of elements")),
            };
            let mut out = Vec::with_capacity(items.len());
            for (k, item) in items.iter().enumerate() {
                let v = value_ty.coerce(item).map_err(|m| {
                    ParamError::new(
                        "queue",
                        format!("item {k} does not fit the {value_ty} key `value`: {m}"),
                    )
                })?;
                out.push(v);
            }
            Queue::Literal(out.into())
        }
    };
    let if_empty = match args.str("if_empty") {
        Ok("failure") => Status::Failure,
        _ => Status::Success,
    };
    Ok(Kind::Loop {
        queue,
        value,
        if_empty,
    })
}

/// What taking the next element found.
enum Taken {
    Element(Value),
    Empty,
    /// The key holds something that is not a list of `value`'s type.
    Unfit,
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    queue: &Queue,
    value: Key,
    if_empty: Status,
) -> Status {
    let child = only_child(x, i);
    if !x.is_running(child) {
        let taken = match queue {
            Queue::Literal(items) => {
                let slot = x.slot(i);
                match items.get(slot.cursor as usize) {
                    Some(v) => {
                        slot.cursor += 1;
                        Taken::Element(v.clone())
                    }
                    None => Taken::Empty,
                }
            }
            Queue::Key(key) => take_from_key(x.cx.blackboard, *key, value),
            Queue::Walk(key) => {
                let cursor = x.slot(i).cursor;
                let read = read_from_key(x.cx.blackboard, *key, value, cursor as usize);
                if let Taken::Element(_) = read {
                    x.slot(i).cursor += 1;
                }
                read
            }
        };
        match taken {
            Taken::Element(v) => x.cx.blackboard.write(value, v, -1.0),
            Taken::Empty => return if_empty,
            Taken::Unfit => return Status::Failure,
        }
    }
    match x.tick(child) {
        Status::Failure => Status::Failure,
        Status::Running | Status::Success => Status::Running,
    }
}

/// Takes the first element off the array in `key` (writing back the rest, with the
/// value's remaining ttl), converted to `value`'s type.
fn take_from_key(bb: &mut crate::blackboard::Blackboard, key: Key, value: Key) -> Taken {
    let Some(held) = bb.get(key) else {
        return Taken::Empty;
    };
    let Value::Json(held) = held else {
        return Taken::Unfit;
    };
    let Some(json) = held.as_array() else {
        return Taken::Unfit;
    };
    let Some(first) = json.first() else {
        return Taken::Empty;
    };
    let Ok(element) = bb.info(value).ty.coerce(first) else {
        return Taken::Unfit;
    };
    let rest = Value::Json(Arc::new(serde_json::Value::Array(json[1..].to_vec())));
    let ttl = bb.remaining(key).unwrap_or(-1.0);
    bb.write(key, rest, ttl);
    Taken::Element(element)
}

/// The element at `position` of the array in `key`, converted to `value`'s type; the key
/// is not written.
fn read_from_key(
    bb: &crate::blackboard::Blackboard,
    key: Key,
    value: Key,
    position: usize,
) -> Taken {
    let Some(held) = bb.get(key) else {
        return Taken::Empty;
    };
    let Value::Json(held) = held else {
        return Taken::Unfit;
    };
    let Some(json) = held.as_array() else {
        return Taken::Unfit;
    };
    let Some(item) = json.get(position) else {
        return Taken::Empty;
    };
    match bb.info(value).ty.coerce(item) {
        Ok(element) => Taken::Element(element),
        Err(_) => Taken::Unfit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blackboard::{Blackboard, KeyInfo};
    use crate::value::Scalar;

    fn board() -> (Blackboard, Key, Key) {
        let mut bb = Blackboard::new(Arc::from(vec![
            KeyInfo {
                name: "q".into(),
                ty: ValueType::List(Scalar::Int),
                default: Value::Null,
            },
            KeyInfo {
                name: "n".into(),
                ty: ValueType::Float,
                default: Value::Null,
            },
        ]));
        let (q, n) = (bb.key("q").unwrap(), bb.key("n").unwrap());
        bb.set_json("q", &serde_json::json!([1, 2]), Some(5.0))
            .unwrap();
        (bb, q, n)
    }

    #[test]
    fn rule65_walking_a_key_reads_by_position_and_writes_nothing() {
        let (bb, q, n) = board();
        let Taken::Element(v) = read_from_key(&bb, q, n, 1) else {
            panic!("an element")
        };
        assert_eq!(v, Value::Float(2.0), "converted to the value key's type");
        assert!(matches!(read_from_key(&bb, q, n, 2), Taken::Empty));
        assert_eq!(
            bb.get(q).map(Value::to_json),
            Some(serde_json::json!([1, 2]))
        );
        assert_eq!(bb.updates(q), 1, "only the setting wrote it");
    }

    #[test]
    fn rule65_taking_from_a_key_converts_and_keeps_the_rest_with_its_ttl() {
        let (mut bb, q, n) = board();
        bb.set_now(1.0);
        let Taken::Element(v) = take_from_key(&mut bb, q, n) else {
            panic!("an element")
        };
        assert_eq!(v, Value::Float(1.0), "converted to the value key's type");
        assert_eq!(bb.get(q).map(Value::to_json), Some(serde_json::json!([2])));
        assert_eq!(
            bb.remaining(q),
            Some(4.0),
            "the rest expires when the list did"
        );
        assert_eq!(bb.updates(q), 2, "taking is a write");
        assert!(matches!(take_from_key(&mut bb, q, n), Taken::Element(_)));
        assert!(matches!(take_from_key(&mut bb, q, n), Taken::Empty));
        bb.set_now(10.0);
        assert!(
            matches!(take_from_key(&mut bb, q, n), Taken::Empty),
            "expired"
        );
    }
}
