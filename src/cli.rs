//! The front ends: one-shot, batch (stdin not a terminal) and the REPL,
//! all over one [`Session`].

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};

use crate::command::System;
use crate::error::CommandError;
use crate::render;
use crate::session::{Output, Session};
use crate::tables::Tables;

#[derive(Debug, Parser)]
#[command(
    name = "drumhead",
    version,
    about = "The umpire's calculator for horse-and-musket wargames",
    long_about = "Type what is happening on the table; drumhead rolls (or takes the dice you rolled), \
applies every modifier the rules name, looks up the table and shows the whole modifier stack.\n\n\
With a COMMAND it resolves that one line. Without one it reads commands from standard input, \
one a line, or opens a REPL when standard input is a terminal.",
    after_help = "Examples:\n  drumhead 'resilience +determined'\n  drumhead --json 'resilience shooting +determined +hit rolled 4 3'\n  drumhead --seed 7 < script.txt"
)]
pub struct Args {
    /// One command to resolve (words may be given as separate arguments).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,

    /// One JSON object per command (JSON Lines).
    #[arg(long)]
    pub json: bool,

    /// Seed for the dice: the same seed gives the same dice on every platform.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Entered dice for the next draws, like `rolled 4 3` (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "FACES")]
    pub dice: Vec<u32>,

    /// The active rule system.
    #[arg(long, value_enum, default_value_t = Rules::Drums)]
    pub rules: Rules,

    /// A directory of house-rule tables that replace the embedded ones file by file.
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,

    /// A combat results table (TOML) for Musket & Saber `attack` and
    /// `bombard`: copy your folio's CRT (see tables/saber-example-crt.toml).
    #[arg(long, value_name = "FILE")]
    pub crt: Option<PathBuf>,

    /// When to colour the output.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Rules {
    Drums,
    Mayhem,
    Saber,
    SaberQuickplay,
}

impl From<Rules> for System {
    fn from(r: Rules) -> System {
        match r {
            Rules::Drums => System::Drums,
            Rules::Mayhem => System::Mayhem,
            Rules::Saber => System::Saber,
            Rules::SaberQuickplay => System::SaberQuickplay,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// How results are written.
pub struct Printer {
    pub json: bool,
    pub color: bool,
}

impl Printer {
    pub fn result(&self, out: &mut dyn Write, output: &Output) -> io::Result<()> {
        match (output, self.json) {
            (Output::Resolution(res), true) => writeln!(out, "{}", render::json(res)),
            (Output::Resolution(res), false) => writeln!(out, "{}", render::text(res, self.color)),
            (Output::Text(text), true) => writeln!(out, "{}", serde_json::json!({ "help": text })),
            (Output::Text(text), false) => writeln!(out, "{text}"),
        }
    }

    /// Errors go to stderr as text, or to stdout as JSON in JSON mode.
    pub fn error(
        &self,
        out: &mut dyn Write,
        err: &mut dyn Write,
        e: &CommandError,
        line: &str,
        line_no: usize,
        show_line_no: bool,
    ) -> io::Result<()> {
        if self.json {
            let obj = render::json_error(&e.to_string(), line_no, e.column(line));
            writeln!(out, "{obj}")
        } else {
            let shown = show_line_no.then_some(line_no);
            let rendered = e.render(line, shown);
            if self.color {
                writeln!(err, "{}", colour_error(&rendered))
            } else {
                writeln!(err, "{rendered}")
            }
        }
    }
}

fn colour_error(text: &str) -> String {
    use owo_colors::OwoColorize;
    match text.split_once('\n') {
        Some((first, rest)) => format!("{}\n{rest}", first.red().bold()),
        None => text.red().bold().to_string(),
    }
}

pub fn main() -> ExitCode {
    let args = Args::parse();
    let tables = match &args.tables {
        Some(dir) => Tables::with_overrides(dir),
        None => Tables::embedded(),
    };
    let tables = match (tables, &args.crt) {
        (Ok(t), Some(crt)) => t.with_crt(crt),
        (other, _) => other,
    };
    let tables = match tables {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = args.seed.unwrap_or_else(entropy_seed);
    let mut session = Session::new(tables, args.rules.into(), seed);
    session.enter_dice(&args.dice);

    let stdin = io::stdin();
    let interactive = args.command.is_empty() && stdin.is_terminal();
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let printer = Printer {
        json: args.json,
        color,
    };

    let rejected = if !args.command.is_empty() {
        let line = args.command.join(" ");
        run_lines(&mut session, &printer, std::iter::once(Ok(line)), false)
    } else if interactive {
        crate::repl::run(&mut session, &printer)
    } else {
        run_lines(&mut session, &printer, stdin.lock().lines(), true)
    };
    let rejected = match rejected {
        Ok(n) => n,
        // A closed pipe (`drumhead < x | head`) is not a failure of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let unused = session.unused_dice();
    if unused > 0 {
        eprintln!("error: {unused} dice given with --dice were never used");
        return ExitCode::from(1);
    }
    if rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Resolve every line; returns how many were rejected.
pub fn run_lines(
    session: &mut Session,
    printer: &Printer,
    lines: impl Iterator<Item = io::Result<String>>,
    batch: bool,
) -> io::Result<usize> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let stderr = io::stderr();
    let mut rejected = 0;
    let mut first = true;
    for (i, line) in lines.enumerate() {
        let line = match line {
            Ok(line) => line,
            // Invalid UTF-8 and the like: report the line and go on.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                rejected += 1;
                out.flush()?;
                writeln!(stderr.lock(), "error: line {}: {e}", i + 1)?;
                continue;
            }
            Err(e) => return Err(e),
        };
        match session.run_line(&line) {
            Ok(None) => {}
            Ok(Some(output)) => {
                if !first && !printer.json {
                    writeln!(out)?;
                }
                first = false;
                printer.result(&mut out, &output)?;
            }
            Err(e) => {
                rejected += 1;
                if !printer.json {
                    out.flush()?;
                }
                printer.error(&mut out, &mut stderr.lock(), &e, &line, i + 1, batch)?;
            }
        }
    }
    out.flush()?;
    Ok(rejected)
}

/// A seed for sessions without `--seed`: different every run, and reported
/// with each roll so any roll can be reproduced.
fn entropy_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let pid = u64::from(std::process::id());
    // SplitMix64 finaliser: spreads the bits so nearby times differ widely.
    let mut z = nanos ^ pid.rotate_left(32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 1_000_000_000
}
