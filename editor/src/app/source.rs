//! "Open Source": runs the user's editor command on the file and line where the program
//! registered a node type (the manifest's optional `source`, written by
//! `NodeType::here()`).
//!
//! The command is a preference, e.g. `code -g {file}:{line}` or `subl {file}:{line}`:
//! split at spaces (double quotes keep an argument with spaces together), `{file}` and
//! `{line}` replaced in every argument; without `{file}` the file is appended. A relative
//! file is looked for from the tree's folder upwards, since the build that recorded it ran
//! in the program's workspace, which holds the trees. Every failure is a toast that says
//! what to change.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::ArborApp;

/// The program and arguments for `template` on `file` at `line`.
pub fn source_command(template: &str, file: &Path, line: u32) -> Result<Command, String> {
    let file = file.display().to_string();
    let mut words = split(template)?.into_iter();
    let program = words
        .next()
        .ok_or("the source editor command is empty (View ▸ Source Editor)")?;
    let mut command = Command::new(program);
    let mut has_file = false;
    for word in words {
        has_file |= word.contains("{file}");
        command.arg(
            word.replace("{file}", &file)
                .replace("{line}", &line.to_string()),
        );
    }
    if !has_file {
        command.arg(&file);
    }
    Ok(command)
}

/// Splits at whitespace; double quotes group.
fn split(text: &str) -> Result<Vec<String>, String> {
    let (mut words, mut word, mut quoted, mut any) = (Vec::new(), String::new(), false, false);
    for c in text.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(format!(
            "unclosed quote in the source editor command `{text}`"
        ));
    }
    if any {
        words.push(word);
    }
    Ok(words)
}

/// `file` itself if absolute, else the first folder from `start` upwards that holds it.
pub fn find_source(file: &str, start: Option<&Path>) -> Option<PathBuf> {
    let file = Path::new(file);
    if file.is_absolute() {
        return file.exists().then(|| file.to_path_buf());
    }
    let start = match start {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().ok()?,
    };
    start
        .ancestors()
        .map(|dir| dir.join(file))
        .find(|p| p.exists())
}

impl ArborApp {
    /// Opens where node type `kind` is registered in the user's editor; says what
    /// happened in a toast.
    pub(super) fn open_source(&mut self, kind: &str) {
        match self.try_open_source(kind) {
            Ok(done) => self.shared.toasts.info(done),
            Err(why) => self
                .shared
                .toasts
                .error(format!("Could not open the source of `{kind}`: {why}")),
        }
    }

    fn try_open_source(&self, kind: &str) -> Result<String, String> {
        let source = self
            .session()
            .types()
            .node(kind)
            .and_then(|t| t.source.clone())
            .ok_or("the node types do not say where it is registered")?;
        let folder = self.session().path().and_then(Path::parent);
        let file = find_source(&source.file, folder).ok_or_else(|| {
            format!(
                "{} is not found from the tree's folder or above it",
                source.file
            )
        })?;
        let template = &self.prefs.source_command;
        let mut child = source_command(template, &file, source.line)?
            .spawn()
            .map_err(|e| {
                format!("`{template}` did not start ({e}); set the command in View ▸ Source Editor")
            })?;
        // Reap the editor when it exits, without holding the frame.
        std::thread::spawn(move || child.wait());
        Ok(format!("Opened {}:{}", file.display(), source.line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(c: &Command) -> Vec<String> {
        std::iter::once(c.get_program())
            .chain(c.get_args())
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn placeholders_are_replaced_and_the_file_appended_when_missing() {
        let f = Path::new("/src/my game/villager.rs");
        let c = source_command("code -g {file}:{line}", f, 42).unwrap();
        assert_eq!(args(&c), ["code", "-g", "/src/my game/villager.rs:42"]);
        let c = source_command("\"my editor\" --wait", f, 7).unwrap();
        assert_eq!(
            args(&c),
            ["my editor", "--wait", "/src/my game/villager.rs"]
        );
        let c = source_command("vim +{line}", f, 3).unwrap();
        assert_eq!(args(&c), ["vim", "+3", "/src/my game/villager.rs"]);
    }

    #[test]
    fn bad_commands_say_why() {
        let f = Path::new("a.rs");
        assert!(source_command("  ", f, 1).unwrap_err().contains("empty"));
        assert!(source_command("\"code", f, 1)
            .unwrap_err()
            .contains("unclosed quote"));
    }

    #[test]
    fn relative_sources_are_found_from_the_tree_folder_upwards() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::write(src.join("game.rs"), "").unwrap();
        let trees = dir.path().join("assets").join("trees");
        std::fs::create_dir_all(&trees).unwrap();
        assert_eq!(
            find_source("src/game.rs", Some(&trees)),
            Some(src.join("game.rs"))
        );
        assert_eq!(find_source("src/missing.rs", Some(&trees)), None);
    }
}
