//! Quoting user text in messages: names, keys, paths and values may hold newlines, ANSI
//! escapes or bidirectional overrides, which would forge extra message lines or recolour a
//! terminal. Every message that quotes user text goes through [`escape_controls`] (the
//! loader's `Problem`, the importer's `XmlProblem`, the export's errors, the CLI).

use std::borrow::Cow;

/// `text` with every control character (C0, DEL, C1), every bidirectional-formatting
/// character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), the line and
/// paragraph separators U+2028 and U+2029, and every invisible character (zero-width
/// space, joiners, word joiner and invisible operators, U+FEFF, soft hyphen, U+180E)
/// written as a Rust-style escape (`\n`, `\t`, `\u{1b}`, `\u{202e}`); a backslash stays as
/// it is. Borrowed when nothing needed escaping.
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

/// Characters that move or hide text, or end a line, without being control characters:
/// quoted as they are, they would let a name forge or hide part of a message.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{061c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
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

    #[test]
    fn separators_arabic_mark_and_invisible_characters_are_escaped() {
        for (c, escaped) in [
            ('\u{061c}', "\\u{61c}"),
            ('\u{2028}', "\\u{2028}"),
            ('\u{2029}', "\\u{2029}"),
            ('\u{200b}', "\\u{200b}"),
            ('\u{200c}', "\\u{200c}"),
            ('\u{200d}', "\\u{200d}"),
            ('\u{2060}', "\\u{2060}"),
            ('\u{feff}', "\\u{feff}"),
            ('\u{00ad}', "\\u{ad}"),
        ] {
            assert_eq!(escape_controls(&format!("a{c}b")), format!("a{escaped}b"));
        }
        assert!(matches!(escape_controls("naïve → ok"), Cow::Borrowed(_)));
    }
}
