//! Tokens of the script language, each with its byte span in the source.

use super::ScriptError;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// A quoted string: the span of its contents, without the quotes.
    Str,
    /// A name; `root` when it was written `@name`.
    Name {
        root: bool,
    },
    /// Operators and punctuation, by their spelling.
    Op(&'static str),
    End,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

/// Two-character operators first, so that `:=` is not read as `:` then `=`.
/// `.` (a vector's component, `pos.x`) comes after `..`, so that `..` stays one token.
const OPS: [&str; 30] = [
    "..", "&&", "||", "==", "!=", "<=", ">=", ":=", "+=", "-=", "*=", "/=", "+", "-", "*", "/",
    "&", "|", "^", "~", "!", "<", ">", "=", "?", ":", "(", ")", ";", ".",
];

fn ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Splits `src` into tokens, ending with [`Tok::End`].
pub(crate) fn tokenize(src: &str) -> Result<Vec<Token>, ScriptError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c == b'\'' || c == b'"' {
            // BT.CPP quotes strings with ''; "" is accepted too, as XML attributes quoted
            // with '' hold them.
            let close = src[i + 1..].find(c as char).map(|k| i + 1 + k);
            let Some(close) = close else {
                return Err(ScriptError::new(
                    start,
                    b.len(),
                    "this string has no closing quote",
                ));
            };
            out.push(Token {
                tok: Tok::Str,
                start: i + 1,
                end: close,
            });
            i = close + 1;
            continue;
        }
        if c.is_ascii_digit() {
            i = number(src, i, &mut out)?;
            continue;
        }
        if ident_start(c) || c == b'@' {
            let root = c == b'@';
            i += 1;
            if root && !(i < b.len() && ident_start(b[i])) {
                return Err(ScriptError::new(
                    start,
                    i,
                    "`@` must be followed by a key name",
                ));
            }
            while i < b.len() && ident_char(b[i]) {
                i += 1;
            }
            let tok = match &src[start..i] {
                "true" => Tok::Bool(true),
                "false" => Tok::Bool(false),
                _ => Tok::Name { root },
            };
            out.push(Token { tok, start, end: i });
            continue;
        }
        let Some(op) = OPS.iter().find(|op| src[i..].starts_with(**op)) else {
            let ch = src[i..].chars().next().unwrap_or('?');
            return Err(ScriptError::new(
                start,
                start + ch.len_utf8(),
                format!("unexpected character `{ch}`"),
            ));
        };
        i += op.len();
        out.push(Token {
            tok: Tok::Op(op),
            start,
            end: i,
        });
    }
    out.push(Token {
        tok: Tok::End,
        start: b.len(),
        end: b.len(),
    });
    Ok(out)
}

/// A decimal (`42`, `2.5`, `1e3`) or hexadecimal (`0x1F`) number starting at `start`.
fn number(src: &str, start: usize, out: &mut Vec<Token>) -> Result<usize, ScriptError> {
    let b = src.as_bytes();
    let mut i = start;
    let digits = |i: &mut usize, hex: bool| {
        while *i < b.len() && (b[*i].is_ascii_digit() || (hex && b[*i].is_ascii_hexdigit())) {
            *i += 1;
        }
    };
    let bad = |end: usize, what: &str| ScriptError::new(start, end, what.to_owned());
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        i += 2;
        let digits_at = i;
        digits(&mut i, true);
        if i == digits_at || b.get(i).is_some_and(|&c| ident_char(c) || c == b'.') {
            return Err(bad(
                i.max(digits_at + 1).min(b.len()),
                "malformed hexadecimal number",
            ));
        }
        let value = i64::from_str_radix(&src[digits_at..i], 16)
            .map_err(|_| bad(i, "this number does not fit in 64 bits"))?;
        out.push(Token {
            tok: Tok::Int(value),
            start,
            end: i,
        });
        return Ok(i);
    }
    digits(&mut i, false);
    let mut real = false;
    // `65..x` is 65 followed by `..`; `65.5` is a real; `65.` is malformed.
    if b.get(i) == Some(&b'.') && b.get(i + 1) != Some(&b'.') {
        if !b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            return Err(bad(i + 1, "a number needs digits after its decimal point"));
        }
        real = true;
        i += 1;
        digits(&mut i, false);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        real = true;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let at = i;
        digits(&mut i, false);
        if i == at {
            return Err(bad(i, "a number's exponent needs digits"));
        }
    }
    if b.get(i).is_some_and(|&c| ident_start(c)) {
        while i < b.len() && ident_char(b[i]) {
            i += 1;
        }
        return Err(bad(i, "a number cannot be followed by letters"));
    }
    let text = &src[start..i];
    let tok = if real {
        Tok::Float(text.parse().map_err(|_| bad(i, "malformed number"))?)
    } else {
        Tok::Int(
            text.parse()
                .map_err(|_| bad(i, "this number does not fit in 64 bits"))?,
        )
    };
    out.push(Token { tok, start, end: i });
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        tokenize(src).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn numbers_names_and_operators() {
        assert_eq!(
            toks("a:=0x1F+2.5e1..@b"),
            vec![
                Tok::Name { root: false },
                Tok::Op(":="),
                Tok::Int(31),
                Tok::Op("+"),
                Tok::Float(25.0),
                Tok::Op(".."),
                Tok::Name { root: true },
                Tok::End
            ]
        );
        // `65..` is an integer then the concatenation operator, as in BT.CPP's tokenizer.
        assert_eq!(toks("65..'x'")[..2], [Tok::Int(65), Tok::Op("..")]);
    }

    #[test]
    fn malformed_input_is_located() {
        let e = tokenize("a := 'open").unwrap_err();
        assert_eq!((e.start, e.end), (5, 10));
        let e = tokenize("a := 3foo").unwrap_err();
        assert_eq!((e.start, e.end), (5, 9));
        let e = tokenize("a := 1 # 2").unwrap_err();
        assert_eq!((e.start, e.end), (7, 8));
        assert!(tokenize("a := 65.").is_err());
        assert!(tokenize("x := 99999999999999999999").is_err());
    }
}
