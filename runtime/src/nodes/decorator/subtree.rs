//! Subtree: runs another tree file in place (the referenced tree's root is spliced in as
//! this node's one child when the tree loads, so ticking it is ticking that root).
//!
//! Blackboard: the subtree's declared keys are private to each Subtree node, initialised
//! with the subtree file's defaults, unless `remap` maps them to keys of the referring tree
//! (`{"target": "food_zone"}`: the subtree's `target` *is* the parent's `food_zone`), as
//! BT.CPP's port remapping. Paths are relative to the referring file.
//! JSON: `{"type":"Subtree","params":{"path":"walk_and_do.json","remap":{"target":"zone"}}}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{decorator::only_child, ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Subtree",
        Category::Subtree,
        "Runs the tree of another file here, with its keys remapped to this tree's.",
    )
    .param(ParamSpec::new(
        "path",
        ParamKind::Path,
        "The tree file, relative to this file.",
    ))
    .param(
        ParamSpec::new(
            "remap",
            ParamKind::KeyMap,
            "Subtree key -> key of this tree; unmapped keys are private to this node.",
        )
        .default(serde_json::json!({})),
    )
}

pub(crate) fn lower(_: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Subtree)
}

pub(crate) fn tick<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32) -> Status {
    let child = only_child(x, i);
    x.tick(child)
}
