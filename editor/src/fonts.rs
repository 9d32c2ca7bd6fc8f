//! Chinese, Japanese and Korean text: a system CJK font added to egui's fonts as a fallback
//! after its own, so node names, notes, blackboard keys, log lines and the 简体中文 UI render
//! instead of showing boxes.
//!
//! Why a system font and not one embedded in the binary: a subset small enough to embed
//! (the ~3,500 common characters, about 1–2 MB) still shows boxes for a rare character in
//! a name, and the full Noto Sans CJK face is 16 MB per weight. Every desktop that is set
//! up for Chinese has such a font already. The cost is measured in docs/editor.md.
//!
//! Where it is looked for, first found wins: `ARBOR_CJK_FONT` (`PATH` or `PATH:INDEX`,
//! or `none` to load none), well-known paths of Noto Sans CJK, WenQuanYi, Droid Sans
//! Fallback, Microsoft YaHei and PingFang, then fontconfig (`fc-list :lang=zh-cn`). A
//! candidate is read through the bounded reader and checked before egui sees it (egui
//! panics on a font it cannot parse): it must parse and map 中. Without one the editor runs
//! on egui's own fonts and says so in one line.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use arbor_runtime::files::{read_bytes, ReadError};

/// The smallest text the editor draws at 100 %, in points: egui's `Small` style is 9,
/// which is hard to read, so the app sets `Small` to this (and hints, counts and tags
/// ask for it by size).
pub const SMALL_TEXT: f32 = 11.0;

/// The name the font is registered under in egui's [`egui::FontDefinitions`].
pub const FONT_NAME: &str = "arbor-cjk";

/// Larger than any CJK face shipped (Noto Serif CJK Bold is 27 MB), far below memory.
const FONT_LIMIT: u64 = 64 * 1024 * 1024;

/// A face in a font file (`index` picks one out of a `.ttc` collection).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FontFile {
    pub path: PathBuf,
    pub index: u32,
}

/// Why a CJK font could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    #[error(
        "no CJK font found (install Noto Sans CJK, e.g. fonts-noto-cjk, or set ARBOR_CJK_FONT)"
    )]
    NotFound,
    #[error("CJK fonts turned off (ARBOR_CJK_FONT=none)")]
    TurnedOff,
    #[error("cannot read the CJK font {path}: {why}")]
    Read { path: PathBuf, why: ReadError },
    #[error("the CJK font {path} (face {index}) is not a usable font: {why}")]
    Unusable {
        path: PathBuf,
        index: u32,
        why: String,
    },
}

/// Known places, `.ttc` face index for Simplified Chinese included (Noto's order is JP,
/// KR, SC, TC, HK).
const KNOWN: &[(&str, u32)] = &[
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", 2),
    (
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        2,
    ),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    (
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        0,
    ),
    ("C:\\Windows\\Fonts\\msyh.ttc", 0),
    ("/System/Library/Fonts/PingFang.ttc", 0),
];

/// Where the CJK font is, by the order in the module doc.
pub fn locate() -> Result<FontFile, FontError> {
    if let Some(chosen) = std::env::var_os("ARBOR_CJK_FONT") {
        let chosen = chosen.to_string_lossy().into_owned();
        if chosen.eq_ignore_ascii_case("none") {
            return Err(FontError::TurnedOff);
        }
        return Ok(parse_choice(&chosen));
    }
    if let Some((path, index)) = KNOWN.iter().find(|(p, _)| Path::new(p).is_file()) {
        return Ok(FontFile {
            path: PathBuf::from(path),
            index: *index,
        });
    }
    fontconfig().ok_or(FontError::NotFound)
}

/// `PATH` or `PATH:INDEX` (a path may itself hold colons, so only a numeric tail counts).
fn parse_choice(chosen: &str) -> FontFile {
    if let Some((path, index)) = chosen.rsplit_once(':') {
        if let Ok(index) = index.parse() {
            return FontFile {
                path: PathBuf::from(path),
                index,
            };
        }
    }
    FontFile {
        path: PathBuf::from(chosen),
        index: 0,
    }
}

/// The first Simplified-Chinese face fontconfig knows, sans-serif preferred.
fn fontconfig() -> Option<FontFile> {
    let out = std::process::Command::new("fc-list")
        .args([":lang=zh-cn", "file", "index"])
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut faces: Vec<FontFile> = text.lines().filter_map(parse_fc_line).collect();
    faces.sort_by_key(|f| !f.path.to_string_lossy().contains("Sans"));
    faces.into_iter().next()
}

/// One `fc-list ... file index` line: `/path/font.ttc: :index=2`.
fn parse_fc_line(line: &str) -> Option<FontFile> {
    let (path, rest) = line.split_once(": ")?;
    let index = rest
        .trim()
        .trim_start_matches(':')
        .strip_prefix("index=")
        .and_then(|i| i.parse().ok())
        .unwrap_or(0);
    Some(FontFile {
        path: PathBuf::from(path.trim()),
        index,
    })
}

/// Reads and checks a face: it parses and has a glyph for 中.
pub fn load(file: &FontFile) -> Result<&'static [u8], FontError> {
    let bytes = read_bytes(&file.path, FONT_LIMIT).map_err(|why| FontError::Read {
        path: file.path.clone(),
        why,
    })?;
    check(&bytes, file.index).map_err(|why| FontError::Unusable {
        path: file.path.clone(),
        index: file.index,
        why,
    })?;
    // Kept for the life of the program: egui copies owned font bytes each time it
    // rebuilds its fonts (a scale change), 16 MB a time; borrowed ones it does not.
    Ok(Box::leak(bytes.into_boxed_slice()))
}

fn check(bytes: &[u8], index: u32) -> Result<(), String> {
    use skrifa::MetadataProvider as _;
    let font = skrifa::FontRef::from_index(bytes, index).map_err(|e| e.to_string())?;
    if font.charmap().map('中').is_none() {
        return Err("it has no Chinese characters".to_owned());
    }
    Ok(())
}

/// The CJK face, found and loaded once per process.
fn cjk() -> &'static Result<(FontFile, &'static [u8]), FontError> {
    static CJK: OnceLock<Result<(FontFile, &'static [u8]), FontError>> = OnceLock::new();
    CJK.get_or_init(|| {
        let file = locate()?;
        let bytes = load(&file)?;
        Ok((file, bytes))
    })
}

/// Adds the CJK face to `ctx`'s fonts, after egui's own in both families (so Latin text
/// keeps its look). On failure the fonts stay as they were and the error says why.
pub fn install(ctx: &egui::Context) -> Result<&'static FontFile, &'static FontError> {
    let (file, bytes) = match cjk() {
        Ok((file, bytes)) => (file, *bytes),
        Err(e) => return Err(e),
    };
    let mut fonts = egui::FontDefinitions::default();
    let mut data = egui::FontData::from_static(bytes);
    data.index = file.index;
    fonts
        .font_data
        .insert(FONT_NAME.to_owned(), std::sync::Arc::new(data));
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(FONT_NAME.to_owned());
    }
    ctx.set_fonts(fonts);
    Ok(file)
}

/// [`install`], reporting the outcome in one line on stderr when there is no CJK font.
pub fn install_or_say(ctx: &egui::Context) {
    if let Err(e) = install(ctx) {
        eprintln!("arbor-editor: {e}; Chinese text will show as boxes");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_may_name_a_face() {
        assert_eq!(
            parse_choice("/f/a.ttc:3"),
            FontFile {
                path: "/f/a.ttc".into(),
                index: 3
            }
        );
        assert_eq!(parse_choice("/f/a:b.ttf").index, 0);
        assert_eq!(parse_choice("/f/a:b.ttf").path, PathBuf::from("/f/a:b.ttf"));
    }

    #[test]
    fn fontconfig_lines_give_path_and_face() {
        let f = parse_fc_line("/usr/share/fonts/x/NotoSansCJK-Regular.ttc: :index=2").unwrap();
        assert_eq!(f.index, 2);
        assert!(f.path.ends_with("NotoSansCJK-Regular.ttc"));
        assert!(parse_fc_line("garbage").is_none());
    }

    #[test]
    fn a_file_that_is_not_a_font_is_refused_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fake.ttc");
        std::fs::write(&path, b"not a font at all").unwrap();
        let err = load(&FontFile { path, index: 0 }).unwrap_err();
        assert!(matches!(err, FontError::Unusable { .. }), "{err}");
    }

    #[test]
    fn a_missing_file_is_a_read_error() {
        let err = load(&FontFile {
            path: "/nowhere/font.ttc".into(),
            index: 0,
        })
        .unwrap_err();
        assert!(err.to_string().contains("/nowhere/font.ttc"), "{err}");
    }
}
