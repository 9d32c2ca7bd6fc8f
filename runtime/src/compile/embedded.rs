//! Subtree files held in memory instead of read from disk. Generated code (docs/embedding.md,
//! "Generated code") carries the text of every subtree file its tree uses, so it loads the
//! same tree wherever the program runs, whatever is (or is not) on disk there; a game
//! engine's asset system (arbor-bevy) hands over the files it loaded, already parsed.
//!
//! With [`LoadOptions::embedded`](super::LoadOptions::embedded) in use (a file added, or the
//! top file named), the loader never touches the file system for subtrees: a Subtree's
//! `path` is resolved by name alone ([`key`]), against the folder of the file that names it,
//! and looked up here. A path that is not here is an error at the Subtree node, not a read
//! from disk, so a stale program cannot quietly pick up other files.

use std::borrow::Cow;
use std::path::{Component, Path, PathBuf};

use crate::format::TreeFile;

/// Tree files by name: their path relative to the top tree file's folder
/// (`lib/patrol.json`), or, once [`Embedded::with_top_file`] names the top file, relative
/// to the folder that name is relative to (an asset folder's root).
#[derive(Clone, Debug, Default)]
pub struct Embedded {
    files: Vec<(PathBuf, EmbeddedFile)>,
    top: Option<PathBuf>,
}

/// One file: its text (checked as a file read from disk is), or its parsed form.
#[derive(Clone, Debug)]
pub(crate) enum EmbeddedFile {
    Text(Cow<'static, str>),
    Tree(Box<TreeFile>),
}

impl Embedded {
    /// No files: subtrees are read from disk as usual.
    pub fn new() -> Self {
        Embedded::default()
    }

    /// Adds the file at `path` (`/`-separated, no `..` above the folder names are relative
    /// to) with its text.
    pub fn with(self, path: impl AsRef<Path>, text: impl Into<Cow<'static, str>>) -> Self {
        self.add(path.as_ref(), EmbeddedFile::Text(text.into()))
    }

    /// Adds a file already parsed (as a game engine's asset holds it): it is checked and
    /// compiled as one read from text is, without parsing it again.
    pub fn with_tree(self, path: impl AsRef<Path>, file: TreeFile) -> Self {
        self.add(path.as_ref(), EmbeddedFile::Tree(Box::new(file)))
    }

    /// Names the top tree file among these files (its path in a game's asset folder, say
    /// `npcs/guard.json`): its Subtree paths resolve from that name's folder, and may reach
    /// any file up to the root the names are relative to (`../shared/patrol.json`).
    /// Without it, names are relative to the top file's own folder, whatever folder the
    /// program gave that file (generated code). Once the top file is named, no subtree is
    /// read from disk even if no file is added: a tree whose subtrees did not arrive gets a
    /// located error rather than a read from the working directory.
    pub fn with_top_file(mut self, path: impl AsRef<Path>) -> Self {
        let path = path.as_ref();
        // A name that leaves the root stands at the root (its subtrees then resolve there);
        // it must not fall back to reading the disk.
        let name = key(Path::new(""), path)
            .unwrap_or_else(|| path.file_name().map(PathBuf::from).unwrap_or_default());
        self.top = Some(name);
        self
    }

    /// No file is embedded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Whether subtrees come from here rather than from disk.
    pub(crate) fn in_use(&self) -> bool {
        !self.files.is_empty() || self.top.is_some()
    }

    /// The top file's name, when [`Embedded::with_top_file`] gave one.
    pub(crate) fn top_file(&self) -> Option<&Path> {
        self.top.as_deref()
    }

    pub(crate) fn get(&self, key: &Path) -> Option<&EmbeddedFile> {
        self.files
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, file)| file)
    }

    fn add(mut self, path: &Path, file: EmbeddedFile) -> Self {
        if let Some(key) = key(Path::new(""), path) {
            self.files.push((key, file));
        }
        self
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
        let text = |name: &str| match e.get(Path::new(name)) {
            Some(EmbeddedFile::Text(t)) => Some(t.to_string()),
            _ => None,
        };
        assert_eq!(text("lib/a.json").as_deref(), Some("A"));
        assert_eq!(text("nope.json"), None);
        assert!(!e.is_empty() && e.in_use());
        assert!(Embedded::new().is_empty() && !Embedded::new().in_use());
    }

    #[test]
    fn naming_the_top_file_alone_keeps_subtrees_off_the_disk() {
        let e = Embedded::new().with_top_file("npcs/./guard.json");
        assert!(e.is_empty() && e.in_use());
        assert_eq!(e.top_file(), Some(Path::new("npcs/guard.json")));
    }
}
