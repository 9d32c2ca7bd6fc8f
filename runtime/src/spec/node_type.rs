//! NodeType and ParamSpec: a node kind's static declaration (as BT.CPP's `providedPorts`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::value::ValueType;

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
    pub fn children(self) -> ChildCount {
        match self {
            Category::Composite => ChildCount::Many,
            Category::Decorator => ChildCount::One,
            _ => ChildCount::None,
        }
    }

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
    None,
    One,
    Many,
    /// Between `min` and `max` children, inclusive: the positional composites (IfThenElse,
    /// WhileDoElse, Switch), whose children have roles.
    Range {
        min: usize,
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamKind {
    Bool,
    Int,
    Float,
    String,
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
}

impl ParamKind {
    /// The plain value type, for kinds that have one.
    pub fn value_type(self) -> Option<ValueType> {
        match self {
            ParamKind::Bool => Some(ValueType::Bool),
            ParamKind::Int => Some(ValueType::Int),
            ParamKind::Float => Some(ValueType::Float),
            ParamKind::String
            | ParamKind::Key
            | ParamKind::Enum
            | ParamKind::Path
            | ParamKind::Event
            | ParamKind::Trigger => Some(ValueType::String),
            ParamKind::KeyValue | ParamKind::Statuses | ParamKind::KeyMap => None,
        }
    }
}

/// One declared parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSpec {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: ParamKind,
    /// Used when the file omits the parameter. A parameter with no default is required,
    /// unless `optional`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// May be omitted, and has no default (e.g. `SetBlackboard.ttl`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// The allowed values of an `enum` parameter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

impl ParamSpec {
    pub fn new(name: &str, kind: ParamKind, description: &str) -> ParamSpec {
        ParamSpec {
            name: name.to_owned(),
            kind,
            default: None,
            optional: false,
            values: Vec::new(),
            description: description.to_owned(),
        }
    }

    pub fn default(mut self, value: Value) -> ParamSpec {
        self.default = Some(value);
        self
    }

    pub fn optional(mut self) -> ParamSpec {
        self.optional = true;
        self
    }

    pub fn values(mut self, values: &[&str]) -> ParamSpec {
        self.values = values.iter().map(|v| (*v).to_owned()).collect();
        self
    }

    pub fn is_required(&self) -> bool {
        self.default.is_none() && !self.optional
    }
}

/// The declaration of a node type (or attached decorator type).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeType {
    pub name: String,
    pub category: Category,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<ParamSpec>,
    /// Provided by the host program rather than built in.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub host: bool,
    /// A narrower child count than the category's, as `[min, max]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_range: Option<[usize; 2]>,
}

impl NodeType {
    pub fn new(name: &str, category: Category, description: &str) -> NodeType {
        NodeType {
            name: name.to_owned(),
            category,
            description: description.to_owned(),
            params: Vec::new(),
            host: false,
            child_range: None,
        }
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

    pub fn param(mut self, param: ParamSpec) -> NodeType {
        self.params.push(param);
        self
    }

    pub fn param_spec(&self, name: &str) -> Option<&ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }
}
