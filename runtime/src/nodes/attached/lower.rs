//! Declarations of the attached decorator types and their lowering from checked parameters.

use crate::args::Args;
use crate::nodes::{LowerCx, Operand, ParamError};
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};

use super::{AbortType, Decorator, DecoratorKind, Reset};

fn invert() -> ParamSpec {
    ParamSpec::new("invert", ParamKind::Bool, "Negate the result.")
        .literal()
        .default(false.into())
}

fn abort() -> ParamSpec {
    ParamSpec::new(
        "abort",
        ParamKind::Enum,
        "Re-check while running: None, Self (abort this node), LowerPriority (abort a later \
         sibling), Both.",
    )
    .literal()
    .values(&AbortType::NAMES)
    .default("None".into())
}

fn key_test(name: &str, description: &str) -> NodeType {
    crate::nodes::action::condition::with_key_test(NodeType::new(
        name,
        Category::Attached,
        description,
    ))
    .param(invert())
}

/// The attached decorator types, in palette order.
pub(crate) fn builtin_types() -> Vec<NodeType> {
    vec![
        key_test(
            "Condition",
            "Lets the node run only while a blackboard key holds a value.",
        )
        .param(abort()),
        key_test(
            "Precondition",
            "Checked on every tick, even while running: false aborts the node.",
        ),
        NodeType::new(
            "CheckEvent",
            Category::Attached,
            "Lets the node run only when an event was raised (lives about one tick).",
        )
        .param(ParamSpec::new(
            "event",
            ParamKind::Event,
            "The event's name.",
        ))
        .param(invert())
        .param(abort()),
        NodeType::new(
            "CheckTrigger",
            Category::Attached,
            "Lets the node run only when a trigger is set; `reset` says when it is cleared.",
        )
        .param(ParamSpec::new(
            "trigger",
            ParamKind::Trigger,
            "The trigger's name.",
        ))
        .param(
            ParamSpec::new(
                "reset",
                ParamKind::Enum,
                "Clear the trigger on a successful check (Immediate), when the node enters \
                 (EnterNode) or when it leaves (LeaveNode).",
            )
            .literal()
            .values(&Reset::NAMES)
            .default("Immediate".into()),
        )
        .param(invert())
        .param(abort()),
        NodeType::new(
            "Inverter",
            Category::Attached,
            "After the node completes, swaps its success and failure.",
        ),
    ]
    .into_iter()
    .chain(super::script::builtin_types())
    .collect()
}

/// The attached form of a host condition type: its own parameters, then `invert` and
/// `abort` as on the built-in Condition decorator. The program's condition runs as the
/// check (rules 21 to 27 apply unchanged).
pub(crate) fn host_condition(condition: &NodeType) -> NodeType {
    let mut ty = NodeType::new(&condition.name, Category::Attached, &condition.description);
    ty.host = true;
    ty.params = condition.params.clone();
    ty.params
        .retain(|p| p.name != "invert" && p.name != "abort");
    ty.param(invert()).param(abort())
}

/// Builds a decorator of type `ty` from its checked parameters. A host condition gets a
/// placeholder action, built by the emitter from the same parameters.
pub(crate) fn lower(
    ty: &NodeType,
    args: &Args,
    cx: &mut LowerCx<'_>,
) -> Result<Decorator, ParamError> {
    let name = ty.name.as_str();
    if let Some(script) = super::script::lower(name, args, cx) {
        let (role, program) = script?;
        return Ok(Decorator {
            kind: DecoratorKind::Script { role, program },
            invert: false,
            abort: AbortType::None,
        });
    }
    let invert = match args.value("invert") {
        Some(v) => v.as_bool().unwrap_or(false),
        None => false,
    };
    let abort = args
        .value("abort")
        .and_then(|v| v.as_str())
        .and_then(AbortType::parse)
        .unwrap_or(AbortType::None);
    let kind = match name {
        "Condition" | "Precondition" => {
            let key = args.key("key").map_err(|m| ParamError::new("key", m))?;
            DecoratorKind::Condition {
                key,
                equals: Operand::from_args(args, cx, key)?,
            }
        }
        "CheckEvent" => DecoratorKind::CheckEvent {
            event: cx
                .names
                .event(args.str("event").map_err(|m| ParamError::new("event", m))?),
        },
        "CheckTrigger" => DecoratorKind::CheckTrigger {
            trigger: cx.names.trigger(
                args.str("trigger")
                    .map_err(|m| ParamError::new("trigger", m))?,
            ),
            reset: args
                .value("reset")
                .and_then(|v| v.as_str())
                .and_then(Reset::parse)
                .unwrap_or(Reset::Immediate),
        },
        "Inverter" => DecoratorKind::Inverter,

        _ if ty.host => DecoratorKind::Host {
            action: u32::MAX,
            state: crate::exec::NO_STATE,
            hooks: true,
        },
        other => {
            return Err(ParamError::new(
                "type",
                format!("`{other}` is not an attached decorator"),
            ))
        }
    };
    // Rule 30: a Precondition behaves exactly like a Condition with abort Self.
    let abort = if name == "Precondition" {
        AbortType::SelfOnly
    } else {
        abort
    };
    Ok(Decorator {
        kind,
        invert,
        abort,
    })
}
