//! A unit's list entry and game state, said as words of the command
//! language, so that naming a unit is the same as typing its facts.

use crate::army::{Figure, Unit};

use super::state::UnitState;

/// Strength of a based unit after its hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    pub bases: i64,
    pub lost: i64,
}

impl Strength {
    pub fn of(unit: &Unit, state: &UnitState, hits_per_base: i64) -> Strength {
        let bases = unit.bases.unwrap_or(0).max(0);
        let lost = (state.hits / hits_per_base.max(1)).clamp(0, bases);
        Strength { bases, lost }
    }

    pub fn left(&self) -> i64 {
        self.bases - self.lost
    }

    /// Percent of the starting bases still on the table.
    pub fn percent(&self) -> i64 {
        if self.bases == 0 {
            return 100;
        }
        // Wide arithmetic: an army list may give any number of bases.
        (i128::from(self.left()) * 100 / i128::from(self.bases)) as i64
    }
}

/// Drums and Muskets: the unit's arm, class, formation, weapon, bases,
/// doctrine, and what the game knows of it this turn and this game.
pub fn drums_words(unit: &Unit, state: &UnitState, hits_per_base: i64) -> Vec<String> {
    let mut words = Vec::new();
    let arm = unit.arm.as_deref().unwrap_or("foot");
    // The melee tables name heavy cavalry and lancers as arms of their own;
    // charge and movement know only `cavalry`. The first a verb knows wins.
    if arm == "cavalry" && unit.heavy {
        words.push("heavy-cavalry".to_string());
    }
    if arm == "cavalry" && unit.lancers {
        words.push("lancers".to_string());
    }
    // `irregular` is irregular foot to the melee tables and irregular
    // troops to the charge table: one word serves both.
    words.push(arm.to_string());
    words.extend(unit.class.iter().cloned());
    if let Some(formation) = &unit.formation {
        words.push(formation.clone());
    }
    if let Some(weapon) = &unit.weapon {
        words.push(weapon.clone());
    }
    let two_rank = unit.doctrine.iter().any(|d| d == "two-rank");
    for doctrine in &unit.doctrine {
        words.push(if doctrine == "light-company" {
            "light".into()
        } else {
            doctrine.clone()
        });
    }
    let strength = Strength::of(unit, state, hits_per_base);
    if unit.bases.is_some() {
        words.push(format!("bases={}", strength.left()));
        let carried = state.hits.max(0) % hits_per_base.max(1);
        if carried > 0 && strength.left() > 0 {
            words.push(format!("carried={carried}"));
        }
    }
    let percent = strength.percent();
    if percent <= 50 {
        words.push("half-lost".into());
        words.push("weak".into());
    } else if percent >= 75 {
        words.push("strong".into());
        if strength.lost > 0 && !two_rank {
            words.push("lost-bases".into());
        }
    }
    if state.hit {
        words.push("hit".into());
    }
    if state.inflicted {
        words.push("inflicted".into());
    }
    if state.retired {
        words.push("retired".into());
    }
    if state.moved {
        words.push("moved".into());
    }
    if state.fired_at && state.hit {
        words.push("shot-at".into());
    }
    match state.charges {
        0 => words.push("not-charged".into()),
        1 => {}
        _ => words.push("charged-twice".into()),
    }
    if state.shots == 0 {
        words.push("first-shot".into());
    }
    if state.shots >= 3 {
        words.push("fired-3".into());
    }
    if state.melees == 0 {
        words.push("first-melee".into());
    }
    words
}

/// Musket Mayhem: the figure's rank, arms and hero tokens left.
pub fn mayhem_words(figure: &Figure, state: &UnitState) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(rank) = &figure.rank {
        words.push(rank.clone());
    }
    if let Some(weapon) = &figure.weapon {
        words.push(weapon.clone());
    }
    words.push(figure.armament.clone());
    for (flag, word) in [
        (figure.mounted, "mounted"),
        (figure.leader, "leader"),
        (figure.shock, "shock"),
        (figure.bayonet, "bayonet"),
    ] {
        if flag {
            words.push(word.into());
        }
    }
    if figure.skill_bonus != 0 {
        words.push(format!("skill{:+}", figure.skill_bonus));
    }
    if figure.impact_bonus != 0 {
        words.push(format!("impact{:+}", figure.impact_bonus));
    }
    let saves = figure.saves - i64::from(state.saves_spent);
    if figure.saves > 0 {
        words.push("hero".into());
        words.push(format!("saves={}", saves.max(0)));
    }
    if figure.rerolls > 0 {
        let left = figure.rerolls - i64::from(state.rerolls_spent);
        words.push(format!("rerolls={}", left.max(0)));
    }
    words
}

/// Musket & Saber: the unit's morale rating.
pub fn saber_words(unit: &Unit) -> Vec<String> {
    let mut words = Vec::new();
    if let Some(mr) = unit.mr {
        words.push(format!("mr={mr}"));
    }
    if let Some(kind) = &unit.kind {
        words.push(kind.clone());
    }
    words
}
