//! An army list reports every problem at once, and armies of different
//! rule systems loaded together are said to be so.

use crate::common;

use common::game::{shipped, temp_dir};

#[test]
fn a_list_with_several_problems_reports_them_all_in_file_order() {
    let dir = temp_dir("several-problems");
    let list = dir.join("bad.toml");
    std::fs::write(
        &list,
        "[army]\nname = \"x\"\nrules = \"drums\"\nside = \"A\"\n\n[[unit]]\nid = \"u1\"\nname = \"U\"\narm = \"fot\"\nformation = \"lin\"\nbases = 4\n\n[[unit]]\nid = \"u2\"\nname = \"V\"\narm = \"foot\"\nformation = \"line\"\nweapon = \"muskt\"\nbases = 4\n",
    )
    .unwrap();
    let (code, out, err) = common::run(&["check".as_ref(), list.as_os_str()], "");
    assert_eq!(code, Some(1), "{out}{err}");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("bad.toml:")).collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(
        lines[0].contains(":9:") && lines[0].contains("unknown arm \"fot\""),
        "{err}"
    );
    assert!(
        lines[1].contains(":10:") && lines[1].contains("\"lin\""),
        "{err}"
    );
    assert!(
        lines[2].contains(":18:") && lines[2].contains("\"muskt\""),
        "{err}"
    );
}

#[test]
fn armies_of_two_systems_are_said_to_be_so() {
    let mut args = shipped(&["leuthen-1757-prussian.toml", "pimpernel-league.toml"]);
    args.push("hold rolled 3 3".into());
    let (code, out, err) = common::run(&args, "");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("different rule systems (Drums and Muskets, Musket Mayhem)"),
        "{err}"
    );
    assert!(out.contains("Drums and Muskets"), "{out}");
    // One system: no such note.
    let mut args = shipped(&["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"]);
    args.push("hold rolled 3 3".into());
    let (_, _, err) = common::run(&args, "");
    assert!(!err.contains("different rule systems"), "{err}");
}
