//! The memory odds answers may take while they wait to be sent: one
//! budget for the whole server. Each odds request takes room for the
//! largest answer before it is resolved, keeps what its answer needs once
//! it has it, and gives that back only once its body has been taken to
//! be sent (a connection that takes nothing is closed: `accept.rs`). So
//! clients that ask and never read hold at most the budget, and the
//! others wait for room a moment, then are told to ask again (503).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use futures_util::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::limits::{SERVE_ODDS_ANSWER_BYTES, SERVE_ODDS_BUDGET_BYTES};

/// The budget is counted in KiB: a permit each.
const UNIT: usize = 1024;

/// A body is handed to the connection in pieces of this size, each taken
/// once the one before is on its way.
const PIECE: usize = 64 << 10;

/// How long an odds request waits for room before it is refused.
pub(crate) const WAIT_FOR_ROOM: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub(crate) struct Budget {
    room: Arc<Semaphore>,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            room: Arc::new(Semaphore::new(SERVE_ODDS_BUDGET_BYTES / UNIT)),
        }
    }
}

impl Budget {
    /// Room for the largest answer, if it comes within `wait`.
    pub(crate) async fn reserve(&self, wait: Duration) -> Option<OwnedSemaphorePermit> {
        let units = u32::try_from(SERVE_ODDS_ANSWER_BYTES.div_ceil(UNIT)).ok()?;
        tokio::time::timeout(wait, self.room.clone().acquire_many_owned(units))
            .await
            .ok()?
            .ok()
    }
}

/// Keep only the room `bytes` need (at least one unit).
pub(crate) fn keep_for(room: &mut OwnedSemaphorePermit, bytes: usize) {
    let need = bytes.div_ceil(UNIT).max(1);
    let spare = room.num_permits().saturating_sub(need);
    if spare > 0 {
        drop(room.split(spare));
    }
}

/// `text` as a body that holds `hold` (its room, its client's place)
/// until the connection has taken its last piece, or is gone.
pub(crate) fn holding<H: Send + 'static>(text: String, hold: H) -> Body {
    let bytes = Bytes::from(text);
    let len = bytes.len();
    let pieces = (0..len)
        .step_by(PIECE)
        .map(move |at| Ok::<_, Infallible>(bytes.slice(at..len.min(at + PIECE))));
    Body::from_stream(futures_util::stream::iter(pieces).map(move |piece| {
        let _held = &hold;
        piece
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_answer_keeps_only_its_room_and_gives_it_back_once_taken() {
        let budget = Budget::default();
        let total = budget.room.available_permits();
        let mut room = budget.reserve(Duration::from_millis(10)).await.unwrap();
        assert_eq!(
            total - budget.room.available_permits(),
            SERVE_ODDS_ANSWER_BYTES / UNIT
        );
        keep_for(&mut room, 3000);
        assert_eq!(total - budget.room.available_permits(), 3);
        let body = holding("x".repeat(3000), room);
        assert_eq!(total - budget.room.available_permits(), 3);
        let taken = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        assert_eq!(taken.len(), 3000);
        assert_eq!(budget.room.available_permits(), total);
    }

    #[tokio::test]
    async fn no_room_is_no_answer() {
        let budget = Budget::default();
        let mut held = Vec::new();
        while let Some(r) = budget.reserve(Duration::from_millis(10)).await {
            held.push(r);
        }
        assert_eq!(
            held.len(),
            SERVE_ODDS_BUDGET_BYTES / SERVE_ODDS_ANSWER_BYTES
        );
        held.pop();
        assert!(budget.reserve(Duration::from_millis(10)).await.is_some());
    }
}
