//! A Server-Sent Events client over std's TcpStream: the request, the
//! response head, then events parsed line by line (`id:`, `event:`,
//! `data:`, comments), one dispatched at each blank line.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Instant;

use super::http::{Chunked, connect, connect_from, read_head};

/// One event as the stream gave it.
#[derive(Debug, Clone)]
pub struct Event {
    pub id: Option<String>,
    /// `message` unless an `event:` line named it.
    pub kind: String,
    /// The `data:` lines, each one element.
    pub data: Vec<String>,
    /// When its blank line was read.
    pub at: Instant,
}

impl Event {
    pub fn id_number(&self) -> Option<u64> {
        self.id.as_deref().and_then(|i| i.parse().ok())
    }
}

/// An open event stream.
pub struct Stream {
    lines: Box<dyn BufRead + Send>,
    /// The socket itself, to shut it or to ask what waits in it.
    pub socket: TcpStream,
}

/// Open `path` (`/g/NAME/events`…) with `Last-Event-ID: last` if given,
/// and check the answer is an event stream.
pub fn open(addr: SocketAddr, path: &str, last: Option<&str>) -> io::Result<Stream> {
    open_with(addr, path, last, None)
}

/// As [`open`], from the loopback address `from` (one phone of many in a
/// room: the server caps what one address holds).
pub fn open_from(
    from: Ipv4Addr,
    addr: SocketAddr,
    path: &str,
    last: Option<&str>,
) -> io::Result<Stream> {
    open_on(connect_from(from, addr)?, addr, path, last)
}

/// As [`open`], with the socket's receive buffer set to `buffer` bytes
/// before the request is sent (which also stops the kernel growing it):
/// a client that stops reading then backs the server up soon.
pub fn open_with(
    addr: SocketAddr,
    path: &str,
    last: Option<&str>,
    buffer: Option<i32>,
) -> io::Result<Stream> {
    let socket = connect(addr)?;
    if let Some(size) = buffer {
        // SAFETY: setsockopt(2) on a socket we own, from an int that lives
        // across the call.
        let done = unsafe {
            libc::setsockopt(
                std::os::fd::AsRawFd::as_raw_fd(&socket),
                libc::SOL_SOCKET,
                libc::SO_RCVBUF,
                (&size as *const i32).cast(),
                std::mem::size_of::<i32>() as libc::socklen_t,
            )
        };
        if done != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    open_on(socket, addr, path, last)
}

/// Ask for `path` on a connected socket and read the answer's head.
fn open_on(
    mut socket: TcpStream,
    addr: SocketAddr,
    path: &str,
    last: Option<&str>,
) -> io::Result<Stream> {
    let last = last
        .map(|l| format!("Last-Event-ID: {l}\r\n"))
        .unwrap_or_default();
    write!(
        socket,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n{last}\r\n"
    )?;
    let mut reader = BufReader::new(socket.try_clone()?);
    let (status, headers) = read_head(&mut reader)?;
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    if status != 200 {
        return Err(io::Error::other(format!("{path}: status {status}")));
    }
    if !header("content-type").is_some_and(|t| t.starts_with("text/event-stream")) {
        return Err(io::Error::other(format!(
            "{path}: content-type {:?}",
            header("content-type")
        )));
    }
    let lines: Box<dyn BufRead + Send> =
        if header("transfer-encoding").as_deref() == Some("chunked") {
            Box::new(BufReader::new(Chunked::new(reader)))
        } else {
            Box::new(reader)
        };
    Ok(Stream { lines, socket })
}

impl Stream {
    /// The next event, or None at the end of the stream.
    pub fn next_event(&mut self) -> io::Result<Option<Event>> {
        let mut event = Event {
            id: None,
            kind: "message".into(),
            data: Vec::new(),
            at: Instant::now(),
        };
        let mut any = false;
        let mut line = String::new();
        loop {
            line.clear();
            if self.lines.read_line(&mut line)? == 0 {
                return Ok(None);
            }
            if !line.ends_with('\n') {
                // A line without its end: the stream stopped mid-event.
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("a line cut short: {line:?}"),
                ));
            }
            let l = line.trim_end_matches(['\n', '\r']);
            if l.is_empty() {
                if any && !event.data.is_empty() {
                    event.at = Instant::now();
                    return Ok(Some(event));
                }
                any = false;
                continue;
            }
            if l.starts_with(':') {
                continue;
            }
            let (field, value) = l.split_once(':').unwrap_or((l, ""));
            let value = value.strip_prefix(' ').unwrap_or(value).to_string();
            any = true;
            match field {
                "id" => event.id = Some(value),
                "event" => event.kind = value,
                "data" => event.data.push(value),
                _ => {}
            }
        }
    }

    /// The `message` events up to the one whose id is `last`.
    pub fn until(&mut self, last: u64) -> io::Result<Vec<Event>> {
        let mut got = Vec::new();
        while let Some(e) = self.next_event()? {
            let done = e.id_number() == Some(last) && e.kind == "message";
            if e.kind == "message" {
                got.push(e);
            }
            if done {
                return Ok(got);
            }
        }
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!(
                "the stream ended before id {last}, after {} events",
                got.len()
            ),
        ))
    }

    /// Read and drop whatever comes, to the end.
    pub fn drain(&mut self) -> usize {
        let mut buf = [0u8; 65536];
        let mut n = 0;
        while let Ok(k) = self.lines.read(&mut buf) {
            if k == 0 {
                break;
            }
            n += k;
        }
        n
    }
}
