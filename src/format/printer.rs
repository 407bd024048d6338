//! How a front end writes: the format of its output (picked here, the one
//! place that names every format), an optional chart file, and errors as
//! text (on standard error) or as JSON (with the answers). The front ends
//! choose a printer from their options (`cli::printer`, the pocket page).

use std::io::{self, Write};
use std::path::PathBuf;

use crate::answer::{Answer as Output, Kind};
use crate::error::CommandError;
use crate::format::brief::Brief;
use crate::format::delimited::{Delimited, Delimiter};
use crate::format::json::Json;
use crate::format::stream::SweepStream;
#[cfg(feature = "native")]
use crate::format::svg::Svg;
use crate::format::text::Text;
use crate::format::{self as render, Format};

/// How answers are written: the format of standard output (picked here,
/// the one place that knows every format), an optional chart file, and
/// how errors are shown (on standard error, which may be a file when
/// standard output is not, or as JSON on standard output).
#[derive(Debug, Clone)]
pub struct Printer {
    pub json: bool,
    pub style: render::Style,
    pub err_color: bool,
    /// Standard error's own width: it may be a terminal when standard
    /// output is a pipe, and the other way round.
    pub err_width: Option<u16>,
    /// `--format csv|tsv`: odds, comparisons, sweeps and simulations as tables.
    pub delimited: Option<Delimiter>,
    /// `--svg FILE`: the chart of the (one) odds line (drawn by the
    /// native program only).
    #[cfg(feature = "native")]
    pub svg: Option<ChartFile>,
    /// Standard output's rows when it is a terminal: help taller than
    /// that goes through a pager.
    pub rows: Option<u16>,
}

/// Where `--svg` draws its chart.
#[derive(Debug, Clone)]
pub struct ChartFile {
    pub(crate) path: PathBuf,
    /// `--force`: an existing regular file may be replaced.
    pub(crate) force: bool,
}

impl Printer {
    /// The plain printer of a format: text in a style, or JSON.
    pub fn new(json: bool, style: render::Style) -> Printer {
        Printer {
            json,
            style,
            err_color: style.color,
            err_width: style.width,
            delimited: None,
            #[cfg(feature = "native")]
            svg: None,
            rows: None,
        }
    }

    /// Run `write` with the format standard output is written in.
    fn with_format<R>(&self, write: impl FnOnce(&dyn Format) -> R) -> R {
        if let Some(d) = self.delimited {
            write(&Delimited(d))
        } else if self.json {
            write(&Json)
        } else if self.style.brief {
            write(&Brief { style: self.style })
        } else {
            write(&Text { style: self.style })
        }
    }

    /// Whether the answer to a question of `kind` can be written, asked
    /// before the line runs (so a refused line changes no game): by the
    /// format of standard output, and by the chart when `--svg` asks for
    /// one, whose file is looked at too (`draw` looks again before it
    /// writes).
    pub(crate) fn accepts(&self, kind: Kind, line: &str) -> Result<(), CommandError> {
        self.with_format(|f| f.accepts(kind, line))
            .map_err(CommandError::Option)?;
        #[cfg(feature = "native")]
        if let Some(chart) = &self.svg {
            Svg.accepts(kind, line).map_err(CommandError::Option)?;
            if let Err(e) = crate::files::check_output(&chart.path, chart.force) {
                let e = e.with_file_name("odds.svg");
                return Err(CommandError::Option(format!("--svg {e}")));
            }
        }
        Ok(())
    }

    /// Whether the format of standard output writes the answer to a
    /// question of `kind`: a line it does not is a usage error.
    pub(crate) fn writes(&self, kind: Kind, line: &str) -> Result<(), String> {
        self.with_format(|f| f.accepts(kind, line))
    }

    /// No chart is drawn without the native program.
    #[cfg(not(feature = "native"))]
    pub(crate) fn draw(&self, _output: &Output) -> Result<(), CommandError> {
        Ok(())
    }

    /// Draw the chart of an answer when `--svg` asks for one, whole or
    /// not at all, under the rules every output file follows
    /// ([`crate::files::write_whole`]).
    #[cfg(feature = "native")]
    pub(crate) fn draw(&self, output: &Output) -> Result<(), CommandError> {
        let Some(chart) = &self.svg else {
            return Ok(());
        };
        let source = render::Source { line: 0, input: "" };
        let mut drawn = Vec::new();
        Svg.write(output, source, &mut drawn)
            .map_err(|e| CommandError::Option(e.to_string()))?;
        crate::files::write_whole(&chart.path, &drawn, chart.force)
            .map_err(|e| CommandError::Option(format!("--svg {}", e.with_file_name("odds.svg"))))
    }

    /// Where the rows of a sweep go as they are counted, written to `out`
    /// ([`crate::format::stream`]); `None` when the answer is wanted whole:
    /// for its chart (`--svg`), or one line a sweep (`--brief`). The rows
    /// begin with a blank line when `separated`.
    pub(crate) fn sweep_stream<'a>(
        &self,
        source: render::Source<'a>,
        out: &'a mut dyn Write,
        separated: bool,
    ) -> Option<SweepStream<'a>> {
        #[cfg(feature = "native")]
        if self.svg.is_some() {
            return None;
        }
        let format: Box<dyn Format> = if let Some(d) = self.delimited {
            Box::new(Delimited(d))
        } else if self.json {
            Box::new(Json)
        } else if self.style.brief {
            return None;
        } else {
            Box::new(Text { style: self.style })
        };
        Some(SweepStream::new(format, source, out, separated))
    }

    /// Whether answers are told apart by a blank line: text's are, but
    /// not JSON Lines nor the one-line answers of `--brief`.
    pub(crate) fn separated(&self) -> bool {
        !self.json && (self.delimited.is_some() || !self.style.brief)
    }

    /// Write one answer to standard output.
    pub fn result(
        &self,
        out: &mut dyn Write,
        output: &Output,
        source: render::Source,
    ) -> io::Result<()> {
        let text = !self.json && self.delimited.is_none();
        let help = matches!(output, Output::Report(r) if matches!(**r, crate::answer::Report::Help { .. }));
        #[cfg(feature = "native")]
        if let (Some(rows), true) = (self.rows, text && help) {
            let mut written = Vec::new();
            self.with_format(|f| f.write(output, source, &mut written))?;
            if !crate::platform::page(&written, rows) {
                out.write_all(&written)?;
            }
            return Ok(());
        }
        #[cfg(not(feature = "native"))]
        let _ = (text, help);
        self.with_format(|f| f.write(output, source, out))
    }

    /// Errors go to stderr as text, or to stdout as JSON in JSON mode.
    pub(crate) fn error(
        &self,
        out: &mut dyn Write,
        err: &mut dyn Write,
        e: &CommandError,
        line: &str,
        line_no: usize,
        show_line_no: bool,
    ) -> io::Result<()> {
        if self.json {
            let source = render::Source {
                line: line_no,
                input: line,
            };
            let obj =
                crate::format::json::json_error(&e.to_string(), e.kind(), source, e.column(line));
            writeln!(out, "{}", crate::text::json_visible(&obj.to_string()))
        } else {
            let shown = show_line_no.then_some(line_no);
            let rendered = e.render(line, shown);
            let rendered = render::wrap_error(&rendered, self.err_width);
            if self.err_color {
                writeln!(err, "{}", colour_error(&rendered))
            } else {
                writeln!(err, "{rendered}")
            }
        }
    }
}

pub(crate) fn colour_error(text: &str) -> String {
    use owo_colors::OwoColorize;
    match text.split_once('\n') {
        Some((first, rest)) => format!("{}\n{rest}", first.red().bold()),
        None => text.red().bold().to_string(),
    }
}
