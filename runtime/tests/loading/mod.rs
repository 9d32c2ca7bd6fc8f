//! Loading: located load errors, the corpus of broken files, fuzzing, and the JSON Schemas.

mod bad_corpus;
mod embedded;
mod fuzz_loader;
mod lints;
mod load_errors;
pub(crate) mod renames;
mod schema;
mod variants;
