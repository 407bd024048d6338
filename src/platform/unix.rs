//! Unix: the C library's file kinds, open flags, umask and getifaddrs(3).

use std::fs::{FileType, OpenOptions, Permissions};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};

use super::Special;

/// A FIFO, a device or a socket; `None` for anything else.
pub(crate) fn special(t: &FileType) -> Option<Special> {
    if t.is_fifo() {
        Some(Special::Fifo)
    } else if t.is_char_device() || t.is_block_device() {
        Some(Special::Device)
    } else if t.is_socket() {
        Some(Special::Socket)
    } else {
        None
    }
}

/// Open without blocking: a FIFO with no writer would otherwise hang the
/// open before its type could be checked (on a regular file the flag
/// changes nothing).
pub(crate) fn without_blocking(options: &mut OpenOptions) -> &mut OpenOptions {
    options.custom_flags(libc::O_NONBLOCK)
}

/// The process's file-creation mask. Read from /proc where it can be, as
/// setting it to read it would change it for a moment for every thread.
pub(crate) fn current_umask() -> u32 {
    static MASK: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *MASK.get_or_init(|| {
        let from_proc = std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|status| {
                let line = status.lines().find(|l| l.starts_with("Umask:"))?;
                u32::from_str_radix(line["Umask:".len()..].trim(), 8).ok()
            });
        from_proc.unwrap_or_else(|| {
            // SAFETY: umask only swaps the process's mask; it cannot fail.
            let mask = unsafe { libc::umask(0o022) };
            // SAFETY: as above, putting the mask back.
            unsafe { libc::umask(mask) };
            mask as u32
        })
    })
}

/// The permissions a new file gets: those a plain `creat` would give,
/// not a temporary file's 0600.
pub(crate) fn new_file_permissions() -> Option<Permissions> {
    Some(Permissions::from_mode(0o666 & !current_umask()))
}

/// The permissions a replacement keeps: the old file's own, without the
/// file-type bits.
pub(crate) fn kept_permissions(old: &Permissions) -> Permissions {
    Permissions::from_mode(old.mode() & 0o777)
}

/// Every address of this machine's network interfaces (up or not), from
/// getifaddrs(3); none where it fails.
pub(crate) fn local_addresses() -> Vec<IpAddr> {
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

/// Open a file of the owner's own: never through a link (a link is the
/// error [`is_a_link`] tells), never waiting on a FIFO.
pub(crate) fn own_file(options: &mut OpenOptions) -> &mut OpenOptions {
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
}

/// Whether opening with [`own_file`] failed because the path is a link.
pub(crate) fn is_a_link(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

/// A new file readable and writable by its owner alone (0600).
pub(crate) fn owner_only(options: &mut OpenOptions) -> &mut OpenOptions {
    options.mode(0o600)
}

/// Whether this process's user owns the file.
pub(crate) fn mine(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid(2) has no preconditions and cannot fail.
    meta.uid() == unsafe { libc::geteuid() }
}

/// The file's permission bits when others than its owner may use it.
pub(crate) fn open_to_others(meta: &std::fs::Metadata) -> Option<u32> {
    let mode = meta.permissions().mode() & 0o777;
    (mode & 0o077 != 0).then_some(mode)
}

/// Whether two metadata are of one file: the same device and inode.
pub(crate) fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}
