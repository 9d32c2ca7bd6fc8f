//! Problems panel: the validation report (errors red, warnings yellow), each with its
//! message and the node it concerns; clicking one asks the app to select and frame that
//! node. The report comes from the runtime's own checks ([`crate::Session::validate`]), so
//! what is listed here is exactly what would stop the tree from loading.
//!
//! The panel is drawn every frame, the report changes only with the document: each row's
//! text (the escaped message, the place, the full located problem for its tooltip) is
//! made once per report, and a row scrolled out of sight takes its measured place without
//! being laid out.

use std::collections::HashMap;

use egui::{Rect, RichText, Ui, Vec2};

use crate::view::{Request, UiCx, View};
use crate::words;

/// Rows drawn at most: a tree with thousands of problems lists the first ones (fixing
/// them usually fixes the rest) instead of laying out every row in every frame.
const MAX_ROWS: usize = 200;

/// See the module documentation.
#[derive(Debug, Default)]
pub struct ProblemsPanel {
    /// The text, node and place of each problem, worked out once per report: the document's
    /// lookups are linear, and a frame must not cost problems × nodes.
    rows: Vec<Row>,
    /// The document generation of the report the rows were built from.
    built_for: Option<u64>,
    /// The width the rows' sizes were measured at: at another width they wrap differently.
    measured_at: Option<f32>,
}

#[derive(Debug)]
struct Row {
    error: bool,
    /// The icon and the message, control characters escaped.
    message: String,
    /// Where, after the message: the node's label, or the JSON path of a whole-file problem.
    place: Option<String>,
    /// The node to frame on a click.
    node: Option<String>,
    /// The located problem, the tooltip of a row without a node.
    located: Option<String>,
    /// The row's size when it was last laid out at [`ProblemsPanel::measured_at`].
    size: Option<Vec2>,
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
            .take(MAX_ROWS)
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
                let icon = if p.is_error() { "⛔" } else { "⚠" };
                Row {
                    error: p.is_error(),
                    message: format!("{icon} {}", p.message()),
                    place: place.map(|place| format!("  {place}")),
                    node: owner.map(|(g, _)| (*g).to_owned()),
                    located: owner.is_none().then(|| p.to_string()),
                    size: None,
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
            ui.heading(format!("Problems ({})", problems.len()));
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
            ui.weak("No problems");
            return;
        }
        let width = ui.available_width();
        if self.measured_at != Some(width) {
            self.measured_at = Some(width);
            self.rows.iter_mut().for_each(|row| row.size = None);
        }
        let mut frame = None;
        for row in &mut self.rows {
            // Out of sight (scrolled away), a measured row only takes its place: allocating
            // the same size moves the cursor and the automatic ids exactly as the row would.
            if let Some(size) = row.size {
                if !ui.is_rect_visible(Rect::from_min_size(ui.cursor().min, size)) {
                    ui.allocate_space(size);
                    continue;
                }
            }
            let color = if row.error {
                ui.visuals().error_fg_color
            } else {
                ui.visuals().warn_fg_color
            };
            let mut text = egui::text::LayoutJob::default();
            RichText::new(row.message.as_str()).color(color).append_to(
                &mut text,
                ui.style(),
                egui::FontSelection::Default,
                egui::Align::Center,
            );
            if let Some(place) = &row.place {
                RichText::new(place.as_str()).weak().append_to(
                    &mut text,
                    ui.style(),
                    egui::FontSelection::Default,
                    egui::Align::Center,
                );
            }
            let r = ui.add(egui::Button::selectable(false, text));
            row.size = Some(r.rect.size());
            match (&row.node, &row.located) {
                (Some(guid), _) => {
                    if r.on_hover_text("Show on the canvas").clicked() {
                        frame = Some(guid.clone());
                    }
                }
                (None, located) => {
                    r.on_hover_text(located.as_deref().unwrap_or_default());
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

    /// In a scrolled list, rows out of sight are not laid out but keep their place: the
    /// list is as tall in every frame as in the first (every row laid out), and the last
    /// row, scrolled into view, is drawn and frames its node when clicked.
    #[test]
    fn rows_out_of_sight_keep_their_place_and_come_back_when_scrolled_to() {
        let mut s = Session::default();
        for i in 0..40 {
            s.add_node("Log", [0.0, f64::from(i) * 60.0]).unwrap();
        }
        let report = s.validate();
        assert!(report.problems.len() > 40, "{report:?}");
        let last_node = report.problems.last().and_then(|p| p.node.clone());
        let mut h = Harness::new(s);
        let mut panel = ProblemsPanel::default();
        let offset = std::cell::Cell::new(0.0f32);
        let heights = std::cell::RefCell::new(Vec::new());
        let mut draw = central(|ui, cx| {
            egui::ScrollArea::vertical()
                .max_height(200.0)
                .vertical_scroll_offset(offset.get())
                .show(ui, |ui| {
                    panel.ui(ui, cx);
                    heights.borrow_mut().push(ui.min_rect().height());
                });
        });
        h.settle(&mut draw);
        let full = heights.borrow()[0];
        assert!(full > 1_000.0, "{full}");
        // To the end of the list.
        offset.set(full - 200.0);
        h.settle(&mut draw);
        let heights = heights.borrow().clone();
        assert!(heights.iter().all(|&x| x == heights[0]), "{heights:?}");
        let lowest = h
            .painted
            .iter()
            .filter(|p| p.text.starts_with('⚠') || p.text.starts_with('⛔'))
            .max_by(|a, b| a.rect.min.y.total_cmp(&b.rect.min.y))
            .expect("rows in view")
            .rect
            .center();
        h.click_at(lowest, &mut draw);
        assert_eq!(
            h.requests,
            [Request::Frame(vec![last_node.expect("a node")])]
        );
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
