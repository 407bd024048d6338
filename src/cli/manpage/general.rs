//! drumhead(1): synopsis, description and options from clap, then the
//! program's tasks, its configuration, the JSON format, exit status,
//! environment, files and limits.

use clap::CommandFactory;
use roff::{Roff, bold, roman};

use super::files::{files_section, output_files_section};
use super::formats::{formats_section, sweep_section};
use super::json::json_section;
use super::roff_text::{example_block, para, source, tagged};
use super::security::security_section;
use super::tasks::tasks_section;
use crate::cli::Args;

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
    tasks_section(&mut roff);

    roff.control("SH", ["CONFIGURATION"]);
    para(
        &mut roff,
        "drumhead reads defaults from $XDG_CONFIG_HOME/drumhead/config.toml, else \
         ~/.config/drumhead/config.toml, when that file exists; --config FILE (or \
         DRUMHEAD_CONFIG=FILE) names another, which must exist, and --no-config (or \
         DRUMHEAD_CONFIG set and empty) reads none. An option on the command line always wins \
         over the file. Paths in the file are relative to the file's folder (~/ is the home \
         folder). Any other key, or a rule system drumhead does not know, is an error naming \
         the file, the line and the key it most likely meant. Its keys:",
    );
    for (key, meaning) in crate::cli::config::KEYS {
        tagged(&mut roff, key, meaning);
    }
    para(&mut roff, "For example:");
    example_block(&mut roff, crate::cli::config::EXAMPLE.lines());

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

    status_and_environment(&mut roff);
    files_section(&mut roff);
    output_files_section(&mut roff);

    roff.control("SH", ["LIMITS"]);
    para(
        &mut roff,
        "What drumhead reads is bounded, and an error names the limit it met:",
    );
    for (name, max, what) in crate::limits::ALL {
        tagged(&mut roff, &format!("{name}: {max}"), what);
    }

    security_section(&mut roff);

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

/// EXIT STATUS and ENVIRONMENT.
fn status_and_environment(roff: &mut Roff) {
    roff.control("SH", ["EXIT STATUS"]);
    tagged(
        roff,
        "0",
        "Every command resolved, or standard output was closed (`| head`) with no game being \
         written: drumhead stops quietly.",
    );
    tagged(
        roff,
        "1",
        "Some command was rejected (each is reported, and the rest still run), \
         or dice given with --dice were never used, or standard output was closed while a game \
         was written (it says how many lines were applied), or the file of --svg was refused or could \
         not be written; for a task, a file that could not be written (a full disk).",
    );
    tagged(
        roff,
        "2",
        "A usage error: bad options or configuration file, tables, army lists or game file, a \
         line whose answer the --format asked for cannot write, or for a task an output \
         path drumhead will not write (see OUTPUT FILES).",
    );

    roff.control("SH", ["ENVIRONMENT"]);
    tagged(
        roff,
        "NO_COLOR",
        "When set and not empty, --color auto does not colour.",
    );
    tagged(
        roff,
        "DRUMHEAD_CONFIG",
        "The configuration file to read instead of the usual one; set and empty, none is read.",
    );
    tagged(
        roff,
        "XDG_CONFIG_HOME",
        "The folder of drumhead/config.toml (see CONFIGURATION), else $HOME/.config.",
    );
    tagged(
        roff,
        "XDG_DATA_HOME, HOME",
        "The REPL keeps its history in $XDG_DATA_HOME/drumhead/history, \
         else $HOME/.local/share/drumhead/history; each line is written as it is entered.",
    );
}
