//! Pass 1 of the import: the document. Parses the XML (following `<include>`s, confined
//! to the document's folder, each file read once, cycles refused), and finds the trees,
//! the node models and the main tree.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::super::model;
use super::super::xml::{self, Element};
use super::super::XmlProblem;
use super::*;

/// The files `<include>`d so far, and the chain of files whose includes are being read
/// (the top document first), to tell a file included twice (read once) from a cycle (an
/// error naming the chain).
#[derive(Default)]
pub(super) struct Includes {
    pub(super) seen: HashSet<PathBuf>,
    /// Canonical path and name in messages of each file being read.
    pub(super) chain: Vec<(PathBuf, String)>,
}

/// Reads an XML file as the loader reads tree files: a regular file (a FIFO or device is
/// refused before it is opened), at most `max_file_bytes`, UTF-8 with a located error.
/// Errors give the line, column and message.
pub(super) fn read_xml(path: &Path) -> Result<String, (u32, u32, String)> {
    let limit = crate::LoadOptions::default().max_file_bytes;
    crate::files::read_text(path, limit).map_err(|e| match e {
        crate::files::ReadError::Utf8 { line, column } => {
            (line as u32, column as u32, e.to_string())
        }
        other => (1, 1, format!("cannot read the file: {other}")),
    })
}

impl Importer<'_> {
    pub(super) fn load(
        &mut self,
        text: &str,
        origin: &str,
        base: Option<&Path>,
        mut includes: Includes,
    ) -> Option<Doc> {
        let mut trees = Vec::new();
        self.load_into(text, origin, base, 0, &mut trees, &mut includes);
        if !self.errors.is_empty() {
            return None;
        }
        let mut ids = HashMap::new();
        for (i, t) in trees.iter().enumerate() {
            if let Some(first) = ids.insert(t.id.clone(), i) {
                let message = format!(
                    "tree `{}` is defined twice (first in {})",
                    t.id, trees[first].origin
                );
                self.errors.push(t.root.problem(&t.origin, message));
            }
        }
        if trees.is_empty() {
            self.errors.push(XmlProblem {
                origin: origin.to_owned(),
                line: 1,
                column: 1,
                message: "no <BehaviorTree> in the document".to_owned(),
            });
            return None;
        }
        self.tree_ids = trees.iter().map(|t| t.id.clone()).collect();
        self.tree_index.clear();
        for (i, id) in self.tree_ids.iter().enumerate() {
            self.tree_index.entry(id.clone()).or_insert(i);
        }
        let main = match self.main_attr.clone() {
            Some((id, line, column, o)) => match self.tree_position(&id) {
                Some(i) => i,
                None => {
                    self.errors.push(XmlProblem {
                        origin: o,
                        line,
                        column,
                        message: format!("main_tree_to_execute names `{id}`, which is not defined"),
                    });
                    return None;
                }
            },
            None => {
                if trees.len() > 1 {
                    self.warnings.push(XmlProblem {
                        origin: origin.to_owned(),
                        line: 1,
                        column: 1,
                        message: format!(
                            "no main_tree_to_execute and {} trees; `{}` (the first) is the main one",
                            trees.len(),
                            trees[0].id
                        ),
                    });
                }
                0
            }
        };
        Some(Doc { trees, main })
    }

    pub(super) fn load_into(
        &mut self,
        text: &str,
        origin: &str,
        base: Option<&Path>,
        depth: usize,
        trees: &mut Vec<TreeSrc>,
        includes: &mut Includes,
    ) {
        let root = match xml::parse_tolerant(text, origin) {
            Ok((root, warnings)) => {
                self.warnings.extend(warnings);
                root
            }
            Err(p) => return self.errors.push(p),
        };
        if root.tag != "root" {
            return self.error(
                origin,
                &root,
                format!(
                    "the document element is <{}>; BT.CPP files start with <root>",
                    root.tag
                ),
            );
        }
        if depth == 0 {
            match root.attr("BTCPP_format") {
                Some("4") => {}
                Some("3") | None => {
                    self.v3 = true;
                    self.warn(
                        origin,
                        &root,
                        "no BTCPP_format=\"4\": read as a BehaviorTree.CPP v3 file (v3 node names \
                     are accepted); exports are written as v4",
                    );
                }
                Some(other) => self.warn(
                    origin,
                    &root,
                    format!("BTCPP_format=\"{other}\" is not known; read as version 4"),
                ),
            }
            if let Some(main) = root.attr("main_tree_to_execute") {
                self.main_attr = Some((
                    main.trim().to_owned(),
                    root.line,
                    root.column,
                    origin.to_owned(),
                ));
            }
        }
        for child in &root.children {
            match child.tag.as_str() {
                "BehaviorTree" => {
                    let id = child
                        .attr("ID")
                        .map(str::to_owned)
                        .unwrap_or_else(|| format!("BehaviorTree_{}", trees.len()));
                    let mut elements = child.children.iter();
                    match (elements.next(), elements.next()) {
                        (Some(first), None) => trees.push(TreeSrc {
                            id,
                            attrs: child
                                .attrs
                                .iter()
                                .filter(|(k, _)| k != "ID")
                                .cloned()
                                .collect(),
                            root: first.clone(),
                            origin: origin.to_owned(),
                        }),
                        _ => self.error(
                            origin,
                            child,
                            format!(
                                "<BehaviorTree ID=\"{id}\"> must have exactly one child element"
                            ),
                        ),
                    }
                }
                "TreeNodesModel" => match model::parse(child, origin, &mut self.warnings) {
                    Ok(models) => self.models.extend(models),
                    Err(p) => self.errors.push(p),
                },
                "include" => self.include(child, origin, base, depth, trees, includes),
                other => self.warn(
                    origin,
                    child,
                    format!("<{other}> is not part of a BT.CPP document; skipped"),
                ),
            }
        }
    }

    pub(super) fn include(
        &mut self,
        el: &Element,
        origin: &str,
        base: Option<&Path>,
        depth: usize,
        trees: &mut Vec<TreeSrc>,
        includes: &mut Includes,
    ) {
        let Some(rel) = el.attr("path") else {
            return self.error(origin, el, "<include> needs a path attribute");
        };
        if el.attr("ros_pkg").is_some() {
            return self.warn(
                origin,
                el,
                format!("<include path=\"{rel}\" ros_pkg=…> needs ROS to resolve; skipped"),
            );
        }
        let Some(base) = base else {
            return self.warn(
                origin,
                el,
                format!("<include path=\"{rel}\"> skipped: the document has no folder"),
            );
        };
        if depth >= MAX_INCLUDE_DEPTH {
            return self.error(
                origin,
                el,
                format!("includes nest more than {MAX_INCLUDE_DEPTH} files deep"),
            );
        }
        let path = base.join(rel);
        let canonical = match path.canonicalize() {
            Ok(c) => c,
            Err(e) => {
                return self.error(
                    origin,
                    el,
                    format!("cannot read the included file {}: {e}", path.display()),
                )
            }
        };
        // Confined like subtree paths: an include may not leave the imported document's
        // folder (`<include path="/etc/passwd"/>` is refused, not read).
        let root = self
            .options
            .base_dir
            .as_deref()
            .and_then(|d| d.canonicalize().ok());
        if root.is_some_and(|root| !canonical.starts_with(root)) {
            return self.error(
                origin,
                el,
                format!(
                    "<include path=\"{rel}\"> is outside the imported document's folder; not read"
                ),
            );
        }
        if let Some(first) = includes.chain.iter().position(|(p, _)| *p == canonical) {
            let mut files: Vec<&str> = includes.chain[first..]
                .iter()
                .map(|(_, shown)| shown.as_str())
                .collect();
            files.push(&includes.chain[first].1);
            return self.error(
                origin,
                el,
                format!(
                    "<include path=\"{rel}\"> makes a cycle: {}",
                    files.join(" -> ")
                ),
            );
        }
        if !includes.seen.insert(canonical.clone()) {
            // Included twice: its trees are already there.
            return;
        }
        match read_xml(&path).map_err(|(_, _, m)| m) {
            Ok(text) => {
                let shown = path.display().to_string();
                let folder = path.parent().map(Path::to_path_buf);
                includes.chain.push((canonical, shown.clone()));
                self.load_into(&text, &shown, folder.as_deref(), depth + 1, trees, includes);
                includes.chain.pop();
            }
            Err(e) => self.error(origin, el, format!("included file {}: {e}", path.display())),
        }
    }
}
