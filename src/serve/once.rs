//! A line POSTed with an `Idempotency-Key` is applied once, however often
//! it is sent: the first answer is kept (a bounded number a game, the
//! oldest forgotten first), and a retry with the same key gets it again,
//! or waits for it while the first is being resolved. The line is
//! resolved whether or not its client is still there to hear the answer
//! (a 408, a dropped connection), so the retry of a phone that lost its
//! wifi finds the line applied, not applied again.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use tokio::sync::watch;

use crate::limits::SERVE_KEPT_ANSWERS;

/// The longest key taken: a UUID is 36 characters.
pub(crate) const KEY_BYTES: usize = 64;

/// An answer as it was given: status and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Kept {
    pub(crate) status: u16,
    pub(crate) body: String,
}

enum State {
    /// Being resolved: the answer comes on the channel.
    Running(watch::Receiver<Option<Kept>>),
    Done(Kept),
}

struct Entry {
    line: String,
    state: State,
}

/// One game's answers by key.
#[derive(Default)]
pub(crate) struct Answers {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    by_key: HashMap<String, Entry>,
    /// Keys answered, oldest first: the first forgotten.
    done: VecDeque<String>,
}

/// What to do with a keyed line.
pub(crate) enum Turn {
    /// The key is new: resolve the line, then [`Answers::finish`] it.
    First(watch::Sender<Option<Kept>>),
    /// The key was answered, or is being: this is (or will be) its answer.
    Again(watch::Receiver<Option<Kept>>),
    /// The key was given for another line.
    OtherLine,
}

/// Whether a key is one a client may give: 1 to [`KEY_BYTES`] letters,
/// digits, `-` and `_`.
pub(crate) fn key_fits(key: &str) -> bool {
    (1..=KEY_BYTES).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Answers {
    /// Take up `key` for `line`.
    pub(crate) fn begin(&self, key: &str, line: &str) -> Turn {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entry) = inner.by_key.get(key) {
            if entry.line != line {
                return Turn::OtherLine;
            }
            return Turn::Again(match &entry.state {
                State::Running(answer) => answer.clone(),
                State::Done(kept) => watch::channel(Some(kept.clone())).1,
            });
        }
        let (send, answer) = watch::channel(None);
        inner.by_key.insert(
            key.to_string(),
            Entry {
                line: line.to_string(),
                state: State::Running(answer),
            },
        );
        Turn::First(send)
    }

    /// The answer to `key`'s line: kept when the line was resolved
    /// (`keep`), else forgotten, so that a retry tries it again (the game
    /// was busy, the queue full: nothing was applied).
    pub(crate) fn finish(
        &self,
        key: &str,
        sender: &watch::Sender<Option<Kept>>,
        kept: Kept,
        keep: bool,
    ) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if keep {
            if let Some(entry) = inner.by_key.get_mut(key) {
                entry.state = State::Done(kept.clone());
            }
            inner.done.push_back(key.to_string());
            while inner.done.len() > SERVE_KEPT_ANSWERS {
                if let Some(old) = inner.done.pop_front() {
                    inner.by_key.remove(&old);
                }
            }
        } else {
            inner.by_key.remove(key);
        }
        sender.send_replace(Some(kept));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(body: &str) -> Kept {
        Kept {
            status: 200,
            body: body.into(),
        }
    }

    #[test]
    fn a_key_is_answered_once_and_then_again() {
        let answers = Answers::default();
        let Turn::First(send) = answers.begin("k1", "hits 1 aus-3") else {
            panic!("a new key is the first");
        };
        let Turn::Again(mut waiting) = answers.begin("k1", "hits 1 aus-3") else {
            panic!("the same key waits");
        };
        assert!(waiting.borrow_and_update().is_none());
        assert!(matches!(
            answers.begin("k1", "hits 2 aus-3"),
            Turn::OtherLine
        ));
        answers.finish("k1", &send, kept("one"), true);
        assert_eq!(*waiting.borrow(), Some(kept("one")));
        let Turn::Again(later) = answers.begin("k1", "hits 1 aus-3") else {
            panic!("an answered key is answered again");
        };
        assert_eq!(*later.borrow(), Some(kept("one")));
    }

    #[test]
    fn an_answer_not_kept_is_tried_again_and_the_oldest_are_forgotten() {
        let answers = Answers::default();
        let Turn::First(send) = answers.begin("busy", "x") else {
            panic!()
        };
        answers.finish("busy", &send, kept("409"), false);
        assert!(matches!(answers.begin("busy", "x"), Turn::First(_)));
        for k in 0..=SERVE_KEPT_ANSWERS {
            let key = format!("key-{k}");
            let Turn::First(send) = answers.begin(&key, "x") else {
                panic!()
            };
            answers.finish(&key, &send, kept("ok"), true);
        }
        assert!(matches!(answers.begin("key-0", "x"), Turn::First(_)));
        assert!(matches!(
            answers.begin(&format!("key-{SERVE_KEPT_ANSWERS}"), "x"),
            Turn::Again(_)
        ));
    }

    #[test]
    fn keys_are_short_plain_words() {
        assert!(key_fits("3f2a9c1e-77b0-4d1e-9a55-0c1d2e3f4a5b"));
        assert!(!key_fits(""));
        assert!(!key_fits(&"a".repeat(KEY_BYTES + 1)));
        assert!(!key_fits("a b"));
        assert!(!key_fits("<script>"));
    }
}
