//! Reading files that users name (tree files, subtree paths, `<include>`s, XML imports):
//! regular files only, never more than a byte cap, text decoded with a located message.
//!
//! Why not `metadata().len()` then `read_to_string`: `/dev/zero` reports size 0 and never
//! ends, and a FIFO blocks `open` until a writer comes. So the kind of file is checked from
//! its metadata *before* opening (a FIFO is refused without blocking), and the read itself
//! stops one byte past the cap whatever the metadata said.
//!
//! Limitations: the check and the open are two steps; a file swapped for a FIFO between
//! them can still block the open.

use std::fmt;
use std::io::Read as _;
use std::path::Path;

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

/// Reads a regular file of at most `limit` bytes as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    let size = check_regular(path)?;
    if size > limit {
        return Err(ReadError::TooLarge { size, limit });
    }
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
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
    text(bytes)
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[cfg(unix)]
    #[test]
    fn dev_zero_is_refused_whatever_its_size_says() {
        let err = read_text(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(matches!(err, ReadError::NotRegular("a device")), "{err}");
    }
}
