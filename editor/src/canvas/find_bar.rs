//! The find bar (Ctrl+F): a small field over the canvas's top-right corner. Typing part
//! of a node's name, type, parameter or decorator lists the matches (the matching is the
//! model's [`crate::document::find`]); they are outlined on the canvas and the minimap.
//! Enter selects and frames the next match, Shift+Enter the previous one; Escape (or the
//! × button) closes the bar and drops the highlights. Opening it again selects the last
//! query, so typing replaces it.

use crate::i18n::t;

use std::collections::BTreeSet;

use egui::{Id, Key, Modifiers, TextEdit};

use super::Canvas;
use crate::document::{find, FindHit, Selection};
use crate::view::UiCx;

/// See the module documentation.
#[derive(Debug, Default)]
pub struct FindBar {
    open: bool,
    /// Set by `open`: the next frame gives the field focus.
    opening: bool,
    /// The field had the keyboard at the end of the last frame (egui drops the focus when
    /// Escape is pressed, before the bar sees the key).
    had_focus: bool,
    query: String,
    hits: Vec<FindHit>,
    /// The match last framed, as an index into `hits`.
    current: Option<usize>,
    /// The query and generation `hits` were found for.
    found_for: Option<(String, u64)>,
}

impl FindBar {
    /// The id of the search field.
    pub fn field_id() -> Id {
        Id::new("find in tree")
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    /// The matches of the current query, in execution order.
    pub fn hits(&self) -> &[FindHit] {
        &self.hits
    }

    /// The GUIDs to outline on the canvas (none while closed).
    pub fn highlighted(&self) -> BTreeSet<String> {
        if !self.open {
            return BTreeSet::new();
        }
        self.hits.iter().map(|h| h.guid.clone()).collect()
    }

    fn refresh(&mut self, cx: &UiCx<'_>) {
        let key = (self.query.clone(), cx.session.generation());
        if self.found_for.as_ref() != Some(&key) {
            self.hits = find(cx.session.document(), &self.query);
            if self.found_for.as_ref().map(|(q, _)| q) != Some(&key.0) {
                self.current = None;
            }
            self.current = self.current.filter(|&c| c < self.hits.len());
            self.found_for = Some(key);
        }
    }

    /// Moves to the next (or previous) match; returns its GUID.
    fn step(&mut self, forward: bool) -> Option<String> {
        let n = self.hits.len();
        if n == 0 {
            return None;
        }
        let next = match (self.current, forward) {
            (None, true) => 0,
            (None, false) => n - 1,
            (Some(c), true) => (c + 1) % n,
            (Some(c), false) => (c + n - 1) % n,
        };
        self.current = Some(next);
        Some(self.hits[next].guid.clone())
    }
}

impl Canvas {
    /// Opens the find bar (or gives its field the keyboard again).
    pub fn open_find(&mut self) {
        self.find.open = true;
        self.find.opening = true;
    }

    /// The find bar's state.
    pub fn find_bar(&self) -> &FindBar {
        &self.find
    }

    /// Draws the find bar if open, and frames the match Enter asks for.
    pub(super) fn find_ui(&mut self, ui: &egui::Ui, cx: &mut UiCx<'_>) {
        if !self.find.open {
            return;
        }
        let ctx = ui.ctx().clone();
        let focused = self.find.had_focus || ctx.memory(|m| m.has_focus(FindBar::field_id()));
        // Shift+Enter first: egui matches a plain Enter with Shift held too.
        let (previous, next, escape) = if focused {
            ctx.input_mut(|i| {
                (
                    i.consume_key(Modifiers::SHIFT, Key::Enter),
                    i.consume_key(Modifiers::NONE, Key::Enter),
                    i.consume_key(Modifiers::NONE, Key::Escape),
                )
            })
        } else {
            (false, false, false)
        };
        if escape {
            self.find.open = false;
            self.find.had_focus = false;
            return;
        }
        self.find.refresh(cx);
        let width = 300.0;
        let at = self.view.right_top() + egui::vec2(-width - 24.0, 10.0);
        let mut query = self.find.query.clone();
        let mut close = false;
        egui::Area::new(Id::new("find bar"))
            .order(egui::Order::Foreground)
            .fixed_pos(at)
            .show(&ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_width(width);
                    ui.horizontal(|ui| {
                        let field = ui.add(
                            TextEdit::singleline(&mut query)
                                .id(FindBar::field_id())
                                .hint_text(t("Find: name, type or parameter"))
                                .desired_width(width - 110.0),
                        );
                        if std::mem::take(&mut self.find.opening) {
                            field.request_focus();
                            // The last query, selected: typing replaces it.
                            select_all(ui.ctx(), &self.find.query);
                        }
                        self.find.had_focus = field.has_focus();
                        let count = match (self.find.hits.len(), self.find.current) {
                            (0, _) if self.find.query.trim().is_empty() => String::new(),
                            (0, _) => "none".to_owned(),
                            (n, Some(c)) => format!("{} of {n}", c + 1),
                            (n, None) => format!("{n} found"),
                        };
                        ui.weak(count);
                        if ui
                            .small_button("×")
                            .on_hover_text(t("Close (Esc)"))
                            .clicked()
                        {
                            close = true;
                        }
                    });
                    if let Some(hit) = self.find.current.and_then(|c| self.find.hits.get(c)) {
                        ui.weak(format!(
                            "{}: {}",
                            cx.session.document().label(&hit.guid),
                            hit.what
                        ));
                    } else if !self.find.hits.is_empty() {
                        ui.weak(t("Enter: next match · Shift+Enter: previous"));
                    }
                });
            });
        if close {
            self.find.open = false;
            return;
        }
        if query != self.find.query {
            self.find.query = query;
            self.find.refresh(cx);
        }
        if next || previous {
            if let Some(guid) = self.find.step(next) {
                *cx.selection = Selection::of_nodes([guid.clone()]);
                self.frame(&[guid]);
            }
            // Enter took the focus from the field: keep typing there.
            ctx.memory_mut(|m| m.request_focus(FindBar::field_id()));
            self.find.had_focus = true;
        }
    }
}

/// Selects all of the find field's text.
fn select_all(ctx: &egui::Context, text: &str) {
    let id = FindBar::field_id();
    let mut state = egui::TextEdit::load_state(ctx, id).unwrap_or_default();
    let all = egui::text::CCursorRange::two(
        egui::text::CCursor::new(0),
        egui::text::CCursor::new(text.chars().count()),
    );
    state.cursor.set_char_range(Some(all));
    state.store(ctx, id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(g: &str) -> FindHit {
        FindHit {
            guid: g.to_owned(),
            what: "name".to_owned(),
        }
    }

    #[test]
    fn steps_wrap_around_both_ways() {
        let mut bar = FindBar {
            hits: vec![hit("a"), hit("b"), hit("c")],
            ..FindBar::default()
        };
        assert_eq!(bar.step(false).as_deref(), Some("c"));
        assert_eq!(bar.step(true).as_deref(), Some("a"));
        assert_eq!(bar.step(true).as_deref(), Some("b"));
        assert_eq!(bar.step(false).as_deref(), Some("a"));
        bar.hits.clear();
        assert_eq!(bar.step(true), None);
        assert!(bar.highlighted().is_empty(), "closed: nothing outlined");
    }
}
