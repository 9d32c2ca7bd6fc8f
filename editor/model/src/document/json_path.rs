//! JSON paths in error messages, written one way: `$.editor.positions.g1`, `$.nodes[0].guid`,
//! by the runtime's own formatter (`arbor_runtime::format::json_path`, which its loader
//! uses), rooted where the value sits. Every reader here that reports a shape error (the
//! editor data in a tree file, a pasted fragment) goes through [`deserialize_at`].

use serde::{Deserialize, Deserializer};

/// Reads `value` as a `T`; a shape error names where, under `root` (`"$"` for a whole
/// document, `"$.editor"` for the editor data inside one), and what was expected.
pub fn deserialize_at<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
    root: &str,
    value: D,
) -> Result<T, ShapeError> {
    serde_path_to_error::deserialize(value).map_err(|e| ShapeError {
        path: json_path(root, e.path()),
        message: e.into_inner().to_string(),
    })
}

/// Where a value did not have the expected shape, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ShapeError {
    /// `$`-rooted, e.g. `$.editor.positions.g1`.
    pub path: String,
    pub message: String,
}

/// `path` under `root`: `$` and `nodes[0].guid` give `$.nodes[0].guid`; an empty path
/// (the root itself) gives `root`.
pub fn json_path(root: &str, path: &serde_path_to_error::Path) -> String {
    // The runtime's form is rooted at `$`; the rest is the same under any root.
    let full = arbor_runtime::format::json_path(path);
    format!("{root}{}", full.strip_prefix('$').unwrap_or(&full))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn paths_read_as_the_runtimes() {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Doc {
            nodes: Vec<Node>,
        }
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Node {
            guid: String,
        }
        let bad = json!({"nodes": [{"guid": 3}]});
        let err = deserialize_at::<Doc, _>("$", bad).unwrap_err();
        assert_eq!(err.path, "$.nodes[0].guid");
        let err = deserialize_at::<Vec<u8>, _>("$.editor", json!(["x"])).unwrap_err();
        assert_eq!(err.path, "$.editor[0]");
        let err = deserialize_at::<u8, _>("$.editor", Value::Bool(true)).unwrap_err();
        assert_eq!(err.path, "$.editor");
    }
}
