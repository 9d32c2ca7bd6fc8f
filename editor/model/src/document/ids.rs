//! GUID regeneration for pasted, duplicated and exported fragments.
//!
//! Invariant: one old GUID maps to exactly one new GUID, however many places mention it
//! (the node itself, its parent's `children`, `positions`, group `members`), so internal
//! connections survive and nothing points outside the fragment by accident. Nodes,
//! decorators, notes and groups share the GUID namespace, as in the runtime's checks.

use std::collections::HashMap;

use arbor_runtime::format::new_guid;

use super::clipboard::Fragment;

/// Old GUID -> new GUID, consistent for the lifetime of the map.
pub struct GuidMap<'g> {
    map: HashMap<String, String>,
    generate: Box<dyn FnMut() -> String + 'g>,
}

impl Default for GuidMap<'_> {
    fn default() -> Self {
        GuidMap::new()
    }
}

impl<'g> GuidMap<'g> {
    /// A map that draws fresh random (v4) GUIDs.
    pub fn new() -> GuidMap<'static> {
        GuidMap::with_generator(new_guid)
    }

    /// A map with a custom generator (tests use a counter to get readable GUIDs).
    pub fn with_generator(generate: impl FnMut() -> String + 'g) -> GuidMap<'g> {
        GuidMap {
            map: HashMap::new(),
            generate: Box::new(generate),
        }
    }

    /// The new GUID for `old`, drawn on first use.
    pub fn map(&mut self, old: &str) -> String {
        if let Some(new) = self.map.get(old) {
            return new.clone();
        }
        let new = (self.generate)();
        self.map.insert(old.to_owned(), new.clone());
        new
    }

    /// The new GUID for `old` if it has been mapped, without drawing one.
    pub fn get(&self, old: &str) -> Option<&str> {
        self.map.get(old).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// A copy of `fragment` with every node, decorator, note and group GUID replaced through
/// `map`; `children`, `positions` and group `members` follow. A member or child that is
/// not in the fragment (impossible for a checked fragment) is dropped rather than left
/// pointing at a node of another tree.
pub fn regenerate(fragment: &Fragment, map: &mut GuidMap<'_>) -> Fragment {
    let mut out = fragment.clone();
    // Map nodes first so that children and members can tell inside from outside.
    for node in &mut out.nodes {
        node.guid = map.map(&node.guid);
    }
    for node in &mut out.nodes {
        node.children = node
            .children
            .iter()
            .filter_map(|c| map.get(c).map(str::to_owned))
            .collect();
        for d in &mut node.decorators {
            d.guid = map.map(&d.guid);
        }
    }
    out.positions = fragment
        .positions
        .iter()
        .filter_map(|(g, p)| Some((map.get(g)?.to_owned(), *p)))
        .collect();
    for note in &mut out.notes {
        note.guid = map.map(&note.guid);
    }
    for group in &mut out.groups {
        group.members = group
            .members
            .iter()
            .filter_map(|m| map.get(m).map(str::to_owned))
            .collect();
        group.guid = map.map(&group.guid);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::editor_data::{Group, Note};
    use arbor_runtime::format::{DecoratorDef, NodeDef};

    #[test]
    fn maps_consistently_and_freshly() {
        let mut n = 0;
        let mut map = GuidMap::with_generator(|| {
            n += 1;
            format!("new-{n}")
        });
        assert_eq!(map.map("a"), "new-1");
        assert_eq!(map.map("b"), "new-2");
        assert_eq!(map.map("a"), "new-1");
        assert_eq!(map.get("b"), Some("new-2"));
        assert_eq!(map.get("c"), None);
        assert_eq!(map.len(), 2);
    }

    #[test]
    fn default_generator_draws_valid_distinct_uuids() {
        let mut map = GuidMap::new();
        let (a, b) = (map.map("a"), map.map("b"));
        assert_ne!(a, b);
        assert!(uuid::Uuid::parse_str(&a).is_ok());
    }

    #[test]
    fn regenerate_renames_everything_and_keeps_links() {
        let mut parent = NodeDef::new("Sequence");
        let child = NodeDef::new("Wait");
        parent.children.push(child.guid.clone());
        parent.decorators.push(DecoratorDef::new("Inverter"));
        let mut frag = Fragment::default();
        frag.positions.insert(child.guid.clone(), [1.0, 2.0]);
        frag.notes.push(Note {
            guid: "note".into(),
            ..Note::default()
        });
        frag.groups.push(Group {
            guid: "group".into(),
            members: vec![parent.guid.clone(), "outside".into()],
            ..Group::default()
        });
        frag.nodes = vec![parent.clone(), child.clone()];

        let mut map = GuidMap::new();
        let out = regenerate(&frag, &mut map);
        let new_parent = map.get(&parent.guid).unwrap().to_owned();
        let new_child = map.get(&child.guid).unwrap().to_owned();
        assert_eq!(out.nodes[0].guid, new_parent);
        assert_eq!(out.nodes[0].children, std::slice::from_ref(&new_child));
        assert_ne!(out.nodes[0].decorators[0].guid, parent.decorators[0].guid);
        assert_eq!(out.positions[&new_child], [1.0, 2.0]);
        assert_ne!(out.notes[0].guid, "note");
        assert_eq!(out.groups[0].members, [new_parent]);
        let old: std::collections::HashSet<String> =
            [parent.guid, child.guid, "note".into(), "group".into()].into();
        assert!(out.nodes.iter().all(|n| !old.contains(&n.guid)));
    }
}
