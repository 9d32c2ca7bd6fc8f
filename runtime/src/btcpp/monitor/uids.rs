//! [`MonitoredTree`]: the tree a BT.CPP program reports about itself, imported, with the
//! way back from BT.CPP's node UIDs to the imported nodes.
//!
//! The Groot2 publisher and the file logger both describe the tree with BT.CPP's
//! `WriteTreeToXML(tree, true, true)`: one `<BehaviorTree>` per subtree *instance* (a
//! subtree used twice appears twice, with the same `ID` and different `_fullpath`), and
//! every node with its `_uid`, the number statuses and transitions name it by. Importing
//! keeps `_`-attributes in the tree file's `editor.btcpp.attributes` (meta.rs), so the map
//! UID -> GUID is read back from there; the `<SubTree>` node itself has a UID too.
//!
//! Before importing, a tree ID that appears more than once gets the instance's UID as a
//! suffix (`Deliver` used by `<SubTree _uid="7">` becomes `Deliver_7`), in its
//! `<BehaviorTree>` and in the `<SubTree>` whose `_fullpath` matches, so each instance is
//! its own file and its nodes keep their own UIDs.

use std::collections::{BTreeMap, HashMap};

use super::super::import::{import_str, ImportOptions, Imported};
use super::super::meta::Meta;
use super::super::{xml, ImportError};

/// One `<BehaviorTree>` of the report: an instance of a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeInstance {
    /// The name the Groot2 publisher knows its blackboard by: the instance's full path
    /// (`Deliver::7`), or the tree ID for the main tree.
    pub blackboard: String,
    /// The imported file holding it (an index into `Imported::files`).
    pub file: usize,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct MonitoredTree {
    /// The program's tree, imported (one Arbor tree per BT.CPP subtree instance).
    pub imported: Imported,
    /// BT.CPP node UID -> the imported node's GUID.
    pub nodes: HashMap<u16, String>,
    /// Every tree instance of the report (the main tree and each subtree use), in its order.
    pub instances: Vec<TreeInstance>,
}

impl MonitoredTree {
    /// Imports the XML a program reported (`origin` names it in messages).
    pub fn import(xml_text: &str, stem: &str, origin: &str) -> Result<MonitoredTree, ImportError> {
        let text = split_instances(xml_text, origin)?;
        let mut options = ImportOptions::new(stem);
        options.origin = origin.to_owned();
        let imported = import_str(&text, &options)?;
        let mut nodes = HashMap::new();
        let mut instances = Vec::new();
        for (i, file) in imported.files.iter().enumerate() {
            let meta = Meta::read(&file.tree);
            for (guid, attrs) in &meta.attributes {
                if let Some(uid) = attrs.get("_uid").and_then(|u| u.parse::<u16>().ok()) {
                    nodes.insert(uid, guid.clone());
                }
            }
            let path = meta
                .tree_attributes
                .get("_fullpath")
                .filter(|p| !p.is_empty());
            instances.push(TreeInstance {
                blackboard: path.cloned().unwrap_or_else(|| meta.id.clone()),
                file: i,
            });
        }
        Ok(MonitoredTree {
            imported,
            nodes,
            instances,
        })
    }

    /// The imported node of a UID, if the report had it.
    pub fn guid(&self, uid: u16) -> Option<&str> {
        self.nodes.get(&uid).map(String::as_str)
    }

    /// The blackboard names to ask the Groot2 publisher for, `;`-separated as it expects.
    pub fn blackboard_request(&self) -> String {
        let names: Vec<&str> = self
            .instances
            .iter()
            .map(|i| i.blackboard.as_str())
            .collect();
        names.join(";")
    }
}

/// See the module documentation: gives each instance of a repeated tree ID its own ID.
fn split_instances(text: &str, origin: &str) -> Result<String, ImportError> {
    // The import's own parser first: it refuses hostile nesting before roxmltree recurses.
    xml::parse(text, origin).map_err(|p| ImportError { problems: vec![p] })?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..roxmltree::ParsingOptions::default()
    };
    let Ok(doc) = roxmltree::Document::parse_with_options(text, options) else {
        return Ok(text.to_owned()); // the import reports it, located
    };
    let trees: Vec<roxmltree::Node> = doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("BehaviorTree"))
        .collect();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &trees {
        *count.entry(t.attribute("ID").unwrap_or("")).or_default() += 1;
    }
    // Byte offsets where a suffix goes (the end of an ID attribute's value).
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for t in &trees {
        let (Some(id), Some(path)) = (t.attribute_node("ID"), t.attribute("_fullpath")) else {
            continue;
        };
        if path.is_empty() || count.get(id.value()).copied().unwrap_or(0) < 2 {
            continue;
        }
        let suffix = format!("_{}", path.rsplit("::").next().unwrap_or(path));
        inserts.push((id.range_value().end, suffix.clone()));
        let subtree = doc
            .descendants()
            .find(|n| n.has_tag_name("SubTree") && n.attribute("_fullpath") == Some(path));
        if let Some(sub_id) = subtree.and_then(|n| n.attribute_node("ID")) {
            inserts.push((sub_id.range_value().end, suffix));
        }
    }
    inserts.sort_by_key(|i| std::cmp::Reverse(i.0));
    let mut out = text.to_owned();
    for (at, suffix) in inserts {
        out.insert_str(at, &suffix);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As BT.CPP's WriteTreeToXML reports a tree that uses one subtree twice.
    const REPORT: &str = r#"<root BTCPP_format="4">
    <BehaviorTree ID="Main" _fullpath="">
        <Sequence name="both" _uid="1">
            <SubTree ID="Go" _fullpath="Go::2" _uid="2"/>
            <SubTree ID="Go" _fullpath="Go::4" _uid="4"/>
        </Sequence>
    </BehaviorTree>
    <BehaviorTree ID="Go" _fullpath="Go::2">
        <AlwaysSuccess name="step" _uid="3"/>
    </BehaviorTree>
    <BehaviorTree ID="Go" _fullpath="Go::4">
        <AlwaysSuccess name="step" _uid="5"/>
    </BehaviorTree>
</root>"#;

    #[test]
    fn every_uid_finds_its_node_and_each_instance_is_its_own_tree() {
        let tree = MonitoredTree::import(REPORT, "prog", "<groot2>").expect("imported");
        assert_eq!(tree.imported.files.len(), 3);
        assert_eq!(tree.nodes.len(), 5);
        let main = tree.imported.main();
        let root = main.root.clone().expect("a root");
        assert_eq!(tree.guid(1), Some(root.as_str()));
        for uid in [3, 5] {
            let guid = tree.guid(uid).expect("mapped");
            let owner = tree
                .imported
                .files
                .iter()
                .position(|f| f.tree.nodes.iter().any(|n| n.guid == guid))
                .expect("in a file");
            assert_ne!(owner, 0);
        }
        assert_ne!(
            tree.imported.files[1].tree_id,
            tree.imported.files[2].tree_id
        );
        assert_eq!(tree.blackboard_request(), "Main;Go::2;Go::4");
    }

    #[test]
    fn a_report_that_is_not_xml_is_a_located_error() {
        let err = MonitoredTree::import("<root><BehaviorTree", "p", "<groot2>").expect_err("bad");
        assert_eq!(err.problems[0].origin, "<groot2>");
    }
}
