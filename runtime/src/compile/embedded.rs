//! Subtree files compiled into a program: generated code (docs/embedding.md, "Generated
//! code") carries the text of every subtree file its tree uses, so it loads the same tree
//! wherever the program runs, whatever is (or is not) on disk there.
//!
//! With [`LoadOptions::embedded`](super::LoadOptions::embedded) set, the loader never
//! touches the file system for subtrees: a Subtree's `path` is resolved by name alone
//! ([`key`]), against the folder of the file that names it, and looked up here. A path
//! that is not embedded is an error at the Subtree node, not a read from disk, so a stale
//! program cannot quietly pick up other files.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

/// Tree files by their path relative to the top tree file's folder (`lib/patrol.json`).
#[derive(Clone, Debug, Default)]
pub struct Embedded {
    files: Vec<(PathBuf, Cow<'static, str>)>,
}

impl Embedded {
    /// No files: subtrees are read from disk as usual.
    pub fn new() -> Self {
        Embedded::default()
    }

    /// Adds the file at `path` (relative to the top tree file's folder, `/`-separated, no
    /// `..` above that folder) with its text.
    pub fn with(mut self, path: impl AsRef<Path>, text: impl Into<Cow<'static, str>>) -> Self {
        if let Some(key) = key(Path::new(""), path.as_ref()) {
            self.files.push((key, text.into()));
        }
        self
    }

    /// No file is embedded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    pub(crate) fn get(&self, key: &Path) -> Option<&str> {
        self.files
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, text)| &**text)
    }
}

/// The embedded name of `rel` as seen from the file whose name is `from_dir`/…: joined and
/// normalised by name (`.` dropped, `..` taking back a folder), or `None` if it climbs
/// above the top file's folder or is absolute. Subtree files must lie in that folder
/// anyway (docs/reliability.md), so nothing the loader accepts from disk is lost.
pub(crate) fn key(from_dir: &Path, rel: &Path) -> Option<PathBuf> {
    let key = crate::files::normalise(&from_dir.join(rel));
    key.components()
        .all(|part| matches!(part, Component::Normal(_)))
        .then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_normalised_by_name_and_stay_inside_the_top_folder() {
        let k = |dir: &str, rel: &str| key(Path::new(dir), Path::new(rel));
        assert_eq!(k("", "lib/a.json"), Some(PathBuf::from("lib/a.json")));
        assert_eq!(k("lib", "./b.json"), Some(PathBuf::from("lib/b.json")));
        assert_eq!(k("lib", "../c.json"), Some(PathBuf::from("c.json")));
        assert_eq!(k("lib/x", "../../d.json"), Some(PathBuf::from("d.json")));
        assert_eq!(k("", "../outside.json"), None);
        assert_eq!(k("lib", "../../outside.json"), None);
        assert_eq!(k("", "/etc/passwd"), None);
    }

    #[test]
    fn files_are_found_by_their_normalised_name() {
        let e = Embedded::new()
            .with("lib/./a.json", "A")
            .with("../nope.json", "N");
        assert_eq!(e.get(Path::new("lib/a.json")), Some("A"));
        assert_eq!(e.get(Path::new("nope.json")), None);
        assert!(!e.is_empty());
        assert!(Embedded::new().is_empty());
    }
}
