//! drumhead(1)'s TASKS: the first words that name a task of the program
//! rather than a rules command.

use roff::Roff;

use super::roff_text::{and_list, para, tagged};

pub(super) fn tasks_section(roff: &mut Roff) {
    roff.control("SH", ["TASKS"]);
    para(
        roff,
        "A first word that names a task of the program, rather than a rules command:",
    );
    game_tasks(roff);
    file_tasks(roff);
    setup_tasks(roff);
}

/// The tasks that check army lists and games.
fn game_tasks(roff: &mut Roff) {
    tagged(
        roff,
        "drumhead check FILE…",
        "Check army lists (and house-rule table files, by their file name) without resolving anything; \
         ids must be unique across the lists given together.",
    );
    tagged(
        roff,
        "drumhead replay JOURNAL | CAMPAIGN",
        "Rebuild a game from its journal, resolving every entry again with its recorded line and \
         dice under the house tables its header records, and checking each gives exactly what \
         it recorded (its outcome, effects and the state after it) and follows the chain, and \
         check the result against the game file's checkpoint. A journal copied alone replays to \
         the state its game had. Given a campaign file instead (told by its contents, not its \
         name), every battle of it and every close (see CAMPAIGNS). Takes no lock and writes \
         nothing (see SECURITY).",
    );
    tagged(
        roff,
        "drumhead campaign new|battle|close|show|export C.toml …",
        "A campaign: armies carried from battle to battle, every change traced to the journal \
         entry that made it (see CAMPAIGNS); drumhead replay C.toml plays every battle and \
         every close of it again.",
    );
    tagged(
        roff,
        "drumhead repair GAME [--apply]",
        "Say what can be done about a game whose file and journal disagree (a cut or damaged \
         journal, a broken chain, an entry that does not resolve to itself, a game file edited \
         by hand, missing or behind its journal), and do it with --apply. Every entry is resolved \
         again: the journal is kept up to the first line that cannot be trusted, which is never \
         adopted; it and the rest are kept aside in GAME.journal.damaged, and a replaced game \
         file is kept as GAME.bak. A journal header changed after the game began is put back \
         from the game file (or a GAME.bak) that the chain's first entry vouches for, and never \
         adopted otherwise. Another game's journal is never put under a game. With --apply the \
         plan is made under the game's lock and carried out before it is let go, so no writer \
         appends between the two.",
    );
    tagged(
        roff,
        "drumhead serve --game FILE [--game FILE…] [--listen ADDR:PORT] [--umpire [--new-token]] [--host NAME…] [--stats]",
        "Serve each game's live view over HTTP on the club's own network; the first line on \
         standard output is serving http://HOST:PORT/ (a QR code of it follows on a terminal). \
         --listen defaults to 127.0.0.1:7878 (loopback only); 0.0.0.0:7878 opens it to the room; \
         port 0 picks a port of the games' own (from their paths), the same at every start while \
         it is free, else any free port, so that phones find a server started again where they \
         left it. Each game is named by its file name without .json: /g/NAME/ is its page, for \
         phones first: a bar at the top with the turn and a tap to each part (Latest, Roster, \
         Odds), the newest resolutions, newest first, each with its whole stack (a label and its \
         value a row, the value under the label when both do not fit), its outcome and notes \
         (a note said under every answer alike, such as the example CRT's, folded into one \
         line, shown once, on the newest entry that has it), an entry a later undo took back struck through and marked undone, the roster a \
         line a unit with each unit that is not fine marked in its rule system's word, and a form \
         that answers odds LINE as a table; new entries appear by themselves, an undo marks its \
         entry as it comes, and the bar says when the page is disconnected and reconnecting. The \
         page says what a game records (see FILES): every line resolved in it. \
         /g/NAME/events is its journal as Server-Sent Events (id the entry's number, data its \
         answer as --json writes it; with ?with=text each is followed by an event text whose \
         data holds the answer as the text output writes it, as the page shows it, and for an \
         undo the entry it took back; Last-Event-ID resumes, as far as the serve window of \
         newest entries the server keeps: older ones are named in one event gap, data {type, \
         from, to, note}), /g/NAME/units.json what units --json prints, /g/NAME/roster.html the \
         roster as the page shows it, /g/NAME/log.json?after=N&limit=M the entries after N (at \
         most the serve log page, or M up to the serve log page most) as log --json writes them, \
         with next: K when more follow (ask again with after=K), /g/NAME/odds?line=LINE the \
         answer of odds LINE as JSON, or as a page for a browser (a request that accepts \
         text/html). The server only reads a game: it starts from the game file's checkpoint \
         (the entries before it are read while it already answers), and each entry after it is \
         checked against the chain and resolved again before it is shown. With --umpire a second \
         line umpire http://HOST:PORT/g/NAME/umpire#TOKEN is printed for each game (and a QR \
         code of it on a terminal): a page to type lines on, each answered as the feed shows it \
         (show, units, log and odds too; an error with the words at fault marked), the roster \
         beside them. The token is kept beside the game in FILE.token (see FILES), so the \
         address holds from one start to the next; --new-token makes a new one, and the old \
         address stops working. Lines are sent as POST /g/NAME/lines with Authorization: Bearer \
         TOKEN, each resolved as a writer of the game (under its lock) by the thread that \
         follows the game, which shows it in the feed with the answer the umpire got, resolved \
         once; answered with its JSON \
         (or as the page shows it, for a request that accepts text/html); without the token a \
         line is refused (401). A line sent with Idempotency-Key: KEY (1 \
         to 64 letters, digits, - or _) is applied once: sent again with the same key it is \
         answered with its first answer (Idempotency-Replayed: true), even when its client went \
         away before that answer; the umpire's page makes a key for each line typed and sends \
         it again with the line. save and load are refused there. The \
         limits are under LIMITS (serve …), and what guards the server under SECURITY: a \
         request must name the server's address, localhost on loopback, or a --host NAME as \
         its Host (421 otherwise). SIGTERM or Ctrl-C closes it; with --stats it then says on \
         standard error how many commands it resolved (each journal entry once, whoever wrote \
         it, and each odds line once).",
    );
}

/// The tasks that write a file to start from or to print.
fn file_tasks(roff: &mut Roff) {
    let books: Vec<&str> = crate::systems::all()
        .books()
        .into_iter()
        .map(|b| b.id())
        .collect();
    tagged(
        roff,
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
        roff,
        "drumhead tables export DIR [--force]",
        "Write every embedded table file into DIR (created if missing), under the names \
         --tables DIR reads them by (the example CRT as crt.toml), to start house rules from. \
         A file that already exists is refused, and then nothing is written, unless --force \
         is given (see OUTPUT FILES).",
    );
    tagged(
        roff,
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
        roff,
        "drumhead roster [--army FILE…] [--game FILE] [-o FILE [--force]] [--paper a4|letter]",
        "Write the armies as a printable roster: a table an army, one line per unit, figure \
         or leader, grouped by command, with the factors its counter or card prints and boxes \
         to pencil in bases, hits, steps, tokens or the figure; with --game, what is lost \
         already is crossed and its state now is noted (only what is so). An army starts a \
         page. The game file must exist and is only read. One HTML page, to standard output, \
         or into FILE, which must not exist unless --force is given (see OUTPUT FILES).",
    );
}

/// The tasks about drumhead itself: its manual, its configuration and
/// the shell's completion.
fn setup_tasks(roff: &mut Roff) {
    tagged(
        roff,
        "drumhead man DIR [--force]",
        &format!(
            "Write these manual pages ({}) into \
             DIR (created if missing), generated from the program, its tables and its army-list \
             readers (with --tables, the house rules show in the command page). A page that already \
             exists is refused, and then nothing is written, unless --force is given (see OUTPUT \
             FILES).",
            and_list(&super::PAGES)
        ),
    );
    tagged(
        roff,
        "drumhead config",
        "Say which configuration file is read (see CONFIGURATION) and what it sets, its paths \
         resolved; with none there, the keys it may hold.",
    );
    tagged(
        roff,
        "drumhead completions bash|zsh|fish|powershell",
        "Print a shell completion script to standard output, for example \
         source <(drumhead completions bash): it completes the options and tasks. \
         To complete the words of a command too (verbs, the words of the verb in hand, \
         rule systems, and the unit ids of the armies given with --army or --game), \
         source <(COMPLETE=bash drumhead) instead (zsh and fish: COMPLETE=zsh, COMPLETE=fish).",
    );
}
