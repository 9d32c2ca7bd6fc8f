//! Three-way merge of a tree: base, ours and theirs, part by part and field by field
//! (parts as in [`super::flat`]).
//!
//! - A field one side changed takes that side's value; both sides making the same change
//!   is one change. Both changing it differently is a [`Conflict`]; the result keeps ours.
//! - A part one side deleted is deleted, unless the other side edited it: then it is kept
//!   (nothing is lost) and that is a conflict. A node counts as edited when its own fields
//!   (its place on the canvas aside), its children, or its decorators changed.
//! - A part both sides added with the same identity (a key both declared) merges its
//!   fields as if the base had it empty.
//! - Membership of lists follows the merged `parent` and `node` fields; their order is
//!   merged by [`super::order`], with a conflict when both sides reordered the same
//!   children (or decorators, keys, notes, groups) differently.
//! - A node whose parent is gone ends unconnected; moves on the two sides that together
//!   would form a cycle leave one node unconnected, as a conflict.
//!
//! Merging disjoint edits gives the same tree whichever side is ours. Linear in the size
//! of the files, plus sorting.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::diff::as_object;
use super::flat::{of_scope, Fields, Flat, List, ListKind, PartId, Scope};
use super::order::merge_order;
use crate::format::{Conflict, TreeFile};

/// Why a merge was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MergeError {
    /// The files are versions of different trees.
    #[error(
        "the files are different trees: {which} has tree GUID {found}, the base has {base}; \
         only versions of one tree (the same `guid`) can be merged"
    )]
    DifferentTrees {
        /// `ours` or `theirs`.
        which: &'static str,
        /// Its tree GUID.
        found: String,
        /// The base's tree GUID.
        base: String,
    },
    /// An input still holds conflicts of an earlier merge.
    #[error("{which} still has {count} merge conflicts; resolve them before merging again")]
    Unresolved {
        /// `base`, `ours` or `theirs`.
        which: &'static str,
        /// How many.
        count: usize,
    },
}

/// Merges `ours` and `theirs`, two versions of `base`. The result's `conflicts` lists
/// what could not be decided (empty for a clean merge).
pub fn merge(base: &TreeFile, ours: &TreeFile, theirs: &TreeFile) -> Result<TreeFile, MergeError> {
    for (which, file) in [("base", base), ("ours", ours), ("theirs", theirs)] {
        if !file.conflicts.is_empty() {
            return Err(MergeError::Unresolved {
                which,
                count: file.conflicts.len(),
            });
        }
    }
    for (which, file) in [("ours", ours), ("theirs", theirs)] {
        if file.guid != base.guid {
            return Err(MergeError::DifferentTrees {
                which,
                found: file.guid.clone(),
                base: base.guid.clone(),
            });
        }
    }
    let (b, o, t) = (Flat::new(base), Flat::new(ours), Flat::new(theirs));
    let mut m = Merge {
        b: &b,
        o: &o,
        t: &t,
        out: Flat {
            guid: base.guid.clone(),
            version: base.version.max(ours.version).max(theirs.version),
            parts: BTreeMap::new(),
            lists: BTreeMap::new(),
        },
        conflicts: Vec::new(),
    };
    m.parts();
    m.detach_orphans();
    m.break_cycles();
    m.lists();
    let mut file = m.out.to_file();
    file.conflicts = m.conflicts;
    Ok(file)
}

struct Merge<'a> {
    b: &'a Flat,
    o: &'a Flat,
    t: &'a Flat,
    out: Flat,
    conflicts: Vec<Conflict>,
}

impl Merge<'_> {
    fn parts(&mut self) {
        let ids: BTreeSet<&PartId> = self
            .b
            .parts
            .keys()
            .chain(self.o.parts.keys())
            .chain(self.t.parts.keys())
            .collect();
        let empty = Fields::new();
        for id in ids {
            let (b, o, t) = (
                self.b.parts.get(id),
                self.o.parts.get(id),
                self.t.parts.get(id),
            );
            let merged = match (b, o, t) {
                (Some(_), None, None) | (None, None, None) => None,
                (None, Some(x), None) | (None, None, Some(x)) => Some(x.clone()),
                (Some(b), Some(o), None) => self.kept(id, b, o, true),
                (Some(b), None, Some(t)) => self.kept(id, b, t, false),
                (None, Some(o), Some(t)) => Some(self.fields(id, &empty, o, t)),
                (Some(b), Some(o), Some(t)) => Some(self.fields(id, b, o, t)),
            };
            if let Some(fields) = merged {
                self.out.parts.insert(id.clone(), fields);
            }
        }
    }

    /// A part one side deleted: gone, unless the other side (`edited`, ours when
    /// `ours_kept`) changed it.
    fn kept(
        &mut self,
        id: &PartId,
        base: &Fields,
        edited: &Fields,
        ours_kept: bool,
    ) -> Option<Fields> {
        let side = if ours_kept { self.o } else { self.t };
        if !self.edited(id, base, edited, side) {
            return None;
        }
        let (kept, gone) = if ours_kept {
            ("ours", "theirs")
        } else {
            ("theirs", "ours")
        };
        let value = Some(as_object(edited));
        self.conflicts.push(Conflict {
            scope: id.scope.as_str().to_owned(),
            id: id.id.clone(),
            field: String::new(),
            message: format!("deleted on {gone}, edited on {kept}; kept as {kept} edited it"),
            base: Some(as_object(base)),
            ours: if ours_kept { value.clone() } else { None },
            theirs: if ours_kept { None } else { value },
        });
        Some(edited.clone())
    }

    /// Whether `side` changed part `id` from `base`: its fields (a node's position
    /// aside), and for a node its children and decorators.
    fn edited(&self, id: &PartId, base: &Fields, fields: &Fields, side: &Flat) -> bool {
        let own = |f: &Fields| {
            f.iter()
                .filter(|(k, _)| !(id.scope == Scope::Node && *k == "position"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect::<Vec<_>>()
        };
        if own(base) != own(fields) {
            return true;
        }
        if id.scope != Scope::Node {
            return false;
        }
        let list = |flat: &Flat, kind| {
            flat.lists
                .get(&(id.clone(), kind))
                .cloned()
                .unwrap_or_default()
        };
        let decorators = list(side, ListKind::Decorators);
        list(self.b, ListKind::Children) != list(side, ListKind::Children)
            || list(self.b, ListKind::Decorators) != decorators
            || decorators.iter().any(|d| {
                let d = PartId::new(Scope::Decorator, d.clone());
                self.b.parts.get(&d) != side.parts.get(&d)
            })
    }

    /// Field by field: one side's change wins, the same change on both is one change,
    /// different changes conflict and keep ours.
    fn fields(&mut self, id: &PartId, b: &Fields, o: &Fields, t: &Fields) -> Fields {
        let names: BTreeSet<&String> = b.keys().chain(o.keys()).chain(t.keys()).collect();
        let mut out = Fields::new();
        for name in names {
            let (vb, vo, vt) = (b.get(name), o.get(name), t.get(name));
            let chosen = if vo == vt || vt == vb {
                vo
            } else if vo == vb {
                vt
            } else {
                self.conflicts.push(Conflict {
                    scope: id.scope.as_str().to_owned(),
                    id: id.id.clone(),
                    field: name.clone(),
                    message: field_message(id.scope, name).to_owned(),
                    base: vb.cloned(),
                    ours: vo.cloned(),
                    theirs: vt.cloned(),
                });
                vo
            };
            if let Some(v) = chosen {
                out.insert(name.clone(), v.clone());
            }
        }
        out
    }

    /// Nodes whose parent did not survive the merge are left unconnected, and decorators
    /// whose node did not are dropped (a node with an edited decorator counts as edited,
    /// so this only drops decorators nobody changed).
    fn detach_orphans(&mut self) {
        let gone = |out: &Flat, id: &PartId, field: &str| {
            out.parts.get(id).and_then(|f| f.get(field)).is_some() && out.owner(id, field).is_none()
        };
        let orphans: Vec<PartId> = of_scope(&self.out.parts, Scope::Node)
            .filter(|(id, _)| gone(&self.out, id, "parent"))
            .map(|(id, _)| id.clone())
            .collect();
        for id in orphans {
            if let Some(f) = self.out.parts.get_mut(&id) {
                f.remove("parent");
            }
        }
        let dropped: Vec<PartId> = of_scope(&self.out.parts, Scope::Decorator)
            .filter(|(id, _)| gone(&self.out, id, "node"))
            .map(|(id, _)| id.clone())
            .collect();
        for id in dropped {
            self.out.parts.remove(&id);
        }
    }

    /// Moves that are each fine alone but form a cycle together (ours puts A under B,
    /// theirs B under A): one node of each cycle, one whose parent is not ours', is left
    /// unconnected, as a conflict. Each node is walked once.
    fn break_cycles(&mut self) {
        let parent: HashMap<String, String> = of_scope(&self.out.parts, Scope::Node)
            .filter_map(|(id, f)| {
                let p = f.get("parent")?.as_str()?;
                Some((id.id.clone(), p.to_owned()))
            })
            .collect();
        // 0 unvisited, 1 on the current walk, 2 done.
        let mut state: HashMap<&str, u8> = HashMap::new();
        let mut cut = Vec::new();
        let mut starts: Vec<&String> = parent.keys().collect();
        starts.sort();
        for start in starts {
            let mut walk = Vec::new();
            let mut at = Some(start.as_str());
            while let Some(g) = at {
                match state.get(g).copied().unwrap_or(0) {
                    0 => {
                        state.insert(g, 1);
                        walk.push(g);
                        at = parent.get(g).map(String::as_str);
                    }
                    1 => {
                        let from = walk.iter().position(|w| *w == g).unwrap_or(0);
                        let ring = &walk[from..];
                        let ours_parent = |n: &str| {
                            self.o
                                .parts
                                .get(&PartId::new(Scope::Node, n))
                                .and_then(|f| f.get("parent"))
                                .and_then(Value::as_str)
                                .map(str::to_owned)
                        };
                        let pick = ring
                            .iter()
                            .find(|n| {
                                ours_parent(n).as_deref() != parent.get(**n).map(String::as_str)
                            })
                            .unwrap_or(&ring[0]);
                        cut.push((*pick).to_owned());
                        break;
                    }
                    _ => break,
                }
            }
            for g in walk {
                state.insert(g, 2);
            }
        }
        for g in cut {
            let id = PartId::new(Scope::Node, g);
            let ours = self.o.parts.get(&id).and_then(|f| f.get("parent")).cloned();
            let theirs = self.t.parts.get(&id).and_then(|f| f.get("parent")).cloned();
            let base = self.b.parts.get(&id).and_then(|f| f.get("parent")).cloned();
            if let Some(f) = self.out.parts.get_mut(&id) {
                f.remove("parent");
            }
            self.conflicts.push(Conflict {
                scope: "node".to_owned(),
                id: id.id,
                field: "parent".to_owned(),
                message: "the moves on the two sides put these nodes under each other; the \
                          node is left unconnected"
                    .to_owned(),
                base,
                ours,
                theirs,
            });
        }
    }

    /// Every list's order, for the members the merged parts give it.
    fn lists(&mut self) {
        let members = self.out.members();
        let mut keys: BTreeSet<&List> = members.keys().collect();
        keys.extend(self.b.lists.keys());
        keys.extend(self.o.lists.keys());
        keys.extend(self.t.lists.keys());
        let empty_set = BTreeSet::new();
        let mut lists = BTreeMap::new();
        for key in keys {
            let keep = members.get(key).unwrap_or(&empty_set);
            if keep.is_empty() {
                continue;
            }
            let (b, o, t) = (
                list_of(self.b, key),
                list_of(self.o, key),
                list_of(self.t, key),
            );
            let (order, conflict) = merge_order(b, o, t, keep);
            if conflict && key.1 != ListKind::Nodes {
                let list = |l: &[String]| Some(Value::from(l.to_vec()));
                self.conflicts.push(Conflict {
                    scope: key.0.scope.as_str().to_owned(),
                    id: key.0.id.clone(),
                    field: list_field(key.1).to_owned(),
                    message: "reordered differently on both sides; kept in our order".to_owned(),
                    base: list(b),
                    ours: list(o),
                    theirs: list(t),
                });
            }
            lists.insert(key.clone(), order);
        }
        self.out.lists = lists;
    }
}

fn list_of<'f>(flat: &'f Flat, key: &List) -> &'f [String] {
    flat.lists.get(key).map_or(&[][..], Vec::as_slice)
}

fn list_field(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Children => "children",
        ListKind::Decorators => "decorators",
        ListKind::Keys => "blackboard",
        ListKind::Notes => "editor.notes",
        ListKind::Groups => "editor.groups",
        ListKind::Nodes => "nodes",
    }
}

fn field_message(scope: Scope, field: &str) -> &'static str {
    match (scope, field) {
        (Scope::Node, "parent") => {
            "moved to different places on the two sides; kept where ours put it"
        }
        (Scope::Decorator, "node") => {
            "attached to different nodes on the two sides; kept where ours put it"
        }
        _ => "changed differently on the two sides; kept ours",
    }
}
