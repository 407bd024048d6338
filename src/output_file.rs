//! Writing the files a user names for output (`--svg FILE`, `-o FILE`,
//! `man DIR`, `tables export DIR`): one set of rules for every one of
//! them, so that no output path can destroy anything.
//!
//! - A game's own files — the game file, its journal, its lock — are never
//!   written, not even with `--force`: a chart or a sheet over a journal
//!   would lose the game's record for good. They are told by their first
//!   bytes (`"drumhead_game"`, `"drumhead_journal"`) and by their names
//!   (`X.journal`, `X.lock`, and `X.token`, the umpire's token `serve`
//!   keeps, beside the game X).
//! - Only a regular file is ever replaced, and only with `--force`. A
//!   symbolic link is not followed (its target may be anything), and a
//!   FIFO, a device, a socket or a directory is refused without being
//!   opened: opening a FIFO for writing would hang, and `/dev/null` or a
//!   disk would take the bytes and say nothing.
//! - A file is written whole or not at all: into a temporary file in the
//!   same folder, flushed and synced (a full disk or a quota may only say
//!   so then), then renamed over the target. On any error the temporary
//!   file is removed; a folder the write created is removed too.
//! - A new file gets the usual permissions (0666 less the umask), not a
//!   temporary file's 0600: a sheet or a chart is for others to read too.
//!   A replaced file keeps its own.
//!
//! Every path in a message is shown with its control characters escaped.

use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why an output path was not written.
#[derive(Debug, Error, Clone, PartialEq)]
pub(crate) enum OutputError {
    /// One of a game's own files: refused even with `--force`.
    #[error(
        "{path}: {what}; choose another path (drumhead never writes over a game's own files, not even with --force)"
    )]
    GameFile { path: String, what: String },
    /// Not a regular file: a link, a FIFO, a device, a socket or a
    /// directory, refused even with `--force`.
    #[error("{path}: {what}; {instead}")]
    NotAFile {
        path: String,
        what: &'static str,
        instead: String,
    },
    /// A regular file, and no `--force`.
    #[error("{path}: already exists; give --force to overwrite it, or choose another path")]
    Exists { path: String },
    /// The folder a file would go in is not there.
    #[error("{path}: the folder {dir} does not exist; create it first, or choose another path")]
    NoFolder { path: String, dir: String },
    /// The write itself failed (a full disk, no permission); nothing was
    /// left behind.
    #[error("{path}: {message}")]
    Io { path: String, message: String },
}

impl OutputError {
    /// The path was refused before anything was written (a usage error),
    /// rather than a write that failed.
    pub(crate) fn is_refusal(&self) -> bool {
        !matches!(self, OutputError::Io { .. })
    }

    /// A directory given where a file was wanted: the file to name in it,
    /// as the command would call it (`DIR/sheet.html` rather than
    /// `DIR/NAME`).
    pub(crate) fn with_file_name(self, name: &str) -> OutputError {
        match self {
            OutputError::NotAFile { path, what, .. } if what == DIRECTORY => {
                let dir = path.strip_suffix('/').unwrap_or(&path);
                let instead = format!(
                    "give the name of a file in it, like {dir}/{}",
                    crate::text::visible(name)
                );
                OutputError::NotAFile {
                    path,
                    what,
                    instead,
                }
            }
            other => other,
        }
    }
}

/// What a directory is, given where a file was wanted.
const DIRECTORY: &str = "is a directory, not a regular file";

/// A path as a message shows it: control characters escaped, so a file
/// name cannot act on the terminal.
fn shown(path: &Path) -> String {
    crate::text::visible(&path.display().to_string()).into_owned()
}

fn io_error(path: &Path, e: &io::Error) -> OutputError {
    // tempfile names its own random file in an error: the user's file is
    // the one to name.
    let message = e.to_string();
    let message = message.split(" at path ").next().unwrap_or_default();
    OutputError::Io {
        path: shown(path),
        message: message.to_string(),
    }
}

/// What a game's file a path is, if it is one: told by its first bytes
/// and by its name beside a game.
fn game_file(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().into_owned();
    let beside = |name: &str| path.with_file_name(name);
    match sniff(path) {
        Some(Kind::Campaign) => {
            return Some("is a drumhead campaign file (drumhead campaign changes it)".into());
        }
        Some(Kind::Game) => {
            return Some(format!(
                "is a drumhead game file (its journal is {})",
                shown(&beside(&format!("{name}.journal")))
            ));
        }
        Some(Kind::Journal) => match name.strip_suffix(".journal") {
            Some(game) => {
                return Some(format!(
                    "is the journal of the game {}",
                    shown(&beside(game))
                ));
            }
            None => return Some("is a drumhead game's journal".into()),
        },
        None => {}
    }
    if let Some(game) = name.strip_suffix(".journal")
        && sniff(&beside(game)) == Some(Kind::Game)
    {
        return Some(format!(
            "is the journal of the game {}",
            shown(&beside(game))
        ));
    }
    for (suffix, what) in [
        (".lock", "the lock file"),
        (".token", "the umpire's token file"),
    ] {
        let Some(game) = name.strip_suffix(suffix) else {
            continue;
        };
        let journal = beside(&format!("{game}.journal"));
        if sniff(&beside(game)) == Some(Kind::Game) || sniff(&journal) == Some(Kind::Journal) {
            return Some(format!("is {what} of the game {}", shown(&beside(game))));
        }
    }
    let journal = beside(&format!("{name}.journal"));
    if sniff(&journal) == Some(Kind::Journal) {
        return Some(format!(
            "is the game file of the journal {}",
            shown(&journal)
        ));
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Game,
    Journal,
    /// A campaign file (TOML): `drumhead_campaign = N` before anything else.
    Campaign,
}

/// How many bytes are read to tell a game's file: its key comes first.
const SNIFF_BYTES: u64 = 512;

/// Whether a regular file is a game file or a journal, from its first
/// bytes. Anything that is not a readable regular file is neither; a FIFO
/// or a device is never read (opened without blocking, its type checked
/// before a byte is read).
fn sniff(path: &Path) -> Option<Kind> {
    let file = crate::platform::without_blocking(std::fs::OpenOptions::new().read(true))
        .open(path)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut head = Vec::new();
    file.take(SNIFF_BYTES).read_to_end(&mut head).ok()?;
    let head = String::from_utf8_lossy(&head);
    // The key with a version number after it: `"drumhead_game": 2`. A
    // schema or a note that only names the key is not a game.
    let keyed = |key: &str| {
        head.match_indices(key).any(|(at, _)| {
            let rest = head[at + key.len()..].trim_start();
            rest.strip_prefix(':')
                .map(str::trim_start)
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
        })
    };
    if keyed("\"drumhead_game\"") {
        Some(Kind::Game)
    } else if keyed("\"drumhead_journal\"") {
        Some(Kind::Journal)
    } else if campaign_key(&head) {
        Some(Kind::Campaign)
    } else {
        None
    }
}

/// A campaign's first line, before any table: `drumhead_campaign = 1`
/// (comments and blank lines may come first).
fn campaign_key(head: &str) -> bool {
    let Some(line) = head
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    line.strip_prefix("drumhead_campaign")
        .map(str::trim_start)
        .and_then(|rest| rest.strip_prefix('='))
        .is_some_and(|v| v.trim_start().starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether a regular file is a campaign file, told by its first bytes.
pub(crate) fn is_campaign(path: &Path) -> bool {
    sniff(path) == Some(Kind::Campaign)
}

/// Write a campaign file over itself (a battle added, a battle closed),
/// whole or not at all: only a regular file that is a campaign, never
/// through a link. The one output path a campaign's own file may be; every
/// other output refuses it, as it refuses a game's files.
pub(crate) fn replace_campaign(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| io_error(path, &e))?;
    if let Some((what, instead)) = not_a_file(path, &meta) {
        return Err(OutputError::NotAFile {
            path: shown(path),
            what,
            instead,
        });
    }
    if sniff(path) != Some(Kind::Campaign) {
        return Err(OutputError::Io {
            path: shown(path),
            message: "is no longer a drumhead campaign file; nothing was written".into(),
        });
    }
    let target = Target::Replace(meta.permissions());
    let tmp = staged(path, bytes, &target)?;
    tmp.persist(path).map_err(|e| io_error(path, &e.error))?;
    sync_folder(path);
    Ok(())
}

/// What a path that is not a regular file is, and what to do instead;
/// `None` for a regular file.
fn not_a_file(path: &Path, meta: &Metadata) -> Option<(&'static str, String)> {
    let t = meta.file_type();
    let other = "choose a new file or an existing regular file";
    if t.is_file() {
        None
    } else if t.is_symlink() {
        // The file it points to is worth naming only if it could be written.
        let instead = match std::fs::read_link(path) {
            Ok(target) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => format!(
                "drumhead does not write through links: give the file it points to ({}), or another path",
                shown(&folder_of(path).join(target))
            ),
            _ => "drumhead does not write through links: choose another path".into(),
        };
        Some(("is a symbolic link, not a regular file", instead))
    } else if t.is_dir() {
        Some((
            DIRECTORY,
            format!(
                "give the name of a file in it, like {}",
                shown(&path.join("NAME"))
            ),
        ))
    } else {
        use crate::platform::Special;
        let what = match crate::platform::special(&t) {
            Some(Special::Fifo) => "is a FIFO (named pipe), not a regular file",
            Some(Special::Device) => "is a device, not a regular file",
            Some(Special::Socket) => "is a socket, not a regular file",
            None => "is not a regular file",
        };
        Some((what, other.into()))
    }
}

/// What is at an output path that may be written.
enum Target {
    /// Nothing yet.
    New,
    /// A regular file, to be replaced (`--force`), with its permissions.
    Replace(std::fs::Permissions),
}

/// The checks of [`check_output`], saying what is there.
fn check(path: &Path, force: bool) -> Result<Target, OutputError> {
    if path.as_os_str().is_empty() {
        return Err(OutputError::Io {
            path: "''".into(),
            message: "an empty path; give the name of a file".into(),
        });
    }
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        return Err(OutputError::NotAFile {
            path: shown(path),
            what: "ends with /, the path of a directory, not a regular file",
            instead: "give the name of a file".into(),
        });
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let dir = folder_of(path);
            if !std::fs::metadata(dir).is_ok_and(|m| m.is_dir()) {
                return Err(OutputError::NoFolder {
                    path: shown(path),
                    dir: shown(dir),
                });
            }
            if let Some(what) = game_file(path) {
                return Err(OutputError::GameFile {
                    path: shown(path),
                    what,
                });
            }
            return Ok(Target::New);
        }
        Err(e) => return Err(io_error(path, &e)),
    };
    if let Some((what, instead)) = not_a_file(path, &meta) {
        return Err(OutputError::NotAFile {
            path: shown(path),
            what,
            instead,
        });
    }
    if let Some(what) = game_file(path) {
        return Err(OutputError::GameFile {
            path: shown(path),
            what,
        });
    }
    if !force {
        return Err(OutputError::Exists { path: shown(path) });
    }
    Ok(Target::Replace(meta.permissions()))
}

/// Whether `path` may be written as an output file, without writing it:
/// a new path in an existing folder, or with `force` an existing regular
/// file; never a game's file, a link, a FIFO, a device, a socket or a
/// directory. Nothing is opened for writing, and nothing but a regular
/// file is opened at all.
pub(crate) fn check_output(path: &Path, force: bool) -> Result<(), OutputError> {
    check(path, force).map(|_| ())
}

/// A temporary file beside `path` (in its folder, named after it, so one
/// a kill left behind says whose it was) holding `bytes`, with
/// `permissions` when given (else a temporary file's own, its owner's
/// alone), synced when `durable`: ready to be renamed over `path`, and
/// removed if it is dropped instead. Every whole-file write drumhead makes
/// (an output file, a campaign, a game file, a journal rewritten, a token)
/// is one of these renamed into place, so a reader sees the old file or
/// the new one.
pub(crate) fn stage_beside(
    path: &Path,
    bytes: &[u8],
    permissions: Option<std::fs::Permissions>,
    durable: bool,
) -> std::io::Result<tempfile::NamedTempFile> {
    use std::io::Write;
    // Cut short, so a long name still leaves room for the random part.
    let name: String = path
        .file_name()
        .map(|n| n.to_string_lossy().chars().take(64).collect())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp"))
        .tempfile_in(folder_of(path))?;
    tmp.write_all(bytes)?;
    tmp.flush()?;
    if let Some(permissions) = permissions {
        tmp.as_file().set_permissions(permissions)?;
    }
    if durable {
        tmp.as_file().sync_all()?;
    }
    Ok(tmp)
}

/// The folder a path is in: `.` for a bare name.
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Sync the folder `path` is in, so a name made or renamed there lasts.
pub(crate) fn sync_folder(path: &Path) {
    if let Ok(dir) = std::fs::File::open(folder_of(path)) {
        let _ = dir.sync_all();
    }
}

/// A temporary file beside `path` holding `bytes`, flushed, synced and
/// with its final permissions (a new file's usual ones, not a temporary
/// file's 0600; a replaced file keeps its own), ready to be renamed;
/// removed when dropped.
fn staged(
    path: &Path,
    bytes: &[u8],
    target: &Target,
) -> Result<tempfile::NamedTempFile, OutputError> {
    let permissions = match target {
        Target::New => crate::platform::new_file_permissions(),
        Target::Replace(old) => Some(crate::platform::kept_permissions(old)),
    };
    stage_beside(path, bytes, permissions, true).map_err(|e| io_error(path, &e))
}

/// Rename a staged file onto `path`, looked at once more first: what
/// appeared there since the first look is refused too, and a new path is
/// never taken over from another writer.
fn put_in_place(tmp: tempfile::NamedTempFile, path: &Path, force: bool) -> Result<(), OutputError> {
    let done = match check(path, force)? {
        Target::New => tmp.persist_noclobber(path),
        Target::Replace(_) => tmp.persist(path),
    };
    match done {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => {
            Err(OutputError::Exists { path: shown(path) })
        }
        // Dropping the error's file removes the temporary file.
        Err(e) => Err(io_error(path, &e.error)),
    }
}

/// Write `bytes` into the output file `path`, whole or not at all, under
/// the rules of [`check_output`]. On any error nothing is left behind and
/// an existing file is as it was.
pub(crate) fn write_whole(path: &Path, bytes: &[u8], force: bool) -> Result<(), OutputError> {
    let target = check(path, force)?;
    let tmp = staged(path, bytes, &target)?;
    put_in_place(tmp, path, force)?;
    sync_folder(path);
    Ok(())
}

/// What a folder path for [`write_folder`] holds.
enum Folder {
    /// A directory already there.
    There,
    /// Not there: these folders are to be made, outermost first.
    ToMake(Vec<PathBuf>),
}

/// Whether `dir` may take output files: an existing directory (not
/// through a link), or a path whose missing folders can be made.
fn check_folder(dir: &Path) -> Result<Folder, OutputError> {
    let refuse = |what: &'static str, instead: &str| OutputError::NotAFile {
        path: shown(dir),
        what,
        instead: instead.to_string(),
    };
    let mut missing = Vec::new();
    let mut at = dir;
    loop {
        match std::fs::symlink_metadata(at) {
            Ok(meta) if at == dir => {
                let t = meta.file_type();
                return if t.is_dir() {
                    Ok(Folder::There)
                } else if t.is_symlink() {
                    let instead = match std::fs::read_link(dir) {
                        Ok(target) if std::fs::metadata(dir).is_ok_and(|m| m.is_dir()) => format!(
                            "drumhead does not write through links: give the folder it points to ({}), or another one",
                            shown(&folder_of(dir).join(target))
                        ),
                        _ => "drumhead does not write through links: choose another folder".into(),
                    };
                    Err(OutputError::NotAFile {
                        path: shown(dir),
                        what: "is a symbolic link, not a directory",
                        instead,
                    })
                } else if t.is_file() {
                    Err(match game_file(dir) {
                        Some(what) => OutputError::GameFile {
                            path: shown(dir),
                            what,
                        },
                        None => refuse(
                            "is a file, not a directory",
                            "give a new folder or an existing one",
                        ),
                    })
                } else {
                    Err(refuse(
                        "is not a directory (a FIFO, a device or a socket)",
                        "give a new folder or an existing one",
                    ))
                };
            }
            // An ancestor: followed like any folder on the way.
            Ok(_) => {
                if !std::fs::metadata(at).is_ok_and(|m| m.is_dir()) {
                    return Err(OutputError::NotAFile {
                        path: shown(dir),
                        what: "cannot be made",
                        instead: format!("{} is not a directory", shown(at)),
                    });
                }
                missing.reverse();
                return Ok(Folder::ToMake(missing));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // A folder named for a game's journal or lock would keep
                // the game from writing it.
                if at == dir
                    && let Some(what) = game_file(dir)
                {
                    return Err(OutputError::GameFile {
                        path: shown(dir),
                        what,
                    });
                }
                missing.push(at.to_path_buf());
                at = match at.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    // A relative path whose every part is missing: in `.`.
                    _ => Path::new("."),
                };
            }
            Err(e) => return Err(io_error(at, &e)),
        }
    }
}

/// Folders made by [`write_folder`], removed again unless kept: a failed
/// write leaves no empty folder behind.
struct Made(Vec<PathBuf>);

impl Made {
    fn keep(mut self) {
        self.0.clear();
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        // Innermost first; remove_dir removes only an empty one.
        for dir in self.0.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Write several files into the folder `dir` (made if missing, with any
/// missing folders above it), all or none: every file's path is checked
/// before any is written, every file is written to a temporary file
/// before any is renamed into place, and on an error the temporary
/// files, and the folders this made, are removed. Each file follows the
/// rules of [`check_output`]. Returns the paths written, in order, or
/// every refusal (or the one failure).
pub(crate) fn write_folder(
    dir: &Path,
    files: &[(&str, &[u8])],
    force: bool,
) -> Result<Vec<PathBuf>, Vec<OutputError>> {
    let folder = check_folder(dir).map_err(|e| vec![e])?;
    let paths: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
    let mut targets = Vec::new();
    let mut refused = Vec::new();
    for path in &paths {
        match &folder {
            Folder::There => match check(path, force) {
                Ok(target) => targets.push(target),
                Err(e) => refused.push(e),
            },
            Folder::ToMake(_) => targets.push(Target::New),
        }
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    let mut made = Made(Vec::new());
    if let Folder::ToMake(missing) = &folder {
        for d in missing {
            std::fs::create_dir(d).map_err(|e| vec![io_error(d, &e)])?;
            made.0.push(d.clone());
        }
    }
    let mut staged_files = Vec::new();
    for ((path, (_, bytes)), target) in paths.iter().zip(files).zip(&targets) {
        staged_files.push(staged(path, bytes, target).map_err(|e| vec![e])?);
    }
    // Renamed in order; a new file already in place is taken back out if
    // a later one fails, so the folder is as it was but for files
    // replaced with `force`.
    let mut placed: Vec<&Path> = Vec::new();
    for ((tmp, path), target) in staged_files.into_iter().zip(&paths).zip(&targets) {
        if let Err(e) = put_in_place(tmp, path, force) {
            for p in &placed {
                let _ = std::fs::remove_file(p);
            }
            return Err(vec![e]);
        }
        if matches!(target, Target::New) {
            placed.push(path);
        }
    }
    // The folder itself holds the new names.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    made.keep();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_told_by_its_key_and_version() {
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            sniff(&p)
        };
        assert_eq!(
            at("g", "{\n  \"drumhead_game\": 2,\n  \"armies\": []"),
            Some(Kind::Game)
        );
        assert_eq!(
            at("g.journal", "{\"drumhead_journal\":1,\"armies\":[]}\n"),
            Some(Kind::Journal)
        );
        // A schema names the key without a version: not a game.
        assert_eq!(
            at("schema.json", "{\"drumhead_game\": {\"type\": 1}}"),
            None
        );
        assert_eq!(at("notes.txt", "drumhead_game"), None);
    }

    #[test]
    fn names_beside_a_game_are_its_own() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("g"), "{\n  \"drumhead_game\": 2\n}").unwrap();
        let what = |name: &str| game_file(&dir.path().join(name));
        assert!(what("g.journal").unwrap().contains("journal of the game"));
        assert!(what("g.lock").unwrap().contains("lock file of the game"));
        assert!(what("g.token").unwrap().contains("token file of the game"));
        assert_eq!(what("g.svg"), None);
        assert_eq!(what("h.journal"), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_umask_is_read_without_changing_it() {
        // SAFETY: swapping and restoring the mask, as current_umask's fallback does.
        let before = unsafe { libc::umask(0o022) };
        unsafe { libc::umask(before) };
        assert_eq!(crate::platform::current_umask(), before as u32);
    }
}
