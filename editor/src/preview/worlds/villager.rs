//! The villager's world: the map with its coloured zones, the villager (with a line to the
//! zone it walks to and what it is doing) and a bar per need, red below the emergency
//! level.

use crate::words;
use arbor_samples::villager::{Activity, Need, Villager};
use egui::{pos2, vec2, Align2, Color32, Rect, Sense, Stroke};

use super::{bar, rgb, text, text_clear_of, text_within, Fit};

const BARS_WIDTH: f32 = 180.0;
const ROW: f32 = 18.0;

pub fn ui(ui: &mut egui::Ui, sim: &Villager) {
    let w = &sim.world;
    let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::hover());
    let rect = response.rect;
    let bars_width = BARS_WIDTH.min(rect.width() * 0.45);
    let map_rect = Rect::from_min_max(
        rect.min,
        pos2(rect.right() - bars_width - 8.0, rect.bottom()),
    );
    let fit = Fit::new(map_rect.shrink(4.0), w.size);

    painter.rect_filled(fit.rect(w.size), 4.0, Color32::from_rgb(38, 50, 38));
    let mut zone_labels = Vec::with_capacity(w.zones.len());
    for zone in &w.zones {
        let color = rgb(zone.color.rgb());
        let centre = fit.pos(zone.center);
        let radius = fit.len(zone.radius);
        painter.circle_filled(centre, radius, color.gamma_multiply(0.3));
        painter.circle_stroke(centre, radius, Stroke::new(1.5, color));
        // Above the circle, not at its centre: the villager stands at a zone's centre,
        // and its own label would be drawn over the zone's name.
        zone_labels.push(text_within(
            &painter,
            (centre - vec2(0.0, radius + 2.0), Align2::CENTER_BOTTOM),
            zone.color.name(),
            Color32::from_gray(230),
            map_rect,
        ));
    }
    let me = fit.pos(w.pos);
    if let Activity::Walking(color) = w.activity {
        if let Some(zone) = w.nearest_zone(color) {
            let stroke = Stroke::new(1.0, rgb(color.rgb()).gamma_multiply(0.8));
            painter.line_segment([me, fit.pos(zone.center)], stroke);
        }
    }
    let body = if w.alive {
        Color32::from_rgb(250, 225, 180)
    } else {
        Color32::from_gray(110)
    };
    painter.circle_filled(me, 6.0, body);
    painter.circle_stroke(me, 6.0, Stroke::new(1.5, Color32::BLACK));
    // Under the villager, or above or beside it when that would cover a zone's name.
    let places = [
        (me + vec2(0.0, 9.0), Align2::CENTER_TOP),
        (me - vec2(0.0, 9.0), Align2::CENTER_BOTTOM),
        (me + vec2(9.0, 0.0), Align2::LEFT_CENTER),
        (me - vec2(9.0, 0.0), Align2::RIGHT_CENTER),
    ];
    text_clear_of(
        &painter,
        &places,
        w.activity,
        Color32::WHITE,
        map_rect,
        &zone_labels,
    );

    let weak = ui.visuals().weak_text_color();
    let strong = ui.visuals().text_color();
    let left = rect.right() - bars_width;
    let column = Rect::from_min_max(pos2(left, rect.top()), rect.max);
    let errands = format!("needs; {} done", words::count(w.errands as usize, "errand"));
    let taken = text_within(
        &painter,
        (pos2(left, rect.top() + 4.0), Align2::LEFT_TOP),
        errands,
        weak,
        column,
    );
    let mut y = taken.bottom() + ROW - 14.0;
    for (need, level) in w.needs.iter() {
        let urgent = matches!(need, Need::Food | Need::Water) && level < w.rules.emergency_below;
        let fill = if urgent {
            Color32::from_rgb(220, 60, 50)
        } else {
            rgb(need.zone().rgb())
        };
        text(
            &painter,
            pos2(left, y),
            Align2::LEFT_TOP,
            need.name(),
            strong,
        );
        let bar_rect =
            Rect::from_min_size(pos2(left + 52.0, y + 2.0), vec2(bars_width - 88.0, 10.0));
        bar(&painter, bar_rect, (level / 100.0) as f32, fill);
        let value = format!("{level:.0}");
        text(
            &painter,
            pos2(rect.right() - 2.0, y),
            Align2::RIGHT_TOP,
            value,
            strong,
        );
        y += ROW;
    }
    if !w.alive {
        text_within(
            &painter,
            (pos2(left, y + 4.0), Align2::LEFT_TOP),
            "the villager died",
            Color32::from_rgb(220, 70, 60),
            column,
        );
    }
}
