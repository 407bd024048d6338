//! Starting and stopping: the games named and checked, their threads,
//! the address said on standard output (and as a QR code on a
//! terminal), and a clean close on SIGTERM or Ctrl-C.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::net::{IpAddr, SocketAddr, UdpSocket};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::watch;

use super::Options;
use super::accept::{self, PerAddress};
use super::budget::Budget;
use super::desk::Desk;
use super::earlier;
use super::feed::Feed;
use super::follow::{self, Spec};
use super::guard::OddsShares;
use super::host::{Hosts, check_name};
use super::log_pages::LogIndex;
use super::routes::{Served, Shared, Umpire, router};
use super::token::{self, Made};
use crate::limits::SERVE_ADDRESS_EVENTS;
use crate::session::Recipe;
use crate::system::Registry;
use crate::tables::TableSource;

/// How long the entries already written may take to be read at start.
const CATCH_UP: Duration = Duration::from_secs(120);

/// Pages of a game's log read from its journal at once.
const LOG_READERS: usize = 2;

/// How long open connections are given to finish once closing.
const LINGER: Duration = Duration::from_secs(3);

/// A game's name in addresses: its file name without `.json`, of
/// letters, digits, `-`, `_` and `.` only (never `..`).
fn name_of(path: &Path) -> Result<String, String> {
    let file = path
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{}: not a game file's name", path.display()))?;
    let name = file.strip_suffix(".json").unwrap_or(file);
    let fits = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !fits {
        return Err(format!(
            "{}: a served game's name (its file name without .json) must be letters, digits, `-`, `_` or `.`; rename the file",
            path.display()
        ));
    }
    Ok(name.to_string())
}

pub(super) fn serve(
    options: &Options,
    registry: &Registry,
    source: TableSource,
) -> Result<(), String> {
    for name in &options.hosts {
        check_name(name)?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut games = BTreeMap::new();
    let mut tokens = Vec::new();
    let mut waits = Vec::new();
    let mut threads = Vec::new();
    for path in &options.games {
        let name = name_of(path)?;
        if games.contains_key(&name) {
            return Err(format!(
                "two games named {name}: each game is served under its file name, which must differ"
            ));
        }
        let recipe = Recipe::new(registry.clone(), source.clone());
        let opened = open(path, &name, recipe, options, &stop)?;
        tokens.extend(opened.token);
        waits.push((path.clone(), opened.wait));
        threads.extend(opened.threads);
        games.insert(name, opened.served);
    }
    let result = run(options, games, &tokens, waits, &stop);
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    if options.stats {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!(
                "stats: {} commands resolved (each journal entry once, whoever wrote it; an odds line once)\n",
                crate::catalog::commands_bound()
            )
            .as_bytes(),
        );
    }
    result
}

/// One game opened for serving: what its routes share, its umpire's
/// token (with `--umpire`), the word that its entries already written
/// have been read, and its threads (the follower, the earlier pages' and
/// the odds desk's).
struct Opened {
    served: Served,
    token: Option<Token>,
    wait: std::sync::mpsc::Receiver<Result<(), String>>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

/// Open the game at `path` (served as `name`): it must exist (serve never
/// creates one); its threads start, stopping when `stop` is set.
fn open(
    path: &Path,
    name: &str,
    recipe: Recipe,
    options: &Options,
    stop: &Arc<AtomicBool>,
) -> Result<Opened, String> {
    if !follow::exists(path) {
        return Err(format!(
            "{}: there is no game here (serve never creates one): start it with `drumhead --game {} --army …`",
            path.display(),
            path.display()
        ));
    }
    let spec = Spec {
        recipe,
        path: path.to_path_buf(),
    };
    let feed = Arc::new(Feed::new());
    let index = Arc::new(LogIndex::new());
    let (ready, wait) = std::sync::mpsc::channel();
    let earlier = {
        let (spec, feed, index, stop) = (spec.clone(), feed.clone(), index.clone(), stop.clone());
        move |checkpoint| earlier::spawn(spec, checkpoint, feed, index, stop)
    };
    let (umpire, lines, token) = if options.umpire {
        let (token, made) = token::umpire_token(path, options.new_token)?;
        let kept = Token {
            game: name.to_string(),
            token: token.clone(),
            file: token::path_for(path),
            made,
        };
        // The game's own thread takes the umpire's lines.
        let (desk, lines) = Desk::for_lines();
        let umpire = Umpire {
            desk,
            token,
            answers: Arc::default(),
        };
        let lines: follow::Lines = Box::new(move |wait, session, around| {
            lines.answer_next(wait, session, around);
        });
        (Some(umpire), Some(lines), Some(kept))
    } else {
        (None, None, None)
    };
    let follower = follow::spawn(
        spec.clone(),
        feed.clone(),
        index.clone(),
        (stop.clone(), ready),
        earlier,
        lines,
    )
    .map_err(|e| e.to_string())?;
    let (odds, workers) =
        Desk::open_odds(spec, feed.clone(), stop.clone()).map_err(|e| e.to_string())?;
    let mut threads = vec![follower];
    threads.extend(workers);
    let served = Served {
        feed,
        views: Arc::new(AtomicUsize::new(0)),
        index,
        journal: crate::game::Journal::path_for(path),
        log_readers: Arc::new(tokio::sync::Semaphore::new(LOG_READERS)),
        odds,
        umpire,
    };
    Ok(Opened {
        served,
        token,
        wait,
        threads,
    })
}

type Waits = Vec<(
    std::path::PathBuf,
    std::sync::mpsc::Receiver<Result<(), String>>,
)>;

/// A game's umpire token, and where and how it is kept.
struct Token {
    game: String,
    token: String,
    file: std::path::PathBuf,
    made: Made,
}

fn run(
    options: &Options,
    games: BTreeMap<String, Served>,
    tokens: &[Token],
    waits: Waits,
    stop: &AtomicBool,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let listener = runtime
        .block_on(listen(options))
        .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    for (path, wait) in waits {
        match wait.recv_timeout(CATCH_UP) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(format!("{}: {e}", path.display())),
            Err(_) => {
                return Err(format!(
                    "{}: the game's journal could not be read in time",
                    path.display()
                ));
            }
        }
    }
    let (close, closing) = watch::channel(false);
    let closing_too = closing.clone();
    let shared = Arc::new(Shared {
        games,
        shares: Arc::new(OddsShares::default()),
        budget: Budget::default(),
        views: PerAddress::new(SERVE_ADDRESS_EVENTS),
        hosts: Hosts::new(bound, &options.hosts),
        closing,
    });
    // Listened for before the address is said: a signal sent as soon as
    // a client has it closes the server, never kills it.
    let signalled = {
        let _inside = runtime.enter();
        signalled().map_err(|e| format!("cannot listen for signals: {e}"))?
    };
    announce(bound, tokens);
    let app = router(shared);
    runtime.block_on(async move {
        let mut done = tokio::spawn(accept::serve(listener, app, closing_too));
        tokio::select! {
            r = &mut done => return r.map_err(|e| e.to_string()),
            () = signalled => {}
        }
        // Live views end, so their connections can close; what is still
        // open gets a moment to finish.
        let _ = close.send(true);
        let _ = tokio::time::timeout(LINGER, done).await;
        Ok::<(), String>(())
    })?;
    stop.store(true, Ordering::Relaxed);
    runtime.shutdown_timeout(Duration::from_millis(200));
    Ok(())
}

/// SIGTERM or Ctrl-C, listened for from the call on (inside the
/// runtime).
#[cfg(unix)]
fn signalled() -> std::io::Result<impl Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut terminate = signal(SignalKind::terminate())?;
    let mut interrupt = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {},
            _ = interrupt.recv() => {},
        }
    })
}

#[cfg(not(unix))]
fn signalled() -> std::io::Result<impl Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

/// The address a phone in the room reaches: the one listened on, or for
/// any address (`0.0.0.0`) the one this machine has on its network. No
/// packet is sent to find it.
fn shown_address(bound: SocketAddr) -> SocketAddr {
    if !bound.ip().is_unspecified() {
        return bound;
    }
    let probe = match bound.ip() {
        IpAddr::V4(_) => ("0.0.0.0:0", "10.254.254.254:9"),
        IpAddr::V6(_) => ("[::]:0", "[fd00::1]:9"),
    };
    let found = UdpSocket::bind(probe.0)
        .and_then(|s| s.connect(probe.1).and_then(|()| s.local_addr()))
        .map(|a| a.ip())
        .ok()
        .filter(|ip| !ip.is_unspecified());
    match found {
        Some(ip) => SocketAddr::new(ip, bound.port()),
        None => bound,
    }
}

/// Listen where `--listen` says; with port 0, on the port of the games'
/// own ([`own_port`]) while it is free, else on any free port.
async fn listen(options: &Options) -> std::io::Result<tokio::net::TcpListener> {
    if options.listen.port() == 0 {
        let own = SocketAddr::new(options.listen.ip(), own_port(&options.games));
        if let Ok(listener) = tokio::net::TcpListener::bind(own).await {
            return Ok(listener);
        }
    }
    tokio::net::TcpListener::bind(options.listen).await
}

/// The ports [`own_port`] picks from: above the well-known ones and
/// below those the system hands out for outgoing connections.
const OWN_PORTS: std::ops::Range<u16> = 20000..30000;

/// The port of a set of games: the same for the same games (by their
/// paths, made absolute) at every start, so that with `--listen ADDR:0`
/// a server started again is where the phones last found it.
fn own_port(games: &[std::path::PathBuf]) -> u16 {
    use sha2::{Digest, Sha256};
    let mut digest = Sha256::new();
    for game in games {
        let path = std::path::absolute(game).unwrap_or_else(|_| game.clone());
        digest.update(path.as_os_str().as_encoded_bytes());
        digest.update([0]);
    }
    let hash = digest.finalize();
    let n = u16::from_be_bytes([hash[0], hash[1]]);
    OWN_PORTS.start + n % (OWN_PORTS.end - OWN_PORTS.start)
}

/// The first lines on standard output, flushed: `serving URL`, then
/// each game's umpire page with `--umpire` (and where its token is
/// kept), then a QR code of each address when standard output is a
/// terminal.
fn announce(bound: SocketAddr, tokens: &[Token]) {
    let url = format!("http://{}/", shown_address(bound));
    let mut out = std::io::stdout().lock();
    say(&mut out, &format!("serving {url}"));
    let umpires: Vec<String> = tokens
        .iter()
        .map(|t| format!("{url}g/{}/umpire#{}", t.game, t.token))
        .collect();
    for page in &umpires {
        say(&mut out, &format!("umpire {page}"));
    }
    for t in tokens {
        let how = match t.made {
            Made::Kept => "the same as last time",
            Made::New => "new",
            Made::Replaced => "new (--new-token): the old address no longer works",
        };
        let said = format!(
            "note: {}'s umpire token is {how}, kept in {} for the next start",
            t.game,
            t.file.display()
        );
        say(&mut out, &crate::text::visible_lines(&said));
    }
    if std::io::stdout().is_terminal() {
        say(&mut out, &qr(&url));
        for (t, page) in tokens.iter().zip(&umpires) {
            say(
                &mut out,
                &format!("the umpire's page of {}:\n{}", t.game, qr(page)),
            );
        }
    }
    let _ = out.flush();
}

/// A line of `announce`, written whole in one write: a note another
/// thread writes to standard error meanwhile (into the same file) falls
/// between lines, never inside one.
fn say(out: &mut impl Write, line: &str) {
    let _ = out.write_all(format!("{line}\n").as_bytes());
}

/// A QR code of `text`, drawn for a terminal (empty if it cannot be).
fn qr(text: &str) -> String {
    match qrcode::QrCode::new(text.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .build(),
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_named_by_its_file() {
        assert_eq!(name_of(Path::new("club/tuesday.json")).unwrap(), "tuesday");
        assert_eq!(name_of(Path::new("a.b")).unwrap(), "a.b");
        assert!(name_of(Path::new("..json")).is_err());
        assert!(name_of(Path::new("my game.json")).is_err());
        assert!(name_of(Path::new("<x>.json")).is_err());
    }

    #[test]
    fn the_games_own_port_is_the_same_for_the_same_games() {
        let a = [std::path::PathBuf::from("/club/table1.json")];
        let b = [std::path::PathBuf::from("/club/table2.json")];
        assert_eq!(own_port(&a), own_port(&a.clone()));
        assert_ne!(own_port(&a), own_port(&b));
        assert!(OWN_PORTS.contains(&own_port(&a)));
    }
}
