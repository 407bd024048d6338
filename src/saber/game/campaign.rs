//! Between the battles of a campaign: what a Musket & Saber army carries
//! to the next. A two-step brigade shows its reduced side once it has
//! lost a step (2.5); the rules play one battle, and what a linked battle
//! carries is drumhead's rule, in each book's section of the house table
//! `campaign.toml` (`[saber]`, `[saber-quickplay]`), with the house row a
//! club may turn on.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{SaberEffect, SaberGame, eliminated};
use crate::carry::{
    Carry, Change, Close, Edit, EditValue, Fought, HouseRow, Measure, Section, entries_of, trace,
};
use crate::saber::Variant;
use crate::saber::army::Unit;
use crate::system::GameState;

/// The sections of `campaign.toml` Musket & Saber reads: its books' ids.
pub(crate) const CAMPAIGN_SECTIONS: &[&str] = &["saber", "saber-quickplay"];

/// A book's section of `campaign.toml` (empty until the tables load it).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CampaignTable {
    /// What a step lost does to the next battle, in words.
    pub(crate) steps: String,
    /// Who is gone, in words.
    pub(crate) gone: String,
    /// Who recovers, in words.
    pub(crate) recover: String,
    pub(crate) step_recovery: HouseRow<StepRecovery>,
}

/// The house row of a reduced brigade's step recovered between battles:
/// it measures nothing.
#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub(crate) struct StepRecovery;

impl Measure for StepRecovery {
    const ROW: &'static str = "StepRecovery";
    const FIELDS: &'static [&'static str] = &["keyword", "row", "default"];
}

impl Section for CampaignTable {
    const SECTIONS: &'static [&'static str] = CAMPAIGN_SECTIONS;

    fn check(&self) -> Result<(), (String, String)> {
        self.step_recovery.check("step_recovery")
    }
}

impl CampaignTable {
    /// The quick-reference sheet's section: between the battles.
    pub(crate) fn section(&self) -> crate::sheet::Section {
        let mut s = crate::sheet::Section::new("Between Battles (a campaign)");
        for text in [&self.steps, &self.gone, &self.recover] {
            s.notes.push(text.as_str().into());
        }
        let r = &self.step_recovery;
        let mut table = crate::sheet::Table::new("House row", &["", "close word", "by default"]);
        table.row(
            &r.row,
            vec![
                r.keyword.clone(),
                if r.default { "applied" } else { "off" }.to_string(),
            ],
        );
        s.tables.push(table);
        s
    }
}

/// The state a list starts a battle with: its brigades reduced in an
/// earlier battle of a campaign on their reduced side (2.5).
pub(super) fn starting_units(armies: &[super::ArmyPart]) -> BTreeMap<String, super::UnitState> {
    armies
        .iter()
        .flat_map(|a| a.list.units.iter())
        .filter(|u| u.starts_reduced && u.steps() > 1)
        .map(|u| {
            let state = super::UnitState {
                steps_lost: 1,
                ..super::UnitState::default()
            };
            (u.id.clone(), state)
        })
        .collect()
}

impl SaberGame<'_> {
    /// What the units and leaders carry to the next battle.
    pub(super) fn carry_over(&self, fought: &[Fought<SaberEffect>], close: &Close<'_>) -> Carry {
        let book = self.armies.first().map_or(crate::saber::SABER, |a| a.book);
        let section = book.id();
        let table = &Variant::of(book).rules(self.tables).campaign;
        let row = &table.step_recovery;
        let place = crate::carry::place(section);
        let (recovering, said) = row.applies(
            &crate::carry::place(&format!("{section}.step_recovery")),
            close,
        );
        let units: Vec<&str> = self
            .armies
            .iter()
            .flat_map(|a| a.list.units.iter().map(|u| u.id.as_str()))
            .collect();
        // Traced from the state as the battle began.
        let context = self.context;
        let traced = trace(
            super::SaberState::starting(context),
            fought,
            &units,
            |state, f| match &f.effect {
                Some((unit, effect)) => {
                    let _ = state.apply(context, unit.as_deref(), effect);
                }
                None => state.next_turn(context),
            },
            |state, id| {
                let s = state.units.get(id).cloned().unwrap_or_default();
                (s.steps_lost, s.destroyed, s.captured)
            },
        );
        let mut changes = Vec::new();
        for a in self.armies {
            for u in &a.list.units {
                let made = traced.get(&u.id).cloned().unwrap_or_default();
                changes.extend(self.unit_change(a.index, u, made, recovering, close));
            }
            for l in &a.list.leaders {
                if !self.leader_state(&l.id).casualty {
                    continue;
                }
                changes.push(Change {
                    army: a.index,
                    section: "leader",
                    id: l.id.clone(),
                    what: "killed (a leader casualty): gone".into(),
                    entries: entries_of(fought, &l.id, |e| *e == SaberEffect::LeaderCasualty),
                    die: None,
                    edits: vec![Edit::set(
                        "gone",
                        EditValue::Text(format!("killed at {}", close.battle)),
                    )],
                });
            }
        }
        Carry {
            changes,
            rules: vec![
                format!("{} ({place})", table.steps),
                format!("{} ({place})", table.gone),
                format!("{} ({place})", table.recover),
                said,
            ],
            keywords: vec![row.keyword.clone()],
        }
    }

    /// What the battle did to one unit that the next one starts with.
    fn unit_change(
        &self,
        army: usize,
        u: &Unit,
        entries: Vec<u64>,
        recovering: bool,
        close: &Close<'_>,
    ) -> Option<Change> {
        let s = self.unit_state(&u.id);
        let change = |what: String, edits: Vec<Edit>| Change {
            army,
            section: "unit",
            id: u.id.clone(),
            what,
            entries: entries.clone(),
            die: None,
            edits,
        };
        if s.captured {
            return Some(change(
                "captured: gone".into(),
                vec![
                    Edit::set(
                        "gone",
                        EditValue::Text(format!("captured at {}", close.battle)),
                    ),
                    // Gone for good, on neither side.
                    Edit::remove("reduced"),
                ],
            ));
        }
        if eliminated(u, &s) || s.destroyed {
            return Some(change(
                "eliminated: gone".into(),
                vec![
                    Edit::set(
                        "gone",
                        EditValue::Text(format!("eliminated at {}", close.battle)),
                    ),
                    // Gone for good, on neither side.
                    Edit::remove("reduced"),
                ],
            ));
        }
        if u.steps() < 2 {
            return None;
        }
        let reduced = s.steps_lost > 0 && !recovering;
        match (u.starts_reduced, reduced) {
            (false, true) => Some(change(
                "lost a step: starts the next battle reduced".into(),
                vec![Edit::set("reduced", EditValue::Bool(true))],
            )),
            (true, false) => Some(change(
                if s.steps_lost > 0 {
                    "recovered its step between battles (house row): starts the next battle at full strength"
                } else {
                    "recovered its step: starts the next battle at full strength"
                }
                .into(),
                vec![Edit::remove("reduced")],
            )),
            (false, false) if s.steps_lost > 0 => Some(change(
                "lost a step, recovered between battles (house row): starts the next battle at full strength".into(),
                Vec::new(),
            )),
            _ => None,
        }
    }
}
