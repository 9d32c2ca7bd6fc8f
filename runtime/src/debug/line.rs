//! LineReader: the protocol's framing, one newline-terminated JSON message per line, read
//! with one length limit ([`MAX_LINE`]) by both ends, so that neither can make the other
//! buffer an endless line.
//!
//! A read timeout (`WouldBlock` or `TimedOut`, on a socket with a read timeout) is returned
//! as the I/O error it is, and the part of the line read so far is kept: the next call goes
//! on where it stopped. That is how a client can poll a socket without losing lines.

use std::io::{self, BufRead};

/// Longest line either end reads, newline excluded. A `tree` reply carries a whole tree
/// file on one line, and big trees are a few MiB; a line this long is not a peer speaking
/// this protocol, and a server holds at most this much per client.
pub const MAX_LINE: usize = 16 << 20;

/// What [`LineReader::read`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Framed<'a> {
    /// A complete line, without its newline. A trailing `\r` is kept: JSON parsing treats
    /// it as whitespace.
    Line(&'a [u8]),
    /// The peer closed the connection (a partial last line is discarded).
    Eof,
    /// More than [`MAX_LINE`] bytes arrived without a newline; the rest of the line is
    /// unread (see [`LineReader::skip_line`]).
    TooLong,
}

/// Reads the protocol's lines (one JSON message each) from a buffered reader, a socket
/// wrapped in a [`BufReader`](std::io::BufReader) for instance, refusing any line longer
/// than [`MAX_LINE`]. Both ends read with it: the server its clients' requests, a client
/// the server's messages (parsed with
/// [`ServerMessage::from_line`](super::ServerMessage::from_line)).
///
/// On a socket with a read timeout, a timeout is returned as the I/O error it is (tell it
/// from a broken connection with [`is_timeout`]) and the part of the line read so far is
/// kept: the next [`read`](LineReader::read) goes on where it stopped, so a client can poll
/// the socket between other work without losing a line.
///
/// ```
/// use std::io::BufReader;
/// use arbor_runtime::debug::{Framed, LineReader, ServerMessage};
///
/// let input: &[u8] = b"{\"type\":\"welcome\"}\n{\"type\":\"resumed\",\"instance\":3}\n";
/// let mut reader = LineReader::new(BufReader::new(input));
/// let mut messages = Vec::new();
/// loop {
///     match reader.read()? {
///         Framed::Line(line) => messages.push(ServerMessage::from_line(line)?),
///         Framed::Eof => break,
///         // A server never sends one; a client closes the connection.
///         Framed::TooLong => return Err("the server sent an over-long line".into()),
///     }
/// }
/// assert_eq!(messages, [ServerMessage::Welcome, ServerMessage::Resumed { instance: 3 }]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    line: Vec<u8>,
    /// `line` holds a line already returned: clear it before reading on.
    returned: bool,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Reads lines from `inner`, with the protocol's limit ([`MAX_LINE`]).
    pub fn new(inner: R) -> LineReader<R> {
        LineReader {
            inner,
            line: Vec::new(),
            returned: false,
            max: MAX_LINE,
        }
    }

    /// Reads up to the next `\n`: a [`Framed::Line`] (borrowed until the next call), the
    /// end of the input, or [`Framed::TooLong`]. A read timeout is an `Err` for which
    /// [`is_timeout`] holds, and keeps the partial line for the next call.
    pub fn read(&mut self) -> io::Result<Framed<'_>> {
        if self.returned {
            self.line.clear();
            self.returned = false;
        }
        loop {
            let available = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(Framed::Eof);
            }
            let (take, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (available.len(), false),
            };
            if self.line.len() + take > self.max {
                self.line.clear();
                return Ok(Framed::TooLong);
            }
            self.line.extend_from_slice(&available[..take]);
            self.inner.consume(if done { take + 1 } else { take });
            if done {
                self.returned = true;
                return Ok(Framed::Line(&self.line));
            }
        }
    }

    /// Discards input up to and including the next `\n`, or at most `max` bytes. Draining
    /// the rest of an over-long line before closing lets an error reply reach the peer:
    /// closing a socket with unread input makes the kernel reset the connection.
    pub fn skip_line(&mut self, max: usize) -> io::Result<()> {
        let mut skipped = 0;
        while skipped < max {
            let available = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(());
            }
            if let Some(i) = available.iter().position(|&b| b == b'\n') {
                self.inner.consume(i + 1);
                return Ok(());
            }
            let n = available.len();
            self.inner.consume(n);
            skipped += n;
        }
        Ok(())
    }
}

/// Whether `error` is a socket's read timeout rather than the end of the connection.
pub fn is_timeout(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufReader, Read};

    fn limited<R: BufRead>(inner: R, max: usize) -> LineReader<R> {
        LineReader {
            max,
            ..LineReader::new(inner)
        }
    }

    #[test]
    fn lines_are_split_and_limited() {
        let mut input = limited(BufReader::with_capacity(4, &b"ab\ncdefgh\nij"[..]), 5);
        assert_eq!(input.read().unwrap(), Framed::Line(b"ab"));
        assert_eq!(input.read().unwrap(), Framed::TooLong);
        input.skip_line(100).unwrap();
        assert_eq!(input.read().unwrap(), Framed::Eof);
        let mut exact = limited(&b"abcde\n"[..], 5);
        assert_eq!(exact.read().unwrap(), Framed::Line(b"abcde"));
    }

    /// Gives out its chunks one read each; an empty chunk is a read timeout.
    struct Stuttering(Vec<&'static [u8]>);

    impl Read for Stuttering {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            if chunk.is_empty() {
                return Err(io::ErrorKind::WouldBlock.into());
            }
            buf[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }

    #[test]
    fn a_timeout_keeps_the_partial_line() {
        let chunks = vec![&b"{\"a\""[..], b"", b":1}\n{}\n"];
        let mut input = LineReader::new(BufReader::new(Stuttering(chunks)));
        assert!(input.read().is_err_and(|e| is_timeout(&e)));
        assert_eq!(input.read().unwrap(), Framed::Line(b"{\"a\":1}"));
        assert_eq!(input.read().unwrap(), Framed::Line(b"{}"));
        assert_eq!(input.read().unwrap(), Framed::Eof);
    }
}
