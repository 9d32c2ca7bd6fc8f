//! NodeTypes: the set of node and attached-decorator types a loader accepts; also the
//! "node types" manifest file that hosts write and the editor reads.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::{Category, NodeType, ValueTypeDecl};

/// The value of a manifest's `format` field.
pub const MANIFEST_FORMAT: &str = "arbor-node-types";

/// Node types by name, and attached decorator types by name (a separate namespace:
/// `Inverter` and `Condition` exist in both). Every host condition is also an attached
/// decorator type of the same name (its parameters plus `invert` and `abort`).
#[derive(Clone, Debug, Default)]
pub struct NodeTypes {
    nodes: BTreeMap<String, NodeType>,
    decorators: BTreeMap<String, NodeType>,
    /// The attached forms of host conditions, derived from `nodes`; never written to a
    /// manifest (the condition itself is).
    host_conditions: BTreeMap<String, NodeType>,
    /// Scripting enums: names that scripts read as integers (docs/semantics.md rule 51),
    /// as BehaviorTree.CPP's `registerScriptingEnum`.
    script_enums: BTreeMap<String, i64>,
    /// Old names of renamed types (`NodeType::aliases`), to their current names.
    renamed: BTreeMap<String, String>,
    /// User value types (`crate::user_type`), by name: those the program registered with
    /// this set and those its manifests declare.
    value_types: BTreeMap<String, ValueTypeDecl>,
}

#[derive(Serialize, Deserialize)]
struct Manifest {
    format: String,
    version: u64,
    #[serde(default)]
    nodes: Vec<NodeType>,
    #[serde(default)]
    decorators: Vec<NodeType>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    script_enums: BTreeMap<String, i64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    value_types: Vec<ValueTypeDecl>,
}

/// A manifest's user value types alone: they are declared before the rest is read, since
/// its parameters may have their types.
#[derive(Deserialize)]
struct ValueTypesOnly {
    #[serde(default)]
    value_types: Vec<ValueTypeDecl>,
}

impl NodeTypes {
    /// Only the built-in kinds.
    pub fn builtin() -> NodeTypes {
        let mut types = NodeTypes::default();
        for ty in crate::nodes::builtin_types() {
            types.insert(ty);
        }
        types
    }

    /// Adds or replaces a type; attached decorators go to their own namespace.
    pub fn insert(&mut self, ty: NodeType) {
        self.host_conditions.remove(&ty.name);
        if ty.host && ty.category == Category::Condition {
            let attached = crate::nodes::attached::host_condition(&ty);
            self.host_conditions.insert(ty.name.clone(), attached);
        }
        for old in &ty.aliases {
            self.renamed.insert(old.clone(), ty.name.clone());
        }
        let map = if ty.category == Category::Attached {
            &mut self.decorators
        } else {
            &mut self.nodes
        };
        map.insert(ty.name.clone(), ty);
    }

    /// The current name of a type renamed from `old`, if `old` is an old name and no
    /// current type has it.
    pub fn renamed(&self, old: &str) -> Option<&str> {
        if self.node(old).is_some() || self.decorator(old).is_some() {
            return None;
        }
        self.renamed.get(old).map(String::as_str)
    }

    /// The node type `name` (built-in or host); attached decorators are in [`NodeTypes::decorator`].
    pub fn node(&self, name: &str) -> Option<&NodeType> {
        self.nodes.get(name)
    }

    /// An attached decorator type: built-in, or a host condition's attached form.
    pub fn decorator(&self, name: &str) -> Option<&NodeType> {
        self.decorators
            .get(name)
            .or_else(|| self.host_conditions.get(name))
    }

    /// Declares a scripting enum: scripts read `name` as `value` (rule 51). A later
    /// declaration of the same name replaces the earlier.
    pub fn script_enum(&mut self, name: &str, value: i64) {
        self.script_enums.insert(name.to_owned(), value);
    }

    /// Records a user value type's declaration, for [`NodeTypes::manifest_where`].
    pub fn value_type(&mut self, decl: ValueTypeDecl) {
        self.value_types.insert(decl.name.clone(), decl);
    }

    /// The user value types registered with this set or declared by its manifests, by name.
    pub fn value_types(&self) -> impl Iterator<Item = &ValueTypeDecl> {
        self.value_types.values()
    }

    /// The scripting enums, by name.
    pub fn script_enums(&self) -> &BTreeMap<String, i64> {
        &self.script_enums
    }

    /// Whether `name` can be a scripting enum: a script name (letters, digits and `_`, not
    /// starting with a digit) that is not a literal.
    pub fn check_script_enum_name(name: &str) -> Result<(), String> {
        if !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(format!(
                "script enum `{name}`: a name is letters, digits and `_`, not starting with a digit"
            ));
        }
        if matches!(name, "true" | "false") {
            return Err(format!("script enum `{name}` would hide the literal"));
        }
        Ok(())
    }

    /// Node types in name order.
    pub fn nodes(&self) -> impl Iterator<Item = &NodeType> {
        self.nodes.values()
    }

    /// Attached decorator types: the built-in ones in name order, then the host
    /// conditions' attached forms in name order.
    pub fn decorators(&self) -> impl Iterator<Item = &NodeType> {
        self.decorators
            .values()
            .chain(self.host_conditions.values())
    }

    /// Merges the host types declared in a manifest; they are marked `host`. Either every
    /// type is merged or, on an error, none is; except the manifest's user value types,
    /// which are declared for the whole program first (`crate::user_type::declare`), as
    /// its parameters and the trees that use it name them.
    pub fn merge_manifest(&mut self, text: &str) -> Result<usize, String> {
        NodeTypes::declare_value_types(text)?;
        let manifest: Manifest = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if manifest.format != MANIFEST_FORMAT {
            return Err(format!(
                "`format` is \"{}\", expected \"{MANIFEST_FORMAT}\"",
                manifest.format
            ));
        }
        if manifest.version != 1 {
            return Err(format!(
                "manifest version {} is not supported (this build reads version 1)",
                manifest.version
            ));
        }
        if let Some(d) = manifest.decorators.first() {
            return Err(format!(
                "`{}`: host decorator types are not supported; declare actions and conditions",
                d.name
            ));
        }
        for ty in &manifest.nodes {
            if ty.category == Category::Attached {
                return Err(format!(
                    "`{}`: category Attached belongs in `decorators`",
                    ty.name
                ));
            }
            if let Some(s) = ty.stand_in.filter(|s| !s.fits(ty.category)) {
                return Err(format!(
                    "`{}`: stand_in \"{}\" does not suit a {} (sequence, reactive_sequence, \
                     sequence_with_memory, fallback, reactive_fallback and parallel suit \
                     composites and decorators; pass_through, inverter, force_success and \
                     force_failure only decorators)",
                    ty.name,
                    s.as_str(),
                    ty.category.as_str()
                ));
            }
            let builtin = |t: &NodeType| !t.host;
            if self.node(&ty.name).is_some_and(builtin)
                || self.decorator(&ty.name).is_some_and(builtin)
            {
                return Err(format!(
                    "`{}` is a built-in type and cannot be redeclared",
                    ty.name
                ));
            }
        }
        for (name, value) in &manifest.script_enums {
            NodeTypes::check_script_enum_name(name)?;
            self.script_enums.insert(name.clone(), *value);
        }
        for decl in manifest.value_types {
            self.value_type(decl);
        }
        let count = manifest.nodes.len();
        for mut ty in manifest.nodes {
            ty.host = true;
            self.insert(ty);
        }
        Ok(count)
    }

    /// Declares a manifest's user value types for the whole program
    /// (`crate::user_type::declare`) and nothing else; returns how many it lists. A
    /// program that parses a tree file before merging the manifests it names (the editor)
    /// calls this first, so that the file's keys of those types parse.
    pub fn declare_value_types(text: &str) -> Result<usize, String> {
        let declared: ValueTypesOnly = serde_json::from_str(text).map_err(|e| e.to_string())?;
        for decl in &declared.value_types {
            crate::user_type::declare(decl).map_err(|e| e.to_string())?;
        }
        Ok(declared.value_types.len())
    }

    /// A manifest of the types for which `keep` holds, pretty-printed.
    pub fn manifest_where(&self, keep: impl Fn(&NodeType) -> bool) -> String {
        let manifest = Manifest {
            format: MANIFEST_FORMAT.to_owned(),
            version: 1,
            nodes: self.nodes.values().filter(|t| keep(t)).cloned().collect(),
            decorators: self
                .decorators
                .values()
                .filter(|t| keep(t))
                .cloned()
                .collect(),
            script_enums: self.script_enums.clone(),
            value_types: self.value_types.values().cloned().collect(),
        };
        let mut text = serde_json::to_string_pretty(&manifest).expect("manifests serialise");
        text.push('\n');
        text
    }

    /// Every known name, nodes and decorators, for "did you mean" suggestions.
    pub(crate) fn node_names(&self) -> impl Iterator<Item = &str> {
        self.nodes.keys().map(String::as_str)
    }

    pub(crate) fn decorator_names(&self) -> impl Iterator<Item = &str> {
        self.decorators
            .keys()
            .chain(self.host_conditions.keys())
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_round_trips_and_marks_host_types() {
        let mut types = NodeTypes::builtin();
        types.insert(NodeType::action("WalkTo", "walks"));
        let text = types.manifest_where(|t| t.host);
        let mut other = NodeTypes::builtin();
        assert_eq!(other.merge_manifest(&text), Ok(1));
        assert!(other.node("WalkTo").is_some_and(|t| t.host));
    }

    #[test]
    fn script_enums_round_trip_and_are_checked() {
        let mut types = NodeTypes::builtin();
        types.script_enum("RED", 0);
        types.script_enum("BLUE", 2);
        let text = types.manifest_where(|t| t.host);
        let mut other = NodeTypes::builtin();
        assert_eq!(other.merge_manifest(&text), Ok(0));
        assert_eq!(other.script_enums().get("BLUE"), Some(&2));
        let bad = r#"{"format": "arbor-node-types", "version": 1, "script_enums": {"2x": 1}}"#;
        assert!(other.merge_manifest(bad).is_err());
    }

    #[test]
    fn manifest_cannot_redeclare_builtins() {
        let mut types = NodeTypes::builtin();
        let text = NodeTypes::builtin().manifest_where(|t| t.name == "Wait");
        let err = types.merge_manifest(&text).unwrap_err();
        assert!(err.contains("`Wait` is a built-in"), "{err}");
        let typo = text
            .replace("\"Wait\"", "\"Waiting\"")
            .replace("\"description\"", "\"descripton\"");
        let err = types.merge_manifest(&typo).unwrap_err();
        assert!(err.contains("unknown field `descripton`"), "{err}");
        assert!(types.node("Waiting").is_none(), "nothing merged on error");
    }

    #[test]
    fn a_stand_in_is_read_and_must_suit_the_category() {
        let manifest = |category: &str, stand_in: &str| {
            format!(
                r#"{{"format": "arbor-node-types", "version": 1, "nodes": [
                    {{"name": "RateController", "category": "{category}",
                      "stand_in": "{stand_in}"}}]}}"#
            )
        };
        let mut types = NodeTypes::builtin();
        assert_eq!(
            types.merge_manifest(&manifest("Decorator", "pass_through")),
            Ok(1)
        );
        assert_eq!(
            types.node("RateController").and_then(|t| t.stand_in),
            Some(crate::spec::StandIn::PassThrough)
        );
        let err = NodeTypes::builtin()
            .merge_manifest(&manifest("Composite", "pass_through"))
            .unwrap_err();
        assert!(
            err.contains("stand_in \"pass_through\" does not suit a Composite"),
            "{err}"
        );
        let err = NodeTypes::builtin()
            .merge_manifest(&manifest("Decorator", "as_sequence"))
            .unwrap_err();
        assert!(err.contains("unknown variant `as_sequence`"), "{err}");
    }
}
