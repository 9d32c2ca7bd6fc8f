//! JSON paths as every Arbor message writes them: `$` for the whole document, `.name` for a
//! member, `[n]` for an array element, so `$.nodes[2].params.seconds`. The loader's problems,
//! and anything else that points into a tree file, use this one form.

use std::fmt::Write as _;

use serde_path_to_error::{Path, Segment};

/// The JSON path of a [`serde_path_to_error`] error, in Arbor's form: `$.nodes[2].params`,
/// or `$` for the document itself. (The crate's own `Display` writes `nodes[2].params`, and
/// `.` for the document.) Member names are written as they are, as the rest of the loader
/// writes them; an unknown step (a value serde could not place) is `?`.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct File { nodes: Vec<Node> }
/// #[derive(serde::Deserialize)]
/// struct Node { seconds: f64 }
///
/// let json = r#"{"nodes": [{"seconds": 1}, {"seconds": "soon"}]}"#;
/// let de = &mut serde_json::Deserializer::from_str(json);
/// let err = serde_path_to_error::deserialize::<_, File>(de).err().expect("a bad shape");
/// assert_eq!(arbor_runtime::format::json_path(err.path()), "$.nodes[1].seconds");
/// ```
pub fn json_path(path: &Path) -> String {
    let mut out = String::from("$");
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                let _ = write!(out, "[{index}]");
            }
            Segment::Map { key } => {
                out.push('.');
                out.push_str(key);
            }
            Segment::Enum { variant } => {
                out.push('.');
                out.push_str(variant);
            }
            Segment::Unknown => out.push_str(".?"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::json_path;

    fn path_of(json: &str) -> String {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)] // read only by the deserializer
        struct Doc {
            list: Vec<Vec<u8>>,
            name: String,
        }
        let de = &mut serde_json::Deserializer::from_str(json);
        let err = serde_path_to_error::deserialize::<_, Doc>(de).expect_err("a bad shape");
        json_path(err.path())
    }

    #[test]
    fn members_and_elements_nest() {
        assert_eq!(
            path_of(r#"{"list": [[1], [2, "x"]], "name": "n"}"#),
            "$.list[1][1]"
        );
        assert_eq!(path_of(r#"{"list": [], "name": 3}"#), "$.name");
    }

    #[test]
    fn the_document_itself_is_a_dollar() {
        assert_eq!(path_of("[]"), "$");
    }
}
