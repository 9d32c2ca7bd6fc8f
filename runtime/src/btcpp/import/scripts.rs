//! Scripts in the import: `<Script>` and `<ScriptCondition>` whose code has no simpler
//! Arbor form become Arbor's Script and ScriptCondition leaves, and the pre- and
//! post-condition attributes become script decorators (docs/interop.md, "Scripts").
//!
//! Syntax is checked as the element is read (a problem is located at the element's
//! `file:line:column` and the column inside the script); types once the keys are
//! declared (`check_scripts`). A script that does not check is kept as text: its node
//! becomes the opaque stand-in, its attribute is kept for export, with a warning.

use std::collections::{HashMap, HashSet};

use super::{Doc, Draft, HostUse, Importer, ParamValue, Parent};
use crate::blackboard::Key;
use crate::btcpp::xml::Element;
use crate::btcpp::XmlProblem;
use crate::format::KeyDecl;
use crate::nodes::attached::script::type_of_attribute;
use crate::script::{self, Names, Ty};
use crate::value::ValueType;

/// A script decorator before key types are known.
#[derive(Clone, Debug)]
pub(super) struct SDec {
    /// The Arbor decorator type (`SkipIf`).
    pub kind: &'static str,
    /// The BT.CPP attribute (`_skipIf`).
    pub attr: &'static str,
    pub code: String,
    /// For SkipIf and While: the status the skipped node reports.
    pub skipped: Option<&'static str>,
}

/// The attributes in the order the decorators are listed: pre-scripts in the order BT.CPP
/// checks them, then post-scripts so that, run bottom to top, the status's script comes
/// before `_post` (BT.CPP's order).
const ORDER: [&str; 8] = [
    "_failureIf",
    "_successIf",
    "_skipIf",
    "_while",
    "_onHalted",
    "_post",
    "_onSuccess",
    "_onFailure",
];

/// Where a script's syntax problem is: the element, and the column in the script.
fn syntax_problem(src: &str) -> Option<String> {
    let e = script::parse_error(src)?;
    Some(crate::nodes::action::script::located(&e, src))
}

impl Importer<'_> {
    /// A Script or ScriptCondition leaf running `code`; `Err` (with the located problem)
    /// when the code does not parse.
    pub(super) fn script_leaf(
        el: &Element,
        kind: &str,
        name: &str,
        code: &str,
    ) -> Result<Draft, String> {
        if let Some(problem) = syntax_problem(code) {
            return Err(format!("the script does not parse ({problem})"));
        }
        let mut d = Draft::new(kind, name, el);
        d.params = vec![("code".to_owned(), ParamValue::Script(code.to_owned()))];
        Ok(d)
    }

    /// `<Precondition if="S" else="X">` whose test is more than key comparisons, or whose
    /// `else` is not FAILURE: a Sequence over the child with a FailureIf (X = FAILURE),
    /// SuccessIf (SUCCESS) or SkipIf (SKIPPED) whose script is `!(S)`. As BT.CPP's node,
    /// it tests before the child starts and not while the child runs.
    pub(super) fn script_precondition(
        el: &Element,
        name: &str,
        src: &str,
        otherwise: &str,
    ) -> Result<Draft, String> {
        if let Some(problem) = syntax_problem(src) {
            return Err(format!("`if` does not parse ({problem})"));
        }
        let (kind, attr) = match otherwise {
            "FAILURE" => ("FailureIf", "_failureIf"),
            "SUCCESS" => ("SuccessIf", "_successIf"),
            "SKIPPED" => ("SkipIf", "_skipIf"),
            "RUNNING" => return Ok(Self::running_precondition(el, name, src)),
            other => {
                return Err(format!(
                    "`else=\"{other}\"`: BT.CPP's Precondition ends with SUCCESS, FAILURE, \
                     SKIPPED or RUNNING"
                ))
            }
        };
        let mut d = Draft::new("Sequence", name, el);
        d.scripts.push(SDec {
            kind,
            attr,
            code: format!("!({src})"),
            skipped: (kind == "SkipIf").then_some("success"),
        });
        Ok(d)
    }

    /// `<Precondition if="S" else="RUNNING">` over C (rule 71): BT.CPP tests S on every
    /// tick until it holds, returning RUNNING without ticking C, then runs C to its end
    /// without testing again. In Arbor: a Sequence over a dynamic Selector
    /// [ScriptCondition S, Scripted running] and C. The Selector re-tests S on each tick
    /// while it waits; once S holds the Sequence moves on to C and, C running, resumes
    /// there without going back to the test. The caller adds C.
    fn running_precondition(el: &Element, name: &str, src: &str) -> Draft {
        let mut test = Draft::new("ScriptCondition", "if", el);
        test.params = vec![("code".to_owned(), ParamValue::Script(src.to_owned()))];
        let mut wait = Draft::new("Scripted", "else RUNNING", el);
        wait.params = vec![(
            "returns".to_owned(),
            ParamValue::Json(serde_json::json!(["running"])),
        )];
        let mut gate = Draft::new("Selector", "wait until", el);
        gate.params = vec![(
            "dynamic".to_owned(),
            ParamValue::Json(serde_json::Value::Bool(true)),
        )];
        gate.children = vec![test, wait];
        let mut d = Draft::new("Sequence", name, el);
        d.children.push(gate);
        d
    }

    /// Takes a node's pre- and post-condition attributes as script decorators when the
    /// Condition/Precondition mapping cannot express them all exactly: a post-condition
    /// (BT.CPP runs `_onFailure` after `_failureIf` fails the node, which a Condition
    /// does not), `_successIf`, a skip outside a Fallback, or a test that is more than
    /// key comparisons. All of a node's attributes go one way, so that their order stays
    /// BT.CPP's. Returns false, taking nothing, when the old mapping is exact.
    pub(super) fn pre_post_scripts(
        &mut self,
        draft: &mut Draft,
        el: &Element,
        origin: &str,
        parent: Parent,
        specials: &mut std::collections::BTreeMap<String, String>,
        legacy_ok: &dyn Fn(&str, &str) -> bool,
    ) -> bool {
        let present: Vec<&str> = ORDER
            .into_iter()
            .filter(|a| specials.contains_key(*a))
            .collect();
        let needs_scripts = present.iter().any(|a| {
            let src = specials.get(*a).map(String::as_str).unwrap_or("");
            !legacy_ok(a, src)
        });
        if !needs_scripts {
            return false;
        }
        // The node's own attributes are checked before a Precondition node's `if`.
        let inner = std::mem::take(&mut draft.scripts);
        for attr in present {
            let Some(src) = specials.get(attr).cloned() else {
                continue;
            };
            let Some(kind) = type_of_attribute(attr) else {
                continue;
            };
            if let Some(problem) = syntax_problem(&src) {
                self.warn(
                    origin,
                    el,
                    format!("`{attr}=\"{src}\"` is kept for export but not evaluated: {problem}"),
                );
                continue;
            }
            specials.remove(attr);
            let skipped =
                matches!(attr, "_skipIf" | "_while").then_some(if parent == Parent::Selector {
                    "failure"
                } else {
                    "success"
                });
            draft.scripts.push(SDec {
                kind,
                attr,
                code: src,
                skipped,
            });
        }
        draft.scripts.extend(inner);
        true
    }

    /// Types the json keys that only scripts type, by copies (`p := x` with `x` an int):
    /// a key whose type was left `json` (no use suggested one) and whose script uses now
    /// all suggest one type. Keys connected to a subtree call keep their type (both ends
    /// of a remapping must agree, and `declare_keys` already unified them).
    pub(super) fn type_script_copies(&self, drafts: &[Draft], decls: &mut [Vec<KeyDecl>]) {
        for (t, draft) in drafts.iter().enumerate() {
            // Keys a SubTree call connects (every key of a tree an `_autoremap` call
            // touches): looked up in sets, since scanning the calls for each key made
            // many keys quadratic.
            let auto_linked = self
                .calls
                .iter()
                .any(|c| c.autoremap && (c.parent == t || c.sub == t));
            let mut linked: HashSet<&str> = HashSet::new();
            for c in &self.calls {
                for (s, p) in &c.remap {
                    if c.sub == t {
                        linked.insert(s);
                    }
                    if c.parent == t {
                        linked.insert(p);
                    }
                }
            }
            let mut codes = Vec::new();
            // Keys other nodes use: their type came from those uses (json when they
            // disagree), which a script's suggestion must not override.
            let mut others: HashSet<String> = HashSet::new();
            draft.walk(&mut |d| {
                for dec in &d.decorators {
                    others.insert(dec.test.key.clone());
                }
                for (_, p) in &d.params {
                    match p {
                        ParamValue::Key(k)
                        | ParamValue::Bind(k)
                        | ParamValue::Typed { key: k, .. } => {
                            others.insert(k.clone());
                        }
                        ParamValue::Port(raw) => {
                            if let Some(k) = super::blackboard_ref(raw) {
                                others.insert(k.to_owned());
                            }
                        }
                        _ => {}
                    }
                }
                for s in &d.scripts {
                    let tested = !matches!(s.kind, "OnSuccess" | "OnFailure" | "OnHalted" | "Post");
                    codes.push((s.code.clone(), tested));
                }
                for (n, p) in &d.params {
                    if let ParamValue::Script(code) = p {
                        if n == "code" && d.host.is_none() {
                            codes.push((code.clone(), d.kind == "ScriptCondition"));
                        }
                    }
                }
            });
            // The tree's keys by name (the first of a repeated name); names do not change
            // below, only types.
            let index: HashMap<String, usize> = key_index(&decls[t])
                .into_iter()
                .map(|(k, i)| (k.to_owned(), i))
                .collect();
            // A chain of copies (`b := a; c := b`) takes a round per link.
            for _ in 0..8 {
                let list = &decls[t];
                let enums = &self.options.script_enums;
                let declared = |n: &str| {
                    if enums.contains_key(n) {
                        return Some(Ty::Int);
                    }
                    crate::work::add(crate::work::Counter::KeySteps, 1);
                    index.get(n).and_then(|&i| Ty::of_key(list[i].ty))
                };
                // Every suggested type of each key, keys in first-suggested order.
                let mut seen: Vec<(String, Vec<Ty>)> = Vec::new();
                let mut seen_at: HashMap<String, usize> = HashMap::new();
                for (code, tested) in &codes {
                    for (k, ty) in
                        script::key_uses_with(code, *tested, &declared).unwrap_or_default()
                    {
                        let Some(ty) = ty else { continue };
                        match seen_at.get(&k) {
                            Some(&i) => seen[i].1.push(ty),
                            None => {
                                seen_at.insert(k.clone(), seen.len());
                                seen.push((k, vec![ty]));
                            }
                        }
                    }
                }
                let mut changed = false;
                for (k, tys) in seen {
                    let one = tys.iter().all(|t| *t == tys[0]);
                    crate::work::add(crate::work::Counter::KeySteps, 1);
                    let Some(&i) = index.get(k.as_str()) else {
                        continue;
                    };
                    let decl = &mut decls[t][i];
                    let free = !auto_linked && !linked.contains(k.as_str()) && !others.contains(&k);
                    if one && decl.ty == ValueType::Json && decl.default.is_none() && free {
                        decl.ty = tys[0].value_type();
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
    }

    /// Checks every script against its tree's declared keys; a script that does not check
    /// is kept as text (see the module documentation).
    pub(super) fn check_scripts(
        &mut self,
        doc: &Doc,
        drafts: &mut [Draft],
        decls: &[Vec<KeyDecl>],
    ) {
        for (t, draft) in drafts.iter_mut().enumerate() {
            let names = DeclNames {
                decls: &decls[t],
                index: key_index(&decls[t]),
                enums: &self.options.script_enums,
            };
            let origin = doc.trees[t].origin.clone();
            let mut problems = Vec::new();
            let mut demoted = Vec::new();
            draft.walk_mut(&mut |d| {
                let (line, column) = (d.line, d.column);
                let mut kept = Vec::new();
                d.scripts.retain(|s| {
                    let condition =
                        !matches!(s.kind, "OnSuccess" | "OnFailure" | "OnHalted" | "Post");
                    match compile(&s.code, &names, condition) {
                        Ok(()) => true,
                        Err(why) => {
                            problems.push((
                                line,
                                column,
                                format!(
                                    "`{}=\"{}\"` is kept for export but not evaluated: {why}",
                                    s.attr, s.code
                                ),
                            ));
                            kept.push((s.attr.to_owned(), s.code.clone()));
                            false
                        }
                    }
                });
                d.kept.extend(kept);
                if d.host.is_some() || !matches!(d.kind.as_str(), "Script" | "ScriptCondition") {
                    return;
                }
                let Some(code) = d.params.iter().find_map(|(n, p)| match p {
                    ParamValue::Script(c) if n == "code" => Some(c.clone()),
                    _ => None,
                }) else {
                    return;
                };
                if let Err(why) = compile(&code, &names, d.kind == "ScriptCondition") {
                    let id = d.kind.clone();
                    problems.push((
                        line,
                        column,
                        format!(
                            "<{id} code=\"{code}\">: {why}; imported as the opaque node type `{}`",
                            super::host_type_name(&id)
                        ),
                    ));
                    d.host = Some(id.clone());
                    d.kind = String::new();
                    d.origin = None;
                    d.params = vec![("code".to_owned(), ParamValue::Port(code.clone()))];
                    demoted.push((id, line, column, code));
                }
            });
            for (line, column, message) in problems {
                self.warnings.push(XmlProblem {
                    origin: origin.clone(),
                    line,
                    column,
                    message,
                });
            }
            for (id, line, column, code) in demoted {
                let usage = self.hosts.entry(id).or_insert_with(|| HostUse {
                    line,
                    column,
                    origin: origin.clone(),
                    ..HostUse::default()
                });
                usage.builtin = true;
                usage.child_counts.push(0);
                if !usage.ports.contains_key("code") {
                    usage.order.push("code".to_owned());
                }
                usage.ports.entry("code".to_owned()).or_default().push(code);
            }
        }
    }
}

fn compile(code: &str, names: &DeclNames<'_>, condition: bool) -> Result<(), String> {
    let compiled = if condition {
        script::compile_condition(code, names)
    } else {
        script::compile(code, names)
    };
    compiled
        .map(|_| ())
        .map_err(|e| crate::nodes::action::script::located(&e, code))
}

/// A tree's declared keys and the program's scripting enums, for checking its scripts.
struct DeclNames<'a> {
    decls: &'a [KeyDecl],
    /// `decls` by name: scanning them for each name a script reads made many keys
    /// quadratic.
    index: HashMap<&'a str, usize>,
    enums: &'a std::collections::BTreeMap<String, i64>,
}

impl Names for DeclNames<'_> {
    fn key(&self, name: &str, _root: bool) -> Option<(Key, ValueType)> {
        crate::work::add(crate::work::Counter::KeySteps, 1);
        let i = *self.index.get(name)?;
        Some((Key(i as u32), self.decls[i].ty))
    }

    fn enum_value(&self, name: &str) -> Option<i64> {
        self.enums.get(name).copied()
    }
}

/// Key declarations by name, the first of a repeated name winning (as a scan would find).
pub(super) fn key_index(decls: &[KeyDecl]) -> HashMap<&str, usize> {
    let mut index = HashMap::with_capacity(decls.len());
    for (i, d) in decls.iter().enumerate() {
        index.entry(d.key.as_str()).or_insert(i);
    }
    index
}

impl Importer<'_> {
    /// The keys a script uses with the types its uses suggest (`None` where it shows
    /// none); the root tree's keys as written, `@name`; scripting enums are not keys.
    pub(super) fn script_key_uses(
        &self,
        code: &str,
        condition: bool,
    ) -> Vec<(String, Option<ValueType>)> {
        let enums = &self.options.script_enums;
        let enum_type = |name: &str| enums.contains_key(name).then_some(Ty::Int);
        script::key_uses_marked(code, condition, &enum_type)
            .unwrap_or_default()
            .into_iter()
            .filter(|(k, _)| !enums.contains_key(k))
            .map(|(k, t)| (k, t.map(Ty::value_type)))
            .collect()
    }
}

/// Arbor kinds that return SKIPPED in BT.CPP 4.8 when every child was skipped: Sequence
/// (with memory, reactive, async), Fallback (reactive, async), Parallel, and the
/// decorators Inverter, ForceSuccess, ForceFailure, Repeat and RetryUntilSuccessful.
const PASS_SKIPPED: [&str; 8] = [
    "Sequence",
    "Selector",
    "Parallel",
    "Inverter",
    "Succeeder",
    "ForceFailure",
    "Repeat",
    "Retry",
];

/// A derived condition longer than this is not written (a deep tree of skippable nodes
/// would repeat its leaves' tests at every level); such a node keeps rule 56's status.
const MAX_DERIVED_SKIP: usize = 4096;

/// Gives each node of `d` whose children are all skippable a SkipIf that holds when all
/// of them would be skipped (rule 72), so that its parent passes over it as BT.CPP's
/// parent passes over a node that returns SKIPPED. Returns when `d` itself is skipped
/// (as a script), `None` when it never is or when that cannot be told without running it:
/// a node with a Condition, FailureIf or SuccessIf (checked before a skip), a host node,
/// a Precondition or any kind not in [`PASS_SKIPPED`] whose children are skippable.
pub(super) fn derive_skips(d: &mut Draft, parent: Parent) -> Option<String> {
    let inner = if d.kind == "Selector" {
        Parent::Selector
    } else {
        Parent::Other
    };
    let kids: Vec<Option<String>> = d
        .children
        .iter_mut()
        .map(|c| derive_skips(c, inner))
        .collect();
    // A `_skipIf` or `_while` under a Fallback is a Condition that fails the node (the
    // Fallback passes over it): the node is skipped when its test does not pass.
    let skips = |origin: &str| matches!(origin, "_skipIf" | "_while");
    let decided_first = d.decorators.iter().any(|x| !skips(x.origin))
        || d.scripts
            .iter()
            .any(|s| matches!(s.kind, "FailureIf" | "SuccessIf"));
    if decided_first || d.origin.as_deref() == Some("Precondition") {
        return None;
    }
    let mut own: Vec<String> = d
        .decorators
        .iter()
        .map(|x| format!("!({})", x.test.print()))
        .collect();
    own.extend(d.scripts.iter().filter_map(|s| match s.kind {
        "SkipIf" => Some(format!("({})", s.code)),
        "While" => Some(format!("!({})", s.code)),
        _ => None,
    }));
    let passes = d.host.is_none() && PASS_SKIPPED.contains(&d.kind.as_str());
    if passes && !kids.is_empty() && kids.iter().all(Option::is_some) {
        let all: Vec<String> = kids.into_iter().flatten().collect();
        // Each child's condition is one operand already: `(a)`, `!(b)` or `(a || b)`.
        let code = all.join(" && ");
        if code.len() <= MAX_DERIVED_SKIP {
            let at = d
                .scripts
                .iter()
                .take_while(|s| matches!(s.kind, "SkipIf" | "While"))
                .count();
            d.scripts.insert(
                at,
                SDec {
                    kind: "SkipIf",
                    attr: crate::btcpp::meta::DERIVED_SKIP,
                    code: code.clone(),
                    skipped: Some(if parent == Parent::Selector {
                        "failure"
                    } else {
                        "success"
                    }),
                },
            );
            own.push(if all.len() > 1 {
                format!("({code})")
            } else {
                code
            });
        }
    }
    match own.len() {
        0 => None,
        1 => own.pop(),
        _ => Some(format!("({})", own.join(" || "))),
    }
}

/// The decorator parameters of a script decorator.
pub(super) fn params(s: &SDec) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), serde_json::Value::from(s.code.as_str()));
    if let Some(skipped) = s.skipped {
        m.insert("skipped".into(), serde_json::Value::from(skipped));
    }
    m
}
