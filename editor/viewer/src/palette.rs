//! The one palette of tree drawings: status colours (nodes, edges, wires, the preview's
//! controls and log, the remote panel), node category colours (a box's fill, a node
//! widget's title), and the fade of a status as its visit ages. Category colours are muted
//! so that status colours stand out.

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

/// A box's fill while statuses are shown: visited, but its status not known yet.
pub const VISITED_FILL: Color32 = Color32::from_gray(60);

/// A box's fill while statuses are shown: not visited.
pub const UNVISITED_FILL: Color32 = Color32::from_gray(55);

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

/// The fill of a box while statuses are shown: its status colour when just visited, fading
/// towards [`VISITED_FILL`] as the visit ages.
pub fn live_fill(live: Option<&NodeLive>) -> Color32 {
    match live {
        Some(l) => match l.status {
            Some(status) => lerp(
                VISITED_FILL,
                status_color(status),
                0.35 + 0.65 * freshness(l),
            ),
            None => VISITED_FILL,
        },
        None => UNVISITED_FILL,
    }
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
    fn a_fresh_visit_is_its_status_colour_and_fades_but_running_does_not() {
        let done = visit(Status::Success, 0.0);
        assert_eq!(live_fill(Some(&done)), status_color(Status::Success));
        let old = visit(Status::Success, 10.0);
        assert_eq!(
            live_fill(Some(&old)),
            lerp(VISITED_FILL, status_color(Status::Success), 0.35)
        );
        let running = visit(Status::Running, 10.0);
        assert_eq!(live_fill(Some(&running)), status_color(Status::Running));
        assert_eq!(live_fill(None), UNVISITED_FILL);
    }
}
