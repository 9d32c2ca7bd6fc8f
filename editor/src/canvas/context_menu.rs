//! Right-click menus: one menu, for the one thing under the pointer.
//!
//! [`Canvas::target_at`] is the only hit test for right-clicks, topmost first: a node, a
//! sticky note, a group's title bar (or its collapsed box), a wire, a group's body, the
//! empty canvas. A group's body comes after the wires so a wire crossing a frame can still
//! be deleted; a note inside a group gets the note's menu. egui_node_editor opens its own
//! node finder on every right-click, over nodes too; that request is dropped here, and
//! "Add Node…" on the canvas's menu opens the app's finder at the click instead.
//!
//! Every item does what the same item elsewhere does: the edit actions are
//! [`Request::Act`] with the clicked item selected (the app runs them as it runs the
//! shortcut or the menu-bar item), the node and group items apply the commands the
//! inspector applies, and the breakpoint, subtree and source items are requests only the
//! app can fulfil.
//!
//! The menu is an `egui::Area` of its own, open until an item is chosen, Escape is
//! pressed or the pointer clicks elsewhere.

use crate::i18n::t;

use egui::{Color32, Pos2, Rect, Sense, Stroke};

use super::camera::{collapsed_rect, STRIP};
use super::view::fill;
use super::Canvas;
use crate::commands::{AddDecorator, Disconnect, SetEnabled, SetGroup, SetNote, SetRoot};
use crate::document::{fit_group, Arrangement, Color, Document, LayoutOptions, Selection};
use crate::view::{Action, Request, UiCx};

/// What a right-click landed on.
#[derive(Clone, Debug, PartialEq)]
pub enum MenuTarget {
    Node(String),
    Note(String),
    Group(String),
    /// The connection from `parent`'s children port to `child`.
    Wire {
        parent: String,
        child: String,
    },
    /// Empty canvas, at this screen position.
    Canvas(Pos2),
}

/// The open menu: what it is for, and where it was opened (screen position).
#[derive(Clone, Debug, PartialEq)]
pub struct ContextMenu {
    pub target: MenuTarget,
    pub at: Pos2,
    /// The items as last drawn: label and screen rect (for tests and tools).
    pub items: Vec<(String, Rect)>,
}

impl ContextMenu {
    /// Where the item labelled `label` was drawn last frame.
    pub fn item(&self, label: &str) -> Option<Rect> {
        self.items.iter().find(|(l, _)| l == label).map(|(_, r)| *r)
    }
}

/// Draws the menu's buttons and remembers where each went.
#[derive(Default)]
struct Items(Vec<(String, Rect)>);

impl Items {
    fn button(&mut self, ui: &mut egui::Ui, text: &str, enabled: bool) -> egui::Response {
        let r = ui.add_enabled(enabled, egui::Button::new(text));
        self.0.push((text.to_owned(), r.rect));
        r
    }

    /// A button shown selected while `on` (a choice or a switch).
    fn toggle(&mut self, ui: &mut egui::Ui, text: &str, on: bool) -> egui::Response {
        let r = ui.add(egui::Button::selectable(on, text));
        self.0.push((text.to_owned(), r.rect));
        r
    }
}

/// What an item asks of the canvas (the rest goes through `UiCx`).
enum Chosen {
    /// The menu stays open (a submenu is being browsed).
    Nothing,
    /// Done; close the menu.
    Close,
    EditNote(String),
    RenameGroup(String),
    Finder(Pos2),
}

/// How close to a wire, in points, a right-click must land to hit it.
const WIRE_REACH: f32 = 6.0;

impl Canvas {
    /// The menu open on the canvas, if any.
    pub fn context_menu(&self) -> Option<&ContextMenu> {
        self.context.as_ref()
    }

    /// What a right-click at `pos` (screen) would open a menu for.
    pub fn target_at(&self, doc: &Document, pos: Pos2) -> MenuTarget {
        let cam = self.cam();
        let hidden = super::input::hidden_notes(doc);
        let at = self.to_doc(pos);
        let probe =
            Rect::from_center_size(Pos2::new(at[0] as f32, at[1] as f32), egui::vec2(1.0, 1.0));
        if let Some(i) = self
            .scene
            .query(probe)
            .into_iter()
            .filter(|&i| !self.scene.node(i).hidden)
            .filter(|&i| self.screen_rect(i).contains(pos))
            .max()
        {
            return MenuTarget::Node(self.scene.node(i).guid.clone());
        }
        if let Some(note) = doc
            .notes()
            .iter()
            .rev()
            .filter(|n| !hidden.contains(n.guid.as_str()))
            .find(|n| cam.rect(n.pos, n.size).contains(pos))
        {
            return MenuTarget::Note(note.guid.clone());
        }
        let frame =
            |g: &crate::document::Group| cam.rect([g.rect[0], g.rect[1]], [g.rect[2], g.rect[3]]);
        let title = doc.groups().iter().rev().find(|g| {
            let r = frame(g);
            match g.collapsed {
                true => collapsed_rect(cam, g).contains(pos),
                false => Rect::from_min_size(r.min, egui::vec2(r.width(), STRIP * cam.zoom))
                    .contains(pos),
            }
        });
        if let Some(g) = title {
            return MenuTarget::Group(g.guid.clone());
        }
        if let Some((parent, child)) = self.wire_at(doc, pos) {
            return MenuTarget::Wire { parent, child };
        }
        if let Some(g) = doc
            .groups()
            .iter()
            .rev()
            .find(|g| !g.collapsed && frame(g).contains(pos))
        {
            return MenuTarget::Group(g.guid.clone());
        }
        MenuTarget::Canvas(pos)
    }

    /// A node's box on screen, as the scene indexes it (the size it was last drawn at).
    fn screen_rect(&self, i: u32) -> Rect {
        let cam = self.cam();
        let r = self.scene.rect(i, &self.sizes);
        Rect::from_min_size(cam.origin + r.min.to_vec2() * cam.zoom, r.size() * cam.zoom)
    }

    /// The connection drawn under `pos`, if any: a curve between the ports when node
    /// widgets are drawn, a straight line between the boxes when zoomed out.
    fn wire_at(&self, doc: &Document, pos: Pos2) -> Option<(String, String)> {
        let lod = self.level_of_detail();
        let end = |guid: &str, out: bool| -> Option<Pos2> {
            let i = self.scene.index(guid)?;
            if self.scene.node(i).hidden {
                return None;
            }
            let drawn = (!lod).then(|| self.drawn(guid)).flatten();
            let port = drawn.and_then(|d| if out { d.output_port() } else { d.input_port() });
            let r = self.screen_rect(i);
            Some(port.unwrap_or(if out {
                r.right_center()
            } else {
                r.left_center()
            }))
        };
        let zoom = self.zoom();
        doc.nodes().find_map(|node| {
            let from = end(&node.guid, true)?;
            node.children.iter().find_map(|child| {
                let to = end(child, false)?;
                let near = match lod {
                    true => distance_to_segment(pos, from, to) <= WIRE_REACH,
                    false => distance_to_curve(pos, from, to, zoom) <= WIRE_REACH,
                };
                near.then(|| (node.guid.clone(), child.clone()))
            })
        })
    }

    /// Stage 5, right-clicks: opens the menu for what is under the pointer, draws the open
    /// menu and runs the item chosen. egui_node_editor's own finder request is dropped.
    pub(super) fn context_menu_ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>) {
        self.cache.state.node_finder = None;
        let (right, any_click, pos) = ui.input(|i| {
            (
                i.pointer.secondary_clicked(),
                i.pointer.any_click(),
                i.pointer.interact_pos(),
            )
        });
        // Only a click on the canvas itself, not on a window or popup over it, nor on the
        // minimap in its corner (an overlay of its own).
        let on_minimap = |p: &Pos2| self.minimap_rect().is_some_and(|r| r.contains(*p));
        let on_canvas =
            pos.filter(|p| self.view.contains(*p) && uncovered(ui, *p) && !on_minimap(p));
        if let (true, Some(pos)) = (right, on_canvas) {
            let target = self.target_at(cx.session.document(), pos);
            select_target(cx.selection, &target);
            self.context = Some(ContextMenu {
                target,
                at: pos,
                items: Vec::new(),
            });
            return self.show_menu(ui, cx, false);
        }
        let clicked_elsewhere = any_click && on_canvas.is_some();
        self.show_menu(ui, cx, clicked_elsewhere);
    }

    fn show_menu(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>, clicked_elsewhere: bool) {
        let Some(menu) = self.context.clone() else {
            return;
        };
        let shown = egui::Area::new(ui.id().with("context menu"))
            .order(egui::Order::Foreground)
            .fixed_pos(menu.at)
            .constrain(true)
            .show(ui.ctx(), |ui| {
                egui::Frame::menu(ui.style())
                    .show(ui, |ui| {
                        // Styled as egui styles its menus (menu::set_menu_style, private):
                        // items show a frame only under the pointer; full width.
                        let style = ui.style_mut();
                        style.spacing.button_padding = egui::vec2(2.0, 0.0);
                        style.visuals.widgets.active.bg_stroke = Stroke::NONE;
                        style.visuals.widgets.hovered.bg_stroke = Stroke::NONE;
                        style.visuals.widgets.inactive.weak_bg_fill = Color32::TRANSPARENT;
                        style.visuals.widgets.inactive.bg_stroke = Stroke::NONE;
                        ui.set_min_width(190.0);
                        ui.set_max_width(320.0);
                        ui.with_layout(egui::Layout::top_down_justified(egui::Align::LEFT), |ui| {
                            let mut items = Items::default();
                            let chosen = self.items(ui, cx, &menu, &mut items);
                            (chosen, items.0)
                        })
                        .inner
                    })
                    .inner
            });
        let escape = ui.input(|i| i.key_pressed(egui::Key::Escape));
        let (chosen, drawn) = shown.inner;
        if let Some(open) = &mut self.context {
            open.items = drawn;
        }
        let close = match chosen {
            Chosen::Nothing => escape || clicked_elsewhere,
            Chosen::Close => true,
            Chosen::EditNote(guid) => {
                self.annotations.editing_note = Some(guid);
                true
            }
            Chosen::RenameGroup(guid) => {
                self.annotations.renaming_group = Some(guid);
                true
            }
            Chosen::Finder(at) => {
                self.palette_request = Some(at);
                true
            }
        };
        if close {
            self.context = None;
        }
    }

    fn items(
        &self,
        ui: &mut egui::Ui,
        cx: &mut UiCx<'_>,
        menu: &ContextMenu,
        items: &mut Items,
    ) -> Chosen {
        match &menu.target {
            MenuTarget::Node(guid) => node_items(ui, cx, guid, items),
            MenuTarget::Note(guid) => note_items(ui, cx, guid, items),
            MenuTarget::Group(guid) => self.group_items(ui, cx, guid, items),
            MenuTarget::Wire { parent, child } => {
                let doc = cx.session.document();
                // "➡", not "→": egui's proportional font has no arrows (a missing-glyph
                // box where no CJK font fills in); its emoji font has this one.
                ui.label(
                    egui::RichText::new(format!("{} ➡ {}", doc.label(parent), doc.label(child)))
                        .strong(),
                );
                if items.button(ui, t("Delete Connection"), true).clicked() {
                    if let Ok(c) = Disconnect::new(cx.session.document(), parent, child) {
                        cx.apply(c);
                    }
                    return Chosen::Close;
                }
                Chosen::Nothing
            }
            MenuTarget::Canvas(at) => {
                if items.button(ui, t("Add Node…"), true).clicked() {
                    return Chosen::Finder(*at);
                }
                ui.separator();
                if items.button(ui, t("Auto Layout"), true).clicked() {
                    return act(cx, Action::AutoLayout);
                }
                let layout = cx.session.document().layout();
                for (on, text, action) in crate::view::layout_choices(layout) {
                    if items.toggle(ui, text, on).clicked() {
                        return act(cx, action);
                    }
                }
                Chosen::Nothing
            }
        }
    }

    fn group_items(
        &self,
        ui: &mut egui::Ui,
        cx: &mut UiCx<'_>,
        guid: &str,
        items: &mut Items,
    ) -> Chosen {
        let Some(group) = cx.session.document().group(guid).cloned() else {
            return Chosen::Close;
        };
        ui.label(egui::RichText::new(&group.title).strong());
        if items.button(ui, t("Rename"), true).clicked() {
            return Chosen::RenameGroup(group.guid);
        }
        let mut recolored = None;
        color_choices(ui, group.color, |c| recolored = Some(c));
        if let Some(color) = recolored {
            cx.apply(SetGroup::replace(crate::document::Group { color, ..group }));
            return Chosen::Close;
        }
        let fold = if group.collapsed {
            t("Expand")
        } else {
            t("Collapse")
        };
        if items.button(ui, fold, true).clicked() {
            let collapsed = !group.collapsed;
            cx.apply(SetGroup::replace(crate::document::Group {
                collapsed,
                ..group
            }));
            return Chosen::Close;
        }
        let options = LayoutOptions {
            sizes: self.sizes.clone(),
            ..LayoutOptions::default()
        };
        let fitted = fit_group(
            cx.session.document(),
            &group,
            &options,
            &Arrangement::default(),
        );
        let fit = items
            .button(ui, t("Fit to Contents"), fitted.is_some())
            .on_disabled_hover_text(t("The group has no members"));
        if let (true, Some(rect)) = (fit.clicked(), fitted) {
            cx.apply(SetGroup::replace(crate::document::Group { rect, ..group }));
            return Chosen::Close;
        }
        ui.separator();
        if items
            .button(ui, t("Ungroup (keep contents)"), true)
            .clicked()
        {
            return act(cx, Action::Ungroup);
        }
        Chosen::Nothing
    }
}

/// Right-clicking an item selects it, unless it is part of the selection already (so the
/// edit items act on everything selected, as in every node editor).
fn select_target(selection: &mut Selection, target: &MenuTarget) {
    let (part, guid): (
        fn(&mut Selection) -> &mut std::collections::BTreeSet<String>,
        &str,
    ) = match target {
        MenuTarget::Node(g) => (|s| &mut s.nodes, g),
        MenuTarget::Note(g) => (|s| &mut s.notes, g),
        MenuTarget::Group(g) => (|s| &mut s.groups, g),
        MenuTarget::Wire { .. } | MenuTarget::Canvas(_) => return,
    };
    if !part(selection).contains(guid) {
        *selection = Selection::default();
        part(selection).insert(guid.to_owned());
    }
}

/// Runs an action as its shortcut does, on the current selection.
fn act(cx: &mut UiCx<'_>, action: Action) -> Chosen {
    cx.requests.push(Request::Act(action));
    Chosen::Close
}

fn node_items(ui: &mut egui::Ui, cx: &mut UiCx<'_>, guid: &str, items: &mut Items) -> Chosen {
    let doc = cx.session.document();
    let Some(node) = doc.node(guid) else {
        return Chosen::Close;
    };
    let kind = node.kind.clone();
    let subtree = kind == "Subtree";
    let can_be_root = doc.root() != Some(guid) && doc.parent_of(guid).is_none();
    let source = cx
        .session
        .types()
        .node(&kind)
        .and_then(|t| t.source.clone());
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(doc.label(guid)).strong());
        ui.weak(&kind);
    });
    ui.separator();
    for (text, action) in [
        (t("Cut"), Action::Cut),
        (t("Copy"), Action::Copy),
        (t("Duplicate"), Action::Duplicate),
        (t("Delete"), Action::Delete),
    ] {
        if items.button(ui, text, true).clicked() {
            return act(cx, action);
        }
    }
    ui.separator();
    let mut decorator = None;
    ui.menu_button(t("Add Decorator  ⏵"), |ui| {
        for t in cx.session.types().decorators() {
            let r = ui.button(&t.name);
            let r = if t.description.is_empty() {
                r
            } else {
                r.on_hover_text(&t.description)
            };
            if r.clicked() {
                decorator = Some(t.name.clone());
                ui.close();
            }
        }
    });
    if let Some(kind) = decorator {
        let cmd = AddDecorator::new(cx.session.document(), cx.session.types(), guid, &kind);
        match cmd {
            Ok(c) => {
                cx.apply(c);
            }
            Err(e) => cx.toasts.error(e.to_string()),
        }
        return Chosen::Close;
    }
    let root = items
        .button(ui, t("Set as Root"), can_be_root)
        .on_disabled_hover_text(t("Only a node without a parent can be the root"));
    if root.clicked() {
        match SetRoot::new(cx.session.document(), Some(guid)) {
            Ok(c) => {
                cx.apply(c);
            }
            Err(e) => cx.toasts.error(e.to_string()),
        }
        return Chosen::Close;
    }
    // These act on one node: the one clicked, even inside a larger selection.
    let single = |cx: &mut UiCx<'_>, action| {
        *cx.selection = Selection::of_nodes([guid]);
        act(cx, action)
    };
    if items.button(ui, t("Export as Subtree…"), true).clicked() {
        return single(cx, Action::ExportSubtree);
    }
    let inline = items
        .button(ui, t("Inline Subtree"), subtree)
        .on_disabled_hover_text(t("Only a Subtree node can be inlined"));
    if inline.clicked() {
        return single(cx, Action::InlineSubtree);
    }
    let enabled = cx.session.document().node(guid).is_none_or(|n| n.enabled);
    let switch = if enabled { t("Disable") } else { t("Enable") };
    let switch = items.button(ui, switch, true).on_hover_text(t(
        "A disabled node's branch runs as if it were absent; it keeps its place and settings",
    ));
    if switch.clicked() {
        match SetEnabled::toggle(cx.session.document(), guid) {
            Ok(c) => {
                cx.apply(c);
            }
            Err(e) => cx.toasts.error(e.to_string()),
        }
        return Chosen::Close;
    }
    if items.button(ui, t("Toggle Breakpoint"), true).clicked() {
        cx.requests.push(Request::ToggleBreakpoint(guid.to_owned()));
        return Chosen::Close;
    }
    let open = items
        .button(ui, t("Open Subtree"), subtree)
        .on_disabled_hover_text(t("Only a Subtree node refers to a file"));
    if open.clicked() {
        cx.requests.push(Request::OpenSubtree(guid.to_owned()));
        return Chosen::Close;
    }
    let text = format!("{} {kind}", t("Open Source of"));
    let open = items.button(ui, &text, source.is_some());
    let open = match &source {
        Some(s) => open.on_hover_text(format!("{}:{}", s.file, s.line)),
        None => open.on_disabled_hover_text(t(
            "The node types do not say where this type is registered (the program can record it with NodeType::here())",
        )),
    };
    if open.clicked() {
        cx.requests.push(Request::OpenSource(kind));
        return Chosen::Close;
    }
    Chosen::Nothing
}

fn note_items(ui: &mut egui::Ui, cx: &mut UiCx<'_>, guid: &str, items: &mut Items) -> Chosen {
    let Some(note) = cx.session.document().note(guid).cloned() else {
        return Chosen::Close;
    };
    if items.button(ui, t("Edit Text"), true).clicked() {
        return Chosen::EditNote(note.guid);
    }
    let mut recolored = None;
    color_choices(ui, note.color, |c| recolored = Some(c));
    if let Some(color) = recolored {
        cx.apply(SetNote::replace(crate::document::Note { color, ..note }));
        return Chosen::Close;
    }
    ui.separator();
    if items.button(ui, t("Delete Note"), true).clicked() {
        return act(cx, Action::Delete);
    }
    Chosen::Nothing
}

fn color_choices(ui: &mut egui::Ui, current: Color, mut pick: impl FnMut(Color)) {
    ui.horizontal(|ui| {
        for c in Color::ALL {
            let (r, response) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), Sense::click());
            let stroke = if c == current {
                Stroke::new(2.0, Color32::WHITE)
            } else {
                Stroke::NONE
            };
            ui.painter()
                .rect(r, 3.0, fill(c), stroke, egui::StrokeKind::Middle);
            if response.on_hover_text(c.name()).clicked() {
                pick(c);
            }
        }
    });
}

/// Whether nothing (a window, a popup, this menu) covers the canvas at `p`.
pub(super) fn uncovered(ui: &egui::Ui, p: Pos2) -> bool {
    ui.ctx().layer_id_at(p).is_none_or(|l| l == ui.layer_id())
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = ((p - a).dot(ab) / ab.length_sq().max(f32::EPSILON)).clamp(0.0, 1.0);
    p.distance(a + ab * t)
}

/// Distance to the curve egui_node_editor draws between two ports (sampled).
fn distance_to_curve(p: Pos2, from: Pos2, to: Pos2, zoom: f32) -> f32 {
    let scale = ((to.x - from.x) * zoom / 2.0).max(30.0 * zoom);
    let c1 = from + egui::vec2(scale, 0.0);
    let c2 = to - egui::vec2(scale, 0.0);
    let at = |t: f32| {
        let u = 1.0 - t;
        (from.to_vec2() * (u * u * u)
            + c1.to_vec2() * (3.0 * u * u * t)
            + c2.to_vec2() * (3.0 * u * t * t)
            + to.to_vec2() * (t * t * t))
            .to_pos2()
    };
    const STEPS: usize = 32;
    (0..STEPS)
        .map(|i| {
            let (t0, t1) = (i as f32 / STEPS as f32, (i + 1) as f32 / STEPS as f32);
            distance_to_segment(p, at(t0), at(t1))
        })
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_wire() {
        let (a, b) = (Pos2::new(0.0, 0.0), Pos2::new(100.0, 0.0));
        assert_eq!(distance_to_segment(Pos2::new(50.0, 5.0), a, b), 5.0);
        assert_eq!(distance_to_segment(Pos2::new(-3.0, 4.0), a, b), 5.0);
        // The curve passes through its ends and its middle (symmetric ports).
        let (from, to) = (Pos2::new(0.0, 0.0), Pos2::new(200.0, 100.0));
        assert!(distance_to_curve(Pos2::new(100.0, 50.0), from, to, 1.0) < 1.0);
        assert!(distance_to_curve(Pos2::new(100.0, 90.0), from, to, 1.0) > 20.0);
    }
}
