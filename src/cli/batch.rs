//! Batch mode: commands read from standard input, one a line.
//!
//! Lines are taken in chunks. Without a game or `--dice` (whose state runs
//! from line to line), chunks are resolved on two threads — the line at
//! position k always rolls with seed + k, so the dice are the same either
//! way — and written in input order.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc;

use super::Printer;
use crate::command::System;
use crate::error::TableError;
use crate::session::Session;
use crate::system::Registry;

/// Lines per chunk: large enough to amortise the hand-over between threads.
const CHUNK_LINES: usize = 4096;

/// What is needed to build an identical session on another thread.
#[derive(Clone)]
pub struct SessionSpec {
    pub registry: Registry,
    pub tables_dir: Option<PathBuf>,
    pub crt: Option<PathBuf>,
    pub rules: System,
    pub seed: u64,
}

impl SessionSpec {
    pub fn build(&self) -> Result<Session, TableError> {
        let source = super::table_source(self.tables_dir.as_deref(), self.crt.as_deref())?;
        let tables = self.registry.load(&source)?;
        Ok(Session::new(tables, self.rules, self.seed))
    }
}

/// Lines of input starting at a position; a line that could not be read
/// (not UTF-8) is carried as its error.
struct Chunk {
    start: usize,
    lines: Vec<Result<String, String>>,
}

impl Chunk {
    /// `set` lines change the session for the lines after them.
    fn settings(&self) -> Vec<String> {
        self.lines
            .iter()
            .filter_map(|l| l.as_ref().ok())
            .filter(|l| {
                l.split_whitespace()
                    .take(2)
                    .any(|w| w.eq_ignore_ascii_case("set"))
            })
            .cloned()
            .collect()
    }
}

/// Work for the helper thread.
enum Job {
    Resolve(Chunk),
    /// Settings made on the other thread, to be made here too, silently.
    Sync(Vec<String>),
}

/// One chunk's output, to be written in order.
#[derive(Default)]
struct Written {
    out: Vec<u8>,
    err: Vec<u8>,
    rejected: usize,
}

fn read_chunk(
    lines: &mut impl Iterator<Item = io::Result<String>>,
    start: usize,
) -> io::Result<Chunk> {
    let mut chunk = Chunk {
        start,
        lines: Vec::with_capacity(CHUNK_LINES),
    };
    for line in lines.by_ref() {
        match line {
            Ok(l) => chunk.lines.push(Ok(l)),
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                chunk.lines.push(Err(e.to_string()))
            }
            Err(e) => return Err(e),
        }
        if chunk.lines.len() == CHUNK_LINES {
            break;
        }
    }
    Ok(chunk)
}

/// Resolve a chunk. Text results are each preceded by a blank line; the
/// writer drops the very first one.
fn resolve_chunk(
    session: &mut Session,
    printer: &Printer,
    chunk: &Chunk,
    batch: bool,
) -> io::Result<Written> {
    let mut w = Written::default();
    for (i, line) in chunk.lines.iter().enumerate() {
        let position = chunk.start + i;
        session.seek(position as u64);
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                w.rejected += 1;
                writeln!(w.err, "error: line {}: {e}", position + 1)?;
                continue;
            }
        };
        match session.run_line(line) {
            Ok(None) => {}
            Ok(Some(output)) => {
                if !printer.json {
                    w.out.push(b'\n');
                }
                printer.result(&mut w.out, &output)?;
            }
            Err(e) => {
                w.rejected += 1;
                printer.error(&mut w.out, &mut w.err, &e, line, position + 1, batch)?;
            }
        }
    }
    Ok(w)
}

/// Writes chunks in order, dropping the separator before the first result.
struct Writer<'a> {
    out: io::BufWriter<io::StdoutLock<'a>>,
    started: bool,
    json: bool,
}

impl Writer<'_> {
    fn write(&mut self, w: &Written) -> io::Result<()> {
        let mut out: &[u8] = &w.out;
        if !self.started && !self.json && !out.is_empty() {
            out = &out[1..];
        }
        if !w.out.is_empty() {
            self.started = true;
        }
        self.out.write_all(out)?;
        if !w.err.is_empty() {
            self.out.flush()?;
            io::stderr().lock().write_all(&w.err)?;
        }
        Ok(())
    }
}

/// Resolve every line; returns how many were rejected. `spec` allows a
/// second thread; `None` keeps everything on this one.
pub fn run(
    session: &mut Session,
    printer: &Printer,
    input: impl BufRead,
    batch: bool,
    spec: Option<SessionSpec>,
) -> io::Result<usize> {
    let stdout = io::stdout();
    let mut writer = Writer {
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        started: false,
        json: printer.json,
    };
    let mut lines = input.lines();
    let mut rejected = 0;
    let mut position = 0;
    let Some(spec) = spec else {
        loop {
            let chunk = read_chunk(&mut lines, position)?;
            if chunk.lines.is_empty() {
                break;
            }
            position += chunk.lines.len();
            let w = resolve_chunk(session, printer, &chunk, batch)?;
            rejected += w.rejected;
            writer.write(&w)?;
        }
        writer.out.flush()?;
        return Ok(rejected);
    };

    // Two threads: the helper takes every other chunk.
    let (to_helper, helper_in) = mpsc::channel::<Job>();
    let (helper_out, from_helper) = mpsc::channel::<io::Result<Written>>();
    let json = printer.json;
    let color = printer.color;
    let helper = std::thread::spawn(move || {
        let printer = Printer { json, color };
        let mut session = match spec.build() {
            Ok(s) => s,
            Err(e) => {
                let _ = helper_out.send(Err(io::Error::other(e.to_string())));
                return;
            }
        };
        for job in helper_in {
            match job {
                Job::Resolve(chunk) => {
                    if helper_out
                        .send(resolve_chunk(&mut session, &printer, &chunk, batch))
                        .is_err()
                    {
                        return;
                    }
                }
                Job::Sync(lines) => {
                    for line in lines {
                        let _ = session.run_line(&line);
                    }
                }
            }
        }
    });
    let result = (|| -> io::Result<usize> {
        loop {
            let theirs = read_chunk(&mut lines, position)?;
            if theirs.lines.is_empty() {
                break;
            }
            position += theirs.lines.len();
            let ours = read_chunk(&mut lines, position)?;
            position += ours.lines.len();
            let last = ours.lines.is_empty();
            let stopped = || io::Error::other("batch helper thread stopped");
            let settings: Vec<String> = theirs
                .settings()
                .into_iter()
                .chain(ours.settings())
                .collect();
            let (helped, mine) = if settings.is_empty() {
                to_helper
                    .send(Job::Resolve(theirs))
                    .map_err(|_| stopped())?;
                let mine = resolve_chunk(session, printer, &ours, batch)?;
                (from_helper.recv().map_err(|_| stopped())??, mine)
            } else {
                // A setting changes the lines after it: both chunks here, in
                // order, then the same settings on the helper's session.
                let first = resolve_chunk(session, printer, &theirs, batch)?;
                let second = resolve_chunk(session, printer, &ours, batch)?;
                to_helper.send(Job::Sync(settings)).map_err(|_| stopped())?;
                (first, second)
            };
            rejected += helped.rejected + mine.rejected;
            writer.write(&helped)?;
            writer.write(&mine)?;
            if last {
                break;
            }
        }
        Ok(rejected)
    })();
    drop(to_helper);
    let _ = helper.join();
    writer.out.flush()?;
    result
}
