//! Arbor samples.
