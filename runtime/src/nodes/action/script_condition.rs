//! ScriptCondition: success when its `code` gives true (or a non-zero number), failure
//! otherwise; never running (docs/semantics.md rule 53). The code may assign keys too.
//! JSON: `{"type":"ScriptCondition","params":{"code":"battery > 20 && !docked"}}`

use crate::args::Args;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};

pub(crate) fn spec() -> NodeType {
    ty(
        "ScriptCondition",
        Category::Condition,
        "Succeeds when a script (BehaviorTree.CPP's script language) gives true.",
    )
    .param(ParamSpec::new(
        "code",
        ParamKind::Script,
        "An expression such as `battery > 20 && !docked`; statements before it run first.",
    ))
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Script {
        program: super::script::code(args, cx, "code", true)?,
        condition: true,
    })
}
