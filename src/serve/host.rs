//! The `Host` a request names must be one this server answers to: the
//! address it listens on, `localhost` when that is loopback, and each
//! `--host` given. A page of another site that makes its own name point
//! at this machine (DNS rebinding) sends that name as the `Host`, and is
//! refused (421), so it reads nothing of a game and reaches no umpire.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The names a request may give as its `Host`, lowercased, each with the
/// port (and without it, for port 80, where a browser leaves it out).
#[derive(Debug, Clone)]
pub(crate) struct Hosts {
    names: Vec<String>,
}

impl Hosts {
    /// The names of a server bound to `bound`: its address (every address
    /// of this machine when it listens on all of them), `localhost` on
    /// loopback, and `given` (`NAME` or `NAME:PORT`; a name without a
    /// port is taken with the one listened on).
    pub(crate) fn new(bound: SocketAddr, given: &[String]) -> Hosts {
        let port = bound.port();
        let mut ips = vec![bound.ip()];
        if bound.ip().is_unspecified() {
            ips.extend(local_addresses());
            ips.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
            ips.push(IpAddr::V6(Ipv6Addr::LOCALHOST));
        }
        let mut hosts = Hosts { names: Vec::new() };
        for ip in &ips {
            hosts.add(&SocketAddr::new(*ip, port).to_string(), port);
        }
        if ips.iter().any(IpAddr::is_loopback) {
            hosts.add(&format!("localhost:{port}"), port);
        }
        for name in given {
            match name.rsplit_once(':') {
                Some((_, p)) if p.parse::<u16>().is_ok() && !name.ends_with(']') => {
                    hosts.add(name, port);
                }
                _ => hosts.add(&format!("{name}:{port}"), port),
            }
        }
        hosts
    }

    fn add(&mut self, with_port: &str, port: u16) {
        let with_port = with_port.to_ascii_lowercase();
        if port == 80
            && let Some(bare) = with_port.strip_suffix(":80")
        {
            self.names.push(bare.to_string());
        }
        self.names.push(with_port);
    }

    /// Whether `host` (a `Host` header's value, or a request's
    /// authority) names this server.
    pub(crate) fn allows(&self, host: &str) -> bool {
        let host = host.trim();
        let host = host.strip_suffix('.').unwrap_or(host);
        self.names.iter().any(|n| n.eq_ignore_ascii_case(host))
    }
}

/// Whether a `--host` value is a name a browser could send.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let fits = !name.is_empty()
        && name.len() <= 255
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '[' | ']'));
    if fits {
        Ok(())
    } else {
        Err(format!(
            "--host {name:?}: a host name is letters, digits, `-` and `.` (with :PORT if you like)"
        ))
    }
}

/// Every address of this machine's network interfaces (up or not), from
/// getifaddrs(3); none where it fails.
fn local_addresses() -> Vec<IpAddr> {
    let mut found = Vec::new();
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs(3) fills `list` with a list we own until
    // freeifaddrs(3); each node and its address are read only before then.
    unsafe {
        if libc::getifaddrs(&mut list) != 0 {
            return found;
        }
        let mut node = list;
        while !node.is_null() {
            let addr = (*node).ifa_addr;
            if !addr.is_null() {
                match i32::from((*addr).sa_family) {
                    libc::AF_INET => {
                        let v4 = &*(addr as *const libc::sockaddr_in);
                        found.push(IpAddr::V4(Ipv4Addr::from(u32::from_be(v4.sin_addr.s_addr))));
                    }
                    libc::AF_INET6 => {
                        let v6 = &*(addr as *const libc::sockaddr_in6);
                        found.push(IpAddr::V6(Ipv6Addr::from(v6.sin6_addr.s6_addr)));
                    }
                    _ => {}
                }
            }
            node = (*node).ifa_next;
        }
        libc::freeifaddrs(list);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_answers_to_its_address_and_localhost_only() {
        let hosts = Hosts::new("127.0.0.1:7878".parse().unwrap(), &[]);
        assert!(hosts.allows("127.0.0.1:7878"));
        assert!(hosts.allows("LOCALHOST:7878"));
        assert!(!hosts.allows("localhost:7879"));
        assert!(!hosts.allows("evil.example"));
        assert!(!hosts.allows("evil.example:7878"));
        assert!(!hosts.allows(""));
    }

    #[test]
    fn given_names_are_taken_with_the_port() {
        let hosts = Hosts::new(
            "192.168.1.5:80".parse().unwrap(),
            &["club.lan".into(), "other:8080".into()],
        );
        assert!(hosts.allows("192.168.1.5"));
        assert!(hosts.allows("192.168.1.5:80"));
        assert!(hosts.allows("club.lan"));
        assert!(hosts.allows("club.lan:80"));
        assert!(hosts.allows("other:8080"));
        assert!(!hosts.allows("localhost"));
        assert!(!hosts.allows("other"));
    }

    #[test]
    fn every_address_answers_when_listening_on_all() {
        let hosts = Hosts::new("0.0.0.0:7878".parse().unwrap(), &[]);
        assert!(hosts.allows("127.0.0.1:7878"));
        assert!(hosts.allows("[::1]:7878"));
        assert!(!hosts.allows("evil.example:7878"));
    }

    #[test]
    fn a_host_name_is_checked() {
        assert!(check_name("club.lan").is_ok());
        assert!(check_name("club.lan:8080").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("a b").is_err());
        assert!(check_name("a/b").is_err());
    }
}
