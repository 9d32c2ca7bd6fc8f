//! Problem and LoadError: every issue the loader finds, with where it is (file, JSON path or
//! line and column, node) and what was expected. The loader collects all of them rather
//! than stopping at the first (as ripgrep's `ignore::Error::Partial`).

use std::fmt;
use std::sync::Arc;

use crate::text::escape_controls;

/// Whether a problem stops the tree from loading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The tree loads; the problem is worth a look (an unconnected node, an empty composite).
    Warning,
    /// The tree does not load.
    Error,
}

/// What is wrong. The messages are part of the user interface: tests check their text.
/// Each variant's fields are what its message shows, named for it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[allow(missing_docs)] // the fields: each is named for what the variant's message shows
pub enum ProblemKind {
    /// Message: "cannot read the file: …".
    #[error("cannot read the file: {0}")]
    Io(String),
    /// Message: "invalid UTF-8 (a file must be UTF-8 text)".
    #[error("invalid UTF-8 (a file must be UTF-8 text)")]
    InvalidUtf8,
    /// Message: "the file is … bytes; the limit is … bytes".
    #[error("the file is {size} bytes; the limit is {limit} bytes")]
    FileTooLarge { size: u64, limit: u64 },
    /// Message: "invalid JSON: …".
    #[error("invalid JSON: {0}")]
    Syntax(String),
    /// Message: "not an Arbor tree file: expected "format": "arbor-tree", found …".
    #[error("not an Arbor tree file: expected \"format\": \"arbor-tree\", found {0}")]
    NotATreeFile(String),
    /// Message: "file format version … is newer than this build of Arbor reads (version …); update Arbor to open it".
    #[error("file format version {found} is newer than this build of Arbor reads (version {supported}); update Arbor to open it")]
    NewerVersion { found: u64, supported: u64 },
    /// Message: "unsupported file format version …; this build reads versions 1 to …".
    #[error("unsupported file format version {found}; this build reads versions 1 to {supported}")]
    BadVersion { found: String, supported: u64 },
    /// Message: "`…` needs file format version … or later; this file is version …".
    #[error("`{field}` needs file format version {needs} or later; this file is version {found}")]
    NeedsVersion {
        field: String,
        needs: u64,
        found: u64,
    },
    /// Message: "…".
    #[error("{0}")]
    Shape(String),
    #[error("unknown field `{field}`{}", did_you_mean(.suggestion))]
    UnknownField {
        field: String,
        suggestion: Option<String>,
    },
    /// Message: "string of … bytes exceeds the limit of … bytes".
    #[error("string of {len} bytes exceeds the limit of {limit} bytes")]
    StringTooLong { len: usize, limit: usize },
    /// Message: "the tree has … nodes; the limit is …".
    #[error("the tree has {count} nodes; the limit is {limit}")]
    TooManyNodes { count: usize, limit: usize },
    /// Message: "the tree is … levels deep; the limit is …".
    #[error("the tree is {depth} levels deep; the limit is {limit}")]
    TooDeep { depth: usize, limit: usize },
    /// Message: "`…` is not a GUID (expected a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e)".
    #[error("`{0}` is not a GUID (expected a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e)")]
    InvalidGuid(String),
    /// Message: "GUID … is used twice; first at …".
    #[error("GUID {guid} is used twice; first at {first}")]
    DuplicateGuid { guid: String, first: String },
    /// Message: "missing root: the file must name its root node ("root": GUID)".
    #[error("missing root: the file must name its root node (\"root\": GUID)")]
    MissingRoot,
    /// Message: "the root … is not a node of this file".
    #[error("the root {0} is not a node of this file")]
    UnknownRoot(String),
    /// Message: "child … is not a node of this file".
    #[error("child {0} is not a node of this file")]
    UnknownChild(String),
    /// Message: "node … already has a parent (…); a node has at most one parent".
    #[error("node {child} already has a parent ({first}); a node has at most one parent")]
    SecondParent { child: String, first: String },
    /// Message: "cycle: …".
    #[error("cycle: {0}")]
    Cycle(String),
    /// Message: "the root … is listed as another node's child".
    #[error("the root {0} is listed as another node's child")]
    RootHasParent(String),
    /// Message: "this node is not connected to the root and will not run".
    #[error("this node is not connected to the root and will not run")]
    Unreachable,
    #[error("unknown node type `{found}`{}{}", did_you_mean(.suggestion), host_hint(.suggestion))]
    UnknownNodeType {
        found: String,
        suggestion: Option<String>,
    },
    /// Message: "`…` is an attached decorator, not a node: put it in a node's "decorators" list".
    #[error("`{0}` is an attached decorator, not a node: put it in a node's \"decorators\" list")]
    DecoratorAsNode(String),
    /// Message: "`…` is a … node, not an attached decorator: …".
    #[error(
        "`{kind}` is {} {category} node, not an attached decorator: {}",
        if .category.starts_with(['A', 'E', 'I', 'O', 'U']) { "an" } else { "a" },
        if *.category == "Decorator" {
            "make it the node's parent instead"
        } else {
            "only conditions and the attached decorator types go in a \"decorators\" list"
        }
    )]
    NodeAsDecorator {
        kind: String,
        category: &'static str,
    },
    /// A node or decorator type called by an old name.
    #[error("node type `{old}` is now called `{new}`; `arbor migrate` rewrites the file")]
    RenamedType { old: String, new: String },
    /// A parameter called by an old name.
    #[error("parameter `{old}` is now called `{new}`; `arbor migrate` rewrites the file")]
    RenamedParam { old: String, new: String },
    /// A node in a condition's place that can return running.
    #[error(
        "the condition {condition} can return running ({because}): a condition should answer \
         success or failure in the tick it is asked"
    )]
    RunningCondition { condition: String, because: String },
    #[error("unknown decorator type `{found}`{}", did_you_mean(.suggestion))]
    UnknownDecoratorType {
        found: String,
        suggestion: Option<String>,
    },
    /// Message: "… takes …; found …".
    #[error("{kind} takes {expected}; found {found}")]
    ChildCount {
        kind: String,
        expected: String,
        found: usize,
    },
    /// Message: "… has no children and will always succeed".
    #[error("{0} has no children and will always succeed")]
    EmptyComposite(String),
    /// A composite other than the four of rule 12 without children: what it does then is
    /// its own rule's (RandomSelector and UtilitySelector fail) or the program's.
    #[error("{0} has no children")]
    NoChildren(String),
    /// A key some node reads that nothing in the file writes and that has no default.
    #[error(
        "key `{key}` is read (by {reader}) but nothing in the tree writes it and it has no \
         default: it has no value until the program sets it"
    )]
    KeyNeverWritten { key: String, reader: String },
    #[error("unknown parameter `{param}` for {kind}{}", did_you_mean(.suggestion))]
    UnknownParam {
        param: String,
        kind: String,
        suggestion: Option<String>,
    },
    /// Message: "missing parameter `…` (…)".
    #[error("missing parameter `{param}` ({expected})")]
    MissingParam { param: String, expected: String },
    /// Message: "parameter `…`: …".
    #[error("parameter `{param}`: {message}")]
    BadParam { param: String, message: String },
    #[error(
        "{} `{param}` ({param_type}) cannot {} key `{key}`: the key is declared {key_type}",
        if *.writes { "output" } else { "parameter" },
        if *.writes { "write" } else { "read" }
    )]
    BindingMismatch {
        param: String,
        param_type: crate::value::ValueType,
        key: String,
        key_type: crate::value::ValueType,
        /// The parameter writes the key (an output) and the key cannot hold its values.
        writes: bool,
    },
    #[error("blackboard key `{key}` is not declared{}", did_you_mean(.suggestion))]
    UndeclaredKey {
        key: String,
        suggestion: Option<String>,
    },
    /// `@key` in a subtree file names a key the root tree does not declare (rule 70).
    #[error(
        "`@{key}` names the root tree's key `{key}`, which the root tree does not declare{}",
        did_you_mean(.suggestion)
    )]
    UndeclaredRootKey {
        key: String,
        suggestion: Option<String>,
    },
    /// Message: "blackboard key `…` is declared twice".
    #[error("blackboard key `{0}` is declared twice")]
    DuplicateKey(String),
    /// Message: "blackboard key `…`: default …".
    #[error("blackboard key `{key}`: default {message}")]
    BadDefault { key: String, message: String },
    /// Message: "…".
    #[error("{0}")]
    Subtree(String),
    #[error(
        "host node type `{0}` is declared but this program registers no implementation for it"
    )]
    NoImplementation(String),
    /// Message: "…: …".
    #[error("{kind}: {message}")]
    HostRejected { kind: String, message: String },
    /// Message: "merge conflict: …; pick a side in the editor, or edit the file and remove its `conflicts` entry".
    #[error("merge conflict: {0}; pick a side in the editor, or edit the file and remove its `conflicts` entry")]
    MergeConflict(String),
    /// Message: "the generated code does not match the tree (…); run `arbor codegen` again".
    #[error("the generated code does not match the tree ({0}); run `arbor codegen` again")]
    StaleCode(String),
}

fn did_you_mean(s: &Option<String>) -> String {
    match s {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    }
}

fn host_hint(s: &Option<String>) -> &'static str {
    if s.is_some() {
        ""
    } else {
        " (host node types must be registered by the program, or declared in a node-types manifest)"
    }
}

/// One problem, located.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// Whether it stops the tree from loading.
    pub severity: Severity,
    /// The file, as given (or `<memory>`).
    pub file: Arc<str>,
    /// Where in the JSON document: `$.nodes[2].params.seconds`; `$` for the whole file.
    pub json_path: String,
    /// Line and column (1-based), for malformed JSON.
    pub line: Option<(usize, usize)>,
    /// GUID of the node (or decorator) concerned, for the editor to mark it.
    pub node: Option<String>,
    /// `"Walk" (WalkTo)`: the node's name and type, for people.
    pub node_label: Option<String>,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl Problem {
    /// An error in `file` at `json_path` (`$` for the whole file), with no line or node;
    /// [`Problem::warning`] and [`Problem::at_node`] add to it.
    pub fn new(file: &Arc<str>, json_path: impl Into<String>, kind: ProblemKind) -> Problem {
        Problem {
            severity: Severity::Error,
            file: file.clone(),
            json_path: json_path.into(),
            line: None,
            node: None,
            node_label: None,
            kind,
        }
    }

    /// The same problem as a warning: reported, but the tree loads.
    pub fn warning(mut self) -> Problem {
        self.severity = Severity::Warning;
        self
    }

    /// The same problem about the node (or decorator) with this GUID, name and type.
    pub fn at_node(mut self, guid: &str, name: &str, kind: &str) -> Problem {
        self.node = Some(guid.to_owned());
        self.node_label = Some(format!("\"{name}\" ({kind})"));
        self
    }

    /// Whether this is an error (not a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The message without the location, control characters escaped.
    pub fn message(&self) -> String {
        escape_controls(&self.kind.to_string()).into_owned()
    }
}

/// Every part that may quote user text (file, JSON path, node label, message) is escaped,
/// so a name holding a newline or an ANSI escape cannot forge a line or colour a terminal.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        write!(f, "{}", escape_controls(&self.file))?;
        if let Some((line, column)) = self.line {
            write!(f, ":{line}:{column}")?;
        }
        if !self.json_path.is_empty() && self.json_path != "$" {
            write!(f, ": {}", escape_controls(&self.json_path))?;
        }
        if let Some(label) = &self.node_label {
            write!(f, " (node {})", escape_controls(label))?;
        }
        write!(f, ": {}", self.message())
    }
}

/// A tree that did not load: every error found, then the warnings.
///
/// `Debug` prints the same located list as `Display`, so that a `LoadError` returned from
/// `main` (`fn main() -> Result<(), Box<dyn Error>>` and `?`) reads as the loader's report,
/// not as a dump of its fields; the problems themselves are in [`LoadError::problems`].
#[derive(Clone, PartialEq)]
pub struct LoadError {
    /// Every problem: errors first, then warnings, each in the order found.
    pub problems: Vec<Problem>,
}

impl LoadError {
    /// The error for a tree file that could not be read at `path` (too large, not UTF-8,
    /// missing, ...), worded and located as the loader words it, for tools that read a
    /// file themselves before loading its text.
    pub fn unreadable(path: &std::path::Path, e: crate::files::ReadError) -> LoadError {
        LoadError {
            problems: vec![super::source::read_problem(
                e,
                &super::origin_of(Some(path)),
            )],
        }
    }

    /// The errors alone.
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_error())
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.errors().count();
        let noun = if count == 1 { "problem" } else { "problems" };
        write!(f, "the tree did not load ({count} {noun}):")?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for LoadError {}

/// The outcome of checking a tree without running it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Every problem: errors first, then warnings.
    pub problems: Vec<Problem>,
}

impl Report {
    /// Whether there is no error (warnings allowed).
    pub fn is_ok(&self) -> bool {
        !self.problems.iter().any(Problem::is_error)
    }

    /// Problems concerning the node or decorator with this GUID.
    pub fn for_node<'a>(&'a self, guid: &'a str) -> impl Iterator<Item = &'a Problem> + 'a {
        self.problems
            .iter()
            .filter(move |p| p.node.as_deref() == Some(guid))
    }
}

#[cfg(test)]
mod tests {
    use crate::Registry;

    /// A tool that reads the file itself reports a read failure exactly as the loader
    /// would have: the same kind, the whole file located, the path as given.
    #[test]
    fn an_unreadable_file_is_worded_as_the_loader_words_it() {
        let path = std::path::Path::new("trees/huge.json");
        let err = super::LoadError::unreadable(
            path,
            crate::files::ReadError::TooLarge { size: 10, limit: 4 },
        );
        assert_eq!(err.problems.len(), 1);
        let p = &err.problems[0];
        assert!(p.is_error());
        assert_eq!(&*p.file, "trees/huge.json");
        assert_eq!(p.json_path, "$");
        assert!(matches!(
            p.kind,
            super::ProblemKind::FileTooLarge { size: 10, limit: 4 }
        ));
    }

    /// What `main` prints for a `LoadError` returned through `Box<dyn Error>` (`?` in a
    /// `fn main() -> Result<(), Box<dyn Error>>` prints the error's `Debug`): the located
    /// list, the same text as `Display`.
    #[test]
    fn debug_prints_the_located_list() {
        let text = r#"{"format": "arbor-tree", "version": 1, "guid": "00000000-0000-4000-8000-000000000000",
            "name": "t", "root": "00000000-0000-4000-8000-000000000001",
            "nodes": [{"guid": "00000000-0000-4000-8000-000000000001", "type": "Wiat"}]}"#;
        let err = Registry::<()>::new()
            .loader()
            .load_str(text, None)
            .expect_err("an unknown type");
        let boxed: Box<dyn std::error::Error> = Box::new(err.clone());
        let printed = format!("{boxed:?}");
        assert_eq!(printed, err.to_string());
        assert!(
            printed.starts_with("the tree did not load (1 problem):\n  "),
            "{printed}"
        );
        assert!(printed.contains("$.nodes[0].type"), "{printed}");
        assert!(printed.contains("Wait"), "did you mean: {printed}");
        assert!(!printed.contains("problems: ["), "no field dump: {printed}");
    }
}
