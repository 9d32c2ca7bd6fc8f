//! The interface language: English or 简体中文. Every text the editor writes itself goes
//! through [`t`], which takes the English text and gives it in the current language; the
//! Chinese is in one table ([`zh`]), with the built-in node types' descriptions in another
//! ([`nodes_zh`]), because those come from the runtime, which knows no UI.
//!
//! Why the English text is the key: wrapping a string in `t(...)` is the whole change at
//! each place, so English stays readable where it is used and a missing translation shows
//! English, never a key name. The tests at the bottom keep the table and the code in step:
//! every text passed to `t` in the editor's sources has a Chinese entry, and every entry
//! is used.
//!
//! The language is per thread (the UI thread's): [`crate::app::ArborApp`] sets it at the
//! start of each frame from the preferences, so headless tests running side by side each
//! see their own.

mod nodes_zh;
mod zh;

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// A language the interface is available in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    English,
    /// Simplified Chinese.
    Chinese,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::English, Lang::Chinese];

    /// The language's name in itself, as the switch shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::English => "English",
            Lang::Chinese => "简体中文",
        }
    }

    /// The language of a POSIX locale name (`zh_CN.UTF-8`, `zh`, `en_US`); English for
    /// any other.
    pub fn of_locale(locale: &str) -> Lang {
        if locale.to_ascii_lowercase().starts_with("zh") {
            Lang::Chinese
        } else {
            Lang::English
        }
    }

    /// The operating system's language: the first set of `LC_ALL`, `LC_MESSAGES`, `LANG`
    /// (the order POSIX gives them precedence in).
    pub fn from_os() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .find(|v| !v.is_empty())
            .map_or(Lang::English, |v| Lang::of_locale(&v))
    }
}

thread_local! {
    static CURRENT: Cell<Lang> = const { Cell::new(Lang::English) };
}

/// Sets this thread's interface language.
pub fn set(lang: Lang) {
    CURRENT.with(|c| c.set(lang));
}

/// This thread's interface language.
pub fn current() -> Lang {
    CURRENT.with(Cell::get)
}

fn table(entries: &'static [(&'static str, &'static str)]) -> HashMap<&'static str, &'static str> {
    entries.iter().copied().collect()
}

/// `english` in the current language (English itself when a translation is missing).
pub fn t(english: &'static str) -> &'static str {
    match current() {
        Lang::English => english,
        Lang::Chinese => {
            static ZH: OnceLock<HashMap<&str, &str>> = OnceLock::new();
            ZH.get_or_init(|| table(zh::TABLE))
                .get(english)
                .copied()
                .unwrap_or(english)
        }
    }
}

/// A built-in node type's description (the runtime's English text) in the current
/// language; a type of the game's own keeps its own text.
pub fn node_description(english: &str) -> &str {
    match current() {
        Lang::English => english,
        Lang::Chinese => {
            static ZH: OnceLock<HashMap<&str, &str>> = OnceLock::new();
            ZH.get_or_init(|| table(nodes_zh::TABLE))
                .get(english)
                .copied()
                .unwrap_or(english)
        }
    }
}

/// A node category's name in the current language.
pub fn category(category: arbor_runtime::Category) -> &'static str {
    use arbor_runtime::Category as C;
    match category {
        C::Composite => t("Composite"),
        C::Decorator => t("Decorator"),
        C::Condition => t("Condition"),
        C::Action => t("Action"),
        C::Subtree => t("Subtree"),
        C::Attached => t("Attached"),
    }
}

/// "3 nodes" / "3 个节点": `n` and a noun already through [`t`] (English gets its plural).
pub fn count(n: usize, noun: &str) -> String {
    match current() {
        Lang::English => arbor_editor_model::words::count(n, noun),
        Lang::Chinese => format!("{n} {noun}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;

    /// The call the sources are searched for; spelt in two parts so that this file's own
    /// search for it is not a call.
    const OPENER: &str = concat!("t", "(");

    /// Every string literal passed to [`t`] in the editor's sources.
    fn keys_used() -> HashSet<String> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut keys = HashSet::new();
        let mut dirs = vec![src];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = arbor_runtime::files::read_text(&path, 1 << 20).unwrap();
                    keys.extend(literals_after(&text, OPENER));
                }
            }
        }
        keys
    }

    /// The string literals that follow `opener` (and any white space: rustfmt may break
    /// the line there) where it is not the end of a longer name.
    fn literals_after(text: &str, opener: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find(opener) {
            let before = rest[..at].chars().next_back();
            let after = &rest[at + opener.len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let Some(after) = after.trim_start().strip_prefix('"') else {
                continue;
            };
            let mut lit = String::new();
            let mut chars = after.chars();
            while let Some(c) = chars.next() {
                match c {
                    '"' => break,
                    '\\' => match chars.next() {
                        Some('n') => lit.push('\n'),
                        Some(other) => lit.push(other),
                        None => break,
                    },
                    c => lit.push(c),
                }
            }
            found.push(lit);
        }
        found
    }

    #[test]
    fn every_text_the_editor_writes_has_a_chinese_entry() {
        let zh: HashSet<&str> = zh::TABLE.iter().map(|(en, _)| *en).collect();
        let mut missing: Vec<String> = keys_used()
            .into_iter()
            .filter(|k| !zh.contains(k.as_str()))
            .collect();
        missing.sort();
        assert!(missing.is_empty(), "no Chinese for: {missing:#?}");
    }

    #[test]
    fn every_chinese_entry_is_used_once() {
        let used = keys_used();
        let mut unused: Vec<&str> = zh::TABLE
            .iter()
            .map(|(en, _)| *en)
            .filter(|en| !used.contains(*en))
            .collect();
        unused.sort();
        assert!(unused.is_empty(), "entries no code uses: {unused:#?}");
        let unique: HashSet<&str> = zh::TABLE.iter().map(|(en, _)| *en).collect();
        assert_eq!(
            unique.len(),
            zh::TABLE.len(),
            "an English text is listed twice"
        );
        for (en, zh) in zh::TABLE {
            assert!(!zh.trim().is_empty(), "empty Chinese for {en:?}");
        }
    }

    #[test]
    fn every_built_in_node_type_has_a_chinese_description() {
        let builtin = arbor_runtime::NodeTypes::builtin();
        let types: Vec<_> = builtin.nodes().chain(builtin.decorators()).collect();
        let zh: HashSet<&str> = nodes_zh::TABLE.iter().map(|(en, _)| *en).collect();
        let mut missing: Vec<String> = types
            .iter()
            .filter(|ty| !zh.contains(ty.description.as_str()))
            .map(|ty| format!("{}: {}", ty.name, ty.description))
            .collect();
        missing.sort();
        assert!(
            missing.is_empty(),
            "no Chinese description for: {missing:#?}"
        );
        let described: HashSet<&str> = types.iter().map(|ty| ty.description.as_str()).collect();
        let stale: Vec<&str> = nodes_zh::TABLE
            .iter()
            .map(|(en, _)| *en)
            .filter(|en| !described.contains(en))
            .collect();
        assert!(
            stale.is_empty(),
            "descriptions no built-in type has: {stale:#?}"
        );
    }

    #[test]
    fn the_locale_picks_the_language() {
        assert_eq!(Lang::of_locale("zh_CN.UTF-8"), Lang::Chinese);
        assert_eq!(Lang::of_locale("zh"), Lang::Chinese);
        assert_eq!(Lang::of_locale("en_US.UTF-8"), Lang::English);
        assert_eq!(Lang::of_locale("C"), Lang::English);
    }

    #[test]
    fn a_language_is_per_thread_and_falls_back_to_english() {
        set(Lang::Chinese);
        assert_eq!(t("File"), "文件");
        assert_eq!(count(3, t("node")), "3 个节点");
        std::thread::spawn(|| assert_eq!(t("File"), "File"))
            .join()
            .unwrap();
        set(Lang::English);
        assert_eq!(t("File"), "File");
        assert_eq!(count(3, t("node")), "3 nodes");
    }

    #[test]
    fn literals_are_found_after_the_call_only() {
        let text = "t(\"A\") + shift(\"B\") + t(x) + t(\n    \"C \\\"q\\\"\")";
        assert_eq!(literals_after(text, OPENER), vec!["A", "C \"q\""]);
    }
}
