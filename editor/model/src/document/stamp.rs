//! DiskStamp: what a tree file looked like on disk when the editor last read or wrote it,
//! so a change made by another program can be noticed (and a save that would overwrite
//! it can ask first).
//!
//! The cheap part (modification time and length, one `metadata` call) is compared first;
//! only when it differs is the file read and its content hash compared, so a `touch` or a
//! program that rewrites the same bytes is not reported as a change.
//!
//! The hash is FNV-1a (64 bits), written out here because it must stay the same across
//! Rust releases: stamps are kept in recovery files, which outlive the process
//! (`std`'s `DefaultHasher` makes no such promise).
//!
//! Limitations: a change made in the same instant as one of our own saves, between the
//! rename and the stamp being read back, is taken as ours.

use std::path::Path;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

/// Modification time, length and content hash of a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)] // if we add new fields, give them default values when reading old ones
pub struct DiskStamp {
    /// Nanoseconds since the Unix epoch; 0 when the platform gives no time.
    pub modified_ns: u128,
    pub len: u64,
    /// FNV-1a of the bytes.
    pub hash: u64,
}

/// How the file on disk compares with a stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskChange {
    /// Same bytes (possibly a new modification time: see [`DiskChange::Touched`]).
    Unchanged,
    /// New modification time or length but the same bytes; carries the fresh stamp.
    Touched(DiskStamp),
    /// Different bytes; carries the fresh stamp.
    Changed(DiskStamp),
    /// The file is gone or cannot be read.
    Missing,
}

impl DiskStamp {
    /// Reads the file and stamps it.
    pub fn read(path: &Path) -> std::io::Result<DiskStamp> {
        let text = super::io::read_text(path)?;
        let meta = std::fs::metadata(path)?;
        Ok(DiskStamp {
            modified_ns: modified_ns(&meta),
            len: meta.len(),
            hash: fnv1a(text.as_bytes()),
        })
    }

    /// Compares the file at `path` with this stamp: a metadata call, and a read only when
    /// the metadata differ.
    pub fn compare(&self, path: &Path) -> DiskChange {
        let Ok(meta) = std::fs::metadata(path) else {
            return DiskChange::Missing;
        };
        if modified_ns(&meta) == self.modified_ns && meta.len() == self.len {
            return DiskChange::Unchanged;
        }
        match DiskStamp::read(path) {
            Ok(now) if now.hash == self.hash && now.len == self.len => DiskChange::Touched(now),
            Ok(now) => DiskChange::Changed(now),
            Err(_) => DiskChange::Missing,
        }
    }
}

fn modified_ns(meta: &std::fs::Metadata) -> u128 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos())
}

/// FNV-1a, 64 bits: stable across releases (see the module documentation).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_changes_but_not_touches() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.json");
        std::fs::write(&path, "one").unwrap();
        let stamp = DiskStamp::read(&path).unwrap();
        assert_eq!(stamp.compare(&path), DiskChange::Unchanged);

        // Same bytes, new time: a touch.
        std::fs::write(&path, "one").unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(UNIX_EPOCH + std::time::Duration::from_secs(1_000))
            .unwrap();
        assert!(matches!(stamp.compare(&path), DiskChange::Touched(_)));

        std::fs::write(&path, "two").unwrap();
        let DiskChange::Changed(now) = stamp.compare(&path) else {
            panic!("a change was expected")
        };
        assert_ne!(now.hash, stamp.hash);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(stamp.compare(&path), DiskChange::Missing);
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        // Test vectors from the FNV reference (draft-eastlake-fnv).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
