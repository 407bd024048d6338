//! What a game keeps of Musket & Saber units and leaders, as a value:
//! the checkpoint of the part, changed only by the typed effects of
//! resolutions and by a new turn.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{SaberContext, SaberEffect, SaberGame};
use crate::system::{GameState, GameView};

/// Everything the game remembers about one combat unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UnitState {
    pub(crate) steps_lost: u32,
    pub(crate) disrupted: bool,
    pub(crate) ineffective: bool,
    /// Routed and not yet recovered from the rout's disruption.
    pub(crate) routed: bool,
    /// Failed its step recovery check: out of the game for good.
    pub(crate) destroyed: bool,
    /// Captured by charging cavalry (9.3 7): out of the game.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) captured: bool,
    /// Attacked this combat phase (standard 7.5, QuickPlay 7.3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) attacked: bool,
    /// Victorious charging cavalry whose charge has not ended (9.3 6, 8).
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) charging: bool,
    /// The defender whose last stand costs it a step if this attacker
    /// does not retreat (7.13 5), until the attacker's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) last_stand_owed: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Everything the game remembers about one leader.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LeaderState {
    pub(crate) ineffective: bool,
    pub(crate) casualty: bool,
}

/// Everything the Musket & Saber part of a game keeps that effects change:
/// its checkpoint (`next-turn` clears the attacks of the combat phase and
/// ends the charges still going).
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SaberState {
    #[serde(deserialize_with = "crate::system::object_values")]
    pub(super) units: BTreeMap<String, UnitState>,
    #[serde(deserialize_with = "crate::system::object_values")]
    pub(super) leaders: BTreeMap<String, LeaderState>,
    /// The charges the last new turn ended (9.3 8), for its answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(super) ended_charges: Vec<String>,
}

impl SaberState {
    /// The state a battle begins with: the brigades of its lists reduced
    /// in an earlier battle of a campaign on their reduced side (2.5).
    pub(crate) fn starting(context: &SaberContext) -> SaberState {
        SaberState {
            units: super::campaign::starting_units(&context.armies),
            ..SaberState::default()
        }
    }

    /// What an effect does to a combat unit of `steps` steps (`flips`:
    /// one that has an ineffective side).
    fn apply_to_unit(
        &mut self,
        context: &SaberContext,
        id: &str,
        steps: u32,
        flips: bool,
        effect: &SaberEffect,
    ) -> Result<(), String> {
        let s = self.units.entry(id.to_string()).or_default();
        // Off the map, nothing but its recovery (or destruction) touches it.
        let off_map = s.steps_lost >= steps;
        if s.captured
            || (off_map && !matches!(effect, SaberEffect::StepRecovered | SaberEffect::Destroyed))
        {
            return Ok(());
        }
        match effect {
            SaberEffect::StepLost => {
                s.charging = false;
                if s.steps_lost < steps {
                    s.steps_lost += 1;
                }
                if s.steps_lost >= steps {
                    // Off the map (7.11): it returns, if ever, fresh.
                    s.disrupted = false;
                    s.ineffective = false;
                    s.routed = false;
                }
            }
            SaberEffect::Routed => {
                s.routed = true;
                s.last_stand_owed = None;
                s.disrupted = true;
                s.ineffective |= flips;
            }
            SaberEffect::Disrupted => {
                s.disrupted = true;
                s.charging = false;
            }
            SaberEffect::Retreated | SaberEffect::Ineffective => {
                s.ineffective |= flips;
                // A retreat settles a last stand: no step owed (7.13 5).
                if *effect == SaberEffect::Retreated {
                    s.last_stand_owed = None;
                }
                // Its charge, if any, is over (9.3 8).
                s.charging = false;
            }
            SaberEffect::Attacked => s.attacked = true,
            SaberEffect::Charging => s.charging = true,
            SaberEffect::LastStandOwed { defender } => {
                s.last_stand_owed = Some(defender.clone());
            }
            SaberEffect::LastStandKept => {
                if let Some(defender) = s.last_stand_owed.take() {
                    return self.apply(context, Some(&defender), &SaberEffect::StepLost);
                }
            }
            SaberEffect::Disengaged => s.last_stand_owed = None,
            SaberEffect::LeaderCasualty => {}
            SaberEffect::Recovered {
                disruption,
                effectiveness,
            } => {
                if *disruption {
                    s.disrupted = false;
                    s.routed = false;
                }
                if *effectiveness {
                    s.ineffective = false;
                }
            }
            SaberEffect::StepRecovered => s.steps_lost = s.steps_lost.saturating_sub(1),
            SaberEffect::Destroyed => s.destroyed = true,
            SaberEffect::Captured => {
                s.captured = true;
                s.disrupted = false;
                s.ineffective = false;
                s.routed = false;
                s.charging = false;
            }
        }
        Ok(())
    }

    /// What an effect does to a leader: only what flips him or takes him
    /// out of the game.
    fn apply_to_leader(
        &mut self,
        context: &SaberContext,
        id: &str,
        effect: &SaberEffect,
    ) -> Result<(), String> {
        if context.leader(id).is_none() {
            return Err(format!(
                "no Musket & Saber unit or leader `{id}` in this game"
            ));
        }
        let s = self.leaders.entry(id.to_string()).or_default();
        match effect {
            // Leaders retreat with their stacks and are flipped (7.8, 7.9;
            // QuickPlay 10.0); steps and disruption are for units.
            SaberEffect::Routed | SaberEffect::Retreated | SaberEffect::Ineffective => {
                s.ineffective = true
            }
            SaberEffect::LeaderCasualty => s.casualty = true,
            SaberEffect::Recovered { effectiveness, .. } => {
                if *effectiveness {
                    s.ineffective = false;
                }
            }
            SaberEffect::StepLost
            | SaberEffect::Disrupted
            | SaberEffect::Disengaged
            | SaberEffect::StepRecovered
            | SaberEffect::Destroyed
            | SaberEffect::Captured
            | SaberEffect::Attacked
            | SaberEffect::Charging
            | SaberEffect::LastStandOwed { .. }
            | SaberEffect::LastStandKept => {}
        }
        Ok(())
    }
}

impl GameState for SaberState {
    type Effect = SaberEffect;
    type Context = SaberContext;

    fn view<'a>(&'a self, context: &'a SaberContext) -> Box<dyn GameView + 'a> {
        Box::new(SaberGame::of(context, self))
    }

    fn apply(
        &mut self,
        context: &SaberContext,
        unit: Option<&str>,
        effect: &SaberEffect,
    ) -> Result<(), String> {
        let id = unit.ok_or("a Musket & Saber effect names no unit")?;
        if let Some((u, _)) = context.unit(id) {
            let (steps, kind) = (u.steps(), u.unit_type());
            return self.apply_to_unit(context, id, steps, kind.may_be_ineffective(), effect);
        }
        self.apply_to_leader(context, id, effect)
    }

    /// The combat phases are over: no unit has attacked in the next one
    /// (7.5), and a charge still going ends, its cavalry ineffective
    /// (standard 9.3 8, QuickPlay 9.2 6).
    fn next_turn(&mut self, _context: &SaberContext) {
        self.ended_charges.clear();
        for (id, s) in self.units.iter_mut() {
            s.attacked = false;
            s.last_stand_owed = None;
            if s.charging {
                s.charging = false;
                s.ineffective = true;
                self.ended_charges.push(id.clone());
            }
        }
    }

    fn named(&self) -> Vec<(&'static str, &str)> {
        let units = self.units.keys().map(|id| ("unit", id.as_str()));
        let leaders = self.leaders.keys().map(|id| ("leader", id.as_str()));
        units.chain(leaders).collect()
    }

    /// No unit may have lost more steps than it has.
    fn check(&self, context: &SaberContext) -> Result<(), String> {
        for (id, s) in &self.units {
            if let Some((u, _)) = context.unit(id)
                && s.steps_lost > u.steps()
            {
                return Err(format!(
                    "gives unit `{id}` {} steps lost, but it has only {}",
                    s.steps_lost,
                    u.steps()
                ));
            }
        }
        Ok(())
    }

    fn carry(
        &self,
        context: &SaberContext,
        fought: &[crate::carry::Fought<SaberEffect>],
        close: &crate::carry::Close<'_>,
        _dice: &mut dyn crate::dice::DiceSource,
    ) -> Result<crate::carry::Carry, String> {
        Ok(SaberGame::of(context, self).carry_over(fought, close))
    }
}
