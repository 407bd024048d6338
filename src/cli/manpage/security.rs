//! drumhead(1)'s SECURITY: what a game's files, from anywhere, can do to
//! the machine that reads them, and what `drumhead serve` does so that a
//! phone in the room, or a web page one of them opens, can neither write
//! a game nor shut the server for the others.

use roff::Roff;

use super::roff_text::{para, tagged};

/// SECURITY: what reading a game's files can do, then each guard of
/// `serve`, with the limit it uses.
pub(super) fn security_section(roff: &mut Roff) {
    roff.control("SH", ["SECURITY"]);
    files_from_anywhere(roff);
    para(
        roff,
        "drumhead serve is for a club's own network. It serves loopback only unless --listen \
         says otherwise, reads only the games named on its command line, and writes nothing \
         but the lines the umpire's token sends (through the same lock and journal as any \
         writer). Its other guards:",
    );
    for (what, how) in GUARDS {
        tagged(roff, what, how);
    }
}

/// What `serve` guards against, and how.
const GUARDS: &[(&str, &str)] = &[
    (
        "The umpire's token",
        "Only a request with the game's token writes (401 otherwise; compared in constant \
         time, never logged). The token is in the umpire's address after #, which a browser \
         never sends, and kept in FILE.token beside the game, readable by its owner only (see \
         FILES); --new-token replaces it when an address went where it should not. The pages \
         hold no token, and run no script but the server's own (its Content-Security-Policy \
         allows nothing else, nor any address but its own).",
    ),
    (
        "Host names",
        "A request whose Host (or absolute target) is not a name the server answers to is \
         refused with 421 (400 without a Host), whatever its path: so a web page elsewhere \
         whose name is made to point at this machine (DNS rebinding) reads nothing and writes \
         nothing. The names are the address listened on with its port (every address of the \
         machine when it listens on 0.0.0.0 or ::), localhost:PORT on loopback, and each \
         --host NAME (NAME:PORT, or NAME with the port listened on). Serving under a name of \
         the club's own DNS needs --host with that name.",
    ),
    (
        "Slow and idle clients",
        "A connection must send a request's whole headers within the serve header seconds \
         (LIMITS) of opening and of its previous answer, or it is closed: a half-sent request \
         and an idle keep-alive connection hold nothing longer. A request then has the serve \
         seconds to be answered (408). A live view is an answer under way, and stays open. A \
         connection that takes nothing of what is sent to it for the serve seconds is closed, \
         so an answer nobody reads is not kept.",
    ),
    (
        "Odds",
        "A sweep too large for one table is sent as it is counted, a combination at a time, in \
         JSON or on the odds page (each combination its own table, the page around them sent \
         before the first and after the last), the worker waiting while the client is a few rows \
         behind and stopping when it is gone; an error after its first rows follows them, as a \
         JSON error on a line of its own or on the page below them. \
         Any other odds answer larger than the serve odds answer bytes is refused (413, with the \
         message the answer is larger than N bytes…), counted before its JSON is written where \
         it can be. All odds answers being made or sent share the serve odds budget; a request \
         finding no room within 5 seconds is refused (503). A game's odds are answered by two \
         workers that take client addresses in turn, one line of an address at a time, so one \
         address asking for long odds over and over keeps one worker busy at most and the \
         others answer everyone else; an address has at most the serve odds in hand (429).",
    ),
    (
        "Lines applied once",
        "A line POSTed with an Idempotency-Key is resolved once whatever happens to its \
         connection, and a retry with the key gets the first answer: so a line whose answer \
         was lost (a timeout, a phone off the wifi) is never applied twice when it is sent \
         again. The umpire's page sends one with every line. The serve kept answers (LIMITS) \
         of each game are kept.",
    ),
    (
        "One address",
        "One client address may hold at most the serve connections an address (one more is \
         closed as it is accepted) and the serve events an address live views (429), so one \
         machine cannot fill the server's connections or a game's live views; its odds are \
         capped too (Odds, above).",
    ),
];

/// What a game's files, from anywhere, can and cannot do to the machine
/// that reads them; what opening trusts and what `replay` proves.
pub(super) fn files_from_anywhere(roff: &mut Roff) {
    para(
        roff,
        "Every file drumhead reads is taken as untrusted: a game and its journal from another \
         club, an army list or a table someone sent. Reading one never writes anything else, \
         never runs anything and never blames you for a change someone else made.",
    );
    tagged(
        roff,
        "What a journal can do",
        "Every reader (units, show, log, roster, replay, repair without --apply, serve) \
         resolves a journal's entries again, but only inside the game's state in memory. Only a \
         rule system's line, next-turn and undo are ever resolved from a journal: any other \
         line (save, load, set, help, units, odds, simulate…) is refused before anything runs, \
         naming the entry, and so is an entry that does not have the shape drumhead writes. No \
         entry can write or create a file, take a lock, change a setting, draw a progress bar \
         or reach the network; army texts, names and lines are data, shown with their escape \
         sequences made visible, never run. What a journal can cost is bounded time and memory \
         (see LIMITS: the journal's size and line length).",
    );
    tagged(
        roff,
        "What opening trusts",
        "The game file is a cache of the journal, trusted only as far as the journal vouches \
         for it: the journal's header must be the one the game file was written from (its id, \
         armies and house tables), the line at the game file's mark must be the one it recorded, \
         and its state must be the state that line records (each entry holds the SHA-256 of the \
         state after it). The entries after the mark are resolved again before anything is \
         answered. So a game file whose state was changed, even with its check made to fit, is \
         refused when it is opened, by the command line and the server alike: every reader \
         derives the state the same way, and two readers of one game never show two states. \
         A game is resolved under the tables it recorded: with no --tables or --crt they are \
         read from the journal; tables given must be the same files, or the game is refused \
         naming the one that differs.",
    );
    tagged(
        roff,
        "What replay proves",
        "drumhead replay JOURNAL reads the chain from its header and resolves every entry again \
         from its line and dice under the recorded tables: each must give exactly the outcome, \
         effects and state it recorded. It proves that the journal is one game played by the \
         rules from its first line, and that the game file beside it (if any) holds the state \
         at its mark. It cannot prove that dice entered by hand were thrown, nor that a seed was \
         not picked: a seed chosen with --seed is recorded as chosen, and log and the answer say \
         so. The hashes have no key: someone who can write all of a game's files can write \
         another game that is consistent with itself; that game is still one that resolves by \
         the rules, and a writer of the true game who appends to it breaks its chain for every \
         reader that followed the true one.",
    );
}
