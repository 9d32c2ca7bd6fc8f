//! Key types suggested by a script, for files that declare no types (BT.CPP imports).
//!
//! An assignment types its key by its value (`n := 0` -> int); a key read next to a
//! typed operand takes that operand's type (`n < 2.5` -> float), and one read in a
//! logical place is a bool. Keys whose type the script does not show get no suggestion.

use std::collections::HashMap;

use super::check::Ty;
use super::lexer::tokenize;
use super::parser::{parse, Expr, Span};

/// Every key `src` names (without `@`), in first-use order, with the type its uses
/// suggest; `None` when the script does not parse. For a `condition` the value of the
/// last statement is tested, so a key that is that whole value is a bool.
pub fn key_uses(src: &str, condition: bool) -> Option<Vec<(String, Option<Ty>)>> {
    key_uses_with(src, condition, &|_| None)
}

/// [`key_uses`] where the types of some keys are already known (`declared`): a copy
/// `p := x` then gives `p` the type of `x`.
pub fn key_uses_with(
    src: &str,
    condition: bool,
    declared: &dyn Fn(&str) -> Option<Ty>,
) -> Option<Vec<(String, Option<Ty>)>> {
    let uses = uses(src, condition, declared)?;
    Some(uses.into_iter().map(|(name, _, ty)| (name, ty)).collect())
}

/// [`key_uses_with`] with the names written `@name` (the root tree's keys, rule 70) kept
/// as written, so that a subtree's `@x` and `x` stay apart.
pub fn key_uses_marked(
    src: &str,
    condition: bool,
    declared: &dyn Fn(&str) -> Option<Ty>,
) -> Option<Vec<(String, Option<Ty>)>> {
    let uses = uses(src, condition, declared)?;
    Some(
        uses.into_iter()
            .map(|(name, root, ty)| (if root { format!("@{name}") } else { name }, ty))
            .collect(),
    )
}

/// Every key use: the name without `@`, whether it was written with `@`, and the type.
type Uses = Vec<(String, bool, Option<Ty>)>;

fn uses(src: &str, condition: bool, declared: &dyn Fn(&str) -> Option<Ty>) -> Option<Uses> {
    let tokens = tokenize(src).ok()?;
    let statements = parse(&tokens).ok()?;
    let mut cx = Infer {
        src,
        known: HashMap::new(),
        declared,
        uses: Vec::new(),
    };
    for (i, s) in statements.iter().enumerate() {
        let tested = condition && i + 1 == statements.len();
        cx.visit(s, tested.then_some(Ty::Bool));
    }
    Some(cx.uses)
}

struct Infer<'a> {
    src: &'a str,
    known: HashMap<&'a str, Ty>,
    declared: &'a dyn Fn(&str) -> Option<Ty>,
    uses: Uses,
}

impl<'a> Infer<'a> {
    fn name(&self, e: &Expr) -> Option<&'a str> {
        match e {
            Expr::Name { span, .. } => {
                let text = &self.src[span.start..span.end];
                Some(text.strip_prefix('@').unwrap_or(text))
            }
            _ => None,
        }
    }

    /// A vector key's use: scripts have no vector type to suggest for it.
    fn component(&mut self, root: bool, key: Span) {
        let text = &self.src[key.start..key.end];
        let name = text.strip_prefix('@').unwrap_or(text);
        self.uses.push((name.to_owned(), root, None));
    }

    fn known_type(&self, name: &str) -> Option<Ty> {
        self.known
            .get(name)
            .copied()
            .or_else(|| (self.declared)(name))
    }

    fn record(&mut self, e: &Expr, name: &'a str, ty: Option<Ty>) {
        if let Some(t) = ty {
            self.known.entry(name).or_insert(t);
        }
        let root = matches!(e, Expr::Name { root: true, .. });
        self.uses.push((name.to_owned(), root, ty));
    }

    /// The type of `e` as far as literals and known keys tell.
    fn ty(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Int(..) => Some(Ty::Int),
            Expr::Float(..) => Some(Ty::Float),
            Expr::Bool(..) => Some(Ty::Bool),
            Expr::Str(_) => Some(Ty::Str),
            Expr::Name { .. } => self.name(e).and_then(|n| self.known_type(n)),
            Expr::Component { .. } => Some(Ty::Float),
            Expr::Unary("!", ..) | Expr::Compare(..) => Some(Ty::Bool),
            Expr::Unary("~", ..) | Expr::Binary("&" | "|" | "^", ..) => Some(Ty::Int),
            Expr::Unary(_, inner, _) => self.ty(inner),
            Expr::Binary("..", ..) => Some(Ty::Str),
            Expr::Binary("&&" | "||", ..) => Some(Ty::Bool),
            Expr::Binary("/", ..) => Some(Ty::Float),
            Expr::Binary(_, l, r) => match (self.ty(l), self.ty(r)) {
                (Some(Ty::Float), _) | (_, Some(Ty::Float)) => Some(Ty::Float),
                (Some(t), _) | (_, Some(t)) => Some(t),
                // Two keys of unknown type: their uses make them floats (see `visit`).
                _ => Some(Ty::Float),
            },
            Expr::Ternary(_, a, b) => self.ty(a).or_else(|| self.ty(b)),
            Expr::Assign { value, .. } => self.ty(value),
        }
    }

    fn visit(&mut self, e: &Expr, hint: Option<Ty>) {
        match e {
            Expr::Name { .. } => {
                if let Some(n) = self.name(e) {
                    // A key this script assigned keeps that type: an int read next to a
                    // float is widened by the operation, not turned into a float key.
                    let ty = self.known_type(n).or(hint);
                    self.record(e, n, ty);
                }
            }
            Expr::Unary(op, inner, _) => {
                let hint = match *op {
                    "!" => Some(Ty::Bool),
                    "~" => Some(Ty::Int),
                    _ => hint.filter(|t| t.numeric()).or(Some(Ty::Float)),
                };
                self.visit(inner, hint);
            }
            Expr::Binary(op, l, r) => {
                let (lt, rt) = (self.ty(l), self.ty(r));
                let (lh, rh) = match *op {
                    "&&" | "||" => (Some(Ty::Bool), Some(Ty::Bool)),
                    "&" | "|" | "^" => (Some(Ty::Int), Some(Ty::Int)),
                    ".." => (None, None),
                    "/" => (Some(Ty::Float), Some(Ty::Float)),
                    // `+ - *` take numbers only (strings join with `..`): a float unless
                    // the other side says int.
                    _ => {
                        let number = |t: Option<Ty>| t.filter(|t| t.numeric()).or(Some(Ty::Float));
                        (number(rt), number(lt))
                    }
                };
                self.visit(l, lh);
                self.visit(r, rh);
            }
            Expr::Compare(first, rest) => {
                let mut left = &**first;
                for (_, right) in rest {
                    let (lt, rt) = (self.ty(left), self.ty(right));
                    self.visit(left, rt);
                    self.visit(right, lt);
                    left = right;
                }
            }
            Expr::Ternary(c, a, b) => {
                self.visit(c, Some(Ty::Bool));
                let t = self.ty(e);
                self.visit(a, t);
                self.visit(b, t);
            }
            Expr::Component { root, key, .. } => self.component(*root, *key),
            Expr::Assign { op, target, value } => {
                if let Expr::Component { root, key, .. } = **target {
                    self.visit(value, Some(Ty::Float));
                    self.component(root, key);
                    return;
                }
                let Some(name) = self.name(target) else {
                    return;
                };
                let current = self.known_type(name);
                self.visit(value, current);
                let ty = match *op {
                    "/=" => Some(Ty::Float),
                    _ => self.ty(value).or(current),
                };
                self.record(target, name, ty);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(src: &str) -> Vec<(String, Option<Ty>)> {
        key_uses(src, false).expect("parses")
    }

    #[test]
    fn arithmetic_on_unknown_keys_is_float() {
        // BT.CPP's t16_global_blackboard: `@value_sqr := @value * @value`.
        assert_eq!(
            types("@value_sqr := @value * @value"),
            vec![
                ("value".into(), Some(Ty::Float)),
                ("value".into(), Some(Ty::Float)),
                ("value_sqr".into(), Some(Ty::Float)),
            ]
        );
    }

    #[test]
    fn assignments_and_operands_suggest_types() {
        assert_eq!(
            types("n := 0; n += 1; ok := n < 2.5 && !@done; msg := 'n=' .. n"),
            vec![
                ("n".into(), Some(Ty::Int)),
                ("n".into(), Some(Ty::Int)),
                ("n".into(), Some(Ty::Int)),
                ("done".into(), Some(Ty::Bool)),
                ("ok".into(), Some(Ty::Bool)),
                ("n".into(), Some(Ty::Int)),
                ("msg".into(), Some(Ty::Str)),
            ]
        );
        assert_eq!(
            types("speed / 2 > 1"),
            vec![("speed".into(), Some(Ty::Float))]
        );
        assert!(key_uses("a := (", false).is_none());
        let declared = |n: &str| (n == "x").then_some(Ty::Float);
        assert_eq!(
            key_uses_with("p := x", false, &declared),
            Some(vec![
                ("x".into(), Some(Ty::Float)),
                ("p".into(), Some(Ty::Float))
            ])
        );
        assert_eq!(
            key_uses_marked("n := @n + 1", false, &|_| None),
            Some(vec![
                ("@n".into(), Some(Ty::Int)),
                ("n".into(), Some(Ty::Int))
            ])
        );
        assert_eq!(
            key_uses("already_there", true),
            Some(vec![("already_there".into(), Some(Ty::Bool))])
        );
    }
}
