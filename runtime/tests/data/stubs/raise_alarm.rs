use arbor_runtime::{NodeDecl, Registry, Status};

/// Alerts the outpost; other sentries come running.
///
/// Registers `RaiseAlarm`. `C` is your game's data for one agent (`cx.agent`): name your type
/// instead of the generic parameter to use it.
pub fn register_raise_alarm<C: 'static>(registry: &mut Registry<C>) {
    let mut decl = NodeDecl::<C>::action("RaiseAlarm", "Alerts the outpost; other sentries come running.");
    // `channel` (enum): horn, radio
    let channel = decl.input::<str>("channel").default("horn");
    registry.add(decl.tick(move |cx| {
        let _channel = cx.get(&channel);
        // TODO: what `RaiseAlarm` does, with `cx.agent`, `cx.dt()` and the inputs above.
        Status::Success
    }));
}
