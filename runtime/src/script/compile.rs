//! A checked script as a flat program for a small stack machine.
//!
//! Keys are resolved to slots and string literals interned as `Arc<str>` at load, so
//! running a program looks nothing up and copies no text (see `eval` for the one
//! allocation that remains: a string built by `..` and stored in a key).

use std::sync::Arc;

use super::check::{self, Names, Ty};
use super::parser::{Expr, Span};
use super::ScriptError;
use crate::blackboard::Key;
use crate::value::ValueType;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl Cmp {
    fn of(op: &str) -> Cmp {
        match op {
            "==" => Cmp::Eq,
            "!=" => Cmp::Ne,
            "<" => Cmp::Lt,
            ">" => Cmp::Gt,
            "<=" => Cmp::Le,
            _ => Cmp::Ge,
        }
    }

    pub(crate) fn holds(self, ord: std::cmp::Ordering) -> bool {
        use std::cmp::Ordering::*;
        match self {
            Cmp::Eq => ord == Equal,
            Cmp::Ne => ord != Equal,
            Cmp::Lt => ord == Less,
            Cmp::Gt => ord == Greater,
            Cmp::Le => ord != Greater,
            Cmp::Ge => ord != Less,
        }
    }
}

/// One instruction. Operands are on the stack; the types were checked at load, so each
/// operation knows what it finds there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Op {
    Bool(bool),
    Int(i64),
    Float(f64),
    /// An interned string literal.
    Str(u32),
    /// Pushes the key's valid value; a key without one stops the script (it fails):
    /// `Stop::NoValue`, BT.CPP's "Variable not found" (rule 86).
    Load(Key),
    /// The target of `=` or of a compound assignment must have a valid value; a key
    /// without one stops the script: `Stop::NotCreated`, BT.CPP's "doesn't exist, yet"
    /// (rule 86). Pushes nothing.
    Target(Key),
    /// Pops a value and writes it to the key (an int into a float key is widened).
    Store(Key, Ty),
    /// Pops a value and appends its text to the string key's (`s := s .. e`, `s += e`),
    /// in place when it can (`Text::push_str`); pushes the key's new text.
    Append(Key),
    /// Pushes component `1` (0 for `x`, 1 for `y`, 2 for `z`) of a vector key's valid
    /// value, as a float; a key without one stops the script.
    LoadComponent(Key, u8),
    /// Writes the top value (a float, kept on the stack) to one component of a vector
    /// key's valid value; a key without one stops the script.
    StoreComponent(Key, u8),
    /// Pushes whether two keys of one user value type hold equal valid values (rule 100);
    /// a key without one stops the script.
    SameValue(Key, Key),
    /// Drops the top value (an expression statement's result that is not the last).
    Pop,
    /// The top value (an int) as a float.
    ToFloat,
    /// The value under the top (an int) as a float.
    ToFloatUnder,
    /// The top value (a bool or number) as a bool: numbers are true unless zero.
    Truthy,
    Neg,
    Not,
    BitNot,
    AddInt,
    SubInt,
    MulInt,
    AddFloat,
    SubFloat,
    MulFloat,
    DivFloat,
    BitAnd,
    BitOr,
    BitXor,
    Concat,
    /// Compares the two top values of type `Ty` (ints and floats mixed are floats).
    Compare(Cmp, Ty),
    /// Pops a bool; jumps when it is false.
    JumpIfFalse(u32),
    /// Jumps when the top bool is false (`&&`) / true (`||`), keeping it; else pops it.
    AndJump(u32),
    OrJump(u32),
    Jump(u32),
}

/// A compiled script: instructions, interned strings, and the type of the value it
/// gives (that of its last statement).
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) ops: Vec<Op>,
    pub(crate) strings: Vec<Arc<str>>,
    pub(crate) result: Ty,
    /// The deepest the stack gets.
    pub(crate) depth: usize,
    /// The source range of each instruction that can stop the script (`Load`, `Target`,
    /// `Concat`, `Store`, …), by instruction index in increasing order: read only to
    /// report a stop.
    pub(crate) sites: Vec<(u32, Span)>,
    /// The script's text, for messages about a stop.
    pub(crate) src: Arc<str>,
}

impl Program {
    /// The type of the value the script gives.
    pub fn result(&self) -> Ty {
        self.result
    }

    /// The script's source text.
    pub fn source(&self) -> &str {
        &self.src
    }

    /// The source range of instruction `pc`, which has one (`Compiler::site`).
    pub(crate) fn site(&self, pc: usize) -> (usize, usize) {
        match self.sites.binary_search_by_key(&(pc as u32), |&(at, _)| at) {
            Ok(i) => (self.sites[i].1.start, self.sites[i].1.end),
            Err(_) => (0, self.src.len()),
        }
    }

    /// Rewrites blackboard keys (file-local to instance keys, for subtrees).
    pub(crate) fn map_keys(&mut self, map: &impl Fn(Key) -> Key) {
        for op in &mut self.ops {
            match op {
                Op::Load(k)
                | Op::Target(k)
                | Op::Store(k, _)
                | Op::Append(k)
                | Op::LoadComponent(k, _)
                | Op::StoreComponent(k, _) => *k = map(*k),
                Op::SameValue(a, b) => {
                    *a = map(*a);
                    *b = map(*b);
                }
                _ => {}
            }
        }
    }
}

pub(crate) struct Compiler<'a> {
    src: &'a str,
    names: &'a dyn Names,
    ops: Vec<Op>,
    strings: Vec<Arc<str>>,
    depth: usize,
    max_depth: usize,
    sites: Vec<(u32, Span)>,
}

impl<'a> Compiler<'a> {
    pub(crate) fn new(src: &'a str, names: &'a dyn Names) -> Compiler<'a> {
        Compiler {
            src,
            names,
            ops: Vec::new(),
            strings: Vec::new(),
            depth: 0,
            max_depth: 0,
            sites: Vec::new(),
        }
    }

    pub(crate) fn program(mut self, statements: &[Expr]) -> Result<Program, ScriptError> {
        let mut result = Ty::Bool;
        for (i, s) in statements.iter().enumerate() {
            result = match s {
                Expr::Assign { op, target, value } => self.assign(op, target, value)?,
                other => self.expr(other)?,
            };
            if i + 1 < statements.len() {
                self.emit(Op::Pop, -1);
            }
        }
        Ok(Program {
            ops: self.ops,
            strings: self.strings,
            result,
            depth: self.max_depth,
            sites: self.sites,
            src: Arc::from(self.src),
        })
    }

    /// Emits `op`, which can stop the script, with the source range to report.
    fn emit_at(&mut self, op: Op, stack: isize, span: Span) {
        self.sites.push((self.ops.len() as u32, span));
        self.emit(op, stack);
    }

    fn emit(&mut self, op: Op, stack: isize) {
        self.ops.push(op);
        self.depth = self.depth.saturating_add_signed(stack);
        self.max_depth = self.max_depth.max(self.depth);
    }

    fn text(&self, span: Span) -> &'a str {
        &self.src[span.start..span.end]
    }

    fn err(span: Span, message: impl Into<String>) -> ScriptError {
        ScriptError::new(span.start, span.end, message)
    }

    /// `key op value`, leaving the stored value on the stack.
    fn assign(&mut self, op: &str, target: &Expr, value: &Expr) -> Result<Ty, ScriptError> {
        if let Expr::Component { root, key, field } = *target {
            return self.assign_component(op, (root, key, field), value);
        }
        let Expr::Name { root, span } = *target else {
            return Err(Self::err(target.span(), "only a key can be assigned"));
        };
        let name = self.text(span);
        let name = name.strip_prefix('@').unwrap_or(name);
        if self.names.enum_value(name).is_some() {
            return Err(Self::err(
                span,
                format!("`{name}` is an enum value, not a key"),
            ));
        }
        let (key, kty) = self
            .names
            .key(name, root)
            .ok_or_else(|| Self::err(span, missing(name, root, "no blackboard key named")))?;
        let kty = Ty::of_key(kty).ok_or_else(|| {
            Self::err(
                span,
                format!(
                    "`{name}` holds {kty} values; scripts use bool, int, float and string keys"
                ),
            )
        })?;
        let compound = op != ":=" && op != "=";
        // BT.CPP checks the target of `=` before it evaluates the value (rule 86).
        if op != ":=" {
            self.emit_at(Op::Target(key), 0, span);
        }
        if kty == Ty::Str {
            if let Some(tail) = self.appended(op, root, name, value) {
                return self.append(key, (op, name), (target, value), tail);
            }
        }
        if compound {
            self.emit_at(Op::Load(key), 1, span);
        }
        let vty = self.expr(value)?;
        check::assignment(op, name, kty, vty)
            .map_err(|m| Self::err(target.span().to_end(value.span()), m))?;
        let whole = target.span().to_end(value.span());
        match op {
            "+=" if kty == Ty::Str => self.emit_at(Op::Concat, -1, whole),
            "+=" | "-=" | "*=" | "/=" => {
                let arith = &op[..1];
                self.arith(arith, kty, vty);
            }
            _ => {
                if kty == Ty::Float && vty == Ty::Int {
                    self.emit(Op::ToFloat, 0);
                }
            }
        }
        self.emit_at(Op::Store(key, kty), 0, whole);
        Ok(kty)
    }

    /// What `key op value` appends to the string key `name`, if it is an append:
    /// `key += tail`, or `key := key .. tail`.
    fn appended<'e>(&self, op: &str, root: bool, name: &str, value: &'e Expr) -> Option<&'e Expr> {
        match (op, value) {
            ("+=", tail) => Some(tail),
            (":=" | "=", Expr::Binary("..", l, tail)) => match **l {
                Expr::Name { root: r, span } if r == root => {
                    let text = self.text(span);
                    (text.strip_prefix('@').unwrap_or(text) == name).then_some(&**tail)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// An append to string key `key` (`appended`): the key's value is checked first, as
    /// the `Load` of `key .. tail` would, then `tail` evaluated and appended in place
    /// (`Op::Append`), without a copy of the key's text.
    fn append(
        &mut self,
        key: Key,
        (op, name): (&str, &str),
        (target, value): (&Expr, &Expr),
        tail: &Expr,
    ) -> Result<Ty, ScriptError> {
        // `s := s .. t` reads `s` (a stop names that read); `s += t` checked it as a target.
        let read = match value {
            Expr::Binary("..", l, _) => l.span(),
            _ => target.span(),
        };
        self.emit_at(Op::Load(key), 1, read);
        self.emit(Op::Pop, -1);
        let tty = self.expr(tail)?;
        let whole = target.span().to_end(value.span());
        // `..` takes any operand; `+=` on a string key only a string.
        if op == "+=" {
            check::assignment(op, name, Ty::Str, tty).map_err(|m| Self::err(whole, m))?;
        }
        // The stop of a too long string names the `..` or the `+=`, as before.
        let site = match value {
            Expr::Binary("..", ..) if !std::ptr::eq(value, tail) => value.span(),
            _ => whole,
        };
        self.emit_at(Op::Append(key), 0, site);
        Ok(Ty::Str)
    }

    /// `pos.x op value` (rule 80): a float component, assigned as a float key is.
    fn assign_component(
        &mut self,
        op: &str,
        (root, key, field): (bool, Span, Span),
        value: &Expr,
    ) -> Result<Ty, ScriptError> {
        let (slot, index) = self.component_of(root, key, field)?;
        let name = self.text(key.to_end(field));
        if op != ":=" {
            self.emit_at(Op::Target(slot), 0, key.to_end(field));
        }
        if op != ":=" && op != "=" {
            self.emit_at(Op::LoadComponent(slot, index), 1, key.to_end(field));
        }
        let vty = self.expr(value)?;
        let whole = key.to_end(value.span());
        check::assignment(op, name, Ty::Float, vty).map_err(|m| Self::err(whole, m))?;
        match op {
            "+=" | "-=" | "*=" | "/=" => {
                self.arith(&op[..1], Ty::Float, vty);
            }
            _ if vty == Ty::Int => self.emit(Op::ToFloat, 0),
            _ => {}
        }
        self.emit_at(Op::StoreComponent(slot, index), 0, whole);
        Ok(Ty::Float)
    }

    /// The key and component index of `key.field`, which must name a component of a
    /// `vec2` or `vec3` key (rule 80).
    fn component_of(&self, root: bool, key: Span, field: Span) -> Result<(Key, u8), ScriptError> {
        let text = self.text(key);
        let name = text.strip_prefix('@').unwrap_or(text);
        let (slot, kty) = self
            .names
            .key(name, root)
            .ok_or_else(|| Self::err(key, missing(name, root, "no blackboard key named")))?;
        let names: &[&str] = match kty {
            ValueType::Vec2 => &["x", "y"],
            ValueType::Vec3 => &["x", "y", "z"],
            other => {
                return Err(Self::err(
                    key.to_end(field),
                    format!(
                        "`{name}` holds {other} values; only vec2 and vec3 keys have \
                         components (`.x`, `.y`, `.z`)"
                    ),
                ))
            }
        };
        let wanted = self.text(field);
        match names.iter().position(|n| *n == wanted) {
            Some(i) => Ok((slot, i as u8)),
            None => Err(Self::err(
                field,
                format!(
                    "`{name}` is a {kty} key: its components are {}",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// Emits the arithmetic operation for operands already on the stack.
    fn arith(&mut self, op: &str, l: Ty, r: Ty) -> Ty {
        let float = !(l == Ty::Int && r == Ty::Int) || op == "/";
        if float {
            if r == Ty::Int {
                self.emit(Op::ToFloat, 0);
            }
            if l == Ty::Int {
                self.emit(Op::ToFloatUnder, 0);
            }
        }
        let code = match (op, float) {
            ("+", false) => Op::AddInt,
            ("-", false) => Op::SubInt,
            ("*", false) => Op::MulInt,
            ("+", true) => Op::AddFloat,
            ("-", true) => Op::SubFloat,
            ("*", true) => Op::MulFloat,
            _ => Op::DivFloat,
        };
        self.emit(code, -1);
        if float {
            Ty::Float
        } else {
            Ty::Int
        }
    }

    /// Compiles `e`. Each kind of expression has its own function, so that the frame of
    /// this one, which recursion through operands stacks once per level (rule 51's
    /// depth), stays small, also in debug builds.
    fn expr(&mut self, e: &Expr) -> Result<Ty, ScriptError> {
        match e {
            Expr::Int(i, _) => {
                self.emit(Op::Int(*i), 1);
                Ok(Ty::Int)
            }
            Expr::Float(f, _) => {
                self.emit(Op::Float(*f), 1);
                Ok(Ty::Float)
            }
            Expr::Bool(b, _) => {
                self.emit(Op::Bool(*b), 1);
                Ok(Ty::Bool)
            }
            Expr::Str(span) => Ok(self.string(*span)),
            Expr::Name { root, span } => self.name(*root, *span),
            Expr::Component { root, key, field } => {
                let (slot, index) = self.component_of(*root, *key, *field)?;
                self.emit_at(Op::LoadComponent(slot, index), 1, key.to_end(*field));
                Ok(Ty::Float)
            }
            Expr::Unary(op, inner, span) => self.unary(op, inner, *span),
            Expr::Binary(op @ ("&&" | "||"), l, r) => self.logical(op, l, r, e.span()),
            Expr::Binary(op, l, r) => self.binary(op, l, r, e.span()),
            Expr::Compare(first, rest) => self.compare(first, rest),
            Expr::Ternary(c, a, b) => self.ternary(c, a, b, e.span()),
            Expr::Assign { .. } => Err(Self::err(
                e.span(),
                "an assignment must be a whole statement (separate statements with `;`)",
            )),
        }
    }

    fn string(&mut self, span: Span) -> Ty {
        let text = self.text(span);
        let index = match self.strings.iter().position(|s| &**s == text) {
            Some(i) => i,
            None => {
                self.strings.push(Arc::from(text));
                self.strings.len() - 1
            }
        };
        self.emit(Op::Str(index as u32), 1);
        Ty::Str
    }

    fn name(&mut self, root: bool, span: Span) -> Result<Ty, ScriptError> {
        let text = self.text(span);
        let name = text.strip_prefix('@').unwrap_or(text);
        if !root {
            if let Some(v) = self.names.enum_value(name) {
                self.emit(Op::Int(v), 1);
                return Ok(Ty::Int);
            }
        }
        let (key, kty) = self.names.key(name, root).ok_or_else(|| {
            Self::err(span, missing(name, root, "no blackboard key or enum named"))
        })?;
        let ty = Ty::of_key(kty).ok_or_else(|| {
            Self::err(
                span,
                format!(
                    "`{name}` holds {kty} values; scripts use bool, int, float and string keys"
                ),
            )
        })?;
        self.emit_at(Op::Load(key), 1, span);
        Ok(ty)
    }

    fn unary(&mut self, op: &str, inner: &Expr, span: Span) -> Result<Ty, ScriptError> {
        let t = self.expr(inner)?;
        let out = check::unary(op, t).map_err(|m| Self::err(span, m))?;
        match op {
            "-" => self.emit(Op::Neg, 0),
            "~" => self.emit(Op::BitNot, 0),
            _ => {
                self.truthy(t);
                self.emit(Op::Not, 0)
            }
        }
        Ok(out)
    }

    /// `&&` and `||`, which skip their right side when the left decides.
    fn logical(&mut self, op: &str, l: &Expr, r: &Expr, span: Span) -> Result<Ty, ScriptError> {
        let lt = self.expr(l)?;
        self.truthy(lt);
        let at = self.ops.len();
        self.emit(Op::Jump(0), -1);
        let rt = self.expr(r)?;
        check::binary(op, lt, rt).map_err(|m| Self::err(span, m))?;
        self.truthy(rt);
        let end = self.ops.len() as u32;
        self.ops[at] = if op == "&&" {
            Op::AndJump(end)
        } else {
            Op::OrJump(end)
        };
        Ok(Ty::Bool)
    }

    fn binary(&mut self, op: &str, l: &Expr, r: &Expr, span: Span) -> Result<Ty, ScriptError> {
        let lt = self.expr(l)?;
        let rt = self.expr(r)?;
        let out = check::binary(op, lt, rt).map_err(|m| Self::err(span, m))?;
        match op {
            ".." => self.emit_at(Op::Concat, -1, span),
            "&" => self.emit(Op::BitAnd, -1),
            "|" => self.emit(Op::BitOr, -1),
            "^" => self.emit(Op::BitXor, -1),
            _ => {
                self.arith(op, lt, rt);
            }
        }
        Ok(out)
    }

    fn compare(&mut self, first: &Expr, rest: &[(&str, Expr)]) -> Result<Ty, ScriptError> {
        if let [(op @ ("==" | "!="), right)] = rest {
            if let Some(done) = self.user_equality(op, first, right) {
                return done;
            }
        }
        // `a < b < c` is `a < b && b < c`; operands have no side effects (an assignment
        // is only ever a whole statement), so `b` is evaluated twice.
        let mut jumps = Vec::new();
        let mut left = first;
        for (k, (op, right)) in rest.iter().enumerate() {
            let lt = self.expr(left)?;
            let rt = self.expr(right)?;
            check::comparison(op, lt, rt)
                .map_err(|m| Self::err(left.span().to_end(right.span()), m))?;
            let ty = if lt == rt {
                lt
            } else {
                if rt == Ty::Int {
                    self.emit(Op::ToFloat, 0);
                }
                if lt == Ty::Int {
                    self.emit(Op::ToFloatUnder, 0);
                }
                Ty::Float
            };
            self.emit(Op::Compare(Cmp::of(op), ty), -1);
            if k + 1 < rest.len() {
                jumps.push(self.ops.len());
                self.emit(Op::Jump(0), -1);
            }
            left = right;
        }
        let end = self.ops.len() as u32;
        for at in jumps {
            self.ops[at] = Op::AndJump(end);
        }
        Ok(Ty::Bool)
    }

    /// `a == b` or `a != b` on two keys of one user value type (rule 100): the only
    /// operation scripts have on such values. `None` when neither side is such a key.
    fn user_equality(
        &mut self,
        op: &str,
        left: &Expr,
        right: &Expr,
    ) -> Option<Result<Ty, ScriptError>> {
        let user_key = |e: &Expr| match *e {
            Expr::Name { root, span } => {
                let text = self.text(span);
                let name = text.strip_prefix('@').unwrap_or(text);
                match self.names.key(name, root) {
                    Some((key, ValueType::User(ty))) => Some((key, ty, span)),
                    _ => None,
                }
            }
            _ => None,
        };
        let span = left.span().to_end(right.span());
        match (user_key(left), user_key(right)) {
            (None, None) => None,
            (Some((a, ta, _)), Some((b, tb, _))) if ta == tb => {
                self.emit_at(Op::SameValue(a, b), 1, span);
                if op == "!=" {
                    self.emit(Op::Not, 0);
                }
                Some(Ok(Ty::Bool))
            }
            (Some((_, ty, at)), _) | (None, Some((_, ty, at))) => Some(Err(Self::err(
                at,
                format!(
                    "`{}` holds {ty} values: scripts compare them with `==` or `!=` to \
                     another {ty} key only",
                    self.text(at),
                    ty = ty.name()
                ),
            ))),
        }
    }

    fn ternary(&mut self, c: &Expr, a: &Expr, b: &Expr, span: Span) -> Result<Ty, ScriptError> {
        let ct = self.expr(c)?;
        if !ct.testable() {
            return Err(Self::err(
                c.span(),
                "the condition of `?:` cannot be a string",
            ));
        }
        self.truthy(ct);
        let to_else = self.ops.len();
        self.emit(Op::JumpIfFalse(0), -1);
        let at = self.expr(a)?;
        // The branches' common type is only known after both; a numeric mix converts the
        // int branch, so leave a slot for that conversion.
        let then_fix = self.ops.len();
        self.emit(Op::Jump(u32::MAX), 0);
        let to_end = self.ops.len();
        self.emit(Op::Jump(0), 0);
        self.depth -= 1;
        let else_start = self.ops.len() as u32;
        let bt = self.expr(b)?;
        let out = check::ternary(at, bt).map_err(|m| Self::err(span, m))?;
        if out == Ty::Float && bt == Ty::Int {
            self.emit(Op::ToFloat, 0);
        }
        let end = self.ops.len() as u32;
        self.ops[then_fix] = if out == Ty::Float && at == Ty::Int {
            Op::ToFloat
        } else {
            Op::Jump(then_fix as u32 + 1)
        };
        self.ops[to_else] = Op::JumpIfFalse(else_start);
        self.ops[to_end] = Op::Jump(end);
        Ok(out)
    }

    fn truthy(&mut self, t: Ty) {
        if t != Ty::Bool {
            self.emit(Op::Truthy, 0);
        }
    }
}

impl Span {
    pub(crate) fn to_end(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end,
        }
    }
}

/// The message for a name that is not a key: `@name` names the root tree's key (rule 70),
/// which a subtree file's reader looks for in the top file.
fn missing(name: &str, root: bool, what: &str) -> String {
    if root {
        format!("the root tree declares no key `{name}` (`@{name}` names the root tree's key)")
    } else {
        format!("{what} `{name}`")
    }
}
