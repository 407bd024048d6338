//! The words of `fire`: the firer's weapon, cover, bonuses and the state
//! of its weapon, and the words of each `at`.

use crate::bind::{Kind, Vocab};
use crate::command::Unit;
use crate::mayhem::game::{LOADED, SHOT, SMOKE, UNLOADED, bonus_word};
use crate::mayhem::{COMMANDER, INCENDIARY, MAX_TOKENS, MayhemTables, needs, token_words};

use super::{COVER, LEADER, MAX_FIGURES, WEAPON};

const WEAPON_STATE: &str = "the weapon's state";
/// Largest hero bonus to a skill or impact die.
const MAX_BONUS: i64 = 6;
/// Most smoke puffs a gun may carry on a line.
const MAX_PUFFS: i64 = 99;
/// A typed `skill+N` or `impact+N` stands for the hero's bonus, so it
/// displaces the bonus a named figure brings with its weapon.
const SKILL_SLOT: &[&str] = &[
    "skill",
    "pistol-skill",
    "musket-skill",
    "bow-skill",
    "rifle-skill",
    "canister-skill",
    "roundshot-skill",
];
const IMPACT_SLOT: &[&str] = &[
    "impact",
    "pistol-impact",
    "musket-impact",
    "bow-impact",
    "rifle-impact",
    "canister-impact",
    "roundshot-impact",
];

fn cover_words(mut vocab: Vocab, tables: &MayhemTables) -> Vocab {
    for c in &tables.fire.cover {
        let default = if c.default { " (the default)" } else { "" };
        vocab = vocab.choice(
            COVER,
            &c.keyword,
            format!("{}: skill die needs {}{default}", c.row, needs(c.needs)),
        );
    }
    vocab
}

/// The firer's words.
fn firer_vocab(tables: &MayhemTables) -> Vocab {
    let f = &tables.fire;
    let mut vocab = Vocab::new().with_distance(Unit::Inches);
    for w in &f.weapon {
        let impact = match &w.impact_row {
            Some(row) => format!(", impact die {row}"),
            None => String::new(),
        };
        let several = match &w.several {
            Some(s) => format!("; {s} (`figures=N`)"),
            None => String::new(),
        };
        vocab = vocab.choice(
            WEAPON,
            &w.keyword,
            format!("{} {}\"{impact}{several}", w.row, w.range),
        );
    }
    vocab = cover_words(vocab, tables)
        .flag("mounted", format!("skill die {}", f.mounted_row))
        .number(
            "skill",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the skill die (`skill+2`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the impact die (`impact+1`): {}",
                tables.heroes.bonus
            ),
        );
    for w in &f.weapon {
        for die in ["skill", "impact"] {
            vocab = vocab.number(
                &bonus_word(&w.keyword, die),
                0,
                MAX_BONUS,
                format!(
                    "hero's bonus to the {die} die with a {} only (an army list's `bonus.{}`); unused with another weapon",
                    w.keyword, w.keyword
                ),
            );
        }
    }
    let vocab = state_words(vocab, tables);
    token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll a skill die that misses (the reroll stands; among several figures, the missed die with the best chance)",
    )
}

/// How many figures a gun rolls against, and what a figure in a game
/// brings of its weapon's state and its own.
fn state_words(vocab: Vocab, tables: &MayhemTables) -> Vocab {
    let f = &tables.fire;
    vocab
        .number(
            "figures",
            1,
            MAX_FIGURES,
            "canister or roundshot: the figures in the cone or along the flight path; one skill die each, thrown together, then an impact die for each hit (naming the figures after `at` counts them)",
        )
        .choice(
            WEAPON_STATE,
            UNLOADED,
            format!(
                "the firer's gunpowder weapon is unloaded (a figure in a game brings it once it has fired): it cannot fire until reloaded (`reload`) — {}",
                f.unloaded_row
            ),
        )
        .choice(
            WEAPON_STATE,
            LOADED,
            "the firer's weapon is loaded (taken when neither is said): typed, it stands in for the `unloaded` a figure in a game brings (reloaded at the table)",
        )
        .flag(
            SHOT,
            format!(
                "the firer has shot this turn with a weapon that is never unloaded, a bow (a figure in a game brings it): it shoots again next turn — {}",
                f.shoot_once_row
            ),
        )
        .number(
            SMOKE,
            0,
            MAX_PUFFS,
            format!(
                "smoke puffs on the gun (a gun in a game brings its own): it cannot fire until its crew has removed them all — {}",
                tables.reload.row
            ),
        )
        .flag(
            INCENDIARY,
            format!(
                "the firer carries incendiary materials (a figure in a game brings it): it may not shoot — {}",
                f.incendiary_row
            ),
        )
        .slot(SKILL_SLOT)
        .slot(IMPACT_SLOT)
}

fn target_vocab(tables: &MayhemTables) -> Vocab {
    let at = Vocab::new()
        .with_distance(Unit::Inches)
        .flag("hero", "the target is a hero")
        .flag(
            LEADER,
            "the target leads a company or warband: if it is killed, the company or warband checks courage (a figure in a game brings it)",
        )
        .flag(
            COMMANDER,
            format!(
                "the target is the commander of its contingent: {} (a figure in a game brings it)",
                tables.courage.commander.row
            ),
        )
        .number(
            "figures",
            1,
            MAX_FIGURES,
            "canister or roundshot: the figures at this `at`'s distance and cover (naming them counts them)",
        );
    cover_words(at, tables).number(
        "saves",
        0,
        MAX_TOKENS,
        format!(
            "target hero's {}: one is spent automatically to cancel a death (the hero then takes a courage check, as for a hit without being killed)",
            tables.heroes.save
        ),
    )
}

/// The words of the firer and of each `at`.
pub(super) fn vocabs(tables: &MayhemTables) -> (Vocab, Vocab) {
    let vocab = firer_vocab(tables);
    let mut at = target_vocab(tables);
    at.add(
        "DISTANCE",
        Kind::Flag,
        "canister or roundshot: this `at`'s figures are at their own distance (`at warrior-1 12\" at warrior-2 30\" soft`); a shot at one figure may give its distance here instead of before `at`",
    );
    (vocab, at)
}
