//! Reading one newline-terminated line with a length limit, so a client cannot make the
//! server buffer an endless line.

use std::io::{self, BufRead};

/// What reading a line found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// A complete line is in the buffer (without its newline).
    Line,
    /// The peer closed the connection (a partial last line is discarded).
    Eof,
    /// More than the limit arrived without a newline; the rest of the line is unread.
    TooLong,
}

/// Reads up to the next `\n` into `line` (cleared first), failing once `max` bytes
/// arrive without one. A trailing `\r` is kept: JSON parsing treats it as whitespace.
pub(crate) fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    line.clear();
    loop {
        let available = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(LineRead::Eof);
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (available.len(), false),
        };
        if line.len() + take > max {
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(&available[..take]);
        reader.consume(if done { take + 1 } else { take });
        if done {
            return Ok(LineRead::Line);
        }
    }
}

/// Discards input up to and including the next `\n`, or at most `max` bytes. Draining the
/// rest of an over-long line before closing lets the error reply reach the client: closing
/// a socket with unread input makes the kernel reset the connection.
pub(crate) fn skip_line(reader: &mut impl BufRead, max: usize) -> io::Result<()> {
    let mut skipped = 0;
    while skipped < max {
        let available = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(());
        }
        if let Some(i) = available.iter().position(|&b| b == b'\n') {
            reader.consume(i + 1);
            return Ok(());
        }
        let n = available.len();
        reader.consume(n);
        skipped += n;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn lines_are_split_and_limited() {
        let mut input = BufReader::with_capacity(4, &b"ab\ncdefgh\nij"[..]);
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), LineRead::Line);
        assert_eq!(line, b"ab");
        assert_eq!(
            read_line(&mut input, &mut line, 5).unwrap(),
            LineRead::TooLong
        );
        skip_line(&mut input, 100).unwrap();
        assert_eq!(read_line(&mut input, &mut line, 5).unwrap(), LineRead::Eof);
        let mut exact = &b"abcde\n"[..];
        assert_eq!(read_line(&mut exact, &mut line, 5).unwrap(), LineRead::Line);
    }
}
