//! Answering lines: each line of text run in a session and its answer (or
//! its refusal) written by a printer into buffers. Every front end that
//! answers lines shares this, so the same line gives the same bytes on
//! the command line, in a batch and in the pocket page.

use std::io::{self, BufRead, Write};
use std::ops::Range;

use crate::format::printer::Printer;
use crate::limits::MAX_LINE_BYTES;
use crate::session::Session;

/// Lines of input, each read only as far as a command line may go: a
/// line longer than that (or 300 MB of NULs) is skipped to its end
/// without being held, and reported.
pub(crate) struct Lines<R> {
    input: R,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(input: R) -> Lines<R> {
        Lines { input }
    }

    /// The next line, added to the end of `text`: where it stands there,
    /// or why it cannot be read (and nothing added). `None` at the end.
    pub(crate) fn next_line(
        &mut self,
        text: &mut Vec<u8>,
    ) -> io::Result<Option<Result<Range<usize>, String>>> {
        let start = text.len();
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (part, done) = match memchr::memchr(b'\n', available) {
                Some(i) => (&available[..i], i + 1),
                None => (available, available.len()),
            };
            let ends = done <= part.len() + 1 && done > part.len();
            if !too_long {
                if text.len() - start + part.len() > MAX_LINE_BYTES {
                    too_long = true;
                    text.truncate(start);
                } else {
                    text.extend_from_slice(part);
                }
            }
            self.input.consume(done);
            if ends {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        if too_long {
            return Ok(Some(Err(format!(
                "the line is longer than {MAX_LINE_BYTES} bytes, the most a command line may be; it was skipped"
            ))));
        }
        if text.len() > start && text.last() == Some(&b'\r') {
            text.pop();
        }
        if std::str::from_utf8(&text[start..]).is_err() {
            text.truncate(start);
            return Ok(Some(Err(
                "the line is not UTF-8 text; it was skipped".to_string()
            )));
        }
        Ok(Some(Ok(start..text.len())))
    }
}

/// The output of some lines, to be written in order: the answers (and, in
/// JSON mode, the refusals) and what goes to standard error. Its buffers
/// are used again for later lines once written: a batch's chunk is
/// megabytes, and growing a fresh buffer to that size every chunk (copying
/// it at each doubling, the allocator zeroing new pages) was a fifth of a
/// batch's time.
#[derive(Debug, Default)]
pub(crate) struct Written {
    pub(crate) out: Vec<u8>,
    pub(crate) err: Vec<u8>,
    pub(crate) rejected: usize,
    /// Of the refused lines, those the format asked for cannot write.
    pub(crate) unwritable: usize,
}

impl Written {
    /// Empty again, keeping what the buffers have grown to.
    pub(crate) fn cleared(mut self) -> Written {
        self.out.clear();
        self.err.clear();
        self.rejected = 0;
        self.unwritable = 0;
        self
    }
}

/// Answer the line at `position` (counted from 0; it rolls with the seed
/// plus its position) into `w`: `line` is the text, or why it could not be
/// read. Text results are each preceded by a blank line (but one-line
/// answers, `--brief`); the writer drops the very first one. `batch`
/// numbers the line in a text error.
pub(crate) fn answer(
    session: &mut Session,
    printer: &Printer,
    position: usize,
    line: Result<&str, &str>,
    batch: bool,
    w: &mut Written,
) -> io::Result<()> {
    session.seek(position as u64);
    let line = match line {
        Ok(l) => l,
        Err(e) => {
            w.rejected += 1;
            if printer.json {
                let source = crate::format::Source {
                    line: position + 1,
                    input: "",
                };
                let obj = crate::format::json::json_error(e, source, None).to_string();
                writeln!(w.out, "{}", crate::text::json_visible(&obj))?;
            } else {
                let e = crate::text::visible_lines(e);
                writeln!(w.err, "error: line {}: {e}", position + 1)?;
            }
            return Ok(());
        }
    };
    // A line the format cannot write is not run, but it keeps its
    // place (and seed).
    let parsed = session.parse(line);
    let refused = std::cell::Cell::new(false);
    let result = session.run(line, parsed, &|kind| {
        let accepted = printer.accepts(kind, line);
        refused.set(accepted.is_err() && printer.writes(kind, line).is_err());
        accepted
    });
    w.unwritable += usize::from(refused.get() && result.is_err());
    for note in session.take_notes() {
        writeln!(w.err, "note: {note}")?;
    }
    match result {
        Ok(None) => {}
        Ok(Some(output)) => {
            if printer.separated() {
                w.out.push(b'\n');
            }
            let source = crate::format::Source {
                line: position + 1,
                input: line,
            };
            printer.result(&mut w.out, &output, source)?;
            if let Err(e) = printer.draw(&output) {
                w.rejected += 1;
                printer.error(&mut w.out, &mut w.err, &e, line, position + 1, batch)?;
            }
        }
        Err(e) => {
            w.rejected += 1;
            printer.error(&mut w.out, &mut w.err, &e, line, position + 1, batch)?;
        }
    }
    Ok(())
}
