//! The manual pages: `drumhead.1` from the clap definition,
//! `drumhead-commands.7`, the command language, from the catalog (which is
//! built from the tables), and `drumhead-armies.5`, the army-list format,
//! from each rule system's schema and its doc, so none can drift from the
//! program. `drumhead man DIR` writes them; tests/man_pages.rs checks the
//! committed ones in `man/` are what the program generates.

use std::path::{Path, PathBuf};

use clap::CommandFactory;
use roff::{Roff, bold, italic, roman};

use super::Args;
use crate::army::doc::{self, KeyDoc, Need};
use crate::bind::Vocab;
use crate::catalog::{Catalog, VerbDoc};
use crate::command::Unit;
use crate::system::Registry;

/// The pages, by file name.
pub fn pages(catalog: &Catalog) -> Vec<(&'static str, String)> {
    vec![
        ("drumhead.1", drumhead_1()),
        ("drumhead-commands.7", commands_7(catalog)),
        ("drumhead-armies.5", armies_5(&crate::systems::all())),
    ]
}

/// Write every page into `dir` (created if missing), all or none, under
/// the rules of every output file ([`crate::files::write_folder`]: an
/// existing page is replaced only with `force`); returns the paths.
pub fn write_pages(
    dir: &Path,
    catalog: &Catalog,
    force: bool,
) -> Result<Vec<PathBuf>, Vec<crate::files::OutputError>> {
    let pages = pages(catalog);
    let files: Vec<(&str, &[u8])> = pages
        .iter()
        .map(|(name, text)| (*name, text.as_bytes()))
        .collect();
    crate::files::write_folder(dir, &files, force)
}

fn source() -> String {
    format!("drumhead {}", env!("CARGO_PKG_VERSION"))
}

fn render(roff: &Roff) -> String {
    roff.render()
}

fn para(roff: &mut Roff, text: &str) {
    roff.control("PP", []);
    roff.text([roman(text)]);
}

/// A tagged paragraph: a bold tag, then its text.
fn tagged(roff: &mut Roff, tag: &str, text: &str) {
    roff.control("TP", []);
    roff.text([bold(tag)]);
    roff.text([roman(text)]);
}

/// Lines shown as typed, indented, not filled.
fn example_block<'a>(roff: &mut Roff, lines: impl IntoIterator<Item = &'a str>) {
    roff.control("RS", ["4"]);
    roff.control("nf", []);
    for line in lines {
        roff.text([roman(line)]);
    }
    roff.control("fi", []);
    roff.control("RE", []);
}

/// drumhead(1): synopsis, description and options from clap, then the
/// program's task words, the JSON format, exit status and files.
pub fn drumhead_1() -> String {
    let man = clap_mangen::Man::new(Args::command())
        .title("DRUMHEAD")
        .section("1")
        .source(source())
        .manual("drumhead manual");
    let mut out: Vec<u8> = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = man.render_title(&mut out);
    let _ = man.render_name_section(&mut out);
    let _ = man.render_synopsis_section(&mut out);
    let _ = man.render_description_section(&mut out);
    let _ = man.render_options_section(&mut out);
    let mut text = String::from_utf8_lossy(&out).into_owned();

    let mut roff = Roff::new();
    roff.control("SH", ["TASKS"]);
    para(
        &mut roff,
        "A first word that names a task of the program, rather than a rules command:",
    );
    tagged(
        &mut roff,
        "drumhead check FILE…",
        "Check army lists (and house-rule table files, by their file name) without resolving anything; \
         ids must be unique across the lists given together.",
    );
    tagged(
        &mut roff,
        "drumhead replay JOURNAL",
        "Rebuild a game from its journal, resolving every entry again with its recorded line and \
         dice and checking each gives exactly what it recorded and follows the chain, and check \
         the result against the game file's checkpoint. Takes no lock and writes nothing.",
    );
    tagged(
        &mut roff,
        "drumhead repair GAME [--apply]",
        "Say what can be done about a game whose file and journal disagree (a cut or damaged \
         journal, a broken chain, an entry that does not resolve to itself, a game file edited \
         by hand, missing or behind its journal), and do it with --apply. Every entry is resolved \
         again: the journal is kept up to the first line that cannot be trusted, which is never \
         adopted; it and the rest are kept aside in GAME.journal.damaged, and a replaced game \
         file is kept as GAME.bak. Another game's journal is never put under a game.",
    );
    let books: Vec<&str> = crate::systems::all()
        .books()
        .into_iter()
        .map(|b| b.id())
        .collect();
    tagged(
        &mut roff,
        "drumhead new-army BOOK [-o FILE] [--force]",
        &format!(
            "Write an army list to start from for the rule book BOOK ({}): every section with \
             example entries, each key of the first entry explained in a comment, the keys it \
             leaves out commented out. To standard output, or into FILE, which must not exist \
             unless --force is given (see OUTPUT FILES). Every key is in drumhead-armies(5).",
            books.join(", ")
        ),
    );
    tagged(
        &mut roff,
        "drumhead tables export DIR [--force]",
        "Write every embedded table file into DIR (created if missing), under the names \
         --tables DIR reads them by (the example CRT as crt.toml), to start house rules from. \
         A file that already exists is refused, and then nothing is written, unless --force \
         is given (see OUTPUT FILES).",
    );
    tagged(
        &mut roff,
        "drumhead sheet SYSTEM [-o FILE [--force]] [--paper a4|letter]",
        &format!(
            "Write a printable quick-reference sheet of a rule system ({}, or quickplay): every \
             table its verbs read, in its rule text's order and words, from the tables in force \
             (--tables DIR, --crt FILE), each value a house rule changed marked. One \
             self-contained HTML page (no script, nothing fetched) laid out for A4 or Letter, \
             at most four pages; print it from a browser. To standard output, or into FILE, \
             which must not exist unless --force is given (see OUTPUT FILES).",
            books.join(", ")
        ),
    );
    tagged(
        &mut roff,
        "drumhead roster [--army FILE…] [--game FILE] [-o FILE [--force]] [--paper a4|letter]",
        "Write the armies as a printable roster: one card per unit, figure or leader, with its \
         facts and, with --game, its state now (bases, hits, tokens, steps, disrupted, \
         killed…), as show has it; an army a page. The game file must exist and is only read. \
         One HTML page, to standard output, or into FILE, which must not exist unless --force \
         is given (see OUTPUT FILES).",
    );
    tagged(
        &mut roff,
        "drumhead man DIR [--force]",
        "Write these manual pages (drumhead.1, drumhead-commands.7 and drumhead-armies.5) into \
         DIR (created if missing), generated from the program, its tables and its army-list \
         readers (with --tables, the house rules show in the command page). A page that already \
         exists is refused, and then nothing is written, unless --force is given (see OUTPUT \
         FILES).",
    );
    tagged(
        &mut roff,
        "drumhead config",
        "Say which configuration file is read (see CONFIGURATION) and what it sets, its paths \
         resolved; with none there, the keys it may hold.",
    );
    tagged(
        &mut roff,
        "drumhead completions bash|zsh|fish|powershell",
        "Print a shell completion script to standard output, for example \
         source <(drumhead completions bash): it completes the options and tasks. \
         To complete the words of a command too (verbs, the words of the verb in hand, \
         rule systems, and the unit ids of the armies given with --army or --game), \
         source <(COMPLETE=bash drumhead) instead (zsh and fish: COMPLETE=zsh, COMPLETE=fish).",
    );

    roff.control("SH", ["CONFIGURATION"]);
    para(
        &mut roff,
        "drumhead reads defaults from $XDG_CONFIG_HOME/drumhead/config.toml, else \
         ~/.config/drumhead/config.toml, when that file exists; --config FILE (or \
         DRUMHEAD_CONFIG=FILE) names another, which must exist, and --no-config (or \
         DRUMHEAD_CONFIG set and empty) reads none. An option on the command line always wins \
         over the file. Paths in the file are relative to the file's folder (~/ is the home \
         folder). Any other key, or a rule system drumhead does not know, is an error naming \
         the file, line and column. Its keys:",
    );
    for (key, meaning) in super::config::KEYS {
        tagged(&mut roff, key, meaning);
    }
    para(&mut roff, "For example:");
    example_block(&mut roff, super::config::EXAMPLE.lines());

    roff.control("SH", ["COMMANDS"]);
    para(
        &mut roff,
        "A line is [RULES] [odds] VERB word… [at|vs word…] [rolled FACE… [roll-rest]] [# comment]. \
         The verbs of every rule system, and every word each verb knows, are in drumhead-commands(7); \
         at the prompt, help and help VERB show the same.",
    );

    json_section(&mut roff);
    sweep_section(&mut roff);
    formats_section(&mut roff);

    roff.control("SH", ["EXIT STATUS"]);
    tagged(&mut roff, "0", "Every command resolved.");
    tagged(
        &mut roff,
        "1",
        "Some command was rejected (each is reported, and the rest still run), \
         or dice given with --dice were never used, or the file of --svg was refused or could \
         not be written; for a task, a file that could not be written (a full disk).",
    );
    tagged(
        &mut roff,
        "2",
        "A usage error: bad options, tables, army lists or game file, or for a task an output \
         path drumhead will not write (see OUTPUT FILES).",
    );

    roff.control("SH", ["ENVIRONMENT"]);
    tagged(
        &mut roff,
        "NO_COLOR",
        "When set and not empty, --color auto does not colour.",
    );
    tagged(
        &mut roff,
        "DRUMHEAD_CONFIG",
        "The configuration file to read instead of the usual one; set and empty, none is read.",
    );
    tagged(
        &mut roff,
        "XDG_CONFIG_HOME",
        "The folder of drumhead/config.toml (see CONFIGURATION), else $HOME/.config.",
    );
    tagged(
        &mut roff,
        "XDG_DATA_HOME, HOME",
        "The REPL keeps its history in $XDG_DATA_HOME/drumhead/history, \
         else $HOME/.local/share/drumhead/history; each line is written as it is entered.",
    );

    roff.control("SH", ["FILES"]);
    tagged(
        &mut roff,
        "FILE",
        "The game file of --game FILE: a checkpoint of the game. It names the game (an id made \
         when the game was created), keeps its army lists whole, and holds the state after the \
         first N entries of the journal with the mark of entry N (where it ends and the SHA-256 \
         of its line) and a check over both. It is written again every 256 entries and when a \
         writer ends; a kill loses nothing, as the journal holds every entry. A game file of an \
         older drumhead, one without its mark, or one whose state was edited is refused (see \
         repair).",
    );
    tagged(
        &mut roff,
        "FILE.journal",
        "Beside a --game FILE: the record of the game, a header naming the game and its armies, \
         then one JSON object a line for every command that changed it: the line as typed, the \
         dice (which were entered, which rolled, and the seed they rolled from), the outcome's \
         id and the typed effects, and the SHA-256 of the line before it, so that the journal \
         is a chain from its header. An entry is synced to disk (one fdatasync) before its \
         answer is shown. Opening a game reads the checkpoint and only the entries after it, and \
         applies none of those until it has resolved it again from its line and dice and found \
         exactly what it recorded. A broken chain, another game's journal (a copy made with \
         save is a new game), a journal of an older drumhead, or an entry that does not resolve \
         to itself is refused, naming the line (see repair). A last line cut short by a kill or a \
         full disk is removed by the next writer, and said.",
    );
    tagged(
        &mut roff,
        "FILE.lock",
        "Beside a --game FILE: the lock of the game's one writer, naming it. A process takes it \
         before it reads the state a line that changes the game is resolved against, reads what \
         other writers recorded since, resolves the line, records it, and lets the lock go: it \
         is held for a line, not for a session, so that an umpire's REPL open all evening, a \
         script and a second umpire share one game, and every answer is from the newest state. \
         A writer that finds the lock held is refused at once, naming the holder, or waits with \
         --wait. Commands that only look at the game (units, show, log, replay, roster) take no \
         lock, read the game file and then the journal after it (the two always belong \
         together), and work on read-only files.",
    );

    tagged(
        &mut roff,
        "DIR/*.toml",
        "Given --tables DIR: house rules. A file named like a table file (drums.toml, \
         drums-pools.toml, mayhem.toml, saber.toml, saber-quickplay.toml) is merged over the \
         embedded one and need name only what it changes, for example [hits] per_base = 4 \
         alone in drums.toml: tables merge key by key, and a number, a word, an array or a \
         list of [[rows]] replaces the embedded value. The merged table is checked when it \
         loads, a bad value reported with its file, line, column and key. crt.toml replaces \
         the example CRT whole. Any other .toml file in DIR is an error naming the table file \
         it most likely meant (drumz.toml, Drums.toml: drums.toml); files that are not .toml \
         (a README) are left alone. drumhead tables export DIR writes the embedded files to \
         start from.",
    );

    roff.control("SH", ["OUTPUT FILES"]);
    para(
        &mut roff,
        "Every file drumhead writes for you (--svg FILE, the -o FILE of new-army, sheet and \
         roster, the pages of man DIR and the tables of tables export DIR) follows the same \
         rules, so that no output path can destroy anything:",
    );
    tagged(
        &mut roff,
        "A game's own files",
        "A game file, a journal (told by their first bytes) and FILE.journal or FILE.lock \
         beside a game FILE are never written, not even with --force: choose another path.",
    );
    tagged(
        &mut roff,
        "Only regular files",
        "A symbolic link (not followed), a FIFO, a device such as /dev/null, a socket and a \
         directory are refused, even with --force, without being opened. DIR of man and tables \
         export must be a directory, or a new path: it is created, with any missing folders \
         above it.",
    );
    tagged(
        &mut roff,
        "--force",
        "An existing regular file is replaced only when --force is given (and keeps its \
         permissions); without it, it is refused. A command that writes several files looks \
         at all of them first: one refused, none is written.",
    );
    tagged(
        &mut roff,
        "Whole or not at all",
        "Each file is written to a temporary file in the same folder, flushed and synced, then \
         renamed over the target. On an error (a full disk) the temporary files are removed, \
         a folder the command created is removed again, and a file that was there is as it was. \
         A new file gets the usual permissions, 0666 less the umask (0644 with umask 022).",
    );

    roff.control("SH", ["LIMITS"]);
    para(
        &mut roff,
        "What drumhead reads is bounded, and an error names the limit it met:",
    );
    for (name, max, what) in crate::limits::ALL {
        tagged(&mut roff, &format!("{name}: {max}"), what);
    }

    roff.control("SH", ["EXAMPLES"]);
    example_block(&mut roff, EXAMPLES.iter().copied());

    roff.control("SH", ["SEE ALSO"]);
    roff.text([
        bold("drumhead-commands"),
        roman("(7), "),
        bold("drumhead-armies"),
        roman("(5)"),
    ]);
    text.push_str(&roff.to_roff());
    text
}

/// drumhead(1)'s examples (a test runs each).
pub const EXAMPLES: &[&str] = &[
    "drumhead 'resilience +determined'",
    "drumhead --json 'resilience shooting +determined +hit rolled 4 3'",
    "drumhead --seed 7 < script.txt",
    "drumhead 'odds resilience melee +lost-round compare +general'",
    "drumhead 'odds shoot musket 2BW,6BW formed bases=2..8'",
    "drumhead --format csv 'odds shoot musket 2BW formed bases=3'",
    "drumhead --svg odds.svg 'odds shoot musket 6BW formed bases=4'",
    "drumhead --army armies/leuthen-1757-prussian.toml --army armies/leuthen-1757-austrian.toml --game game.json",
];

/// Sweeps: a word as a range or a list.
fn sweep_section(roff: &mut Roff) {
    roff.control("SH", ["SWEEPS"]);
    para(
        roff,
        &format!(
            "In an odds line, a word given as a range or a list stands for each of its values in turn, \
             and the answer is a table with a row for each combination: each outcome's probability and \
             each expected value. A range is two whole numbers with .. between them, both included: \
             bases=2..8, 2..8BW, 2BW..8BW. A list is the values with commas between them and no spaces: \
             2BW,6BW or formed,open or bases=2,bases=4 (but group=4,3,3, a value that is itself a list, \
             is the word's own value and no sweep). At most {} words of a line may be swept (a table of \
             one, a heat map of two), in at most {} combinations; a sweep outside odds, with compare, or \
             a range that runs backwards or holds one value is refused. In JSON the answer is of type \
             sweep: swept (each word, its name and values), outcomes (every outcome of any row), \
             expected (the expected values' keys), and rows (each combination's values, heading, \
             outcomes and expected values).",
            crate::limits::MAX_SWEPT_WORDS,
            crate::limits::MAX_SWEEP_LINES
        ),
    );
    example_block(
        roff,
        ["drumhead 'odds shoot musket 2BW,6BW formed bases=2..8'"],
    );
}

/// `--format csv|tsv` and `--svg`.
fn formats_section(roff: &mut Roff) {
    roff.control("SH", ["OUTPUT FORMATS"]);
    para(
        roff,
        "--format text (the default), json (the same as --json), csv or tsv. Under csv and tsv \
         each answer of odds, odds … compare, a sweep or simulate is one table with a header row, \
         tables separated by a blank line; any other line is refused with an error naming it, and \
         the exit status is 1. Probabilities are decimals at full precision (the exact fractions are \
         in the JSON: a spreadsheet would read 1/4 as a date).",
    );
    tagged(
        roff,
        "odds",
        "kind,id,outcome,text,value,probability,at_least: a row of kind outcome for each outcome, \
         id unique to the row and outcome the kind a resolution gives, shared by its rows; \
         where the outcomes are the values of a count or a total (hits, a pool's successes, a 2d6 \
         total) value holds it and at_least the chance of at least that value, else both are empty. \
         Then a row of kind expected for each expected value, the value in value.",
    );
    tagged(
        roff,
        "compare",
        "kind,outcome,text,value,without,with,without_at_least,with_at_least: the same, a column \
         for each side; expected rows hold the expected values under without and with.",
    );
    tagged(
        roff,
        "simulate",
        "kind,outcome,text,value,observed,p_observed,probability,at_least: the rolls counted, \
         their share, and the exact probability (empty where odds cannot list the line's outcomes).",
    );
    tagged(
        roff,
        "sweep",
        "A column for each swept word, then one for each outcome (its probability) and each \
         expected value; a row for each combination.",
    );
    para(
        roff,
        "--svg FILE draws the answer of the one odds line given on the command line as an SVG \
         chart, besides printing it: bars with their percentages (and a curve of the chance of at \
         least each value, for a count or a total), paired bars for compare, lines over the swept \
         values for a sweep of one word (each outcome's probability above, each expected value \
         below), a heat map of the first expected value for a sweep of two. FILE must not exist \
         unless --force is given, and is written whole or not at all (see OUTPUT FILES); a line \
         that is not odds is refused.",
    );
}

/// The JSON Lines format of `--json` (SPEC section 4, as render.rs writes it).
fn json_section(roff: &mut Roff) {
    roff.control("SH", ["JSON OUTPUT"]);
    para(
        roff,
        "With --json every command prints one JSON object on one line (JSON Lines) on standard output. \
         Every object begins with the same four keys: type (resolution, odds, comparison, simulation, \
         sweep, error, help, roster, unit, log, end-turn, next-turn, undo, saved, setting), version (the format \
         version, now 1; it changes only when a key is renamed, removed or changes meaning), line (the \
         input line answered, from 1) and input (that line's text). A JSON Schema for each type is in the \
         source's schemas/ folder. After those, a resolution has these fields, in this order:",
    );
    let fields: &[(&str, &str)] = &[
        ("verb", "the verb resolved, such as \"resilience\"."),
        (
            "rules",
            "the rule system: \"drums\", \"mayhem\", \"saber\" or \"saber-quickplay\".",
        ),
        (
            "seed",
            "present when any die was rolled rather than entered: --seed with this number rolls the same dice again.",
        ),
        (
            "dice",
            "every die face, in the order the procedure threw them.",
        ),
        (
            "entered",
            "booleans, as long as dice: true for a face you entered (rolled … or --dice), false for one drumhead rolled.",
        ),
        (
            "modifiers",
            "the modifier stack: [{\"label\", \"value\"}], each labelled with the rule table row it came from.",
        ),
        ("score", "the modified score, where the procedure has one."),
        (
            "outcome",
            "the outcome's id, such as \"carry-on\", \"must-charge\", \"pass\".",
        ),
        ("outcome_text", "the outcome in the rule's words."),
        (
            "notes",
            "present when there are notes: further effects and reminders, as text.",
        ),
    ];
    for (name, text) in fields {
        tagged(roff, name, text);
    }
    para(
        roff,
        "Then each procedure adds its own fields (before notes): resilience: context, hits, advance_bw; \
         charge and move: distance_bw (absent when the outcome is cannot-charge); \
         shoot: pool, pool_steps, hit_on, range (short, long, out-of-range), hits, bases_lost, hits_left; \
         melee and initiative: sides [{pool, dice, hits or total}] (side a, then side b after vs) and winner (a, b, drawn); \
         risk: distance_bw when swept away; hits: bases_lost, hits_left; \
         roll: total for sums, successes for pools like 10d6>=4; \
         mayhem move: distance_in; fire: skill {die, modified, needed}, impact {die, modified}; \
         courage: figures [{courage, die, result, retreat_in}]; fight: result (killed, courage-check); \
         post-battle: wounded, dead; morale: needed; \
         attack and bombard: differential (or ratio), column, result (the cell as printed), \
         check {die, needed, passed} when the morale die is used, applied (the result code that takes effect). \
         Commands that name units also carry the game's effects in their notes.",
    );
    para(
        roff,
        "A rejected command prints an error object on standard output instead: error (the message) and \
         column (the 1-based column of the word at fault, when there is one).",
    );
    para(
        roff,
        "odds prints verb, rules, outcomes [{id, outcome, text, p, fraction, effects}] \
         with exact probabilities that sum to 1 (fraction like \"7/12\", null when there is no exact fraction; \
         outcome is what a resolution of the line gives, shared by every row of that kind, so P(pass) is the sum \
         over the rows whose outcome is pass; id is unique within one answer: a second text under one outcome gets -2, -3 …; \
         effects holds each number the resolution reports, such as hits, with its one value on that row), then expected values \
         where they apply (expected_hits, expected_distance …). \
         odds … compare WORD prints a comparison: verb, rules, compare, without, with (the last two distributions as in odds); \
         simulate N prints a simulation: verb, rules, simulate, seed, outcomes [{outcome, text, observed, p_observed, p}] \
         (p is null for a line with more outcomes than odds lists). \
         help and set print text; units prints a roster: turn, armies [{name, side, rules, rules_title, columns, \
         units (one object per unit keyed by column), notes}]; show prints a unit: id, name, army, rows [{label, value}]; \
         log prints entries [{entry, turn, line, outcome, undo, undone}]; end-turn prints turn and systems (each rule \
         system's end-of-turn text); next-turn prints turn and notes; undo prints undone (the line taken back, or null); \
         save prints path.",
    );
}

/// drumhead-commands(7): the command language, from the catalog.
pub fn commands_7(catalog: &Catalog) -> String {
    let mut roff = Roff::new();
    roff.control(
        "TH",
        [
            "DRUMHEAD-COMMANDS",
            "7",
            "",
            source().as_str(),
            "drumhead manual",
        ],
    );
    roff.control("SH", ["NAME"]);
    roff.text([roman(
        "drumhead-commands - the command language of drumhead, verb by verb",
    )]);
    roff.control("SH", ["SYNOPSIS"]);
    roff.text([
        roman("["),
        italic("RULES"),
        roman("] [odds] "),
        italic("VERB"),
        roman(" word… [at|vs word…] [rolled "),
        italic("FACE"),
        roman("… [roll-rest]] [# comment]"),
    ]);
    roff.control("SH", ["DESCRIPTION"]);
    para(
        &mut roff,
        "Each line is one command, resolved under the active rule system (--rules, or the armies') \
         unless it starts with a rule system's id. Words are keywords (determined, +determined; \
         _ and - alike, any case), counted keywords (+general=2 or general general), values (bases=4), \
         distances (2BW, 2.5bw, 12\", 12in) and numbers. Words after at describe the target, after vs the opponent. \
         rolled FACE… at the end enters the dice you threw, in the order the procedure throws them; \
         too few are refused, saying how many the line throws and what the first missing die is for \
         (the REPL asks for them), unless roll-rest follows the faces (rolled 4 roll-rest rolls the rest); \
         too many or a face the die does not have is an error. \
         An unknown word is an error that points at the word and suggests the nearest one the verb knows.",
    );
    para(
        &mut roff,
        "Below, every rule system with its verbs: the usage, what the verb does, and every word it knows \
         with the table row and values it stands for. word[=N] is counted, word=N takes a number. \
         The pages are generated from the tables the program embeds, so the numbers are those of the rules.",
    );

    roff.control("SH", ["EVERY RULE SYSTEM"]);
    para(
        &mut roff,
        "These verbs work under every rule system. The session itself carries out:",
    );
    for (name, usage, text) in crate::catalog::SESSION_DOCS {
        roff.control("TP", []);
        roff.text([bold(*usage)]);
        roff.text([roman(*text)]);
        debug_assert!(
            crate::catalog::session_verbs()
                .chain(crate::catalog::LINE_WORDS.iter().copied())
                .any(|v| v == *name)
        );
    }
    for doc in catalog.verbs.iter().filter(|v| v.system.is_none()) {
        verb(&mut roff, doc);
    }

    for system in catalog.books.clone() {
        let title = format!("{} ({})", system.title().to_uppercase(), system.id());
        roff.control("SH", [title.as_str()]);
        let verbs: Vec<&VerbDoc> = catalog
            .verbs
            .iter()
            .filter(|v| v.system == Some(system))
            .collect();
        if verbs.is_empty() {
            para(
                &mut roff,
                "No verbs of this rule system yet; only those that work under every rule system.",
            );
            continue;
        }
        para(
            &mut roff,
            &format!(
                "Under --rules {id}, or with a line that starts with {id}:",
                id = system.id()
            ),
        );
        for doc in verbs {
            verb(&mut roff, doc);
        }
    }

    roff.control("SH", ["SEE ALSO"]);
    roff.text([
        bold("drumhead"),
        roman("(1), "),
        bold("drumhead-armies"),
        roman("(5)"),
    ]);
    render(&roff)
}

fn verb(roff: &mut Roff, doc: &VerbDoc) {
    roff.control("SS", [doc.name]);
    roff.text([bold(doc.usage)]);
    roff.control("PP", []);
    roff.text([roman(doc.summary.as_str())]);
    words(roff, "Words:", &doc.vocab);
    for (kind, vocab) in &doc.clauses {
        words(roff, &format!("Words after {}:", kind.word()), vocab);
    }
    if !doc.examples.is_empty() {
        roff.control("PP", []);
        roff.text([roman("Examples:")]);
        example_block(roff, doc.examples.iter().copied());
    }
}

fn words(roff: &mut Roff, title: &str, vocab: &Vocab) {
    let mut extra = Vec::new();
    if let Some(meaning) = vocab.number {
        extra.push(("N".to_string(), format!("a bare number: {meaning}")));
    }
    if let Some(unit) = vocab.distance {
        let example = match unit {
            Unit::BaseWidths => "2BW",
            Unit::Inches => "12\" or 12in",
        };
        extra.push((
            "DISTANCE".to_string(),
            format!("a distance in {}, like {example}", unit_name(unit)),
        ));
    }
    if let Some(meaning) = vocab.notation {
        extra.push(("NOTATION".to_string(), meaning.to_string()));
    }
    if vocab.raw {
        extra.push((
            "…".to_string(),
            "the verb reads its own notation (see the usage)".to_string(),
        ));
    }
    if vocab.entries.is_empty() && extra.is_empty() {
        return;
    }
    roff.control("PP", []);
    roff.text([roman(title)]);
    roff.control("RS", ["4"]);
    for entry in &vocab.entries {
        tagged(
            roff,
            &crate::help::shown(&entry.name, &entry.kind),
            &entry.help,
        );
    }
    for (tag, text) in &extra {
        tagged(roff, tag, text);
    }
    roff.control("RE", []);
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::BaseWidths => "base widths",
        Unit::Inches => "inches",
    }
}

/// drumhead-armies(5): the army-list format, from each rule system's
/// schema (the keys its reader takes) and its doc (what they mean).
pub fn armies_5(registry: &Registry) -> String {
    let mut roff = Roff::new();
    roff.control(
        "TH",
        [
            "DRUMHEAD-ARMIES",
            "5",
            "",
            source().as_str(),
            "drumhead manual",
        ],
    );
    roff.control("SH", ["NAME"]);
    roff.text([roman(
        "drumhead-armies - the army lists of drumhead: sections, keys and values, rule system by rule system",
    )]);
    roff.control("SH", ["SYNOPSIS"]);
    example_block(
        &mut roff,
        [
            "[army]",
            "name = \"TEXT\"",
            "rules = \"BOOK\"",
            "side = \"TEXT\"",
            "",
            "[[SECTION]]",
            "id = \"ID\"",
            "name = \"TEXT\"",
            "KEY = VALUE",
        ],
    );
    roff.control("SH", ["DESCRIPTION"]);
    para(
        &mut roff,
        "An army list is a TOML file: an [army] table saying which rule book it is written for, \
         then its entries, each a [[SECTION]] table such as [[unit]]. Which sections and keys a \
         list may have depends on the rule system, as below. drumhead --army FILE loads a list \
         (repeat it for each army) so that commands can name its entries by id; \
         drumhead check FILE… checks lists without resolving anything; \
         drumhead new-army BOOK [-o FILE] writes a commented list to start from, \
         with every key of that book. At the prompt, help armies sums up the keys and \
         points here.",
    );
    for rule in doc::general_rules() {
        para(&mut roff, &rule);
    }

    roff.control("SH", ["THE [army] TABLE"]);
    para(&mut roff, "Every list starts with it:");
    let army_keys = doc::army_keys(&registry.books());
    for key in crate::army::ARMY_KEYS {
        if let Some(k) = army_keys.iter().find(|k| k.key == *key) {
            key_entry(&mut roff, k);
        }
    }

    roff.control("SH", ["EVERY ENTRY"]);
    para(
        &mut roff,
        "Every entry of every section has these two keys:",
    );
    for k in doc::common_keys() {
        key_entry(&mut roff, &k);
    }

    for system in registry.systems() {
        let books = system.books();
        let Some(first) = books.first() else { continue };
        let ids: Vec<&str> = books.iter().map(|b| b.id()).collect();
        let title = format!("{} ({})", system.name().to_uppercase(), ids.join(", "));
        roff.control("SH", [title.as_str()]);
        let schema = system.army();
        let heads: Vec<String> = schema
            .sections(*first)
            .iter()
            .map(|s| format!("[[{}]]", s.name))
            .collect();
        let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
        let heads = match heads.as_slice() {
            [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => heads.join(""),
        };
        let mut intro = format!(
            "A list with rules = {} has {heads} entries.",
            crate::army::one_of(&ids)
        );
        if let Some(d) = schema.doc(*first) {
            intro.push(' ');
            intro.push_str(d.about);
        }
        para(&mut roff, &intro);
        for (section, sdoc) in doc::sections(schema, *first) {
            let head = format!("[[{}]]", section.name);
            roff.control("SS", [head.as_str()]);
            if !sdoc.about.is_empty() {
                para(&mut roff, sdoc.about);
            }
            for key in &sdoc.keys {
                key_entry(&mut roff, key);
            }
        }
        for book in books {
            let head = format!("Example ({})", book.id());
            roff.control("SS", [head.as_str()]);
            let text = doc::template(schema, *book, false);
            example_block(&mut roff, text.lines());
        }
    }

    roff.control("SH", ["SEE ALSO"]);
    roff.text([
        bold("drumhead"),
        roman("(1), "),
        bold("drumhead-commands"),
        roman("(7)"),
    ]);
    render(&roff)
}

/// One key: `key = SHAPE`, then whether it is required, its type, what it
/// means, and the words it takes with theirs.
fn key_entry(roff: &mut Roff, key: &KeyDoc) {
    roff.control("TP", []);
    roff.text([bold(key.key), roman(" = "), italic(key.ty.shape().as_str())]);
    let mut text = match &key.need {
        Need::Refused(instead) => {
            format!("No longer accepted, and refused with a message. {instead}")
        }
        need => {
            let mut t = capitalised(&need.describe());
            t.push_str(&format!("; {}.", key.ty.describe()));
            if !key.about.is_empty() {
                t.push(' ');
                t.push_str(&key.about);
            }
            t
        }
    };
    if text.is_empty() {
        text = "(not described)".into();
    }
    roff.text([roman(text.as_str())]);
    let choices = key.ty.choices();
    if !choices.is_empty() && !matches!(key.need, Need::Refused(_)) {
        // Under the key's text, not at the key.
        roff.control("RS", []);
        for c in choices {
            tagged(roff, c.word, &c.meaning);
        }
        roff.control("RE", []);
    }
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
