//! Runs a compiled script on a blackboard.
//!
//! Allocation: the value stack and the text buffer for `..` live in a per-thread scratch
//! that is reused, so after the first runs a script allocates nothing, with one
//! exception: storing a string built by `..` into a key creates its `Arc<str>` (the
//! blackboard holds strings as `Arc<str>`). When the key already holds the same text, the
//! old value is kept and nothing is allocated. Loads and string literals share their
//! `Arc` (a reference count, no copy).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::Arc;

use super::check::Ty;
use super::compile::{Op, Program};
use crate::blackboard::{Blackboard, Key};
use crate::value::Value;

/// A stack value. `Built` is a string under construction: a range of the scratch text.
#[derive(Clone, Debug)]
enum V {
    B(bool),
    I(i64),
    F(f64),
    S(Arc<str>),
    Built(u32, u32),
}

#[derive(Default)]
struct Scratch {
    stack: Vec<V>,
    text: String,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Why a script stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It read a key that has no valid value (never written, or expired).
    NoValue(Key),
}

/// The value a script gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A bool.
    Bool(bool),
    /// An int.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(String),
}

impl Outcome {
    /// The value as a condition: bools as they are, numbers true unless zero.
    pub fn truthy(&self) -> bool {
        match self {
            Outcome::Bool(b) => *b,
            Outcome::Int(i) => *i != 0,
            Outcome::Float(f) => *f != 0.0,
            Outcome::Str(_) => false,
        }
    }
}

impl Program {
    /// Runs the script; the value of its last statement is returned only as a
    /// condition (see [`Program::run_value`] for the value itself).
    pub fn run(&self, bb: &mut Blackboard) -> Result<bool, Stop> {
        self.exec(bb, |v, _| match v {
            V::B(b) => *b,
            V::I(i) => *i != 0,
            V::F(f) => *f != 0.0,
            _ => false,
        })
    }

    /// Runs the script and returns the value of its last statement (allocates for a
    /// string result: for tests and tools, not for ticking).
    pub fn run_value(&self, bb: &mut Blackboard) -> Result<Outcome, Stop> {
        self.exec(bb, |v, text| match v {
            V::B(b) => Outcome::Bool(*b),
            V::I(i) => Outcome::Int(*i),
            V::F(f) => Outcome::Float(*f),
            V::S(s) => Outcome::Str(s.to_string()),
            V::Built(a, b) => Outcome::Str(text[*a as usize..*b as usize].to_owned()),
        })
    }

    fn exec<T>(&self, bb: &mut Blackboard, out: impl FnOnce(&V, &str) -> T) -> Result<T, Stop> {
        SCRATCH.with(|cell| {
            // A script never runs another one, so the scratch is free; should that ever
            // change, a fresh scratch keeps it correct.
            let mut fresh = Scratch::default();
            let mut guard = cell.try_borrow_mut();
            let scratch = match guard.as_deref_mut() {
                Ok(s) => s,
                Err(_) => &mut fresh,
            };
            scratch.stack.clear();
            scratch.text.clear();
            scratch.stack.reserve(self.depth);
            self.steps(bb, scratch)?;
            let top = scratch.stack.last().cloned().unwrap_or(V::B(false));
            Ok(out(&top, &scratch.text))
        })
    }

    fn steps(&self, bb: &mut Blackboard, s: &mut Scratch) -> Result<(), Stop> {
        let Scratch { stack, text } = s;
        let mut pc = 0usize;
        while let Some(&op) = self.ops.get(pc) {
            pc += 1;
            match op {
                Op::Bool(b) => stack.push(V::B(b)),
                Op::Int(i) => stack.push(V::I(i)),
                Op::Float(f) => stack.push(V::F(f)),
                Op::Str(i) => stack.push(V::S(self.strings[i as usize].clone())),
                Op::Load(key) => stack.push(match bb.get(key) {
                    Some(Value::Bool(b)) => V::B(*b),
                    Some(Value::Int(i)) => V::I(*i),
                    Some(Value::Float(f)) => V::F(*f),
                    Some(Value::Str(s)) => V::S(s.clone()),
                    _ => return Err(Stop::NoValue(key)),
                }),
                Op::Store(key, ty) => {
                    let value = match stack.last() {
                        Some(V::B(b)) => Value::Bool(*b),
                        Some(V::I(i)) if ty == Ty::Float => Value::Float(*i as f64),
                        Some(V::I(i)) => Value::Int(*i),
                        Some(V::F(f)) => Value::Float(*f),
                        Some(V::S(s)) => Value::Str(s.clone()),
                        Some(V::Built(a, b)) => {
                            let built = &text[*a as usize..*b as usize];
                            match bb.get(key) {
                                Some(Value::Str(old)) if &**old == built => continue,
                                _ => Value::Str(Arc::from(built)),
                            }
                        }
                        None => continue,
                    };
                    bb.write(key, value, -1.0);
                }
                Op::Pop => {
                    stack.pop();
                }
                Op::ToFloat => {
                    if let Some(V::I(i)) = stack.last() {
                        let f = *i as f64;
                        *stack.last_mut().expect("checked above") = V::F(f);
                    }
                }
                Op::ToFloatUnder => {
                    let n = stack.len();
                    if n >= 2 {
                        if let V::I(i) = stack[n - 2] {
                            stack[n - 2] = V::F(i as f64);
                        }
                    }
                }
                Op::Truthy => {
                    if let Some(top) = stack.last_mut() {
                        *top = V::B(match top {
                            V::B(b) => *b,
                            V::I(i) => *i != 0,
                            V::F(f) => *f != 0.0,
                            _ => false,
                        });
                    }
                }
                Op::Neg => match stack.last_mut() {
                    Some(V::I(i)) => *i = i.wrapping_neg(),
                    Some(V::F(f)) => *f = -*f,
                    _ => {}
                },
                Op::Not => {
                    if let Some(V::B(b)) = stack.last_mut() {
                        *b = !*b;
                    }
                }
                Op::BitNot => {
                    if let Some(V::I(i)) = stack.last_mut() {
                        *i = !*i;
                    }
                }
                Op::AddInt | Op::SubInt | Op::MulInt | Op::BitAnd | Op::BitOr | Op::BitXor => {
                    let (Some(V::I(b)), Some(V::I(a))) = (stack.pop(), stack.pop()) else {
                        unreachable!("checked at load: two ints")
                    };
                    stack.push(V::I(match op {
                        Op::AddInt => a.wrapping_add(b),
                        Op::SubInt => a.wrapping_sub(b),
                        Op::MulInt => a.wrapping_mul(b),
                        Op::BitAnd => a & b,
                        Op::BitOr => a | b,
                        _ => a ^ b,
                    }));
                }
                Op::AddFloat | Op::SubFloat | Op::MulFloat | Op::DivFloat => {
                    let (Some(V::F(b)), Some(V::F(a))) = (stack.pop(), stack.pop()) else {
                        unreachable!("checked at load: two floats")
                    };
                    stack.push(V::F(match op {
                        Op::AddFloat => a + b,
                        Op::SubFloat => a - b,
                        Op::MulFloat => a * b,
                        _ => a / b,
                    }));
                }
                Op::Concat => {
                    let (Some(r), Some(l)) = (stack.pop(), stack.pop()) else {
                        unreachable!("checked at load: two operands")
                    };
                    // Builds at the end of the scratch text; a left operand already
                    // there (`a .. b .. c`) is extended in place.
                    let start = match l {
                        V::Built(a, b) if b as usize == text.len() => a as usize,
                        other => {
                            let start = text.len();
                            append(text, &other);
                            start
                        }
                    };
                    append(text, &r);
                    stack.push(V::Built(start as u32, text.len() as u32));
                }
                Op::Compare(cmp, ty) => {
                    let (Some(r), Some(l)) = (stack.pop(), stack.pop()) else {
                        unreachable!("checked at load: two operands")
                    };
                    let ord = match (ty, &l, &r) {
                        (Ty::Int, V::I(a), V::I(b)) => Some(a.cmp(b)),
                        (Ty::Float, V::F(a), V::F(b)) => a.partial_cmp(b),
                        (Ty::Bool, V::B(a), V::B(b)) => Some(a.cmp(b)),
                        _ => Some(str_of(&l, text).cmp(str_of(&r, text))),
                    };
                    // NaN is unordered: every comparison but `!=` is false.
                    let holds = match ord {
                        Some(o) => cmp.holds(o),
                        None => cmp == super::compile::Cmp::Ne,
                    };
                    stack.push(V::B(holds));
                }
                Op::JumpIfFalse(to) => {
                    if let Some(V::B(false)) = stack.pop() {
                        pc = to as usize;
                    }
                }
                Op::AndJump(to) | Op::OrJump(to) => {
                    let jump_on = matches!(op, Op::OrJump(_));
                    if let Some(V::B(b)) = stack.last() {
                        if *b == jump_on {
                            pc = to as usize;
                        } else {
                            stack.pop();
                        }
                    }
                }
                Op::Jump(to) => pc = to as usize,
            }
        }
        Ok(())
    }
}

fn str_of<'a>(v: &'a V, text: &'a str) -> &'a str {
    match v {
        V::S(s) => s,
        V::Built(a, b) => &text[*a as usize..*b as usize],
        _ => "",
    }
}

/// Appends a value's text as BT.CPP writes it when joining with `..`: ints in decimal,
/// floats with six decimals (`2.500000`), bools as 1 and 0.
fn append(text: &mut String, v: &V) {
    match v {
        V::B(b) => text.push(if *b { '1' } else { '0' }),
        V::I(i) => {
            let _ = write!(text, "{i}");
        }
        V::F(f) => {
            let _ = write!(text, "{f:.6}");
        }
        V::S(s) => text.push_str(s),
        V::Built(a, b) => {
            // Copies a range of the buffer onto its own end, a character at a time.
            let (mut i, end) = (*a as usize, *b as usize);
            while i < end {
                let Some(c) = text[i..].chars().next() else {
                    break;
                };
                text.push(c);
                i += c.len_utf8();
            }
        }
    }
}
