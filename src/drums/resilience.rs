//! Resilience tests: 2D6 (or 1D12) + the Resilience Situation Adjustment
//! Table, looked up on the Resilience Outcomes Table for the context.

use std::rc::Rc;

use super::game::DrumsEffect;
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::{Kind, Vocab};
use crate::catalog::{Input, Named};
use crate::dice::DiceSource;
use crate::error::{CommandError, ErrorKind};

use super::exclusive;
use super::losses::{self, Counted, Losses, Size};
use super::named::{is_general, refuse};
use super::{DrumsTables, OutcomeCell, ResilienceAdjustment, ResilienceOutcome, Tables};

/// Which column of the tables the test reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    Shooting,
    Charge,
    Melee,
    Other,
}

impl Context {
    pub(crate) const ALL: [Context; 4] = [
        Context::Shooting,
        Context::Charge,
        Context::Melee,
        Context::Other,
    ];

    pub(crate) fn id(self) -> &'static str {
        match self {
            Context::Shooting => "shooting",
            Context::Charge => "charge",
            Context::Melee => "melee",
            Context::Other => "other",
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            Context::Shooting => "from shooting",
            Context::Charge => "from a charge",
            Context::Melee => "from melee",
            Context::Other => "all other cases",
        }
    }

    fn from_id(id: &str) -> Context {
        Context::ALL
            .into_iter()
            .find(|c| c.id() == id)
            .unwrap_or(Context::Other)
    }
}

const CONTEXT: &str = "a context";

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let tables = &all.drums;
    // The unit's size and the hits it carries say what a hit taken here
    // does to it (a named unit brings them).
    let vocab = losses::size_words(
        vocab(tables),
        "the unit",
        "the unit's bases: what a hit taken here does to it",
        1000,
        tables.hits.per_base,
    );
    VerbDoc::new(
        Some(super::DRUMS),
        "resilience",
        "resilience [shooting|charge|melee|other] [d12] situation…",
        "Resilience test: 2D6 (or 1D12) + situation adjustments, looked up on the Resilience Outcomes Table.",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .examples(&[
        "resilience +determined",
        "resilience shooting +determined +hit rolled 4 3",
        "resilience melee lost-round general=2",
    ])
}

fn vocab(tables: &DrumsTables) -> Vocab {
    let mut vocab = Vocab::new()
        .choice(CONTEXT, "shooting", "test caused by shooting")
        .choice(CONTEXT, "charge", "test caused by a charge")
        .choice(CONTEXT, "melee", "test caused by melee")
        .choice(
            CONTEXT,
            "other",
            "all other cases, such as the end-of-turn test (the default)",
        )
        .flag("d12", "throw 1D12 instead of 2D6");
    for adj in &tables.resilience.adjustment {
        let Some(keyword) = &adj.keyword else {
            continue;
        };
        let kind = if adj.counted {
            Kind::Counted
        } else {
            Kind::Flag
        };
        vocab.add(
            keyword.clone(),
            kind,
            format!("{}: {}", adj.row, columns(adj)),
        );
    }
    // Formation words without a row of their own still say the formation
    // is given (a unit in square brings `square`).
    for word in exclusive::RESILIENCE_FORMATIONS {
        if vocab.find(word).is_none() {
            vocab = vocab.flag(
                word,
                "the unit's formation: no row of its own here, but with it the formation rows are known not to apply",
            );
        }
    }
    exclusive::annotate(
        vocab,
        exclusive::RESILIENCE,
        &[exclusive::RESILIENCE_FORMATION_SLOT],
    )
}

/// "+1 shooting, +2 charge or melee, +1 other" for help.
fn columns(adj: &ResilienceAdjustment) -> String {
    let cell = |v: Option<i64>| v.map_or("—".to_string(), crate::answer::resolution::signed);
    format!(
        "{} from shooting, {} charge or melee, {} all other cases",
        cell(adj.shooting),
        cell(adj.charge_or_melee),
        cell(adj.other)
    )
}

fn resolve(
    tables: &Tables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let table = &tables.drums.resilience;
    let words = &input.words;
    check_named(input)?;
    exclusive::check(input, words, exclusive::RESILIENCE)?;
    let size = Size::of(words)?;
    let context = words
        .choice(CONTEXT)
        .map_or(Context::Other, |(id, _)| Context::from_id(id));
    let expr = if words.has("d12") {
        &table.alternative_dice
    } else {
        &table.dice
    };

    // Put together by hand: every line of a batch makes one, and the
    // formatting machinery cost more than the words.
    let heading = ["resilience test, ", context.phrase(), " (", &expr.text, ")"].concat();
    let mut res = input.resolution("resilience", heading);
    let (rolled, total) = expr.roll(dice)?;
    res.dice_rows(&expr.text, &rolled);

    let mut score = total;
    let present = words.present();
    for adj in &table.adjustment {
        score += apply_row(&mut res, adj, (words, present), context);
    }
    if !res.quiet {
        unknown_formation(&mut res, table, words, context);
    }
    res.set_score(score);

    let band = table
        .outcome
        .iter()
        .find(|b| b.contains(score))
        .ok_or_else(|| input.missing(format!("the outcomes table has no row for score {score}")))?;
    let cell = band.cell(context);
    res.shared_row(|| band.row_label(), context.id());
    res.set_outcome(cell.outcome.id(), describe(cell), tone(cell.outcome));
    res.field("context", context.id());
    res.field("hits", cell.hits);
    res.measure("hits", cell.hits as f64);
    if cell.hits > 0 {
        res.effect(Target::ACTOR, DrumsEffect::Hits { hits: cell.hits });
        if !res.quiet
            && (size.count.is_some() || size.carried > 0 || size.counted == Counted::Figures)
        {
            let loss = Losses::new(cell.hits, size, i64::from(tables.drums.hits.per_base));
            res.note(format!("On the unit: {}.", loss.text()));
            for (key, value) in loss.fields() {
                res.field(key, value);
            }
        }
    }
    match cell.outcome {
        ResilienceOutcome::ForcedRetire => res.effect(Target::ACTOR, DrumsEffect::Retired),
        ResilienceOutcome::Break => res.effect(Target::ACTOR, DrumsEffect::Broken),
        _ => {}
    }
    res.field("advance_bw", cell.advance_bw);
    match cell.outcome {
        ResilienceOutcome::Break => {
            res.note("The unit breaks: each general within 3BW takes `risk broke`.")
        }
        ResilienceOutcome::ForcedRetire => match input.named_on(None).next() {
            Some(n) => res.note(format_args!(
                "Retire {} by its Force to Retire move (`move {} retire`).",
                n.facts.id, n.facts.id
            )),
            None => res
                .note("Retire the unit by its Force to Retire move (`move ARM FORMATION retire`)."),
        },
        _ => {}
    }
    Ok(res)
}

/// Add one table row to the stack if the situation claims it; returns its value.
fn apply_row(
    res: &mut Resolution,
    adj: &ResilienceAdjustment,
    (words, present): (&crate::bind::Bound, crate::bind::Present),
    context: Context,
) -> i64 {
    if let Some(keyword) = &adj.keyword {
        // Most rows are not named by a line: told so without a search.
        if !present.may_hold(keyword) {
            return 0;
        }
        let cell = adj.value(context);
        let count = words.count(keyword);
        if count == 0 {
            return 0;
        }
        let label: std::rc::Rc<str> = if count > 1 {
            format!("{} ×{count}", adj.row).into()
        } else {
            adj.row.clone()
        };
        match cell {
            Some(v) => {
                res.modifier(label, v * i64::from(count));
                v * i64::from(count)
            }
            // A unit's fact that this column ignores is not worth a row.
            None if words.implied(keyword) => 0,
            None => {
                // Said but blank in this column: shown, so nobody wonders
                // whether the word was read.
                res.modifier(
                    format_args!("{label} (no adjustment {})", context.phrase()),
                    0,
                );
                0
            }
        }
    } else {
        match (&adj.unless, adj.value(context)) {
            (Some(unless), Some(v)) if !words.has(unless) => {
                res.modifier(adj.by_itself_label(), v);
                v
            }
            _ => 0,
        }
    }
}

/// With no formation given (typed, or brought by a unit), the rows of the
/// formations are not known not to apply: each with a cell in this context
/// is shown as not applied, with the word that would apply it.
fn unknown_formation(
    res: &mut Resolution,
    table: &super::ResilienceTable,
    words: &crate::bind::Bound,
    context: Context,
) {
    if exclusive::RESILIENCE_FORMATION_SLOT
        .iter()
        .any(|w| words.has(w))
    {
        return;
    }
    let mut json = Vec::new();
    for adj in &table.adjustment {
        let (Some(keyword), Some(value)) = (&adj.keyword, adj.value(context)) else {
            continue;
        };
        if !exclusive::RESILIENCE_FORMATIONS.contains(&keyword.as_str()) {
            continue;
        }
        res.row(
            format_args!(
                "{} ({}) — not applied: the unit's formation is not given; `{keyword}` would apply it",
                adj.row,
                crate::answer::resolution::signed(value)
            ),
            "—",
        );
        json.push(serde_json::json!({
            "row": &*adj.row,
            "value": value,
            "needs": "the unit's formation",
            "would_apply": [keyword],
        }));
    }
    if !json.is_empty() {
        res.field("not_applied", json);
    }
}

fn describe(cell: &OutcomeCell) -> String {
    let base = match cell.outcome {
        ResilienceOutcome::Advance => format!("advance {}BW", cell.advance_bw),
        ResilienceOutcome::CarryOn => "carry on".into(),
        ResilienceOutcome::Stand => "stand".into(),
        ResilienceOutcome::ForcedRetire => "forced retire".into(),
        ResilienceOutcome::Break => "break".into(),
    };
    match cell.hits {
        0 => base,
        1 => format!("{base}, take 1 hit"),
        n => format!("{base}, take {n} hits"),
    }
}

fn tone(outcome: ResilienceOutcome) -> Tone {
    match outcome {
        ResilienceOutcome::Advance | ResilienceOutcome::CarryOn => Tone::Good,
        ResilienceOutcome::Stand => Tone::Neutral,
        ResilienceOutcome::ForcedRetire | ResilienceOutcome::Break => Tone::Bad,
    }
}

/// A resilience test is taken by one unit, named first; a general named
/// after it brings "For each general in line of command within 3BW" (and
/// his trait's row).
fn check_named(input: &Input) -> Result<(), CommandError> {
    let named: Vec<&Named> = input.named_on(None).collect();
    if let Some(first) = named.first().filter(|n| is_general(n)) {
        return Err(refuse(
            ErrorKind::MisplacedWord,
            input,
            first,
            "is a general, and resilience tests are taken by units: name the unit first \
             (a general named after it counts as a general in line of command within 3BW)",
        ));
    }
    if let Some(extra) = named.get(2).or(named.get(1).filter(|n| !is_general(n))) {
        return Err(refuse(
            ErrorKind::ExtraWord,
            input,
            extra,
            "is one name too many: a resilience test names the unit tested and at most one \
             general within 3BW (for more, type `general=N`, `inspiring=N`, `hated=N`)",
        ));
    }
    Ok(())
}
