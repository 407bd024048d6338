//! The umpire's token of a game, kept beside it (`FILE.token`) so that
//! the umpire's address holds from one start of the server to the next:
//! made once, with `--umpire`, readable by its owner only (0600), and
//! replaced only with `--new-token`. The file is never followed through a
//! link, never taken if another user owns it or others may read it, and
//! never written over unless it is a token file: a game's readers (serve
//! without `--umpire`, units, log) make nothing and need no write access.
//!
//! Its text: `{"drumhead_umpire_token":1,"token":"HEX"}` and a newline,
//! the token 32 random bytes in hex.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::guard::new_token;

/// The key a token file starts with, and its version.
const KEY: &str = "drumhead_umpire_token";

/// The most bytes a token file is read for: it is one short line.
const MOST: u64 = 512;

/// Where a game's umpire token is kept: `FILE.token` beside `FILE`.
pub(crate) fn path_for(game: &Path) -> PathBuf {
    let mut name = game.as_os_str().to_owned();
    name.push(".token");
    PathBuf::from(name)
}

/// How a game's token came to be, for the server to say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Made {
    /// Read from the file, as the last start left it.
    Kept,
    /// Made now, the file new.
    New,
    /// Made now with `--new-token`, over the one the file held.
    Replaced,
}

/// The umpire's token of the game at `game`: the kept one, or a new one
/// (kept from now on) when there is none or `renew` asks for one.
pub(crate) fn umpire_token(game: &Path, renew: bool) -> Result<(String, Made), String> {
    let path = path_for(game);
    let shown = path.display();
    match open_kept(&path)? {
        Some(file) => {
            let token = read_kept(file).map_err(|why| {
                format!(
                    "{shown} {why}: it is not a token drumhead kept, and is left as it is \
                     (move it away, and a new token is made)"
                )
            })?;
            if !renew {
                return Ok((token, Made::Kept));
            }
            let token = new_token()?;
            replace(&path, &token)
                .map_err(|e| format!("{shown}: cannot replace the token: {e}"))?;
            Ok((token, Made::Replaced))
        }
        None => {
            let token = new_token()?;
            create(&path, &token).map_err(|e| {
                format!(
                    "{shown}: cannot keep the umpire's token beside the game ({e}); \
                     --umpire needs to write in the game's folder"
                )
            })?;
            Ok((token, Made::New))
        }
    }
}

/// The token file, opened for reading if there is one: never through a
/// link, never a FIFO or a device (opened without blocking, its type
/// checked before a byte is read).
fn open_kept(path: &Path) -> Result<Option<File>, String> {
    let shown = path.display();
    let link = || std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let opened = if link() {
        Err(std::io::Error::other("a symbolic link"))
    } else {
        crate::platform::own_file(OpenOptions::new().read(true)).open(path)
    };
    let file = match opened {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if crate::platform::is_a_link(&e) || link() => {
            return Err(format!(
                "{shown} is a symbolic link: the umpire's token is kept in a file of its own, \
                 never through a link; remove the link"
            ));
        }
        Err(e) => return Err(format!("{shown}: cannot read the umpire's token: {e}")),
    };
    let meta = file
        .metadata()
        .map_err(|e| format!("{shown}: cannot read the umpire's token: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "{shown} is not a regular file: the umpire's token is kept in a file of its own; \
             move it away"
        ));
    }
    if !crate::platform::mine(&meta) {
        return Err(format!(
            "{shown} belongs to another user: a token is taken only from its owner's own file; \
             move it away"
        ));
    }
    if let Some(mode) = crate::platform::open_to_others(&meta) {
        return Err(format!(
            "{shown} may be read by others (mode {mode:o}): the umpire's token must be the \
             owner's alone; `chmod 600` it, or give --new-token for a new one"
        ));
    }
    Ok(Some(file))
}

/// The token a token file holds, or what is wrong with it.
fn read_kept(file: File) -> Result<String, &'static str> {
    let mut text = String::new();
    file.take(MOST)
        .read_to_string(&mut text)
        .map_err(|_| "cannot be read as text")?;
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|_| "is not a token file")?;
    if value.get(KEY).and_then(serde_json::Value::as_u64) != Some(1) {
        return Err("is not a token file of this drumhead");
    }
    let token = value
        .get("token")
        .and_then(serde_json::Value::as_str)
        .ok_or("holds no token")?;
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("holds no token of 32 bytes in hex");
    }
    Ok(token.to_ascii_lowercase())
}

fn text_of(token: &str) -> String {
    format!("{{\"{KEY}\":1,\"token\":\"{token}\"}}\n")
}

/// Write `token` into a new file at `path`, 0600, synced: never over
/// anything already there, never through a link.
fn create(path: &Path, token: &str) -> std::io::Result<()> {
    // create_new never follows a link: a link there is "already exists".
    let mut file =
        crate::platform::owner_only(OpenOptions::new().write(true).create_new(true)).open(path)?;
    let written = file
        .write_all(text_of(token).as_bytes())
        .and_then(|()| file.sync_all());
    if let Err(e) = written {
        drop(file);
        let _ = std::fs::remove_file(path);
        return Err(e);
    }
    crate::output_file::sync_folder(path);
    Ok(())
}

/// Put a new token in place of a token file (checked as one before):
/// into a new 0600 file beside it, then renamed over it, so the file
/// holds one token or the other, whole.
fn replace(path: &Path, token: &str) -> std::io::Result<()> {
    // A temporary file is its owner's alone (0600 on Unix) from the start.
    let staged = crate::output_file::stage_beside(path, text_of(token).as_bytes(), None, true)?;
    staged.persist(path).map_err(|e| e.error)?;
    crate::output_file::sync_folder(path);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_token_is_made_once_kept_and_replaced_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("g.json");
        let (first, made) = umpire_token(&game, false).unwrap();
        assert_eq!(made, Made::New);
        let meta = std::fs::metadata(path_for(&game)).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        let (again, made) = umpire_token(&game, false).unwrap();
        assert_eq!((again.as_str(), made), (first.as_str(), Made::Kept));
        let (new, made) = umpire_token(&game, true).unwrap();
        assert_eq!(made, Made::Replaced);
        assert_ne!(new, first);
        assert_eq!(umpire_token(&game, false).unwrap().0, new);
        let meta = std::fs::metadata(path_for(&game)).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn a_file_that_is_not_a_token_file_is_never_taken_nor_written() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("g.json");
        let path = path_for(&game);
        for text in ["my notes\n", "{\"token\":\"ab\"}", ""] {
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            for renew in [false, true] {
                let e = umpire_token(&game, renew).unwrap_err();
                assert!(e.contains("left as it is"), "{e}");
                assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
            }
        }
        // Readable by others: refused, and said how to mend it.
        std::fs::write(&path, text_of(&"a".repeat(64))).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = umpire_token(&game, false).unwrap_err();
        assert!(e.contains("chmod 600"), "{e}");
    }

    #[test]
    fn a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("g.json");
        let elsewhere = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&elsewhere, path_for(&game)).unwrap();
        for renew in [false, true] {
            let e = umpire_token(&game, renew).unwrap_err();
            assert!(e.contains("symbolic link"), "{e}");
        }
        assert!(!elsewhere.exists());
    }
}
