//! Property: merging two sets of edits that touch disjoint parts of a tree is clean, and
//! gives the same tree whichever side is "ours".
//!
//! Trees and edits come from a seeded generator (one seed for the base, one for the
//! edits), so a failing case is reproduced by its two numbers. An edit *touches* the parts
//! whose fields or child lists it changes; a move also touches the moved branch and every
//! ancestor of its new parent (otherwise two moves, each into the other's branch, would
//! form a cycle: a conflict, not a disjoint edit).

use std::collections::{HashMap, HashSet};

use arbor_runtime::format::{DecoratorDef, NodeDef, TreeFile};
use arbor_runtime::merge::merge;
use proptest::prelude::*;
use serde_json::json;

use super::cases::{file, node, remove, reparent};
use crate::common::guid;

/// splitmix64: small, seeded, good enough to pick edits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random tree of 3 to 14 nodes (each a child of an earlier one) and three keys.
fn random_base(rng: &mut Rng) -> TreeFile {
    let n = 3 + rng.below(12);
    let mut nodes: Vec<serde_json::Value> = Vec::new();
    let mut children: Vec<Vec<String>> = vec![Vec::new(); n + 1];
    for i in 2..=n {
        let parent = 1 + rng.below(i - 1);
        children[parent].push(guid(i));
    }
    for (i, kids) in children.iter().enumerate().skip(1) {
        nodes.push(json!({
            "guid": guid(i), "name": format!("n{i}"), "type": "Sequence",
            "params": {"p": i}, "children": kids
        }));
    }
    file(json!({
        "format": "arbor-tree", "version": 3, "guid": guid(0), "name": "random",
        "blackboard": [{"key": "k0", "type": "int", "default": 0},
                       {"key": "k1", "type": "int", "default": 1},
                       {"key": "k2", "type": "int", "default": 2}],
        "root": guid(1), "nodes": nodes
    }))
}

fn parents(f: &TreeFile) -> HashMap<String, String> {
    f.nodes
        .iter()
        .flat_map(|n| n.children.iter().map(|c| (c.clone(), n.guid.clone())))
        .collect()
}

fn ancestors(f: &TreeFile, g: &str) -> Vec<String> {
    let p = parents(f);
    let mut out = vec![g.to_owned()];
    let mut at = g.to_owned();
    while let Some(up) = p.get(&at) {
        out.push(up.clone());
        at = up.clone();
    }
    out
}

fn branch(f: &TreeFile, g: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![g.to_owned()];
    while let Some(x) = stack.pop() {
        if let Some(n) = f.nodes.iter().find(|n| n.guid == x) {
            stack.extend(n.children.iter().cloned());
        }
        out.push(x);
    }
    out
}

fn number(g: &str) -> usize {
    g.rsplit('-')
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Applies up to four random edits to `side` that touch nothing in `avoid`; returns what
/// they touched. `fresh` numbers the nodes and decorators this side adds.
fn edit(
    base: &TreeFile,
    side: &mut TreeFile,
    rng: &mut Rng,
    avoid: &HashSet<String>,
    fresh: usize,
) -> HashSet<String> {
    let mut touched = HashSet::new();
    let mut fresh = fresh;
    for _ in 0..1 + rng.below(4) {
        let all: Vec<String> = side.nodes.iter().map(|n| n.guid.clone()).collect();
        let pick = all[rng.below(all.len())].clone();
        let n = number(&pick);
        let mut touch: Vec<String> = vec![pick.clone()];
        let kind = rng.below(8);
        // What the edit touches, judged on the base and on this side as it is now.
        match kind {
            3 => touch.extend(parents(side).get(&pick).cloned()),
            4 => {
                let to = all[rng.below(all.len())].clone();
                if branch(side, &pick).contains(&to) || branch(base, &pick).contains(&to) || n == 1
                {
                    continue;
                }
                touch.extend(branch(side, &pick));
                touch.extend(branch(base, &pick));
                touch.extend(parents(side).get(&pick).cloned());
                touch.extend(ancestors(side, &to));
                touch.extend(ancestors(base, &to));
                let key = touch.iter().any(|t| avoid.contains(t));
                if key {
                    continue;
                }
                reparent(side, n, number(&to));
                touched.extend(touch);
                continue;
            }
            6 => touch = vec![format!("key:k{}", n % 3)],
            _ => {}
        }
        if touch.iter().any(|t| avoid.contains(t)) {
            continue;
        }
        match kind {
            0 => node(side, n).name = format!("renamed {fresh}"),
            1 => {
                node(side, n).params.insert("p".into(), json!(fresh));
            }
            2 => {
                let mut child = NodeDef::new("Wait");
                child.guid = guid(fresh);
                side.nodes.push(child);
                node(side, n).children.push(guid(fresh));
            }
            3 => {
                if n == 1 || !node(side, n).children.is_empty() {
                    continue;
                }
                remove(side, n);
            }
            5 => node(side, n).children.reverse(),
            6 => side.blackboard[n % 3].default = Some(json!(fresh)),
            _ => {
                let mut d = DecoratorDef::new("Inverter");
                d.guid = guid(fresh);
                node(side, n).decorators.push(d);
            }
        }
        fresh += 1;
        touched.extend(touch);
    }
    touched
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn merging_disjoint_edits_is_clean_and_the_same_from_either_side(
        tree_seed in any::<u64>(),
        edit_seed in any::<u64>(),
    ) {
        let base = random_base(&mut Rng(tree_seed));
        let mut rng = Rng(edit_seed);
        let (mut ours, mut theirs) = (base.clone(), base.clone());
        let touched = edit(&base, &mut ours, &mut rng, &HashSet::new(), 1000);
        edit(&base, &mut theirs, &mut rng, &touched, 2000);
        let one = merge(&base, &ours, &theirs).expect("one tree");
        let other = merge(&base, &theirs, &ours).expect("one tree");
        prop_assert!(one.conflicts.is_empty(), "{:?}", one.conflicts);
        prop_assert_eq!(&one, &other);
        arbor_runtime::check_shape(&one, None).map_err(|e| TestCaseError::fail(e.to_string()))?;
    }
}
