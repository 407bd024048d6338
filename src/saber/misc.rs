//! The smaller procedures: leader casualties (standard 10.4, QuickPlay
//! 10.0), variable movement allowances (standard 4.4, 4.7; QuickPlay 4.3,
//! 11.1), cavalry capture of a routed defender (standard 9.3 7) and the
//! fortune of war "move an enemy unit" (standard 12.4).

use crate::saber::Resolution;
use std::rc::Rc;

use crate::answer::resolution::Tone;
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::VerbDoc;
use super::game::SaberEffect;
use super::named;
use super::{MaProcedure, MaTable, Tables, Variant};
use crate::answer::resolution::Target;

/// The standard rules' re-roll (4.4) is bounded: after this many rolls
/// above the printed MA the command stops with an error rather than loop.
pub(crate) const MAX_MA_ROLLS: u32 = 100;

const LEADER_PART: &str = "the leader's part in the combat";
const SQUARE: &str = "square";
const ALONE: &str = "alone";
/// Standard 10.1: leaders moving alone "always have 12 MP"; QuickPlay
/// 10.0: "They may move alone up to 12 hexes".
const LEADER_ALONE_MA: i64 = 12;
const FOW_ACTION: &str = "a fortune of war";

pub(crate) fn verbs(t: &Rc<Tables>, variant: Variant) -> Vec<VerbDoc> {
    let rules = variant.rules(t);
    let system = variant.system();
    let mut verbs = Vec::new();

    let vocab = casualty_vocab(rules);
    let usage: &'static str = match variant {
        Variant::Standard => "leader-casualty participating|stacked|coordinating|retreating",
        Variant::QuickPlay => "leader-casualty involved",
    };
    verbs.push(
        VerbDoc::new(
            Some(system),
            "leader-casualty",
            usage,
            "Leader casualty check after an L result: one die.",
            vocab,
            super::resolver(t, leader_casualty),
        )
        .examples(match variant {
            Variant::Standard => &[
                "leader-casualty participating",
                "leader-casualty stacked rolled 6",
            ],
            Variant::QuickPlay => &["leader-casualty involved rolled 5"],
        })
        // A leader flipped to his ineffective side may still be hit.
        .takes_fallen(),
    );

    verbs.push(
        VerbDoc::new(
            Some(system),
            "ma",
            "ma N [v] [disrupted] [march] [cavalry] [square] [leader=N] | ma alone",
            "Movement allowance, rolled when the rules say so.",
            ma_vocab(rules),
            super::resolver(t, ma),
        )
        .examples(match variant {
            Variant::Standard => &["ma 4 disrupted", "ma 5 disrupted march cavalry", "ma v"],
            Variant::QuickPlay => &["ma 8 disrupted", "ma 4 disrupted march"],
        }),
    );

    if rules.capture.is_some() {
        verbs.push(
            VerbDoc::new(
                Some(system),
                "capture",
                "capture CF [vs UNIT]",
                "Victorious charging cavalry tries to capture a routed defender: one die, at most its regular CF captures. A defender named after `vs` is captured in the game: out of it, and gone from a campaign.",
                Vocab::new()
                    .with_number("the charging cavalry's regular combat factor")
                    .number_from("cf")
                    .flag("cavalry", "the capturing unit is cavalry (brought by a named unit)")
                    .flag(
                        "infantry",
                        "brought by a named infantry unit: only victorious charging cavalry captures (9.3 7)",
                    )
                    .flag(
                        "artillery",
                        "brought by a named artillery unit: only victorious charging cavalry captures (9.3 7)",
                    ),
                super::resolver(t, capture),
            )
            .examples(&["capture 3", "capture 4 rolled 5"])
            .clause(crate::command::ClauseKind::Vs, Vocab::new(), 1),
        );
    }
    if let Some(fow) = &rules.fow {
        verbs.push(
            VerbDoc::new(
                Some(system),
                "fow",
                "fow move-enemy",
                "Fortune of war: move an enemy unit on a die roll of 1 or 2.",
                Vocab::new().choice(FOW_ACTION, "move-enemy", fow.row.clone()),
                super::resolver(t, self::fow),
            )
            .examples(&["fow move-enemy", "fow move-enemy rolled 2"]),
        );
    }
    verbs
}

fn casualty_vocab(rules: &super::SaberRules) -> Vocab {
    let mut vocab = Vocab::new();
    for row in &rules.leader_casualty {
        vocab = vocab.choice(LEADER_PART, &row.keyword, row.row.clone());
    }
    for arm in ["infantry", "cavalry", "artillery"] {
        vocab = vocab.flag(
            arm,
            format!("brought by a named {arm} unit: a casualty check is for leaders only (10.4)"),
        );
    }
    vocab.flag(
        "casualty",
        "brought by a leader who is a casualty already: out of the game for good (10.4)",
    )
}

fn ma_vocab(rules: &super::SaberRules) -> Vocab {
    let mut vocab = Vocab::new()
        .with_number("the printed movement allowance (MA)")
        .number_from("ma")
        .flag("march", rules.ma.march.row.clone())
        .flag("cavalry", "the unit is cavalry (march movement)")
        .number(
            "leader",
            0,
            20,
            "an accompanying leader's movement value, added to the MA (standard 10.3, QuickPlay 10.0 1)",
        )
        .number(
            "leader-mv",
            0,
            20,
            "the same as `leader=N` (named leaders bring it)",
        )
        .slot(&["leader", "leader-mv"])
        .flag(
            SQUARE,
            match rules.ma.procedure {
                MaProcedure::RerollAbovePrinted => {
                    "the unit is in square: it moves at half its normal MA, rounded down (9.5)"
                }
                MaProcedure::CapAtPrinted => {
                    "the unit is in square: units in square may move one hex per movement phase (9.3)"
                }
            },
        )
        .flag(
            ALONE,
            match rules.ma.procedure {
                MaProcedure::RerollAbovePrinted => {
                    "a leader moving alone: he always has 12 MP and never rolls for his MA (10.1)"
                }
                MaProcedure::CapAtPrinted => "a leader moving alone: up to 12 hexes (10.0)",
            },
        );
    for reason in &rules.ma.rolls_when {
        vocab = vocab.flag(&reason.keyword, reason.row.clone());
    }
    if vocab.find("v").is_none() {
        vocab = vocab.flag(
            "v",
            "a V in place of a numerical MA: the MA is rolled (a unit with a variable MA brings it)",
        );
    }
    vocab
}

/// The leader a casualty check is for, if one is named: the index among
/// the units named. Anything else named is refused.
fn casualty_of(input: &Input) -> Result<Option<usize>, CommandError> {
    let named = named::side(input, None)?;
    if let Some(unit) = named.iter().find(|u| u.combat) {
        return Err(unit.refuse(
            ErrorKind::NotApplicable,
            "is a combat unit: a casualty check is for a leader (10.4)",
        ));
    }
    if let Some(fallen) = named.iter().find(|u| u.has("casualty")) {
        return Err(fallen.refuse(
            ErrorKind::OutOfAction,
            "is a casualty already: casualties are out of the game for good (10.4)",
        ));
    }
    // The same words typed, with no unit named.
    for word in ["infantry", "cavalry", "artillery", "casualty"] {
        if let Some(span) = input.words.span_of(word) {
            let (kind, why) = if word == "casualty" {
                (
                    ErrorKind::OutOfAction,
                    "is a casualty already: casualties are out of the game for good (10.4)",
                )
            } else {
                (
                    ErrorKind::NotApplicable,
                    "is a combat unit: a casualty check is for a leader (10.4)",
                )
            };
            return Err(BindError::NotHere {
                span,
                text: word.to_string(),
                why: why.into(),
                kind,
            }
            .into());
        }
    }
    if let Some(second) = named.get(1) {
        return Err(second.refuse(
            ErrorKind::ExtraWord,
            "is a second leader: roll one die for each leader, one check each (10.4)",
        ));
    }
    Ok((!named.is_empty()).then_some(0))
}

fn leader_casualty(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let Some((part, _)) = input.words.choice(LEADER_PART) else {
        let options: Vec<&str> = rules
            .leader_casualty
            .iter()
            .map(|r| r.keyword.as_str())
            .collect();
        return Err(input.missing(format!(
            "`leader-casualty` needs the leader's part: one of {}",
            options.join(", ")
        )));
    };
    let Some(row) = rules.leader_casualty.iter().find(|r| r.keyword == part) else {
        return Err(input.missing("no such leader row"));
    };
    let leader = crate::memoized!(input, Option<usize>, || casualty_of(input))?;
    let mut res = input.resolution("leader-casualty", format!("leader casualty check ({part})"));
    let die = dice.roll(6)?;
    res.die("die", die);
    res.row(row.row.clone(), format!("{}+", row.at_least));
    res.field("needed", row.at_least);
    if die.face >= row.at_least {
        res.set_outcome(
            "casualty",
            "the leader becomes a casualty: remove him from the map; he is out of the game for good",
            Tone::Bad,
        );
        if let Some(nth) = *leader {
            res.effect(
                Target::Side { clause: None, nth },
                SaberEffect::LeaderCasualty,
            );
        }
    } else {
        res.set_outcome("unharmed", "the leader is unharmed", Tone::Good);
    }
    Ok(res)
}

/// Standard 12.1: the HQ "moves like a cavalry unit"; 12.2: the trains'
/// "march movement allowance is limited to its printed MA". Which of
/// them the line names, if either.
fn base_named(input: &Input) -> Option<&'static str> {
    input.named.iter().find_map(|n| {
        ["hq", "trains"]
            .into_iter()
            .find(|w| n.facts.facts.iter().any(|f| f.word == *w))
    })
}

/// The rule the HQ or the trains moves by, in the stack; for the trains
/// marching, the whole answer (their printed MA): true when it is done.
fn trains_march(
    table: &MaTable,
    base: &str,
    printed: Option<i64>,
    march: bool,
    res: &mut Resolution,
) -> bool {
    let rule = if base == "hq" {
        &table.hq
    } else {
        &table.trains
    };
    if let Some(rule) = rule {
        res.row(rule.clone(), "");
    }
    if base != "trains" || !march {
        return false;
    }
    let ma = printed.unwrap_or(0);
    res.row(
        "march movement allowance: the trains' printed MA (12.2)",
        ma,
    );
    res.set_score(ma);
    res.field("ma", ma);
    res.set_outcome(
        "ma",
        format!("MA {ma} movement points this phase"),
        Tone::Neutral,
    );
    res.note(table.rule.clone());
    true
}

fn whole(input: &Input, what: &str, min: i64, max: i64) -> Result<Option<i64>, CommandError> {
    match input.words.number {
        None => Ok(None),
        Some((n, span)) if n.fract() != 0.0 || n < min as f64 || n > max as f64 => {
            Err(BindError::BadValue {
                span,
                text: n.to_string(),
                expected: format!("{what} is a whole number from {min} to {max}"),
            }
            .into())
        }
        Some((n, _)) => Ok(Some(n as i64)),
    }
}

fn ma(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let table = &rules.ma;
    let words = &input.words;
    // The named leaders: how many, and their movement values added up
    // (standard 10.3 sets no limit to the leaders assisting a unit;
    // QuickPlay 10.0: "The factors of one leader may be applied to a
    // unit"). A typed `leader=N` stands for them.
    let (leaders, leader_mv) = *crate::memoized!(input, (usize, Option<i64>), || {
        let units = named::side(input, None)?;
        named::one_leader_per_unit(variant, &units, 1)?;
        let sum = named::leaders_sum(&units, "leader-mv").filter(|_| words.implied("leader-mv"));
        Ok((named::leaders(&units).count(), sum))
    })?;
    let printed = whole(input, "a movement allowance", 0, 30)?;
    if words.has(ALONE) {
        return leader_alone(rules, input, printed.is_some(), leaders);
    }
    let variable = words.has("v");
    if printed.is_none() && !variable {
        return Err(input.missing(
            "`ma` needs the printed movement allowance, like `ma 4` (or `ma v` for a V)",
        ));
    }
    if let (Some(_), true) = (printed, variable)
        && let Some(span) = words.span_of("v")
    {
        return Err(BindError::NotHere {
            kind: ErrorKind::Conflict,
            span,
            text: "v".into(),
            why: "stands in place of a printed MA; give one or the other".into(),
        }
        .into());
    }
    let reasons: Vec<&str> = table
        .rolls_when
        .iter()
        .filter(|r| words.has(&r.keyword))
        .map(|r| r.row.as_str())
        .collect();
    let rolls = !reasons.is_empty();
    let march = words.has("march");
    if march && let Some(why) = table.march.not_when.iter().find(|r| words.has(&r.keyword)) {
        return Err(BindError::NotHere {
            kind: ErrorKind::Conflict,
            span: words.span_of("march").unwrap_or_default(),
            text: "march".into(),
            why: format!(
                "is not available with `{}`: {}; leave out `march` and move at the MA rolled",
                why.keyword, why.row
            ),
        }
        .into());
    }
    let base = base_named(input);
    let cavalry = words.has("cavalry") || base == Some("hq");
    let mut res = input.resolution("ma", "movement allowance");
    if let Some(p) = printed {
        res.row("printed MA", p);
    }
    if let Some(base) = base
        && trains_march(table, base, printed, march, &mut res)
    {
        return Ok(res);
    }
    for r in &reasons {
        res.row(format!("rolls for its MA: {r}"), "yes");
    }
    let asked = Asked {
        printed,
        variable,
        rolls,
        march,
        cavalry,
    };
    let ma = base_ma(table, input, &asked, dice, &mut res)?;
    let ma = leaders_and_square(table, words, leaders, leader_mv, ma, &mut res)?;
    res.set_score(ma);
    res.field("ma", ma);
    res.set_outcome(
        "ma",
        format!("MA {ma} movement points this phase"),
        Tone::Neutral,
    );
    res.note(table.rule.clone());
    Ok(res)
}

/// What the line says of the unit's MA: printed or V, whether it rolls
/// for it, and whether it marches.
struct Asked {
    printed: Option<i64>,
    variable: bool,
    rolls: bool,
    march: bool,
    cavalry: bool,
}

/// The MA before leaders and squares: printed, rolled for, or the march
/// table's, as the variant's procedure has it.
fn base_ma(
    table: &MaTable,
    input: &Input,
    asked: &Asked,
    dice: &mut dyn DiceSource,
    res: &mut Resolution,
) -> Result<i64, CommandError> {
    let Asked {
        printed,
        variable,
        rolls,
        march,
        cavalry,
    } = *asked;
    let mut ma;
    match table.procedure {
        MaProcedure::RerollAbovePrinted => {
            if march {
                res.row(table.march.row.clone(), "march");
                let (fixed, roll) = if cavalry {
                    (table.march.cavalry, table.march.cavalry_roll.as_ref())
                } else {
                    (table.march.infantry, table.march.infantry_roll.as_ref())
                };
                match (rolls, roll, fixed) {
                    (true, Some(expr), _) => {
                        let (rolled, total) = expr.roll(dice)?;
                        res.dice_rows(format_args!("march MA ({expr})"), &rolled);
                        ma = total;
                    }
                    (_, _, Some(f)) => ma = f,
                    _ => {
                        return Err(input.missing("the march table has no allowance for this unit"));
                    }
                }
            } else if rolls || variable {
                let sides = table.die.dice.first().map_or(6, |d| d.1);
                if printed == Some(0) {
                    return Err(input.missing("a printed MA of 0 cannot be rolled for"));
                }
                let max = printed.map_or(sides, |p| p.clamp(1, i64::from(sides)) as u32);
                let thrown = dice.reroll_above(sides, max, MAX_MA_ROLLS)?;
                for (i, die) in thrown.iter().enumerate() {
                    res.die(format_args!("MA die, roll {}", i + 1), *die);
                    if i + 1 < thrown.len() {
                        res.row("the result exceeds the printed MA: roll again (4.4)", "");
                    }
                }
                ma = thrown.last().map_or(0, |d| i64::from(d.face));
            } else {
                ma = printed.unwrap_or(0);
            }
        }
        MaProcedure::CapAtPrinted => {
            if rolls || variable {
                let (rolled, total) = table.die.roll(dice)?;
                res.dice_rows(format_args!("MA die ({})", table.die), &rolled);
                ma = total;
                if let (Some(fast), Some(p)) = (&table.fast, printed)
                    && p > fast.above
                {
                    res.modifier(fast.row.clone(), fast.add);
                    ma += fast.add;
                }
                if let Some(p) = printed
                    && ma > p
                {
                    res.row(
                        "under no circumstances may the rolled MA exceed the printed MA (11.1)",
                        p,
                    );
                    ma = p;
                }
            } else {
                ma = printed.unwrap_or(0);
            }
            if march && let Some(m) = table.march.multiplier {
                res.modifier(table.march.row.clone(), ma * (m - 1));
                ma *= m;
            }
        }
    }
    Ok(ma)
}

/// What accompanying leaders add, and what a square leaves.
fn leaders_and_square(
    table: &MaTable,
    words: &Bound,
    leaders: usize,
    leader_mv: Option<i64>,
    mut ma: i64,
    res: &mut Resolution,
) -> Result<i64, CommandError> {
    let leader = match leader_mv {
        Some(sum) => Some(sum),
        None => super::morale::leader_value(words, "leader", "leader-mv")?,
    };
    if let Some(l) = leader {
        if leaders > 1 && leader_mv.is_some() {
            res.modifier(
                format!("the {leaders} accompanying leaders add their movement values (10.3)"),
                l,
            );
        } else {
            res.modifier("an accompanying leader adds his movement value (10.3)", l);
        }
        ma += l;
    }
    if words.has(SQUARE) {
        match table.procedure {
            MaProcedure::RerollAbovePrinted => {
                let half = ma / 2;
                res.modifier(
                    "in square: the unit moves at half its normal MA, rounded down (9.5)",
                    half - ma,
                );
                ma = half;
            }
            MaProcedure::CapAtPrinted => {
                res.row(
                    "in square: units in square may move one hex per movement phase (9.3)",
                    "1 hex",
                );
                ma = 1;
            }
        }
    }
    Ok(ma)
}

/// A leader moving alone (standard 10.1, QuickPlay 10.0): 12, no die, and
/// nothing else said of a unit's movement.
fn leader_alone(
    rules: &super::SaberRules,
    input: &Input,
    printed: bool,
    leaders: usize,
) -> Result<Resolution, CommandError> {
    let words = &input.words;
    let refuse = |span: crate::command::Span, text: &str, why: &str| -> CommandError {
        BindError::NotHere {
            kind: ErrorKind::NotApplicable,
            span,
            text: text.to_string(),
            why: why.to_string(),
        }
        .into()
    };
    if printed && let Some((n, span)) = words.number {
        return Err(refuse(
            span,
            &n.to_string(),
            "is a printed MA, and a leader moving alone has none: he always has 12 MP (10.1; QuickPlay 10.0): type `ma alone`",
        ));
    }
    let unit_words = rules
        .ma
        .rolls_when
        .iter()
        .map(|r| r.keyword.as_str())
        .chain(["v", "march", "cavalry", SQUARE, "leader"]);
    for word in unit_words {
        if words.has(word) && !words.implied(word) {
            return Err(refuse(
                words.span_of(word).unwrap_or_default(),
                word,
                "is said of a unit's movement, and a leader moving alone always has 12 MP, never rolled (10.1; QuickPlay 10.0)",
            ));
        }
    }
    if leaders > 1 {
        return Err(
            input.missing("a leader moving alone is one leader: name one, or none (`ma alone`)")
        );
    }
    let mut res = input.resolution("ma", "movement allowance: a leader moving alone");
    res.row(
        match rules.ma.procedure {
            MaProcedure::RerollAbovePrinted => {
                "moving alone, leaders always have 12 MP and never roll for their MA (10.1)"
            }
            MaProcedure::CapAtPrinted => "leaders may move alone up to 12 hexes (10.0)",
        },
        LEADER_ALONE_MA,
    );
    res.set_score(LEADER_ALONE_MA);
    res.field("ma", LEADER_ALONE_MA);
    res.set_outcome(
        "ma",
        format!("MA {LEADER_ALONE_MA} movement points this phase"),
        Tone::Neutral,
    );
    Ok(res)
}

fn capture(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let Some(table) = &rules.capture else {
        return Err(input.missing("these rules have no capture"));
    };
    for arm in ["infantry", "artillery"] {
        if let Some(span) = input.words.span_of(arm) {
            return Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span,
                text: input.line.get(span.start..span.end).unwrap_or(arm).to_string(),
                why: format!(
                    "is {arm}: only victorious charging cavalry may capture a routed defender (9.3 7)"
                ),
            }
            .into());
        }
    }
    let Some(cf) = whole(input, "a combat factor", 0, 99)? else {
        return Err(input.missing(
            "`capture` needs the charging cavalry's regular combat factor, like `capture 3`",
        ));
    };
    let mut res = input.resolution("capture", "capture of a routed defender");
    let die = dice.roll(table.die)?;
    res.die("die", die);
    res.row("cavalry's regular combat factor", cf);
    res.field("needed", cf);
    if i64::from(die.face) <= cf {
        res.set_outcome(
            "captured",
            "the defenders are captured (a single cavalry unit may capture only one defending unit)",
            Tone::Good,
        );
        // The routed defender, if named after `vs`: out of the game, and
        // gone from a campaign ("units captured are gone").
        if input.named_on(Some(0)).next().is_some() && !res.quiet {
            res.effect(Target::clause(0, 0), super::game::SaberEffect::Captured);
        }
    } else {
        res.set_outcome("escaped", "the defenders are not captured", Tone::Bad);
    }
    res.note(table.row.clone());
    // 9.3 7: "In lieu of continuing to charge": the charge is over, and
    // "Cavalry always becomes ineffective at the end of a charge" (9.3 8).
    let cavalry: Vec<usize> = input
        .named_on(None)
        .enumerate()
        .filter(|(_, n)| n.facts.value("cf").is_some())
        .map(|(nth, _)| nth)
        .collect();
    if !cavalry.is_empty() && !res.quiet {
        res.note("the charge ends with the attempt: cavalry always becomes ineffective at the end of a charge (9.3 8)");
        for nth in cavalry {
            res.effect(
                crate::answer::resolution::Target::Side { clause: None, nth },
                super::game::SaberEffect::Ineffective,
            );
        }
    }
    Ok(res)
}

fn fow(
    tables: &Tables,
    variant: Variant,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let rules = variant.rules(tables);
    let Some(table) = &rules.fow else {
        return Err(input.missing("these rules have no fortunes of war"));
    };
    if input.words.choice(FOW_ACTION).is_none() {
        return Err(input.missing("`fow` needs the fortune of war: move-enemy"));
    }
    let mut res = input.resolution("fow", "fortune of war: move an enemy unit");
    let die = dice.roll(table.die)?;
    res.die("die", die);
    res.row(table.row.clone(), format!("1–{}", table.move_enemy_at_most));
    res.field("needed", table.move_enemy_at_most);
    if die.face <= table.move_enemy_at_most {
        res.set_outcome(
            "may-move",
            "the unit may be moved: roll for the unit's MA (`ma N fow`); no march movement, not off the map; it may be moved into an EZOC",
            Tone::Good,
        );
    } else {
        res.set_outcome("stays", "the unit may not be moved", Tone::Neutral);
    }
    Ok(res)
}
