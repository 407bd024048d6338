//! `GET /g/NAME/events`: the journal as Server-Sent Events. Each client
//! reads the game's feed after the last entry it was sent, so one that
//! stops reading only stops its own stream; a client that says
//! `Last-Event-ID: N` gets every entry after N first, as far as the
//! feed's window goes: entries older than it are named in one event
//! `gap` (its id the last entry missed, its data `{"type":"gap","from",
//! "to","note"}`), and `log.json` lists them.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::response::sse::{Event as Sse, KeepAlive};
use futures_util::Stream;
use tokio::sync::watch;

use super::accept::Held;
use super::feed::{Event, Feed, Read};

/// Events taken from the feed at a time.
const BATCH: usize = 256;

/// A place among a game's live views, given back when its stream ends.
pub(crate) struct Place(Arc<AtomicUsize>);

impl Place {
    /// A place, if fewer than `max` are taken.
    pub(crate) fn take(taken: &Arc<AtomicUsize>, max: usize) -> Option<Place> {
        taken
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < max).then_some(n + 1)
            })
            .ok()
            .map(|_| Place(taken.clone()))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

struct Reading {
    feed: Arc<Feed>,
    /// The last entry sent (0 before the first).
    after: u64,
    waiting: VecDeque<Sse>,
    more: watch::Receiver<u64>,
    closing: watch::Receiver<bool>,
    with_text: bool,
    _place: Place,
    /// Its place among its client address's live views.
    _address: Held,
}

/// The stream of one client, from the entry after `after`.
pub(crate) fn stream(
    feed: Arc<Feed>,
    after: u64,
    with_text: bool,
    closing: watch::Receiver<bool>,
    place: Place,
    address: Held,
) -> impl Stream<Item = Result<Sse, Infallible>> {
    let more = feed.watch();
    let reading = Reading {
        feed,
        after,
        waiting: VecDeque::new(),
        more,
        closing,
        with_text,
        _place: place,
        _address: address,
    };
    futures_util::stream::unfold(reading, |mut r| async move {
        loop {
            if let Some(event) = r.waiting.pop_front() {
                return Some((Ok(event), r));
            }
            if *r.closing.borrow() {
                return None;
            }
            // Marked seen before the feed is read: a change after this
            // is always woken for.
            r.more.borrow_and_update();
            let (gap, taken) = match r.feed.after(r.after, BATCH) {
                Read::Wait => (None, Vec::new()),
                Read::Events { gap, events } => (gap, events),
            };
            if let Some((from, to)) = gap {
                r.waiting.push_back(gap_event(from, to));
                r.after = to;
            }
            if taken.is_empty() && gap.is_none() {
                tokio::select! {
                    changed = r.more.changed() => if changed.is_err() { return None },
                    _ = r.closing.changed() => {},
                }
                continue;
            }
            if let Some(last) = taken.last() {
                r.after = last.id;
            }
            for event in taken {
                r.waiting.extend(sse_of(&event, r.with_text));
            }
        }
    })
}

/// Entries a client missed, older than the feed keeps.
fn gap_event(from: u64, to: u64) -> Sse {
    let data = serde_json::json!({
        "type": "gap",
        "from": from,
        "to": to,
        "note": format!(
            "entries {from} to {to} are older than the live view keeps (the last {}): log.json lists them",
            crate::limits::SERVE_WINDOW
        ),
    });
    Sse::default()
        .event("gap")
        .id(to.to_string())
        .data(data.to_string())
}

/// An entry as one event, or two with its text.
fn sse_of(event: &Event, with_text: bool) -> Vec<Sse> {
    let id = event.id.to_string();
    let mut out = vec![Sse::default().id(id.clone()).data(event.json.as_str())];
    if with_text {
        let text = serde_json::json!({
            "turn": event.turn,
            "line": event.line,
            "text": event.text,
        });
        out.push(Sse::default().event("text").id(id).data(text.to_string()));
    }
    out
}

/// Comments now and then, so a phone (or a proxy) sees the line alive.
pub(crate) fn keep_alive() -> KeepAlive {
    KeepAlive::new().interval(std::time::Duration::from_secs(15))
}
