//! `drumhead serve` run from a test, and HTTP/1.1 spoken by hand over
//! std's TcpStream: a client library would tidy up the odd requests
//! (`/g/../../etc/passwd`) these tests must send as they are.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Long enough for a loaded CI machine; a healthy server answers at once.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `drumhead serve`, killed when dropped.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
    /// The first line it printed: `serving http://HOST:PORT/`.
    pub first_line: String,
    /// Each `umpire …` line, in order.
    pub umpire_lines: Vec<String>,
    /// Everything it has written to standard error so far.
    stderr: Arc<Mutex<String>>,
    /// Standard output after the lines above, as it comes.
    later: Receiver<String>,
}

/// `drumhead serve --listen 127.0.0.1:0 --game G … EXTRA…`, once it has
/// said where it listens (and, with `--umpire`, each game's page).
pub fn serve(games: &[&Path], extra: &[&str]) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_drumhead"));
    cmd.arg("serve").args(["--listen", "127.0.0.1:0"]);
    for g in games {
        cmd.arg("--game").arg(g);
    }
    cmd.args(extra);
    spawn(cmd, games.len(), extra.contains(&"--umpire"))
}

/// Start `cmd` (a `serve` command line) and read its first lines.
pub fn spawn(mut cmd: Command, games: usize, umpire: bool) -> Server {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("drumhead serve starts");
    let stderr = Arc::new(Mutex::new(String::new()));
    {
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let stderr = stderr.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                stderr
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
    }
    let later = lines_of(child.stdout.take().expect("stdout is piped"));
    let mut server = Server {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        first_line: String::new(),
        umpire_lines: Vec::new(),
        stderr,
        later,
    };
    server.first_line = server.next_line().unwrap_or_else(|| {
        panic!(
            "serve printed no first line; stderr: {}",
            server.stderr_text()
        )
    });
    let url = server
        .first_line
        .strip_prefix("serving http://")
        .and_then(|s| s.strip_suffix('/'))
        .unwrap_or_else(|| panic!("first line: {:?}", server.first_line));
    server.addr = url
        .parse()
        .unwrap_or_else(|e| panic!("{url:?} is no HOST:PORT: {e}"));
    while umpire && server.umpire_lines.len() < games {
        let line = server.next_line().unwrap_or_else(|| {
            panic!(
                "serve --umpire printed {} umpire lines of {games}; stderr: {}",
                server.umpire_lines.len(),
                server.stderr_text()
            )
        });
        if line.starts_with("umpire ") {
            server.umpire_lines.push(line);
        }
    }
    server
}

/// Each line of `out` as it comes, on a channel.
fn lines_of(out: ChildStdout) -> Receiver<String> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    receive
}

impl Server {
    pub fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The next line of standard output, if one comes in time.
    pub fn next_line(&self) -> Option<String> {
        self.later.recv_timeout(PATIENCE).ok()
    }

    pub fn stderr_text(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// The token of the `n`th game's umpire line (after its `#`).
    pub fn token(&self, n: usize) -> String {
        let line = &self.umpire_lines[n];
        line.rsplit_once('#')
            .map(|(_, t)| t.to_string())
            .unwrap_or_else(|| panic!("no #TOKEN in {line:?}"))
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Send `signal` and wait (at most `limit`) for it to end.
    pub fn signal(&mut self, signal: i32, limit: Duration) -> Option<ExitStatus> {
        // SAFETY: kill(2) on our own child's id, which we have not reaped.
        unsafe { libc::kill(self.pid(), signal) };
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn get(&self, path: &str) -> Response {
        request(
            self.addr,
            &format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr),
        )
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
    }

    /// `POST /g/NAME/lines` with `line` as the body and `auth` (a whole
    /// `Authorization` value) if given.
    pub fn post_line(&self, name: &str, line: &str, auth: Option<&str>) -> Response {
        let auth = auth
            .map(|a| format!("Authorization: {a}\r\n"))
            .unwrap_or_default();
        let head = format!(
            "POST /g/{name}/lines HTTP/1.1\r\nHost: {}\r\n{auth}Content-Type: text/plain\r\nContent-Length: {}\r\n\r\n{line}",
            self.addr,
            line.len()
        );
        request(self.addr, &head).unwrap_or_else(|e| panic!("POST {line:?}: {e}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response, its body whole (chunks joined).
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

pub fn connect(addr: SocketAddr) -> io::Result<TcpStream> {
    let stream = TcpStream::connect_timeout(&addr, PATIENCE)?;
    stream.set_read_timeout(Some(PATIENCE))?;
    stream.set_write_timeout(Some(PATIENCE))?;
    Ok(stream)
}

/// A connection from the loopback address `from` (bound before it
/// connects; Linux routes all of 127.0.0.0/8 to loopback), as [`connect`].
pub fn connect_from(from: Ipv4Addr, addr: SocketAddr) -> io::Result<TcpStream> {
    let SocketAddr::V4(to) = addr else {
        return Err(io::Error::other("an IPv4 server address is needed"));
    };
    let socket_address = |ip: Ipv4Addr, port: u16| libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(ip).to_be(),
        },
        sin_zero: [0; 8],
    };
    let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: a socket made here and owned by the TcpStream at once (which
    // closes it); bind(2) and connect(2) read the addresses, which live
    // across the calls.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let stream = <TcpStream as std::os::fd::FromRawFd>::from_raw_fd(fd);
        let local = socket_address(from, 0);
        if libc::bind(fd, (&local as *const libc::sockaddr_in).cast(), len) != 0 {
            return Err(io::Error::last_os_error());
        }
        let remote = socket_address(*to.ip(), to.port());
        if libc::connect(fd, (&remote as *const libc::sockaddr_in).cast(), len) != 0 {
            return Err(io::Error::last_os_error());
        }
        stream.set_read_timeout(Some(PATIENCE))?;
        stream.set_write_timeout(Some(PATIENCE))?;
        Ok(stream)
    }
}

/// Send `raw` (the request line and headers, and any body) as it is, and
/// read one response. The body is written from a thread, so a server
/// that answers before reading all of it (a body too large) is heard.
pub fn request(addr: SocketAddr, raw: &str) -> io::Result<Response> {
    request_bytes(addr, raw.as_bytes().to_vec())
}

pub fn request_bytes(addr: SocketAddr, raw: Vec<u8>) -> io::Result<Response> {
    let stream = connect(addr)?;
    let mut writer = stream.try_clone()?;
    let sending = std::thread::spawn(move || {
        let _ = writer.write_all(&raw);
        let _ = writer.flush();
    });
    let mut reader = BufReader::new(stream);
    let response = read_response(&mut reader);
    // The writer ends when all is sent or the server has closed.
    let _ = reader.get_ref().shutdown(std::net::Shutdown::Both);
    let _ = sending.join();
    response
}

/// The status line and headers of a response.
pub fn read_head(reader: &mut impl BufRead) -> io::Result<(u16, Vec<(String, String)>)> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| io::Error::other(format!("no status line: {line:?}")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(io::Error::other("the headers were cut short"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((n, v)) = l.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    Ok((status, headers))
}

fn read_response(reader: &mut BufReader<TcpStream>) -> io::Result<Response> {
    let (status, headers) = read_head(reader)?;
    let mut response = Response {
        status,
        headers,
        body: Vec::new(),
    };
    if response
        .header("transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
    {
        Chunked::new(reader).read_to_end(&mut response.body)?;
    } else if let Some(n) = response.header("content-length") {
        let n: usize = n
            .parse()
            .map_err(|_| io::Error::other("a bad content-length"))?;
        response.body.resize(n, 0);
        reader.read_exact(&mut response.body)?;
    } else {
        reader.read_to_end(&mut response.body)?;
    }
    Ok(response)
}

/// A chunked body read as one stream of bytes.
pub struct Chunked<R> {
    inner: R,
    /// Bytes left in the chunk being read.
    left: usize,
    done: bool,
}

impl<R: BufRead> Chunked<R> {
    pub fn new(inner: R) -> Self {
        Chunked {
            inner,
            left: 0,
            done: false,
        }
    }
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done || buf.is_empty() {
            return Ok(0);
        }
        if self.left == 0 {
            let mut size = String::new();
            // The CRLF after the previous chunk, then the size line.
            while size.trim().is_empty() {
                size.clear();
                if self.inner.read_line(&mut size)? == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "chunked body cut short",
                    ));
                }
            }
            let hex = size.trim().split(';').next().unwrap_or("");
            self.left = usize::from_str_radix(hex, 16)
                .map_err(|_| io::Error::other(format!("bad chunk size {size:?}")))?;
            if self.left == 0 {
                self.done = true;
                return Ok(0);
            }
        }
        let n = buf.len().min(self.left);
        let n = self.inner.read(&mut buf[..n])?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "chunk cut short",
            ));
        }
        self.left -= n;
        Ok(n)
    }
}

/// Send `raw` and close the sending half, as a client that gives up
/// mid-request does; whatever answer comes (if any) in `limit`.
pub fn send_and_hang_up(addr: SocketAddr, raw: &[u8], limit: Duration) -> Option<Vec<u8>> {
    let mut stream = connect(addr).ok()?;
    stream.set_read_timeout(Some(limit)).ok()?;
    let _ = stream.write_all(raw);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    Some(answer)
}
