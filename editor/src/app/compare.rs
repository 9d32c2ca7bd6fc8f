//! Compare with…: the active document against another file, or against its own file at a
//! git revision (HEAD by default). The other version is read and checked as `arbor diff`
//! reads it (`arbor_runtime::merge::read_tree`, the bounded reader), the difference is the
//! runtime's semantic diff, and the result is shown by the canvas and the compare panel
//! as view state: the document is not changed, and closing the comparison leaves it as it
//! was. A version that cannot be read is said so, and nothing else changes.

use std::path::Path;

use arbor_runtime::format::TreeFile;
use arbor_runtime::merge::{read_tree, tree_from_str};

use crate::compare::{read_at_revision, Comparison};

use super::files::Picked;
use super::layout::Panel;
use super::{ArborApp, Purpose};

impl ArborApp {
    /// Asks for a file (a native dialog, else a path field) and compares with it.
    pub fn pick_compare_file(&mut self) {
        match self.pick(false) {
            Picked::Path(path) => self.compare_with_file(&path),
            Picked::Cancelled => {}
            Picked::Unavailable => self.prompt_path(Purpose::CompareWith),
        }
    }

    /// Compares the active document with the tree file at `path`.
    pub fn compare_with_file(&mut self, path: &Path) {
        match read_tree(path) {
            Ok(other) => self.show_comparison(path.display().to_string(), other),
            Err(e) => {
                self.files.error =
                    Some(format!("Could not compare with {}:\n\n{e}", path.display()))
            }
        }
    }

    /// Compares the active document with its own file at git revision `rev`.
    pub fn compare_with_revision(&mut self, rev: &str) {
        let Some(path) = self.session().path().map(Path::to_path_buf) else {
            self.shared.toasts.error(
                "This tree has never been saved, so git has no version of it: save it first"
                    .to_owned(),
            );
            return;
        };
        let other = read_at_revision(&path, rev)
            .map_err(|e| e.to_string())
            .and_then(|text| tree_from_str(&text, Some(&path)).map_err(|e| e.to_string()));
        match other {
            Ok(other) => {
                let name = path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                self.show_comparison(format!("{rev}:{name}"), other);
            }
            Err(e) => self.files.error = Some(format!("Could not compare with {rev}:\n\n{e}")),
        }
    }

    /// Shows the comparison in the active tab, with the panel that lists it.
    fn show_comparison(&mut self, label: String, other: TreeFile) {
        let current = self.session().document().to_tree_file();
        if other.guid != current.guid {
            self.shared.toasts.info(format!(
                "{label} is another tree (its GUID differs): every node shows as added or removed"
            ));
        }
        let comparison = Comparison::new(label, other, &current);
        let tab = self.tab_mut();
        let (canvas, session) = tab.canvas_and_session();
        canvas.start_compare(comparison, session);
        self.prefs.panels.open(Panel::Right);
    }
}
