//! `<TreeNodesModel>`: BT.CPP's declarations of node types and their ports, as Groot2 reads
//! and writes them.
//!
//! ```xml
//! <TreeNodesModel>
//!   <Action ID="MoveBase">
//!     <input_port name="goal" type="Pose2D">Where to go</input_port>
//!   </Action>
//!   <SubTree ID="DoorClosed">
//!     <input_port name="door" default="front"/>
//!   </SubTree>
//! </TreeNodesModel>
//! ```
//! Models are read from the imported file, kept in the tree files' `editor.btcpp.models`
//! (so port directions and C++ types survive the trip through Arbor), and written again on
//! export for the custom node types a tree uses.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::xml::{Element, Out};
use super::XmlProblem;
use crate::spec::Category;

/// The element a model is declared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ModelKind {
    Action,
    Condition,
    Decorator,
    Control,
    SubTree,
}

impl ModelKind {
    pub(crate) fn parse(tag: &str) -> Option<ModelKind> {
        match tag {
            "Action" => Some(ModelKind::Action),
            "Condition" => Some(ModelKind::Condition),
            "Decorator" => Some(ModelKind::Decorator),
            "Control" => Some(ModelKind::Control),
            "SubTree" => Some(ModelKind::SubTree),
            _ => None,
        }
    }

    pub(crate) fn tag(self) -> &'static str {
        match self {
            ModelKind::Action => "Action",
            ModelKind::Condition => "Condition",
            ModelKind::Decorator => "Decorator",
            ModelKind::Control => "Control",
            ModelKind::SubTree => "SubTree",
        }
    }

    /// The Arbor category of a node type declared this way.
    pub(crate) fn category(self) -> Category {
        match self {
            ModelKind::Action => Category::Action,
            ModelKind::Condition => Category::Condition,
            ModelKind::Decorator => Category::Decorator,
            ModelKind::Control => Category::Composite,
            ModelKind::SubTree => Category::Subtree,
        }
    }

    pub(crate) fn from_category(category: Category) -> ModelKind {
        match category {
            Category::Condition => ModelKind::Condition,
            Category::Decorator => ModelKind::Decorator,
            Category::Composite => ModelKind::Control,
            Category::Subtree => ModelKind::SubTree,
            Category::Action | Category::Attached => ModelKind::Action,
        }
    }
}

/// A port's direction: the element name it is declared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Direction {
    #[serde(rename = "input_port")]
    Input,
    #[serde(rename = "output_port")]
    Output,
    #[serde(rename = "inout_port")]
    InOut,
}

impl Direction {
    pub(crate) fn parse(tag: &str) -> Option<Direction> {
        match tag {
            "input_port" => Some(Direction::Input),
            "output_port" => Some(Direction::Output),
            "inout_port" => Some(Direction::InOut),
            _ => None,
        }
    }

    pub(crate) fn tag(self) -> &'static str {
        match self {
            Direction::Input => "input_port",
            Direction::Output => "output_port",
            Direction::InOut => "inout_port",
        }
    }

    /// Output and inout ports always name a blackboard entry.
    pub(crate) fn writes(self) -> bool {
        self != Direction::Input
    }
}

/// One declared port.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PortModel {
    pub name: String,
    pub direction: Direction,
    /// The C++ type as BT.CPP prints it (`std::string`, `int`, `Pose2D`).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// One declared node type (or subtree).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct NodeModel {
    pub kind: ModelKind,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PortModel>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

impl NodeModel {
    pub(crate) fn port(&self, name: &str) -> Option<&PortModel> {
        self.ports.iter().find(|p| p.name == name)
    }
}

/// Reads a `<TreeNodesModel>` element. Unknown children are reported as warnings and
/// skipped: a model only describes, it never changes what a tree does.
pub(crate) fn parse(
    element: &Element,
    origin: &str,
    warnings: &mut Vec<XmlProblem>,
) -> Result<BTreeMap<String, NodeModel>, XmlProblem> {
    let mut models = BTreeMap::new();
    for child in &element.children {
        let Some(kind) = ModelKind::parse(&child.tag) else {
            warnings.push(child.problem(
                origin,
                format!(
                    "<{}> in <TreeNodesModel> is not a node model; skipped",
                    child.tag
                ),
            ));
            continue;
        };
        let Some(id) = child.attr("ID") else {
            return Err(child.problem(
                origin,
                format!("<{}> in <TreeNodesModel> needs an ID attribute", child.tag),
            ));
        };
        let mut model = NodeModel {
            kind,
            ports: Vec::new(),
            description: String::new(),
        };
        for port in &child.children {
            if port.tag == "description" || port.tag == "MetadataFields" {
                if port.tag == "description" {
                    model.description = port.text.trim().to_owned();
                }
                continue;
            }
            let Some(direction) = Direction::parse(&port.tag) else {
                warnings.push(port.problem(
                    origin,
                    format!(
                        "<{}> in the model of `{id}` is not a port; skipped",
                        port.tag
                    ),
                ));
                continue;
            };
            let Some(name) = port.attr("name") else {
                return Err(port.problem(
                    origin,
                    format!("a port of the model of `{id}` has no name attribute"),
                ));
            };
            let description = port
                .attr("description")
                .map(str::to_owned)
                .unwrap_or_else(|| port.text.trim().to_owned());
            model.ports.push(PortModel {
                name: name.to_owned(),
                direction,
                ty: port.attr("type").map(str::to_owned),
                default: port.attr("default").map(str::to_owned),
                description,
            });
        }
        if models.insert(id.to_owned(), model).is_some() {
            warnings.push(child.problem(
                origin,
                format!("`{id}` is declared twice in <TreeNodesModel>; the last one counts"),
            ));
        }
    }
    Ok(models)
}

/// The model element for `id`.
pub(crate) fn write(id: &str, model: &NodeModel) -> Out {
    let mut out = Out::new(model.kind.tag()).attr("ID", id);
    for port in &model.ports {
        let mut p = Out::new(port.direction.tag()).attr("name", &port.name);
        if let Some(ty) = &port.ty {
            p.push_attr("type", ty);
        }
        if let Some(default) = &port.default {
            p.push_attr("default", default);
        }
        if !port.description.is_empty() {
            p.text = Some(port.description.clone());
        }
        out.children.push(p);
    }
    if !model.description.is_empty() {
        let mut d = Out::new("description");
        d.text = Some(model.description.clone());
        out.children.push(d);
    }
    out
}
