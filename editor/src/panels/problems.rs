//! Problems panel: the validation report (errors red, warnings yellow), each with its
//! message and the node it concerns; clicking one asks the app to select and frame that
//! node. The report comes from the runtime's own checks ([`crate::Session::validate`]), so
//! what is listed here is exactly what would stop the tree from loading.

use arbor_runtime::Problem;
use egui::{RichText, Ui};

use crate::app::{Request, UiCx};
use crate::document::Document;

/// See the module documentation.
#[derive(Debug, Default)]
pub struct ProblemsPanel {}

/// The node a problem concerns: the node itself, or the node a decorator is attached to
/// (problems name decorators by their own GUID).
pub fn problem_node(doc: &Document, problem: &Problem) -> Option<String> {
    let guid = problem.node.as_deref()?;
    if doc.contains(guid) {
        return Some(guid.to_owned());
    }
    doc.nodes()
        .find(|n| n.decorators.iter().any(|d| d.guid == guid))
        .map(|n| n.guid.clone())
}

impl ProblemsPanel {
    pub fn ui(&mut self, ui: &mut Ui, cx: &mut UiCx<'_>) {
        let problems = &cx.report.problems;
        let errors = problems.iter().filter(|p| p.is_error()).count();
        let warnings = problems.len() - errors;
        ui.horizontal(|ui| {
            ui.heading(format!("Problems ({})", problems.len()));
            if errors > 0 {
                ui.colored_label(
                    ui.visuals().error_fg_color,
                    format!("{errors} error{}", if errors == 1 { "" } else { "s" }),
                );
            }
            if warnings > 0 {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!("{warnings} warning{}", if warnings == 1 { "" } else { "s" }),
                );
            }
        });
        if problems.is_empty() {
            ui.weak("No problems");
            return;
        }
        let mut frame = None;
        for p in problems {
            let node = problem_node(cx.session.document(), p);
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
            let place = match (&p.node_label, &node) {
                (Some(label), _) => Some(label.clone()),
                (None, Some(guid)) => Some(cx.session.document().label(guid)),
                // Whole-file problems say where in the JSON instead.
                (None, None) if p.json_path != "$" && !p.json_path.is_empty() => {
                    Some(p.json_path.clone())
                }
                (None, None) => None,
            };
            if let Some(place) = place {
                RichText::new(format!("  {place}")).weak().append_to(
                    &mut text,
                    ui.style(),
                    egui::FontSelection::Default,
                    egui::Align::Center,
                );
            }
            let r = ui.add(egui::SelectableLabel::new(false, text));
            match node {
                Some(guid) => {
                    if r.on_hover_text("Show on the canvas").clicked() {
                        frame = Some(guid);
                    }
                }
                None => {
                    r.on_hover_text(p.to_string());
                }
            }
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
