//! Session: one open document, the node types it is edited against, its file path, and
//! its undo [`History`]. The app and the canvas talk to this; nothing else changes the
//! document.
//!
//! Invariants:
//! - Every change goes through [`Session::apply`] (checked first, so an invalid command
//!   never enters the history), [`Session::undo`] or [`Session::redo`].
//! - "Modified" is derived from the history's saved marker, never toggled by hand (as
//!   helix's `is_modified` compares revisions): undoing back to the saved state makes the
//!   document unmodified again.
//! - [`Session::generation`] changes whenever the document may have changed, so a view
//!   (the canvas cache) knows when to resync, after undo and redo as after edits. It is
//!   drawn from one counter shared by every session of the process, so no two sessions
//!   ever share a value: a cache keyed on it cannot mistake one document (a new tab, a
//!   file opened in place) for another.
//!
//! - The history keeps at most [`HISTORY_LIMIT`] steps; the oldest are dropped first, so
//!   memory stays bounded however long a session lasts.
//! - [`Session::disk_stamp`] is what the file looked like when this session last read or
//!   wrote it, so the app can notice changes made by other programs.
//!
//! - A variant document (document/variant.rs) saves as its variant file. Its base is
//!   written only when "apply to base" changed it ([`Session::base_modified`]), by the
//!   same save, which names the base in [`Session::notes`]: never silently.
//!
//! Limitations: the history is linear (an edit after undo drops the undone steps), and it
//! is not saved with the file. Once steps beyond the limit are dropped, undo cannot go
//! back further, and if the saved state was among them the document stays modified.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arbor_runtime::{NodeTypes, Report};

use crate::commands::{
    add_linked, inline_subtree, replace_with_subtree, AddNode, AutoLayout, Batch, Command,
    CommandError, Connect, Link, Paste, RemoveItems, SetLayout,
};
use crate::document::io::{self, ManifestError, OpenError, SaveError};
use crate::document::xml;
use crate::document::{
    extract_subtree, validate, ClipboardError, DiskStamp, Document, Fragment, KeyUsage,
    LayoutOptions, LayoutSettings, Pos, Selection,
};
use crate::project::{relative_path, Project};

/// The undo history: a linear record of [`Command`]s with a saved marker.
pub type History = undo::Record<Command>;

/// The most undo steps a session keeps (memory stays bounded in long sessions).
/// A step holds only what it changed (a move keeps the moved items' positions), so even
/// a thousand select-all moves of a 1,000-node tree stay within tens of megabytes.
pub const HISTORY_LIMIT: usize = 1000;

/// One entry of the history, for a history panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub label: String,
    /// Applied (at or before the current position) rather than undone.
    pub done: bool,
}

/// Why a paste failed.
#[derive(Debug, thiserror::Error)]
pub enum PasteError {
    #[error(transparent)]
    Clipboard(#[from] ClipboardError),
    #[error(transparent)]
    Command(#[from] CommandError),
}

/// Why a subtree could not be exported or inlined.
#[derive(Debug, thiserror::Error)]
pub enum SubtreeError {
    #[error("save the tree first: subtree paths are relative to its file")]
    Unsaved,
    #[error("{} is not inside the tree's folder {}", .path.display(), .folder.display())]
    OutsideFolder { path: PathBuf, folder: PathBuf },
    #[error("the Subtree node has no `path`")]
    NoPath,
    #[error("\"{0}\" is not a Subtree node; only a Subtree node can be inlined")]
    NotSubtree(String),
    #[error(transparent)]
    Save(#[from] SaveError),
    #[error(transparent)]
    Open(#[from] OpenError),
    #[error(transparent)]
    Command(#[from] CommandError),
}

/// The source of every session's generations (see the module documentation).
static GENERATIONS: AtomicU64 = AtomicU64::new(1);

/// A generation no session has had before.
fn next_generation() -> u64 {
    GENERATIONS.fetch_add(1, Ordering::Relaxed)
}

/// See the module documentation.
#[derive(Debug)]
pub struct Session {
    doc: Document,
    history: History,
    types: NodeTypes,
    manifest_errors: Vec<ManifestError>,
    path: Option<PathBuf>,
    generation: u64,
    disk: Option<DiskStamp>,
    notes: Vec<String>,
    /// Why this document cannot be edited (a tree sent by an attached program).
    read_only: Option<String>,
    /// The game project the document belongs to: its types are offered besides the
    /// document's own, and an unsaved document's paths are relative to its trees folder.
    project: Option<Arc<Project>>,
    /// A variant's base as this session last read or wrote it (canonical text).
    base_saved: Option<String>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Document::default())
    }
}

impl Session {
    /// A session on an unsaved document, with the built-in node types.
    pub fn new(doc: Document) -> Session {
        Session::with_types(doc, NodeTypes::builtin())
    }

    /// A session with the given node types (a host program that knows its own).
    pub fn with_types(doc: Document, types: NodeTypes) -> Session {
        Session {
            doc,
            history: History::builder().limit(HISTORY_LIMIT).build(),
            types,
            manifest_errors: Vec::new(),
            path: None,
            generation: next_generation(),
            disk: None,
            notes: Vec::new(),
            read_only: None,
            project: None,
            base_saved: None,
        }
    }

    /// A new, empty document of `project`, naming its manifests, edited against its types.
    pub fn in_project(project: Arc<Project>, name: &str) -> Session {
        let doc = project.new_document(name);
        let mut session = Session::new(doc);
        session.set_project(Some(project));
        session
    }

    /// Makes the document part of `project` (or of none), and reloads its node types.
    pub fn set_project(&mut self, project: Option<Arc<Project>>) {
        self.project = project;
        self.reload_node_types();
    }

    /// The game project the document belongs to.
    pub fn project(&self) -> Option<&Arc<Project>> {
        self.project.as_ref()
    }

    /// The folder the document's relative paths (manifests, subtrees) start from: its
    /// file's (a variant's base's), else its project's trees folder.
    pub fn folder(&self) -> Option<PathBuf> {
        if let Some(base) = self.base_path() {
            return base.parent().map(Path::to_path_buf);
        }
        match (&self.path, &self.project) {
            (Some(path), _) => path.parent().map(Path::to_path_buf),
            (None, Some(project)) => Some(project.trees_dir()),
            (None, None) => None,
        }
    }

    /// A session that refuses every command, with the reason shown to the user: the tree
    /// of an attached program that is not open in the editor (Save As keeps a copy).
    pub fn read_only(doc: Document, types: NodeTypes, reason: impl Into<String>) -> Session {
        let mut session = Session::with_types(doc, types);
        session.read_only = Some(reason.into());
        session
    }

    /// As [`Session::read_only`], for a tree file written to disk with its subtree files
    /// and manifest beside it (a BT.CPP program's imported tree), so its Subtree nodes
    /// resolve.
    pub fn open_read_only(path: &Path, reason: impl Into<String>) -> Result<Session, OpenError> {
        let mut session = Session::open(path)?;
        session.read_only = Some(reason.into());
        Ok(session)
    }

    /// Why this document cannot be edited, if it cannot.
    pub fn read_only_reason(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// Opens a tree file, with the node types of the manifests it names.
    pub fn open(path: &Path) -> Result<Session, OpenError> {
        // Stamped before reading: if the file changes in between, the stamp is the older
        // state and the change is reported later, rather than missed.
        let disk = DiskStamp::read(path).ok();
        let (doc, notes) = if xml::is_xml(path) {
            xml::open(path)?
        } else {
            (io::load(path)?, Vec::new())
        };
        let mut session = Session::new(doc);
        session.base_saved = session.doc.base_document().map(|b| b.to_json());
        session.path = Some(path.to_owned());
        session.disk = disk;
        session.notes = notes;
        session.reload_node_types();
        // Old names become the current ones at once: the canvas and the palette show only
        // current names, and the next save writes them, so the document differs from disk.
        let renames = session.doc.apply_renames(&session.types);
        if !renames.is_empty() {
            session.notes.extend(
                renames
                    .iter()
                    .map(|r| format!("renamed {} (saving writes the new name)", r)),
            );
            session.history.clear_saved();
        }
        Ok(session)
    }

    /// Replaces this session by the file at `path`; on failure nothing changes (the
    /// current document, its history and its path stay as they were).
    pub fn open_file(&mut self, path: &Path) -> Result<(), OpenError> {
        *self = Session::open(path)?;
        Ok(())
    }

    pub fn document(&self) -> &Document {
        &self.doc
    }

    pub fn types(&self) -> &NodeTypes {
        &self.types
    }

    /// Re-reads the manifests the document names (relative to its file's folder), and adds
    /// the project's types it does not declare itself.
    pub fn reload_node_types(&mut self) {
        let base = self.folder();
        let (mut types, errors) = io::load_node_types(&self.doc, base.as_deref());
        if let Some(project) = &self.project {
            for ty in project.types().nodes().filter(|t| t.host) {
                if types.node(&ty.name).is_none() {
                    types.insert(ty.clone());
                }
            }
            for (name, value) in project.types().script_enums() {
                if !types.script_enums().contains_key(name) {
                    types.script_enum(name, *value);
                }
            }
        }
        self.types = types;
        self.manifest_errors = errors;
        self.generation = next_generation();
    }

    /// Manifests that could not be used at the last (re)load.
    pub fn manifest_errors(&self) -> &[ManifestError] {
        &self.manifest_errors
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Changes whenever the document may have changed; unique among all sessions (see
    /// the module documentation).
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    // ---- Editing ------------------------------------------------------------------------

    /// Checks and applies a command as an undo step (or merges it into the last one).
    /// Returns `Ok(false)` when the command would change nothing; no step is made then.
    pub fn apply(&mut self, cmd: impl Into<Command>) -> Result<bool, CommandError> {
        self.apply_as(cmd.into(), true)
    }

    /// [`Session::apply`]; `arrange`: whether "keep arranged" may add a layout to the step.
    fn apply_as(&mut self, cmd: Command, arrange: bool) -> Result<bool, CommandError> {
        if let Some(why) = &self.read_only {
            return Err(CommandError::Refused(format!("read-only: {why}")));
        }
        cmd.check(&self.doc, &self.types)?;
        if cmd.is_noop(&self.doc) {
            return Ok(false);
        }
        let cmd = if arrange { self.arranged(cmd) } else { cmd };
        self.history.edit(&mut self.doc, cmd);
        self.generation = next_generation();
        Ok(true)
    }

    pub fn undo(&mut self) -> bool {
        let done = self.history.undo(&mut self.doc).is_some();
        if done {
            self.generation = next_generation();
        }
        done
    }

    pub fn redo(&mut self) -> bool {
        let done = self.history.redo(&mut self.doc).is_some();
        if done {
            self.generation = next_generation();
        }
        done
    }

    pub fn can_undo(&self) -> bool {
        self.history.can_undo()
    }

    pub fn can_redo(&self) -> bool {
        self.history.can_redo()
    }

    /// `Undo Connect "Sequence" ➡ "Wait"`, for the menu.
    pub fn undo_text(&self) -> Option<String> {
        self.history.undo_string().map(|s| format!("Undo {s}"))
    }

    /// `Redo Connect "Sequence" ➡ "Wait"`, for the menu.
    pub fn redo_text(&self) -> Option<String> {
        self.history.redo_string().map(|s| format!("Redo {s}"))
    }

    /// Every step, oldest first.
    pub fn steps(&self) -> Vec<Step> {
        self.history
            .entries()
            .enumerate()
            .map(|(i, e)| Step {
                label: e.as_ref().label().to_owned(),
                done: i < self.history.head(),
            })
            .collect()
    }

    /// Undoes or redoes until `done` steps are applied (0 = the state when opened).
    pub fn go_to(&mut self, done: usize) {
        if !self.history.go_to(&mut self.doc, done).is_empty() {
            self.generation = next_generation();
        }
    }

    // ---- Saving -------------------------------------------------------------------------

    /// Whether the document differs from the last saved (or opened) state.
    pub fn is_modified(&self) -> bool {
        !self.history.is_saved()
    }

    /// Records the current state as saved (call after writing it yourself).
    pub fn mark_saved(&mut self) {
        self.history.set_saved();
    }

    /// Saves to the session's path; an unsaved document has none (use `save_as`).
    pub fn save(&mut self) -> Result<(), SaveError> {
        let Some(path) = self.path.clone() else {
            return Err(SaveError {
                path: PathBuf::from(self.doc.name()),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "the document has no file yet",
                ),
            });
        };
        self.save_as(&path)
    }

    /// A variant's base tree file; `None` for a tree file or an unsaved variant.
    pub fn base_path(&self) -> Option<PathBuf> {
        let (v, path) = (self.doc.variant()?, self.path.as_deref()?);
        Some(io::variant_base_path(path, v.base()))
    }

    /// Whether a variant's base differs from its file ("apply to base" changed it): the
    /// next save writes it too.
    pub fn base_modified(&self) -> bool {
        self.doc
            .base_document()
            .is_some_and(|b| Some(b.to_json()) != self.base_saved)
    }

    /// Saves a variant document to `path`: its base first if "apply to base" changed it,
    /// then the variant file; both atomically. Saved into another folder, the variant
    /// names the same base from there.
    fn save_variant(&mut self, path: &Path) -> Result<(), SaveError> {
        let Some(base_path) = self.base_path() else {
            return Err(SaveError {
                path: path.to_owned(),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "a variant opened from no file has no base to save against",
                ),
            });
        };
        let mut notes = Vec::new();
        if self.base_modified() {
            if let Some(base) = self.doc.base_document() {
                io::save(&base, &base_path)?;
                self.base_saved = Some(base.to_json());
                notes.push(format!(
                    "saved the base {} too: values were applied to it",
                    base_path.display()
                ));
            }
        }
        let old_folder = self.path.as_deref().and_then(Path::parent);
        let before = self.doc.variant().map(|v| v.base().to_owned());
        if let Some(to) = path.parent().filter(|to| Some(*to) != old_folder) {
            self.doc.set_variant_base(relative_path(to, &base_path));
        }
        if let Err(e) = io::save(&self.doc, path) {
            if let Some(before) = before {
                self.doc.set_variant_base(before);
            }
            return Err(e);
        }
        self.notes = notes;
        self.path = Some(path.to_owned());
        self.history.set_saved();
        self.disk = DiskStamp::read(path).ok();
        Ok(())
    }

    /// Saves atomically to `path`, which becomes the session's path. Saved into another
    /// folder than its file's (or its project's trees folder), the manifests the document
    /// names are re-based so they name the same files.
    pub fn save_as(&mut self, path: &Path) -> Result<(), SaveError> {
        if self.doc.variant().is_some() {
            return self.save_variant(path);
        }
        // A document with no folder yet (never saved, in no project) keeps its paths: they
        // are read relative to wherever it is saved.
        let (from, to) = (self.folder(), path.parent());
        let moved = from.zip(to).filter(|(from, to)| from.as_path() != *to);
        let rebased = moved.map(|(from, to)| {
            let rebased = self
                .doc
                .manifests()
                .iter()
                .map(|m| relative_path(to, &from.join(m)))
                .collect();
            std::mem::replace(&mut self.doc.editor.manifests, rebased)
        });
        let saved = if xml::is_xml(path) {
            xml::save(&self.doc, path, &self.types)
        } else {
            io::save(&self.doc, path).map(|()| Vec::new())
        };
        self.notes = match saved {
            Ok(notes) => notes,
            Err(e) => {
                // Nothing was written: the document names its manifests as before.
                if let Some(before) = rebased {
                    self.doc.editor.manifests = before;
                }
                return Err(e);
            }
        };
        self.path = Some(path.to_owned());
        self.history.set_saved();
        self.disk = DiskStamp::read(path).ok();
        Ok(())
    }

    /// A document restored from a recovery file: it keeps its file's path (so Save writes
    /// back there) and the stamp of the file as it was when the recovery copy was made,
    /// and it counts as modified, since it differs from what is on disk.
    pub fn recovered(doc: Document, path: Option<PathBuf>, disk: Option<DiskStamp>) -> Session {
        let mut session = Session::new(doc);
        session.path = path;
        session.reload_node_types();
        session.disk = disk;
        session.history.clear_saved();
        session
    }

    /// What the last open or save approximated or left out (BehaviorTree.CPP XML files
    /// only): for the user to read.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The file as this session last read or wrote it (`None` for a new document).
    pub fn disk_stamp(&self) -> Option<DiskStamp> {
        self.disk
    }

    /// The user keeps this version over a file changed by another program: the file's new
    /// state becomes the known one (so saving overwrites it without asking again) and the
    /// document counts as modified, since it no longer matches the file.
    /// `None`: the file is gone (saving recreates it).
    pub fn keep_over_disk(&mut self, disk: Option<DiskStamp>) {
        self.disk = disk;
        self.history.clear_saved();
    }

    /// The file got a new time but holds the same bytes (a `touch`): nothing to ask about.
    pub fn note_touched(&mut self, disk: DiskStamp) {
        self.disk = Some(disk);
    }

    // ---- Queries ------------------------------------------------------------------------

    /// The runtime's checks of the current document.
    pub fn validate(&self) -> Report {
        validate(&self.doc, self.path.as_deref(), &self.types)
    }

    /// See [`Document::can_connect`].
    pub fn can_connect(&self, parent: &str, child: &str) -> Result<(), String> {
        self.doc.can_connect(&self.types, parent, child)
    }

    /// See [`Document::key_usages`].
    pub fn key_usages(&self, name: &str) -> Vec<KeyUsage> {
        self.doc.key_usages(&self.types, name)
    }

    // ---- Shortcuts for the common gestures -----------------------------------------------

    /// Adds a node of type `kind`; returns its GUID.
    pub fn add_node(&mut self, kind: &str, pos: Pos) -> Result<String, CommandError> {
        let cmd = AddNode::new(&self.types, kind, pos)?;
        let guid = cmd.guid().to_owned();
        self.apply(cmd)?;
        Ok(guid)
    }

    /// Adds a node of type `kind` connected as `link` says, at `at` or beside its relative,
    /// on free canvas, as one undo step; returns its GUID.
    pub fn add_linked(
        &mut self,
        kind: &str,
        link: &Link,
        at: Option<Pos>,
    ) -> Result<String, CommandError> {
        let (batch, guid) = add_linked(
            &self.doc,
            &self.types,
            &LayoutOptions::cards(&self.doc),
            kind,
            link,
            at,
        )?;
        self.apply(batch)?;
        Ok(guid)
    }

    pub fn connect(&mut self, parent: &str, child: &str) -> Result<(), CommandError> {
        let cmd = Connect::new(&self.doc, &self.types, parent, child)?;
        self.apply(cmd).map(|_| ())
    }

    pub fn delete(&mut self, selection: &Selection) -> Result<(), CommandError> {
        self.apply(RemoveItems::new(&self.doc, selection))
            .map(|_| ())
    }

    /// The clipboard text for the selection.
    pub fn copy(&self, selection: &Selection) -> String {
        Fragment::copy(&self.doc, selection, &self.types).to_json()
    }

    /// Copies, then deletes the selection as one "Cut" step.
    pub fn cut(&mut self, selection: &Selection) -> Result<String, CommandError> {
        let text = self.copy(selection);
        self.apply(RemoveItems::new(&self.doc, selection).with_label("Cut"))?;
        Ok(text)
    }

    /// Pastes clipboard text with its top-left corner at `at`, or at the nearest spot
    /// where it covers no existing node or note; returns the new items.
    pub fn paste(&mut self, text: &str, at: Pos) -> Result<Selection, PasteError> {
        let cmd = Paste::new(&Fragment::from_json(text)?, at)?.clear_of(
            &self.doc,
            &LayoutOptions::cards(&self.doc),
            &Default::default(),
        )?;
        let pasted = cmd.selection();
        self.apply(cmd)?;
        Ok(pasted)
    }

    /// Duplicates the selection, offset by `offset`, or at the nearest spot from there
    /// where it covers no existing node or note; returns the new items.
    pub fn duplicate(
        &mut self,
        selection: &Selection,
        offset: Pos,
    ) -> Result<Selection, CommandError> {
        let cmd = Paste::duplicate(&self.doc, selection, &self.types, offset)?.clear_of(
            &self.doc,
            &LayoutOptions::cards(&self.doc),
            &Default::default(),
        )?;
        let copies = cmd.selection();
        self.apply(cmd)?;
        Ok(copies)
    }

    /// Writes the branch under `top` to a new tree file at `path` (inside this tree's
    /// folder) and replaces it here by a `Subtree` node referring to it, as one step.
    /// The file is written first: if that fails, the document is untouched.
    pub fn export_subtree(&mut self, top: &str, path: &Path) -> Result<(), SubtreeError> {
        let folder = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .ok_or(SubtreeError::Unsaved)?;
        let rel = path
            .strip_prefix(folder)
            .map_err(|_| SubtreeError::OutsideFolder {
                path: path.to_owned(),
                folder: folder.to_owned(),
            })?;
        let depth = rel.components().count().saturating_sub(1);
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let name = path.file_stem().map_or_else(
            || "subtree".to_owned(),
            |s| s.to_string_lossy().into_owned(),
        );
        let Some(mut sub) = extract_subtree(&self.doc, top, &self.types, &name) else {
            return Err(CommandError::UnknownNode(top.to_owned()).into());
        };
        // Manifest paths are relative to the tree file: re-base them for the new file.
        sub.editor.manifests = self
            .doc
            .manifests()
            .iter()
            .map(|m| format!("{}{m}", "../".repeat(depth)))
            .collect();
        let step = Command::from(replace_with_subtree(
            &self.doc,
            &self.types,
            top,
            &rel.join("/"),
        )?);
        step.check(&self.doc, &self.types)?;
        io::save(&sub, path)?;
        self.apply(step)?;
        Ok(())
    }

    /// Replaces the `Subtree` node `node` by a copy of the tree its file holds, as one
    /// step; returns the copied nodes.
    pub fn inline_subtree(&mut self, node: &str) -> Result<Selection, SubtreeError> {
        if let Some(n) = self.doc.node(node).filter(|n| n.kind != "Subtree") {
            return Err(SubtreeError::NotSubtree(self.doc.label(&n.guid)));
        }
        let rel = self
            .doc
            .node(node)
            .and_then(|n| n.params.get("path"))
            .and_then(|p| p.as_str())
            .ok_or(SubtreeError::NoPath)?;
        let folder = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .ok_or(SubtreeError::Unsaved)?;
        let file = io::load(&folder.join(rel))?;
        let (batch, copied) = inline_subtree(
            &self.doc,
            &self.types,
            node,
            &file,
            &LayoutOptions::cards(&self.doc),
        )?;
        self.apply(batch)?;
        Ok(copied)
    }

    /// Tidy layout of the whole document, as one step.
    pub fn auto_layout(&mut self, options: &LayoutOptions) -> Result<bool, CommandError> {
        let cmd = AutoLayout::new(&self.doc, options);
        self.apply(cmd)
    }

    /// Changes the file's layout settings, as one step. A new direction, or turning
    /// "keep arranged" on, lays the tree out again in the same step (with `options`' card
    /// sizes), so siblings keep their order along the new sibling axis.
    pub fn set_layout(
        &mut self,
        settings: LayoutSettings,
        options: &LayoutOptions,
    ) -> Result<bool, CommandError> {
        let old = self.doc.editor.layout;
        let set = SetLayout::new(settings);
        let relayout =
            settings.direction != old.direction || (settings.keep_arranged && !old.keep_arranged);
        if !relayout {
            return self.apply(set);
        }
        let mut scratch = self.doc.clone();
        let mut first: Command = set.into();
        let label = first.label().to_owned();
        undo::Edit::edit(&mut first, &mut scratch);
        let layout = AutoLayout::new(&scratch, options);
        let batch = Batch::new(label, vec![first, layout.into()]);
        // The batch already lays out: "keep arranged" adds nothing to it.
        self.apply_as(batch.into(), false)
    }

    /// With "keep arranged" on, a structural command (add, connect, disconnect, remove,
    /// paste, a batch of them) becomes one step with the layout that follows it.
    fn arranged(&self, cmd: Command) -> Command {
        if !self.doc.editor.layout.keep_arranged || !cmd.is_structural() {
            return cmd;
        }
        let mut scratch = self.doc.clone();
        let mut applied = cmd.clone();
        undo::Edit::edit(&mut applied, &mut scratch);
        let layout = Command::from(AutoLayout::new(&scratch, &LayoutOptions::cards(&scratch)));
        if layout.is_noop(&scratch) {
            return cmd;
        }
        let label = cmd.label().to_owned();
        Command::Batch(Batch::new(label, vec![cmd, layout]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::{MoveItems, SetParam, SetText, TextField};
    use crate::document::{sample, Owner};
    use serde_json::json;

    #[test]
    fn no_two_sessions_share_a_generation() {
        // A cache keyed on the generation (the canvas scene, the problems list) must see
        // a new document as new, even one that has had as many edits as the last.
        let a = Session::new(Document::new("a"));
        let mut b = Session::new(Document::new("b"));
        assert_ne!(a.generation(), b.generation());
        let before = b.generation();
        b.add_node("Sequence", [0.0, 0.0]).unwrap();
        let c = Session::new(Document::new("c"));
        assert!(![a.generation(), before].contains(&b.generation()));
        assert!(![a.generation(), b.generation()].contains(&c.generation()));
    }

    #[test]
    fn apply_undo_redo_with_texts_and_steps() {
        let mut s = Session::new(Document::new("t"));
        assert!(!s.can_undo() && !s.is_modified());
        let seq = s.add_node("Sequence", [0.0, 0.0]).unwrap();
        let wait = s.add_node("Wait", [0.0, 100.0]).unwrap();
        s.connect(&seq, &wait).unwrap();
        assert_eq!(
            s.undo_text().unwrap(),
            "Undo Connect \"Sequence\" ➡ \"Wait\""
        );
        assert!(s.is_modified());
        let g = s.generation();
        assert!(s.undo());
        assert_ne!(s.generation(), g);
        assert_eq!(
            s.redo_text().unwrap(),
            "Redo Connect \"Sequence\" ➡ \"Wait\""
        );
        assert!(s.document().children(&seq).is_empty());
        assert!(s.redo());
        assert!(!s.redo());
        let labels: Vec<String> = s.steps().into_iter().map(|st| st.label).collect();
        assert_eq!(
            labels,
            [
                "Add \"Sequence\"",
                "Add \"Wait\"",
                "Connect \"Sequence\" ➡ \"Wait\""
            ]
        );
        s.go_to(1);
        assert_eq!(s.document().node_count(), 1);
        assert_eq!(s.steps().iter().filter(|st| st.done).count(), 1);
    }

    #[test]
    fn invalid_commands_never_enter_the_history() {
        let mut s = Session::new(Document::new("t"));
        let wait = s.add_node("Wait", [0.0, 0.0]).unwrap();
        let log = s.add_node("Log", [0.0, 0.0]).unwrap();
        let err = s.connect(&wait, &log).unwrap_err();
        assert!(err.to_string().contains("cannot have children"), "{err}");
        assert_eq!(s.history().len(), 2);
        assert!(s.can_connect(&wait, &log).is_err());
    }

    /// A file written before a node type or parameter was renamed opens with the current
    /// names (the manifest declares the old ones as aliases), says what it renamed, and
    /// counts as modified, since saving writes the new names.
    #[test]
    fn a_file_with_old_names_opens_with_the_current_ones() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = json!({"format": "arbor-node-types", "version": 1, "nodes": [
            {"name": "Stride", "category": "Action", "description": "Walks.", "host": true,
             "aliases": ["Walk"],
             "params": [{"name": "pace", "type": "float", "description": "Steps per tick.",
                         "aliases": ["speed"]}]}]});
        std::fs::write(dir.path().join("types.json"), manifest.to_string()).unwrap();
        let walk = "00000000-0000-4000-8000-000000000001";
        let tree = json!({"format": "arbor-tree", "version": 3,
            "guid": "00000000-0000-4000-8000-000000000000", "name": "t", "root": walk,
            "nodes": [{"guid": walk, "type": "Walk", "params": {"speed": 2.0}}],
            "editor": {"manifests": ["types.json"]}});
        let path = dir.path().join("t.json");
        std::fs::write(&path, tree.to_string()).unwrap();

        let s = Session::open(&path).unwrap();
        assert!(s.manifest_errors().is_empty());
        let node = s.document().node(walk).unwrap();
        assert_eq!(node.kind, "Stride");
        assert_eq!(node.params.get("pace"), Some(&json!(2.0)));
        assert!(!node.params.contains_key("speed"));
        assert!(s.is_modified(), "saving would change the file");
        assert_eq!(s.notes().len(), 2, "{:?}", s.notes());
        assert!(
            s.notes()[0].contains("`Walk` -> `Stride`"),
            "{:?}",
            s.notes()
        );
        assert!(
            s.notes()[1].contains("`speed` -> `pace`"),
            "{:?}",
            s.notes()
        );
    }

    #[test]
    fn modified_follows_the_saved_marker() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        let mut s = Session::new(Document::new("t"));
        let a = s.add_node("Sequence", [0.0, 0.0]).unwrap();
        s.save_as(&path).unwrap();
        assert!(!s.is_modified());
        s.apply(MoveItems::by(s.document(), &Selection::of_nodes([&a]), [5.0, 0.0]).unwrap())
            .unwrap();
        assert!(s.is_modified());
        s.undo();
        assert!(!s.is_modified(), "back at the saved state");
        s.undo();
        assert!(s.is_modified());
        s.redo();
        s.mark_saved();
        assert!(!s.is_modified());
    }

    #[test]
    fn drags_and_keystrokes_become_single_steps() {
        let (doc, [_, b, ..]) = sample();
        let mut s = Session::new(doc);
        let sel = Selection::of_nodes([&b]);
        for _ in 0..10 {
            let cmd = MoveItems::by(s.document(), &sel, [1.0, 1.0])
                .unwrap()
                .gesture(1);
            s.apply(cmd).unwrap();
        }
        for text in ["a", "ab", "abc"] {
            let cmd = SetText::new(s.document(), TextField::NodeName(b.clone()), text).unwrap();
            s.apply(cmd.gesture(2)).unwrap();
        }
        for n in 1..4 {
            let cmd = SetParam::new(
                s.document(),
                Owner::Node(b.clone()),
                "seconds",
                Some(json!(n)),
            )
            .unwrap();
            s.apply(cmd.gesture(3)).unwrap();
        }
        assert_eq!(s.history().len(), 3);
        s.undo();
        s.undo();
        assert_eq!(s.document().node(&b).unwrap().name, "Wait");
        assert_eq!(s.document().position(&b), Some([110.0, 60.0]));
        // A no-op makes no step.
        assert!(!s
            .apply(MoveItems::by(s.document(), &sel, [0.0, 0.0]).unwrap())
            .unwrap());
    }

    #[test]
    fn cut_paste_duplicate() {
        let (doc, [a, b, c, d, _]) = sample();
        let mut s = Session::new(doc);
        let text = s.cut(&Selection::of_nodes([&c, &d])).unwrap();
        assert_eq!(s.undo_text().unwrap(), "Undo Cut");
        assert_eq!(s.document().children(&a), std::slice::from_ref(&b));
        let pasted = s.paste(&text, [0.0, 0.0]).unwrap();
        assert_eq!(pasted.nodes.len(), 2);
        assert!(!pasted.nodes.contains(&c));
        let copies = s.duplicate(&pasted, [10.0, 10.0]).unwrap();
        assert_eq!(copies.nodes.len(), 2);
        assert_eq!(s.document().node_count(), 7);
        assert!(s.paste("not json", [0.0, 0.0]).is_err());
        assert_eq!(s.history().len(), 3);
    }

    #[test]
    fn a_failed_open_leaves_the_session_intact() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{ nope").unwrap();
        let (doc, _) = sample();
        let mut s = Session::new(doc.clone());
        s.add_node("Wait", [0.0, 0.0]).unwrap();
        let before = s.document().clone();
        let err = s.open_file(&bad).unwrap_err();
        assert!(err.to_string().contains("bad.json:1:3"), "{err}");
        assert_eq!(*s.document(), before);
        assert!(s.can_undo());

        let good = dir.path().join("good.json");
        io::save(&doc, &good).unwrap();
        s.open_file(&good).unwrap();
        assert_eq!(s.document().to_json(), doc.to_json());
        assert!(!s.can_undo() && !s.is_modified());
        assert_eq!(s.path(), Some(good.as_path()));
    }

    #[test]
    fn export_and_inline_subtrees_through_files() {
        let dir = tempfile::tempdir().unwrap();
        let (mut doc, [a, b, c, ..]) = sample();
        doc.editor.manifests = vec!["types.json".into()];
        let mut s = Session::new(doc);
        let err = s
            .export_subtree(&c, &dir.path().join("x.json"))
            .unwrap_err();
        assert!(matches!(err, SubtreeError::Unsaved));
        s.save_as(&dir.path().join("tree.json")).unwrap();
        let outside = s
            .export_subtree(&c, Path::new("/elsewhere/x.json"))
            .unwrap_err();
        assert!(matches!(outside, SubtreeError::OutsideFolder { .. }));
        let before = s.document().clone();

        std::fs::create_dir(dir.path().join("parts")).unwrap();
        let sub_path = dir.path().join("parts").join("branch.json");
        s.export_subtree(&c, &sub_path).unwrap();
        let sub = io::load(&sub_path).unwrap();
        assert_eq!(sub.node_count(), 2);
        assert_eq!(sub.manifests(), ["../types.json"]);
        let node = s.document().children(&a)[1].clone();
        assert_eq!(
            s.document().node(&node).unwrap().params["path"],
            json!("parts/branch.json")
        );
        assert_eq!(
            s.undo_text().unwrap(),
            "Undo Export \"Inverter\" as a subtree"
        );

        let not_subtree = s.inline_subtree(&b).unwrap_err();
        assert!(matches!(not_subtree, SubtreeError::NotSubtree(_)));
        assert!(not_subtree.to_string().contains("is not a Subtree node"));
        let copied = s.inline_subtree(&node).unwrap();
        assert_eq!(copied.nodes.len(), 2);
        assert_eq!(s.document().children(&a)[0], b);
        assert!(copied.nodes.contains(&s.document().children(&a)[1]));
        s.undo();
        s.undo();
        assert_eq!(*s.document(), before);
        assert!(!s.is_modified());
    }

    #[test]
    fn validate_and_key_usages_use_the_session_types() {
        let (doc, ..) = sample();
        let s = Session::new(doc);
        assert!(!s.validate().is_ok());
        assert!(s.key_usages("nothing").is_empty());
        let mut fresh = Session::default();
        assert!(fresh.save().is_err());
        assert!(!fresh.auto_layout(&LayoutOptions::default()).unwrap());
    }

    #[test]
    fn a_new_project_document_offers_the_games_types_and_saves_their_manifests() {
        let dir = tempfile::tempdir().unwrap();
        crate::project::write_game_folder(dir.path()).unwrap();
        let project = Arc::new(Project::open(dir.path()).unwrap());
        let mut s = Session::in_project(project.clone(), "sentry");
        assert!(
            s.types().node("Shoot").is_some(),
            "the game's type, not only built-ins"
        );
        assert_eq!(s.folder(), Some(project.trees_dir()));
        s.add_node("Shoot", [0.0, 0.0]).unwrap();

        // Saved where new trees go: the file names the manifest from there, and opens
        // with the game's types without the project.
        let trees = dir.path().join("trees");
        s.save_as(&trees.join("sentry.json")).unwrap();
        let opened = Session::open(&trees.join("sentry.json")).unwrap();
        assert_eq!(opened.document().manifests(), ["../manifests/game.json"]);
        assert!(opened.types().node("Shoot").is_some());
        assert!(opened.manifest_errors().is_empty());

        // Saved elsewhere, it still names the same file.
        let deeper = dir.path().join("ai/guards");
        std::fs::create_dir_all(&deeper).unwrap();
        s.save_as(&deeper.join("copy.json")).unwrap();
        assert_eq!(s.document().manifests(), ["../../manifests/game.json"]);
        let copy = Session::open(&deeper.join("copy.json")).unwrap();
        assert!(copy.types().node("Shoot").is_some());

        // A failed save leaves the list as it was.
        let before = s.document().manifests().to_vec();
        assert!(s.save_as(&dir.path().join("missing/x.json")).is_err());
        assert_eq!(s.document().manifests(), before);
    }

    #[test]
    fn a_variant_saves_its_own_file_and_its_base_only_after_apply_to_base() {
        use crate::commands::{ApplyToBase, SetParam};
        use crate::document::{variant_sample, Field, Owner};
        use serde_json::json;

        let dir = tempfile::tempdir().unwrap();
        let (doc, base, [_, b, ..], _) = variant_sample();
        let (base_path, path) = (dir.path().join("base.json"), dir.path().join("fast.json"));
        io::save(&base, &base_path).unwrap();
        io::save(&doc, &path).unwrap();
        let base_text = std::fs::read_to_string(&base_path).unwrap();
        // Opened, the nodes come in the file's (canonical) order.
        let same = |a: &Document, b: &Document| {
            (a.to_json(), a.to_variant_json()) == (b.to_json(), b.to_variant_json())
        };
        let mut s = Session::open(&path).unwrap();
        assert!(same(s.document(), &doc));
        assert_eq!(s.base_path(), Some(base_path.clone()));
        assert!(!s.base_modified());
        // An edit is the variant's: saving writes the variant file, the base stays as it was.
        let owner = Owner::Node(b.clone());
        s.apply(SetParam::new(s.document(), owner.clone(), "seconds", Some(json!(4.0))).unwrap())
            .unwrap();
        s.save().unwrap();
        assert!(s.notes().is_empty());
        assert_eq!(std::fs::read_to_string(&base_path).unwrap(), base_text);
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(
            saved.contains("arbor-tree-variant") && saved.contains("4.0"),
            "{saved}"
        );
        assert_eq!(*Session::open(&path).unwrap().document(), *s.document());
        // Apply to base: the base counts as changed, and the next save writes it too, saying so.
        let field = Field::Param {
            owner,
            name: "seconds".into(),
        };
        s.apply(ApplyToBase::new(s.document(), field.clone()).unwrap())
            .unwrap();
        assert!(s.base_modified() && s.is_modified());
        s.undo();
        assert!(
            !s.base_modified(),
            "undo takes the value out of the base again"
        );
        s.redo();
        s.save().unwrap();
        assert!(!s.base_modified());
        assert!(s.notes()[0].contains("base.json"), "{:?}", s.notes());
        let new_base = io::load(&base_path).unwrap();
        assert_eq!(new_base.field_value(&field), Some(json!(4.0)));
        let reopened = Session::open(&path).unwrap();
        assert!(!reopened.document().variant().unwrap().is_overridden(&field));
        assert_eq!(*reopened.document(), *s.document());
    }

    /// No two cards overlap, and every parent lies before its children along the depth.
    fn assert_tidy(doc: &Document) {
        let options = LayoutOptions::cards(doc);
        let depth = doc.editor.layout.direction.depth_axis();
        let boxes: Vec<(String, crate::document::Bounds)> = doc
            .nodes()
            .map(|n| {
                let p = doc.position(&n.guid).expect("placed");
                (
                    n.guid.clone(),
                    crate::document::node_box(&options, &n.guid, p),
                )
            })
            .collect();
        for (i, (g, a)) in boxes.iter().enumerate() {
            for (h, b) in &boxes[i + 1..] {
                assert!(!a.overlaps(b), "{g} overlaps {h}");
            }
            for c in doc.children(g) {
                let child = boxes.iter().find(|(x, _)| x == c).expect("child").1;
                assert!(a.max[depth] < child.min[depth], "{g} is not before {c}");
            }
        }
    }

    #[test]
    fn kept_arranged_a_tree_built_from_scratch_stays_tidy_one_step_per_edit() {
        for direction in [
            arbor_runtime::format::layout::LayoutDirection::LeftToRight,
            arbor_runtime::format::layout::LayoutDirection::TopDown,
        ] {
            let mut s = Session::new(Document::new("guard"));
            let root = s.add_node("Sequence", [0.0, 0.0]).unwrap();
            let settings = LayoutSettings {
                direction,
                keep_arranged: true,
            };
            let options = LayoutOptions::cards(s.document());
            assert!(s.set_layout(settings, &options).unwrap());
            let set_root = crate::commands::SetRoot::new(s.document(), Some(&root)).unwrap();
            s.apply(set_root).unwrap();
            let fallback = s
                .add_linked("Selector", &Link::ChildOf(root.clone()), None)
                .unwrap();
            for kind in ["Wait", "Log"] {
                s.add_linked(kind, &Link::ChildOf(fallback.clone()), None)
                    .unwrap();
            }
            let patrol = s
                .add_linked("Sequence", &Link::SiblingAfter(fallback.clone()), None)
                .unwrap();
            for kind in ["Wait", "Log"] {
                let before = s.document().clone();
                let steps = s.history().len();
                s.add_linked(kind, &Link::ChildOf(patrol.clone()), Some([5000.0, -900.0]))
                    .unwrap();
                assert_eq!(s.history().len(), steps + 1, "one step with its layout");
                assert_tidy(s.document());
                s.undo();
                assert_eq!(*s.document(), before, "undo restores every position");
                s.redo();
            }
            assert_eq!(s.document().node_count(), 7);
            assert_tidy(s.document());
            // The layout the step made is the one a fresh layout gives.
            let fresh = AutoLayout::new(s.document(), &LayoutOptions::cards(s.document()));
            assert!(Command::from(fresh).is_noop(s.document()));
        }
    }

    #[test]
    fn changing_the_direction_lays_out_in_the_same_step_and_undo_restores() {
        let (doc, [a, b, c, ..]) = sample();
        let mut s = Session::new(doc);
        let before = s.document().clone();
        let settings = LayoutSettings {
            direction: arbor_runtime::format::layout::LayoutDirection::TopDown,
            keep_arranged: false,
        };
        let options = LayoutOptions::cards(s.document());
        assert!(s.set_layout(settings, &options).unwrap());
        assert_eq!(s.history().len(), 1);
        let doc = s.document();
        assert_eq!(doc.children(&a), [b.clone(), c.clone()], "order kept");
        assert!(doc.position(&b).unwrap()[0] < doc.position(&c).unwrap()[0]);
        assert!(doc.position(&b).unwrap()[1] > doc.position(&a).unwrap()[1]);
        assert_eq!(s.undo_text().unwrap(), "Undo Layout top down");
        s.undo();
        assert_eq!(*s.document(), before);
        // Keep arranged off again: nothing to lay out, the setting alone changes.
        assert!(!s
            .set_layout(LayoutSettings::default(), &LayoutOptions::default())
            .unwrap());
    }
}
