//! Three-way merge of one ordered list (a node's children, its decorators, the blackboard,
//! the notes): which elements it holds is decided elsewhere (by the merged `parent` and
//! `node` fields); this decides their order.
//!
//! The elements all three versions hold keep the order of the side that reordered them;
//! when both sides reordered them differently, that is a conflict and ours wins. Elements
//! one side added go after the element that precedes them on that side (at the front
//! when none does). Linear in the lists' lengths.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::diff::common;

/// The merged order of `keep`, and whether both sides reordered the common elements in
/// different ways.
pub(crate) fn merge_order(
    base: &[String],
    ours: &[String],
    theirs: &[String],
    keep: &BTreeSet<String>,
) -> (Vec<String>, bool) {
    let in_ours: HashSet<&String> = ours.iter().collect();
    let all: Vec<String> = common(base, theirs)
        .into_iter()
        .filter(|g| in_ours.contains(g))
        .cloned()
        .collect();
    let (b, o, t) = (common(base, &all), common(ours, &all), common(theirs, &all));
    let (ours_moved, theirs_moved) = (o != b, t != b);
    let conflict = ours_moved && theirs_moved && o != t;
    let (skeleton, other) = if theirs_moved && !ours_moved {
        (theirs, ours)
    } else {
        (ours, theirs)
    };
    let mut placed: HashSet<&str> = HashSet::new();
    let spine: Vec<&String> = skeleton
        .iter()
        .filter(|g| keep.contains(*g) && placed.insert(g.as_str()))
        .collect();
    // Elements of `other` not on the spine hang after their nearest placed predecessor
    // in `other` ("" for the front); one inserted after another hangs after it.
    let mut after: HashMap<&str, Vec<&String>> = HashMap::new();
    let mut previous = "";
    for g in other {
        if !keep.contains(g) {
            continue;
        }
        if placed.insert(g.as_str()) {
            after.entry(previous).or_default().push(g);
        }
        previous = g.as_str();
    }
    let mut out = Vec::with_capacity(keep.len());
    hang_after("", &mut out, &mut after);
    for g in spine {
        out.push(g.clone());
        hang_after(g, &mut out, &mut after);
    }
    out.extend(
        keep.iter()
            .filter(|g| !placed.contains(g.as_str()))
            .cloned(),
    );
    (out, conflict)
}

/// Emits what hangs after `at`, each element followed by what hangs after it.
fn hang_after<'a>(at: &str, out: &mut Vec<String>, after: &mut HashMap<&'a str, Vec<&'a String>>) {
    let mut stack: Vec<&String> = after.remove(at).unwrap_or_default();
    stack.reverse();
    while let Some(g) = stack.pop() {
        out.push(g.clone());
        if let Some(list) = after.remove(g.as_str()) {
            stack.extend(list.into_iter().rev());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    fn merged(b: &str, o: &str, t: &str, keep: &str) -> (String, bool) {
        let keep: BTreeSet<String> = v(keep).into_iter().collect();
        let (out, conflict) = merge_order(&v(b), &v(o), &v(t), &keep);
        (out.join(" "), conflict)
    }

    #[test]
    fn one_side_reordering_wins() {
        assert_eq!(
            merged("a b c", "a b c", "c b a", "a b c"),
            ("c b a".into(), false)
        );
        assert_eq!(
            merged("a b c", "c b a", "a b c", "a b c"),
            ("c b a".into(), false)
        );
    }

    #[test]
    fn both_sides_reordering_the_same_way_is_clean() {
        assert_eq!(
            merged("a b c", "c b a", "c b a", "a b c"),
            ("c b a".into(), false)
        );
    }

    #[test]
    fn both_sides_reordering_differently_conflicts_and_keeps_ours() {
        assert_eq!(
            merged("a b c", "c a b", "b c a", "a b c"),
            ("c a b".into(), true)
        );
    }

    #[test]
    fn additions_follow_their_predecessor_on_their_side() {
        assert_eq!(
            merged("a b", "a b", "a x y b", "a b x y"),
            ("a x y b".into(), false)
        );
        assert_eq!(
            merged("a b", "a b", "x a b", "a b x"),
            ("x a b".into(), false)
        );
        assert_eq!(
            merged("a b", "c b a", "a b x", "a b c x"),
            ("c b x a".into(), false)
        );
    }

    #[test]
    fn removed_elements_are_left_out() {
        assert_eq!(
            merged("a b c", "a c", "c b a", "a c"),
            ("c a".into(), false)
        );
    }
}
