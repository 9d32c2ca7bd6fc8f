//! Lays checked files out as one flat, pre-order node array: the compiled tree. Subtree
//! files are loaded, checked once, and spliced in under each Subtree node with that
//! instance's key mapping.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use super::analyse::{Analysed, Analyser};
use super::embedded::EmbeddedFile;
use super::params::{FileKeys, RootKeys};
use super::problem::{Problem, ProblemKind};
use super::suggest::Suggestions;
use super::{source, LoadOptions};
use crate::blackboard::{Key, KeyInfo};
use crate::control::{ControlFactory, Erased};
use crate::exec::NO_STATE;
use crate::host::{Action, Factory, StateMaker};
use crate::nodes::attached::{Decorator, DecoratorKind};
use crate::nodes::{Kind, Lower, Lowering, Names};
use crate::registry::Registry;
use crate::spec::Category;
use crate::spec::NodeTypes;
use crate::tree::{Node, NodeInfo};

/// Everything gathered while emitting; becomes the `CompiledTree`.
pub(crate) struct Emitter<'a, C> {
    pub registry: Option<&'a Registry<C>>,
    pub types: &'a NodeTypes,
    pub opts: &'a LoadOptions,
    /// The built-in kinds' lowerings; `None` for those written as controls, which are
    /// made as host composites and decorators are (`builtin_controls`).
    pub lowers: HashMap<String, Option<Lower>>,
    builtin_controls: HashMap<String, ControlFactory<C>>,
    pub names: Names,
    pub problems: Vec<Problem>,
    pub nodes: Vec<Node>,
    pub children: Vec<u32>,
    pub decorators: Vec<Decorator>,
    pub info: Vec<NodeInfo>,
    pub decorator_info: Vec<NodeInfo>,
    pub parents: Vec<u32>,
    pub keys: Vec<KeyInfo>,
    /// The names in `keys`, to keep them unique in constant time.
    key_names: HashMap<String, u32>,
    /// "Did you mean" lookups left for this load.
    suggestions: Suggestions,
    pub actions: Vec<Box<dyn Action<C>>>,
    /// The composites and decorators written as controls (`Kind::Control`).
    pub controls: Vec<Box<dyn Erased<C>>>,
    /// Timers given to timed nodes so far (`Duration::timer`).
    pub timers: u32,
    /// How to make each stateful host node's state, by state index.
    pub states: Vec<StateMaker>,
    /// What the host conditions that say so observe (rule 98), by
    /// `DecoratorKind::Host::observes`.
    pub observations: Vec<crate::observes::Observation>,
    /// Subtree files already checked, by canonical path (`None`: it had errors).
    files: HashMap<PathBuf, Option<Rc<Analysed>>>,
    /// The chain of files being emitted, for cycle detection.
    chain: Vec<PathBuf>,
    root_dir: Option<PathBuf>,
    /// Stop laying out once a limit was hit; the problem is already recorded.
    halted: bool,
    /// Compiled nodes of the top file, with their index in it: their `info` is named
    /// from that file when emission is over (`take_top_names`).
    top_names: Vec<(u32, usize)>,
    /// The children of the nodes being emitted, innermost last: one stack for the whole
    /// tree instead of a list per composite.
    kids: Vec<u32>,
    /// The top file's keys, which `@name` names in subtree files (rule 70); set once the
    /// top file's keys are laid out, before any subtree file is analysed.
    root_keys: Option<Rc<RootKeys>>,
}

impl<'a, C: 'static> Emitter<'a, C> {
    pub(crate) fn new(
        registry: Option<&'a Registry<C>>,
        types: &'a NodeTypes,
        opts: &'a LoadOptions,
    ) -> Self {
        let mut lowers = HashMap::new();
        let mut builtin_controls = HashMap::new();
        for (ty, lowering) in crate::nodes::builtin_kinds::<C>() {
            match lowering {
                Lowering::Kind(lower) => lowers.insert(ty.name, Some(lower)),
                Lowering::Control(factory) => {
                    builtin_controls.insert(ty.name.clone(), factory);
                    lowers.insert(ty.name, None)
                }
            };
        }
        Emitter {
            registry,
            types,
            opts,
            lowers,
            builtin_controls,
            names: Names::default(),
            problems: Vec::new(),
            nodes: Vec::new(),
            children: Vec::new(),
            decorators: Vec::new(),
            info: Vec::new(),
            decorator_info: Vec::new(),
            parents: Vec::new(),
            keys: Vec::new(),
            key_names: HashMap::new(),
            suggestions: Suggestions::default(),
            actions: Vec::new(),
            controls: Vec::new(),
            timers: 0,
            states: Vec::new(),
            observations: Vec::new(),
            files: HashMap::new(),
            chain: Vec::new(),
            root_dir: None,
            halted: false,
            top_names: Vec::new(),
            kids: Vec::new(),
            root_keys: None,
        }
    }

    pub(crate) fn analyse(
        &mut self,
        file: crate::format::TreeFile,
        origin: Arc<str>,
        path: Option<PathBuf>,
    ) -> Analysed {
        let mut analyser = Analyser {
            types: self.types,
            lowers: &self.lowers,
            names: &mut self.names,
            opts: self.opts,
            suggestions: &self.suggestions,
            root: self.root_keys.clone(),
        };
        analyser.analyse(file, origin, path, &mut self.problems)
    }

    /// Checks the top-level file. Its nodes' names are moved, not copied, into the
    /// compiled tree (see `take_top_names`).
    pub(crate) fn analyse_top(
        &mut self,
        file: crate::format::TreeFile,
        origin: Arc<str>,
        path: Option<PathBuf>,
    ) -> Analysed {
        let mut top = self.analyse(file, origin, path);
        top.top = true;
        top
    }

    /// Moves the GUID, name and type of each emitted node of the top file into its
    /// `info`, leaving them empty in `top`: the top file is emitted once and dropped after,
    /// and copying three strings per node (and freeing the originals) was a tenth of
    /// loading a large tree. Every problem has been reported by now, with its own copies.
    pub(crate) fn take_top_names(&mut self, top: &mut Analysed) {
        for &(me, i) in &self.top_names {
            let (Some(info), Some(def)) =
                (self.info.get_mut(me as usize), top.file.nodes.get_mut(i))
            else {
                continue;
            };
            info.guid = std::mem::take(&mut def.guid);
            info.name = std::mem::take(&mut def.name);
            info.kind = std::mem::take(&mut def.kind);
        }
        self.top_names.clear();
    }

    /// The subtree files read (canonical paths, or embedded names), sorted.
    pub(crate) fn subtree_files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self
            .files
            .iter()
            .filter(|(_, analysed)| analysed.is_some())
            .map(|(path, _)| path.clone())
            .collect();
        files.sort();
        files
    }

    /// Emits the top-level file: its keys become the tree's first keys.
    pub(crate) fn emit_top(&mut self, top: &Analysed) {
        let canonical = top.path.as_ref().and_then(|p| p.canonicalize().ok());
        self.root_dir = self
            .opts
            .project_root
            .clone()
            .and_then(|r| r.canonicalize().ok())
            .or_else(|| {
                canonical
                    .as_ref()
                    .and_then(|p| p.parent().map(Path::to_path_buf))
            });
        if self.opts.embedded.in_use() {
            // Embedded files are named from the top file's folder, or from the root its
            // given name is relative to (`super::embedded`).
            let name = match self.opts.embedded.top_file() {
                Some(name) => name.to_path_buf(),
                None => top
                    .path
                    .as_ref()
                    .and_then(|p| p.file_name())
                    .map(PathBuf::from)
                    .unwrap_or_default(),
            };
            self.chain.push(name);
        } else if let Some(c) = canonical {
            self.chain.push(c);
        }
        // Usually every node of the top file is emitted: room for them up front spares
        // growing (and copying) the largest arrays a dozen times.
        let n = top.file.nodes.len().min(self.opts.max_nodes);
        self.nodes.reserve(n);
        self.info.reserve(n);
        self.parents.reserve(n);
        self.children.reserve(n);
        let map: Vec<Key> = top
            .file
            .blackboard
            .iter()
            .map(|decl| self.add_key(decl.key.clone(), decl))
            .collect();
        // The top file's own keys are the compiled tree's first keys, in order: a subtree
        // file's root key `g` is the compiled tree's key `g` (`FileKeys::global`).
        debug_assert!(map.iter().enumerate().all(|(i, k)| k.index() == i));
        self.root_keys = Some(Rc::new(RootKeys::of(&top.keys)));
        if let Some(root) = top.graph.root {
            self.emit_node(top, &map, root, 1, u32::MAX);
        }
    }

    fn add_key(&mut self, name: String, decl: &crate::format::KeyDecl) -> Key {
        // Private subtree keys are named after their Subtree node; two such nodes with the
        // same name would make two keys that lookups by name cannot tell apart.
        // A map of the names taken (with the next suffix to try for each) keeps this linear:
        // scanning `keys` for each new key made 300,000 keys take a minute.
        let probe = |names: &HashMap<String, u32>, n: &str| {
            crate::work::add(crate::work::Counter::KeyNames, 1);
            names.contains_key(n)
        };
        crate::work::add(crate::work::Counter::KeyNames, 1);
        let name = match self.key_names.get(&name).copied() {
            None => name,
            Some(from) => {
                let (n, unique) = (from..)
                    .map(|n| (n, format!("{name} #{n}")))
                    .find(|(_, candidate)| !probe(&self.key_names, candidate))
                    .expect("an unused suffix exists");
                self.key_names.insert(name, n + 1);
                unique
            }
        };
        self.key_names.insert(name.clone(), 2);
        let default = decl
            .default
            .as_ref()
            .and_then(|d| decl.ty.coerce(d).ok())
            .unwrap_or_default();
        self.keys.push(KeyInfo {
            name,
            ty: decl.ty,
            default,
        });
        Key((self.keys.len() - 1) as u32)
    }

    fn emit_node(
        &mut self,
        file: &Analysed,
        map: &[Key],
        i: usize,
        depth: usize,
        parent: u32,
    ) -> Option<u32> {
        if self.halted {
            return None;
        }
        // Rule 79: an absent node is left out of its parent's children; a file's root
        // that is absent runs as an empty Sequence (it succeeds at once).
        let hollow = file.absent.get(i).copied().unwrap_or(false);
        if hollow && file.graph.root != Some(i) {
            return None;
        }
        let def = &file.file.nodes[i];
        let at = |kind| {
            Problem::new(&file.origin, format!("$.nodes[{i}]"), kind)
                .at_node(&def.guid, &def.name, &def.kind)
        };
        if depth > self.opts.max_depth {
            self.problems.push(at(ProblemKind::TooDeep {
                depth,
                limit: self.opts.max_depth,
            }));
            self.halted = true;
            return None;
        }
        if self.nodes.len() >= self.opts.max_nodes {
            self.problems.push(at(ProblemKind::TooManyNodes {
                count: self.nodes.len() + 1,
                limit: self.opts.max_nodes,
            }));
            self.halted = true;
            return None;
        }
        let lowered = &file.nodes[i];
        let remap = |k: Key| FileKeys::global(map, k);
        // `hooks`: see `Node::hooks`; built-in kinds have no host action.
        let (kind, hooks) = match (&lowered.kind, &lowered.host) {
            _ if hollow => (
                Kind::Sequence {
                    dynamic: false,
                    memory: false,
                    yields: false,
                },
                false,
            ),
            (Some(kind), _) => {
                let mut kind = kind.clone();
                kind.map_keys(&remap);
                (kind, false)
            }
            (None, Some(args)) if self.is_control(&def.kind) => {
                let (control, state) = self.control(file, i, &def.kind, args, &remap)?;
                (Kind::Control { control, state }, false)
            }
            (None, Some(args)) => match self.runs_as(&def.kind) {
                Err(stand_in) => (crate::nodes::stand_in::kind(stand_in), false),
                Ok(factory) => {
                    let host = self.host_action(file, i, &def.kind, factory, args, &remap)?;
                    let kind = Kind::Host {
                        action: host.action,
                        state: host.state,
                    };
                    (kind, host.hooks)
                }
            },
            (None, None) => return None,
        };
        let me = self.nodes.len() as u32;
        let first_decorator = self.decorators.len() as u32;
        let attached = if hollow {
            &[][..]
        } else {
            &lowered.decorators[..]
        };
        let decorators = attached.iter().zip(&lowered.decorator_args);
        for ((d, args), ddef) in decorators.zip(&def.decorators) {
            let mut d = d.clone();
            d.map_keys(&remap);
            if let Some(args) = args {
                let factory = self.registry.and_then(|r| r.factory(&ddef.kind));
                let host = self.host_action(file, i, &ddef.kind, factory, args, &remap)?;
                let observes = self.observation(factory, args, &remap);
                d.kind = DecoratorKind::Host {
                    action: host.action,
                    state: host.state,
                    hooks: host.hooks,
                    observes,
                };
            }
            self.decorators.push(d);
            self.decorator_info.push(NodeInfo {
                guid: ddef.guid.clone(),
                name: ddef.name.clone(),
                kind: ddef.kind.clone(),
                file: file.origin.clone(),
            });
        }
        let decorators = &self.decorators[first_decorator as usize..];
        let self_abort = decorators
            .iter()
            .any(|d| d.is_condition() && d.abort.includes_self());
        let lower_priority = decorators
            .iter()
            .any(|d| d.is_condition() && d.abort.includes_lower_priority());
        let mut kind = kind;
        if let Some(duration) = kind.duration_mut() {
            duration.timer = self.timers;
            self.timers += 1;
        }
        let plain =
            attached.is_empty() && !matches!(kind, Kind::Host { .. } | Kind::Control { .. });
        self.nodes.push(Node {
            kind,
            first_child: 0,
            child_count: 0,
            first_decorator,
            decorator_count: attached.len() as u32,
            self_abort,
            lower_priority,
            rescan: false,
            plain,
            hooks,
        });
        self.info.push(if file.top {
            // Named by `take_top_names` once emission is over, from the file itself.
            self.top_names.push((me, i));
            NodeInfo {
                guid: String::new(),
                name: String::new(),
                kind: String::new(),
                file: file.origin.clone(),
            }
        } else {
            NodeInfo {
                guid: def.guid.clone(),
                name: def.name.clone(),
                kind: def.kind.clone(),
                file: file.origin.clone(),
            }
        });
        self.parents.push(parent);

        // This node's children go on top of the shared stack of children being gathered
        // (each child's own are gathered and popped above them in the meantime).
        let start = self.kids.len();
        if hollow {
            // No children: the empty Sequence of a hollow root.
        } else if let Some((path, remap_pairs)) = &lowered.subtree {
            let site = SubtreeSite {
                file,
                map,
                i,
                depth,
                me,
            };
            if let Some(child) = self.emit_subtree(site, path, remap_pairs) {
                self.kids.push(child);
            }
        } else {
            for &c in &file.graph.children[i] {
                if let Some(child) = self.emit_node(file, map, c, depth + 1, me) {
                    self.kids.push(child);
                }
            }
        }
        let kids = &self.kids[start..];
        let first_child = self.children.len() as u32;
        self.children.extend_from_slice(kids);
        let guarded = kids.iter().any(|&k| self.nodes[k as usize].lower_priority);
        let child_count = kids.len() as u32;
        self.kids.truncate(start);
        let node = &mut self.nodes[me as usize];
        node.rescan = match node.kind {
            Kind::Sequence { dynamic, .. } | Kind::Selector { dynamic, .. } => dynamic || guarded,
            _ => false,
        };
        node.first_child = first_child;
        node.child_count = child_count;
        Some(me)
    }

    /// Whether nodes of type `kind` are made as controls (rule 73): a built-in kind written
    /// with the `Control` API, a composite or decorator the registry implements, or,
    /// checking only (no registry), any host composite or decorator, so that the compiled
    /// shape is the one a registry that implements it gives (generated code relies on it).
    fn is_control(&self, kind: &str) -> bool {
        if self.builtin_controls.contains_key(kind) {
            return true;
        }
        match self.registry {
            Some(registry) => registry.control(kind).is_some(),
            None => self.types.node(kind).is_some_and(|ty| {
                ty.host && matches!(ty.category, Category::Composite | Category::Decorator)
            }),
        }
    }

    /// Makes the control of node `i`, of a type [`Emitter::is_control`] accepts, and allots
    /// its per-agent state; its control and state indices.
    fn control(
        &mut self,
        file: &Analysed,
        i: usize,
        kind: &str,
        args: &crate::args::Args,
        remap: &impl Fn(Key) -> Key,
    ) -> Option<(u32, u32)> {
        let factory = match self.builtin_controls.get(kind) {
            Some(factory) => factory,
            None => match self.registry.and_then(|r| r.control(kind)) {
                Some(factory) => factory,
                // Checking only: the declaration was enough.
                None => return Some((u32::MAX, NO_STATE)),
            },
        };
        let mut args = args.clone();
        args.map_keys(remap);
        let made = (factory.make)(&args);
        let maker = factory.state;
        match made {
            Ok(control) => {
                self.controls.push(control);
                self.states.push(maker);
                Some((
                    (self.controls.len() - 1) as u32,
                    (self.states.len() - 1) as u32,
                ))
            }
            Err(message) => {
                let def = &file.file.nodes[i];
                self.problems.push(
                    Problem::new(
                        &file.origin,
                        format!("$.nodes[{i}]"),
                        ProblemKind::HostRejected {
                            kind: kind.to_owned(),
                            message,
                        },
                    )
                    .at_node(&def.guid, &def.name, &def.kind),
                );
                None
            }
        }
    }

    /// How a host node of type `kind` runs: through the registry's factory for it (none
    /// when only checking, or when the registry lacks one: `host_action` reports that),
    /// or as its declared stand-in when the registry has no program for it (rule 61).
    /// Checking alone (no registry) builds nothing, so it needs no stand-in.
    fn runs_as(&self, kind: &str) -> Result<Option<&'a Factory<C>>, crate::spec::StandIn> {
        let Some(registry) = self.registry else {
            return Ok(None);
        };
        match registry.factory(kind) {
            Some(factory) => Ok(Some(factory)),
            None => match self.types.node(kind).and_then(|ty| ty.stand_in) {
                Some(stand_in) => Err(stand_in),
                None => Ok(None),
            },
        }
    }

    /// Builds the action of host type `kind` for node `i` (a host leaf, or a host
    /// condition attached to it) with `factory`, the registry's for `kind`, and, for a
    /// stateful one, allots its state.
    fn host_action(
        &mut self,
        file: &Analysed,
        i: usize,
        kind: &str,
        factory: Option<&Factory<C>>,
        args: &crate::args::Args,
        remap: &impl Fn(Key) -> Key,
    ) -> Option<HostRef> {
        let def = &file.file.nodes[i];
        if self.registry.is_none() {
            // Checking only: the declaration was enough.
            return Some(HostRef {
                action: u32::MAX,
                state: NO_STATE,
                hooks: true,
            });
        }
        let at = |problem| {
            Problem::new(&file.origin, format!("$.nodes[{i}]"), problem)
                .at_node(&def.guid, &def.name, &def.kind)
        };
        let Some(factory) = factory else {
            self.problems
                .push(at(ProblemKind::NoImplementation(kind.to_owned())));
            return None;
        };
        let mut args = args.clone();
        args.map_keys(remap);
        match (factory.make)(&args) {
            Ok(action) => {
                self.actions.push(action);
                let state = match factory.state {
                    Some(maker) => {
                        self.states.push(maker);
                        (self.states.len() - 1) as u32
                    }
                    None => NO_STATE,
                };
                Some(HostRef {
                    action: (self.actions.len() - 1) as u32,
                    state,
                    hooks: factory.hooks,
                })
            }
            Err(message) => {
                self.problems.push(at(ProblemKind::HostRejected {
                    kind: kind.to_owned(),
                    message,
                }));
                None
            }
        }
    }

    /// The index of a host condition's resolved observation (rule 98) in `observations`,
    /// or `NO_OBSERVATION` for one that reads the host world.
    fn observation(
        &mut self,
        factory: Option<&Factory<C>>,
        args: &crate::args::Args,
        remap: &impl Fn(Key) -> Key,
    ) -> u32 {
        let Some(observes) = factory.and_then(|f| f.observes.as_ref()) else {
            return crate::nodes::attached::NO_OBSERVATION;
        };
        let mut args = args.clone();
        args.map_keys(remap);
        let names = &mut self.names;
        match observes.resolve(&args, &self.keys, |t| names.trigger(t)) {
            Some(observation) => {
                self.observations.push(observation);
                (self.observations.len() - 1) as u32
            }
            None => crate::nodes::attached::NO_OBSERVATION,
        }
    }

    fn emit_subtree(
        &mut self,
        site: SubtreeSite<'_>,
        rel: &str,
        remap_pairs: &[(String, String)],
    ) -> Option<u32> {
        let SubtreeSite {
            file,
            map,
            i,
            depth,
            me,
        } = site;
        let def = &file.file.nodes[i];
        let at = |suffix: &str, message: String| {
            Problem::new(
                &file.origin,
                format!("$.nodes[{i}].params{suffix}"),
                ProblemKind::Subtree(message),
            )
            .at_node(&def.guid, &def.name, &def.kind)
        };
        let (canonical, target) = if self.opts.embedded.in_use() {
            self.locate_embedded(file, rel, &at)?
        } else {
            self.locate_on_disk(file, rel, &at)?
        };
        if let Some(pos) = self.chain.iter().position(|c| *c == canonical) {
            let mut names: Vec<String> = self.chain[pos..].iter().map(|p| file_name(p)).collect();
            names.push(file_name(&canonical));
            self.problems.push(at(
                ".path",
                format!("subtree cycle: {}", names.join(" -> ")),
            ));
            return None;
        }
        if self.chain.len() > self.opts.max_subtree_depth {
            self.problems.push(at(
                ".path",
                format!(
                    "subtrees nest more than {} files deep",
                    self.opts.max_subtree_depth
                ),
            ));
            return None;
        }
        let sub = match self.subtree_file(&canonical, &target) {
            Ok(sub) => sub?,
            Err(why) => {
                self.problems.push(at(
                    ".path",
                    format!("cannot read subtree `{rel}` ({}): {why}", target.display()),
                ));
                return None;
            }
        };

        // The instance's keys: remapped ones are the parent's; the rest are private.
        let mut sub_map = Vec::with_capacity(sub.file.blackboard.len());
        let mut ok = true;
        for (sub_key, _) in remap_pairs {
            if !sub.keys.by_name.contains_key(sub_key) {
                ok = false;
                let suggestion = self
                    .suggestions
                    .closest(sub_key, sub.keys.by_name.keys().map(String::as_str));
                let hint = suggestion
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                self.problems.push(at(
                    &format!(".remap.{sub_key}"),
                    format!("subtree `{rel}` declares no key `{sub_key}`{hint}"),
                ));
            }
        }
        for decl in &sub.file.blackboard {
            let target_key = remap_pairs
                .iter()
                .find(|(s, _)| *s == decl.key)
                .map(|(_, p)| p);
            match target_key {
                Some(parent_name) => match file.keys.lookup(parent_name) {
                    Some(local) => {
                        let key = FileKeys::global(map, local);
                        let parent_ty = self.keys[key.index()].ty;
                        if parent_ty != decl.ty {
                            ok = false;
                            self.problems.push(at(
                                &format!(".remap.{}", decl.key),
                                format!("subtree key `{}` holds {} values but `{parent_name}` holds {parent_ty}", decl.key, decl.ty),
                            ));
                        }
                        sub_map.push(key);
                    }
                    None => {
                        ok = false;
                        let suggestion = self
                            .suggestions
                            .closest(parent_name, file.keys.by_name.keys().map(String::as_str));
                        self.problems.push(
                            Problem::new(
                                &file.origin,
                                format!("$.nodes[{i}].params.remap.{}", decl.key),
                                ProblemKind::UndeclaredKey {
                                    key: parent_name.clone(),
                                    suggestion,
                                },
                            )
                            .at_node(&def.guid, &def.name, &def.kind),
                        );
                    }
                },
                None => {
                    let label = if def.name.is_empty() {
                        &def.guid
                    } else {
                        &def.name
                    };
                    let key = self.add_key(format!("{label}/{}", decl.key), decl);
                    sub_map.push(key);
                }
            }
        }
        if !ok {
            return None;
        }
        let root = sub.graph.root?;
        self.chain.push(canonical);
        let child = self.emit_node(&sub, &sub_map, root, depth + 1, me);
        self.chain.pop();
        child
    }

    /// Where subtree `rel` of `file` is on disk: its canonical path (for cycles and the
    /// cache) and the path as written (for messages), or `None` with the problem recorded.
    fn locate_on_disk(
        &mut self,
        file: &Analysed,
        rel: &str,
        at: &dyn Fn(&str, String) -> Problem,
    ) -> Option<(PathBuf, PathBuf)> {
        let base = file
            .path
            .as_ref()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .or_else(|| self.opts.project_root.clone())
            .unwrap_or_else(|| PathBuf::from("."));
        let target = base.join(rel);
        let canonical = match target.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                self.problems.push(at(
                    ".path",
                    format!("cannot open subtree `{rel}` ({}): {e}", target.display()),
                ));
                return None;
            }
        };
        if !self.opts.allow_outside_root {
            if let Some(root) = &self.root_dir {
                if !canonical.starts_with(root) {
                    self.problems.push(at(
                    ".path",
                    format!("subtree `{rel}` is outside the project folder {}; the host must allow this explicitly", root.display()),
                ));
                    return None;
                }
            }
        }
        // A directory, FIFO or device is refused here, where the parent file, JSON path and
        // node are known (and before anything could block on opening it).
        if let Err(e) = crate::files::check_regular(&canonical) {
            self.problems.push(at(
                ".path",
                format!("cannot read subtree `{rel}` ({}): {e}", target.display()),
            ));
            return None;
        }
        Some((canonical, target))
    }

    /// [`Emitter::locate_on_disk`] for embedded files ([`super::embedded`]): by name only,
    /// the name standing for both paths.
    fn locate_embedded(
        &mut self,
        file: &Analysed,
        rel: &str,
        at: &dyn Fn(&str, String) -> Problem,
    ) -> Option<(PathBuf, PathBuf)> {
        // The top file's folder is the names' root unless the top file was named among
        // them (whatever folder the program gave it); a subtree file's name is its
        // embedded name.
        let top_dir = || {
            self.opts
                .embedded
                .top_file()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .unwrap_or_default()
        };
        let dir = match &file.path {
            Some(p) if !file.top => p.parent().map(Path::to_path_buf).unwrap_or_default(),
            _ => top_dir(),
        };
        let Some(key) = super::embedded::key(&dir, Path::new(rel)) else {
            self.problems.push(at(
                ".path",
                format!("subtree `{rel}` is outside the folder of the embedded tree files"),
            ));
            return None;
        };
        // The named top file need not be among the files: reaching it is a cycle, reported
        // as such by the caller.
        let is_top = self.opts.embedded.top_file() == Some(key.as_path());
        if self.opts.embedded.get(&key).is_none() && !is_top {
            self.problems.push(at(
                ".path",
                format!(
                    "subtree `{rel}` ({}) is not among the tree files supplied with this tree",
                    key.display()
                ),
            ));
            return None;
        }
        Some((key.clone(), key))
    }

    /// Loads and checks a subtree file once; later instances reuse the result. A file that
    /// cannot be read at all (permissions, size) is `Err` with why, for the caller to
    /// report at the Subtree node, where the parent file, JSON path and node are known;
    /// problems inside the file (invalid UTF-8 with its line, JSON, contents) are the
    /// file's own.
    fn subtree_file(
        &mut self,
        canonical: &Path,
        shown: &Path,
    ) -> Result<Option<Rc<Analysed>>, String> {
        if let Some(done) = self.files.get(canonical) {
            return Ok(done.clone());
        }
        let origin: Arc<str> = Arc::from(shown.display().to_string());
        let parsed = match self.opts.embedded.get(canonical) {
            Some(EmbeddedFile::Tree(file)) => Ok((
                (**file).clone(),
                origin.clone(),
                Some(canonical.to_path_buf()),
            )),
            embedded => {
                let read = match embedded {
                    Some(EmbeddedFile::Text(text)) => Ok(text.to_string()),
                    _ => source::read(canonical, &origin, self.opts),
                };
                if let Err(problems) = &read {
                    if problems.iter().all(|p| p.line.is_none()) {
                        self.files.insert(canonical.to_path_buf(), None);
                        let why: Vec<String> = problems.iter().map(Problem::message).collect();
                        return Err(why.join("; "));
                    }
                }
                // A variant file runs its base with its overrides; the base's subtrees
                // are relative to the base.
                read.and_then(|text| {
                    super::parse_any(&text, origin.clone(), Some(canonical), self.opts)
                })
            }
        };
        let result = match parsed {
            Err(problems) => {
                self.problems.extend(problems);
                None
            }
            Ok((file, origin, path)) => {
                let analysed = self.analyse(file, origin, path);
                analysed.ok.then(|| Rc::new(analysed))
            }
        };
        self.files.insert(canonical.to_path_buf(), result.clone());
        Ok(result)
    }
}

/// Where a Subtree node is being emitted: its file and that file's key map, its index in
/// the file, its depth and its index in the compiled tree.
struct SubtreeSite<'f> {
    file: &'f Analysed,
    map: &'f [Key],
    i: usize,
    depth: usize,
    me: u32,
}

/// A built host action: its index, its state's (or `NO_STATE`), and whether it has hooks.
struct HostRef {
    action: u32,
    state: u32,
    hooks: bool,
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}
