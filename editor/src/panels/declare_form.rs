//! The Declare Action form: a window where a designer declares an action or condition the
//! game does not have yet (name, kind, description, ports with type, direction and
//! default). Save hands the [`Declaration`] to the app, which writes it into the project's
//! manifest; a refusal is shown in the form, which keeps everything typed.

use arbor_editor_model::project::{Declaration, PortDraft};
use arbor_runtime::{Category, Direction, ValueType};
use egui::RichText;

/// The port types offered: the value types a port of a game's node usually has.
const PORT_TYPES: [ValueType; 7] = [
    ValueType::Float,
    ValueType::Int,
    ValueType::Bool,
    ValueType::String,
    ValueType::Vec2,
    ValueType::Vec3,
    ValueType::Entity,
];

/// See the module documentation.
#[derive(Debug, Default)]
pub struct DeclareForm {
    /// `Some` while the window is open.
    draft: Option<Declaration>,
    /// Why the last Save was refused.
    error: Option<String>,
}

impl DeclareForm {
    /// Opens the form on an empty declaration (or keeps the one being typed).
    pub fn open(&mut self) {
        if self.draft.is_none() {
            self.draft = Some(Declaration::default());
            self.error = None;
        }
    }

    pub fn is_open(&self) -> bool {
        self.draft.is_some()
    }

    /// The form was saved: it closes and forgets the draft.
    pub fn saved(&mut self) {
        self.draft = None;
        self.error = None;
    }

    /// The app refused the declaration: the form stays open with the reason.
    pub fn refused(&mut self, why: String) {
        self.error = Some(why);
    }

    /// Shows the form if open; returns the declaration when Save is clicked.
    pub fn show(&mut self, ctx: &egui::Context, manifest: &str) -> Option<Declaration> {
        let draft = self.draft.as_mut()?;
        let mut save = false;
        let mut cancel = false;
        egui::Window::new("Declare Action")
            .collapsible(false)
            .default_width(460.0)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(
                    RichText::new(format!(
                        "Saved in {manifest} as a placeholder for a programmer to implement \
                         (`arbor stub NAME` prints its Rust skeleton)."
                    ))
                    .weak(),
                );
                egui::Grid::new("declare fields")
                    .num_columns(2)
                    .show(ui, |ui| {
                        ui.label("Name");
                        ui.add(
                            egui::TextEdit::singleline(&mut draft.name)
                                .hint_text("TakeCover")
                                .id(egui::Id::new("declare name")),
                        );
                        ui.end_row();
                        ui.label("Kind");
                        ui.horizontal(|ui| {
                            ui.selectable_value(&mut draft.category, Category::Action, "Action");
                            ui.selectable_value(
                                &mut draft.category,
                                Category::Condition,
                                "Condition",
                            );
                        });
                        ui.end_row();
                        ui.label("Description");
                        ui.add(
                            egui::TextEdit::multiline(&mut draft.description)
                                .desired_rows(2)
                                .hint_text("What it does, for the designers"),
                        );
                        ui.end_row();
                    });
                ui.separator();
                ui.strong("Ports");
                ports_ui(ui, &mut draft.ports);
                if let Some(error) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, error);
                }
                ui.horizontal(|ui| {
                    save = ui.button("Save").clicked();
                    cancel = ui.button("Cancel").clicked();
                });
            });
        if cancel {
            self.saved();
            return None;
        }
        save.then(|| draft.clone())
    }
}

/// One row per port: name, type, direction, default, and a button to remove it.
fn ports_ui(ui: &mut egui::Ui, ports: &mut Vec<PortDraft>) {
    let mut remove = None;
    egui::Grid::new("declare ports")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            if !ports.is_empty() {
                for title in ["name", "type", "direction", "default", ""] {
                    ui.label(RichText::new(title).small().weak());
                }
                ui.end_row();
            }
            for (i, port) in ports.iter_mut().enumerate() {
                ui.add(egui::TextEdit::singleline(&mut port.name).desired_width(110.0));
                egui::ComboBox::from_id_salt(("declare port type", i))
                    .selected_text(port.ty.as_str())
                    .width(70.0)
                    .show_ui(ui, |ui| {
                        for ty in PORT_TYPES {
                            ui.selectable_value(&mut port.ty, ty, ty.as_str());
                        }
                    });
                egui::ComboBox::from_id_salt(("declare port direction", i))
                    .selected_text(direction_label(port.direction))
                    .width(60.0)
                    .show_ui(ui, |ui| {
                        for d in [Direction::In, Direction::Out, Direction::InOut] {
                            ui.selectable_value(&mut port.direction, d, direction_label(d));
                        }
                    });
                ui.add_enabled(
                    port.direction == Direction::In,
                    egui::TextEdit::singleline(&mut port.default)
                        .desired_width(90.0)
                        .hint_text("required"),
                );
                if ui
                    .small_button("×")
                    .on_hover_text("Remove this port")
                    .clicked()
                {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
    if let Some(i) = remove {
        ports.remove(i);
    }
    if ui.button("Add Port").clicked() {
        ports.push(PortDraft::new(&format!("port{}", ports.len() + 1)));
    }
}

fn direction_label(direction: Direction) -> &'static str {
    match direction {
        Direction::In => "in",
        Direction::Out => "out",
        Direction::InOut => "in/out",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::testing::Harness;
    use crate::view::UiCx;
    use crate::Session;

    #[test]
    fn typing_a_name_and_a_port_then_save_gives_the_declaration() {
        let mut form = DeclareForm::default();
        form.open();
        let mut saved = Vec::new();
        let mut h = Harness::new(Session::default());
        let mut draw = |ui: &mut egui::Ui, _: &mut UiCx<'_>| {
            saved.extend(form.show(ui.ctx(), "manifests/game.json"));
        };
        h.frame(&mut draw);
        h.click_at(h.text_rect("TakeCover").center(), &mut draw);
        h.type_text("Hide", &mut draw);
        h.click_text("Condition", &mut draw);
        h.click_text("Add Port", &mut draw);
        h.click_text("Save", &mut draw);
        let [declaration] = saved.as_slice() else {
            panic!("{saved:?}")
        };
        assert_eq!(declaration.name, "Hide");
        assert_eq!(declaration.category, Category::Condition);
        assert_eq!(declaration.ports, [PortDraft::new("port1")]);
    }
}
