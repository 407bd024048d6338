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
use crate::error::ErrorKind;
use crate::format::json::json_error;
use crate::format::{Source, web};
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
        .route("/pocket", get(pocket))
        .route("/g/{name}", get(to_game))
        .route("/g/{name}/", get(game_page))
        .route("/g/{name}/units.json", get(units))
        .route("/g/{name}/roster.html", get(roster))
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
    // `/pocket` says its own (the same, and its inline code and
    // WebAssembly allowed): see `pocket`.
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(POLICY),
        );
    }
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// What every page may load and run: only this server's own.
const POLICY: &str =
    "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// `/pocket`: the pocket page (`drumhead pocket`), which a phone keeps
/// resolving with when the network drops. Its policy is every page's,
/// with its one inline script and stylesheet allowed by their digests
/// and WebAssembly compiled (`'wasm-unsafe-eval'`, never `'unsafe-eval'`).
async fn pocket() -> Response {
    static PAGE: std::sync::OnceLock<Result<(String, HeaderValue), &'static str>> =
        std::sync::OnceLock::new();
    let made = PAGE.get_or_init(|| {
        let page = web::pocket::page(web::pocket::module()?);
        let policy = format!(
            "default-src 'self'; script-src {} 'wasm-unsafe-eval'; style-src {}; \
             object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
            page.script_hash, page.style_hash
        );
        let policy = HeaderValue::from_str(&policy).map_err(|_| "a policy header")?;
        Ok((page.html, policy))
    });
    match made {
        Ok((page, policy)) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                ),
                (header::CONTENT_SECURITY_POLICY, policy.clone()),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            page.clone(),
        )
            .into_response(),
        Err(why) => (
            StatusCode::NOT_FOUND,
            format!(
                "no pocket page: {why}; to get it, `rustup target add wasm32-unknown-unknown` \
                 and build drumhead again\n"
            ),
        )
            .into_response(),
    }
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
    json(status, &refusal_body(status, message, line))
}

/// The body of a refusal: an error as `--json` writes one, of the kind
/// its status says.
fn refusal_body(status: StatusCode, message: &str, line: &str) -> String {
    let source = Source {
        line: 1,
        input: line,
    };
    json_error(message, refusal_kind(status), source, None).to_string()
}

/// What kind of error a request refused with `status` is.
fn refusal_kind(status: StatusCode) -> ErrorKind {
    match status {
        StatusCode::NOT_FOUND => ErrorKind::NotFound,
        StatusCode::UNAUTHORIZED => ErrorKind::Unauthorized,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorKind::LineTooLong,
        StatusCode::TOO_MANY_REQUESTS => ErrorKind::TooManyRequests,
        StatusCode::SERVICE_UNAVAILABLE => ErrorKind::Unavailable,
        StatusCode::CONFLICT => ErrorKind::Busy,
        s if s.is_server_error() => ErrorKind::Internal,
        _ => ErrorKind::BadRequest,
    }
}

/// A refusal as a page shows it: the line and its error.
fn refusal_html(message: &str, line: &str) -> String {
    web::entry(
        web::Place::default(),
        line,
        &web::error(message, line, None).into_string(),
    )
    .into_string()
}

/// Whether a request asks for a page (a browser's does) rather than
/// JSON (a script's, and anything that does not say).
fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"))
}

/// A page or a fragment of one, with its status.
fn html_with(status: StatusCode, body: String) -> Response {
    let mut response = (status, html(body)).into_response();
    response
        .headers_mut()
        .insert(header::VARY, HeaderValue::from_static("accept"));
    response
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
    let index = &g.index;
    html(page::game(&name, &g.feed.now(), &newest, |n| {
        index.undone(n)
    }))
}

/// `/g/NAME/roster.html`: the roster and the turn as they stand, as the
/// page shows them (a fragment, for the page to put in place).
async fn roster(State(s): St, Path(name): Path<String>) -> Response {
    match s.games.get(&name) {
        Some(g) => html(page::roster_now(&g.feed.now()).into_string()),
        None => no_game(&name),
    }
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

/// A desk's answer as a response: JSON, or the page's fragment when
/// the request asks for a page.
async fn asked(desk: &Desk, ip: IpAddr, line: String, page: bool) -> Response {
    let said = desk_answer(desk, ip, line, page, None).await;
    if page {
        html_with(said.status, said.html)
    } else {
        json(said.status, &said.json)
    }
}

/// What a desk said of a line: its status, its JSON and (when asked
/// for) its fragment of a page, and whether the line was resolved
/// (answered or refused) rather than left untried (a full queue, a busy
/// game, a closed desk).
struct Said {
    status: StatusCode,
    json: String,
    html: String,
    resolved: bool,
    /// An odds answer being sent as it is counted: its first piece.
    streamed: Option<Vec<u8>>,
}

impl Said {
    fn untried(status: StatusCode, message: &str, line: &str) -> Said {
        Said {
            status,
            json: refusal_body(status, message, line),
            html: refusal_html(message, line),
            resolved: false,
            streamed: None,
        }
    }
}

/// A line's answer from a desk; an odds answer sent as it is counted
/// comes through `stream` when one is given.
async fn desk_answer(
    desk: &Desk,
    ip: IpAddr,
    line: String,
    page: bool,
    stream: Option<(super::stream::Sender, &mut super::stream::Receiver)>,
) -> Said {
    let (to, pieces) = stream.unzip();
    let answer = match desk.take(ip, line.clone(), page, to) {
        Ok(answer) => answer,
        Err(Full::Desk) => {
            return Said::untried(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many lines waiting for this game: ask again in a moment",
                &line,
            );
        }
        Err(Full::Address) => {
            return Said::untried(
                StatusCode::TOO_MANY_REQUESTS,
                "too many lines waiting from this client: wait for their answers",
                &line,
            );
        }
    };
    let reply = match pieces {
        // Its first piece before the reply: the answer is being sent.
        Some(pieces) => tokio::select! {
            biased;
            Some(first) = pieces.recv() => {
                return Said {
                    status: StatusCode::OK,
                    json: String::new(),
                    html: String::new(),
                    resolved: true,
                    streamed: Some(first),
                };
            }
            reply = answer => reply,
        },
        None => answer.await,
    };
    let Ok(Reply { status, json, html }) = reply else {
        return Said::untried(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is closing",
            &line,
        );
    };
    let (code, resolved) = match status {
        Status::Answered => (StatusCode::OK, true),
        Status::Refused => (StatusCode::UNPROCESSABLE_ENTITY, true),
        Status::Busy => (StatusCode::CONFLICT, false),
        Status::TooLarge => (StatusCode::PAYLOAD_TOO_LARGE, true),
        Status::Closed => {
            return Said::untried(
                StatusCode::SERVICE_UNAVAILABLE,
                "this game could not be opened to answer lines",
                &line,
            );
        }
    };
    Said {
        status: code,
        json,
        html,
        resolved,
        streamed: None,
    }
}

#[derive(Deserialize)]
struct OddsQuery {
    line: Option<String>,
    /// `answer`: only the answer's fragment, for the page to put in place.
    part: Option<String>,
}

async fn odds(
    State(s): St,
    Path(name): Path<String>,
    ConnectInfo(Peer(peer)): ConnectInfo<Peer>,
    Query(q): Query<OddsQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(g) = s.games.get(&name) else {
        return no_game(&name);
    };
    let page = wants_html(&headers);
    let fragment = q.part.as_deref() == Some("answer");
    // The answer (a fragment) on its page, or alone when asked for so.
    let shown = |line: &str, answer: String| {
        if fragment {
            answer
        } else {
            page::odds(&name, g.feed.now().turn, line, &answer)
        }
    };
    let refuse = |status: StatusCode, message: &str, line: &str| {
        if page {
            html_with(status, shown(line, refusal_html(message, line)))
        } else {
            refusal(status, message, line)
        }
    };
    let Some(line) = q.line.filter(|l| !page || !l.trim().is_empty()) else {
        if page {
            return html_with(StatusCode::OK, shown("", String::new()));
        }
        return refuse(
            StatusCode::BAD_REQUEST,
            "give the line to count: odds?line=resilience+shooting",
            "",
        );
    };
    if line.len() > MAX_LINE_BYTES {
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, &too_long_message(), "");
    }
    let in_hand = match OddsShares::take(&s.shares, peer.ip()) {
        Ok(place) => place,
        Err(why) => return refuse(StatusCode::TOO_MANY_REQUESTS, &why, &line),
    };
    let Some(mut room) = s.budget.reserve(budget::WAIT_FOR_ROOM).await else {
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many odds answers are being sent now: ask again in a moment",
            &line,
        );
    };
    // An answer is sent as it is counted when it outgrows one table: as
    // JSON, or as the page shows it, the page around it.
    let (to, mut pieces) = super::stream::channel();
    let said = desk_answer(
        &g.odds,
        peer.ip(),
        line.clone(),
        page,
        Some((to, &mut pieces)),
    )
    .await;
    if let Some(first) = said.streamed {
        // The page around the entry, unless the entry alone is asked for.
        let around = page.then(|| {
            let whole = (!fragment).then(|| shown(&line, web::ANSWER_MARK.into()));
            whole.map_or_else(Default::default, |p| web::around_answer(&p))
        });
        // The room reserved for an answer is kept while it is sent: more
        // than the pieces in flight take.
        return super::stream::response(first, pieces, around, (room, in_hand));
    }
    let (body, kind) = if page {
        (shown(&line, said.html), "text/html; charset=utf-8")
    } else {
        (format!("{}\n", said.json), "application/json")
    };
    // The answer's room and its client's place are held until it is sent.
    budget::keep_for(&mut room, body.len());
    let length = body.len();
    let mut response = (
        said.status,
        [(header::CONTENT_TYPE, kind)],
        [(header::CACHE_CONTROL, "no-store")],
        budget::holding(body, (room, in_hand)),
    )
        .into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    h.insert(header::VARY, HeaderValue::from_static("accept"));
    response
}

/// A line over the limit any command line is held to, from a player's
/// odds or the umpire's page alike.
fn too_long() -> Response {
    refusal(StatusCode::PAYLOAD_TOO_LARGE, &too_long_message(), "")
}

fn too_long_message() -> String {
    format!("the line is longer than {MAX_LINE_BYTES} bytes, the most a command line may be")
}

async fn umpire_page(State(s): St, Path(name): Path<String>) -> Response {
    match s.games.get(&name) {
        Some(g) if g.umpire.is_some() => html(page::umpire(&name, &g.feed.now())),
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
    let page = wants_html(&headers);
    let Some(key) = headers.get("idempotency-key") else {
        return asked(&umpire.desk, peer.ip(), line.to_string(), page).await;
    };
    let Some(key) = key.to_str().ok().filter(|k| key_fits(k)) else {
        return refusal(
            StatusCode::BAD_REQUEST,
            "an Idempotency-Key is 1 to 64 letters, digits, `-` or `_`",
            line,
        );
    };
    once(umpire, peer.ip(), key, line, page).await
}

/// A keyed line: resolved the first time its key comes, on a task of its
/// own (so that it is kept whether or not this client waits for it);
/// every time, its first answer.
async fn once(umpire: &Umpire, ip: IpAddr, key: &str, line: &str, page: bool) -> Response {
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
                // Kept both ways: a retry may ask for the other.
                let said = desk_answer(&desk, ip, line, true, None).await;
                let kept = Kept {
                    status: said.status.as_u16(),
                    body: said.json,
                    html: said.html,
                };
                answers.finish(&key, &sender, kept, said.resolved);
            });
            (answer, false)
        }
    };
    let kept = match answer.wait_for(Option::is_some).await {
        Ok(kept) => kept.clone(),
        Err(_) => None,
    };
    let Some(Kept { status, body, html }) = kept else {
        return refusal(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is closing",
            line,
        );
    };
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = if page {
        html_with(status, html)
    } else {
        json(status, &body)
    };
    if again {
        response
            .headers_mut()
            .insert("idempotency-replayed", HeaderValue::from_static("true"));
    }
    response
}
