//! A desk: a thread with a session of one game of its own, taking lines
//! from the clients one at a time. The umpire's desk resolves a line as
//! any writer of the game does (under the game's lock, against its
//! newest state, recorded in the journal: the follower then publishes
//! it as it does any writer's); the odds desk answers `odds LINE` and
//! never writes a thing.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::time::Duration;

use tokio::sync::oneshot;

use super::follow::{Spec, json_of};
use crate::command::Mode;
use crate::error::CommandError;
use crate::format::json::{Json, json_error};
use crate::format::{Format, Source};
use crate::game::Game;
use crate::meta::{GameVerb, MetaVerb};
use crate::session::Session;

/// What a desk does with its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The umpire's lines: they change the game.
    Lines,
    /// `odds LINE`: never touches the game.
    Odds,
}

/// A desk's answer: whether the line was resolved, and its JSON.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: Status,
    pub(crate) json: String,
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
}

struct Job {
    line: String,
    reply: oneshot::Sender<Reply>,
}

/// Where lines are handed to a desk.
#[derive(Clone)]
pub(crate) struct Desk {
    jobs: SyncSender<Job>,
}

impl Desk {
    /// Open a desk on its own thread; it ends when `stop` is set (join
    /// it: its game is closed, and its checkpoint written, as it ends).
    pub(crate) fn open(
        spec: Spec,
        kind: Kind,
        stop: Arc<AtomicBool>,
    ) -> std::io::Result<(Desk, std::thread::JoinHandle<()>)> {
        let (jobs, queue) = sync_channel(crate::limits::SERVE_QUEUE);
        let thread = std::thread::Builder::new()
            .name("desk".into())
            .spawn(move || work(&spec, kind, &queue, &stop))?;
        Ok((Desk { jobs }, thread))
    }

    /// Hand a line over; `None` when the desk's queue is full.
    pub(crate) fn take(&self, line: String) -> Option<oneshot::Receiver<Reply>> {
        let (reply, answer) = oneshot::channel();
        match self.jobs.try_send(Job { line, reply }) {
            Ok(()) => Some(answer),
            Err(TrySendError::Full(_)) => None,
            Err(TrySendError::Disconnected(job)) => {
                let _ = job.reply.send(Reply {
                    status: Status::Closed,
                    json: String::new(),
                });
                Some(answer)
            }
        }
    }
}

fn work(spec: &Spec, kind: Kind, queue: &Receiver<Job>, stop: &AtomicBool) {
    let mut session = match open(spec) {
        Ok(s) => Some(s),
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
        let Ok(job) = queue.recv_timeout(Duration::from_millis(100)) else {
            continue;
        };
        let reply = match &mut session {
            Some(session) => answer(session, kind, &job.line),
            None => Reply {
                status: Status::Closed,
                json: String::new(),
            },
        };
        let _ = job.reply.send(reply);
    }
    // The session's game is closed here (its checkpoint written, when
    // this desk wrote to it).
    drop(session);
}

fn open(spec: &Spec) -> Result<Session, String> {
    let session = spec.session()?;
    let game = Game::open(
        &spec.path,
        Vec::new(),
        &session.tables,
        crate::game::Options::default(),
    )
    .map_err(|e| e.to_string())?;
    Ok(session.with_game(game))
}

/// One line at a desk: resolved, or refused with the reason.
fn answer(session: &mut Session, kind: Kind, line: &str) -> Reply {
    let line = match kind {
        Kind::Odds => format!("odds {line}"),
        Kind::Lines => line.to_string(),
    };
    let refused = |e: &CommandError| Reply {
        status: Status::Refused,
        json: json_error(
            &e.to_string(),
            Source {
                line: 1,
                input: &line,
            },
            e.column(&line),
        )
        .to_string(),
    };
    if line.contains(['\n', '\r']) {
        return refused(&CommandError::Option(
            "a line is one line: it holds no line break".into(),
        ));
    }
    let parsed = session.parse(&line);
    if let Ok(Some(command)) = &parsed {
        let meta = MetaVerb::named(&command.verb);
        if kind == Kind::Odds && command.mode != Mode::Odds {
            return refused(&CommandError::Option(
                "only `odds LINE` is answered here: the line must be one `odds` asks".into(),
            ));
        }
        if matches!(meta, Some(MetaVerb::Game(GameVerb::Save) | MetaVerb::Load)) {
            return refused(&CommandError::Option(format!(
                "`{}` reads or writes a file on the server: type it at the server's own prompt",
                command.verb
            )));
        }
    }
    let before = session.game.as_ref().map_or(0, |g| g.tally().entries);
    let result = session.run(&line, parsed, &|k| {
        Json.accepts(k, &line).map_err(CommandError::Option)
    });
    if let Some(game) = &mut session.game {
        game.notes.clear();
    }
    let _ = session.take_notes();
    match result {
        Ok(Some(answer)) => {
            // An entry made is answered as the live view shows it.
            let after = session.game.as_ref().map_or(0, |g| g.tally().entries);
            let number = if after > before { after } else { 1 };
            let source = Source {
                line: usize::try_from(number).unwrap_or(usize::MAX),
                input: &line,
            };
            Reply {
                status: Status::Answered,
                json: json_of(&answer, source),
            }
        }
        Ok(None) => Reply {
            status: Status::Refused,
            json: json_error(
                "nothing to resolve: the line is blank or a comment",
                Source {
                    line: 1,
                    input: &line,
                },
                None,
            )
            .to_string(),
        },
        Err(e) => {
            let mut reply = refused(&e);
            if matches!(e, CommandError::Busy(_)) {
                reply.status = Status::Busy;
            }
            reply
        }
    }
}
