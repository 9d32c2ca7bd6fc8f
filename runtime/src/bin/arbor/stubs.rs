//! Stubs: stand-ins for host node types, so that `arbor run` can tick a tree whose actions
//! and conditions only the game implements. A stub behaves as the built-in Scripted node
//! (rule 6): the k-th run of a node's body returns the k-th status of its type's list, and
//! after the list ends the last status repeats. Each node has its own count.
//!
//! Declared on the command line (`--stub MoveTo=running,running,success`, repeatable), in a
//! stubs file (`--stubs STUBS.json`: `{"MoveTo": ["running", "success"]}`), or for every
//! other host type at once (`--default-stub success`). The command line wins over the file.
//! A host control or decorator whose manifest declares a `stand_in` and that has no stub of
//! its own runs its children as that stand-in (rule 61).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use arbor_runtime::{Action, ActionCtx, Category, NodeTypes, Registry, Status};

/// Status lists by host type name.
#[derive(Default, Debug)]
pub(super) struct Stubs {
    by_type: BTreeMap<String, Arc<[Status]>>,
    default: Option<Status>,
}

impl Stubs {
    /// Reads the stubs file (if any), then the `--stub` declarations over it.
    pub(super) fn new(
        file: Option<&Path>,
        declared: &[String],
        default: Option<&str>,
    ) -> Result<Stubs, String> {
        let mut stubs = Stubs::default();
        if let Some(path) = file {
            let shown = path.display();
            let text = arbor_runtime::files::read_text(
                path,
                arbor_runtime::LoadOptions::default().max_file_bytes,
            )
            .map_err(|e| format!("{shown}: cannot read: {e}"))?;
            let raw: BTreeMap<String, Vec<String>> = serde_json::from_str(&text).map_err(|e| {
                format!(
                    "{shown}:{}:{}: expected {{\"HostType\": [\"running\", \"success\", …]}}: {e}",
                    e.line(),
                    e.column()
                )
            })?;
            for (ty, list) in raw {
                let returns = statuses(list.iter().map(String::as_str))
                    .map_err(|e| format!("{shown}: $.{ty}: {e}"))?;
                stubs.by_type.insert(ty, returns);
            }
        }
        for text in declared {
            let (ty, list) = text
                .split_once('=')
                .filter(|(ty, _)| !ty.trim().is_empty())
                .ok_or_else(|| {
                    format!("--stub {text}: expected TYPE=STATUS,… (e.g. MoveTo=running,success)")
                })?;
            let returns = statuses(list.split(',').map(str::trim))
                .map_err(|e| format!("--stub {text}: {e}"))?;
            stubs.by_type.insert(ty.trim().to_owned(), returns);
        }
        stubs.default = default
            .map(|s| {
                Status::parse(s).ok_or_else(|| {
                    format!("--default-stub {s}: expected success, failure or running")
                })
            })
            .transpose()?;
        Ok(stubs)
    }

    /// A registry that runs every host type of `types` through its stub. A stub naming no
    /// host type is an error; a host type without a stub is reported by the loader at each
    /// node that uses it (with its JSON path), so a tree that never uses it still runs.
    /// With it, the stubs' run counts, filled as a tree loads.
    pub(super) fn registry(&self, types: &NodeTypes) -> Result<(Registry<()>, Counts), String> {
        for (name, returns) in &self.by_type {
            let ty = types.node(name).filter(|t| t.host).ok_or_else(|| {
                let known: Vec<&str> = types
                    .nodes()
                    .filter(|t| t.host)
                    .map(|t| t.name.as_str())
                    .collect();
                if known.is_empty() {
                    format!(
                        "stub `{name}`: no host node type `{name}` is declared (give the program's manifest with --types, or list it in the file's editor.manifests)"
                    )
                } else {
                    format!(
                        "stub `{name}`: no host node type `{name}` is declared; the declared ones are {}",
                        known.join(", ")
                    )
                }
            })?;
            if ty.category == Category::Condition && returns.contains(&Status::Running) {
                return Err(format!(
                    "stub `{name}`: `{name}` is a condition: it returns success or failure, never running"
                ));
            }
        }
        let mut registry = Registry::new();
        let counts = Counts::default();
        for ty in types.nodes().filter(|t| t.host) {
            let name = ty.name.clone();
            if ty.stand_in.is_some() && !self.by_type.contains_key(&name) {
                // A control or decorator runs its children as its stand-in (rule 61).
                registry.declare(ty.clone());
                continue;
            }
            let returns = match (self.by_type.get(&name), self.default) {
                (Some(returns), _) => Ok(returns.clone()),
                (None, Some(Status::Running)) if ty.category == Category::Condition => Err(format!(
                    "host condition `{name}` has no stub, and --default-stub running does not apply to conditions: give --stub {name}=success (or failure)"
                )),
                (None, Some(status)) => Ok(Arc::from([status])),
                (None, None) => Err(format!(
                    "host node type `{name}` has no stub: give --stub {name}=success (or a list such as running,success), a stubs file, or --default-stub"
                )),
            };
            let made = counts.clone();
            let stub = move |_: &arbor_runtime::Args| {
                returns.clone().map(|returns| {
                    let runs = Arc::new(AtomicUsize::new(0));
                    made.0
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(runs.clone());
                    Stub { returns, runs }
                })
            };
            // A control or decorator without a stand-in is a stub that does not tick its
            // children (rule 61), registered as what it is declared (rule 73).
            match ty.category {
                Category::Composite => registry.composite(ty.clone(), stub),
                Category::Decorator => registry.decorator(ty.clone(), stub),
                _ => registry.register(ty.clone(), stub),
            };
        }
        Ok((registry, counts))
    }
}

/// Every stub's run count, in the order the loader made the stubs (the nodes' order in
/// the file, the same in every run of the same file): what `--save-state` keeps beside
/// the agent's state, since a stub's count lives in its action, not in the agent.
#[derive(Clone, Default)]
pub(super) struct Counts(Arc<Mutex<Vec<Arc<AtomicUsize>>>>);

impl Counts {
    fn all(&self) -> std::sync::MutexGuard<'_, Vec<Arc<AtomicUsize>>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The counts, as saved.
    pub(super) fn save(&self) -> serde_json::Value {
        self.all()
            .iter()
            .map(|runs| runs.load(Ordering::Relaxed))
            .collect()
    }

    /// Sets the counts from what [`Counts::save`] gave for the same tree.
    pub(super) fn load(&self, saved: &serde_json::Value) -> Result<(), String> {
        let all = self.all();
        let counts = saved.as_array().filter(|a| a.len() == all.len());
        let Some(counts) = counts else {
            return Err(format!(
                "the stubs' counts are not a list of {} numbers",
                all.len()
            ));
        };
        for (runs, saved) in all.iter().zip(counts) {
            let n = saved
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| format!("a stub's count is not a count: {saved}"))?;
            runs.store(n, Ordering::Relaxed);
        }
        Ok(())
    }
}

fn statuses<'a>(list: impl Iterator<Item = &'a str>) -> Result<Arc<[Status]>, String> {
    let returns = list
        .map(|s| {
            Status::parse(s)
                .ok_or_else(|| format!("`{s}` is not a status (success, failure or running)"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if returns.is_empty() {
        return Err("the list of statuses is empty".to_owned());
    }
    Ok(returns.into())
}

/// One node's stub. The CLI runs one agent, so the count in the action (made once per
/// node) is that node's count for that agent.
struct Stub {
    returns: Arc<[Status]>,
    runs: Arc<AtomicUsize>,
}

impl Stub {
    fn next(&self) -> Status {
        let k = self.runs.fetch_add(1, Ordering::Relaxed);
        self.returns[k.min(self.returns.len() - 1)]
    }
}

impl Action<()> for Stub {
    fn tick(&self, _: &mut ActionCtx<'_, ()>) -> Status {
        self.next()
    }
}

impl arbor_runtime::Control<()> for Stub {
    type State = ();
    fn tick(&self, _: &mut arbor_runtime::ControlCtx<'_, ()>, _: &mut ()) -> Status {
        self.next()
    }
}
