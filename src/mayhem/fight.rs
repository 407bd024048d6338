//! Hand-to-hand combat: each figure rolls a skill die plus the melee
//! modifiers; the higher hits, a tie has no effect. The winner's results die
//! equal to or higher than its own armament removes the loser, otherwise
//! the loser checks courage. A figure fighting several opponents
//! (`fight A vs B vs C`) fights them in order; if it is killed, the combats
//! not yet fought are cancelled.

use serde_json::{Value, json};

use std::rc::Rc;

use super::game::MayhemEffect;
use super::{Resolution, VerbDoc};
use crate::bind::{Bound, Vocab};
use crate::catalog::Input;
use crate::command::ClauseKind;
use crate::dice::{DiceSource, Rolled, Steps, run_steps};
use crate::error::{BindError, CommandError};
use crate::resolution::Target;
use crate::resolution::Tone;

use super::game::LEADER;
use super::{Counted, D6, MayhemTables, Tokens, named_figures, one_figure, token_words};

const ARMAMENT: &str = "an armament";
/// Most opponents one figure may fight on a line.
pub const MAX_OPPONENTS: usize = 8;
/// Words every side takes besides the table rows; a table row may not reuse them.
pub const SIDE_WORDS: &[&str] = &[
    "armament",
    "skill",
    "impact",
    "saves",
    "rerolls",
    super::COMMANDER,
];
const MAX_BONUS: i64 = 6;
/// A figure's bonuses in melee, as its list gives them (`bonus.melee`).
const MELEE_SKILL: &str = "melee-skill";
const MELEE_IMPACT: &str = "melee-impact";

fn side_vocab(tables: &MayhemTables) -> Vocab {
    let t = &tables.fight;
    let mut vocab = Vocab::new();
    for m in &t.modifier {
        vocab = vocab.flag(&m.keyword, m.row.clone());
        for alias in &m.aliases {
            vocab = vocab.flag(alias, format!("same as `{}`: {}", m.keyword, m.row));
        }
    }
    for a in &t.armament {
        let default = if a.default { " (the default)" } else { "" };
        vocab = vocab.choice(
            ARMAMENT,
            &a.keyword,
            format!("armament {}: {}{default}", a.value, a.row),
        );
    }
    vocab = vocab
        .number(
            "armament",
            1,
            i64::from(D6),
            "armament value given as a number (`armament=4`)",
        )
        .number(
            "skill",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the skill die (`skill+1`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            "impact",
            0,
            MAX_BONUS,
            format!(
                "hero's bonus to the results die when this figure hits (`impact+1`): {}",
                tables.heroes.bonus
            ),
        )
        .number(
            MELEE_SKILL,
            0,
            MAX_BONUS,
            "hero's bonus to the skill die in melee (an army list's `bonus.melee`)",
        )
        .number(
            MELEE_IMPACT,
            0,
            MAX_BONUS,
            "hero's bonus to the results die in melee (an army list's `bonus.melee`)",
        )
        .flag(
            super::COMMANDER,
            format!(
                "the commander of the contingent, a leader (+1 if leader): if killed, {} (a figure in a game brings it)",
                tables.courage.commander.row.to_lowercase()
            ),
        )
        // A typed bonus stands for the hero's: it displaces the list's.
        .slot(&["skill", MELEE_SKILL])
        .slot(&["impact", MELEE_IMPACT]);
    token_words(
        vocab,
        &tables.heroes,
        "one is spent automatically to reroll this figure's skill die when it loses (the reroll stands)",
    )
}

pub fn verb(t: &Rc<MayhemTables>) -> VerbDoc {
    let tables: &MayhemTables = t;
    let vocab = side_vocab(tables);
    VerbDoc::new(
        Some(super::MAYHEM),
        "fight",
        "fight A-words… vs B-words… [vs C-words…]",
        "Hand-to-hand: opposed skill dice with the melee modifiers; the winner's results die against its armament (6/5/4) kills, else the loser checks courage.",
        vocab.clone(),
        {
            let t = t.clone();
            move |input: &Input, dice: &mut dyn DiceSource| resolve(&t, input, dice)
        },
    )
    .clause(ClauseKind::Vs, vocab, MAX_OPPONENTS)
    .examples(&[
        "fight leader shock vs armed",
        "fight specialist superior vs unarmed rolled 4 4 6",
        "fight rear bayonet vs leader rolled 2 5 6",
        "fight specialist saves=1 vs armed vs armed rear",
    ])
}

/// One figure's facts from its words.
struct Side {
    name: String,
    /// The figure of the game it is, when named.
    id: Option<String>,
    /// It leads (a company or warband, or the contingent).
    leader: bool,
    commander: bool,
    modifiers: Vec<(String, i64)>,
    armament: i64,
    armament_row: String,
    impact: i64,
    tokens: Tokens,
}

impl Side {
    fn new(
        name: String,
        id: Option<String>,
        words: &Bound,
        tables: &MayhemTables,
    ) -> Result<Side, CommandError> {
        let t = &tables.fight;
        let mut modifiers = Vec::new();
        // The commander is a leader ("designate one leader to serve as his
        // personal figure and commander of the contingent").
        let commander = words.has(super::COMMANDER);
        for m in &t.modifier {
            if std::iter::once(&m.keyword)
                .chain(&m.aliases)
                .any(|k| words.has(k))
                || (commander && m.keyword == LEADER)
            {
                modifiers.push((m.row.clone(), m.value));
            }
        }
        if let Some(n) = words.value("skill").filter(|n| *n != 0) {
            modifiers.push(("hero's bonus to the skill die".to_string(), n));
        }
        if let Some(n) = words.value(MELEE_SKILL).filter(|n| *n != 0) {
            modifiers.push(("hero's bonus to the skill die in melee".to_string(), n));
        }
        let (armament, armament_row) = match (words.choice(ARMAMENT), words.value("armament")) {
            (Some((name, _)), Some(_)) => {
                let span = words.span_of("armament").unwrap_or_default();
                return Err(BindError::Conflict {
                    span,
                    first: name.to_string(),
                    second: "armament".into(),
                    group: ARMAMENT.into(),
                }
                .into());
            }
            (None, Some(n)) => (n, format!("armament {n} (given)")),
            (Some((name, _)), None) => t
                .armament
                .iter()
                .find(|a| a.keyword == name)
                .map(|a| (a.value, a.keyword.clone()))
                .unwrap_or((i64::from(D6), name.to_string())),
            (None, None) => t
                .armament
                .iter()
                .find(|a| a.default)
                .map(|a| (a.value, format!("{} (the default)", a.keyword)))
                .unwrap_or((i64::from(D6), "default".into())),
        };
        Ok(Side {
            name,
            id,
            leader: words.has(LEADER) || commander,
            commander,
            modifiers,
            armament,
            armament_row,
            impact: words
                .value("impact")
                .unwrap_or(0)
                .saturating_add(words.value(MELEE_IMPACT).unwrap_or(0)),
            tokens: Tokens::from_bound(words),
        })
    }

    fn total_modifier(&self) -> i64 {
        self.modifiers.iter().map(|(_, v)| v).sum()
    }

    /// Who it is, for a note, and whether it led.
    fn clone_id(&self) -> (String, bool, bool) {
        let who = self.id.clone().unwrap_or_else(|| self.name.clone());
        (who, self.leader, self.commander)
    }
}

/// One combat between the first figure and one opponent.
struct Combat<'a> {
    outcome: &'static str,
    result: Option<&'static str>,
    a_killed: bool,
    /// The loser spent a save token instead of dying.
    save_spent: bool,
    text: String,
    opponent: &'a str,
    faces: [u32; 2],
    skill: [i64; 2],
    rerolled_from: [Option<u32>; 2],
    armament: [i64; 2],
    /// The results die: face, modified, needed.
    results: Option<(u32, i64, i64)>,
}

impl Combat<'_> {
    fn effect(&self, a_tokens: Tokens) -> Effect {
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
    fn json(&self) -> Value {
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

/// The figures of one command, worked out from their words once: `odds`
/// runs the resolver once for every outcome.
struct Figures {
    a: Side,
    bs: Vec<Side>,
}

impl Figures {
    fn new(tables: &MayhemTables, input: &Input) -> Result<Figures, CommandError> {
        // One figure a side: each opponent has a `vs` of its own, and its
        // combat's result falls on it.
        super::named_once(input)?;
        let instead =
            "one figure fights on each side: give each opponent its own `vs` (`fight A vs B vs C`)";
        one_figure(&named_figures(input, None), "the attacking side", instead)?;
        for i in 0..input.command.clauses.len() {
            one_figure(
                &named_figures(input, Some(i)),
                "one side of a `vs`",
                instead,
            )?;
        }
        let opponents: Vec<&Bound> = input
            .clauses
            .iter()
            .filter(|(k, _, _)| *k == ClauseKind::Vs)
            .map(|(_, _, b)| b)
            .collect();
        if opponents.is_empty() {
            return Err(input.missing(
                "`fight` needs the opponent after `vs`: `fight leader vs armed` (both sides may be empty words: `fight vs`)",
            ));
        }
        let several = opponents.len() > 1;
        let id_on =
            |clause: Option<usize>| input.named_on(clause).next().map(|n| n.facts.id.clone());
        let mut bs = Vec::new();
        for (i, words) in opponents.iter().enumerate() {
            let name = if several {
                format!("B{}", i + 1)
            } else {
                "B".into()
            };
            bs.push(Side::new(name, id_on(Some(i)), words, tables)?);
        }
        Ok(Figures {
            a: Side::new("A".into(), id_on(None), &input.words, tables)?,
            bs,
        })
    }
}

fn resolve(
    tables: &MayhemTables,
    input: &Input,
    dice: &mut dyn DiceSource,
) -> Result<Resolution, CommandError> {
    let Figures { a, bs } = input.memoized(|| Figures::new(tables, input))?;
    let mut dice = Counted::new(dice);
    let dice = &mut dice;
    let several = bs.len() > 1;
    let heading = if several {
        format!("hand-to-hand, A against {} opponents in order", bs.len())
    } else {
        "hand-to-hand, A vs B".to_string()
    };
    let res = input.resolution("fight", heading);
    let quiet = res.quiet;
    let mut combats = Combats {
        tables,
        res,
        a,
        bs,
        accounts: Vec::new(),
        texts: Vec::new(),
    };
    let tally = run_steps(dice, Tally::new(a.tokens), &mut combats)?;
    let Combats {
        mut res,
        accounts: combats,
        mut texts,
        ..
    } = combats;
    if tally.cancelled > 0 {
        res.row(
            "combats cancelled",
            format_args!("{} (A was killed)", tally.cancelled),
        );
        texts.push(cancelled_text(tally.cancelled));
    }
    let (outcome, result) = tally
        .last
        .as_ref()
        .map_or(("tie", None), |l| (l.outcome, l.result));
    res.field("result", result.map_or(Value::Null, Value::from));
    if !quiet {
        if let Some(only) = combats.first().filter(|_| !several) {
            for key in ["a", "b"] {
                res.field(key, only[key].clone());
            }
        }
        res.field("combats", Value::Array(combats));
    }
    if !quiet {
        res.field("cancelled", tally.cancelled);
        if tally.a_tokens.any() {
            res.field("a_tokens", tally.a_tokens.json());
        }
    }
    let tone = if tally.a_killed {
        Tone::Bad
    } else if outcome == "tie" {
        Tone::Neutral
    } else {
        Tone::Good
    };
    res.set_outcome(outcome, texts.join("; "), tone);
    res.odds_group = Some(if several {
        tally.summary(bs.len()).into()
    } else {
        tally
            .last
            .map_or_else(String::new, |l| l.group(&bs[0].name))
            .into()
    });
    if tally.a_checks + tally.b_checks > 0 {
        res.note("A figure hit but not killed checks courage as in fire combat (`courage VALUE`).");
    }
    // Each combat may throw two skill dice, a reroll for each side that
    // holds a token (A one a combat, as long as it has them), and a
    // results die.
    let k = bs.len();
    let a_rerolls = usize::try_from(a.tokens.rerolls_left()).unwrap_or(0).min(k);
    let most = 3 * k + a_rerolls + bs.iter().filter(|b| b.tokens.rerolls_left() > 0).count();
    dice.unused(input, &mut res, most, || {
        let mut why = Vec::new();
        if tally.ties > 0 {
            why.push(if k == 1 {
                "the skill dice tied, so no results die was thrown".to_string()
            } else {
                format!(
                    "{} combat(s) tied, so no results die was thrown for them",
                    tally.ties
                )
            });
        }
        if tally.cancelled > 0 {
            why.push(format!(
                "A was killed, so the {} combat(s) not yet fought threw no dice",
                tally.cancelled
            ));
        }
        if why.is_empty() || a.tokens.rerolls > 0 || bs.iter().any(|b| b.tokens.rerolls > 0) {
            why.push("a reroll token is spent only by the side that loses its skill die".into());
        }
        why.join("; ")
    })?;
    Ok(res)
}

fn cancelled_text(cancelled: usize) -> String {
    format!("A is killed: the {cancelled} combat(s) not yet fought are cancelled")
}

/// All that one combat's dice and what they do depend on: whether A is
/// still alive and has a token of each kind (it spends at most one of
/// each a combat), and the opponent's numbers — not its name, so that
/// `odds` walks the combats against like opponents once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct CombatKey {
    a_killed: bool,
    a_reroll: bool,
    a_save: bool,
    opponent: (i64, i64, i64, Tokens),
}

impl CombatKey {
    fn new(tally: &Tally, b: &Side) -> CombatKey {
        CombatKey {
            a_killed: tally.a_killed,
            a_reroll: tally.a_tokens.rerolls_left() > 0,
            a_save: tally.a_tokens.saves_left() > 0,
            opponent: (b.total_modifier(), b.armament, b.impact, b.tokens),
        }
    }

    /// A's tokens for one combat: those it may spend in it.
    fn a_tokens(&self) -> Tokens {
        Tokens {
            rerolls: i64::from(self.a_reroll),
            saves: i64::from(self.a_save),
            ..Tokens::default()
        }
    }
}

/// A's combats in order, as steps for `run_steps`.
struct Combats<'a> {
    tables: &'a MayhemTables,
    res: Resolution,
    a: &'a Side,
    bs: &'a [Side],
    /// Each combat's account, kept only when the resolution is shown:
    /// under `odds` a combat is walked once for every way its dice fall.
    accounts: Vec<Value>,
    texts: Vec<String>,
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
        CombatKey::new(tally, &self.bs[i])
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
                super::leader_killed_note(&mut self.res, self.tables, &who, leader, commander);
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
struct Effect {
    outcome: &'static str,
    result: Option<&'static str>,
    a_killed: bool,
    save_spent: bool,
    /// The tokens A spent in the combat.
    a_spent: Tokens,
}

impl Effect {
    /// What happened without the dice: how `odds` and `simulate` count a
    /// single fight.
    fn group(&self, opponent: &str) -> String {
        let (winner, loser) = match self.outcome {
            "a-hits" => ("A", opponent),
            "b-hits" => (opponent, "A"),
            _ => return format!("A vs {opponent}: tie, neither figure is affected"),
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
struct Tally {
    a_tokens: Tokens,
    a_killed: bool,
    /// Opponents A killed, opponents A hit who check courage instead.
    b_killed: usize,
    b_checks: usize,
    /// Times A was hit and checks courage.
    a_checks: usize,
    /// Combats tied: no results die.
    ties: usize,
    cancelled: usize,
    last: Option<Effect>,
}

impl Tally {
    fn new(a_tokens: Tokens) -> Tally {
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
    fn for_odds(mut self, combats_left: usize, several: bool) -> Tally {
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
    fn after(mut self, effect: &Option<Effect>) -> Tally {
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
    fn summary(&self, opponents: usize) -> String {
        let fate = if self.a_killed {
            "A is killed".to_string()
        } else {
            match self.a_checks {
                0 => "A survives untouched".to_string(),
                1 => "A survives, checking courage once".to_string(),
                n => format!("A survives, checking courage {n} times"),
            }
        };
        format!(
            "{fate}; of {opponents} opponents {} killed, {} check courage",
            self.b_killed, self.b_checks
        )
    }
}

fn fight_one<'a>(
    res: &mut Resolution,
    sides: [&'a Side; 2],
    tokens: &mut [Tokens; 2],
    several: bool,
    dice: &mut dyn DiceSource,
) -> Result<Combat<'a>, CommandError> {
    let [a, b] = sides;
    if several {
        res.row(format_args!("— A vs {}", b.name), "");
    }
    let mut skill = [0i64; 2];
    let mut faces = [0u32; 2];
    for (i, (side, die)) in sides
        .into_iter()
        .zip(skill_dice(sides, tokens, dice)?)
        .enumerate()
    {
        res.die(format_args!("{} skill die", side.name), die);
        for (label, v) in &side.modifiers {
            res.modifier(format_args!("{}: {label}", side.name), *v);
        }
        faces[i] = die.face;
        skill[i] = i64::from(die.face) + side.total_modifier();
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
        // The new face counts only against the other side's score — and
        // face by face where it wins and the other side may reroll in turn
        // against it.
        let beat = skill[1 - loser] - side.total_modifier();
        let die = dice.roll_against(D6, &cuts_against(beat, answered))?;
        res.die(
            format_args!("{} skill die, reroll token spent", side.name),
            die,
        );
        rerolled[loser] = Some(faces[loser]);
        faces[loser] = die.face;
        skill[loser] = i64::from(die.face) + side.total_modifier();
    }
    res.row(format_args!("{} skill score", a.name), skill[0]);
    res.row(format_args!("{} skill score", b.name), skill[1]);
    let combat = Combat {
        outcome: "tie",
        result: None,
        a_killed: false,
        save_spent: false,
        text: String::new(),
        opponent: &b.name,
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
            format_args!("A vs {}", b.name),
            "tie: neither figure is affected",
        );
        return Ok(Combat {
            text: say(format_args!(
                "A vs {}: tie ({} each), neither figure is affected",
                b.name, skill[0]
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
    res.die(format_args!("{} results die", winner.name), die);
    if winner.impact != 0 {
        res.modifier(
            format_args!("{}: hero's bonus to the results die", winner.name),
            winner.impact,
        );
    }
    let results = i64::from(die.face) + winner.impact;
    res.row(
        format_args!("{} armament", winner.name),
        format_args!("{} — {}", winner.armament, winner.armament_row),
    );
    let kills = results >= winner.armament;
    let loser_tokens = &mut tokens[usize::from(a_wins)];
    let save_spent = kills && loser_tokens.spend_save();
    let text = match (kills, save_spent) {
        (true, false) => say(format_args!(
            "{} hits: results {results} ≥ armament {} — {} is killed (removed from the game)",
            winner.name, winner.armament, loser.name
        )),
        (true, true) => say(format_args!(
            "{} hits: results {results} ≥ armament {} — {} would be killed, but a save token is spent: the death is cancelled and {} checks courage",
            winner.name, winner.armament, loser.name, loser.name
        )),
        _ => say(format_args!(
            "{} hits: results {results} < armament {} — {} checks courage",
            winner.name, winner.armament, loser.name
        )),
    };
    if save_spent {
        res.row(
            format_args!("{} save token spent", loser.name),
            "death cancelled",
        );
    }
    let result = if kills && !save_spent {
        "killed"
    } else {
        "courage-check"
    };
    res.row(
        format_args!("A vs {}", b.name),
        format_args!(
            "{} {}",
            loser.name,
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
fn skill_dice(
    [a, b]: [&Side; 2],
    tokens: &[Tokens; 2],
    dice: &mut dyn DiceSource,
) -> Result<[Rolled; 2], CommandError> {
    if tokens.iter().any(|t| t.rerolls > 0) {
        // B's face counts against A's score, and face by face only where B
        // wins and A may reroll against it.
        let first = dice.roll(D6)?;
        let beat = i64::from(first.face) + a.total_modifier() - b.total_modifier();
        let a_may_reroll = tokens[0].rerolls_left() > 0;
        let second = dice.roll_against(D6, &cuts_against(beat, a_may_reroll))?;
        return Ok([first, second]);
    }
    Ok(dice.opposed(D6, a.total_modifier() - b.total_modifier())?)
}

/// The faces where a die compared with a score changes the outcome: the
/// face that ties (`beat`), the first that wins, and — when what happens
/// next reads the winning face itself — every face above.
fn cuts_against(beat: i64, every_winning_face: bool) -> Vec<u32> {
    let top = i64::from(D6) + 1;
    let last = if every_winning_face { top } else { beat + 1 };
    (beat..=last.max(beat + 1))
        .map(|c| c.clamp(1, top) as u32)
        .collect()
}
