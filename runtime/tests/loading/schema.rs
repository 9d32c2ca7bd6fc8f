//! The JSON Schemas in docs/ (arbor-tree.schema.json, arbor-node-types.schema.json,
//! arbor-project.schema.json) checked against real files and against the runtime itself:
//! - sample trees (and the sample variants) and tests/data/good validate, and the good
//!   files load and run;
//! - tests/data/schema_bad files are refused, by the schema *and* by the loader;
//! - what the runtime writes (`TreeFile::to_json_pretty`, `NodeTypes::manifest_where`)
//!   validates;
//! - the schema's per-type `if`/`then` rules name exactly the built-in types and declare
//!   the same parameters, so adding or changing a built-in node fails here until the
//!   schema (and docs/nodes.md) follow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_runtime::format::{DecoratorDef, KeyDecl, NodeDef, TreeFile};
use arbor_runtime::{Agent, ChildCount, NodeType, NodeTypes, ParamKind, Registry, Status};
use serde_json::{json, Value};

fn runtime_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn workspace_dir() -> PathBuf {
    runtime_dir()
        .parent()
        .expect("the runtime crate sits in the workspace")
        .to_path_buf()
}

fn data_dir(name: &str) -> PathBuf {
    runtime_dir().join("tests").join("data").join(name)
}

fn tree_schema_path() -> PathBuf {
    workspace_dir().join("docs").join("arbor-tree.schema.json")
}

fn manifest_schema_path() -> PathBuf {
    workspace_dir()
        .join("docs")
        .join("arbor-node-types.schema.json")
}

/// Both schemas, compiled, and the parts of the tree schema that docs examples use.
struct Compiled {
    schemas: boon::Schemas,
    tree: boon::SchemaIndex,
    manifest: boon::SchemaIndex,
    /// docs/arbor-project.schema.json.
    project: boon::SchemaIndex,
    /// `$defs/node` of the tree schema: one node.
    node: boon::SchemaIndex,
    /// `$defs/editor` of the tree schema: the editor section.
    editor: boon::SchemaIndex,
    /// `$defs/variant` of the tree schema: a variant file.
    variant: boon::SchemaIndex,
}

impl Compiled {
    fn new() -> Compiled {
        let mut schemas = boon::Schemas::new();
        let mut compiler = boon::Compiler::new();
        let mut compile = |path: PathBuf, fragment: &str| {
            let loc = path
                .to_str()
                .expect("the workspace path is UTF-8")
                .to_owned()
                + fragment;
            compiler
                .compile(&loc, &mut schemas)
                .unwrap_or_else(|e| panic!("{loc} does not compile: {e:#}"))
        };
        let tree = compile(tree_schema_path(), "");
        let manifest = compile(manifest_schema_path(), "");
        let project = compile(
            workspace_dir()
                .join("docs")
                .join("arbor-project.schema.json"),
            "",
        );
        let node = compile(tree_schema_path(), "#/$defs/node");
        let editor = compile(tree_schema_path(), "#/$defs/editor");
        let variant = compile(tree_schema_path(), "#/$defs/variant");
        Compiled {
            schemas,
            tree,
            manifest,
            project,
            node,
            editor,
            variant,
        }
    }

    /// `None` if `value` matches schema `index`, else the validator's explanation.
    fn errors(&self, value: &Value, index: boon::SchemaIndex) -> Option<String> {
        self.schemas
            .validate(value, index)
            .err()
            .map(|e| e.to_string())
    }

    fn tree_errors(&self, value: &Value) -> Option<String> {
        self.errors(value, self.tree)
    }

    fn manifest_errors(&self, value: &Value) -> Option<String> {
        self.errors(value, self.manifest)
    }
}

/// Every `*.json` file under `dir`, recursively, sorted. A folder that is missing or holds
/// fewer than `at_least` files fails the test: a check that finds nothing to check must
/// not pass.
fn json_files(dir: &Path, at_least: usize) -> Vec<PathBuf> {
    assert!(dir.is_dir(), "{} is not a folder", dir.display());
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a readable directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                found.push(path);
            }
        }
    }
    found.sort();
    assert!(
        found.len() >= at_least,
        "{} should hold at least {at_least} JSON files; found {found:?}",
        dir.display()
    );
    found
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()))
}

/// Panics listing every failure, so one run shows all of them.
fn report(what: &str, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{what}: {} failure(s)\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn both_schemas_compile() {
    // Compiling also validates each schema against the draft 2020-12 meta-schema.
    let compiled = Compiled::new();
    assert!(compiled.schemas.size() >= 3);
}

#[test]
fn sample_trees_and_good_files_validate() {
    let compiled = Compiled::new();
    let good = json_files(&data_dir("good"), 3);
    let samples = json_files(&workspace_dir().join("samples").join("trees"), 5);
    let mut failures = Vec::new();
    for path in good.iter().chain(&samples) {
        let value = read_json(path);
        // A sample variant file (samples/trees/variants) matches the variant schema.
        let schema = match value["format"].as_str() {
            Some(arbor_runtime::format::VARIANT_FORMAT) => compiled.variant,
            _ => compiled.tree,
        };
        if let Some(errors) = compiled.errors(&value, schema) {
            failures.push(format!("{}:\n{errors}", path.display()));
        }
    }
    report(
        "tree files that do not match docs/arbor-tree.schema.json",
        failures,
    );
}

#[test]
fn sample_manifests_validate() {
    let compiled = Compiled::new();
    let mut failures = Vec::new();
    for path in json_files(&workspace_dir().join("samples").join("manifests"), 4) {
        if let Some(errors) = compiled.manifest_errors(&read_json(&path)) {
            failures.push(format!("{}:\n{errors}", path.display()));
        }
    }
    report(
        "manifests that do not match docs/arbor-node-types.schema.json",
        failures,
    );
}

/// The sample projects: each project file matches docs/arbor-project.schema.json (and is
/// what `ProjectFile` reads), each manifest the manifest schema, each tree the tree schema.
#[test]
fn sample_projects_validate() {
    let compiled = Compiled::new();
    let mut failures = Vec::new();
    for path in json_files(&workspace_dir().join("samples").join("projects"), 3) {
        let value = read_json(&path);
        let errors = match value["format"].as_str() {
            Some("arbor-project") => {
                let text = std::fs::read_to_string(&path).expect("readable");
                if let Err(e) = arbor_runtime::format::ProjectFile::parse(&text) {
                    failures.push(format!("{}: {e}", path.display()));
                }
                compiled.errors(&value, compiled.project)
            }
            Some("arbor-node-types") => compiled.manifest_errors(&value),
            _ => compiled.tree_errors(&value),
        };
        if let Some(errors) = errors {
            failures.push(format!("{}:\n{errors}", path.display()));
        }
    }
    report(
        "sample project files that do not match their schema",
        failures,
    );
}

#[test]
fn good_files_load_run_and_are_canonical() {
    let registry = Registry::<()>::new();
    let mut failures = Vec::new();
    for path in json_files(&data_dir("good"), 3) {
        let tree = match registry.loader().load_file(&path) {
            Ok(tree) => tree,
            Err(e) => {
                failures.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        let mut agent = Agent::new(Arc::new(tree), 7);
        for _ in 0..40 {
            agent.tick(&mut (), 0.25);
        }
        // The files are written as `TreeFile::to_json_pretty` writes them (docs/format.md,
        // "Canonical form").
        let text = std::fs::read_to_string(&path).expect("readable");
        match arbor_runtime::parse_str(&text, Some(&path)) {
            Ok(file) if file.to_json_pretty() == text => {}
            Ok(_) => failures.push(format!("{}: not in canonical form", path.display())),
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    report("good files", failures);
}

#[test]
fn bad_files_are_refused_by_schema_and_loader() {
    let compiled = Compiled::new();
    let registry = Registry::<()>::new();
    let bad = json_files(&data_dir("schema_bad"), 5);
    let mut failures = Vec::new();
    for path in &bad {
        if compiled.tree_errors(&read_json(path)).is_none() {
            failures.push(format!("{}: the schema accepts it", path.display()));
        }
        // The schema must not be stricter than the loader on these: each is a real error.
        if registry.loader().load_file(path).is_ok() {
            failures.push(format!("{}: the loader accepts it", path.display()));
        }
    }
    report("files in tests/data/schema_bad", failures);
}

/// Example parameters for each built-in node type, valid for [`all_builtins_tree`]'s
/// blackboard. A new built-in type fails the test until it is added here.
fn example_params(name: &str) -> Option<Value> {
    let params = match name {
        "Sequence" => json!({"dynamic": true}),
        "Selector" => json!({"dynamic": false}),
        "Parallel" => json!({"need": 2}),
        "Inverter" | "Succeeder" | "ForceFailure" => json!({}),
        "Repeat" => json!({"count": 3}),
        "Retry" => json!({"attempts": -1}),
        "Limiter" => json!({"max": 2}),
        "Timeout" => json!({"seconds": 2.5}),
        "Subtree" => json!({"path": "lib/fetch.json", "remap": {"count": "counter"}}),
        "Wait" => json!({"seconds": 0}),
        "Scripted" => json!({"returns": ["running", "success"]}),
        "Condition" => json!({"key": "flag", "equals": true}),
        "Increment" => json!({"key": "counter", "by": 2}),
        "SetBlackboard" => json!({"key": "label", "value": "seen", "ttl": 1.5}),
        "SendEvent" => json!({"event": "ping"}),
        "SetTrigger" => json!({"trigger": "go"}),
        "Log" => json!({"message": "hello"}),
        "Random" => json!({"probability": 0.25}),
        "IfThenElse" | "WhileDoElse" | "KeepRunningUntilFailure" => json!({}),
        "Switch" => json!({"variable": "label", "case_1": "seen", "case_2": "unseen"}),
        "Delay" => json!({"seconds": 0.5}),
        "RunOnce" => json!({"then_skip": false}),
        "Script" => json!({"code": "counter += 1; label := 'n=' .. counter"}),
        "ScriptCondition" => json!({"code": "counter > 2 && !flag"}),
        "ParallelAll" => json!({"max_failures": -1}),
        "Loop" => json!({"queue": [1, 2], "value": "counter", "if_empty": "failure"}),
        "IfUpdated" => json!({"key": "counter", "otherwise": "success"}),
        "WasUpdated" => json!({"key": "counter"}),
        "UnsetBlackboard" => json!({"key": "label"}),
        "Cooldown" => json!({"seconds": 2}),
        "RandomSelector" => json!({"weights": [3, 1]}),
        "UtilitySelector" => json!({"scores": [0.5, 0.25], "dynamic": true}),
        _ => return None,
    };
    Some(params)
}

/// Example parameters for each attached decorator type.
fn example_decorator_params(name: &str) -> Option<Value> {
    let params = match name {
        "Condition" => json!({"key": "flag", "equals": true, "invert": true, "abort": "Both"}),
        "Precondition" => json!({"key": "flag", "equals": false}),
        "CheckEvent" => json!({"event": "ping", "abort": "LowerPriority"}),
        "CheckTrigger" => json!({"trigger": "go", "reset": "EnterNode", "abort": "Self"}),
        "Inverter" => json!({}),
        "FailureIf" | "SuccessIf" => json!({"code": "counter >= 3"}),
        "SkipIf" => json!({"code": "flag", "skipped": "failure"}),
        "While" => json!({"code": "!flag"}),
        "OnSuccess" | "OnFailure" | "OnHalted" | "Post" => json!({"code": "counter += 1"}),
        _ => return None,
    };
    Some(params)
}

fn object(value: Value) -> serde_json::Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("expected an object, found {other}"),
    }
}

/// A tree holding one node of every built-in type (with a child where the type takes
/// one) and every attached decorator type, built through the runtime's format API.
fn all_builtins_tree(types: &NodeTypes) -> TreeFile {
    let mut file = TreeFile::new("every built-in");
    file.description = "One node of each built-in type.".to_owned();
    file.blackboard = [
        json!({"key": "flag", "type": "bool", "default": false}),
        json!({"key": "counter", "type": "int", "default": 0}),
        json!({"key": "label", "type": "string", "description": "Set by SetBlackboard."}),
    ]
    .into_iter()
    .map(|decl| serde_json::from_value::<KeyDecl>(decl).expect("a valid key declaration"))
    .collect();

    let mut root = NodeDef::new("Sequence");
    root.name = "all".to_owned();
    let mut nodes = Vec::new();
    for ty in types.nodes() {
        let params = example_params(&ty.name).unwrap_or_else(|| {
            panic!(
                "built-in node type `{}` has no example in tests/loading/schema.rs; add one (and a rule \
                 in docs/arbor-tree.schema.json, and a section in docs/nodes.md)",
                ty.name
            )
        });
        let mut node = NodeDef::new(ty.name.clone());
        node.params = object(params);
        let wanted = match ty.children() {
            ChildCount::None => 0,
            ChildCount::One | ChildCount::Many => 1,
            ChildCount::Range { min, .. } => min,
        };
        let children: Vec<NodeDef> = (1..=wanted)
            .map(|k| {
                let mut leaf = NodeDef::new("Scripted");
                leaf.name = format!("child {k} of {}", ty.name);
                leaf.params = object(json!({"returns": ["success"]}));
                leaf
            })
            .collect();
        node.children
            .extend(children.iter().map(|child| child.guid.clone()));
        root.children.push(node.guid.clone());
        nodes.push(node);
        nodes.extend(children);
    }

    let mut decorated = NodeDef::new("Log");
    decorated.name = "decorated".to_owned();
    decorated.params = object(json!({"message": "all decorators passed"}));
    for ty in types.decorators() {
        let params = example_decorator_params(&ty.name).unwrap_or_else(|| {
            panic!(
                "attached decorator type `{}` has no example in tests/loading/schema.rs",
                ty.name
            )
        });
        let mut decorator = DecoratorDef::new(ty.name.clone());
        decorator.params = object(params);
        decorated.decorators.push(decorator);
    }
    root.children.push(decorated.guid.clone());
    nodes.push(decorated);

    file.root = Some(root.guid.clone());
    file.nodes = std::iter::once(root).chain(nodes).collect();
    file.editor = Some(json!({
        "manifests": [],
        "positions": {},
        "future_editor_data": {"anything": [1, 2, 3]},
    }));
    file
}

#[test]
fn runtime_output_conforms() {
    let compiled = Compiled::new();
    let types = NodeTypes::builtin();
    let file = all_builtins_tree(&types);
    let text = file.to_json_pretty();
    let value: Value = serde_json::from_str(&text).expect("the runtime writes JSON");
    if let Some(errors) = compiled.tree_errors(&value) {
        panic!("TreeFile::to_json_pretty output does not match the schema:\n{errors}\n\n{text}");
    }

    // The same tree is one the loader accepts (it refers to good/lib/fetch.json).
    let anchor = data_dir("good").join("generated.json");
    let tree = Registry::<()>::new()
        .loader()
        .load_str(&text, Some(&anchor))
        .unwrap_or_else(|e| panic!("{e}\n\n{text}"));
    let mut agent = Agent::new(Arc::new(tree), 1);
    let status = agent.tick(&mut (), 1.0);
    assert!(matches!(
        status,
        Status::Running | Status::Success | Status::Failure
    ));

    let back: TreeFile = serde_json::from_str(&text).expect("reads back");
    assert_eq!(back, file);
    assert_eq!(back.to_json_pretty(), text);
}

#[test]
fn runtime_manifests_conform() {
    let compiled = Compiled::new();
    let builtin = NodeTypes::builtin().manifest_where(|_| true);
    let value: Value = serde_json::from_str(&builtin).expect("the runtime writes JSON");
    if let Some(errors) = compiled.manifest_errors(&value) {
        panic!("the built-in manifest does not match the schema:\n{errors}\n\n{builtin}");
    }

    // A host program's manifest, as `Registry::manifest` writes it.
    let mut registry = Registry::<()>::new();
    registry.register(
        NodeType::action("WalkTo", "Walks to a place.")
            .param(arbor_runtime::ParamSpec::new(
                "speed",
                ParamKind::Float,
                "Metres per second.",
            ))
            .param(
                arbor_runtime::ParamSpec::new("gait", ParamKind::Enum, "How.")
                    .values(&["walk", "run"])
                    .default("walk".into()),
            )
            .here(),
        |_| {
            Ok(arbor_runtime::ActionFn(
                |_: &mut arbor_runtime::ActionCtx<'_, ()>| Status::Success,
            ))
        },
    );
    let host = registry.manifest();
    let value: Value = serde_json::from_str(&host).expect("the runtime writes JSON");
    if let Some(errors) = compiled.manifest_errors(&value) {
        panic!("a host manifest does not match the schema:\n{errors}\n\n{host}");
    }
    // The source location recorded by `here()` is this file, and reads back.
    let source = &value["nodes"][0]["source"];
    assert!(source["file"]
        .as_str()
        .is_some_and(|f| f.ends_with("schema.rs")));
    assert!(source["line"].as_u64().is_some_and(|l| l > 1));
    let mut back = NodeTypes::builtin();
    back.merge_manifest(&host)
        .expect("the runtime reads what it writes");
    assert_eq!(
        back.node("WalkTo").and_then(|t| t.source.clone()),
        registry
            .types()
            .node("WalkTo")
            .and_then(|t| t.source.clone())
    );
    // And the schema is not vacuous.
    let mut wrong = value.clone();
    // Not a built-in type, nor a user value type's name (lowercase letters, digits, `_`).
    wrong["nodes"][0]["params"][0]["type"] = json!("list<number>");
    assert!(compiled.manifest_errors(&wrong).is_some());
    let mut wrong = value.clone();
    wrong["nodes"][0]["source"]["line"] = json!(0);
    assert!(compiled.manifest_errors(&wrong).is_some());
}

/// The `if`/`then` rules of `$defs/<def>`: type name -> (params schema, params required).
fn schema_rules(schema: &Value, def: &str) -> BTreeMap<String, (Value, bool)> {
    let mut rules = BTreeMap::new();
    let all_of = schema["$defs"][def]["allOf"]
        .as_array()
        .unwrap_or_else(|| panic!("$defs/{def} has no allOf"));
    for rule in all_of {
        let name = rule["if"]["properties"]["type"]["const"]
            .as_str()
            .unwrap_or_else(|| panic!("a rule of $defs/{def} is not keyed by type: {rule}"));
        let then = &rule["then"];
        let reference = then["properties"]["params"]["$ref"]
            .as_str()
            .unwrap_or_else(|| panic!("the {name} rule of $defs/{def} has no params $ref"));
        let target = reference
            .strip_prefix("#/$defs/")
            .unwrap_or_else(|| panic!("unexpected $ref {reference}"));
        let params = schema["$defs"][target].clone();
        assert!(params.is_object(), "{reference} does not exist");
        let required = then["required"]
            .as_array()
            .is_some_and(|r| r.contains(&json!("params")));
        let previous = rules.insert(name.to_owned(), (params, required));
        assert!(previous.is_none(), "two rules for {name} in $defs/{def}");
    }
    rules
}

/// Differences between a type's declaration and its params schema.
fn compare_params(ty: &NodeType, params: &Value, required: bool) -> Vec<String> {
    let mut diffs = Vec::new();
    let label = &ty.name;
    let props = params["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let in_schema: BTreeSet<&str> = props.keys().map(String::as_str).collect();
    let declared: BTreeSet<&str> = ty.params.iter().map(|p| p.name.as_str()).collect();
    if in_schema != declared {
        diffs.push(format!(
            "{label}: schema params {in_schema:?}, declared {declared:?}"
        ));
    }
    if params["additionalProperties"] != json!(false) {
        diffs.push(format!(
            "{label}: params must be additionalProperties: false"
        ));
    }
    let schema_required: BTreeSet<&str> = params["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let declared_required: BTreeSet<&str> = ty
        .params
        .iter()
        .filter(|p| p.is_required())
        .map(|p| p.name.as_str())
        .collect();
    if schema_required != declared_required {
        diffs.push(format!(
            "{label}: schema requires {schema_required:?}, declared required {declared_required:?}"
        ));
    }
    if !declared_required.is_empty() && !required {
        diffs.push(format!(
            "{label}: has required params but `params` is not required"
        ));
    }
    for spec in &ty.params {
        let Some(p) = props.get(&spec.name) else {
            continue;
        };
        let at = format!("{label}.{}", spec.name);
        // A bindable parameter is `anyOf: [<its literal form>, binding]` (or any value at
        // all, for the key-typed values); a literal-only one has no binding branch.
        let binding = json!({"$ref": "#/$defs/binding"});
        let branches = p["anyOf"].as_array();
        let bound = branches.is_some_and(|b| b.len() == 2 && b[1] == binding);
        let open = p.get("type").is_none() && p.get("$ref").is_none() && p.get("anyOf").is_none();
        if spec.bindable() != (bound || (open && spec.kind == ParamKind::KeyValue)) {
            diffs.push(format!(
                "{at}: bindable is {}, but the schema {} a binding",
                spec.bindable(),
                if bound { "allows" } else { "does not allow" }
            ));
        }
        let literal = if bound {
            &branches.expect("checked")[0]
        } else {
            p
        };
        let reference = literal["$ref"].as_str();
        let ok = match spec.kind {
            ParamKind::Bool => literal["type"] == "boolean",
            ParamKind::Int => literal["type"] == "integer",
            ParamKind::Float => literal["type"] == "number",
            ParamKind::String => literal["type"] == "string",
            ParamKind::Json => true,
            ParamKind::List(_) => literal["type"] == "array",
            ParamKind::Map(_) => literal["type"] == "object",
            // An array of numbers or an object of named components.
            ParamKind::Vec2 | ParamKind::Vec3 => literal.get("oneOf").is_some(),
            ParamKind::Entity => literal["type"] == "integer",
            // Built-in types have no parameters of a program's own types.
            ParamKind::User(_) => false,
            ParamKind::Key => reference == Some("#/$defs/keyName"),
            ParamKind::KeyValue => true,
            ParamKind::Statuses => reference == Some("#/$defs/statuses"),
            ParamKind::Enum => literal["enum"] == json!(spec.values),
            ParamKind::Path | ParamKind::Event | ParamKind::Trigger | ParamKind::Script => {
                reference == Some("#/$defs/nonBlank")
            }
            ParamKind::KeyMap => reference == Some("#/$defs/keyMap"),
        };
        if !ok {
            diffs.push(format!(
                "{at}: schema {p} does not match kind {:?} {:?}",
                spec.kind, spec.values
            ));
        }
        if p.get("default") != spec.default.as_ref() {
            diffs.push(format!(
                "{at}: schema default {:?}, declared {:?}",
                p.get("default"),
                spec.default
            ));
        }
    }
    diffs
}

#[test]
fn schema_rules_match_the_builtin_types() {
    let schema = read_json(&tree_schema_path());
    let types = NodeTypes::builtin();
    let mut diffs = Vec::new();

    for (def, declared) in [
        ("node", types.nodes().collect::<Vec<_>>()),
        ("decorator", types.decorators().collect::<Vec<_>>()),
    ] {
        let rules = schema_rules(&schema, def);
        let in_schema: BTreeSet<&str> = rules.keys().map(String::as_str).collect();
        let builtin: BTreeSet<&str> = declared.iter().map(|t| t.name.as_str()).collect();
        if in_schema != builtin {
            diffs.push(format!(
                "$defs/{def}: rules for {in_schema:?}, built-in types {builtin:?}"
            ));
        }
        for ty in declared {
            if let Some((params, required)) = rules.get(&ty.name) {
                diffs.extend(compare_params(ty, params, *required));
            }
        }
    }

    // Decorator and node types are open: host conditions attach as decorators (docs/
    // semantics.md rule 48), host types are nodes; the decorator-only names are refused as
    // nodes.
    let decorator_type = &schema["$defs"]["decorator"]["properties"]["type"];
    if decorator_type.get("enum").is_some() || decorator_type["type"] != "string" {
        diffs.push(format!(
            "a decorator's type must be any string (host conditions attach too): {decorator_type}"
        ));
    }
    let decorators: BTreeSet<&str> = types.decorators().map(|t| t.name.as_str()).collect();
    let not_nodes: BTreeSet<&str> = schema["$defs"]["node"]["properties"]["type"]["not"]["enum"]
        .as_array()
        .map(|e| e.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let decorator_only: BTreeSet<&str> = decorators
        .iter()
        .copied()
        .filter(|name| types.node(name).is_none())
        .collect();
    if not_nodes != decorator_only {
        diffs.push(format!(
            "node type exclusions {not_nodes:?}, decorator-only types {decorator_only:?}"
        ));
    }
    report(
        "docs/arbor-tree.schema.json against NodeTypes::builtin()",
        diffs,
    );
}

/// The ```json blocks of a Markdown file, each with the line number of its fence.
fn json_blocks(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match &mut current {
            None if fence && line.trim() == "```json" => current = Some((i + 1, String::new())),
            None => {}
            Some(_) if fence => blocks.extend(current.take()),
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    blocks
}

/// Gives a node example the GUIDs the docs leave out (its own and its decorators'), and
/// real GUIDs in place of `"<child>"` placeholders.
fn with_guids(node: &mut Value, next: &mut impl FnMut() -> String) {
    let Some(object) = node.as_object_mut() else {
        return;
    };
    if !object.contains_key("guid") {
        object.insert("guid".to_owned(), json!(next()));
    }
    if let Some(Value::Array(children)) = object.get_mut("children") {
        for child in children {
            *child = json!(next());
        }
    }
    if let Some(Value::Array(decorators)) = object.get_mut("decorators") {
        for decorator in decorators.iter_mut().filter_map(Value::as_object_mut) {
            if !decorator.contains_key("guid") {
                decorator.insert("guid".to_owned(), json!(next()));
            }
        }
    }
}

/// Every JSON example in docs/format.md and docs/nodes.md is valid: whole tree files and
/// manifests against their schemas, node examples (GUIDs filled in) against `$defs/node`,
/// editor examples against `$defs/editor`, agent snapshots through `Snapshot::from_json`.
/// Sketches that are not valid JSON use ```text.
#[test]
fn doc_examples_validate() {
    let compiled = Compiled::new();
    let mut counter = 0;
    let mut next = || {
        counter += 1;
        format!("00000000-0000-4000-8000-{counter:012}")
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for doc in ["format.md", "nodes.md"] {
        let path = workspace_dir().join("docs").join(doc);
        for (line, text) in json_blocks(&path) {
            let at = format!("docs/{doc}:{line}");
            let mut value: Value = match serde_json::from_str(&text) {
                Ok(value) => value,
                Err(e) => {
                    failures.push(format!("{at}: not JSON ({e}); use ```text for sketches"));
                    continue;
                }
            };
            let (what, index) = match value.get("format").and_then(Value::as_str) {
                Some("arbor-agent-snapshot") => {
                    // Snapshots have no schema file: the runtime's own reader is the check.
                    checked += 1;
                    if let Err(e) = arbor_runtime::Snapshot::from_json(&text) {
                        failures.push(format!("{at}: invalid agent snapshot: {e}"));
                    }
                    continue;
                }
                Some("arbor-project") => {
                    if let Err(e) = arbor_runtime::format::ProjectFile::parse(&text) {
                        failures.push(format!("{at}: invalid project file: {e}"));
                    }
                    ("project file", compiled.project)
                }
                Some("arbor-tree") => ("tree file", compiled.tree),
                Some("arbor-node-types") => ("manifest", compiled.manifest),
                Some("arbor-tree-variant") => ("variant file", compiled.variant),
                _ if value.get("type").is_some() => {
                    with_guids(&mut value, &mut next);
                    ("node", compiled.node)
                }
                _ if value.get("positions").is_some() => ("editor section", compiled.editor),
                _ => {
                    failures.push(format!(
                        "{at}: not a tree, manifest, node or editor example"
                    ));
                    continue;
                }
            };
            checked += 1;
            if let Some(errors) = compiled.errors(&value, index) {
                failures.push(format!("{at}: invalid {what}:\n{errors}"));
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} JSON examples found in the docs"
    );
    report("JSON examples in docs/", failures);
}

#[test]
fn variant_files_match_the_variant_schema() {
    let compiled = Compiled::new();
    let good = json!({
        "format": "arbor-tree-variant", "version": 1, "base": "guard.json",
        "overrides": {
            "params": [{"node": "6f1c2a9e-0000-4000-8000-000000000003", "param": "seconds",
                        "value": 1.5}],
            "keys": [{"key": "courage", "default": 0.9}],
            "disabled": ["6f1c2a9e-0000-4000-8000-000000000007"]
        }
    });
    let mut bad = good.clone();
    bad["overrides"]["extra"] = json!(1);
    assert!(
        compiled.errors(&bad, compiled.variant).is_some(),
        "an unknown field"
    );
    let written = serde_json::to_value(arbor_runtime::format::VariantFile {
        format: arbor_runtime::format::VARIANT_FORMAT.into(),
        version: arbor_runtime::format::VARIANT_VERSION,
        name: String::new(),
        description: String::new(),
        base: "guard.json".into(),
        overrides: serde_json::from_value(good["overrides"].clone()).expect("overrides"),
    })
    .expect("serialises");
    assert_eq!(written, good, "the runtime writes what it reads");
    if let Some(e) = compiled.errors(&written, compiled.variant) {
        panic!("what the runtime writes does not validate: {e}");
    }
}
