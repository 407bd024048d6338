//! Army lists: every shipped list loads; every malformed list is rejected
//! with the line and key at fault.

use std::path::{Path, PathBuf};

use drumhead::army::{ArmyError, check_files, load_armies, load_army, parse_army};
use drumhead::command::System;

fn shipped() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("armies"))
        .expect("armies/")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_shipped_list_loads() {
    let paths = shipped();
    for path in &paths {
        if let Err(e) = load_army(path) {
            panic!("{e}");
        }
    }
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let armies = load_armies(&refs).unwrap_or_else(|e| panic!("{e}"));
    for system in System::ALL {
        if system == System::SaberQuickplay {
            continue;
        }
        let n = armies.iter().filter(|a| a.rules == system).count();
        assert!(n >= 2, "{system}: {n} lists");
    }
}
