//! Duplicate object keys: `{"seconds": 1, "seconds": 5}` is refused, located, rather than
//! read as its last value (what `serde_json` does for maps and `Value`). Tree files and
//! debug-protocol requests are checked by [`find_duplicate_key`] before they are read.
//!
//! One pass through `serde_json`'s own reader, so keys are compared decoded (`"a"` and
//! `"\u0061"` are the same key). Keys are borrowed from the text where they hold no escape;
//! an object's keys are compared pairwise while it has few (no allocation), and through a
//! hash set beyond that, so the work stays linear in the text however wide an object is.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// Objects with at most this many keys are checked by comparing every pair.
const PAIRWISE: usize = 16;

/// The first key that appears twice in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DuplicateKey {
    /// The object's JSON path (`$.nodes[2].params`).
    pub path: String,
    pub key: String,
    /// 1-based line and column just past the second occurrence of the key.
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "duplicate key `{}` in {} (line {}, column {}): a key may appear once in an object",
            self.key, self.path, self.line, self.column
        )
    }
}

/// The first duplicate key of the JSON text, if any. Text that is not JSON answers `None`:
/// the caller's parser reports it.
pub(crate) fn find_duplicate_key(text: &[u8]) -> Option<DuplicateKey> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let mut state = State::default();
    match (Check { state: &mut state }).deserialize(&mut de) {
        Ok(()) => None,
        Err(e) => state.found.map(|(path, key)| DuplicateKey {
            path,
            key,
            line: e.line(),
            column: e.column(),
        }),
    }
}

/// What the walk shares: the path to the current value, and what it found.
#[derive(Default)]
struct State<'de> {
    path: Vec<Step<'de>>,
    found: Option<(String, String)>,
}

enum Step<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

impl State<'_> {
    fn path_text(&self) -> String {
        let mut out = String::from("$");
        for step in &self.path {
            match step {
                Step::Key(k) => {
                    out.push('.');
                    out.push_str(k);
                }
                Step::Index(i) => out.push_str(&format!("[{i}]")),
            }
        }
        out
    }
}

/// Walks one value.
struct Check<'s, 'de> {
    state: &'s mut State<'de>,
}

impl<'de> DeserializeSeed<'de> for Check<'_, 'de> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Check<'_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            self.state.path.push(Step::Index(index));
            let more = seq.next_element_seed(Check { state: self.state })?;
            self.state.path.pop();
            if more.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut few: Vec<Cow<'de, str>> = Vec::new();
        let mut many: Option<HashSet<Cow<'de, str>>> = None;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let repeated = match &mut many {
                Some(set) => !set.insert(key.clone()),
                None => {
                    let repeated = few.contains(&key);
                    few.push(key.clone());
                    if few.len() > PAIRWISE {
                        many = Some(few.drain(..).collect());
                    }
                    repeated
                }
            };
            if repeated {
                self.state.found = Some((self.state.path_text(), key.into_owned()));
                return Err(de::Error::custom("duplicate key"));
            }
            self.state.path.push(Step::Key(key));
            map.next_value_seed(Check { state: self.state })?;
            self.state.path.pop();
        }
        Ok(())
    }
}

/// Reads a key, borrowed from the text when it holds no escape.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &str) -> Option<DuplicateKey> {
        find_duplicate_key(text.as_bytes())
    }

    #[test]
    fn unique_keys_pass_and_non_json_is_left_to_the_parser() {
        assert_eq!(find(r#"{"a": 1, "b": [{"a": 2}, {"a": 3}]}"#), None);
        assert_eq!(find("{not json"), None);
        assert_eq!(find("[1, 2, 3]"), None);
    }

    #[test]
    fn a_repeated_key_is_located_by_path_line_and_column() {
        let found = find("{\"nodes\": [{}, {\"params\": {\n  \"s\": 1,\n  \"s\": 5}}]}")
            .expect("a duplicate");
        assert_eq!(found.path, "$.nodes[1].params");
        assert_eq!(found.key, "s");
        assert_eq!((found.line, found.column), (3, 5));
    }

    #[test]
    fn keys_are_compared_decoded() {
        let found = find(r#"{"a": 1, "\u0061": 2}"#).expect("a duplicate");
        assert_eq!(found.key, "a");
    }

    #[test]
    fn wide_objects_are_checked_through_a_set() {
        let keys: Vec<String> = (0..100).map(|i| format!("\"k{i}\": {i}")).collect();
        let unique = format!("{{{}}}", keys.join(", "));
        assert_eq!(find(&unique), None);
        let repeated = format!("{{{}, \"k7\": 0}}", keys.join(", "));
        assert_eq!(find(&repeated).map(|d| d.key), Some("k7".to_owned()));
    }
}
