//! Runner: the part every sample shares: a registry, the compiled tree and the agent
//! running it, with loading and hot reload. [`crate::Sample`] pairs one with its world.

use std::path::Path;
use std::sync::Arc;

use arbor_runtime::format::TreeFile;
use arbor_runtime::{
    Agent, Blackboard, CompiledTree, LoadError, LoadOptions, NodeId, NodeTypes, Registry,
};

use crate::simulation::{trees_dir, LoadOutcome};
use crate::tree_view::TreeView;

pub(crate) struct Runner<W> {
    registry: Registry<W>,
    tree: Option<Arc<CompiledTree<W>>>,
    agent: Option<Agent<W>>,
    seed: u64,
}

impl<W: 'static> Runner<W> {
    pub fn new(registry: Registry<W>, seed: u64) -> Runner<W> {
        Runner {
            registry,
            tree: None,
            agent: None,
            seed,
        }
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    pub fn node_types(&self) -> NodeTypes {
        self.registry.types().clone()
    }

    /// Compiles `file`. A running agent switches to the new tree with `Agent::reload`, after
    /// its running nodes were halted so host actions see their `abort`/`exit` and leave the
    /// world consistent; the world, clock and compatible blackboard values survive.
    pub fn load(
        &mut self,
        world: &mut W,
        file: &TreeFile,
        path: Option<&Path>,
    ) -> Result<LoadOutcome, LoadError> {
        let mut options = LoadOptions::default();
        if path.is_none() {
            // An unsaved document: resolve subtree paths against the samples' tree folder.
            options.project_root = Some(trees_dir());
        }
        let tree = Arc::new(
            self.registry
                .loader()
                .with_options(options)
                .load_tree(file, path)?,
        );
        Ok(self.install(world, tree))
    }

    /// Runs `tree` (loaded here, or by generated code: `World::generated`): a running agent
    /// switches to it with `Agent::reload`, as [`Runner::load`] says.
    pub fn install(&mut self, world: &mut W, tree: Arc<CompiledTree<W>>) -> LoadOutcome {
        let warnings = tree.warnings().to_vec();
        self.tree = Some(tree.clone());
        match &mut self.agent {
            Some(agent) => LoadOutcome {
                reloaded: true,
                dropped_keys: agent.reload(world, tree).dropped_keys,
                warnings,
            },
            None => {
                self.agent = Some(Agent::new(tree, self.seed));
                LoadOutcome {
                    reloaded: false,
                    dropped_keys: Vec::new(),
                    warnings,
                }
            }
        }
    }

    pub fn registry(&self) -> &Registry<W> {
        &self.registry
    }

    /// A fresh agent on the loaded tree (if any): clock 0, blackboard defaults, RNG reseeded.
    pub fn reset(&mut self) {
        self.agent = self.tree.clone().map(|tree| Agent::new(tree, self.seed));
    }

    pub fn agent_mut(&mut self) -> Option<&mut Agent<W>> {
        self.agent.as_mut()
    }

    pub fn tree(&self) -> Option<&dyn TreeView> {
        self.tree.as_deref().map(|t| t as &dyn TreeView)
    }

    pub fn blackboard(&self) -> Option<&Blackboard> {
        self.agent.as_ref().map(Agent::blackboard)
    }

    pub fn blackboard_mut(&mut self) -> Option<&mut Blackboard> {
        self.agent.as_mut().map(Agent::blackboard_mut)
    }

    pub fn now(&self) -> f64 {
        self.agent.as_ref().map_or(0.0, Agent::now)
    }

    pub fn is_running(&self, node: NodeId) -> bool {
        self.agent.as_ref().is_some_and(|a| a.is_running(node))
    }
}

/// A condition's status: success when `ok`.
pub(crate) fn succeed_if(ok: bool) -> arbor_runtime::Status {
    if ok {
        arbor_runtime::Status::Success
    } else {
        arbor_runtime::Status::Failure
    }
}
