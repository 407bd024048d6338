//! A game's own thread: it opens the game from its game file's checkpoint
//! (so starting does not grow with the journal; the entries before it
//! are read by `earlier.rs`), follows its journal while the REPL or a
//! batch writes it, and (with `--umpire`) resolves the umpire's lines
//! itself, in the same session: the answer the umpire's page gets is
//! the entry the feed shows, resolved once. Every entry another writer
//! appended is checked against the chain and resolved again, once,
//! before it is published: a half-written last line is left until it is
//! whole (or cut by the next writer), and an entry that does not resolve
//! again stops the view there, with the reason shown. Following alone,
//! the thread never takes the game's lock nor writes a thing.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::feed::{Event, Feed, Now};
use super::log_pages::LogIndex;
use crate::answer::Answer;
use crate::error::CommandError;
use crate::format::json::Json;
use crate::format::text::Text;
use crate::format::web;
use crate::format::{Format, Source, Style};
use crate::game::{Entry, Game, GameError, Journal};
use crate::meta::GameVerb;
use crate::session::{Recipe, Session};

/// What is done about the game around a line at a desk.
pub(crate) trait Around {
    /// Before the line: the game brought up to its newest state (an
    /// error refuses the line).
    fn before(&mut self, session: &mut Session) -> Result<(), CommandError>;

    /// The line made an entry of the game; its answer.
    fn made(&mut self, _session: &Session, _answer: &Answer) {}
}

/// The umpire's lines, as the game's thread takes them between its
/// looks at the journal: answer the next with the session, waiting for
/// one at most as long as given (`desk::Lines::answer_next`).
pub(crate) type Lines = Box<dyn FnMut(Duration, &mut Session, &mut dyn Around) + Send>;

/// How often the journal is looked at for new entries.
const POLL: Duration = Duration::from_millis(10);

/// What a thread needs to build a session of a game of its own: a
/// session from the recipe (its tables loaded on that thread; its dice
/// from a fresh seed, as the command line's without `--seed`), with the
/// game at `path`.
#[derive(Clone)]
pub(crate) struct Spec {
    pub(crate) recipe: Recipe,
    pub(crate) path: PathBuf,
}

impl Spec {
    /// A session with no game yet.
    pub(crate) fn session(&self) -> Result<Session, String> {
        self.recipe.build()
    }

    /// A session of the game, opened from its checkpoint (the entries
    /// after it are left for the session to read).
    pub(crate) fn with_game(&self) -> Result<Session, String> {
        let session = self.session()?;
        let game = Game::open(
            &self.path,
            Vec::new(),
            &session.tables,
            crate::game::Options::default(),
        )
        .map_err(|e| e.to_string())?;
        Ok(session.with_game(game))
    }
}

/// Start following a game: opened from its checkpoint (a game whose
/// journal is not there yet, its writer stopped between its two files, is
/// waited for), the number of entries before the checkpoint handed to
/// `earlier` (which starts the thread that reads them: `earlier.rs`), and
/// those after it published. `ready` is told once they are (or why they
/// cannot be). The umpire's `lines`, if any, are answered between looks.
pub(crate) fn spawn<E>(
    spec: Spec,
    feed: Arc<Feed>,
    index: Arc<LogIndex>,
    (stop, ready): (Arc<AtomicBool>, std::sync::mpsc::Sender<Result<(), String>>),
    earlier: E,
    mut lines: Option<Lines>,
) -> std::io::Result<std::thread::JoinHandle<()>>
where
    E: FnOnce(u64) -> std::io::Result<std::thread::JoinHandle<()>> + Send + 'static,
{
    std::thread::Builder::new()
        .name("follow".into())
        .spawn(move || {
            let (mut follower, checkpoint) = match Follower::open(&spec, &stop, &feed, &index) {
                Ok(opened) => opened,
                Err(e) => {
                    let _ = ready.send(Err(e));
                    return;
                }
            };
            feed.expect_earlier(checkpoint);
            let earlier = match earlier(checkpoint) {
                Ok(thread) => thread,
                Err(e) => {
                    let _ = ready.send(Err(e.to_string()));
                    return;
                }
            };
            follower.catch_up();
            let _ = ready.send(Ok(()));
            while !stop.load(Ordering::Relaxed) {
                match &mut lines {
                    // A line waited for as long as a look waits.
                    Some(lines) => lines(POLL, &mut follower.session, &mut follower.publish),
                    None => std::thread::sleep(POLL),
                }
                follower.catch_up();
            }
            // The session's game is closed here (its checkpoint written,
            // when the umpire's lines wrote to it).
            drop(follower);
            let _ = earlier.join();
        })
}

pub(crate) struct Follower {
    session: Session,
    publish: Publish,
}

/// Where a game's thread publishes its entries, and how far it got.
pub(crate) struct Publish {
    feed: Arc<Feed>,
    index: Arc<LogIndex>,
    journal: PathBuf,
    /// Why following stopped, if it did.
    stopped: Option<String>,
}

impl Follower {
    fn open(
        spec: &Spec,
        stop: &AtomicBool,
        feed: &Arc<Feed>,
        index: &Arc<LogIndex>,
    ) -> Result<(Follower, u64), String> {
        let journal = Journal::path_for(&spec.path);
        // A game whose writer was stopped between its two files has no
        // journal yet: it has no entries, and the next writer makes it.
        while !journal.exists() {
            if stop.load(Ordering::Relaxed) {
                return Err("stopped".into());
            }
            std::thread::sleep(POLL * 10);
        }
        let session = spec.with_game()?;
        let checkpoint = session.game.as_ref().map_or(0, |g| g.tally().entries);
        Ok((
            Follower {
                session,
                publish: Publish {
                    feed: feed.clone(),
                    index: index.clone(),
                    journal,
                    stopped: None,
                },
            },
            checkpoint,
        ))
    }

    /// Publish every entry written since the last look, then what the
    /// game is now.
    fn catch_up(&mut self) {
        self.publish.catch_up(&mut self.session);
    }
}

impl Publish {
    /// Publish every entry another writer appended since the last look,
    /// each resolved again, then what the game is now.
    fn catch_up(&mut self, session: &mut Session) {
        if self.stopped.is_some() {
            return;
        }
        let mut read = 0;
        loop {
            match next(session) {
                Ok(Some((entry, event))) => {
                    self.note(session, &entry, event);
                    read += 1;
                }
                Ok(None) => break,
                Err(e) => {
                    let said = format!("{}: {e}; the view stops here", self.journal.display());
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        format!("error: {}\n", crate::text::visible_lines(&said)).as_bytes(),
                    );
                    self.stopped = Some(said);
                    read += 1;
                    break;
                }
            }
        }
        if read > 0 || self.feed.now().units_json.is_empty() {
            self.feed.set_now(now(session, self.stopped.clone()));
        }
    }

    /// An entry applied: in the log's index, and to the clients.
    fn note(&self, session: &Session, entry: &Entry, event: Event) {
        if let Some(game) = &session.game {
            self.index
                .note(entry, game.tally(), game.outcome_named(entry));
        }
        self.feed.push(event);
    }
}

impl Around for Publish {
    /// The umpire's line is resolved under the game's lock, so that what
    /// other writers appended is published (resolved again, once) before
    /// it, and nothing can be appended between.
    fn before(&mut self, session: &mut Session) -> Result<(), CommandError> {
        if let Some(game) = &mut session.game {
            game.begin_write().map_err(|e| match e {
                crate::game::GameError::Locked(_) => CommandError::Busy(format!("game: {e}")),
                e => CommandError::Option(format!("game: {e}")),
            })?;
        }
        self.catch_up(session);
        if let Some(why) = &self.stopped {
            if let Some(game) = &mut session.game {
                game.end_line();
            }
            return Err(CommandError::Option(why.clone()));
        }
        Ok(())
    }

    /// The entry the umpire's line made, with the answer the umpire got:
    /// published as it is, never resolved again.
    fn made(&mut self, session: &Session, answer: &Answer) {
        let Some(entry) = session.game.as_ref().and_then(|g| g.last_written()) else {
            return;
        };
        let entry = entry.clone();
        let event = event(&entry, Some(answer));
        self.note(session, &entry, event);
        self.feed.set_now(now(session, self.stopped.clone()));
    }
}

/// What the game is now, as the page shows it besides the entries.
fn now(session: &Session, stopped: Option<String>) -> Now {
    let Some(game) = session.game.as_ref() else {
        return Now::default();
    };
    let roster = game.roster();
    let source = Source {
        line: 1,
        input: "units",
    };
    let units_json = json_of(&Answer::Report(Box::new(roster.clone())), source);
    Now {
        entries: game.tally().entries,
        turn: game.turn,
        units_json: units_json.into(),
        roster: Some(Arc::new(roster)),
        stopped,
    }
}

/// The next entry of a session's game, resolved again, and as clients
/// see it.
pub(crate) fn next(session: &mut Session) -> Result<Option<(Entry, Event)>, GameError> {
    let Some(game) = session.game.as_mut() else {
        return Ok(None);
    };
    let Some(entry) = game.next_pending()? else {
        // Notes say what a writer does; a reader has nothing to add.
        game.notes.clear();
        return Ok(None);
    };
    let answer = session.resolve_again(&entry)?;
    let event = event(&entry, answer.as_ref());
    Ok(Some((entry, event)))
}

/// An entry and its answer as clients see it.
fn event(entry: &Entry, answer: Option<&Answer>) -> Event {
    let line = match (&entry.line, entry.undo) {
        (_, Some(_)) => GameVerb::Undo.name().to_string(),
        (Some(line), None) => line.clone(),
        (None, None) => String::new(),
    };
    let source = Source {
        line: usize::try_from(entry.entry).unwrap_or(usize::MAX),
        input: &line,
    };
    let (json, text, html) = match answer {
        Some(answer) => written(answer, source),
        None => (
            format!("{{\"type\":\"entry\",\"entry\":{}}}", entry.entry),
            String::new(),
            String::new(),
        ),
    };
    let place = web::Place {
        number: Some(entry.entry),
        turn: Some(entry.turn),
        undone: false,
    };
    let view = serde_json::json!({
        "turn": entry.turn,
        "line": line,
        "text": text,
        "html": web::entry(place, &line, &html).into_string(),
        "undoes": entry.undo,
    })
    .to_string();
    Event {
        id: entry.entry,
        turn: entry.turn,
        line,
        json,
        html,
        view,
    }
}

/// An answer as `--json` writes it (one line, no newline), as the text
/// output writes it into a pipe (plain, each row whole), and as the page
/// shows it (`format::web`, laid out for a phone).
pub(crate) fn written(answer: &Answer, source: Source) -> (String, String, String) {
    let mut text = Vec::new();
    let _ = Text {
        style: Style::plain(false),
    }
    .write(answer, source, &mut text);
    let text = String::from_utf8_lossy(&text).trim_end().to_string();
    let html = web::answer(answer).into_string();
    (json_of(answer, source), text, html)
}

/// An answer as `--json` writes it, without the newline.
pub(crate) fn json_of(answer: &Answer, source: Source) -> String {
    let mut out = Vec::new();
    let _ = Json.write(answer, source, &mut out);
    let mut text = String::from_utf8_lossy(&out).into_owned();
    while text.ends_with('\n') {
        text.pop();
    }
    text
}

/// Whether a path names a game there is (a game file or its journal):
/// serving never creates one.
pub(crate) fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok() || Journal::path_for(path).symlink_metadata().is_ok()
}
