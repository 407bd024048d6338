//! The paths served, and nothing else: a game is found by its name in
//! the map of the games named on the command line, never on the disk.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response, Sse};
use axum::routing::{get, post};
use serde::Deserialize;
use tokio::sync::watch;

use super::accept::PerAddress;
use super::budget::{self, Budget};
use super::desk::{Desk, Reply, Status};
use super::events::{self, Place};
use super::fair::Full;
use super::feed::Feed;
use super::guard::{OddsShares, Peer, token_matches};
use super::host::Hosts;
use super::log_pages::{self, LogIndex};
use super::once::{Answers, Kept, Turn, key_fits};
use super::page;
use crate::format::Source;
use crate::format::json::json_error;
use crate::limits::{
    MAX_LINE_BYTES, SERVE_BODY_BYTES, SERVE_EVENT_CLIENTS, SERVE_LOG_ENTRIES, SERVE_LOG_MOST,
    SERVE_PAGE_ENTRIES, SERVE_SECONDS,
};

/// One game served.
pub(crate) struct Served {
    pub(crate) feed: Arc<Feed>,
    /// Live views open now.
    pub(crate) views: Arc<AtomicUsize>,
    pub(crate) odds: Desk,
    /// Where each page of the log starts in the journal.
    pub(crate) index: Arc<LogIndex>,
    pub(crate) journal: std::path::PathBuf,
    /// Pages of the log being read now (`LOG_READERS` at once).
    pub(crate) log_readers: Arc<tokio::sync::Semaphore>,
    /// The umpire's desk and token, with `--umpire`.
    pub(crate) umpire: Option<Umpire>,
}

/// What the umpire's lines need: the desk that resolves them, the token
/// that lets them in, and the answers kept by `Idempotency-Key`.
pub(crate) struct Umpire {
    pub(crate) desk: Desk,
    pub(crate) token: String,
    pub(crate) answers: Arc<Answers>,
}

/// Everything the handlers share.
pub(crate) struct Shared {
    pub(crate) games: BTreeMap<String, Served>,
    pub(crate) shares: Arc<OddsShares>,
    /// The memory odds answers may take while they are sent.
    pub(crate) budget: Budget,
    /// Live views open from each client address.
    pub(crate) views: Arc<PerAddress>,
    /// The names a request's `Host` may give.
    pub(crate) hosts: Hosts,
    /// Set when the server is closing: live views end.
    pub(crate) closing: watch::Receiver<bool>,
}

type St = State<Arc<Shared>>;

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let hosts = axum::middleware::from_fn_with_state(shared.clone(), only_our_hosts);
    let limited = Router::new()
        .route("/", get(index))
        .route("/assets/{file}", get(asset))
        .route("/g/{name}", get(to_game))
        .route("/g/{name}/", get(game_page))
        .route("/g/{name}/units.json", get(units))
        .route("/g/{name}/log.json", get(log))
        .route("/g/{name}/odds", get(odds))
        .route("/g/{name}/umpire", get(umpire_page))
        .route("/g/{name}/lines", post(lines))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(SERVE_SECONDS),
        ));
    Router::new()
        .route("/g/{name}/events", get(events_of))
        .merge(limited)
        .fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(SERVE_BODY_BYTES))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(
            SERVE_BODY_BYTES,
        ))
        .layer(hosts)
        .layer(axum::middleware::map_response(safe_headers))
        .with_state(shared)
}

/// A request must name this server as its `Host` (or in its target),
/// whatever its path: see `host.rs`.
async fn only_our_hosts(
    State(s): St,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let named = request
        .uri()
        .authority()
        .map(|a| a.as_str().to_string())
        .or_else(|| {
            request
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .map(str::to_string)
        });
    match named {
        Some(host) if s.hosts.allows(&host) => next.run(request).await,
        Some(_) => (
            StatusCode::MISDIRECTED_REQUEST,
            "this server does not answer to that host name: use the address it printed \
             (or start it with --host NAME)\n",
        )
            .into_response(),
        None => (
            StatusCode::BAD_REQUEST,
            "a Host header naming this server is needed\n",
        )
            .into_response(),
    }
}

/// Every answer: no sniffing, no framing, nothing but this server's own.
async fn safe_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        "not found: see / for the games served\n",
    )
        .into_response()
}

fn no_game(name: &str) -> Response {
    let _ = name;
    (
        StatusCode::NOT_FOUND,
        "no such game: see / for the games served\n",
    )
        .into_response()
}

fn html(body: String) -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        [(header::CACHE_CONTROL, "no-store")],
        body,
    )
        .into_response()
}

fn json(status: StatusCode, body: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        [(header::CACHE_CONTROL, "no-store")],
        format!("{body}\n"),
    )
        .into_response()
}

/// A refusal as `--json` writes an error.
fn refusal(status: StatusCode, message: &str, line: &str) -> Response {
    json(status, &refusal_body(message, line))
}

/// The body of a refusal: an error as `--json` writes one.
fn refusal_body(message: &str, line: &str) -> String {
    let source = Source {
        line: 1,
        input: line,
    };
    json_error(message, source, None).to_string()
}

async fn index(State(s): St) -> Response {
    let games: Vec<(String, u64)> = s
        .games
        .iter()
        .map(|(name, g)| (name.clone(), g.feed.now().entries))
        .collect();
    html(page::index(&games))
}

async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "page.css" => (page::CSS, "text/css; charset=utf-8"),
        "live.js" => (page::LIVE_JS, "text/javascript; charset=utf-8"),
        "umpire.js" => (page::UMPIRE_JS, "text/javascript; charset=utf-8"),
        _ => return not_found().await,
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn to_game(State(s): St, Path(name): Path<String>) -> Response {
    match s.games.get_key_value(&name) {
        Some((name, _)) => Redirect::permanent(&format!("/g/{name}/")).into_response(),
        None => no_game(&name),
    }
}

async fn game_page(State(s): St, Path(name): Path<String>) -> Response {
    let Some(g) = s.games.get(&name) else {
        return no_game(&name);
    };
    // Just after start, the entries before the checkpoint may still be
    // being read: a moment's wait for them (the page shows what there is
    // after that).
    let mut changes = g.feed.watch();
    let _ = tokio::time::timeout(Duration::from_secs(SERVE_SECONDS / 2), async {
        while g.feed.reading_earlier() {
            if changes.changed().await.is_err() {
                break;
            }
        }
    })
    .await;
    let newest = g.feed.newest(SERVE_PAGE_ENTRIES);
    html(page::game(&name, &g.feed.now(), &newest))
}

async fn units(State(s): St, Path(name): Path<String>) -> Response {
    match s.games.get(&name) {
        Some(g) => json(StatusCode::OK, &g.feed.now().units_json),
        None => no_game(&name),
    }
}

#[derive(Deserialize)]
struct LogQuery {
    after: Option<u64>,
    limit: Option<usize>,
}

async fn log(State(s): St, Path(name): Path<String>, Query(q): Query<LogQuery>) -> Response {
    let Some(g) = s.games.get(&name) else {
        return no_game(&name);
    };
    let after = q.after.unwrap_or(0);
    let limit = q
        .limit
        .unwrap_or(SERVE_LOG_ENTRIES)
        .clamp(1, SERVE_LOG_MOST);
    let Ok(reading) = g.log_readers.clone().try_acquire_owned() else {
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many requests waiting for this game: ask again in a moment",
            "log",
        );
    };
    if !g.index.whole(Duration::from_secs(SERVE_SECONDS / 2)).await {
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "the journal is still being read: ask again in a moment",
            "log",
        );
    }
    let (index, journal) = (g.index.clone(), g.journal.clone());
    let page = tokio::task::spawn_blocking(move || {
        let _reading = reading;
        log_pages::page(&journal, &index, after, limit)
    })
    .await;
    match page {
        Ok(Ok(page)) => json(StatusCode::OK, &page),
        Ok(Err(e)) => refusal(StatusCode::INTERNAL_SERVER_ERROR, &e, "log"),
        Err(_) => refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is closing",
            "log",
        ),
    }
}

#[derive(Deserialize)]
struct EventsQuery {
    after: Option<u64>,
    with: Option<String>,
}

async fn events_of(
    State(s): St,
    Path(name): Path<String>,
    ConnectInfo(Peer(peer)): ConnectInfo<Peer>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(g) = s.games.get(&name) else {
        return no_game(&name);
    };
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let from = last.or(q.after).unwrap_or(0);
    let Some(place) = Place::take(&g.views, SERVE_EVENT_CLIENTS) else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("at most {SERVE_EVENT_CLIENTS} live views of a game at once\n"),
        )
            .into_response();
    };
    let Some(address) = PerAddress::take(&s.views, peer.ip()) else {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "at most {} live views from one address at once\n",
                s.views.max()
            ),
        )
            .into_response();
    };
    let with_text = q.with.as_deref() == Some("text");
    let stream = events::stream(
        g.feed.clone(),
        from,
        with_text,
        s.closing.clone(),
        place,
        address,
    );
    let mut response = Sse::new(stream)
        .keep_alive(events::keep_alive())
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A desk's answer as a response.
async fn asked(desk: &Desk, ip: IpAddr, line: String) -> Response {
    let (status, body, _) = desk_answer(desk, ip, line).await;
    json(status, &body)
}

/// A desk's answer: its status, its JSON, and whether the line was
/// resolved (answered or refused) rather than left untried (a full
/// queue, a busy game, a closed desk).
async fn desk_answer(desk: &Desk, ip: IpAddr, line: String) -> (StatusCode, String, bool) {
    let answer = match desk.take(ip, line.clone()) {
        Ok(answer) => answer,
        Err(Full::Desk) => {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                refusal_body(
                    "too many lines waiting for this game: ask again in a moment",
                    &line,
                ),
                false,
            );
        }
        Err(Full::Address) => {
            return (
                StatusCode::TOO_MANY_REQUESTS,
                refusal_body(
                    "too many lines waiting from this client: wait for their answers",
                    &line,
                ),
                false,
            );
        }
    };
    match answer.await {
        Ok(Reply { status, json: body }) => match status {
            Status::Answered => (StatusCode::OK, body, true),
            Status::Refused => (StatusCode::UNPROCESSABLE_ENTITY, body, true),
            Status::Busy => (StatusCode::CONFLICT, body, false),
            Status::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, body, true),
            Status::Closed => (
                StatusCode::SERVICE_UNAVAILABLE,
                refusal_body("this game could not be opened to answer lines", &line),
                false,
            ),
        },
        Err(_) => (
            StatusCode::SERVICE_UNAVAILABLE,
            refusal_body("the server is closing", &line),
            false,
        ),
    }
}

#[derive(Deserialize)]
struct OddsQuery {
    line: Option<String>,
}

async fn odds(
    State(s): St,
    Path(name): Path<String>,
    ConnectInfo(Peer(peer)): ConnectInfo<Peer>,
    Query(q): Query<OddsQuery>,
) -> Response {
    let Some(g) = s.games.get(&name) else {
        return no_game(&name);
    };
    let Some(line) = q.line else {
        return refusal(
            StatusCode::BAD_REQUEST,
            "give the line to count: odds?line=resilience+shooting",
            "",
        );
    };
    if line.len() > MAX_LINE_BYTES {
        return too_long();
    }
    let in_hand = match OddsShares::take(&s.shares, peer.ip()) {
        Ok(place) => place,
        Err(why) => return refusal(StatusCode::TOO_MANY_REQUESTS, &why, &line),
    };
    let Some(mut room) = s.budget.reserve(budget::WAIT_FOR_ROOM).await else {
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many odds answers are being sent now: ask again in a moment",
            &line,
        );
    };
    let (status, body, _) = desk_answer(&g.odds, peer.ip(), line).await;
    // The answer's room and its client's place are held until it is sent.
    budget::keep_for(&mut room, body.len());
    let body = format!("{body}\n");
    let length = body.len();
    let mut response = (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        [(header::CACHE_CONTROL, "no-store")],
        budget::holding(body, (room, in_hand)),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    response
}

/// A line over the limit any command line is held to, from a player's
/// odds or the umpire's page alike.
fn too_long() -> Response {
    refusal(
        StatusCode::PAYLOAD_TOO_LARGE,
        &format!("the line is longer than {MAX_LINE_BYTES} bytes, the most a command line may be"),
        "",
    )
}

async fn umpire_page(State(s): St, Path(name): Path<String>) -> Response {
    match s.games.get(&name) {
        Some(g) if g.umpire.is_some() => html(page::umpire(&name)),
        _ => no_game(&name),
    }
}

async fn lines(
    State(s): St,
    Path(name): Path<String>,
    ConnectInfo(Peer(peer)): ConnectInfo<Peer>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(umpire) = s.games.get(&name).and_then(|g| g.umpire.as_ref()) else {
        return no_game(&name);
    };
    let given = headers.get(header::AUTHORIZATION).map(|v| v.as_bytes());
    if !token_matches(given, &umpire.token) {
        let mut r = refusal(
            StatusCode::UNAUTHORIZED,
            "the umpire's token is needed to write to this game (Authorization: Bearer TOKEN)",
            "",
        );
        r.headers_mut()
            .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        return r;
    }
    let Ok(text) = String::from_utf8(body.to_vec()) else {
        return refusal(StatusCode::BAD_REQUEST, "the line is not UTF-8 text", "");
    };
    let line = text.strip_suffix('\n').unwrap_or(&text);
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.len() > MAX_LINE_BYTES {
        return too_long();
    }
    let Some(key) = headers.get("idempotency-key") else {
        return asked(&umpire.desk, peer.ip(), line.to_string()).await;
    };
    let Some(key) = key.to_str().ok().filter(|k| key_fits(k)) else {
        return refusal(
            StatusCode::BAD_REQUEST,
            "an Idempotency-Key is 1 to 64 letters, digits, `-` or `_`",
            line,
        );
    };
    once(umpire, peer.ip(), key, line).await
}

/// A keyed line: resolved the first time its key comes, on a task of its
/// own (so that it is kept whether or not this client waits for it);
/// every time, its first answer.
async fn once(umpire: &Umpire, ip: IpAddr, key: &str, line: &str) -> Response {
    let (mut answer, again) = match umpire.answers.begin(key, line) {
        Turn::OtherLine => {
            return refusal(
                StatusCode::UNPROCESSABLE_ENTITY,
                "this Idempotency-Key came with another line: each line typed needs a key of its own",
                line,
            );
        }
        Turn::Again(answer) => (answer, true),
        Turn::First(sender) => {
            let answer = sender.subscribe();
            let (desk, answers) = (umpire.desk.clone(), umpire.answers.clone());
            let (key, line) = (key.to_string(), line.to_string());
            tokio::spawn(async move {
                let (status, body, resolved) = desk_answer(&desk, ip, line).await;
                let kept = Kept {
                    status: status.as_u16(),
                    body,
                };
                answers.finish(&key, &sender, kept, resolved);
            });
            (answer, false)
        }
    };
    let kept = match answer.wait_for(Option::is_some).await {
        Ok(kept) => kept.clone(),
        Err(_) => None,
    };
    let Some(Kept { status, body }) = kept else {
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is closing",
            line,
        );
    };
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = json(status, &body);
    if again {
        response
            .headers_mut()
            .insert("idempotency-replayed", HeaderValue::from_static("true"));
    }
    response
}
