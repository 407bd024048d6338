//! What each procedure of the results table does (standard 7.8,
//! QuickPlay 7.5): the code's letter names a procedure, and the procedure
//! decides, with the morale die, what happens to the side.

use std::fmt::Display;

use crate::dice::DiceSource;
use crate::error::CommandError;

use super::Procedure;
use super::Resolution;
use super::crt::{Code, Letter, Side};
use super::game::SaberEffect;
use super::morale::Check;
use super::results::{Ctx, Moved, Who, idx};
use crate::text::display_with;

impl<'a> Ctx<'a> {
    /// Carry out one result code (with its parenthesized secondary).
    pub(crate) fn apply(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        secondary: Option<Code>,
    ) -> Result<(), CommandError> {
        self.applying = code;
        self.undefined_note(code.as_str());
        let (Some(side), Some(letter)) = (code.side(), code.letter()) else {
            self.mark_applied(code.as_str());
            if code == Code::Ex {
                self.exchange();
            } else {
                self.effect(
                    None,
                    "no-effect",
                    "NE — no effect: all units on both sides remain in place",
                );
            }
            return Ok(());
        };
        let r = &self.rules.results;
        let procedure = match letter {
            Letter::R => r.r,
            Letter::C => r.c,
            Letter::X => r.x,
            Letter::M => r.m,
            Letter::E => r.e,
        };
        let who = self.label(side);
        match procedure {
            Procedure::RetreatOrDisrupt | Procedure::RetreatOrDisruptNoCheck => {
                self.mark_applied(code.as_str());
                self.retreat_or_disrupt(res, dice, code, side, procedure)?;
            }
            Procedure::CheckThenRetreat | Procedure::CheckThenR => {
                let check = self.check(res, dice, side)?;
                if check.passed {
                    self.passed_then(res, dice, code, secondary, side)?;
                } else {
                    self.mark_applied(code.as_str());
                    if procedure == Procedure::CheckThenR {
                        let r_code = Code::of(side, Letter::R);
                        self.note(format_args!(
                            "{code}: the primary unit failed its check: treat this as a {r_code} result"
                        ));
                        self.retreat_or_disrupt(res, dice, r_code, side, r.r)?;
                    } else {
                        self.retreat(
                            side,
                            format_args!("{code} — check failed: the {who} retreats"),
                        );
                    }
                }
            }
            Procedure::LossOrRetreatDisrupted => self.loss_or_retreat_disrupted(code, side),
            Procedure::CheckLoss => self.check_loss(res, dice, code, side)?,
            Procedure::CheckRout => self.check_rout(res, dice, code, secondary, side)?,
            Procedure::CheckEliminate => self.check_eliminate(res, dice, code, side)?,
        }
        Ok(())
    }

    /// [`Procedure::LossOrRetreatDisrupted`]: left to the owning player,
    /// except for cavalry, whose x is the table's own.
    fn loss_or_retreat_disrupted(&mut self, code: Code, side: Side) {
        let who = self.label(side);
        let r = &self.rules.results;
        self.mark_applied(code.as_str());
        if let Some(text) = self.cavalry_x(side) {
            self.retreat_disrupted(
                side,
                format_args!("{code} — the {who} is cavalry, so it retreats disrupted: {text}"),
            );
        } else {
            self.moved[idx(side)] = Moved::Choice;
            self.choice = true;
            self.effect(
                Some(side),
                "step-loss-or-retreat-disrupted",
                format_args!(
                    "{code} — step loss: the owning player has a choice: either the primary unit of the {who} loses one step ({}) or all units of the {who} retreat ({}) AND are disrupted",
                    r.step_loss, r.retreat_hexes
                ),
            );
            self.advance_if(side, false);
        }
    }

    /// The side's check, for a result that applies whatever it gives
    /// (both ways of [`Procedure::CheckLoss`] and
    /// [`Procedure::CheckEliminate`] carry out `code`).
    fn check_applying(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        side: Side,
    ) -> Result<Check, CommandError> {
        let check = self.check(res, dice, side)?;
        self.mark_applied(code.as_str());
        Ok(check)
    }

    /// [`Procedure::CheckLoss`]: the check decides between the loss (or
    /// the owner's choice) and retreating disrupted; cavalry's x is the
    /// table's own.
    fn check_loss(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        side: Side,
    ) -> Result<(), CommandError> {
        let who = self.label(side);
        let r = &self.rules.results;
        let check = self.check_applying(res, dice, code, side)?;
        if let Some(text) = self.cavalry_x(side) {
            self.retreat_disrupted(
                side,
                format_args!("{code} — the {who} is cavalry, so it retreats disrupted: {text}"),
            );
        } else if check.passed {
            self.moved[idx(side)] = Moved::Choice;
            self.choice = true;
            self.effect(
                Some(side),
                "step-loss",
                format_args!(
                    "{code} — the primary unit of the {who} passes its morale check: it takes a loss ({}) and no advance is possible (or, if the owning player chooses, all units of the {who} are disrupted and retreat {})",
                    r.step_loss, r.retreat_hexes
                ),
            );
        } else {
            self.retreat_disrupted(
                side,
                format_args!(
                    "{code} — the primary unit of the {who} fails its morale check: all units of the {who} are disrupted (no further effect if already disrupted) and retreat"
                ),
            );
        }
        Ok(())
    }

    /// [`Procedure::CheckRout`]: a failed check routs, and may give the
    /// winner a fortune of war.
    fn check_rout(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        secondary: Option<Code>,
        side: Side,
    ) -> Result<(), CommandError> {
        let who = self.label(side);
        let r = &self.rules.results;
        let check = self.check(res, dice, side)?;
        if check.passed {
            self.passed_then(res, dice, code, secondary, side)?;
        } else {
            self.mark_applied(code.as_str());
            self.rout(
                side,
                format_args!(
                    "{code} — check failed: all participating and stacked units of the {who} rout"
                ),
            );
            if r.rout_gives_fow {
                let winner = self.label(side.other());
                self.effect(
                    Some(side.other()),
                    "fow",
                    format_args!("the {winner}'s player receives a fortune of war (12.4)"),
                );
            }
        }
        Ok(())
    }

    /// [`Procedure::CheckEliminate`].
    fn check_eliminate(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        side: Side,
    ) -> Result<(), CommandError> {
        let who = self.label(side);
        let r = &self.rules.results;
        let check = self.check_applying(res, dice, code, side)?;
        if check.passed {
            self.moved[idx(side)] = Moved::Yes;
            self.game(side, Who::Primary, SaberEffect::StepLost);
            self.game(side, Who::All, SaberEffect::Retreated);
            self.effect(
                Some(side),
                "step-loss-and-retreat",
                format_args!(
                    "{code} — eliminated, check passed: the primary unit of the {who} loses one step ({}) and any remaining units of the {who} retreat {}",
                    r.step_loss, r.retreat_hexes
                ),
            );
            self.advance_if(side, true);
        } else {
            self.rout(
                side,
                format_args!("{code} — eliminated, check failed: the {who} routs"),
            );
        }
        Ok(())
    }

    /// A passed check: the parenthesized result, or nothing.
    fn passed_then(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        secondary: Option<Code>,
        side: Side,
    ) -> Result<(), CommandError> {
        match secondary {
            Some(sec) => {
                self.note(format_args!(
                    "{code}: the check passed, so the parenthesized result ({sec}) applies"
                ));
                self.apply(res, dice, sec, None)
            }
            None => {
                let who = self.label(side);
                self.mark_applied("NE");
                self.effect(
                    Some(side),
                    "holds",
                    format_args!(
                        "{code} — the primary unit of the {who} passes its morale check: no effect"
                    ),
                );
                Ok(())
            }
        }
    }

    fn retreat_or_disrupt(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        side: Side,
        procedure: Procedure,
    ) -> Result<(), CommandError> {
        let who = self.label(side);
        let r = &self.rules.results;
        self.moved[idx(side)] = Moved::Choice;
        self.choice = true;
        // Standard Ar/Dr: an already disrupted unit choosing disruption checks.
        let disrupted = procedure == Procedure::RetreatOrDisrupt && self.side(side).disrupted;
        // The check is made only if disruption is chosen: with no MR it is
        // left to the player, the word to give said.
        let no_mr = disrupted && self.side(side).morale.is_none();
        let mr_word = self.side(side).mr_word;
        let check = if disrupted && !no_mr {
            Some(self.check(res, dice, side)?)
        } else {
            None
        };
        let text = display_with(|f| {
            write!(
                f,
                "{code} — retreat: the owning player chooses: either the primary unit of the {who} is disrupted (11.1), or all units of the {who} retreat {}",
                r.retreat_hexes
            )?;
            if let Some(ineffective) = &r.ineffective {
                write!(f, "; {ineffective}")?;
            }
            match &check {
                Some(c) if c.passed => write!(
                    f,
                    ". The primary unit already is disrupted: if disruption is chosen it checks morale and passes ({} ≤ {}): no further effect",
                    c.die, c.needed
                ),
                Some(c) => write!(
                    f,
                    ". The primary unit already is disrupted: if disruption is chosen it checks morale and fails ({} > {}): it routs ({}) and all other participating units must retreat",
                    c.die, c.needed, r.rout
                ),
                None if no_mr => write!(
                    f,
                    ". The primary unit already is disrupted: if disruption is chosen it checks morale, and if it fails it routs ({}) and all other participating units must retreat; give its MR ({mr_word}) to roll the check",
                    r.rout
                ),
                None => Ok(()),
            }
        });
        self.effect(Some(side), "retreat-or-disrupt", text);
        if let Some(check) = check {
            self.extend_brief(if check.passed {
                "; already disrupted, it would pass its check"
            } else {
                "; already disrupted, it would rout"
            });
        }
        self.advance_if(side, false);
        Ok(())
    }

    /// The table's words for cavalry on an x result, when the side is cavalry.
    fn cavalry_x(&self, side: Side) -> Option<&'a str> {
        self.rules
            .combat
            .cavalry_on_x
            .as_deref()
            .filter(|_| self.side(side).cavalry)
    }

    fn retreat(&mut self, side: Side, text: impl Display) {
        self.moved[idx(side)] = Moved::Yes;
        self.game(side, Who::All, SaberEffect::Retreated);
        let r = &self.rules.results;
        self.effect(
            Some(side),
            "retreats",
            display_with(|f| {
                write!(f, "{text} {}", r.retreat_hexes)?;
                match &r.ineffective {
                    Some(ineffective) => write!(f, "; {ineffective}"),
                    None => Ok(()),
                }
            }),
        );
        self.advance_if(side, true);
    }

    fn exchange(&mut self) {
        // Cavalry retreats disrupted on an exchange too (standard 9.2).
        let cavalry = [Side::Defender, Side::Attacker].map(|side| {
            self.cavalry_x(side)
                .map(|cav| (side, self.label(side), cav))
        });
        for (side, _, _) in cavalry.iter().flatten() {
            self.moved[idx(*side)] = Moved::Yes;
        }
        for (i, side) in [Side::Defender, Side::Attacker].into_iter().enumerate() {
            if cavalry[i].is_some() {
                self.game(side, Who::All, SaberEffect::Disrupted);
                self.game(side, Who::All, SaberEffect::Retreated);
            } else {
                self.game(side, Who::Primary, SaberEffect::StepLost);
            }
        }
        let step_loss = &self.rules.results.step_loss;
        let text = display_with(|f| {
            write!(
                f,
                "Ex — exchange: the primary unit on each side loses one step ({step_loss}). No units retreat or advance, even if the defender's hex is emptied"
            )?;
            for (_, label, cav) in cavalry.iter().flatten() {
                write!(
                    f,
                    "; the {label} is cavalry, so instead of losing the step: {cav}"
                )?;
            }
            Ok(())
        });
        self.effect(None, "exchange", text);
    }
}
