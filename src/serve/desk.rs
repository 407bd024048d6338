//! A desk: lines from the clients, taken one at a time by a thread with a
//! session of the game. The umpire's lines are taken by the game's own
//! thread (`follow.rs`), which resolves each as any writer of the game
//! does (under the game's lock, against its newest state, recorded in the
//! journal) and publishes the entry it makes with the answer the umpire
//! got: a line is resolved once. The odds desk answers `odds LINE` and
//! never writes a thing, on as many workers as [`ODDS_WORKERS`], each
//! with its own copy of the game, brought up to the entries the game's
//! thread has resolved by applying them as the journal records them
//! (never resolving one again), and taking lines from a queue shared
//! fairly between client addresses (`fair.rs`). A sweep too large for one
//! table is sent to its client as it is counted (`stream.rs`); any other
//! odds answer larger than [`SERVE_ODDS_ANSWER_BYTES`] is refused
//! (`size.rs`).

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::oneshot;

use super::fair::{Fair, Full};
use super::feed::Feed;
use super::follow::{Around, Spec, json_of};
use super::size;
use crate::answer::Answer;
use crate::answer::report::Report;
use crate::command::Mode;
use crate::error::{CommandError, ErrorKind};
use crate::format::json::{Json, json_error};
use crate::format::{Format, Source, web};
use crate::limits::{SERVE_ODDS_ANSWER_BYTES, SERVE_ODDS_IN_HAND, SERVE_QUEUE};
use crate::meta::{GameVerb, MetaVerb};
use crate::session::Session;

/// What a desk does with its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The umpire's lines: they change the game.
    Lines,
    /// `odds LINE`: never touches the game.
    Odds,
}

/// A desk's answer: whether the line was resolved, its JSON, and (when
/// asked for) the line and its answer as the page shows them: an
/// `article.entry` (`format::web`), numbered when the line made an entry.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: Status,
    pub(crate) json: String,
    pub(crate) html: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Answered,
    /// The line was refused (its error, as `--json` writes one).
    Refused,
    /// Another writer holds the game.
    Busy,
    /// The desk is gone (its game could not be opened).
    Closed,
    /// The answer is larger than an odds answer may be (its error).
    TooLarge,
}

/// Workers of a game's odds desk: one address's long odds keep one busy
/// at most, and the others answer everyone else.
pub(crate) const ODDS_WORKERS: usize = 2;

struct Job {
    line: String,
    /// Whether the answer is wanted as the page shows it too.
    html: bool,
    reply: oneshot::Sender<Reply>,
    /// Where an odds answer too large for one table is sent as it is
    /// counted (`stream.rs`).
    stream: Option<super::stream::Sender>,
}

/// Where lines are handed to a desk.
#[derive(Clone)]
pub(crate) struct Desk {
    jobs: Arc<Fair<Job>>,
}

/// The umpire's lines as the game's own thread takes them.
pub(crate) struct Lines(Arc<Fair<Job>>);

impl Desk {
    /// A desk for the umpire's lines, which the game's own thread takes
    /// ([`Lines::answer_next`]).
    pub(crate) fn for_lines() -> (Desk, Lines) {
        let jobs = Arc::new(Fair::new(SERVE_QUEUE, SERVE_QUEUE));
        (Desk { jobs: jobs.clone() }, Lines(jobs))
    }

    /// Open the odds desk on threads of its own ([`ODDS_WORKERS`]), each
    /// following the game as far as `feed` says its own thread has
    /// resolved it; they end when `stop` is set (join them).
    pub(crate) fn open_odds(
        spec: Spec,
        feed: Arc<Feed>,
        stop: Arc<AtomicBool>,
    ) -> std::io::Result<(Desk, Vec<std::thread::JoinHandle<()>>)> {
        let jobs = Arc::new(Fair::new(SERVE_QUEUE, SERVE_ODDS_IN_HAND));
        let mut threads = Vec::new();
        for _ in 0..ODDS_WORKERS {
            let (spec, jobs, stop) = (spec.clone(), jobs.clone(), stop.clone());
            let mut verified = Verified(feed.clone());
            threads.push(
                std::thread::Builder::new()
                    .name("odds".into())
                    .spawn(move || work(&spec, &jobs, &stop, &mut verified))?,
            );
        }
        Ok((Desk { jobs }, threads))
    }

    /// Hand a line of the client at `ip` over, its answer wanted as the
    /// page shows it too when `html`; which queue is full if it cannot
    /// wait.
    pub(crate) fn take(
        &self,
        ip: IpAddr,
        line: String,
        html: bool,
        stream: Option<super::stream::Sender>,
    ) -> Result<oneshot::Receiver<Reply>, Full> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            line,
            html,
            reply,
            stream,
        };
        match self.jobs.push(ip, job) {
            Ok(()) => Ok(answer),
            Err((full, _)) => Err(full),
        }
    }
}

impl Lines {
    /// Answer the next of the umpire's lines with `session`, waiting for
    /// one at most `wait`.
    pub(crate) fn answer_next(
        &self,
        wait: Duration,
        session: &mut Session,
        around: &mut dyn Around,
    ) {
        let Some((ip, job)) = self.0.next(wait) else {
            return;
        };
        let reply = answer(session, Kind::Lines, &job.line, job.html, around, None);
        self.0.done(ip);
        let _ = job.reply.send(reply);
    }
}

/// An odds worker's copy of the game follows the entries its game's
/// thread has resolved, applying them as the journal records them.
struct Verified(Arc<Feed>);

impl Around for Verified {
    fn before(&mut self, session: &mut Session) -> Result<(), CommandError> {
        let upto = self.0.now().entries;
        if let Some(game) = &mut session.game {
            game.apply_resolved_elsewhere(upto)
                .map_err(|e| CommandError::refused(ErrorKind::GameFile, format!("game: {e}")))?;
        }
        Ok(())
    }
}

fn work(spec: &Spec, queue: &Fair<Job>, stop: &AtomicBool, around: &mut Verified) {
    let mut session = match spec.with_game() {
        Ok(mut s) => {
            // The copy reads the journal only as `Verified` brings it on.
            if let Some(game) = &mut s.game {
                game.follow_elsewhere();
            }
            Some(s)
        }
        Err(e) => {
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!(
                    "error: {}: {}\n",
                    spec.path.display(),
                    crate::text::visible_lines(&e)
                )
                .as_bytes(),
            );
            None
        }
    };
    while !stop.load(Ordering::Relaxed) {
        let Some((ip, mut job)) = queue.next(Duration::from_millis(100)) else {
            continue;
        };
        // A client gone before its turn costs nothing.
        let reply = if job.reply.is_closed() {
            None
        } else {
            Some(match &mut session {
                Some(session) => answer(
                    session,
                    Kind::Odds,
                    &job.line,
                    job.html,
                    around,
                    job.stream.take(),
                ),
                None => Reply {
                    status: Status::Closed,
                    json: String::new(),
                    html: String::new(),
                },
            })
        };
        queue.done(ip);
        if let Some(reply) = reply {
            let _ = job.reply.send(reply);
        }
    }
}

/// One line at a desk: resolved, or refused with the reason; as the page
/// shows it too when `html`.
fn answer(
    session: &mut Session,
    kind: Kind,
    line: &str,
    html: bool,
    around: &mut dyn Around,
    stream: Option<super::stream::Sender>,
) -> Reply {
    let line = match kind {
        Kind::Odds => format!("odds {line}"),
        Kind::Lines => line.to_string(),
    };
    let reply = resolve(session, (kind, around), &line, html, stream);
    if let Some(game) = &mut session.game {
        game.notes.clear();
    }
    let _ = session.take_notes();
    reply
}

/// A line refused: its error as `--json` writes one and as the page shows
/// it (when `html`), the words at fault marked.
fn refused(e: &CommandError, line: &str, html: bool) -> Reply {
    let message = e.to_string();
    Reply {
        status: if matches!(e, CommandError::Busy(_)) {
            Status::Busy
        } else {
            Status::Refused
        },
        json: json_error(
            &message,
            e.kind(),
            Source {
                line: 1,
                input: line,
            },
            e.column(line),
        )
        .to_string(),
        html: if html {
            let at = e.span().map(|s| s.start..s.end);
            shown(
                web::Place::default(),
                line,
                &web::error(&message, line, at).into_string(),
            )
        } else {
            String::new()
        },
    }
}

/// A line and its answer (a fragment) as an entry of the page.
fn shown(place: web::Place, line: &str, answer: &str) -> String {
    web::entry(place, line, answer).into_string()
}

fn resolve(
    session: &mut Session,
    (kind, around): (Kind, &mut dyn Around),
    line: &str,
    html: bool,
    stream: Option<super::stream::Sender>,
) -> Reply {
    let refuse = |kind, why: String| refused(&CommandError::refused(kind, why), line, html);
    if line.contains(['\n', '\r']) {
        return refuse(
            ErrorKind::BadRequest,
            "a line is one line: it holds no line break".into(),
        );
    }
    let parsed = session.parse(line);
    if let Ok(Some(command)) = &parsed {
        let meta = MetaVerb::named(&command.verb);
        if kind == Kind::Odds && command.mode != Mode::Odds {
            return refuse(
                ErrorKind::WrongMode,
                "only `odds LINE` is answered here: the line must be one `odds` asks".into(),
            );
        }
        if matches!(meta, Some(MetaVerb::Game(GameVerb::Save) | MetaVerb::Load)) {
            return refuse(
                ErrorKind::WrongMode,
                format!(
                    "`{}` reads or writes a file on the server: type it at the server's own prompt",
                    command.verb
                ),
            );
        }
    }
    // What other writers recorded since this desk last looked is read
    // first, so that an entry this line makes is told from theirs.
    if let Err(e) = around.before(session) {
        return refused(&e, line, html);
    }
    let before = session.game.as_ref().map_or(0, |g| g.tally().entries);
    let result = match stream.filter(|_| kind == Kind::Odds) {
        Some(to) => match super::stream::run(session, line, parsed, to, html) {
            super::stream::Ran::Whole(result) => result,
            // The client has had it.
            super::stream::Ran::Sent => return Reply::sent(),
        },
        None => session.run(line, parsed, &|k| {
            Json.accepts(k, line).map_err(CommandError::Option)
        }),
    };
    let answer = match result {
        Ok(Some(answer)) => answer,
        Ok(None) => {
            return refuse(
                ErrorKind::MissingWord,
                "nothing to resolve: the line is blank or a comment".into(),
            );
        }
        Err(e) => return refused(&e, line, html),
    };
    if kind == Kind::Odds && size::at_least(&answer) > SERVE_ODDS_ANSWER_BYTES {
        return too_large(line, html);
    }
    // An entry made is answered as the live view shows it.
    let (after, turn) = session
        .game
        .as_ref()
        .map_or((0, 1), |g| (g.tally().entries, g.turn));
    let records = match &answer {
        Answer::Resolution(_) => true,
        Answer::Report(r) => matches!(**r, Report::NextTurn { .. } | Report::Undo { .. }),
        _ => false,
    };
    let made = (kind == Kind::Lines && records && after > before).then_some(after);
    if made.is_some() {
        around.made(session, &answer);
    }
    let source = Source {
        line: usize::try_from(made.unwrap_or(1)).unwrap_or(usize::MAX),
        input: line,
    };
    let json = json_of(&answer, source);
    let html = if html {
        let place = web::Place {
            number: made,
            turn: made.map(|_| turn),
            undone: false,
        };
        shown(place, line, &web::answer(&answer).into_string())
    } else {
        String::new()
    };
    if kind == Kind::Odds && json.len().max(html.len()) > SERVE_ODDS_ANSWER_BYTES {
        return too_large(line, html.is_empty());
    }
    Reply {
        status: Status::Answered,
        json,
        html,
    }
}

impl Reply {
    /// An answer sent as it was counted: nothing is left to send.
    fn sent() -> Reply {
        Reply {
            status: Status::Answered,
            json: String::new(),
            html: String::new(),
        }
    }
}

/// An odds answer too large to send, as `--json` writes an error (and as
/// the page shows one, when `html`).
fn too_large(line: &str, html: bool) -> Reply {
    let mut reply = refused(
        &CommandError::refused(ErrorKind::OverLimit, size::too_large_message()),
        line,
        html,
    );
    reply.status = Status::TooLarge;
    reply
}
