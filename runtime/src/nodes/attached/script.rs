//! The script decorators: BT.CPP's pre- and post-condition attributes (`_skipIf`,
//! `_failureIf`, `_successIf`, `_while`, `_onSuccess`, `_onFailure`, `_onHalted`, `_post`)
//! as attached decorators (docs/semantics.md rules 54 to 60).
//!
//! Pre-scripts (FailureIf, SuccessIf, SkipIf, While) are evaluated top to bottom when the
//! node is idle, after the condition decorators passed; the first that decides gives the
//! node's status and the node does not run. While is evaluated again on every tick while
//! the node runs. Post-scripts run bottom to top as the node completes (OnSuccess,
//! OnFailure, Post) or is aborted (OnHalted).

use std::sync::Arc;

use super::DecoratorKind;
use crate::args::Args;
use crate::blackboard::Blackboard;
use crate::exec::Exec;
use crate::nodes::action::script::run;
use crate::nodes::{LowerCx, ParamError};
use crate::script::Program;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::{NodeId, Observer, TraceEvent};

/// What a script decorator does with its script.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Role {
    /// True: the node fails without running.
    FailureIf,
    /// True: the node succeeds without running.
    SuccessIf,
    /// True: the node is skipped, reporting `Status` (rule 56).
    SkipIf(Status),
    /// False when idle: skipped; false while running: aborted, then skipped.
    While(Status),
    OnSuccess,
    OnFailure,
    OnHalted,
    /// After completion, whatever the status.
    Post,
}

/// The decorator types, their BT.CPP attribute and their description.
pub(crate) const TYPES: [(&str, &str, &str); 8] = [
    (
        "FailureIf",
        "_failureIf",
        "When the node is about to start: if the script is true, the node fails without running.",
    ),
    (
        "SuccessIf",
        "_successIf",
        "When the node is about to start: if the script is true, the node succeeds without running.",
    ),
    (
        "SkipIf",
        "_skipIf",
        "When the node is about to start: if the script is true, the node is skipped.",
    ),
    (
        "While",
        "_while",
        "The node runs only while the script is true: skipped if false at the start, \
         aborted and skipped if it turns false while running.",
    ),
    (
        "OnSuccess",
        "_onSuccess",
        "Runs the script when the node succeeds.",
    ),
    (
        "OnFailure",
        "_onFailure",
        "Runs the script when the node fails.",
    ),
    (
        "OnHalted",
        "_onHalted",
        "Runs the script when the node is aborted.",
    ),
    (
        "Post",
        "_post",
        "Runs the script when the node completes, whatever its status.",
    ),
];

/// The BT.CPP attribute of a script decorator type, and back.
#[cfg_attr(not(feature = "btcpp"), allow(dead_code))]
pub(crate) fn attribute_of(type_name: &str) -> Option<&'static str> {
    TYPES.iter().find(|t| t.0 == type_name).map(|t| t.1)
}

/// The script decorator type of a BT.CPP attribute (`_skipIf` -> `SkipIf`).
#[cfg_attr(not(feature = "btcpp"), allow(dead_code))]
pub(crate) fn type_of_attribute(attribute: &str) -> Option<&'static str> {
    TYPES.iter().find(|t| t.1 == attribute).map(|t| t.0)
}

fn skips(name: &str) -> bool {
    matches!(name, "SkipIf" | "While")
}

pub(crate) fn builtin_types() -> Vec<NodeType> {
    TYPES
        .iter()
        .map(|(name, _, description)| {
            let condition = !name.starts_with("On") && *name != "Post";
            let ty = NodeType::new(name, Category::Attached, description).param(ParamSpec::new(
                "code",
                ParamKind::Script,
                if condition {
                    "A script that gives true or false."
                } else {
                    "Statements separated by `;`."
                },
            ));
            if skips(name) {
                ty.param(
                    ParamSpec::new(
                        "skipped",
                        ParamKind::Enum,
                        "The status a skipped node reports (Arbor has no SKIPPED status): \
                         success lets a Sequence go on to its next child, failure lets a \
                         Selector go on.",
                    )
                    .literal()
                    .values(&["success", "failure"])
                    .default("success".into()),
                )
            } else {
                ty
            }
        })
        .collect()
}

/// The role and compiled script of script decorator `name`, or `None` for other types.
pub(crate) fn lower(
    name: &str,
    args: &Args,
    cx: &LowerCx<'_>,
) -> Option<Result<(Role, Arc<Program>), ParamError>> {
    let skipped = || match args.str("skipped") {
        Ok("failure") => Status::Failure,
        _ => Status::Success,
    };
    let role = match name {
        "FailureIf" => Role::FailureIf,
        "SuccessIf" => Role::SuccessIf,
        "SkipIf" => Role::SkipIf(skipped()),
        "While" => Role::While(skipped()),
        "OnSuccess" => Role::OnSuccess,
        "OnFailure" => Role::OnFailure,
        "OnHalted" => Role::OnHalted,
        "Post" => Role::Post,
        _ => return None,
    };
    let condition = !matches!(
        role,
        Role::OnSuccess | Role::OnFailure | Role::OnHalted | Role::Post
    );
    Some(crate::nodes::action::script::code(args, cx, "code", condition).map(|p| (role, p)))
}

/// Rules 54 to 57: the pre-scripts of idle node `i`, top to bottom. `Some(status)` when
/// one decides: the node does not run (after FailureIf or SuccessIf its post-scripts
/// run, as BT.CPP runs them for any completed status; a skipped node runs none). Each
/// evaluated script is traced as a check that passed when it let the node run. A script
/// that reads a key without a valid value counts as false.
pub(crate) fn before_start<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
) -> Option<Status> {
    let tree = x.tree;
    for (k, d) in tree.decorators_of(i).iter().enumerate() {
        let DecoratorKind::Script { role, program } = &d.kind else {
            continue;
        };
        let decided = match *role {
            Role::FailureIf | Role::SuccessIf | Role::SkipIf(_) => {
                run(&mut *x.cx.blackboard, &mut *x.obs, i, program).unwrap_or(false)
            }
            Role::While(_) => !run(&mut *x.cx.blackboard, &mut *x.obs, i, program).unwrap_or(false),
            _ => continue,
        };
        x.obs.event(TraceEvent::Check {
            node: NodeId(i),
            decorator: k as u32,
            passed: !decided,
        });
        if !decided {
            continue;
        }
        return Some(match *role {
            Role::FailureIf => finish(x, i, Status::Failure),
            Role::SuccessIf => finish(x, i, Status::Success),
            Role::SkipIf(skipped) | Role::While(skipped) => skipped,
            _ => continue,
        });
    }
    None
}

/// The post-scripts of a node that a pre-script completed without running it.
fn finish<C, O: Observer + ?Sized>(x: &mut Exec<'_, '_, C, O>, i: u32, status: Status) -> Status {
    for d in x.tree.decorators_of(i).iter().rev() {
        if let DecoratorKind::Script { role, program } = &d.kind {
            after(
                &mut *x.cx.blackboard,
                &mut *x.obs,
                i,
                *role,
                program,
                status,
            );
        }
    }
    status
}

/// Rule 57: a running node's While scripts, top to bottom; the first that is false aborts
/// the node (its OnHalted scripts run) and gives the skipped status.
pub(crate) fn while_running<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    i: u32,
) -> Option<Status> {
    let tree = x.tree;
    if tree.nodes[i as usize].decorator_count == 0 {
        return None;
    }
    for (k, d) in tree.decorators_of(i).iter().enumerate() {
        if let DecoratorKind::Script {
            role: Role::While(skipped),
            program,
        } = &d.kind
        {
            let holds = run(&mut *x.cx.blackboard, &mut *x.obs, i, program).unwrap_or(false);
            x.obs.event(TraceEvent::Check {
                node: NodeId(i),
                decorator: k as u32,
                passed: holds,
            });
            if !holds {
                x.abort(i);
                return Some(*skipped);
            }
        }
    }
    None
}

/// Rule 58: a post-script of node `i` as it completes with `status`. A script that reads a
/// key without a valid value stops there and changes nothing else.
pub(crate) fn after<O: Observer + ?Sized>(
    bb: &mut Blackboard,
    obs: &mut O,
    i: u32,
    role: Role,
    program: &Program,
    status: Status,
) {
    let runs = match role {
        Role::OnSuccess => status == Status::Success,
        Role::OnFailure => status == Status::Failure,
        Role::Post => true,
        _ => false,
    };
    if runs {
        let _ = run(bb, obs, i, program);
    }
}
