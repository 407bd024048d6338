//! Hits into losses: "If using bases, then for each 6 hits received then 1
//! base is removed"; "If using a figures, then it is each hit equals on
//! figure removed/lost." The hits a unit already carries count towards its
//! next base.

use std::rc::Rc;

use super::game::DrumsEffect;
use super::losses::{self, Counted, Losses, Size};
use super::{Resolution, VerbDoc};
use crate::answer::resolution::Target;
use crate::answer::resolution::Tone;
use crate::bind::Vocab;
use crate::catalog::Input;
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};

use super::Tables;

pub(crate) fn verb(all: &Rc<Tables>) -> VerbDoc {
    let per_base = all.drums.hits.per_base;
    let vocab = losses::size_words(
        Vocab::new().with_number("the hits received"),
        "the unit",
        "the unit's bases before these hits",
        1000,
        per_base,
    );
    VerbDoc::new(
        Some(super::DRUMS),
        "hits",
        "hits N [bases=N [carried=N] | figures=N]",
        format!(
            "Bases removed for N hits ({per_base} hits a base, counting the hits already carried), or figures (one a hit)."
        ),
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .examples(&["hits 7", "hits 14 bases=4", "hits 4 bases=6 carried=4", "hits 3 figures=12"])
}

fn resolve(
    tables: &Tables,
    input: &Input,
    _dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    super::named::one_unit(
        input,
        None,
        "hits",
        "hits fall on units (\"generals cannot be targeted directly\")",
    )?;
    let per_base = i64::from(tables.drums.hits.per_base);
    let (n, span) = input
        .words
        .number
        .ok_or_else(|| input.missing("`hits` needs the number of hits, like `hits 7`"))?;
    if n.fract() != 0.0 || !(0.0..=100_000.0).contains(&n) {
        return Err(BindError::BadValue {
            span,
            text: n.to_string(),
            expected: "hits are a whole number from 0 to 100000".into(),
        }
        .into());
    }
    let hits = n as i64;
    let size = Size::of(&input.words)?;
    let loss = Losses::new(hits, size, per_base);
    let counted = size.counted;
    let heading = match counted {
        Counted::Bases => format!("hits on bases ({per_base} hits a base)"),
        Counted::Figures => "hits on figures (each hit removes a figure)".to_string(),
    };
    let mut res = input.resolution("hits", heading);
    res.row("hits", hits);
    match counted {
        Counted::Bases => {
            if size.carried > 0 {
                res.row("hits already carried", size.carried);
            }
            res.row("hits per base", per_base);
        }
        Counted::Figures => res.row("figures per hit", 1),
    }
    let many = counted.many();
    let mut text = if loss.destroyed {
        format!("all {} {many} are lost: the unit is destroyed", loss.lost)
    } else {
        let mut t = format!("remove {} {}", loss.lost, counted.of(loss.lost));
        if let Some(left) = loss.left() {
            t.push_str(&format!(", {left} left"));
        }
        t
    };
    if loss.left_over > 0 {
        text.push_str(&format!(
            "; {} hit{} carried",
            loss.left_over,
            super::pool::plural(loss.left_over)
        ));
    }
    if loss.destroyed {
        res.field("destroyed", true);
    }
    if let Some(left) = loss.left() {
        res.field(format!("{many}_left"), left);
    }
    res.field("hits", hits);
    for (key, value) in loss.fields() {
        res.field(key, value);
    }
    res.measure("hits", hits as f64);
    res.measure(
        if counted == Counted::Bases {
            "bases_lost"
        } else {
            "figures_lost"
        },
        loss.lost as f64,
    );
    res.effect(Target::ACTOR, DrumsEffect::Hits { hits });
    res.set_outcome(
        format!("{many}-lost"),
        text,
        if loss.lost > 0 {
            Tone::Bad
        } else {
            Tone::Neutral
        },
    );
    Ok(res)
}
