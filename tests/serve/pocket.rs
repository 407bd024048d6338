//! The pocket page (`drumhead pocket`, and `/pocket` of `drumhead
//! serve`). Issue 39: "`drumhead serve` offers the pocket page at
//! `/pocket` (and links it from every game page), with a CSP that allows
//! WebAssembly (`'wasm-unsafe-eval'`) and the page's own inline code by
//! its hash, nothing else new (never `'unsafe-eval'`)."
//!
//! A build without the page's module (a debug build made without
//! DRUMHEAD_POCKET=1, or no wasm32-unknown-unknown target) says so, and
//! these tests check that it says so; the page itself is then skipped,
//! unless DRUMHEAD_REQUIRE_POCKET=1 (CI sets it when it can install the
//! target), when that fails.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::http::serve;
use crate::{new_game, scratch};

/// `drumhead pocket -o DIR/pocket.html`: the page's path, or `None` when
/// this build carries no module (said on standard error).
pub fn page_in(dir: &Path) -> Option<PathBuf> {
    let page = dir.join("pocket.html");
    let out = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("pocket")
        .arg("-o")
        .arg(&page)
        .output()
        .expect("drumhead runs");
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2) && err.contains("rustup target add wasm32-unknown-unknown") {
        let required = std::env::var("DRUMHEAD_REQUIRE_POCKET").is_ok_and(|v| v == "1");
        assert!(!required, "DRUMHEAD_REQUIRE_POCKET=1 but {err}");
        eprintln!("SKIPPED the pocket page: {}", err.trim());
        return None;
    }
    assert!(out.status.success(), "drumhead pocket: {err}");
    Some(page)
}

/// `'sha256-…'` of `text`, as a policy names inline code.
fn digest(text: &str) -> String {
    format!(
        "'sha256-{}'",
        data_encoding::BASE64.encode(&Sha256::digest(text.as_bytes()))
    )
}

/// The text of the first `<tag>` element whose opening tag is exactly
/// `open`.
fn inside<'a>(page: &'a str, open: &str, close: &str) -> &'a str {
    let start = page.find(open).map(|i| i + open.len()).expect(open);
    let end = page[start..].find(close).expect(close);
    &page[start..start + end]
}

#[test]
fn the_pocket_page_is_served_with_its_own_policy_and_linked_from_every_game_page() {
    let dir = scratch();
    let game = new_game(dir.path(), "table1");
    let server = serve(&[&game], &["--umpire"]);
    for path in [
        "/g/table1/",
        "/g/table1/odds?line=roll+2d6",
        "/g/table1/umpire",
    ] {
        let r = crate::http::request(
            server.addr,
            &format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nAccept: text/html\r\n\r\n",
                server.addr
            ),
        )
        .expect(path);
        assert_eq!(r.status, 200, "{path}");
        assert!(
            r.text().contains(r#"<a href="/pocket">Pocket page</a>"#),
            "{path} links the pocket page"
        );
        let policy = r.header("content-security-policy").unwrap_or_default();
        assert!(
            !policy.contains("wasm") && !policy.contains("sha256"),
            "{path}: only /pocket allows more: {policy}"
        );
    }
    let r = server.get("/pocket");
    let Some(file) = page_in(dir.path()) else {
        // A build without the module says how to get it.
        assert_eq!(r.status, 404);
        assert!(
            r.text()
                .contains("rustup target add wasm32-unknown-unknown"),
            "{}",
            r.text()
        );
        return;
    };
    assert_eq!(r.status, 200);
    let page = r.text();
    assert_eq!(
        page,
        std::fs::read_to_string(file).expect("the page"),
        "/pocket is the page `drumhead pocket` writes"
    );
    let policy = r.header("content-security-policy").expect("a policy");
    let script = inside(&page, "<script>", "</script>");
    let style = inside(&page, "<style>", "</style>");
    assert_eq!(
        policy,
        format!(
            "default-src 'self'; script-src {} 'wasm-unsafe-eval'; style-src {}; \
             object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
            digest(script),
            digest(style)
        )
    );
    assert!(!policy.contains("'unsafe-eval'") && !policy.contains("'unsafe-inline'"));
    // One inline script runs, one stylesheet applies: the module is data.
    assert_eq!(
        page.matches("<script").count(),
        2,
        "the module and the code"
    );
    assert!(page.contains(r#"<script id="drumhead-module" type="application/octet-stream" data-encoding="deflate-raw">"#));
    assert!(
        !page.contains(" style="),
        "no style attribute: the policy allows none"
    );
}

#[test]
fn pocket_writes_a_new_file_and_replaces_one_only_with_force() {
    let dir = scratch();
    let Some(page) = page_in(dir.path()) else {
        return;
    };
    let text = std::fs::read_to_string(&page).expect("the page");
    assert!(text.starts_with("<!DOCTYPE html>"));
    assert!(
        !text.contains(" src=") && !text.contains("href=\"http"),
        "nothing loaded or linked from elsewhere"
    );
    let again = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .arg("pocket")
        .arg("-o")
        .arg(&page)
        .output()
        .expect("drumhead runs");
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    let forced = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(["pocket", "--force", "-o"])
        .arg(&page)
        .output()
        .expect("drumhead runs");
    assert!(forced.status.success());
    assert_eq!(std::fs::read_to_string(&page).expect("the page"), text);
}
