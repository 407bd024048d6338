//! The words for what a Drums and Muskets unit is, typed or brought by
//! naming it: generals (told apart from units by what they bring, not by a
//! word of the verb), a limbered battery ("Artillery Limbered | Column of
//! March": a unit type beside its formation) and heavy cavalry and lancers
//! (kinds of cavalry: their rows are rows of the Cavalry Melee Factors
//! Table). Every number is the sheet's
//! (shared/rules/drums-and-muskets-quick-reference.txt).

use crate::answer::{Resolution, Row};
use crate::drums::DRUMS;
use crate::game::{ArmySource, Game};
use crate::session::{Output, Session};

/// A heavy lancer regiment: the army lists allow `heavy` and `lancers`
/// together.
const GREEN: &str = r#"
[army]
name = "Skirmish, Green"
rules = "drums"
side = "Green"

[[general]]
id = "green-gen"
name = "Colonel Green"
ability = "ordinary"

[[unit]]
id = "green-lancers"
name = "Green heavy lancers"
arm = "cavalry"
heavy = true
lancers = true
formation = "formed"
bases = 4
general = "green-gen"
"#;

/// A session with the Leuthen armies and the Green one.
fn session() -> Session {
    let tables = crate::systems::embedded().unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let mut sources: Vec<ArmySource> = ["leuthen-1757-prussian.toml", "leuthen-1757-austrian.toml"]
        .iter()
        .map(|f| ArmySource {
            file: format!("armies/{f}"),
            text: std::fs::read_to_string(dir.join(f)).unwrap(),
        })
        .collect();
    sources.push(ArmySource {
        file: "green.toml".into(),
        text: GREEN.into(),
    });
    let game = Game::new(sources, &tables).unwrap();
    Session::new(tables, DRUMS, 11).with_game(game)
}

/// Each line in a fresh game, so no line's effects reach the next.
fn resolve(line: &str) -> Resolution {
    match session().run_line(line) {
        Ok(Some(Output::Resolution(res))) => *res,
        other => panic!("`{line}` did not resolve: {other:?}"),
    }
}

fn refused(line: &str) -> String {
    match session().run_line(line) {
        Err(e) => e.to_string(),
        other => panic!("`{line}` was not refused: {other:?}"),
    }
}

fn stack(res: &Resolution) -> Vec<(String, i64)> {
    res.modifiers
        .iter()
        .map(|m| (m.label.to_string(), m.value))
        .collect()
}

/// "If a general is within 3BW of a unit that breaks, then throw 1D6 and
/// on a 5+ the general has been swept away": naming Frederick and typing
/// what he brings that `risk` reads (`commander`) throw the same die to the
/// same end; `risk` has no word for being a general (everyone at risk is
/// one), and a unit named there is refused by what it brings.
#[test]
fn risk_reads_the_commander_and_knows_a_general_by_what_he_brings() {
    for (line, outcome) in [
        ("risk broke frederick rolled 5 1 1 1", "swept-away"),
        ("risk broke commander rolled 5 1 1 1", "swept-away"),
        ("risk broke frederick rolled 4", "unharmed"),
        ("risk broke commander rolled 4", "unharmed"),
    ] {
        let res = resolve(line);
        assert_eq!(res.outcome, outcome, "{line}");
        // "if this is the force commander affected, he cannot longer issue
        // any supply dice for the rest of the current turn."
        if outcome != "unharmed" {
            assert!(
                res.notes.iter().any(|n| n.contains("force commander")),
                "{line}: {:?}",
                res.notes
            );
        }
    }
    // "move the general directly to his own long edge": 3D6, 1 + 1 + 1.
    assert_eq!(
        resolve("risk broke moritz rolled 5 1 1 1").fields["distance_bw"],
        3
    );
    let err = refused("risk broke aus-5");
    assert!(
        err.contains("`aus-5` is a unit, and risk to generals is taken by a general"),
        "{err}"
    );
    let err = refused("risk shot moritz zieten");
    assert!(err.contains("`zieten` is a second name"), "{err}");
    let err = refused("risk shot general");
    assert!(err.contains("unknown word `general` for `risk`"), "{err}");
}

/// "Note, generals cannot be targeted directly": a general is refused
/// where a unit is meant because of what he brings, whatever the verb's
/// words; `general` is no word of theirs.
#[test]
fn a_general_where_a_unit_is_meant_is_refused_by_name() {
    for (line, said) in [
        (
            "hits 4 zieten",
            "`zieten` is a general, and hits fall on units",
        ),
        (
            "shoot musket 2BW gren-1 at Zieten",
            "`Zieten` is a general, and \"generals cannot be targeted directly",
        ),
        (
            "melee zieten vs foot",
            "`zieten` is a general, and melee is fought by units",
        ),
        (
            "melee cuir-10 vs aus-5 daun",
            "`daun` is a general, and melee is fought by units",
        ),
        (
            "melee cuir-10 vs aus-5 aus-6",
            "`aus-6` is a second unit on this side, and `melee` takes one",
        ),
        (
            "resilience daun aus-5",
            "`daun` is a general, and resilience tests are taken by units",
        ),
        ("resilience aus-5 aus-6", "`aus-6` is one name too many"),
    ] {
        let err = refused(line);
        assert!(err.contains(said), "{line}: {err}");
    }
    for line in [
        "hits 4 general",
        "shoot musket 2BW at general",
        "melee foot general",
    ] {
        let err = refused(line);
        assert!(err.contains("unknown word `general`"), "{line}: {err}");
    }
    // Named after the unit he is "For each general in line of command
    // within 3BW | +1 | +1 | +1", as `general` typed is.
    for line in [
        "resilience aus-5 daun rolled 3 3",
        "resilience aus-5 general rolled 3 3",
    ] {
        let res = resolve(line);
        assert!(
            stack(&res).contains(&("For each general in line of command within 3BW".into(), 1)),
            "{line}: {:?}",
            stack(&res)
        );
    }
}

/// "Artillery Limbered | Column of March | 2D6 | 1D3 | 1D6" and
/// "Artillery Unlimbered | Formed | 1D3 | 1BW | 1D6": the unit type's word
/// selects the row alone or beside its formation; beside another row's
/// formation it is refused.
#[test]
fn a_limbered_battery_is_artillery_limbered_in_column_of_march() {
    for line in [
        "move artillery limbered column-of-march rolled 6 5",
        "move artillery limbered rolled 6 5",
        "move artillery column-of-march rolled 6 5",
        "move artillery limbered march rolled 6 5",
        "move bn-guns rolled 6 5",
    ] {
        let res = resolve(line);
        assert_eq!(res.fields["distance_bw"], 11, "{line}");
        assert!(
            res.heading.contains("Artillery Limbered (Column of March)"),
            "{line}: {}",
            res.heading
        );
    }
    // "If in Column of March and the whole movement is on a road then add
    // 1D6": 6 + 5 + 4.
    for line in [
        "move artillery limbered column-of-march road rolled 6 5 4",
        "move bn-guns road rolled 6 5 4",
    ] {
        assert_eq!(resolve(line).fields["distance_bw"], 15, "{line}");
    }
    // Told otherwise on purpose (`override`: a word that contradicts its
    // list is refused without it), the battery is what it is told: a
    // typed formation or unit type displaces both words it brings.
    for line in [
        "move bn-guns unlimbered override rolled 2",
        "move bn-guns formed override rolled 2",
        "move artillery unlimbered formed rolled 2",
    ] {
        let res = resolve(line);
        assert_eq!(res.fields["distance_bw"], 2, "{line}");
        assert!(
            res.heading.contains("Artillery Unlimbered (Formed)"),
            "{line}: {}",
            res.heading
        );
    }
    assert_eq!(
        resolve("move brummer column-of-march override terrain rolled 3").fields["distance_bw"],
        3
    );
    // "Artillery Limbered | Column of March | Cannot charge".
    for line in [
        "charge artillery limbered column-of-march",
        "charge bn-guns",
    ] {
        let res = resolve(line);
        assert_eq!(res.outcome, "cannot-charge", "{line}");
        assert!(res.dice.is_empty(), "{line}");
    }
    for (line, said) in [
        (
            "move artillery limbered formed",
            "`formed` is not a formation of Artillery Limbered (Column of March) on the Movement table: give `limbered` or `formed`, not both",
        ),
        (
            "charge artillery unlimbered column-of-march",
            "`column-of-march` is not a formation of Artillery Unlimbered (Formed) on the Charge Distances table",
        ),
        (
            "move artillery limbered unlimbered",
            "`unlimbered` and `limbered` are both a state of the guns",
        ),
        (
            "move foot limbered",
            "`limbered` has no row for foot in the Movement table",
        ),
        ("move general limbered", "generals have none"),
    ] {
        let err = refused(line);
        assert!(err.contains(said), "{line}: {err}");
    }
}

/// "Heavy Cavalry in first melee of a charge except vs foot in square |
/// Add 2 dice" and "Lancers in first melee of a charge | Add 2 dice" are
/// rows of the Cavalry Melee Factors Table: `heavy-cavalry` and `lancers`
/// stand beside `cavalry` (or alone for it), and a heavy lancer regiment
/// gets both rows.
#[test]
fn heavy_cavalry_and_lancers_are_kinds_of_cavalry() {
    let heavy = "Heavy Cavalry in first melee of a charge except vs foot in square — Add 2 dice";
    let lancers = "Lancers in first melee of a charge — Add 2 dice";
    let same = [
        "melee cavalry heavy-cavalry heavy-first bases=4 vs foot line bases=4",
        "melee heavy-cavalry heavy-first bases=4 vs foot line bases=4",
        "melee heavy-cavalry cavalry heavy-first bases=4 vs foot line bases=4",
    ];
    let first = resolve(same[0]);
    for line in same {
        let res = resolve(line);
        assert_eq!(stack(&res), stack(&first), "{line}");
        assert_eq!(res.dice.len(), first.dice.len(), "{line}");
        assert!(
            res.outcome_text.contains("Heavy Cavalry") || res.outcome == "drawn",
            "{line}: {}",
            res.outcome_text
        );
        assert!(
            res.heading.starts_with("melee, Heavy Cavalry vs Foot"),
            "{line}"
        );
    }
    // 4 bases: 4D6; "Cavalry vs foot not in square and not in terrain |
    // Add 1 in 2 dice" +2; Heavy Cavalry +2: 8D6 for side a, 4D6 for b.
    assert_eq!(first.dice.len(), 8 + 4);
    assert!(stack(&first).contains(&(format!("a: {heavy}"), 2)));
    // Both kinds, typed or brought by the heavy lancers (4 bases, formed,
    // first melee of the game: "Add 2 dice" too).
    for line in [
        "melee cavalry heavy-cavalry lancers formed first-melee heavy-first lancers-first bases=4",
        "melee green-lancers heavy-first lancers-first",
    ] {
        let res = resolve(line);
        let s = stack(&res);
        assert!(s.contains(&(heavy.to_string(), 2)), "{line}: {s:?}");
        assert!(s.contains(&(lancers.to_string(), 2)), "{line}: {s:?}");
        // 4 + 2 (first melee) + 2 + 2.
        assert_eq!(res.dice.len(), 10, "{line}");
        assert!(
            res.heading.starts_with("melee, Heavy Cavalry and Lancers"),
            "{line}: {}",
            res.heading
        );
    }
    // A kind of cavalry is not foot.
    let err = refused("melee heavy-cavalry foot bases=4");
    assert!(
        err.contains("`heavy-cavalry` is a kind of cavalry, and this side is `foot`"),
        "{err}"
    );
    // Told on purpose (`override`) it fights as foot, a heavy regiment
    // fights on the Foot table:
    // its `heavy-cavalry` is displaced, and said so. 5 bases + "First
    // round of melee fought in the game | Add 2 dice".
    let res = resolve("melee cuir-10 foot override heavy-first");
    assert!(res.heading.starts_with("melee, Foot"), "{}", res.heading);
    assert_eq!(res.dice.len(), 7);
    assert!(
        res.rows.iter().any(|r| matches!(r, Row::Plain { label, .. }
                if label.contains("`heavy-cavalry` from the unit — displaced"))),
        "{:?}",
        res.rows
    );
    // Charge and movement know only the arm: a heavy regiment charges as
    // "Cavalry | Formed | 2D6".
    assert_eq!(
        resolve("charge cuir-10 rolled 6 6").fields["distance_bw"],
        12
    );
}
