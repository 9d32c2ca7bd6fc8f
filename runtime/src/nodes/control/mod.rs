//! Composites: nodes with any number of children.

pub(crate) mod parallel;
pub(crate) mod selector;
pub(crate) mod sequence;
