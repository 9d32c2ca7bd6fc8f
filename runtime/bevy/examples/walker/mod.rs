//! The examples' walker: the host data `assets/walker.json` acts on, and its node types.

use arbor_runtime::{ActionCtx, Args, InPort, NodeType, ParamSpec, Registry, Status, ValueType};
use bevy_ecs::component::Component;

/// The host data each entity's tree acts on.
#[derive(Component, Default)]
pub struct Walker {
    pub position: f64,
    pub arrivals: u32,
}

/// Steps half a metre a tick towards `target`; running until there.
struct MoveTo {
    target: InPort<f64>,
}

impl arbor_runtime::Action<Walker> for MoveTo {
    fn tick(&self, cx: &mut ActionCtx<'_, Walker>) -> Status {
        let Some(goal) = cx.get(&self.target) else {
            return Status::Failure;
        };
        let walker = &mut *cx.agent;
        let gap = goal - walker.position;
        if gap.abs() <= 0.5 {
            walker.position = goal;
            walker.arrivals += 1;
            Status::Success
        } else {
            walker.position += 0.5 * gap.signum();
            Status::Running
        }
    }
}

pub fn registry() -> Registry<Walker> {
    let mut registry = Registry::new();
    registry.register(
        NodeType::action("MoveTo", "Walks to `target`; running until there.")
            .param(ParamSpec::typed("target", ValueType::Float, "Where to go.")),
        |args: &Args| {
            Ok(MoveTo {
                target: args.port("target")?,
            })
        },
    );
    registry
}
