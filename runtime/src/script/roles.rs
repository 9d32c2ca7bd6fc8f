//! How a script uses each key: creates it (`:=`), changes it (`=`, `+=`, …) or reads it.
//! A BT.CPP import uses this to find scripts that can only stop (docs/semantics.md rule
//! 86): a key that is changed or read, which nothing in its tree ever creates.

use super::lexer::tokenize;
use super::parser::{parse, Expr};

/// One use of a key by a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRole {
    /// `x := …`: writes the key whether or not it has a value.
    Create,
    /// `x = …`, `x += …` and the other compound assignments: needs a value.
    Change,
    /// Any other use: needs a value.
    Read,
}

/// Every key use of `src` in source order, the name as written (`@x` for a root key,
/// `pos` for `pos.x`), with its role; `None` when the script does not parse. An
/// assignment's target is listed before its value, in the order BT.CPP checks them.
pub fn key_roles(src: &str) -> Option<Vec<(String, KeyRole)>> {
    let tokens = tokenize(src).ok()?;
    let statements = parse(&tokens).ok()?;
    let mut out = Vec::new();
    for s in &statements {
        visit(src, s, &mut out);
    }
    Some(out)
}

/// Recursion is bounded: the parser refuses expressions deeper than `MAX_DEPTH`.
fn visit(src: &str, e: &Expr, out: &mut Vec<(String, KeyRole)>) {
    match e {
        Expr::Int(..) | Expr::Float(..) | Expr::Bool(..) | Expr::Str(_) => {}
        Expr::Name { span, .. } => out.push((src[span.start..span.end].to_owned(), KeyRole::Read)),
        Expr::Component { key, .. } => {
            out.push((src[key.start..key.end].to_owned(), KeyRole::Read));
        }
        Expr::Unary(_, inner, _) => visit(src, inner, out),
        Expr::Binary(_, l, r) => {
            visit(src, l, out);
            visit(src, r, out);
        }
        Expr::Compare(first, rest) => {
            visit(src, first, out);
            for (_, e) in rest {
                visit(src, e, out);
            }
        }
        Expr::Ternary(c, a, b) => {
            visit(src, c, out);
            visit(src, a, out);
            visit(src, b, out);
        }
        Expr::Assign { op, target, value } => {
            let role = if *op == ":=" {
                KeyRole::Create
            } else {
                KeyRole::Change
            };
            let span = match **target {
                Expr::Name { span, .. } => Some(span),
                // A component needs its key's value whatever the operator (rule 80).
                Expr::Component { key, .. } => {
                    out.push((src[key.start..key.end].to_owned(), KeyRole::Read));
                    None
                }
                _ => None,
            };
            if let Some(span) = span {
                out.push((src[span.start..span.end].to_owned(), role));
            }
            visit(src, value, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule86_roles_of_keys() {
        use KeyRole::*;
        let roles = |src| key_roles(src).expect("parses");
        assert_eq!(
            roles("x = y + 1; @z := x; n += 1; pos.x := 2"),
            vec![
                ("x".into(), Change),
                ("y".into(), Read),
                ("@z".into(), Create),
                ("x".into(), Read),
                ("n".into(), Change),
                ("pos".into(), Read),
            ]
        );
        assert_eq!(
            roles("a ? b : c == d"),
            vec![
                ("a".into(), Read),
                ("b".into(), Read),
                ("c".into(), Read),
                ("d".into(), Read)
            ]
        );
        assert!(key_roles("x = (").is_none());
    }
}
