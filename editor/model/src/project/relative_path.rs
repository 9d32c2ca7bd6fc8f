//! Relative paths between files the editor writes: a tree's manifests and subtrees are
//! named relative to the tree's folder, with `/` separators, so a project folder can move
//! and be shared between systems.

use std::path::{Component, Path, PathBuf};

/// `target` as seen from the folder `from`, with `/` separators: both are made absolute
/// lexically (against the current folder), `..` steps out of `from` as needed. Paths that
/// share no root (two Windows drives) give `target` itself, absolute.
pub fn relative_path(from: &Path, target: &Path) -> String {
    let (from, target) = (absolute(from), absolute(target));
    let common = from
        .components()
        .zip(target.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return target.display().to_string();
    }
    let mut parts: Vec<String> = from
        .components()
        .skip(common)
        .map(|_| "..".to_owned())
        .collect();
    parts.extend(
        target
            .components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// `path` made absolute and without `.` or `..` (lexically: symbolic links are not
/// followed, so a path that does not exist yet works too).
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path))
    };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_up_and_down_from_the_folder() {
        let p = |s: &str| PathBuf::from(s);
        assert_eq!(
            relative_path(&p("/game/trees"), &p("/game/manifests/a.json")),
            "../manifests/a.json"
        );
        assert_eq!(relative_path(&p("/game"), &p("/game/m/a.json")), "m/a.json");
        assert_eq!(
            relative_path(&p("/game/trees/deep/"), &p("/game/./trees/../m.json")),
            "../../m.json"
        );
        assert_eq!(relative_path(&p("/a"), &p("/a")), "");
    }
}
