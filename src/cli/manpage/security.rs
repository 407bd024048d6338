//! drumhead(1)'s SECURITY: what `drumhead serve` does so that a phone in
//! the room, or a web page one of them opens, can neither write a game
//! nor shut the server for the others.

use roff::Roff;

use super::roff_text::{para, tagged};

/// SECURITY: each guard of `serve`, with the limit it uses.
pub(super) fn security_section(roff: &mut Roff) {
    roff.control("SH", ["SECURITY"]);
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
        "An odds answer larger than the serve odds answer bytes is refused (413, with the \
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
