//! Running the drumhead binary from integration tests.

pub mod agreement;

use std::io::Write;
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_drumhead");

/// Run drumhead with `args`, feeding `input` on standard input from a
/// thread (so a large input cannot deadlock against a full stdout pipe).
/// Returns the exit code, stdout and stderr.
#[allow(dead_code)]
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S], input: &str) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args);
    run_command(cmd, input)
}

/// [`run`] for a command built by the caller (its folder, its
/// environment): the same feeding of `input` and the same answer.
#[allow(dead_code)]
pub fn run_command(mut cmd: Command, input: &str) -> (Option<i32>, String, String) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("drumhead starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        // The program may stop reading early (a usage error): not a failure here.
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("drumhead runs");
    let _ = writer.join();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Run drumhead with `args` and `--json`: whether it exited 0, each line
/// of standard output that is JSON (a resolution, an error…), and stderr.
#[allow(dead_code)]
pub fn run_json<S: AsRef<str>>(args: &[S], input: &str) -> (bool, Vec<serde_json::Value>, String) {
    let mut all: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    all.push("--json");
    let (code, stdout, stderr) = run(&all, input);
    let lines = stdout
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (code == Some(0), lines, stderr)
}

// Not every test file uses every helper.
#[allow(dead_code)]
pub mod game {
    //! Games kept in files, for the tests that play them.

    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Stdio};

    use super::BIN;

    /// A fresh directory of this test's own, removed with everything in it
    /// when the test lets go of it: a test run leaves nothing in the
    /// temporary folder.
    pub fn temp_dir(name: &str) -> Scratch {
        let dir = tempfile::Builder::new()
            .prefix(&format!("drumhead-test-{name}-"))
            .tempdir()
            .expect("a temporary directory");
        Scratch(dir)
    }

    /// A temporary directory that reads as a path.
    pub struct Scratch(tempfile::TempDir);

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            self.0.path()
        }
    }

    impl AsRef<Path> for Scratch {
        fn as_ref(&self) -> &Path {
            self.0.path()
        }
    }

    /// A file named `file` in a fresh directory of this test's own; the
    /// directory goes when the test lets go of the file's path.
    pub fn temp_file(name: &str, file: &str) -> ScratchFile {
        let dir = temp_dir(name);
        let path = dir.join(file);
        ScratchFile { _dir: dir, path }
    }

    /// A path in a temporary directory that lives as long as it does.
    pub struct ScratchFile {
        _dir: Scratch,
        path: PathBuf,
    }

    impl std::ops::Deref for ScratchFile {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.path
        }
    }

    impl AsRef<Path> for ScratchFile {
        fn as_ref(&self) -> &Path {
            &self.path
        }
    }

    impl AsRef<std::ffi::OsStr> for ScratchFile {
        fn as_ref(&self) -> &std::ffi::OsStr {
            self.path.as_os_str()
        }
    }

    impl AsRef<std::ffi::OsStr> for Scratch {
        fn as_ref(&self) -> &std::ffi::OsStr {
            self.0.path().as_os_str()
        }
    }

    /// `--army` options for shipped lists, by file name under `armies/`.
    pub fn shipped(files: &[&str]) -> Vec<String> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
        files
            .iter()
            .flat_map(|f| ["--army".to_string(), dir.join(f).display().to_string()])
            .collect()
    }

    /// drumhead with every stream piped.
    pub fn spawn<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Child {
        Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("drumhead starts")
    }

    /// `--army` options for the two Leuthen armies.
    pub fn leuthen() -> Vec<String> {
        shipped(&["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"])
    }

    /// `--game GAME`, then `extra`.
    pub fn with_game(game: &Path, extra: &[&str]) -> Vec<String> {
        let mut args: Vec<String> = vec!["--game".into(), game.display().to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    }

    /// A new game of the two Leuthen armies named `name` in `dir`, with
    /// nothing resolved yet.
    pub fn new_game(dir: &Path, name: &str) -> PathBuf {
        let game = dir.join(name);
        let mut args = leuthen();
        args.extend(["--game".into(), game.display().to_string()]);
        let (code, _, err) = super::run(&args, "");
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("a new game was created"), "{err}");
        game
    }

    /// The journal beside a game file.
    pub fn journal_of(game: &Path) -> PathBuf {
        drumhead::game::Journal::path_for(game)
    }

    /// `drumhead replay` of a game's journal succeeds and finds the state
    /// the game file holds.
    pub fn replay_agrees(game: &Path) {
        let journal = drumhead::game::Journal::path_for(game);
        let out = Command::new(BIN)
            .arg("replay")
            .arg(&journal)
            .output()
            .expect("drumhead runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("the state equals"),
            "replay of {}: {stdout}{}",
            journal.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// What drumhead's shell completion offers for word `index` of `words`
/// (the shell's words, program name first), as bash's function asks it.
pub fn offered(words: &[&str], index: usize) -> Vec<String> {
    let out = Command::new(BIN)
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", index.to_string())
        .arg("--")
        .args(words)
        .output()
        .expect("drumhead runs");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}
