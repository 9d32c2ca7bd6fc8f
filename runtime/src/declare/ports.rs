//! Port handles: what a node declaration gives its code for each declared port.
//!
//! A handle ([`Input`], [`Output`], [`InOut`]) can only be obtained by declaring the port
//! ([`crate::NodeDecl::input`] and its siblings), so code cannot read a port its node does
//! not declare: a misspelt name is one declaration, used by its handle, never a lookup
//! that fails later. A handle is `Copy` and carries the declaration it belongs to; used in
//! another node's code, it reads nothing.

use std::any::Any;
use std::marker::PhantomData;

use crate::args::Args;
use crate::port::{InPort, OutPort, PortType, ScalarPort};
use crate::spec::{ParamKind, ParamSpec};
use crate::value::{Value, ValueType};

/// One port of one node, resolved when the tree loads: an `Option<InPort<T>>`, an
/// `OutPort<T>` or both, behind `Any` so that a node's ports of different types sit in one list.
pub(crate) type Resolved = Box<dyn Any + Send + Sync>;

/// Resolves one declared port from a node's checked parameters.
pub(crate) type Resolver = Box<dyn Fn(&Args) -> Result<Resolved, String> + Send + Sync>;

/// Where a handle's port is: its declaration and its place in that declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct At {
    pub decl: u32,
    pub index: u32,
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name<T: PortType + ?Sized> {
            pub(crate) at: At,
            _type: PhantomData<fn() -> Box<T>>,
        }

        impl<T: PortType + ?Sized> $name<T> {
            pub(crate) fn new(at: At) -> Self {
                $name { at, _type: PhantomData }
            }
        }

        impl<T: PortType + ?Sized> Clone for $name<T> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<T: PortType + ?Sized> Copy for $name<T> {}

        impl<T: PortType + ?Sized> std::fmt::Debug for $name<T> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}<{}>#{}", stringify!($name), T::TYPE, self.at.index)
            }
        }
    };
}

handle!(
    /// A declared input: read with [`crate::NodeCtx::get`].
    Input
);
handle!(
    /// A declared output: written with [`crate::NodeCtx::set`].
    Output
);
handle!(
    /// A declared port the node reads and writes through one key.
    InOut
);

/// The two halves of an in-out port.
pub(crate) struct Both<T: PortType + ?Sized> {
    read: Option<InPort<T>>,
    write: OutPort<T>,
}

/// A handle whose port the node reads: [`Input`] or [`InOut`].
pub trait Readable<T: PortType + ?Sized>: sealed::Sealed {
    #[doc(hidden)]
    fn at(&self) -> (u32, u32);
    #[doc(hidden)]
    fn in_port(resolved: &(dyn Any + Send + Sync)) -> Option<&InPort<T>>;
}

/// A handle whose port the node writes: [`Output`] or [`InOut`].
pub trait Writable<T: PortType + ?Sized>: sealed::Sealed {
    #[doc(hidden)]
    fn at(&self) -> (u32, u32);
    #[doc(hidden)]
    fn out_port(resolved: &(dyn Any + Send + Sync)) -> Option<&OutPort<T>>;
}

mod sealed {
    pub trait Sealed {}
}

impl<T: PortType + ?Sized> sealed::Sealed for Input<T> {}
impl<T: PortType + ?Sized> sealed::Sealed for Output<T> {}
impl<T: PortType + ?Sized> sealed::Sealed for InOut<T> {}

impl<T: PortType + ?Sized> Readable<T> for Input<T> {
    fn at(&self) -> (u32, u32) {
        (self.at.decl, self.at.index)
    }
    #[inline(always)]
    fn in_port(resolved: &(dyn Any + Send + Sync)) -> Option<&InPort<T>> {
        resolved.downcast_ref::<Option<InPort<T>>>()?.as_ref()
    }
}

impl<T: PortType + ?Sized> Readable<T> for InOut<T> {
    fn at(&self) -> (u32, u32) {
        (self.at.decl, self.at.index)
    }
    #[inline(always)]
    fn in_port(resolved: &(dyn Any + Send + Sync)) -> Option<&InPort<T>> {
        resolved.downcast_ref::<Both<T>>()?.read.as_ref()
    }
}

impl<T: PortType + ?Sized> Writable<T> for Output<T> {
    fn at(&self) -> (u32, u32) {
        (self.at.decl, self.at.index)
    }
    #[inline(always)]
    fn out_port(resolved: &(dyn Any + Send + Sync)) -> Option<&OutPort<T>> {
        resolved.downcast_ref()
    }
}

impl<T: PortType + ?Sized> Writable<T> for InOut<T> {
    fn at(&self) -> (u32, u32) {
        (self.at.decl, self.at.index)
    }
    #[inline(always)]
    fn out_port(resolved: &(dyn Any + Send + Sync)) -> Option<&OutPort<T>> {
        resolved.downcast_ref::<Both<T>>().map(|b| &b.write)
    }
}

/// How each kind of handle resolves its port when a tree loads.
pub(crate) trait Handle: Sized {
    fn at(at: At) -> Self;
    fn resolver(name: String) -> Resolver;
}

impl<T: PortType + ?Sized> Handle for Input<T> {
    fn at(at: At) -> Self {
        Input::new(at)
    }
    fn resolver(name: String) -> Resolver {
        // `None`: an optional input the file leaves out, which reads nothing.
        Box::new(move |args| Ok(Box::new(args.optional_port::<T>(&name)?) as Resolved))
    }
}

impl<T: PortType + ?Sized> Handle for Output<T> {
    fn at(at: At) -> Self {
        Output::new(at)
    }
    fn resolver(name: String) -> Resolver {
        Box::new(move |args| Ok(Box::new(args.output::<T>(&name)?) as Resolved))
    }
}

impl<T: PortType + ?Sized> Handle for InOut<T> {
    fn at(at: At) -> Self {
        InOut::new(at)
    }
    fn resolver(name: String) -> Resolver {
        Box::new(move |args| {
            let read = args.optional_port::<T>(&name)?;
            let write = args.output::<T>(&name)?;
            Ok(Box::new(Both { read, write }) as Resolved)
        })
    }
}

/// A port being declared: help text and whether it is required, then its handle.
///
/// ```
/// # use arbor_runtime::{NodeDecl, Vec2};
/// let mut decl = NodeDecl::<()>::action("MoveTo", "Walks to `target`.");
/// let target = decl.input::<Vec2>("target").doc("Where to go.").required();
/// let speed = decl.input::<f64>("speed").doc("Metres per second.").default(1.5);
/// ```
#[must_use = "a port's handle is how the node's code reads or writes it"]
pub struct PortDecl<'d, H> {
    pub(crate) spec: &'d mut ParamSpec,
    pub(crate) handle: H,
}

impl<H> PortDecl<'_, H> {
    /// Help text for the editor's inspector.
    pub fn doc(self, text: &str) -> Self {
        self.spec.description = text.to_owned();
        self
    }

    /// Also accepts `old`, the port's name before a rename ([`ParamSpec::alias`]).
    pub fn alias(self, old: &str) -> Self {
        self.spec.aliases.push(old.to_owned());
        self
    }

    /// Must be a literal in the file, never bound to a key.
    pub fn literal(self) -> Self {
        self.spec.literal = true;
        self
    }

    /// A file must give it: the port's handle.
    pub fn required(self) -> H {
        self.handle
    }

    /// A file may leave it out: an input then reads `None`, an output writes nowhere.
    pub fn optional(self) -> H {
        self.spec.optional = true;
        self.handle
    }
}

/// `typed` for the ports of type [`Value`], which take any value type.
macro_rules! typed_value_port {
    ($($handle:ident),*) => {$(
        impl PortDecl<'_, $handle<Value>> {
            /// Declares the port's value type, for a [`Value`] port that carries one type
            /// (a `list<float>`, a user value type) rather than any (`json`): keys of that
            /// type bind to it, and the editor offers that type.
            pub fn typed(self, ty: ValueType) -> Self {
                self.spec.kind = ParamKind::of(ty);
                self
            }
        }
    )*};
}
typed_value_port!(Input, Output, InOut);

impl<T: ScalarPort + ?Sized> PortDecl<'_, Input<T>> {
    /// Used when the file leaves the parameter out.
    pub fn default(self, value: impl Into<T::Write>) -> Input<T> {
        self.spec.default = Some(T::to_value(value.into()).to_json());
        self.handle
    }
}
