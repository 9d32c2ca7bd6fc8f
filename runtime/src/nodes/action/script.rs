//! Script: runs its `code` (docs/semantics.md rules 51 and 52) and succeeds. A script that
//! stops (it reads a key without a valid value or assigns one with `=`, rule 86, or hits
//! a limit: a string over `script::MAX_STRING_LEN`, a non-finite number stored) makes the
//! node fail, and the stop is reported as the node's `TraceEvent::Log` (see [`run`]).
//! JSON: `{"type":"Script","params":{"code":"count += 1; done := count >= 3"}}`

use std::collections::HashMap;
use std::sync::Arc;

use crate::args::Args;
use crate::blackboard::{Blackboard, Key};
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::script::{self, Names, Program, ScriptError, Stop};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::{NodeId, Observer, TraceEvent};
use crate::value::ValueType;

pub(crate) fn spec() -> NodeType {
    ty(
        "Script",
        Category::Action,
        "Runs a script (BehaviorTree.CPP's script language) on the blackboard; succeeds.",
    )
    .param(ParamSpec::new(
        "code",
        ParamKind::Script,
        "Statements separated by `;`, such as `count += 1; done := count >= 3`.",
    ))
}

pub(crate) fn lower(args: &Args, cx: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    Ok(Kind::Script {
        program: code(args, cx, "code", false)?,
        condition: false,
    })
}

/// Compiles the script parameter `param` against the file's keys; `condition` when its
/// value is tested. Problems name the line and column inside the script.
pub(crate) fn code(
    args: &Args,
    cx: &LowerCx<'_>,
    param: &'static str,
    condition: bool,
) -> Result<Arc<Program>, ParamError> {
    let src = args.str(param).map_err(|m| ParamError::new(param, m))?;
    let names = FileNames {
        types: cx.key_types,
        by_name: cx.key_names,
        enums: cx.script_enums,
        root_key: cx.root_key,
    };
    let compiled = if condition {
        script::compile_condition(src, &names)
    } else {
        script::compile(src, &names)
    };
    compiled
        .map(Arc::new)
        .map_err(|e| ParamError::new(param, located(&e, src)))
}

/// The message with its place in the script: `column 7: …`, or `line 2, column 3: …`.
pub(crate) fn located(e: &ScriptError, src: &str) -> String {
    let (line, column) = e.line_column(src);
    if src.contains('\n') {
        format!("line {line}, column {column}: {}", e.message)
    } else {
        format!("column {column}: {}", e.message)
    }
}

/// A file's keys as the script checker sees them. `@name` is the root tree's key `name`:
/// in the top file its own key, in a subtree file the top file's (rules 51 and 70).
struct FileNames<'a> {
    types: &'a [ValueType],
    by_name: &'a HashMap<String, Key>,
    enums: &'a std::collections::BTreeMap<String, i64>,
    root_key: Option<&'a crate::nodes::RootKey<'a>>,
}

impl Names for FileNames<'_> {
    fn key(&self, name: &str, root: bool) -> Option<(Key, ValueType)> {
        let key = match (root, self.root_key) {
            (true, Some(root_key)) => root_key(name)?,
            _ => *self.by_name.get(name)?,
        };
        Some((key, *self.types.get(key.index())?))
    }

    fn enum_value(&self, name: &str) -> Option<i64> {
        self.enums.get(name).copied()
    }
}

/// Runs the program: Script succeeds, ScriptCondition succeeds when the value is true;
/// both fail when the script reads a key without a valid value.
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    program: &Program,
    condition: bool,
) -> Status {
    match run(&mut *x.cx.blackboard, &mut *x.obs, i, program) {
        Ok(value) => Status::from_bool(value || !condition),
        Err(_) => Status::Failure,
    }
}

/// Runs the script of node `i` (its own, or one of its script decorators') as a
/// condition. A stop (a key without a value, rule 86, or a limit, rule 51) is a problem
/// in the tree, not an outcome the script can test for: BT.CPP throws there. So besides
/// stopping the script it is reported to the observer as a `TraceEvent::Log` of node `i`
/// with the located message (`Program::stop_message`): `arbor run` prints it, the
/// editor's preview lists it.
#[inline]
pub(crate) fn run<O: Observer + ?Sized>(
    bb: &mut Blackboard,
    obs: &mut O,
    i: u32,
    program: &Program,
) -> Result<bool, Stop> {
    let result = program.run(bb);
    if let Err(stop) = result {
        report(obs, i, program, stop);
    }
    result
}

#[cold]
#[inline(never)]
fn report<O: Observer + ?Sized>(obs: &mut O, i: u32, program: &Program, stop: Stop) {
    let message = program.stop_message(stop);
    obs.event(TraceEvent::Log {
        node: NodeId(i),
        message: &message,
    });
}
