//! Tree files named on the command line for `diff` and `merge`, read and checked
//! (`arbor_runtime::merge::read_tree`): every problem of every file is reported before the
//! command gives up, and a command given a bad file writes nothing.

use std::path::PathBuf;

use arbor_runtime::format::TreeFile;
use arbor_runtime::merge::read_tree;

use super::output::Failure;

/// The files, in order, or [`Failure::Input`] after every problem was said.
pub(super) fn read_all<const N: usize>(paths: [&PathBuf; N]) -> Result<[TreeFile; N], Failure> {
    let mut files = Vec::with_capacity(N);
    let mut bad = 0;
    for path in paths {
        match read_tree(path) {
            Ok(file) => files.push(file),
            Err(e) => {
                bad += 1;
                for problem in &e.problems {
                    say!("{problem}");
                }
            }
        }
    }
    let noun = if bad == 1 { "file" } else { "files" };
    files
        .try_into()
        .map_err(|_| Failure::Input(format!("{bad} {noun} did not load; nothing was written")))
}
