//! Files that users name: reading them (tree files, subtree paths, `<include>`s, XML
//! imports, fonts: regular files only, never more than a byte cap, text decoded with a located
//! message), writing them atomically ([`write_atomic`]), and naming them by path alone
//! ([`normalise`], [`relative_path`]).
//!
//! Why not `metadata().len()` then `read_to_string`: `/dev/zero` reports size 0 and never
//! ends, and a FIFO blocks `open` until a writer comes. So the kind of file is checked from
//! its metadata *before* opening (a device is never opened), the open itself does not wait
//! (`O_NONBLOCK` on unix), the opened file's own metadata is checked again (a file swapped
//! for a FIFO between the check and the open is refused, not waited on), and the read
//! stops one byte past the cap whatever the metadata said.

use std::fmt;
use std::fs::File;
use std::io::{Read as _, Write as _};
use std::path::{Component, Path, PathBuf};

/// Why a file could not be read as text.
#[derive(Debug)]
pub enum ReadError {
    /// A directory, FIFO, socket or device: what it is.
    NotRegular(&'static str),
    /// More than `limit` bytes (`size` is what the metadata said, or `limit + 1`).
    TooLarge {
        /// Bytes found.
        size: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// Not UTF-8: the 1-based line and column (in characters) of the first bad byte.
    Utf8 {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// Any other I/O failure.
    Io(std::io::Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular(what) => write!(f, "not a regular file: it is {what}"),
            ReadError::TooLarge { size, limit } if size > limit && *size != limit + 1 => {
                write!(f, "the file is {size} bytes; the limit is {limit} bytes")
            }
            ReadError::TooLarge { limit, .. } => {
                write!(f, "the file is over the limit of {limit} bytes")
            }
            ReadError::Utf8 { line, column } => {
                write!(f, "invalid UTF-8 at line {line}, column {column}")
            }
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Refuses anything but a regular file (symbolic links are followed), without opening it.
pub fn check_regular(path: &Path) -> Result<u64, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    let ty = meta.file_type();
    if ty.is_file() {
        return Ok(meta.len());
    }
    Err(ReadError::NotRegular(describe(&ty)))
}

fn describe(ty: &std::fs::FileType) -> &'static str {
    if ty.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if ty.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ty.is_socket() {
            return "a socket";
        }
        if ty.is_char_device() || ty.is_block_device() {
            return "a device";
        }
    }
    "not a regular file"
}

/// Opens `path` for reading without waiting for a writer (a FIFO's `open` would block),
/// and refuses it unless the opened file is a regular one: this check is made on the file
/// actually opened, so swapping the path for a FIFO after [`check_regular`] gains nothing.
/// Returns the file and its size.
pub fn open_regular(path: &Path) -> Result<(File, u64), ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Reads of a regular file ignore the flag, so it can stay set.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    let ty = meta.file_type();
    if !ty.is_file() {
        return Err(ReadError::NotRegular(describe(&ty)));
    }
    Ok((file, meta.len()))
}

/// Reads a regular file of at most `limit` bytes as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    text(read_bytes(path, limit)?)
}

/// Reads a regular file of at most `limit` bytes (a font, an image): the same checks as
/// [`read_text`], without decoding.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    // Checked by path first so that a device is never opened at all (opening some has
    // effects); then again on the opened file by `open_regular`.
    let size = check_regular(path)?;
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    let (file, size) = open_regular(path)?;
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    let mut bytes = Vec::new();
    // One byte past the cap tells "exactly at the limit" from "over it".
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge {
            size: limit + 1,
            limit,
        });
    }
    Ok(bytes)
}

/// Decodes UTF-8, locating the first invalid byte by line and column.
pub fn text(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let prefix = std::str::from_utf8(&bytes[..good]).expect("valid up to this offset");
        let (line, column) = line_column(prefix, good);
        ReadError::Utf8 { line, column }
    })
}

/// 1-based line and column (in characters) of byte offset `at` of `text`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Writes `bytes` to `path` atomically: to a temporary file beside it
/// (`<name>.tmp-<pid>`), synced to disk, then renamed over `path`. A crash, a kill or a full
/// disk leaves either the old file or the new one, never a mix; on failure the temporary
/// file is removed and `path` is untouched. The replaced file's permissions are kept, and
/// a symbolic link is written through (its target is replaced, the link stays).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path)?,
        _ => path.to_owned(),
    };
    let name = target.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file")
    })?;
    let mut temp_name = name.to_os_string();
    temp_name.push(format!(".tmp-{}", std::process::id()));
    let temp = target.with_file_name(temp_name);

    let result = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(bytes)?;
        if let Ok(meta) = std::fs::metadata(&target) {
            file.set_permissions(meta.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
        return result;
    }
    // Make the rename itself durable. Not every platform can open a directory; the file's
    // contents are already safe, so a failure here is not worth reporting.
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
    }
    Ok(())
}

/// Resolves `.` and `..` by name, without touching the file system: `a/./b/../c` is
/// `a/c`. A `..` takes back the folder before it; one with no folder to take back stays
/// (`../../x` is itself, `a/../../x` is `../x`), except right after the root, where it
/// means the root (`/../x` is `/x`).
pub fn normalise(path: &Path) -> PathBuf {
    let mut parts: Vec<Component<'_>> = Vec::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(Component::ParentDir | Component::CurDir) | None => parts.push(part),
            },
            other => parts.push(other),
        }
    }
    parts.into_iter().map(Component::as_os_str).collect()
}

/// `path` made absolute against the current folder, then [`normalise`]d (by name:
/// symbolic links are not followed, so a path that does not exist yet works too).
pub fn absolute(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map_or_else(|_| path.to_path_buf(), |cwd| cwd.join(path))
    };
    normalise(&joined)
}

/// `target` as seen from the folder `from`, with `/` separators: how a tree file names its
/// manifests and subtrees, so that a project folder can move and be shared between
/// systems. Both are made [`absolute`]; `..` steps out of `from` as needed. Paths that
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_step_up_and_down_from_the_folder() {
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

    #[test]
    fn invalid_utf8_is_located() {
        let err = text(b"ab\ncd\xffe".to_vec()).unwrap_err();
        assert!(
            matches!(err, ReadError::Utf8 { line: 2, column: 3 }),
            "{err}"
        );
    }

    #[test]
    fn directories_are_refused_before_reading() {
        let err = read_text(Path::new("."), 10).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file: it is a directory");
    }

    #[test]
    fn normalise_keeps_the_parent_folders_it_cannot_take_back() {
        let n = |p: &str| normalise(Path::new(p));
        assert_eq!(n("a/./b/../c.json"), PathBuf::from("a/c.json"));
        assert_eq!(n("../../x.json"), PathBuf::from("../../x.json"));
        assert_eq!(n("./../../x.json"), PathBuf::from("../../x.json"));
        assert_eq!(n("a/../../x.json"), PathBuf::from("../x.json"));
        assert_eq!(n("a/b/../../../x.json"), PathBuf::from("../x.json"));
        assert_eq!(n("/../x.json"), PathBuf::from("/x.json"));
        assert_eq!(n("/a/../x.json"), PathBuf::from("/x.json"));
        assert_eq!(n("."), PathBuf::new());
    }

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_whatever_its_size_says() {
        let err = read_text(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(matches!(err, ReadError::NotRegular("a device")), "{err}");
    }
}
