//! The front ends: one-shot, batch (stdin not a terminal) and the REPL,
//! all over one [`Session`].

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub(crate) mod batch;
pub(crate) mod complete;
pub(crate) mod interrupt;
pub mod manpage;
pub(crate) mod repl;
pub(crate) mod shell;

use crate::error::TableError;
use crate::game::{ArmySource, Game, GameError};
use crate::session::Recipe;
use crate::session::Session;
use crate::system::{Registry, Tables};
use crate::tables::TableSource;

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
mod campaign;
pub mod config;
mod exit;
mod export;
mod new_army;
mod pocket;
mod print;
mod printer;
mod tasks;

pub(crate) use printer::Printer;
use printer::{colour_error, wants_color};
pub(crate) use tasks::nothing_written;
use tasks::{options_not_for, task_with_tables, task_without_tables};

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
pub(crate) struct Args {
    #[command(subcommand)]
    pub(crate) task: Option<Task>,

    /// One command to resolve (words may be given as separate arguments;
    /// options may come before or after it). `help` lists the verbs.
    #[arg(value_name = "LINE", add = clap_complete::engine::ArgValueCompleter::new(shell::line_words))]
    pub(crate) command: Vec<String>,

    /// One JSON object per command (JSON Lines); the same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,

    /// How answers are written: text, json (JSON Lines), or csv / tsv for
    /// the answers of `odds`, `compare`, sweeps and `simulate` (a table
    /// each, with a header row: see drumhead(1), OUTPUT FORMATS).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub(crate) format: Option<FormatChoice>,

    /// Draw the answer of the one `odds` line given as an SVG chart in FILE
    /// (a distribution, `compare`, or a sweep), besides printing it. FILE
    /// must be new unless --force is given; a game's files, a link, a FIFO,
    /// a device or a directory are never written.
    #[arg(long, value_name = "FILE")]
    pub(crate) svg: Option<PathBuf>,

    /// With --svg: replace FILE if it is an existing regular file.
    #[arg(long, requires = "svg")]
    pub(crate) force: bool,

    /// Seed for the dice: the same seed gives the same dice on every platform.
    #[arg(long)]
    pub(crate) seed: Option<u64>,

    /// Entered dice for the next draws, like `rolled 4 3` (comma separated).
    #[arg(long, value_delimiter = ',', value_name = "FACES")]
    pub(crate) dice: Vec<u32>,

    /// The active rule system [default: the loaded armies', else the
    /// configuration file's `rules`, else drums].
    #[arg(long, value_parser = rules_parser())]
    pub(crate) rules: Option<String>,

    /// A directory of house-rule tables, each merged over the embedded file
    /// of its name (see `drumhead tables export`).
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) tables: Option<PathBuf>,

    /// Load an army list (repeatable): its units can be named in commands.
    #[arg(long, value_name = "FILE")]
    pub(crate) army: Vec<PathBuf>,

    /// Keep a game in FILE (created if missing): unit state, journal beside it.
    #[arg(long, value_name = "FILE")]
    pub(crate) game: Option<PathBuf>,

    /// When another process is writing the game, wait for it instead of
    /// refusing at once.
    #[arg(long, global = true)]
    pub(crate) wait: bool,

    /// Write each result as soon as it is resolved, before reading the next
    /// line (for a co-process reading the answers).
    #[arg(long)]
    pub(crate) line_buffered: bool,

    /// A combat results table (TOML) for Musket & Saber `attack` and
    /// `bombard`: copy your folio's CRT (see tables/saber-example-crt.toml).
    /// It stands for the table file `crt.toml`.
    #[arg(long, value_name = "FILE", global = true)]
    pub(crate) crt: Option<PathBuf>,

    /// When to colour the output (each stream on its own: auto colours a
    /// terminal, unless NO_COLOR is set or TERM is dumb) [default: auto].
    #[arg(long, value_enum, value_name = "WHEN")]
    pub(crate) color: Option<ColorChoice>,

    /// Fit tables and prose into this many columns (a terminal's own width
    /// is used without it; a pipe gets the tables whole).
    #[arg(long, value_name = "COLUMNS", value_parser = clap::value_parser!(u16).range(20..))]
    pub(crate) width: Option<u16>,

    /// Plain ASCII: no box drawing, arrows or accented letters.
    #[arg(long)]
    pub(crate) ascii: bool,

    /// The configuration file's `rules`: the system when neither --rules
    /// nor the armies say.
    #[arg(skip)]
    pub(crate) default_rules: Option<String>,

    /// The ids of the options given on the command line: the
    /// configuration file fills in only the others.
    #[arg(skip)]
    pub(crate) given: Vec<String>,

    /// The command line as given, read again after the configuration
    /// file's options.
    #[arg(skip)]
    pub(crate) argv: Vec<std::ffi::OsString>,

    /// Read this configuration file instead of the usual one
    /// ($XDG_CONFIG_HOME/drumhead/config.toml, else ~/.config/drumhead/config.toml).
    #[arg(long, value_name = "FILE", global = true, conflicts_with = "no_config")]
    pub(crate) config: Option<PathBuf>,

    /// Read no configuration file: only the options given here count.
    #[arg(long, global = true)]
    pub(crate) no_config: bool,

    /// One line an answer, as a dice bot writes it, within the width:
    /// `resilience gren-1: 4+3 +1 -1 = 7 → carry on (seed 43)`; `odds` as
    /// its main outcomes.
    #[arg(long)]
    pub(crate) brief: bool,

    /// --brief, each modifier named by its row:
    /// `resilience gren-1: 4+3 +1 Are classed as Determined … = 7 → carry on`.
    #[arg(long)]
    pub(crate) labels: bool,
}

impl Args {
    /// The options given on the command line that only resolving lines
    /// reads: a task given them would ignore them without a word. They are
    /// clap's own: every option that is not global to the tasks.
    fn for_lines_only(&self) -> Vec<String> {
        use clap::CommandFactory as _;
        Args::command()
            .get_arguments()
            .filter(|arg| !arg.is_global_set() && !arg.is_positional())
            .filter(|arg| self.given.iter().any(|g| g == arg.get_id().as_str()))
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect()
    }
}

/// A task of the program rather than a rules command.
#[derive(Debug, Subcommand)]
pub(crate) enum Task {
    /// Check army lists (and house-rule table files, by their file name)
    /// without resolving anything; ids must be unique across the lists.
    Check {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Rebuild a game from its journal, re-resolving every command with its
    /// recorded seed and dice, and check the state against the game file;
    /// or, given a campaign file (told by its contents), every battle of
    /// the campaign and every close, in order.
    Replay {
        #[arg(value_name = "JOURNAL|CAMPAIGN")]
        journal: PathBuf,
    },
    /// Campaigns: armies carried from battle to battle, every change
    /// traced to the journal entry that made it (see CAMPAIGNS).
    Campaign {
        #[command(subcommand)]
        task: campaign::CampaignTask,
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
    /// any long option (--rules, --army, --width, --brief…).
    Config,
    /// A printable quick-reference sheet of a rule system (drums, mayhem,
    /// saber, quickplay): every table its verbs read, from the tables in
    /// force (--tables, --crt), house-rule values marked; one HTML page.
    Sheet {
        #[arg(value_name = "SYSTEM", add = clap_complete::engine::ArgValueCompleter::new(shell::books))]
        system: String,
        #[command(flatten)]
        print: print::PrintOptions,
    },
    /// A printable roster of armies: a line per unit, figure or leader,
    /// by command, with boxes to pencil in; its state now when a game is
    /// given; one HTML page.
    Roster {
        /// An army list (repeatable).
        #[arg(long = "army", value_name = "FILE")]
        armies: Vec<PathBuf>,
        /// A game file kept with --game: the units as they stand.
        #[arg(long, value_name = "FILE")]
        game: Option<PathBuf>,
        #[command(flatten)]
        print: print::PrintOptions,
    },
    Serve(crate::serve::Options),
    /// The pocket page: one HTML file that resolves lines in a phone's
    /// browser with no server and no network (the resolvers, tables and
    /// shipped army lists inside it); open it from a file, or from
    /// `drumhead serve` at /pocket.
    Pocket {
        #[command(flatten)]
        page: print::PageOptions,
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
            Task::Campaign { .. } => "campaign",
            Task::Repair { .. } => "repair",
            Task::NewArmy { .. } => "new-army",
            Task::Tables { .. } => "tables",
            Task::Man { .. } => "man",
            Task::Config => "config",
            Task::Sheet { .. } => "sheet",
            Task::Roster { .. } => "roster",
            Task::Completions { .. } => "completions",
            Task::Serve(_) => "serve",
            Task::Pocket { .. } => "pocket",
        }
    }
}

/// What `drumhead tables` does.
#[derive(Debug, Subcommand)]
pub(crate) enum TablesTask {
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
pub(crate) fn table_source(
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
pub(crate) enum FormatChoice {
    Text,
    Json,
    Csv,
    Tsv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// The options, or clap's refusal of them on standard error. A value it
/// quotes (`--rules …`, a word it does not know) is shown, never obeyed:
/// clap itself strips escape sequences only from a pipe, and passes C1
/// controls through.
fn parse_args() -> Result<Args, ExitCode> {
    use clap::{CommandFactory, FromArgMatches};
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = Args::command()
        .try_get_matches_from(&argv)
        .and_then(|m| Ok((Args::from_arg_matches(&m)?, m)));
    let e = match parsed {
        Ok((mut args, matches)) => {
            args.given = matches
                .ids()
                .filter(|id| {
                    matches.value_source(id.as_str())
                        == Some(clap::parser::ValueSource::CommandLine)
                })
                .map(|id| id.as_str().to_string())
                .collect();
            args.argv = argv;
            return Ok(args);
        }
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

/// A task's help as `drumhead TASK --help` prints it (`tables export`
/// for a task of a task), for `help TASK`; `None` for a name that is no
/// task.
pub(crate) fn task_help(name: &str) -> Option<String> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let mut command = <Args as clap::CommandFactory>::command();
    let mut task = &command;
    for word in &words {
        task = task.find_subcommand(word)?;
    }
    if words.is_empty() {
        return None;
    }
    // What `--help` prints, as it prints it (long or short).
    let argv = std::iter::once("drumhead")
        .chain(words)
        .chain(std::iter::once("--help"));
    match command.try_get_matches_from_mut(argv) {
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
            Some(e.render().to_string().trim_end().to_string())
        }
        _ => None,
    }
}

pub fn main() -> ExitCode {
    // `COMPLETE=bash drumhead …`: the shell asking for completions.
    clap_complete::CompleteEnv::with_factory(<Args as clap::CommandFactory>::command).complete();
    crate::help::know_tasks(task_help);
    let mut args = match parse_args() {
        Ok(args) => args,
        Err(code) => return code,
    };
    let registry = crate::systems::all();
    if let Some(code) = tasks::carry_into_task(&mut args)
        .or_else(|| options_not_for(&args))
        .or_else(|| task_without_tables(&args, &registry))
    {
        return code;
    }
    let applied = match config::load(&args, &registry) {
        Ok(Some((file, config))) => match config.apply(&file, &mut args) {
            Ok(used) => Some((file, used)),
            Err(e) => {
                warn!("error: {e}");
                return ExitCode::from(2);
            }
        },
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
    if let Some(code) = task_with_tables(&args, &registry, &tables) {
        return code;
    }
    let (mut session, seed) = match open_session(&args, &registry, tables, &applied) {
        Ok(opened) => opened,
        Err(code) => return code,
    };
    let stdout_is_terminal = io::stdout().is_terminal();
    if args.svg.is_some() && args.command.is_empty() {
        warn!(
            "error: --svg draws the answer of the one `odds` line given on the command line, like `drumhead --svg odds.svg odds roll 2d6`"
        );
        return ExitCode::from(2);
    }
    let printer = printer::for_args(&args, stdout_is_terminal);

    // A table, a chart, JSON (each row's effects) and the text's "at
    // least" column read each outcome's measures; one line does not.
    let count_values = !printer.style.brief
        || printer.delimited.is_some()
        || printer.svg.is_some()
        || printer.json;
    session.count_outcome_values(count_values);
    // Lines depend on each other only through a game or `--dice`.
    let parallel = (session.game.is_none() && session.unused_dice() == 0)
        .then(|| table_source(args.tables.as_deref(), args.crt.as_deref()).ok())
        .flatten()
        .map(|source| Recipe {
            registry: registry.clone(),
            source,
            rules: Some(session.rules),
            seed: Some(seed),
            count_values: Some(count_values),
        });
    let ran = match run_lines(&args, &mut session, &printer, parallel) {
        Ok(ran) => ran,
        Err(code) => return code,
    };
    exit::code(&ran, &session)
}

/// The session the lines are resolved in: its rule system, seed and game.
fn open_session(
    args: &Args,
    registry: &Registry,
    tables: Tables,
    applied: &Option<(PathBuf, Vec<String>)>,
) -> Result<(Session, u64), ExitCode> {
    let seed = args.seed.unwrap_or_else(crate::dice::entropy_seed);
    let rules = args.rules.as_deref().and_then(|id| registry.book(id));
    // The configuration file's system is a default: the armies' own
    // system still wins over it, as it does over `drums`.
    let configured = args
        .default_rules
        .as_deref()
        .and_then(|id| registry.book(id));
    let Some(default) = rules.or(configured).or_else(|| registry.default_book()) else {
        warn!("error: no rule system is registered");
        return Err(ExitCode::from(2));
    };
    let game = open_game(args, &tables);
    let mut session = Session::new(tables, default, seed);
    match game {
        Ok(Some(mut game)) => {
            for note in game.notes.drain(..) {
                warn!(
                    "{}",
                    crate::format::wrap_error(
                        &format!("note: {note}"),
                        printer::err_width(args.width)
                    )
                );
            }
            // Armies of different rule systems can share a game, but a
            // line resolves under one system: say which, not silently.
            if let Some(note) = game.systems_note(default).filter(|_| rules.is_none()) {
                warn!("{note}");
            }
            session = session.with_game(game);
            if let Some(rules) = rules {
                session.rules = rules;
            }
        }
        Ok(None) => {}
        Err(e) => {
            warn!("error: {e}");
            if let Some(note) = config::origin(applied, &["armies"]) {
                warn!("{note}");
            }
            return Err(ExitCode::from(2));
        }
    }
    session.enter_dice(&args.dice);
    session.seed_was_chosen(args.seed.is_some());
    // A progress bar only for a person at a terminal, never into a pipe.
    session.show_progress(
        io::stdout().is_terminal()
            && io::stderr().is_terminal()
            && (!args.command.is_empty() || io::stdin().is_terminal()),
    );

    Ok((session, seed))
}

/// Resolve the lines: the one on the command line, the REPL's, or a batch.
fn run_lines(
    args: &Args,
    session: &mut Session,
    printer: &Printer,
    parallel: Option<Recipe>,
) -> Result<batch::Ran, ExitCode> {
    let stdin = io::stdin();
    let interactive = args.command.is_empty() && stdin.is_terminal();
    Ok(if !args.command.is_empty() {
        let line = args.command.join(" ");
        session.catalog.tasks = tasks::names();
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            warn!(
                "error: nothing to resolve: give a command such as 'resilience +determined' (try 'help')"
            );
            return Err(ExitCode::from(1));
        }
        let mode = batch::Mode {
            batch: false,
            line_buffered: true,
            spec: None,
        };
        batch::run(session, printer, io::Cursor::new(line), mode)
    } else if interactive {
        match repl::run(session, printer) {
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
        batch::run(session, printer, stdin.lock(), mode)
    })
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
        .map(|g| Some(g.say_reopened(args.command.is_empty() || !args.army.is_empty()))),
        None if sources.is_empty() => Ok(None),
        None => Game::new(sources, tables).map(|g| Some(g.one_line(!args.command.is_empty()))),
    }
}
