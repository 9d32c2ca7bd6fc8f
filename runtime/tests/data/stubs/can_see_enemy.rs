use arbor_runtime::{Entity, NodeDecl, Registry, Status};

/// Succeeds when an enemy is in the sentry's line of sight within `range`; writes who to `enemy`.
///
/// Registers `CanSeeEnemy`. `C` is your game's data for one agent (`cx.agent`): name your type
/// instead of the generic parameter to use it.
pub fn register_can_see_enemy<C: 'static>(registry: &mut Registry<C>) {
    let mut decl = NodeDecl::<C>::condition("CanSeeEnemy", "Succeeds when an enemy is in the sentry's line of sight within `range`; writes who to `enemy`.");
    let range = decl.input::<f64>("range").doc("Metres.").default(12.0_f64);
    let enemy = decl.output::<Entity>("enemy").doc("The nearest enemy seen.").optional();
    registry.add(decl.tick(move |cx| {
        let _range = cx.get(&range);
        // TODO: what `CanSeeEnemy` does, with `cx.agent`, `cx.dt()` and the inputs above.
        // cx.set(&enemy, …); writes the `enemy` output.
        let _ = enemy;
        Status::Failure
    }));
}
