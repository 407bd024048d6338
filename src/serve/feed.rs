//! What a game's follower has read, for every client: the newest journal
//! entries once resolved again, each as its JSON line and its text, in a
//! window of the last [`SERVE_WINDOW`] entries. Clients read it by entry
//! number, each at its own pace, so a slow one holds up nobody: there is
//! no queue to fill. A client that falls further behind than the window
//! (or asks for older entries) is told which entries it missed (a gap)
//! and goes on from the oldest kept: memory does not grow with the game.
//!
//! The server starts from the game file's checkpoint, so the entries
//! before it come later, from `earlier.rs`: until they are in, a client
//! asking for them waits ([`Read::Wait`]).

use std::collections::VecDeque;
use std::sync::{Arc, RwLock};

use tokio::sync::watch;

use crate::limits::SERVE_WINDOW;

/// One journal entry as the clients see it.
#[derive(Debug)]
pub(crate) struct Event {
    /// The entry's number in the journal (the SSE `id:`).
    pub(crate) id: u64,
    /// The turn the entry was made in.
    pub(crate) turn: u32,
    /// The line as typed (`undo` for an undo).
    pub(crate) line: String,
    /// The answer as `--json` writes it: one line, no newline.
    pub(crate) json: String,
    /// The answer as the text output writes it: the whole stack.
    pub(crate) text: String,
}

/// What the page shows besides the entries: the roster, the turn.
#[derive(Debug, Default, Clone)]
pub(crate) struct Now {
    /// The entries applied so far.
    pub(crate) entries: u64,
    pub(crate) turn: u32,
    /// `units --json`; the roster as typed data for the page.
    pub(crate) units_json: Arc<str>,
    pub(crate) roster: Option<Arc<crate::answer::report::Report>>,
    /// Why following stopped, if it did (a broken chain, an entry that
    /// does not resolve again): shown, and nothing after it is.
    pub(crate) stopped: Option<String>,
}

// A report holds no `Rc`: it is plain data, and may cross threads.
// (Checked by the compiler: `Report: Send + Sync` below.)
const _: fn() = || {
    fn both<T: Send + Sync>() {}
    both::<crate::answer::report::Report>();
};

/// The entries kept, oldest first, their numbers consecutive.
struct Window {
    events: VecDeque<Arc<Event>>,
    /// Entries up to this number are still being read (`earlier.rs`).
    earlier: Option<u64>,
}

/// What a client reading after an entry finds.
pub(crate) enum Read {
    /// Entries it wants are still being read: wait for the feed to change.
    Wait,
    /// The entries after the one it named, up to a batch; `gap` the
    /// first and last entry it missed, older than the window.
    Events {
        gap: Option<(u64, u64)>,
        events: Vec<Arc<Event>>,
    },
}

/// A game's events and its state now, shared by its follower (the one
/// writer of new entries), `earlier.rs`, and every client.
pub(crate) struct Feed {
    window: RwLock<Window>,
    now: RwLock<Now>,
    /// Changed each time the window is: a client waits on it for more.
    changes: watch::Sender<u64>,
}

impl Feed {
    pub(crate) fn new() -> Feed {
        Feed {
            window: RwLock::new(Window {
                events: VecDeque::new(),
                earlier: None,
            }),
            now: RwLock::new(Now::default()),
            changes: watch::Sender::new(0),
        }
    }

    /// Entries up to `checkpoint` are to come from [`Feed::fill_earlier`].
    pub(crate) fn expect_earlier(&self, checkpoint: u64) {
        let mut w = self.window.write().unwrap_or_else(|e| e.into_inner());
        w.earlier = (checkpoint > 0).then_some(checkpoint);
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// Add the newest entry (the follower's): every waiting client wakes.
    pub(crate) fn push(&self, event: Event) {
        {
            let mut w = self.window.write().unwrap_or_else(|e| e.into_inner());
            w.events.push_back(Arc::new(event));
            while w.events.len() > SERVE_WINDOW {
                w.events.pop_front();
            }
        }
        self.changed();
    }

    /// The entries before the checkpoint the follower started from, read
    /// at last (oldest first; none if they could not be).
    pub(crate) fn fill_earlier(&self, earlier: Vec<Event>) {
        {
            let mut w = self.window.write().unwrap_or_else(|e| e.into_inner());
            let first = w.events.front().map(|e| e.id);
            for event in earlier.into_iter().rev() {
                if first.is_none_or(|f| event.id < f)
                    && w.events.front().is_none_or(|e| event.id < e.id)
                {
                    w.events.push_front(Arc::new(event));
                }
            }
            while w.events.len() > SERVE_WINDOW {
                w.events.pop_front();
            }
            w.earlier = None;
        }
        self.changed();
    }

    /// Whether entries before the checkpoint are still being read.
    pub(crate) fn reading_earlier(&self) -> bool {
        self.window
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .earlier
            .is_some()
    }

    pub(crate) fn set_now(&self, now: Now) {
        *self.now.write().unwrap_or_else(|e| e.into_inner()) = now;
    }

    pub(crate) fn now(&self) -> Now {
        self.now.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Up to `max` entries after entry `after`.
    pub(crate) fn after(&self, after: u64, max: usize) -> Read {
        let w = self.window.read().unwrap_or_else(|e| e.into_inner());
        if w.earlier.is_some_and(|n| after < n) {
            return Read::Wait;
        }
        let Some(first) = w.events.front().map(|e| e.id) else {
            return Read::Events {
                gap: None,
                events: Vec::new(),
            };
        };
        let gap = (after.saturating_add(1) < first).then(|| (after.saturating_add(1), first - 1));
        let skip = w.events.partition_point(|e| e.id <= after);
        Read::Events {
            gap,
            events: w.events.iter().skip(skip).take(max).cloned().collect(),
        }
    }

    /// The last `n` entries, newest first.
    pub(crate) fn newest(&self, n: usize) -> Vec<Arc<Event>> {
        let w = self.window.read().unwrap_or_else(|e| e.into_inner());
        w.events.iter().rev().take(n).cloned().collect()
    }

    /// A receiver that wakes when the window changes.
    pub(crate) fn watch(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(id: u64) -> Event {
        Event {
            id,
            turn: 1,
            line: format!("line {id}"),
            json: String::new(),
            text: String::new(),
        }
    }

    fn ids(read: Read) -> (Option<(u64, u64)>, Vec<u64>) {
        match read {
            Read::Wait => panic!("waits"),
            Read::Events { gap, events } => (gap, events.iter().map(|e| e.id).collect()),
        }
    }

    #[test]
    fn entries_before_the_checkpoint_are_waited_for_then_read() {
        let feed = Feed::new();
        feed.expect_earlier(3);
        feed.push(event(4));
        assert!(matches!(feed.after(0, 10), Read::Wait));
        assert!(matches!(feed.after(2, 10), Read::Wait));
        assert_eq!(ids(feed.after(3, 10)), (None, vec![4]));
        feed.fill_earlier(vec![event(1), event(2), event(3)]);
        assert!(!feed.reading_earlier());
        assert_eq!(ids(feed.after(0, 10)), (None, vec![1, 2, 3, 4]));
        assert_eq!(ids(feed.after(2, 1)), (None, vec![3]));
    }

    #[test]
    fn the_window_keeps_the_newest_and_says_what_a_client_missed() {
        let feed = Feed::new();
        let last = SERVE_WINDOW as u64 + 10;
        for id in 1..=last {
            feed.push(event(id));
        }
        let (gap, got) = ids(feed.after(0, 2));
        assert_eq!(gap, Some((1, 10)));
        assert_eq!(got, vec![11, 12]);
        assert_eq!(ids(feed.after(last, 2)), (None, vec![]));
        assert_eq!(
            feed.newest(2).iter().map(|e| e.id).collect::<Vec<_>>(),
            vec![last, last - 1]
        );
    }
}
