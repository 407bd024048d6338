//! The entries before the checkpoint the follower started from, read
//! once on a thread of their own while the server already answers: the
//! log's index of the whole journal (`log_pages.rs`), and the last of
//! them (as many as the feed's window keeps) resolved again, so a page
//! or a live view asking for them gets their stacks as if the server had
//! followed them. The state before those few is the journal's entries
//! applied as recorded (the checkpoint vouches for them): nothing before
//! them is resolved again, and only one entry at a time is in memory.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::feed::Feed;
use super::follow::{Spec, next};
use super::log_pages::LogIndex;
use crate::game::{Game, Journal, Next, Reader, Tally};
use crate::limits::SERVE_WINDOW;

/// Read the `checkpoint` entries before the follower's first on a thread,
/// then hand them to `feed` and mark `index` whole.
pub(crate) fn spawn(
    spec: Spec,
    checkpoint: u64,
    feed: Arc<Feed>,
    index: Arc<LogIndex>,
    stop: Arc<AtomicBool>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("earlier".into())
        .spawn(move || {
            let journal = Journal::path_for(&spec.path);
            let window = u64::try_from(SERVE_WINDOW).unwrap_or(u64::MAX);
            let skip = checkpoint.saturating_sub(window);
            let start = read_index(&spec, &journal, (checkpoint, skip), &index, &stop);
            index.note_ready();
            let events = match start {
                _ if checkpoint == 0 || stop.load(Ordering::Relaxed) => Ok(Vec::new()),
                Ok(Some(start)) => resolved_again(&spec, &journal, &start, checkpoint, &stop),
                Ok(None) => Err(format!("the journal ends before entry {skip}")),
                Err(e) => Err(e),
            };
            let events = events.unwrap_or_else(|e| {
                said(&journal, &e);
                Vec::new()
            });
            feed.fill_earlier(events);
        })
}

fn said(journal: &std::path::Path, e: &str) {
    let said = format!(
        "{}: the entries before the checkpoint could not be read: {e}",
        journal.display()
    );
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("error: {}\n", crate::text::visible_lines(&said)).as_bytes(),
    );
}

/// Index entries 1 to `checkpoint`: one pass, one entry at a time, each
/// outcome that stands for a side named by the game's armies. Returns the
/// chain after entry `skip`, where resolving again starts.
fn read_index(
    spec: &Spec,
    journal: &std::path::Path,
    (checkpoint, skip): (u64, u64),
    index: &LogIndex,
    stop: &AtomicBool,
) -> Result<Option<Tally>, String> {
    let (mut reader, _) = Reader::open(journal).map_err(|e| e.to_string())?;
    index.note_header(&reader.tally);
    // The game as it began: its armies name the sides (Prussia, aus-1).
    let namer = spec
        .session()
        .ok()
        .and_then(|s| Game::replaying_after(journal, &s.tables, &reader.tally).ok());
    let mut start = (skip == 0).then(|| reader.tally.clone());
    while reader.tally.entries < checkpoint {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        match reader.next_entry().map_err(|e| e.to_string())? {
            Next::Entry(entry, _) => {
                let named = namer.as_ref().and_then(|g| g.outcome_named(&entry));
                index.note(&entry, &reader.tally, named);
            }
            Next::End | Next::Torn(..) => {
                return Err(format!("the journal ends before entry {checkpoint}"));
            }
        }
        if reader.tally.entries == skip {
            start = Some(reader.tally.clone());
        }
    }
    Ok(start)
}

/// The entries after `start` up to `checkpoint` (as many as the window
/// keeps), resolved again after the ones before them are applied as
/// recorded.
fn resolved_again(
    spec: &Spec,
    journal: &std::path::Path,
    start: &Tally,
    checkpoint: u64,
    stop: &AtomicBool,
) -> Result<Vec<super::feed::Event>, String> {
    let session = spec.session()?;
    let game = Game::replaying_after(journal, &session.tables, start).map_err(|e| e.to_string())?;
    let mut session = session.with_game(game);
    let mut events = Vec::new();
    for _ in start.entries..checkpoint {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        match next(&mut session).map_err(|e| e.to_string())? {
            Some((_, event)) => events.push(event),
            None => break,
        }
    }
    Ok(events)
}
