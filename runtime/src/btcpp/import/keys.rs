//! Pass 3 of the import: blackboard keys. Every `{key}` a tree uses becomes a declared key
//! of that tree; its type comes from the literals it meets (a Script's `:=`, a
//! comparison, a model port's C++ type), `json` when they disagree or there are none.
//! Keys connected by a SubTree remapping are one variable, so they get one type: Arbor's
//! loader requires equal types on both sides of a `remap`.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::hosts::cpp_type;
use super::{blackboard_ref, Doc, Draft, Importer, ParamValue};
use crate::format::KeyDecl;
use crate::value::ValueType;

/// Per tree: the keys it uses in first-use order, and the types their literals suggest.
struct KeyUses {
    keys: Vec<Vec<String>>,
    types: Vec<HashMap<String, Vec<ValueType>>>,
    /// The main tree, whose keys `@name` names from any tree (rule 70).
    main: usize,
    /// `@name` used in another tree: that tree declares `name` too (for the file opened on
    /// its own, where `@name` is its own key), of one type with the main tree's.
    root_pairs: Vec<RemapPair>,
    /// `root_pairs` as a set: checking the list for each use made many uses quadratic.
    root_pairs_seen: HashSet<RemapPair>,
}

impl KeyUses {
    fn new(trees: usize, main: usize) -> KeyUses {
        KeyUses {
            keys: vec![Vec::new(); trees],
            types: vec![HashMap::new(); trees],
            main,
            root_pairs: Vec::new(),
            root_pairs_seen: HashSet::new(),
        }
    }

    /// Records a use of `key` in tree `t`, with the type the use suggests if it suggests one.
    /// `@name` is the main tree's key `name` (BT.CPP creates it in the root blackboard).
    fn add(&mut self, t: usize, key: &str, ty: Option<ValueType>) {
        if let Some(bare) = key.strip_prefix('@').filter(|b| !b.is_empty()) {
            self.add_own(self.main, bare, ty);
            if t != self.main {
                self.add_own(t, bare, ty);
                let pair = (self.main, bare.to_owned(), t, bare.to_owned());
                if self.root_pairs_seen.insert(pair.clone()) {
                    self.root_pairs.push(pair);
                }
            }
            return;
        }
        self.add_own(t, key, ty);
    }

    fn add_own(&mut self, t: usize, key: &str, ty: Option<ValueType>) {
        let keys = &mut self.keys[t];
        let entry = self.types[t].entry(key.to_owned()).or_insert_with(|| {
            keys.push(key.to_owned());
            Vec::new()
        });
        if let Some(ty) = ty {
            entry.push(ty);
        }
    }

    /// The declared key a tree's key reference is: `@name` is the main tree's `name`.
    fn canonical(&self, t: usize, key: &str) -> (usize, String) {
        match key.strip_prefix('@').filter(|b| !b.is_empty()) {
            Some(bare) => (self.main, bare.to_owned()),
            None => (t, key.to_owned()),
        }
    }
}

/// Keys connected by a SubTree remapping: (parent tree, parent key, subtree, subtree key).
type RemapPair = (usize, String, usize, String);

impl Importer<'_> {
    /// Declares every key each tree uses, typed.
    pub(super) fn declare_keys(&mut self, doc: &Doc, drafts: &mut [Draft]) -> Vec<Vec<KeyDecl>> {
        let mut uses = self.collect_uses(doc, drafts);
        let pairs = self.follow_autoremaps(&mut uses);
        self.remap_autoremapped_keys(drafts, &uses);
        let decls = self.typed_decls(&uses, &pairs);
        self.warn_about_differing_defaults(doc);
        decls
    }

    /// Every key each tree uses: in its nodes' parameters and attached decorators, in the
    /// SubTree calls that set it, and in the subtree's model ports.
    fn collect_uses(&self, doc: &Doc, drafts: &[Draft]) -> KeyUses {
        let mut uses = KeyUses::new(drafts.len(), doc.main);
        for (t, draft) in drafts.iter().enumerate() {
            draft.walk(&mut |d| {
                for (name, p) in &d.params {
                    self.param_uses(d, name, p, &mut |key, ty| uses.add(t, key, ty));
                }
                for dec in &d.decorators {
                    let ty = dec.test.value.value_type();
                    uses.add(t, &dec.test.key, Some(ty));
                }
                for s in &d.scripts {
                    let tested = !matches!(s.kind, "OnSuccess" | "OnFailure" | "OnHalted" | "Post");
                    for (key, ty) in self.script_key_uses(&s.code, tested) {
                        uses.add(t, &key, ty);
                    }
                }
            });
        }
        // Keys a SubTree call sets must exist in the subtree (BT.CPP allows remapping a
        // port the subtree never reads; Arbor's loader refuses an undeclared one).
        for c in &self.calls {
            for (sub_key, _) in &c.remap {
                uses.add(c.sub, sub_key, None);
            }
        }
        for (&sub, defaults) in &self.sub_defaults {
            for (key, lits) in defaults {
                for lit in lits {
                    uses.add(sub, key, Some(lit.value_type()));
                }
            }
        }
        // Subtree models declare ports (keys) too.
        for (t, tree) in doc.trees.iter().enumerate() {
            if let Some(m) = self.models.get(&tree.id) {
                for p in &m.ports {
                    uses.add(t, &p.name, p.ty.as_deref().map(cpp_type));
                }
            }
        }
        uses
    }

    /// The keys parameter `name` = `p` of node `d` uses, each with the type it suggests:
    /// Increment's `by`, a typed literal, or the C++ type of a model port.
    fn param_uses(
        &self,
        d: &Draft,
        name: &str,
        p: &ParamValue,
        add: &mut impl FnMut(&str, Option<ValueType>),
    ) {
        match p {
            ParamValue::Key(k) => {
                let ty = match (d.kind.as_str(), name) {
                    ("Increment", _) => Some(match d.params.iter().find(|(n, _)| n == "by") {
                        Some((_, ParamValue::Json(v))) if v.is_i64() => ValueType::Int,
                        _ => ValueType::Float,
                    }),
                    // A Loop's element, of its BT.CPP ID's type.
                    ("Loop", "value") => Some(super::loop_element(d).value_type()),
                    _ => None,
                };
                add(k, ty);
            }
            ParamValue::Typed { lit, key } => add(key, Some(lit.value_type())),
            ParamValue::Port(raw) => {
                if let Some(k) = blackboard_ref(raw) {
                    let ty = d
                        .host
                        .as_ref()
                        .and_then(|h| self.models.get(h))
                        .and_then(|m| m.port(name))
                        .and_then(|p| p.ty.as_deref())
                        .map(cpp_type);
                    add(k, ty);
                }
            }
            ParamValue::Remap(pairs) => {
                for (_, parent_key) in pairs {
                    add(parent_key, None);
                }
            }
            ParamValue::Bind(k) => {
                // Counts and BT.CPP's milliseconds are integers (a json key could not be
                // bound to them); a copied value takes the key's other uses.
                let ty = if d.kind == "Loop" {
                    // A Loop's queue: a list of its elements.
                    Some(ValueType::List(super::loop_element(d)))
                } else {
                    matches!(name, "count" | "attempts" | "seconds").then_some(ValueType::Int)
                };
                add(k, ty)
            }
            ParamValue::Script(code) => {
                for (key, ty) in self.script_key_uses(code, d.kind == "ScriptCondition") {
                    add(&key, ty);
                }
            }
            ParamValue::Json(_) | ParamValue::Path(_) => {}
        }
    }

    /// The remapping pairs of every SubTree call. `_autoremap` makes every key of the
    /// subtree the parent's key of the same name; this is repeated until nothing changes,
    /// so that keys travel up chains of autoremapped subtrees whatever the order of the
    /// calls.
    fn follow_autoremaps(&self, uses: &mut KeyUses) -> Vec<RemapPair> {
        let mut pairs: Vec<RemapPair> = uses.root_pairs.clone();
        for c in &self.calls {
            for (s, p) in &c.remap {
                let (pt, pk) = uses.canonical(c.parent, p);
                pairs.push((pt, pk, c.sub, s.clone()));
            }
        }
        loop {
            let mut changed = false;
            for c in self.calls.iter().filter(|c| c.autoremap) {
                for key in uses.keys[c.sub].clone() {
                    let explicit = c.remap.iter().any(|(s, _)| *s == key);
                    let pair = (c.parent, key.clone(), c.sub, key.clone());
                    if explicit || pairs.contains(&pair) {
                        continue;
                    }
                    uses.add(c.parent, &key, None);
                    pairs.push(pair);
                    changed = true;
                }
            }
            if !changed {
                return pairs;
            }
        }
    }

    /// Writes the autoremapped keys into the drafts' `remap` explicitly: Arbor's Subtree
    /// only shares what `remap` names.
    fn remap_autoremapped_keys(&self, drafts: &mut [Draft], uses: &KeyUses) {
        for (t, draft) in drafts.iter_mut().enumerate() {
            let autos: Vec<(usize, &[String])> = self
                .calls
                .iter()
                .filter(|c| c.parent == t && c.autoremap)
                .map(|c| (c.sub, uses.keys[c.sub].as_slice()))
                .collect();
            if autos.is_empty() {
                continue;
            }
            let ids = &self.tree_index;
            draft.walk_mut(&mut |d| {
                if d.kind != "Subtree" || !d.kept.contains_key("_autoremap") {
                    return;
                }
                let sub = d.params.iter().find_map(|(n, p)| match p {
                    ParamValue::Path(id) if n == "path" => ids.get(id.as_str()).copied(),
                    _ => None,
                });
                let Some(&(_, sub_keys)) = sub.and_then(|s| autos.iter().find(|(a, _)| *a == s))
                else {
                    return;
                };
                for (n, p) in &mut d.params {
                    if let (true, ParamValue::Remap(remap)) = (n == "remap", p) {
                        for key in sub_keys {
                            if !remap.iter().any(|(s, _)| s == key)
                                && !d.literal_ports.contains(key)
                            {
                                remap.push((key.clone(), key.clone()));
                            }
                        }
                    }
                }
            });
        }
    }

    /// Each tree's key declarations, typed. Remapped keys are one variable, so they get one
    /// type: the types suggested anywhere in their class, unified.
    fn typed_decls(&self, uses: &KeyUses, pairs: &[RemapPair]) -> Vec<Vec<KeyDecl>> {
        let mut uf = UnionFind::default();
        for (pt, pk, st, sk) in pairs {
            uf.union((*pt, pk.clone()), (*st, sk.clone()));
        }
        let mut class_types: HashMap<(usize, String), Vec<ValueType>> = HashMap::new();
        for (t, map) in uses.types.iter().enumerate() {
            for (k, tys) in map {
                let root = uf.find((t, k.clone()));
                class_types
                    .entry(root)
                    .or_default()
                    .extend(tys.iter().copied());
            }
        }
        let mut decls: Vec<Vec<KeyDecl>> = Vec::with_capacity(uses.keys.len());
        for (t, tree_keys) in uses.keys.iter().enumerate() {
            let mut list = Vec::new();
            for k in tree_keys {
                let root = uf.find((t, k.to_owned()));
                let ty = unify(class_types.get(&root).map(Vec::as_slice).unwrap_or(&[]));
                let default = self
                    .sub_defaults
                    .get(&t)
                    .and_then(|d| d.get(k))
                    .and_then(|lits| lits.first())
                    .map(|lit| lit.to_json(ty));
                list.push(KeyDecl {
                    key: k.clone(),
                    ty,
                    default,
                    description: String::new(),
                    unknown: BTreeMap::new(),
                });
            }
            decls.push(list);
        }
        decls
    }

    /// A warning for each subtree key that SubTree calls give different literal values:
    /// a tree file has one default per key, so the first one is kept.
    fn warn_about_differing_defaults(&mut self, doc: &Doc) {
        for (&sub, defaults) in &self.sub_defaults {
            for (key, lits) in defaults {
                if lits.windows(2).any(|w| w[0] != w[1]) {
                    let t = &doc.trees[sub];
                    let message = format!(
                        "SubTree calls give `{key}` of `{}` different literal values; Arbor \
                         keeps one default per subtree file, the first ({})",
                        t.id,
                        lits[0].text()
                    );
                    self.warnings.push(t.root.problem(&t.origin, message));
                }
            }
        }
    }
}

/// One type for literals seen with a key: their common type, float for ints and floats,
/// `json` when they disagree or none were seen.
fn unify(types: &[ValueType]) -> ValueType {
    let mut it = types.iter().copied();
    let Some(mut ty) = it.next() else {
        return ValueType::Json;
    };
    for t in it {
        ty = match (ty, t) {
            (a, b) if a == b => a,
            (ValueType::Int, ValueType::Float) | (ValueType::Float, ValueType::Int) => {
                ValueType::Float
            }
            _ => return ValueType::Json,
        };
    }
    ty
}

/// Union-find over (tree, key) pairs.
#[derive(Default)]
struct UnionFind {
    parent: HashMap<(usize, String), (usize, String)>,
}

impl UnionFind {
    fn find(&mut self, x: (usize, String)) -> (usize, String) {
        let mut root = x.clone();
        while let Some(p) = self.parent.get(&root) {
            if *p == root {
                break;
            }
            root = p.clone();
        }
        // Path compression keeps chains short for trees with many subtrees.
        let mut cur = x;
        while cur != root {
            let next = self
                .parent
                .get(&cur)
                .cloned()
                .unwrap_or_else(|| root.clone());
            self.parent.insert(cur, root.clone());
            cur = next;
        }
        root
    }

    fn union(&mut self, a: (usize, String), b: (usize, String)) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_types_unify() {
        use ValueType::*;
        assert_eq!(unify(&[]), Json);
        assert_eq!(unify(&[Int, Int]), Int);
        assert_eq!(unify(&[Int, Float]), Float);
        assert_eq!(unify(&[Bool, String]), Json);
    }
}
