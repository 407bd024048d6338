//! `drumhead serve`: each game's live view over HTTP, on the club's own
//! network.
//!
//! What it answers (every other path is 404, and only the games named on
//! the command line are ever read):
//!
//! - `GET /`: the games served, each a link.
//! - `GET /g/NAME/`: the game's page (see `page.rs`).
//! - `GET /g/NAME/events`: Server-Sent Events, one a journal entry, from
//!   the first entry on; from the entry after N with `Last-Event-ID: N`
//!   (or `?after=N`, which the header overrides). `id:` is the entry's
//!   number, `data:` its answer as `--json` writes it (its `line` is the
//!   entry's number). With `?with=text` each entry is followed by an
//!   event `text` (same id) whose data is a JSON object `{"turn","line",
//!   "text","html","undoes"}`: the answer as the text output writes it,
//!   the entry as the page shows it (`format::web`), and for an undo the
//!   entry it took back (else null). 503 past the
//!   limit of live views. The server keeps the newest `SERVE_WINDOW`
//!   entries (`feed.rs`): entries asked for that are older than those
//!   are named in one event `gap` (id the last one missed, data
//!   `{"type":"gap","from","to","note"}`), and the stream goes on from
//!   the oldest kept; `log.json` lists them.
//! - `GET /g/NAME/units.json`: `units --json` (with `line` 1 and `input`
//!   the verb).
//! - `GET /g/NAME/roster.html`: the roster and the turn as the page shows
//!   them (a fragment, `#roster-now`, the turn in `data-turn`).
//! - `GET /g/NAME/log.json?after=N&limit=M`: the entries after entry N
//!   (0 when not given), at most M (`SERVE_LOG_ENTRIES` when not given,
//!   never more than `SERVE_LOG_MOST`), as `log --json` writes the log,
//!   with `"next": K` when more follow (ask again with `after=K`): read
//!   from the journal a page at a time (`log_pages.rs`). A log of at most
//!   one page is `log --json`'s as it is.
//! - `GET /g/NAME/odds?line=LINE`: `odds LINE` as `--json` writes it
//!   (200), or its error as `--json` writes one (422; 413 for a line past
//!   the line limit, 400 without `line`, 429 past a client's limits). A
//!   request that accepts `text/html` (a browser's) gets a page instead:
//!   the odds form, and the answer as a table (or the error), with the
//!   same status; with `&part=answer` the answer's fragment alone.
//!   A sweep too large for one table is sent as it is counted, as JSON
//!   or on the page (`stream.rs`).
//!   An answer over `SERVE_ODDS_ANSWER_BYTES` is 413 with the error
//!   "the answer is larger than N bytes, …" (counted before its JSON is
//!   written where it can be: `size.rs`). All odds answers being made or
//!   sent share `SERVE_ODDS_BUDGET_BYTES` (`budget.rs`; 503 after 5 s
//!   without room). The odds desk has `ODDS_WORKERS` workers taking
//!   client addresses in turn, one line of an address at a time, at most
//!   `SERVE_ODDS_IN_HAND` of an address in hand (`fair.rs`), so one
//!   address's long odds never hold up another's.
//! - `GET /g/NAME/umpire` (with `--umpire` only): the umpire's page.
//! - `POST /g/NAME/lines` (with `--umpire` only), `Authorization: Bearer
//!   TOKEN`, the line as the body: resolved as a writer of the game, its
//!   answer as `--json` writes it (200), its error (422; 409 when another
//!   writer holds the game for over a second); to a request that accepts
//!   `text/html`, the line and its answer as the page shows them (an
//!   `article.entry`, numbered when it made an entry), with the same
//!   status. 401 without the right token (kept beside the game,
//!   `token.rs`), 413 past the body limit. With `Idempotency-Key: KEY` (1 to
//!   64 letters, digits, `-`, `_`; the umpire's page sends a new one for
//!   each line typed and the same one when it sends that line again) the
//!   line is applied once: a retry with the key gets the first answer
//!   again (same status and body, with `Idempotency-Replayed: true`), or
//!   waits for it; the line is resolved even if its client has gone. The
//!   last `SERVE_KEPT_ANSWERS` answers of a game are kept (`once.rs`); a
//!   key sent with another line is 422, a key that is no key 400. A line
//!   left untried (409, 503) is not kept: its retry is tried again.
//!
//! Whatever the path, a request whose `Host` is not the address listened
//! on (every address of the machine on `0.0.0.0`), `localhost:PORT` on
//! loopback, or a `--host NAME`, is refused (421; 400 without a `Host`):
//! see `host.rs`. Connections are taken by `accept.rs`: at most
//! `SERVE_CONNECTIONS` open, `SERVE_ADDRESS_CONNECTIONS` from one
//! address, each closed when it has not sent a request's whole headers
//! within `SERVE_HEADER_SECONDS` of opening or of its previous answer (so
//! an idle keep-alive connection is closed then too), or that has taken
//! nothing of what is sent to it for `SERVE_SECONDS`; live views are
//! capped per game and per address (`SERVE_ADDRESS_EVENTS`, 429).
//!
//! Each game has a follower thread (`follow.rs`) that opens the game from
//! its game file's checkpoint, reads the journal after it as any reader
//! does and publishes each entry once resolved again (`feed.rs`), so that
//! starting does not grow with the journal; the entries before the
//! checkpoint are read on a thread of their own while the server already
//! answers (`earlier.rs`: the log's index, and the last `SERVE_WINDOW`
//! resolved again; a page or a live view that needs them waits for them).
//! Lines and odds go to desk threads of their own (`desk.rs`), each with
//! its own session of the game.

mod accept;
mod budget;
mod desk;
mod earlier;
mod events;
mod fair;
mod feed;
mod follow;
mod guard;
mod host;
mod log_pages;
mod once;
mod page;
mod routes;
mod size;
mod start;
mod stream;
mod token;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::system::Registry;
use crate::tables::TableSource;

/// Serve each game's live view over HTTP on the club's own network.
///
/// Its newest resolutions with their stacks, its roster and turn, as they
/// are written, for the players' phones; with --umpire, a page to type
/// lines on a tablet. Loopback only unless --listen says otherwise.
#[derive(Debug, clap::Args)]
pub struct Options {
    /// A game file kept with --game (repeatable): served under its file
    /// name without `.json`.
    #[arg(long = "game", value_name = "FILE", required = true)]
    pub(crate) games: Vec<PathBuf>,
    /// The address and port to listen on: 0.0.0.0:7878 opens it to the
    /// room; port 0 picks a port of the games' own, the same at every
    /// start while it is free (else any free one), so phones find the
    /// server again.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:7878")]
    pub(crate) listen: SocketAddr,
    /// Let the umpire type lines from a tablet: prints a page for each
    /// game with its secret token, kept beside the game (FILE.token,
    /// readable by its owner only) so the address holds from one start to
    /// the next.
    #[arg(long)]
    pub(crate) umpire: bool,
    /// With --umpire: make each game a new token (its old address stops
    /// working), kept from now on.
    #[arg(long, requires = "umpire")]
    pub(crate) new_token: bool,
    /// A host name the server answers to besides its address (and
    /// localhost on loopback), as NAME or NAME:PORT (repeatable): a
    /// request naming any other Host is refused.
    #[arg(long = "host", value_name = "NAME")]
    pub(crate) hosts: Vec<String>,
    /// When the server stops, say on standard error how many commands it
    /// resolved: each journal entry once, whoever wrote it.
    #[arg(long)]
    pub(crate) stats: bool,
}

/// Serve until SIGTERM or Ctrl-C. The tables are read on each game's
/// threads from `source`, as the command line and configuration give it.
pub(crate) fn run(options: &Options, registry: &Registry, source: TableSource) -> ExitCode {
    match start::serve(options, registry, source) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("error: {}\n", crate::text::visible_lines(&e)).as_bytes(),
            );
            ExitCode::from(2)
        }
    }
}
