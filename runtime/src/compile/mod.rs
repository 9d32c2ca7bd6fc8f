//! Loading: tree file -> checked -> [`CompiledTree`]. Every problem is collected and located
//! (file, JSON path or line/column, node); nothing panics on any input.
//!
//! Stages: `source` (bytes to `TreeFile`: size, syntax, header, shape), `graph` (GUIDs,
//! root, children, cycles, depth), `params` (each node's parameters against its declared
//! type), `analyse` (one file, every node), `emit` (the flat pre-order layout, subtrees
//! spliced in). [`check_file`] stops before building host actions, so tools that only know
//! node *declarations* (the editor, `arbor check`) validate with the same code.

mod analyse;
mod conflicts;
mod embedded;
mod emit;
mod graph;
mod key_use;
mod params;
mod problem;
mod renames;
mod running_condition;
pub use renames::{migrate, Rename, Renamed};
mod source;
mod suggest;
mod variant;
pub(crate) use suggest::closest;

pub use embedded::Embedded;
pub use problem::{LoadError, Problem, ProblemKind, Report, Severity};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::format::TreeFile;
use crate::registry::Registry;
use crate::spec::NodeTypes;
use crate::tree::CompiledTree;
use emit::Emitter;

/// Limits that keep hostile or broken files from exhausting memory or the stack. Each limit
/// gives a clear error when exceeded; the defaults are generous for hand-made trees.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Largest tree file read, in bytes (default 16 MiB).
    pub max_file_bytes: u64,
    /// Most nodes in the compiled tree, subtrees included (default 100,000).
    pub max_nodes: usize,
    /// Deepest nesting, subtrees included (default 256 levels). Ticking recurses once per
    /// level, so this also bounds the stack used by a tick.
    pub max_depth: usize,
    /// Longest string (or object key), in bytes (default 64 KiB).
    pub max_string_len: usize,
    /// Most subtree files nested inside one another (default 16).
    pub max_subtree_depth: usize,
    /// Subtree files must lie in this folder; by default the top file's folder.
    pub project_root: Option<PathBuf>,
    /// Allow subtree paths that leave the project folder.
    pub allow_outside_root: bool,
    /// Subtree files to take from memory instead of the disk (generated code embeds
    /// them); when any is given, no subtree is read from disk.
    pub embedded: Embedded,
    /// Also warn about every key some node reads that nothing in the file writes and that
    /// has no default (`ProblemKind::KeyNeverWritten`). `arbor check` turns it on; it is
    /// off by default because the loader cannot see the program's own writes, so a key
    /// only the program sets would be reported too.
    pub lint_keys: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            max_file_bytes: 16 * 1024 * 1024,
            max_nodes: 100_000,
            max_depth: 256,
            max_string_len: 64 * 1024,
            max_subtree_depth: 16,
            project_root: None,
            allow_outside_root: false,
            embedded: Embedded::new(),
            lint_keys: false,
        }
    }
}

/// Loads trees that use the node types of a [`Registry`].
pub struct Loader<'r, C> {
    registry: &'r Registry<C>,
    options: LoadOptions,
}

impl<C: 'static> Registry<C> {
    /// A loader with the default limits.
    pub fn loader(&self) -> Loader<'_, C> {
        Loader {
            registry: self,
            options: LoadOptions::default(),
        }
    }
}

impl<'r, C: 'static> Loader<'r, C> {
    /// Replaces the limits (see [`LoadOptions`]), e.g. for untrusted files.
    pub fn with_options(mut self, options: LoadOptions) -> Self {
        self.options = options;
        self
    }

    /// Reads, checks and compiles a tree file (and the subtree files it refers to).
    pub fn load_file(&self, path: impl AsRef<Path>) -> Result<CompiledTree<C>, LoadError> {
        let path = path.as_ref();
        let origin: Arc<str> = Arc::from(path.display().to_string());
        let text = source::read(path, &origin, &self.options)
            .map_err(|problems| LoadError { problems })?;
        self.load_text(&text, origin, Some(path))
    }

    /// Checks and compiles a tree from text. `path`, if given, is where the text came from:
    /// it names the file in messages and anchors relative subtree paths.
    pub fn load_str(&self, text: &str, path: Option<&Path>) -> Result<CompiledTree<C>, LoadError> {
        self.load_text(text, origin_of(path), path)
    }

    /// Checks and compiles an in-memory tree with `overrides` applied (an agent's own
    /// parameter values and key defaults, docs/format.md "Variant files"). An override that
    /// names a node or key the tree lacks is a problem, located at its path in the overrides
    /// (`params[0].node`).
    pub fn load_tree_with(
        &self,
        file: &TreeFile,
        overrides: &crate::format::Overrides,
        path: Option<&Path>,
    ) -> Result<CompiledTree<C>, LoadError> {
        let mut file = file.clone();
        variant::apply(overrides, &mut file, &Arc::from("<overrides>"), "")
            .map_err(|problems| LoadError { problems })?;
        self.load_tree(&file, path)
    }

    /// Checks and compiles an in-memory tree (the editor's live preview does this).
    pub fn load_tree(
        &self,
        file: &TreeFile,
        path: Option<&Path>,
    ) -> Result<CompiledTree<C>, LoadError> {
        build(
            Some(self.registry),
            self.registry.types(),
            &self.options,
            file.clone(),
            origin_of(path),
            path,
        )
    }

    fn load_text(
        &self,
        text: &str,
        origin: Arc<str>,
        path: Option<&Path>,
    ) -> Result<CompiledTree<C>, LoadError> {
        let (file, origin, path) = parse_any(text, origin, path, &self.options)
            .map_err(|problems| LoadError { problems })?;
        build(
            Some(self.registry),
            self.registry.types(),
            &self.options,
            file,
            origin,
            path.as_deref(),
        )
    }
}

/// Checks a tree file against node type declarations, without building it: every problem,
/// errors and warnings.
pub fn check_file(path: impl AsRef<Path>, types: &NodeTypes, options: &LoadOptions) -> Report {
    let path = path.as_ref();
    let origin: Arc<str> = Arc::from(path.display().to_string());
    let text = match source::read(path, &origin, options) {
        Ok(text) => text,
        Err(problems) => return Report { problems },
    };
    check_str(&text, Some(path), types, options)
}

/// As [`check_file`], for text.
pub fn check_str(
    text: &str,
    path: Option<&Path>,
    types: &NodeTypes,
    options: &LoadOptions,
) -> Report {
    match parse_any(text, origin_of(path), path, options) {
        Err(problems) => Report { problems },
        Ok((file, _, path)) => check_tree(&file, path.as_deref(), types, options),
    }
}

/// As [`check_file`], for an in-memory tree (the editor's problem list).
pub fn check_tree(
    file: &TreeFile,
    path: Option<&Path>,
    types: &NodeTypes,
    options: &LoadOptions,
) -> Report {
    match build::<()>(None, types, options, file.clone(), origin_of(path), path) {
        Ok(tree) => Report {
            problems: tree.warnings,
        },
        Err(e) => Report {
            problems: e.problems,
        },
    }
}

/// Parses a tree file's text without checking its contents (for tools that edit files).
pub fn parse_str(text: &str, path: Option<&Path>) -> Result<TreeFile, LoadError> {
    source::parse(text, &origin_of(path), &LoadOptions::default())
        .map_err(|problems| LoadError { problems })
}

/// Parses a tree file's text, or a variant file's: its base read (relative to `path`'s
/// folder, through the bounded reader) with the overrides applied. Returns the tree and
/// the path its subtrees are relative to (a variant's base's): what hosts that compile
/// a parsed file with `Loader::load_tree` need to accept variants as well.
pub fn parse_tree_or_variant(
    text: &str,
    path: Option<&Path>,
) -> Result<(TreeFile, Option<PathBuf>), LoadError> {
    parse_any(text, origin_of(path), path, &LoadOptions::default())
        .map(|(file, _, path)| (file, path))
        .map_err(|problems| LoadError { problems })
}

/// Parses a variant file's text (its header, shape and version checked) without reading
/// its base: for tools that edit variants (docs/format.md, "Variant files").
pub fn parse_variant_str(
    text: &str,
    path: Option<&Path>,
) -> Result<crate::format::VariantFile, LoadError> {
    variant::parse(text, &origin_of(path)).map_err(|problems| LoadError { problems })
}

/// Writes a variant's `overrides` into `file` (its base), as loading the variant does: on
/// an override naming what the base lacks, every such problem located in the variant
/// (`$.overrides.params[0].node`) and `file` left as it was.
pub fn apply_variant_overrides(
    overrides: &crate::format::Overrides,
    file: &mut TreeFile,
    path: Option<&Path>,
) -> Result<(), LoadError> {
    variant::apply(overrides, file, &origin_of(path), "$.overrides.")
        .map_err(|problems| LoadError { problems })
}

/// The errors in the shape of a parsed file: GUIDs (valid, unique), the root, children
/// that exist, one parent per node, no cycles, blackboard keys (named, unique, defaults
/// of their type). What tools that compare, merge or rewrite files need of them, checked
/// by the loader's own stages and without node types.
pub fn check_shape(file: &TreeFile, path: Option<&Path>) -> Result<(), LoadError> {
    let mut problems = Vec::new();
    let origin = origin_of(path);
    graph::analyse(file, &origin, &LoadOptions::default(), &mut problems);
    analyse::check_keys(file, &origin, &mut problems);
    problems.retain(Problem::is_error);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(LoadError { problems })
    }
}

/// Compiles a tree file against node declarations only, without host actions: the layout
/// code generation emits code for (`codegen::generate`).
pub(crate) fn compile_unbound(
    path: &Path,
    types: &NodeTypes,
    options: &LoadOptions,
) -> Result<CompiledTree<()>, LoadError> {
    let origin: Arc<str> = Arc::from(path.display().to_string());
    let text = source::read(path, &origin, options).map_err(|problems| LoadError { problems })?;
    let (file, origin, path) =
        parse_any(&text, origin, Some(path), options).map_err(|problems| LoadError { problems })?;
    build::<()>(None, types, options, file, origin, path.as_deref())
}

/// A tree file's text parsed, or a variant file's base with its overrides applied; with
/// the origin and path its problems and subtrees are relative to (a variant's base's).
pub(crate) fn parse_any(
    text: &str,
    origin: Arc<str>,
    path: Option<&Path>,
    options: &LoadOptions,
) -> Result<(TreeFile, Arc<str>, Option<PathBuf>), Vec<Problem>> {
    if crate::format::is_variant(text) {
        let (file, base) = variant::resolve(text, &origin, path, options)?;
        let origin = Arc::from(base.display().to_string());
        return Ok((file, origin, Some(base)));
    }
    let file = source::parse(text, &origin, options)?;
    Ok((file, origin, path.map(Path::to_path_buf)))
}

fn origin_of(path: Option<&Path>) -> Arc<str> {
    Arc::from(path.map_or_else(|| "<memory>".to_owned(), |p| p.display().to_string()))
}

fn build<C: 'static>(
    registry: Option<&Registry<C>>,
    types: &NodeTypes,
    options: &LoadOptions,
    file: TreeFile,
    origin: Arc<str>,
    path: Option<&Path>,
) -> Result<CompiledTree<C>, LoadError> {
    let mut emitter = Emitter::new(registry, types, options);
    let name = file.name.clone();
    let guid = file.guid.clone();
    let mut top = emitter.analyse_top(file, origin, path.map(Path::to_path_buf));
    if top.ok {
        emitter.emit_top(&top);
        emitter.take_top_names(&mut top);
    }
    let subtree_files = emitter.subtree_files();
    let mut problems = emitter.problems;
    // Errors first, then warnings, each in the order found.
    problems.sort_by_key(|p| std::cmp::Reverse(p.severity));
    if problems.iter().any(Problem::is_error) || emitter.nodes.is_empty() {
        return Err(LoadError { problems });
    }
    let actions: Vec<Arc<dyn crate::host::Action<C>>> =
        emitter.actions.into_iter().map(Arc::from).collect();
    let entries = crate::exec::entries(&emitter.nodes, &emitter.children, &actions);
    let root = crate::exec::entry_of(&emitter.nodes, &actions, 0);
    crate::exec::assert_in_bounds(&root, emitter.nodes.len(), entries.len());
    Ok(CompiledTree {
        nodes: emitter.nodes,
        children: emitter.children,
        entries,
        root,
        decorators: emitter.decorators,
        info: emitter.info.into(),
        decorator_info: emitter.decorator_info,
        parents: emitter.parents,
        keys: Arc::from(emitter.keys),
        events: emitter.names.events,
        triggers: emitter.names.triggers,
        actions,
        controls: emitter.controls,
        timers: emitter.timers,
        states: emitter.states,
        observations: emitter.observations,
        name,
        guid,
        source: path.map(Path::to_path_buf),
        subtree_files,
        warnings: problems,
        program: None,
        layout: std::sync::OnceLock::new(),
    })
}
