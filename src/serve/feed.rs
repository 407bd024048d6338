//! What a game's follower has read, for every client: each journal entry
//! once resolved again, as its JSON line and its text, in an append-only
//! list. Clients read it by index, each at its own pace, so a slow one
//! holds up nobody: there is no queue to fill and nothing is dropped.

use std::sync::{Arc, RwLock};

use tokio::sync::watch;

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

/// A game's events and its state now, shared by its follower (the one
/// writer) and every client.
pub(crate) struct Feed {
    events: RwLock<Vec<Arc<Event>>>,
    now: RwLock<Now>,
    /// The number of events so far: a client waits on it for more.
    count: watch::Sender<usize>,
}

impl Feed {
    pub(crate) fn new() -> Feed {
        Feed {
            events: RwLock::new(Vec::new()),
            now: RwLock::new(Now::default()),
            count: watch::Sender::new(0),
        }
    }

    /// Add an event (the follower's only): every waiting client wakes.
    pub(crate) fn push(&self, event: Event) {
        let len = {
            let mut events = self.events.write().unwrap_or_else(|e| e.into_inner());
            events.push(Arc::new(event));
            events.len()
        };
        self.count.send_replace(len);
    }

    pub(crate) fn set_now(&self, now: Now) {
        *self.now.write().unwrap_or_else(|e| e.into_inner()) = now;
    }

    pub(crate) fn now(&self) -> Now {
        self.now.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Up to `max` events from index `from` on.
    pub(crate) fn from(&self, from: usize, max: usize) -> Vec<Arc<Event>> {
        let events = self.events.read().unwrap_or_else(|e| e.into_inner());
        events.iter().skip(from).take(max).cloned().collect()
    }

    /// The last `n` events, newest first.
    pub(crate) fn newest(&self, n: usize) -> Vec<Arc<Event>> {
        let events = self.events.read().unwrap_or_else(|e| e.into_inner());
        events.iter().rev().take(n).cloned().collect()
    }

    /// The index of the first event after entry `id`.
    pub(crate) fn after(&self, id: u64) -> usize {
        let events = self.events.read().unwrap_or_else(|e| e.into_inner());
        events.partition_point(|e| e.id <= id)
    }

    pub(crate) fn len(&self) -> usize {
        self.count.borrow().to_owned()
    }

    /// A receiver that wakes when events are added.
    pub(crate) fn watch(&self) -> watch::Receiver<usize> {
        self.count.subscribe()
    }
}
