//! Sides by name in what the program prints: `log` and `--brief` name
//! each army's side, as an initiative's stack does (the rest of issue
//! 35's cases, in process: tests/unit/table35/).

use crate::common;
use common::game::{leuthen, with_game};

// The same names in `log` and in `--brief`.
#[test]
fn log_and_brief_name_the_sides() {
    let game = common::game::temp_file("sides-log", "g.json");
    let mut args = leuthen();
    args.extend(with_game(&game, &[]));
    let script = "initiative rolled 6 6 6 6 6 6 6 1 1 1 1\n\
                  melee gren-1 ranks=3 vs aus-1 ranks=2 rolled 1 1 1 1 1 1 1 1 1 1 4 4 4 4 4 1 1\n\
                  log\n";
    let (code, out, err) = common::run(&args, script);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("initiative rolled 6 6 6 6 6 6 6 1 1 1 1 ⇒ Prussia"),
        "{out}"
    );
    assert!(out.contains("⇒ aus-1\n"), "{out}");
    let mut brief = leuthen();
    brief.extend(["--brief".to_string(), "--seed".into(), "5".into()]);
    let (code, out, err) = common::run(&brief, "initiative frederick moritz vs charles daun\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("→ Prussia has the initiative"), "{out}");
    assert!(!out.contains("side a"), "{out}");
}
