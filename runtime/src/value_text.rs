//! Text: the string a [`crate::Value::Str`] holds, shared between copies of the value so
//! that copying a value into the blackboard at tick time never allocates.
//!
//! Two forms behind one type: text shared as it was given (`Arc<str>`: literals, host
//! writes, file values) and text a script grows (`Arc<String>`). Appending
//! ([`Text::push_str`]) writes in place when the value is the only handle on a grown text
//! and it has room, so a run of appends to one key (`s += t` under a Repeat) costs
//! amortised O(1) per appended byte; otherwise it copies once into a grown text with room
//! to spare. Either way the value stays the size of two words and a tag.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A blackboard string; reads as a `&str` (it derefs to one). Equality compares the text.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Shared(Arc<str>),
    Grown(Arc<String>),
}

impl Text {
    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Shared(s) => s,
            Repr::Grown(s) => s.as_str(),
        }
    }

    /// Whether `a` and `b` are handles on the same allocation (no copy was made).
    pub fn ptr_eq(a: &Text, b: &Text) -> bool {
        match (&a.0, &b.0) {
            (Repr::Shared(x), Repr::Shared(y)) => Arc::ptr_eq(x, y),
            (Repr::Grown(x), Repr::Grown(y)) => Arc::ptr_eq(x, y),
            _ => false,
        }
    }

    /// Appends `tail` and returns the bytes this wrote or moved (for the `ScriptTextBytes`
    /// work counter): `tail`'s length when it fits in place, plus the text's length when
    /// the text had to be copied (shared, or another handle on it exists) or its buffer
    /// grew. A grown buffer at least doubles, so moves cost O(1) per appended byte
    /// over a run of appends.
    pub(crate) fn push_str(&mut self, tail: &str) -> u64 {
        if let Repr::Grown(arc) = &mut self.0 {
            if let Some(s) = Arc::get_mut(arc) {
                let moved = if s.capacity() - s.len() < tail.len() {
                    s.len() as u64
                } else {
                    0
                };
                s.push_str(tail);
                return moved + tail.len() as u64;
            }
        }
        let old = self.as_str();
        let mut grown = String::with_capacity(old.len() + tail.len().max(old.len()));
        grown.push_str(old);
        grown.push_str(tail);
        let written = grown.len() as u64;
        self.0 = Repr::Grown(Arc::new(grown));
        written
    }
}

impl Deref for Text {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl From<Arc<str>> for Text {
    fn from(s: Arc<str>) -> Text {
        Text(Repr::Shared(s))
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text(Repr::Shared(Arc::from(s)))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Grown(Arc::new(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_in_place_when_unique_and_copy_when_shared() {
        let mut t = Text::from("ab");
        // Shared text is copied once into a grown one.
        assert_eq!(t.push_str("c"), 3);
        assert_eq!(&*t, "abc");
        let before = t.clone();
        // Another handle exists: copied, and the other handle keeps its text.
        assert_eq!(t.push_str("d"), 4);
        assert_eq!(&*before, "abc");
        assert!(!Text::ptr_eq(&t, &before));
        drop(before);
        // The only handle, with room: only the tail is written.
        let mut spare = 0;
        for _ in 0..2 {
            spare += t.push_str("e");
        }
        assert!(spare <= 2 + 5, "{spare}");
        assert_eq!(&*t, "abcdee");
    }

    #[test]
    fn a_run_of_appends_moves_linear_bytes() {
        let moved = |n: usize| {
            let mut t = Text::from("");
            (0..n).map(|_| t.push_str("xy")).sum::<u64>()
        };
        let (small, large) = (moved(1_000), moved(4_000));
        // Each byte written once, and moved at most once per doubling: under 3 per byte.
        assert!(small <= 3 * 2_000, "{small}");
        assert!(large <= 3 * 8_000, "{large}");
    }

    #[test]
    fn equality_compares_text_in_either_form() {
        assert_eq!(Text::from("x"), Text::from(String::from("x")));
        let x = Text::from("x");
        assert!(x == *"x");
    }
}
