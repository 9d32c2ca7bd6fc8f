//! The app's side of remote debugging: attaching and detaching, reading the server each
//! frame, and showing the focused instance on the right document: the open one whose tree
//! GUID matches (switching tabs to it), or else a read-only tab of the tree the server
//! sent.

use std::time::Duration;

use std::collections::BTreeMap;

use arbor_runtime::{NodeType, NodeTypes, ParamKind, ParamSpec};
use serde_json::Value;

use super::ArborApp;
use crate::document::io;
use crate::remote::{Remote, RemoteAction};
use crate::Session;

/// How often the editor reads the server while attached: ticks arrive continuously.
const REFRESH: Duration = Duration::from_millis(33);

/// Which view the bottom panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bottom {
    #[default]
    Preview,
    Remote,
    /// A BehaviorTree.CPP program (app/groot2.rs).
    Groot2,
    /// A log being replayed (app/replay.rs).
    Replay,
}

impl ArborApp {
    /// Connects to a debug server, replacing any earlier attachment.
    pub fn attach_to(&mut self, addr: &str, token: &str) {
        if let Some(parsed) = crate::remote::groot2::Address::parse(addr) {
            match parsed {
                Ok(address) => self.attach_groot2(address),
                Err(e) => self.shared.toasts.error(e),
            }
            return;
        }
        self.groot2 = None;
        let token = Some(token.to_owned()).filter(|t| !t.is_empty());
        self.remote = Some(Remote::connect(addr, token));
        self.remote_followed = None;
        self.bottom = Bottom::Remote;
    }

    /// Closes the connection; the documents and tabs stay.
    pub fn detach(&mut self) {
        if self.remote.take().is_some() | self.groot2.take().is_some() {
            self.shared.toasts.info("Detached");
        }
        self.remote_followed = None;
        self.bottom = Bottom::Preview;
    }

    pub(super) fn remote_action(&mut self, action: Option<RemoteAction>) {
        match action {
            Some(RemoteAction::Connect { addr, token }) => self.attach_to(&addr, &token),
            Some(RemoteAction::Detach) => self.detach(),
            None => {}
        }
    }

    /// Whether the canvas shows the attached instance (its tree is the active document).
    pub fn remote_is_live(&self) -> bool {
        self.remote.as_ref().and_then(Remote::focused_tree)
            == Some(self.session().document().guid())
    }

    /// Once per frame, before drawing.
    pub(super) fn remote_frame(&mut self, ctx: &egui::Context) {
        let Some(remote) = &mut self.remote else {
            return;
        };
        remote.poll();
        let hit = remote.take_hit();
        ctx.request_repaint_after(REFRESH);
        self.follow_focus();
        if let Some(node) = hit.filter(|_| self.remote_is_live()) {
            // As the preview does at a breakpoint: show the node that stopped it.
            self.shared.requests.push(super::Request::Frame(vec![node]));
        }
    }

    /// Brings the focused instance's tree to the front once per change of focus (so the
    /// user can still switch tabs away afterwards).
    fn follow_focus(&mut self) {
        let Some(remote) = &self.remote else {
            return;
        };
        let Some((name, view)) = remote.focused() else {
            return;
        };
        let Some(tree) = &view.tree else {
            return;
        };
        let key = (name.to_owned(), tree.guid.clone());
        if self.remote_followed.as_ref() == Some(&key) {
            return;
        }
        if self.session().document().guid() == tree.guid {
            self.remote_followed = Some(key);
            return;
        }
        if let Some(i) = self
            .tabs
            .iter()
            .position(|t| t.session().document().guid() == tree.guid)
        {
            self.switch_to(i);
            self.remote_followed = Some(key);
            return;
        }
        let Some(file) = &view.file else {
            return; // asked for at subscription; it comes in a moment
        };
        let reason = format!("the tree {name} runs, sent by {}", remote.addr);
        let name = name.to_owned();
        let loaded = io::load_str(&file.to_string(), None);
        match loaded {
            Ok(doc) => {
                let types = stand_in_types(&doc);
                let session = Session::read_only(doc, types, reason);
                self.show_in_tab(session);
                self.shared.toasts.info(format!(
                    "{name} runs a tree that is not open: showing the program's copy, read-only"
                ));
            }
            Err(e) => self
                .shared
                .toasts
                .error(format!("Cannot show the tree {name} runs: {e}")),
        }
        self.remote_followed = Some(key);
    }

    /// Toggles a breakpoint where the canvas's statuses come from.
    pub(super) fn toggle_breakpoint(&mut self, guid: &str) {
        if self.groot2_is_live() {
            if let Some(g) = &mut self.groot2 {
                g.toggle_breakpoint(guid);
            }
            return;
        }
        if self.remote_is_live() {
            if let Some(remote) = &mut self.remote {
                remote.toggle_breakpoint(guid);
            }
        } else {
            self.tab_mut().preview_mut().toggle_breakpoint(guid);
        }
    }
}

/// The built-in node types plus a stand-in for each host type the tree uses: the program's
/// own types are not sent, and a read-only view needs them only to draw the nodes. Each
/// stand-in accepts the parameters its nodes carry, typed from their values and optional,
/// so a tree the program loaded is not shown with invented problems.
fn stand_in_types(doc: &crate::document::Document) -> NodeTypes {
    let builtin = NodeTypes::builtin();
    let mut stand_ins: BTreeMap<&str, BTreeMap<&str, ParamKind>> = BTreeMap::new();
    for node in doc.nodes() {
        if builtin.node(&node.kind).is_some() {
            continue;
        }
        let params = stand_ins.entry(&node.kind).or_default();
        for (name, value) in &node.params {
            let kind = match value {
                Value::Bool(_) => ParamKind::Bool,
                Value::Number(n) if n.is_i64() || n.is_u64() => ParamKind::Int,
                Value::Number(_) => ParamKind::Float,
                _ => ParamKind::String,
            };
            // Nodes disagreeing (an int here, a float there) get the wider kind.
            let merged = match (params.get(name.as_str()), kind) {
                (Some(ParamKind::Float), ParamKind::Int) => ParamKind::Float,
                (_, kind) => kind,
            };
            params.insert(name, merged);
        }
    }
    let mut types = builtin;
    for (kind, params) in stand_ins {
        let mut ty = NodeType::action(kind, "A node type of the attached program.");
        for (name, param) in params {
            let mut spec = ParamSpec::new(name, param, "As set in the program's tree.");
            spec.optional = true;
            ty = ty.param(spec);
        }
        types.insert(ty);
    }
    types
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::io;

    #[test]
    fn stand_ins_accept_the_parameters_their_nodes_carry() {
        let text = serde_json::json!({
            "format": "arbor-tree", "version": 1, "guid": "00000000-0000-4000-8000-000000000000", "name": "t",
            "blackboard": [{"key": "target", "type": "string"}],
            "root": "00000000-0000-4000-8000-00000000000a",
            "nodes": [
                {"guid": "00000000-0000-4000-8000-00000000000a", "name": "go", "type": "Sequence", "children": ["00000000-0000-4000-8000-00000000000b", "00000000-0000-4000-8000-00000000000c"]},
                {"guid": "00000000-0000-4000-8000-00000000000b", "name": "walk", "type": "WalkTo",
                 "params": {"zone": "red", "give_up": 3, "target": "target"}},
                {"guid": "00000000-0000-4000-8000-00000000000c", "name": "walk", "type": "WalkTo",
                 "params": {"zone": "blue", "give_up": 2.5}}
            ]
        })
        .to_string();
        let doc = io::load_str(&text, None).expect("a document");
        let types = stand_in_types(&doc);
        let walk = types.node("WalkTo").expect("a stand-in");
        assert_eq!(
            walk.param_spec("give_up").map(|p| p.kind),
            Some(ParamKind::Float)
        );
        let session = Session::read_only(doc, types, "test");
        let report = session.validate();
        assert!(
            !report.problems.iter().any(|p| p.is_error()),
            "{:?}",
            report.problems
        );
    }
}
