//! Carrying out combat results (standard 7.8, QuickPlay 7.5): each code is
//! resolved with the morale die for the primary unit of the affected side,
//! in the meaning the variant's table gives its letter.

use crate::catalog::Input;
use crate::dice::{DiceSource, Rolled};
use crate::error::CommandError;
use crate::resolution::{Resolution, Tone};

use super::crt::{Cell, Code, Crt, Extra, Letter, Lookup, Side};
use super::morale::{self, Check, MoraleInput};
use super::{Procedure, SaberRules};

/// Whether a side left its hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    No,
    /// The owner chooses between retreat and disruption (or a loss).
    Choice,
    Yes,
}

/// One side of a combat as the results see it.
#[derive(Debug, Clone)]
pub struct SideInfo {
    /// "attacker", "defender", "countercharging cavalry (the defender)".
    pub label: String,
    pub morale: Option<MoraleInput>,
    /// The error when a check is needed and no MR was given.
    pub missing_mr: String,
    pub disrupted: bool,
    pub cavalry: bool,
}

/// What happens to a side, in the rule's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    pub side: Option<Side>,
    pub id: String,
    pub text: String,
    /// The effect in a few words (its text up to the first colon), how
    /// `odds` counts it: the full text carries the dice.
    pub brief: String,
}

impl Effect {
    pub fn new(side: Option<Side>, id: String, text: String) -> Effect {
        let brief = text.split(':').next().unwrap_or_default().to_string();
        Effect {
            side,
            id,
            text,
            brief,
        }
    }
}

/// Show the CRT column a combat lands in, saying when it was clamped.
pub fn show_column(res: &mut Resolution, crt: &Crt, lookup: &Lookup) {
    let column = crt.columns[lookup.column];
    res.row(
        if lookup.clamped {
            format!(
                "CRT column (clamped to the outer column; {} is beyond it)",
                lookup.actual
            )
        } else {
            "CRT column".to_string()
        },
        column,
    );
    res.field("column", column.to_string());
}

/// Throw the combat die on the column and read its cell. The die counts
/// only through the column, so `odds` branches once per run of equal cells.
pub fn roll_cell<'c>(
    res: &mut Resolution,
    input: &Input,
    crt: &'c Crt,
    lookup: &Lookup,
    dice: &mut dyn DiceSource,
) -> Result<&'c Cell, CommandError> {
    let combat_die = dice.roll_against(6, crt.changes(lookup.column))?;
    res.die("combat die", combat_die);
    let Some(cell) = crt.cell(combat_die.face, lookup.column) else {
        return Err(input.missing("the CRT has no cell for this die and column"));
    };
    res.row("CRT result", &cell.text);
    res.field("result", cell.text.clone());
    Ok(cell)
}

/// How `odds` groups a combat's results: the brief of every effect.
pub fn odds_group(effects: &[Effect]) -> String {
    let briefs: Vec<&str> = effects.iter().map(|e| e.brief.as_str()).collect();
    briefs.join("; ")
}

pub struct Ctx<'a> {
    pub rules: &'a SaberRules,
    pub sides: [SideInfo; 2],
    /// The morale die, drawn with the combat die.
    pub morale_die: Option<Rolled>,
    /// Whether a check has read the morale die yet.
    pub morale_die_used: bool,
    pub checks: Vec<Check>,
    pub effects: Vec<Effect>,
    pub routed: [bool; 2],
    pub moved: [Moved; 2],
    /// The code that took effect last, for JSON `applied`.
    pub applied: Vec<String>,
    pub notes: Vec<String>,
    /// The variant's word for the missing MR error, with the span.
    pub missing: Box<dyn Fn(&str) -> CommandError + 'a>,
}

pub fn idx(side: Side) -> usize {
    match side {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

impl Ctx<'_> {
    /// The effects for JSON `effects`.
    pub fn effects_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.effects
                .iter()
                .map(|e| serde_json::json!({"side": e.side.map(|s| s.id()), "id": e.id, "text": e.text}))
                .collect(),
        )
    }

    /// Outcome id and text from the effects: the first effect is the
    /// outcome, the others lead the notes, marked like it.
    pub fn finish(&self, res: &mut Resolution, tone: Tone) {
        let ids: Vec<&str> = self
            .effects
            .iter()
            .filter(|e| !e.id.ends_with("may-advance"))
            .map(|e| e.id.as_str())
            .collect();
        let id = if ids.is_empty() {
            "no-effect".to_string()
        } else {
            ids.join("+")
        };
        let first = self
            .effects
            .first()
            .map_or_else(String::new, |e| e.text.clone());
        res.set_outcome(id, first, tone);
        res.odds_group = Some(odds_group(&self.effects).into());
        let mut notes: Vec<String> = self
            .effects
            .iter()
            .skip(1)
            .map(|e| format!("⇒ {}", e.text))
            .collect();
        notes.append(&mut res.notes);
        res.notes = notes;
        for note in &self.notes {
            res.note(note.clone());
        }
    }

    pub fn side(&self, side: Side) -> &SideInfo {
        &self.sides[idx(side)]
    }

    fn label(&self, side: Side) -> String {
        self.side(side).label.clone()
    }

    fn effect(&mut self, side: Option<Side>, id: &str, text: String) {
        let id = match side {
            Some(s) => format!("{}-{id}", s.id()),
            None => id.to_string(),
        };
        self.effects.push(Effect::new(side, id, text));
    }

    /// A morale check for the primary unit of a side, with the morale die
    /// thrown with the combat die: every check a result calls for reads
    /// that one die (standard 7.3 player note, QuickPlay 7.1 step 3).
    pub fn check(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        side: Side,
    ) -> Result<Check, CommandError> {
        let Some(input) = self.side(side).morale.clone() else {
            return Err((self.missing)(&self.side(side).missing_mr));
        };
        let (die, first) = match (self.morale_die, self.morale_die_used) {
            (Some(d), used) => (d, !used),
            (None, _) => (dice.roll(self.rules.morale.die)?, true),
        };
        self.morale_die_used = true;
        let label = format!("morale die ({})", input.who);
        let check = if first {
            morale::check_with(res, &self.rules.morale, &input, die, &label)
        } else {
            morale::check_again(res, &self.rules.morale, &input, die, &label)
        };
        self.checks.push(check.clone());
        Ok(check)
    }

    /// Carry out one result code (with its parenthesized secondary).
    pub fn apply(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        code: Code,
        secondary: Option<Code>,
    ) -> Result<(), CommandError> {
        self.undefined_note(code.as_str());
        let (Some(side), Some(letter)) = (code.side(), code.letter()) else {
            return match code {
                Code::Ex => {
                    self.applied.push(code.to_string());
                    self.exchange();
                    Ok(())
                }
                _ => {
                    self.applied.push(code.to_string());
                    self.effect(
                        None,
                        "no-effect",
                        "NE — no effect: all units on both sides remain in place".into(),
                    );
                    Ok(())
                }
            };
        };
        let procedure = match letter {
            Letter::R => self.rules.results.r,
            Letter::C => self.rules.results.c,
            Letter::X => self.rules.results.x,
            Letter::M => self.rules.results.m,
            Letter::E => self.rules.results.e,
        };
        let who = self.label(side);
        match procedure {
            Procedure::RetreatOrDisrupt | Procedure::RetreatOrDisruptNoCheck => {
                self.applied.push(code.to_string());
                self.retreat_or_disrupt(res, dice, code, side, procedure)?;
            }
            Procedure::CheckThenRetreat | Procedure::CheckThenR => {
                let check = self.check(res, dice, side)?;
                if check.passed {
                    self.passed_then(res, dice, code, secondary, side)?;
                } else {
                    self.applied.push(code.to_string());
                    if procedure == Procedure::CheckThenR {
                        let r = Code::of(side, Letter::R);
                        self.notes.push(format!(
                            "{code}: the primary unit failed its check: treat this as a {r} result"
                        ));
                        self.retreat_or_disrupt(res, dice, r, side, self.rules.results.r)?;
                    } else {
                        self.retreat(side, &format!("{code} — check failed: the {who} retreats"));
                    }
                }
            }
            Procedure::LossOrRetreatDisrupted => {
                self.applied.push(code.to_string());
                if let Some(text) = self.cavalry_x(side) {
                    self.retreat_disrupted(
                        side,
                        &format!("{code} — the {who} is cavalry, so it retreats disrupted: {text}"),
                    );
                } else {
                    self.moved[idx(side)] = Moved::Choice;
                    self.effect(
                        Some(side),
                        "step-loss-or-retreat-disrupted",
                        format!(
                            "{code} — step loss: the owning player has a choice: either the primary unit of the {who} loses one step ({}) or all units of the {who} retreat ({}) AND are disrupted",
                            self.rules.results.step_loss, self.rules.results.retreat_hexes
                        ),
                    );
                    self.advance_if(side, false);
                }
            }
            Procedure::CheckLoss => {
                let check = self.check(res, dice, side)?;
                self.applied.push(code.to_string());
                if let Some(text) = self.cavalry_x(side) {
                    self.retreat_disrupted(
                        side,
                        &format!("{code} — the {who} is cavalry, so it retreats disrupted: {text}"),
                    );
                } else if check.passed {
                    self.moved[idx(side)] = Moved::Choice;
                    self.effect(
                        Some(side),
                        "step-loss",
                        format!(
                            "{code} — the primary unit of the {who} passes its morale check: it takes a loss ({}) and no advance is possible (or, if the owning player chooses, all units of the {who} are disrupted and retreat {})",
                            self.rules.results.step_loss, self.rules.results.retreat_hexes
                        ),
                    );
                } else {
                    self.retreat_disrupted(
                        side,
                        &format!(
                            "{code} — the primary unit of the {who} fails its morale check: all units of the {who} are disrupted (no further effect if already disrupted) and retreat"
                        ),
                    );
                }
            }
            Procedure::CheckRout => {
                let check = self.check(res, dice, side)?;
                if check.passed {
                    self.passed_then(res, dice, code, secondary, side)?;
                } else {
                    self.applied.push(code.to_string());
                    self.rout(side, &format!("{code} — check failed: all participating and stacked units of the {who} rout"));
                    if self.rules.results.rout_gives_fow {
                        let winner = self.label(side.other());
                        self.effect(
                            Some(side.other()),
                            "fow",
                            format!("the {winner}'s player receives a fortune of war (12.4)"),
                        );
                    }
                }
            }
            Procedure::CheckEliminate => {
                let check = self.check(res, dice, side)?;
                self.applied.push(code.to_string());
                if check.passed {
                    self.moved[idx(side)] = Moved::Yes;
                    self.effect(
                        Some(side),
                        "step-loss-and-retreat",
                        format!(
                            "{code} — eliminated, check passed: the primary unit of the {who} loses one step ({}) and any remaining units of the {who} retreat {}",
                            self.rules.results.step_loss, self.rules.results.retreat_hexes
                        ),
                    );
                    self.advance_if(side, true);
                } else {
                    self.rout(
                        side,
                        &format!("{code} — eliminated, check failed: the {who} routs"),
                    );
                }
            }
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
                self.notes.push(format!(
                    "{code}: the check passed, so the parenthesized result ({sec}) applies"
                ));
                self.apply(res, dice, sec, None)
            }
            None => {
                let who = self.label(side);
                self.applied.push("NE".into());
                self.effect(
                    Some(side),
                    "holds",
                    format!(
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
        let mut text = format!(
            "{code} — retreat: the owning player chooses: either the primary unit of the {who} is disrupted (11.1), or all units of the {who} retreat {}",
            r.retreat_hexes
        );
        if let Some(ineffective) = &r.ineffective {
            text.push_str(&format!("; {ineffective}"));
        }
        let mut brief = None;
        if procedure == Procedure::RetreatOrDisrupt && self.side(side).disrupted {
            let check = self.check(res, dice, side)?;
            brief = Some(if check.passed {
                "; already disrupted, it would pass its check"
            } else {
                "; already disrupted, it would rout"
            });
            if check.passed {
                text.push_str(&format!(
                    ". The primary unit already is disrupted: if disruption is chosen it checks morale and passes ({} ≤ {}): no further effect",
                    check.die, check.needed
                ));
            } else {
                text.push_str(&format!(
                    ". The primary unit already is disrupted: if disruption is chosen it checks morale and fails ({} > {}): it routs ({}) and all other participating units must retreat",
                    check.die, check.needed, r.rout
                ));
            }
        }
        self.effect(Some(side), "retreat-or-disrupt", text);
        if let (Some(extra), Some(effect)) = (brief, self.effects.last_mut()) {
            effect.brief.push_str(extra);
        }
        self.advance_if(side, false);
        Ok(())
    }

    fn cavalry_x(&self, side: Side) -> Option<String> {
        self.rules
            .combat
            .cavalry_on_x
            .clone()
            .filter(|_| self.side(side).cavalry)
    }

    fn retreat(&mut self, side: Side, text: &str) {
        self.moved[idx(side)] = Moved::Yes;
        let mut text = format!("{text} {}", self.rules.results.retreat_hexes);
        if let Some(ineffective) = &self.rules.results.ineffective {
            text.push_str(&format!("; {ineffective}"));
        }
        self.effect(Some(side), "retreats", text);
        self.advance_if(side, true);
    }

    pub fn retreat_disrupted(&mut self, side: Side, text: &str) {
        self.moved[idx(side)] = Moved::Yes;
        self.effect(
            Some(side),
            "retreats-disrupted",
            format!("{text} ({})", self.rules.results.retreat_hexes),
        );
        self.advance_if(side, true);
    }

    pub fn rout(&mut self, side: Side, text: &str) {
        self.moved[idx(side)] = Moved::Yes;
        self.routed[idx(side)] = true;
        self.effect(
            Some(side),
            "routs",
            format!("{text}: {}", self.rules.results.rout),
        );
        if side == Side::Defender {
            let winner = self.label(Side::Attacker);
            self.effect(
                Some(Side::Attacker),
                "may-advance",
                format!(
                    "the {winner} may advance: {}",
                    self.rules.results.rout_advance
                ),
            );
        } else {
            self.advance_if(side, true);
        }
    }

    pub fn step_loss(&mut self, side: Side, text: &str) {
        self.effect(Some(side), "step-loss", text.to_string());
    }

    fn exchange(&mut self) {
        let mut text = format!(
            "Ex — exchange: the primary unit on each side loses one step ({}). No units retreat or advance, even if the defender's hex is emptied",
            self.rules.results.step_loss
        );
        for side in [Side::Defender, Side::Attacker] {
            if let Some(cav) = self.cavalry_x(side) {
                self.moved[idx(side)] = Moved::Yes;
                text.push_str(&format!("; the {} is cavalry: {cav}", self.label(side)));
            }
        }
        self.effect(None, "exchange", text);
    }

    /// The winner may advance when the loser's hex may be vacated.
    fn advance_if(&mut self, loser: Side, certain: bool) {
        if loser != Side::Defender {
            return;
        }
        let winner = self.label(Side::Attacker);
        let when = if certain {
            ""
        } else {
            "if the defender retreats, "
        };
        self.effect(
            Some(Side::Attacker),
            "may-advance",
            format!(
                "{when}the {winner} may advance: {}",
                self.rules.results.advance
            ),
        );
    }

    /// The extras: they apply in addition to any other result.
    pub fn extras(&mut self, extras: &[Extra], bombardment: bool) {
        for extra in extras {
            self.undefined_note(extra.as_str());
            let r = &self.rules.results;
            let text = match extra {
                Extra::DF => format!("DF — {}", r.df),
                Extra::L => format!("L — {}", r.leader),
                Extra::Ammo if bombardment => format!("Ammo — {}", r.ammo),
                Extra::Ammo => format!(
                    "Ammo — {} (only bombarding or supporting artillery)",
                    r.ammo
                ),
            };
            let id = match extra {
                Extra::DF => "defender-fow",
                Extra::L => "leader-casualty-check",
                Extra::Ammo => "ammo",
            };
            self.effects.push(Effect::new(None, id.into(), text));
        }
    }

    fn undefined_note(&mut self, code: &str) {
        if self.rules.undefined(code) {
            let note = format!(
                "{code} is not defined by {}: it is read as the standard rules (7.8) read it",
                self.rules.name
            );
            if !self.notes.contains(&note) {
                self.notes.push(note);
            }
        }
    }

    /// Drop every effect on the sides (a tactic replaces the result), keeping the extras.
    pub fn clear_results(&mut self) {
        self.effects.retain(|e| {
            matches!(
                e.id.as_str(),
                "defender-fow" | "leader-casualty-check" | "ammo"
            )
        });
        self.moved = [Moved::No, Moved::No];
        self.routed = [false, false];
        self.applied.clear();
        self.notes.clear();
    }
}
