//! The tree-file asset and its loader: bytes -> [`TreeFile`] (parsed, not yet compiled:
//! compiling needs the program's registry, see the plugin).

use bevy::asset::{io::Reader, Asset, AssetLoader, LoadContext};
use bevy::reflect::TypePath;

use arbor_runtime::format::TreeFile;

/// A tree file loaded by the asset server.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct ArborTree {
    /// The parsed file.
    pub file: TreeFile,
}

/// Loads `.json` tree files (and `.tree.json`) as [`ArborTree`]s.
#[derive(Default, TypePath)]
pub struct ArborTreeLoader;

/// Why a tree file could not be read as a tree (its contents are checked later, when it
/// is compiled with the program's node types).
#[derive(Debug, thiserror::Error)]
pub enum TreeLoadError {
    /// The asset could not be read.
    #[error("cannot read the tree file: {0}")]
    Io(#[from] std::io::Error),
    /// The text is not UTF-8.
    #[error("the tree file is not UTF-8 text")]
    Utf8,
    /// The text is not a tree file (every problem, located).
    #[error("{0}")]
    Parse(#[from] arbor_runtime::LoadError),
}

impl AssetLoader for ArborTreeLoader {
    type Asset = ArborTree;
    type Settings = ();
    type Error = TreeLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<ArborTree, TreeLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = std::str::from_utf8(&bytes).map_err(|_| TreeLoadError::Utf8)?;
        let shown = load_context.path().to_string();
        let file = arbor_runtime::parse_str(text, Some(std::path::Path::new(&shown)))?;
        Ok(ArborTree { file })
    }

    fn extensions(&self) -> &[&str] {
        &["tree.json", "json"]
    }
}
