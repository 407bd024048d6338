//! The REPL as a person uses it, driven through tmux by tests/repl_tmux.sh:
//! tab completion, a coloured outcome, Ctrl-D. Skipped (with a note) where
//! tmux is not installed.

use std::path::Path;
use std::process::Command;

#[test]
fn repl_in_tmux_completes_colours_and_leaves() {
    let has_tmux = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_tmux {
        println!("note: tmux is not on PATH; the REPL test is skipped (apt-get install tmux)");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/repl_tmux.sh");
    let out = Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_drumhead"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    match out.status.code() {
        Some(0) => {}
        Some(77) => println!("note: {stdout}"),
        _ => panic!(
            "tests/repl_tmux.sh failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}
