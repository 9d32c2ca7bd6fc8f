//! Standard output for the commands, and why a command failed. Writing never panics: a
//! reader that closed the pipe (`arbor run … | head -1`) has seen enough, so the command
//! ends quietly with exit 0, as the samples' binaries do; any other failure (`> /dev/full`)
//! ends it with a message on stderr and exit 1.

use std::io::Write as _;

/// Why a command stopped early.
pub(super) enum Failure {
    /// A message for stderr (`arbor: …`).
    Message(String),
    /// Standard output could not be written.
    Output(std::io::Error),
    /// An input file did not load, or the inputs do not go together: a message for
    /// stderr and exit 2, so that `diff` and `merge` keep exit 1 for "differ" and
    /// "conflicts".
    Input(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Message(message)
    }
}

/// Writes `text` to stdout and flushes it, so that a failure is seen here rather than lost
/// in the flush at exit.
pub(super) fn write(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}

/// Writes `line` and a newline to stdout.
pub(super) fn line(line: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(Failure::Output)
}

/// The exit code for a failure, after saying why on stderr when it is worth saying.
pub(super) fn exit_code(failure: Failure) -> std::process::ExitCode {
    use std::process::ExitCode;
    match failure {
        Failure::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Failure::Output(e) => {
            say!("arbor: cannot write the output: {e}");
            ExitCode::from(1)
        }
        Failure::Message(message) => {
            say!("arbor: {message}");
            ExitCode::from(1)
        }
        Failure::Input(message) => {
            say!("arbor: {message}");
            ExitCode::from(2)
        }
    }
}
