//! Pass 2 of the import: elements to drafts. Each element becomes a `Draft`: a mapped
//! Arbor node (the table in `mapping`, the conversions in `builtins.rs`), a Subtree,
//! or an opaque host node that keeps its attributes; pre-conditions become attached
//! decorators where the semantics match.

use std::collections::BTreeMap;

use super::super::mapping::{self, Conv, Entry};
use super::super::model;
use super::super::script::{self, Join, Lit};
use super::super::xml::{self, Element};
use super::builtins::{
    is_canonical, map_key_name, map_loop, map_precondition, map_script, map_script_condition,
    map_set_blackboard, map_updated, parse,
};
use super::*;
use crate::spec::Category;
use crate::value::ValueType;

impl Importer<'_> {
    pub(super) fn map_element(
        &mut self,
        el: &Element,
        tree: usize,
        origin: &str,
        parent: Parent,
        depth: usize,
    ) -> Draft {
        let explicit = EXPLICIT.contains(&el.tag.as_str());
        let id = if explicit || el.tag == "SubTree" || el.tag == "SubTreePlus" {
            match el.attr("ID") {
                Some(id) => id.to_owned(),
                None => {
                    self.error(origin, el, format!("<{}> needs an ID attribute", el.tag));
                    el.tag.clone()
                }
            }
        } else {
            el.tag.clone()
        };
        if let Some(fallback) = try_catch::as_fallback(el, &id) {
            return self.map_element(&fallback, tree, origin, parent, depth);
        }
        if let Some(pre) = v3_checks::as_precondition(el, &id) {
            self.warn(
                origin,
                el,
                format!(
                    "<{id}> (BT.CPP v3) is read as BT.CPP 4's <Precondition if=\"{}\" \
                     else=\"{}\">, which tests before its child starts where v3 tested \
                     on every tick",
                    pre.attr("if").unwrap_or(""),
                    pre.attr("else").unwrap_or("")
                ),
            );
            return self.map_element(&pre, tree, origin, parent, depth);
        }
        // BT.CPP names an unnamed node after its ID; a v3 alias is named after the v4 ID,
        // so that the export (which writes the v4 ID) needs no `name`.
        let default_name = mapping::by_id(&id).map_or(id.as_str(), |e| e.id);
        let name = el.attr("name").unwrap_or(default_name).to_owned();
        // Ports in document order, and the underscore attributes.
        let mut ports: Vec<(String, String)> = Vec::new();
        let mut special: Vec<(String, String)> = Vec::new();
        let max_string_len = crate::LoadOptions::default().max_string_len;
        for (k, v) in &el.attrs {
            if v.len() > max_string_len {
                self.error(
                    origin,
                    el,
                    format!(
                        "attribute `{k}` is {} bytes; Arbor loads strings of at most {max_string_len}",
                        v.len()
                    ),
                );
            }
            match k.as_str() {
                "ID" | "name" => {}
                k if k.starts_with('_') => special.push((k.to_owned(), v.clone())),
                _ => ports.push((k.clone(), v.clone())),
            }
        }

        let is_subtree = el.tag == "SubTree"
            || el.tag == "SubTreePlus"
            || (!explicit && mapping::by_id(&id).is_none() && self.tree_position(&id).is_some());
        let mut draft = if is_subtree {
            self.map_subtree(el, &id, &name, tree, origin, &mut ports, &mut special)
        } else {
            match mapping::by_id(&id) {
                Some(entry) => self.map_builtin(el, entry, &id, &name, origin, parent, &mut ports),
                None => self.host_draft(el, &id, &name, origin, &ports, false),
            }
        };
        if draft.host.is_none() {
            for (k, v) in ports {
                self.warn(
                    origin,
                    el,
                    format!(
                        "attribute `{k}` of <{}> has no Arbor equivalent; kept for export only",
                        el.tag
                    ),
                );
                draft.kept.insert(k, v);
            }
        }
        self.pre_post(&mut draft, el, origin, parent, special);

        let parent_of_children = if draft.kind == "Selector" {
            Parent::Selector
        } else {
            Parent::Other
        };
        if depth >= xml::MAX_DEPTH {
            self.error(
                origin,
                el,
                format!("the tree nests more than {} levels deep", xml::MAX_DEPTH),
            );
            return draft;
        }
        // A Precondition with `else="RUNNING"` already holds its test (rule 71).
        let prefilled = draft.children.len();
        if !is_subtree {
            for child in &el.children {
                let c = self.map_element(child, tree, origin, parent_of_children, depth + 1);
                draft.children.push(c);
            }
        }
        if draft.origin.as_deref() == Some("Precondition") {
            // The Precondition's child sits under the Sequence that stands in for it (no
            // child at all is reported by `check_children`).
            let own = draft.children.len() - prefilled;
            if own > 1 || (prefilled > 0 && own == 0) {
                self.error(origin, el, "<Precondition> must have exactly one child");
            }
        }
        self.check_children(&draft, el, origin);
        draft
    }

    /// BT.CPP refuses a mapped node with the wrong number of children; so does Arbor.
    pub(super) fn check_children(&mut self, draft: &Draft, el: &Element, origin: &str) {
        if draft.host.is_some() {
            return;
        }
        let Some(ty) = super::super::builtin().node(&draft.kind) else {
            return;
        };
        let n = draft.children.len();
        let problem = match ty.category {
            Category::Decorator if n != 1 => Some("exactly one child"),
            Category::Action | Category::Condition | Category::Subtree if n != 0 => {
                Some("no children")
            }
            Category::Composite if n == 0 => Some("at least one child"),
            _ => None,
        };
        if let Some(expected) = problem {
            self.error(
                origin,
                el,
                format!("<{}> must have {expected}, found {n}", el.tag),
            );
        }
    }

    // `parent` decides what BT.CPP's SKIPPED becomes (rule 56), like `pre_post`'s.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn map_builtin(
        &mut self,
        el: &Element,
        entry: &'static Entry,
        id: &str,
        name: &str,
        origin: &str,
        parent: Parent,
        ports: &mut Vec<(String, String)>,
    ) -> Draft {
        if let Conv::Msec { port, .. } = entry.conv {
            // BT.CPP reads the duration when the node starts and throws without it; the
            // tree cannot run there, so it is not imported.
            if !ports.iter().any(|(k, _)| k == port) {
                self.error(
                    origin,
                    el,
                    format!(
                        "<{id}> has no `{port}`: BT.CPP throws \"Missing parameter [{port}] \
                         in {}Node\" when it ticks",
                        entry.id
                    ),
                );
            }
        }
        let in_selector = parent == Parent::Selector;
        let mut take = |port: &str| {
            let i = ports.iter().position(|(k, _)| k == port)?;
            Some(ports.remove(i).1)
        };
        let result: Result<Draft, String> = match entry.conv {
            Conv::SetBlackboard => map_set_blackboard(el, name, &mut take),
            Conv::Script => map_script(el, name, &mut take),
            Conv::ScriptCondition => map_script_condition(el, name, &mut take),
            Conv::Precondition => map_precondition(el, name, &mut take),
            Conv::Loop(element) => map_loop(el, name, element, in_selector, &mut take),
            Conv::Updated(status) => map_updated(el, name, status, in_selector, &mut take),
            Conv::KeyName { port, braces } => {
                map_key_name(el, entry.arbor, name, port, braces, &mut take)
            }
            Conv::Switch(_) => {
                let variable = take("variable").unwrap_or_default();
                match blackboard_ref(&variable).map(str::to_owned) {
                    None => Err("`variable` must name a blackboard key, as `{key}`".to_owned()),
                    Some(key) => {
                        mapping::import_params(entry, &mut take, el.children.len()).map(|params| {
                            let mut d = Draft::new(entry.arbor, name, el);
                            d.params.push(("variable".to_owned(), ParamValue::Key(key)));
                            d.params
                                .extend(params.into_iter().map(|(k, v)| (k, ParamValue::Json(v))));
                            d
                        })
                    }
                }
            }
            _ => mapping::import_params(entry, &mut take, el.children.len()).map(|params| {
                let mut d = Draft::new(entry.arbor, name, el);
                d.params = params
                    .into_iter()
                    .map(|(k, v)| match crate::port::binding(&v) {
                        Ok(Some(key)) => (k, ParamValue::Bind(key.to_owned())),
                        _ => (k, ParamValue::Json(v)),
                    })
                    .collect();
                d
            }),
        };
        match result {
            Ok(mut draft) => {
                if !is_canonical(entry) {
                    draft.origin = Some(entry.id.to_owned());
                }
                if entry.id != id {
                    self.warn(
                        origin,
                        el,
                        format!(
                            "<{id}> is the BT.CPP v3 name of {}; exported as <{}>",
                            entry.id, entry.id
                        ),
                    );
                }
                draft
            }
            Err(why) => {
                // Put back what the conversion consumed: the opaque node keeps everything.
                let all: Vec<(String, String)> = el
                    .attrs
                    .iter()
                    .filter(|(k, _)| k != "ID" && k != "name" && !k.starts_with('_'))
                    .cloned()
                    .collect();
                *ports = Vec::new();
                let draft = self.host_draft(el, id, name, origin, &all, true);
                let host_name = host_type_name(id);
                self.warn(
                    origin,
                    el,
                    format!("<{id}>: {why}; imported as the opaque node type `{host_name}`"),
                );
                draft
            }
        }
    }

    /// A custom node, or a BT.CPP node Arbor cannot express: a host node whose ports are
    /// parameters (their kinds are chosen once every use is known).
    pub(super) fn host_draft(
        &mut self,
        el: &Element,
        id: &str,
        name: &str,
        origin: &str,
        ports: &[(String, String)],
        builtin: bool,
    ) -> Draft {
        let usage = self.hosts.entry(id.to_owned()).or_insert_with(|| HostUse {
            line: el.line,
            column: el.column,
            origin: origin.to_owned(),
            ..HostUse::default()
        });
        usage.builtin |= builtin || mapping::is_btcpp_builtin(id);
        usage.child_counts.push(el.children.len());
        let mut clash = None;
        if let Some(kind) = model::ModelKind::parse(&el.tag).filter(|_| el.tag != "SubTree") {
            match usage.explicit {
                // One ID is one registered type in BT.CPP: `<Action ID="X">` and
                // `<Condition ID="X">` in one document cannot both be right.
                Some(first) if first != kind => clash = Some(first),
                Some(_) => {}
                None => usage.explicit = Some(kind),
            }
        }
        let mut draft = Draft::new("", name, el);
        draft.host = Some(id.to_owned());
        for (k, v) in ports {
            if !usage.ports.contains_key(k) {
                usage.order.push(k.clone());
            }
            usage.ports.entry(k.clone()).or_default().push(v.clone());
            draft.params.push((k.clone(), ParamValue::Port(v.clone())));
        }
        if let Some(first) = clash {
            self.warn(
                origin,
                el,
                format!(
                    "`{id}` is used as <{}> here and as <{}> before; one BT.CPP ID is one node \
                     type, imported as {}",
                    el.tag,
                    first.tag(),
                    first.tag()
                ),
            );
        }
        draft
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn map_subtree(
        &mut self,
        el: &Element,
        id: &str,
        name: &str,
        tree: usize,
        origin: &str,
        ports: &mut Vec<(String, String)>,
        special: &mut Vec<(String, String)>,
    ) -> Draft {
        let mut draft = Draft::new("Subtree", name, el);
        let Some(sub) = self.tree_position(id) else {
            self.error(
                origin,
                el,
                format!("<SubTree ID=\"{id}\">: no tree `{id}` is defined"),
            );
            return draft;
        };
        let mut autoremap = false;
        special.retain(|(k, v)| {
            let flag = matches!(
                k.as_str(),
                "_autoremap" | "__autoremap" | "__shared_blackboard"
            );
            if flag {
                autoremap |= matches!(v.trim(), "true" | "1" | "TRUE" | "True");
            }
            !flag
        });
        let mut remap: Vec<(String, String)> = Vec::new();
        let literal = |cx: &mut Self, port: &str, text: &str| {
            // A port the subtree's model types as a string keeps its text (`"007"` is not
            // the number 7); others are read as the literal they spell.
            let string_port = cx
                .models
                .get(id)
                .and_then(|m| m.port(port))
                .and_then(|p| p.ty.as_deref())
                .is_some_and(|t| hosts::cpp_type(t) == ValueType::String);
            let lit = if string_port {
                Lit::Str(text.to_owned())
            } else {
                Lit::from_text(text)
            };
            cx.sub_defaults
                .entry(sub)
                .or_default()
                .entry(port.to_owned())
                .or_default()
                .push(lit);
        };
        // In v3 a <SubTree>'s ports name parent keys without braces (SubTreePlus, like v4,
        // takes `{key}` or a literal).
        let bare_keys = self.v3 && el.tag == "SubTree";
        let mut literal_ports = Vec::new();
        for (port, value) in std::mem::take(ports) {
            if value.trim() == "{=}" {
                remap.push((port.clone(), port));
            } else if let Some(key) = blackboard_ref(&value) {
                remap.push((port, key.to_owned()));
            } else if bare_keys && !value.trim().is_empty() {
                remap.push((port, value.trim().to_owned()));
            } else {
                literal(self, &port, &value);
                literal_ports.push(port);
            }
        }
        draft.literal_ports = literal_ports;
        // v2/v3: <remap internal="…" external="…"/> children.
        for child in &el.children {
            match (
                child.tag.as_str(),
                child.attr("internal"),
                child.attr("external"),
            ) {
                ("remap", Some(internal), Some(external)) => {
                    let external = blackboard_ref(external).unwrap_or(external);
                    remap.push((internal.to_owned(), external.to_owned()));
                }
                _ => self.error(
                    origin,
                    child,
                    format!(
                        "<SubTree ID=\"{id}\"> must not have children (found <{}>)",
                        child.tag
                    ),
                ),
            }
        }
        // Ports of the subtree's model that this call does not set: BT.CPP uses their
        // defaults (a `{key}` default remaps, a literal one sets the value).
        if !autoremap {
            if let Some(m) = self.models.get(id).cloned() {
                for port in &m.ports {
                    let set = remap.iter().any(|(s, _)| *s == port.name)
                        || self
                            .sub_defaults
                            .get(&sub)
                            .is_some_and(|d| d.contains_key(&port.name));
                    if set {
                        continue;
                    }
                    match port.default.as_deref() {
                        Some(d) => match blackboard_ref(d) {
                            Some(key) => remap.push((port.name.clone(), key.to_owned())),
                            None => literal(self, &port.name, d),
                        },
                        None => self.warn(
                            origin,
                            el,
                            format!(
                                "<SubTree ID=\"{id}\"> does not set the port `{}` its model \
                                 declares (BT.CPP refuses this); it stays private to the subtree",
                                port.name
                            ),
                        ),
                    }
                }
            }
        }
        self.calls.push(Call {
            parent: tree,
            sub,
            remap: remap.clone(),
            autoremap,
        });
        draft.params = vec![
            ("path".to_owned(), ParamValue::Path(id.to_owned())),
            ("remap".to_owned(), ParamValue::Remap(remap)),
        ];
        if autoremap {
            // Recorded so that the export writes `_autoremap` again rather than a long
            // explicit list.
            draft
                .kept
                .insert("_autoremap".to_owned(), "true".to_owned());
        }
        draft
    }

    /// Pre- and post-conditions become attached decorators: Condition/Precondition where
    /// those match exactly, script decorators otherwise (`scripts.rs`); one that does not
    /// parse is kept as text for export.
    pub(super) fn pre_post(
        &mut self,
        draft: &mut Draft,
        el: &Element,
        origin: &str,
        parent: Parent,
        special: Vec<(String, String)>,
    ) {
        let mut specials: BTreeMap<String, String> = special.into_iter().collect();
        // A literal `_skipIf="true"` always skips: what export writes for a disabled node
        // (rule 79). Any other skip stays a script.
        if specials
            .get("_skipIf")
            .is_some_and(|src| src.trim() == "true")
        {
            specials.remove("_skipIf");
            draft.enabled = false;
        }
        let legacy_ok = |attr: &str, src: &str| match attr {
            "_failureIf" => script::parse_tests(src, Join::Any).is_some(),
            "_skipIf" => {
                parent == Parent::Selector && script::parse_tests(src, Join::Any).is_some()
            }
            "_while" => parent == Parent::Selector && script::parse_tests(src, Join::All).is_some(),
            _ => false,
        };
        if self.pre_post_scripts(draft, el, origin, parent, &mut specials, &legacy_ok) {
            draft.kept.extend(specials);
            return;
        }
        let mut own = Vec::new();
        for attr in PRE_CONDITIONS {
            let Some(src) = specials.get(attr).cloned() else {
                continue;
            };
            let mapped: Result<Vec<DraftDecorator>, String> = match attr {
                // Fail if any test holds: each test's negation must hold.
                "_failureIf" => parse(&src, Join::Any).map(|tests| {
                    tests
                        .iter()
                        .map(|t| DraftDecorator {
                            kind: "Condition",
                            test: t.not(),
                            origin: "_failureIf",
                        })
                        .collect()
                }),
                "_skipIf" if parent == Parent::Selector => parse(&src, Join::Any).map(|tests| {
                    tests
                        .iter()
                        .map(|t| DraftDecorator {
                            kind: "Condition",
                            test: t.not(),
                            origin: "_skipIf",
                        })
                        .collect()
                }),
                "_while" if parent == Parent::Selector => parse(&src, Join::All).map(|tests| {
                    tests
                        .into_iter()
                        .map(|test| DraftDecorator {
                            kind: "Precondition",
                            test,
                            origin: "_while",
                        })
                        .collect()
                }),
                "_skipIf" | "_while" => Err(
                    "a skipped node is passed over, which Arbor expresses only under a \
                     Selector (as a failure)"
                        .to_owned(),
                ),
                _ => {
                    Err("Arbor has no condition that succeeds without running the node".to_owned())
                }
            };
            match mapped {
                Ok(decs) => {
                    specials.remove(attr);
                    own.extend(decs);
                }
                Err(why) => self.warn(
                    origin,
                    el,
                    format!("`{attr}=\"{src}\"` is kept for export but not evaluated: {why}"),
                ),
            }
        }
        // The node's own pre-conditions are checked before a Precondition node's `if`.
        own.append(&mut draft.decorators);
        draft.decorators = own;
        for attr in POST_CONDITIONS {
            if let Some(src) = specials.get(attr) {
                self.warn(
                    origin,
                    el,
                    format!("`{attr}=\"{src}\"` is kept for export but not run by Arbor"),
                );
            }
        }
        draft.kept.extend(specials);
    }
}
