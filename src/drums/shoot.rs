//! Dice-pool shooting: Shooting Table 1 (weapon, range band, score to hit)
//! and the situation adjustments of Tables 2a–2d, picked by the shooters'
//! weapon and formation. Hits are dice at or above the score; 6 hits a base.

use crate::drums::Resolution;
use serde_json::json;

use std::rc::Rc;

use super::VerbDoc;
use super::game::DrumsEffect;
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::{Bound, Kind, Vocab};
use crate::catalog::Input;
use crate::command::{ClauseKind, Unit};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use super::Tables;
use super::exclusive;
use super::losses::{self, Counted, Losses, Size};
use super::named;
use super::pool::{
    self, AdjustmentTable, Applied, Band, Check, PoolTables, RangeCell, SideFacts, Step, Weapon,
    plural, score,
};

const WEAPON: &str = "a weapon";
const FORMATION: &str = "the shooters' formation";
const TARGET_FORMATION: &str = "the target's formation";
/// Words the resolver reads itself rather than through a table row.
const OWN_WORDS: [&str; 4] = ["bases", "figures", "unprompted", "bounce"];
/// Target words read for the losses, not by a table row.
const TARGET_WORDS: [&str; 3] = ["bases", "figures", "carried"];

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = all.drums_pools();
    let t = &tables.shoot;
    let mut vocab = Vocab::new().with_distance(Unit::BaseWidths);
    for w in &t.weapon {
        vocab = vocab.choice(WEAPON, &w.keyword, weapon_help(w));
    }
    for table in &t.table {
        for f in &table.formations {
            vocab = vocab.choice(FORMATION, f, format!("picks {}", table.title));
        }
    }
    vocab = vocab
        .number(
            "bases",
            1,
            200,
            format!(
                "the shooters' bases: {} D6 each (default {} bases, assumed and said)",
                t.dice_per_base, tables.default_bases
            ),
        )
        .number(
            "figures",
            1,
            200,
            format!(
                "the shooters' figures, for a unit counted in figures: {} D6 each, as per base",
                t.dice_per_base
            ),
        )
        .slot(&["bases", "figures"])
        .flag(
            "unprompted",
            "as unprompted action response: Table 1's scores for that row",
        )
        .flag(
            "bounce",
            "artillery at long range only: also count the bounce score (Table 1) against a second target",
        );
    for (word, rows) in pool::row_words(t.table.iter(), false) {
        let per = t
            .table
            .iter()
            .flat_map(|tb| &tb.row)
            .any(|r| r.per.as_deref() == Some(word.as_str()));
        let kind = if per { Kind::Counted } else { Kind::Flag };
        vocab.add(word, kind, rows.join("; "));
    }
    let vocab = exclusive::annotate(vocab, exclusive::SHOOTERS, &[]);
    let mut target = losses::size_words(
        Vocab::new(),
        "the target",
        "the target's bases: bases lost, and risk to generals at 1 hit per base",
        200,
        all.drums.hits.per_base,
    );
    let target_rows = pool::row_words(t.table.iter(), true);
    for f in &t.target_formations {
        let rows = target_rows
            .iter()
            .find(|(w, _)| w == f)
            .map_or(String::new(), |(_, rows)| format!(": {}", rows.join("; ")));
        target = target.choice(TARGET_FORMATION, f, format!("the target's formation{rows}"));
    }
    for (word, rows) in target_rows {
        if target.find(&word).is_none() {
            target.add(word, Kind::Flag, rows.join("; "));
        }
    }
    VerbDoc::new(
        Some(super::DRUMS),
        "shoot",
        "shoot WEAPON DISTANCE shooter-words… [at target-words…]",
        "Dice-pool shooting: Table 1 range and score, Tables 2a–2d pool adjustments, hits and bases lost.",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .clause(ClauseKind::At, target, 1)
    .examples(&[
        "shoot musket 2BW formed moved",
        "shoot musket 2BW column-of-march bases=8 at moved cover",
        "shoot field-artillery 20BW bases=2 bounce at square bases=6",
    ])
}

fn weapon_help(w: &Weapon) -> String {
    let mut text = format!(
        "{}: short {}, long {}; Initial D6: {}",
        w.weapon, w.short, w.long, w.initial
    );
    let (us, ul) = w.cells(true);
    if (us, ul) != (w.short, w.long) {
        text.push_str(&format!("; unprompted short {us}, long {ul}"));
    }
    if let Some(b) = w.bounce {
        text.push_str(&format!("; bounce at long range {b}"));
    }
    text
}

/// The table the shooters use: artillery weapons → the artillery table,
/// else the table of the formation word.
fn pick_table<'a>(
    input: &Input,
    tables: &'a PoolTables,
    weapon: &Weapon,
) -> Result<&'a AdjustmentTable, CommandError> {
    let formation = input.words.choice(FORMATION);
    let found = if weapon.artillery {
        tables.shoot.table.iter().find(|t| t.artillery)
    } else {
        let Some((f, _)) = formation else {
            let words: Vec<&str> = tables
                .shoot
                .table
                .iter()
                .flat_map(|t| t.formations.iter().map(String::as_str))
                .collect();
            return Err(input.missing(format!(
                "`shoot {}` needs the shooters' formation: one of {}",
                weapon.keyword,
                words.join(", ")
            )));
        };
        tables
            .shoot
            .table
            .iter()
            .find(|t| t.formations.iter().any(|w| w == f))
    };
    found.ok_or_else(|| input.missing("the shooting tables have no table for these shooters"))
}

/// The shot up to its dice: the same on every run of a command.
enum Plan {
    /// Out of range, or a pool of 0: nothing is rolled.
    Finished(Resolution),
    Draw(DrawPlan),
}

struct DrawPlan {
    /// The explanation and fields before the dice.
    before: Resolution,
    pool: i64,
    hit_on: u32,
    bounce: Option<super::pool::RangeCell>,
    /// The target's size and the hits it carries, when a target is given.
    target: Option<Size>,
}

fn resolve(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    match &*crate::memoized!(input, Plan, || plan(tables, input))? {
        Plan::Finished(res) => Ok(res.clone()),
        Plan::Draw(plan) => draw(tables, input, plan, dice),
    }
}

fn plan(all: &Tables, input: &Input) -> Result<Plan, CommandError> {
    let tables = all.drums_pools();
    let words = &input.words;
    who_shoots(input)?;
    let shooters = Size::of(words)?;
    let target_size = target_size(input, &shooters)?;
    let target_counted = target_size.counted;
    let weapon = weapon_of(input, tables)?;
    let keyword = &weapon.keyword;
    let Some((distance, _, _)) = words.distance else {
        return Err(input.missing(format!(
            "`shoot {keyword}` needs the distance to the target in base widths, like `2BW`"
        )));
    };
    let table = pick_table(input, tables, weapon)?;
    let unprompted = words.has("unprompted");
    let (short, long) = weapon.cells(unprompted);
    let band = if distance <= short.bw {
        Some(Band::Short)
    } else if distance <= long.bw {
        Some(Band::Long)
    } else {
        None
    };
    let range_id = band.map_or("out-of-range", Band::id);
    let distance_text = format!("{distance}BW");

    let mut res = heading(input, weapon, distance, unprompted, range_id);

    let Some(band) = band else {
        return Ok(out_of_range(
            res,
            weapon,
            long.bw,
            &distance_text,
            target_counted,
        ));
    };
    let cell = if band == Band::Short { short } else { long };
    res.row(
        format!("range at {distance_text}"),
        format!("{} range, hits on {}", band.id(), score(cell.hit_on)),
    );

    let bounce = bounce_of(words, weapon, band, &distance_text, short.bw)?;

    let (bases, assumed, base, base_label) = base_pool(tables, &shooters);
    let counted = shooters.counted;

    let (steps, pool_steps) = table_rows(
        &mut res,
        input,
        tables,
        table,
        band,
        weapon,
        (&base_label, base),
    );
    let n = steps.last().map_or(0, |s| s.pool).max(0);
    res.row("pool", format!("{n}D6, hits on {}", score(cell.hit_on)));
    res.field("table", table.id.clone());
    res.field(counted.many(), bases);
    res.field("bases_assumed", assumed);
    res.field("pool", n);
    res.field("pool_steps", pool_steps);
    res.field("hit_on", cell.hit_on);
    if assumed {
        res.note(format!("{bases} bases assumed (give bases=N)."));
    }

    if n == 0 {
        res.set_outcome(
            "no-dice",
            "the pool is 0 dice: the shot has no effect; nothing is rolled",
            Tone::Neutral,
        );
        no_hits(&mut res, target_counted);
        res.effect(Target::ACTOR, DrumsEffect::Shot);
        res.effect(Target::clause(0, 0), DrumsEffect::FiredAt);
        return Ok(Plan::Finished(res));
    }

    if res.quiet {
        // Odds read what the dice decide; nothing before them varies.
        res.fields.0.clear();
    }
    Ok(Plan::Draw(DrawPlan {
        before: res,
        pool: n,
        hit_on: cell.hit_on,
        bounce,
        target: Some(target_size),
    }))
}

/// Units shoot and are shot at: a general does neither.
fn who_shoots(input: &Input) -> Result<(), CommandError> {
    named::one_unit(
        input,
        None,
        "shoot",
        "shooting is done by units (\"generals cannot be targeted directly\", and do not shoot)",
    )?;
    named::one_unit(
        input,
        Some(0),
        "shoot",
        "\"generals cannot be targeted directly, even if no other units are nearby\"",
    )?;
    exclusive::check(input, &input.words, exclusive::SHOOTERS)
}

/// The target's size and the hits it carries, as far as anybody gave them.
fn target_size(input: &Input, shooters: &Size) -> Result<Size, CommandError> {
    // A target whose size nobody gave is counted as the shooters are: a
    // game uses figures ("If using a figures") or bases throughout.
    Ok(input
        .clause(ClauseKind::At)
        .map(Size::of)
        .transpose()?
        .filter(|t| t.count.is_some() || t.carried > 0)
        .unwrap_or(Size {
            counted: shooters.counted,
            ..Size::unknown()
        }))
}

/// The base pool: a die per base, or per figure ("per model/base"); the
/// bases, whether they were assumed, the dice and their row's words.
fn base_pool(tables: &PoolTables, shooters: &Size) -> (i64, bool, i64, String) {
    let (bases, assumed) = match shooters.count {
        Some(n) => (n, false),
        None => (i64::from(tables.default_bases), true),
    };
    let counted = shooters.counted;
    let base = bases * i64::from(tables.shoot.dice_per_base);
    let label = format!(
        "Initial D6: {}D6 per {} × {bases} {}{}",
        tables.shoot.dice_per_base,
        counted.one(),
        counted.of(bases),
        if assumed { " (assumed)" } else { "" }
    );
    (bases, assumed, base, label)
}

/// The shooters' weapon, a row of Shooting Table 1.
fn weapon_of<'a>(input: &Input, tables: &'a PoolTables) -> Result<&'a Weapon, CommandError> {
    let (keyword, _) = input.words.choice(WEAPON).ok_or_else(|| {
        let names: Vec<&str> = tables
            .shoot
            .weapon
            .iter()
            .map(|w| w.keyword.as_str())
            .collect();
        input.missing(format!(
            "`shoot` needs a weapon: one of {}",
            names.join(", ")
        ))
    })?;
    tables
        .shoot
        .weapon
        .iter()
        .find(|w| w.keyword == keyword)
        .ok_or_else(|| input.missing("no such weapon in Shooting Table 1"))
}

/// The shot's heading: the weapon's ranges and where the target stands.
fn heading(
    input: &Input,
    weapon: &Weapon,
    distance: f64,
    unprompted: bool,
    range_id: &str,
) -> Resolution {
    let distance_text = format!("{distance}BW");
    let (short, long) = weapon.cells(unprompted);
    let mut res = input.resolution(
        "shoot",
        format!(
            "shooting, {} at {distance_text}{}",
            weapon.weapon,
            if unprompted {
                " (as unprompted action response)"
            } else {
                ""
            }
        ),
    );
    res.row(
        format!(
            "Table 1: {}{}",
            weapon.weapon,
            if unprompted {
                ", as unprompted action response"
            } else {
                ""
            }
        ),
        format!("short {short}, long {long}"),
    );
    res.field("weapon", weapon.keyword.clone());
    res.field("distance_bw", distance);
    res.measure("distance", distance);
    res.field("range", range_id);
    res
}

/// Beyond the weapon's long range: no dice are thrown.
fn out_of_range(
    mut res: Resolution,
    weapon: &Weapon,
    long_bw: f64,
    distance_text: &str,
    target_counted: Counted,
) -> Plan {
    res.row(format!("range at {distance_text}"), "out of range");
    res.set_outcome(
        "out-of-range",
        format!(
            "out of range: {} reach {}BW and the target is at {distance_text}; no dice are thrown",
            weapon.weapon, long_bw
        ),
        Tone::Neutral,
    );
    res.field("pool", 0);
    res.field("pool_steps", json!([]));
    res.field("hit_on", serde_json::Value::Null);
    no_hits(&mut res, target_counted);
    Plan::Finished(res)
}

/// Bounce: artillery, long range only.
fn bounce_of(
    words: &Bound,
    weapon: &Weapon,
    band: Band,
    distance_text: &str,
    short_bw: f64,
) -> Result<Option<RangeCell>, CommandError> {
    match words.span_of("bounce") {
        None => Ok(None),
        Some(span) => match (weapon.bounce, band) {
            (None, _) => Err(BindError::NotHere {
                kind: ErrorKind::NotApplicable,
                span,
                text: "bounce".into(),
                why: format!("is NA for {} on Shooting Table 1", weapon.weapon),
            }
            .into()),
            (Some(_), Band::Short) => Err(BindError::NotHere {
                kind: ErrorKind::OutOfRange,
                span,
                text: "bounce".into(),
                why: format!(
                    "is long range only, and {distance_text} is within the short range of {}, {}BW",
                    weapon.weapon, short_bw
                ),
            }
            .into()),
            (Some(b), Band::Long) => Ok(Some(b)),
        },
    }
}

/// Tables 2a–2d: the rows that apply to the base pool, the ones that do not
/// and why, and the arithmetic they make of it.
fn table_rows(
    res: &mut Resolution,
    input: &Input,
    tables: &PoolTables,
    table: &AdjustmentTable,
    band: Band,
    weapon: &Weapon,
    (base_label, base): (&str, i64),
) -> (Vec<Step>, serde_json::Value) {
    let words = &input.words;
    // Table 2x rows.
    res.row(table.title.clone(), "");
    let own = SideFacts::from_bound(words);
    let target = input.clause(ClauseKind::At).map(SideFacts::from_bound);
    // The target as the rows see it: with no formation given (or no
    // target at all), each formation it could be in.
    let mut seen = target.clone().unwrap_or_default();
    if input
        .clause(ClauseKind::At)
        .is_none_or(|t| t.choice(TARGET_FORMATION).is_none())
    {
        seen.could_be = tables.shoot.target_formations.clone();
    }
    let mut applied = Vec::new();
    let mut not_applied = Vec::new();
    let mut unknown = Vec::new();
    for row in &table.row {
        let check = pool::check(
            row,
            &own,
            Some(&seen),
            "target",
            Some(band),
            &tables.melee.formed,
        );
        match check {
            Check::Holds => {
                let times = row
                    .per
                    .as_ref()
                    .map_or(1, |w| i64::from(own.bound.count(w)));
                applied.push(Applied { row, times });
            }
            Check::Fails(why) => {
                if pool::claimed(row, &own, target.as_ref(), &|_| false) {
                    not_applied.push((row.row.clone(), why));
                }
            }
            Check::Unknown { other, .. } => unknown.push((row, other.unwrap_or_default())),
        }
    }
    let steps = pool::arithmetic(
        base_label,
        base,
        &applied,
        tables.shoot.minimum,
        tables.one_in_k,
    );
    let pool_steps = pool::show_steps(res, "", &steps);
    pool::show_one_in_k(res, "", &steps, tables.one_in_k);
    for (row, why) in not_applied {
        res.row(format!("{row} — does not apply: {why}"), "—");
    }
    let mut unknown_json = Vec::new();
    for (row, yes) in unknown {
        res.row(
            format!(
                "{} ({}) — not applied: the target's formation is not given; {} after `at` would apply it",
                row.row,
                row.dice.text,
                pool::would_apply(&yes, &seen.could_be)
            ),
            "—",
        );
        unknown_json.push(json!({
            "row": row.row,
            "dice": row.dice.text,
            "needs": "the target's formation",
            "would_apply": { "target": yes },
        }));
    }
    if !unknown_json.is_empty() {
        res.field("not_applied", unknown_json);
    }
    unused_words(res, table, &own, target.as_ref(), weapon);
    (steps, pool_steps)
}

/// A shot that throws no dice: no hits, nothing lost.
fn no_hits(res: &mut Resolution, target: Counted) {
    let lost = if target == Counted::Bases {
        "bases_lost"
    } else {
        "figures_lost"
    };
    res.field("hits", 0);
    res.field(lost, 0);
    res.measure("hits", 0.0);
    res.measure(lost, 0.0);
    if target == Counted::Bases {
        res.field("hits_left", 0);
    }
}

/// The dice, the hits, and what they do.
fn draw(
    tables: &Tables,
    _input: &Input,
    plan: &DrawPlan,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let mut res = plan.before.clone();
    let hit_on = plan.hit_on;
    let (hits, bounce_hits) = throw(&mut res, plan, dice)?;
    res.row(format!("hits ({} or more)", hit_on), hits);

    let per_base = i64::from(tables.drums.hits.per_base);
    let target = plan.target.unwrap_or_else(Size::unknown);
    let loss = Losses::new(hits, target, per_base);
    // Odds read the measures only.
    if !res.quiet {
        res.field("hits", hits);
        for (key, value) in loss.fields() {
            res.field(key, value);
        }
    }
    res.measure("hits", hits as f64);
    res.measure(
        if loss.counted() == Counted::Bases {
            "bases_lost"
        } else {
            "figures_lost"
        },
        loss.lost as f64,
    );
    // Odds group shots by their hits (and the bounce's).
    let group = match bounce_hits {
        Some((_, b)) => format!("{hits} hit{}; bounce {b} hit{}", plural(hits), plural(b)),
        None => format!("{hits} hit{}", plural(hits)),
    };
    if res.quiet {
        if let Some((_, b)) = bounce_hits {
            res.field("bounce_hits", b);
        }
        res.set_outcome(
            if hits > 0 { "hits" } else { "no-hits" },
            group.clone(),
            Tone::Neutral,
        );
        res.odds_group = Some(group.into());
        return Ok(res);
    }
    res.odds_group = Some(group.into());
    res.effect(Target::ACTOR, DrumsEffect::Shot);
    res.effect(Target::clause(0, 0), DrumsEffect::FiredAt);
    if hits > 0 {
        res.effect(Target::clause(0, 0), DrumsEffect::Hits { hits });
        res.effect(Target::ACTOR, DrumsEffect::Inflicted);
    }
    let mut text = loss.text();
    if let Some(count) = target.count {
        res.field(format!("target_{}", target.counted.many()), count);
    }
    if let Some(left) = loss.left() {
        res.field(format!("{}_left", target.counted.many()), left);
    }
    risk_to_generals(&mut res, target, hits);
    if let Some((b, bounce_hits)) = bounce_hits {
        let second = bounce(&mut res, b, bounce_hits, target.counted, per_base);
        text.push_str(&format!("; bounce on a second target: {second}"));
    }
    let tone = if hits > 0 { Tone::Good } else { Tone::Neutral };
    res.set_outcome(if hits > 0 { "hits" } else { "no-hits" }, text, tone);
    Ok(res)
}

/// The pool's dice: the hits on the target and, with a bounce, the same
/// dice read again against the bounce's score.
fn throw(
    res: &mut Resolution,
    plan: &DrawPlan,
    dice: &mut dyn DiceSource,
) -> Result<(i64, Option<(RangeCell, i64)>), CommandError> {
    let (n, hit_on) = (plan.pool, plan.hit_on);
    let count = n as u32;
    Ok(match plan.bounce {
        None => {
            let p = dice.pool(count, 6, hit_on)?;
            pool::show_dice(res, &format!("{n}D6"), &p.dice);
            (i64::from(p.successes), None)
        }
        Some(b) => {
            // The same dice are read twice: hits on the target, and the
            // bounce score against a second target.
            let (low, high) = (hit_on.min(b.hit_on), hit_on.max(b.hit_on));
            let p = dice.pool2(count, 6, low, high)?;
            pool::show_dice(res, &format!("{n}D6"), &p.dice);
            let (at_low, at_high) = (i64::from(p.low), i64::from(p.high));
            if hit_on <= b.hit_on {
                (at_low, Some((b, at_high)))
            } else {
                (at_high, Some((b, at_low)))
            }
        }
    })
}

/// Risk to Generals: "receives 1 hit per base from shooting".
fn risk_to_generals(res: &mut Resolution, target: Size, hits: i64) {
    match (target.counted, target.count) {
        (Counted::Bases, Some(target_bases)) => {
            // "receives 1 hit per base from shooting": this shot's hits,
            // not those carried from before.
            let risk = hits >= target_bases;
            res.field("risk_to_generals", risk);
            if risk {
                res.note(format!(
                    "Risk to generals: {hits} hits on {target_bases} bases is at least 1 hit per base; each general within 3BW of the target takes `risk shot`."
                ));
            }
        }
        // "1 hit per base" counts bases, which a unit counted in figures
        // does not give: said, not guessed.
        (Counted::Figures, Some(_)) if hits > 0 => {
            res.field("risk_to_generals", serde_json::Value::Null);
            res.note(format!(
                "Risk to generals: the target is counted in figures, and the rule reads \"1 hit per base from shooting\": if these {hits} hit{} are at least 1 on each of its bases, each general within 3BW of the target takes `risk shot`.",
                plural(hits)
            ));
        }
        _ => {}
    }
}

/// A bounce's hits on a second target, and what they do in words.
fn bounce(
    res: &mut Resolution,
    b: RangeCell,
    bounce_hits: i64,
    counted: Counted,
    per_base: i64,
) -> String {
    res.row(
        format!(
            "bounce {b}: hits ({} or more) on a second target within {}BW",
            b.hit_on, b.bw
        ),
        bounce_hits,
    );
    // The second target is not named: its size is not known. It is
    // counted as the first is: a game uses figures ("If using a
    // figures") or bases throughout.
    let second = Size {
        counted,
        ..Size::unknown()
    };
    let bounce = Losses::new(bounce_hits, second, per_base);
    res.field("bounce_hits", bounce_hits);
    if counted == Counted::Bases {
        res.field("bounce_bases_lost", bounce.lost);
        res.field("bounce_hits_left", bounce.left_over);
    } else {
        res.field("bounce_figures_lost", bounce.lost);
    }
    bounce.text()
}

/// Words given that no row of the chosen table reads: shown, never ignored.
fn unused_words(
    res: &mut Resolution,
    table: &AdjustmentTable,
    own: &SideFacts,
    target: Option<&SideFacts>,
    weapon: &Weapon,
) {
    // A unit brings all it has: a fact of it that this table does not
    // read is not worth a row (a typed word is).
    for (word, _) in own.given.iter().filter(|(w, _)| !own.bound.implied(w)) {
        let handled = OWN_WORDS.contains(&word.as_str())
            || *word == weapon.keyword
            || own.bound.choice(FORMATION).is_some_and(|(f, _)| f == word);
        if !handled && !table.mentions(word, false) {
            res.row(
                format!("`{word}` — no row in Table {}", table.id),
                "no effect",
            );
        }
    }
    let target_typed = target
        .map_or(&[][..], |t| &t.given[..])
        .iter()
        .filter(|(w, _)| !target.is_some_and(|t| t.bound.implied(w)));
    let target_formation = |w: &str| {
        target.is_some_and(|t| {
            t.bound
                .choice(TARGET_FORMATION)
                .is_some_and(|(f, _)| f == w)
        })
    };
    for (word, _) in target_typed {
        if !TARGET_WORDS.contains(&word.as_str())
            && !target_formation(word)
            && !table.mentions(word, true)
        {
            res.row(
                format!("target `{word}` — no row in Table {}", table.id),
                "no effect",
            );
        }
    }
    if weapon.artillery
        && let Some((f, _)) = own
            .bound
            .choice(FORMATION)
            .filter(|(f, _)| !own.bound.implied(f))
    {
        res.row(
            format!(
                "`{f}` — artillery shoots on Table {} whatever its formation",
                table.id
            ),
            "no effect",
        );
    }
}
