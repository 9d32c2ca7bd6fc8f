//! XML in and out: roxmltree's read-only DOM copied into a small owned tree with
//! positions, and an escaping writer.
//!
//! Copying into [`Element`] lets the later passes keep elements around without roxmltree's
//! borrowed lifetimes, and bounds nesting with a clear error (hostile input cannot
//! overflow the stack of the recursive passes that follow). roxmltree itself refuses DTDs
//! by default, so entity-expansion attacks are rejected by the parser.

use std::fmt::Write as _;

use super::XmlProblem;

/// Deepest element nesting accepted (as `LoadOptions::max_depth`).
pub(crate) const MAX_DEPTH: usize = 256;
/// Most elements accepted in one document.
const MAX_NODES: u32 = 1_000_000;
/// Most attributes accepted on one element. roxmltree compares each attribute with the
/// element's earlier ones (duplicates are an error), so an element's cost grows with the
/// square of its attributes; with this bound the whole document stays linear.
pub(crate) const MAX_ATTRIBUTES: usize = 256;

/// One XML element: its name, attributes in document order, child elements and the text
/// directly inside it (used for port descriptions in `<TreeNodesModel>`).
#[derive(Clone, Debug)]
pub(crate) struct Element {
    pub tag: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Element>,
    pub text: String,
    /// 1-based line and column of the start tag.
    pub line: u32,
    pub column: u32,
}

impl Element {
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn problem(&self, origin: &str, message: impl Into<String>) -> XmlProblem {
        XmlProblem {
            origin: origin.to_owned(),
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    /// An element at line 1, column 1, for the tests of the import's rewrites.
    #[cfg(test)]
    pub(crate) fn for_test(tag: &str, attrs: &[(&str, &str)], children: Vec<Element>) -> Element {
        Element {
            tag: tag.to_owned(),
            attrs: attrs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            children,
            text: String::new(),
            line: 1,
            column: 1,
        }
    }
}

/// As [`parse`], but first repairs what BT.CPP's XML library (TinyXML2) accepts and strict
/// XML does not, each with a located warning: text before the document element
/// (`// clang-format off` above `<root>`) is blanked out, and a raw `&` or `<` inside an
/// attribute value (`if="A && B"`, `code="a<b"`) is escaped. Blanking keeps every position;
/// an escape shifts later columns of its line.
pub(crate) fn parse_tolerant(
    text: &str,
    origin: &str,
) -> Result<(Element, Vec<XmlProblem>), XmlProblem> {
    let (fixed, notes) = tolerate(text);
    // The notes come in document order: one cursor locates them all in one pass (locating
    // each from the start made 32,000 raw `&`s quadratic).
    let mut cursor = Cursor::default();
    let warnings = notes
        .into_iter()
        .map(|(at, message)| {
            let (line, column) = cursor.at(text, at);
            XmlProblem {
                origin: origin.to_owned(),
                line,
                column,
                message,
            }
        })
        .collect();
    parse(&fixed, origin).map(|root| (root, warnings))
}

/// The repairs of [`parse_tolerant`]: the repaired text and (byte offset, warning) pairs.
/// One linear pass; quoted values are only looked at inside tags.
fn tolerate(text: &str) -> (String, Vec<(usize, String)>) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut notes = Vec::new();
    let mut i = 0;
    // Prolog: declarations, comments and whitespace are fine; other text is blanked.
    while i < bytes.len() {
        let rest = &text[i..];
        if rest.starts_with("<?") || rest.starts_with("<!--") {
            let end = if rest.starts_with("<?") { "?>" } else { "-->" };
            let len = rest.find(end).map_or(rest.len(), |e| e + end.len());
            out.push_str(&rest[..len]);
            i += len;
        } else if rest.starts_with('<') {
            break;
        } else if bytes[i].is_ascii_whitespace() || rest.starts_with('\u{feff}') {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            i += c.len_utf8();
        } else {
            let len = rest.find('<').unwrap_or(rest.len());
            notes.push((
                i,
                "text before the document element ignored (BT.CPP accepts it)".to_owned(),
            ));
            out.extend(
                rest[..len]
                    .chars()
                    .map(|c| if c == '\n' { '\n' } else { ' ' }),
            );
            i += len;
        }
    }
    // Body: inside a tag, escape raw `&` and `<` in quoted values.
    let mut in_tag = false;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        let rest = &text[i..];
        match (in_tag, quote) {
            (false, _) => {
                if rest.starts_with("<!--")
                    || rest.starts_with("<![CDATA[")
                    || rest.starts_with("<?")
                {
                    let end = if rest.starts_with("<!--") {
                        "-->"
                    } else if rest.starts_with("<?") {
                        "?>"
                    } else {
                        "]]>"
                    };
                    let len = rest.find(end).map_or(rest.len(), |e| e + end.len());
                    out.push_str(&rest[..len]);
                    i += len;
                    continue;
                }
                in_tag = b == b'<';
            }
            (true, None) => match b {
                b'"' | b'\'' => quote = Some(b),
                b'>' => in_tag = false,
                _ => {}
            },
            (true, Some(q)) => {
                if b == q {
                    quote = None;
                } else if b == b'&' && !is_entity(&rest[1..]) {
                    notes.push((
                        i,
                        "raw `&` in an attribute value read as `&amp;`".to_owned(),
                    ));
                    out.push_str("&amp;");
                    i += 1;
                    continue;
                } else if b == b'<' {
                    notes.push((i, "raw `<` in an attribute value read as `&lt;`".to_owned()));
                    out.push_str("&lt;");
                    i += 1;
                    continue;
                }
            }
        }
        let c = rest.chars().next().expect("not empty");
        out.push(c);
        i += c.len_utf8();
    }
    (out, notes)
}

/// Whether `rest` (after an `&`) starts an entity or character reference. Looks at bytes,
/// not a slice of the text: the 12 bytes after the `&` may end inside a multi-byte
/// character (`&lt; 10 km →`), and the `;` sought is ASCII anyway.
fn is_entity(rest: &str) -> bool {
    let Some(end) = rest.bytes().take(12).position(|b| b == b';') else {
        return false;
    };
    let name = &rest[..end];
    matches!(name, "amp" | "lt" | "gt" | "quot" | "apos")
        || name
            .strip_prefix("#x")
            .is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
        || name
            .strip_prefix('#')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
}

/// Parses a document and returns its root element.
pub(crate) fn parse(text: &str, origin: &str) -> Result<Element, XmlProblem> {
    // roxmltree parses nested elements recursively, and checks attributes for duplicates
    // pairwise: refuse deep nesting and crowded elements before it sees them.
    if let Some((at, why)) = prescan(text) {
        let (line, column) = line_column(text, at);
        let message = match why {
            Refusal::Deep => format!("elements nest more than {MAX_DEPTH} levels deep"),
            Refusal::Crowded => format!(
                "the element has more than {MAX_ATTRIBUTES} attributes; Arbor reads at most {MAX_ATTRIBUTES}"
            ),
        };
        return Err(XmlProblem {
            origin: origin.to_owned(),
            line,
            column,
            message,
        });
    }
    let options = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_NODES,
        // No DTD, so no entities to resolve: nothing is read from outside the text.
        entity_resolver: None,
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(|e| {
        let pos = e.pos();
        XmlProblem {
            origin: origin.to_owned(),
            line: pos.row,
            column: pos.col,
            message: format!("malformed XML: {e}"),
        }
    })?;
    let mut cursor = Cursor::default();
    copy(text, &mut cursor, doc.root_element(), 1, origin)
}

/// Lines and columns of increasing byte offsets, found by scanning forward from the last
/// one. roxmltree's `text_pos_at` scans from the start of the document each time, which
/// made importing a Sequence of 100,000 children quadratic; elements are copied in
/// document order, so each byte is scanned once.
#[derive(Default)]
struct Cursor {
    offset: usize,
    line: u32,
    column: u32,
}

impl Cursor {
    fn at(&mut self, text: &str, offset: usize) -> (u32, u32) {
        if offset < self.offset || self.line == 0 {
            *self = Cursor {
                offset: 0,
                line: 1,
                column: 1,
            };
        }
        let Some(between) = text.get(self.offset..offset) else {
            return (self.line, self.column);
        };
        crate::work::add(crate::work::Counter::XmlPositionBytes, between.len() as u64);
        for c in between.chars() {
            if c == '\n' {
                self.line += 1;
                self.column = 1;
            } else {
                self.column += 1;
            }
        }
        self.offset = offset;
        (self.line, self.column)
    }
}

fn copy(
    text: &str,
    cursor: &mut Cursor,
    node: roxmltree::Node<'_, '_>,
    depth: usize,
    origin: &str,
) -> Result<Element, XmlProblem> {
    let (row, col) = cursor.at(text, node.range().start);
    if depth > MAX_DEPTH {
        return Err(XmlProblem {
            origin: origin.to_owned(),
            line: row,
            column: col,
            message: format!("elements nest more than {MAX_DEPTH} levels deep"),
        });
    }
    let mut element = Element {
        tag: node.tag_name().name().to_owned(),
        attrs: node
            .attributes()
            .map(|a| (a.name().to_owned(), a.value().to_owned()))
            .collect(),
        children: Vec::new(),
        text: String::new(),
        line: row,
        column: col,
    };
    for child in node.children() {
        if child.is_element() {
            element
                .children
                .push(copy(text, cursor, child, depth + 1, origin)?);
        } else if child.is_text() {
            element.text.push_str(child.text().unwrap_or(""));
        }
    }
    Ok(element)
}

/// What [`prescan`] refuses.
#[derive(Debug, PartialEq)]
enum Refusal {
    /// Nested deeper than [`MAX_DEPTH`].
    Deep,
    /// More than [`MAX_ATTRIBUTES`] attributes.
    Crowded,
}

/// The byte offset of the first start tag nested deeper than `MAX_DEPTH` or carrying more
/// than `MAX_ATTRIBUTES` attributes, if any. A light linear scan that skips comments,
/// CDATA, processing instructions, declarations and quoted attribute values (an attribute
/// is counted by its `=` outside quotes); malformed input is left for roxmltree to report.
fn prescan(text: &str) -> Option<(usize, Refusal)> {
    let bytes = text.as_bytes();
    let skip_to = |from: usize, end: &str| {
        text[from..]
            .find(end)
            .map_or(bytes.len(), |i| from + i + end.len())
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        if rest.starts_with("<!--") {
            i = skip_to(i, "-->");
        } else if rest.starts_with("<![CDATA[") {
            i = skip_to(i, "]]>");
        } else if rest.starts_with("<?") {
            i = skip_to(i, "?>");
        } else if rest.starts_with("<!") {
            i = skip_to(i, ">");
        } else if rest.starts_with("</") {
            depth = depth.saturating_sub(1);
            i = skip_to(i, ">");
        } else {
            let start = i;
            let mut quote = None;
            let mut attributes = 0usize;
            i += 1;
            while i < bytes.len() {
                match (quote, bytes[i]) {
                    (Some(q), c) if c == q => quote = None,
                    (None, b'"' | b'\'') => quote = Some(bytes[i]),
                    (None, b'=') => {
                        attributes += 1;
                        if attributes > MAX_ATTRIBUTES {
                            return Some((start, Refusal::Crowded));
                        }
                    }
                    (None, b'>') => break,
                    _ => {}
                }
                i += 1;
            }
            let self_closing = i > 0 && i < bytes.len() && bytes[i - 1] == b'/';
            if !self_closing {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some((start, Refusal::Deep));
                }
            }
            i += 1;
        }
    }
    None
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, at: usize) -> (u32, u32) {
    let before = &text[..at.min(text.len())];
    crate::work::add(crate::work::Counter::XmlPositionBytes, before.len() as u64);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u32, column as u32)
}

/// Whether XML 1.0 can hold `c` at all (its `Char` production): not most C0 controls,
/// not U+FFFE or U+FFFF; not even as a character reference.
pub(crate) fn fits_xml(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Escapes an attribute value for double quotes. Line breaks and tabs become character
/// references, since XML attribute normalisation would otherwise turn them into spaces.
/// A character XML cannot hold becomes U+FFFD, so the output is always well-formed (the
/// export refuses such names first; this is the last line of defence).
pub(crate) fn escape_attr(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            c if !fits_xml(c) => out.push('\u{FFFD}'),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes element text.
pub(crate) fn escape_text(value: &str) -> String {
    value
        .replace(|c| !fits_xml(c), "\u{FFFD}")
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An element to write: built in memory, then printed with two-space indentation.
#[derive(Clone, Debug, Default)]
pub(crate) struct Out {
    pub tag: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Out>,
    pub text: Option<String>,
}

impl Out {
    pub(crate) fn new(tag: impl Into<String>) -> Out {
        Out {
            tag: tag.into(),
            ..Out::default()
        }
    }

    pub(crate) fn attr(mut self, name: impl Into<String>, value: impl Into<String>) -> Out {
        self.push_attr(name, value);
        self
    }

    /// Adds an attribute unless one of that name is already there.
    pub(crate) fn push_attr(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        if !self.attrs.iter().any(|(n, _)| *n == name) {
            self.attrs.push((name, value.into()));
        }
    }

    pub(crate) fn has_attr(&self, name: &str) -> bool {
        self.attrs.iter().any(|(n, _)| n == name)
    }

    pub(crate) fn write(&self, out: &mut String, indent: usize) {
        let pad = "  ".repeat(indent);
        let _ = write!(out, "{pad}<{}", self.tag);
        for (name, value) in &self.attrs {
            let _ = write!(out, " {name}=\"{}\"", escape_attr(value));
        }
        match (&self.text, self.children.is_empty()) {
            (None, true) => out.push_str("/>\n"),
            (Some(text), true) => {
                let _ = writeln!(out, ">{}</{}>", escape_text(text), self.tag);
            }
            (text, false) => {
                out.push_str(">\n");
                if let Some(text) = text {
                    let _ = writeln!(out, "{pad}  {}", escape_text(text));
                }
                for child in &self.children {
                    child.write(out, indent + 1);
                }
                let _ = writeln!(out, "{pad}</{}>", self.tag);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_xml_is_located() {
        let err = parse("<root>\n  <Sequence>\n</root>", "t.xml").unwrap_err();
        assert_eq!(err.origin, "t.xml");
        assert_eq!(err.line, 3, "{err:?}");
        assert!(err.message.contains("malformed XML"), "{err:?}");
    }

    #[test]
    fn dtds_are_refused() {
        let text = "<!DOCTYPE root [<!ENTITY a \"aaaa\">]><root>&a;</root>";
        assert!(parse(text, "t.xml").is_err());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let depth = 100_000;
        let text = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        let err = parse(&text, "deep.xml").unwrap_err();
        assert!(err.message.contains("nest"), "{err:?}");
    }

    #[test]
    fn nesting_is_measured_past_comments_and_attribute_values() {
        let ok = format!(
            "<root>{}<a x=\"/>\" y='>'><!-- <b> --><![CDATA[<c>]]><d/></a></root>",
            "<e>".repeat(MAX_DEPTH - 3) + &"</e>".repeat(MAX_DEPTH - 3)
        );
        assert_eq!(prescan(&ok), None);
        let deep = "<e>".repeat(MAX_DEPTH + 1);
        assert_eq!(prescan(&deep), Some((3 * MAX_DEPTH, Refusal::Deep)));
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
    }

    #[test]
    fn attributes_are_counted_outside_quotes() {
        let attrs = |n: usize| (0..n).map(|i| format!(" a{i}=\"x=y\"")).collect::<String>();
        let ok = format!("<root><e{}/></root>", attrs(MAX_ATTRIBUTES));
        assert_eq!(prescan(&ok), None);
        let crowded = format!("<root><e{}/></root>", attrs(MAX_ATTRIBUTES + 1));
        assert_eq!(prescan(&crowded), Some((6, Refusal::Crowded)));
    }

    #[test]
    fn entities_next_to_multibyte_characters_are_entities() {
        assert!(is_entity("lt; 10 km → y"));
        assert!(is_entity("#x2192;→→→→"));
        assert!(!is_entity("é→→→→;"));
    }

    #[test]
    fn attributes_round_trip_through_escaping() {
        let value = "a < b && c > \"d\"\n\tend";
        let mut out = String::new();
        Out::new("X").attr("v", value).write(&mut out, 0);
        let back = parse(&out, "t.xml").unwrap();
        assert_eq!(back.attr("v"), Some(value));
        assert_eq!((back.line, back.column), (1, 1));
    }

    #[test]
    fn raw_ampersand_and_less_than_in_attributes_are_accepted_with_a_warning() {
        // As in BT.CPP's t09_scripting example: `if="A>-B && color != BLUE"`.
        let text = "<root>\n  <P if=\"A>-B && c<3\" ok=\"&amp;&#38;\"/>\n</root>";
        let (root, warnings) = parse_tolerant(text, "t.xml").unwrap();
        let p = &root.children[0];
        assert_eq!(p.attr("if"), Some("A>-B && c<3"));
        assert_eq!(p.attr("ok"), Some("&&"));
        let at: Vec<(u32, u32)> = warnings.iter().map(|w| (w.line, w.column)).collect();
        assert_eq!(at, [(2, 15), (2, 16), (2, 19)]);
        assert!(parse(text, "t.xml").is_err(), "strict XML refuses it");
    }

    #[test]
    fn text_before_the_root_is_ignored_with_a_warning() {
        // As in BT.CPP's plugin example: `// clang-format off` above `<root>`.
        let text = "// clang-format off\n <root><!-- a > b & c --><A/></root>";
        let (root, warnings) = parse_tolerant(text, "t.xml").unwrap();
        assert_eq!(root.tag, "root");
        assert_eq!((root.line, root.column), (2, 2), "positions are kept");
        assert_eq!(warnings.len(), 1);
        assert_eq!((warnings[0].line, warnings[0].column), (1, 1));
        assert!(warnings[0].message.contains("text before"));
    }
}
