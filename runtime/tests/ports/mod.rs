//! Data flowing through a tree: parameters bound to blackboard keys and typed ports
//! (format version 2), host actions with per-node state, and host conditions attached as
//! decorators with abort types, the native value types (vec2, vec3, entity) and user value
//! types registered by name.

mod bindings;
mod host_conditions;
mod host_state;
mod native_values;
mod user_values;
