//! Composites: nodes with any number of children.

pub(crate) mod if_then_else;
pub(crate) mod parallel;
pub(crate) mod selector;
pub(crate) mod sequence;
pub(crate) mod switch;
pub(crate) mod while_do_else;
