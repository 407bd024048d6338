//! Issue 23, Musket Mayhem: "A test walks every verb × every named unit of
//! the shipped armies × every word that contradicts one of that unit's
//! facts, and finds each refused with the fact named." `move langy
//! individual mounted` was taken although Ensign de Langy is not mounted
//! in his list: a typed word would win over the list unsaid.
//!
//! The cases are made here from the shipped lists (read as TOML, not
//! through drumhead's reader) and from each verb's vocabulary: the words
//! a figure's list entry says yes or no to — mounted, leader, shock,
//! bayonet, incendiary, commander, hero (`move_bonus`), its missile weapon
//! and its armament (the keywords of tables/mayhem.toml's `fire.weapon`
//! and `fight.armament`).

use std::path::Path;

use crate::game::ArmySource;
use crate::mayhem::MAYHEM;
use crate::session::Session;

const GAMES: &[&[&str]] = &[
    &["fiw-raid-colonial.toml", "fiw-raid-french.toml"],
    &["pimpernel-league.toml", "pimpernel-republic.toml"],
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read_toml(path: &Path) -> toml::Table {
    let text = std::fs::read_to_string(path).expect("a shipped file");
    text.parse().expect("valid TOML")
}

/// The keywords of an array of tables in tables/mayhem.toml.
fn keywords(tables: &toml::Table, part: &str, list: &str) -> Vec<String> {
    tables[part][list]
        .as_array()
        .expect("an array of rows")
        .iter()
        .map(|row| row["keyword"].as_str().expect("a keyword").to_string())
        .collect()
}

struct Figure {
    id: String,
    file: String,
    /// Each word the list says yes or no to, with its answer.
    says: Vec<(String, bool)>,
    /// The list's designated hero (`move_bonus`): what `hero` means to
    /// `move` ("+1d6 bonus for specially designated heroes").
    designated: bool,
}

/// The armament a list entry without one has: the row marked `default`.
fn default_armament() -> String {
    let tables = read_toml(&root().join("tables/mayhem.toml"));
    tables["fight"]["armament"]
        .as_array()
        .expect("armament rows")
        .iter()
        .find(|row| row.get("default").and_then(|v| v.as_bool()) == Some(true))
        .and_then(|row| row["keyword"].as_str())
        .expect("one default armament")
        .to_string()
}

fn figures(file: &str, weapons: &[String], armaments: &[String]) -> Vec<Figure> {
    let default = default_armament();
    let list = read_toml(&root().join("armies").join(file));
    let flag = |f: &toml::Table, key: &str| f.get(key).and_then(|v| v.as_bool()) == Some(true);
    list["figure"]
        .as_array()
        .expect("figures")
        .iter()
        .filter_map(|f| f.as_table())
        .map(|f| {
            let rank = f.get("rank").and_then(|v| v.as_str());
            let weapon = f.get("weapon").and_then(|v| v.as_str());
            let armament = f
                .get("armament")
                .and_then(|v| v.as_str())
                .or(Some(default.as_str()));
            let mut says = vec![
                ("mounted".to_string(), flag(f, "mounted")),
                ("shock".to_string(), flag(f, "shock")),
                ("bayonet".to_string(), flag(f, "bayonet")),
                ("incendiary".to_string(), flag(f, "incendiary")),
                ("commander".to_string(), flag(f, "commander")),
                // A hero is what its tokens and bonuses make it (the
                // "Heroes" rule), or the list's designated hero.
                ("hero".to_string(), flag(f, "move_bonus") || hero_tokens(f)),
                (
                    "leader".to_string(),
                    flag(f, "leader") || matches!(rank, Some("leader" | "exceptional-leader")),
                ),
            ];
            says.extend(
                weapons
                    .iter()
                    .map(|w| (w.clone(), weapon == Some(w.as_str()))),
            );
            says.extend(
                armaments
                    .iter()
                    .map(|a| (a.clone(), armament == Some(a.as_str()))),
            );
            Figure {
                id: f["id"].as_str().expect("an id").to_string(),
                file: file.to_string(),
                says,
                designated: flag(f, "move_bonus"),
            }
        })
        .collect()
}

/// Save or reroll tokens, or a bonus to skill or impact: "Heroes: ... some
/// combination of save tokens ..., reroll tokens, or bonuses".
fn hero_tokens(f: &toml::Table) -> bool {
    let count = |key: &str| f.get(key).and_then(|v| v.as_integer()).unwrap_or(0);
    count("saves") > 0
        || count("rerolls") > 0
        || f.get("bonus")
            .and_then(|v| v.as_table())
            .is_some_and(|b| !b.is_empty())
}

fn session(files: &[&str]) -> crate::unit::common::Held<Session> {
    let tables = crate::systems::embedded().expect("the embedded tables load");
    let sources = files
        .iter()
        .map(|f| ArmySource {
            file: format!("armies/{f}"),
            text: std::fs::read_to_string(root().join("armies").join(f)).expect("a shipped list"),
        })
        .collect();
    // A game kept in a file: what it holds of a figure is refused against
    // it (issue 35: without one it stands as stated).
    crate::unit::common::kept("mayhem-contradictions", sources, &tables)
        .map(|game| Session::new(tables, MAYHEM, 1).with_game(game))
}

/// Each line of the walk: the verb, the figure, the word, and where the
/// figure stands (its own side, or a clause).
fn lines(s: &Session, figure: &Figure, says_yes: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for verb in s.catalog.for_system(MAYHEM) {
        let sides = std::iter::once(("", &verb.vocab))
            .chain(verb.clauses.iter().map(|(kind, v)| (kind.word(), v)));
        for (clause, vocab) in sides {
            // A verb that reads its own words (`courage`: each value or
            // rank is another figure of the group) binds no facts from
            // them: none says anything of the figure named.
            if vocab.raw {
                continue;
            }
            for (word, yes) in &figure.says {
                let yes = if word == "hero" && verb.name == "move" {
                    &figure.designated
                } else {
                    yes
                };
                if *yes != says_yes || vocab.find(word).is_none_or(|e| e.name != *word) {
                    continue;
                }
                // A verb with an opponent's clause wants one, even empty
                // (`fight vs`), before it binds the words.
                let side = if clause.is_empty() {
                    match verb.clauses.first() {
                        Some((kind, _)) => format!("{} {word} {}", figure.id, kind.word()),
                        None => format!("{} {word}", figure.id),
                    }
                } else {
                    format!("{clause} {} {word}", figure.id)
                };
                out.push((format!("{} {side}", verb.name), word.clone()));
            }
        }
    }
    out
}

#[test]
fn every_word_contradicting_a_shipped_figures_list_is_refused_naming_the_fact() {
    let tables = read_toml(&root().join("tables/mayhem.toml"));
    let weapons = keywords(&tables, "fire", "weapon");
    let armaments = keywords(&tables, "fight", "armament");
    let mut walked = 0;
    let mut figures_walked = 0;
    for files in GAMES {
        let mut s = session(files);
        for file in *files {
            for figure in figures(file, &weapons, &armaments) {
                let cases = lines(&s, &figure, false);
                figures_walked += usize::from(!cases.is_empty());
                for (line, word) in cases {
                    let err = match s.run_line(&line) {
                        Err(e) => e.to_string(),
                        Ok(out) => panic!("`{line}` was taken: {out:?}"),
                    };
                    assert!(
                        err.contains(&format!("`{word}` contradicts `{}`", figure.id)),
                        "`{line}`: {err}"
                    );
                    // The fact, and where it came from.
                    assert!(err.contains("its list"), "`{line}`: {err}");
                    assert!(err.contains(&figure.file), "`{line}`: {err}");
                    walked += 1;
                }
            }
        }
    }
    // Every figure of the four lists lacks some word a verb knows (no
    // figure has every weapon): none is left out of the walk.
    let all: usize = GAMES
        .iter()
        .flat_map(|g| g.iter())
        .map(|f| figures(f, &weapons, &armaments).len())
        .sum();
    assert_eq!(figures_walked, all);
    assert!(walked > 100, "only {walked} cases walked");
}

// The other way round: a word the list says yes to is never called a
// contradiction ("Langy … his list": his musket, his armament).
#[test]
fn a_word_agreeing_with_a_figures_list_is_not_called_a_contradiction() {
    let tables = read_toml(&root().join("tables/mayhem.toml"));
    let weapons = keywords(&tables, "fire", "weapon");
    let armaments = keywords(&tables, "fight", "armament");
    let mut walked = 0;
    for files in GAMES {
        let mut s = session(files);
        for file in *files {
            for figure in figures(file, &weapons, &armaments) {
                for (line, _) in lines(&s, &figure, true) {
                    if let Err(e) = s.run_line(&line) {
                        let err = e.to_string();
                        assert!(!err.contains("contradicts"), "`{line}`: {err}");
                    }
                    walked += 1;
                }
            }
        }
    }
    assert!(walked > 20, "only {walked} cases walked");
}

// The issue's own case, word for word.
#[test]
fn langy_is_not_mounted() {
    let mut s = session(GAMES[0]);
    let err = s
        .run_line("move langy individual mounted")
        .expect_err("Langy is not mounted in his list")
        .to_string();
    assert!(
        err.contains("`mounted` contradicts `langy`")
            && err.contains("its list does not make it mounted")
            && err.contains("armies/fiw-raid-french.toml"),
        "{err}"
    );
}

// "Refuse a typed word contradicting a named figure's list or game fact":
// "A gunpowder weapon becomes unloaded … and can be reloaded as an action".
// After Hawkeye fires, `loaded` beside him says what the game does not;
// Langy has not fired, and `unloaded` beside him is refused the same way.
#[test]
fn loaded_or_unloaded_against_the_game_is_refused_naming_the_game() {
    let mut s = session(GAMES[0]);
    s.run_line("fire hawkeye 20\" at marine-1 rolled 1")
        .expect("Hawkeye's first shot");
    let err = s
        .run_line("fire hawkeye loaded 20\" at marine-1 rolled 1")
        .expect_err("Hawkeye fired and has not reloaded")
        .to_string();
    assert!(
        err.contains("`loaded` contradicts `hawkeye`")
            && err.contains("the game holds its rifle unloaded"),
        "{err}"
    );
    let err = s
        .run_line("fire langy unloaded 10\" at settler-1 rolled 1")
        .expect_err("Langy's musket is loaded")
        .to_string();
    assert!(
        err.contains("`unloaded` contradicts `langy`")
            && err.contains("the game holds its musket loaded"),
        "{err}"
    );
    // Reloaded, `loaded` agrees with the game again.
    s.run_line("next-turn").expect("a new turn");
    s.run_line("reload hawkeye").expect("Hawkeye reloads");
    s.run_line("next-turn").expect("a new turn");
    let ok = s.run_line("fire hawkeye loaded 20\" at marine-1 rolled 1");
    assert!(ok.is_ok(), "{ok:?}");
}
