//! A tree file's text at a git revision, for "Compare with HEAD": `git show REV:./NAME`
//! run in the file's folder.
//!
//! The output is read as every file the editor reads is (`arbor_runtime::files`): at most
//! the loader's file size limit, one byte past it telling "too large" (the process is then
//! killed rather than read to the end), and decoded with a located UTF-8 error. Whether the
//! folder is in a repository and the file is tracked is asked first, so those two cases get
//! a clear message rather than git's own.
//!
//! Limitations: git's standard error is read after its output; a git that wrote more than a
//! pipe's buffer to it before finishing its output would wait on us (`git show` of a blob
//! writes nothing there but a one-line error).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use arbor_runtime::files::{self, ReadError};
use arbor_runtime::LoadOptions;

/// The most of git's error text kept for a message.
const STDERR_LIMIT: u64 = 4096;

/// Why the file's version at a revision could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RevisionError {
    #[error("a revision cannot be empty or start with `-`: `{0}`")]
    BadRevision(String),
    #[error("cannot run git: {0}")]
    NoGit(#[source] std::io::Error),
    #[error("{}: not in a git repository", .0.display())]
    NotInRepository(PathBuf),
    #[error("{}: git does not track this file, so it has no version at {rev}", .path.display())]
    Untracked { path: PathBuf, rev: String },
    #[error("{}: no version at {rev}: {message}", .path.display())]
    Git {
        path: PathBuf,
        rev: String,
        message: String,
    },
    #[error("{}: the version at {rev}: {error}", .path.display())]
    Read {
        path: PathBuf,
        rev: String,
        /// The runtime's reader error (Display only, so not a `source`).
        error: ReadError,
    },
}

/// The text of `path` as of git revision `rev` (`HEAD`, a branch, a commit).
pub fn read_at_revision(path: &Path, rev: &str) -> Result<String, RevisionError> {
    if rev.is_empty() || rev.starts_with('-') {
        return Err(RevisionError::BadRevision(rev.to_owned()));
    }
    let path = files::absolute(path);
    let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let git = |args: &[&str]| -> Result<Output, RevisionError> { run(&dir, args) };
    if !git(&["rev-parse", "--is-inside-work-tree"])?.success {
        return Err(RevisionError::NotInRepository(path));
    }
    if !git(&["ls-files", "--error-unmatch", "--", &name])?.success {
        return Err(RevisionError::Untracked {
            path,
            rev: rev.to_owned(),
        });
    }
    let out = git(&["show", &format!("{rev}:./{name}")])?;
    let read_error = |error| RevisionError::Read {
        path: path.clone(),
        rev: rev.to_owned(),
        error,
    };
    let stdout = out.stdout.map_err(read_error)?;
    if !out.success {
        return Err(RevisionError::Git {
            path: path.clone(),
            rev: rev.to_owned(),
            message: out.stderr.trim().to_owned(),
        });
    }
    files::text(stdout).map_err(read_error)
}

/// What a git run gave: its output (or that it was over the cap), its error text, whether it
/// succeeded.
struct Output {
    stdout: Result<Vec<u8>, ReadError>,
    stderr: String,
    success: bool,
}

fn run(dir: &Path, args: &[&str]) -> Result<Output, RevisionError> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(RevisionError::NoGit)?;
    let limit = LoadOptions::default().max_file_bytes;
    let mut bytes = Vec::new();
    let read = child
        .stdout
        .take()
        .map(|out| out.take(limit.saturating_add(1)).read_to_end(&mut bytes));
    let stdout = match read {
        Some(Err(e)) => Err(ReadError::Io(e)),
        _ if bytes.len() as u64 > limit => {
            // The rest is never read: the process goes.
            let _ = child.kill();
            Err(ReadError::TooLarge {
                size: limit + 1,
                limit,
            })
        }
        _ => Ok(bytes),
    };
    let mut err = Vec::new();
    if let Some(e) = child.stderr.take() {
        let _ = e.take(STDERR_LIMIT).read_to_end(&mut err);
    }
    let status = child.wait().map_err(RevisionError::NoGit)?;
    Ok(Output {
        stdout,
        stderr: String::from_utf8_lossy(&err).into_owned(),
        success: status.success(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .output()
            .expect("git runs")
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn the_committed_version_is_read_not_the_one_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tree.json");
        git(dir.path(), &["init", "-q"]);
        std::fs::write(&path, "committed").unwrap();
        git(dir.path(), &["add", "tree.json"]);
        git(dir.path(), &["commit", "-q", "-m", "one"]);
        std::fs::write(&path, "edited").unwrap();
        assert_eq!(read_at_revision(&path, "HEAD").unwrap(), "committed");
    }

    #[test]
    fn outside_a_repository_and_untracked_files_are_said_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tree.json");
        std::fs::write(&path, "{}").unwrap();
        let err = read_at_revision(&path, "HEAD").unwrap_err();
        assert!(matches!(err, RevisionError::NotInRepository(_)), "{err}");
        assert!(err
            .to_string()
            .ends_with("tree.json: not in a git repository"));

        git(dir.path(), &["init", "-q"]);
        let err = read_at_revision(&path, "HEAD").unwrap_err();
        assert!(matches!(err, RevisionError::Untracked { .. }), "{err}");
        assert!(err
            .to_string()
            .ends_with("tree.json: git does not track this file, so it has no version at HEAD"));
    }

    #[test]
    fn a_file_added_but_never_committed_has_no_version_at_head() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tree.json");
        git(dir.path(), &["init", "-q"]);
        std::fs::write(&path, "{}").unwrap();
        git(dir.path(), &["add", "tree.json"]);
        let err = read_at_revision(&path, "HEAD").unwrap_err();
        assert!(matches!(err, RevisionError::Git { .. }), "{err}");
    }

    #[test]
    fn an_option_is_not_a_revision() {
        let err = read_at_revision(Path::new("t.json"), "--output=x").unwrap_err();
        assert!(matches!(err, RevisionError::BadRevision(_)));
    }
}
