//! Random: success with `probability`, else failure; never running (rule 34, the
//! textbooks' coin-flip node). Draws from the agent's seeded generator, so runs are
//! reproducible.
//! JSON: `{"type":"Random","params":{"probability":0.5}}`

use crate::args::Args;
use crate::exec::Exec;
use crate::nodes::{ty, Kind, LowerCx, ParamError};
use crate::port::InPort;
use crate::spec::{Category, NodeType, ParamKind, ParamSpec};
use crate::status::Status;
use crate::trace::Observer;

pub(crate) fn spec() -> NodeType {
    ty(
        "Random",
        Category::Condition,
        "Succeeds with the given probability, from the agent's seeded generator.",
    )
    .param(
        ParamSpec::new(
            "probability",
            ParamKind::Float,
            "Chance of success, 0 to 1.",
        )
        .default(0.5.into()),
    )
}

pub(crate) fn lower(args: &Args, _: &mut LowerCx<'_>) -> Result<Kind, ParamError> {
    let probability = args
        .port::<f64>("probability")
        .map_err(|m| ParamError::new("probability", m))?;
    if let Some(&p) = probability.as_literal() {
        if !valid(p) {
            return Err(ParamError::new(
                "probability",
                format!("must be between 0 and 1; found {p}"),
            ));
        }
    }
    Ok(Kind::Random { probability })
}

fn valid(p: f64) -> bool {
    (0.0..=1.0).contains(&p)
}

/// A bound probability without a valid value, or outside 0..=1, fails without drawing.
pub(crate) fn tick<C, O: Observer + ?Sized>(
    x: &mut Exec<'_, '_, C, O>,
    probability: &InPort<f64>,
) -> Status {
    match probability.read(x.cx.blackboard).filter(|p| valid(*p)) {
        Some(p) => Status::from_bool(x.cx.host.rng.f64() < p),
        None => Status::Failure,
    }
}
