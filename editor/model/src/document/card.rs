//! Card sizes: how big a node's card is on the canvas, in canvas units. The width comes
//! from the node's title (its name, or its type when unnamed) alone, and the height from
//! the rows the node always shows (parameter lines, decorators, a Subtree's file rows and
//! button) plus room for one problem row, whether or not it is showing. So a card keeps its size, and its ports their place, while warnings come and
//! go and the preview runs; and the layout, which reads these sizes, gives the same result
//! at any zoom, and for nodes never drawn.
//!
//! The title's width is estimated from its characters (wide CJK characters count double),
//! generously; the canvas holds the widget to this size and cuts a title that still does
//! not fit with an ellipsis.

use arbor_runtime::format::NodeDef;

/// Narrowest card content, in canvas units.
pub const CARD_MIN_WIDTH: f64 = 170.0;
/// Widest card content; a longer title is cut to fit.
pub const CARD_MAX_WIDTH: f64 = 320.0;
/// Room beside the title for its badges (execution index, root, off, breakpoint).
pub const CARD_BADGES: f64 = 112.0;
/// Margin between a card's content and its edge: horizontal, vertical. The canvas draws
/// ports in the horizontal margin.
pub const CARD_MARGIN: [f64; 2] = [15.0, 5.0];

/// Content height of the rows every card shows (title, type line, children port row).
const BASE_HEIGHT: f64 = 52.0;
/// One parameter line, decorator or status row.
const ROW: f64 = 16.0;
/// The decorator band's own padding.
const BAND: f64 = 10.0;
/// The "Open subtree" button.
const BUTTON: f64 = 24.0;
/// Rows kept free for what comes and goes: the first problem. (A live status row on top
/// of it makes the card taller, never wider: ports sit in the top rows and do not move.)
const TRANSIENT_ROWS: f64 = 1.0;

/// Estimated width of `text` in the title font, in canvas units.
fn title_width(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            // CJK, Hangul, full-width forms and the like: a square glyph.
            c if c >= '\u{2E80}' => 15.0,
            'A'..='Z' | '0'..='9' | 'm' | 'w' | '_' => 10.0,
            c if c.is_ascii() => 7.5,
            _ => 9.0,
        })
        .sum()
}

/// The node's title as its card shows it: its name (its type when unnamed), cut with an
/// ellipsis where it would not fit beside the badges in [`CARD_MAX_WIDTH`].
pub fn card_title(node: &NodeDef) -> String {
    let title = if node.name.is_empty() {
        &node.kind
    } else {
        &node.name
    };
    let room = CARD_MAX_WIDTH - CARD_BADGES - title_width("…");
    if title_width(title) + CARD_BADGES <= CARD_MAX_WIDTH {
        return title.clone();
    }
    let mut used = 0.0;
    let mut cut: String = title
        .chars()
        .take_while(|c| {
            used += title_width(c.encode_utf8(&mut [0; 4]));
            used <= room
        })
        .collect();
    cut.push('…');
    cut
}

/// A card's content size `[w, h]`: the widget's inside, without the margins.
pub fn card_content(node: &NodeDef) -> [f64; 2] {
    let title = if node.name.is_empty() {
        &node.kind
    } else {
        &node.name
    };
    let width = (title_width(title) + CARD_BADGES).clamp(CARD_MIN_WIDTH, CARD_MAX_WIDTH);
    let subtree = node.kind == "Subtree";
    let lines = if subtree {
        // The referenced tree, its path, and the remapped keys if any.
        2 + usize::from(node.params.get("remap").is_some())
    } else {
        node.params.len().min(3) + usize::from(node.params.len() > 3)
    };
    let mut height = BASE_HEIGHT + ROW * (lines as f64 + TRANSIENT_ROWS);
    if !node.decorators.is_empty() {
        height += BAND + ROW * node.decorators.len() as f64;
    }
    if subtree {
        height += BUTTON;
    }
    [width, height]
}

/// A card's outer size `[w, h]`, content plus margins: what the layout keeps apart.
pub fn card_size(node: &NodeDef) -> [f64; 2] {
    let [w, h] = card_content(node);
    [w + 2.0 * CARD_MARGIN[0], h + 2.0 * CARD_MARGIN[1]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbor_runtime::format::DecoratorDef;
    use serde_json::json;

    #[test]
    fn the_width_depends_on_the_title_only() {
        let mut a = NodeDef::new("Wait");
        a.name = "wait for the guard".into();
        let mut b = a.clone();
        b.params.insert("seconds".into(), json!(3));
        b.params.insert("a".into(), json!(1));
        b.decorators.push(DecoratorDef::new("Condition"));
        b.enabled = false;
        assert_eq!(card_content(&a)[0], card_content(&b)[0]);
        assert!(card_content(&b)[1] > card_content(&a)[1]);
        // Unnamed: the type is the title.
        let plain = NodeDef::new("Sequence");
        assert_eq!(
            card_content(&plain)[0],
            (title_width("Sequence") + CARD_BADGES).max(CARD_MIN_WIDTH)
        );
    }

    #[test]
    fn long_and_wide_titles_stay_within_bounds() {
        let mut n = NodeDef::new("Wait");
        n.name = "x".repeat(10_000);
        assert_eq!(card_content(&n)[0], CARD_MAX_WIDTH);
        n.name = "巡逻".into();
        let cjk = card_content(&n)[0];
        n.name = "ab".into();
        assert!(cjk >= card_content(&n)[0]);
        n.name = String::new();
        assert!(card_content(&n)[0] >= CARD_MIN_WIDTH);
    }

    #[test]
    fn a_long_title_is_cut_to_the_widest_card() {
        let mut n = NodeDef::new("Wait");
        n.name = "patrol between the gate and the well".repeat(10);
        let cut = card_title(&n);
        assert!(cut.ends_with('…'));
        assert!(title_width(&cut) + CARD_BADGES <= CARD_MAX_WIDTH);
        n.name = "short".into();
        assert_eq!(card_title(&n), "short");
    }
}
