//! `<TreeNodesModel>` entries: the model of a host type (the imported one when there is
//! one) and of a subtree, and the C++ type names of Arbor's key types.

use super::*;

/// The BT.CPP ID of a host type (see `import::host_type_name`).
pub(super) fn btcpp_id(name: &str) -> String {
    match name.strip_prefix(HOST_PREFIX) {
        Some(id) if crate::btcpp::is_arbor_builtin(id) => id.to_owned(),
        _ => name.to_owned(),
    }
}

/// A model for a host type from its declaration. C++ types are claimed only for types
/// declared in Arbor: an imported type without a model does not know them.
pub(super) fn model_of(ty: &NodeType) -> NodeModel {
    let imported =
        ty.description.starts_with(CUSTOM_NOTE) || ty.description.starts_with(OPAQUE_NOTE);
    NodeModel {
        kind: ModelKind::from_category(if ty.category == Category::Subtree {
            Category::Action
        } else {
            ty.category
        }),
        ports: ty
            .params
            .iter()
            .map(|p| PortModel {
                name: p.name.clone(),
                // A key parameter may be read or written: inout is the honest direction.
                direction: if p.kind == ParamKind::Key {
                    Direction::InOut
                } else {
                    Direction::Input
                },
                ty: match p.kind {
                    _ if imported => None,
                    ParamKind::Bool => Some("bool".to_owned()),
                    ParamKind::Int => Some("int".to_owned()),
                    ParamKind::Float => Some("double".to_owned()),
                    ParamKind::String => Some("std::string".to_owned()),
                    _ => None,
                },
                default: p.default.as_ref().map(text),
                description: p.description.clone(),
            })
            .collect(),
        description: if imported {
            String::new()
        } else {
            ty.description.clone()
        },
    }
}

/// The `<SubTree>` model of a subtree file: the ports of the model it was imported with
/// (directions, C++ types, descriptions), and every key with a default, which a call that
/// does not remap it gets in Arbor and BT.CPP reads from the model. The file is the
/// truth: a key's default is its declared one, and a port the model did not type gets
/// the key's type, so that a string default such as `"42"` comes back a string.
pub(super) fn subtree_model(id: &str, file: &TreeFile) -> NodeModel {
    let imported = Meta::read(file)
        .models
        .remove(id)
        .filter(|m| m.kind == ModelKind::SubTree);
    let mut ports: Vec<PortModel> = imported
        .as_ref()
        .map(|m| m.ports.clone())
        .unwrap_or_default();
    // Ports whose key the file no longer has are left out (BT.CPP would declare a key
    // nothing uses).
    ports.retain(|p| file.blackboard.iter().any(|d| d.key == p.name));
    for d in &file.blackboard {
        let default = d.default.as_ref().map(text);
        match ports.iter_mut().find(|p| p.name == d.key) {
            Some(p) => {
                // A `{key}` default is a remapping the calls write out; keep it for Groot2.
                p.default = default.or_else(|| {
                    p.default
                        .take()
                        .filter(|d| crate::btcpp::import::blackboard_ref(d).is_some())
                });
                if p.ty.is_none() {
                    p.ty = cpp_type_of(d.ty);
                }
            }
            None if default.is_some() => ports.push(PortModel {
                name: d.key.clone(),
                direction: Direction::Input,
                ty: cpp_type_of(d.ty),
                default,
                description: d.description.clone(),
            }),
            None => {}
        }
    }
    NodeModel {
        kind: ModelKind::SubTree,
        ports,
        description: imported.map(|m| m.description).unwrap_or_default(),
    }
}

/// The C++ type BT.CPP names a key of this type with, for the scalar types.
pub(super) fn cpp_type_of(ty: crate::value::ValueType) -> Option<String> {
    use crate::value::ValueType;
    match ty {
        ValueType::Bool => Some("bool".to_owned()),
        ValueType::Int => Some("int".to_owned()),
        ValueType::Float => Some("double".to_owned()),
        ValueType::String => Some("std::string".to_owned()),
        _ => None,
    }
}
