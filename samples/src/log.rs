//! Log: what a simulation reports in words ("walking to the red zone"), time-stamped and
//! bounded, for the headless binaries to print and the editor's preview to list.
//!
//! Lines are numbered from 0 in the order pushed, so a reader that remembers the number of
//! lines it has seen can fetch just the new ones with [`Log::since`], even after old lines
//! were dropped to stay within the capacity.
//!
//! A line is shared (`Arc`) between copies of a log, so copying a world for the preview's
//! timeline copies pointers, not the text of up to a thousand lines.
//!
//! Serialized (a save game's world), a log is its capacity, the number of its oldest kept
//! line and the kept lines; reading one checks that the lines fit the capacity and that
//! the capacity is at most [`MAX_CAPACITY`].

use std::collections::VecDeque;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// The largest capacity a log read from a file may claim.
pub const MAX_CAPACITY: usize = 100_000;

/// One line: the agent's clock when it was written, and the text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogLine {
    pub time: f64,
    pub text: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "SavedLog", try_from = "SavedLog")]
pub struct Log {
    lines: VecDeque<Arc<LogLine>>,
    /// Number of the oldest kept line.
    first: u64,
    capacity: usize,
}

impl Default for Log {
    fn default() -> Self {
        Log::new(1000)
    }
}

impl Log {
    /// A log keeping at most `capacity` lines (at least one).
    pub fn new(capacity: usize) -> Log {
        Log {
            lines: VecDeque::new(),
            first: 0,
            capacity: capacity.max(1),
        }
    }

    pub fn push(&mut self, time: f64, text: impl Into<String>) {
        if self.lines.len() == self.capacity {
            self.lines.pop_front();
            self.first += 1;
        }
        self.lines.push_back(Arc::new(LogLine {
            time,
            text: text.into(),
        }));
    }

    /// Lines ever pushed (the number the next line will get).
    pub fn total(&self) -> u64 {
        self.first + self.lines.len() as u64
    }

    /// The kept lines, oldest first.
    pub fn lines(&self) -> impl Iterator<Item = &LogLine> {
        self.lines.iter().map(|l| &**l)
    }

    /// Kept lines numbered `seq` or later.
    pub fn since(&self, seq: u64) -> impl Iterator<Item = &LogLine> {
        let skip = seq.saturating_sub(self.first) as usize;
        self.lines.iter().skip(skip).map(|l| &**l)
    }

    pub fn last(&self) -> Option<&LogLine> {
        self.lines.back().map(|l| &**l)
    }

    pub fn clear(&mut self) {
        self.first = self.total();
        self.lines.clear();
    }
}

/// A log as it is serialized (see the module documentation).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedLog {
    capacity: usize,
    first: u64,
    lines: Vec<LogLine>,
}

impl From<Log> for SavedLog {
    fn from(log: Log) -> SavedLog {
        SavedLog {
            capacity: log.capacity,
            first: log.first,
            lines: log.lines().cloned().collect(),
        }
    }
}

impl TryFrom<SavedLog> for Log {
    type Error = String;

    fn try_from(saved: SavedLog) -> Result<Log, String> {
        if saved.capacity == 0 || saved.capacity > MAX_CAPACITY {
            return Err(format!(
                "a log's capacity is 1 to {MAX_CAPACITY} lines, not {}",
                saved.capacity
            ));
        }
        if saved.lines.len() > saved.capacity {
            return Err(format!(
                "a log of capacity {} holds {} lines",
                saved.capacity,
                saved.lines.len()
            ));
        }
        Ok(Log {
            lines: saved.lines.into_iter().map(Arc::new).collect(),
            first: saved.first,
            capacity: saved.capacity,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_lines_and_numbers_them() {
        let mut log = Log::new(2);
        for i in 0..5 {
            log.push(f64::from(i), format!("line {i}"));
        }
        assert_eq!(log.total(), 5);
        let kept: Vec<&str> = log.lines().map(|l| l.text.as_str()).collect();
        assert_eq!(kept, ["line 3", "line 4"]);
        let new: Vec<&str> = log.since(4).map(|l| l.text.as_str()).collect();
        assert_eq!(new, ["line 4"]);
        assert_eq!(log.since(0).count(), 2, "dropped lines are gone");
        assert_eq!(log.since(9).count(), 0);
        log.clear();
        assert_eq!(log.total(), 5);
        assert!(log.last().is_none());
    }

    #[test]
    fn a_saved_log_reads_back_with_its_numbering_and_a_bad_one_is_refused() {
        let mut log = Log::new(2);
        for i in 0..3 {
            log.push(f64::from(i) * 0.25, format!("line {i}"));
        }
        let text = serde_json::to_string(&log).unwrap();
        let back: Log = serde_json::from_str(&text).unwrap();
        assert_eq!(back.total(), 3);
        assert!(back.lines().eq(log.lines()));
        let over = r#"{"capacity": 1, "first": 0, "lines": [{"time": 0.0, "text": "a"}, {"time": 0.0, "text": "b"}]}"#;
        let err = serde_json::from_str::<Log>(over).unwrap_err().to_string();
        assert!(err.contains("capacity 1 holds 2"), "{err}");
        let huge = r#"{"capacity": 99999999, "first": 0, "lines": []}"#;
        assert!(serde_json::from_str::<Log>(huge).is_err());
    }
}
