//! Pages in a real browser: headless Chromium, driven over its DevTools
//! protocol (a WebSocket spoken by hand: one request, one answer at a
//! time), as a phone shows them (390×844, mobile emulation: touch, the
//! page's viewport, light or dark).
//!
//! Without Chromium a test says it is skipped and why, and passes —
//! unless DRUMHEAD_REQUIRE_BROWSER=1 (CI sets it), when it fails.

pub mod live;
pub mod phone;
pub mod pocket;
pub mod umpire;

use std::io::{self, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::http;

pub const BROWSERS: &[&str] = &[
    "chromium-headless-shell",
    "/usr/lib/chromium/chromium-headless-shell",
    "chromium",
    "chromium-browser",
];

/// How long start-up may take on a loaded machine: generous, since only
/// the delivery of the three lines is held to a second.
pub const START: Duration = Duration::from_secs(60);

pub fn browser() -> Option<PathBuf> {
    BROWSERS.iter().find_map(|program| {
        if program.contains('/') {
            let path = PathBuf::from(program);
            return path.is_file().then_some(path);
        }
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|dir| dir.join(program))
            .find(|p| p.is_file())
    })
}

/// Why a browser session did not finish.
pub enum Failed {
    /// The browser died of a signal (it does, now and then, in a
    /// container under load): tried again with a fresh profile.
    Crashed(String),
    /// Anything else: a failure of the page or of the test.
    Other(String),
}

impl From<io::Error> for Failed {
    fn from(e: io::Error) -> Failed {
        Failed::Other(e.to_string())
    }
}

/// A headless Chromium showing one page, killed when dropped.
pub struct Browser {
    child: Child,
    /// The page's DevTools WebSocket, once connected.
    socket: Option<BufReader<TcpStream>>,
    next_id: u64,
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The whole group: `chromium-headless-shell` on the PATH is a shell
        // script whose browser would outlive it.
        // SAFETY: kill(2) of the process group our own child leads.
        unsafe { libc::kill(-(self.child.id() as i32), libc::SIGKILL) };
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    /// Chromium at `width`×`height` on `url`, its DevTools port found in
    /// the profile's DevToolsActivePort, connected to the page's target.
    pub fn open(
        program: &Path,
        profile: &Path,
        url: &str,
        size: (u32, u32),
    ) -> Result<Browser, Failed> {
        // Its shared-memory files (with --disable-dev-shm-usage) go in the
        // profile's folder, which the test removes, not in /tmp.
        let child = Command::new(program)
            .env("TMPDIR", profile.parent().unwrap_or(profile))
            .process_group(0)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--window-size={},{}", size.0, size.1))
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failed::Other(format!("{}: {e}", program.display())))?;
        let mut b = Browser {
            child,
            socket: None,
            next_id: 1,
        };
        let port_file = profile.join("DevToolsActivePort");
        let started = Instant::now();
        let ws = loop {
            b.alive()?;
            if started.elapsed() > START {
                return Err(Failed::Other("Chromium opened no DevTools port".into()));
            }
            std::thread::sleep(Duration::from_millis(100));
            let Ok(text) = std::fs::read_to_string(&port_file) else {
                continue;
            };
            let Some(port) = text
                .lines()
                .next()
                .and_then(|p| p.trim().parse::<u16>().ok())
            else {
                continue;
            };
            let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
            let Ok(list) = http::request(
                addr,
                &format!("GET /json/list HTTP/1.1\r\nHost: {addr}\r\n\r\n"),
            ) else {
                continue;
            };
            let Ok(targets) = serde_json::from_slice::<Value>(&list.body) else {
                continue;
            };
            let found = targets.as_array().into_iter().flatten().find(|t| {
                t["type"] == "page" && t["url"].as_str().is_some_and(|u| u.starts_with(url))
            });
            if let Some(ws) = found.and_then(|t| t["webSocketDebuggerUrl"].as_str()) {
                break ws.to_string();
            }
        };
        b.socket = Some(
            websocket(&ws).map_err(|e| Failed::Other(format!("DevTools WebSocket {ws}: {e}")))?,
        );
        Ok(b)
    }

    /// A crash (a signal) is worth another try; any other end is not.
    pub fn alive(&mut self) -> Result<(), Failed> {
        match self.child.try_wait()? {
            None => Ok(()),
            Some(status) if status.code().is_none() => {
                Err(Failed::Crashed(format!("Chromium died: {status}")))
            }
            Some(status) => Err(Failed::Other(format!("Chromium ended: {status}"))),
        }
    }

    /// One DevTools command and its result.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, Failed> {
        let id = self.next_id;
        self.next_id += 1;
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        let Some(socket) = self.socket.as_mut() else {
            return Err(Failed::Other("no DevTools connection".into()));
        };
        let mut sent = send_frame(socket.get_mut(), message.as_bytes());
        loop {
            let reply = std::mem::replace(&mut sent, Ok(())).and_then(|()| read_message(socket));
            let reply = match reply {
                Ok(r) => r,
                Err(e) => {
                    self.alive()?;
                    return Err(Failed::Other(format!("DevTools: {e}")));
                }
            };
            let Ok(reply) = serde_json::from_slice::<Value>(&reply) else {
                continue;
            };
            if reply["id"] == id {
                if reply.get("error").is_some() {
                    return Err(Failed::Other(format!("{method}: {reply}")));
                }
                return Ok(reply["result"].clone());
            }
        }
    }

    /// The value of a JavaScript expression in the page.
    pub fn eval(&mut self, expression: &str) -> Result<Value, Failed> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(Failed::Other(format!("{expression}: {e}")));
        }
        Ok(r["result"]["value"].clone())
    }

    /// Wait (at most `limit`) until `expression` is true in the page.
    pub fn until(&mut self, expression: &str, limit: Duration) -> Result<(), Failed> {
        let started = Instant::now();
        while started.elapsed() < limit {
            if self.eval(expression)? == Value::Bool(true) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(Failed::Other(format!(
            "{expression} was not true after {limit:?}"
        )))
    }
}

/// Open a WebSocket to a DevTools `ws://HOST:PORT/PATH` address.
fn websocket(url: &str) -> io::Result<BufReader<TcpStream>> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| io::Error::other(format!("not ws://: {url}")))?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let stream = TcpStream::connect(host)?;
    stream.set_read_timeout(Some(START))?;
    let mut reader = BufReader::new(stream);
    write!(
        reader.get_mut(),
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: ZHJ1bWhlYWQgc2VydmUgdGU=\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )?;
    let (status, _) = http::read_head(&mut reader)?;
    if status != 101 {
        return Err(io::Error::other(format!("WebSocket upgrade: {status}")));
    }
    Ok(reader)
}

/// One masked text frame, as a client must send.
fn send_frame(socket: &mut TcpStream, payload: &[u8]) -> io::Result<()> {
    let mask = [0x5a, 0xc3, 0x17, 0x88];
    let mut frame = vec![0x81u8];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n < 65536 => {
            frame.push(0x80 | 126);
            frame.extend((n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend((n as u64).to_be_bytes());
        }
    }
    frame.extend(mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    socket.write_all(&frame)
}

/// One whole message (its frames joined); pings and the like skipped.
fn read_message(socket: &mut BufReader<TcpStream>) -> io::Result<Vec<u8>> {
    let mut message = Vec::new();
    loop {
        let mut head = [0u8; 2];
        socket.read_exact(&mut head)?;
        let (fin, opcode) = (head[0] & 0x80 != 0, head[0] & 0x0f);
        let mut len = u64::from(head[1] & 0x7f);
        if len == 126 {
            let mut b = [0u8; 2];
            socket.read_exact(&mut b)?;
            len = u64::from(u16::from_be_bytes(b));
        } else if len == 127 {
            let mut b = [0u8; 8];
            socket.read_exact(&mut b)?;
            len = u64::from_be_bytes(b);
        }
        let mut payload = vec![0u8; len as usize];
        socket.read_exact(&mut payload)?;
        match opcode {
            0x8 => return Err(io::Error::other("the browser closed the WebSocket")),
            0x9 | 0xa => continue,
            _ => message.extend(payload),
        }
        if fin {
            return Ok(message);
        }
    }
}

pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The screen a phone has: 390×844 CSS pixels.
pub const PHONE: (u32, u32) = (390, 844);

/// Light or dark, as the phone's setting asks the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Light,
    Dark,
}

impl Scheme {
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Light => "light",
            Scheme::Dark => "dark",
        }
    }
}

impl Browser {
    /// A phone's screen from now on: `size` CSS pixels at one device
    /// pixel each, mobile (the page's viewport is honoured, a tap is a
    /// touch), in `scheme`.
    pub fn as_phone(&mut self, size: (u32, u32), scheme: Scheme) -> Result<(), Failed> {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": size.0, "height": size.1, "deviceScaleFactor": 1, "mobile": true}),
        )?;
        self.call(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": true, "maxTouchPoints": 5}),
        )?;
        self.scheme(scheme)
    }

    /// The colour scheme the page is asked for.
    pub fn scheme(&mut self, scheme: Scheme) -> Result<(), Failed> {
        self.call(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": scheme.name()}]}),
        )?;
        Ok(())
    }

    /// Open `url` and wait until it is loaded.
    pub fn go(&mut self, url: &str) -> Result<(), Failed> {
        self.call("Page.navigate", json!({ "url": url }))?;
        // The old page may still say it is complete for a moment.
        std::thread::sleep(Duration::from_millis(100));
        self.until(
            &format!(
                "document.readyState === 'complete' && location.href.startsWith({})",
                serde_json::to_string(url.split('#').next().unwrap_or(url)).unwrap_or_default()
            ),
            START,
        )
    }

    /// The screen as it is, as PNG.
    pub fn screenshot(&mut self) -> Result<Vec<u8>, Failed> {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "fromSurface": true, "captureBeyondViewport": false}),
        )?;
        let data = shot["data"].as_str().unwrap_or_default();
        base64(data).ok_or_else(|| Failed::Other("the screenshot is not base64".into()))
    }

    /// A finger's tap on the middle of the first element `selector`
    /// finds, where it is on the screen now.
    pub fn tap(&mut self, selector: &str) -> Result<(), Failed> {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({}); if (!e) return null; \
             const r = e.getBoundingClientRect(); \
             return [r.left + r.width / 2, r.top + r.height / 2]; }})()",
            serde_json::to_string(selector).unwrap_or_default()
        ))?;
        let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
            return Err(Failed::Other(format!("nothing to tap: {selector}")));
        };
        let point = json!([{"x": x, "y": y}]);
        self.call(
            "Input.dispatchTouchEvent",
            json!({"type": "touchStart", "touchPoints": point}),
        )?;
        self.call(
            "Input.dispatchTouchEvent",
            json!({"type": "touchEnd", "touchPoints": []}),
        )?;
        Ok(())
    }

    /// Type `text` into the field `selector` (focused first, emptied),
    /// then submit its form.
    pub fn type_and_submit(&mut self, selector: &str, text: &str) -> Result<(), Failed> {
        let field = serde_json::to_string(selector).unwrap_or_default();
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({field}); e.value = ''; e.focus(); }})()"
        ))?;
        self.call("Input.insertText", json!({ "text": text }))?;
        self.eval(&format!(
            "document.querySelector({field}).form.requestSubmit()"
        ))?;
        Ok(())
    }

    /// The value of a JavaScript expression that makes a JSON string.
    pub fn json(&mut self, expression: &str) -> Result<Value, Failed> {
        let text = self.eval(expression)?;
        serde_json::from_str(text.as_str().unwrap_or("null"))
            .map_err(|e| Failed::Other(format!("{expression}: {e}")))
    }
}

/// Base64 (the standard alphabet, padded) to bytes.
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let bytes: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().filter(|&&b| b == b'=').count();
        let mut n = 0u32;
        for &c in chunk {
            n = (n << 6) | if c == b'=' { 0 } else { value(c)? };
        }
        n <<= 6 * (4 - chunk.len() as u32);
        let three = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&three[..3 - pad.min(2)]);
    }
    Some(out)
}

/// Chromium, or why a test goes without it: `None` when the test is
/// skipped (said on standard error), a failure when CI requires it.
pub fn required() -> Option<PathBuf> {
    let required = std::env::var("DRUMHEAD_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    let found = browser();
    if found.is_none() {
        let why = format!("no headless Chromium (looked for {})", BROWSERS.join(", "));
        assert!(!required, "DRUMHEAD_REQUIRE_BROWSER=1 but {why}");
        eprintln!("SKIPPED a browser test: {why}; apt-get install chromium-headless-shell");
    }
    found
}

/// Run `session` with a fresh folder each time, as often as Chromium
/// crashes under it (three times at most): a crash is the container's,
/// any other failure the page's or the test's, and fails at once.
pub fn attempts(mut session: impl FnMut(&Path) -> Result<(), Failed>) {
    let dir = super::scratch();
    let mut crashes = Vec::new();
    for attempt in 1..=3 {
        let here = dir.path().join(format!("attempt-{attempt}"));
        std::fs::create_dir_all(&here).expect("a directory");
        match session(&here) {
            Ok(()) => return,
            Err(Failed::Crashed(why)) => crashes.push(format!("attempt {attempt}: {why}")),
            Err(Failed::Other(why)) => panic!("{why}"),
        }
    }
    panic!("the browser crashed three times:\n{}", crashes.join("\n"));
}

#[test]
fn base64_reads_what_chromium_writes() {
    assert_eq!(base64("aGVsbG8=").unwrap(), b"hello");
    assert_eq!(base64("aGVsbG8h").unwrap(), b"hello!");
    assert_eq!(base64("aGk=").unwrap(), b"hi");
    assert_eq!(base64("").unwrap(), b"");
    assert!(base64("a$==").is_none());
}
