//! The script's syntax tree, read by a precedence-climbing parser.
//!
//! Precedence, loosest first (as BT.CPP 4): assignment (`:=` `=` `+=` `-=` `*=` `/=`),
//! ternary `?:`, `||`, `&&`, comparisons (chainable: `a < b < c` is `a < b && b < c`),
//! bitwise `|` `^`, bitwise `&`, `+` `-` `..`, `*` `/`, then the prefixes `-` `!` `~`.
//! Binary operators group left to right.

use super::lexer::{Tok, Token};
use super::ScriptError;

/// A byte range of the source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    Int(i64, Span),
    Float(f64, Span),
    Bool(bool, Span),
    Str(Span),
    /// A key or an enum name (`@` names a root key).
    Name {
        root: bool,
        span: Span,
    },
    /// A component of a vector key, `pos.x`: the key's span (with any `@`) and the
    /// component name's.
    Component {
        root: bool,
        key: Span,
        field: Span,
    },
    Unary(&'static str, Box<Expr>, Span),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `first op1 e1 op2 e2 …`: every adjacent pair compared, all must hold.
    Compare(Box<Expr>, Vec<(&'static str, Expr)>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Assign {
        op: &'static str,
        target: Box<Expr>,
        value: Box<Expr>,
    },
}

impl Expr {
    pub(crate) fn span(&self) -> Span {
        match self {
            Expr::Int(_, s)
            | Expr::Float(_, s)
            | Expr::Bool(_, s)
            | Expr::Name { span: s, .. }
            | Expr::Unary(_, _, s) => *s,
            // The quotes belong to the literal.
            Expr::Str(s) => Span {
                start: s.start.saturating_sub(1),
                end: s.end + 1,
            },
            Expr::Component { key, field, .. } => key.to(*field),
            Expr::Binary(_, l, r) => l.span().to(r.span()),
            Expr::Compare(first, rest) => match rest.last() {
                Some((_, last)) => first.span().to(last.span()),
                None => first.span(),
            },
            Expr::Ternary(c, _, e) => c.span().to(e.span()),
            Expr::Assign { target, value, .. } => target.span().to(value.span()),
        }
    }
}

const ASSIGN: u8 = 2;
const TERNARY: u8 = 4;
const COMPARE: u8 = 10;
const PREFIX: u8 = 20;
/// The deepest expression a script may hold: parentheses, prefixes, the right side of an
/// operator and each operator of a left-to-right chain (`a + b + c` is two levels) all
/// count one. Deeper is refused, so that every pass over the syntax tree (parsing,
/// compiling, `infer`, dropping it) recurses a bounded number of times whatever the
/// input (docs/semantics.md rule 51).
pub const MAX_DEPTH: usize = 64;

fn left_power(tok: Tok) -> Option<u8> {
    let Tok::Op(op) = tok else { return None };
    Some(match op {
        ":=" | "=" | "+=" | "-=" | "*=" | "/=" => ASSIGN,
        "?" => TERNARY,
        "||" => 6,
        "&&" => 8,
        "==" | "!=" | "<" | ">" | "<=" | ">=" => COMPARE,
        "|" | "^" => 12,
        "&" => 14,
        "+" | "-" | ".." => 16,
        "*" | "/" => 18,
        _ => return None,
    })
}

struct Parser<'a> {
    toks: &'a [Token],
    at: usize,
    depth: usize,
}

/// Parses the statements of a script: expressions separated by `;` (empty statements
/// and a trailing `;` are allowed, as in BT.CPP 4.8's parser).
pub(crate) fn parse(toks: &[Token]) -> Result<Vec<Expr>, ScriptError> {
    let mut p = Parser {
        toks,
        at: 0,
        depth: 0,
    };
    let mut out = Vec::new();
    loop {
        while p.peek().tok == Tok::Op(";") {
            p.at += 1;
        }
        if p.peek().tok == Tok::End {
            break;
        }
        out.push(p.expr(0)?);
        match p.peek().tok {
            Tok::End | Tok::Op(";") => {}
            _ => {
                let t = p.peek();
                return Err(ScriptError::new(
                    t.start,
                    t.end,
                    "expected `;` or the end of the script here",
                ));
            }
        }
    }
    if out.is_empty() {
        let end = toks.last().map_or(0, |t| t.end);
        return Err(ScriptError::new(0, end, "the script is empty"));
    }
    Ok(out)
}

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.toks[self.at.min(self.toks.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let t = self.peek();
        if t.tok != Tok::End {
            self.at += 1;
        }
        t
    }

    fn span(t: Token) -> Span {
        Span {
            start: t.start,
            end: t.end,
        }
    }

    fn expect(&mut self, op: &'static str, what: &str) -> Result<Token, ScriptError> {
        let t = self.peek();
        if t.tok == Tok::Op(op) {
            return Ok(self.next());
        }
        Err(ScriptError::new(
            t.start,
            t.end.max(t.start),
            what.to_owned(),
        ))
    }

    fn expr(&mut self, min: u8) -> Result<Expr, ScriptError> {
        let depth = self.depth;
        self.deeper(self.peek())?;
        let result = self.expr_inner(min);
        self.depth = depth;
        result
    }

    /// One level deeper, at token `t`: an error past [`MAX_DEPTH`].
    fn deeper(&mut self, t: Token) -> Result<(), ScriptError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ScriptError::new(
                t.start,
                t.end,
                format!(
                    "the expression is nested too deeply or too long: at most {MAX_DEPTH} \
                     levels, where each operator of a chain such as `a + b + c` counts one"
                ),
            ));
        }
        Ok(())
    }

    fn expr_inner(&mut self, min: u8) -> Result<Expr, ScriptError> {
        let mut left = self.prefix()?;
        loop {
            let t = self.peek();
            let Some(power) = left_power(t.tok) else {
                break;
            };
            if power < min {
                break;
            }
            let Tok::Op(op) = t.tok else { break };
            // Each operator folded into `left` nests it one level deeper (`expr` restores
            // the depth on the way out).
            self.deeper(t)?;
            self.next();
            match power {
                ASSIGN => {
                    if !matches!(left, Expr::Name { .. } | Expr::Component { .. }) {
                        return Err(ScriptError::new(
                            left.span().start,
                            t.end,
                            format!("only a key can be assigned with `{op}`"),
                        ));
                    }
                    let value = self.expr(0)?;
                    return Ok(Expr::Assign {
                        op,
                        target: Box::new(left),
                        value: Box::new(value),
                    });
                }
                TERNARY => {
                    let then = self.expr(0)?;
                    self.expect(":", "expected `:` of the `?:` expression here")?;
                    let otherwise = self.expr(TERNARY)?;
                    return Ok(Expr::Ternary(
                        Box::new(left),
                        Box::new(then),
                        Box::new(otherwise),
                    ));
                }
                COMPARE => {
                    let mut rest = vec![(op, self.expr(COMPARE + 1)?)];
                    while let Tok::Op(next @ ("==" | "!=" | "<" | ">" | "<=" | ">=")) =
                        self.peek().tok
                    {
                        self.deeper(self.peek())?;
                        self.next();
                        rest.push((next, self.expr(COMPARE + 1)?));
                    }
                    left = Expr::Compare(Box::new(left), rest);
                }
                _ => {
                    let right = self.expr(power + 1)?;
                    left = Expr::Binary(op, Box::new(left), Box::new(right));
                }
            }
        }
        Ok(left)
    }

    fn prefix(&mut self) -> Result<Expr, ScriptError> {
        let t = self.next();
        let span = Self::span(t);
        Ok(match t.tok {
            Tok::Int(i) => Expr::Int(i, span),
            Tok::Float(f) => Expr::Float(f, span),
            Tok::Bool(b) => Expr::Bool(b, span),
            Tok::Str => Expr::Str(span),
            Tok::Name { root } if self.peek().tok == Tok::Op(".") => {
                let dot = self.next();
                let field = self.next();
                if field.tok != (Tok::Name { root: false }) {
                    return Err(ScriptError::new(
                        dot.start,
                        field.end.max(dot.end),
                        "expected a component name (`x`, `y` or `z`) after `.`",
                    ));
                }
                Expr::Component {
                    root,
                    key: span,
                    field: Self::span(field),
                }
            }
            Tok::Name { root } => Expr::Name { root, span },
            Tok::Op(op @ ("-" | "!" | "~")) => {
                let operand = self.expr(PREFIX)?;
                let span = span.to(operand.span());
                Expr::Unary(op, Box::new(operand), span)
            }
            Tok::Op("(") => {
                let inner = self.expr(0)?;
                self.expect(")", "expected `)` here")?;
                inner
            }
            Tok::End => {
                return Err(ScriptError::new(
                    t.start,
                    t.end,
                    "the script ends where a value was expected",
                ))
            }
            Tok::Op(".") => {
                return Err(ScriptError::new(
                    t.start,
                    t.end,
                    "a component is read from a key: write `pos.x`",
                ))
            }
            Tok::Op(op) => {
                return Err(ScriptError::new(
                    t.start,
                    t.end,
                    format!("expected a value, found `{op}`"),
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn shape(e: &Expr, src: &str) -> String {
        match e {
            Expr::Int(i, _) => i.to_string(),
            Expr::Float(f, _) => format!("{f:?}"),
            Expr::Bool(b, _) => b.to_string(),
            Expr::Str(s) => format!("'{}'", &src[s.start..s.end]),
            Expr::Name { span, .. } => src[span.start..span.end].to_owned(),
            Expr::Component { key, field, .. } => {
                format!(
                    "{}.{}",
                    &src[key.start..key.end],
                    &src[field.start..field.end]
                )
            }
            Expr::Unary(op, e, _) => format!("({op}{})", shape(e, src)),
            Expr::Binary(op, l, r) => format!("({} {op} {})", shape(l, src), shape(r, src)),
            Expr::Compare(first, rest) => {
                let mut s = format!("[{}", shape(first, src));
                for (op, e) in rest {
                    s += &format!(" {op} {}", shape(e, src));
                }
                s + "]"
            }
            Expr::Ternary(c, a, b) => {
                format!(
                    "({} ? {} : {})",
                    shape(c, src),
                    shape(a, src),
                    shape(b, src)
                )
            }
            Expr::Assign { op, target, value } => {
                format!("{} {op} {}", shape(target, src), shape(value, src))
            }
        }
    }

    fn parsed(src: &str) -> Vec<String> {
        let toks = tokenize(src).unwrap();
        parse(&toks)
            .unwrap()
            .iter()
            .map(|e| shape(e, src))
            .collect()
    }

    #[test]
    fn precedence_and_grouping() {
        assert_eq!(parsed("a := 10 - 2 - 3"), ["a := ((10 - 2) - 3)"]);
        assert_eq!(parsed("a := 1 - 2 * 3"), ["a := (1 - (2 * 3))"]);
        assert_eq!(parsed("a := -x * 2"), ["a := ((-x) * 2)"]);
        assert_eq!(parsed("b || c && !d"), ["(b || (c && (!d)))"]);
        assert_eq!(parsed("1 < x <= 3 && y"), ["([1 < x <= 3] && y)"]);
        assert_eq!(parsed("x | 6 & 3"), ["(x | (6 & 3))"]);
        assert_eq!(
            parsed("a := c ? 1 : d ? 2 : 3"),
            ["a := (c ? 1 : (d ? 2 : 3))"]
        );
        assert_eq!(parsed("s := 'a' .. 1 + 2"), ["s := (('a' .. 1) + 2)"]);
        assert_eq!(parsed("a:=1;; b+=2;"), ["a := 1", "b += 2"]);
    }

    #[test]
    fn errors_are_located() {
        let err = |src: &str| {
            let toks = tokenize(src).unwrap();
            let e = parse(&toks).unwrap_err();
            (e.start, e.end)
        };
        assert_eq!(err("a := (1 + 2"), (11, 11));
        assert_eq!(err("1 := 2"), (0, 4));
        assert_eq!(err("a := 1 2"), (7, 8));
        assert_eq!(err("a := * 2"), (5, 6));
        assert_eq!(err(" ; "), (0, 3));
        let deep = format!("a := {}1{}", "(".repeat(100), ")".repeat(100));
        assert!(parse(&tokenize(&deep).unwrap()).is_err());
    }
}
