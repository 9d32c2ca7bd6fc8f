//! The files `diff` and `merge` work on: read through the bounded reader, parsed, and
//! checked for the shape they rely on (unique GUIDs and key names, one parent per node),
//! each problem located as the loader locates it. Node types are not needed: a file
//! whose host types are unknown here still compares and merges.

use std::path::Path;

use crate::compile::{check_shape, parse_str, LoadError, LoadOptions};
use crate::format::TreeFile;

/// The tree file at `path`, ready to compare or merge.
pub fn read_tree(path: &Path) -> Result<TreeFile, LoadError> {
    let limit = LoadOptions::default().max_file_bytes;
    let text = crate::files::read_text(path, limit).map_err(|e| LoadError::unreadable(path, e))?;
    tree_from_str(&text, Some(path))
}

/// As [`read_tree`], for text (`path` names it in messages).
pub fn tree_from_str(text: &str, path: Option<&Path>) -> Result<TreeFile, LoadError> {
    let file = parse_str(text, path)?;
    check_shape(&file, path)?;
    Ok(file)
}
