//! The facts a Drums and Muskets unit or general brings to a command: every
//! one that `GamePart::possible_facts` lists is read by a Drums verb that
//! can take that unit (a fact no verb reads would be carried for nothing),
//! and the list is complete and true: whatever a unit brings in a game is
//! on it, and a unit driven through a game brings every one of its own.

use std::collections::BTreeSet;
use std::path::Path;

use crate::catalog::Units;
use crate::drums::DRUMS;
use crate::game::{ArmySource, Game};
use crate::session::Session;

const BLUE: &str = r#"
[army]
name = "Skirmish, Blue"
rules = "drums"
side = "Blue"

[[general]]
id = "blue-gen"
name = "Colonel Blue"
ability = "incompetent"
traits = ["hated"]

[[unit]]
id = "blue-foot"
name = "Blue foot"
arm = "foot"
class = ["zealous"]
formation = "square"
weapon = "rifle"
figures = 12
general = "blue-gen"

[[unit]]
id = "blue-lancers"
name = "Blue lancers"
arm = "cavalry"
lancers = true
class = ["lackluster"]
formation = "column-of-march"
bases = 3
general = "blue-gen"

[[unit]]
id = "blue-irregulars"
name = "Blue irregulars"
arm = "irregular"
formation = "column-of-march"
weapon = "carbine"
figures = 3
general = "blue-gen"

[[unit]]
id = "blue-guns"
name = "Blue guns"
arm = "artillery"
class = ["guards"]
formation = "unlimbered"
weapon = "position-artillery"
bases = 1
general = "blue-gen"
"#;

fn sources(files: &[&str]) -> Vec<ArmySource> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let mut out: Vec<ArmySource> = files
        .iter()
        .map(|f| ArmySource {
            file: format!("armies/{f}"),
            text: std::fs::read_to_string(dir.join(f)).unwrap(),
        })
        .collect();
    out.push(ArmySource {
        file: "blue.toml".into(),
        text: BLUE.into(),
    });
    out
}

fn session() -> Session {
    let tables = crate::systems::embedded().unwrap();
    let game = Game::new(
        sources(&["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"]),
        &tables,
    )
    .unwrap();
    Session::new(tables, DRUMS, 11).with_game(game)
}

/// The ids of every Drums unit and general in the game, each with whether
/// it is a general.
fn members(game: &Game) -> Vec<(String, bool)> {
    game.armies
        .iter()
        .filter(|a| a.rules == DRUMS)
        .flat_map(|a| a.list.members())
        .map(|m| (m.id.to_string(), m.kind == "general"))
        .collect()
}

/// A general is named in `move` and `charge` (the General rows), after the
/// unit in `resilience` ("For each general in line of command within
/// 3BW"), in `risk` and in `initiative` ("1D6 per general remaining on the
/// board"); a unit in every other Drums verb.
fn takes(verb: &str, general: bool) -> bool {
    if general {
        ["move", "charge", "resilience", "risk", "initiative"].contains(&verb)
    } else {
        !["risk", "initiative"].contains(&verb)
    }
}

#[test]
fn every_possible_fact_is_read_by_a_verb_that_takes_the_unit() {
    let s = session();
    let game = s.game.as_ref().unwrap();
    let verbs: Vec<_> = s.catalog.for_system(DRUMS).collect();
    let mut checked = 0;
    for (id, general) in members(game) {
        let possible = game.possible_facts(&id);
        assert!(!possible.is_empty(), "{id} brings nothing");
        for fact in possible {
            let readers: Vec<&str> = verbs
                .iter()
                .filter(|v| takes(v.name, general) && v.reads_fact(&fact.word))
                .map(|v| v.name)
                .collect();
            assert!(
                !readers.is_empty(),
                "{id}: `{fact}` is read by no Drums verb that takes it"
            );
            checked += 1;
        }
    }
    assert!(checked > 300, "{checked}");
}

/// The words of what a unit brings now.
fn brought(s: &Session, id: &str) -> BTreeSet<String> {
    let game = s.game.as_ref().unwrap();
    game.unit(DRUMS, id)
        .unwrap()
        .facts
        .iter()
        .map(|f| f.word.to_string())
        .collect()
}

fn possible(s: &Session, id: &str) -> BTreeSet<String> {
    let game = s.game.as_ref().unwrap();
    game.possible_facts(id)
        .iter()
        .map(|f| f.word.to_string())
        .collect()
}

#[test]
fn possible_facts_are_complete_and_true() {
    let mut s = session();
    // aus-5 (foot, line, musket, 6 bases), brummer (artillery, 3 bases),
    // blue-foot (12 figures) taken through every state that changes a fact.
    let script = [
        "hits 4 aus-5",
        "hits 2 aus-5",
        "shoot musket 2BW aus-4 at aus-5",
        "shoot musket 2BW aus-5 at gren-1",
        "shoot musket 2BW aus-5 at gren-1",
        "shoot musket 2BW aus-5 at gren-1",
        "charge aus-5",
        "charge aus-5",
        "move aus-5",
        // 2 + 2, "Received any hits this turn" −1 → 3: "Forced Retire/1 hit".
        "resilience aus-5 rolled 2 2",
        "melee aus-5 vs gren-3",
        "hits 12 aus-5",
        "hits 2 brummer",
        "shoot position-artillery 8BW brummer at aus-1",
        "hits 1 blue-foot",
        "hits 6 blue-foot",
        // Risk to Generals: "if this is the force commander affected, he
        // cannot longer issue any supply dice for the rest of the current
        // turn" and "Any units ... can only expend 1 action point".
        "risk broke charles rolled 5 1 1 1",
        "next-turn",
        "hits 23 blue-lancers",
        "resilience blue-guns rolled 1 1",
    ];
    let ids: Vec<String> = members(s.game.as_ref().unwrap())
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let mut seen: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    let mut look = |s: &Session| {
        for id in &ids {
            let now = brought(s, id);
            let can = possible(s, id);
            let extra: Vec<&String> = now.difference(&can).collect();
            assert!(
                extra.is_empty(),
                "{id} brings {extra:?}, not in its possible facts"
            );
            seen.entry(id.clone()).or_default().extend(now);
        }
    };
    look(&s);
    for line in script {
        s.run_line(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        look(&s);
    }
    // Every possible fact of aus-5 and of the generals was brought at
    // some point; the others' that the script reaches too.
    for id in ["aus-5", "frederick", "blue-gen"] {
        let can = possible(&s, id);
        let missing: Vec<&String> = can.difference(&seen[id]).collect();
        assert!(missing.is_empty(), "{id} never brought {missing:?}");
    }
    for (id, words) in [
        ("brummer", &["carried", "hits", "strong"][..]),
        (
            "blue-foot",
            &["figures", "lost-bases", "half-lost", "weak"][..],
        ),
        ("blue-lancers", &["heavy-cavalry", "lancers"][..]),
        ("bn-guns", &["limbered", "column-of-march"][..]),
    ] {
        for word in words {
            assert_eq!(
                seen[id].contains(*word),
                possible(&s, id).contains(*word),
                "{id} {word}"
            );
        }
    }
    // A limbered battery brings the column-of-march rows; an unlimbered
    // one does not ("Artillery Limbered | Column of March").
    assert!(possible(&s, "bn-guns").contains("column-of-march"));
    assert!(!possible(&s, "brummer").contains("column-of-march"));
    // Figures, not bases; no hits carried; a two-rank unit never brings
    // "Shooters have lost bases … and do not use 2 ranks firing doctrine".
    let blue = possible(&s, "blue-foot");
    assert!(blue.contains("figures") && !blue.contains("bases") && !blue.contains("carried"));
    assert!(!possible(&s, "gren-1").contains("lost-bases"));
    // Three bases can never lose one and stay at 75%.
    assert!(!possible(&s, "blue-lancers").contains("lost-bases"));
}
