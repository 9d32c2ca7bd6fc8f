//! Scripts: BT.CPP 4's script language, evaluated natively on the typed blackboard
//! (docs/semantics.md rules 51 to 60).
//!
//! A script is read in four steps, all at load: `lexer` splits it into tokens,
//! `parser` builds its syntax tree, `compile` checks it against the tree's declared
//! keys (the typing rules are in `check`) and flattens it into a [`Program`] for a
//! small stack machine, which `eval` runs at tick time without looking anything up.
//!
//! ```
//! use arbor_runtime::script::{self, Ty};
//! use arbor_runtime::ValueType;
//!
//! let keys = [("count".to_owned(), ValueType::Int)];
//! assert_eq!(script::check_with_keys("count += 1; count > 3", &keys), Ok(Ty::Bool));
//! let err = script::check_with_keys("count := 'many'", &keys).unwrap_err();
//! assert_eq!(err.start, 0);
//! assert_eq!(err.message, "`count` is an int key; this value is a string");
//! ```

mod check;
mod compile;
mod eval;
mod infer;
mod lexer;
mod parser;
mod rename;
mod roles;

// The BT.CPP import recognises its simple forms from the same tokens.
pub use check::{Names, Ty};
pub use compile::Program;
pub use eval::{Outcome, Stop, MAX_STRING_LEN};
pub use infer::{key_uses, key_uses_marked, key_uses_with};
#[cfg(feature = "btcpp")]
pub(crate) use lexer::{tokenize, Tok};
pub use parser::MAX_DEPTH;
pub use rename::{key_name_spans, rename_key};
pub use roles::{key_roles, KeyRole};

use crate::blackboard::Key;
use crate::value::ValueType;

/// A problem in a script: a message and the byte range of the source it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    /// Byte offset where the problem starts.
    pub start: usize,
    /// Byte offset where it ends (at least `start`).
    pub end: usize,
    /// What is wrong.
    pub message: String,
}

impl ScriptError {
    pub(crate) fn new(start: usize, end: usize, message: impl Into<String>) -> ScriptError {
        ScriptError {
            start,
            end: end.max(start),
            message: message.into(),
        }
    }

    /// The 1-based line and column (in characters) of the problem's start in `src`.
    pub fn line_column(&self, src: &str) -> (usize, usize) {
        let before = &src[..self.start.min(src.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Parses, checks and compiles `src`.
pub fn compile(src: &str, names: &dyn Names) -> Result<Program, ScriptError> {
    let tokens = lexer::tokenize(src)?;
    let statements = parser::parse(&tokens)?;
    compile::Compiler::new(src, names).program(&statements)
}

/// The first syntax problem of `src`, if any (types are not checked).
pub fn parse_error(src: &str) -> Option<ScriptError> {
    lexer::tokenize(src)
        .and_then(|tokens| parser::parse(&tokens))
        .err()
}

/// Parses, checks and compiles a script that is used as a condition: its last
/// statement must give a bool or a number.
pub fn compile_condition(src: &str, names: &dyn Names) -> Result<Program, ScriptError> {
    let program = compile(src, names)?;
    if program.result() == Ty::Str {
        return Err(ScriptError::new(
            0,
            src.len(),
            "a condition must give true or false; this script gives a string",
        ));
    }
    Ok(program)
}

/// Checks `src` against keys given by name and type (for editors): the type of the value
/// it gives, or its first problem.
pub fn check_with_keys(src: &str, keys: &[(String, ValueType)]) -> Result<Ty, ScriptError> {
    compile(src, &KeyList(keys)).map(|p| p.result())
}

struct KeyList<'a>(&'a [(String, ValueType)]);

impl Names for KeyList<'_> {
    fn key(&self, name: &str, _root: bool) -> Option<(Key, ValueType)> {
        self.0
            .iter()
            .position(|(n, _)| n == name)
            .map(|i| (Key(i as u32), self.0[i].1))
    }
}

#[cfg(test)]
mod tests;
