//! An odds answer sent as it is counted. A sweep too large for one table
//! (`format::stream`) is written by the odds desk a combination at a
//! time into a channel of a few rows, and the client's response is the
//! other end of it: the desk waits while the client is that far behind,
//! stops when the client is gone, and neither holds the whole answer.
//! It is sent as JSON, or as the page shows it: an entry (`format::web`)
//! whose combinations come one after another, the page around it sent
//! before the first and after the last. Any other answer comes back
//! whole, as before.

use std::convert::Infallible;
use std::io::{self, Write};

use axum::body::{Body, Bytes};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::answer::Answer;
use crate::command::Command;
use crate::error::CommandError;
use crate::format::json::{Json, json_error};
use crate::format::stream::SweepStream;
use crate::format::{Format, Source, web};
use crate::session::Session;

/// Pieces of an answer between the desk and its client: each a row or so.
const IN_FLIGHT: usize = 4;

pub(crate) type Sender = mpsc::Sender<Vec<u8>>;
pub(crate) type Receiver = mpsc::Receiver<Vec<u8>>;

pub(crate) fn channel() -> (Sender, Receiver) {
    mpsc::channel(IN_FLIGHT)
}

/// The desk's end: what is written is sent at each flush (after each
/// row), the desk's thread waiting while the channel is full.
struct Sending {
    to: Sender,
    buf: Vec<u8>,
}

impl Write for Sending {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        self.to
            .blocking_send(std::mem::take(&mut self.buf))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the client is gone"))
    }
}

/// How a line that may be streamed went.
pub(crate) enum Ran {
    /// Its answer, to send whole (a sweep's rows kept in it), or its error.
    Whole(Result<Option<Answer>, CommandError>),
    /// Sent: its rows, and after them its error, if it stopped on one.
    Sent,
}

/// Run a line of the odds desk (on the desk's own thread), a sweep's rows
/// sent through `to` once it outgrows one table: as JSON, or as the
/// page's entry when `html`.
pub(crate) fn run(
    session: &mut Session,
    line: &str,
    parsed: Result<Option<Command>, CommandError>,
    to: Sender,
    html: bool,
) -> Ran {
    let source = Source {
        line: 1,
        input: line,
    };
    // The entry's head goes out with the first rows, its end after the last.
    let (head, tail) = if html {
        web::entry_around(web::Place::default(), line)
    } else {
        (String::new(), String::new())
    };
    let mut out = Sending {
        to,
        buf: head.into_bytes(),
    };
    let format: Box<dyn Format> = if html {
        Box::new(web::Web)
    } else {
        Box::new(Json)
    };
    let accepts = |k| {
        let accepted = if html {
            web::Web.accepts(k, line)
        } else {
            Json.accepts(k, line)
        };
        accepted.map_err(CommandError::Option)
    };
    let mut stream = SweepStream::new(format, source, &mut out, false);
    let result = session.run_to(line, parsed, &accepts, Some(&mut stream));
    match stream.end() {
        // The client is gone: nothing more is sent.
        Err(_) => Ran::Sent,
        Ok(Some(rows)) => Ran::Whole(result.map(|answer| match answer {
            Some(Answer::Sweep(mut sweep)) => {
                sweep.rows = rows;
                Some(Answer::Sweep(sweep))
            }
            other => other,
        })),
        Ok(None) => {
            // The rows went out: an error after them follows them, as its
            // own line of JSON or below them on the page.
            if let Err(e) = result {
                let error = if html {
                    let at = e.span().map(|s| s.start..s.end);
                    web::error(&e.to_string(), line, at).into_string()
                } else {
                    let error = json_error(&e.to_string(), e.kind(), source, e.column(line));
                    format!("{}\n", crate::text::json_visible(&error.to_string()))
                };
                out.buf.extend_from_slice(error.as_bytes());
            }
            out.buf.extend_from_slice(tail.as_bytes());
            let _ = out.flush();
            Ran::Sent
        }
    }
}

/// The response of an answer being sent: JSON, or the page's markup when
/// there is `html`, the page's own before and after the entry (empty for
/// the entry alone). Its body is the first piece, then the rest as the
/// desk sends them, holding `hold` (the answer's room and its client's
/// place) until the last is taken.
pub(crate) fn response<H: Send + 'static>(
    mut first: Vec<u8>,
    rest: Receiver,
    html: Option<(String, String)>,
    hold: H,
) -> Response {
    let (kind, last) = match html {
        None => ("application/json", String::new()),
        Some((head, tail)) => {
            first.splice(0..0, head.into_bytes());
            ("text/html; charset=utf-8", tail)
        }
    };
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, kind)],
        [(header::CACHE_CONTROL, "no-store")],
        [(header::VARY, "accept")],
        body(first, rest, last.into_bytes(), hold),
    )
        .into_response()
}

/// The body: the first piece, the rest, then `last` (the end of the page
/// around them, if any), holding `hold` until the last is taken.
fn body<H: Send + 'static>(first: Vec<u8>, rest: Receiver, last: Vec<u8>, hold: H) -> Body {
    let rest = futures_util::stream::unfold(rest, |mut rest| async move {
        rest.recv().await.map(|piece| (piece, rest))
    });
    let pieces = futures_util::stream::iter([first])
        .chain(rest)
        .chain(futures_util::stream::iter([last]))
        .filter(|piece| std::future::ready(!piece.is_empty()))
        .map(move |piece| {
            let _held = &hold;
            Ok::<_, Infallible>(Bytes::from(piece))
        });
    Body::from_stream(pieces)
}
