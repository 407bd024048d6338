//! A progress bar on standard error for a long run (`simulate`, `replay`),
//! drawn with indicatif on a terminal: a native front end's.

use std::time::{Duration, Instant};

/// How long a run goes before it is worth a progress bar.
const QUIET_FOR: Duration = Duration::from_millis(300);

/// A progress bar on standard error for a long run: drawn only where the
/// front end says there is a terminal to draw on, and only once the run
/// has taken long enough to be worth one. Cleared when dropped.
pub(crate) struct Progress {
    enabled: bool,
    total: u64,
    what: &'static str,
    started: Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub(crate) fn new(enabled: bool, total: u64, what: &'static str) -> Progress {
        Progress {
            enabled,
            total,
            what,
            started: Instant::now(),
            bar: None,
        }
    }

    /// `done` of the total are done.
    pub(crate) fn at(&mut self, done: u64) {
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
        match crate::platform::stderr_size() {
            Some((columns, rows)) if columns > 0 => (columns, rows.max(1)),
            _ => (80, 24),
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
