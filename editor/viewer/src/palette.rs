//! The one palette of tree drawings: status colours (the ring around a node while a tree
//! runs, edges, wires, the preview's controls and log, the remote panel), node category
//! colours (a box's fill, a node widget's title, kept while a tree runs), and the fade of
//! a status as its visit ages. Category colours are muted so that status colours stand
//! out.

use arbor_runtime::{Category, Status};
use egui::Color32;

use crate::NodeLive;

/// The colour of a status, wherever one is drawn.
pub fn status_color(status: Status) -> Color32 {
    match status {
        Status::Running => Color32::from_rgb(226, 178, 32),
        Status::Success => Color32::from_rgb(60, 170, 80),
        Status::Failure => Color32::from_rgb(210, 70, 70),
    }
}

/// A node's colour by category (`None`: a type the registry does not know).
pub fn category_color(category: Option<Category>) -> Color32 {
    match category {
        Some(Category::Composite) => Color32::from_rgb(70, 96, 130),
        Some(Category::Decorator) => Color32::from_rgb(104, 86, 136),
        Some(Category::Condition) => Color32::from_rgb(62, 118, 118),
        Some(Category::Action) => Color32::from_rgb(96, 96, 80),
        Some(Category::Subtree) => Color32::from_rgb(80, 112, 80),
        Some(Category::Attached) | None => Color32::from_rgb(120, 60, 60),
    }
}

/// The colour of edges, wires and ports at rest.
pub const EDGE_COLOR: Color32 = Color32::from_rgb(140, 150, 165);

/// The colour of a box's children port.
pub const PORT_COLOR: Color32 = Color32::from_rgb(170, 180, 195);

/// What a box's fill is blended towards while statuses are shown and it was not visited.
pub const UNVISITED_FILL: Color32 = Color32::from_gray(40);

/// How long a visited node keeps its status colour before fading to dim, in seconds.
pub const FADE_SECONDS: f32 = 0.6;

/// The fade factor of a live status: 1 when just visited (and always while running), 0
/// when faded out.
pub fn freshness(live: &NodeLive) -> f32 {
    if live.status == Some(Status::Running) {
        1.0
    } else {
        (1.0 - live.age / FADE_SECONDS).clamp(0.0, 1.0)
    }
}

/// The fill of a box while statuses are shown: its category colour (the status goes in
/// a ring around it, [`status_ring`]), dimmed when the node was not visited.
pub fn live_fill(category: Option<Category>, live: Option<&NodeLive>) -> Color32 {
    let base = category_color(category);
    match live {
        Some(_) => base,
        None => lerp(UNVISITED_FILL, base, 0.5),
    }
}

/// The colour of the ring around a node while statuses are shown: its status colour when
/// just visited (and always while running), fading as the visit ages; `None` for a node
/// without a status.
pub fn status_ring(live: Option<&NodeLive>) -> Option<Color32> {
    let live = live?;
    let status = live.status?;
    Some(status_color(status).gamma_multiply(0.35 + 0.65 * freshness(live)))
}

/// Linear blend between two colours (opaque).
pub fn lerp(a: Color32, b: Color32, t: f32) -> Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(status: Status, age: f32) -> NodeLive {
        NodeLive {
            status: Some(status),
            age,
            ..NodeLive::default()
        }
    }

    #[test]
    fn a_visit_keeps_the_category_colour_and_rings_in_a_fading_status_colour() {
        let action = Some(Category::Action);
        let done = visit(Status::Success, 0.0);
        assert_eq!(live_fill(action, Some(&done)), category_color(action));
        assert_eq!(
            status_ring(Some(&done)),
            Some(status_color(Status::Success))
        );
        let old = visit(Status::Success, 10.0);
        assert_eq!(
            status_ring(Some(&old)),
            Some(status_color(Status::Success).gamma_multiply(0.35))
        );
        let running = visit(Status::Running, 10.0);
        assert_eq!(
            status_ring(Some(&running)),
            Some(status_color(Status::Running))
        );
        assert_eq!(status_ring(None), None);
        // Not visited: dimmer, but still its category's hue.
        let dim = live_fill(action, None);
        assert_ne!(dim, category_color(action));
        assert_eq!(dim, lerp(UNVISITED_FILL, category_color(action), 0.5));
    }
}
