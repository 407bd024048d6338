//! Issue 23: "A test walks every verb × every named unit of the shipped
//! armies × every word that contradicts one of that unit's facts, and
//! finds each refused with the fact named." — for the Musket & Saber
//! verbs. The cases are generated: the units from every shipped list whose
//! rules are a Musket & Saber book, the words from each verb's own
//! vocabularies (before and after `vs`), and the contradiction from the
//! counter as the list prints it (2.3-2.7: its arm, whether its MA is
//! variable) or from the state of a fresh game (nothing disrupted,
//! ineffective, reduced, eliminated or destroyed).

use crate::common;

use std::path::{Path, PathBuf};

use drumhead::army::{Army, parse_army};
use drumhead::catalog::VerbDoc;
use drumhead::saber::army::{List, UnitType};
use serde_json::Value;

fn schemas() -> drumhead::army::Schemas {
    drumhead::game::schemas_of(&drumhead::systems::all())
}

/// Every shipped list under a Musket & Saber book, loaded.
fn shipped_saber() -> Vec<(PathBuf, Army)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("armies");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("armies/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let schemas = schemas();
    let lists: Vec<(PathBuf, Army)> = files
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).expect("a list");
            let army = parse_army(&p.display().to_string(), &text, &schemas).expect("it loads");
            drumhead::saber::army::read(&army)?;
            Some((p, army))
        })
        .collect();
    assert!(
        lists.len() >= 2,
        "the Quatre Bras lists at least: {}",
        lists.len()
    );
    lists
}

/// The arm word a counter brings (battalions are infantry and squadrons
/// cavalry for every rule that names the arm).
fn arm(kind: UnitType) -> &'static str {
    match kind {
        UnitType::Infantry | UnitType::Battalion => "infantry",
        UnitType::Cavalry | UnitType::Squadron => "cavalry",
        UnitType::Artillery => "artillery",
    }
}

/// Each word that contradicts the unit, with the source the refusal must
/// name: "list" for what its counter prints, "game" for its state.
fn contradicting(list: &List, id: &str) -> Vec<(&'static str, &'static str)> {
    let u = list.units.iter().find(|u| u.id == id).expect("the unit");
    let kind = u.unit_type();
    let mut words = Vec::new();
    for other in ["infantry", "cavalry", "artillery"] {
        if other != arm(kind) {
            words.push((other, "list"));
        }
    }
    // 2.4: a number printed for the MA is not "V".
    if u.ma.is_some() {
        words.push(("v", "list"));
    }
    // The state of a fresh game: nothing has happened to any unit (and
    // 2.5, 2.6: an infantry brigade is never ineffective, a one-step unit
    // never reduced).
    for state in [
        "disrupted",
        "ineffective",
        "reduced",
        "eliminated",
        "destroyed",
    ] {
        words.push((state, "game"));
    }
    words
}

/// The words a side of a verb accepts: `None` before `vs`, `Some(())`
/// after.
fn accepts(verb: &VerbDoc, after_vs: bool, word: &str) -> bool {
    if after_vs {
        verb.clauses
            .iter()
            .any(|(_, v)| v.entries.iter().any(|e| e.name == word))
    } else {
        verb.vocab.entries.iter().any(|e| e.name == word)
    }
}

struct Case {
    line: String,
    id: String,
    word: &'static str,
    source: &'static str,
}

#[test]
fn every_verb_refuses_every_word_that_contradicts_a_named_unit() {
    let lists = shipped_saber();
    let tables = drumhead::saber::Tables::embedded().expect("the tables");
    let verbs = drumhead::system::RuleSet::verbs(&tables).all();
    let mut args: Vec<String> = Vec::new();
    let mut cases: Vec<Case> = Vec::new();
    for (path, army) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
        let list = drumhead::saber::army::read(army).expect("a saber list");
        let book = army.rules;
        for verb in verbs.iter().filter(|v| v.system == Some(book)) {
            // A leader named alone: the state words say his state, and a
            // fresh game has him neither ineffective nor a casualty (10.2,
            // 10.4).
            for l in &list.leaders {
                for word in ["ineffective", "casualty"] {
                    for after_vs in [false, true] {
                        if !accepts(verb, after_vs, word) {
                            continue;
                        }
                        let line = if after_vs {
                            format!("{} {} vs {} {word}", book.id(), verb.name, l.id)
                        } else {
                            format!("{} {} {} {word}", book.id(), verb.name, l.id)
                        };
                        cases.push(Case {
                            line,
                            id: l.id.clone(),
                            word,
                            source: "game",
                        });
                    }
                }
            }
            for u in &list.units {
                for (word, source) in contradicting(&list, &u.id) {
                    for after_vs in [false, true] {
                        if !accepts(verb, after_vs, word) {
                            continue;
                        }
                        let line = if after_vs {
                            format!("{} {} vs {} {word}", book.id(), verb.name, u.id)
                        } else {
                            format!("{} {} {} {word}", book.id(), verb.name, u.id)
                        };
                        cases.push(Case {
                            line,
                            id: u.id.clone(),
                            word,
                            source,
                        });
                    }
                }
            }
        }
    }
    // attack (both sides), bombard, morale, ma, recover, capture…: the
    // walk must have found the verbs and their words, not nothing.
    let verbs_walked: std::collections::BTreeSet<&str> = cases
        .iter()
        .filter_map(|c| c.line.split_whitespace().nth(1))
        .collect();
    for verb in ["attack", "bombard", "morale", "ma", "recover", "capture"] {
        assert!(
            verbs_walked.contains(verb),
            "no case for `{verb}`: {verbs_walked:?}"
        );
    }
    assert!(cases.len() > 200, "{} cases", cases.len());

    // A game kept in a file: the state words are refused against it
    // (issue 35: without one they stand as stated).
    let game = common::game::temp_file("saber-contradictions", "g.json");
    args.extend(["--game".into(), game.display().to_string()]);
    args.push("--json".into());
    let script: String = cases.iter().map(|c| format!("{}\n", c.line)).collect();
    let (_, out, err) = common::run(&args, &script);
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(answers.len(), cases.len(), "one answer a line\n{err}");
    let mut wrong = Vec::new();
    for (case, answer) in cases.iter().zip(&answers) {
        let error = answer["error"].as_str().unwrap_or("");
        let source_named = match case.source {
            "list" => error.contains("its list"),
            _ => error.contains(&format!("the game does not record it as `{}`", case.word)),
        };
        let refused = answer["type"] == "error"
            && error.starts_with(&format!("`{}` contradicts `{}`", case.word, case.id))
            && source_named;
        if !refused {
            wrong.push(format!(
                "{} (the {}'s fact): {answer}",
                case.line, case.source
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} not refused with the fact named:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

/// The words a unit agrees with are not refused as contradictions: the
/// walk above is not passed by refusing every word.
#[test]
fn a_word_the_unit_agrees_with_is_not_a_contradiction() {
    let lists = shipped_saber();
    let mut args: Vec<String> = Vec::new();
    for (path, _) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
    }
    args.push("--json".into());
    // 7.13 1 names the arms; fr-husson is infantry, fr-guiton cavalry,
    // al-stievenaar artillery in their lists.
    let lines = [
        "saber attack fr-husson infantry vs al-kempt rolled 3 3",
        "saber attack fr-guiton cavalry vs al-kempt rolled 3 3",
        "saber bombard al-stievenaar artillery vs fr-husson rolled 3 3",
        // A unit attacks once a combat phase (7.5): another brigade.
        "saber attack fr-campi vs al-stievenaar artillery rolled 3 3",
    ];
    let (_, out, err) = common::run(&args, &format!("{}\n", lines.join("\n")));
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(answers.len(), lines.len(), "{err}");
    for (line, a) in lines.iter().zip(&answers) {
        assert_eq!(a["type"], "resolution", "{line}: {a}");
    }
}

/// The issue's own line: fr-husson is infantry in its list.
#[test]
fn the_issues_line_is_refused_naming_the_list() {
    let lists = shipped_saber();
    let mut args: Vec<String> = Vec::new();
    for (path, _) in &lists {
        args.extend(["--army".into(), path.display().to_string()]);
    }
    let (code, out, err) = common::run(&args, "saber attack fr-husson cavalry vs al-kempt\n");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        err.contains("`cavalry` contradicts `fr-husson`: its list makes it infantry"),
        "{err}"
    );
    // Issue 35: `override` works the same in all three systems.
    assert!(err.contains("add `override` on this side"), "{err}");
}
