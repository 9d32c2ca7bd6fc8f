//! Node type declarations: what a node type is called, what it is for and which parameters it
//! takes. Built-in kinds and host kinds are declared the same way, so the editor's palette and
//! inspector, the loader's checks, the manifest and the docs all read one description.

mod node_type;
mod node_types;
mod stand_in;
mod value_type_decl;

pub use node_type::{
    Category, ChildCount, Direction, NodeType, ParamKind, ParamSpec, SourceLocation,
};
pub use node_types::{NodeTypes, MANIFEST_FORMAT};
pub use stand_in::StandIn;
pub use value_type_decl::ValueTypeDecl;
