//! Tree-file refactoring for tools and the editor: where a blackboard key or a node type
//! is used ([`key_usages`], [`type_usages`]), and renaming one everywhere in a file
//! ([`rename_key`], [`rename_type`]). One walk finds and renames, so `arbor find-usages`
//! lists exactly the places `arbor rename-key` rewrites.

mod keys;
mod usage;

pub use keys::{key_usages, rename_key, RenameError};
pub use usage::{rename_type, type_usages, Usage, UsageKind};
