//! The questions players ask before they commit: `odds … compare WORD`
//! (how one modifier changes the distribution) and `simulate N COMMAND`
//! (seeded rolls beside the exact odds, a check on the calculator).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::Session;
use crate::command::{Command, Span, WordKind};
use crate::dice::Dice;
use crate::error::{BindError, CommandError};
use crate::odds::Odds;

pub use crate::limits::MAX_SIMULATE;

/// Set by the REPL's Ctrl-C handler; the long loops (`simulate`, `odds`)
/// read it and stop, so Ctrl-C ends the command, not the program.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ask the running command to stop. Returns whether it had already been
/// asked and not yet stopped. Only an atomic swap: safe in a signal handler.
pub fn interrupt() -> bool {
    INTERRUPTED.swap(true, Ordering::Relaxed)
}

/// Whether the running command has been asked to stop.
#[inline]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Forget a stop asked for: called before each command, so a Ctrl-C
/// never stops a command typed after it.
pub fn clear_interrupt() {
    INTERRUPTED.store(false, Ordering::Relaxed);
}

/// The error of a command stopped by Ctrl-C: `how_far` says what it had done.
pub fn stopped(how_far: &str) -> CommandError {
    CommandError::Option(format!("stopped by Ctrl-C: {how_far}"))
}

/// Rolls between two looks at Ctrl-C and the progress bar: enough that
/// neither costs anything per roll, few enough to answer at once.
const CHUNK: u64 = 1 << 14;

/// How long a run goes before it is worth a progress bar.
const QUIET_FOR: Duration = Duration::from_millis(300);

/// A progress bar on standard error for a long run: drawn only where the
/// front end says there is a terminal to draw on, and only once the run
/// has taken long enough to be worth one. Cleared when dropped.
pub struct Progress {
    enabled: bool,
    total: u64,
    what: &'static str,
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub fn new(enabled: bool, total: u64, what: &'static str) -> Progress {
        Progress {
            enabled,
            total,
            what,
            started: Instant::now(),
            bar: None,
        }
    }

    /// `done` of the total are done.
    pub fn at(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= QUIET_FOR {
            let style = indicatif::ProgressStyle::with_template(
                "{msg} [{bar:40}] {human_pos}/{human_len} {elapsed} (eta {eta})",
            )
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(self.total),
                indicatif::ProgressDrawTarget::term_like(Box::new(Stderr)),
            )
            .with_style(style)
            .with_message(format!("{} (Ctrl-C stops)", self.what));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }
}

/// Standard error as a progress bar's terminal, a few columns narrower
/// than it is: the `^C` the terminal echoes then lands on the bar's line,
/// not past its end (where it would wrap and leave the bar standing).
#[derive(Debug)]
struct Stderr;

impl Stderr {
    fn put(&self, text: &str) -> std::io::Result<()> {
        use std::io::Write;
        std::io::stderr().lock().write_all(text.as_bytes())
    }

    fn size() -> (u16, u16) {
        // SAFETY: TIOCGWINSZ fills a winsize; on failure it stays zeroed.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
        if ok && size.ws_col > 0 {
            (size.ws_col, size.ws_row.max(1))
        } else {
            (80, 24)
        }
    }
}

impl indicatif::TermLike for Stderr {
    fn width(&self) -> u16 {
        Stderr::size().0.saturating_sub(3).max(10)
    }
    fn height(&self) -> u16 {
        Stderr::size().1
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            Ok(())
        } else {
            self.put(&format!("\x1b[{n}A"))
        }
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            Ok(())
        } else {
            self.put(&format!("\x1b[{n}B"))
        }
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            Ok(())
        } else {
            self.put(&format!("\x1b[{n}C"))
        }
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            Ok(())
        } else {
            self.put(&format!("\x1b[{n}D"))
        }
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }
    fn flush(&self) -> std::io::Result<()> {
        use std::io::Write;
        std::io::stderr().flush()
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

#[derive(Debug)]
pub struct Comparison {
    pub words: String,
    pub without: Odds,
    pub with: Odds,
}

#[derive(Debug)]
pub struct Simulation {
    pub rolls: u64,
    pub seed: u64,
    pub odds: Odds,
    /// Observed count per outcome text, in the odds' order, then any the
    /// odds did not list (which would be a bug).
    pub observed: Vec<(String, u64)>,
}

/// The line with a byte range blanked out, so spans still point into it.
fn blank(line: &str, from: usize, to: usize) -> String {
    let mut s = String::with_capacity(line.len());
    s.push_str(&line[..from]);
    s.push_str(&" ".repeat(line[from..to].chars().count()));
    s.push_str(&line[to..]);
    s
}

impl Session {
    /// `odds COMMAND compare WORDS`: the distribution without the words and
    /// with them (placed on the acting side, right after the verb).
    pub fn compare(
        &self,
        command: &Command,
        line: &str,
    ) -> Result<Option<Comparison>, CommandError> {
        let Some(at) = command
            .words
            .iter()
            .position(|w| w.keyword() == Some("compare"))
        else {
            return Ok(None);
        };
        let compare = &command.words[at];
        if !command.clauses.is_empty() {
            return Err(BindError::NotHere {
                span: compare.span,
                text: "compare".into(),
                why: "must come after the command's clauses (`at`/`vs`)".into(),
            }
            .into());
        }
        let words = &command.words[at + 1..];
        let (Some(first), Some(last)) = (words.first(), words.last()) else {
            return Err(BindError::Missing {
                span: Span::at_end(line),
                what: "`compare` needs the word to compare, like `compare +general`".into(),
            }
            .into());
        };
        let end = command
            .rolled_span
            .map_or(line.len(), |s| s.start)
            .max(last.span.end);
        let compared = line[first.span.start..last.span.end].to_string();
        // Without: the compared words blanked (and any of them typed earlier too).
        let mut without_line = blank(line, compare.span.start, end.min(last.span.end));
        let names: Vec<&str> = words.iter().filter_map(|w| w.keyword()).collect();
        for w in &command.words[..at] {
            if w.keyword().is_some_and(|k| names.contains(&k)) {
                without_line = blank(&without_line, w.span.start, w.span.end);
            }
        }
        // With: the line as typed, `compare` blanked and any compared word
        // typed earlier too; each word keeps its place, so an error points
        // at it in the line the user wrote.
        let mut with_line = blank(line, compare.span.start, compare.span.end);
        for w in &command.words[..at] {
            if w.keyword().is_some_and(|k| names.contains(&k)) {
                with_line = blank(&with_line, w.span.start, w.span.end);
            }
        }
        let without = self.odds_of_line(&without_line)?;
        let with = self.odds_of_line(&with_line)?;
        Ok(Some(Comparison {
            words: compared,
            without,
            with,
        }))
    }

    /// `odds` with swept words: each combination's line answered as an
    /// ordinary `odds` line.
    pub fn sweep(
        &self,
        command: &Command,
        line: &str,
        swept: Vec<crate::sweep::Swept>,
    ) -> Result<crate::sweep::Sweep, CommandError> {
        if let Some(compare) = command
            .words
            .iter()
            .find(|w| w.keyword() == Some("compare"))
        {
            return Err(BindError::NotHere {
                span: compare.span,
                text: "compare".into(),
                why: "and a sweep do not go together: sweep the word instead (`formed,open`), or compare without a sweep".into(),
            }
            .into());
        }
        let mut rows = Vec::new();
        for combination in crate::sweep::expand(line, &swept)? {
            let odds = self.odds_of_line(&combination.line).map_err(|e| {
                let with: Vec<&str> = swept
                    .iter()
                    .zip(&combination.picks)
                    .map(|(s, &i)| s.choices[i].word.as_str())
                    .collect();
                CommandError::Sweep {
                    with: with.join(" "),
                    inner: Box::new(e),
                }
            })?;
            rows.push(crate::sweep::Row {
                picks: combination.picks,
                odds,
            });
        }
        Ok(crate::sweep::Sweep { swept, rows })
    }

    fn odds_of_line(&self, line: &str) -> Result<Odds, CommandError> {
        let command = self
            .parse(line)?
            .ok_or_else(|| CommandError::Option("nothing to resolve".into()))?;
        let system = command.system.map_or(self.rules, |(s, _)| s);
        self.odds(system, &command, line)
    }

    /// `simulate N COMMAND`: N rolls from the session's seed, tallied.
    pub fn simulate(&self, command: &Command, line: &str) -> Result<Simulation, CommandError> {
        let count = command.words.first().and_then(|w| match w.kind {
            WordKind::Number(n) if n.fract() == 0.0 && n >= 1.0 => Some((n as u64, w.span)),
            _ => None,
        });
        let Some((rolls, span)) = count else {
            let span = command.words.first().map_or(Span::at_end(line), |w| w.span);
            return Err(BindError::Missing {
                span,
                what: "`simulate` needs a number of rolls and a command, like `simulate 10000 resilience melee`".into(),
            }
            .into());
        };
        if rolls > MAX_SIMULATE {
            return Err(BindError::BadValue {
                span,
                text: rolls.to_string(),
                expected: format!("at most {MAX_SIMULATE} rolls"),
            }
            .into());
        }
        let inner_line = blank(line, command.verb_span.start, span.end);
        let inner = self.parse(&inner_line)?.ok_or_else(|| BindError::Missing {
            span: Span::at_end(line),
            what: "`simulate N` needs a command to roll".into(),
        })?;
        if let Some(rolled) = inner.rolled_span {
            return Err(BindError::NotHere {
                span: rolled,
                text: "rolled".into(),
                why: "has no meaning with `simulate`, which rolls".into(),
            }
            .into());
        }
        let system = inner.system.map_or(self.rules, |(s, _)| s);
        let odds = self.odds(system, &inner, &inner_line)?;
        let seed = self.next_seed();
        let mut observed: Vec<(String, u64)> =
            odds.outcomes.iter().map(|o| (o.text.clone(), 0)).collect();
        // Bound once; only the outcome of each roll is read.
        let prepared = self
            .catalog
            .prepare(system, &inner, &inner_line, self.units(), false)?;
        let mut progress = Progress::new(self.progress, rolls, "simulate");
        let mut from = 0;
        while from < rolls {
            if interrupted() {
                return Err(stopped(&format!(
                    "simulate had made {from} of {rolls} rolls"
                )));
            }
            progress.at(from);
            let to = from.saturating_add(CHUNK).min(rolls);
            for i in from..to {
                let mut dice = Dice::new(&[], seed.wrapping_add(i));
                let res = prepared.run(&mut dice)?;
                let group = res.odds_group.as_deref().unwrap_or(&res.outcome_text);
                match observed.iter_mut().find(|(t, _)| t == group) {
                    Some((_, c)) => *c += 1,
                    None => observed.push((group.to_string(), 1)),
                }
            }
            from = to;
        }
        Ok(Simulation {
            rolls,
            seed,
            odds,
            observed,
        })
    }
}
