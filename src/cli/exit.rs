//! The exit status of a run of lines: 0 when every line was answered,
//! 1 when a line was refused or output stopped, 2 for a line no format
//! asked for can write (a usage error, as clap's own are).

use std::io;
use std::process::ExitCode;

use super::batch;
use crate::session::Session;

/// The exit status: 1 when output stopped, a line was refused or
/// `--dice` left dice unused; 2 when a line was refused because the
/// format asked for cannot write its answer.
pub(super) fn code(ran: &batch::Ran, session: &Session) -> ExitCode {
    // A reader that has seen enough (`| head`) is no failure: end quietly,
    // as ripgrep and fd do, so `set -o pipefail` scripts go on. A game's
    // lines are applied as they are read, so there it is said how many.
    let closed = ran
        .stopped
        .as_ref()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe);
    if closed && session.game.is_none() {
        return refused(ran);
    }
    if let Some(e) = &ran.stopped {
        let applied = if session.game.is_some() {
            " (each applied to the game)"
        } else {
            ""
        };
        let why = if e.kind() == io::ErrorKind::BrokenPipe {
            "standard output was closed".to_string()
        } else {
            e.to_string()
        };
        warn!(
            "error: {why}: stopped after {} line{} read and resolved{applied}; the rest were not read",
            ran.lines,
            if ran.lines == 1 { "" } else { "s" }
        );
        return ExitCode::from(1);
    }
    let unused = session.unused_dice();
    if unused > 0 {
        let dice = if unused == 1 { "die" } else { "dice" };
        warn!("error: {unused} {dice} given with --dice never used");
        return ExitCode::from(1);
    }
    refused(ran)
}

/// 2 when a line's answer could not be written in the format asked for,
/// else 1 when a line was refused, else 0.
fn refused(ran: &batch::Ran) -> ExitCode {
    if ran.unwritable > 0 {
        ExitCode::from(2)
    } else if ran.rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
