//! Work counters: how many elementary steps the loader's, the importer's and the script
//! machine's potentially expensive loops took, on this thread. Regression tests read them to prove that work
//! grows linearly with the input (run n and 4n, compare the counts) without timing anything.
//!
//! Counting is a thread-local add, far below the cost of the step it counts.

use std::cell::Cell;

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// Name lookups while giving blackboard keys unique names (emit).
    KeyNames,
    /// Cells of the edit-distance table filled for "did you mean" suggestions.
    SuggestCells,
    /// Bytes scanned to turn XML byte offsets into lines and columns.
    XmlPositionBytes,
    /// Bytes a script wrote or moved while building strings (`..`, `+=` on a string key)
    /// and copied into the strings it stored.
    ScriptTextBytes,
    /// Nodes looked at to find a node by its GUID (export).
    GuidSteps,
    /// Key declarations looked at to find a key by its name (the import's typing and
    /// checking of scripts).
    KeySteps,
}

const COUNTERS: usize = 6;

thread_local! {
    static COUNTS: [Cell<u64>; COUNTERS] = const { [const { Cell::new(0) }; COUNTERS] };
}

pub(crate) fn add(counter: Counter, n: u64) {
    COUNTS.with(|c| {
        let cell = &c[counter as usize];
        cell.set(cell.get().saturating_add(n));
    });
}

/// The count so far on this thread.
pub fn count(counter: Counter) -> u64 {
    COUNTS.with(|c| c[counter as usize].get())
}

/// Runs `f` and returns its result with the work it did on `counter`.
pub fn measure<T>(counter: Counter, f: impl FnOnce() -> T) -> (T, u64) {
    let before = count(counter);
    let out = f();
    (out, count(counter) - before)
}
