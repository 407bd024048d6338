//! Hits into bases: using bases, each 6 hits remove one base.

use std::rc::Rc;

use super::game::DrumsEffect;
use crate::bind::Vocab;
use crate::catalog::{Input, VerbDoc};
use crate::dice::DiceSource;
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::{Resolution, Tone};

use super::Tables;

pub fn verb(all: &Rc<Tables>) -> VerbDoc {
    let _tables = &all.drums;
    let vocab = Vocab::new().with_number("the hits received").number(
        "bases",
        1,
        1000,
        "the unit's bases before these hits",
    );
    VerbDoc::new(
        Some(super::DRUMS),
        "hits",
        "hits N [bases=N]",
        "Bases removed for N hits (the tables' hits per base: 6 on the sheet).",
        vocab,
        {
            let all = all.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&all, input, dice)
        },
    )
    .examples(&["hits 7", "hits 14 bases=4"])
}

fn resolve(
    tables: &Tables,
    input: &Input,
    _dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
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
    let carried = input.words.value("carried").unwrap_or(0);
    let mut res = input.resolution("hits", format!("hits on bases ({per_base} hits a base)"));
    res.row("hits", hits);
    if carried > 0 {
        res.row("hits already carried", carried);
    }
    res.row("hits per base", per_base);
    let mut bases_lost = (hits + carried) / per_base;
    let hits_left = (hits + carried) % per_base;
    let mut text = format!(
        "remove {bases_lost} base{}",
        if bases_lost == 1 { "" } else { "s" }
    );
    if let Some(bases) = input.words.value("bases") {
        if bases_lost >= bases {
            bases_lost = bases;
            text = format!("all {bases} bases are lost: the unit is destroyed");
            res.field("destroyed", true);
        } else {
            text.push_str(&format!(", {} left", bases - bases_lost));
        }
        res.field("bases_left", bases - bases_lost);
    }
    if hits_left > 0 {
        text.push_str(&format!(
            "; {hits_left} hit{} carried",
            if hits_left == 1 { "" } else { "s" }
        ));
    }
    res.field("hits", hits);
    res.field("bases_lost", bases_lost);
    res.measure("hits", hits as f64);
    res.effect(Target::ACTOR, DrumsEffect::Hits { hits });
    res.measure("bases_lost", bases_lost as f64);
    res.field("hits_left", hits_left);
    res.set_outcome(
        "bases-lost",
        text,
        if bases_lost > 0 {
            Tone::Bad
        } else {
            Tone::Neutral
        },
    );
    Ok(res)
}
