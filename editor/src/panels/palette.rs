//! Palette: the node finder. A floating popup, opened by the app at a screen position, with
//! a focused search field over every node type (built-in and host), grouped by category.
//!
//! - Typing filters, case-insensitively, on the name, the initials of the name (`sb` finds
//!   `SetBlackboard`) and the description. The best match is highlighted: an exact name,
//!   then a name prefix, initials, a name substring, a description match.
//! - Up/Down move the highlight through the rows in display order; Enter (or a click on a
//!   row) chooses; Escape or a click outside closes.
//! - [`Palette::show`] returns the chosen type once, and the palette closes.

use crate::i18n::t;

use arbor_runtime::{Category, NodeType, NodeTypes};
use egui::{Id, Key, Modifiers, Pos2, RichText, ScrollArea, TextEdit};

/// Category order in the list.
const CATEGORIES: [Category; 5] = [
    Category::Composite,
    Category::Decorator,
    Category::Condition,
    Category::Action,
    Category::Subtree,
];

/// See the module documentation.
#[derive(Debug, Default)]
pub struct Palette {
    open_at: Option<Pos2>,
    query: String,
    /// A row moved to with the arrows, as an index into the filtered rows; `None` follows
    /// the best match as the query changes.
    highlight: Option<usize>,
    /// Set by `open`: the next frame gives the search field focus and ignores the click
    /// that opened the palette.
    opening: bool,
}

/// How well a type matches the query: lower is better.
fn score(ty: &NodeType, query: &str) -> Option<u8> {
    if query.is_empty() {
        return Some(0);
    }
    let name = ty.name.to_lowercase();
    let initials: String = ty
        .name
        .chars()
        .filter(char::is_ascii_uppercase)
        .collect::<String>()
        .to_lowercase();
    if name == query {
        Some(0)
    } else if name.starts_with(query) {
        Some(1)
    } else if query.len() >= 2 && initials.starts_with(query) {
        Some(2)
    } else if name.contains(query) {
        Some(3)
    } else if ty.description.to_lowercase().contains(query) {
        Some(4)
    } else {
        None
    }
}

/// The node types matching `query`, in display order (by category, then name), each with
/// its score.
pub(crate) fn filter<'t>(types: &'t NodeTypes, query: &str) -> Vec<(&'t NodeType, u8)> {
    let query = query.trim().to_lowercase();
    let mut rows: Vec<(&NodeType, u8)> = types
        .nodes()
        .filter_map(|ty| score(ty, &query).map(|s| (ty, s)))
        .collect();
    // Stable: `nodes()` is in name order, so each category stays sorted by name.
    rows.sort_by_key(|(ty, _)| CATEGORIES.iter().position(|c| *c == ty.category));
    rows
}

/// The index of the best row (the first of the lowest score).
fn best(rows: &[(&NodeType, u8)]) -> Option<usize> {
    rows.iter()
        .enumerate()
        .min_by_key(|(i, (_, s))| (*s, *i))
        .map(|(i, _)| i)
}

impl Palette {
    /// The id of the search field.
    pub fn search_id() -> Id {
        Id::new("palette search")
    }

    /// Opens the palette at a screen position, with an empty search.
    pub fn open(&mut self, at: Pos2) {
        self.open_at = Some(at);
        self.query.clear();
        self.highlight = None;
        self.opening = true;
    }

    pub fn is_open(&self) -> bool {
        self.open_at.is_some()
    }

    pub fn close(&mut self) {
        self.open_at = None;
    }

    /// The search text.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Shows the palette if open; returns the chosen node type's name (once: the palette
    /// closes).
    pub fn show(&mut self, ctx: &egui::Context, types: &NodeTypes) -> Option<String> {
        let at = self.open_at?;
        // Taken before the search field sees them: the arrows and Enter are ours.
        let (up, down, enter, escape) = ctx.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::Escape),
            )
        });
        if escape {
            self.close();
            return None;
        }
        let opening = std::mem::take(&mut self.opening);

        let rows = filter(types, &self.query);
        let count = rows.len();
        let mut moved = false;
        if count > 0 && (up || down) {
            let from = self.highlight.or_else(|| best(&rows)).unwrap_or(0);
            self.highlight = Some(if down {
                (from + 1) % count
            } else {
                (from + count - 1) % count
            });
            moved = true;
        }
        let highlight = self
            .highlight
            .filter(|&h| h < count)
            .or_else(|| best(&rows));
        let mut chosen = enter
            .then(|| highlight.map(|h| rows[h].0.name.clone()))
            .flatten();

        let mut query = self.query.clone();
        let area = egui::Area::new(Id::new("palette"))
            .order(egui::Order::Foreground)
            .fixed_pos(at)
            .constrain(true)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_width(340.0);
                    let search = ui.add(
                        TextEdit::singleline(&mut query)
                            .id(Self::search_id())
                            .hint_text(t("Search node types…"))
                            .desired_width(f32::INFINITY),
                    );
                    // Typing always goes to the search, even after a click on a row.
                    if opening || !search.has_focus() {
                        search.request_focus();
                    }
                    ui.separator();
                    ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                        if rows.is_empty() {
                            ui.weak(t("No node type matches"));
                        }
                        let mut category = None;
                        for (i, (ty, _)) in rows.iter().enumerate() {
                            if category != Some(ty.category) {
                                category = Some(ty.category);
                                ui.label(
                                    RichText::new(crate::i18n::category(ty.category)).strong(),
                                );
                            }
                            let r = row(ui, ty, highlight == Some(i));
                            if moved && highlight == Some(i) {
                                r.scroll_to_me(None);
                            }
                            if r.clicked() {
                                chosen = Some(ty.name.clone());
                            }
                        }
                    });
                });
            });
        if query != self.query {
            self.query = query;
            self.highlight = None;
        }
        if chosen.is_some() || (!opening && area.response.clicked_elsewhere()) {
            self.close();
        }
        chosen
    }
}

/// Where a host type comes from, as its row says: `placeholder` for one declared in the
/// editor that the game does not implement yet, else `host`.
pub(crate) fn origin(ty: &NodeType) -> &'static str {
    if ty.placeholder {
        t("placeholder")
    } else {
        t("host")
    }
}

/// One selectable row: the type name, a "host" or "placeholder" marker, and the
/// description (elided).
fn row(ui: &mut egui::Ui, ty: &NodeType, highlighted: bool) -> egui::Response {
    let mut text = egui::text::LayoutJob::default();
    let style = ui.style();
    RichText::new(&ty.name).strong().append_to(
        &mut text,
        style,
        egui::FontSelection::Default,
        egui::Align::Center,
    );
    if ty.host {
        RichText::new(format!("  {}", origin(ty)))
            .size(crate::fonts::SMALL_TEXT)
            .color(ui.visuals().warn_fg_color)
            .append_to(
                &mut text,
                style,
                egui::FontSelection::Default,
                egui::Align::Center,
            );
    }
    if !ty.description.is_empty() {
        RichText::new(format!(
            "  {}",
            crate::i18n::node_description(&ty.description)
        ))
        .weak()
        .append_to(
            &mut text,
            style,
            egui::FontSelection::Default,
            egui::Align::Center,
        );
    }
    text.wrap = egui::text::TextWrapping::truncate_at_width(ui.available_width());
    let r = ui.add(egui::Button::selectable(highlighted, text));
    if ty.description.is_empty() {
        r
    } else {
        r.on_hover_text(crate::i18n::node_description(&ty.description))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::testing::Harness;
    use crate::view::UiCx;
    use crate::Session;
    use std::cell::Cell;

    fn names(types: &NodeTypes, query: &str) -> Vec<String> {
        filter(types, query)
            .into_iter()
            .map(|(t, _)| t.name.clone())
            .collect()
    }

    #[test]
    fn filters_by_name_initials_and_description_grouped_by_category() {
        let mut types = NodeTypes::builtin();
        types.insert(NodeType::action("OpenDoor", "Opens the nearest door."));
        let all = filter(&types, "");
        assert_eq!(all.len(), types.nodes().count());
        let order: Vec<usize> = all
            .iter()
            .map(|(t, _)| CATEGORIES.iter().position(|c| *c == t.category).unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");

        let rows = filter(&types, "WAIT");
        assert_eq!(rows[best(&rows).unwrap()].0.name, "Wait");
        assert!(names(&types, "sb").contains(&"SetBlackboard".to_owned()));
        assert!(names(&types, "door").contains(&"OpenDoor".to_owned()));
        assert!(names(&types, "nearest").contains(&"OpenDoor".to_owned()));
        assert!(names(&types, "zzzz").is_empty());

        let rows = filter(&types, "seq");
        let best = best(&rows).unwrap();
        assert_eq!(rows[best].0.name, "Sequence");
    }

    #[test]
    fn typing_filters_and_enter_returns_the_highlighted_type() {
        let types = NodeTypes::builtin();
        let mut h = Harness::new(Session::default());
        let mut palette = Palette::default();
        palette.open(Pos2::new(100.0, 100.0));
        let mut chosen = Vec::new();
        let open = Cell::new(true);
        let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| {
            let ctx = ui.ctx();
            chosen.extend(palette.show(ctx, &types));
            open.set(palette.is_open());
        };
        h.frame(&mut draw);
        h.frame(&mut draw);
        assert!(
            h.has_focus(Palette::search_id()),
            "the search field takes focus"
        );
        assert!(h.shows("Composite") && h.text_rect_starting("Sequence").is_positive());
        h.type_text("wai", &mut draw);
        h.frame(&mut draw);
        assert!(h.shows("Action") && h.text_rect_starting("Wait").is_positive());
        assert!(!h.painted.iter().any(|p| p.text.starts_with("Sequence")));
        h.key(Key::Enter, Modifiers::NONE, &mut draw);
        assert!(!open.get(), "closes once a type is chosen");
        h.frame(&mut draw);
        assert_eq!(chosen, ["Wait"]);
        assert!(!palette.is_open());
    }

    #[test]
    fn arrows_move_the_highlight_and_a_click_chooses() {
        let types = NodeTypes::builtin();
        let mut h = Harness::new(Session::default());
        let mut palette = Palette::default();
        palette.open(Pos2::new(100.0, 100.0));
        let mut chosen = Vec::new();
        let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| {
            let ctx = ui.ctx();
            chosen.extend(palette.show(ctx, &types));
        };
        h.frame(&mut draw);
        // "se": Selector and Sequence (composites) first, then SendEvent, SetBlackboard…
        h.type_text("se", &mut draw);
        h.key(Key::ArrowDown, Modifiers::NONE, &mut draw);
        h.key(Key::ArrowDown, Modifiers::NONE, &mut draw);
        h.key(Key::ArrowUp, Modifiers::NONE, &mut draw);
        h.key(Key::Enter, Modifiers::NONE, &mut draw);
        assert_eq!(chosen, ["Sequence"]);

        palette_reopen_and_click(&mut h, &types);
    }

    fn palette_reopen_and_click(h: &mut Harness, types: &NodeTypes) {
        let mut palette = Palette::default();
        palette.open(Pos2::new(100.0, 100.0));
        let mut chosen = Vec::new();
        let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| {
            let ctx = ui.ctx();
            chosen.extend(palette.show(ctx, types));
        };
        h.frame(&mut draw);
        h.type_text("lo", &mut draw);
        h.frame(&mut draw);
        let row = h.text_rect_starting("Log").center();
        h.click_at(row, &mut draw);
        assert_eq!(chosen, ["Log"]);
        assert!(!palette.is_open());
    }

    #[test]
    fn escape_or_a_click_outside_closes_without_choosing() {
        let types = NodeTypes::builtin();
        let mut h = Harness::new(Session::default());
        let mut palette = Palette::default();
        let mut chosen = Vec::new();
        palette.open(Pos2::new(100.0, 100.0));
        {
            let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| {
                let ctx = ui.ctx();
                chosen.extend(palette.show(ctx, &types));
            };
            h.frame(&mut draw);
            h.type_text("wait", &mut draw);
            h.key(Key::Escape, Modifiers::NONE, &mut draw);
        }
        assert!(!palette.is_open());
        palette.open(Pos2::new(100.0, 100.0));
        assert_eq!(palette.query(), "", "reopening starts a new search");
        {
            let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| {
                let ctx = ui.ctx();
                chosen.extend(palette.show(ctx, &types));
            };
            h.frame(&mut draw);
            h.click_at(Pos2::new(1200.0, 1000.0), &mut draw);
        }
        assert!(!palette.is_open());
        assert!(chosen.is_empty());
    }
}
