//! Issue 35: entered dice are read as the procedure throws them. For every
//! verb of every rule system, each way its dice can fall is thrown by a
//! dice source of the test's own (every face in turn, then a sample where
//! the ways are too many), and the line is entered again with exactly the
//! dice that way threw: it must be taken with no die asked for and none
//! left over, and answer exactly as before. Musket & Saber standard 7.3,
//! Player Note: "Because many combat results require a second die roll for
//! a morale check, we recommend rolling two color-differentiated dice with
//! one nominated to be the morale die." — a second roll only for the
//! results that require one.

use std::collections::BTreeSet;

use crate::answer::{Resolution, Rolled, Row};
use crate::catalog::NoUnits;
use crate::command::System;
use crate::dice::DiceSource;
use crate::error::DiceError;
use crate::session::{Output, Session};

/// Ways walked face by face before sampling takes over.
const WALKED: usize = 1500;
/// Ways sampled after that, for a line with more.
const SAMPLED: usize = 300;
/// No way of a line throws more dice than this (a long run of ties is cut).
const DEEPEST: usize = 40;

/// Every face in turn: the dice of the way before, the last one that can
/// go higher moved on by one, those after it thrown afresh (at 1). Past
/// the ways walked, faces come from a small generator instead.
struct Odometer {
    faces: Vec<u32>,
    sides: Vec<u32>,
    at: usize,
    random: Option<u64>,
}

impl Odometer {
    fn new() -> Odometer {
        Odometer {
            faces: Vec::new(),
            sides: Vec::new(),
            at: 0,
            random: None,
        }
    }

    /// Move to the next way; false when every way has been walked.
    fn advance(&mut self) -> bool {
        self.faces.truncate(self.at);
        self.sides.truncate(self.at);
        self.at = 0;
        if let Some(state) = &mut self.random {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.faces.clear();
            self.sides.clear();
            return true;
        }
        while let (Some(face), Some(&sides)) = (self.faces.last_mut(), self.sides.last()) {
            if *face < sides {
                *face += 1;
                return true;
            }
            self.faces.pop();
            self.sides.pop();
        }
        false
    }

    fn next_random(&mut self, sides: u32) -> u32 {
        let state = self.random.get_or_insert(1);
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*state >> 33) % u64::from(sides)) as u32 + 1
    }
}

impl DiceSource for Odometer {
    fn roll(&mut self, sides: u32) -> Result<Rolled, DiceError> {
        if self.at >= DEEPEST {
            return Err(DiceError::EndlessTies { rounds: DEEPEST });
        }
        if self.at == self.faces.len() {
            let face = if self.random.is_some() {
                self.next_random(sides)
            } else {
                1
            };
            self.faces.push(face);
            self.sides.push(sides);
        }
        let face = self.faces[self.at];
        self.at += 1;
        Ok(Rolled::new(sides, face))
    }
}

/// The line without its entered dice.
fn without_dice(example: &str) -> &str {
    example.split(" rolled ").next().unwrap_or(example).trim()
}

/// Every verb's examples, each under its own rule system, with lines of
/// the paths the examples do not show.
fn lines(session: &Session) -> Vec<(System, String)> {
    let mut out: Vec<(System, String)> = Vec::new();
    for doc in session.catalog.verbs() {
        let Some(system) = doc.system else {
            continue;
        };
        for example in doc.examples {
            let line = format!("{} {}", system.id(), without_dice(example));
            if !out.iter().any(|(_, l)| *l == line) {
                out.push((system, line));
            }
        }
    }
    out.push((crate::drums::DRUMS, "drums roll 2d6".into()));
    for extra in [
        // Musket & Saber: results with and without a check, both sides'
        // checks, a bombardment's, tactics that take one.
        "saber attack 5 3 vs 4",
        "saber attack 5 3 vs 4 mr=3",
        "saber attack 5 mr=4 vs 3 mr=4",
        "saber attack 3 mr=4 disrupted vs 5 mr=3 disrupted",
        "saber attack 6 mr=4 press-forward vs 3 mr=4 last-stand",
        "saber attack 4 mr=4 charge vs 3 mr=3",
        "saber attack 3 disengage vs 3",
        "saber bombard 4 vs mr=3",
        "saber bombard 3 2 vs mr=4 disrupted",
        "saber-quickplay attack 5 mr=4 vs 3 mr=4",
        "saber-quickplay bombard 4 vs mr=3",
        // Drums and Muskets: a risk whose distance is thrown only when
        // the general falls, ties in the initiative.
        "drums risk broke",
        "drums risk shot",
        "drums initiative generals=1 vs generals=1",
        // Musket Mayhem: an impact die only after a hit, a group's courage.
        "mayhem fire musket 10\"",
        "mayhem courage group=4,3",
    ] {
        let system = if extra.starts_with("saber-quickplay") {
            crate::saber::QUICKPLAY
        } else if extra.starts_with("saber") {
            crate::saber::SABER
        } else if extra.starts_with("mayhem") {
            crate::mayhem::MAYHEM
        } else {
            crate::drums::DRUMS
        };
        out.push((system, extra.to_string()));
    }
    out
}

/// A pool's own row says how its dice came: `2D6 (entered)`.
fn rows(r: &Resolution) -> Vec<Row> {
    r.rows
        .iter()
        .map(|row| match row {
            Row::Plain { label, value } => Row::Plain {
                label: label.replace(" (entered)", " (rolled)"),
                value: value.clone(),
            },
            other => other.clone(),
        })
        .collect()
}

/// Whether two answers say the same: dice, stack, score, outcome, notes
/// and fields (the entered dice are marked so, the thrown ones not).
fn same(a: &Resolution, b: &Resolution) -> Result<(), String> {
    let faces = |r: &Resolution| r.dice.iter().map(|d| d.face).collect::<Vec<_>>();
    let checks = [
        ("heading", a.heading == b.heading),
        ("dice", faces(a) == faces(b)),
        ("rows", rows(a) == rows(b)),
        ("modifiers", a.modifiers == b.modifiers),
        ("score", a.score == b.score),
        ("outcome", a.outcome == b.outcome),
        ("outcome text", a.outcome_text == b.outcome_text),
        ("notes", a.notes == b.notes),
        ("fields", a.fields == b.fields),
        ("measures", a.measures == b.measures),
    ];
    match checks.iter().find(|(_, ok)| !ok) {
        None => Ok(()),
        Some((what, _)) => Err(format!(
            "the {what} differ:\n  thrown: {:?} {:?} {:?}\n  entered: {:?} {:?} {:?}",
            a.outcome, a.notes, a.fields, b.outcome, b.notes, b.fields
        )),
    }
}

/// Whether the last die of a way is read: another face of it changes
/// what the line answers beyond the die itself (its outcome, score,
/// fields, notes or stack), or the dice thrown after it. A die nothing
/// reads is a die the procedure should not have thrown.
fn last_die_is_read(
    session: &Session,
    system: System,
    command: &crate::command::Command,
    line: &str,
    thrown: &Resolution,
    faces: &[u32],
    sides: &[u32],
) -> bool {
    let (Some(&last), Some(&of)) = (faces.last(), sides.last()) else {
        return true;
    };
    let said = |r: &Resolution| {
        (
            r.outcome.to_string(),
            r.outcome_text.to_string(),
            r.score,
            r.notes.clone(),
            r.modifiers.clone(),
            format!("{:?}", r.fields),
        )
    };
    (1..=of).filter(|&f| f != last).any(|face| {
        let mut other = Odometer::new();
        other.faces = faces.to_vec();
        other.sides = sides.to_vec();
        if let Some(f) = other.faces.last_mut() {
            *f = face;
        }
        match session
            .catalog
            .resolve(system, command, line, &NoUnits, &mut other)
        {
            Ok(again) => other.at != faces.len() || said(&again) != said(thrown),
            Err(_) => true,
        }
    })
}

/// Walk the ways of one line; enter each way's dice again. Returns the
/// outcomes reached and whether every way was walked.
fn walk(session: &mut Session, system: System, line: &str) -> (BTreeSet<String>, bool) {
    let command = session
        .parse(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"))
        .expect("a command");
    let mut odometer = Odometer::new();
    let mut outcomes = BTreeSet::new();
    let mut walked = 0;
    let mut every = true;
    loop {
        let thrown = session
            .catalog
            .resolve(system, &command, line, &NoUnits, &mut odometer);
        walked += 1;
        if let Ok(thrown) = thrown {
            let faces: Vec<String> = odometer.faces[..odometer.at]
                .iter()
                .map(u32::to_string)
                .collect();
            let entered = if faces.is_empty() {
                line.to_string()
            } else {
                format!("{line} rolled {}", faces.join(" "))
            };
            match session.run_line(&entered) {
                Ok(Some(Output::Resolution(again))) => {
                    assert!(
                        again.fields.get("unused_dice").is_none(),
                        "{entered}: exactly the dice thrown, yet some are unused: {:?}",
                        again.notes
                    );
                    if let Err(why) = same(&thrown, &again) {
                        panic!("{entered}: {why}");
                    }
                }
                Ok(other) => panic!("{entered}: answered {other:?}"),
                Err(e) => panic!("{entered}: refused: {e}"),
            }
            let (faces, sides) = (
                &odometer.faces[..odometer.at],
                &odometer.sides[..odometer.at],
            );
            // A check with no morale rating to read its die against still
            // throws it, shown for the line to be entered again with the
            // rating: the result calls for it.
            let undecided = thrown.outcome.contains("needs-mr");
            assert!(
                undecided
                    || last_die_is_read(session, system, &command, line, &thrown, faces, sides),
                "{entered}: the last die thrown changes nothing: no step reads it"
            );
            outcomes.insert(thrown.outcome.to_string());
        }
        if walked == WALKED && odometer.random.is_none() {
            every = false;
            odometer.random = Some(walked as u64);
        }
        if walked >= WALKED + SAMPLED || !odometer.advance() {
            break;
        }
    }
    (outcomes, every)
}

#[test]
fn every_verb_takes_exactly_the_dice_each_way_throws() {
    let tables = crate::systems::embedded().expect("embedded tables");
    let mut session = Session::new(tables, crate::drums::DRUMS, 1);
    let all = lines(&session);
    let mut verbs = BTreeSet::new();
    for (system, line) in &all {
        let (reached, every) = walk(&mut session, *system, line);
        assert!(!reached.is_empty(), "{line}: no way of it resolved");
        verbs.insert((
            system.id(),
            line.split_whitespace().nth(1).unwrap_or("").to_string(),
        ));
        // Every outcome `odds` finds is reached, where every way was walked.
        if every {
            let odds = session
                .run_line(&format!(
                    "{} odds {}",
                    system.id(),
                    line.split_once(' ').unwrap().1
                ))
                .unwrap_or_else(|e| panic!("odds {line}: {e}"));
            let Some(Output::Odds(odds)) = odds else {
                panic!("odds {line}: no odds");
            };
            for outcome in odds.outcomes.iter().filter(|o| o.prob.p > 0.0) {
                assert!(
                    reached.contains(outcome.kind()),
                    "{line}: the outcome {} was never reached",
                    outcome.kind()
                );
            }
        }
    }
    // Every verb of every system is among them.
    for doc in session.catalog.verbs() {
        if let Some(system) = doc.system {
            assert!(
                verbs.contains(&(system.id(), doc.name.to_string())),
                "{} {} has no line here",
                system.id(),
                doc.name
            );
        }
    }
}
