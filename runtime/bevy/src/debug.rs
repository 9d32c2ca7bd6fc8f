//! The debug server in a Bevy app (feature `debug`): every agent is an instance the editor
//! can attach to, as in any Arbor program (docs/embedding.md, "Remote debugging").
//!
//! The network threads are the runtime's own and never touch an entity: pause, step,
//! breakpoints and blackboard edits are applied by the tick system, at the agent's next
//! tick. An agent is registered when it starts and again after a hot reload (a handle
//! describes the tree it was registered with).

use bevy_app::App;
use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;

use arbor_runtime::debug::{DebugConfig, DebugServer, Instance};
use arbor_runtime::format::TreeFile;
use arbor_runtime::Agent;

/// The running debug server, when [`crate::ArborPlugin::debug_server`] started one: read
/// its address (`.0.local_addr()`) or how many clients are connected.
#[derive(Resource, Debug)]
pub struct ArborDebugServer(pub DebugServer);

pub(crate) fn start(app: &mut App, config: DebugConfig) {
    match DebugServer::start(config) {
        Ok(server) => {
            app.insert_resource(ArborDebugServer(server));
        }
        // A game must still run when its debug port is taken; the message says why the
        // editor cannot attach.
        Err(e) => eprintln!("arbor: the debug server did not start: {e}"),
    }
}

/// Lists `agent` as "`tree` #entity".
pub(crate) fn register<C>(
    server: &ArborDebugServer,
    entity: Entity,
    agent: &Agent<C>,
    file: &TreeFile,
) -> Instance {
    server
        .0
        .register(format!("{} #{}", file.name, entity.index()), agent, file)
}
