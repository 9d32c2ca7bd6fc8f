//! Registry: the node types a program can run: the built-in kinds plus the host actions and
//! conditions it registers, each with its declaration (for the editor) and its factory.

use std::collections::HashMap;

use crate::args::Args;
use crate::host::{Action, ActionCtx, ActionFn, ConditionFn, Factory};
use crate::spec::{NodeType, NodeTypes};
use crate::status::Status;

/// Node types and host implementations for agents whose program data is `C`.
pub struct Registry<C> {
    types: NodeTypes,
    factories: HashMap<String, Factory<C>>,
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
        }
    }

    /// Registers a host node type whose action is built from the node's parameters, once
    /// per node when a tree loads. `ty.host` is set for you.
    ///
    /// # Panics
    /// If `ty.name` is a built-in kind: that is a programming error, not a data error.
    pub fn register<A, F>(&mut self, mut ty: NodeType, factory: F) -> &mut Self
    where
        A: Action<C> + 'static,
        F: Fn(&Args) -> Result<A, String> + Send + Sync + 'static,
    {
        assert!(
            self.types.node(&ty.name).is_none_or(|t| t.host),
            "`{}` is a built-in node type",
            ty.name
        );
        ty.host = true;
        let name = ty.name.clone();
        self.types.insert(ty);
        self.factories.insert(
            name,
            Box::new(move |args| factory(args).map(|a| Box::new(a) as Box<dyn Action<C>>)),
        );
        self
    }

    /// Registers a parameterless action that runs `tick` on every tick.
    pub fn action<F>(&mut self, ty: NodeType, tick: F) -> &mut Self
    where
        F: Fn(&mut ActionCtx<'_, C>) -> Status + Send + Sync + Clone + 'static,
    {
        self.register(ty, move |_| Ok(ActionFn(tick.clone())))
    }

    /// Registers a parameterless condition: `true` is success, `false` failure.
    pub fn condition<F>(&mut self, ty: NodeType, test: F) -> &mut Self
    where
        F: Fn(&mut ActionCtx<'_, C>) -> bool + Send + Sync + Clone + 'static,
    {
        self.register(ty, move |_| Ok(ConditionFn(test.clone())))
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
}
