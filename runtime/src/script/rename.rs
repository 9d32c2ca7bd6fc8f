//! Renaming a key inside script text: every name token that is the key (written `name`
//! or `@name`), and nothing else (not a string's contents, not a vector component
//! `pos.x`), so that `arbor rename-key` rewrites scripts as safely as it rewrites
//! parameters.

use super::lexer::{tokenize, Tok};

/// The byte ranges in `src` of the name `old` used as a key (the `@` excluded); `None`
/// when the script does not tokenize.
pub fn key_name_spans(src: &str, old: &str) -> Option<Vec<(usize, usize)>> {
    let tokens = tokenize(src).ok()?;
    let mut out = Vec::new();
    let mut after_dot = false;
    for t in &tokens {
        if let Tok::Name { root } = t.tok {
            let start = if root { t.start + 1 } else { t.start };
            if !after_dot && &src[start..t.end] == old {
                out.push((start, t.end));
            }
        }
        after_dot = t.tok == Tok::Op(".");
    }
    Some(out)
}

/// `src` with the key `old` renamed to `new` wherever [`key_name_spans`] finds it, and
/// how many places changed; `None` when the script does not tokenize.
pub fn rename_key(src: &str, old: &str, new: &str) -> Option<(String, usize)> {
    let spans = key_name_spans(src, old)?;
    let mut out = String::with_capacity(src.len());
    let mut at = 0;
    for (start, end) in &spans {
        out.push_str(&src[at..*start]);
        out.push_str(new);
        at = *end;
    }
    out.push_str(&src[at..]);
    Some((out, spans.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_names_and_root_names_but_not_strings_or_components() {
        let (text, n) = rename_key("hp := hp + 1; @hp > 2; msg := 'hp'; pos.hp", "hp", "health")
            .expect("tokenizes");
        assert_eq!(
            text,
            "health := health + 1; @health > 2; msg := 'hp'; pos.hp"
        );
        assert_eq!(n, 3);
    }

    #[test]
    fn a_longer_name_is_not_a_match() {
        assert_eq!(
            rename_key("hp2 := 1", "hp", "x"),
            Some(("hp2 := 1".to_owned(), 0))
        );
    }
}
