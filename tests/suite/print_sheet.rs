//! `drumhead sheet SYSTEM` as a user runs it: the page it writes marks a
//! value a house rule changed (issue 17: "each value a house rule changed
//! marked as such"), and `-o` writes the file whole. What the sheet holds,
//! row by row, is tried with the library in tests/unit/print_sheet.rs.

use std::path::Path;
use std::process::Command;

#[test]
fn the_command_writes_the_page_with_house_values_marked() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("drums.toml"), "[hits]\nper_base = 5\n").expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(["sheet", "drums", "--tables"])
        .arg(dir.path())
        .output()
        .expect("drumhead runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("1 value changed by house rules"));
    // "If using bases, then for each 6 hits received then 1 base is removed."
    assert!(
        html.contains(r#"<th scope="row">If using bases</th><td class="value house">5</td>"#),
        "{html}"
    );

    // -o writes the file whole.
    let page = dir.path().join("sheet.html");
    let out = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(["sheet", "mayhem", "--paper", "letter", "-o"])
        .arg(&page)
        .output()
        .expect("drumhead runs");
    assert!(out.status.success());
    // The page is in the file; standard output says where.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("wrote {}\n", page.display())
    );
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(html.contains("size: letter") && html.contains("Musket Mayhem"));
    assert!(Path::new(&page).exists());
}
