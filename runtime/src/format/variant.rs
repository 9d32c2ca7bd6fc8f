//! Variant files: a tree file's values overridden under a name of their own. A variant
//! names its base tree file (relative to the variant's folder) and holds [`Overrides`]:
//! parameter values, key defaults, nodes switched off. Loading it loads the base with the
//! overrides applied (`Loader::load_file` and `load_str` tell a variant by its `format`),
//! a tree that shares the base's GUID and, unless nodes are switched off, its structure.
//! docs/format.md, "Variant files"; docs/arbor-tree.schema.json, `$defs/variant`.

use serde::{Deserialize, Serialize};

use super::Overrides;

/// The `format` of a variant file.
pub const VARIANT_FORMAT: &str = "arbor-tree-variant";

/// The variant file format version this runtime writes and reads.
pub const VARIANT_VERSION: u64 = 1;

/// A variant file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// Always [`VARIANT_FORMAT`].
    pub format: String,
    /// [`VARIANT_VERSION`].
    pub version: u64,
    /// The variant's name, which the loaded tree takes; the base's when absent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// What the variant is for, for designers.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The base tree file, relative to the variant file's folder (a tree file, not a
    /// variant).
    pub base: String,
    /// What the variant changes.
    #[serde(default)]
    pub overrides: Overrides,
}

/// Whether `text` is a variant file (by its `format`), without reading the rest.
pub fn is_variant(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Header {
        format: String,
    }
    // A tree file never holds the variant format's name, so most texts skip the parse.
    text.contains(VARIANT_FORMAT)
        && serde_json::from_str::<Header>(text).is_ok_and(|h| h.format == VARIANT_FORMAT)
}
