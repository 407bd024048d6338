//! drumhead(1)'s FILES, the files of a game and of house rules, and
//! OUTPUT FILES, the rules every file drumhead writes for a user follows.

use roff::Roff;

use super::roff_text::{para, tagged};

pub(super) fn files_section(roff: &mut Roff) {
    roff.control("SH", ["FILES"]);
    tagged(
        roff,
        "FILE",
        "The game file of --game FILE: a checkpoint of the game, a cache of its journal. It names \
         the game (an id made when the game was created), keeps its army lists and house tables \
         whole, and holds the state after the first N entries of the journal with the mark of \
         entry N (where it ends, the SHA-256 of its line and of the journal's header) and a check \
         over them. It is written again every 256 entries and when a writer ends; a kill loses \
         nothing, as the journal holds every entry. Opening trusts it only as far as the journal \
         vouches for it (see SECURITY): a game file whose state, check, armies or tables were \
         changed is refused (see repair). A symbolic link to a game file is the game it leads \
         to: the checkpoint is written there.",
    );
    tagged(
        roff,
        "FILE.journal",
        "Beside a --game FILE: the record of the game. A header naming the game, its armies and \
         the house tables in force (each table file given with --tables or --crt, whole), then \
         one JSON object a line for each line a game records (a rule system's line, next-turn, \
         undo): the line as typed, the dice (which were entered, which rolled, the seed they \
         rolled from, and whether that seed was chosen with --seed), the outcome's id, the typed \
         effects, the SHA-256 of the state after it, and the SHA-256 of the line before it, so \
         that the journal is a chain from its header. An entry is synced to disk (one \
         fdatasync) before its answer is shown. Opening a game reads the checkpoint and only the \
         entries after it, and applies none of those until it has resolved it again from its \
         line and dice and found exactly what it recorded. A broken chain, another game's \
         journal (a copy made with save is a new game), a journal of an older drumhead, a line \
         a game does not record, or an entry that does not resolve to itself is refused, naming \
         the line (see repair). A last line cut short by a kill or a full disk is removed by the \
         next writer, and said.",
    );
    tagged(
        roff,
        "The lock of a game",
        "The journal is also the game's lock: a process takes an advisory lock (flock) on it \
         before it reads the state a line that changes the game is resolved against, reads what \
         other writers recorded since, resolves the line, records it, and lets the lock go. It \
         is held for a line, not for a session, so that an umpire's REPL open all evening, a \
         script and a second umpire share one game, and every answer is from the newest state. \
         Being on the file, not on a name, it is shared by every path to the game (a symbolic \
         link, a linked folder); no lock file is made. A writer that finds it held is refused \
         at once, naming the holder, or waits with --wait. Commands that only look at the game \
         (units, show, log, replay, roster, serve without --umpire) take no lock and open \
         nothing for writing, read the game file and then the journal after it (the two always \
         belong together), and work on read-only files in read-only folders.",
    );

    tagged(
        roff,
        "DIR/*.toml",
        &format!(
            "Given --tables DIR: house rules. A file named like a table file ({}) is merged over the \
         embedded one and need name only what it changes, for example [hits] per_base = 4 \
         alone in drums.toml: tables merge key by key, and a number, a word, an array or a \
         list of [[rows]] replaces the embedded value. The merged table is checked when it \
         loads, a bad value reported with its file, line, column and key. crt.toml replaces \
         the example CRT whole. Any other .toml file in DIR is an error naming the table file \
         it most likely meant (drumz.toml, Drums.toml: drums.toml); files that are not .toml \
         (a README) are left alone. drumhead tables export DIR writes the embedded files to \
         start from.",
            merged_files().join(", ")
        ),
    );
}

pub(super) fn output_files_section(roff: &mut Roff) {
    roff.control("SH", ["OUTPUT FILES"]);
    para(
        roff,
        "Every file drumhead writes for you (--svg FILE, the -o FILE of new-army, sheet and \
         roster, the pages of man DIR and the tables of tables export DIR) follows the same \
         rules, so that no output path can destroy anything:",
    );
    tagged(
        roff,
        "A game's own files",
        "A game file, a journal (told by their first bytes) and FILE.journal or FILE.lock (the \
         lock file of an older drumhead) beside a game FILE are never written, not even with \
         --force: choose another path.",
    );
    tagged(
        roff,
        "Only regular files",
        "A symbolic link (not followed), a FIFO, a device such as /dev/null, a socket and a \
         directory are refused, even with --force, without being opened. DIR of man and tables \
         export must be a directory, or a new path: it is created, with any missing folders \
         above it.",
    );
    tagged(
        roff,
        "--force",
        "An existing regular file is replaced only when --force is given (and keeps its \
         permissions); without it, it is refused. A command that writes several files looks \
         at all of them first: one refused, none is written.",
    );
    tagged(
        roff,
        "Whole or not at all",
        "Each file is written to a temporary file in the same folder, flushed and synced, then \
         renamed over the target. On an error (a full disk) the temporary files are removed, \
         a folder the command created is removed again, and a file that was there is as it was. \
         A new file gets the usual permissions, 0666 less the umask (0644 with umask 022).",
    );
}

/// The table files a house file is merged over: those embedded under
/// their own name (the example CRT, embedded under another, is replaced
/// whole instead).
fn merged_files() -> Vec<&'static str> {
    crate::systems::all()
        .systems()
        .flat_map(|s| s.table_files())
        .filter(|f| f.name == f.embedded_name)
        .map(|f| f.name)
        .collect()
}
