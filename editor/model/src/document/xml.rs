//! BehaviorTree.CPP / Groot2 XML files in the editor: Open imports them, Save writes them
//! back, through the runtime's `btcpp` module (one mapping, shared with `arbor import` and
//! `arbor export`).
//!
//! An XML file holds several trees and the models of custom nodes; an Arbor document holds
//! one tree. So opening `robot.xml` shows its main tree, and writes what the other trees and
//! the custom node types become beside it, as `arbor import` names them:
//! `robot.<ID>.json` for each other tree (the Subtree nodes refer to them, so the preview
//! runs them and Open Subtree edits them) and `robot.types.json` for the custom node types
//! (so the palette and inspector know their ports). Saving `robot.xml` exports the main
//! tree from memory and those files from disk, so edits to either reach the XML.
//!
//! The XML is the truth when it is opened, and those companion files are regenerated from
//! it, except one changed after the XML was last written: that holds edits made in Arbor
//! and not yet saved into the XML, so it is kept and the user is told.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use arbor_runtime::btcpp;
use arbor_runtime::NodeTypes;

use super::io::{write_atomic, OpenError, SaveError};
use super::model::Document;

/// Does `path` name a BehaviorTree.CPP file (by its extension)?
pub fn is_xml(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml"))
}

/// What opening or saving an XML file approximated or left out, for the user to read.
pub type Notes = Vec<String>;

/// Imports the XML file at `path`: its main tree as a document, its other trees and custom
/// node types written beside it.
pub fn open(path: &Path) -> Result<(Document, Notes), OpenError> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "tree".to_owned());
    let imported = btcpp::import_file(path, &stem)?;
    let mut notes: Notes = imported.warnings.iter().map(|w| w.to_string()).collect();
    let dir = folder(path);
    let xml_written = modified(path);
    let mut companions: Vec<(String, String)> = imported.files[1..]
        .iter()
        .map(|f| (f.file_name.clone(), f.tree.to_json_pretty()))
        .collect();
    if !imported.types.is_empty() {
        companions.push((imported.manifest_name.clone(), imported.manifest()));
    }
    for (name, text) in companions {
        let target = dir.join(&name);
        match super::io::read_text(&target) {
            Ok(old) if old == text => continue,
            Ok(_) if newer(modified(&target), xml_written) => {
                notes.push(format!(
                    "kept {name}: it was changed after {} was last written; Save puts its \
                     changes into the XML",
                    display_name(path)
                ));
                continue;
            }
            _ => {}
        }
        write_atomic(&target, text.as_bytes()).map_err(|source| OpenError::Companion {
            path: target.clone(),
            source,
        })?;
    }
    let main = imported.main().clone();
    let doc = Document::from_tree_file(main, Some(path))?;
    Ok((doc, notes))
}

/// Exports `doc` (with the subtree files it refers to, read from disk next to `path`) as a
/// BehaviorTree.CPP v4 document and writes it atomically. Nothing is written if the tree
/// uses a node BT.CPP has no form for; the error lists each one.
pub fn save(doc: &Document, path: &Path, types: &NodeTypes) -> Result<Notes, SaveError> {
    let failed = |source| SaveError {
        path: path.to_owned(),
        source,
    };
    let mut load = |p: &Path| {
        let text =
            super::io::read_text(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
        arbor_runtime::parse_str(&text, Some(p)).map_err(|e| e.to_string())
    };
    let exported = btcpp::export(&doc.to_tree_file(), Some(path), types, &mut load)
        .map_err(|e| failed(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
    write_atomic(path, exported.xml.as_bytes()).map_err(failed)?;
    let mut notes = exported.warnings;
    notes.extend(left_out(doc));
    Ok(notes)
}

/// What a document holds that BT.CPP XML has no place for.
fn left_out(doc: &Document) -> Notes {
    let mut notes = Notes::new();
    let unconnected = doc.unconnected_tops().len();
    if unconnected > 0 {
        notes.push(format!(
            "{} not part of the XML: only what the root reaches runs in BT.CPP",
            crate::words::count_as(
                unconnected,
                "unconnected branch is",
                "unconnected branches are"
            )
        ));
    }
    let (n, g) = (doc.notes().len(), doc.groups().len());
    if n + g > 0 {
        notes.push(format!(
            "{} and {} are not part of the XML; save a copy as .json to keep them",
            crate::words::count(n, "note"),
            crate::words::count(g, "group")
        ));
    }
    notes
}

fn folder(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn newer(a: Option<SystemTime>, b: Option<SystemTime>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if a > b)
}
