//! Pass 5 of the import: the tree files. Orders the trees (the main one, then those it
//! uses, recursion refused), names their files, and builds each `TreeFile` with fresh
//! GUIDs, tidy positions and the `editor.btcpp` data.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde_json::{json, Map, Value as Json};

use super::super::meta::{self, Meta};
use super::super::model;
use super::super::ImportError;
use super::*;
use crate::format::layout;
use crate::format::{DecoratorDef, KeyDecl, NodeDef, TreeFile};
use crate::spec::{NodeType, ParamKind};
use crate::value::ValueType;

impl Importer<'_> {
    /// Trees in file order: the main tree, the trees it uses (depth-first, in order of
    /// first use), then the others. Recursive subtrees are refused (BT.CPP would recurse
    /// forever; Arbor's loader refuses cycles too).
    pub(super) fn file_order(
        &mut self,
        doc: &Doc,
        drafts: &[Draft],
    ) -> Result<Vec<usize>, ImportError> {
        let uses: Vec<Vec<usize>> = (0..drafts.len())
            .map(|t| {
                let mut out: Vec<usize> = Vec::new();
                for c in self.calls.iter().filter(|c| c.parent == t) {
                    if !out.contains(&c.sub) {
                        out.push(c.sub);
                    }
                }
                out
            })
            .collect();
        let mut order = Vec::new();
        let mut state = vec![0u8; drafts.len()]; // 0 new, 1 on the path, 2 done
        fn visit(
            t: usize,
            uses: &[Vec<usize>],
            state: &mut [u8],
            order: &mut Vec<usize>,
            path: &mut Vec<usize>,
        ) -> Result<(), (Vec<usize>, bool)> {
            match state[t] {
                2 => return Ok(()),
                1 => {
                    let start = path.iter().position(|&p| p == t).unwrap_or(0);
                    let mut cycle = path[start..].to_vec();
                    cycle.push(t);
                    return Err((cycle, true));
                }
                _ => {}
            }
            // Arbor's loader refuses deeper subtree nesting; stopping here also bounds
            // this recursion (a chain of 4,000 SubTrees overflowed the stack of export).
            if path.len() > MAX_SUBTREE_NESTING {
                let mut chain = path.clone();
                chain.push(t);
                return Err((chain, false));
            }
            state[t] = 1;
            path.push(t);
            order.push(t);
            for &s in &uses[t] {
                visit(s, uses, state, order, path)?;
            }
            path.pop();
            state[t] = 2;
            Ok(())
        }
        let roots = std::iter::once(doc.main).chain(0..drafts.len());
        for root in roots {
            let before = order.len();
            if let Err((chain, cycle)) = visit(root, &uses, &mut state, &mut order, &mut Vec::new())
            {
                let names: Vec<&str> = chain.iter().map(|&t| doc.trees[t].id.as_str()).collect();
                let (t, message) = if cycle {
                    (
                        &doc.trees[chain[0]],
                        format!("recursive subtrees: {}", names.join(" -> ")),
                    )
                } else {
                    let last = &doc.trees[*chain.last().expect("a chain")];
                    let shown = if names.len() > 6 {
                        format!(
                            "{} -> … -> {}",
                            names[..3].join(" -> "),
                            names[names.len() - 2..].join(" -> ")
                        )
                    } else {
                        names.join(" -> ")
                    };
                    (
                        last,
                        format!(
                            "SubTrees nest more than {MAX_SUBTREE_NESTING} deep ({shown}); Arbor's \
                             loader refuses such trees"
                        ),
                    )
                };
                return Err(ImportError {
                    problems: vec![t.root.problem(&t.origin, message)],
                });
            }
            if root != doc.main && order.len() > before {
                let t = &doc.trees[root];
                let message = format!(
                    "tree `{}` is not used by the main tree `{}`; imported as its own file",
                    t.id, doc.trees[doc.main].id
                );
                self.warnings.push(t.root.problem(&t.origin, message));
            }
        }
        Ok(order)
    }

    /// The node-types manifest's file name.
    pub(super) fn manifest_name(&self) -> String {
        format!("{}.types.json", self.options.stem)
    }

    /// Each tree's file name: `<stem>.json` for the main tree, `<stem>.<ID>.json` for the
    /// others, with `-2`, `-3`, … added where two would clash. The manifest's name
    /// (`<stem>.types.json`) is taken first, so a tree whose ID is `types` cannot overwrite
    /// it; names are compared ignoring case, as case-insensitive file systems do.
    pub(super) fn file_names(&self, doc: &Doc, order: &[usize]) -> HashMap<usize, String> {
        let mut names = HashMap::new();
        let mut used = HashSet::new();
        used.insert(self.manifest_name().to_lowercase());
        for &t in order {
            let base = if t == doc.main {
                self.options.stem.clone()
            } else {
                format!("{}.{}", self.options.stem, file_safe(&doc.trees[t].id))
            };
            let mut name = format!("{base}.json");
            let mut n = 2;
            while !used.insert(name.to_lowercase()) {
                name = format!("{base}-{n}.json");
                n += 1;
            }
            names.insert(t, name);
        }
        names
    }

    pub(super) fn build(
        &self,
        src: &TreeSrc,
        root: &Draft,
        keys: &[KeyDecl],
        names: &HashMap<usize, String>,
        types: &BTreeMap<String, NodeType>,
        manifest: Option<&str>,
    ) -> TreeFile {
        let mut file = TreeFile::new(&src.id);
        // The file name only: an absolute path would make the output depend on where the
        // XML happened to be.
        let source = Path::new(&src.origin)
            .file_name()
            .map_or_else(|| src.origin.clone(), |n| n.to_string_lossy().into_owned());
        file.description = format!(
            "Imported from BehaviorTree.CPP: <BehaviorTree ID=\"{}\"> of {source}.",
            src.id
        );
        file.blackboard = keys.to_vec();
        let mut meta = Meta {
            id: src.id.clone(),
            tree_attributes: src.attrs.clone(),
            ..Meta::default()
        };
        // By name: scanning the keys for each node that names one made many keys
        // quadratic.
        let index = scripts::key_index(keys);
        let key_type = |k: &str| {
            crate::work::add(crate::work::Counter::KeySteps, 1);
            index.get(k).map_or(ValueType::Json, |&i| keys[i].ty)
        };
        let mut nodes = Vec::new();
        let root_guid = self.emit(root, &mut nodes, &mut meta, &key_type, names, types);
        file.root = Some(root_guid);
        file.nodes = nodes;
        for node in &file.nodes {
            if let Some(m) = self
                .host_ids
                .get(&node.kind)
                .and_then(|id| self.models.get(id))
            {
                meta.models.insert(node.kind.clone(), m.clone());
            }
        }
        // The tree's own `<SubTree>` model (port directions, C++ types, descriptions),
        // which the export writes again.
        if let Some(m) = self
            .models
            .get(&src.id)
            .filter(|m| m.kind == model::ModelKind::SubTree)
        {
            meta.models.insert(src.id.clone(), m.clone());
        }
        let positions = layout::tidy(&file);
        let mut editor = Map::new();
        if let Some(m) = manifest {
            editor.insert("manifests".into(), json!([m]));
        }
        editor.insert(
            "positions".into(),
            Json::Object(
                positions
                    .into_iter()
                    .map(|(g, p)| (g, json!([p[0], p[1]])))
                    .collect(),
            ),
        );
        editor.insert(meta::KEY.into(), meta.to_json());
        file.editor = Some(Json::Object(editor));
        file
    }

    /// Appends `d` and its subtree in pre-order; returns its GUID.
    pub(super) fn emit(
        &self,
        d: &Draft,
        nodes: &mut Vec<NodeDef>,
        meta: &mut Meta,
        key_type: &dyn Fn(&str) -> ValueType,
        names: &HashMap<usize, String>,
        types: &BTreeMap<String, NodeType>,
    ) -> String {
        let mut node = NodeDef::new(d.kind.clone());
        node.name = d.name.clone();
        node.enabled = d.enabled;
        let host = types.get(&d.kind);
        for (name, value) in &d.params {
            let json = match value {
                ParamValue::Json(v) => v.clone(),
                ParamValue::Key(k) => json!(k),
                ParamValue::Bind(k) => crate::port::binding_json(k),
                ParamValue::Typed { lit, key } => lit.to_json(key_type(key)),
                ParamValue::Port(raw) => {
                    let kind = host
                        .and_then(|t| t.param_spec(name))
                        .map_or(ParamKind::String, |p| p.kind);
                    match kind {
                        ParamKind::Key => json!(blackboard_ref(raw).unwrap_or(raw)),
                        _ if blackboard_ref(raw).is_some() => {
                            crate::port::binding_json(blackboard_ref(raw).unwrap_or(raw))
                        }
                        other => typed_port(other, raw).unwrap_or_else(|| json!(raw)),
                    }
                }
                ParamValue::Path(id) => {
                    let file = self
                        .tree_position(id)
                        .and_then(|i| names.get(&i))
                        .cloned()
                        .unwrap_or_default();
                    json!(file)
                }
                ParamValue::Remap(pairs) => {
                    Json::Object(pairs.iter().map(|(s, p)| (s.clone(), json!(p))).collect())
                }
                ParamValue::Script(code) => json!(code),
            };
            node.params.insert(name.clone(), json);
        }
        for dec in &d.decorators {
            let mut def = DecoratorDef::new(dec.kind);
            def.params.insert("key".into(), json!(dec.test.key));
            def.params.insert(
                "equals".into(),
                dec.test.value.to_json(key_type(&dec.test.key)),
            );
            if dec.test.negated {
                def.params.insert("invert".into(), json!(true));
            }
            meta.decorators
                .insert(def.guid.clone(), dec.origin.to_owned());
            node.decorators.push(def);
        }
        for s in &d.scripts {
            let mut def = DecoratorDef::new(s.kind);
            def.params = scripts::params(s);
            if s.attr == super::super::meta::DERIVED_SKIP {
                meta.decorators.insert(def.guid.clone(), s.attr.to_owned());
            }
            node.decorators.push(def);
        }
        if let Some(origin) = &d.origin {
            meta.origins.insert(node.guid.clone(), origin.clone());
        }
        if !d.kept.is_empty() {
            meta.attributes.insert(node.guid.clone(), d.kept.clone());
        }
        let guid = node.guid.clone();
        let index = nodes.len();
        nodes.push(node);
        let children: Vec<String> = d
            .children
            .iter()
            .map(|c| self.emit(c, nodes, meta, key_type, names, types))
            .collect();
        nodes[index].children = children;
        guid
    }
}

fn file_safe(id: &str) -> String {
    id.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}
