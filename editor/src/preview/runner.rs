//! Runner: which simulation runs the open tree, and loading it from the document (the
//! first load, then a hot reload after every edit that changes what the runtime sees).
//!
//! The sample is chosen by the document's manifests (`../manifests/villager.json` names
//! the villager's node types) or, failing that, by the tree's name; otherwise "none": a
//! [`PlainSim`] with no world, which runs built-in nodes and stands in for host nodes (an
//! imported BehaviorTree.CPP tree's custom nodes, a game's actions before the game exists)
//! with the runtime's stand-ins, each returning the status the user picks.

use std::any::Any;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use arbor_runtime::btcpp::{stand_in_registry, StandIns};
use arbor_runtime::format::TreeFile;
use arbor_runtime::{
    Agent, Blackboard, CompiledTree, LoadError, NodeId, NodeInfo, NodeTypes, Observer, Status,
    TraceEvent,
};
use arbor_samples::card_duel::Opponent;
use arbor_samples::{LoadOutcome, Log, SampleMut, Simulation, TreeView, SAMPLES};

use crate::document::Document;

/// The name of the runner without a sample world.
pub const NONE: &str = "none";

/// A simulation the preview can run: its [`Simulation::name`] and menu title.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    pub name: &'static str,
    pub title: &'static str,
}

/// "none" first, then every sample in menu order.
pub fn choices() -> &'static [Choice] {
    static CHOICES: OnceLock<Vec<Choice>> = OnceLock::new();
    CHOICES.get_or_init(|| {
        let mut out = vec![Choice {
            name: NONE,
            title: PlainSim::TITLE,
        }];
        out.extend(SAMPLES.iter().map(|s| Choice {
            name: s.name,
            title: s.title,
        }));
        out
    })
}

/// The simulation for a document: the sample whose manifest it names, or whose name it
/// has; else [`NONE`].
pub fn sample_for(doc: &Document) -> &'static str {
    let samples = || choices().iter().filter(|c| c.name != NONE);
    for manifest in doc.manifests() {
        let stem = Path::new(manifest).file_stem().and_then(|s| s.to_str());
        if let Some(c) = samples().find(|c| Some(c.name) == stem) {
            return c.name;
        }
    }
    samples()
        .find(|c| c.name.eq_ignore_ascii_case(doc.name().trim()))
        .map_or(NONE, |c| c.name)
}

/// A fresh simulation called `name` (unknown names give "none"). The card duel is played
/// by the user: the preview shows the player's move buttons.
pub fn create(name: &str, seed: u64) -> Box<dyn Simulation> {
    match Sim::new(name, seed) {
        Sim::Sample(sim) => sim,
        Sim::StandIns(plain) => plain,
    }
}

/// What runs the tree: one of the samples, or the stand-ins of "none".
enum Sim {
    Sample(Box<dyn Simulation>),
    StandIns(Box<PlainSim>),
}

impl Sim {
    fn new(name: &str, seed: u64) -> Sim {
        let Some(mut sim) = arbor_samples::by_name(name, seed) else {
            return Sim::StandIns(Box::new(PlainSim::new(seed)));
        };
        if let Some(SampleMut::CardDuel(duel)) = sim.sample_mut() {
            duel.set_opponent(Opponent::Human);
        }
        Sim::Sample(sim)
    }
}

/// What loading the document did.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    /// Nothing the runtime sees changed (a node moved, a note was edited): not reloaded.
    Unchanged,
    /// The first tree for this simulation.
    Fresh { warnings: Vec<String> },
    /// Hot reload: the world, clock and compatible blackboard values were kept.
    Reloaded {
        dropped_keys: Vec<String>,
        warnings: Vec<String>,
    },
    /// The tree did not load. `kept`: an earlier tree is still loaded and runs on.
    Failed { problems: Vec<String>, kept: bool },
}

/// A simulation and what it was last given to load.
pub struct Runner {
    sim: Sim,
    /// The runtime-relevant part of the last tree handed to `load` (editor data removed),
    /// to skip reloading after edits that change only the layout.
    last: Option<TreeFile>,
    has_tree: bool,
}

impl Runner {
    pub fn new(name: &str, seed: u64) -> Runner {
        Runner {
            sim: Sim::new(name, seed),
            last: None,
            has_tree: false,
        }
    }

    pub fn name(&self) -> &'static str {
        self.sim().name()
    }

    pub fn sim(&self) -> &dyn Simulation {
        match &self.sim {
            Sim::Sample(sim) => &**sim,
            Sim::StandIns(plain) => &**plain,
        }
    }

    pub fn sim_mut(&mut self) -> &mut dyn Simulation {
        match &mut self.sim {
            Sim::Sample(sim) => &mut **sim,
            Sim::StandIns(plain) => &mut **plain,
        }
    }

    /// The stand-ins, when no sample runs the tree: their view lets the user pick statuses.
    pub fn stand_ins_mut(&mut self) -> Option<&mut PlainSim> {
        match &mut self.sim {
            Sim::Sample(_) => None,
            Sim::StandIns(plain) => Some(plain),
        }
    }

    /// Whether a tree is loaded (the simulation can tick).
    pub fn has_tree(&self) -> bool {
        self.has_tree
    }

    /// Makes the next [`Runner::load`] load even an unchanged tree (the document moved to
    /// another folder, so its subtree paths may mean other files).
    pub fn forget_last(&mut self) {
        self.last = None;
    }

    /// Loads the document's tree: the first time, or when it changed since. `types` are
    /// what the document is edited against (its manifests', its project's): the stand-ins
    /// run the host types among them.
    pub fn load(&mut self, doc: &Document, path: Option<&Path>, types: &NodeTypes) -> Loaded {
        if let Sim::StandIns(plain) = &mut self.sim {
            plain.types = types.clone();
        }
        let mut file = doc.to_tree_file();
        let editor = file.editor.take();
        if self.last.as_ref() == Some(&file) {
            return Loaded::Unchanged;
        }
        self.last = Some(file.clone());
        // Give the runtime the whole file, as it would read it from disk.
        file.editor = editor;
        match self.sim_mut().load(&file, path) {
            Ok(outcome) => {
                self.has_tree = true;
                loaded(outcome)
            }
            Err(e) => failed(&e, self.has_tree),
        }
    }
}

fn failed(e: &LoadError, kept: bool) -> Loaded {
    let mut problems: Vec<String> = e.errors().map(problem_line).collect();
    if problems.is_empty() {
        problems = e.problems.iter().map(problem_line).collect();
    }
    Loaded::Failed { problems, kept }
}

fn loaded(outcome: LoadOutcome) -> Loaded {
    let warnings = outcome.warnings.iter().map(problem_line).collect();
    if outcome.reloaded {
        Loaded::Reloaded {
            dropped_keys: outcome.dropped_keys,
            warnings,
        }
    } else {
        Loaded::Fresh { warnings }
    }
}

/// A problem as one line for the panel: the node and the message, without the file (it is
/// the open document, or a subtree file named in the message).
fn problem_line(p: &arbor_runtime::Problem) -> String {
    match &p.node_label {
        Some(label) => format!("{label}: {}", p.message()),
        None => p.message(),
    }
}

/// The "none" simulation: an agent with no world. Built-in nodes run as always; each host
/// node (declared in the document's manifests) is a stand-in that returns the status
/// chosen for it, success until the user picks another. Log leaves write to its log, so a
/// prototype tree still says what it does.
pub struct PlainSim {
    /// The types the document is edited against, given at each load: built-ins, its
    /// manifests' and its project's host types (placeholders included).
    types: NodeTypes,
    tree: Option<Arc<CompiledTree<StandIns>>>,
    /// The host nodes of `tree` whose status the user picks, found once per load: the
    /// preview lists them every frame, and a scan of every node's type would cost a
    /// 5,000-node tree as much as the rest of the frame.
    hosts: Vec<NodeId>,
    agent: Option<Agent<StandIns>>,
    stand_ins: StandIns,
    /// The status each host node returns, by GUID; kept across reloads and resets.
    chosen: BTreeMap<String, Status>,
    seed: u64,
    log: Log,
}

impl PlainSim {
    const TITLE: &'static str = "None (host nodes stand in)";

    pub fn new(seed: u64) -> PlainSim {
        PlainSim {
            types: NodeTypes::builtin(),
            tree: None,
            hosts: Vec::new(),
            agent: None,
            stand_ins: StandIns::new(),
            chosen: BTreeMap::new(),
            seed,
            log: Log::new(200),
        }
    }

    /// The host nodes of the loaded tree whose status the user picks (subtrees included,
    /// declared stand-ins left out), in tree order.
    pub fn host_nodes(&self) -> Vec<&NodeInfo> {
        match &self.tree {
            Some(tree) => self.hosts.iter().map(|&id| tree.info(id)).collect(),
            None => Vec::new(),
        }
    }

    /// The type of node `guid` if the loaded tree runs it as a stand-in whose status the
    /// user picks (without building [`PlainSim::host_nodes`]' list: the inspector asks
    /// every frame).
    pub fn stand_in_kind(&self, guid: &str) -> Option<&str> {
        let tree = self.tree.as_ref()?;
        self.hosts
            .iter()
            .map(|&id| tree.info(id))
            .find(|info| info.guid == guid)
            .map(|info| info.kind.as_str())
    }

    /// The status the stand-in for node `guid` returns.
    pub fn stand_in(&self, guid: &str) -> Status {
        self.chosen.get(guid).copied().unwrap_or(Status::Success)
    }

    /// Makes the stand-in for node `guid` return `status` from its next tick on.
    pub fn set_stand_in(&mut self, guid: &str, status: Status) {
        if status == Status::Success {
            self.chosen.remove(guid);
        } else {
            self.chosen.insert(guid.to_owned(), status);
        }
        self.script_stand_ins();
    }

    fn script_stand_ins(&mut self) {
        if let Some(tree) = &self.tree {
            let chosen = &self.chosen;
            self.stand_ins =
                StandIns::scripted(tree, |info| chosen.get(&info.guid).map(|s| vec![*s]));
        }
    }
}

impl Simulation for PlainSim {
    fn name(&self) -> &'static str {
        NONE
    }

    fn title(&self) -> &'static str {
        PlainSim::TITLE
    }

    fn tree_path(&self) -> PathBuf {
        // There is no sample tree; the preview always loads the open document.
        PathBuf::new()
    }

    fn node_types(&self) -> NodeTypes {
        self.types.clone()
    }

    fn default_dt(&self) -> f64 {
        0.1
    }

    fn load(&mut self, tree: &TreeFile, path: Option<&Path>) -> Result<LoadOutcome, LoadError> {
        let registry = stand_in_registry(&self.types);
        let compiled = Arc::new(registry.loader().load_tree(tree, path)?);
        let types = &self.types;
        self.hosts = (0..compiled.len())
            .map(NodeId::from_index)
            // A host control or decorator with a declared stand-in runs its children as that
            // built-in (rule 61): there is no status to choose for it.
            .filter(|&id| {
                types
                    .node(&compiled.info(id).kind)
                    .is_some_and(|t| t.host && t.stand_in.is_none())
            })
            .collect();
        let warnings = compiled.warnings().to_vec();
        self.tree = Some(compiled.clone());
        let outcome = match &mut self.agent {
            Some(agent) => {
                // Nodes whose place and shape are unchanged keep their state; the others
                // are aborted first, so nothing is left half-done.
                LoadOutcome {
                    reloaded: true,
                    dropped_keys: agent.reload(&mut self.stand_ins, compiled).dropped_keys,
                    warnings,
                }
            }
            None => {
                self.agent = Some(Agent::new(compiled, self.seed));
                LoadOutcome {
                    reloaded: false,
                    dropped_keys: Vec::new(),
                    warnings,
                }
            }
        };
        self.script_stand_ins();
        Ok(outcome)
    }

    fn tick(&mut self, dt: f64, observer: &mut dyn Observer) -> Option<Status> {
        let agent = self.agent.as_mut()?;
        agent.advance(dt);
        let now = agent.now();
        let log = &mut self.log;
        let tree = agent.tree().clone();
        let mut tee = |event: TraceEvent<'_>| {
            if let TraceEvent::Log { node, message } = event {
                // A Log leaf's own text is its message; a script's stop says where it is.
                if tree.info(node).kind == "Log" {
                    log.push(now, message);
                } else {
                    log.push(now, format!("{}: {message}", tree.locate(node)));
                }
            }
            observer.event(event);
        };
        Some(agent.run_traced(&mut self.stand_ins, &mut tee))
    }

    fn reset(&mut self) {
        self.agent = self.tree.clone().map(|t| Agent::new(t, self.seed));
        self.script_stand_ins();
        self.log.clear();
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.reset();
    }

    fn now(&self) -> f64 {
        self.agent.as_ref().map_or(0.0, Agent::now)
    }

    fn blackboard(&self) -> Option<&Blackboard> {
        self.agent.as_ref().map(Agent::blackboard)
    }

    fn blackboard_mut(&mut self) -> Option<&mut Blackboard> {
        self.agent.as_mut().map(Agent::blackboard_mut)
    }

    fn tree(&self) -> Option<&dyn TreeView> {
        self.tree.as_deref().map(|t| t as &dyn TreeView)
    }

    fn is_running(&self, node: NodeId) -> bool {
        self.agent.as_ref().is_some_and(|a| a.is_running(node))
    }

    fn log(&self) -> &Log {
        &self.log
    }

    fn summary(&self) -> String {
        match &self.agent {
            Some(agent) => format!(
                "{}, t = {:.1} s",
                crate::words::count(agent.ticks() as usize, "tick"),
                agent.now()
            ),
            None => "no tree loaded".to_owned(),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_follows_the_manifest_or_the_name() {
        let villager = crate::document::io::load(&arbor_samples::trees_dir().join("villager.json"))
            .expect("the sample opens");
        assert_eq!(sample_for(&villager), "villager");
        assert_eq!(sample_for(&Document::new("Guard")), "guard");
        assert_eq!(sample_for(&Document::new("my tree")), NONE);
        assert_eq!(choices()[0].name, NONE);
        assert!(choices().iter().any(|c| c.name == "card_duel"));
        let mut duel = create("card_duel", 1);
        let Some(SampleMut::CardDuel(duel)) = duel.sample_mut() else {
            panic!("not a duel");
        };
        assert_eq!(duel.opponent(), Opponent::Human);
        assert_eq!(create("nonsense", 1).name(), NONE);
    }

    #[test]
    fn loads_once_per_runtime_change_and_keeps_the_last_good_tree() {
        let mut runner = Runner::new(NONE, 1);
        let empty = Document::new("t");
        let Loaded::Failed { problems, kept } = runner.load(&empty, None, &NodeTypes::builtin())
        else {
            panic!("an empty document has no root");
        };
        assert!(!kept);
        assert!(problems[0].contains("missing root"), "{problems:?}");
        assert!(!runner.has_tree());
        assert_eq!(
            runner.load(&empty, None, &NodeTypes::builtin()),
            Loaded::Unchanged
        );
    }

    #[test]
    fn a_project_trees_host_nodes_run_as_stand_ins_returning_the_status_picked() {
        use arbor_runtime::{NodeType, TraceEvent};
        // The type comes from the session (a project's placeholder), not from a manifest
        // the document names: the preview runs what the document is edited against.
        let mut types = NodeTypes::builtin();
        let mut ty = NodeType::action("TakeCover", "Hides.");
        ty.placeholder = true;
        types.insert(ty);
        let mut s = crate::Session::with_types(Document::new("t"), types.clone());
        let root = s.add_node("Sequence", [0.0, 0.0]).unwrap();
        let hide = s.add_node("TakeCover", [200.0, 0.0]).unwrap();
        s.connect(&root, &hide).unwrap();
        let cmd = crate::commands::SetRoot::new(s.document(), Some(&root)).unwrap();
        s.apply(cmd).unwrap();

        let mut runner = Runner::new(NONE, 1);
        assert!(matches!(
            runner.load(s.document(), None, s.types()),
            Loaded::Fresh { .. }
        ));
        let mut ignore = |_: TraceEvent<'_>| {};
        assert_eq!(
            runner.sim_mut().tick(0.1, &mut ignore),
            Some(Status::Success)
        );
        let plain = runner
            .stand_ins_mut()
            .expect("no sample runs a project's tree");
        assert_eq!(plain.host_nodes().len(), 1);
        plain.set_stand_in(&hide, Status::Running);
        assert_eq!(
            runner.sim_mut().tick(0.1, &mut ignore),
            Some(Status::Running)
        );
        runner
            .stand_ins_mut()
            .unwrap()
            .set_stand_in(&hide, Status::Failure);
        assert_eq!(
            runner.sim_mut().tick(0.1, &mut ignore),
            Some(Status::Failure)
        );
    }
}
