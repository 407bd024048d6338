//! The combats of one figure against its opponents in order: the dice of
//! each, what it does, and the tally `odds` counts.

use serde_json::{Value, json};

use crate::answer::resolution::Target;
use crate::dice::{DiceSource, Rolled, Steps};
use crate::error::CommandError;
use crate::mayhem::game::MayhemEffect;
use crate::mayhem::{D6, MayhemTables, Tokens};

use super::side::Side;
use crate::mayhem::Resolution;

/// One combat between the first figure and one opponent.
pub(super) struct Combat<'a> {
    pub(super) outcome: &'static str,
    pub(super) result: Option<&'static str>,
    pub(super) a_killed: bool,
    /// The loser spent a save token instead of dying.
    pub(super) save_spent: bool,
    pub(super) text: String,
    pub(super) opponent: &'a str,
    /// The opponent's figure id, when the line named it.
    pub(super) opponent_figure: Option<&'a str>,
    pub(super) faces: [u32; 2],
    pub(super) skill: [i64; 2],
    pub(super) rerolled_from: [Option<u32>; 2],
    pub(super) armament: [i64; 2],
    /// The results die: face, modified, needed.
    pub(super) results: Option<(u32, i64, i64)>,
}

impl Combat<'_> {
    pub(super) fn effect(&self, a_tokens: Tokens) -> Effect {
        Effect {
            outcome: self.outcome,
            result: self.result,
            a_killed: self.a_killed,
            save_spent: self.save_spent,
            a_spent: Tokens {
                rerolls_spent: a_tokens.rerolls_spent,
                saves_spent: a_tokens.saves_spent,
                ..Tokens::default()
            },
        }
    }

    /// Built only when the resolution is shown: `odds` walks thousands of
    /// combats and reads none of this.
    pub(super) fn json(&self) -> Value {
        let side = |i: usize| {
            let mut j = json!({"die": self.faces[i], "modified": self.skill[i], "armament": self.armament[i]});
            if let Some(first) = self.rerolled_from[i] {
                j["rerolled_from"] = json!(first);
            }
            j
        };
        let mut j = json!({
            "opponent": self.opponent,
            "a": side(0),
            "b": side(1),
            "outcome": self.outcome,
            "result": self.result,
        });
        if let Some(id) = self.opponent_figure {
            j["opponent_figure"] = json!(id);
        }
        if let Some((die, modified, needed)) = self.results {
            j["results"] = json!({"die": die, "modified": modified, "needed": needed});
        }
        if self.save_spent {
            let loser = if self.outcome == "a-hits" {
                self.opponent
            } else {
                "A"
            };
            j["save_spent"] = json!(loser);
        }
        j
    }
}

/// All that one combat's dice and what they do depend on: whether A is
/// still alive and has a token of each kind (it spends at most one of
/// each a combat), and the opponent's numbers — not its name, so that
/// `odds` walks the combats against like opponents once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct CombatKey {
    pub(super) a_killed: bool,
    pub(super) a_reroll: bool,
    pub(super) a_save: bool,
    /// A's modifier against it, its own against A, its armament, its
    /// impact bonus and its tokens.
    pub(super) opponent: (i64, i64, i64, i64, Tokens),
}

impl CombatKey {
    pub(super) fn new(tally: &Tally, a: &Side, b: &Side) -> CombatKey {
        CombatKey {
            a_killed: tally.a_killed,
            a_reroll: tally.a_tokens.rerolls_left() > 0,
            a_save: tally.a_tokens.saves_left() > 0,
            opponent: (
                a.total_modifier_vs(b),
                b.total_modifier_vs(a),
                b.armament,
                b.impact,
                b.tokens,
            ),
        }
    }

    /// A's tokens for one combat: those it may spend in it.
    pub(super) fn a_tokens(&self) -> Tokens {
        Tokens {
            rerolls: i64::from(self.a_reroll),
            saves: i64::from(self.a_save),
            ..Tokens::default()
        }
    }
}

/// A's combats in order, as steps for `run_steps`.
pub(super) struct Combats<'a> {
    pub(super) tables: &'a MayhemTables,
    pub(super) res: Resolution,
    pub(super) a: &'a Side,
    pub(super) bs: &'a [Side],
    /// Each combat's account, kept only when the resolution is shown:
    /// under `odds` a combat is walked once for every way its dice fall.
    pub(super) accounts: Vec<Value>,
    pub(super) texts: Vec<String>,
    /// The figures hit and not killed, each as the text names it, with
    /// whether the line named it (so a follow-up line can name it too).
    pub(super) checks: Vec<(String, bool)>,
}

impl Steps for Combats<'_> {
    type State = Tally;
    type Key = CombatKey;
    type Effect = Option<Effect>;
    type Error = CommandError;

    fn count(&self) -> usize {
        self.bs.len()
    }

    fn key(&self, i: usize, tally: &Tally) -> CombatKey {
        CombatKey::new(tally, self.a, &self.bs[i])
    }

    /// One combat, or none (`None`) once A is killed.
    fn draw(
        &mut self,
        i: usize,
        key: &CombatKey,
        dice: &mut dyn DiceSource,
    ) -> Result<Option<Effect>, CommandError> {
        if key.a_killed {
            return Ok(None);
        }
        let b = &self.bs[i];
        let mut tokens = [key.a_tokens(), b.tokens];
        let several = self.bs.len() > 1;
        let combat = fight_one(&mut self.res, [self.a, b], &mut tokens, several, dice)?;
        if !self.res.quiet {
            self.accounts.push(combat.json());
            self.texts.push(combat.text.clone());
            // Each combat's result falls on the opponent it was fought
            // against (the `vs` clause of the same place), and each token
            // on the figure that carried it.
            let (a, b) = (Target::ACTOR, Target::clause(i, 0));
            tokens[0].spent(&mut self.res, a);
            tokens[1].spent(&mut self.res, b);
            let checker = match combat.outcome {
                "a-hits" => &self.bs[i],
                _ => self.a,
            };
            if combat.result == Some("courage-check") {
                self.checks
                    .push((checker.who().to_string(), checker.id.is_some()));
            }
            let killed = match (combat.outcome, combat.result) {
                ("a-hits", Some("killed")) => {
                    self.res.effect(b, MayhemEffect::Killed);
                    Some(self.bs[i].clone_id())
                }
                ("b-hits", Some("killed")) => {
                    self.res.effect(a, MayhemEffect::Killed);
                    Some(self.a.clone_id())
                }
                _ => None,
            };
            if let Some((who, leader, commander)) = killed {
                crate::mayhem::leader_killed_note(
                    &mut self.res,
                    self.tables,
                    &who,
                    leader,
                    commander,
                );
            }
        }
        Ok(Some(combat.effect(tokens[0])))
    }

    fn apply(&self, tally: Tally, i: usize, effect: &Option<Effect>) -> Tally {
        let tally = tally.after(effect);
        if self.res.quiet {
            tally.for_odds(self.bs.len() - i - 1, self.bs.len() > 1)
        } else {
            tally
        }
    }
}

/// What one combat did, without the dice: all the next combats and the
/// final tally read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Effect {
    pub(super) outcome: &'static str,
    pub(super) result: Option<&'static str>,
    pub(super) a_killed: bool,
    pub(super) save_spent: bool,
    /// The tokens A spent in the combat.
    pub(super) a_spent: Tokens,
}

impl Effect {
    /// What happened without the dice: how `odds` and `simulate` count a
    /// single fight.
    pub(super) fn group(&self, a: &str, opponent: &str) -> String {
        let (winner, loser) = match self.outcome {
            "a-hits" => (a, opponent),
            "b-hits" => (opponent, a),
            _ => return format!("{a} vs {opponent}: tie, neither figure is affected"),
        };
        match (self.result, self.save_spent) {
            (Some("killed"), _) => format!("{winner} hits: {loser} is killed"),
            (_, true) => format!(
                "{winner} hits: {loser} spends a save token instead of dying and checks courage"
            ),
            _ => format!("{winner} hits: {loser} checks courage"),
        }
    }
}

/// Where A stands after its combats so far.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Tally {
    pub(super) a_tokens: Tokens,
    pub(super) a_killed: bool,
    /// Opponents A killed, opponents A hit who check courage instead.
    pub(super) b_killed: usize,
    pub(super) b_checks: usize,
    /// Times A was hit and checks courage.
    pub(super) a_checks: usize,
    /// Combats tied: no results die.
    pub(super) ties: usize,
    pub(super) cancelled: usize,
    pub(super) last: Option<Effect>,
}

impl Tally {
    pub(super) fn new(a_tokens: Tokens) -> Tally {
        Tally {
            a_tokens,
            a_killed: false,
            b_killed: 0,
            b_checks: 0,
            a_checks: 0,
            ties: 0,
            cancelled: 0,
            last: None,
        }
    }

    /// Under `odds` only the outcome and its odds group are read of the
    /// final state, and until then whether A has tokens left for the
    /// combats to come; states that differ in nothing else are made one.
    /// Several opponents are summed up by counts, one by its combat's
    /// group.
    pub(super) fn for_odds(mut self, combats_left: usize, several: bool) -> Tally {
        // A figure spends at most one token of each kind a combat: more
        // than there are combats left is as good as that many.
        let most = i64::try_from(combats_left).unwrap_or(i64::MAX);
        let t = self.a_tokens;
        self.a_tokens = Tokens {
            rerolls: t.rerolls_left().min(most),
            saves: t.saves_left().min(most),
            ..Tokens::default()
        };
        self.cancelled = 0;
        self.ties = 0;
        // The last combat fought is read at the end; until then it is
        // replaced, unless A was killed in it.
        if combats_left > 0 && !self.a_killed {
            self.last = None;
        }
        if let Some(last) = self.last.as_mut() {
            last.a_spent = Tokens::default();
            // Several opponents are counted, not told combat by combat:
            // of the last combat only its outcome id is read.
            if several {
                last.save_spent = false;
                last.result = None;
                last.a_killed = false;
            }
        }
        self
    }

    /// A combat fought, or (`None`) cancelled because A was killed.
    pub(super) fn after(mut self, effect: &Option<Effect>) -> Tally {
        let Some(effect) = effect else {
            self.cancelled += 1;
            return self;
        };
        match (effect.outcome, effect.result) {
            ("a-hits", Some("killed")) => self.b_killed += 1,
            ("a-hits", Some("courage-check")) => self.b_checks += 1,
            ("b-hits", Some("courage-check")) => self.a_checks += 1,
            ("tie", _) => self.ties += 1,
            _ => {}
        }
        self.a_killed = effect.a_killed;
        self.a_tokens.rerolls_spent += effect.a_spent.rerolls_spent;
        self.a_tokens.saves_spent += effect.a_spent.saves_spent;
        self.last = Some(*effect);
        self
    }

    /// Against several opponents what a player asks is whether A lives and
    /// how many it takes with it; the order of the combats would make the
    /// odds a list of thousands of lines.
    pub(super) fn summary(&self, a: &str, opponents: usize) -> String {
        let fate = if self.a_killed {
            format!("{a} is killed")
        } else {
            match self.a_checks {
                0 => format!("{a} survives untouched"),
                1 => format!("{a} survives, checking courage once"),
                n => format!("{a} survives, checking courage {n} times"),
            }
        };
        format!(
            "{fate}; of {opponents} opponents {} killed, {} check courage",
            self.b_killed, self.b_checks
        )
    }
}

pub(super) fn fight_one<'a>(
    res: &mut Resolution,
    sides: [&'a Side; 2],
    tokens: &mut [Tokens; 2],
    several: bool,
    dice: &mut dyn DiceSource,
) -> Result<Combat<'a>, CommandError> {
    let [a, b] = sides;
    if several {
        res.row(format_args!("— {} vs {}", a.who(), b.who()), "");
    }
    let mut skill = [0i64; 2];
    let mut faces = [0u32; 2];
    for (i, (side, die)) in sides
        .into_iter()
        .zip(skill_dice(sides, tokens, dice)?)
        .enumerate()
    {
        let other = sides[1 - i];
        res.die(format_args!("{} skill die", side.who()), die);
        for (label, v) in side.modifiers_vs(other) {
            res.modifier(format_args!("{}: {label}", side.who()), v);
        }
        faces[i] = die.face;
        skill[i] = i64::from(die.face) + side.total_modifier_vs(other);
    }
    // The loser may spend a reroll token on its skill die; each figure at
    // most once a combat.
    let mut rerolled = [None::<u32>; 2];
    for _ in 0..2 {
        let loser = if skill[0] < skill[1] {
            0
        } else if skill[1] < skill[0] {
            1
        } else {
            break;
        };
        if rerolled[loser].is_some() {
            break;
        }
        let other = tokens[1 - loser];
        let answered = rerolled[1 - loser].is_none() && other.rerolls_left() > 0;
        if !tokens[loser].spend_reroll() {
            break;
        }
        let side = sides[loser];
        let opponent = sides[1 - loser];
        // The new face counts only against the other side's score — and
        // face by face where it wins and the other side may reroll in turn
        // against it.
        let beat = skill[1 - loser] - side.total_modifier_vs(opponent);
        let die = dice.roll_against(D6, &cuts_against(beat, answered))?;
        res.die(
            format_args!("{} skill die, reroll token spent", side.who()),
            die,
        );
        rerolled[loser] = Some(faces[loser]);
        faces[loser] = die.face;
        skill[loser] = i64::from(die.face) + side.total_modifier_vs(opponent);
    }
    res.row(format_args!("{} skill score", a.who()), skill[0]);
    res.row(format_args!("{} skill score", b.who()), skill[1]);
    let combat = Combat {
        outcome: "tie",
        result: None,
        a_killed: false,
        save_spent: false,
        text: String::new(),
        opponent: &b.name,
        opponent_figure: b.id.as_deref(),
        faces,
        skill,
        rerolled_from: rerolled,
        armament: [a.armament, b.armament],
        results: None,
    };
    // The outcome's words are read only when the resolution is shown.
    let quiet = res.quiet;
    let say = |words: std::fmt::Arguments| {
        if quiet {
            String::new()
        } else {
            words.to_string()
        }
    };
    if skill[0] == skill[1] {
        res.row(
            format_args!("{} vs {}", a.who(), b.who()),
            "tie: neither figure is affected",
        );
        return Ok(Combat {
            text: say(format_args!(
                "{} vs {}: tie ({} each), neither figure is affected",
                a.who(),
                b.who(),
                skill[0]
            )),
            ..combat
        });
    }
    let a_wins = skill[0] > skill[1];
    let (winner, loser) = if a_wins { (a, b) } else { (b, a) };
    let outcome = if a_wins { "a-hits" } else { "b-hits" };
    // The results die counts only against the armament, less the bonus.
    let needed = (winner.armament - winner.impact).clamp(1, i64::from(D6) + 1) as u32;
    let die = dice.roll_against(D6, &[needed])?;
    res.die(format_args!("{} results die", winner.who()), die);
    if winner.impact != 0 {
        res.modifier(
            format_args!("{}: hero's bonus to the results die", winner.who()),
            winner.impact,
        );
    }
    let results = i64::from(die.face) + winner.impact;
    res.row(
        format_args!("{} armament", winner.who()),
        format_args!("{} — {}", winner.armament, winner.armament_row),
    );
    let kills = results >= winner.armament;
    let loser_tokens = &mut tokens[usize::from(a_wins)];
    let save_spent = kills && loser_tokens.spend_save();
    let text = match (kills, save_spent) {
        (true, false) => say(format_args!(
            "{} hits: results {results} ≥ armament {} — {} is killed (removed from the game)",
            winner.who(),
            winner.armament,
            loser.who()
        )),
        (true, true) => say(format_args!(
            "{} hits: results {results} ≥ armament {} — {} would be killed, but a save token is spent: the death is cancelled and {} checks courage",
            winner.who(),
            winner.armament,
            loser.who(),
            loser.who()
        )),
        _ => say(format_args!(
            "{} hits: results {results} < armament {} — {} checks courage",
            winner.who(),
            winner.armament,
            loser.who()
        )),
    };
    if save_spent {
        res.row(
            format_args!("{} save token spent", loser.who()),
            "death cancelled",
        );
    }
    let result = if kills && !save_spent {
        "killed"
    } else {
        "courage-check"
    };
    res.row(
        format_args!("{} vs {}", a.who(), b.who()),
        format_args!(
            "{} {}",
            loser.who(),
            if result == "killed" {
                "killed"
            } else {
                "checks courage"
            }
        ),
    );
    Ok(Combat {
        outcome,
        result: Some(result),
        a_killed: !a_wins && result == "killed",
        save_spent,
        text,
        results: Some((die.face, results, winner.armament)),
        ..combat
    })
}

/// The two skill dice. Only which side scores higher matters, so they are
/// one opposed roll — unless a reroll token may be spent, when the kept
/// face of the other side counts too.
pub(super) fn skill_dice(
    [a, b]: [&Side; 2],
    tokens: &[Tokens; 2],
    dice: &mut dyn DiceSource,
) -> Result<[Rolled; 2], CommandError> {
    if tokens.iter().any(|t| t.rerolls > 0) {
        // B's face counts against A's score, and face by face only where B
        // wins and A may reroll against it.
        let first = dice.roll(D6)?;
        let beat = i64::from(first.face) + a.total_modifier_vs(b) - b.total_modifier_vs(a);
        let a_may_reroll = tokens[0].rerolls_left() > 0;
        let second = dice.roll_against(D6, &cuts_against(beat, a_may_reroll))?;
        return Ok([first, second]);
    }
    Ok(dice.opposed(D6, a.total_modifier_vs(b) - b.total_modifier_vs(a))?)
}

/// The faces where a die compared with a score changes the outcome: the
/// face that ties (`beat`), the first that wins, and — when what happens
/// next reads the winning face itself — every face above.
pub(super) fn cuts_against(beat: i64, every_winning_face: bool) -> Vec<u32> {
    let top = i64::from(D6) + 1;
    let last = if every_winning_face { top } else { beat + 1 };
    (beat..=last.max(beat + 1))
        .map(|c| c.clamp(1, top) as u32)
        .collect()
}
