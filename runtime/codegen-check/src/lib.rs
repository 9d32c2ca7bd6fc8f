//! The proof of sameness for generated code (`arbor_runtime::codegen`): the build script
//! compiles every project tree file and `ARBOR_CODEGEN_TREES` (default 300) random trees to
//! Rust; tests/differential.rs runs each on the interpreter and as generated code with the
//! same random stimuli and compares everything observable, tick by tick.
//!
//! ```text
//! cargo test -p arbor-codegen-check                          # 300 random trees
//! ARBOR_CODEGEN_TREES=3000 cargo test -p arbor-codegen-check # more
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arbor_runtime::{
    Action, ActionCtx, Agent, CompiledTree, LoadError, Registry, StatefulAction, Status,
};

/// The generated modules, `TREES`, the mutants, `COVERAGE` and `SKIPPED` (files that did
/// not load, with why).
#[allow(missing_docs)]
pub mod generated {
    use crate::{Coverage, Tree};
    include!(concat!(env!("OUT_DIR"), "/trees.rs"));
}

#[path = "../gen/random_tree.rs"]
#[allow(dead_code)] // the build script uses the generator; this crate its host manifest
mod random_tree;

/// Random tree number `i`'s file text, as the build script generated it (tests edit it).
pub fn random_tree(i: u64) -> String {
    random_tree::tree(i)
}

/// The node types the build script generated against: the built-in kinds, the project's
/// manifests and the random trees' host types.
pub fn types() -> arbor_runtime::NodeTypes {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(root.join("samples/manifests"))
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    manifests.sort();
    manifests.push(root.join("runtime/tests/data/cli/host_types.json"));
    let mut types = arbor_runtime::NodeTypes::builtin();
    for m in manifests {
        let text = std::fs::read_to_string(&m).unwrap_or_default();
        if let Err(e) = types.merge_manifest(&text) {
            panic!("{}: {e}", m.display());
        }
    }
    if let Err(e) = types.merge_manifest(random_tree::HOST_MANIFEST) {
        panic!("random trees' manifest: {e}");
    }
    types
}

/// A generated module's `load`, for [`Host`].
pub type Load = fn(&Registry<Host>) -> Result<Arc<CompiledTree<Host>>, LoadError>;

/// A generated module's `Direct` (`load_direct`), one type for every module.
pub trait DirectTick {
    /// `Direct::tree`.
    fn tree(&self) -> &Arc<CompiledTree<Host>>;
    /// `Direct::tick`.
    fn tick(&self, agent: &mut Agent<Host>, host: &mut Host, dt: f64) -> Status;
}

/// A generated module's `load_direct`, boxed.
pub type LoadDirect = fn(&Registry<Host>) -> Result<Box<dyn DirectTick>, LoadError>;

/// Inside a generated module: its `Direct` as a [`DirectTick`], and `direct`, its
/// [`LoadDirect`].
#[macro_export]
macro_rules! direct {
    () => {
        impl $crate::DirectTick for Direct<$crate::Host> {
            fn tree(&self) -> &::std::sync::Arc<CompiledTree<$crate::Host>> {
                Direct::tree(self)
            }
            fn tick(
                &self,
                agent: &mut Agent<$crate::Host>,
                host: &mut $crate::Host,
                dt: f64,
            ) -> Status {
                Direct::tick(self, agent, host, dt)
            }
        }

        pub fn direct(
            registry: &Registry<$crate::Host>,
        ) -> Result<Box<dyn $crate::DirectTick>, LoadError> {
            Ok(Box::new(load_direct(registry)?))
        }
    };
}

/// One generated tree.
/// How many of the generated modules (`TREES`) emit each of the calls of a Sequence's or
/// Selector's walk beyond a plain loop's.
pub struct Coverage {
    /// A decorated Sequence or Selector: the general lifecycle around the emitted walk.
    pub decorated: usize,
    /// A child that pre-empts or fails its parent while a later one runs, aborting it.
    pub preempting: usize,
    /// A Sequence re-checking an earlier child's LowerPriority/Both conditions.
    pub rechecking: usize,
}

pub struct Tree {
    /// The tree file.
    pub path: &'static str,
    /// Whether it is a random tree (else a project file).
    pub random: bool,
    /// The generated module's `load`.
    pub load: Load,
    /// The generated module's `load_direct`.
    pub direct: LoadDirect,
}

/// The program's data: host leaves draw their statuses from `rng` and log every call, so
/// both engines see the same script only if they call the same actions in the same order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Host {
    pub rng: u64,
    pub calls: Vec<String>,
}

impl Host {
    pub fn new(seed: u64) -> Host {
        Host {
            rng: seed | 1,
            calls: Vec::new(),
        }
    }

    /// A status drawn from the host's script: success, failure or (if `running`) running.
    pub fn draw(&mut self, running: bool) -> Status {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        match self.rng % if running { 3 } else { 2 } {
            0 => Status::Success,
            1 => Status::Failure,
            _ => Status::Running,
        }
    }
}

/// A host action with `enter`, `exit` and `abort` of its own: every call is logged.
struct Hooked {
    name: String,
    running: bool,
}

impl Action<Host> for Hooked {
    fn enter(&self, cx: &mut ActionCtx<'_, Host>) {
        let node = cx.node().index();
        cx.agent.calls.push(format!("enter {} {node}", self.name));
    }

    fn tick(&self, cx: &mut ActionCtx<'_, Host>) -> Status {
        let node = cx.node().index();
        let status = cx.agent.draw(self.running);
        cx.agent
            .calls
            .push(format!("tick {} {node} {status:?}", self.name));
        status
    }

    fn exit(&self, cx: &mut ActionCtx<'_, Host>, status: Status) {
        let node = cx.node().index();
        cx.agent
            .calls
            .push(format!("exit {} {node} {status:?}", self.name));
    }

    fn abort(&self, cx: &mut ActionCtx<'_, Host>) {
        let node = cx.node().index();
        cx.agent.calls.push(format!("abort {} {node}", self.name));
    }
}

/// A stateful host action: its per-execution tick count decides when it completes.
struct Counting;

impl StatefulAction<Host> for Counting {
    type State = u32;

    fn tick(&self, cx: &mut ActionCtx<'_, Host>, ticks: &mut u32) -> Status {
        *ticks += 1;
        let node = cx.node().index();
        cx.agent.calls.push(format!("count {node} {ticks}"));
        if *ticks >= 2 {
            cx.agent.draw(false)
        } else {
            Status::Running
        }
    }
}

/// The registry both engines load with: the random trees' host types, and a logging stub
/// for every host type of `types` (the project's manifests).
pub fn registry(types: &arbor_runtime::NodeTypes) -> Registry<Host> {
    let mut registry = Registry::<Host>::new();
    for ty in types.nodes().filter(|t| t.host) {
        let name = ty.name.clone();
        match name.as_str() {
            "HostB" => {
                registry.action(ty.clone(), |cx| {
                    let node = cx.node().index();
                    let status = cx.agent.draw(true);
                    cx.agent.calls.push(format!("tick HostB {node} {status:?}"));
                    status
                });
            }
            "HostS" => {
                registry.register_stateful_saved(ty.clone(), |_| Ok(Counting));
            }
            _ => {
                let running = ty.category != arbor_runtime::Category::Condition;
                registry.register(ty.clone(), move |_| {
                    Ok(Hooked {
                        name: name.clone(),
                        running,
                    })
                });
            }
        }
    }
    registry
}
