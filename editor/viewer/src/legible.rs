//! Text that stays legible when a tree is drawn zoomed out (the editor's canvas, the
//! viewer): a screen font size clamped to a readable range, and labels wrapped or
//! shortened at word boundaries (a space, a capital letter starting a word in
//! `CamelCase`, either side of a Chinese or Japanese character) with an ellipsis, or not
//! written at all. Never a label cut mid-word, never text too small to read.

/// The smallest text the zoomed-out canvas writes, in screen points.
pub const MIN_SIZE: f32 = 11.0;
/// The largest: names in large boxes do not grow past the size of normal text.
pub const MAX_SIZE: f32 = 15.0;
/// The smallest size of a node's name: the one text a reader scans a zoomed-out tree
/// for, so a step above the smallest text.
pub const NAME_MIN_SIZE: f32 = 13.0;

/// The screen size of text meant to be `canvas_size` canvas units at `zoom`, clamped to
/// [`MIN_SIZE`]..=[`MAX_SIZE`].
pub fn screen_size(canvas_size: f32, zoom: f32) -> f32 {
    (canvas_size * zoom).clamp(MIN_SIZE, MAX_SIZE)
}

/// The screen size of a node's name meant to be `canvas_size` canvas units at `zoom`,
/// clamped to [`NAME_MIN_SIZE`]..=[`MAX_SIZE`].
pub fn name_size(canvas_size: f32, zoom: f32) -> f32 {
    (canvas_size * zoom).clamp(NAME_MIN_SIZE, MAX_SIZE)
}

/// Whether `c` is written without spaces between words (Chinese, Japanese), so a line
/// may break on either side of it.
fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}' // kana
        | '\u{3400}'..='\u{4dbf}' // CJK extension A
        | '\u{4e00}'..='\u{9fff}' // CJK unified ideographs
        | '\u{f900}'..='\u{faff}') // CJK compatibility ideographs
}

/// Byte offsets where `text` may be cut: before each word after the first (after a run
/// of spaces, at an upper-case letter following a lower-case one or a digit, or either
/// side of a Chinese or Japanese character, except before closing punctuation).
pub fn word_breaks(text: &str) -> Vec<usize> {
    let mut breaks = Vec::new();
    let mut prev: Option<char> = None;
    for (at, c) in text.char_indices() {
        if let Some(p) = prev {
            let after_space = p.is_whitespace() && !c.is_whitespace();
            let camel = c.is_uppercase() && (p.is_lowercase() || p.is_ascii_digit());
            let ideograph = (unspaced(p) || unspaced(c))
                && !c.is_whitespace()
                && !p.is_whitespace()
                && !matches!(
                    c,
                    '，' | '。' | '、' | '？' | '！' | '：' | '；' | '）' | '?' | '!'
                );
            if after_space || camel || ideograph {
                breaks.push(at);
            }
        }
        prev = Some(c);
    }
    breaks
}

/// `text` if `width_of(text)` fits in `max`, else the longest prefix of whole words with
/// an ellipsis that fits, else `None` (not even the first word fits: write nothing).
pub fn fit_words(text: &str, max: f32, width_of: impl Fn(&str) -> f32) -> Option<String> {
    if width_of(text) <= max {
        return Some(text.to_owned());
    }
    word_breaks(text)
        .into_iter()
        .rev()
        .map(|at| format!("{}…", text[..at].trim_end()))
        .find(|candidate| width_of(candidate) <= max)
}

/// `text` on at most `rows` lines, broken at word boundaries (the lines joined by `\n`,
/// spaces at a break dropped), each line fitting in `max`; `None` when the whole text
/// does not fit so (a word wider than `max`, or more lines than `rows`). Greedy: each
/// line takes as many words as fit, which needs the fewest lines.
pub fn fit_lines(
    text: &str,
    max: f32,
    rows: usize,
    width_of: impl Fn(&str) -> f32,
) -> Option<String> {
    let mut words = Vec::new();
    let mut start = 0;
    for at in word_breaks(text).into_iter().chain([text.len()]) {
        words.push(&text[start..at]);
        start = at;
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in words {
        let longer = format!("{line}{word}");
        if line.is_empty() || width_of(longer.trim_end()) <= max {
            line = longer;
        } else {
            lines.push(line.trim_end().to_owned());
            line = word.to_owned();
        }
        if width_of(line.trim_end()) > max {
            return None;
        }
    }
    lines.push(line.trim_end().to_owned());
    (lines.len() <= rows).then(|| lines.join("\n"))
}

/// [`fit_words`] measured with egui's fonts.
pub fn fit_label(
    painter: &egui::Painter,
    text: &str,
    font: &egui::FontId,
    max: f32,
) -> Option<String> {
    fit_words(text, max, |t| {
        painter
            .layout_no_wrap(t.to_owned(), font.clone(), egui::Color32::WHITE)
            .size()
            .x
    })
}

/// The size of annotation text meant to be `canvas_size` canvas units: scaled with the
/// zoom, but never below [`MIN_SIZE`] (it does not shrink past legibility).
pub fn annotation_size(canvas_size: f32, zoom: f32) -> f32 {
    (canvas_size * zoom).max(MIN_SIZE)
}

/// Writes `text` on one line from `left_center`, in whole words fitting `max` points, on
/// `backing` when the text is taller than `band` (the strip it is meant to sit in); writes
/// nothing if even its first word does not fit. `colors` are the text's and the backing's.
pub fn line(
    painter: &egui::Painter,
    text: &str,
    left_center: egui::Pos2,
    size: f32,
    (max, band): (f32, f32),
    (color, backing): (egui::Color32, egui::Color32),
) {
    let font = egui::FontId::proportional(size);
    let Some(text) = fit_label(painter, text, &font, max) else {
        return;
    };
    let galley = painter.layout_no_wrap(text, font, color);
    let at = left_center - egui::vec2(0.0, galley.size().y / 2.0);
    if galley.size().y > band {
        let r = egui::Rect::from_min_size(at, galley.size()).expand2(egui::vec2(4.0, 1.0));
        painter.rect_filled(r, 3.0, backing);
    }
    painter.galley(at, galley, color);
}

/// Writes `text` wrapped at word boundaries inside `area`, as many whole lines as fit (the
/// last one ending in an ellipsis when text is left over); nothing if not one line fits.
pub fn block(
    painter: &egui::Painter,
    text: &str,
    area: egui::Rect,
    size: f32,
    color: egui::Color32,
) {
    let font = egui::FontId::proportional(size);
    let row = painter.fonts_mut(|f| f.row_height(&font));
    let rows = (area.height() / row).floor();
    if rows < 1.0 || area.width() < size * 2.0 {
        return;
    }
    let mut job = egui::text::LayoutJob::simple(text.to_owned(), font, color, area.width());
    job.wrap.max_rows = rows as usize;
    job.wrap.overflow_character = Some('…');
    let galley = painter.layout_job(job);
    painter.galley(area.min, galley, color);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character the same width, as a font-free stand-in.
    fn chars(t: &str) -> f32 {
        t.chars().count() as f32
    }

    #[test]
    fn breaks_between_words_and_camel_case_humps() {
        assert_eq!(word_breaks("Live forever"), [5]);
        assert_eq!(word_breaks("MoveToTarget"), [4, 6]);
        assert_eq!(word_breaks("Walk to  the"), [5, 9]);
        assert_eq!(word_breaks("HTTPServer2Go"), [11]);
        assert!(word_breaks("Sequence").is_empty());
    }

    #[test]
    fn fits_whole_words_with_an_ellipsis_or_nothing() {
        let cases = [
            ("Live forever", 20.0, Some("Live forever")),
            ("Live forever", 8.0, Some("Live…")),
            ("Walk to the well", 12.0, Some("Walk to the…")),
            ("MoveToTarget", 7.0, Some("MoveTo…")),
            // Never cut mid-word: nothing rather than "Seq…".
            ("Sequence", 5.0, None),
            ("Live forever", 4.0, None),
        ];
        for (text, max, expected) in cases {
            assert_eq!(
                fit_words(text, max, chars).as_deref(),
                expected,
                "{text} in {max}"
            );
        }
    }

    #[test]
    fn wraps_whole_words_onto_the_rows_given_or_nothing() {
        let cases = [
            (
                "Walk to the green zone",
                12.0,
                2,
                Some("Walk to the\ngreen zone"),
            ),
            (
                "Walk to the green zone",
                30.0,
                1,
                Some("Walk to the green zone"),
            ),
            ("Walk to the green zone", 9.0, 2, None),
            (
                "KeepRunningUntilFailure",
                12.0,
                2,
                Some("KeepRunning\nUntilFailure"),
            ),
            // A word wider than a line: nothing, never a word cut.
            ("Errands", 5.0, 3, None),
            ("走到绿色区域", 4.0, 2, Some("走到绿色\n区域")),
            ("饿了？", 2.0, 2, Some("饿\n了？")),
        ];
        for (text, max, rows, expected) in cases {
            assert_eq!(
                fit_lines(text, max, rows, chars).as_deref(),
                expected,
                "{text} in {max} x {rows}"
            );
        }
    }

    #[test]
    fn chinese_breaks_between_characters_but_not_before_closing_punctuation() {
        assert_eq!(word_breaks("走到绿色"), [3, 6, 9]);
        assert_eq!(word_breaks("饿了？"), [3]);
        assert_eq!(word_breaks("Walk 到"), [5]);
    }

    #[test]
    fn screen_size_is_clamped_to_a_readable_range() {
        assert_eq!(screen_size(15.0, 0.1), MIN_SIZE);
        assert_eq!(screen_size(15.0, 0.8), 12.0);
        assert_eq!(screen_size(15.0, 3.0), MAX_SIZE);
        assert_eq!(annotation_size(14.0, 0.25), MIN_SIZE);
        assert_eq!(annotation_size(14.0, 2.0), 28.0);
    }
}
