//! Stub: the Rust skeleton of a declared host action or condition (a manifest's type, often
//! a placeholder a designer declared in the editor), written with [`super::NodeDecl`], for a
//! programmer to fill in. `arbor stub TYPE` prints it.
//!
//! The skeleton is a generic function `register_<type>(registry)`: it compiles as printed
//! (the runtime's tests compile one), reads every input, and returns success (an action) or
//! failure (a condition) until the programmer writes what the node does.
//!
//! Ports map to the declaration's port types: `bool`, `int` → `i64`, `float` → `f64`,
//! `string` (and `enum`, `key`, `path`, `event`, `trigger`, whose values are text) → `str`,
//! `vec2`, `vec3`, `entity`, and everything else → `Value`. A default is written where the
//! port type takes one (`.default(…)`); other defaults are noted in a comment and the port
//! is optional.
//!
//! Limitations: names are made into Rust identifiers (`max-range` → `max_range`, a keyword
//! gets a `_` suffix); composites and decorators have no stub (they are written with
//! `Registry::composite` / `Registry::decorator`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value as Json;

use crate::spec::{Category, Direction, NodeType, ParamKind, ParamSpec};

/// Why a type has no stub.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum StubError {
    /// A composite, decorator or subtree: written with `Registry::composite` or
    /// `Registry::decorator`, not `NodeDecl`.
    #[error("`{name}` is a {category}: stubs are written for actions and conditions")]
    NotALeaf {
        /// The type's name.
        name: String,
        /// Its category, as manifests spell it.
        category: &'static str,
    },
    /// A built-in type: the runtime implements it.
    #[error("`{0}` is a built-in node type: it needs no stub")]
    BuiltIn(String),
}

/// The Rust skeleton of `ty` (see the module documentation).
pub fn node_stub(ty: &NodeType) -> Result<String, StubError> {
    let constructor = match ty.category {
        Category::Action => "action",
        Category::Condition => "condition",
        other => {
            return Err(StubError::NotALeaf {
                name: ty.name.clone(),
                category: other.as_str(),
            })
        }
    };
    if !ty.host {
        return Err(StubError::BuiltIn(ty.name.clone()));
    }
    let mut taken: BTreeSet<String> = ["cx", "decl", "registry", "C", "Status", "Value"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    let ports: Vec<Port> = ty
        .params
        .iter()
        .map(|spec| Port::new(spec, &mut taken))
        .collect();

    let mut out = String::new();
    let imports = imports(&ports);
    let _ = writeln!(out, "use arbor_runtime::{{{imports}}};");
    out.push('\n');
    for line in doc_lines(&ty.description) {
        let _ = writeln!(out, "/// {line}");
    }
    if !ty.description.trim().is_empty() {
        out.push_str("///\n");
    }
    let _ = writeln!(
        out,
        "/// Registers `{}`. `C` is your game's data for one agent (`cx.agent`): name your type",
        ty.name.escape_debug()
    );
    out.push_str("/// instead of the generic parameter to use it.\n");
    let _ = writeln!(
        out,
        "pub fn register_{}<C: 'static>(registry: &mut Registry<C>) {{",
        snake(&ty.name)
    );
    let _ = writeln!(
        out,
        "    let mut decl = NodeDecl::<C>::{constructor}({:?}, {:?});",
        ty.name, ty.description
    );
    for port in &ports {
        out.push_str(&port.declaration());
    }
    out.push_str("    registry.add(decl.tick(move |cx| {\n");
    for port in ports.iter().filter(|p| p.reads()) {
        let _ = writeln!(
            out,
            "        let _{} = cx.get(&{});",
            port.ident, port.ident
        );
    }
    let _ = writeln!(
        out,
        "        // TODO: what `{}` does, with `cx.agent`, `cx.dt()` and the inputs above.",
        ty.name.escape_debug()
    );
    for port in ports.iter().filter(|p| p.writes()) {
        let _ = writeln!(
            out,
            "        // cx.set(&{}, …); writes the `{}` output.",
            port.ident,
            port.spec.name.escape_debug()
        );
        let _ = writeln!(out, "        let _ = {};", port.ident);
    }
    let status = if ty.category == Category::Condition {
        "Status::Failure"
    } else {
        "Status::Success"
    };
    let _ = writeln!(out, "        {status}");
    out.push_str("    }));\n}\n");
    Ok(out)
}

/// One port of the stub.
struct Port<'s> {
    spec: &'s ParamSpec,
    /// Its variable.
    ident: String,
    /// The `PortType` it is declared with.
    rust: &'static str,
}

impl<'s> Port<'s> {
    fn new(spec: &'s ParamSpec, taken: &mut BTreeSet<String>) -> Port<'s> {
        let mut ident = identifier(&spec.name);
        while !taken.insert(ident.clone()) {
            ident.push('_');
        }
        Port {
            spec,
            ident,
            rust: rust_type(spec.kind),
        }
    }

    fn reads(&self) -> bool {
        self.spec.direction != Direction::Out
    }

    fn writes(&self) -> bool {
        self.spec.direction != Direction::In
    }

    /// `    let speed = decl.input::<f64>("speed").doc("…").default(1.5_f64);`, after a
    /// comment for what the port type cannot say.
    fn declaration(&self) -> String {
        let spec = self.spec;
        let mut out = String::new();
        let method = match spec.direction {
            Direction::In => "input",
            Direction::Out => "output",
            Direction::InOut => "in_out",
        };
        if rust_type_of_value(spec.kind) == "Value" && spec.kind != ParamKind::Json {
            let mut note = format!("    // `{}` ({})", spec.name, spec.kind.as_str());
            if !spec.values.is_empty() {
                let _ = write!(note, ": {}", spec.values.join(", "));
            }
            let _ = writeln!(out, "{}", note.replace(['\r', '\n'], " "));
        }
        let default = spec
            .default
            .as_ref()
            .filter(|_| spec.direction == Direction::In);
        let literal = default.and_then(|d| default_literal(spec.kind, d));
        if let (Some(d), None) = (default, &literal) {
            let text = d.to_string().replace(['\r', '\n'], " ");
            let _ = writeln!(out, "    // default in the manifest: {text}");
        }
        let _ = write!(
            out,
            "    let {} = decl.{method}::<{}>({:?})",
            self.ident, self.rust, spec.name
        );
        if !spec.description.is_empty() {
            let _ = write!(out, ".doc({:?})", spec.description);
        }
        if spec.literal {
            out.push_str(".literal()");
        }
        match literal {
            Some(value) => {
                let _ = write!(out, ".default({value})");
            }
            None if spec.optional || default.is_some() => out.push_str(".optional()"),
            None => out.push_str(".required()"),
        }
        out.push_str(";\n");
        out
    }
}

/// The `use` list: what every stub names, and the value types its ports use.
fn imports(ports: &[Port<'_>]) -> String {
    let mut names: BTreeSet<&str> = ["NodeDecl", "Registry", "Status"].into_iter().collect();
    for port in ports {
        match port.rust {
            "Vec2" | "Vec3" | "Entity" | "Value" => {
                names.insert(port.rust);
            }
            _ => {}
        }
    }
    names.into_iter().collect::<Vec<_>>().join(", ")
}

/// The port type a kind is declared with.
fn rust_type(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Enum
        | ParamKind::Key
        | ParamKind::Path
        | ParamKind::Event
        | ParamKind::Trigger => "str",
        other => rust_type_of_value(other),
    }
}

/// The port type of a value kind; `Value` for the structural ones.
fn rust_type_of_value(kind: ParamKind) -> &'static str {
    match kind {
        ParamKind::Bool => "bool",
        ParamKind::Int => "i64",
        ParamKind::Float => "f64",
        ParamKind::String => "str",
        ParamKind::Vec2 => "Vec2",
        ParamKind::Vec3 => "Vec3",
        ParamKind::Entity => "Entity",
        _ => "Value",
    }
}

/// A default as a Rust expression, where the port type takes one.
fn default_literal(kind: ParamKind, value: &Json) -> Option<String> {
    let float = |v: &Json| {
        v.as_f64()
            .filter(|f| f.is_finite())
            .map(|f| format!("{f:?}"))
    };
    match (rust_type(kind), value) {
        ("bool", Json::Bool(b)) => Some(b.to_string()),
        ("i64", v) => v.as_i64().map(|i| format!("{i}_i64")),
        ("f64", v) => float(v).map(|f| format!("{f}_f64")),
        ("str", Json::String(s)) => Some(format!("{s:?}")),
        ("Vec2", Json::Array(a)) if a.len() == 2 => {
            Some(format!("Vec2::new({}, {})", float(&a[0])?, float(&a[1])?))
        }
        ("Vec3", Json::Array(a)) if a.len() == 3 => Some(format!(
            "Vec3::new({}, {}, {})",
            float(&a[0])?,
            float(&a[1])?,
            float(&a[2])?
        )),
        ("Entity", v) => v.as_u64().map(|id| format!("Entity::from({id}_u64)")),
        _ => None,
    }
}

/// The lines of a doc comment: control characters (a bare CR is refused in doc comments)
/// become spaces.
fn doc_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| {
        l.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    })
}

/// Words Rust reserves; a port named so gets a `_` suffix.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop",
    "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return", "self",
    "static", "struct", "super", "trait", "true", "try", "type", "typeof", "union", "unsafe",
    "unsized", "use", "virtual", "where", "while", "yield",
];

/// `name` as a snake-case Rust identifier (never empty, never a keyword).
fn identifier(name: &str) -> String {
    let mut ident = snake(name);
    if ident.starts_with(|c: char| c.is_ascii_digit()) {
        ident.insert(0, '_');
    }
    if KEYWORDS.contains(&ident.as_str()) || ident == "_" {
        ident.push('_');
    }
    ident
}

/// `TakeCover` → `take_cover`, `max-range` → `max_range`: ASCII letters and digits kept,
/// lower case, words split at case changes and at anything else.
fn snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let trimmed = out.trim_end_matches('_');
    if trimmed.is_empty() {
        "node".to_owned()
    } else {
        trimmed.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ValueType;

    #[test]
    fn names_become_identifiers() {
        assert_eq!(snake("TakeCover"), "take_cover");
        assert_eq!(snake("max-range"), "max_range");
        assert_eq!(snake("HTTPGet2"), "httpget2");
        assert_eq!(identifier("type"), "type_");
        assert_eq!(identifier("2nd"), "_2nd");
        assert_eq!(identifier("élan"), "lan");
        assert_eq!(identifier("!!"), "node");
    }

    #[test]
    fn ports_are_declared_with_their_types_defaults_and_directions() {
        let mut ty = NodeType::action("Aim", "Aims at `target`.");
        ty.params = vec![
            ParamSpec::typed("target", ValueType::Entity, "Who."),
            ParamSpec::typed("spread", ValueType::Float, "").default(Json::from(0.5)),
            ParamSpec::typed("at", ValueType::Vec2, "").default(serde_json::json!([1, 2])),
            {
                let mut p = ParamSpec::typed("hit", ValueType::Bool, "");
                p.direction = Direction::Out;
                p
            },
            ParamSpec::new("cx", ParamKind::Enum, "").default(Json::from("low")),
        ];
        let text = node_stub(&ty).unwrap();
        assert!(
            text.starts_with("use arbor_runtime::{Entity, NodeDecl, Registry, Status, Vec2};"),
            "{text}"
        );
        assert!(text.contains("pub fn register_aim<C: 'static>(registry: &mut Registry<C>) {"));
        assert!(
            text.contains(r#"let target = decl.input::<Entity>("target").doc("Who.").required();"#),
            "{text}"
        );
        assert!(
            text.contains(r#"let spread = decl.input::<f64>("spread").default(0.5_f64);"#),
            "{text}"
        );
        assert!(
            text.contains(r#"let at = decl.input::<Vec2>("at").default(Vec2::new(1.0, 2.0));"#),
            "{text}"
        );
        assert!(
            text.contains(r#"let hit = decl.output::<bool>("hit").required();"#),
            "{text}"
        );
        assert!(
            text.contains(r#"let cx_ = decl.input::<str>("cx").default("low");"#),
            "{text}"
        );
        assert!(text.contains("let _cx_ = cx.get(&cx_);"), "{text}");
        assert!(!text.contains("cx.get(&hit)"), "outputs are not read");
        assert!(
            text.trim_end().ends_with("Status::Success\n    }));\n}"),
            "{text}"
        );
    }

    #[test]
    fn only_host_leaves_have_stubs() {
        let ty = NodeType::composite("Pick", "");
        assert!(matches!(node_stub(&ty), Err(StubError::NotALeaf { .. })));
        let wait = crate::NodeTypes::builtin().node("Wait").cloned().unwrap();
        assert_eq!(node_stub(&wait), Err(StubError::BuiltIn("Wait".into())));
    }
}
