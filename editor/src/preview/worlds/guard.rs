//! The guard's yard: the patrol route and its waypoints, the bushes, the guard with its
//! field of view (yellow while it sees the intruder), and the intruder (faint while hidden).

use arbor_samples::guard::{Guard, IntruderMode};
use egui::{pos2, vec2, Align2, Color32, Sense, Shape, Stroke};

use super::{text, Fit};

pub fn ui(ui: &mut egui::Ui, sim: &Guard) {
    let w = &sim.world;
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::hover());
    let rect = response.rect;
    // Leave a line at the bottom for the caption.
    let map = egui::Rect::from_min_max(rect.min, pos2(rect.right(), rect.bottom() - 16.0));
    let fit = Fit::new(map.shrink(4.0), w.size);
    painter.rect_filled(fit.rect(w.size), 4.0, Color32::from_rgb(52, 60, 44));

    let route: Vec<_> = w.waypoints.iter().map(|&p| fit.pos(p)).collect();
    let route_stroke = Stroke::new(1.0, Color32::from_gray(150));
    painter.add(Shape::closed_line(route.clone(), route_stroke));
    for (i, &p) in route.iter().enumerate() {
        painter.circle_filled(p, 3.0, Color32::from_gray(170));
        text(
            &painter,
            p + vec2(5.0, -5.0),
            Align2::LEFT_BOTTOM,
            i,
            Color32::from_gray(190),
        );
    }
    for bush in &w.bushes {
        painter.circle_filled(
            fit.pos(bush.center),
            fit.len(bush.radius),
            Color32::from_rgb(40, 120, 50),
        );
    }

    let guard = fit.pos(w.guard);
    let sight = if w.sees_intruder {
        Color32::from_rgb(240, 200, 60)
    } else {
        Color32::from_gray(200)
    };
    let view = fit.len(w.view_radius);
    painter.circle_filled(guard, view, sight.gamma_multiply(0.08));
    painter.circle_stroke(guard, view, Stroke::new(1.0, sight.gamma_multiply(0.5)));
    let intruder = fit.pos(w.intruder.pos);
    if w.sees_intruder {
        painter.line_segment([guard, intruder], Stroke::new(1.0, sight));
    }
    let hidden = w.intruder.is_hidden();
    let red = Color32::from_rgb(220, 70, 60);
    painter.circle_filled(
        intruder,
        4.5,
        if hidden { red.gamma_multiply(0.3) } else { red },
    );
    painter.circle_filled(guard, 5.5, Color32::from_rgb(80, 130, 230));
    painter.circle_stroke(guard, 5.5, Stroke::new(1.5, Color32::BLACK));

    let doing = match w.intruder.mode {
        IntruderMode::Wander { .. } => "wandering",
        IntruderMode::Flee { .. } => "fleeing to a bush",
        IntruderMode::Hide { .. } => "hiding",
    };
    let caption = format!("intruder {doing}; {} caught", w.catches);
    let weak = ui.visuals().weak_text_color();
    text(
        &painter,
        pos2(rect.left() + 4.0, rect.bottom() - 2.0),
        Align2::LEFT_BOTTOM,
        caption,
        weak,
    );
}
