//! Problems panel: the validation report (errors red, warnings yellow), each with its
//! message and the node it concerns; clicking one asks the app to select and frame that
//! node. The report comes from the runtime's own checks ([`crate::Session::validate`]), so
//! what is listed here is exactly what would stop the tree from loading.

use crate::i18n::t;

use std::collections::HashMap;

use egui::{RichText, Ui};

use crate::view::{Request, UiCx, View};
use crate::words;

/// Rows drawn at most: a tree with thousands of problems lists the first ones (fixing
/// them usually fixes the rest) instead of laying out every row in every frame.
const MAX_ROWS: usize = 200;

/// See the module documentation.
#[derive(Debug, Default)]
pub struct ProblemsPanel {
    /// The node and place of each problem, worked out once per report: the document's
    /// lookups are linear, and a frame must not cost problems × nodes.
    rows: Vec<Row>,
    /// The document generation of the report the rows were built from.
    built_for: Option<u64>,
}

#[derive(Debug)]
struct Row {
    node: Option<String>,
    place: Option<String>,
}

impl ProblemsPanel {
    fn rows(&mut self, cx: &UiCx<'_>) {
        if cx.checked.is_some() && self.built_for == cx.checked {
            return;
        }
        let doc = cx.session.document();
        // Every node and decorator GUID to the node it belongs to (problems name decorators
        // by their own GUID), and that node's label.
        let mut owners: HashMap<&str, (&str, &str)> = HashMap::new();
        for n in doc.nodes() {
            let label = if n.name.is_empty() { &n.kind } else { &n.name };
            owners.entry(&n.guid).or_insert((&n.guid, label));
            for d in &n.decorators {
                owners.entry(&d.guid).or_insert((&n.guid, label));
            }
        }
        self.rows = cx
            .report
            .problems
            .iter()
            .map(|p| {
                let owner = p.node.as_deref().and_then(|g| owners.get(g));
                let place = match (&p.node_label, owner) {
                    (Some(label), _) => Some(label.clone()),
                    (None, Some((_, label))) => Some((*label).to_owned()),
                    // Whole-file problems say where in the JSON instead.
                    (None, None) if p.json_path != "$" && !p.json_path.is_empty() => {
                        Some(p.json_path.clone())
                    }
                    (None, None) => None,
                };
                Row {
                    node: owner.map(|(g, _)| (*g).to_owned()),
                    place,
                }
            })
            .collect();
        self.built_for = cx.checked;
    }
}

impl View for ProblemsPanel {
    fn ui(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        self.rows(cx);
        let problems = &cx.report.problems;
        let errors = problems.iter().filter(|p| p.is_error()).count();
        let warnings = problems.len() - errors;
        ui.horizontal(|ui| {
            ui.heading(format!("{} ({})", t("Problems"), problems.len()));
            if errors > 0 {
                ui.colored_label(ui.visuals().error_fg_color, words::count(errors, "error"));
            }
            if warnings > 0 {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    words::count(warnings, "warning"),
                );
            }
        });
        if problems.is_empty() {
            ui.weak(t("No problems"));
            return;
        }
        let mut frame = None;
        for (p, row) in problems.iter().zip(&self.rows).take(MAX_ROWS) {
            let (icon, color) = if p.is_error() {
                ("⛔", ui.visuals().error_fg_color)
            } else {
                ("⚠", ui.visuals().warn_fg_color)
            };
            let mut text = egui::text::LayoutJob::default();
            RichText::new(format!("{icon} {}", p.message()))
                .color(color)
                .append_to(
                    &mut text,
                    ui.style(),
                    egui::FontSelection::Default,
                    egui::Align::Center,
                );
            if let Some(place) = &row.place {
                RichText::new(format!("  {place}")).weak().append_to(
                    &mut text,
                    ui.style(),
                    egui::FontSelection::Default,
                    egui::Align::Center,
                );
            }
            let r = ui.add(egui::Button::selectable(false, text));
            match &row.node {
                Some(guid) => {
                    if r.on_hover_text(t("Show on the canvas")).clicked() {
                        frame = Some(guid.clone());
                    }
                }
                None => {
                    r.on_hover_text(p.to_string());
                }
            }
        }
        if problems.len() > MAX_ROWS {
            ui.weak(format!(
                "… and {} more: fix these first, the list follows",
                problems.len() - MAX_ROWS
            ));
        }
        if let Some(guid) = frame {
            cx.requests.push(Request::Frame(vec![guid]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::sample;
    use crate::panels::testing::{central, Harness};
    use crate::Session;

    #[test]
    fn lists_problems_and_clicking_one_frames_its_node() {
        let (doc, [.., e]) = sample();
        let mut h = Harness::new(Session::new(doc));
        let mut panel = ProblemsPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        let report = h.session.validate();
        assert!(h.shows(&format!("Problems ({})", report.problems.len())));
        let unconnected = report
            .for_node(&e)
            .find(|p| p.message().contains("not connected"))
            .expect("the Log is unconnected");
        let row = h
            .text_rect_starting(&format!("⚠ {}", unconnected.message()))
            .center();
        h.click_at(row, &mut draw);
        assert_eq!(h.requests, [Request::Frame(vec![e.clone()])]);
    }

    #[test]
    fn says_so_when_there_are_none() {
        let mut s = Session::default();
        let root = s.add_node("Log", [0.0, 0.0]).unwrap();
        let set = crate::commands::SetRoot::new(s.document(), Some(&root)).unwrap();
        s.apply(set).unwrap();
        let cmd = crate::commands::SetParam::new(
            s.document(),
            crate::document::Owner::Node(root),
            "message",
            Some("hi".into()),
        )
        .unwrap();
        s.apply(cmd).unwrap();
        assert!(s.validate().problems.is_empty(), "{:?}", s.validate());
        let mut h = Harness::new(s);
        let mut panel = ProblemsPanel::default();
        let mut draw = central(|ui, cx| panel.ui(ui, cx));
        h.settle(&mut draw);
        assert!(h.shows("Problems (0)") && h.shows("No problems"));
    }
}
