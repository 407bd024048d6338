//! No output path can destroy anything: every flag that names a file or a
//! folder to write (`--svg`, `sheet -o`, `roster -o`, `new-army -o`, `man
//! DIR`, `tables export DIR`) aimed at a game's journal, its game file and
//! its lock, a symbolic link, a FIFO, `/dev/null`, a directory, an
//! existing file and a new path; and at a full disk.
//!
//! Each refusal exits non-zero and leaves its folder as it was, byte for
//! byte: the target, and no temporary file beside it.

use crate::common;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::BIN;
use common::game::{shipped, temp_dir};

/// How long a run may take: a FIFO opened for writing would hang for ever.
const PATIENCE: Duration = Duration::from_secs(60);

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// drumhead with `args` under `umask`, stdin empty, killed (and the test
/// failed) if it takes longer than [`PATIENCE`].
fn drumhead_with_umask(args: &[OsString], umask: u32) -> Ran {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: umask is async-signal-safe and touches only the child.
    unsafe {
        command.pre_exec(move || {
            libc::umask(umask as libc::mode_t);
            Ok(())
        });
    }
    let child = command.spawn().expect("drumhead starts");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(PATIENCE) {
        Ok(out) => {
            let out = out.expect("drumhead runs");
            Ran {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            }
        }
        Err(_) => {
            // SAFETY: our own child, by its id.
            unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
            panic!("drumhead {args:?} did not finish in {PATIENCE:?}: it hangs");
        }
    }
}

fn drumhead(args: &[OsString]) -> Ran {
    drumhead_with_umask(args, 0o022)
}

/// One entry of a folder as it stands, links not followed.
#[derive(Debug, Clone, PartialEq)]
enum Entry {
    File { bytes: Vec<u8>, mode: u32 },
    Dir,
    Link(PathBuf),
    Fifo,
    Other,
}

/// Everything under `dir`, by relative path.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    let mut all = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(at) = todo.pop() {
        for entry in std::fs::read_dir(&at).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            let t = meta.file_type();
            let e = if t.is_symlink() {
                Entry::Link(std::fs::read_link(&path).unwrap())
            } else if t.is_dir() {
                todo.push(path.clone());
                Entry::Dir
            } else if t.is_fifo() {
                Entry::Fifo
            } else if t.is_file() {
                Entry::File {
                    bytes: std::fs::read(&path).unwrap(),
                    mode: meta.permissions().mode() & 0o7777,
                }
            } else {
                Entry::Other
            };
            all.insert(path.strip_prefix(dir).unwrap().to_path_buf(), e);
        }
    }
    all
}

/// How a flag names its target: one file, or a folder of files.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Takes {
    File,
    Folder,
}

/// An output flag: its name, what it takes, and its command line.
struct Flag {
    name: &'static str,
    takes: Takes,
    args: fn(&Path, bool) -> Vec<OsString>,
}

fn os(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

fn with_target(mut args: Vec<OsString>, target: &Path, force: bool) -> Vec<OsString> {
    args.push(target.into());
    if force {
        args.push("--force".into());
    }
    args
}

const SVG: Flag = Flag {
    name: "--svg",
    takes: Takes::File,
    args: |target, force| {
        let mut args = with_target(os(&["--svg"]), target, force);
        args.push("odds roll 2d6".into());
        args
    },
};

const SHEET: Flag = Flag {
    name: "sheet -o",
    takes: Takes::File,
    args: |target, force| with_target(os(&["sheet", "drums", "-o"]), target, force),
};

const ROSTER: Flag = Flag {
    name: "roster -o",
    takes: Takes::File,
    args: |target, force| {
        let mut args: Vec<OsString> = os(&["roster"]);
        args.extend(
            shipped(&["leuthen-1757-prussian.toml"])
                .into_iter()
                .map(OsString::from),
        );
        args.push("-o".into());
        with_target(args, target, force)
    },
};

const NEW_ARMY: Flag = Flag {
    name: "new-army -o",
    takes: Takes::File,
    args: |target, force| with_target(os(&["new-army", "drums", "-o"]), target, force),
};

const MAN: Flag = Flag {
    name: "man",
    takes: Takes::Folder,
    args: |target, force| with_target(os(&["man"]), target, force),
};

const TABLES_EXPORT: Flag = Flag {
    name: "tables export",
    takes: Takes::Folder,
    args: |target, force| with_target(os(&["tables", "export"]), target, force),
};

/// A game kept in `dir/g.json`, with its journal and lock beside it.
fn make_game(dir: &Path) -> PathBuf {
    let game = dir.join("g.json");
    let mut args: Vec<OsString> =
        shipped(&["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"])
            .into_iter()
            .map(OsString::from)
            .collect();
    args.extend(["--game".into(), game.clone().into(), "hits 1 gren-1".into()]);
    let ran = drumhead(&args);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    for p in [game.clone(), dir.join("g.json.journal")] {
        assert!(p.is_file(), "{} was made", p.display());
    }
    // The lock is on the journal itself: no file of its own.
    assert!(!dir.join("g.json.lock").exists());
    game
}

/// What the flag writes when it succeeds: the exact bytes of each file,
/// by name (a file flag's one file under the name "").
fn expected(flag: &Flag, scratch: &Path) -> Vec<(String, Vec<u8>)> {
    match flag.name {
        "man" => {
            let catalog = drumhead::session::catalog(&drumhead::systems::embedded().unwrap());
            drumhead::cli::manpage::pages(&catalog)
                .into_iter()
                .map(|(name, text)| (name.to_string(), text.into_bytes()))
                .collect()
        }
        "tables export" => drumhead::systems::all()
            .table_files()
            .iter()
            .map(|f| (f.name.to_string(), f.embedded.as_bytes().to_vec()))
            .collect(),
        "--svg" => {
            // No standard-output form: the chart a fresh path gets.
            let fresh = scratch.join("reference.svg");
            let ran = drumhead(&(flag.args)(&fresh, false));
            assert_eq!(ran.code, Some(0), "{}", ran.stderr);
            let bytes = std::fs::read(&fresh).unwrap();
            std::fs::remove_file(&fresh).unwrap();
            assert!(bytes.starts_with(b"<svg") && bytes.ends_with(b"</svg>\n"));
            vec![(String::new(), bytes)]
        }
        _ => {
            // What the same command prints without -o.
            let mut args = (flag.args)(Path::new("-"), false);
            let at = args.iter().position(|a| a == "-o").unwrap();
            args.drain(at..at + 2);
            let ran = drumhead(&args);
            assert_eq!(ran.code, Some(0), "{}", ran.stderr);
            assert!(ran.stdout.len() > 1000, "{}", ran.stdout);
            vec![(String::new(), ran.stdout.into_bytes())]
        }
    }
}

/// `flag` aimed at `target` is refused, saying `says`, and `dir` is as it
/// was: the target byte for byte, no temporary file, no new folder.
fn refused(flag: &Flag, dir: &Path, target: &Path, force: bool, says: &str) {
    let before = snapshot(dir);
    let ran = drumhead(&(flag.args)(target, force));
    let what = format!(
        "{} {}{}",
        flag.name,
        target.display(),
        if force { " --force" } else { "" }
    );
    assert!(
        ran.code.is_some_and(|c| c != 0),
        "{what}: exit {:?}\n{}{}",
        ran.code,
        ran.stdout,
        ran.stderr
    );
    assert!(ran.stderr.contains(says), "{what}: {}", ran.stderr);
    // The message names the path.
    assert!(
        ran.stderr.contains(&target.display().to_string()),
        "{what}: {}",
        ran.stderr
    );
    assert!(!ran.stdout.contains("wrote"), "{what}: {}", ran.stdout);
    assert_eq!(snapshot(dir), before, "{what}: the folder changed");
}

/// Every refusal of a flag, with and without --force, and what it may
/// write: a new path, and an existing file only with --force.
fn check_flag(flag: &Flag) {
    let dir = temp_dir(&format!("out-{}", flag.name.replace([' ', '-'], "")));
    let game = make_game(&dir);
    let expected = expected(flag, &dir);

    // A game's own files, even with --force; and the journal's name
    // beside a game whose journal is not there yet.
    let copy = dir.join("copy.json");
    std::fs::copy(&game, &copy).unwrap();
    for force in [false, true] {
        refused(
            flag,
            &dir,
            &dir.join("g.json.journal"),
            force,
            "is the journal of the game",
        );
        refused(flag, &dir, &game, force, "is a drumhead game file");
        refused(
            flag,
            &dir,
            &dir.join("g.json.lock"),
            force,
            "is the lock file of the game",
        );
        refused(
            flag,
            &dir,
            &dir.join("copy.json.journal"),
            force,
            "is the journal of the game",
        );
    }

    // A symbolic link, not followed: to a file, and to a folder.
    let precious = dir.join("precious.txt");
    std::fs::write(&precious, "precious\n").unwrap();
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    let to_file = dir.join("to-file");
    std::os::unix::fs::symlink(&precious, &to_file).unwrap();
    let to_folder = dir.join("to-folder");
    std::os::unix::fs::symlink(&folder, &to_folder).unwrap();
    let to_game = dir.join("to-game");
    std::os::unix::fs::symlink(&game, &to_game).unwrap();
    for force in [false, true] {
        for link in [&to_file, &to_folder, &to_game] {
            refused(flag, &dir, link, force, "is a symbolic link");
        }
    }

    // A FIFO: refused without opening it (a writer would wait for ever).
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let not_there = match flag.takes {
        Takes::File => "is a FIFO",
        Takes::Folder => "is not a directory",
    };
    for force in [false, true] {
        refused(flag, &dir, &fifo, force, not_there);
    }

    // /dev/null: only root could replace it, so only as root is there
    // anything to see.
    if unsafe { libc::geteuid() } == 0 {
        let says = match flag.takes {
            Takes::File => "is a device",
            Takes::Folder => "is not a directory",
        };
        let dev = Path::new("/dev");
        let temporaries = |d: &Path| -> Vec<String> {
            std::fs::read_dir(d)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with(".null"))
                .collect()
        };
        let before = temporaries(dev);
        for force in [false, true] {
            let ran = drumhead(&(flag.args)(Path::new("/dev/null"), force));
            assert!(ran.code.is_some_and(|c| c != 0), "{}: /dev/null", flag.name);
            assert!(ran.stderr.contains(says), "{}", ran.stderr);
            let meta = std::fs::symlink_metadata("/dev/null").unwrap();
            assert!(
                meta.file_type().is_char_device(),
                "/dev/null is still a device"
            );
            assert_eq!(temporaries(dev), before);
        }
    } else {
        println!("SKIPPED /dev/null: not root, so /dev/null could not be replaced anyway");
    }

    match flag.takes {
        Takes::File => check_file_flag(flag, &dir, &folder, &expected),
        Takes::Folder => check_folder_flag(flag, &dir, &expected),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A flag that writes one file: a directory is refused, an existing file
/// needs --force, a new path is made with the umask's permissions.
fn check_file_flag(flag: &Flag, dir: &Path, folder: &Path, expected: &[(String, Vec<u8>)]) {
    let bytes = &expected[0].1;
    for force in [false, true] {
        refused(flag, dir, folder, force, "is a directory");
    }
    // A path in a folder that does not exist.
    refused(flag, dir, &dir.join("nowhere/out"), false, "does not exist");

    // An existing file: kept without --force, replaced whole with it, its
    // permissions kept.
    let old = dir.join("old.out");
    std::fs::write(&old, "my own notes\n").unwrap();
    std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).unwrap();
    refused(flag, dir, &old, false, "already exists; give --force");
    let ran = drumhead(&(flag.args)(&old, true));
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(
        &std::fs::read(&old).unwrap(),
        bytes,
        "{}: replaced whole",
        flag.name
    );
    let mode = std::fs::metadata(&old).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode, 0o640,
        "{}: a replaced file keeps its permissions",
        flag.name
    );

    // A new path: the file and nothing else, with 0666 less the umask.
    for (umask, mode) in [(0o022, 0o644), (0o027, 0o640)] {
        let new = dir.join(format!("new-{umask:o}.out"));
        let before = snapshot(dir);
        let ran = drumhead_with_umask(&(flag.args)(&new, false), umask);
        assert_eq!(ran.code, Some(0), "{}", ran.stderr);
        let mut after = snapshot(dir);
        let made = after.remove(&PathBuf::from(new.file_name().unwrap()));
        assert_eq!(
            made,
            Some(Entry::File {
                bytes: bytes.clone(),
                mode,
            }),
            "{} under umask {umask:o}",
            flag.name
        );
        assert_eq!(after, before, "{}: only the file was added", flag.name);
    }
}

/// A flag that writes a folder of files: a file where the folder should
/// be is refused even with --force, a file already in the folder needs
/// --force, a new folder is made with every file.
fn check_folder_flag(flag: &Flag, dir: &Path, expected: &[(String, Vec<u8>)]) {
    for force in [false, true] {
        refused(
            flag,
            dir,
            &dir.join("precious.txt"),
            force,
            "is a file, not a directory",
        );
    }

    // A new folder, two levels deep: made, every file in it, 0644.
    let new = dir.join("new").join("inner");
    let ran = drumhead(&(flag.args)(&new, false));
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let mut want = BTreeMap::new();
    for (name, bytes) in expected {
        want.insert(
            PathBuf::from(name),
            Entry::File {
                bytes: bytes.clone(),
                mode: 0o644,
            },
        );
    }
    assert_eq!(snapshot(&new), want, "{}: the new folder", flag.name);

    // An existing folder with one of the files in it, changed by hand:
    // refused without --force (and no other file written), every file
    // replaced with it.
    let (first, _) = &expected[0];
    let house = dir.join("house");
    std::fs::create_dir(&house).unwrap();
    std::fs::write(house.join(first), "# mine\n").unwrap();
    std::fs::write(house.join("notes.txt"), "notes\n").unwrap();
    refused(flag, dir, &house, false, "already exists; give --force");
    let ran = drumhead(&(flag.args)(&house, true));
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let mut have = snapshot(&house);
    assert_eq!(
        have.remove(Path::new("notes.txt")),
        Some(Entry::File {
            bytes: b"notes\n".to_vec(),
            mode: 0o644,
        })
    );
    assert_eq!(have, want, "{}: every file replaced", flag.name);

    // A file of the folder's that is a link, a FIFO, or a game's journal
    // is refused even with --force, and nothing else is written.
    let other = dir.join("other");
    std::fs::create_dir(&other).unwrap();
    let (last, _) = expected.last().unwrap();
    std::os::unix::fs::symlink(dir.join("precious.txt"), other.join(last)).unwrap();
    refused(flag, dir, &other, true, "is a symbolic link");
    std::fs::remove_file(other.join(last)).unwrap();
    let made = Command::new("mkfifo").arg(other.join(last)).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    refused(flag, dir, &other, true, "is a FIFO");
    std::fs::remove_file(other.join(last)).unwrap();
    std::fs::copy(dir.join("g.json.journal"), other.join(last)).unwrap();
    refused(flag, dir, &other, true, "journal");
}

#[test]
fn svg_never_destroys() {
    check_flag(&SVG);
}

#[test]
fn sheet_output_never_destroys() {
    check_flag(&SHEET);
}

#[test]
fn roster_output_never_destroys() {
    check_flag(&ROSTER);
}

#[test]
fn new_army_output_never_destroys() {
    check_flag(&NEW_ARMY);
}

#[test]
fn man_dir_never_destroys() {
    check_flag(&MAN);
}

#[test]
fn tables_export_dir_never_destroys() {
    check_flag(&TABLES_EXPORT);
}

/// A printed path cannot act on the terminal: its control characters are
/// shown escaped.
#[test]
fn a_refused_path_is_shown_escaped() {
    let dir = temp_dir("out-escaped");
    let target = dir.join("bad\u{1b}[2Jname");
    std::fs::write(&target, "mine\n").unwrap();
    let ran = drumhead(&(SHEET.args)(&target, false));
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(!ran.stderr.contains('\u{1b}'), "{:?}", ran.stderr);
    assert!(ran.stderr.contains("bad\\u{1b}[2Jname"), "{}", ran.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tmpfs of `bytes`, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(name: &str, bytes: u64) -> Result<SmallDisk, String> {
        let dir = temp_dir(name);
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(&dir)
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if out.status.success() {
            Ok(SmallDisk(dir))
        } else {
            let _ = std::fs::remove_dir(&dir);
            Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
        }
    }

    /// Fill the disk but for `free` bytes (a whole number of pages).
    fn fill_but(&self, free: u64) {
        let filler = self.0.join("filler");
        let _ = std::fs::remove_file(&filler);
        let available = self.available();
        assert!(available > free, "{available} bytes free, {free} wanted");
        std::fs::write(&filler, vec![7u8; (available - free) as usize]).expect("the filler fits");
        assert_eq!(
            self.available(),
            free,
            "the disk is filled but for {free} bytes"
        );
    }

    /// Bytes free on the disk.
    fn available(&self) -> u64 {
        let path = std::ffi::CString::new(self.0.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a zeroed statvfs for the call to fill; the path is a C string.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        let rc = unsafe { libc::statvfs(path.as_ptr(), &mut st) };
        assert_eq!(rc, 0, "statvfs {}", self.0.display());
        st.f_bavail as u64 * st.f_frsize as u64
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

const DISK: u64 = 64 * 1024;

#[test]
fn a_full_disk_leaves_nothing_behind() {
    let disk = match SmallDisk::mount("out-full", DISK) {
        Ok(disk) => disk,
        Err(why) => {
            println!("SKIPPED full-disk: {why}");
            return;
        }
    };
    let root = disk.0.clone();
    // 8 KiB free: less than a chart, a page, a manual page; some of the
    // small table files fit before a large one does not. 24 KiB: the first
    // manual page fits, the second does not.
    let cases: Vec<(&Flag, u64)> = vec![
        (&MAN, 8 * 1024),
        (&MAN, 24 * 1024),
        (&TABLES_EXPORT, 8 * 1024),
        (&TABLES_EXPORT, 24 * 1024),
        (&SHEET, 8 * 1024),
        (&SVG, 8 * 1024),
        (&ROSTER, 8 * 1024),
        (&NEW_ARMY, 4 * 1024),
    ];
    for (flag, free) in cases {
        // An existing folder, and an existing file in it, stay as they
        // were; a new folder or file is not left behind.
        let existing = root.join("existing");
        std::fs::create_dir_all(&existing).unwrap();
        let old = existing.join("old");
        std::fs::write(&old, "old\n").unwrap();
        disk.fill_but(free);
        let before = snapshot(&root);
        let targets: Vec<(PathBuf, bool)> = match flag.takes {
            Takes::Folder => vec![
                (root.join("made").join("inner"), false),
                (existing.clone(), false),
            ],
            Takes::File => vec![(root.join("new.out"), false), (old.clone(), true)],
        };
        for (target, force) in targets {
            let ran = drumhead(&(flag.args)(&target, force));
            let what = format!("{} {} with {free} bytes free", flag.name, target.display());
            assert_eq!(ran.code, Some(1), "{what}: {}{}", ran.stdout, ran.stderr);
            assert!(
                ran.stderr.contains("No space left on device"),
                "{what}: {}",
                ran.stderr
            );
            assert_eq!(snapshot(&root), before, "{what}: something was left behind");
        }
    }
}
