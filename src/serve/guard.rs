//! What keeps the server sound whatever comes in: a cap on connections
//! (one more is closed as it is accepted), the umpire's token (made from
//! the operating system's randomness, compared in constant time, never
//! logged), and each client's share of `odds`.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use subtle::ConstantTimeEq;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::limits::{SERVE_CONNECTIONS, SERVE_ODDS_IN_HAND, SERVE_ODDS_PER_MINUTE};

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

/// A listener that keeps at most [`SERVE_CONNECTIONS`] connections open.
pub(crate) struct Capped {
    listener: TcpListener,
    open: Arc<Semaphore>,
}

impl Capped {
    pub(crate) fn new(listener: TcpListener) -> Capped {
        Capped {
            listener,
            open: Arc::new(Semaphore::new(SERVE_CONNECTIONS)),
        }
    }
}

/// A connection, holding its place among the open ones.
pub(crate) struct Conn {
    stream: TcpStream,
    _place: OwnedSemaphorePermit,
}

impl axum::serve::Listener for Capped {
    type Io = Conn;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Conn, SocketAddr) {
        loop {
            match self.listener.accept().await {
                Ok((stream, addr)) => match self.open.clone().try_acquire_owned() {
                    Ok(place) => {
                        // Events go out as they come, not when a packet fills.
                        let _ = stream.set_nodelay(true);
                        return (
                            Conn {
                                stream,
                                _place: place,
                            },
                            addr,
                        );
                    }
                    // One too many: closed at once.
                    Err(_) => drop(stream),
                },
                // Out of file descriptors and the like: wait, not spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

/// The client's address, for its share of `odds`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Peer(pub(crate) SocketAddr);

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, Capped>> for Peer {
    fn connect_info(stream: axum::serve::IncomingStream<'_, Capped>) -> Peer {
        Peer(*stream.remote_addr())
    }
}

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
