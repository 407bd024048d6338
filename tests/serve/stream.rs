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

#[test]
fn a_large_sweep_is_sent_as_it_is_counted_in_little_memory() {
    let dir = scratch();
    let game = new_game(dir.path(), "leuthen");
    let server = serve(&[&game], &[]);
    let start = Instant::now();
    let mut stream = http::connect(server.addr).expect("connects");
    write!(
        stream,
        "GET {HEAVY_ODDS} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .expect("asks");
    let mut reader = BufReader::new(stream);
    let (status, _) = http::read_head(&mut reader).expect("a head");
    assert_eq!(status, 200);
    let mut body = Chunked::new(reader);
    // The second combination (1", 12 figures) begins: the first is out.
    let second = b"{\"values\":[\"1\\\"\",\"12\"]";
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
    let v: serde_json::Value = serde_json::from_slice(&got).expect("one JSON object");
    assert_eq!(v["type"], "sweep");
    assert_eq!(v["rows"].as_array().map(Vec::len), Some(400));
    let peak = peak_kib(server.pid());
    assert!(peak < MOST_KIB, "the server held {peak} KiB");
}
