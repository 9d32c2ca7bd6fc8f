//! Renaming a node on the canvas: F2, or a double-click on a node's widget (a double-click
//! on a zoomed-out box zooms in there instead), puts a text field over
//! the node's title. Enter (or a click elsewhere) commits the name as one undoable rename
//! (`SetText` on the node's name, only when it changed and is not blank); Escape cancels
//! and leaves the name as it was.

use egui::{Id, Key, PointerButton, Rect};

use super::Canvas;
use crate::commands::{SetText, TextField};
use crate::view::UiCx;

/// The name being typed over a node's title.
#[derive(Clone, Debug)]
pub(super) struct Rename {
    guid: String,
    text: String,
    /// The field has had the keyboard (so losing it ends the rename).
    focused: bool,
}

/// Height of the field over the title, in screen points at least.
const FIELD_HEIGHT: f32 = 22.0;

impl Canvas {
    /// Starts renaming `guid` on the canvas (the field shows next frame).
    pub fn start_rename(&mut self, guid: &str, name: &str) {
        self.rename = Some(Rename {
            guid: guid.to_owned(),
            text: name.to_owned(),
            focused: false,
        });
    }

    /// The node being renamed, if any.
    pub fn renaming(&self) -> Option<&str> {
        self.rename.as_ref().map(|r| r.guid.as_str())
    }

    /// The id of the name field, for tests.
    pub fn rename_id() -> Id {
        Id::new("canvas rename")
    }

    /// Where node `guid` is drawn this frame, as a widget or a box.
    fn node_screen_rect(&self, guid: &str) -> Option<Rect> {
        self.drawn(guid)
            .map(|d| d.rect())
            .or_else(|| self.lod_box(guid))
    }

    /// A double-click on a node's widget starts renaming it.
    pub(super) fn rename_on_double_click(&mut self, ui: &egui::Ui, cx: &UiCx<'_>) {
        let double = ui.input(|i| i.pointer.button_double_clicked(PointerButton::Primary));
        let Some(at) = ui.input(|i| i.pointer.interact_pos()).filter(|_| double) else {
            return;
        };
        if !self.view.contains(at) || !super::context_menu::uncovered(ui, at) {
            return;
        }
        let doc = cx.session.document();
        let hit = doc
            .nodes()
            .filter(|n| self.has_widget(&n.guid) || self.lod_box(&n.guid).is_some())
            .find(|n| {
                self.node_screen_rect(&n.guid)
                    .is_some_and(|r| r.contains(at))
            });
        if let Some(node) = hit {
            let (guid, name) = (node.guid.clone(), node.name.clone());
            self.start_rename(&guid, &name);
        }
    }

    /// The name field over the title of the node being renamed; commits or cancels.
    pub(super) fn rename_ui(&mut self, ui: &mut egui::Ui, cx: &mut UiCx<'_>) {
        let Some(mut rename) = self.rename.take() else {
            return;
        };
        let Some(node_rect) = self.node_screen_rect(&rename.guid) else {
            return;
        };
        if cx.session.document().node(&rename.guid).is_none() {
            return;
        }
        let field = Rect::from_min_size(
            node_rect.min,
            egui::vec2(node_rect.width().max(120.0), FIELD_HEIGHT),
        );
        let (escape, enter) = ui.input(|i| (i.key_pressed(Key::Escape), i.key_pressed(Key::Enter)));
        let response = egui::Area::new(Id::new("canvas rename area"))
            .fixed_pos(field.min)
            .order(egui::Order::Foreground)
            .show(ui.ctx(), |ui| {
                ui.add_sized(
                    field.size(),
                    egui::TextEdit::singleline(&mut rename.text).id(Canvas::rename_id()),
                )
            })
            .inner;
        if !rename.focused {
            response.request_focus();
            rename.focused = true;
            self.rename = Some(rename);
            return;
        }
        if escape {
            return;
        }
        if response.lost_focus() || enter {
            let doc = cx.session.document();
            let name = rename.text.trim();
            let old = doc.node(&rename.guid).map(|n| n.name.as_str());
            if !name.is_empty() && old != Some(name) {
                match SetText::new(doc, TextField::NodeName(rename.guid.clone()), name) {
                    Ok(c) => {
                        cx.apply(c);
                    }
                    Err(e) => cx.toasts.error(e.to_string()),
                }
            }
            return;
        }
        self.rename = Some(rename);
    }
}
