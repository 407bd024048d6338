//! What drumhead asks of the operating system beyond the standard library:
//! the kinds of file that are not regular files, opening without blocking,
//! the permissions a new file gets, and the machine's own addresses. Unix
//! answers from the C library ([`unix`]); elsewhere (Windows, a browser's
//! WebAssembly) the answers are what that platform has ([`other`]), so
//! that the rest of the program names no platform.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(not(unix))]
mod other;
#[cfg(not(unix))]
pub(crate) use other::*;

/// What a path is when it is not a regular file, a directory or a link:
/// each is refused by its own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(unix), allow(dead_code))]
pub(crate) enum Special {
    Fifo,
    Device,
    Socket,
}

/// The columns of the terminal on standard output, when it is one.
pub(crate) fn stdout_columns() -> Option<u16> {
    terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| w.0)
}

/// The columns and rows of the terminal on standard error, when it is one.
pub(crate) fn stderr_size() -> Option<(u16, u16)> {
    terminal_size::terminal_size_of(std::io::stderr()).map(|(w, h)| (w.0, h.0))
}
