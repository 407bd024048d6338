//! Platforms without the Unix calls (Windows, WebAssembly): what the
//! standard library alone can say.

use std::fs::{FileType, OpenOptions, Permissions};
use std::net::IpAddr;

use super::Special;

/// The standard library tells a file, a directory and a link apart here;
/// anything else is "not a regular file" in the caller's words.
pub(crate) fn special(_: &FileType) -> Option<Special> {
    None
}

/// Opening a named pipe does not wait for a writer here.
pub(crate) fn without_blocking(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// A new file keeps the permissions the platform gives it.
pub(crate) fn new_file_permissions() -> Option<Permissions> {
    None
}

/// A replacement keeps the old file's permissions (here: read-only or not).
pub(crate) fn kept_permissions(old: &Permissions) -> Permissions {
    old.clone()
}

/// The machine's own addresses are not asked for here: only the loopback
/// names and the listening address are taken as this machine.
pub(crate) fn local_addresses() -> Vec<IpAddr> {
    Vec::new()
}

/// Open a file of the owner's own (a link is refused before opening, by
/// its metadata).
pub(crate) fn own_file(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// No error tells a link here: the caller looks at the path first.
pub(crate) fn is_a_link(_: &std::io::Error) -> bool {
    false
}

/// A new file with the platform's default permissions.
pub(crate) fn owner_only(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// Files have no Unix owner here: the user's own profile folder keeps them.
pub(crate) fn mine(_: &std::fs::Metadata) -> bool {
    true
}

/// No Unix permission bits to look at here.
pub(crate) fn open_to_others(_: &std::fs::Metadata) -> Option<u32> {
    None
}

/// Whether two metadata are of one file. The standard library gives no
/// file identity here: the same length and time of change stand for it.
pub(crate) fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}
