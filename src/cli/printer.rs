//! The printer a command line's options ask for: its format, and the
//! colours and widths of the terminals its output and errors go to.

use std::io::{self, IsTerminal};

use super::{Args, ColorChoice, FormatChoice};
use crate::format::delimited::Delimiter;
pub(crate) use crate::format::printer::ChartFile;
pub(crate) use crate::format::printer::Printer;
pub(crate) use crate::format::printer::colour_error;
use crate::format::{self as render};

/// Standard output's rows, when it is a terminal.
pub(crate) fn rows(stdout_is_terminal: bool) -> Option<u16> {
    stdout_is_terminal
        .then(|| terminal_size::terminal_size().map(|(_, h)| h.0))
        .flatten()
}

/// Standard error's width: `--width`, or its terminal's.
pub(crate) fn err_width(width: Option<u16>) -> Option<u16> {
    use std::io::IsTerminal as _;
    width.or_else(|| {
        io::stderr()
            .is_terminal()
            .then(|| terminal_size::terminal_size_of(io::stderr()).map(|(w, _)| w.0))
            .flatten()
    })
}

/// Colour for one stream: asked for, or a terminal that is not `dumb`
/// with `NO_COLOR` unset (<https://no-color.org>).
pub(crate) fn wants_color(choice: ColorChoice, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            is_terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

/// The printer the options ask for.
pub(super) fn for_args(args: &Args, stdout_is_terminal: bool) -> Printer {
    let format = match (args.json, args.format) {
        (true, _) => FormatChoice::Json,
        (false, f) => f.unwrap_or(FormatChoice::Text),
    };
    Printer {
        json: format == FormatChoice::Json,
        delimited: match format {
            FormatChoice::Csv => Some(Delimiter::Comma),
            FormatChoice::Tsv => Some(Delimiter::Tab),
            FormatChoice::Text | FormatChoice::Json => None,
        },
        svg: args.svg.clone().map(|path| ChartFile {
            path,
            force: args.force,
        }),
        style: render::Style {
            color: wants_color(args.color.unwrap_or(ColorChoice::Auto), stdout_is_terminal),
            width: args.width.or_else(|| {
                stdout_is_terminal
                    .then(|| terminal_size::terminal_size().map(|(w, _)| w.0))
                    .flatten()
            }),
            ascii: args.ascii,
            brief: args.brief || args.labels,
            labels: args.labels,
        },
        err_color: wants_color(
            args.color.unwrap_or(ColorChoice::Auto),
            io::stderr().is_terminal(),
        ),
        err_width: err_width(args.width),
        rows: rows(stdout_is_terminal),
    }
}
