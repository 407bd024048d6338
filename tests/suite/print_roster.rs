//! `drumhead roster`: one card per unit, figure or leader of each army,
//! with its facts and, with a game, its state now — the game part's own
//! rows (`show`), not rendered text read back.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use drumhead::game::{ArmySource, Game};
use drumhead::tables::TableSource;

fn source(path: &str) -> ArmySource {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    ArmySource {
        file: path.to_string(),
        text: std::fs::read_to_string(file).expect("a shipped army"),
    }
}

fn drumhead(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_drumhead"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("drumhead runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("drumhead ends");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_unit_figure_and_leader_has_a_card() {
    let tables = drumhead::systems::all()
        .load(&TableSource::embedded())
        .expect("tables");
    for pair in [
        [
            "armies/leuthen-1757-austrian.toml",
            "armies/leuthen-1757-prussian.toml",
        ],
        [
            "armies/fiw-raid-colonial.toml",
            "armies/fiw-raid-french.toml",
        ],
        [
            "armies/quatre-bras-1815-allied.toml",
            "armies/quatre-bras-1815-french.toml",
        ],
        [
            "armies/pimpernel-league.toml",
            "armies/pimpernel-republic.toml",
        ],
    ] {
        let game = Game::new(pair.map(source).to_vec(), &tables).expect("a game");
        let roster = drumhead::print::roster(&game);
        assert_eq!(roster.armies.len(), 2);
        for (army, cards) in game.armies.iter().zip(&roster.armies) {
            let ids: Vec<String> = army.ids().into_iter().map(|(id, _)| id).collect();
            let carded: Vec<String> = cards.cards.iter().map(|c| c.id.clone()).collect();
            assert_eq!(carded, ids, "{}", army.file);
            assert_eq!(cards.rules, army.rules.title());
            for card in &cards.cards {
                // The card is what `show` says of the unit, row for row.
                let Some(drumhead::answer::report::Report::Unit { rows, .. }) = game.show(&card.id)
                else {
                    panic!("{} has no show", card.id);
                };
                let shown: Vec<(String, String)> =
                    rows.into_iter().map(|r| (r.label, r.value)).collect();
                assert_eq!(card.rows, shown, "{}", card.id);
                assert!(!card.rows.is_empty(), "{}", card.id);
                assert!(card.out_of_action.is_none(), "{} at the start", card.id);
            }
        }
        let html = drumhead::sheet::render_roster(&roster, Default::default());
        assert_eq!(
            html.matches(r#"<div class="card">"#).count(),
            roster.armies.iter().map(|a| a.cards.len()).sum::<usize>()
        );
    }
}

#[test]
fn a_games_roster_shows_each_unit_as_it_stands() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let game = dir.path().join("leuthen.json");
    let game = game.to_str().expect("UTF-8 path");
    let armies = [
        "--army",
        "armies/leuthen-1757-austrian.toml",
        "--army",
        "armies/leuthen-1757-prussian.toml",
    ];
    let mut args = vec!["--game", game];
    args.extend(armies);
    // Drums and Muskets: "If using bases, then for each 6 hits received then
    // 1 base is removed": 7 hits on aus-3's 4 bases leave 3, 1 carried.
    // Baden-Durlach's 6 bases take 36 hits: all lost, the unit destroyed.
    let (ok, _, err) = drumhead(&args, "hits 7 aus-3\nhits 36 aus-5\n");
    assert!(ok, "{err}");
    let (ok, html, err) = drumhead(&["roster", "--game", game], "");
    assert!(ok, "{err}");
    let card = html
        .split(r#"<div class="card"#)
        .find(|c| c.contains(r#"<span class="id">aus-3</span>"#))
        .expect("aus-3's card");
    assert!(
        card.contains("<dt>bases</dt><dd>3 of 4 (75%)</dd>"),
        "{card}"
    );
    assert!(
        card.contains("<dt>hits carried</dt><dd>1 (a base is removed at 6)</dd>"),
        "{card}"
    );
    assert!(html.contains("turn 1"), "the game and its turn are named");
    // An untouched unit keeps its bases.
    let other = html
        .split(r#"<div class="card"#)
        .find(|c| c.contains(r#"<span class="id">aus-4</span>"#))
        .expect("aus-4's card");
    assert!(other.contains("<dt>hits carried</dt><dd>0"), "{other}");

    let gone = html
        .split(r#"<div class="card"#)
        .find(|c| c.contains(r#"<span class="id">aus-5</span>"#))
        .expect("aus-5's card");
    assert!(
        gone.starts_with(r#" out">"#),
        "a destroyed unit's card is marked: {gone}"
    );
    assert!(
        gone.contains(r#"<p class="out">has lost all its bases</p>"#),
        "{gone}"
    );
    assert!(gone.contains("<dt>bases</dt><dd>0 of 6"), "{gone}");
    assert!(!card.starts_with(r#" out">"#), "aus-3 can still act");

    // Printing changes nothing: the game file is as it was.
    let before = std::fs::read(game).expect("game file");
    let (ok, _, _) = drumhead(
        &["roster", "--game", game, "-o", &format!("{game}.html")],
        "",
    );
    assert!(ok);
    assert_eq!(std::fs::read(game).expect("game file"), before);
}
