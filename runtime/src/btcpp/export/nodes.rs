//! Writing a node: its element (`Element`) with its name, pre-condition attributes,
//! kept attributes and children; host nodes as elements of their own name, Subtree
//! nodes as `<SubTree ID=…>` with their remapping.

use std::path::{Path, PathBuf};

use serde_json::Value as Json;

use super::*;

impl Exporter<'_> {
    pub(super) fn node(
        &mut self,
        at: &Place<'_>,
        guid: &str,
        parent: Option<&NodeDef>,
        depth: usize,
    ) -> Option<Out> {
        let Some(node) = at.nodes.get(guid) else {
            self.problems.push(format!(
                "tree `{}`: no node has the GUID {guid}",
                at.tree_id
            ));
            return None;
        };
        if depth > crate::btcpp::xml::MAX_DEPTH {
            self.problems.push(format!(
                "tree `{}`: nodes nest more than {} levels deep",
                at.tree_id,
                crate::btcpp::xml::MAX_DEPTH
            ));
            return None;
        }
        let label = format!(
            "node \"{}\" ({}) in tree `{}`",
            node.name, node.kind, at.tree_id
        );
        if let Some(c) = xml_unfit_char(node) {
            self.problems.push(format!(
                "{label}: holds the character U+{:04X}, which XML 1.0 cannot hold",
                c as u32
            ));
            return None;
        }
        let children: Vec<&NodeDef> = node
            .children
            .iter()
            .filter_map(|c| at.nodes.get(c))
            .collect();
        let element = match self.element(at, node, &children) {
            Ok(e) => e,
            Err(why) => {
                self.problems.push(format!("{label}: {why}"));
                return None;
            }
        };
        let (pre, inverters) = if element.consumed_decorators {
            (Vec::new(), 0)
        } else {
            self.decorators(at, node, parent, &label)
        };
        let mut out = element.out;
        if !node.name.is_empty() && node.name != element.id_for_name {
            out.attrs.insert(
                usize::from(out.has_attr("ID")),
                ("name".to_owned(), node.name.clone()),
            );
        }
        for (k, v) in pre {
            out.push_attr(k, v);
        }
        if let Some(kept) = at.meta.attributes.get(&node.guid) {
            for (k, v) in kept {
                if k != "_autoremap" {
                    out.push_attr(k.clone(), v.clone());
                }
            }
        }
        if element.children {
            for child in children.iter().skip(element.skip) {
                if let Some(c) = self.node(at, &child.guid, Some(node), depth + 1) {
                    out.children.push(c);
                }
            }
        }
        for _ in 0..inverters {
            let mut inverter = Out::new("Inverter");
            inverter.children.push(out);
            out = inverter;
        }
        Some(out)
    }

    pub(super) fn element(
        &mut self,
        at: &Place<'_>,
        node: &NodeDef,
        children: &[&NodeDef],
    ) -> Result<Element, String> {
        let kind = node.kind.as_str();
        let ty = self.types.node(kind).cloned();
        if kind == "Subtree" {
            return self.subtree(at, node);
        }
        match ty {
            Some(ty) if !ty.host => self.builtin(at, node, children, &ty),
            Some(ty) => Ok(self.host(at, node, &ty)),
            None => Err(format!(
                "`{kind}` is not a known node type; give the manifest that declares it"
            )),
        }
    }

    pub(super) fn host(&mut self, at: &Place<'_>, node: &NodeDef, ty: &NodeType) -> Element {
        let id = btcpp_id(&ty.name);
        // BT.CPP 4 reads `<Foo.Bar/>` as the node `Foo`; an ID that is not a plain element
        // name is written in the explicit form `<Action ID="Foo.Bar"/>`, which it reads.
        let plain = id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            && !id.starts_with(|c: char| c.is_ascii_digit() || c == '-');
        let mut out = if plain {
            Out::new(&id)
        } else {
            let tag = match ty.category {
                crate::spec::Category::Condition => "Condition",
                crate::spec::Category::Decorator => "Decorator",
                crate::spec::Category::Composite => "Control",
                _ => "Action",
            };
            Out::new(tag).attr("ID", &id)
        };
        for spec in &ty.params {
            let Some(value) = node.params.get(&spec.name) else {
                continue;
            };
            let value = match (spec.kind, value) {
                (ParamKind::Key, _) => format!("{{{}}}", value.as_str().unwrap_or("")),
                // BT.CPP 4.9's `json:` literal: a list or an object for a port of a
                // vector or custom type (BT.CPP 4.8 reads it for custom types).
                (_, Json::Array(_) | Json::Object(_))
                    if matches!(crate::port::binding(value), Ok(None)) =>
                {
                    format!("json:{value}")
                }
                _ => text(value),
            };
            out.push_attr(&spec.name, value);
        }
        if !mapping::is_btcpp_builtin(&id) && !self.hosts.contains_key(&id) {
            // The imported model (port directions, C++ types), completed with parameters
            // added since.
            let declared = model_of(ty);
            let m = match at.meta.models.get(&ty.name) {
                Some(m) => {
                    let mut m = m.clone();
                    for p in declared.ports {
                        if m.port(&p.name).is_none() {
                            m.ports.push(p);
                        }
                    }
                    m
                }
                None => declared,
            };
            self.hosts.insert(id.clone(), m);
        }
        Element {
            id_for_name: id,
            out,
            children: true,
            consumed_decorators: false,
            skip: 0,
        }
    }

    pub(super) fn subtree(&mut self, at: &Place<'_>, node: &NodeDef) -> Result<Element, String> {
        let rel = node
            .params
            .get("path")
            .and_then(Json::as_str)
            .ok_or("the Subtree has no `path`")?;
        let base = at
            .path
            .and_then(Path::parent)
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        // Two spellings of one subtree path are one tree.
        let target = crate::files::normalise(&base.join(rel));
        let index = match self.by_path.get(&target) {
            Some(&i) => {
                if self.trees[i].xml.is_none() {
                    return Err(format!("subtree `{rel}` contains itself (a cycle)"));
                }
                i
            }
            None => {
                // Trees being written enclose this call: bound the nesting (and with it
                // the recursion) as the loader does.
                let open = self.trees.iter().filter(|t| t.xml.is_none()).count();
                if open > 16 {
                    return Err(format!(
                        "subtree `{rel}`: subtrees nest more than 16 deep (Arbor's loader \
                         refuses such trees)"
                    ));
                }
                let file = (self.load)(&target).map_err(|e| format!("subtree `{rel}`: {e}"))?;
                self.merge_manifests(&file, Some(&target));
                self.tree(file, Some(target))
            }
        };
        let sub_id = self.trees[index].id.clone();
        let sub_file = self.trees[index].file.clone();
        let remap: Vec<(String, String)> = node
            .params
            .get("remap")
            .and_then(Json::as_object)
            .map(|m| {
                m.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        let mut out = Out::new("SubTree").attr("ID", &sub_id);
        let autoremap = at
            .meta
            .attributes
            .get(&node.guid)
            .and_then(|a| a.get("_autoremap"))
            .is_some_and(|v| v == "true")
            && sub_file
                .blackboard
                .iter()
                .all(|d| d.default.is_some() || remap.iter().any(|(s, _)| *s == d.key));
        if autoremap {
            out.push_attr("_autoremap", "true");
        }
        for (s, p) in &remap {
            if autoremap && s == p {
                continue;
            }
            out.push_attr(s, format!("{{{p}}}"));
        }
        if autoremap {
            // A key the call does not remap has its default: a literal port of the call
            // (BT.CPP does not apply a model's defaults to an autoremapped call).
            for d in &sub_file.blackboard {
                if let Some(v) = d.default.as_ref() {
                    if !remap.iter().any(|(s, _)| *s == d.key) {
                        out.push_attr(&d.key, text(v));
                    }
                }
            }
        }
        let model = subtree_model(&sub_id, &sub_file);
        if !model.ports.is_empty() || !model.description.is_empty() {
            self.sub_models.insert(sub_id.clone(), model);
        }
        Ok(Element {
            id_for_name: sub_id,
            out,
            children: false,
            consumed_decorators: false,
            skip: 0,
        })
    }
}

/// A node's element before its name, pre-conditions and children are added.
pub(super) struct Element {
    /// BT.CPP names an unnamed node after this; `name` is written only when different.
    pub(super) id_for_name: String,
    pub(super) out: Out,
    /// Whether the node's children are written inside it (not for SubTree).
    pub(super) children: bool,
    /// The decorators became the element itself (Precondition).
    pub(super) consumed_decorators: bool,
    /// Leading children that became the element itself (a Precondition's test).
    pub(super) skip: usize,
}
