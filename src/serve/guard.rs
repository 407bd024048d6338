//! What keeps the server sound whatever comes in: the umpire's token
//! (made from the operating system's randomness, compared in constant
//! time, never logged), and each client's share of `odds`. (The caps on
//! connections are in `accept.rs`.)

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use subtle::ConstantTimeEq;

use crate::limits::{SERVE_ODDS_IN_HAND, SERVE_ODDS_PER_MINUTE};

/// A secret for one game's umpire: 32 random bytes, in hex.
pub(crate) fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether an `Authorization` header carries the token. Every byte is
/// compared, whatever the first that differs.
pub(crate) fn token_matches(header: Option<&[u8]>, token: &str) -> bool {
    let Some(given) = header.and_then(|h| h.strip_prefix(b"Bearer ")) else {
        return false;
    };
    let given = given.trim_ascii();
    given.len() == token.len() && bool::from(given.ct_eq(token.as_bytes()))
}

/// The client's address, for its share of `odds`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Peer(pub(crate) SocketAddr);

/// Each client's `odds` requests: in hand, and made this minute.
#[derive(Default)]
pub(crate) struct OddsShares {
    clients: Mutex<HashMap<IpAddr, Share>>,
}

struct Share {
    in_hand: usize,
    minute: Instant,
    this_minute: u32,
}

/// A request in hand, given back when dropped.
pub(crate) struct InHand {
    shares: Arc<OddsShares>,
    ip: IpAddr,
}

impl OddsShares {
    /// Take a place for one more request of `ip`, or say why not.
    pub(crate) fn take(shares: &Arc<OddsShares>, ip: IpAddr) -> Result<InHand, String> {
        let mut clients = shares.clients.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        // Forget the clients that have nothing in hand and a minute gone.
        if clients.len() > 4096 {
            clients.retain(|_, s| s.in_hand > 0 || now.duration_since(s.minute).as_secs() < 60);
        }
        let share = clients.entry(ip).or_insert(Share {
            in_hand: 0,
            minute: now,
            this_minute: 0,
        });
        if now.duration_since(share.minute) >= Duration::from_secs(60) {
            share.minute = now;
            share.this_minute = 0;
        }
        if share.in_hand >= SERVE_ODDS_IN_HAND {
            return Err(format!(
                "at most {SERVE_ODDS_IN_HAND} odds at once from one client: wait for the answers"
            ));
        }
        if share.this_minute >= SERVE_ODDS_PER_MINUTE {
            return Err(format!(
                "at most {SERVE_ODDS_PER_MINUTE} odds a minute from one client: ask again in a minute"
            ));
        }
        share.in_hand += 1;
        share.this_minute += 1;
        Ok(InHand {
            shares: shares.clone(),
            ip,
        })
    }
}

impl Drop for InHand {
    fn drop(&mut self) {
        let mut clients = self
            .shares
            .clients
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(share) = clients.get_mut(&self.ip) {
            share.in_hand = share.in_hand.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_whole_token_matches() {
        let token = "ab12";
        assert!(token_matches(Some(b"Bearer ab12"), token));
        assert!(!token_matches(Some(b"Bearer ab13"), token));
        assert!(!token_matches(Some(b"Bearer ab1"), token));
        assert!(!token_matches(Some(b"Bearer ab123"), token));
        assert!(!token_matches(Some(b"ab12"), token));
        assert!(!token_matches(None, token));
    }

    #[test]
    fn tokens_differ() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
    }
}
