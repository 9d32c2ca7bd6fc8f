//! The egui_node_editor side of the canvas: the type parameters of its graph and how one
//! node draws. A node's data (`NodeView`) is derived from the document on every resync;
//! nothing here is the source of truth.
//!
//! While drawing, each node records its content rect and the rows of its two ports into
//! `CanvasState::rects`: egui_node_editor keeps port positions private, and the canvas needs
//! them to highlight the running path, measure nodes for the tidy layout, and to let tests
//! aim at ports.

use crate::i18n::t;

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use arbor_runtime::{Category, Direction, Status};
use egui::{Color32, RichText};
use egui_node_editor as eng;
use eng::NodeId;

use crate::compare::{MarkKind, NodeMark};
use crate::document::Color;
use crate::live::{status_color, NodeLive};
use crate::view::diff_colors::{mark_color, MOVED};
use arbor_viewer::category_color;
use arbor_viewer::palette::live_fill;

pub type GraphState = eng::GraphEditorState<NodeView, Port, NoValue, NoTemplate, CanvasState>;
pub type Graph = eng::Graph<NodeView, Port, NoValue>;
pub type Response = eng::NodeResponse<CanvasResponse, NodeView>;

/// What a node shows, derived from the document.
#[derive(Clone, Debug, Default)]
pub struct NodeView {
    pub guid: String,
    pub kind: String,
    /// `None` for a type no declaration knows.
    pub category: Option<Category>,
    /// Depth-first execution index, for nodes reached from the root.
    pub index: Option<usize>,
    pub is_root: bool,
    /// A few `param = value` lines.
    pub summary: Vec<String>,
    /// Attached decorators, top first: a one-line label and what the decorator aborts.
    pub decorators: Vec<(String, Option<AbortMark>)>,
    /// Validation errors and warnings for this node.
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    /// Switched off, itself or through an ancestor (semantics rule 79): greyed out.
    pub disabled: bool,
}

/// What an attached condition aborts when it changes (its `abort` parameter), drawn as a
/// small badge in the node's decorator band.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbortMark {
    /// `Self`: the node it is attached to (and what runs below it).
    Own,
    /// `LowerPriority`: the later siblings that are running instead.
    Lower,
    /// `Both`.
    Both,
}

impl AbortMark {
    /// Reads an `abort` parameter's value (`None` for "None" and unknown values).
    pub fn parse(abort: &str) -> Option<AbortMark> {
        match abort {
            "Self" => Some(AbortMark::Own),
            "LowerPriority" => Some(AbortMark::Lower),
            "Both" => Some(AbortMark::Both),
            _ => None,
        }
    }

    /// The badge's letter; arrows are drawn beside it (↓ into the node itself, ↑ out to
    /// lower-priority siblings), as shapes, since egui's default fonts lack some arrows.
    fn letter(self) -> &'static str {
        match self {
            AbortMark::Own => "S",
            AbortMark::Lower => "L",
            AbortMark::Both => "B",
        }
    }

    fn help(self) -> &'static str {
        match self {
            AbortMark::Own => "Aborts Self: when the condition turns false, the node it is attached to stops",
            AbortMark::Lower => "Aborts LowerPriority: when the condition turns true, a lower-priority sibling that is running stops so this node can run",
            AbortMark::Both => "Aborts Both: Self and LowerPriority",
        }
    }
}

/// Where a node and its ports were drawn this frame (screen coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawnNode {
    pub content: egui::Rect,
    pub input_y: Option<f32>,
    pub output_y: Option<f32>,
    /// Horizontal margin between the content and the node's edge, where ports sit.
    pub margin: f32,
}

impl DrawnNode {
    /// The node's outer rect.
    pub fn rect(&self) -> egui::Rect {
        self.content
            .expand2(egui::vec2(self.margin, self.margin / 3.0))
    }

    pub fn input_port(&self) -> Option<egui::Pos2> {
        self.input_y
            .map(|y| egui::pos2(self.content.left() - self.margin, y))
    }

    pub fn output_port(&self) -> Option<egui::Pos2> {
        self.output_y
            .map(|y| egui::pos2(self.content.right() + self.margin, y))
    }
}

/// View state the node widgets read and write while drawing.
#[derive(Default)]
pub struct CanvasState {
    /// Preview state of visible nodes, by GUID.
    pub live: HashMap<String, NodeLive>,
    /// The preview is running a tree: unvisited nodes are drawn dim.
    pub preview_active: bool,
    pub breakpoints: HashSet<String>,
    /// Nodes an abort condition of the selected node can interrupt.
    pub influence: HashSet<String>,
    /// Nodes that read or write the blackboard key selected in the blackboard panel, and
    /// how (a node that does both, or through several parameters, is `InOut`).
    pub key_users: HashMap<String, Direction>,
    /// Matches of the find bar, outlined.
    pub found: BTreeSet<String>,
    /// The marks of a comparison shown over the document: outlined in their colour, with
    /// a badge that says what differs.
    pub compare: Option<Arc<HashMap<String, NodeMark>>>,
    /// Filled while drawing.
    pub drawn: HashMap<NodeId, DrawnNode>,
    pub zoom: f32,
}

/// The one port type: a parent's `children` output connects to a child's `parent` input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Port;

impl eng::DataTypeTrait<CanvasState> for Port {
    /// Transparent: the library would paint connections over the nodes; the canvas paints
    /// wires and ports itself (wires.rs). Its ports still turn white under the pointer.
    fn data_type_color(&self, _: &mut CanvasState) -> Color32 {
        Color32::TRANSPARENT
    }

    fn name(&self) -> Cow<'_, str> {
        Cow::Borrowed("flow")
    }
}

/// Ports carry no inline value.
#[derive(Clone, Debug, Default)]
pub struct NoValue;

impl eng::WidgetValueTrait for NoValue {
    type Response = CanvasResponse;
    type UserState = CanvasState;
    type NodeData = NodeView;

    fn value_widget(
        &mut self,
        _: &str,
        node: NodeId,
        ui: &mut egui::Ui,
        state: &mut CanvasState,
        view: &NodeView,
    ) -> Vec<CanvasResponse> {
        input_row(ui, node, state, view);
        Vec::new()
    }

    fn value_widget_connected(
        &mut self,
        _: &str,
        node: NodeId,
        ui: &mut egui::Ui,
        state: &mut CanvasState,
        view: &NodeView,
    ) -> Vec<CanvasResponse> {
        input_row(ui, node, state, view);
        Vec::new()
    }
}

/// The row of the `parent` port: no port name (the port's place says it), the node's type
/// and category instead, elided to the node's width.
fn input_row(ui: &mut egui::Ui, node: NodeId, state: &mut CanvasState, view: &NodeView) {
    let before = ui.min_rect().bottom();
    let kind_text = match view.category {
        Some(c) => format!("{} · {}", view.kind, c.as_str()),
        None => format!("{} · unknown type", view.kind),
    };
    let r = ui.add(
        egui::Label::new(
            RichText::new(kind_text)
                .small()
                .color(category_color(view.category).gamma_multiply(1.8)),
        )
        .truncate(),
    );
    // A row of at least 15 points (room for the port beside small text); the library
    // puts the port in the middle of the row, and so does the canvas, which draws it.
    let short = before + 15.0 - r.rect.bottom();
    if short > 0.0 {
        ui.add_space(short);
    }
    let after = ui.min_rect().bottom();
    state
        .drawn
        .entry(node)
        .or_insert_with(|| empty_drawn(r.rect))
        .input_y = Some((before + after) / 2.0);
}

fn empty_drawn(rect: egui::Rect) -> DrawnNode {
    DrawnNode {
        content: rect,
        input_y: None,
        output_y: None,
        margin: 0.0,
    }
}

/// Nodes are added through Arbor's own palette, never egui_node_editor's finder, so there
/// are no templates; the type exists because the library requires one.
#[derive(Clone, Copy, Debug)]
pub struct NoTemplate;

impl eng::NodeTemplateTrait for NoTemplate {
    type NodeData = NodeView;
    type DataType = Port;
    type ValueType = NoValue;
    type UserState = CanvasState;
    type CategoryType = &'static str;

    fn node_finder_label(&self, _: &mut CanvasState) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn node_graph_label(&self, _: &mut CanvasState) -> String {
        String::new()
    }

    fn user_data(&self, _: &mut CanvasState) -> NodeView {
        NodeView::default()
    }

    fn build_node(&self, _: &mut Graph, _: &mut CanvasState, _: NodeId) {}
}

/// The (empty) template list handed to egui_node_editor.
pub struct NoTemplates;

impl eng::NodeTemplateIter for NoTemplates {
    type Item = NoTemplate;

    fn all_kinds(&self) -> Vec<NoTemplate> {
        Vec::new()
    }
}

/// Node widgets' own responses.
#[derive(Clone, Debug, PartialEq)]
pub enum CanvasResponse {
    /// Open the file of this Subtree node.
    OpenSubtree(String),
}

impl eng::UserResponseTrait for CanvasResponse {}

/// The colour of a note or group.
pub fn fill(color: Color) -> Color32 {
    match color {
        Color::Yellow => Color32::from_rgb(236, 206, 110),
        Color::Blue => Color32::from_rgb(110, 160, 226),
        Color::Green => Color32::from_rgb(120, 196, 130),
        Color::Red => Color32::from_rgb(222, 120, 110),
        Color::Purple => Color32::from_rgb(176, 136, 220),
        Color::Gray => Color32::from_rgb(170, 170, 170),
    }
}

/// The header of a node that does not run because it or an ancestor is disabled.
pub const DISABLED_HEADER: Color32 = Color32::from_gray(62);
/// The "off" badge of a disabled node.
const DISABLED_TEXT: Color32 = Color32::from_gray(175);

/// The outline of a node the find bar matched.
pub const FOUND_COLOR: Color32 = Color32::from_rgb(250, 210, 70);

impl eng::NodeDataTrait for NodeView {
    type Response = CanvasResponse;
    type UserState = CanvasState;
    type DataType = Port;
    type ValueType = NoValue;

    fn top_bar_ui(
        &self,
        ui: &mut egui::Ui,
        _: NodeId,
        _: &Graph,
        state: &mut CanvasState,
    ) -> Vec<Response> {
        if let Some(index) = self.index {
            ui.label(
                RichText::new(format!("#{index}"))
                    .small()
                    .color(Color32::from_gray(200)),
            )
            .on_hover_text(t(
                "Execution order: the n-th node a depth-first tick visits",
            ));
        }
        if self.is_root {
            ui.label(
                RichText::new(t("root"))
                    .small()
                    .strong()
                    .color(Color32::from_rgb(250, 220, 120)),
            );
        }
        if self.disabled {
            ui.label(
                RichText::new(t("off"))
                    .small()
                    .strong()
                    .color(DISABLED_TEXT),
            )
            .on_hover_text(
                "Disabled: this branch runs as if it were absent (Enable in the context menu)",
            );
        }
        if state.breakpoints.contains(&self.guid) {
            dot(ui, Color32::from_rgb(230, 60, 60)).on_hover_text(t(
                "Breakpoint: the preview pauses when this node enters (F9)",
            ));
        }
        if let Some(mark) = state.compare.as_ref().and_then(|m| m.get(&self.guid)) {
            compare_badges(ui, mark);
        }
        Vec::new()
    }

    fn output_ui(
        &self,
        ui: &mut egui::Ui,
        node: NodeId,
        _: &Graph,
        state: &mut CanvasState,
        _: &str,
    ) -> Vec<Response> {
        // No port name: a thin row for the `children` port, just under the `parent` one.
        let before = ui.min_rect().bottom();
        let height = ui.text_style_height(&egui::TextStyle::Small) * 0.6;
        let (r, _) = ui.allocate_exact_size(egui::vec2(1.0, height), egui::Sense::hover());
        let after = ui.min_rect().bottom().max(r.bottom());
        state
            .drawn
            .entry(node)
            .or_insert_with(|| empty_drawn(r))
            .output_y = Some((before + after) / 2.0);
        Vec::new()
    }

    fn bottom_ui(
        &self,
        ui: &mut egui::Ui,
        node: NodeId,
        _: &Graph,
        state: &mut CanvasState,
    ) -> Vec<Response> {
        let mut responses = Vec::new();
        let live = state.live.get(&self.guid);
        // Parameters, one `key = value` line each, cut to the node's width (the full
        // line on hover).
        for line in &self.summary {
            ui.add(egui::Label::new(RichText::new(line).small().monospace()).truncate())
                .on_hover_text(line);
        }
        if !self.decorators.is_empty() {
            decorator_band(ui, &self.decorators, live);
        }
        if let Some(status) = live.and_then(|l| l.status) {
            let text = if live.is_some_and(|l| l.aborted) {
                "aborted".to_owned()
            } else {
                status.to_string()
            };
            ui.horizontal(|ui| {
                dot(ui, status_color(status));
                ui.label(
                    RichText::new(text)
                        .small()
                        .strong()
                        .color(status_color(status)),
                );
            });
        }
        if !self.errors.is_empty() {
            ui.label(
                RichText::new(format!("⚠ {}", first_line(&self.errors)))
                    .small()
                    .color(Color32::from_rgb(240, 90, 90)),
            )
            .on_hover_text(self.errors.join("\n"));
        } else if !self.warnings.is_empty() {
            ui.label(
                RichText::new(format!("⚠ {}", first_line(&self.warnings)))
                    .small()
                    .color(Color32::from_rgb(220, 180, 60)),
            )
            .on_hover_text(self.warnings.join("\n"));
        }
        if self.category == Some(Category::Subtree) && ui.small_button(t("Open subtree")).clicked()
        {
            responses.push(eng::NodeResponse::User(CanvasResponse::OpenSubtree(
                self.guid.clone(),
            )));
        }
        // The whole content rect, now that everything is laid out.
        let margin = 15.0 * state.zoom.max(0.01);
        let content = ui.min_rect();
        let drawn = state
            .drawn
            .entry(node)
            .or_insert_with(|| empty_drawn(content));
        drawn.content = content;
        drawn.margin = margin;
        if let Some(access) = state.key_users.get(&self.guid) {
            let color = match access {
                Direction::In => Color32::from_rgb(90, 200, 120),
                Direction::Out => Color32::from_rgb(240, 160, 60),
                Direction::InOut => Color32::from_rgb(190, 120, 240),
            };
            ui.painter().rect_stroke(
                content.expand(margin * 0.9),
                6.0,
                egui::Stroke::new(2.5, color),
                egui::StrokeKind::Middle,
            );
        }
        if let Some(mark) = state.compare.as_ref().and_then(|m| m.get(&self.guid)) {
            ui.painter().rect_stroke(
                content.expand(margin * 1.3),
                8.0,
                egui::Stroke::new(3.0, mark_color(mark.kind)),
                egui::StrokeKind::Middle,
            );
        }
        if state.found.contains(&self.guid) {
            ui.painter().rect_stroke(
                content.expand(margin * 1.1),
                7.0,
                egui::Stroke::new(3.0, FOUND_COLOR),
                egui::StrokeKind::Middle,
            );
        }
        if self.disabled {
            // Greyed out over everything the node drew: it does not run.
            ui.painter()
                .rect_filled(content.expand(margin), 6.0, Color32::from_black_alpha(130));
        }
        if state.influence.contains(&self.guid) {
            ui.painter().rect_stroke(
                content.expand(margin * 0.8),
                6.0,
                egui::Stroke::new(2.0, Color32::from_rgb(120, 190, 255)),
                egui::StrokeKind::Middle,
            );
        }
        responses
    }

    /// Nodes are deleted with Delete or the canvas's menus, not a small cross on each one.
    fn can_delete(&self, _: NodeId, _: &Graph, _: &mut CanvasState) -> bool {
        false
    }

    fn titlebar_color(
        &self,
        _: &egui::Ui,
        _: NodeId,
        _: &Graph,
        state: &mut CanvasState,
    ) -> Option<Color32> {
        // The header is coloured as the zoomed-out box is (arbor_viewer's palette).
        Some(if self.disabled {
            DISABLED_HEADER
        } else if state.preview_active {
            live_fill(state.live.get(&self.guid))
        } else {
            category_color(self.category)
        })
    }
}

/// What a comparison says of a node: added, changed or moved (and moved as well, when a
/// changed node has another parent too), what differs on hover.
fn compare_badges(ui: &mut egui::Ui, mark: &NodeMark) {
    let word = match mark.kind {
        MarkKind::Added => t("added"),
        MarkKind::Changed => t("changed"),
        MarkKind::Moved => t("moved"),
    };
    let details = mark.details.join("\n");
    // On a dark backing: the header's own colour (a category, a live status) varies.
    let badge = |word: &str, color| {
        RichText::new(format!(" {word} "))
            .small()
            .strong()
            .color(color)
            .background_color(Color32::from_black_alpha(190))
    };
    ui.label(badge(word, mark_color(mark.kind)))
        .on_hover_text(&details);
    if mark.moved && mark.kind != MarkKind::Moved {
        ui.label(badge(t("moved"), MOVED)).on_hover_text(details);
    }
}

/// Attached decorators as a band of stacked rows on a darker strip: the live result dot,
/// the abort badge, the label (elided, full on hover).
fn decorator_band(
    ui: &mut egui::Ui,
    decorators: &[(String, Option<AbortMark>)],
    live: Option<&NodeLive>,
) {
    egui::Frame::NONE
        .fill(Color32::from_black_alpha(70))
        .corner_radius(3.0)
        .inner_margin(egui::Margin::symmetric(3, 2))
        .show(ui, |ui| {
            for (k, (label, abort)) in decorators.iter().enumerate() {
                let result = live.and_then(|l| l.decorators.get(k).copied().flatten());
                let color = match result {
                    Some(true) => status_color(Status::Success),
                    Some(false) => status_color(Status::Failure),
                    None => Color32::from_gray(185),
                };
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 3.0;
                    dot(ui, color);
                    if let Some(abort) = abort {
                        abort_badge(ui, *abort);
                    }
                    ui.add(egui::Label::new(RichText::new(label).small().color(color)).truncate())
                        .on_hover_text(label);
                });
            }
        });
}

/// A letter and one or two arrows, drawn: ↓ for Self, ↑ for LowerPriority.
fn abort_badge(ui: &mut egui::Ui, abort: AbortMark) -> egui::Response {
    let h = ui.text_style_height(&egui::TextStyle::Small);
    let font = egui::TextStyle::Small.resolve(ui.style());
    let galley = ui.painter().layout_no_wrap(
        abort.letter().to_owned(),
        font,
        Color32::from_rgb(20, 20, 24),
    );
    let arrows = match abort {
        AbortMark::Both => 2.0,
        _ => 1.0,
    };
    let w = galley.size().x + h * 0.55 * arrows + h * 0.3;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(w, h), egui::Sense::hover());
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, Color32::from_rgb(120, 190, 255));
    let text_at = rect.left_center() + egui::vec2(h * 0.12, -galley.size().y / 2.0);
    let after = text_at.x + galley.size().x;
    painter.galley(text_at, galley, Color32::from_rgb(20, 20, 24));
    let stroke = egui::Stroke::new((h * 0.1).max(1.0), Color32::from_rgb(20, 20, 24));
    let mut x = after + h * 0.3;
    let mut arrow = |down: bool| {
        let (top, bottom) = (rect.top() + h * 0.2, rect.bottom() - h * 0.2);
        let (from, to) = if down { (top, bottom) } else { (bottom, top) };
        let tip = egui::pos2(x, to);
        painter.line_segment([egui::pos2(x, from), tip], stroke);
        let back = if down { -h * 0.22 } else { h * 0.22 };
        painter.line_segment([tip, tip + egui::vec2(-h * 0.18, back)], stroke);
        painter.line_segment([tip, tip + egui::vec2(h * 0.18, back)], stroke);
        x += h * 0.55;
    };
    match abort {
        AbortMark::Own => arrow(true),
        AbortMark::Lower => arrow(false),
        AbortMark::Both => {
            arrow(true);
            arrow(false);
        }
    }
    response.on_hover_text(abort.help())
}

/// A small filled circle: egui's default fonts have no reliable bullet glyph.
fn dot(ui: &mut egui::Ui, color: Color32) -> egui::Response {
    let size = ui.text_style_height(&egui::TextStyle::Small) * 0.7;
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), size / 2.0, color);
    response
}

/// The first message, shortened at a word with an ellipsis (never cut mid-word; the
/// whole text is on hover), and how many more there are.
fn first_line(lines: &[String]) -> String {
    const SHOWN: usize = 48;
    let first = lines.first().map(String::as_str).unwrap_or_default();
    let short = match first.char_indices().nth(SHOWN) {
        None => first.to_owned(),
        Some((cut, _)) => {
            let head = &first[..cut];
            let at_word = head.rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
            format!("{}…", head[..at_word].trim_end())
        }
    };
    if lines.len() > 1 {
        format!("{short} (+{} more)", lines.len() - 1)
    } else {
        short
    }
}

#[cfg(test)]
mod first_line_tests {
    use super::first_line;

    #[test]
    fn a_long_message_is_shortened_at_a_word_with_an_ellipsis() {
        let long =
            "missing required parameter `seconds` of Wait; add it in the inspector".to_owned();
        let shown = first_line(std::slice::from_ref(&long));
        assert!(shown.ends_with('…'), "{shown}");
        let kept = shown.trim_end_matches('…');
        assert!(
            long.starts_with(kept) && long[kept.len()..].starts_with(' '),
            "{shown}"
        );
        assert_eq!(first_line(&["short".to_owned()]), "short");
        assert_eq!(first_line(&["a".to_owned(), "b".to_owned()]), "a (+1 more)");
    }
}
