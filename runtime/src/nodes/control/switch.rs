//! Switch: runs the child whose case matches a blackboard key; the last child is the default.
//! - each tick the key `variable` is read and compared with `case_1`, `case_2`, … in order;
//!   case k selects child k (1-based), no match (or no valid value) selects the last child
//! - if another child was running, it is aborted before the selected one is ticked, so a
//!   change of the key pre-empts the running branch
//! - returns the selected child's status
//!
//! Matching follows BT.CPP's `CheckStringEquality`: a string value matches a case with the
//! same text; numbers match when the case parses as the same number (`"42"` matches `42`,
//! `"1.0"` matches `1`); booleans match `"true"`/`"false"`; arrays and objects never match.
//! Up to six cases (BT.CPP has Switch2 … Switch6); takes 3 to 7 children (the loader
//! rejects other counts), and with n children only `case_1` … `case_{n-1}` are used.
//! Per-execution state: the running child (cursor, 0 = none). BT.CPP:
//! `controls/switch_node.h`.
//! JSON: `{"type":"Switch","params":{"variable":"mode","case_1":"patrol","case_2":"flee"},
//! "children":[patrol, flee, idle]}`

use std::sync::Arc;

use crate::args::Args;
use crate::blackboard::Key;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;
use crate::value::Value;

/// How many `case_N` parameters a Switch declares (BT.CPP's largest is Switch6).
pub(crate) const MAX_CASES: usize = 6;

/// The roles of the children before the default: each the parameter holding its case.
const CASE_ROLES: [&str; MAX_CASES] = ["case_1", "case_2", "case_3", "case_4", "case_5", "case_6"];

/// The parameter name of case `k` (1-based).
pub(crate) fn case_param(k: usize) -> String {
    format!("case_{k}")
}

/// One case: its text, and the number it parses as (parsed once, at load).
#[derive(Clone, Debug)]
pub(crate) struct Case {
    text: Arc<str>,
    number: Option<f64>,
}

impl Case {
    fn new(text: &str) -> Case {
        Case {
            text: Arc::from(text),
            number: text.trim().parse::<f64>().ok(),
        }
    }

    /// Does not allocate: ticks must not.
    fn matches(&self, value: &Value) -> bool {
        match value {
            Value::Str(s) => {
                **s == *self.text
                    || matches!((s.trim().parse::<f64>(), self.number), (Ok(a), Some(b)) if a == b)
            }
            Value::Int(_) | Value::Float(_) => {
                matches!((value.as_f64(), self.number), (Some(a), Some(b)) if a == b)
            }
            Value::Bool(b) => self.text.trim() == if *b { "true" } else { "false" },
            // A user value's text is its JSON, which would take an allocation to make.
            Value::Null
            | Value::Json(_)
            | Value::Vec2(_)
            | Value::Vec3(_)
            | Value::Entity(_)
            | Value::User(_) => false,
        }
    }
}

pub(crate) fn spec() -> NodeType {
    let mut ty = ty(
        "Switch",
        Category::Composite,
        "Runs the child whose case equals a blackboard key; the last child is the default.",
    )
    .child_range(3, MAX_CASES + 1)
    .child_roles(&CASE_ROLES)
    .last_child_role("default")
    .param(ParamSpec::new(
        "variable",
        ParamKind::Key,
        "The key whose value selects the child.",
    ));
    for k in 1..=MAX_CASES {
        ty = ty.param(
            ParamSpec::new(
                &case_param(k),
                ParamKind::String,
                &format!("The value that selects child {k}."),
            )
            .literal()
            .optional(),
        );
    }
    ty
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let variable = args
        .key("variable")
        .map_err(|m| ParamError::new("variable", m))?;
    let cases: Vec<Option<Case>> = (1..=MAX_CASES)
        .map(|k| {
            args.value(&case_param(k))
                .and_then(Value::as_str)
                .map(Case::new)
        })
        .collect();
    Ok(Kind::Switch {
        variable,
        cases: Arc::from(cases),
    })
}

pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
    variable: Key,
    cases: &[Option<Case>],
) -> Status {
    let tree = x.tree;
    let children = tree.child_indices(i);
    let Some(default) = children.len().checked_sub(1) else {
        return Status::Success;
    };
    let selected = match x.cx.blackboard.get(variable) {
        Some(value) => cases
            .iter()
            .take(default)
            .position(|case| case.as_ref().is_some_and(|c| c.matches(value)))
            .unwrap_or(default),
        None => default,
    };
    let running = x.slot(i).cursor as usize;
    if running != 0 && running - 1 != selected {
        x.abort(children[running - 1]);
    }
    let status = x.tick(children[selected]);
    if status == Status::Running {
        x.slot(i).cursor = selected as u32 + 1;
    }
    status
}
