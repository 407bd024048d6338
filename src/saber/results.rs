//! Carrying out combat results (standard 7.8, QuickPlay 7.5): each code is
//! resolved with the morale die for the primary unit of the affected side,
//! in the meaning the variant's table gives its letter.

use crate::saber::Resolution;
use std::fmt::{self, Display, Write};

use crate::answer::resolution::Tone;
use crate::catalog::Input;
use crate::dice::{DiceSource, Rolled};
use crate::error::CommandError;

use super::SaberRules;
use super::crt::{Cell, Code, Crt, Extra, Lookup, Side};
use super::game::SaberEffect;
use super::morale::{self, Check, MoraleInput};
use crate::text::display_with;

/// Whom of a side an effect on the game falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Who {
    /// The primary unit (7.4, 7.5): step losses, a single disruption.
    Primary,
    /// Every unit and leader named on the side: retreats, routs.
    All,
    /// Every combat unit named on the side (the charging cavalry).
    Combat,
}

/// Whether a side left its hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Moved {
    No,
    /// The owner chooses between retreat and disruption (or a loss).
    Choice,
    Yes,
}

/// One side of a combat as the results see it.
#[derive(Debug, Clone)]
pub(crate) struct SideInfo {
    /// "attacker", "defender", "countercharging cavalry (the defender)".
    pub(crate) label: &'static str,
    pub(crate) morale: Option<MoraleInput>,
    /// The error when a check is needed and no MR was given.
    pub(crate) missing_mr: &'static str,
    /// The word that gives the side its MR, like "`mr=N` after `vs`": what
    /// decides a result whose check has no MR to read the die against.
    pub(crate) mr_word: &'static str,
    pub(crate) disrupted: bool,
    pub(crate) cavalry: bool,
}

/// What happens to a side, in the rule's words.
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    pub(crate) side: Option<Side>,
    /// What happens (`routs`, `may-advance`): with the side, the effect's id.
    pub(crate) kind: &'static str,
    /// The rule's words; left empty under `odds`, which reads only the brief.
    pub(crate) text: String,
    /// Where in its `Ctx`'s briefs the effect in a few words is (its text
    /// up to the first colon), how `odds` counts it: the full text
    /// carries the dice.
    brief: std::ops::Range<usize>,
}

impl Effect {
    /// The id for JSON and outcomes: `defender-routs`, `no-effect`.
    pub(crate) fn id(&self) -> impl Display + '_ {
        display_with(move |f| match self.side {
            Some(side) => write!(f, "{}-{}", side.id(), self.kind),
            None => f.write_str(self.kind),
        })
    }

    /// Whether this is the effect of that id, told without writing the id.
    fn has_id(&self, id: &str) -> bool {
        match self.side {
            Some(side) => {
                id.strip_prefix(side.id())
                    .and_then(|kind| kind.strip_prefix('-'))
                    == Some(self.kind)
            }
            None => id == self.kind,
        }
    }
}

/// A text up to its first colon, written onto `out` and no further.
fn write_brief(out: &mut String, text: impl Display) {
    struct UpToColon<'s>(&'s mut String);
    impl fmt::Write for UpToColon<'_> {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            match s.split_once(':') {
                Some((before, _)) => {
                    self.0.push_str(before);
                    // Stop: nothing after the colon is wanted.
                    Err(fmt::Error)
                }
                None => {
                    self.0.push_str(s);
                    Ok(())
                }
            }
        }
    }
    // An error only says the colon was reached.
    let _ = write!(UpToColon(out), "{text}");
}

/// A modifier row, its label written only when the explanation is kept.
pub(crate) fn modifier(res: &mut Resolution, label: impl Display, value: i64) {
    if !res.quiet {
        res.modifier(label.to_string(), value);
    }
}

/// Show the CRT column a combat lands in, saying when it was clamped.
pub(crate) fn show_column(res: &mut Resolution, crt: &Crt, lookup: &Lookup) {
    if res.quiet {
        return;
    }
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
pub(crate) fn roll_cell<'c>(
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
    if !res.quiet {
        res.row("CRT result", &cell.text);
        res.field("result", cell.text.clone());
    }
    Ok(cell)
}

/// Between the briefs of a combat's effects, as `odds` groups them.
const BRIEF_SEPARATOR: &str = "; ";

/// The effects of a CRT's extras. They apply in addition to any other
/// result, and so outlast a tactic's replacement of the result.
const DEFENDER_FOW: &str = "defender-fow";
const LEADER_CASUALTY: &str = "leader-casualty-check";
const AMMO: &str = "ammo";
/// The ids of the effects a replaced result keeps: the extras, told apart
/// by id, so the defender's fortune of war from an attacker's rout
/// (`defender-fow` too) is kept with them.
const KEPT_IDS: [&str; 4] = [
    DEFENDER_FOW,
    LEADER_CASUALTY,
    AMMO,
    "defender-disrupted-before-combat",
];

/// The kind of effect of standard 7.3 2's failed check: made before the
/// combat, so no result of it replaces it.
pub(crate) const DISRUPTED_BEFORE_COMBAT: &str = "disrupted-before-combat";

/// The kind of effect the winner's advance is: not part of the outcome's id.
const MAY_ADVANCE: &str = "may-advance";

pub(crate) struct Ctx<'a> {
    pub(crate) rules: &'a SaberRules,
    /// For the error when a check needs a morale rating no one gave.
    input: &'a Input<'a>,
    pub(crate) sides: [SideInfo; 2],
    /// The morale die, thrown when the first check a result calls for
    /// reads it (standard 7.3 player note, QuickPlay 7.1 step 3): a result
    /// that calls for no check throws none.
    pub(crate) morale_die: Option<Rolled>,
    /// Whether a morale die may still be thrown: not after a rout before
    /// the combat (standard 7.3 2), which ends the combat.
    pub(crate) morale_may_be_thrown: bool,
    pub(crate) checks: Vec<Check>,
    pub(crate) effects: Vec<Effect>,
    pub(crate) routed: [bool; 2],
    pub(crate) moved: [Moved; 2],
    /// The code that took effect last, for JSON `applied`.
    pub(crate) applied: Vec<&'static str>,
    pub(crate) notes: Vec<String>,
    /// What the results do to the units, as the game keeps it: only what
    /// the results impose; kept empty under `odds`.
    pub(crate) game: Vec<(Side, Who, SaberEffect)>,
    /// The steps each side's primary unit certainly lost to the result
    /// (under `odds` too): what a tactic's second step loss comes after
    /// (7.11).
    pub(crate) steps_lost: [u32; 2],
    /// Some result was left to the owning player's choice (recorded, once
    /// made, with `choose`).
    pub(crate) choice: bool,
    /// Built for `odds`: effects keep only their briefs, and no notes.
    quiet: bool,
    /// The briefs of the effects, in the order made, each after a
    /// separator but the first: while no effect is dropped, how `odds`
    /// groups the combat's results, written once.
    briefs: String,
    /// How many effects were made.
    made: usize,
    /// A night combat (standard 14.2 4): the attacker advances only into
    /// the hex of a routed defender, and otherwise not at all.
    pub(crate) night: bool,
    /// The sides are resolved the other way round (a countercharge against
    /// attackers not charging, standard 9.4): the effects still name each
    /// side by its role in the original attack.
    pub(crate) swapped: bool,
    /// The code being carried out, for a check with no MR.
    pub(super) applying: Code,
    /// A check a result called for found no MR: the side and its code.
    pub(crate) needs_mr: Option<(Side, Code)>,
}

pub(crate) fn idx(side: Side) -> usize {
    match side {
        Side::Attacker => 0,
        Side::Defender => 1,
    }
}

impl<'a> Ctx<'a> {
    /// Results to carry out between two sides, the morale die not yet
    /// thrown; as quiet as the resolution they are for.
    pub(crate) fn new(
        rules: &'a SaberRules,
        input: &'a Input<'a>,
        sides: [SideInfo; 2],
        res: &Resolution,
    ) -> Ctx<'a> {
        Ctx {
            rules,
            input,
            sides,
            morale_die: None,
            morale_may_be_thrown: true,
            checks: Vec::new(),
            effects: Vec::new(),
            routed: [false, false],
            moved: [Moved::No, Moved::No],
            applied: Vec::new(),
            notes: Vec::new(),
            game: Vec::new(),
            steps_lost: [0; 2],
            choice: false,
            quiet: res.quiet,
            // Room for most outcomes, so that writing one seldom grows it.
            briefs: String::with_capacity(128),
            made: 0,
            night: false,
            swapped: false,
            applying: Code::NE,
            needs_mr: None,
        }
    }

    /// The code that took effect, for JSON `applied`: not kept under
    /// `odds`.
    pub(crate) fn mark_applied(&mut self, code: &'static str) {
        if !self.quiet {
            self.applied.push(code);
        }
    }

    /// An effect on the game, kept only when the resolution explains.
    pub(crate) fn game(&mut self, side: Side, who: Who, effect: SaberEffect) {
        if effect == SaberEffect::StepLost && who == Who::Primary {
            self.steps_lost[idx(side)] += 1;
        }
        if !self.quiet {
            self.game.push((side, who, effect));
        }
    }

    /// The effects for JSON `effects`.
    pub(crate) fn effects_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.effects
                .iter()
                .map(|e| serde_json::json!({"side": e.side.map(|s| s.id()), "id": e.id().to_string(), "text": e.text}))
                .collect(),
        )
    }

    /// Outcome id and text from the effects: the first effect is the
    /// outcome, the others lead the notes, marked like it.
    pub(crate) fn finish(&mut self, res: &mut Resolution, tone: Tone) {
        let first = self
            .effects
            .first()
            .map_or_else(String::new, |e| e.text.clone());
        res.set_outcome(self.outcome_id(), first, tone);
        res.odds_group = Some(self.odds_group().into());
        if res.quiet {
            return;
        }
        let mut notes: Vec<String> = self
            .effects
            .iter()
            .skip(1)
            .map(|e| format!("⇒ {}", e.text))
            .collect();
        notes.append(&mut res.notes);
        res.notes = notes;
        for note in &self.notes {
            res.note(note);
        }
    }

    /// The ids of the effects but the advance, joined by `+`.
    fn outcome_id(&self) -> String {
        // Room for a few ids, so that writing them seldom grows it.
        let mut id = String::with_capacity(64);
        for effect in self.effects.iter().filter(|e| e.kind != MAY_ADVANCE) {
            if !id.is_empty() {
                id.push('+');
            }
            // Writing to a String cannot fail.
            let _ = write!(id, "{}", effect.id());
        }
        if id.is_empty() {
            "no-effect".into()
        } else {
            id
        }
    }

    pub(crate) fn side(&self, side: Side) -> &SideInfo {
        &self.sides[idx(side)]
    }

    pub(super) fn label(&self, side: Side) -> &'static str {
        self.side(side).label
    }

    /// Whether an advance is offered.
    pub(crate) fn may_advance(&self) -> bool {
        self.effects.iter().any(|e| e.kind == MAY_ADVANCE)
    }

    /// Drop the advance from the effects: artillery may not advance (8.3).
    pub(crate) fn no_advance(&mut self) {
        self.effects.retain(|e| e.kind != MAY_ADVANCE);
    }

    /// An effect in the rule's words. Under `odds` (`quiet`) the text is
    /// written only up to its brief, and not kept.
    pub(crate) fn effect(&mut self, side: Option<Side>, kind: &'static str, text: impl Display) {
        let side = if self.swapped {
            side.map(Side::other)
        } else {
            side
        };
        if self.made > 0 {
            self.briefs.push_str(BRIEF_SEPARATOR);
        }
        self.made += 1;
        let start = self.briefs.len();
        let text = if self.quiet {
            write_brief(&mut self.briefs, text);
            String::new()
        } else {
            let text = text.to_string();
            write_brief(&mut self.briefs, &text);
            text
        };
        self.effects.push(Effect {
            side,
            kind,
            text,
            brief: start..self.briefs.len(),
        });
    }

    /// Add to the brief of the effect made last.
    pub(super) fn extend_brief(&mut self, more: &str) {
        if let Some(effect) = self.effects.last_mut()
            && effect.brief.end == self.briefs.len()
        {
            self.briefs.push_str(more);
            effect.brief.end = self.briefs.len();
        }
    }

    /// How `odds` groups a combat's results: the brief of every effect.
    fn odds_group(&mut self) -> String {
        if self.made == self.effects.len() {
            // None was dropped: the briefs as written.
            return std::mem::take(&mut self.briefs);
        }
        let mut group = String::with_capacity(self.briefs.len());
        for (i, effect) in self.effects.iter().enumerate() {
            if i > 0 {
                group.push_str(BRIEF_SEPARATOR);
            }
            group.push_str(self.briefs.get(effect.brief.clone()).unwrap_or(""));
        }
        group
    }

    /// A note under the outcome, written only when it is shown.
    pub(super) fn note(&mut self, text: impl Display) {
        if !self.quiet {
            self.notes.push(text.to_string());
        }
    }

    /// A morale check for the primary unit of a side. The first check
    /// throws the morale die; every further check a result calls for reads
    /// that one die (standard 7.3 player note, QuickPlay 7.1 step 3). A
    /// side with no MR still has its die thrown, shown for the line to be
    /// entered again with its MR.
    pub fn check(
        &mut self,
        res: &mut Resolution,
        dice: &mut dyn DiceSource,
        side: Side,
    ) -> Result<Check, CommandError> {
        let (die, first) = match self.morale_die {
            Some(d) => (d, false),
            None => {
                let cuts = morale::cuts(
                    &self.rules.morale,
                    [self.sides[0].morale.as_ref(), self.sides[1].morale.as_ref()],
                );
                let d = if self.morale_may_be_thrown {
                    dice.roll_against(self.rules.morale.die, &cuts)?
                } else {
                    dice.roll(self.rules.morale.die)?
                };
                (d, true)
            }
        };
        if self.morale_may_be_thrown {
            self.morale_die = Some(die);
        }
        let info = &self.sides[idx(side)];
        let Some(input) = &info.morale else {
            // The caller shows what was decided and which word decides
            // the rest ([`Ctx::undecided`]); the error is for the callers
            // that cannot.
            self.needs_mr = Some((side, self.applying));
            return Err(self.input.missing(info.missing_mr));
        };
        let (table, who) = (&self.rules.morale, info.label);
        let label = morale::die_of(who);
        let check = if first {
            morale::check_with(res, table, input, who, die, label)
        } else {
            morale::check_again(res, table, input, who, die, label)
        };
        // For JSON only.
        if !self.quiet {
            self.checks.push(check.clone());
        }
        Ok(check)
    }

    /// The morale die's row when no check read it: thrown for a check
    /// with no MR to read it against, or not thrown at all.
    pub(crate) fn morale_die_row(&self, res: &mut Resolution, undecided: bool) {
        match (self.morale_die, undecided) {
            (Some(die), true) => res.die("morale die (no morale rating to read it against)", die),
            (None, false) if !res.quiet && self.morale_may_be_thrown => {
                res.row(
                    "morale die: the result calls for no morale check",
                    "not thrown",
                );
            }
            _ => {}
        }
    }

    pub(crate) fn retreat_disrupted(&mut self, side: Side, text: impl Display) {
        self.moved[idx(side)] = Moved::Yes;
        self.game(side, Who::All, SaberEffect::Disrupted);
        self.game(side, Who::All, SaberEffect::Retreated);
        let hexes = &self.rules.results.retreat_hexes;
        self.effect(
            Some(side),
            "retreats-disrupted",
            format_args!("{text} ({hexes})"),
        );
        self.advance_if(side, true);
    }

    pub(crate) fn rout(&mut self, side: Side, text: impl Display) {
        self.moved[idx(side)] = Moved::Yes;
        self.routed[idx(side)] = true;
        self.game(side, Who::All, SaberEffect::Routed);
        let r = &self.rules.results;
        self.effect(Some(side), "routs", format_args!("{text}: {}", r.rout));
        if side == Side::Defender {
            let winner = self.label(Side::Attacker);
            let advance = match &self.rules.combat.night_advance {
                Some(night) if self.night => night,
                _ => &r.rout_advance,
            };
            self.effect(
                Some(Side::Attacker),
                MAY_ADVANCE,
                format_args!("the {winner} may advance: {advance}"),
            );
        } else {
            self.advance_if(side, true);
        }
    }

    pub(crate) fn step_loss(&mut self, side: Side, text: impl Display) {
        self.game(side, Who::Primary, SaberEffect::StepLost);
        self.effect(Some(side), "step-loss", text);
    }

    /// A step loss the owning player may still trade for something else
    /// (last stand when the attacker may yet retreat): not recorded.
    pub(crate) fn step_loss_if(&mut self, side: Side, text: impl Display) {
        self.choice = true;
        self.effect(Some(side), "step-loss", text);
    }

    /// The winner may advance when the loser's hex may be vacated.
    pub(super) fn advance_if(&mut self, loser: Side, certain: bool) {
        // At night a defender that does not rout sees the attacker retreat
        // (14.2 4): no advance.
        if loser != Side::Defender || self.night {
            return;
        }
        let winner = self.label(Side::Attacker);
        let when = if certain {
            ""
        } else {
            "if the defender retreats, "
        };
        let advance = &self.rules.results.advance;
        self.effect(
            Some(Side::Attacker),
            MAY_ADVANCE,
            format_args!("{when}the {winner} may advance: {advance}"),
        );
    }

    /// The extras: they apply in addition to any other result.
    pub(crate) fn extras(&mut self, extras: &[Extra], bombardment: bool) {
        for extra in extras {
            self.undefined_note(extra.as_str());
            let r = &self.rules.results;
            match extra {
                // Resolved the other way round (9.4), the side the table
                // reads as defending is the original attacker.
                Extra::DF if self.swapped => self.effect(
                    Some(Side::Defender),
                    "fow",
                    format_args!(
                        "DF — {} (here the original attacker's player: the countercharging cavalry is treated as the attacker, 9.4)",
                        r.df
                    ),
                ),
                Extra::DF => self.effect(None, DEFENDER_FOW, format_args!("DF — {}", r.df)),
                Extra::L => self.effect(None, LEADER_CASUALTY, format_args!("L — {}", r.leader)),
                Extra::Ammo if bombardment => {
                    self.effect(None, AMMO, format_args!("Ammo — {}", r.ammo));
                }
                Extra::Ammo => self.effect(
                    None,
                    AMMO,
                    format_args!(
                        "Ammo — {} (only bombarding or supporting artillery)",
                        r.ammo
                    ),
                ),
            }
        }
    }

    pub(super) fn undefined_note(&mut self, code: &str) {
        if self.quiet || !self.rules.undefined(code) {
            return;
        }
        let note = format!(
            "{code} is not defined by {}: it is read as the standard rules (7.8) read it",
            self.rules.name
        );
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// A result whose morale check has no MR to read the die against
    /// (`needs_mr`): what the cell decided stands shown, and the outcome
    /// says which word decides the rest. Nothing is recorded: the line,
    /// given the MR, is entered again with the same dice.
    pub(crate) fn undecided(&mut self, side: Side, code: Code) {
        self.clear_results();
        let info = self.side(side);
        let (who, word) = (info.label, info.mr_word);
        self.effect(
            Some(side),
            "needs-mr",
            format_args!(
                "{code} — the {who}'s morale check decides this result, and no morale rating was given: give it with {word}, and enter the same dice again"
            ),
        );
    }

    /// Drop every effect on the sides (a tactic replaces the result), keeping the extras.
    pub(crate) fn clear_results(&mut self) {
        self.effects
            .retain(|e| KEPT_IDS.iter().any(|&id| e.has_id(id)));
        self.moved = [Moved::No, Moved::No];
        self.routed = [false, false];
        self.applied.clear();
        self.notes.clear();
        self.game.clear();
        self.choice = false;
    }
}
