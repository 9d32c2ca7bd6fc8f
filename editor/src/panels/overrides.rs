//! The marks of a variant's overrides in the inspector: under each overridden field, a
//! row saying "overridden: base value X" with its two ways out, "apply to base" and
//! "revert" (commands ApplyToBase and RevertOverride, one undo step each). A tree file
//! has no overrides, so nothing is drawn for it.

use egui::{Grid, RichText, Ui};

use super::apply;
use crate::commands::{ApplyToBase, RevertOverride};
use crate::document::Field;
use crate::i18n::t;
use crate::view::{short, UiCx, OVERRIDE_COLOR};

/// Whether the document is a variant that overrides `field`.
pub fn is_overridden(cx: &UiCx<'_>, field: &Field) -> bool {
    cx.session
        .document()
        .variant()
        .is_some_and(|v| v.is_overridden(field))
}

/// The field's name, marked when overridden.
pub fn name_text(cx: &UiCx<'_>, field: &Field, name: RichText) -> RichText {
    if is_overridden(cx, field) {
        name.color(OVERRIDE_COLOR).strong()
    } else {
        name
    }
}

/// In a three-column grid: the row under an overridden field (nothing otherwise).
pub fn override_row(ui: &mut Ui, cx: &mut UiCx<'_>, field: &Field) {
    let Some(base) = cx
        .session
        .document()
        .variant()
        .and_then(|v| v.base_value(field))
        .map(|b| b.map_or_else(|| t("(not set)").to_owned(), short))
    else {
        return;
    };
    ui.label("");
    ui.label(
        RichText::new(format!("{} {base}", t("overridden: base value")))
            .small()
            .color(OVERRIDE_COLOR),
    );
    ui.horizontal(|ui| override_buttons(ui, cx, field));
    ui.end_row();
}

/// "Apply to base" and "Revert" for one overridden field.
fn override_buttons(ui: &mut Ui, cx: &mut UiCx<'_>, field: &Field) {
    let apply_clicked = ui
        .small_button(t("Apply to base"))
        .on_hover_text(t(
            "Make this value the base tree's own (the base is saved with the variant)",
        ))
        .clicked();
    let revert_clicked = ui
        .small_button(t("Revert"))
        .on_hover_text(t("Use the base tree's value again"))
        .clicked();
    if apply_clicked {
        let cmd = ApplyToBase::new(cx.session.document(), field.clone());
        apply(cx, cmd);
    } else if revert_clicked {
        let cmd = RevertOverride::new(cx.session.document(), field.clone());
        apply(cx, cmd);
    }
}

/// With nothing selected in a variant: what it is and its overridden key defaults.
pub fn variant_ui(ui: &mut Ui, cx: &mut UiCx<'_>) {
    let Some(v) = cx.session.document().variant().cloned() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(t("Variant")).strong().color(OVERRIDE_COLOR));
    let name = if v.name().is_empty() {
        cx.session.document().name().to_owned()
    } else {
        v.name().to_owned()
    };
    ui.label(format!("{name} · {} {}", t("base tree"), v.base()));
    if !v.description().is_empty() {
        ui.add(egui::Label::new(RichText::new(v.description()).weak()).wrap());
    }
    let count = v.overridden().count();
    ui.label(format!("{}: {count}", t("Overridden values")));
    if cx.session.base_modified() {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            t("The base has values applied to it: saving writes it too"),
        );
    }
    let keys: Vec<Field> = v
        .overridden()
        .filter(|(f, _)| matches!(f, Field::KeyDefault(_)))
        .map(|(f, _)| f.clone())
        .collect();
    if keys.is_empty() {
        return;
    }
    Grid::new("variant keys")
        .num_columns(3)
        .spacing([8.0, 4.0])
        .show(ui, |ui| {
            for field in &keys {
                let Field::KeyDefault(key) = field else {
                    continue;
                };
                let value = cx
                    .session
                    .document()
                    .field_value(field)
                    .map_or_else(|| t("(not set)").to_owned(), |v| short(&v));
                ui.label(name_text(cx, field, RichText::new(key.as_str())));
                ui.label(value);
                ui.label("");
                ui.end_row();
                override_row(ui, cx, field);
            }
        });
}
