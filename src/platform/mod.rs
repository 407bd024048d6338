//! What drumhead asks of the operating system beyond the standard library:
//! the kinds of file that are not regular files, opening without blocking,
//! the permissions a new file gets, and the machine's own addresses. Unix
//! answers from the C library ([`unix`]); elsewhere (Windows, a browser's
//! WebAssembly) the answers are what that platform has ([`other`]), so
//! that the rest of the program names no platform. Terminals (their
//! size, a progress bar) are the `native` front ends' only.

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

#[cfg(feature = "native")]
mod pager;
#[cfg(feature = "native")]
pub(crate) use pager::page;
#[cfg(feature = "native")]
mod progress;
#[cfg(feature = "native")]
pub(crate) use progress::Progress;

/// Without the native front ends there is no terminal to draw a progress
/// bar on (nor, in a browser, a clock to time one by): nothing is drawn.
#[cfg(not(feature = "native"))]
pub(crate) struct Progress;

#[cfg(not(feature = "native"))]
impl Progress {
    pub(crate) fn new(_enabled: bool, _total: u64, _what: &'static str) -> Progress {
        Progress
    }

    pub(crate) fn at(&mut self, _done: u64) {}
}

/// The columns of the terminal on standard output, when it is one.
#[cfg(feature = "native")]
pub(crate) fn stdout_columns() -> Option<u16> {
    terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| w.0)
}

/// The columns and rows of the terminal on standard error, when it is one.
#[cfg(feature = "native")]
pub(crate) fn stderr_size() -> Option<(u16, u16)> {
    terminal_size::terminal_size_of(std::io::stderr()).map(|(w, h)| (w.0, h.0))
}
