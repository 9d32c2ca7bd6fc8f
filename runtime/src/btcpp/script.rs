//! The small part of BT.CPP's scripting language that Arbor's plain nodes express.
//!
//! BT.CPP v4 scripts (`Script code`, `ScriptCondition code`, `Precondition if`, and the
//! pre/post-condition attributes) run natively in Arbor (`crate::script`, imported by
//! `import/scripts.rs`). The forms recognised here have a simpler exact Arbor equivalent,
//! which reads better in the editor and round-trips unchanged, so the import prefers it:
//! - tests: `key`, `!key`, `key == literal`, `key != literal` (either side), joined by
//!   `&&` or by `||` (never mixed, no parentheses) -> Condition / Precondition decorators
//!   or a Condition leaf;
//! - statements: `key := literal` -> SetBlackboard. `key = literal` and `key += number`
//!   stay Scripts: they stop on a key without a value, as BT.CPP throws there
//!   (docs/semantics.md rule 86), where SetBlackboard writes and Increment counts from 0.
//!   The export still writes Arbor's Increment as `key += by`.
//!
//! A right-hand identifier (`mode == IDLE`) is not recognised: in BT.CPP it may be a
//! blackboard key or a scripting enum, and guessing wrong would change the behaviour.

use serde_json::Value as Json;

use crate::value::ValueType;

/// A literal of a script or of an attribute value.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lit {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

impl Lit {
    /// Reads an attribute value (`value="42"`, `case_1="true"`) as the literal it spells.
    /// BT.CPP stores such values as strings and converts them when read; Arbor needs a
    /// type, so numbers and booleans are recognised and anything else is a string.
    pub(crate) fn from_text(text: &str) -> Lit {
        let t = text.trim();
        match t {
            "true" => return Lit::Bool(true),
            "false" => return Lit::Bool(false),
            _ => {}
        }
        if let Ok(i) = t.parse::<i64>() {
            return Lit::Int(i);
        }
        // Only plain decimal numbers: `inf`, `nan` and `1e5` stay strings, as people
        // rarely mean them as numbers in a tree file.
        let plain = !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))
            && t.chars().any(|c| c.is_ascii_digit());
        if plain {
            if let Ok(f) = t.parse::<f64>() {
                return Lit::Float(f);
            }
        }
        Lit::Str(text.to_owned())
    }

    /// The literal's natural type (what it tells about the key it is compared with).
    pub(crate) fn value_type(&self) -> ValueType {
        match self {
            Lit::Bool(_) => ValueType::Bool,
            Lit::Int(_) => ValueType::Int,
            Lit::Float(_) => ValueType::Float,
            Lit::Str(_) => ValueType::String,
        }
    }

    /// The literal as a value of a key of type `ty`. Always succeeds: a literal that does
    /// not fit (possible only after a type conflict made the key `json`) keeps its natural
    /// JSON form, or its text for a string key.
    pub(crate) fn to_json(&self, ty: ValueType) -> Json {
        match (ty, self) {
            (ValueType::String, Lit::Str(s)) => Json::from(s.as_str()),
            (ValueType::String, other) => Json::from(other.text()),
            (ValueType::Float, Lit::Int(i)) => Json::from(*i as f64),
            (ValueType::Int, Lit::Float(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                Json::from(*f as i64)
            }
            (ValueType::Int | ValueType::Float | ValueType::Bool, Lit::Str(s)) => {
                match Lit::from_text(s) {
                    Lit::Str(_) => Json::from(s.as_str()),
                    other => other.to_json(ty),
                }
            }
            (_, Lit::Bool(b)) => Json::from(*b),
            (_, Lit::Int(i)) => Json::from(*i),
            (_, Lit::Float(f)) => serde_json::Number::from_f64(*f)
                .map(Json::Number)
                .unwrap_or_else(|| Json::from(f.to_string())),
            (_, Lit::Str(s)) => Json::from(s.as_str()),
        }
    }

    /// The literal from a JSON value (for export), if it is a scalar.
    pub(crate) fn from_json(json: &Json) -> Option<Lit> {
        match json {
            Json::Bool(b) => Some(Lit::Bool(*b)),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Some(Lit::Int(i)),
                None => n.as_f64().map(Lit::Float),
            },
            Json::String(s) => Some(Lit::Str(s.clone())),
            _ => None,
        }
    }

    /// As an attribute value (no quotes).
    pub(crate) fn text(&self) -> String {
        match self {
            Lit::Bool(b) => b.to_string(),
            Lit::Int(i) => i.to_string(),
            // `{:?}` keeps the fraction (`2.0`), so the value reads back as a float.
            Lit::Float(f) => format!("{f:?}"),
            Lit::Str(s) => s.clone(),
        }
    }

    /// As a script literal: strings quoted.
    fn script(&self) -> String {
        match self {
            Lit::Str(s) if s.contains('\'') => format!("\"{s}\""),
            Lit::Str(s) => format!("'{s}'"),
            other => other.text(),
        }
    }
}

/// `key == value`, or its negation: the test passes when `(key == value) != negated`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Test {
    pub key: String,
    pub value: Lit,
    pub negated: bool,
}

impl Test {
    /// The test that passes exactly when this one fails.
    pub(crate) fn not(&self) -> Test {
        Test {
            negated: !self.negated,
            ..self.clone()
        }
    }

    pub(crate) fn print(&self) -> String {
        match (&self.value, self.negated) {
            (Lit::Bool(true), false) => self.key.clone(),
            (Lit::Bool(true), true) => format!("!{}", self.key),
            (value, false) => format!("{} == {}", self.key, value.script()),
            (value, true) => format!("{} != {}", self.key, value.script()),
        }
    }
}

/// How the tests of a condition are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Join {
    All,
    Any,
}

impl Join {
    fn operator(self) -> &'static str {
        match self {
            Join::All => "&&",
            Join::Any => "||",
        }
    }
}

/// Parses `A && B && …` or `A || B || …` (one operator throughout). A single test is
/// returned with `want`; `None` when the text is not in the recognised subset.
pub(crate) fn parse_tests(src: &str, want: Join) -> Option<Vec<Test>> {
    let other = match want {
        Join::All => Join::Any,
        Join::Any => Join::All,
    };
    if src.contains(other.operator()) || src.contains('(') {
        return None;
    }
    src.split(want.operator()).map(parse_test).collect()
}

/// Prints tests joined by `join`.
pub(crate) fn print_tests(tests: &[Test], join: Join) -> String {
    let parts: Vec<String> = tests.iter().map(Test::print).collect();
    parts.join(&format!(" {} ", join.operator()))
}

fn parse_test(src: &str) -> Option<Test> {
    let mut t = tokens(src)?.into_iter();
    let first = t.next()?;
    let test = match first {
        Tok::Not => {
            let Tok::Ident(key) = t.next()? else {
                return None;
            };
            Test {
                key,
                value: Lit::Bool(true),
                negated: true,
            }
        }
        Tok::Ident(key) => match t.next() {
            None => Test {
                key,
                value: Lit::Bool(true),
                negated: false,
            },
            Some(op @ (Tok::Eq | Tok::Ne)) => Test {
                key,
                value: t.next()?.literal()?,
                negated: op == Tok::Ne,
            },
            Some(_) => return None,
        },
        lit => {
            // `literal == key`
            let value = lit.literal()?;
            let op = t.next()?;
            let Tok::Ident(key) = t.next()? else {
                return None;
            };
            match op {
                Tok::Eq | Tok::Ne => Test {
                    key,
                    value,
                    negated: op == Tok::Ne,
                },
                _ => return None,
            }
        }
    };
    t.next().is_none().then_some(test)
}

/// A recognised statement.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stmt {
    /// `key := literal`
    Assign { key: String, value: Lit },
    /// `key += number`: how the export writes an Increment (never read back as one).
    Add { key: String, by: Lit },
}

/// Parses one `key := literal` statement (an optional trailing `;` is allowed).
pub(crate) fn parse_stmt(src: &str) -> Option<Stmt> {
    let src = src.trim().strip_suffix(';').unwrap_or(src.trim());
    if src.contains(';') {
        return None;
    }
    let mut t = tokens(src)?.into_iter();
    let Tok::Ident(key) = t.next()? else {
        return None;
    };
    let stmt = match t.next()? {
        Tok::Assign => Stmt::Assign {
            key,
            value: t.next()?.literal()?,
        },
        _ => return None,
    };
    t.next().is_none().then_some(stmt)
}

/// Prints a statement in the form `parse_stmt` reads.
pub(crate) fn print_stmt(stmt: &Stmt) -> String {
    match stmt {
        Stmt::Assign { key, value } => format!("{key} := {}", value.script()),
        Stmt::Add { key, by } => format!("{key} += {}", by.script()),
    }
}

/// A token as the recognised forms see it.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// A key: a name, with its `@` and its `.component`s (`@pos.x`).
    Ident(String),
    Lit(Lit),
    Not,
    Eq,
    Ne,
    /// `:=`
    Assign,
    /// `=`
    Change,
    AddAssign,
    Other,
}

impl Tok {
    fn literal(self) -> Option<Lit> {
        match self {
            Tok::Lit(l) => Some(l),
            _ => None,
        }
    }
}

/// The tokens of `src`, read by the runtime's script lexer (the one lexer of the
/// language): a name and its `.component`s written without spaces are one key, and a
/// `-` written against a number is its sign. A number is a literal only in the plain
/// decimal form an attribute value is read in ([`Lit::from_text`]: `1e5` and `0x1F` are
/// not recognised, so such a script stays a script). `None` when the lexer refuses the
/// text: then no form matches, and the script is left to the runtime, which says why.
fn tokens(src: &str) -> Option<Vec<Tok>> {
    use crate::script::Tok as Lexed;
    let lexed = crate::script::tokenize(src).ok()?;
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(t) = lexed.get(i) {
        let adjacent = |k: usize, at: usize| lexed.get(k).filter(|n| n.start == at);
        let tok = match t.tok {
            Lexed::End => break,
            Lexed::Name { .. } => {
                let mut end = t.end;
                while let (Some(dot), Some(name)) = (adjacent(i + 1, end), lexed.get(i + 2)) {
                    let component = matches!(name.tok, Lexed::Name { root: false });
                    if dot.tok != Lexed::Op(".") || !component || name.start != dot.end {
                        break;
                    }
                    end = name.end;
                    i += 2;
                }
                Tok::Ident(src[t.start..end].to_owned())
            }
            Lexed::Bool(b) => Tok::Lit(Lit::Bool(b)),
            Lexed::Str => Tok::Lit(Lit::Str(src[t.start..t.end].to_owned())),
            Lexed::Int(_) | Lexed::Float(_) => number(&src[t.start..t.end]),
            Lexed::Op("-") => match adjacent(i + 1, t.end) {
                Some(n) if matches!(n.tok, Lexed::Int(_) | Lexed::Float(_)) => {
                    i += 1;
                    number(&src[t.start..n.end])
                }
                _ => Tok::Other,
            },
            Lexed::Op("==") => Tok::Eq,
            Lexed::Op("!=") => Tok::Ne,
            Lexed::Op(":=") => Tok::Assign,
            Lexed::Op("+=") => Tok::AddAssign,
            Lexed::Op("!") => Tok::Not,
            Lexed::Op("=") => Tok::Change,
            Lexed::Op(_) => Tok::Other,
        };
        out.push(tok);
        i += 1;
    }
    Some(out)
}

/// A number's text as a literal, if it is a plain decimal one.
fn number(text: &str) -> Tok {
    match Lit::from_text(text) {
        Lit::Str(_) => Tok::Other,
        lit => Tok::Lit(lit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(key: &str, value: Lit, negated: bool) -> Test {
        Test {
            key: key.to_owned(),
            value,
            negated,
        }
    }

    #[test]
    fn recognised_tests() {
        assert_eq!(
            parse_tests("!door_closed", Join::Any),
            Some(vec![test("door_closed", Lit::Bool(true), true)])
        );
        assert_eq!(
            parse_tests("battery == 'low' || armed", Join::Any),
            Some(vec![
                test("battery", Lit::Str("low".into()), false),
                test("armed", Lit::Bool(true), false),
            ])
        );
        assert_eq!(
            parse_tests("3 != count && ok==false", Join::All),
            Some(vec![
                test("count", Lit::Int(3), true),
                test("ok", Lit::Bool(false), false),
            ])
        );
        assert_eq!(
            parse_tests("x == -1.5", Join::All),
            Some(vec![test("x", Lit::Float(-1.5), false)])
        );
    }

    #[test]
    fn everything_else_is_not_recognised() {
        for src in [
            "a && b || c",
            "(a)",
            "battery < 20",
            "mode == IDLE",
            "a == b",
            "x := 3",
            "",
            "!",
            "a ==",
            "'unterminated == x",
            "x 'unterminated",
        ] {
            assert_eq!(parse_tests(src, Join::All), None, "{src}");
            assert_eq!(parse_tests(src, Join::Any), None, "{src}");
        }
    }

    #[test]
    fn tests_print_back_to_what_they_parse_from() {
        for src in ["!door_closed", "battery == 'low' || armed", "x != 2.0 || y"] {
            let tests = parse_tests(src, Join::Any).unwrap();
            assert_eq!(print_tests(&tests, Join::Any), src);
        }
        let negated = test("x", Lit::Int(1), false).not();
        assert_eq!(negated.print(), "x != 1");
    }

    #[test]
    fn statements() {
        assert_eq!(
            parse_stmt("door_open:=false"),
            Some(Stmt::Assign {
                key: "door_open".into(),
                value: Lit::Bool(false)
            })
        );
        assert_eq!(
            parse_stmt(" msg := 'hello world' ;"),
            Some(Stmt::Assign {
                key: "msg".into(),
                value: Lit::Str("hello world".into())
            })
        );
        // Rule 86: BT.CPP 4.8.2 throws on `msg = 'x'` and `tries += 1` when the entry does
        // not exist yet; SetBlackboard and Increment would write, so these stay Scripts.
        for src in [
            " msg = 'hello world' ;",
            "tries += 1",
            "a := b",
            "a := 1; b := 2",
            "a += 'x'",
            "a := 1 + 2",
            "result:=OK",
        ] {
            assert_eq!(parse_stmt(src), None, "{src}");
        }
        let stmt = parse_stmt("speed := 2.5").unwrap();
        assert_eq!(parse_stmt(&print_stmt(&stmt)), Some(stmt));
    }

    #[test]
    fn attribute_literals() {
        assert_eq!(Lit::from_text("42"), Lit::Int(42));
        assert_eq!(Lit::from_text("-0.5"), Lit::Float(-0.5));
        assert_eq!(Lit::from_text("true"), Lit::Bool(true));
        assert_eq!(Lit::from_text("1;2;3"), Lit::Str("1;2;3".into()));
        assert_eq!(Lit::from_text("nan"), Lit::Str("nan".into()));
        assert_eq!(Lit::Float(2.0).text(), "2.0");
        assert_eq!(Lit::Int(7).to_json(ValueType::String), Json::from("7"));
        assert_eq!(
            Lit::Str("12".into()).to_json(ValueType::Int),
            Json::from(12)
        );
    }
}
