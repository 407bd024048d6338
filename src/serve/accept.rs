//! Taking connections: the server's own accept loop, so that no client
//! can hold the server's places for as long as it likes.
//!
//! - At most [`SERVE_CONNECTIONS`] connections are open at once, and at
//!   most [`SERVE_ADDRESS_CONNECTIONS`] from one client address; one more
//!   is closed as it is accepted, so one address cannot fill the server.
//! - A connection must send a request's whole headers within
//!   [`HEADERS_WITHIN`] of opening, and of its previous answer: hyper's
//!   header timer runs whenever a connection waits for a request, so a
//!   half-sent request and an idle keep-alive connection are both closed
//!   then. A live view is a request being answered, and is not cut for
//!   being quiet.
//! - A connection that takes none of what the server has to send it for
//!   [`WRITE_STALL`] is closed: an answer nobody reads is not kept for
//!   ever (a live view that stops reading is closed too, and its phone
//!   resumes with `Last-Event-ID`).

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::time::Sleep;
use tower::Service;

use super::guard::Peer;
use crate::limits::{
    SERVE_ADDRESS_CONNECTIONS, SERVE_CONNECTIONS, SERVE_HEADER_SECONDS, SERVE_SECONDS,
};

/// How long a connection has to send a request's headers, from its
/// opening or from its previous answer.
pub(crate) const HEADERS_WITHIN: Duration = Duration::from_secs(SERVE_HEADER_SECONDS);

/// How long a connection may take nothing of what is sent to it.
pub(crate) const WRITE_STALL: Duration = Duration::from_secs(SERVE_SECONDS);

/// How many things each client address holds now (connections, live
/// views): at most `max` each. An address holding nothing is forgotten,
/// so the map is never larger than what is open.
pub(crate) struct PerAddress {
    held: Mutex<HashMap<IpAddr, usize>>,
    max: usize,
}

/// One thing an address holds, given back when dropped.
pub(crate) struct Held {
    of: Arc<PerAddress>,
    ip: IpAddr,
}

impl PerAddress {
    pub(crate) fn new(max: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            held: Mutex::new(HashMap::new()),
            max,
        })
    }

    /// One more for `ip`, unless it holds `max` already.
    pub(crate) fn take(of: &Arc<PerAddress>, ip: IpAddr) -> Option<Held> {
        let mut held = of.held.lock().unwrap_or_else(|e| e.into_inner());
        let n = held.entry(ip).or_insert(0);
        if *n >= of.max {
            return None;
        }
        *n += 1;
        Some(Held { of: of.clone(), ip })
    }

    pub(crate) fn max(&self) -> usize {
        self.max
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.of.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = held.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.remove(&self.ip);
            }
        }
    }
}

/// Serve `app` on `listener` until `closing` is set; then each open
/// connection finishes the answer it is giving, and this returns once all
/// are closed.
pub(crate) async fn serve(listener: TcpListener, app: Router, mut closing: watch::Receiver<bool>) {
    let open = Arc::new(Semaphore::new(SERVE_CONNECTIONS));
    let addresses = PerAddress::new(SERVE_ADDRESS_CONNECTIONS);
    // Each connection holds a receiver: all are dropped once every
    // connection is closed.
    let (all_closed, connection) = watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // Out of file descriptors and the like: wait, not spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = closed(&mut closing) => break,
        };
        // One too many, overall or from this address: closed at once.
        let Ok(place) = open.clone().try_acquire_owned() else {
            continue;
        };
        let Some(held) = PerAddress::take(&addresses, peer.ip()) else {
            continue;
        };
        // Events go out as they come, not when a packet fills.
        let _ = stream.set_nodelay(true);
        let service = service_for(app.clone(), peer);
        let closing = closing.clone();
        let connection = connection.clone();
        tokio::spawn(async move {
            let _held = (place, held, connection);
            one_connection(stream, service, closing).await;
        });
    }
    drop(connection);
    drop(listener);
    all_closed.closed().await;
}

/// The app for one connection: each request carries the client's address.
fn service_for(
    app: Router,
    peer: SocketAddr,
) -> impl hyper::service::Service<
    hyper::Request<Incoming>,
    Response = axum::response::Response,
    Error = Infallible,
    Future = impl Send,
> + Clone {
    hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(Peer(peer)));
        let mut app = app.clone();
        // A router is always ready.
        app.call(request.map(axum::body::Body::new))
    })
}

async fn one_connection<S>(stream: TcpStream, service: S, mut closing: watch::Receiver<bool>)
where
    S: hyper::service::Service<
            hyper::Request<Incoming>,
            Response = axum::response::Response,
            Error = Infallible,
        >,
    S::Future: Send + 'static,
{
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADERS_WITHIN)
        .keep_alive(true);
    let stream = Patient {
        stream,
        stalled: None,
    };
    let connection = builder.serve_connection(TokioIo::new(stream), service);
    let mut connection = std::pin::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => return,
        () = closed(&mut closing) => {}
    }
    // Closing: the answer under way is finished, then the connection ends.
    connection.as_mut().graceful_shutdown();
    let _ = connection.await;
}

/// A connection's stream whose writes fail once it has taken nothing for
/// [`WRITE_STALL`].
struct Patient {
    stream: TcpStream,
    /// Since the first write that could not go out, if the last did not.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl Patient {
    /// What a write that could not go out now means: wait, or give up.
    fn waited<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let stall = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(WRITE_STALL)));
        match stall.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client takes nothing of what is sent",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn went<T>(&mut self, result: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match result {
            Poll::Pending => Poll::Pending,
            done => {
                self.stalled = None;
                done
            }
        }
    }
}

impl AsyncRead for Patient {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Patient {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let tried = Pin::new(&mut self.stream).poll_write(cx, buf);
        match self.went(tried) {
            Poll::Pending => self.waited(cx),
            done => done,
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let tried = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        match self.went(tried) {
            Poll::Pending => self.waited(cx),
            done => done,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Once the server is closing.
async fn closed(closing: &mut watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_its_share_and_is_forgotten_when_done() {
        let of = PerAddress::new(2);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let b: IpAddr = "127.0.0.3".parse().unwrap();
        let first = PerAddress::take(&of, a).unwrap();
        let second = PerAddress::take(&of, a).unwrap();
        assert!(PerAddress::take(&of, a).is_none());
        assert!(PerAddress::take(&of, b).is_some());
        drop(first);
        let third = PerAddress::take(&of, a).unwrap();
        drop((second, third));
        assert!(of.held.lock().unwrap().is_empty());
    }
}
