//! The pocket page answers a line as the command line does (issue 39:
//! "`window.drumhead.resolve(line, seed)` returns the JSON Lines answer
//! the native `drumhead --json --seed SEED` gives for that line with the
//! same armies, byte for byte"). Here the pocket's logic, run natively,
//! against the binary: standard output byte for byte, standard error and
//! the exit status too.

use std::path::Path;
use std::process::Command;

use drumhead::pocket::Pocket;

use crate::common::{BIN, run_command};

/// Lines of the three systems (Musket & Saber's two books), answers and
/// refusals, with dice entered and rolled from the seed.
const LINES: &[&str] = &[
    "resilience +determined",
    "resilience shooting +determined +hit rolled 4 3",
    "resilience melee line square rolled 3 3",
    "hold determined lackluster rolled 3 3",
    "melee foot bases=2 vs foot bases=2 rolled 4 1 1 4",
    "melee foot column-of-attack ranks=3 bases=4 vs foot line bases=4",
    "shoot musket 2BW line bases=6 at bases=6 carried=4 rolled 4 4 1 1 1 1",
    "hits 14 bases=4",
    "hits 2.5",
    "charge irregular open rolled 3",
    "move irregular column-of-march terrain rolled 2",
    "interpenetrate open formed",
    "roll 2d6",
    "roll 10d6>=4",
    "odds resilience +determined",
    "odds shoot musket 2BW formed bases=2,bases=4",
    "simulate 200 resilience +determined",
    "resilence +determined",
    "chek armies",
    "resilience shooting rolled 9 9",
    "help",
    "help resilience",
    "mayhem fire musket 6\" soft rolled 4",
    "mayhem fire musket 10\" rerolls=1 rolled 5 4 6",
    "mayhem courage group=3,3 cause=fire rolled 5 4 2 3",
    "mayhem move individual mounted hero rolled 1 2 3 4 5 6",
    "mayhem initiative rolled 3 3",
    "mayhem fire canister 15\" figures=3 rolled 4 4 3 6 3",
    "mayhem fight vs vs rolled 1 6 6 4",
    "mayhem courage 7",
    "mayhem odds fire rifle 24\"",
    "saber attack 3 mr=4 vs 3 rolled 1 4",
    "saber attack 7 mr=4 cavalry-charge vs 4 mr=3 rolled 2 5 6",
    "saber recover 3 eliminated leader=1 rolled 4",
    "saber bombard 4 vs def-mr=3 rolled 5 4",
    "saber ma 4 v",
    "saber-quickplay bombard 2 vs square mr=4 rolled 4 1",
    "saber-quickplay recover disrupted march",
    "roll 2d6\nresilience +determined\n\n# a comment\nroll 3d6",
    "set seed 4\nroll 2d6",
    "\u{1b}[31mroll 2d6",
];

/// Lines for armies loaded: (the lists, the lines).
const WITH_ARMIES: &[(&[&str], &[&str])] = &[
    (
        &["leuthen-1757-prussian.toml"],
        &[
            "hold garde-3 rolled 3 3",
            "hold garde-3 lackluster determined rolled 3 3",
            "move jaeger rolled 4",
            "interpenetrate jaeger garde-3",
            "resilience shooting gren-1 +determined",
            "units",
            "resilience shooting gren-9",
        ],
    ),
    (
        &["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"],
        &[
            "melee gren-3 vs aus-5 rolled 4 1 1 1 1 1 1 1 4 4 4 4 1 1 1 1",
            "resilience shooting aus-5 rolled 3 3",
            "move aus-3 retire rolled 4",
        ],
    ),
    (
        &[
            "quatre-bras-1815-french.toml",
            "quatre-bras-1815-allied.toml",
        ],
        &[
            "morale al-bijlandt wellington rolled 5",
            "attack fr-husson vs al-bijlandt rolled 2 3",
        ],
    ),
    (
        &["fiw-raid-colonial.toml", "fiw-raid-french.toml"],
        &[
            "fire musket 10\" langy rolled 5 4",
            "courage settler-1 rolled 3 4",
        ],
    ),
    (
        &["leuthen-1757-prussian.toml", "fiw-raid-french.toml"],
        &[
            "resilience gren-1 rolled 4 4",
            "mayhem courage langy rolled 3",
        ],
    ),
];

/// The seeds the lines are resolved with: the seed of each line shown in
/// its answer comes from it.
const SEEDS: &[u64] = &[0, 43, 1 << 40, u64::MAX];

fn armies_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/armies"))
}

/// The command line's answer, run in armies/ so that it names each list
/// by its file name, as the page does.
fn native(armies: &[&str], line: &str, seed: u64) -> (u8, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(armies_dir())
        .args(["--json", "--seed", &seed.to_string()]);
    for army in armies {
        cmd.args(["--army", army]);
    }
    cmd.arg(line);
    let (code, out, err) = run_command(cmd, "");
    let code = code
        .and_then(|c| u8::try_from(c).ok())
        .expect("an exit status");
    (code, out, err)
}

fn pocket_with(armies: &[&str]) -> Pocket {
    let mut pocket = Pocket::new().expect("the embedded tables load");
    for army in armies {
        let text = std::fs::read(armies_dir().join(army)).expect("a shipped list");
        pocket.load_army(army, &text).expect("the list loads");
    }
    pocket
}

fn agree(pocket: &Pocket, armies: &[&str], line: &str, seed: u64) {
    let answered = pocket.resolve(line, seed);
    let (status, out, err) = native(armies, line, seed);
    assert_eq!(
        answered.stdout, out,
        "{line:?} seed {seed} armies {armies:?}"
    );
    assert_eq!(
        answered.stderr, err,
        "{line:?} seed {seed} armies {armies:?}"
    );
    assert_eq!(
        answered.status, status,
        "{line:?} seed {seed} armies {armies:?}"
    );
}

#[test]
fn the_pocket_answers_as_the_command_line_without_armies() {
    let pocket = pocket_with(&[]);
    for (i, line) in LINES.iter().enumerate() {
        agree(&pocket, &[], line, SEEDS[i % SEEDS.len()]);
    }
}

#[test]
fn the_pocket_answers_as_the_command_line_with_armies() {
    for (i, (armies, lines)) in WITH_ARMIES.iter().enumerate() {
        let pocket = pocket_with(armies);
        for (j, line) in lines.iter().enumerate() {
            agree(&pocket, armies, line, SEEDS[(i + j) % SEEDS.len()]);
        }
    }
}

/// Nothing to resolve: the command line's error, and nothing answered.
#[test]
fn an_empty_line_is_refused_as_the_command_line_refuses_it() {
    let pocket = pocket_with(&[]);
    for line in [" ", "# only a comment"] {
        agree(&pocket, &[], line, 7);
        assert!(
            pocket
                .resolve(line, 7)
                .stderr
                .starts_with("error: nothing to resolve")
        );
    }
}

/// A list that does not load is refused with the command line's words,
/// and the lists loaded before it stay.
#[test]
fn an_army_list_is_refused_as_the_command_line_refuses_it() {
    let mut pocket = pocket_with(&["leuthen-1757-prussian.toml"]);
    let bad = "x = [";
    let refused = pocket
        .load_army("bad.toml", bad.as_bytes())
        .expect_err("refused");
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(dir.path().join("bad.toml"), bad).expect("written");
    let mut cmd = Command::new(BIN);
    cmd.current_dir(dir.path())
        .args(["--json", "--seed", "1", "--army", "bad.toml", "roll 2d6"]);
    let (code, out, err) = run_command(cmd, "");
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert_eq!(err, format!("error: {refused}\n"));
    // The same list twice: its ids are not unique across the lists.
    let text = std::fs::read(armies_dir().join("leuthen-1757-prussian.toml")).expect("read");
    let twice = pocket.load_army("again.toml", &text).expect_err("refused");
    assert!(
        twice.contains("gren-1") || twice.contains("frederick"),
        "{twice}"
    );
    assert_eq!(
        pocket.armies().collect::<Vec<_>>(),
        ["leuthen-1757-prussian.toml"]
    );
    assert!(
        pocket
            .load_army("latin1.toml", b"name = \"\xe9\"")
            .expect_err("refused")
            .contains("not UTF-8")
    );
}

/// The words offered as the REPL offers them: the verbs, then the verb's
/// words, and a loaded list's units.
#[test]
fn the_pocket_offers_the_repls_words() {
    let pocket = pocket_with(&["leuthen-1757-prussian.toml"]);
    let words =
        |line: &str| -> Vec<String> { pocket.complete(line).into_iter().map(|(w, _)| w).collect() };
    assert_eq!(words("resi"), ["resilience"]);
    assert_eq!(words("resilience +deter"), ["+determined"]);
    assert!(words("hold gren-").contains(&"gren-1".to_string()));
}
