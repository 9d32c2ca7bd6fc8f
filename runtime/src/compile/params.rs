//! Checks a node's (or decorator's) `params` against its type's declaration and produces
//! typed [`Args`]: unknown names (with a suggestion), missing required ones, wrong types,
//! undeclared blackboard keys. All problems are collected.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Map, Value as Json};

use super::problem::{Problem, ProblemKind};
use super::suggest::{closest, Suggestions};
use crate::args::{Arg, Args};
use crate::blackboard::Key;
use crate::format::TreeFile;
use crate::spec::{NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::value::{describe_json, Value, ValueType};

/// A file's declared blackboard keys, by name, as file-local keys.
pub(crate) struct FileKeys {
    pub by_name: HashMap<String, Key>,
    /// The type of each file-local key: the file's own, then (in a subtree file) the root
    /// tree's.
    pub types: Vec<ValueType>,
    /// Whether `{"$key": …}` values are bindings: from format version 2 on. In a
    /// version-1 file such an object is what it always was, a literal.
    pub bindings: bool,
    /// In a subtree file, the root tree's keys, which `@name` names (rule 70). The root
    /// key `g` is the file-local key `own + g`, after the file's own keys.
    root: Option<Rc<RootKeys>>,
    /// How many keys the file declares.
    own: u32,
    /// "Did you mean" lookups left for this file's undeclared keys.
    suggestions: Suggestions,
}

/// The top file's keys, as subtree files see them through `@name`.
pub(crate) struct RootKeys {
    pub by_name: HashMap<String, Key>,
    pub types: Vec<ValueType>,
}

impl RootKeys {
    pub(crate) fn of(top: &FileKeys) -> RootKeys {
        RootKeys {
            by_name: top.by_name.clone(),
            types: top.types[..top.own as usize].to_vec(),
        }
    }
}

impl FileKeys {
    pub(crate) fn new(file: &TreeFile) -> FileKeys {
        let mut by_name = HashMap::new();
        for (i, decl) in file.blackboard.iter().enumerate() {
            by_name.entry(decl.key.clone()).or_insert(Key(i as u32));
        }
        FileKeys {
            by_name,
            types: file.blackboard.iter().map(|d| d.ty).collect(),
            bindings: file.version >= 2,
            root: None,
            own: file.blackboard.len() as u32,
            suggestions: Suggestions::default(),
        }
    }

    /// The keys of a file loaded as a subtree of the tree whose keys are `root`: `@name`
    /// then names the root's key (rule 70).
    pub(crate) fn under(mut self, root: Option<Rc<RootKeys>>) -> FileKeys {
        if let Some(r) = &root {
            self.types.extend_from_slice(&r.types);
        }
        self.root = root;
        self
    }

    /// The file-local key of the root tree's key `name`, in a subtree file.
    pub(crate) fn root_key(&self, name: &str) -> Option<Key> {
        let root = self.root.as_ref()?;
        root.by_name.get(name).map(|k| Key(self.own + k.0))
    }

    /// The key a parameter names: a declared key of that exact name (files imported
    /// before rule 70 declare keys named `@x`), else for `@name` the root tree's key in a
    /// subtree file and the file's own `name` in the top file.
    pub(crate) fn lookup(&self, name: &str) -> Option<Key> {
        if let Some(k) = self.by_name.get(name) {
            return Some(*k);
        }
        let bare = name.strip_prefix('@')?;
        match self.root {
            Some(_) => self.root_key(bare),
            None => self.by_name.get(bare).copied(),
        }
    }

    /// The file-local key `local` as a key of the compiled tree, given the key map of
    /// this file's instance (one entry per own key): root keys follow the own ones, and
    /// the top file's keys are the compiled tree's first keys.
    pub(crate) fn global(map: &[Key], local: Key) -> Key {
        match map.get(local.index()) {
            Some(k) => *k,
            None => Key(local.0 - map.len() as u32),
        }
    }

    fn resolve(&self, name: &str) -> Result<Key, ProblemKind> {
        if let Some(k) = self.lookup(name) {
            return Ok(k);
        }
        match (name.strip_prefix('@'), &self.root) {
            (Some(bare), Some(root)) => Err(ProblemKind::UndeclaredRootKey {
                key: bare.to_owned(),
                suggestion: self
                    .suggestions
                    .closest(bare, root.by_name.keys().map(String::as_str)),
            }),
            _ => Err(ProblemKind::UndeclaredKey {
                key: name.to_owned(),
                suggestion: self
                    .suggestions
                    .closest(name, self.by_name.keys().map(String::as_str)),
            }),
        }
    }
}

/// Where problems are reported: the file, the JSON path of the `params` owner, the node.
pub(crate) struct Site<'a> {
    pub origin: &'a Arc<str>,
    /// The node's index in the file's `nodes`, and the decorator's in its `decorators`.
    /// The JSON path is only formatted when a problem is reported: formatting it for every
    /// node made a tenth of loading a large tree.
    pub node_index: usize,
    pub decorator: Option<usize>,
    pub node: (&'a str, &'a str, &'a str),
}

impl Site<'_> {
    pub(crate) fn problem(&self, suffix: &str, kind: ProblemKind) -> Problem {
        let (guid, name, kind_name) = self.node;
        let i = self.node_index;
        let path = match self.decorator {
            Some(j) => format!("$.nodes[{i}].decorators[{j}]{suffix}"),
            None => format!("$.nodes[{i}]{suffix}"),
        };
        Problem::new(self.origin, path, kind).at_node(guid, name, kind_name)
    }
}

pub(crate) fn check(
    ty: &NodeType,
    params: &Map<String, Json>,
    keys: &FileKeys,
    site: &Site<'_>,
    problems: &mut Vec<Problem>,
) -> Args {
    for name in params.keys() {
        if ty.param_spec(name).is_none() {
            problems.push(site.problem(
                &format!(".params.{name}"),
                ProblemKind::UnknownParam {
                    param: name.clone(),
                    kind: ty.name.clone(),
                    suggestion: closest(name, ty.params.iter().map(|p| p.name.as_str())),
                },
            ));
        }
    }
    let mut args = Args::default();
    // The type of the node's `key` parameter, which `KeyValue` parameters take.
    let mut key_type: Option<ValueType> = None;
    for spec in &ty.params {
        let given = params.get(&spec.name);
        let at = || format!(".params.{}", spec.name);
        let bad = |message: String| {
            site.problem(
                &at(),
                ProblemKind::BadParam {
                    param: spec.name.clone(),
                    message,
                },
            )
        };
        // A binding in the file (from version 2 on), or a declared default binding (part
        // of the node type, whatever the file's version).
        let bindable = match given {
            Some(json) => keys.bindings.then_some(json),
            None => spec.default.as_ref(),
        };
        if let Some(json) = bindable {
            match crate::port::binding(json) {
                Err(message) => {
                    problems.push(bad(message));
                    continue;
                }
                Ok(Some(name)) => {
                    match bind(spec, name, key_type, keys) {
                        Ok(arg) => args.push(&spec.name, arg),
                        Err(kind) => problems.push(site.problem(&at(), kind)),
                    }
                    continue;
                }
                Ok(None) if spec.direction.writes() && spec.kind.bindable() => {
                    problems.push(bad(format!(
                        "is an output: bind it to a blackboard key, as {{\"$key\": \"name\"}}; \
                         found {}",
                        describe_json(json)
                    )));
                    continue;
                }
                Ok(None) => {}
            }
        }
        let Some(json) = given.or(spec.default.as_ref()) else {
            if spec.is_required() {
                problems.push(site.problem(
                    ".params",
                    ProblemKind::MissingParam {
                        param: spec.name.clone(),
                        expected: if spec.direction.writes() && spec.kind.bindable() {
                            format!("an output: a binding to a key of type {}", spec.kind)
                        } else {
                            expected(spec.kind, &spec.values)
                        },
                    },
                ));
            }
            continue;
        };
        let arg = match spec.kind {
            ParamKind::Bool
            | ParamKind::Int
            | ParamKind::Float
            | ParamKind::String
            | ParamKind::Json
            | ParamKind::List(_)
            | ParamKind::Map(_)
            | ParamKind::Vec2
            | ParamKind::Vec3
            | ParamKind::Entity
            | ParamKind::User(_) => {
                let ty = spec.kind.value_kind().unwrap_or(ValueType::Json);
                ty.coerce(json).map(Arg::Value).map_err(bad)
            }
            ParamKind::Enum => match json.as_str() {
                Some(s) if spec.values.iter().any(|v| v == s) => Ok(Arg::Value(Value::from(s))),
                _ => Err(bad(format!(
                    "expected one of {}, found {}",
                    spec.values.join(", "),
                    describe_json(json)
                ))),
            },
            ParamKind::Path | ParamKind::Event | ParamKind::Trigger | ParamKind::Script => {
                match json.as_str() {
                    Some(s) if !s.trim().is_empty() => Ok(Arg::Value(Value::from(s))),
                    _ => Err(bad(format!(
                        "expected a non-empty string, found {}",
                        describe_json(json)
                    ))),
                }
            }
            ParamKind::Key => match json.as_str() {
                Some(name) => match keys.resolve(name) {
                    Ok(key) => {
                        key_type = Some(keys.types[key.index()]);
                        Ok(Arg::Key(key))
                    }
                    Err(kind) => Err(site.problem(&at(), kind)),
                },
                None => Err(bad(format!(
                    "expected a blackboard key name, found {}",
                    describe_json(json)
                ))),
            },
            ParamKind::KeyValue => match key_type {
                // Without a valid key there is nothing to type the value against; the key's
                // own problem has been reported.
                None => continue,
                Some(ty) => ty
                    .coerce(json)
                    .map(Arg::Value)
                    .map_err(|m| bad(format!("{m} (the key's type)"))),
            },
            ParamKind::Statuses => statuses(json).map(Arg::Statuses).map_err(bad),
            ParamKind::KeyMap => key_map(json).map(Arg::KeyMap).map_err(bad),
        };
        match arg {
            Ok(arg) => args.push(&spec.name, arg),
            Err(problem) => problems.push(problem),
        }
    }
    args
}

/// Checks a binding of parameter `spec` to the key `name`: the key is declared, the
/// parameter may be bound, and the key's declared type fits the parameter's type in the
/// directions the parameter uses.
fn bind(
    spec: &ParamSpec,
    name: &str,
    key_type: Option<ValueType>,
    keys: &FileKeys,
) -> Result<Arg, ProblemKind> {
    if !spec.bindable() {
        return Err(ProblemKind::BadParam {
            param: spec.name.clone(),
            message: format!(
                "cannot be bound to a blackboard key: {} must be written out in the file",
                expected(spec.kind, &spec.values)
            ),
        });
    }
    let key = keys.resolve(name)?;
    let declared = keys.types[key.index()];
    // Without a valid `key` parameter there is nothing to type a `key_value` against; that
    // key's own problem has been reported.
    if spec.fits_key(declared, key_type) {
        return Ok(Arg::Bound { key, ty: declared });
    }
    let wanted = spec.carried_type(key_type).unwrap_or(ValueType::Json);
    Err(ProblemKind::BindingMismatch {
        param: spec.name.clone(),
        param_type: wanted,
        key: name.to_owned(),
        key_type: declared,
        // Reported as a failed write unless reading is what fails.
        writes: !spec.direction.reads() || declared.reads_as(wanted),
    })
}

fn expected(kind: ParamKind, values: &[String]) -> String {
    match kind {
        ParamKind::Bool => "a boolean".to_owned(),
        ParamKind::Int => "an integer".to_owned(),
        ParamKind::Float => "a number".to_owned(),
        ParamKind::String => "a string".to_owned(),
        ParamKind::Json
        | ParamKind::List(_)
        | ParamKind::Map(_)
        | ParamKind::Vec2
        | ParamKind::Vec3
        | ParamKind::Entity
        | ParamKind::User(_) => kind
            .value_kind()
            .map_or("a value", ValueType::describe)
            .to_owned(),
        ParamKind::Key => "a blackboard key name".to_owned(),
        ParamKind::KeyValue => "a value of the key's type".to_owned(),
        ParamKind::Statuses => "a list of statuses".to_owned(),
        ParamKind::Enum => format!("one of {}", values.join(", ")),
        ParamKind::Path => "a file path".to_owned(),
        ParamKind::KeyMap => "an object of key names".to_owned(),
        ParamKind::Event => "an event name".to_owned(),
        ParamKind::Trigger => "a trigger name".to_owned(),
        ParamKind::Script => "a script".to_owned(),
    }
}

fn statuses(json: &Json) -> Result<Arc<[Status]>, String> {
    let items = json
        .as_array()
        .ok_or_else(|| format!("expected a list of statuses, found {}", describe_json(json)))?;
    if items.is_empty() {
        return Err("must list at least one status".to_owned());
    }
    items
        .iter()
        .map(|item| {
            item.as_str().and_then(Status::parse).ok_or_else(|| {
                format!(
                    "expected \"success\", \"failure\" or \"running\", found {}",
                    describe_json(item)
                )
            })
        })
        .collect()
}

fn key_map(json: &Json) -> Result<Vec<(String, String)>, String> {
    let object = json.as_object().ok_or_else(|| {
        format!(
            "expected an object of key names, found {}",
            describe_json(json)
        )
    })?;
    object
        .iter()
        .map(|(k, v)| match v.as_str() {
            Some(s) => Ok((k.clone(), s.to_owned())),
            None => Err(format!(
                "`{k}` should map to a key name, found {}",
                describe_json(v)
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::KeyDecl;

    fn file(keys: &[(&str, ValueType)]) -> TreeFile {
        let mut f = TreeFile::new("t");
        f.blackboard = keys
            .iter()
            .map(|(k, ty)| KeyDecl {
                key: (*k).to_owned(),
                ty: *ty,
                default: None,
                description: String::new(),
                unknown: Default::default(),
            })
            .collect();
        f
    }

    #[test]
    fn root_keys_follow_the_files_own_keys() {
        let top = FileKeys::new(&file(&[
            ("goal", ValueType::Int),
            ("speed", ValueType::Float),
        ]));
        let root = Some(Rc::new(RootKeys::of(&top)));
        let sub =
            FileKeys::new(&file(&[("n", ValueType::Int), ("@old", ValueType::Bool)])).under(root);
        // Own keys 0 and 1; the root's `speed` (root key 1) is file-local key 2 + 1.
        assert_eq!(sub.lookup("n"), Some(Key(0)));
        assert_eq!(sub.lookup("@speed"), Some(Key(3)));
        assert_eq!(sub.types[3], ValueType::Float);
        // A key declared with the `@` in its name is the file's own (rule 70).
        assert_eq!(sub.lookup("@old"), Some(Key(1)));
        assert_eq!(sub.lookup("speed"), None);
        // An instance maps its own keys; root keys are the compiled tree's first keys.
        let map = [Key(7), Key(8)];
        assert_eq!(FileKeys::global(&map, Key(0)), Key(7));
        assert_eq!(FileKeys::global(&map, Key(3)), Key(1));
        assert!(matches!(
            sub.resolve("@goals"),
            Err(ProblemKind::UndeclaredRootKey { key, suggestion: Some(s) })
                if key == "goals" && s == "goal"
        ));
        // In the top file `@goal` is its own `goal`.
        assert_eq!(top.lookup("@goal"), Some(Key(0)));
        assert!(matches!(
            top.resolve("@nope"),
            Err(ProblemKind::UndeclaredKey { .. })
        ));
    }
}
