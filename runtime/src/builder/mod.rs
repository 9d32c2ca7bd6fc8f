//! Trees from code: [`TreeBuilder`] and [`NodeBuilder`] write a [`TreeFile`] for you, for
//! tests, procedural content and programmers who prefer Rust to the editor.
//!
//! A built tree is an ordinary tree file: [`TreeBuilder::build`] sends it through the
//! [`Loader`](crate::Loader), so it gets the same checks and the same located problems as
//! the file would (`<memory>: $.nodes[2].params.target (node "walk" (MoveTo)): …`), and
//! [`TreeBuilder::to_json`] / [`TreeBuilder::to_file`] hand it to designers, who open it in
//! the editor (which lays out nodes that have no position).
//!
//! **GUIDs are deterministic.** Nobody writes one by hand: each node's GUID is derived from
//! the tree's name and the node's place in it (the root, its second child, that child's
//! first attached decorator, …), hashed into a version-8 ("custom") UUID. Building the same
//! tree twice gives the same file, byte for byte, so code-built trees diff cleanly and
//! tests can compare them; renaming the tree or moving a node gives it a new GUID. Use
//! [`NodeBuilder::guid`] or [`TreeBuilder::guid`] to keep one fixed (for instance, one a
//! debugger or a saved game refers to).
//!
//! Nodes are listed in depth-first order from the root, as the editor writes them, and a
//! node's name defaults to its type.
//!
//! ```
//! use std::sync::Arc;
//! use arbor_runtime::builder::{action, bind, node, seq, TreeBuilder};
//! use arbor_runtime::{Agent, Args, InPort, NodeType, ParamSpec, Registry, Status, ValueType};
//!
//! struct Walker { position: f64 }
//!
//! let mut registry = Registry::<Walker>::new();
//! registry.register(
//!     NodeType::action("MoveTo", "Steps towards `target`; running until there.")
//!         .param(ParamSpec::typed("target", ValueType::Float, "Where to go.")),
//!     |args: &Args| {
//!         let target: InPort<f64> = args.port("target")?;
//!         Ok(arbor_runtime::ActionFn(move |cx: &mut arbor_runtime::ActionCtx<'_, Walker>| {
//!             let Some(goal) = cx.get(&target) else { return Status::Failure };
//!             cx.agent.position += (goal - cx.agent.position).clamp(-1.0, 1.0);
//!             if cx.agent.position == goal { Status::Success } else { Status::Running }
//!         }))
//!     },
//! );
//!
//! let tree = TreeBuilder::new("errand")
//!     .key("goal", ValueType::Float, 3.0)
//!     .root(seq([
//!         action("MoveTo").name("go").param("target", bind("goal")),
//!         node("Wait").param("seconds", 0.5),
//!     ]));
//! let compiled = Arc::new(tree.build(&registry)?);
//! let mut agent = Agent::new(compiled, 1);
//! let mut walker = Walker { position: 0.0 };
//! while agent.tick(&mut walker, 0.25) == Status::Running {}
//! assert_eq!(walker.position, 3.0);
//!
//! // The same tree as a file for the editor:
//! let text = tree.to_json();
//! assert!(text.contains(r#""type": "MoveTo""#));
//! # Ok::<(), arbor_runtime::LoadError>(())
//! ```

mod guid;
mod node;
mod tree;

pub use node::{DecoratorBuilder, NodeBuilder};
pub use tree::TreeBuilder;

#[cfg(doc)]
use crate::format::TreeFile;

/// A node of type `kind` (any type: built-in or host) with no parameters or children yet.
pub fn node(kind: &str) -> NodeBuilder {
    NodeBuilder::new(kind)
}

/// A host action node: the same as [`node`], named for what it reads like.
pub fn action(kind: &str) -> NodeBuilder {
    NodeBuilder::new(kind)
}

/// A condition node (host or built-in `Condition`): the same as [`node`].
pub fn condition(kind: &str) -> NodeBuilder {
    NodeBuilder::new(kind)
}

/// A `Sequence` of `children`: ticks them in order until one fails (rule 7).
pub fn seq(children: impl IntoIterator<Item = NodeBuilder>) -> NodeBuilder {
    NodeBuilder::new("Sequence").children(children)
}

/// A `Selector` of `children`: ticks them in order until one succeeds (rule 8).
pub fn sel(children: impl IntoIterator<Item = NodeBuilder>) -> NodeBuilder {
    NodeBuilder::new("Selector").children(children)
}

/// An attached decorator of type `kind` (`Inverter`, `Condition`, a host condition, …),
/// for [`NodeBuilder::decorator`].
pub fn decorator(kind: &str) -> DecoratorBuilder {
    DecoratorBuilder::new(kind)
}

/// A parameter value bound to the blackboard key `key`: `{"$key": "key"}` in the file
/// (format version 2), read or written at tick time.
///
/// ```
/// use arbor_runtime::builder::{action, bind};
/// let walk = action("MoveTo").param("target", bind("goal"));
/// ```
pub fn bind(key: &str) -> serde_json::Value {
    crate::port::binding_json(key)
}
