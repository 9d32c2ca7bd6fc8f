//! Rng: an agent's seeded random generator, as host actions see it.
//!
//! A wrapper rather than the generator crate's own type, so that the runtime's public API
//! does not tie embedders to that crate's major version.

use std::ops::RangeBounds;

/// A seeded, reproducible random generator: one per agent, so that runs repeat exactly
/// for the same seed and inputs.
#[derive(Clone, Debug)]
pub struct Rng(fastrand::Rng);

impl Rng {
    /// A generator that produces the same sequence for the same seed.
    pub fn with_seed(seed: u64) -> Rng {
        Rng(fastrand::Rng::with_seed(seed))
    }

    /// The generator's whole state: [`Rng::with_seed`] of it goes on with the same
    /// sequence (agent snapshots).
    pub(crate) fn state(&self) -> u64 {
        self.0.get_seed()
    }

    /// A number in `0.0..1.0`.
    #[inline]
    pub fn f64(&mut self) -> f64 {
        self.0.f64()
    }

    /// `true` or `false`, evenly.
    pub fn bool(&mut self) -> bool {
        self.0.bool()
    }

    /// An integer in `range` (panics on an empty range, as slicing does).
    pub fn i64(&mut self, range: impl RangeBounds<i64>) -> i64 {
        self.0.i64(range)
    }

    /// An index in `range` (panics on an empty range, as slicing does).
    pub fn usize(&mut self, range: impl RangeBounds<usize>) -> usize {
        self.0.usize(range)
    }

    /// A number in `range`, or `range.start` if the range is empty.
    pub fn f64_in(&mut self, range: std::ops::Range<f64>) -> f64 {
        range.start + (range.end - range.start).max(0.0) * self.0.f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let (mut a, mut b) = (Rng::with_seed(7), Rng::with_seed(7));
        let first: Vec<i64> = (0..5).map(|_| a.i64(0..100)).collect();
        let second: Vec<i64> = (0..5).map(|_| b.i64(0..100)).collect();
        assert_eq!(first, second);
        assert!((2.0..3.0).contains(&a.f64_in(2.0..3.0)));
        assert_eq!(a.f64_in(5.0..5.0), 5.0);
    }

    #[test]
    fn a_generator_made_from_the_state_goes_on_with_the_same_sequence() {
        let mut a = Rng::with_seed(11);
        a.i64(0..100);
        let mut b = Rng::with_seed(a.state());
        let first: Vec<i64> = (0..5).map(|_| a.i64(0..100)).collect();
        let second: Vec<i64> = (0..5).map(|_| b.i64(0..100)).collect();
        assert_eq!(first, second);
    }
}
