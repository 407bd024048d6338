//! The interactive loop: rustyline with history kept in the user's data
//! directory, written line by line (a closed terminal loses nothing).
//! Ctrl-C abandons the line being typed, or stops the command running;
//! Ctrl-D leaves. The REPL's own verb is `load FILE` (an army list).

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Config, Editor};

use super::Printer;
use super::complete::{ReplHelper, Words};
use super::interrupt::CatchCtrlC;
use crate::command::{Mode, Span};
use crate::error::{BindError, CommandError, DiceError, ErrorKind};
use crate::meta::MetaVerb;
use crate::session::{Output, Session, explore};

/// Lines of history kept: an evening's play, and more.
const HISTORY_LINES: usize = 10_000;

fn history_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("drumhead").join("history"))
}

type LineEditor = Editor<ReplHelper, DefaultHistory>;

/// The line editor, its completion fed from the session, and the history
/// read back from where it is kept (if anywhere).
fn editor(session: &Session, color: bool) -> io::Result<(LineEditor, Option<PathBuf>)> {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .completion_show_all_if_ambiguous(true)
        .max_history_size(HISTORY_LINES)
        .map_err(io::Error::other)?
        .auto_add_history(false)
        .build();
    let mut editor: LineEditor = Editor::with_config(config).map_err(io::Error::other)?;
    editor.set_helper(Some(ReplHelper::new(Words::of(session, color))));
    let history = history_path();
    if let Some(path) = &history {
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.load_history(path);
    }
    Ok((editor, history))
}

/// Ctrl-C caught for the session, or a note that it will end drumhead.
fn catch_ctrl_c() -> Option<CatchCtrlC> {
    match CatchCtrlC::install() {
        Ok(catch) => Some(catch),
        Err(e) => {
            let _ = writeln!(
                io::stderr(),
                "note: Ctrl-C cannot be caught ({e}): it will end drumhead, not just the command"
            );
            None
        }
    }
}

/// Where the history is written, and whether writing it has failed
/// (said once, not at every line).
struct History {
    path: Option<PathBuf>,
    failed: bool,
}

impl History {
    fn remember(&mut self, editor: &mut LineEditor, line: &str) {
        if line.is_empty() || !matches!(editor.add_history_entry(line), Ok(true)) {
            return;
        }
        // Written now, not at the end: a killed terminal keeps it.
        if let Some(path) = &self.path
            && let Err(e) = editor.append_history(path)
            && !self.failed
        {
            self.failed = true;
            let note = format!(
                "note: the history cannot be written to {}: {e}",
                path.display()
            );
            let _ = writeln!(io::stderr(), "{}", crate::text::visible_lines(&note));
        }
    }
}

type Answer = Result<Option<Output>, CommandError>;

/// Too few dice after `rolled`: ask for the missing ones, as an umpire
/// would, rather than roll them (issue 23). An empty answer or Ctrl-C
/// leaves the line refused.
fn ask_for_dice(
    editor: &mut LineEditor,
    session: &mut Session,
    (line, line_no): (&mut String, usize),
    result: &mut Answer,
    printer: &mut Printer,
) -> io::Result<()> {
    while let Err(CommandError::Dice(DiceError::TooFew { missing, .. })) = &*result {
        let ask = format!("{missing}; the missing dice (Enter to give up)> ");
        let more = match editor.readline(&ask) {
            Ok(more) if !more.trim().is_empty() => more,
            Ok(_) | Err(ReadlineError::Interrupted) | Err(ReadlineError::Eof) => break,
            Err(e) => return Err(io::Error::other(e)),
        };
        *line = format!("{} {}", line.trim_end(), more.trim());
        *result = run_line(session, (line, line_no), printer)?;
    }
    Ok(())
}

/// Returns how many commands were rejected (a command stopped with
/// Ctrl-C is not one of them).
pub(crate) fn run(session: &mut Session, printer: &Printer) -> io::Result<usize> {
    // `set brief` and `set ascii` change how the answers after them look.
    let mut printer = printer.clone();
    let (mut editor, path) = editor(session, printer.style.color)?;
    let mut history = History {
        path,
        failed: false,
    };
    session.show_progress(io::stderr().is_terminal());
    let _ctrl_c = catch_ctrl_c();
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
        let line = match editor.readline(&prompt) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(io::Error::other(e)),
        };
        line_no += 1;
        let trimmed = line.trim();
        if MetaVerb::typed(trimmed) == Some(MetaVerb::Quit) {
            break;
        }
        history.remember(&mut editor, trimmed);
        explore::clear_interrupt();
        let mut line = line;
        let mut result = run_line(session, (&line, line_no), &mut printer)?;
        ask_for_dice(
            &mut editor,
            session,
            (&mut line, line_no),
            &mut result,
            &mut printer,
        )?;
        for note in session.take_notes() {
            let note = format!("note: {note}");
            let _ = writeln!(
                io::stderr(),
                "{}",
                crate::format::wrap_error(&note, printer.err_width)
            );
        }
        let stdout = io::stdout();
        let mut out = stdout.lock();
        match result {
            Ok(None) => {}
            Ok(Some(output)) => {
                let source = crate::format::Source {
                    line: line_no,
                    input: &line,
                };
                printer.result(&mut out, &output, source)?
            }
            Err(e) => {
                if !explore::interrupted() {
                    rejected += 1;
                }
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
        explore::clear_interrupt();
        // `load` brings units, `set rules` another book's words.
        if let Some(helper) = editor.helper_mut() {
            helper.words = Words::of(session, printer.style.color);
        }
    }
    Ok(rejected)
}

/// `set brief [on|off]`, `set ascii [on|off]`: the REPL's display, which
/// the session does not hold. `None` for any other line.
fn display_setting(
    command: &crate::command::Command,
    style: &mut crate::format::Style,
) -> Option<Result<Option<Output>, CommandError>> {
    if MetaVerb::named(&command.verb) != Some(MetaVerb::Set) || command.mode != Mode::Resolve {
        return None;
    }
    let name = command.words.first()?;
    let wanted = crate::parse::normalise(&name.text);
    let (setting, meaning) = crate::session::DISPLAY_SETTINGS
        .iter()
        .find(|(n, _)| *n == wanted)?;
    let flag = match *setting {
        "brief" => &mut style.brief,
        _ => &mut style.ascii,
    };
    let value = match command.words.get(1) {
        None => true,
        Some(word) => match crate::parse::normalise(&word.text).as_str() {
            "on" => true,
            "off" => false,
            _ => {
                return Some(Err(BindError::BadValue {
                    span: word.span,
                    text: word.text.to_string(),
                    expected: format!("`on` or `off`: `set {setting} on`, `set {setting} off`"),
                }
                .into()));
            }
        },
    };
    if let Some(extra) = command
        .words
        .get(2)
        .map(|w| (w.span, w.text.to_string()))
        .or_else(|| command.rolled_span.map(|s| (s, "rolled".to_string())))
    {
        return Some(Err(BindError::NotHere {
            kind: ErrorKind::ExtraWord,
            span: extra.0,
            text: extra.1,
            why: format!("is one word too many: `set {setting} on|off`"),
        }
        .into()));
    }
    *flag = value;
    let text = if value {
        format!("{setting}: on: {meaning}")
    } else {
        format!("{setting}: off")
    };
    Some(Ok(Some(Output::Report(Box::new(
        crate::answer::report::Report::Setting { text },
    )))))
}

/// One line of the REPL (its `line_no`), read once: the prompt's own
/// settings and `load` here, the rest by the session, as the printer's
/// format accepts it. A sweep too large for one table is written as it is
/// counted, and its answer is then `None` (written already).
fn run_line(
    session: &mut Session,
    (line, line_no): (&str, usize),
    printer: &mut Printer,
) -> io::Result<Answer> {
    let parsed = session.parse(line);
    let command = match parsed {
        Ok(Some(command))
            if MetaVerb::named(&command.verb) == Some(MetaVerb::Load)
                && command.mode == Mode::Resolve =>
        {
            command
        }
        Ok(Some(command)) => {
            if let Some(result) = display_setting(&command, &mut printer.style) {
                return Ok(result);
            }
            let printer = &*printer;
            let source = crate::format::Source {
                line: line_no,
                input: line,
            };
            // The REPL's answers follow the prompt's line with no blank
            // line before them.
            return crate::lines::run_streamed(
                session,
                printer,
                Ok(Some(command)),
                &|kind| printer.accepts(kind, line),
                source,
                (&mut io::stdout(), false),
            );
        }
        other => return Ok(session.run(line, other, &|_| Ok(()))),
    };
    Ok(load(session, line, &command))
}

/// The REPL's own `load FILE`: an army list into the session.
fn load(session: &mut Session, line: &str, command: &crate::command::Command) -> Answer {
    let Some(file) = command.words.first() else {
        return Err(BindError::Missing {
            span: Span::at_end(line),
            what: "`load` needs an army list file, like `load armies/leuthen-1757-prussian.toml`"
                .into(),
        }
        .into());
    };
    if let Some(clause) = command.clauses.first() {
        return Err(crate::bind::clause_not_here(clause, MetaVerb::Load.name()).into());
    }
    let extra = command
        .words
        .get(1)
        .map(|w| (w.span, w.text.to_string()))
        .or_else(|| command.rolled_span.map(|s| (s, "rolled".to_string())));
    if let Some((span, text)) = extra {
        return Err(BindError::NotHere {
            kind: ErrorKind::ExtraWord,
            span,
            text,
            why: "is one word too many: `load FILE` loads one army list".into(),
        }
        .into());
    }
    let path = std::path::Path::new(&file.text);
    session
        .load_army(path)
        .map(|text| {
            Some(Output::Report(Box::new(
                crate::answer::report::Report::Loaded { text },
            )))
        })
        .map_err(|e| {
            BindError::BadValue {
                span: file.span,
                text: file.text.to_string(),
                expected: format!("cannot be loaded: {e}"),
            }
            .into()
        })
}
