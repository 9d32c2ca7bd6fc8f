//! Toasts: short messages in the corner (a refused connection and why, a saved file). They
//! fade after a few seconds; errors stay longer.

use std::time::Duration;

#[derive(Clone, Debug)]
struct Toast {
    text: String,
    error: bool,
    shown_at: Option<f64>,
}

/// Messages waiting to be shown or on screen.
#[derive(Debug, Default)]
pub struct Toasts {
    items: Vec<Toast>,
}

impl Toasts {
    pub fn info(&mut self, text: impl Into<String>) {
        self.push(text.into(), false);
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.push(text.into(), true);
    }

    fn push(&mut self, text: String, error: bool) {
        self.items.retain(|t| t.text != text);
        self.items.push(Toast {
            text,
            error,
            shown_at: None,
        });
        if self.items.len() > 5 {
            self.items.remove(0);
        }
    }

    /// The texts currently queued or shown, oldest first (for tests).
    pub fn texts(&self) -> Vec<&str> {
        self.items.iter().map(|t| t.text.as_str()).collect()
    }

    pub fn show(&mut self, ctx: &egui::Context) {
        let now = ctx.input(|i| i.time);
        self.items.retain(|t| {
            let life = if t.error { 8.0 } else { 4.0 };
            t.shown_at.is_none_or(|at| now - at < life)
        });
        if self.items.is_empty() {
            return;
        }
        egui::Area::new(egui::Id::new("toasts"))
            .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-12.0, -12.0))
            .order(egui::Order::Foreground)
            .interactable(false)
            .show(ctx, |ui| {
                for toast in &mut self.items {
                    toast.shown_at.get_or_insert(now);
                    let (fill, text) = if toast.error {
                        (egui::Color32::from_rgb(120, 30, 30), egui::Color32::WHITE)
                    } else {
                        (ui.visuals().extreme_bg_color, ui.visuals().text_color())
                    };
                    egui::Frame::popup(ui.style()).fill(fill).show(ui, |ui| {
                        ui.set_max_width(420.0);
                        ui.colored_label(text, &toast.text);
                    });
                }
            });
        ctx.request_repaint_after(Duration::from_millis(500));
    }
}
