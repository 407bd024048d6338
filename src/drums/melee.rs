//! Melee dice pools: 1D6 per base or figure (minimum 2D6), adjusted by the
//! Artillery, Foot or Cavalry Melee Factors Table for the side's arm; hits
//! at the house default score; with both sides, the round's winner.

mod round;

use crate::drums::VerbDoc;
use serde_json::json;

use std::rc::Rc;

use crate::bind::{Bound, Kind, Vocab};
use crate::catalog::Input;
use crate::command::ClauseKind;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError, ErrorKind};

use round::{effects, quiet_outcome, roll, round_outcome, side_json};

use super::Resolution;
use super::Tables;
use super::exclusive;
use super::losses::{self, Losses, Size};
use super::named;
use super::pool::{
    self, AdjustKind, AdjustmentTable, Applied, Check, MeleeArm, MeleeTables, PoolRow, PoolTables,
    SideFacts, plural, score,
};

const ARM: &str = "an arm";
const FORMATION: &str = "a formation";
/// The number word the "per extra rank" rows read.
const RANKS: &str = "ranks";
/// The side's force commander issues no supply dice this turn (Risk to
/// Generals); a unit of that side brings it in a game.
pub(crate) const NO_SUPPLY: &str = "no-supply";
/// The word of the supply rows ("Supply dice from Force Commander").
const SUPPLY: &str = "supply";

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = all.drums_pools();
    let vocab = side_vocab(tables, all.drums.hits.per_base);
    VerbDoc::new(
        Some(super::DRUMS),
        "melee",
        "melee ARM words… [vs ARM words…]",
        "Melee dice pools: 1D6 per base or figure (minimum 2D6) and the Melee Factors Table of the arm; hits, and the round's winner.",
        vocab.clone(),
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .clause(ClauseKind::Vs, vocab, 1)
    .examples(&[
        "melee foot square bases=4 vs cavalry bases=4",
        "melee heavy-cavalry heavy-first guards bases=6 vs foot line bases=6",
        "melee foot column-of-attack ranks=4 bases=6 vs foot line ranks=2 bases=6",
    ])
}

fn side_vocab(tables: &PoolTables, per_base: u32) -> Vocab {
    let m = &tables.melee;
    let mut vocab = Vocab::new();
    for arm in &m.arm {
        let help = format!("{}: the {}", arm.arm, table_title(tables, arm));
        vocab = match &arm.kind_of {
            None => vocab.choice(ARM, &arm.keyword, help),
            Some(of) => vocab.flag(
                &arm.keyword,
                format!("{help} (a kind of {of}: alone, or beside `{of}`)"),
            ),
        };
    }
    for f in &m.formations {
        let formed = if m.formed.contains(f) {
            " (formed)"
        } else {
            ""
        };
        vocab = vocab.choice(FORMATION, f, format!("formation{formed}"));
    }
    vocab = losses::size_words(
        vocab,
        "the side",
        &format!(
            "the side's bases: {} D6 each (default {}); with `figures=N`, the same a figure",
            m.dice_per_base, tables.default_bases
        ),
        200,
        per_base,
    )
    .number(
        RANKS,
        1,
        20,
        "the side's ranks, for \"per extra rank than the line\"",
    );
    let skip = |w: &str| structural(m, w);
    let own = pool::row_words(m.table.iter(), false);
    let theirs = pool::row_words(m.table.iter(), true);
    let mut words: Vec<(String, Vec<String>)> = Vec::new();
    for (word, rows) in own {
        words.push((word, rows));
    }
    for (word, rows) in theirs {
        let rows: Vec<String> = rows
            .into_iter()
            .map(|r| format!("the opponent's {r}"))
            .collect();
        match words.iter_mut().find(|(w, _)| *w == word) {
            Some((_, existing)) => existing.extend(rows),
            None => words.push((word, rows)),
        }
    }
    for (word, rows) in words {
        if !skip(&word) {
            vocab.add(word, Kind::Flag, rows.join("; "));
        }
    }
    vocab = vocab.flag(NO_SUPPLY, NO_SUPPLY_HELP);
    exclusive::annotate(vocab, exclusive::MELEE, &[exclusive::FIRST_MELEE_SLOT])
}

pub(crate) const NO_SUPPLY_HELP: &str = "Risk to Generals: the side's force commander was swept away or hit this turn, and he issues no supply dice for the rest of the current turn: `supply` is refused (a unit of that side brings it in a game until `next-turn`)";

/// `supply` on a side whose force commander issues none this turn.
/// `side` names the side where no unit brought the word ("side b").
pub(crate) fn refuse_supply(input: &Input, bound: &Bound, side: &str) -> Result<(), CommandError> {
    let (Some(span), true) = (bound.span_of(SUPPLY), bound.has(NO_SUPPLY)) else {
        return Ok(());
    };
    let whose = input
        .named
        .iter()
        .find(|n| bound.implied(NO_SUPPLY) && Some(n.span) == bound.span_of(NO_SUPPLY))
        .map_or(side.to_string(), |n| {
            format!("the side of `{}`", named::typed(input, n))
        });
    Err(BindError::NotHere {
        kind: ErrorKind::OutOfAction,
        span,
        text: SUPPLY.into(),
        why: format!(
            "is refused: the force commander of {whose} was swept away or hit this turn (Risk to Generals), and \"he cannot longer issue any supply dice for the rest of the current turn\" (`next-turn` ends it)"
        ),
    }
    .into())
}

/// Arm and formation words: they describe a side rather than claim a row.
fn structural(m: &MeleeTables, w: &str) -> bool {
    m.arm
        .iter()
        .any(|a| a.keyword == w || a.is.iter().any(|i| i == w))
        || m.formations.iter().any(|f| f == w)
        || w == "formed"
}

fn table_title<'a>(tables: &'a PoolTables, arm: &MeleeArm) -> &'a str {
    tables
        .melee
        .table(&arm.table)
        .map_or("", |t| t.title.as_str())
}

/// One side: its arm, its facts, and what it rolled.
struct Side<'a> {
    name: &'static str,
    /// The unit's id, when the line named one on this side.
    id: Option<String>,
    /// The arm, whose table the side fights on.
    arm: &'a MeleeArm,
    /// The kinds of that arm given (heavy cavalry, lancers).
    kinds: Vec<&'a MeleeArm>,
    /// "Heavy Cavalry", "Heavy Cavalry and Lancers", "Foot".
    label: String,
    /// Its keyword, `+` between kinds: `heavy-cavalry+lancers`.
    keyword: String,
    /// Kinds a named unit brought that the arm typed displaced.
    displaced: Vec<&'a str>,
    facts: SideFacts,
    /// Its bases or figures, and the hits it carries: what the other
    /// side's hits do to it.
    size: Size,
}

fn side<'a>(
    input: &Input,
    tables: &'a PoolTables,
    bound: &Bound,
    name: &'static str,
) -> Result<Side<'a>, CommandError> {
    let m = &tables.melee;
    let mut kinds: Vec<&MeleeArm> = m
        .arm
        .iter()
        .filter(|a| a.is_kind() && bound.has(&a.keyword))
        .collect();
    // The arm typed, or else the one its kinds are kinds of.
    let arm_word = bound
        .choice(ARM)
        .map(|(w, _)| w)
        .or_else(|| kinds.first().and_then(|k| k.kind_of.as_deref()))
        .ok_or_else(|| {
            let arms: Vec<&str> = m.arm.iter().map(|a| a.keyword.as_str()).collect();
            let whose = if name == "a" {
                "`melee`"
            } else {
                "the side after `vs`"
            };
            input.missing(format!("{whose} needs an arm: one of {}", arms.join(", ")))
        })?;
    let arm = m
        .arm
        .iter()
        .find(|a| a.keyword == arm_word && !a.is_kind())
        .ok_or_else(|| input.missing("no such arm in the melee tables"))?;
    // An arm typed for a named unit displaces the kinds it brings
    // (`melee cuir-10 foot`: the cuirassiers fight as foot).
    let displaced: Vec<&'a str> = kinds
        .iter()
        .filter(|k| k.kind_of.as_deref() != Some(&arm.keyword) && bound.implied(&k.keyword))
        .map(|k| k.keyword.as_str())
        .collect();
    kinds.retain(|k| !displaced.contains(&k.keyword.as_str()));
    if let Some(k) = kinds
        .iter()
        .find(|k| k.kind_of.as_deref() != Some(&arm.keyword))
    {
        let of = k.kind_of.as_deref().unwrap_or_default();
        return Err(BindError::NotHere {
            kind: ErrorKind::Conflict,
            span: bound.span_of(&k.keyword).unwrap_or(input.missing_span()),
            text: k.keyword.clone(),
            why: format!(
                "is a kind of {of}, and this side is `{}`: give `{}` or `{}`, not both",
                arm.keyword, k.keyword, arm.keyword
            ),
        }
        .into());
    }
    let (label, keyword) = if kinds.is_empty() {
        (arm.arm.clone(), arm.keyword.clone())
    } else {
        let titles: Vec<&str> = kinds.iter().map(|k| k.arm.as_str()).collect();
        let words: Vec<&str> = kinds.iter().map(|k| k.keyword.as_str()).collect();
        (titles.join(" and "), words.join("+"))
    };
    exclusive::check(input, bound, exclusive::MELEE)?;
    refuse_supply(input, bound, &format!("side {name}"))?;
    let size = Size::of(bound)?;
    let facts = side_facts(tables, bound, arm, &kinds, &displaced);
    Ok(Side {
        name,
        id: unit_of(input, name),
        arm,
        kinds,
        label,
        keyword,
        displaced,
        facts,
        size,
    })
}

/// A side's facts: its words less the kinds its arm displaced, what its
/// arm and kinds are, and whether it is formed (or, with no formation
/// given, which formations it could be in).
fn side_facts(
    tables: &PoolTables,
    bound: &Bound,
    arm: &MeleeArm,
    kinds: &[&MeleeArm],
    displaced: &[&str],
) -> SideFacts {
    let m = &tables.melee;
    let mut facts = SideFacts::from_bound(bound);
    facts
        .given
        .retain(|(w, _)| !displaced.contains(&w.as_str()));
    facts.words.retain(|w| !displaced.contains(&w.as_str()));
    facts.words.extend(arm.is.iter().cloned());
    for k in kinds {
        facts.words.extend(k.is.iter().cloned());
    }
    match bound.choice(FORMATION) {
        Some((f, _)) => {
            if tables.melee.formed.iter().any(|w| w == f) {
                facts.words.insert("formed".into());
            }
        }
        // Nobody gave the formation: the rows that depend on it are
        // not applied, and said so.
        None => {
            facts.could_be = if arm.formations.is_empty() {
                m.formations.clone()
            } else {
                arm.formations.clone()
            };
        }
    }
    facts
}

/// The id of the unit named on side `a` (before `vs`) or `b`, if any.
fn unit_of(input: &Input, side: &str) -> Option<String> {
    let clause = if side == "a" {
        None
    } else {
        input
            .clauses
            .iter()
            .position(|(k, _, _)| *k == ClauseKind::Vs)
    };
    input.named_on(clause).next().map(|n| n.facts.id.clone())
}

impl Side<'_> {
    /// The side as the text names it: its unit's id, else `side a`.
    fn who(&self) -> String {
        self.id
            .clone()
            .unwrap_or_else(|| format!("side {}", self.name))
    }
}

struct Rolled {
    pool: i64,
    hits: i64,
    /// What `odds` counts for the expected hits; see `DiceSource::pool_against`.
    mean_hits: f64,
    steps: serde_json::Value,
    faces: Vec<u32>,
}

/// One side worked out up to its dice: the explanation so far, the pool.
struct SidePlan {
    name: &'static str,
    /// How the text names the side: its unit's id, else `side a`.
    who: String,
    /// The unit's id, when named.
    id: Option<String>,
    arm: String,
    keyword: String,
    /// Rows, notes and modifiers before the dice, appended on every run.
    before: Resolution,
    prefix: String,
    pool: i64,
    steps: serde_json::Value,
    size: Size,
    /// The rows not applied because nobody gave a formation, for JSON.
    not_applied: Vec<serde_json::Value>,
}

/// Everything before the first die: the same on every run of a command.
struct Plan {
    heading: String,
    sides: Vec<SidePlan>,
}

fn plan(all: &Tables, input: &Input) -> Result<Plan, CommandError> {
    let tables = all.drums_pools();
    let why = "melee is fought by units (a general has no bases)";
    named::one_unit(input, None, "melee", why)?;
    named::one_unit(input, Some(0), "melee", why)?;
    let a = side(input, tables, &input.words, "a")?;
    let b = match input.clause(ClauseKind::Vs) {
        Some(bound) => Some(side(input, tables, bound, "b")?),
        None => None,
    };
    let heading = match &b {
        Some(b) => format!("melee, {} vs {}", a.label, b.label),
        None => format!("melee, {}", a.label),
    };
    let sides: Vec<&Side> = std::iter::once(&a).chain(b.as_ref()).collect();
    let mut plans = Vec::new();
    for (i, s) in sides.iter().enumerate() {
        let other = sides
            .get(1 - i.min(1))
            .filter(|_| sides.len() == 2)
            .copied();
        plans.push(side_plan(tables, input, s, other, sides.len() == 2)?);
    }
    Ok(Plan {
        heading,
        sides: plans,
    })
}

fn resolve(
    all: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let tables = all.drums_pools();
    let m = &tables.melee;
    let plan = crate::memoized!(input, Plan, || plan(all, input))?;
    let plan = &*plan;
    let mut res = input.resolution("melee", plan.heading.clone());
    res.row(
        "hits on (house default: tables/drums-pools.toml melee.hit_on)",
        score(m.hit_on),
    );
    res.field("hit_on", m.hit_on);

    let rolled = roll(&mut res, &plan.sides, m, dice)?;
    if res.quiet {
        return Ok(quiet_outcome(res, plan, &rolled));
    }
    let a = &plan.sides[0];
    let b = plan.sides.get(1);
    if b.is_none() {
        res.note("No opponent given: rows about the opponent (vs Open, vs square, vs cavalry, opponents defending…) need `vs ARM words…`.");
    }

    let per_base = i64::from(all.drums.hits.per_base);
    // What each side's hits do to the other: its bases (with the hits it
    // already carries) or its figures.
    let losses: Vec<Losses> = (0..rolled.len())
        .map(|i| {
            let other = plan
                .sides
                .get(1 - i.min(1))
                .filter(|_| plan.sides.len() == 2)
                .map_or_else(Size::unknown, |o| o.size);
            Losses::new(rolled[i].hits, other, per_base)
        })
        .collect();
    res.field("sides", side_json(&res, plan, &rolled, &losses, m));
    res.field("pool", rolled[0].pool);
    res.field("hits", rolled[0].hits);
    res.measure("hits", rolled[0].hits as f64);
    for (r, name) in rolled.iter().zip(["hits_a", "hits_b"]) {
        res.measure(name, r.hits as f64);
    }
    effects(&mut res, &rolled);

    round_outcome(&mut res, a, b, &rolled, &losses);
    Ok(res)
}

/// A row that may hold, with the formations of each side that would
/// apply it (`None`: that side's formation does not matter).
type Unknown<'a> = (&'a PoolRow, Option<Vec<String>>, Option<Vec<String>>);

/// One side's pool up to its dice: base, the rows of its arm's table, the
/// minimum.
fn side_plan(
    tables: &PoolTables,
    input: &Input,
    s: &Side,
    other: Option<&Side>,
    two: bool,
) -> Result<SidePlan, CommandError> {
    let mut before = input.resolution("melee", "");
    let res = &mut before;
    let m = &tables.melee;
    let table = m
        .table(&s.arm.table)
        .ok_or_else(|| input.missing("no melee table for this arm"))?;
    let prefix = if two {
        format!("{}: ", s.id.as_deref().unwrap_or(s.name))
    } else {
        String::new()
    };
    let bound = &s.facts.bound;
    // "Base 1D6 per base or figure."
    let unit = s.size.counted.one();
    let (count, assumed) = match s.size.count {
        Some(n) => (n, false),
        None => (i64::from(tables.default_bases), true),
    };
    let base = count * i64::from(m.dice_per_base);
    let base_label = format!(
        "{} ({}): {}D6 per {unit} × {count} {unit}{}{}",
        s.label,
        table.title,
        m.dice_per_base,
        plural(count),
        if assumed { " (assumed)" } else { "" }
    );
    if assumed {
        res.note(format!(
            "Side {}: {count} bases assumed (give bases=N).",
            s.name
        ));
    }
    let other_facts = other.map(|o| &o.facts);
    let mut applied = Vec::new();
    let mut not_applied = Vec::new();
    let mut unknown: Vec<Unknown> = Vec::new();
    for row in &table.row {
        match pool::check(row, &s.facts, other_facts, "opponent", None, &m.formed) {
            Check::Holds => {
                let times = match row.dice.kind {
                    AdjustKind::PerExtraRank(_) => extra_ranks(input, s, other)?,
                    _ => row.per.as_ref().map_or(1, |w| i64::from(bound.count(w))),
                };
                applied.push(Applied { row, times });
            }
            Check::Fails(why) => {
                if pool::claimed(row, &s.facts, None, &|w| structural(m, w)) {
                    not_applied.push((row.row.clone(), why));
                }
            }
            Check::Unknown { own, other } => unknown.push((row, own, other)),
        }
    }
    let steps = pool::arithmetic(&base_label, base, &applied, m.minimum, tables.one_in_k);
    let json_steps = pool::show_steps(res, &prefix, &steps);
    pool::show_one_in_k(res, &prefix, &steps, tables.one_in_k);
    for (row, why) in not_applied {
        res.row(format!("{prefix}{row} — does not apply: {why}"), "—");
    }
    let unknown_json = show_unknown(res, &prefix, s, other, two, unknown);
    for kind in &s.displaced {
        res.row(
            format!(
                "{prefix}`{kind}` from the unit — displaced by the arm typed, `{}`",
                s.arm.keyword
            ),
            "no effect",
        );
    }
    unused_words(res, tables, &prefix, table, s, other);
    let n = steps.last().map_or(0, |st| st.pool).max(0);
    res.row(format!("{prefix}pool"), format!("{n}D6"));
    Ok(SidePlan {
        name: s.name,
        who: s.who(),
        id: s.id.clone(),
        arm: s.label.clone(),
        keyword: s.keyword.clone(),
        before,
        prefix,
        pool: n,
        steps: json_steps,
        size: s.size,
        not_applied: unknown_json,
    })
}

/// The rows that hold for some formations of a side nobody gave and not
/// for others: not applied, with the formations that would apply them.
fn show_unknown(
    res: &mut Resolution,
    prefix: &str,
    s: &Side,
    other: Option<&Side>,
    two: bool,
    unknown: Vec<Unknown>,
) -> Vec<serde_json::Value> {
    let mut unknown_json = Vec::new();
    for (row, own, theirs) in unknown {
        let own_name = if two { s.who() } else { "the side".to_string() };
        let sides = [
            (own_name, Some(s), own),
            (other.map_or(String::new(), Side::who), other, theirs),
        ];
        let open: Vec<(&String, &Side, Vec<String>)> = sides
            .iter()
            .filter_map(|(name, side, yes)| Some((name, (*side)?, yes.clone()?)))
            .collect();
        res.row(
            format!(
                "{prefix}{} ({}) — not applied: {}",
                row.row,
                row.dice.text,
                unknown_text(&open)
            ),
            "—",
        );
        let mut would = serde_json::Map::new();
        for (_, side, yes) in &open {
            would.insert(side.name.into(), json!(yes));
        }
        unknown_json.push(json!({
            "row": row.row,
            "dice": row.dice.text,
            "needs": "formation",
            "would_apply": would,
        }));
    }
    unknown_json
}

/// "side a's formation is not given; `formed` would apply it".
fn unknown_text(open: &[(&String, &Side, Vec<String>)]) -> String {
    match open {
        [(name, side, yes)] => format!(
            "{name}'s formation is not given; {} would apply it",
            pool::would_apply(yes, &side.facts.could_be)
        ),
        _ => {
            let names: Vec<&str> = open.iter().map(|(n, _, _)| n.as_str()).collect();
            let words: Vec<String> = open
                .iter()
                .map(|(name, side, yes)| {
                    format!(
                        "{} for {name}",
                        pool::would_apply(yes, &side.facts.could_be)
                    )
                })
                .collect();
            format!(
                "the formations of {} are not given; {} would apply it",
                names.join(" and "),
                words.join(" and ")
            )
        }
    }
}

/// "Add 1 dice per extra rank than the line": this side's ranks over the
/// opponent's; both must be given.
fn extra_ranks(input: &Input, s: &Side, other: Option<&Side>) -> Result<i64, CommandError> {
    let own = s.facts.bound.value(RANKS);
    let theirs = other.and_then(|o| o.facts.bound.value(RANKS));
    match (own, theirs) {
        (Some(a), Some(b)) => Ok((a - b).max(0)),
        _ => {
            let span = s
                .facts
                .bound
                .choice(FORMATION)
                .map_or(input.missing_span(), |(_, sp)| sp);
            Err(BindError::NotHere {
                kind: ErrorKind::MissingWord,
                span,
                text: "column-of-attack".into(),
                why: "vs a line adds 1 die per extra rank than the line: give `ranks=N` on both sides".into(),
            }
            .into())
        }
    }
}

/// Words given that no row of this side's table reads (as its own words)
/// and no row of the opponent's table reads (as the opponent's): shown.
fn unused_words(
    res: &mut Resolution,
    tables: &PoolTables,
    prefix: &str,
    table: &AdjustmentTable,
    s: &Side,
    other: Option<&Side>,
) {
    // A unit brings all it has: a fact of it that no table here reads is
    // not worth a row (a typed word is).
    for (word, _) in s
        .facts
        .given
        .iter()
        .filter(|(w, _)| !s.facts.bound.implied(w))
    {
        let structural = word == "bases"
            || word == "figures"
            || word == "carried"
            || word == RANKS
            || word == NO_SUPPLY
            || *word == s.arm.keyword
            || s.kinds.iter().any(|k| k.keyword == *word)
            || s.facts
                .bound
                .choice(FORMATION)
                .is_some_and(|(f, _)| f == word);
        if structural || table.mentions(word, false) {
            continue;
        }
        let other_table = other.and_then(|o| tables.melee.table(&o.arm.table));
        if other_table.is_some_and(|t| t.mentions(word, true)) {
            continue;
        }
        let read_by_opponents = tables.melee.table.iter().any(|t| t.mentions(word, true));
        let why = match (read_by_opponents, other_table) {
            (true, None) => {
                "read by the opponent's table: give the opponent (`vs ARM …`)".to_string()
            }
            (true, Some(t)) => format!("no row in the opponent's {}", t.title),
            (false, _) => format!("no row in the {}", table.title),
        };
        res.row(format!("{prefix}`{word}` — {why}"), "no effect");
    }
}
