//! Every limit drumhead enforces on what it is given, in one place: the
//! errors and the manual quote these numbers. Each keeps a hostile or
//! mistaken input from taking the memory, the time or the terminal of the
//! person who gave it; none is near what a game needs.

/// Bytes in one command line.
pub(crate) const MAX_LINE_BYTES: usize = 4096;

/// Dice thrown by one draw, whatever a house rule multiplies a pool by.
pub(crate) const MAX_DICE_PER_ROLL: u64 = 10_000;

/// Dice in one dice expression of a table (`2+1D6`).
pub(crate) const MAX_TABLE_DICE: u32 = 100;

/// The fixed part of a table's dice expression, either way.
pub(crate) const MAX_TABLE_FIXED: i64 = 1_000_000;

/// Any whole number in a table file, either way: sums of modifiers can
/// then never overflow.
pub const MAX_TABLE_NUMBER: i64 = 1_000_000;

/// Ways one throw can come up that `odds` follows (totals of a sum,
/// counts of a pool, pairs of counts): past this an answer is a page of
/// near-zero lines.
pub(crate) const MAX_OUTCOMES: u64 = 501;

/// Paths through a procedure's dice that `odds` walks before it refuses:
/// for one line, and for all the combinations of a sweep together.
pub(crate) const MAX_PATHS: usize = 2_000_000;

/// Words one `odds` line may sweep: a table of one, a heat map of two.
pub(crate) const MAX_SWEPT_WORDS: usize = 2;

/// Combinations one sweep answers, each a whole `odds`: a 20 × 20 heat
/// map, and no page of thousands of rows.
pub(crate) const MAX_SWEEP_LINES: usize = 400;

/// Dice one `simulate` throws in all: its rolls × the most dice any of a
/// few trial rolls of the line threw, each roll counted as
/// [`SIMULATE_ROLL_DICE`] dice more for what it does besides throwing
/// (its modifiers, rows and outcome), so that a line of no dice may roll
/// 3,000,000 times. Any `simulate` within it is over in seconds: the
/// largest took 2.5 s on a loaded 2-core machine (see README).
pub(crate) const MAX_SIMULATE_DICE: u64 = 30_000_000;

/// What one roll of `simulate` costs besides its dice, counted as dice.
pub(crate) const SIMULATE_ROLL_DICE: u64 = 10;

/// Bytes in one army list.
pub const MAX_LIST_BYTES: usize = 1 << 20;

/// Entries (units, generals, figures, leaders…) in one army list.
pub(crate) const MAX_ENTRIES: usize = 1000;

/// Characters in an id.
pub(crate) const MAX_ID_LEN: usize = 40;

/// Characters in a name or a side.
pub(crate) const MAX_NAME_LEN: usize = 200;

/// Bytes in one table file or combat results table.
pub(crate) const MAX_TABLE_BYTES: usize = 1 << 20;

/// Bytes in a game file.
pub(crate) const MAX_GAME_BYTES: usize = 64 << 20;

/// Bytes in a campaign file: its armies after each close, whole.
pub(crate) const MAX_CAMPAIGN_BYTES: usize = 64 << 20;

/// Battles one campaign records.
pub(crate) const MAX_CAMPAIGN_BATTLES: usize = 1000;

/// Bytes in one journal entry.
pub(crate) const MAX_JOURNAL_LINE: usize = 1 << 20;

/// Bytes in a whole journal.
pub(crate) const MAX_JOURNAL_BYTES: u64 = 256 << 20;

/// `serve`: bytes in one request's body (a line is far less).
pub(crate) const SERVE_BODY_BYTES: usize = 16 << 10;

/// `serve`: connections open at once; one more is closed as it comes.
pub(crate) const SERVE_CONNECTIONS: usize = 1024;

/// `serve`: connections open at once from one client address; one more
/// is closed as it comes, so one address cannot fill the server.
pub(crate) const SERVE_ADDRESS_CONNECTIONS: usize = 64;

/// `serve`: seconds a connection has to send a request's whole headers,
/// from its opening or its previous answer (an idle connection is closed
/// then).
pub(crate) const SERVE_HEADER_SECONDS: u64 = 5;

/// `serve`: live views (`events`) of one game open at once.
pub(crate) const SERVE_EVENT_CLIENTS: usize = 512;

/// `serve`: live views (`events`, of any game) open at once from one
/// client address.
pub(crate) const SERVE_ADDRESS_EVENTS: usize = 16;

/// `serve`: `odds` requests one client (one address) may have in hand.
pub(crate) const SERVE_ODDS_IN_HAND: usize = 2;

/// `serve`: `odds` requests one client may make in a minute.
pub(crate) const SERVE_ODDS_PER_MINUTE: u32 = 60;

/// `serve`: bytes in one `odds` answer (413 past it).
pub(crate) const SERVE_ODDS_ANSWER_BYTES: usize = 2 << 20;

/// `serve`: bytes all `odds` answers being made or sent may take at once.
pub(crate) const SERVE_ODDS_BUDGET_BYTES: usize = 32 << 20;

/// `serve`: lines and `odds` requests waiting for one game at once.
pub(crate) const SERVE_QUEUE: usize = 32;

/// `serve`: seconds a request other than `events` may take, from its
/// headers to its answer; and seconds to send its headers.
pub(crate) const SERVE_SECONDS: u64 = 30;

/// `serve`: answers to the umpire's lines kept by `Idempotency-Key`, a
/// game (the oldest forgotten first).
pub(crate) const SERVE_KEPT_ANSWERS: usize = 256;

/// `serve`: the newest entries of a game kept in memory for its live
/// views and its page; older ones are read from the journal (`log.json`).
pub(crate) const SERVE_WINDOW: usize = 1024;

/// `serve`: entries in one page of `log.json` when `limit` is not given.
pub(crate) const SERVE_LOG_ENTRIES: usize = 1000;

/// `serve`: the most entries one page of `log.json` holds, whatever
/// `limit` says.
pub(crate) const SERVE_LOG_MOST: usize = 10_000;

/// `serve`: resolutions of a game the page shows, newest first.
pub(crate) const SERVE_PAGE_ENTRIES: usize = 50;

/// Each limit with what it bounds, for the manual.
pub(crate) const ALL: &[(&str, u64, &str)] = &[
    ("line", MAX_LINE_BYTES as u64, "bytes in one command line"),
    ("dice", MAX_DICE_PER_ROLL, "dice thrown by one draw"),
    (
        "table dice",
        MAX_TABLE_DICE as u64,
        "dice in one dice expression of a table",
    ),
    (
        "table number",
        MAX_TABLE_NUMBER as u64,
        "the largest number in a table, either way",
    ),
    (
        "odds outcomes",
        MAX_OUTCOMES,
        "ways one throw can come up that `odds` follows",
    ),
    (
        "odds paths",
        MAX_PATHS as u64,
        "paths through a procedure's dice that `odds` walks, for a line or a whole sweep",
    ),
    (
        "swept words",
        MAX_SWEPT_WORDS as u64,
        "words one `odds` line may sweep",
    ),
    (
        "sweep",
        MAX_SWEEP_LINES as u64,
        "combinations one sweep answers",
    ),
    (
        "simulate dice",
        MAX_SIMULATE_DICE,
        "dice one `simulate` throws in all: its rolls × the dice of one roll (the most a few trial rolls threw), each roll counted as `simulate roll` dice more",
    ),
    (
        "simulate roll",
        SIMULATE_ROLL_DICE,
        "dice a roll of `simulate` counts as besides those it throws",
    ),
    ("army list", MAX_LIST_BYTES as u64, "bytes in one army list"),
    ("entries", MAX_ENTRIES as u64, "entries in one army list"),
    ("id", MAX_ID_LEN as u64, "characters in an id"),
    ("name", MAX_NAME_LEN as u64, "characters in a name or side"),
    (
        "table file",
        MAX_TABLE_BYTES as u64,
        "bytes in one table file or CRT",
    ),
    ("game file", MAX_GAME_BYTES as u64, "bytes in a game file"),
    (
        "journal entry",
        MAX_JOURNAL_LINE as u64,
        "bytes in one journal entry",
    ),
    ("journal", MAX_JOURNAL_BYTES, "bytes in a whole journal"),
    (
        "campaign file",
        MAX_CAMPAIGN_BYTES as u64,
        "bytes in a campaign file",
    ),
    (
        "campaign battles",
        MAX_CAMPAIGN_BATTLES as u64,
        "battles one campaign records",
    ),
    (
        "serve body",
        SERVE_BODY_BYTES as u64,
        "bytes in one request to `drumhead serve` (413 past it)",
    ),
    (
        "serve connections",
        SERVE_CONNECTIONS as u64,
        "connections `serve` keeps open at once; one more is closed at once",
    ),
    (
        "serve connections an address",
        SERVE_ADDRESS_CONNECTIONS as u64,
        "connections `serve` keeps open at once from one client address; one more is closed at once",
    ),
    (
        "serve header seconds",
        SERVE_HEADER_SECONDS,
        "seconds a connection has to send a request's whole headers, from its opening or its \
         previous answer; then it is closed (a half-sent request, an idle keep-alive connection)",
    ),
    (
        "serve events",
        SERVE_EVENT_CLIENTS as u64,
        "live views (`/g/NAME/events`) of one game at once (503 past it)",
    ),
    (
        "serve events an address",
        SERVE_ADDRESS_EVENTS as u64,
        "live views (of any game) open at once from one client address (429 past it)",
    ),
    (
        "serve odds in hand",
        SERVE_ODDS_IN_HAND as u64,
        "`odds` requests one client address may have in hand at once (429 past it)",
    ),
    (
        "serve odds a minute",
        SERVE_ODDS_PER_MINUTE as u64,
        "`odds` requests one client address may make in a minute (429 past it)",
    ),
    (
        "serve odds answer",
        SERVE_ODDS_ANSWER_BYTES as u64,
        "bytes in one `odds` answer of the server (413 past it, with the same message each time)",
    ),
    (
        "serve odds budget",
        SERVE_ODDS_BUDGET_BYTES as u64,
        "bytes all `odds` answers being made or sent may take at once; a request that finds no \
         room in 5 seconds is refused (503)",
    ),
    (
        "serve queue",
        SERVE_QUEUE as u64,
        "lines and `odds` requests waiting for one game (503 past it)",
    ),
    (
        "serve seconds",
        SERVE_SECONDS,
        "seconds a request other than a live view may take (408 past it)",
    ),
    (
        "serve kept answers",
        SERVE_KEPT_ANSWERS as u64,
        "answers to the umpire's lines kept by Idempotency-Key, a game; a retry with an older \
         key is applied again",
    ),
    (
        "serve window",
        SERVE_WINDOW as u64,
        "newest entries of a game the server keeps for its live views; a view asking for older \
         ones gets an event gap naming them (log.json lists them)",
    ),
    (
        "serve log page",
        SERVE_LOG_ENTRIES as u64,
        "entries in a page of /g/NAME/log.json without limit=",
    ),
    (
        "serve log page most",
        SERVE_LOG_MOST as u64,
        "entries in a page of /g/NAME/log.json, whatever limit= says",
    ),
    (
        "serve page",
        SERVE_PAGE_ENTRIES as u64,
        "resolutions a game's page shows when it is loaded, newest first",
    ),
];
