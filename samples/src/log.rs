//! Log: what a simulation reports in words ("walking to the red zone"), time-stamped and
//! bounded, for the headless binaries to print and the editor's preview to list.
//!
//! Lines are numbered from 0 in the order pushed, so a reader that remembers the number of
//! lines it has seen can fetch just the new ones with [`Log::since`], even after old lines
//! were dropped to stay within the capacity.
//!
//! A line is shared (`Arc`) between copies of a log, so copying a world for the preview's
//! timeline copies pointers, not the text of up to a thousand lines.

use std::collections::VecDeque;
use std::sync::Arc;

/// One line: the agent's clock when it was written, and the text.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub time: f64,
    pub text: String,
}

#[derive(Clone, Debug)]
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
}
