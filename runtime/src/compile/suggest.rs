//! "Did you mean": the closest known name to a misspelt one.
//!
//! Bounded, so that many misspellings among many names stay cheap: a candidate whose
//! length alone puts it out of reach is skipped before any table is filled, one lookup
//! fills at most [`MAX_CELLS`] table cells, and a [`Suggestions`] budget gives at most
//! [`MAX_SUGGESTIONS`] lookups per file (later problems carry no suggestion).

use std::cell::Cell;

use crate::work::{self, Counter};

/// Most edit-distance table cells one lookup fills; the candidates after that are not
/// examined.
pub(crate) const MAX_CELLS: u64 = 250_000;
/// Most lookups one [`Suggestions`] budget allows.
pub(crate) const MAX_SUGGESTIONS: u32 = 100;

/// A budget of "did you mean" lookups, shared by the problems of one file.
pub(crate) struct Suggestions {
    left: Cell<u32>,
}

impl Default for Suggestions {
    fn default() -> Self {
        Suggestions {
            left: Cell::new(MAX_SUGGESTIONS),
        }
    }
}

impl Suggestions {
    /// [`closest`], while the budget lasts; `None` after.
    pub(crate) fn closest<'a>(
        &self,
        wrong: &str,
        candidates: impl IntoIterator<Item = &'a str>,
    ) -> Option<String> {
        let left = self.left.get();
        if left == 0 {
            return None;
        }
        self.left.set(left - 1);
        closest(wrong, candidates)
    }
}

/// The candidate nearest to `wrong` by edit distance, if near enough to be a plausible typo
/// (distance at most a third of the length, at least 1), or equal ignoring case.
pub(crate) fn closest<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let len = wrong.chars().count();
    let limit = (len / 3).max(1);
    let mut cells = 0u64;
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == wrong {
            continue;
        }
        // Byte lengths bound character counts (a char is 1 to 4 bytes): a quick test that
        // skips most far-off candidates without decoding them.
        if c.len() + limit < len || c.len() > 4 * (len + limit) {
            continue;
        }
        let c_len = c.chars().count();
        if c_len.abs_diff(len) > limit {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(wrong) {
            0
        } else {
            let size = ((len + 1) * (c_len + 1)) as u64;
            if cells + size > MAX_CELLS {
                break;
            }
            cells += size;
            distance(wrong, c)
        };
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c.len()) < (bd, bc.len())) {
            best = Some((d, c));
        }
    }
    work::add(Counter::SuggestCells, cells);
    best.map(|(_, c)| c.to_owned())
}

/// Edit distance counting an adjacent swap as one edit (optimal string alignment), since
/// swapped letters are the commonest typo.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_names_only() {
        let names = ["Sequence", "Selector", "Parallel", "Wait"];
        assert_eq!(closest("Sequnce", names).as_deref(), Some("Sequence"));
        assert_eq!(closest("selector", names).as_deref(), Some("Selector"));
        assert_eq!(closest("Wiat", names).as_deref(), Some("Wait"));
        assert_eq!(closest("Teleport", names), None);
    }
}
