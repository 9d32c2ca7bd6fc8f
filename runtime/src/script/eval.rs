//! Runs a compiled script on a blackboard.
//!
//! Allocation: the value stack and the text buffer for `..` live in a per-thread scratch
//! that is reused, so after the first runs a script allocates nothing, with one
//! exception: storing a string built by `..` into a key creates its text (the
//! blackboard holds strings as shared [`Text`]). When the key already holds the same
//! text, the old value is kept and nothing is allocated. Loads and string literals share
//! their `Arc` (a reference count, no copy).
//!
//! Appending to a key (`s := s .. e`, `s += e`: `Op::Append`) writes `e`'s text onto the
//! key's own text, in place when the key holds the only handle on it
//! ([`Text::push_str`]), so a run of appends costs amortised O(1) per appended byte
//! instead of a copy of the whole string per run. For that the stack holds no handle on
//! a key's text between runs (it is emptied at the end of each).
//!
//! Strings under construction (`V::Built`) are ranges of the scratch text that follow
//! the stack: each starts where the one below it on the stack ends, the topmost ends at
//! the end of the text, and popping one truncates the text to its start. So `a .. b` of
//! two built strings is already contiguous and costs no copy, and the text never holds
//! more than the strings still on the stack. No string is made longer than
//! [`MAX_STRING_LEN`]: the length is checked before the bytes are written (rule 51).

use std::cell::RefCell;
use std::fmt::Write as _;

use super::check::Ty;
use super::compile::{Op, Program};
use crate::blackboard::{Blackboard, Key};
use crate::value::Value;
use crate::value_text::Text;
use crate::vector::{Vec2, Vec3};
use crate::work::{self, Counter};

/// The longest string, in bytes, that a script makes: a `..` or `+=` whose result would
/// be longer stops the script (rule 51), before the bytes are written. 1 MiB.
pub const MAX_STRING_LEN: usize = 1 << 20;

/// How much of the operation a stop message quotes, in characters.
const EXCERPT_CHARS: usize = 60;

/// A stack value. `Built` is a string under construction: a range of the scratch text.
#[derive(Clone, Debug)]
enum V {
    B(bool),
    I(i64),
    F(f64),
    S(Text),
    Built(usize, usize),
}

#[derive(Default)]
struct Scratch {
    stack: Vec<V>,
    text: String,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Why a script stopped. Every stop is a problem in the tree, reported with its place in
/// the script ([`Program::stop_message`]); the two about keys without a value are
/// BehaviorTree.CPP's script exceptions (rule 86).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// It read a key that has no valid value (never written, unset, or expired):
    /// BT.CPP's "Variable not found".
    NoValue {
        /// The key.
        key: Key,
        /// Where the read starts in the script.
        start: usize,
        /// Where it ends.
        end: usize,
    },
    /// `=` or a compound assignment (`+=`, …) to a key that has no valid value: BT.CPP's
    /// "The blackboard entry doesn't exist, yet" (only `:=` creates a value).
    NotCreated {
        /// The key.
        key: Key,
        /// Where the assigned key's name starts in the script.
        start: usize,
        /// Where it ends.
        end: usize,
    },
    /// A `..` or `+=` would have made a string longer than [`MAX_STRING_LEN`] bytes: the
    /// byte range of that operation in the script, and the length it would have had.
    TooLong {
        /// Where the operation starts in the script.
        start: usize,
        /// Where it ends.
        end: usize,
        /// The length of the string it would have made, in bytes.
        len: usize,
    },
    /// An assignment would have stored infinity or NaN in a float key: the byte range of
    /// the assignment in the script, and the value's name (`inf`, `-inf` or `NaN`).
    NotFinite {
        /// Where the assignment starts in the script.
        start: usize,
        /// Where it ends.
        end: usize,
        /// `inf`, `-inf` or `NaN`.
        value: &'static str,
    },
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
            V::Built(a, b) => Outcome::Str(text[*a..*b].to_owned()),
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
            let result = self.steps(bb, scratch).map(|()| {
                let top = scratch.stack.last().cloned().unwrap_or(V::B(false));
                out(&top, &scratch.text)
            });
            // No handle on a key's text outlives the run: the next append to it can then
            // write in place (`Op::Append`).
            scratch.stack.clear();
            // A script near the limit leaves a large buffer; keep what one string needs.
            if scratch.text.capacity() > 2 * MAX_STRING_LEN {
                scratch.text = String::new();
            }
            result
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
                Op::Str(i) => stack.push(V::S(Text::from(self.strings[i as usize].clone()))),
                Op::Load(key) => stack.push(match bb.get(key) {
                    Some(Value::Bool(b)) => V::B(*b),
                    Some(Value::Int(i)) => V::I(*i),
                    Some(Value::Float(f)) => V::F(*f),
                    Some(Value::Str(s)) => V::S(s.clone()),
                    _ => return Err(self.no_value(pc - 1, key)),
                }),
                Op::Target(key) => {
                    if bb.get(key).is_none() {
                        return Err(self.not_created(pc - 1, key));
                    }
                }
                Op::Store(key, ty) => {
                    let value = match stack.last() {
                        Some(V::B(b)) => Value::Bool(*b),
                        Some(V::I(i)) if ty == Ty::Float => Value::Float(*i as f64),
                        Some(V::I(i)) => Value::Int(*i),
                        Some(V::F(f)) if f.is_finite() => Value::Float(*f),
                        Some(V::F(f)) => return Err(self.not_finite(pc - 1, *f)),
                        Some(V::S(s)) => Value::Str(s.clone()),
                        Some(V::Built(a, b)) => {
                            let built = &text[*a..*b];
                            debug_assert!(built.len() <= MAX_STRING_LEN);
                            match bb.get(key) {
                                Some(Value::Str(old)) if &**old == built => continue,
                                _ => {
                                    work::add(Counter::ScriptTextBytes, built.len() as u64);
                                    Value::Str(Text::from(built))
                                }
                            }
                        }
                        None => continue,
                    };
                    bb.write(key, value, -1.0);
                }
                Op::Append(key) => {
                    let Some(tail) = stack.pop() else {
                        unreachable!("checked at load: an operand")
                    };
                    // The tail's text: a built string already at the end of the scratch
                    // text, a number's written there now, or a loaded string as it is.
                    let at = text.len();
                    let piece: &str = match &tail {
                        V::S(s) => s,
                        V::Built(a, b) => &text[*a..*b],
                        other => {
                            append(text, other);
                            &text[at..]
                        }
                    };
                    let Some(Value::Str(old)) = bb.get(key) else {
                        return Err(self.no_value(pc - 1, key));
                    };
                    let len = old.len().saturating_add(piece.len());
                    if len > MAX_STRING_LEN {
                        return Err(self.too_long(pc - 1, len));
                    }
                    // An empty tail leaves the text as it is, unwritten, as storing
                    // the same text does.
                    if !piece.is_empty() {
                        if let Some(moved) = bb.append_str(key, piece) {
                            work::add(Counter::ScriptTextBytes, moved);
                        }
                    }
                    if let V::Built(a, _) = tail {
                        text.truncate(a);
                    } else {
                        text.truncate(at);
                    }
                    match bb.get(key) {
                        Some(Value::Str(s)) => stack.push(V::S(s.clone())),
                        _ => return Err(self.no_value(pc - 1, key)),
                    }
                }
                Op::SameValue(a, b) => match (bb.get(a), bb.get(b)) {
                    (Some(x), Some(y)) => stack.push(V::B(x.strict_eq(y))),
                    (None, _) => return Err(self.no_value(pc - 1, a)),
                    (_, None) => return Err(self.no_value(pc - 1, b)),
                },
                Op::LoadComponent(key, i) => stack.push(V::F(match (bb.value(key), i) {
                    (Value::Vec2(v), 0) => v.x,
                    (Value::Vec2(v), _) => v.y,
                    (Value::Vec3(v), 0) => v.x,
                    (Value::Vec3(v), 1) => v.y,
                    (Value::Vec3(v), _) => v.z,
                    _ => return Err(self.no_value(pc - 1, key)),
                })),
                Op::StoreComponent(key, i) => {
                    let f = match stack.last() {
                        Some(V::F(f)) if f.is_finite() => *f,
                        Some(V::F(f)) => return Err(self.not_finite(pc - 1, *f)),
                        _ => continue,
                    };
                    let value = match (bb.value(key), i) {
                        (Value::Vec2(v), 0) => Value::Vec2(Vec2 { x: f, ..*v }),
                        (Value::Vec2(v), _) => Value::Vec2(Vec2 { y: f, ..*v }),
                        (Value::Vec3(v), 0) => Value::Vec3(Vec3 { x: f, ..*v }),
                        (Value::Vec3(v), 1) => Value::Vec3(Vec3 { y: f, ..*v }),
                        (Value::Vec3(v), _) => Value::Vec3(Vec3 { z: f, ..*v }),
                        _ => return Err(self.no_value(pc - 1, key)),
                    };
                    bb.write(key, value, -1.0);
                }
                Op::Pop => {
                    if let Some(V::Built(a, _)) = stack.pop() {
                        text.truncate(a);
                    }
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
                    let len = str_len(&l, text).saturating_add(str_len(&r, text));
                    if len > MAX_STRING_LEN {
                        return Err(self.too_long(pc - 1, len));
                    }
                    let built = concat(text, l, r);
                    if built.1 - built.0 > MAX_STRING_LEN {
                        // A number's text, whose length is only known once written.
                        return Err(self.too_long(pc - 1, built.1 - built.0));
                    }
                    stack.push(V::Built(built.0, built.1));
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
                    for v in [r, l] {
                        if let V::Built(a, _) = v {
                            text.truncate(a);
                        }
                    }
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

impl Program {
    /// What went wrong when the script stopped, located in the script
    /// (`column 6 (\`s .. s\`): …`).
    pub fn stop_message(&self, stop: Stop) -> String {
        let (start, end, what) = match stop {
            Stop::NoValue { start, end, .. } => (
                start,
                end,
                "the key has no value (never written, unset or expired); BT.CPP: \"Variable \
                 not found\""
                    .to_owned(),
            ),
            Stop::NotCreated { start, end, .. } => (
                start,
                end,
                "the key has no value yet, and `=` only changes a value (`:=` creates one); \
                 BT.CPP: \"The blackboard entry doesn't exist, yet\""
                    .to_owned(),
            ),
            Stop::TooLong { start, end, len } => (
                start,
                end,
                format!(
                    "the string would be {len} bytes long; a script makes strings of at most \
                     {MAX_STRING_LEN} bytes"
                ),
            ),
            Stop::NotFinite { start, end, value } => (
                start,
                end,
                format!("the value is {value}; keys hold finite numbers only"),
            ),
        };
        let error = super::ScriptError::new(start, end, what);
        let (line, column) = error.line_column(&self.src);
        let place = if self.src.contains('\n') {
            format!("line {line}, column {column}")
        } else {
            format!("column {column}")
        };
        let excerpt = self.src.get(start..end).unwrap_or("");
        let excerpt: String = match excerpt.char_indices().nth(EXCERPT_CHARS) {
            Some((cut, _)) => format!("{}…", &excerpt[..cut]),
            None => excerpt.to_owned(),
        };
        format!(
            "script stopped at {place} (`{}`): {}",
            crate::text::escape_controls(&excerpt),
            error.message
        )
    }

    #[cold]
    fn no_value(&self, pc: usize, key: Key) -> Stop {
        let (start, end) = self.site(pc);
        Stop::NoValue { key, start, end }
    }

    #[cold]
    fn not_created(&self, pc: usize, key: Key) -> Stop {
        let (start, end) = self.site(pc);
        Stop::NotCreated { key, start, end }
    }

    #[cold]
    fn too_long(&self, pc: usize, len: usize) -> Stop {
        let (start, end) = self.site(pc);
        Stop::TooLong { start, end, len }
    }

    #[cold]
    fn not_finite(&self, pc: usize, f: f64) -> Stop {
        let (start, end) = self.site(pc);
        let value = if f.is_nan() {
            "NaN"
        } else if f > 0.0 {
            "inf"
        } else {
            "-inf"
        };
        Stop::NotFinite { start, end, value }
    }
}

fn str_of<'a>(v: &'a V, text: &'a str) -> &'a str {
    match v {
        V::S(s) => s,
        V::Built(a, b) => &text[*a..*b],
        _ => "",
    }
}

/// The length of a string operand; numbers and bools count 0 (their text is short, and
/// written before its length is checked).
fn str_len(v: &V, text: &str) -> usize {
    str_of(v, text).len()
}

/// `l .. r` at the end of the text, as a range of it. Built strings follow the stack (see
/// the module doc), so a built `l` ends where a built `r` starts or at the end of the text,
/// and a built `r` is at the end: only operands not yet in the text are copied.
fn concat(text: &mut String, l: V, r: V) -> (usize, usize) {
    let before = text.len();
    let range = match (l, r) {
        (V::Built(a, b), V::Built(c, d)) => {
            debug_assert!(b == c && d == text.len());
            (a, d)
        }
        (V::Built(a, b), r) => {
            debug_assert_eq!(b, text.len());
            append(text, &r);
            (a, text.len())
        }
        (l, V::Built(c, d)) => {
            debug_assert_eq!(d, text.len());
            // `l`'s text goes before `r`'s: moves only `r`, the top of the text.
            let mut number = String::new();
            let l_text: &str = match &l {
                V::S(s) => s,
                other => {
                    append(&mut number, other);
                    &number
                }
            };
            text.insert_str(c, l_text);
            work::add(Counter::ScriptTextBytes, (d - c) as u64);
            (c, text.len())
        }
        (l, r) => {
            append(text, &l);
            append(text, &r);
            (before, text.len())
        }
    };
    work::add(Counter::ScriptTextBytes, (text.len() - before) as u64);
    range
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
        // Built strings are already in the text (`concat`).
        V::Built(..) => {}
    }
}
