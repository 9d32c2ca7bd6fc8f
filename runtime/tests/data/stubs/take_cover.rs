use arbor_runtime::{Entity, NodeDecl, Registry, Status, Vec2};

/// Moves behind the nearest cover between the sentry and `threat`; running until there.
///
/// Registers `TakeCover`. `C` is your game's data for one agent (`cx.agent`): name your type
/// instead of the generic parameter to use it.
pub fn register_take_cover<C: 'static>(registry: &mut Registry<C>) {
    let mut decl = NodeDecl::<C>::action("TakeCover", "Moves behind the nearest cover between the sentry and `threat`; running until there.");
    let threat = decl.input::<Entity>("threat").doc("Who to hide from.").required();
    let near = decl.input::<Vec2>("near").doc("Look for cover around here.").default(Vec2::new(4.0, 2.0));
    let radius = decl.input::<f64>("radius").default(6.0_f64);
    let hidden = decl.output::<bool>("hidden").doc("Set once behind cover.").optional();
    registry.add(decl.tick(move |cx| {
        let _threat = cx.get(&threat);
        let _near = cx.get(&near);
        let _radius = cx.get(&radius);
        // TODO: what `TakeCover` does, with `cx.agent`, `cx.dt()` and the inputs above.
        // cx.set(&hidden, …); writes the `hidden` output.
        let _ = hidden;
        Status::Success
    }));
}
