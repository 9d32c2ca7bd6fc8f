//! From bytes to a `TreeFile`: size limit, JSON syntax (with line and column), the
//! format/version header, string sizes, then the typed shape (with the JSON path).

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use super::problem::{Problem, ProblemKind};
use super::suggest::closest;
use super::LoadOptions;
use crate::files::ReadError;
use crate::format::{TreeFile, FORMAT_NAME, FORMAT_VERSION, OLDEST_FORMAT_VERSION};

/// Reads a regular file of at most `max_file_bytes` (whatever its metadata says), with
/// invalid UTF-8 located by line and column.
pub(crate) fn read(
    path: &Path,
    origin: &Arc<str>,
    opts: &LoadOptions,
) -> Result<String, Vec<Problem>> {
    crate::files::read_text(path, opts.max_file_bytes).map_err(|e| vec![read_problem(e, origin)])
}

/// The problem for a file that could not be read.
pub(crate) fn read_problem(e: ReadError, origin: &Arc<str>) -> Problem {
    match e {
        ReadError::TooLarge { size, limit } => {
            Problem::new(origin, "$", ProblemKind::FileTooLarge { size, limit })
        }
        ReadError::Utf8 { line, column } => {
            let mut p = Problem::new(origin, "", ProblemKind::InvalidUtf8);
            p.line = Some((line, column));
            p
        }
        other => Problem::new(origin, "$", ProblemKind::Io(other.to_string())),
    }
}

/// Parses and shape-checks a tree file's text.
pub(crate) fn parse(
    text: &str,
    origin: &Arc<str>,
    opts: &LoadOptions,
) -> Result<TreeFile, Vec<Problem>> {
    if text.len() as u64 > opts.max_file_bytes {
        return Err(vec![Problem::new(
            origin,
            "$",
            ProblemKind::FileTooLarge {
                size: text.len() as u64,
                limit: opts.max_file_bytes,
            },
        )]);
    }
    if let Some(dup) = crate::format::find_duplicate_key(text.as_bytes()) {
        let mut p = Problem::new(
            origin,
            dup.path,
            ProblemKind::Shape(format!(
                "duplicate key `{}`: a key may appear once in an object",
                dup.key
            )),
        );
        p.line = Some((dup.line, dup.column));
        return Err(vec![p]);
    }
    if let Some(file) = parse_direct(text, opts.max_string_len) {
        return finish(file, origin);
    }
    // serde_json refuses nesting deeper than 128 with an error, so hostile input cannot
    // overflow the stack here.
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let mut p = Problem::new(origin, "", ProblemKind::Syntax(syntax_message(&e)));
        p.line = Some((e.line(), e.column()));
        vec![p]
    })?;
    check_header(&value, origin)?;
    check_strings(&value, origin, opts.max_string_len)?;
    let file: TreeFile = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = crate::format::json_path(e.path());
        vec![Problem::new(
            origin,
            path,
            ProblemKind::Shape(e.into_inner().to_string()),
        )]
    })?;
    finish(file, origin)
}

/// The fast path for a good file: straight from text to `TreeFile`, without the
/// intermediate `serde_json::Value` and path tracking (which made over half of loading a
/// large tree). `None` when anything is off (bad JSON, header, shape, a field this version
/// does not know, or a string too long); the caller then takes the checked path, which
/// finds and words the problems exactly as before. A file this accepts is one that path
/// accepts too, read into the same `TreeFile`.
fn parse_direct(text: &str, max_string_len: usize) -> Option<TreeFile> {
    let file: TreeFile = serde_json::from_str(text).ok()?;
    let fits = text.len() <= max_string_len || strings_fit(&file, max_string_len);
    (file.format == FORMAT_NAME && readable(file.version) && fits).then_some(file)
}

/// The versions this build reads: every one from the oldest to its own.
fn readable(version: u64) -> bool {
    (OLDEST_FORMAT_VERSION..=FORMAT_VERSION).contains(&version)
}

/// Whether every string of a directly read `file` (object keys included) fits `limit`
/// bytes once decoded, as `check_strings` requires of the checked path's `Value`. Walking
/// the typed file visits only its strings; scanning every byte of the text for string
/// literals (as before) was a tenth of loading a large tree. A file with fields this
/// version does not know answers false: the checked path reports those (or their strings).
fn strings_fit(file: &TreeFile, limit: usize) -> bool {
    let fits = |s: &str| s.len() <= limit;
    let params_fit = |params: &serde_json::Map<String, Value>| {
        params
            .iter()
            .all(|(k, v)| fits(k) && !any_string_longer(v, limit))
    };
    let header = fits(&file.format)
        && fits(&file.guid)
        && fits(&file.name)
        && fits(&file.description)
        && file.root.as_deref().is_none_or(fits)
        && file.unknown.is_empty()
        && file.conflicts.is_empty()
        && file
            .editor
            .as_ref()
            .is_none_or(|e| !any_string_longer(e, limit));
    let keys = || {
        file.blackboard.iter().all(|k| {
            k.unknown.is_empty()
                && fits(&k.key)
                && fits(k.ty.as_str())
                && fits(&k.description)
                && k.default
                    .as_ref()
                    .is_none_or(|d| !any_string_longer(d, limit))
        })
    };
    let nodes = || {
        file.nodes.iter().all(|n| {
            n.unknown.is_empty()
                && fits(&n.guid)
                && fits(&n.name)
                && fits(&n.kind)
                && params_fit(&n.params)
                && n.children.iter().all(|c| fits(c))
                && n.decorators.iter().all(|d| {
                    d.unknown.is_empty()
                        && fits(&d.guid)
                        && fits(&d.name)
                        && fits(&d.kind)
                        && params_fit(&d.params)
                })
        })
    };
    header && keys() && nodes()
}

/// The last check, on either path: fields this version does not know.
fn finish(file: TreeFile, origin: &Arc<str>) -> Result<TreeFile, Vec<Problem>> {
    let mut unknown = unknown_fields(&file, origin);
    if file.version < 3 {
        // Read as this build reads it, an older file that switches a node off would run
        // differently in the build it was written for.
        for (i, node) in file.nodes.iter().enumerate() {
            if !node.enabled {
                unknown.push(Problem::new(
                    origin,
                    format!("$.nodes[{i}].enabled"),
                    ProblemKind::NeedsVersion {
                        field: "enabled".to_owned(),
                        needs: 3,
                        found: file.version,
                    },
                ));
            }
        }
    }
    if unknown.is_empty() {
        Ok(file)
    } else {
        Err(unknown)
    }
}

fn syntax_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    };
    if text.contains("recursion limit") {
        "nested more than 128 levels deep".to_owned()
    } else {
        text
    }
}

fn check_header(value: &Value, origin: &Arc<str>) -> Result<(), Vec<Problem>> {
    let fail = |path: &str, kind| Err(vec![Problem::new(origin, path, kind)]);
    let Some(object) = value.as_object() else {
        return fail(
            "$",
            ProblemKind::NotATreeFile(crate::value::describe_json(value)),
        );
    };
    match object.get("format") {
        Some(Value::String(s)) if s == FORMAT_NAME => {}
        Some(other) => {
            return fail(
                "$.format",
                ProblemKind::NotATreeFile(crate::value::describe_json(other)),
            )
        }
        None => {
            return fail(
                "$",
                ProblemKind::NotATreeFile("no `format` field".to_owned()),
            )
        }
    }
    match object.get("version") {
        Some(v) if v.as_u64().is_some_and(readable) => Ok(()),
        Some(v) if v.as_u64().is_some_and(|n| n > FORMAT_VERSION) => fail(
            "$.version",
            ProblemKind::NewerVersion {
                found: v.as_u64().unwrap_or_default(),
                supported: FORMAT_VERSION,
            },
        ),
        Some(v) => fail(
            "$.version",
            ProblemKind::BadVersion {
                found: v.to_string(),
                supported: FORMAT_VERSION,
            },
        ),
        None => fail(
            "$",
            ProblemKind::BadVersion {
                found: "nothing".to_owned(),
                supported: FORMAT_VERSION,
            },
        ),
    }
}

/// Every string (and object key) must fit the limit; walks without recursion.
fn check_strings(value: &Value, origin: &Arc<str>, limit: usize) -> Result<(), Vec<Problem>> {
    // Paths are only needed to report a problem: a first walk without them is a fifth of
    // loading a large tree cheaper (every value's path was formatted before).
    if !any_string_longer(value, limit) {
        return Ok(());
    }
    let mut problems = Vec::new();
    let mut stack = vec![(value, "$".to_owned())];
    while let Some((v, path)) = stack.pop() {
        match v {
            Value::String(s) if s.len() > limit => problems.push(Problem::new(
                origin,
                path,
                ProblemKind::StringTooLong {
                    len: s.len(),
                    limit,
                },
            )),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    stack.push((item, format!("{path}[{i}]")));
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    if k.len() > limit {
                        problems.push(Problem::new(
                            origin,
                            path.clone(),
                            ProblemKind::StringTooLong {
                                len: k.len(),
                                limit,
                            },
                        ));
                    } else {
                        stack.push((item, format!("{path}.{k}")));
                    }
                }
            }
            _ => {}
        }
        if problems.len() >= 100 {
            break;
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Whether some string or object key in `value` is longer than `limit`.
fn any_string_longer(value: &Value, limit: usize) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.len() > limit => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => {
                for (k, item) in map {
                    if k.len() > limit {
                        return true;
                    }
                    stack.push(item);
                }
            }
            _ => {}
        }
    }
    false
}

fn unknown_fields(file: &TreeFile, origin: &Arc<str>) -> Vec<Problem> {
    const TOP: &[&str] = &[
        "format",
        "version",
        "guid",
        "name",
        "description",
        "blackboard",
        "root",
        "nodes",
        "editor",
        "conflicts",
    ];
    const KEY: &[&str] = &["key", "type", "default", "description"];
    const NODE: &[&str] = &[
        "guid",
        "name",
        "type",
        "enabled",
        "params",
        "decorators",
        "children",
    ];
    const DECORATOR: &[&str] = &["guid", "name", "type", "params"];
    let mut problems = Vec::new();
    let mut report = |path: String, field: &str, known: &[&str]| {
        problems.push(Problem::new(
            origin,
            format!("{path}.{field}"),
            ProblemKind::UnknownField {
                field: field.to_owned(),
                suggestion: closest(field, known.iter().copied()),
            },
        ));
    };
    for field in file.unknown.keys() {
        report("$".to_owned(), field, TOP);
    }
    for (i, key) in file.blackboard.iter().enumerate() {
        for field in key.unknown.keys() {
            report(format!("$.blackboard[{i}]"), field, KEY);
        }
    }
    for (i, node) in file.nodes.iter().enumerate() {
        for field in node.unknown.keys() {
            report(format!("$.nodes[{i}]"), field, NODE);
        }
        for (j, d) in node.decorators.iter().enumerate() {
            for field in d.unknown.keys() {
                report(format!("$.nodes[{i}].decorators[{j}]"), field, DECORATOR);
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A valid file with a string in every place a file can hold one.
    fn every_string() -> Value {
        let (a, b) = (
            "00000000-0000-4000-8000-000000000001",
            "00000000-0000-4000-8000-000000000002",
        );
        json!({
            "format": "arbor-tree", "version": 2,
            "guid": "00000000-0000-4000-8000-000000000000",
            "name": "t", "description": "d", "root": a,
            "blackboard": [{"key": "k", "type": "json", "default": {"x": ["s"]}, "description": "d"}],
            "nodes": [
                {"guid": a, "name": "n", "type": "Sequence", "children": [b],
                 "decorators": [{"guid": "00000000-0000-4000-8000-000000000003",
                                 "name": "d", "type": "Inverter", "params": {"p": ["s"]}}]},
                {"guid": b, "name": "w", "type": "Wait", "params": {"seconds": {"v": "s"}}}
            ],
            "editor": {"notes": [{"text": "s"}]}
        })
    }

    /// Every JSON path of a string (or, as `path.`, of an object key) in `v`.
    fn string_paths(v: &Value, path: &str, out: &mut Vec<String>) {
        match v {
            Value::String(_) => out.push(path.to_owned()),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    string_paths(item, &format!("{path}[{i}]"), out);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    out.push(format!("{path}.{k}."));
                    string_paths(item, &format!("{path}.{k}"), out);
                }
            }
            _ => {}
        }
    }

    /// The string at `path` (or the key, for a trailing `.`) made `len` bytes long.
    fn lengthen(v: &mut Value, path: &str, len: usize) {
        let long = "x".repeat(len);
        let (parent, key) = match path.strip_suffix('.') {
            Some(p) => (p, true),
            None => (path, false),
        };
        let pointer = parent
            .trim_start_matches('$')
            .replace(['.', '['], "/")
            .replace(']', "");
        if key {
            let (owner, name) = pointer.rsplit_once('/').expect("a member");
            let map = v.pointer_mut(owner).and_then(Value::as_object_mut);
            let map = map.expect("an object");
            let item = map.remove(name).expect("the member");
            map.insert(long, item);
        } else {
            *v.pointer_mut(&pointer).expect("the string") = Value::String(long);
        }
    }

    #[test]
    fn a_too_long_string_anywhere_is_reported_whichever_path_reads_the_file() {
        let origin: Arc<str> = Arc::from("t.json");
        let limit = 40;
        let opts = LoadOptions {
            max_string_len: limit,
            ..LoadOptions::default()
        };
        let file = every_string();
        // The file is longer than the limit, so the direct path has to look at each string.
        assert!(file.to_string().len() > limit);
        assert!(parse(&file.to_string(), &origin, &opts).is_ok());
        let mut paths = Vec::new();
        string_paths(&file, "$", &mut paths);
        assert!(paths.len() > 30, "{paths:?}");
        for path in paths {
            let mut long = file.clone();
            lengthen(&mut long, &path, limit + 1);
            let text = long.to_string();
            let Err(problems) = parse(&text, &origin, &opts) else {
                panic!("a string of {} bytes at {path} was accepted", limit + 1);
            };
            // A longer `format` is not a tree file; a longer key is also an unknown field.
            let too_long = problems
                .iter()
                .any(|p| matches!(p.kind, ProblemKind::StringTooLong { len: 41, .. }));
            let refused = too_long || path == "$.format" || path.ends_with('.');
            assert!(refused, "{path}: {problems:?}");
        }
    }

    #[test]
    fn a_key_type_is_a_string_too() {
        let origin: Arc<str> = Arc::from("t.json");
        let file = json!({
            "format": "arbor-tree", "version": 2, "guid": "g", "name": "t",
            "blackboard": [{"key": "k", "type": "list<string>"}]
        });
        let opts = |max_string_len| LoadOptions {
            max_string_len,
            ..LoadOptions::default()
        };
        assert!(parse(&file.to_string(), &origin, &opts(12)).is_ok());
        let Err(problems) = parse(&file.to_string(), &origin, &opts(11)) else {
            panic!("a type name of 12 bytes passed a limit of 11");
        };
        assert_eq!(problems[0].json_path, "$.blackboard[0].type");
    }

    #[test]
    fn escapes_count_once_decoded() {
        let origin: Arc<str> = Arc::from("t.json");
        let mut file = every_string();
        // 40 bytes decoded, 240 in the text.
        file["name"] = json!("é".repeat(20));
        let text = file.to_string().replace('é', "\\u00e9");
        let opts = LoadOptions {
            max_string_len: 40,
            ..LoadOptions::default()
        };
        assert!(parse(&text, &origin, &opts).is_ok());
        let opts = LoadOptions {
            max_string_len: 39,
            ..LoadOptions::default()
        };
        assert!(parse(&text, &origin, &opts).is_err());
    }
}
