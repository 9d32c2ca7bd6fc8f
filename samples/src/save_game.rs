//! Save games: a sample saved mid-game and loaded later, in this process or another, going
//! on with the same future (docs/embedding.md, "Save games").
//!
//! A save game is an agent snapshot (`Agent::snapshot`, docs/format.md's snapshot file)
//! whose `program` member holds what the runtime does not know: which sample it is, its
//! seed, and the sample's world, serialized by the world itself ([`World::save`]). One
//! file, read through the snapshot's bounded reader and checks (`Snapshot::read`), written
//! atomically.
//!
//! Loading puts back the world first and then restores the agent into the loaded tree
//! (`Agent::restore`), so a host node the restore has to restart aborts against the saved
//! world; on any error nothing changes.
//!
//! [`World::save`]: crate::World::save

use std::path::{Path, PathBuf};

use arbor_runtime::{Snapshot, SnapshotError};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::simulation::RewindError;

/// What a sample keeps in its save game's `program`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SavedSample {
    /// The sample's name (`villager`).
    pub sample: String,
    /// The seed the sample was started with (a reset starts from it again).
    pub seed: u64,
    /// The world, as the sample's `World::save` wrote it.
    pub world: Value,
}

/// Why a game could not be saved or loaded; when loading, nothing was changed.
#[derive(Debug, thiserror::Error)]
pub enum SaveGameError {
    #[error("the {0} sample cannot save its world")]
    Unsupported(&'static str),
    #[error("no tree is loaded")]
    NoTree,
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error("not a save game of an Arbor sample (its `program` member): {0}")]
    NotASave(String),
    #[error("a save game of the {found} sample, not of the {expected} sample")]
    OtherSample {
        found: String,
        expected: &'static str,
    },
    #[error("the saved world: {0}")]
    World(String),
    #[error(transparent)]
    Agent(#[from] RewindError),
    #[error("{}: cannot write the save game: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Reads a save game file (a snapshot, through the bounded reader).
pub fn read(path: &Path) -> Result<Snapshot, SaveGameError> {
    Ok(Snapshot::read(path)?)
}

/// Writes a save game atomically (a temporary file, then a rename).
pub fn write(save: &Snapshot, path: &Path) -> Result<(), SaveGameError> {
    arbor_runtime::files::write_atomic(path, save.to_json().as_bytes()).map_err(|source| {
        SaveGameError::Write {
            path: path.to_owned(),
            source,
        }
    })
}

/// The sample's part of a save game, checked to be of sample `expected`.
pub(crate) fn saved_sample(
    save: &Snapshot,
    expected: &'static str,
) -> Result<SavedSample, SaveGameError> {
    let saved = SavedSample::deserialize(&save.program)
        .map_err(|e| SaveGameError::NotASave(e.to_string()))?;
    if saved.sample != expected {
        return Err(SaveGameError::OtherSample {
            found: saved.sample,
            expected,
        });
    }
    Ok(saved)
}

/// `agent` with the sample's part put in its `program`.
pub(crate) fn with_sample(mut agent: Snapshot, saved: SavedSample) -> Snapshot {
    // A struct of a string, a number and a JSON value always serializes.
    agent.program = serde_json::to_value(saved).unwrap_or(Value::Null);
    agent
}
