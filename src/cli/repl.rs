//! The interactive loop: rustyline with history kept in the user's data
//! directory. Ctrl-C abandons the line, Ctrl-D leaves.

use std::io::{self, Write};
use std::path::PathBuf;

use rustyline::Editor;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;

use super::Printer;
use super::complete::{ReplHelper, Words};
use crate::session::Session;

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("drumhead").join("history"))
}

/// Returns how many commands were rejected.
pub fn run(session: &mut Session, printer: &Printer) -> io::Result<usize> {
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::new().map_err(io::Error::other)?;
    editor.set_helper(Some(ReplHelper(Words::of(session, printer.style.color))));
    let history = history_path();
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    let _ = writeln!(
        io::stdout(),
        "drumhead — type `help` for the verbs, Ctrl-D to leave."
    );
    let mut rejected = 0;
    let mut line_no = 0;
    loop {
        let prompt = match &session.game {
            Some(game) => format!("{} t{}> ", session.rules.id(), game.turn),
            None => format!("{}> ", session.rules.id()),
        };
        match editor.readline(&prompt) {
            Ok(line) => {
                line_no += 1;
                let trimmed = line.trim();
                if trimmed == "quit" || trimmed == "exit" {
                    break;
                }
                if !trimmed.is_empty() {
                    let _ = editor.add_history_entry(trimmed);
                }
                let stdout = io::stdout();
                let mut out = stdout.lock();
                match session.run_line(&line) {
                    Ok(None) => {}
                    Ok(Some(output)) => {
                        let source = crate::render::Source {
                            line: line_no,
                            input: &line,
                        };
                        printer.result(&mut out, &output, source)?
                    }
                    Err(e) => {
                        rejected += 1;
                        printer.error(
                            &mut out,
                            &mut io::stderr().lock(),
                            &e,
                            &line,
                            line_no,
                            false,
                        )?;
                    }
                }
                out.flush()?;
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(io::Error::other(e)),
        }
    }
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(path);
    }
    Ok(rejected)
}
