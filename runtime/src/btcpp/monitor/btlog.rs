//! [`BtLog`]: a log written by BT.CPP 4's `FileLogger2` (in Python `FileLogger`), the
//! `.btlog` files Groot2 replays.
//!
//! The layout (all integers little-endian, as the logger copies them from memory):
//! ```text
//! "BTCPP4-FileLogger2"   18 bytes, the magic
//! protocol               1 byte, 1
//! xml_len                i32
//! xml                    xml_len bytes: the tree as WriteTreeToXML writes it (with _uid)
//! start                  i64: wall-clock microseconds since the Unix epoch
//! transitions            9 bytes each, to the end of the file:
//!   time                 6 bytes (u48): microseconds since `start`
//!   uid                  u16: the node
//!   status               u8: 0 idle, 1 running, 2 success, 3 failure, 4 skipped
//! ```
//! The file is read whole (at most [`MAX_BTLOG_BYTES`]); every length is checked against
//! the bytes actually there before anything is allocated for it, and errors name the
//! byte offset. A last transition cut short (a program killed while writing) is dropped
//! and counted in [`BtLog::truncated`], not refused: the rest is still worth replaying.

use std::fmt;
use std::io::Read as _;
use std::path::Path;

use super::state::NodeState;

/// The magic at the start of every file.
const MAGIC: &[u8] = b"BTCPP4-FileLogger2";
/// The only format version BT.CPP writes.
const PROTOCOL: u8 = 1;
const RECORD: usize = 9;

/// The largest file read: a day of a 100-node tree changing every tick at 10 Hz is about
/// 80 MB; anything far beyond that is not a log a person scrubs through.
pub const MAX_BTLOG_BYTES: u64 = 256 * 1024 * 1024;

/// One status change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogTransition {
    /// Microseconds since the log's start.
    pub micros: u64,
    /// The BT.CPP node UID whose status changed.
    pub uid: u16,
    /// Its status after the change.
    pub state: NodeState,
}

/// See the module documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct BtLog {
    /// The tree as the program had loaded it.
    pub xml: String,
    /// When the logger started: microseconds since the Unix epoch.
    pub start_micros: i64,
    /// Every status change, in the order the logger wrote them.
    pub transitions: Vec<LogTransition>,
    /// Bytes at the end that do not make a whole transition (0 for a complete file).
    pub truncated: usize,
}

/// Why a file is not a readable log: what, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BtLogError {
    /// The byte offset in the file where reading stopped.
    pub offset: u64,
    /// What was wrong there.
    pub message: String,
}

impl fmt::Display for BtLogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for BtLogError {}

fn error(offset: usize, message: impl Into<String>) -> BtLogError {
    BtLogError {
        offset: offset as u64,
        message: message.into(),
    }
}

impl BtLog {
    /// Reads the file at `path` (refusing one larger than [`MAX_BTLOG_BYTES`]).
    pub fn read_file(path: &Path) -> Result<BtLog, BtLogError> {
        let file = std::fs::File::open(path).map_err(|e| error(0, format!("cannot open: {e}")))?;
        let mut bytes = Vec::new();
        // `take` bounds the read even if the file grows while it is read.
        file.take(MAX_BTLOG_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| error(bytes.len(), format!("cannot read: {e}")))?;
        if bytes.len() as u64 > MAX_BTLOG_BYTES {
            return Err(error(
                0,
                format!("the file is larger than {MAX_BTLOG_BYTES} bytes"),
            ));
        }
        BtLog::parse(&bytes)
    }

    /// Reads a whole log from memory.
    pub fn parse(bytes: &[u8]) -> Result<BtLog, BtLogError> {
        if !bytes.starts_with(MAGIC) {
            return Err(error(
                0,
                "not a BT.CPP 4 log (FileLogger2): it does not start with `BTCPP4-FileLogger2`",
            ));
        }
        let mut at = MAGIC.len();
        let protocol = *bytes
            .get(at)
            .ok_or_else(|| error(at, "the file ends before the format version"))?;
        if protocol != PROTOCOL {
            return Err(error(
                at,
                format!("format version {protocol}; only version {PROTOCOL} is known"),
            ));
        }
        at += 1;
        let len = i32::from_le_bytes(take::<4>(bytes, at, "the length of the tree XML")?);
        at += 4;
        let left = bytes.len() - at;
        let len = usize::try_from(len)
            .ok()
            .filter(|len| *len <= left)
            .ok_or_else(|| {
                error(
                    at - 4,
                    format!("the tree XML is said to be {len} bytes, but {left} follow"),
                )
            })?;
        let xml = std::str::from_utf8(&bytes[at..at + len])
            .map_err(|e| error(at + e.valid_up_to(), "the tree XML is not UTF-8"))?
            .to_owned();
        at += len;
        let start_micros = i64::from_le_bytes(take::<8>(bytes, at, "the start time")?);
        at += 8;
        let body = &bytes[at..];
        let mut transitions = Vec::with_capacity(body.len() / RECORD);
        for (i, record) in body.chunks_exact(RECORD).enumerate() {
            let offset = at + i * RECORD;
            let mut micros = [0u8; 8];
            micros[..6].copy_from_slice(&record[..6]);
            let uid = u16::from_le_bytes([record[6], record[7]]);
            let state = NodeState::from_byte(record[8])
                .filter(|s| !matches!(s, NodeState::IdleAfter(_)))
                .ok_or_else(|| {
                    error(
                        offset + 8,
                        format!(
                            "transition {i}: status {} is not a BT.CPP status",
                            record[8]
                        ),
                    )
                })?;
            transitions.push(LogTransition {
                micros: u64::from_le_bytes(micros),
                uid,
                state,
            });
        }
        Ok(BtLog {
            xml,
            start_micros,
            transitions,
            truncated: body.len() % RECORD,
        })
    }
}

fn take<const N: usize>(bytes: &[u8], at: usize, what: &str) -> Result<[u8; N], BtLogError> {
    bytes
        .get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| error(at, format!("the file ends before {what}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Status;

    /// A log as FileLogger2 writes it.
    fn log(xml: &str, records: &[(u64, u16, u8)]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(1);
        out.extend_from_slice(&(xml.len() as i32).to_le_bytes());
        out.extend_from_slice(xml.as_bytes());
        out.extend_from_slice(&1_700_000_000_000_000i64.to_le_bytes());
        for (micros, uid, status) in records {
            out.extend_from_slice(&micros.to_le_bytes()[..6]);
            out.extend_from_slice(&uid.to_le_bytes());
            out.push(*status);
        }
        out
    }

    #[test]
    fn reads_the_tree_the_start_and_every_transition() {
        let bytes = log("<root/>", &[(5, 1, 1), (0x0102_0304_0506, 2, 3), (9, 1, 0)]);
        let log = BtLog::parse(&bytes).expect("a log");
        assert_eq!(log.xml, "<root/>");
        assert_eq!(log.start_micros, 1_700_000_000_000_000);
        assert_eq!(log.truncated, 0);
        assert_eq!(
            log.transitions,
            vec![
                LogTransition {
                    micros: 5,
                    uid: 1,
                    state: NodeState::Running
                },
                LogTransition {
                    micros: 0x0102_0304_0506,
                    uid: 2,
                    state: NodeState::Failure
                },
                LogTransition {
                    micros: 9,
                    uid: 1,
                    state: NodeState::Idle
                },
            ]
        );
        assert_eq!(log.transitions[1].state.status(), Some(Status::Failure));
    }

    #[test]
    fn a_last_transition_cut_short_is_dropped_and_counted() {
        let mut bytes = log("<root/>", &[(5, 1, 2)]);
        bytes.extend_from_slice(&[1, 2, 3, 4]);
        let log = BtLog::parse(&bytes).expect("a log");
        assert_eq!(log.transitions.len(), 1);
        assert_eq!(log.truncated, 4);
    }

    #[test]
    fn hostile_headers_are_located_errors_without_allocating_what_they_claim() {
        let err = |bytes: &[u8]| BtLog::parse(bytes).expect_err("refused");
        assert_eq!(err(b"BTCPP3-FileLogger").offset, 0);
        assert_eq!(err(MAGIC).offset, 18);
        let mut v2 = MAGIC.to_vec();
        v2.push(2);
        assert!(err(&v2).message.contains("version 2"));
        // A length far beyond the file, and a negative one.
        for len in [i32::MAX, -1] {
            let mut bytes = MAGIC.to_vec();
            bytes.push(1);
            bytes.extend_from_slice(&len.to_le_bytes());
            bytes.extend_from_slice(b"<root/>");
            let e = err(&bytes);
            assert_eq!(e.offset, 19, "{e}");
            assert!(e.message.contains("but 7 follow"), "{e}");
        }
        // No start time.
        let mut bytes = log("<root/>", &[]);
        bytes.truncate(bytes.len() - 3);
        assert_eq!(err(&bytes).offset, 30);
        // A status BT.CPP never writes, located at its byte.
        let bytes = log("<r/>", &[(1, 1, 1), (2, 1, 12)]);
        let e = err(&bytes);
        assert_eq!(e.offset as usize, bytes.len() - 1);
        assert!(e.message.contains("transition 1"), "{e}");
        // Not UTF-8.
        let bytes = log("<r\u{e9}/>", &[]);
        let mut bad = bytes.clone();
        bad[25] = 0xff;
        assert_eq!(err(&bad).message, "the tree XML is not UTF-8");
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let base = log("<root><a/></root>", &[(1, 1, 1), (2, 2, 2)]);
        for cut in 0..base.len() {
            let _ = BtLog::parse(&base[..cut]);
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let mut bytes = base.clone();
            for _ in 0..4 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let i = (x as usize) % bytes.len();
                bytes[i] = (x >> 32) as u8;
            }
            let _ = BtLog::parse(&bytes);
        }
    }
}
