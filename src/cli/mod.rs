//! The front ends: one-shot, batch (stdin not a terminal) and the REPL,
//! all over one [`Session`].

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub mod batch;
pub mod complete;
pub mod interrupt;
pub mod manpage;
pub mod repl;
pub mod shell;

use crate::answer::{Answer as Output, Kind};
use crate::error::{CommandError, TableError};
use crate::format::brief::Brief;
use crate::format::delimited::{Delimited, Delimiter};
use crate::format::json::Json;
use crate::format::svg::Svg;
use crate::format::text::Text;
use crate::format::{self as render, Format};
use crate::game::{ArmySource, Game, GameError};
use crate::session::Session;
use crate::system::{Registry, Tables};
use crate::tables::TableSource;
use batch::SessionSpec;

/// A line on standard error. A full or closed standard error is no reason
/// to panic: the message is lost, the exit status still says it. What it
/// quotes (a path, a value of a file) is shown, never obeyed: see
/// [`crate::text::visible_lines`].
macro_rules! warn {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stderr(), "{}", $crate::text::visible_lines(&text));
    }};
}

/// A line on standard output, for the subcommands that print a report;
/// made visible as [`warn!`]'s are.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($arg)*);
        let _ = writeln!(std::io::stdout(), "{}", $crate::text::visible_lines(&text));
    }};
}

// After the macros, which they use.
pub mod config;
mod export;
mod new_army;
mod print;

#[derive(Debug, Parser)]
#[command(
    name = "drumhead",
    version,
    about = "The umpire's calculator for horse-and-musket wargames",
    long_about = "Type what is happening on the table; drumhead rolls (or takes the dice you rolled), \
applies every modifier the rules name, looks up the table and shows the whole modifier stack.\n\n\
With a COMMAND it resolves that one line. Without one it reads commands from standard input, \
one a line, or opens a REPL when standard input is a terminal.",
    after_help = "Examples:\n  drumhead 'resilience +determined'\n  drumhead --json 'resilience shooting +determined +hit rolled 4 3'\n  drumhead --seed 7 < script.txt\n  drumhead check armies/*.toml",
    args_conflicts_with_subcommands = false,
    disable_help_subcommand = true
)]
pub struct Args {
    #[command(subcommand)]
    pub task: Option<Task>,

    /// One command to resolve (words may be given as separate arguments;
    /// options may come before or after it). `help` lists the verbs.
    #[arg(value_name = "LINE", add = clap_complete::engine::ArgValueCompleter::new(shell::line_words))]
    pub command: Vec<String>,

    /// One JSON object per command (JSON Lines); the same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// How answers are written: text, json (JSON Lines), or csv / tsv for
    /// the answers of `odds`, `compare`, sweeps and `simulate` (a table
    /// each, with a header row: see drumhead(1), OUTPUT FORMATS).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<FormatChoice>,

    /// Draw the answer of the one `odds` line given as an SVG chart in FILE
    /// (a distribution, `compare`, or a sweep), besides printing it. FILE
    /// must be new unless --force is given; a game's files, a link, a FIFO,
    /// a device or a directory are never written.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,

    /// With --svg: replace FILE if it is an existing regular file.
    #[arg(long, requires = "svg")]
    pub force: bool,

    /// Seed for the dice: the same seed gives the same dice on every platform.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Entered dice for the next draws, like `rolled 4 3` (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "FACES")]
    pub dice: Vec<u32>,

    /// The active rule system [default: the loaded armies', else the
    /// configuration file's `rules`, else drums].
    #[arg(long, value_parser = rules_parser())]
    pub rules: Option<String>,

    /// A directory of house-rule tables, each merged over the embedded file
    /// of its name (see `drumhead tables export`).
    #[arg(long, value_name = "DIR", global = true)]
    pub tables: Option<PathBuf>,

    /// Load an army list (repeatable): its units can be named in commands.
    #[arg(long, value_name = "FILE")]
    pub army: Vec<PathBuf>,

    /// Keep a game in FILE (created if missing): unit state, journal beside it.
    #[arg(long, value_name = "FILE")]
    pub game: Option<PathBuf>,

    /// When another process is writing the game, wait for it instead of
    /// refusing at once.
    #[arg(long, global = true)]
    pub wait: bool,

    /// Write each result as soon as it is resolved, before reading the next
    /// line (for a co-process reading the answers).
    #[arg(long)]
    pub line_buffered: bool,

    /// A combat results table (TOML) for Musket & Saber `attack` and
    /// `bombard`: copy your folio's CRT (see tables/saber-example-crt.toml).
    /// It stands for the table file `crt.toml`.
    #[arg(long, value_name = "FILE", global = true)]
    pub crt: Option<PathBuf>,

    /// When to colour the output (each stream on its own: auto colours a
    /// terminal, unless NO_COLOR is set or TERM is dumb) [default: auto].
    #[arg(long, value_enum, value_name = "WHEN")]
    pub color: Option<ColorChoice>,

    /// Fit tables and prose into this many columns (a terminal's own width
    /// is used without it; a pipe gets the tables whole).
    #[arg(long, value_name = "COLUMNS", value_parser = clap::value_parser!(u16).range(20..))]
    pub width: Option<u16>,

    /// Plain ASCII: no box drawing, arrows or accented letters.
    #[arg(long)]
    pub ascii: bool,

    /// The configuration file's `rules`: the system when neither --rules
    /// nor the armies say.
    #[arg(skip)]
    pub default_rules: Option<String>,

    /// Read this configuration file instead of the usual one
    /// ($XDG_CONFIG_HOME/drumhead/config.toml, else ~/.config/drumhead/config.toml).
    #[arg(long, value_name = "FILE", global = true, conflicts_with = "no_config")]
    pub config: Option<PathBuf>,

    /// Read no configuration file: only the options given here count.
    #[arg(long, global = true)]
    pub no_config: bool,

    /// One line a resolution, as a dice bot writes it:
    /// `resilience gren-1: 4+3 +1 … = 9 → carry on`.
    #[arg(long)]
    pub brief: bool,
}

impl Args {
    /// The options given that only resolving lines reads: a task given
    /// them would ignore them without a word.
    fn for_lines_only(&self) -> Vec<&'static str> {
        let given = [
            ("--json", self.json),
            ("--format", self.format.is_some()),
            ("--svg", self.svg.is_some()),
            ("--force", self.force),
            ("--seed", self.seed.is_some()),
            ("--dice", !self.dice.is_empty()),
            ("--rules", self.rules.is_some()),
            ("--army", !self.army.is_empty()),
            ("--game", self.game.is_some()),
            ("--line-buffered", self.line_buffered),
            ("--width", self.width.is_some()),
            ("--ascii", self.ascii),
            ("--brief", self.brief),
        ];
        given
            .into_iter()
            .filter(|(_, given)| *given)
            .map(|(flag, _)| flag)
            .collect()
    }
}

/// A task of the program rather than a rules command.
#[derive(Debug, Subcommand)]
pub enum Task {
    /// Check army lists (and house-rule table files, by their file name)
    /// without resolving anything; ids must be unique across the lists.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Rebuild a game from its journal, re-resolving every command with its
    /// recorded seed and dice, and check the state against the game file.
    Replay {
        #[arg(value_name = "JOURNAL")]
        journal: PathBuf,
    },
    /// Say what can be done about a game whose file and journal disagree;
    /// do it with --apply.
    Repair {
        #[arg(value_name = "GAME")]
        game: PathBuf,
        /// Do what repair says, instead of only saying it.
        #[arg(long)]
        apply: bool,
    },
    /// Write an army list to start from for a rule book: every section and
    /// key, explained in comments (see drumhead-armies(5)).
    NewArmy {
        /// The rule book the list is for.
        #[arg(value_name = "BOOK", value_parser = rules_parser())]
        book: String,
        /// Write the list into FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Overwrite FILE if it exists.
        #[arg(long, requires = "output")]
        force: bool,
    },
    /// The embedded rule tables, to start house rules from.
    Tables {
        #[command(subcommand)]
        task: TablesTask,
    },
    /// Write the manual pages into DIR, generated from the program, its
    /// tables and its army-list readers.
    Man {
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Overwrite pages that already exist in DIR.
        #[arg(long)]
        force: bool,
    },
    /// Say which configuration file is read and what it sets: defaults for
    /// --rules, --army, --tables, --crt and --color.
    Config,
    /// A printable quick-reference sheet of a rule system (drums, mayhem,
    /// saber, quickplay): every table its verbs read, from the tables in
    /// force (--tables, --crt), house-rule values marked; one HTML page.
    Sheet {
        #[arg(value_name = "SYSTEM")]
        system: String,
        /// Write the page into FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace FILE if it is an existing regular file.
        #[arg(long, requires = "output")]
        force: bool,
        /// The paper to print on.
        #[arg(long, value_enum, default_value_t)]
        paper: crate::format::html::Paper,
    },
    /// A printable roster of armies: a card per unit, figure or leader,
    /// with its state now when a game is given; one HTML page.
    Roster {
        /// An army list (repeatable).
        #[arg(long = "army", value_name = "FILE")]
        armies: Vec<PathBuf>,
        /// A game file kept with --game: the units as they stand.
        #[arg(long, value_name = "FILE")]
        game: Option<PathBuf>,
        /// Write the page into FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace FILE if it is an existing regular file.
        #[arg(long, requires = "output")]
        force: bool,
        /// The paper to print on.
        #[arg(long, value_enum, default_value_t)]
        paper: crate::format::html::Paper,
    },
    /// Print a shell completion script (options and tasks). For the words
    /// of commands too, as you type: `source <(COMPLETE=bash drumhead)`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

impl Task {
    /// The task's name as typed.
    fn name(&self) -> &'static str {
        match self {
            Task::Check { .. } => "check",
            Task::Replay { .. } => "replay",
            Task::Repair { .. } => "repair",
            Task::NewArmy { .. } => "new-army",
            Task::Tables { .. } => "tables",
            Task::Man { .. } => "man",
            Task::Config => "config",
            Task::Sheet { .. } => "sheet",
            Task::Roster { .. } => "roster",
            Task::Completions { .. } => "completions",
        }
    }
}

/// What `drumhead tables` does.
#[derive(Debug, Subcommand)]
pub enum TablesTask {
    /// Write every embedded table file into DIR (created if missing), under
    /// the names `--tables DIR` reads them by.
    Export {
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        /// Overwrite table files that already exist in DIR.
        #[arg(long)]
        force: bool,
    },
}

/// The table file `--crt FILE` replaces.
const CRT_FILE: &str = "crt.toml";

/// `--rules` takes the id of any rule book drumhead knows.
fn rules_parser() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        crate::systems::all().books().into_iter().map(|b| b.id()),
    )
}

/// Where the tables come from: `--tables DIR` and `--crt FILE`.
pub fn table_source(
    dir: Option<&std::path::Path>,
    crt: Option<&std::path::Path>,
) -> Result<TableSource, TableError> {
    let source = match dir {
        Some(dir) => TableSource::dir(dir)?,
        None => TableSource::embedded(),
    };
    Ok(match crt {
        Some(crt) => source.with_file(CRT_FILE, crt),
        None => source,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatChoice {
    Text,
    Json,
    Csv,
    Tsv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

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
    /// `--svg FILE`: the chart of the (one) odds line.
    pub svg: Option<ChartFile>,
}

/// Where `--svg` draws its chart.
#[derive(Debug, Clone)]
pub struct ChartFile {
    pub path: PathBuf,
    /// `--force`: an existing regular file may be replaced.
    pub force: bool,
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
            svg: None,
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
    pub fn accepts(&self, kind: Kind, line: &str) -> Result<(), CommandError> {
        self.with_format(|f| f.accepts(kind, line))
            .map_err(CommandError::Option)?;
        if let Some(chart) = &self.svg {
            Svg.accepts(kind, line).map_err(CommandError::Option)?;
            if let Err(e) = crate::files::check_output(&chart.path, chart.force) {
                let e = e.with_file_name("odds.svg");
                return Err(CommandError::Option(format!("--svg {e}")));
            }
        }
        Ok(())
    }

    /// A line this printer cannot write the answer of, refused before it
    /// runs: see [`Printer::accepts`].
    pub fn refuses(&self, session: &Session, line: &str) -> Option<CommandError> {
        if self.delimited.is_none() && self.svg.is_none() {
            return None;
        }
        // A line that does not parse is refused by running it, with its caret.
        let command = session.parse(line).ok().flatten()?;
        self.accepts(Session::kind_of(&command), line).err()
    }

    /// Draw the chart of an answer when `--svg` asks for one, whole or
    /// not at all, under the rules every output file follows
    /// ([`crate::files::write_whole`]).
    pub fn draw(&self, output: &Output) -> Result<(), CommandError> {
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

    /// Write one answer to standard output.
    pub fn result(
        &self,
        out: &mut dyn Write,
        output: &Output,
        source: render::Source,
    ) -> io::Result<()> {
        self.with_format(|f| f.write(output, source, out))
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
            let source = render::Source {
                line: line_no,
                input: line,
            };
            let obj = crate::format::json::json_error(&e.to_string(), source, e.column(line));
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

/// Colour for one stream: asked for, or a terminal that is not `dumb`
/// with `NO_COLOR` unset (<https://no-color.org>).
fn wants_color(choice: ColorChoice, is_terminal: bool) -> bool {
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

fn colour_error(text: &str) -> String {
    use owo_colors::OwoColorize;
    match text.split_once('\n') {
        Some((first, rest)) => format!("{}\n{rest}", first.red().bold()),
        None => text.red().bold().to_string(),
    }
}

/// The options, or clap's refusal of them on standard error. A value it
/// quotes (`--rules …`, a word it does not know) is shown, never obeyed:
/// clap itself strips escape sequences only from a pipe, and passes C1
/// controls through.
fn parse_args() -> Result<Args, ExitCode> {
    let e = match Args::try_parse() {
        Ok(args) => return Ok(args),
        Err(e) => e,
    };
    if !e.use_stderr() {
        // `--help` and `--version`, on standard output as clap writes them.
        e.exit();
    }
    let text = e.render().to_string();
    let shown = crate::text::visible_lines(text.trim_end());
    let shown = if wants_color(ColorChoice::Auto, io::stderr().is_terminal()) {
        colour_error(&shown)
    } else {
        shown.into_owned()
    };
    let _ = writeln!(io::stderr(), "{shown}");
    Err(ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)))
}

pub fn main() -> ExitCode {
    // `COMPLETE=bash drumhead …`: the shell asking for completions.
    clap_complete::CompleteEnv::with_factory(<Args as clap::CommandFactory>::command).complete();
    let mut args = match parse_args() {
        Ok(args) => args,
        Err(code) => return code,
    };
    let registry = crate::systems::all();
    if let Some(task) = &args.task {
        let ignored = args.for_lines_only();
        if !ignored.is_empty() {
            warn!(
                "error: {} {} to resolving lines, not to `drumhead {}`: leave {} out",
                ignored.join(", "),
                if ignored.len() == 1 {
                    "applies"
                } else {
                    "apply"
                },
                task.name(),
                if ignored.len() == 1 { "it" } else { "them" },
            );
            return ExitCode::from(2);
        }
    }
    // Needs no tables: a broken --tables must not keep a user from a template.
    if let Some(Task::NewArmy {
        book,
        output,
        force,
    }) = &args.task
    {
        return new_army::run(&registry, book, output.as_deref(), *force);
    }
    // Nor to get the embedded tables back.
    if let Some(Task::Tables {
        task: TablesTask::Export { dir, force },
    }) = &args.task
    {
        return export::run(&registry, dir, *force);
    }
    if let Some(Task::Config) = &args.task {
        return config::show(&args, &registry);
    }
    let applied = match config::load(&args, &registry) {
        Ok(Some((file, config))) => {
            let used = config.apply(&file, &mut args);
            Some((file, used))
        }
        Ok(None) => None,
        Err(e) => {
            warn!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let tables = table_source(args.tables.as_deref(), args.crt.as_deref())
        .and_then(|source| registry.load(&source));
    let tables = match tables {
        Ok(t) => t,
        Err(e) => {
            warn!("error: {e}");
            if let Some(note) = config::origin(&applied, &["tables", "crt"]) {
                warn!("{note}");
            }
            return ExitCode::from(2);
        }
    };
    match &args.task {
        Some(Task::Check { files }) => return check(files, &registry),
        Some(Task::Replay { journal }) => return replay(journal, tables),
        Some(Task::Repair { game, apply }) => return repair(game, *apply, &tables, args.wait),
        Some(Task::Man { dir, force }) => return man(dir, *force, &tables),
        Some(Task::Completions { shell }) => return completions(*shell),
        Some(Task::Sheet {
            system,
            output,
            force,
            paper,
        }) => {
            let source = table_source(args.tables.as_deref(), args.crt.as_deref());
            let to = print::To {
                output: output.as_deref(),
                force: *force,
            };
            return match source {
                Ok(source) => print::sheet(&registry, &source, system, to, *paper),
                Err(e) => {
                    warn!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Some(Task::Roster {
            armies,
            game,
            output,
            force,
            paper,
        }) => {
            // The configuration file's armies, when the line names none.
            let armies = if armies.is_empty() && game.is_none() {
                &args.army
            } else {
                armies
            };
            return print::roster(
                &tables,
                armies,
                game.as_deref(),
                args.wait,
                print::To {
                    output: output.as_deref(),
                    force: *force,
                },
                *paper,
            );
        }
        Some(Task::NewArmy { .. } | Task::Tables { .. } | Task::Config) | None => {}
    }
    let seed = args.seed.unwrap_or_else(entropy_seed);
    let rules = args.rules.as_deref().and_then(|id| registry.book(id));
    // The configuration file's system is a default: the armies' own
    // system still wins over it, as it does over `drums`.
    let configured = args
        .default_rules
        .as_deref()
        .and_then(|id| registry.book(id));
    let Some(default) = rules.or(configured).or_else(|| registry.default_book()) else {
        warn!("error: no rule system is registered");
        return ExitCode::from(2);
    };
    let game = open_game(&args, &tables);
    let mut session = Session::new(tables, default, seed);
    match game {
        Ok(Some(mut game)) => {
            for note in game.notes.drain(..) {
                warn!("note: {note}");
            }
            // Armies of different rule systems can share a game, but a
            // line resolves under one system: say which, not silently.
            let mut books: Vec<&str> = Vec::new();
            for army in &game.armies {
                if !books.contains(&army.rules.title()) {
                    books.push(army.rules.title());
                }
            }
            if books.len() > 1 && rules.is_none() {
                warn!(
                    "note: the armies are of different rule systems ({}): each line resolves under {} unless it starts with another system's word (`mayhem fire …`) or --rules says otherwise",
                    books.join(", "),
                    default.title()
                );
            }
            session = session.with_game(game);
            if let Some(rules) = rules {
                session.rules = rules;
            }
        }
        Ok(None) => {}
        Err(e) => {
            warn!("error: {e}");
            if let Some(note) = config::origin(&applied, &["armies"]) {
                warn!("{note}");
            }
            return ExitCode::from(2);
        }
    }
    session.enter_dice(&args.dice);
    // A progress bar only for a person at a terminal, never into a pipe.
    session.show_progress(
        io::stdout().is_terminal()
            && io::stderr().is_terminal()
            && (!args.command.is_empty() || io::stdin().is_terminal()),
    );

    let stdin = io::stdin();
    let interactive = args.command.is_empty() && stdin.is_terminal();
    let stdout_is_terminal = io::stdout().is_terminal();
    if args.svg.is_some() && args.command.is_empty() {
        warn!(
            "error: --svg draws the answer of the one `odds` line given on the command line, like `drumhead --svg odds.svg odds roll 2d6`"
        );
        return ExitCode::from(2);
    }
    let format = match (args.json, args.format) {
        (true, _) => FormatChoice::Json,
        (false, f) => f.unwrap_or(FormatChoice::Text),
    };
    let printer = Printer {
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
            brief: args.brief,
        },
        err_color: wants_color(
            args.color.unwrap_or(ColorChoice::Auto),
            io::stderr().is_terminal(),
        ),
        err_width: args.width.or_else(|| {
            io::stderr()
                .is_terminal()
                .then(|| terminal_size::terminal_size_of(io::stderr()).map(|(w, _)| w.0))
                .flatten()
        }),
    };

    // A table, a chart and JSON (each row's effects) read each outcome's
    // measures.
    let count_values = printer.delimited.is_some() || printer.svg.is_some() || printer.json;
    session.count_outcome_values(count_values);
    // Lines depend on each other only through a game or `--dice`.
    let parallel = (session.game.is_none() && session.unused_dice() == 0).then(|| SessionSpec {
        registry: registry.clone(),
        tables_dir: args.tables.clone(),
        crt: args.crt.clone(),
        rules: session.rules,
        seed,
        count_values,
    });
    let ran = if !args.command.is_empty() {
        let line = args.command.join(" ");
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            warn!(
                "error: nothing to resolve: give a command such as 'resilience +determined' (try 'help')"
            );
            return ExitCode::from(1);
        }
        let mode = batch::Mode {
            batch: false,
            line_buffered: true,
            spec: None,
        };
        batch::run(&mut session, &printer, io::Cursor::new(line), mode)
    } else if interactive {
        match repl::run(&mut session, &printer) {
            Ok(rejected) => batch::Ran {
                rejected,
                ..batch::Ran::default()
            },
            Err(e) => batch::Ran {
                stopped: Some(e),
                ..batch::Ran::default()
            },
        }
    } else {
        // A game records every line as it goes: its answers go out as
        // they come too, so a closed output stops it at once.
        let mode = batch::Mode {
            batch: true,
            line_buffered: args.line_buffered || session.game.is_some(),
            spec: parallel,
        };
        batch::run(&mut session, &printer, stdin.lock(), mode)
    };
    if let Some(e) = &ran.stopped {
        let applied = if session.game.is_some() {
            " (each applied to the game)"
        } else {
            ""
        };
        let why = if e.kind() == io::ErrorKind::BrokenPipe {
            "standard output was closed".to_string()
        } else {
            e.to_string()
        };
        warn!(
            "error: {why}: stopped after {} line{} read and resolved{applied}; the rest were not read",
            ran.lines,
            if ran.lines == 1 { "" } else { "s" }
        );
        return ExitCode::from(1);
    }
    let rejected = ran.rejected;
    let unused = session.unused_dice();
    if unused > 0 {
        let dice = if unused == 1 { "die" } else { "dice" };
        warn!("error: {unused} {dice} given with --dice never used");
        return ExitCode::from(1);
    }
    if rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `drumhead check FILE…`: army lists (and house-rule tables by their
/// file name) checked without resolving anything.
fn check(files: &[PathBuf], registry: &Registry) -> ExitCode {
    let mut bad = 0;
    let is_table = |file: &PathBuf| {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        registry
            .table_files()
            .iter()
            .any(|f| f.name == name || f.embedded_name == name)
    };
    for file in files.iter().filter(|f| is_table(f)) {
        // The file alone, merged over the embedded tables: whatever else
        // lies in its directory (army lists) is not checked as a table.
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let name = registry
            .table_files()
            .iter()
            .find(|f| f.name == name || f.embedded_name == name)
            .map_or(name, |f| f.name);
        let source = TableSource::embedded().with_file(name, file);
        match registry.load(&source) {
            Ok(_) => say!("{}: tables ok", file.display()),
            Err(e) => {
                bad += 1;
                warn!("error: {e}");
            }
        }
    }
    let armies: Vec<&std::path::Path> = files
        .iter()
        .filter(|f| !is_table(f))
        .map(PathBuf::as_path)
        .collect();
    let schemas = crate::game::schemas_of(registry);
    let tables = registry.load(&TableSource::embedded()).ok();
    for result in crate::army::check_files(&armies, &schemas) {
        let words = match (&result, &tables) {
            (Ok(army), Some(tables)) => {
                crate::game::check_ids_are_not_words(std::slice::from_ref(army), tables)
            }
            _ => Ok(()),
        };
        match (result, words) {
            (Ok(_), Err(e)) => {
                bad += 1;
                warn!("error: {e}");
            }
            (Ok(army), Ok(())) => say!("{}", crate::army::summary(&army)),
            (Err(e), _) => {
                bad += 1;
                warn!("error: {e}");
            }
        }
    }
    if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `drumhead replay JOURNAL`.
fn replay(journal: &std::path::Path, tables: Tables) -> ExitCode {
    let watched = io::stdout().is_terminal() && io::stderr().is_terminal();
    let mut bar: Option<crate::session::explore::Progress> = None;
    let done = crate::replay::replay_with(journal, tables, &mut |done, all| {
        bar.get_or_insert_with(|| {
            crate::session::explore::Progress::new(watched, all as u64, "replay")
        })
        .at(done as u64);
    });
    drop(bar);
    match done {
        Ok(text) => {
            say!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `drumhead repair GAME [--apply]`: what can be done about a game whose
/// file and journal disagree; done only with `--apply`.
fn repair(path: &std::path::Path, apply: bool, tables: &Tables, wait: bool) -> ExitCode {
    let plan = match crate::repair::plan(path, tables) {
        Ok(plan) => plan,
        Err(e) => {
            warn!("error: {e}");
            return ExitCode::from(1);
        }
    };
    say!("{}", plan.describe());
    if plan.steps.is_empty() {
        return ExitCode::SUCCESS;
    }
    if !apply {
        say!(
            "nothing was changed: run `drumhead repair {} --apply` to do this",
            path.display()
        );
        return ExitCode::SUCCESS;
    }
    match crate::repair::apply(&plan, tables, crate::game::Options { wait }) {
        Ok(()) => {
            say!("done");
            ExitCode::SUCCESS
        }
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// `drumhead man DIR [--force]`: the manual pages, generated from the
/// program and the loaded tables, all written or none.
fn man(dir: &std::path::Path, force: bool, tables: &Tables) -> ExitCode {
    let catalog = crate::session::catalog(tables);
    match manpage::write_pages(dir, &catalog, force) {
        Ok(paths) => {
            for path in paths {
                say!(
                    "wrote {}",
                    crate::text::visible(&path.display().to_string())
                );
            }
            ExitCode::SUCCESS
        }
        Err(errors) => nothing_written(&errors),
    }
}

/// A folder of files that was not written: each reason, and the exit code
/// (2 when a path was refused, 1 when a write failed).
pub(crate) fn nothing_written(errors: &[crate::files::OutputError]) -> ExitCode {
    for e in errors {
        warn!("error: {e}");
    }
    warn!("nothing was written");
    let refused = errors.iter().any(crate::files::OutputError::is_refusal);
    ExitCode::from(if refused { 2 } else { 1 })
}

/// `drumhead completions SHELL`: a completion script on stdout.
fn completions(shell: clap_complete::Shell) -> ExitCode {
    use clap::CommandFactory;
    let mut cmd = Args::command();
    // Into a buffer first: the generator panics on a failed write, and a
    // closed pipe (`drumhead completions bash | head`) is not a failure.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "drumhead", &mut script);
    match io::stdout().lock().write_all(&script) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            warn!("error: {e}");
            ExitCode::from(1)
        }
    }
}

/// The game of `--game` and `--army`, if either is given.
fn open_game(args: &Args, tables: &Tables) -> Result<Option<Game>, GameError> {
    let mut sources = Vec::new();
    for path in &args.army {
        let text = crate::files::read_text(path, crate::limits::MAX_LIST_BYTES, "army list")
            .map_err(|e| GameError::Io(e.to_string()))?;
        sources.push(ArmySource {
            file: path.display().to_string(),
            text,
        });
    }
    match &args.game {
        Some(path) => Game::open(
            path,
            sources,
            tables,
            crate::game::Options { wait: args.wait },
        )
        .map(Some),
        None if sources.is_empty() => Ok(None),
        None => Game::new(sources, tables).map(Some),
    }
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
