//! Ctrl-C in the REPL: while a command runs, SIGINT asks it to stop (the
//! long loops of `simulate` and `odds` look at the flag) and the prompt
//! comes back. While a line is being edited rustyline has its own handler
//! (Ctrl-C abandons the line). Outside the REPL nothing is installed, so
//! Ctrl-C keeps its default meaning.

use std::io;

#[cfg(unix)]
use crate::session::explore;

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    // A second Ctrl-C before the command noticed the first: it is not one
    // that looks, so leave as the default would. Only async-signal-safe
    // calls here: an atomic swap and _exit. History is already on disk.
    if explore::interrupt() {
        unsafe { libc::_exit(130) };
    }
}

/// Ctrl-C caught for as long as this lives; the previous handler is put
/// back when it is dropped.
#[cfg(unix)]
pub(crate) struct CatchCtrlC {
    previous: libc::sigaction,
}

#[cfg(unix)]
impl CatchCtrlC {
    pub(crate) fn install() -> io::Result<CatchCtrlC> {
        // SAFETY: sigaction with a zeroed, then filled, struct; the handler
        // only touches an atomic and calls _exit.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, &action, &mut previous) != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(CatchCtrlC { previous })
        }
    }
}

#[cfg(unix)]
impl Drop for CatchCtrlC {
    fn drop(&mut self) {
        // SAFETY: restores the action saved by `install`.
        unsafe {
            libc::sigaction(libc::SIGINT, &self.previous, std::ptr::null_mut());
        }
    }
}

/// Elsewhere Ctrl-C is not caught: it ends drumhead, as the REPL says.
#[cfg(not(unix))]
pub(crate) struct CatchCtrlC;

#[cfg(not(unix))]
impl CatchCtrlC {
    pub(crate) fn install() -> io::Result<CatchCtrlC> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "not on this platform",
        ))
    }
}
