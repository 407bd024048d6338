//! Batch mode: commands read from standard input, one a line.
//!
//! Lines are taken in chunks. Without a game or `--dice` (whose state runs
//! from line to line), chunks are resolved on two threads — the line at
//! position k always rolls with seed + k, so the dice are the same either
//! way — and written in input order.

use std::io::{self, BufRead, Write};
use std::mem::take;
use std::ops::Range;
use std::sync::mpsc;

use super::Printer;
use crate::lines::{Lines, PassOn, Unreadable, Written};
use crate::meta::MetaVerb;
use crate::session::{Recipe, Session};

/// Lines per chunk: large enough to amortise the hand-over between threads.
const CHUNK_LINES: usize = 4096;

/// Lines of input starting at a position; a line that could not be read
/// (not UTF-8) is carried as its error. The lines are held one after
/// another in one text: the thread that reads them all makes one
/// allocation a chunk, not one a line.
struct Chunk {
    start: usize,
    text: String,
    lines: Vec<Result<Range<usize>, Unreadable>>,
}

impl Chunk {
    fn lines(&self) -> impl Iterator<Item = Result<&str, Unreadable>> {
        self.lines.iter().map(|line| match line {
            Ok(at) => Ok(&self.text[at.clone()]),
            Err(why) => Err(*why),
        })
    }

    /// The lines from `at` on, taken out into a chunk of their own.
    fn split_off(&mut self, at: usize) -> Chunk {
        let lines = self.lines.split_off(at.min(self.lines.len()));
        // Where the first of them that was read stands; the lines that
        // could not be read hold nothing.
        let from = lines
            .iter()
            .find_map(|l| l.as_ref().ok().map(|at| at.start))
            .unwrap_or(self.text.len());
        let text = self.text.split_off(from);
        Chunk {
            start: self.start + self.lines.len(),
            text,
            lines: lines
                .into_iter()
                .map(|l| l.map(|at| at.start - from..at.end - from))
                .collect(),
        }
    }

    /// This chunk's lines, then the next chunk's.
    fn then(mut self, next: Chunk) -> Chunk {
        let shift = self.text.len();
        self.text.push_str(&next.text);
        self.lines.extend(
            next.lines
                .into_iter()
                .map(|l| l.map(|at| at.start + shift..at.end + shift)),
        );
        self
    }

    /// `set` lines change the session for the lines after them.
    fn settings(&self) -> Vec<String> {
        self.lines()
            .filter_map(Result::ok)
            .filter(|l| crate::parse::first_or_second_word_is(l, MetaVerb::Set.name()))
            .map(str::to_string)
            .collect()
    }
}

/// At the end of the input the last chunks are short, and the helper's
/// may be the only one: the lines left are shared evenly, so that neither
/// thread waits long for the other (a batch of 10,000 lines would
/// otherwise end with the helper resolving a fifth of it alone).
fn even_out(mut theirs: Chunk, ours: Chunk, size: usize) -> (Chunk, Chunk) {
    if ours.lines.len() >= size || ours.lines.len() >= theirs.lines.len() {
        return (theirs, ours);
    }
    let half = (theirs.lines.len() + ours.lines.len()) / 2;
    let tail = theirs.split_off(half);
    (theirs, tail.then(ours))
}

/// Work for the helper thread.
enum Job {
    /// A chunk, with the buffers to write its answers into.
    Resolve(Chunk, Written),
    /// Settings made on the other thread, to be made here too, silently.
    Sync(Vec<String>),
}

fn read_chunk(lines: &mut Lines<impl BufRead>, start: usize, size: usize) -> io::Result<Chunk> {
    let room = size.min(CHUNK_LINES);
    // Room for a few hundred lines of a usual length (a one-shot command's
    // single line asks for no more), grown as more come.
    let mut text = Vec::with_capacity(room.min(256) * 64);
    let mut read = Vec::with_capacity(room);
    while read.len() < size {
        match lines.next_line(&mut text)? {
            Some(Ok(at)) if ends_batch(&text[at.clone()]) => {
                text.truncate(at.start);
                lines.end();
                break;
            }
            Some(line) => read.push(line),
            None => break,
        }
    }
    // Every line kept in the text was read as UTF-8 above, and a line
    // that was not is taken out again: the whole is UTF-8.
    let text = String::from_utf8(text)
        .map_err(|_| io::Error::other("a line that is not UTF-8 was kept"))?;
    Ok(Chunk {
        start,
        text,
        lines: read,
    })
}

/// Whether a line ends the batch as the end of its input does: `quit`
/// (or `exit`), as the REPL reads it. No line after it is read.
fn ends_batch(line: &[u8]) -> bool {
    let word = line.trim_ascii();
    MetaVerb::Quit.names().any(|name| name.as_bytes() == word)
}

/// Resolve a chunk into `w` (an emptied [`Written`]). Text results are
/// each preceded by a blank line (but one-line answers, `--brief`); the
/// writer drops the very first one.
fn resolve_chunk(
    session: &mut Session,
    printer: &Printer,
    chunk: &Chunk,
    batch: bool,
    mut w: Written,
    mut pass_on: Option<&mut dyn PassOn>,
) -> io::Result<Written> {
    for (i, line) in chunk.lines().enumerate() {
        crate::lines::answer(
            session,
            printer,
            (chunk.start + i, line),
            batch,
            &mut w,
            pass_on.as_deref_mut(),
        )?;
    }
    Ok(w)
}

/// On the thread that writes, a sweep's rows go out as they are counted.
impl PassOn for Writer<'_> {
    fn pass_on(&mut self, w: &Written) -> io::Result<()> {
        self.write(w)?;
        self.out.flush()
    }
}

/// Writes chunks in order, dropping the separator before the first result.
struct Writer<'a> {
    out: io::BufWriter<io::StdoutLock<'a>>,
    started: bool,
    /// Whether answers have a blank line between them.
    separated: bool,
    /// Flush after every chunk (`--line-buffered`).
    flush: bool,
}

impl Writer<'_> {
    fn write(&mut self, w: &Written) -> io::Result<()> {
        let mut out: &[u8] = &w.out;
        if !self.started && self.separated && !out.is_empty() {
            out = &out[1..];
        }
        if !w.out.is_empty() {
            self.started = true;
        }
        self.out.write_all(out)?;
        if !w.err.is_empty() {
            self.out.flush()?;
            // A full or closed standard error is no reason to stop.
            let _ = io::stderr().lock().write_all(&w.err);
        }
        if self.flush {
            self.out.flush()?;
        }
        Ok(())
    }
}

/// How a run went: the lines read and resolved (each applied to the game,
/// if any), the lines refused, and what stopped it early, if anything.
#[derive(Debug, Default)]
pub(crate) struct Ran {
    pub(crate) lines: usize,
    pub(crate) rejected: usize,
    /// Of the refused lines, those the format asked for cannot write: a
    /// usage error.
    pub(crate) unwritable: usize,
    pub(crate) stopped: Option<io::Error>,
}

/// How lines are taken: `batch` numbers them in errors; `line_buffered`
/// resolves and writes each before reading the next (a co-process sees
/// every answer at once); `spec` allows a second thread.
pub(crate) struct Mode {
    pub(crate) batch: bool,
    pub(crate) line_buffered: bool,
    pub(crate) spec: Option<Recipe>,
}

/// Resolve every line.
pub(crate) fn run(
    session: &mut Session,
    printer: &Printer,
    input: impl BufRead,
    mode: Mode,
) -> Ran {
    let stdout = io::stdout();
    let mut writer = Writer {
        out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        started: false,
        separated: printer.separated(),
        flush: mode.line_buffered,
    };
    let mut lines = Lines::new(input);
    // One line at a time when each answer must go out before the next line
    // is read, or when lines depend on each other through a game.
    let size = if mode.line_buffered { 1 } else { CHUNK_LINES };
    let spec = mode.spec.filter(|_| !mode.line_buffered);
    let mut chunks = Chunks {
        lines: &mut lines,
        size,
        batch: mode.batch,
        writer: &mut writer,
    };
    match spec {
        Some(spec) => chunks.on_two_threads(session, printer, spec),
        None => chunks.on_one_thread(session, printer),
    }
}

/// The input as it is read in chunks, and where their answers go.
struct Chunks<'a, 'w, R> {
    lines: &'a mut Lines<R>,
    size: usize,
    batch: bool,
    writer: &'a mut Writer<'w>,
}

impl<R: BufRead> Chunks<'_, '_, R> {
    fn on_one_thread(&mut self, session: &mut Session, printer: &Printer) -> Ran {
        let mut ran = Ran::default();
        let mut w = Written::default();
        let result = (|| -> io::Result<()> {
            loop {
                let chunk = read_chunk(self.lines, ran.lines, self.size)?;
                if chunk.lines.is_empty() {
                    break;
                }
                ran.lines += chunk.lines.len();
                w = resolve_chunk(
                    session,
                    printer,
                    &chunk,
                    self.batch,
                    take(&mut w).cleared(),
                    Some(&mut *self.writer),
                )?;
                ran.rejected += w.rejected;
                ran.unwritable += w.unwritable;
                self.writer.write(&w)?;
            }
            self.writer.out.flush()
        })();
        ran.stopped = result.err();
        ran
    }

    /// Two threads: the helper takes every other chunk.
    fn on_two_threads(&mut self, session: &mut Session, printer: &Printer, spec: Recipe) -> Ran {
        let mut position = 0;
        let (mut rejected, mut unwritable) = (0, 0);
        let (to_helper, helper_in) = mpsc::channel::<Job>();
        let (helper_out, from_helper) = mpsc::channel::<io::Result<Written>>();
        let helper = helper_thread(spec, printer.clone(), self.batch, helper_in, helper_out);
        let batch = self.batch;
        // The two threads' buffers, each used again for the next chunk.
        let (mut helper_buffer, mut own_buffer) = (Written::default(), Written::default());
        let mut share = Share::new(self.size);
        let result = (|| -> io::Result<()> {
            loop {
                let theirs = read_chunk(self.lines, position, share.lines)?;
                if theirs.lines.is_empty() {
                    break;
                }
                position += theirs.lines.len();
                let ours = read_chunk(self.lines, position, self.size)?;
                position += ours.lines.len();
                let last = ours.lines.is_empty();
                let (theirs, ours) = even_out(theirs, ours, self.size);
                let stopped = || io::Error::other("batch helper thread stopped");
                let settings: Vec<String> = theirs
                    .settings()
                    .into_iter()
                    .chain(ours.settings())
                    .collect();
                let (helped, mine) = if settings.is_empty() {
                    to_helper
                        .send(Job::Resolve(theirs, take(&mut helper_buffer).cleared()))
                        .map_err(|_| stopped())?;
                    let mine = resolve_chunk(
                        session,
                        printer,
                        &ours,
                        batch,
                        take(&mut own_buffer).cleared(),
                        None,
                    )?;
                    (share.receive(&from_helper).ok_or_else(stopped)??, mine)
                } else {
                    // A setting changes the lines after it: both chunks here, in
                    // order, then the same settings on the helper's session.
                    let first = resolve_chunk(
                        session,
                        printer,
                        &theirs,
                        batch,
                        take(&mut helper_buffer).cleared(),
                        None,
                    )?;
                    let second = resolve_chunk(
                        session,
                        printer,
                        &ours,
                        batch,
                        take(&mut own_buffer).cleared(),
                        None,
                    )?;
                    to_helper.send(Job::Sync(settings)).map_err(|_| stopped())?;
                    (first, second)
                };
                rejected += helped.rejected + mine.rejected;
                unwritable += helped.unwritable + mine.unwritable;
                self.writer.write(&helped)?;
                self.writer.write(&mine)?;
                (helper_buffer, own_buffer) = (helped, mine);
                if last {
                    break;
                }
            }
            Ok(())
        })();
        drop(to_helper);
        let _ = helper.join();
        let flushed = self.writer.out.flush();
        Ran {
            lines: position,
            rejected,
            unwritable,
            stopped: result.and(flushed).err(),
        }
    }
}

/// How many lines the helper thread is given, steered chunk by chunk. The
/// main thread also reads every line and writes every answer, so an even
/// split leaves the helper idle while it does: when the helper's answers
/// are there before the main thread's own, it gets more lines next time;
/// when the main thread has to wait for them, fewer. The dice do not
/// depend on the split (a line's seed is its position).
struct Share {
    lines: usize,
    step: usize,
    least: usize,
    most: usize,
}

impl Share {
    fn new(size: usize) -> Share {
        Share {
            lines: size,
            step: (size / 64).max(1),
            least: (size / 2).max(1),
            most: size.saturating_mul(2),
        }
    }

    /// The helper's answers, once the main thread has its own; `None` if
    /// the helper has stopped.
    fn receive(
        &mut self,
        from: &mpsc::Receiver<io::Result<Written>>,
    ) -> Option<io::Result<Written>> {
        match from.try_recv() {
            Ok(helped) => {
                self.lines = (self.lines + self.step).min(self.most);
                Some(helped)
            }
            Err(mpsc::TryRecvError::Empty) => {
                self.lines = self.lines.saturating_sub(self.step).max(self.least);
                from.recv().ok()
            }
            Err(mpsc::TryRecvError::Disconnected) => None,
        }
    }
}

/// The second thread: its own session, built alike, resolves the chunks
/// it is sent until the channel closes.
fn helper_thread(
    spec: Recipe,
    printer: Printer,
    batch: bool,
    helper_in: mpsc::Receiver<Job>,
    helper_out: mpsc::Sender<io::Result<Written>>,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut session = match spec.build() {
            Ok(s) => s,
            Err(e) => {
                let _ = helper_out.send(Err(io::Error::other(e)));
                return;
            }
        };
        for job in helper_in {
            match job {
                Job::Resolve(chunk, buffer) => {
                    if helper_out
                        .send(resolve_chunk(
                            &mut session,
                            &printer,
                            &chunk,
                            batch,
                            buffer,
                            None,
                        ))
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_LINE_BYTES;

    /// Only the lines whose first or second word is `set` change the
    /// session.
    #[test]
    fn settings_are_the_lines_that_set() {
        let lines = [
            "set seed 4",
            "drums SET dice 3",
            "\u{A0}Set explain off",
            "reset the line",
            "resilience shooting line +determined +hit rolled 4 3",
            "mayhem fire musket 20\" soft",
            "resilience sett",
            "a b set",
        ];
        let input = lines.join("\n");
        let chunk = read_chunk(&mut Lines::new(input.as_bytes()), 0, CHUNK_LINES).expect("read");
        assert_eq!(
            chunk.settings(),
            ["set seed 4", "drums SET dice 3", "\u{A0}Set explain off"]
        );
    }

    /// Lines are read into one text, each where it stands; a line that
    /// cannot be read keeps its place as its error and leaves nothing in
    /// the text, and a chunk stops at its size.
    #[test]
    fn a_chunk_holds_its_lines_in_order_and_its_bad_ones_as_errors() {
        let mut input = b"roll 2d6\r\nset seed 4\n".to_vec();
        input.extend_from_slice(b"bad \xff line\n");
        input.extend_from_slice(&vec![b'x'; MAX_LINE_BYTES + 1]);
        input.extend_from_slice(b"\n\nlast without end");
        let mut lines = Lines::new(&input[..]);
        let chunk = read_chunk(&mut lines, 7, 5).expect("read");
        let read: Vec<Result<&str, Unreadable>> = chunk.lines().collect();
        assert_eq!(read.len(), 5);
        assert_eq!(read[0], Ok("roll 2d6"));
        assert_eq!(read[1], Ok("set seed 4"));
        assert!(read[2] == Err(Unreadable::NotUtf8), "{:?}", read[2]);
        assert!(read[3] == Err(Unreadable::TooLong), "{:?}", read[3]);
        assert_eq!(read[4], Ok(""));
        assert_eq!(chunk.text, "roll 2d6set seed 4");
        assert_eq!(chunk.start, 7);
        let rest = read_chunk(&mut lines, 12, 5).expect("read");
        assert_eq!(rest.lines().collect::<Vec<_>>(), [Ok("last without end")]);
        assert!(
            read_chunk(&mut lines, 13, 5)
                .expect("read")
                .lines
                .is_empty()
        );
    }

    /// Answers already there give the helper more lines; answers waited
    /// for, fewer; within half and twice a chunk.
    #[test]
    fn the_helpers_share_follows_who_waited() {
        let (to, from) = mpsc::channel();
        let mut share = Share::new(128);
        to.send(Ok(Written::default())).expect("send");
        assert!(share.receive(&from).is_some());
        assert_eq!(share.lines, 130);
        let later = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            to.send(Ok(Written::default())).expect("send");
            to
        });
        assert!(share.receive(&from).is_some());
        assert_eq!(share.lines, 128);
        let to = later.join().expect("joined");
        share.lines = 255;
        to.send(Ok(Written::default())).expect("send");
        assert!(share.receive(&from).is_some());
        assert_eq!(share.lines, 256, "at most twice a chunk");
        drop(to);
        assert!(share.receive(&from).is_none(), "the helper has stopped");
    }

    /// The lines left at the end are shared evenly between the threads,
    /// each keeping its place (and so its seed) and its text or error.
    #[test]
    fn the_last_lines_are_shared_evenly_in_order() {
        let mut input = b"a 1\nb 2\nbad \xff\nc 3\n".to_vec();
        input.extend_from_slice(b"d 4\ne 5\nf 6");
        let mut lines = Lines::new(&input[..]);
        let theirs = read_chunk(&mut lines, 10, 6).expect("read");
        let ours = read_chunk(&mut lines, 16, 8).expect("read");
        assert_eq!(ours.lines.len(), 1, "the input ends in the second chunk");
        let (theirs, ours) = even_out(theirs, ours, 8);
        let read = |c: &Chunk| {
            c.lines()
                .map(|l| l.unwrap_or("error").to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(read(&theirs), ["a 1", "b 2", "error"]);
        assert_eq!(read(&ours), ["c 3", "d 4", "e 5", "f 6"]);
        assert_eq!((theirs.start, ours.start), (10, 13));
        // Only the helper's chunk: it is cut in two.
        let mut lines = Lines::new(&input[..]);
        let theirs = read_chunk(&mut lines, 0, 7).expect("read");
        let ours = read_chunk(&mut lines, 7, 8).expect("read");
        let (theirs, ours) = even_out(theirs, ours, 8);
        assert_eq!(read(&theirs), ["a 1", "b 2", "error"]);
        assert_eq!(read(&ours), ["c 3", "d 4", "e 5", "f 6"]);
        assert_eq!(ours.start, 3);
        // Before the end, chunks are left as read.
        let mut lines = Lines::new(&input[..]);
        let theirs = read_chunk(&mut lines, 0, 3).expect("read");
        let ours = read_chunk(&mut lines, 3, 3).expect("read");
        let (theirs, ours) = even_out(theirs, ours, 3);
        assert_eq!((theirs.lines.len(), ours.lines.len()), (3, 3));
    }
}
