//! NodeType and ParamSpec: a node kind's static declaration (as BT.CPP's `providedPorts`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use std::fmt;

use crate::value::{Scalar, ValueType};

/// Where a node type sits in the palette, and how many children it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Category {
    /// Any number of children.
    Composite,
    /// Exactly one child.
    Decorator,
    /// A leaf that tests something and never runs.
    Condition,
    /// A leaf that does something.
    Action,
    /// A reference to another tree file.
    Subtree,
    /// Attached to a node's `decorators` list, not a node itself (rule 21).
    Attached,
}

impl Category {
    /// How many children nodes of this category take.
    pub fn children(self) -> ChildCount {
        match self {
            Category::Composite => ChildCount::Many,
            Category::Decorator => ChildCount::One,
            _ => ChildCount::None,
        }
    }

    /// The name used in files and manifests.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Composite => "Composite",
            Category::Decorator => "Decorator",
            Category::Condition => "Condition",
            Category::Action => "Action",
            Category::Subtree => "Subtree",
            Category::Attached => "Attached",
        }
    }
}

/// How many children a node type takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildCount {
    /// A leaf.
    None,
    /// Exactly one child (decorators).
    One,
    /// One or more children (composites).
    Many,
    /// Between `min` and `max` children, inclusive: the positional composites (IfThenElse,
    /// WhileDoElse, Switch), whose children have roles.
    Range {
        /// Fewest children.
        min: usize,
        /// Most children.
        max: usize,
    },
}

impl ChildCount {
    /// Can a node that already has `count` children take one more?
    pub fn accepts_another(self, count: usize) -> bool {
        match self {
            ChildCount::None => false,
            ChildCount::One => count == 0,
            ChildCount::Many => true,
            ChildCount::Range { max, .. } => count < max,
        }
    }

    /// What is expected, when `found` children are not allowed; `None` when they are.
    pub fn violation(self, found: usize) -> Option<String> {
        match self {
            ChildCount::None if found > 0 => Some("no children".to_owned()),
            ChildCount::One if found != 1 => Some("exactly one child".to_owned()),
            ChildCount::Range { min, max } if found < min || found > max => {
                Some(if max == min + 1 {
                    format!("{min} or {max} children")
                } else {
                    format!("{min} to {max} children")
                })
            }
            _ => None,
        }
    }
}

/// The kind of value a parameter holds; decides the inspector widget and the loader's check.
///
/// In files and manifests it is a string: the value types (`bool`, `int`, `float`,
/// `string`, `json`, `list<T>`, `map<T>`, `vec2`, `vec3`, `entity`, a registered user value
/// type's name) and the structural kinds (`key`, `key_value`,
/// `statuses`, `enum`, `path`, `key_map`, `event`, `trigger`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// A whole number.
    Int,
    /// A number.
    Float,
    /// Text.
    String,
    /// Any JSON value.
    Json,
    /// A list of one scalar type.
    List(Scalar),
    /// A map (JSON object) of one scalar type.
    Map(Scalar),
    /// A 2D vector (`[x, y]`).
    Vec2,
    /// A 3D vector (`[x, y, z]`).
    Vec3,
    /// A 64-bit entity id.
    Entity,
    /// A user value type ([`crate::UserType`]), by its name.
    User(crate::UserType),
    /// The name of a declared blackboard key.
    Key,
    /// A value compared with or written to the key named by the node's `key` parameter;
    /// its type is that key's type.
    KeyValue,
    /// A non-empty list of statuses (`Scripted.returns`).
    Statuses,
    /// One of `ParamSpec::values`.
    Enum,
    /// A path to another tree file, relative to the referring file.
    Path,
    /// An object mapping names to blackboard keys (`Subtree.remap`).
    KeyMap,
    /// An event name.
    Event,
    /// A trigger name.
    Trigger,
    /// Code in the script language (docs/semantics.md rule 51), checked against the
    /// tree's keys at load.
    Script,
}

impl ParamKind {
    /// The structural kinds, by their file names.
    const STRUCTURAL: [(&'static str, ParamKind); 9] = [
        ("key", ParamKind::Key),
        ("key_value", ParamKind::KeyValue),
        ("statuses", ParamKind::Statuses),
        ("enum", ParamKind::Enum),
        ("path", ParamKind::Path),
        ("key_map", ParamKind::KeyMap),
        ("event", ParamKind::Event),
        ("trigger", ParamKind::Trigger),
        ("script", ParamKind::Script),
    ];

    /// The kind of a parameter holding values of `ty`.
    pub fn of(ty: ValueType) -> ParamKind {
        match ty {
            ValueType::Bool => ParamKind::Bool,
            ValueType::Int => ParamKind::Int,
            ValueType::Float => ParamKind::Float,
            ValueType::String => ParamKind::String,
            ValueType::Json => ParamKind::Json,
            ValueType::List(s) => ParamKind::List(s),
            ValueType::Map(s) => ParamKind::Map(s),
            ValueType::Vec2 => ParamKind::Vec2,
            ValueType::Vec3 => ParamKind::Vec3,
            ValueType::Entity => ParamKind::Entity,
            ValueType::User(t) => ParamKind::User(t),
        }
    }

    /// The name used in manifests (`float`, `key`, `list<int>`, …).
    pub fn as_str(self) -> &'static str {
        match self.value_kind() {
            Some(ty) => ty.as_str(),
            None => Self::STRUCTURAL
                .iter()
                .find(|(_, k)| *k == self)
                .map_or("?", |(name, _)| name),
        }
    }

    /// Reads the file form; `None` for an unknown name.
    pub fn parse(text: &str) -> Option<ParamKind> {
        ValueType::parse(text).map(ParamKind::of).or_else(|| {
            Self::STRUCTURAL
                .iter()
                .find(|(name, _)| *name == text)
                .map(|(_, k)| *k)
        })
    }

    /// The value type of a plain value parameter (the kinds a blackboard key can bind).
    pub fn value_kind(self) -> Option<ValueType> {
        match self {
            ParamKind::Bool => Some(ValueType::Bool),
            ParamKind::Int => Some(ValueType::Int),
            ParamKind::Float => Some(ValueType::Float),
            ParamKind::String => Some(ValueType::String),
            ParamKind::Json => Some(ValueType::Json),
            ParamKind::List(s) => Some(ValueType::List(s)),
            ParamKind::Map(s) => Some(ValueType::Map(s)),
            ParamKind::Vec2 => Some(ValueType::Vec2),
            ParamKind::Vec3 => Some(ValueType::Vec3),
            ParamKind::Entity => Some(ValueType::Entity),
            ParamKind::User(t) => Some(ValueType::User(t)),
            _ => None,
        }
    }

    /// The plain value type, for kinds that have one (names and enums are strings).
    pub fn value_type(self) -> Option<ValueType> {
        match self {
            ParamKind::Key
            | ParamKind::Enum
            | ParamKind::Path
            | ParamKind::Event
            | ParamKind::Trigger
            | ParamKind::Script => Some(ValueType::String),
            other => other.value_kind(),
        }
    }

    /// Whether a parameter of this kind may be bound to a blackboard key (`{"$key": …}`):
    /// values and enums may; key names, paths, remappings, status lists, events and
    /// triggers are part of the tree's structure and must be written out.
    pub fn bindable(self) -> bool {
        self.value_kind().is_some() || matches!(self, ParamKind::Enum | ParamKind::KeyValue)
    }
}

impl fmt::Display for ParamKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ParamKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ParamKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ParamKind, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(d)?;
        ParamKind::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown parameter type `{}`; expected a value type (bool, int, float, \
                 string, json, list<T>, map<T>, vec2, vec3, entity) or one of key, key_value, statuses, enum, \
                 path, key_map, event, trigger",
                text.chars().take(40).collect::<String>()
            ))
        })
    }
}

/// Which way data flows through a parameter.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The node reads it: a literal, or a key it reads (the default).
    #[default]
    In,
    /// The node writes it: always bound to a key.
    Out,
    /// The node reads and writes it: always bound to a key.
    InOut,
}

impl Direction {
    /// Whether the node reads the parameter (`in` or `inout`).
    pub fn is_in(&self) -> bool {
        *self == Direction::In
    }

    /// Whether the node writes the bound key.
    pub fn writes(self) -> bool {
        self != Direction::In
    }

    /// Whether the node reads the bound key.
    pub fn reads(self) -> bool {
        self != Direction::Out
    }

    /// The name used in manifests: `in`, `out` or `inout`.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
            Direction::InOut => "inout",
        }
    }
}

/// One declared parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    /// The parameter's name, as in files.
    pub name: String,
    #[serde(rename = "type")]
    /// What it holds.
    pub kind: ParamKind,
    /// Used when the file omits the parameter. A parameter with no default is required,
    /// unless `optional`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// May be omitted, and has no default (e.g. `SetBlackboard.ttl`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// Whether the node reads (`in`, the default), writes (`out`) or both (`inout`) the
    /// value; outputs are always bound to a blackboard key.
    #[serde(default, skip_serializing_if = "Direction::is_in")]
    pub direction: Direction,
    /// Must be written as a literal in the file: the value shapes the compiled tree (a
    /// Parallel's `need`, an abort type), so it cannot come from the blackboard.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub literal: bool,
    /// The allowed values of an `enum` parameter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    /// Help text, shown by the editor's inspector.
    pub description: String,
    /// Names the parameter had before it was renamed: a file that still uses one loads
    /// with a warning naming the new name, and `arbor migrate` rewrites it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

impl ParamSpec {
    /// A required parameter.
    pub fn new(name: &str, kind: ParamKind, description: &str) -> ParamSpec {
        ParamSpec {
            name: name.to_owned(),
            kind,
            default: None,
            optional: false,
            direction: Direction::In,
            literal: false,
            values: Vec::new(),
            description: description.to_owned(),
            aliases: Vec::new(),
        }
    }

    /// The value used when a file leaves the parameter out (which makes it optional).
    pub fn default(mut self, value: Value) -> ParamSpec {
        self.default = Some(value);
        self
    }

    /// Optional with no default: `Args` has nothing for it when the file leaves it out.
    pub fn optional(mut self) -> ParamSpec {
        self.optional = true;
        self
    }

    /// An output: the node writes a value of this kind to the key it is bound to.
    pub fn output(mut self) -> ParamSpec {
        self.direction = Direction::Out;
        self
    }

    /// Read and written through the key it is bound to.
    pub fn in_out(mut self) -> ParamSpec {
        self.direction = Direction::InOut;
        self
    }

    /// Must be a literal (see [`ParamSpec::literal`]).
    pub fn literal(mut self) -> ParamSpec {
        self.literal = true;
        self
    }

    /// Whether a file may bind this parameter to a blackboard key.
    pub fn bindable(&self) -> bool {
        !self.literal && self.kind.bindable()
    }

    /// The type of the values this parameter carries: its own, or for a `key_value`
    /// parameter the type of the key its node's `key` parameter names (`key_param`; `None`
    /// when that is not known).
    pub fn carried_type(&self, key_param: Option<ValueType>) -> Option<ValueType> {
        match self.kind {
            ParamKind::KeyValue => key_param,
            kind => kind.value_type(),
        }
    }

    /// Whether a key declared `key` may be bound to this parameter: in each direction the
    /// parameter uses, the key's values read as the parameter's type (an `int` key for a
    /// `float` input, anything for `json`) and the parameter's values fit the key. The
    /// loader's check and the editor's key picker both ask this.
    pub fn fits_key(&self, key: ValueType, key_param: Option<ValueType>) -> bool {
        let Some(wanted) = self.carried_type(key_param) else {
            return true;
        };
        (!self.direction.reads() || key.reads_as(wanted))
            && (!self.direction.writes() || wanted.reads_as(key))
    }

    /// The values an `enum` parameter accepts.
    pub fn values(mut self, values: &[&str]) -> ParamSpec {
        self.values = values.iter().map(|v| (*v).to_owned()).collect();
        self
    }

    /// Also accepts `old`, the parameter's name before a rename ([`ParamSpec::aliases`]).
    pub fn alias(mut self, old: &str) -> ParamSpec {
        self.aliases.push(old.to_owned());
        self
    }

    /// Whether a file must give it: no default and not optional.
    pub fn is_required(&self) -> bool {
        self.default.is_none() && !self.optional
    }

    /// A value-typed parameter: `ParamSpec::new(name, ParamKind::of(ty), description)`.
    pub fn typed(name: &str, ty: ValueType, description: &str) -> ParamSpec {
        ParamSpec::new(name, ParamKind::of(ty), description)
    }
}

/// The declaration of a node type (or attached decorator type).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeType {
    /// The type's name, as files write it in `type`.
    pub name: String,
    /// What kind of node it is: action, condition, composite, decorator, attached.
    pub category: Category,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    /// Help text, shown in the editor's palette.
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// Declared parameters, in display order.
    pub params: Vec<ParamSpec>,
    /// Provided by the host program rather than built in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub host: bool,
    /// A narrower child count than the category's, as `[min, max]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_range: Option<[usize; 2]>,
    /// Where the host program registered the type, so an editor can open that source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceLocation>,
    /// For a host Composite or Decorator: the built-in behaviour it runs with where no
    /// program provides it (preview, `arbor run`; rule 61).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_in: Option<super::StandIn>,
    /// Its nodes may return running by themselves (a `Wait`, a `Delay`, a condition that
    /// waits for an answer). `check` warns where such a node can make a condition run:
    /// a Condition type declared so, or one in a condition's place (rule 37, rule 38).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub may_run: bool,
    /// Names the type had before it was renamed: a file that still uses one loads with a
    /// warning naming the new name, and `arbor migrate` rewrites it. Palettes list the
    /// new name only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// What each child is for, by position, for a type whose children have roles
    /// (IfThenElse: `if`, `then`, `else`). A role that names one of the node's parameters
    /// stands for that parameter's value (Switch: the child selected by `case_1`).
    /// Editors label the children's wires with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub child_roles: Vec<String>,
    /// The role of the last child, whatever their number (Switch: `default`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_child_role: Option<String>,
    /// Declared by a designer (the editor's Declare Action) for a programmer to implement:
    /// the editor offers it and previews it as a stand-in, `arbor stub` prints its Rust
    /// skeleton. A program registers the type to replace it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub placeholder: bool,
}

/// A place in a source file: `file` as the program's build named it (absolute, or
/// relative to the folder it was built from), `line` counted from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceLocation {
    /// The file, as `std::panic::Location::file` gives it.
    pub file: String,
    /// The line, from 1.
    pub line: u32,
}

impl NodeType {
    /// A type of any category, with no parameters yet.
    pub fn new(name: &str, category: Category, description: &str) -> NodeType {
        NodeType {
            name: name.to_owned(),
            category,
            description: description.to_owned(),
            params: Vec::new(),
            host: false,
            child_range: None,
            source: None,
            stand_in: None,
            may_run: false,
            aliases: Vec::new(),
            child_roles: Vec::new(),
            last_child_role: None,
            placeholder: false,
        }
    }

    /// Records where the type is declared, for the editor's "open source".
    pub fn source(mut self, file: &str, line: u32) -> NodeType {
        self.source = Some(SourceLocation {
            file: file.to_owned(),
            line,
        });
        self
    }

    /// Records the caller's file and line as the type's source:
    /// `NodeType::action("Jump", "…").here()`.
    #[track_caller]
    pub fn here(self) -> NodeType {
        let at = std::panic::Location::caller();
        self.source(at.file(), at.line())
    }

    /// How many children this type takes: its category's rule, narrowed by `child_range`.
    pub fn children(&self) -> ChildCount {
        match self.child_range {
            Some([min, max]) if self.category == Category::Composite => {
                ChildCount::Range { min, max }
            }
            _ => self.category.children(),
        }
    }

    /// Names what each child is for, by position (see [`NodeType::child_roles`]).
    pub fn child_roles(mut self, roles: &[&str]) -> NodeType {
        self.child_roles = roles.iter().map(|r| (*r).to_owned()).collect();
        self
    }

    /// Names the role of the last child, whatever their number.
    pub fn last_child_role(mut self, role: &str) -> NodeType {
        self.last_child_role = Some(role.to_owned());
        self
    }

    /// The role of child `index` of a node with `count` children, if the type names one.
    pub fn child_role(&self, index: usize, count: usize) -> Option<&str> {
        match &self.last_child_role {
            Some(last) if index + 1 == count => Some(last),
            _ => self.child_roles.get(index).map(String::as_str),
        }
    }

    /// Narrows a composite to between `min` and `max` children.
    pub fn child_range(mut self, min: usize, max: usize) -> NodeType {
        self.child_range = Some([min, max]);
        self
    }

    /// A host action type (a leaf the program implements).
    pub fn action(name: &str, description: &str) -> NodeType {
        NodeType {
            host: true,
            ..NodeType::new(name, Category::Action, description)
        }
    }

    /// A host condition type (a leaf that returns success or failure, never running).
    pub fn condition(name: &str, description: &str) -> NodeType {
        NodeType {
            host: true,
            ..NodeType::new(name, Category::Condition, description)
        }
    }

    /// A host composite type (a node with any number of children whose behaviour the
    /// program implements: [`crate::Registry::composite`]).
    pub fn composite(name: &str, description: &str) -> NodeType {
        NodeType {
            host: true,
            ..NodeType::new(name, Category::Composite, description)
        }
    }

    /// A host decorator type (a node with exactly one child whose behaviour the program
    /// implements: [`crate::Registry::decorator`]).
    pub fn decorator(name: &str, description: &str) -> NodeType {
        NodeType {
            host: true,
            ..NodeType::new(name, Category::Decorator, description)
        }
    }

    /// Declares how this host control or decorator runs where no program provides it
    /// (rule 61).
    pub fn stand_in(mut self, stand_in: super::StandIn) -> NodeType {
        self.stand_in = Some(stand_in);
        self
    }

    /// Also accepts `old`, the type's name before a rename ([`NodeType::aliases`]).
    pub fn alias(mut self, old: &str) -> NodeType {
        self.aliases.push(old.to_owned());
        self
    }

    /// The declared parameter a file names `name` by an old name, if any.
    pub fn param_by_alias(&self, name: &str) -> Option<&ParamSpec> {
        self.params
            .iter()
            .find(|p| p.aliases.iter().any(|a| a == name))
    }

    /// Declares that its nodes may return running by themselves ([`NodeType::may_run`]).
    pub fn may_run(mut self) -> NodeType {
        self.may_run = true;
        self
    }

    /// Adds a parameter declaration.
    pub fn param(mut self, param: ParamSpec) -> NodeType {
        self.params.push(param);
        self
    }

    /// The declaration of parameter `name`.
    pub fn param_spec(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn child_roles_name_each_place_and_the_last_one() {
        let types = crate::NodeTypes::builtin();
        let ite = types.node("IfThenElse").expect("built in");
        assert_eq!(ite.child_role(1, 3), Some("then"));
        assert_eq!(ite.child_role(3, 4), None);
        let switch = types.node("Switch").expect("built in");
        assert_eq!(switch.child_role(0, 3), Some("case_1"));
        assert_eq!(switch.child_role(2, 3), Some("default"));
        assert_eq!(switch.child_role(2, 4), Some("case_3"));
        let sequence = types.node("Sequence").expect("built in");
        assert_eq!(sequence.child_role(0, 2), None);
    }
}
