//! Registry: the node types a program can run: the built-in kinds plus the host actions and
//! conditions it registers, each with its declaration (for the editor) and its factory.

use std::collections::HashMap;

use crate::args::Args;
use crate::control::{Control, ControlFactory};
use crate::declare::HostNode;
use crate::host::{
    Action, ActionCtx, ActionFn, ConditionFn, Factory, StateMaker, Stateful, StatefulAction,
};
use crate::spec::{Category, NodeType, NodeTypes};
use crate::status::Status;

/// Node types and host implementations for agents whose program data is `C`.
pub struct Registry<C> {
    types: NodeTypes,
    factories: HashMap<String, Factory<C>>,
    /// Host composites and decorators, and the built-in kinds written as controls.
    controls: HashMap<String, ControlFactory<C>>,
}

impl<C: 'static> Default for Registry<C> {
    fn default() -> Self {
        Registry::new()
    }
}

impl<C: 'static> Registry<C> {
    /// The built-in node kinds only.
    pub fn new() -> Registry<C> {
        Registry {
            types: NodeTypes::builtin(),
            factories: HashMap::new(),
            controls: HashMap::new(),
        }
    }

    /// Registers a host node type whose action is built from the node's parameters, once
    /// per node when a tree loads. `ty.host` is set for you.
    ///
    /// # Panics
    /// If `ty.name` is a built-in kind, or `ty` is not a leaf (an Action or a Condition:
    /// a composite or decorator is a [`Registry::composite`] or [`Registry::decorator`]):
    /// those are programming errors, not data errors.
    #[track_caller]
    pub fn register<A, F>(&mut self, ty: NodeType, factory: F) -> &mut Self
    where
        A: Action<C> + 'static,
        F: Fn(&Args) -> Result<A, String> + Send + Sync + 'static,
    {
        probe(&ty, &factory);
        self.insert(ty, factory, true, None)
    }

    /// Registers a host node type whose actions keep state per agent per node
    /// ([`StatefulAction`]): two nodes of this type in one tree, or one node in two agents,
    /// each have their own. Also for conditions (`ty` of category Condition).
    ///
    /// # Panics
    /// As [`Registry::register`].
    #[track_caller]
    pub fn register_stateful<A, F>(&mut self, ty: NodeType, factory: F) -> &mut Self
    where
        A: StatefulAction<C> + 'static,
        F: Fn(&Args) -> Result<A, String> + Send + Sync + 'static,
    {
        self.insert_stateful(ty, factory, StateMaker::of::<A::State>())
    }

    /// As [`Registry::register_stateful`], for a state that agent snapshots save
    /// ([`crate::Snapshot`]): a restored agent goes on with the state the node had. A
    /// stateful node registered without it is restarted when an agent is restored (its
    /// `abort` and `exit` run with a fresh state, and its parent ticks it anew; rule 92).
    ///
    /// # Panics
    /// As [`Registry::register`].
    #[track_caller]
    pub fn register_stateful_saved<A, F>(&mut self, ty: NodeType, factory: F) -> &mut Self
    where
        A: StatefulAction<C> + 'static,
        A::State: serde::Serialize + serde::de::DeserializeOwned,
        F: Fn(&Args) -> Result<A, String> + Send + Sync + 'static,
    {
        self.insert_stateful(ty, factory, StateMaker::saved::<A::State>())
    }

    /// The two above: the factory checked against the declaration (as for every host
    /// node), its actions wrapped to take their state from the agent.
    #[track_caller]
    fn insert_stateful<A, F>(&mut self, ty: NodeType, factory: F, maker: StateMaker) -> &mut Self
    where
        A: StatefulAction<C> + 'static,
        F: Fn(&Args) -> Result<A, String> + Send + Sync + 'static,
    {
        probe(&ty, &factory);
        self.insert(
            ty,
            move |args| factory(args).map(Stateful),
            true,
            Some(maker),
        )
    }

    /// [`Registry::register`], saying whether the actions may have lifecycle hooks (false
    /// only for the closure actions below, whose `enter`, `exit` and `abort` are the
    /// trait's empty defaults) and how to make their state, if they keep one.
    #[track_caller]
    fn insert<A, F>(
        &mut self,
        mut ty: NodeType,
        factory: F,
        hooks: bool,
        state: Option<StateMaker>,
    ) -> &mut Self
    where
        A: Action<C> + 'static,
        F: Fn(&Args) -> Result<A, String> + Send + Sync + 'static,
    {
        self.check_new(&ty, &[Category::Action, Category::Condition], "a leaf");
        ty.host = true;
        let name = ty.name.clone();
        self.controls.remove(&name);
        self.types.insert(ty);
        self.factories.insert(
            name,
            Factory {
                make: Box::new(move |args| {
                    factory(args).map(|a| Box::new(a) as Box<dyn Action<C>>)
                }),
                hooks,
                state,
            },
        );
        self
    }

    /// Refuses a registration that would replace a built-in kind, or whose declaration is
    /// not of one of `categories` (rule 73: a node runs as what it is registered as).
    #[track_caller]
    fn check_new(&self, ty: &NodeType, categories: &[Category], what: &str) {
        let builtin = |t: &NodeType| !t.host;
        assert!(
            !self.types.node(&ty.name).is_some_and(builtin)
                && !self.types.decorator(&ty.name).is_some_and(builtin),
            "`{}` is a built-in node or decorator type",
            ty.name
        );
        if !categories.contains(&ty.category) {
            let how = match ty.category {
                Category::Composite => "register it with `Registry::composite`",
                Category::Decorator => "register it with `Registry::decorator`",
                Category::Action | Category::Condition => {
                    "register it with `Registry::register`, `action` or `condition`"
                }
                Category::Subtree | Category::Attached => {
                    "a host type is an Action, Condition, Composite or Decorator"
                }
            };
            panic!(
                "`{}` is declared as a {} but registered as {what}: {how}",
                ty.name,
                ty.category.as_str()
            );
        }
    }

    /// Registers a host composite (any number of children, `ty` of category Composite)
    /// whose behaviour is built from the node's parameters, once per node when a tree
    /// loads (rules 73 to 75). `ty.host` is set for you.
    ///
    /// # Panics
    /// If `ty.name` is a built-in kind, or `ty` is not a Composite.
    #[track_caller]
    pub fn composite<K, F>(&mut self, ty: NodeType, factory: F) -> &mut Self
    where
        K: Control<C> + 'static,
        F: Fn(&Args) -> Result<K, String> + Send + Sync + 'static,
    {
        self.check_new(&ty, &[Category::Composite], "a composite");
        probe(&ty, &factory);
        self.insert_control(ty, ControlFactory::of(factory))
    }

    /// Registers a host decorator (exactly one child, `ty` of category Decorator), as
    /// [`Registry::composite`].
    ///
    /// # Panics
    /// If `ty.name` is a built-in kind, or `ty` is not a Decorator.
    #[track_caller]
    pub fn decorator<K, F>(&mut self, ty: NodeType, factory: F) -> &mut Self
    where
        K: Control<C> + 'static,
        F: Fn(&Args) -> Result<K, String> + Send + Sync + 'static,
    {
        self.check_new(&ty, &[Category::Decorator], "a decorator");
        probe(&ty, &factory);
        self.insert_control(ty, ControlFactory::of(factory))
    }

    fn insert_control(&mut self, mut ty: NodeType, factory: ControlFactory<C>) -> &mut Self {
        ty.host = true;
        let name = ty.name.clone();
        self.factories.remove(&name);
        self.types.insert(ty);
        self.controls.insert(name, factory);
        self
    }

    /// Registers a host node declared with [`crate::NodeDecl`]: its type, ports, state and code
    /// in one declaration (docs/embedding.md, "Declaring a node").
    ///
    /// # Panics
    /// As [`Registry::register`].
    #[track_caller]
    pub fn add<S: Default + Clone + Send + 'static>(&mut self, node: HostNode<C, S>) -> &mut Self {
        let parts = node.into_parts();
        let state = parts.stateful.then(StateMaker::of::<S>);
        self.insert(parts.ty, parts.make, parts.hooks, state)
    }

    /// Registers a parameterless action that runs `tick` on every tick.
    #[track_caller]
    pub fn action<F>(&mut self, ty: NodeType, tick: F) -> &mut Self
    where
        F: Fn(&mut ActionCtx<'_, C>) -> Status + Send + Sync + Clone + 'static,
    {
        self.insert(ty, move |_| Ok(ActionFn(tick.clone())), false, None)
    }

    /// Registers a parameterless condition: `true` is success, `false` failure.
    #[track_caller]
    pub fn condition<F>(&mut self, ty: NodeType, test: F) -> &mut Self
    where
        F: Fn(&mut ActionCtx<'_, C>) -> bool + Send + Sync + Clone + 'static,
    {
        self.insert(ty, move |_| Ok(ConditionFn(test.clone())), false, None)
    }

    /// Declares a host control or decorator with a stand-in (rule 61) and no program: its
    /// nodes run as the stand-in's built-in kind. A type without a `stand_in` declared this
    /// way is known to the loader, which reports each node of it as having no
    /// implementation.
    ///
    /// # Panics
    /// If `ty.name` is a built-in kind.
    pub fn declare(&mut self, mut ty: NodeType) -> &mut Self {
        let builtin = |t: &NodeType| !t.host;
        assert!(
            !self.types.node(&ty.name).is_some_and(builtin),
            "`{}` is a built-in node type",
            ty.name
        );
        ty.host = true;
        self.factories.remove(&ty.name);
        self.controls.remove(&ty.name);
        self.types.insert(ty);
        self
    }

    /// Declares a scripting enum (BehaviorTree.CPP's `registerScriptingEnum`): scripts in
    /// trees loaded with this registry read `name` as `value` (docs/semantics.md rule 51).
    pub fn script_enum(&mut self, name: &str, value: i64) -> &mut Self {
        self.types.script_enum(name, value);
        self
    }

    /// Every type this registry knows, built-in and host.
    pub fn types(&self) -> &NodeTypes {
        &self.types
    }

    /// The host types' declarations as a node-types manifest (JSON text) for the editor's
    /// palette.
    pub fn manifest(&self) -> String {
        self.types.manifest_where(|t| t.host)
    }

    pub(crate) fn factory(&self, name: &str) -> Option<&Factory<C>> {
        self.factories.get(name)
    }

    /// The program's implementation of host composite or decorator `name`.
    pub(crate) fn control(&self, name: &str) -> Option<&ControlFactory<C>> {
        self.controls.get(name)
    }
}

/// Runs `factory` once on placeholder parameters ([`Args::probe`]) and refuses the
/// registration if it asks for a parameter `ty` does not declare: a misspelt name in the
/// program's code is the program's error, reported where it registers the node, not a
/// problem in every tree that uses it. What the factory returns is dropped; a panic in it
/// (on a placeholder it does not expect) is not this check's business.
#[track_caller]
fn probe<R>(ty: &NodeType, factory: &(impl Fn(&Args) -> R + Send + Sync)) {
    let (args, undeclared) = Args::probe(ty);
    let run = std::panic::AssertUnwindSafe(|| drop(factory(&args)));
    let _ = std::panic::catch_unwind(run);
    let names = undeclared.lock().map(|n| n.clone()).unwrap_or_default();
    if let Some(name) = names.first() {
        let declared: Vec<&str> = ty.params.iter().map(|p| p.name.as_str()).collect();
        let hint = match crate::compile::closest(name, declared.iter().copied()) {
            Some(near) => format!(" (did you mean `{near}`?)"),
            None if declared.is_empty() => " (it declares none)".to_owned(),
            None => format!(" (it declares `{}`)", declared.join("`, `")),
        };
        panic!(
            "node type `{}`: the code reads parameter `{name}`, which its declaration does \
             not have{hint}",
            ty.name
        );
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::Agent;

    /// Logs its lifecycle calls and keeps running.
    struct Hooked;

    impl Action<Vec<&'static str>> for Hooked {
        fn enter(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>) {
            cx.agent.push("enter");
        }
        fn tick(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>) -> Status {
            cx.agent.push("tick");
            Status::Running
        }
        fn exit(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>, _: Status) {
            cx.agent.push("exit");
        }
        fn abort(&self, cx: &mut ActionCtx<'_, Vec<&'static str>>) {
            cx.agent.push("abort");
        }
    }

    /// `register` keeps calling a host action's own hooks (rules 3 and 28) although closure
    /// actions, registered without hooks, skip them.
    #[test]
    fn registered_actions_keep_their_hooks() {
        let mut registry = Registry::<Vec<&'static str>>::new();
        registry
            .register(NodeType::action("Hooked", "Logs its hooks."), |_| {
                Ok(Hooked)
            })
            .action(NodeType::action("Done", "Succeeds."), |cx| {
                cx.agent.push("done");
                Status::Success
            });
        let guid = |n: u32| format!("00000000-0000-4000-8000-{n:012}");
        // A Parallel that succeeds as soon as its second child does, aborting the first.
        let text = serde_json::json!({
            "format": "arbor-tree", "version": 1, "guid": guid(0), "name": "hooks",
            "root": guid(1),
            "nodes": [
                {"guid": guid(1), "name": "p", "type": "Parallel", "params": {"need": 1},
                 "children": [guid(2), guid(3)]},
                {"guid": guid(2), "name": "h", "type": "Hooked"},
                {"guid": guid(3), "name": "d", "type": "Done"},
            ]
        })
        .to_string();
        let tree = registry.loader().load_str(&text, None).expect("loads");
        let mut agent = Agent::new(Arc::new(tree), 1);
        let mut log = Vec::new();
        assert_eq!(agent.tick(&mut log, 1.0), Status::Success);
        assert_eq!(log, ["enter", "tick", "done", "abort", "exit"]);
    }
}
