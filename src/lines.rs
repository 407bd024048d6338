//! Answering lines: each line of text run in a session and its answer (or
//! its refusal) written by a printer into buffers. Every front end that
//! answers lines shares this, so the same line gives the same bytes on
//! the command line, in a batch and in the pocket page.

use std::io::{self, BufRead, Write};
use std::ops::Range;

use crate::error::ErrorKind;
use crate::format::printer::Printer;
use crate::limits::MAX_LINE_BYTES;
use crate::session::Session;

/// Why a line of input could not be read: it is skipped, and the rest run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unreadable {
    #[error(
        "the line is longer than {MAX_LINE_BYTES} bytes, the most a command line may be; it was skipped"
    )]
    TooLong,
    #[error("the line is not UTF-8 text; it was skipped")]
    NotUtf8,
}

impl Unreadable {
    fn kind(self) -> ErrorKind {
        match self {
            Unreadable::TooLong => ErrorKind::LineTooLong,
            Unreadable::NotUtf8 => ErrorKind::NotUtf8,
        }
    }
}

/// Lines of input, each read only as far as a command line may go: a
/// line longer than that (or 300 MB of NULs) is skipped to its end
/// without being held, and reported.
pub(crate) struct Lines<R> {
    input: R,
    /// Ended before the input's end (a batch's `quit`): no more is read.
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(input: R) -> Lines<R> {
        Lines {
            input,
            ended: false,
        }
    }

    /// Read no more: every later line is the end of the input.
    pub(crate) fn end(&mut self) {
        self.ended = true;
    }

    /// The next line, added to the end of `text`: where it stands there,
    /// or why it cannot be read (and nothing added). `None` at the end.
    pub(crate) fn next_line(
        &mut self,
        text: &mut Vec<u8>,
    ) -> io::Result<Option<Result<Range<usize>, Unreadable>>> {
        if self.ended {
            return Ok(None);
        }
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
            return Ok(Some(Err(Unreadable::TooLong)));
        }
        if text.len() > start && text.last() == Some(&b'\r') {
            text.pop();
        }
        if std::str::from_utf8(&text[start..]).is_err() {
            text.truncate(start);
            return Ok(Some(Err(Unreadable::NotUtf8)));
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

/// Where the rows of a sweep too large for one table go as they are
/// counted: a front end that writes as it goes is handed its output at
/// each row, everything before it first.
pub(crate) trait PassOn {
    /// Write out what `w` holds (the caller then empties it).
    fn pass_on(&mut self, w: &Written) -> io::Result<()>;
}

/// The output of a line as a long answer writes it: kept with the other
/// lines', and handed on at each flush (after each row of a sweep) when
/// there is somewhere to hand it.
struct Through<'a, 'p> {
    w: &'a mut Written,
    to: Option<&'a mut (dyn PassOn + 'p)>,
}

impl Write for Through<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.w.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(to) = &mut self.to {
            to.pass_on(self.w)?;
            self.w.out.clear();
            self.w.err.clear();
        }
        Ok(())
    }
}

/// Answer the line at `position` (counted from 0; it rolls with the seed
/// plus its position) into `w`: `line` is the text, or why it could not be
/// read. Text results are each preceded by a blank line (but one-line
/// answers, `--brief`); the writer drops the very first one. `batch`
/// numbers the line in a text error. A sweep too large for one table is
/// written a row at a time as it is counted, each handed to `pass_on`
/// when there is one.
pub(crate) fn answer<'p>(
    session: &mut Session,
    printer: &Printer,
    (position, line): (usize, Result<&str, Unreadable>),
    batch: bool,
    w: &mut Written,
    pass_on: Option<&mut (dyn PassOn + 'p)>,
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
                let obj = crate::format::json::json_error(&e.to_string(), e.kind(), source, None)
                    .to_string();
                writeln!(w.out, "{}", crate::text::json_visible(&obj))?;
            } else {
                writeln!(w.err, "error: line {}: {e}", position + 1)?;
            }
            return Ok(());
        }
    };
    // A line the format cannot write is not run, but it keeps its
    // place (and seed).
    let parsed = session.parse(line);
    let refused = std::cell::Cell::new(false);
    let accepts = |kind| {
        let accepted = printer.accepts(kind, line);
        refused.set(accepted.is_err() && printer.writes(kind, line).is_err());
        accepted
    };
    let source = crate::format::Source {
        line: position + 1,
        input: line,
    };
    // A sweep's rows are handed on at once where the front end writes as
    // it goes, kept with the other lines' otherwise.
    let mut through = Through {
        w: &mut *w,
        to: pass_on,
    };
    let separated = printer.separated();
    let result = run_streamed(
        session,
        printer,
        parsed,
        &accepts,
        source,
        (&mut through, separated),
    )?;
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

/// Carry out a line as [`Session::run`] does, but a sweep too large for
/// one table is written to `out` a combination at a time as it is counted
/// ([`Printer::sweep_stream`]), after a blank line when `separated`: its
/// answer is then `None`, written already (as a blank line has none). Any
/// other answer, a smaller sweep's too, comes back whole; an error after
/// the rows written is left to be written after them.
pub(crate) fn run_streamed(
    session: &mut Session,
    printer: &Printer,
    parsed: Result<Option<crate::command::Command>, crate::error::CommandError>,
    accepts: &dyn Fn(crate::answer::Kind) -> Result<(), crate::error::CommandError>,
    source: crate::format::Source,
    (out, separated): (&mut dyn Write, bool),
) -> io::Result<Result<Option<crate::answer::Answer>, crate::error::CommandError>> {
    let line = source.input;
    let sweeps = matches!(&parsed, Ok(Some(c)) if c.mode == crate::command::Mode::Odds
        && crate::sweep::first_swept(c).is_some());
    let stream = if sweeps {
        printer.sweep_stream(source, out, separated)
    } else {
        None
    };
    let Some(mut stream) = stream else {
        return Ok(session.run(line, parsed, accepts));
    };
    let result = session.run_to(line, parsed, accepts, Some(&mut stream));
    Ok(match stream.end()? {
        // Its rows are written already.
        None => result.map(|_| None),
        Some(rows) => result.map(|answer| match answer {
            Some(crate::answer::Answer::Sweep(mut sweep)) => {
                sweep.rows = rows;
                Some(crate::answer::Answer::Sweep(sweep))
            }
            other => other,
        }),
    })
}
