//! The tree-file asset and its loader: bytes -> [`TreeFile`] (parsed, not yet compiled:
//! compiling needs the program's registry, see the plugin).

use bevy_asset::{io::Reader, Asset, AssetLoader, AssetPath, Handle, LoadContext};
use bevy_reflect::TypePath;

use arbor_runtime::format::TreeFile;

/// A tree file loaded by the asset server.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct ArborTree {
    /// The parsed file.
    pub file: TreeFile,
    /// Where the asset server found it (relative to its asset source).
    pub path: AssetPath<'static>,
    /// The tree files its Subtree nodes refer to, loaded as dependencies from the same
    /// asset source: the compiler takes their contents from here (it reads no file), the
    /// tree compiles once they have loaded, and a changed subtree file recompiles every
    /// tree that uses it (see the plugin).
    #[dependency]
    pub subtrees: Vec<Handle<ArborTree>>,
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
        let path = load_context.path().clone_owned();
        let mut subtrees = Vec::new();
        for rel in subtree_paths(&file) {
            // Relative to this file's folder, as the runtime's loader resolves them. A path
            // the asset server cannot parse is left to the compiler, which reports it.
            if let Ok(target) = path.resolve_embed_str(rel) {
                subtrees.push(load_context.load::<ArborTree>(target));
            }
        }
        Ok(ArborTree {
            file,
            path,
            subtrees,
        })
    }

    fn extensions(&self) -> &[&str] {
        &["tree.json", "json"]
    }
}

/// The `path` parameters of the file's Subtree nodes, each once.
fn subtree_paths(file: &TreeFile) -> Vec<&str> {
    let mut paths: Vec<&str> = file
        .nodes
        .iter()
        .filter(|node| node.kind == "Subtree")
        .filter_map(|node| node.params.get("path").and_then(|p| p.as_str()))
        .collect();
    paths.sort_unstable();
    paths.dedup();
    paths
}
