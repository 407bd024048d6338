//! Hand-to-hand combat: each figure rolls a skill die plus the melee
//! modifiers; the higher hits, a tie has no effect. The winner's results die
//! equal to or higher than its own armament removes the loser, otherwise
//! the loser checks courage. A figure fighting several opponents
//! (`fight A vs B vs C`) fights them in order; if it is killed, the combats
//! not yet fought are cancelled.

use serde_json::{Value, json};

use crate::bind::{Bound, Vocab};
use crate::catalog::{Input, VerbDoc};
use crate::command::{ClauseKind, System};
use crate::dice::{DiceSource, Rolled};
use crate::error::{BindError, CommandError};
use crate::resolution::{Resolution, Tone};

use super::{D6, MayhemTables, Tokens, token_words};

const ARMAMENT: &str = "an armament";
/// Most opponents one figure may fight on a line.
pub const MAX_OPPONENTS: usize = 8;
/// Words every side takes besides the table rows; a table row may not reuse them.
pub const SIDE_WORDS: &[&str] = &["armament", "skill", "impact", "saves", "rerolls"];
const MAX_BONUS: i64 = 6;

fn side_vocab(tables: &MayhemTables) -> Vocab {
    let t = &tables.fight;
    let mut vocab = Vocab::new();
    for m in &t.modifier {
        vocab = vocab.flag(&m.keyword, m.row.clone());
        for alias in &m.aliases {
            vocab = vocab.flag(alias, format!("same as `{}`: {}", m.keyword, m.row));
        }
    }
    for a in &t.armament {
        let default = if a.default { " (the default)" } else { "" };
        vocab = vocab.choice(
            ARMAMENT,
            &a.keyword,
            format!("armament {}: {}{default}", a.value, a.row),
        );
    }
    vocab = vocab
        .number(
            "armament",
            1,
            i64::from(D6),
            "armament value given as a number (`armament=4`)",
        )
        .number(
            "skill",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the skill die (`skill+1`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the results die when this figure hits (`impact+1`): {}",
                tables.heroes.bonus
            ),
        );
    token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll this figure's skill die when it loses (the reroll stands)",
    )
}

pub fn verb(tables: &MayhemTables) -> VerbDoc {
    let vocab = side_vocab(tables);
    VerbDoc::new(
        Some(System::Mayhem),
        "fight",
        "fight A-words… vs B-words… [vs C-words…]",
        "Hand-to-hand: opposed skill dice with the melee modifiers; the winner's results die against its armament (6/5/4) kills, else the loser checks courage.",
        vocab.clone(),
        resolve,
    )
    .clause(ClauseKind::Vs, vocab, MAX_OPPONENTS)
    .examples(&[
        "fight leader shock vs armed",
        "fight specialist superior vs unarmed rolled 4 4",
        "fight rear bayonet vs leader rolled 2 5 6",
        "fight specialist saves=1 vs armed vs armed rear",
    ])
}

/// One figure's facts from its words.
struct Side {
    name: String,
    modifiers: Vec<(String, i64)>,
    armament: i64,
    armament_row: String,
    impact: i64,
    tokens: Tokens,
}

impl Side {
    fn new(name: String, words: &Bound, tables: &MayhemTables) -> Result<Side, CommandError> {
        let t = &tables.fight;
        let mut modifiers = Vec::new();
        for m in &t.modifier {
            if std::iter::once(&m.keyword)
                .chain(&m.aliases)
                .any(|k| words.has(k))
            {
                modifiers.push((m.row.clone(), m.value));
            }
        }
        if let Some(n) = words.value("skill").filter(|n| *n != 0) {
            modifiers.push(("hero's bonus to the skill die".to_string(), n));
        }
        let (armament, armament_row) = match (words.choice(ARMAMENT), words.value("armament")) {
            (Some((name, _)), Some(_)) => {
                let span = words.span_of("armament").unwrap_or_default();
                return Err(BindError::Conflict {
                    span,
                    first: name.to_string(),
                    second: "armament".into(),
                    group: ARMAMENT.into(),
                }
                .into());
            }
            (None, Some(n)) => (n, format!("armament {n} (given)")),
            (Some((name, _)), None) => t
                .armament
                .iter()
                .find(|a| a.keyword == name)
                .map(|a| (a.value, a.keyword.clone()))
                .unwrap_or((i64::from(D6), name.to_string())),
            (None, None) => t
                .armament
                .iter()
                .find(|a| a.default)
                .map(|a| (a.value, format!("{} (the default)", a.keyword)))
                .unwrap_or((i64::from(D6), "default".into())),
        };
        Ok(Side {
            name,
            modifiers,
            armament,
            armament_row,
            impact: words.value("impact").unwrap_or(0),
            tokens: Tokens::from_bound(words),
        })
    }

    fn total_modifier(&self) -> i64 {
        self.modifiers.iter().map(|(_, v)| v).sum()
    }
}

/// One combat between the first figure and one opponent.
struct Combat {
    outcome: &'static str,
    result: Option<&'static str>,
    a_killed: bool,
    text: String,
    /// What happened without the dice: how `odds` and `simulate` count it.
    group: String,
    opponent: String,
    faces: [u32; 2],
    skill: [i64; 2],
    rerolled_from: [Option<u32>; 2],
    armament: [i64; 2],
    /// The results die: face, modified, needed.
    results: Option<(u32, i64, i64)>,
    save_spent: Option<String>,
}

impl Combat {
    /// Built only when the resolution is shown: `odds` walks thousands of
    /// combats and reads none of this.
    fn json(&self) -> Value {
        let side = |i: usize| {
            let mut j = json!({"die": self.faces[i], "modified": self.skill[i], "armament": self.armament[i]});
            if let Some(first) = self.rerolled_from[i] {
                j["rerolled_from"] = json!(first);
            }
            j
        };
        let mut j = json!({
            "opponent": self.opponent,
            "a": side(0),
            "b": side(1),
            "outcome": self.outcome,
            "result": self.result,
        });
        if let Some((die, modified, needed)) = self.results {
            j["results"] = json!({"die": die, "modified": modified, "needed": needed});
        }
        if let Some(name) = &self.save_spent {
            j["save_spent"] = json!(name);
        }
        j
    }
}

fn resolve(input: &Input, dice: &mut dyn DiceSource) -> Result<Resolution, CommandError> {
    let tables = &input.tables.mayhem;
    let opponents: Vec<&Bound> = input
        .clauses
        .iter()
        .filter(|(k, _, _)| *k == ClauseKind::Vs)
        .map(|(_, _, b)| b)
        .collect();
    if opponents.is_empty() {
        return Err(input.missing(
            "`fight` needs the opponent after `vs`: `fight leader vs armed` (both sides may be empty words: `fight vs`)",
        ));
    }
    let several = opponents.len() > 1;
    let mut a = Side::new("A".into(), &input.words, tables)?;
    let mut bs = Vec::new();
    for (i, words) in opponents.iter().enumerate() {
        let name = if several {
            format!("B{}", i + 1)
        } else {
            "B".into()
        };
        bs.push(Side::new(name, words, tables)?);
    }
    let heading = if several {
        format!("hand-to-hand, A against {} opponents in order", bs.len())
    } else {
        "hand-to-hand, A vs B".to_string()
    };
    let mut res = Resolution::new(System::Mayhem, "fight", heading);
    let mut combats = Vec::new();
    let mut cancelled = 0;
    let mut texts = Vec::new();
    let mut groups = Vec::new();
    let mut last: Option<(&'static str, Option<&'static str>)> = None;
    for (i, b) in bs.iter_mut().enumerate() {
        if last.is_some() && combats.last().is_some_and(|c: &Combat| c.a_killed) {
            cancelled = opponents.len() - i;
            break;
        }
        let combat = fight_one(&mut res, &mut a, b, several, dice)?;
        last = Some((combat.outcome, combat.result));
        texts.push(combat.text.clone());
        groups.push(combat.group.clone());
        combats.push(combat);
    }
    let a_killed = combats.last().is_some_and(|c| c.a_killed);
    if cancelled > 0 {
        res.row("combats cancelled", format!("{cancelled} (A was killed)"));
        let text = format!("A is killed: the {cancelled} combat(s) not yet fought are cancelled");
        groups.push(text.clone());
        texts.push(text);
    }
    let (outcome, result) = last.unwrap_or(("tie", None));
    res.field("result", result.map_or(Value::Null, Value::from));
    if !res.quiet {
        let combats: Vec<Value> = combats.iter().map(Combat::json).collect();
        if let Some(only) = combats.first().filter(|_| !several) {
            for key in ["a", "b"] {
                res.field(key, only[key].clone());
            }
        }
        res.field("combats", Value::Array(combats));
    }
    res.field("cancelled", cancelled);
    if a.tokens.any() {
        res.field("a_tokens", a.tokens.json());
    }
    let tone = if a_killed {
        Tone::Bad
    } else if outcome == "tie" {
        Tone::Neutral
    } else {
        Tone::Good
    };
    res.set_outcome(outcome, texts.join("; "), tone);
    res.odds_group = Some(if several {
        fight_summary(&combats, bs.len()).into()
    } else {
        groups.join("; ").into()
    });
    if combats.iter().any(|c| c.result == Some("courage-check")) {
        res.note("A figure hit but not killed checks courage as in fire combat (`courage VALUE`).");
    }
    Ok(res)
}

fn fight_one(
    res: &mut Resolution,
    a: &mut Side,
    b: &mut Side,
    several: bool,
    dice: &mut dyn DiceSource,
) -> Result<Combat, CommandError> {
    if several {
        res.row(format_args!("— A vs {}", b.name), "");
    }
    let mut skill = [0i64; 2];
    let mut faces = [0u32; 2];
    for (i, (side, die)) in [&*a, &*b]
        .into_iter()
        .zip(skill_dice(a, b, dice)?)
        .enumerate()
    {
        res.die(format_args!("{} skill die", side.name), die);
        for (label, v) in &side.modifiers {
            res.modifier(format!("{}: {label}", side.name), *v);
        }
        faces[i] = die.face;
        skill[i] = i64::from(die.face) + side.total_modifier();
    }
    // The loser may spend a reroll token on its skill die; each figure at
    // most once a combat.
    let mut rerolled = [None::<u32>; 2];
    for _ in 0..2 {
        let loser = if skill[0] < skill[1] {
            0
        } else if skill[1] < skill[0] {
            1
        } else {
            break;
        };
        if rerolled[loser].is_some() {
            break;
        }
        let other = if loser == 0 { &b.tokens } else { &a.tokens };
        let answered = rerolled[1 - loser].is_none() && other.rerolls_spent < other.rerolls;
        let side: &mut Side = if loser == 0 { a } else { b };
        if !side.tokens.spend_reroll() {
            break;
        }
        // The new face counts only against the other side's score, unless
        // the other side may reroll in turn and so compare with this face.
        let die = if answered {
            dice.roll(D6)?
        } else {
            let beat = skill[1 - loser] - side.total_modifier();
            let cuts = [beat, beat + 1].map(|c| c.clamp(1, i64::from(D6) + 1) as u32);
            dice.roll_against(D6, &cuts)?
        };
        res.die(
            format_args!("{} skill die, reroll token spent", side.name),
            die,
        );
        rerolled[loser] = Some(faces[loser]);
        faces[loser] = die.face;
        skill[loser] = i64::from(die.face) + side.total_modifier();
    }
    res.row(format_args!("{} skill score", a.name), skill[0]);
    res.row(format_args!("{} skill score", b.name), skill[1]);
    let mut combat = Combat {
        outcome: "tie",
        result: None,
        a_killed: false,
        text: String::new(),
        group: String::new(),
        opponent: b.name.clone(),
        faces,
        skill,
        rerolled_from: rerolled,
        armament: [a.armament, b.armament],
        results: None,
        save_spent: None,
    };
    if skill[0] == skill[1] {
        res.row(
            format_args!("A vs {}", b.name),
            "tie: neither figure is affected",
        );
        return Ok(Combat {
            outcome: "tie",
            result: None,
            a_killed: false,
            group: format!("A vs {}: tie, neither figure is affected", b.name),
            text: format!(
                "A vs {}: tie ({} each), neither figure is affected",
                b.name, skill[0]
            ),
            ..combat
        });
    }
    let a_wins = skill[0] > skill[1];
    let (winner, loser): (&Side, &mut Side) = if a_wins {
        (&*a, &mut *b)
    } else {
        (&*b, &mut *a)
    };
    let outcome = if a_wins { "a-hits" } else { "b-hits" };
    // The results die counts only against the armament, less the bonus.
    let needed = (winner.armament - winner.impact).clamp(1, i64::from(D6) + 1) as u32;
    let die = dice.roll_against(D6, &[needed])?;
    res.die(format_args!("{} results die", winner.name), die);
    if winner.impact != 0 {
        res.modifier(
            format!("{}: hero's bonus to the results die", winner.name),
            winner.impact,
        );
    }
    let results = i64::from(die.face) + winner.impact;
    res.row(
        format_args!("{} armament", winner.name),
        format_args!("{} — {}", winner.armament, winner.armament_row),
    );
    let mut result = if results >= winner.armament {
        "killed"
    } else {
        "courage-check"
    };
    // The outcome's words are read only when the resolution is shown.
    let quiet = res.quiet;
    let say = |words: std::fmt::Arguments| {
        if quiet {
            String::new()
        } else {
            words.to_string()
        }
    };
    let mut text = if result == "killed" {
        say(format_args!(
            "{} hits: results {results} ≥ armament {} — {} is killed (removed from the game)",
            winner.name, winner.armament, loser.name
        ))
    } else {
        say(format_args!(
            "{} hits: results {results} < armament {} — {} checks courage",
            winner.name, winner.armament, loser.name
        ))
    };
    if result == "killed" && loser.tokens.spend_save() {
        res.row(
            format_args!("{} save token spent", loser.name),
            "death cancelled",
        );
        combat.save_spent = Some(loser.name.clone());
        result = "courage-check";
        text = say(format_args!(
            "{} hits: results {results} ≥ armament {} — {} would be killed, but a save token is spent: the death is cancelled and {} checks courage",
            winner.name, winner.armament, loser.name, loser.name
        ));
    }
    res.row(
        format_args!("A vs {}", if a_wins { &loser.name } else { &winner.name }),
        if result == "killed" {
            format!("{} killed", loser.name)
        } else {
            format!("{} checks courage", loser.name)
        },
    );
    let group = match (result, combat.save_spent.is_some()) {
        ("killed", _) => format!("{} hits: {} is killed", winner.name, loser.name),
        (_, true) => format!(
            "{} hits: {} spends a save token instead of dying and checks courage",
            winner.name, loser.name
        ),
        _ => format!("{} hits: {} checks courage", winner.name, loser.name),
    };
    Ok(Combat {
        outcome,
        result: Some(result),
        a_killed: !a_wins && result == "killed",
        text,
        group,
        results: Some((die.face, results, winner.armament)),
        ..combat
    })
}

/// Against several opponents what a player asks is whether A lives and
/// how many it takes with it; the order of the combats would make the odds
/// a list of thousands of lines.
fn fight_summary(combats: &[Combat], opponents: usize) -> String {
    let count = |outcome: &str, result: &str| {
        combats
            .iter()
            .filter(|c| c.outcome == outcome && c.result == Some(result))
            .count()
    };
    let fate = if combats.last().is_some_and(|c| c.a_killed) {
        "A is killed".to_string()
    } else {
        match count("b-hits", "courage-check") {
            0 => "A survives untouched".to_string(),
            1 => "A survives, checking courage once".to_string(),
            n => format!("A survives, checking courage {n} times"),
        }
    };
    format!(
        "{fate}; of {opponents} opponents {} killed, {} check courage",
        count("a-hits", "killed"),
        count("a-hits", "courage-check")
    )
}

/// The two skill dice. Only which side scores higher matters, so they are
/// one opposed roll — unless a reroll token may be spent, when the kept
/// face of the other side counts too.
fn skill_dice(a: &Side, b: &Side, dice: &mut dyn DiceSource) -> Result<[Rolled; 2], CommandError> {
    if a.tokens.rerolls > 0 || b.tokens.rerolls > 0 {
        return Ok([dice.roll(D6)?, dice.roll(D6)?]);
    }
    Ok(dice.opposed(D6, a.total_modifier() - b.total_modifier())?)
}
