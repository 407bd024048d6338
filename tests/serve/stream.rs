//! An odds answer too large for one table is sent as it is counted
//! (issue 37): the server's memory does not grow with it, and its first
//! rows reach the client long before the last is counted.

use std::io::{BufReader, Read, Write};
use std::time::Instant;

use super::attacks::HEAVY_ODDS;
use super::http::{self, Chunked, serve};
use super::{new_game, scratch};

/// The most memory the server may have held, in KiB.
const MOST_KIB: i64 = 64 * 1024;

/// The most memory a process has held (its VmHWM), in KiB.
fn peak_kib(pid: i32) -> i64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// What one streamed odds answer gave.
struct Sent {
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// `GET path` (with `accept`), read as it comes until `second` appears,
/// then to its end: the first rows (before `second`) must come while
/// most of the answer is still to count.
fn get_streamed(addr: std::net::SocketAddr, path: &str, accept: &str, second: &[u8]) -> Sent {
    let start = Instant::now();
    let mut stream = http::connect(addr).expect("connects");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
    )
    .expect("asks");
    let mut reader = BufReader::new(stream);
    let (status, headers) = http::read_head(&mut reader).expect("a head");
    assert_eq!(status, 200);
    let mut body = Chunked::new(reader);
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    while !got.windows(second.len()).any(|w| w == second) {
        let n = body.read(&mut buf).expect("read");
        assert!(n > 0, "no second row in {} bytes", got.len());
        got.extend_from_slice(&buf[..n]);
    }
    let first_rows = start.elapsed();
    body.read_to_end(&mut got).expect("the rest");
    let took = start.elapsed();
    assert!(
        first_rows < took / 2,
        "the first rows came after {first_rows:?} of {took:?}"
    );
    Sent { headers, body: got }
}

#[test]
fn a_large_sweep_is_sent_as_it_is_counted_in_little_memory() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &[]);
    // The second combination (1", 12 figures) begins: the first is out.
    let second = b"{\"values\":[\"1\\\"\",\"12\"]";
    let sent = get_streamed(server.addr, HEAVY_ODDS, "application/json", second);
    let v: serde_json::Value = serde_json::from_slice(&sent.body).expect("one JSON object");
    assert_eq!(v["type"], "sweep");
    assert_eq!(v["rows"].as_array().map(Vec::len), Some(400));
    let peak = peak_kib(server.pid());
    assert!(peak < MOST_KIB, "the server held {peak} KiB");
}

/// The same sweep asked by a browser: its page comes as it is counted,
/// the odds form first, each combination as a small table of its own
/// (as a smaller sweep shows them), and the end of the page after the
/// last; the server's memory does not grow with it.
#[test]
fn a_large_sweep_page_is_sent_as_it_is_counted_in_little_memory() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &[]);
    let second = "<h4>distance 1&quot; · figures 12</h4>";
    let sent = get_streamed(server.addr, HEAVY_ODDS, "text/html", second.as_bytes());
    assert!(
        sent.headers
            .iter()
            .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v.starts_with("text/html")),
        "{:?}",
        sent.headers
    );
    let page = String::from_utf8(sent.body).expect("UTF-8");
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..200]);
    assert!(
        page.contains("<form id=\"odds-form\""),
        "the form comes first"
    );
    assert_eq!(page.matches("<section class=\"combination\">").count(), 400);
    assert!(page.contains("<h4>distance 20&quot; · figures 30</h4>"));
    // The answer is one entry, closed, and the page ends after it.
    assert_eq!(page.matches("<div class=\"answer odds sweep\">").count(), 1);
    assert_eq!(
        page.matches("<article").count(),
        page.matches("</article>").count()
    );
    assert!(
        page.trim_end().ends_with("</html>"),
        "{}",
        &page[page.len() - 200..]
    );
    let peak = peak_kib(server.pid());
    assert!(peak < MOST_KIB, "the server held {peak} KiB");
    // Only the answer, as the page's script asks for it: the entry alone.
    let path = HEAVY_ODDS.replace("odds?", "odds?part=answer&");
    let sent = get_streamed(server.addr, &path, "text/html", second.as_bytes());
    let fragment = String::from_utf8(sent.body).expect("UTF-8");
    assert!(
        fragment.starts_with("<article class=\"entry reply\">"),
        "{}",
        &fragment[..200]
    );
    assert!(
        fragment.ends_with("</article>"),
        "{}",
        &fragment[fragment.len() - 200..]
    );
    assert_eq!(
        fragment.matches("<section class=\"combination\">").count(),
        400
    );
    let peak = peak_kib(server.pid());
    assert!(peak < MOST_KIB, "the server held {peak} KiB");
}

/// A sweep that stops on a combination it cannot count, its first rows
/// sent: the page shows them, then the error below them, and ends whole.
/// Musket Mayhem: a unit has at most 30 figures.
#[test]
fn a_large_sweep_page_stopped_by_an_error_shows_it_after_the_rows() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &[]);
    let path = HEAVY_ODDS.replace("figures%3D11..30%20rerolls%3D1", "figures%3D21..40");
    let sent = get_page(server.addr, &path);
    let page = String::from_utf8(sent).expect("UTF-8");
    // Distance 1" with 21 to 30 figures, then the error.
    assert_eq!(page.matches("<section class=\"combination\">").count(), 10);
    let error = page.find("<div class=\"answer error\"").expect("the error");
    assert!(page[..error].ends_with("</section></div>"), "{page:.300}");
    assert!(page[error..].contains("figures=31"), "{}", &page[error..]);
    assert_eq!(
        page.matches("<article").count(),
        page.matches("</article>").count()
    );
    assert!(page.trim_end().ends_with("</html>"));
}

/// `GET path` as a browser asks it: the whole page, however it is sent.
fn get_page(addr: std::net::SocketAddr, path: &str) -> Vec<u8> {
    let mut stream = http::connect(addr).expect("connects");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/html\r\nConnection: close\r\n\r\n"
    )
    .expect("asks");
    let mut reader = BufReader::new(stream);
    let (status, _) = http::read_head(&mut reader).expect("a head");
    assert_eq!(status, 200);
    let mut body = Vec::new();
    Chunked::new(reader)
        .read_to_end(&mut body)
        .expect("the page");
    body
}
