//! Quoting user text in messages: names, keys, paths and values may hold newlines, ANSI
//! escapes or bidirectional overrides, which would forge extra message lines or recolour a
//! terminal. Every message that quotes user text goes through [`escape_controls`] (the
//! loader's `Problem`, the importer's `XmlProblem`, the export's errors, the CLI).

use std::borrow::Cow;

/// `text` with every control character (C0, DEL, C1) and every bidirectional-formatting
/// character written as a Rust-style escape (`\n`, `\t`, `\u{1b}`, `\u{202e}`); a
/// backslash stays as it is. Borrowed when nothing needed escaping.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_plain_text_borrowed() {
        assert!(matches!(escape_controls("Walk to"), Cow::Borrowed(_)));
        assert_eq!(
            escape_controls("a\nb\u{1b}[31m\u{202e}"),
            "a\\nb\\u{1b}[31m\\u{202e}"
        );
    }
}
