//! Running the drumhead binary from integration tests.

use std::io::Write;
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_drumhead");

/// Run drumhead with `args`, feeding `input` on standard input from a
/// thread (so a large input cannot deadlock against a full stdout pipe).
/// Returns the exit code, stdout and stderr.
pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
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
