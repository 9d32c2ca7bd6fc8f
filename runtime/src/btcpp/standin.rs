//! Stand-ins: run an imported tree before the program that implements its custom nodes
//! exists (the editor's preview, tests, `arbor`-style experiments).
//!
//! [`stand_in_registry`] registers every host node type of a [`NodeTypes`] (for an import,
//! [`super::Imported::node_types`]) with a stand-in that behaves like a Scripted leaf
//! (docs/semantics.md rule 6): the k-th tick of a node returns `script[min(k, len - 1)]`, counted
//! per node over the agent's lifetime. The scripts live in the agent's data,
//! [`StandIns`], so one compiled tree serves agents with different scripts; a node
//! without a script succeeds.
//!
//! A host control or decorator whose type declares a `stand_in` (rule 61: "as Sequence",
//! "pass through", …; the import gives Nav2's controls and decorators one) runs as that
//! built-in kind and ticks its children. One without (`TryCatch`, `ConsumeQueue`, a custom
//! `<Control>` the import knows nothing about) is a scripted leaf that does not tick its
//! branch; declare a stand-in in its manifest, or give it a script.
//!
//! ```
//! use std::sync::Arc;
//! use arbor_runtime::btcpp::{import_str, stand_in_registry, ImportOptions, StandIns};
//! use arbor_runtime::{Agent, Status};
//!
//! let xml = r#"<root BTCPP_format="4"><BehaviorTree ID="Main">
//!     <RetryUntilSuccessful num_attempts="3"><OpenDoor/></RetryUntilSuccessful>
//!   </BehaviorTree></root>"#;
//! let imported = import_str(xml, &ImportOptions::new("door"))?;
//! let registry = stand_in_registry(&imported.node_types());
//! let tree = Arc::new(registry.loader().load_tree(imported.main(), None)?);
//! let mut scripts = StandIns::scripted(&tree, |node| {
//!     (node.kind == "OpenDoor").then(|| vec![Status::Failure, Status::Success])
//! });
//! let mut agent = Agent::new(tree, 1);
//! // As in BT.CPP 4.8, the retry waits for the next tick (rule 49).
//! assert_eq!(agent.tick(&mut scripts, 1.0), Status::Running);
//! assert_eq!(agent.tick(&mut scripts, 1.0), Status::Success);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use crate::control::{Control, ControlCtx};
use crate::host::{Action, ActionCtx};
use crate::registry::Registry;
use crate::spec::Category;
use crate::spec::NodeTypes;
use crate::status::Status;
use crate::trace::NodeId;
use crate::tree::{CompiledTree, NodeInfo};

/// The per-agent data of stand-ins: each node's script and how often it ticked.
#[derive(Clone, Debug, Default)]
pub struct StandIns {
    scripts: HashMap<usize, Arc<[Status]>>,
    ticks: HashMap<usize, u32>,
}

impl StandIns {
    /// Every stand-in succeeds.
    pub fn new() -> StandIns {
        StandIns::default()
    }

    /// Scripts chosen per node of `tree`: `script` returns the statuses of a node's
    /// successive ticks (the last repeats), or `None` for success. Only host nodes use
    /// them; an empty list counts as `None`.
    pub fn scripted<C>(
        tree: &CompiledTree<C>,
        script: impl Fn(&NodeInfo) -> Option<Vec<Status>>,
    ) -> StandIns {
        let mut scripts = HashMap::new();
        for i in 0..tree.len() {
            if let Some(list) = script(tree.info(NodeId::from_index(i))) {
                if !list.is_empty() {
                    scripts.insert(i, Arc::from(list));
                }
            }
        }
        StandIns {
            scripts,
            ticks: HashMap::new(),
        }
    }

    /// How many times the stand-in of `node` has ticked.
    pub fn ticks(&self, node: NodeId) -> u32 {
        self.ticks.get(&node.index()).copied().unwrap_or(0)
    }

    fn next(&mut self, node: NodeId) -> Status {
        let k = self.ticks.entry(node.index()).or_insert(0);
        let status = match self.scripts.get(&node.index()) {
            Some(list) => list[(*k as usize).min(list.len() - 1)],
            None => Status::Success,
        };
        *k = k.saturating_add(1);
        status
    }
}

struct StandIn;

impl Action<StandIns> for StandIn {
    fn tick(&self, cx: &mut ActionCtx<'_, StandIns>) -> Status {
        let node = cx.node();
        cx.agent.next(node)
    }
}

/// A control or decorator without a stand-in: a scripted leaf that does not tick its
/// children (rule 61).
impl Control<StandIns> for StandIn {
    type State = ();
    fn tick(&self, cx: &mut ControlCtx<'_, StandIns>, _: &mut ()) -> Status {
        let node = cx.node();
        cx.agent().next(node)
    }
}

/// A registry whose host node types are the host types of `types`, each run by a
/// stand-in (see the module docs).
pub fn stand_in_registry(types: &NodeTypes) -> Registry<StandIns> {
    let mut registry = Registry::new();
    // A host type may not replace a built-in (`Registry::register` refuses that); such a
    // declaration can only come from a hand-built `NodeTypes`, and is skipped.
    for ty in types
        .nodes()
        .filter(|t| t.host && super::builtin().node(&t.name).is_none())
    {
        // A control or decorator with a declared stand-in runs its children as that
        // built-in kind (rule 61); everything else is a scripted leaf.
        match (ty.stand_in, ty.category) {
            (Some(_), _) => registry.declare(ty.clone()),
            (None, Category::Composite) => registry.composite(ty.clone(), |_| Ok(StandIn)),
            (None, Category::Decorator) => registry.decorator(ty.clone(), |_| Ok(StandIn)),
            (None, _) => registry.register(ty.clone(), |_| Ok(StandIn)),
        };
    }
    // The program's scripting enums (a manifest's `script_enums`), which scripts name.
    for (name, value) in types.script_enums() {
        registry.script_enum(name, *value);
    }
    registry
}
