//! Long help through a pager at a terminal, as git does: `help melee`
//! runs past a screen, and a terminal without a pager loses its start
//! (the usage). Only when standard output is a terminal and the text is
//! taller than it; a pipe always gets the text as it is.

use std::io::Write as _;
use std::process::{Command, Stdio};

/// The pager when `PAGER` is not set: `less` that quits when the text
/// fits after all (-F), keeps colour (-R) and leaves the text on the
/// screen when it ends (-X).
const DEFAULT: &str = "less -FRX";

/// Show `text` through `$PAGER` when it has more lines than the terminal
/// (`rows`): whether it was. A pager that cannot be started leaves the
/// text to the caller; `PAGER=` or `PAGER=cat` asks for none.
pub(crate) fn page(text: &[u8], rows: u16) -> bool {
    let lines = text.iter().filter(|b| **b == b'\n').count();
    if lines < usize::from(rows) {
        return false;
    }
    let pager = std::env::var("PAGER").unwrap_or_else(|_| DEFAULT.to_string());
    if pager.trim().is_empty() || pager.trim() == "cat" {
        return false;
    }
    // The pager is a shell command line, as git runs it (`less -R`).
    let child = Command::new("sh")
        .arg("-c")
        .arg(&pager)
        .stdin(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early (`q`) closes its input: not an error.
        let _ = stdin.write_all(text);
    }
    let _ = child.wait();
    true
}
