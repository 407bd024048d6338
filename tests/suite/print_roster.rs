//! `drumhead roster`: a table an army, one line per unit, figure or
//! leader under its command, with its factors and boxes to pencil in and,
//! with a game, its state now — the game part's own typed lines, not
//! rendered text read back.

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

/// Issue 26: "A roster a club would print: one line per unit with its
/// factors and boxes to pencil bases, hits, steps or figures, grouped by
/// command".
#[test]
fn every_unit_figure_and_leader_has_a_line_under_its_command() {
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
        for (army, table) in game.armies.iter().zip(&roster.armies) {
            let mut ids: Vec<String> = army.ids().into_iter().map(|(id, _)| id).collect();
            let mut lined: Vec<String> = table
                .commands
                .iter()
                .flat_map(|c| c.lines.iter().map(|l| l.id.clone()))
                .collect();
            ids.sort();
            lined.sort();
            assert_eq!(lined, ids, "{}: each member once", army.file);
            assert_eq!(table.rules, army.rules.title());
            assert!(
                table.commands.len() > 1,
                "{}: grouped by command",
                army.file
            );
            assert!(table.commands.iter().all(|c| !c.heading.is_empty()));
            assert!(table.columns.len() >= 4, "{}: its factors", army.file);
            let lines = table.commands.iter().flat_map(|c| &c.lines);
            for line in lines.clone() {
                assert_eq!(line.cells.len(), table.columns.len(), "{}", line.id);
                // A fresh game: nothing set, so nothing said ("routed no").
                assert!(line.state.is_empty(), "{}: {:?}", line.id, line.state);
                assert!(line.out_of_action.is_none(), "{} at the start", line.id);
                for b in &line.boxes {
                    assert!(b.count > 0 && b.crossed == 0, "{}: {b:?}", line.id);
                }
            }
            // Every system gives some of its lines boxes to pencil in.
            assert!(
                lines.clone().any(|l| !l.boxes.is_empty()),
                "{}: boxes",
                army.file
            );
        }
        let html = drumhead::sheet::render_roster(&roster, Default::default());
        for word in ["yes<", "no<", "not-charged", "first-shot"] {
            assert!(!html.contains(word), "no `{word}` on the page");
        }
        assert!(!html.contains(r#"class="card"#), "no cards");
    }
}

/// The boxes of the line of `id` in a printed roster, as (what, boxes,
/// crossed).
fn boxes_of(html: &str, id: &str) -> (String, Vec<(String, usize, usize)>) {
    let row = html
        .split("<tr")
        .find(|r| r.contains(&format!(r#"<td class="id">{id}</td>"#)))
        .unwrap_or_else(|| panic!("{id}'s line in {html}"))
        .to_string();
    let tracks = row
        .split(r#"<span class="track">"#)
        .skip(1)
        .map(|t| {
            let what = t
                .split(r#"<span class="what">"#)
                .nth(1)
                .and_then(|w| w.split('<').next())
                .unwrap_or_default()
                .to_string();
            (
                what,
                t.matches(r#"<span class="b"#).count(),
                t.matches(r#"<span class="b x""#).count(),
            )
        })
        .collect();
    (row, tracks)
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
    // A box a base, the one lost crossed; a box a hit towards the next
    // base, the one carried crossed.
    let (row, tracks) = boxes_of(&html, "aus-3");
    assert_eq!(
        tracks,
        [("bases".to_string(), 4, 1), ("hits".to_string(), 6, 1)],
        "{row}"
    );
    assert!(row.starts_with(">"), "aus-3 can still act: {row}");
    assert!(html.contains("turn 1"), "the game and its turn are named");
    // An untouched unit keeps its bases.
    let (row, tracks) = boxes_of(&html, "aus-4");
    assert!(tracks.iter().all(|(_, _, crossed)| *crossed == 0), "{row}");

    let (gone, tracks) = boxes_of(&html, "aus-5");
    assert!(
        gone.starts_with(r#" class="out">"#),
        "a destroyed unit's line is marked: {gone}"
    );
    assert!(
        gone.contains(r#"<span class="out">has lost all its bases</span>"#),
        "{gone}"
    );
    assert_eq!(tracks, [("bases".to_string(), 6, 6)], "{gone}");

    // Printing changes nothing: the game file is as it was.
    let before = std::fs::read(game).expect("game file");
    let (ok, _, _) = drumhead(
        &["roster", "--game", game, "-o", &format!("{game}.html")],
        "",
    );
    assert!(ok);
    assert_eq!(std::fs::read(game).expect("game file"), before);
}
