//! What a game keeps of Musket Mayhem figures: killed or run off, hero
//! tokens spent, the dice for the downed after the battle, weapons
//! unloaded and guns' smoke puffs, what each did this turn; the turn's
//! sequence of play and the previous one; the facts a figure brings to a
//! command; the roster.

mod campaign;
mod facts;
mod printed;
mod roster;
mod turn;

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

pub(crate) use campaign::{CAMPAIGN_SECTION, CampaignTable};

use super::army::{Figure, List};
use super::{Downed, MayhemTables};
use crate::answer::resolution::SystemEffect;
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::command::{Command, WordKind};
use crate::system::{GameState, GameView, Roster};

/// What one resolution does to a figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum MayhemEffect {
    /// Killed, and removed from the game.
    Killed,
    /// Ran off the board after a failed courage check.
    RanOff,
    /// A hero's save token spent.
    SaveSpent,
    /// A hero's reroll token spent.
    RerollSpent,
    /// A downed figure diced for after the battle.
    AfterBattle { outcome: Downed },
    /// Its gunpowder weapon fired: unloaded until reloaded.
    Unloaded,
    /// Its gun fired: this many smoke puffs placed.
    Smoke { puffs: u32 },
    /// It reloaded its weapon as its action this turn.
    Reloaded,
    /// Its crew removed one of its gun's smoke puffs this turn.
    SmokeCleared,
    /// It moved this turn.
    Moved,
    /// Its group failed the order to charge this turn and stood still
    /// instead: it charges no more this turn.
    StoodStill,
    /// It shot with a weapon that is never unloaded (a bow) this turn:
    /// "may shoot once".
    Shot,
    /// The order the sides play in this turn (on the game): each side by
    /// its place among the game's Musket Mayhem armies.
    Sequence { order: Vec<usize> },
}

impl SystemEffect for MayhemEffect {
    fn describe(&self, unit: Option<&str>) -> String {
        let u = unit.unwrap_or("the figure");
        match self {
            MayhemEffect::Killed => format!("game: {u} is killed"),
            MayhemEffect::RanOff => format!("game: {u} runs off the board"),
            MayhemEffect::SaveSpent => format!("game: {u} spends a save token"),
            MayhemEffect::RerollSpent => format!("game: {u} spends a reroll token"),
            MayhemEffect::AfterBattle { outcome } => {
                format!("game: after the battle {u} is {}", downed_word(*outcome))
            }
            MayhemEffect::Unloaded => {
                format!("game: {u}'s weapon is unloaded until {u} reloads (`reload {u}`)")
            }
            MayhemEffect::Smoke { puffs } => format!(
                "game: {u}'s gun places {puffs} smoke puff(s); its crew removes them (`reload {u} CREW…`)"
            ),
            MayhemEffect::Reloaded => format!("game: {u} reloads: its weapon is loaded"),
            MayhemEffect::SmokeCleared => format!("game: {u}'s crew removes a smoke puff"),
            MayhemEffect::Moved => format!("game: {u} has moved this turn"),
            MayhemEffect::StoodStill => format!(
                "game: {u} stands still instead of charging, and moves no more this turn (`next-turn`)"
            ),
            MayhemEffect::Shot => {
                format!("game: {u} has shot this turn, and shoots again next turn (`next-turn`)")
            }
            MayhemEffect::Sequence { order } => format!(
                "game: this turn's sequence is {}{}",
                order
                    .iter()
                    .map(|i| side_name(*i))
                    .collect::<Vec<_>>()
                    .join(", then "),
                // Only two sides dice for initiative, and only a tie of
                // theirs repeats a sequence.
                if order.len() == 2 {
                    " (a tie next turn repeats it)"
                } else {
                    ""
                }
            ),
        }
    }
}

/// A side by its place among the game's Musket Mayhem armies: `side a`.
pub(crate) fn side_name(i: usize) -> String {
    match u8::try_from(i).ok().filter(|n| *n < 26) {
        Some(n) => format!("side {}", char::from(b'a' + n)),
        None => format!("side {}", i.saturating_add(1)),
    }
}

pub(crate) fn downed_word(d: Downed) -> &'static str {
    match d {
        Downed::Wounded => "wounded",
        Downed::Dead => "dead",
    }
}

/// The fact words a figure brings that say what became of it, for the
/// verbs that may name the fallen (`post-battle`).
pub(crate) const DOWNED: &str = "downed";
pub(crate) const RAN_OFF: &str = "ran-off";
/// A downed figure already diced for after the battle: diced for once.
pub(crate) const DICED: &str = "diced-for";

/// The fact word of a figure that leads ("+1 if leader"): `courage` reads
/// it beside the figure's courage value as a mark, not as a rank.
pub(crate) const LEADER: &str = "leader";

/// Fact words of a figure's gunpowder weapon and what it did this turn.
pub(crate) const LOADED: &str = "loaded";
pub(crate) const UNLOADED: &str = "unloaded";
pub(crate) const SMOKE: &str = "smoke";
pub(crate) const SMOKE_CLEARED: &str = "smoke-cleared";
pub(crate) const MOVED: &str = "moved";
pub(crate) const RELOADED: &str = "reloaded";
/// The fact word of a figure whose group failed the order to charge this
/// turn: "they stand still instead".
pub(crate) const STOOD_STILL: &str = "stood-still";
/// The fact of a figure in a group of its list whose highest courage value
/// in play is above its own: the rate a check for a missile hit is taken
/// at ("individual check, but taken at the group rate").
pub(crate) const GROUP_RATE: &str = "group-rate";
/// The fact word of a figure that shot this turn with a weapon that is
/// never unloaded (a bow): "may shoot once".
pub(crate) const SHOT: &str = "shot";

/// The fact words of a hero's bonuses: `rifle-skill`, `melee-impact`.
pub(crate) fn bonus_word(what: &str, die: &str) -> String {
    format!("{what}-{die}")
}

/// Everything the game remembers about one figure. What is left out when
/// it is written (false, none, no puffs) reads back as such.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct FigureState {
    pub(crate) killed: bool,
    pub(crate) ran_off: bool,
    pub(crate) saves_spent: u32,
    pub(crate) rerolls_spent: u32,
    /// What the dice said of it after the battle, when it was downed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after_battle: Option<Downed>,
    /// Its gunpowder weapon fired and was not reloaded since.
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) unloaded: bool,
    /// Smoke puffs on its gun.
    #[serde(skip_serializing_if = "is_zero")]
    pub(crate) smoke: u32,
    /// This turn: moved, reloaded, had a smoke puff removed, was killed.
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) moved: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) reloaded: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) smoke_cleared: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) killed_this_turn: bool,
    /// This turn: shot with a weapon that is never unloaded (a bow).
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) shot: bool,
    /// This turn: its group failed the order to charge, and stood still.
    #[serde(skip_serializing_if = "is_false")]
    pub(crate) stood_still: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl FigureState {
    /// What this turn did is forgotten at the next.
    fn next_turn(&mut self) {
        self.moved = false;
        self.reloaded = false;
        self.smoke_cleared = false;
        self.killed_this_turn = false;
        self.shot = false;
        self.stood_still = false;
    }
}

/// What the Musket Mayhem state of a game is read against: the tables,
/// and the game's Musket Mayhem armies.
pub(crate) struct MayhemContext {
    tables: Rc<MayhemTables>,
    armies: Vec<(usize, Rc<List>)>,
    /// Each army's side and name, in the same order.
    names: Vec<(String, String)>,
}

/// Everything the Musket Mayhem part of a game keeps that effects and
/// `next-turn` change: its checkpoint.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MayhemState {
    #[serde(deserialize_with = "crate::system::object_values")]
    figures: BTreeMap<String, FigureState>,
    /// This turn's sequence of play, once diced or drawn.
    #[serde(rename = "sequence")]
    order: Option<Vec<usize>>,
    /// The previous turn's, which a tied initiative repeats.
    #[serde(rename = "previous_sequence")]
    previous: Option<Vec<usize>>,
    /// Turns begun since the game began (`next-turn`).
    turns: u32,
}

/// The Musket Mayhem part of a game as it stands: its state read against
/// its tables and lists.
#[derive(Clone, Copy)]
pub(crate) struct MayhemGame<'a> {
    context: &'a MayhemContext,
    tables: &'a MayhemTables,
    armies: &'a [(usize, Rc<List>)],
    names: &'a [(String, String)],
    figures: &'a BTreeMap<String, FigureState>,
    order: &'a Option<Vec<usize>>,
    previous: &'a Option<Vec<usize>>,
    turns: u32,
}

impl MayhemContext {
    pub(crate) fn new(tables: Rc<MayhemTables>, armies: &[(usize, &Army)]) -> MayhemContext {
        let (armies, names) = armies
            .iter()
            .filter_map(|(i, a)| {
                let list = super::army::read(a)?;
                Some(((*i, list), (a.side.clone(), a.name.clone())))
            })
            .unzip();
        MayhemContext {
            tables,
            armies,
            names,
        }
    }

    fn figure(&self, id: &str) -> Option<&Figure> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.figures.iter().find(|f| f.id == id))
    }
}

impl<'a> MayhemGame<'a> {
    /// The state read against its context.
    pub(crate) fn of(context: &'a MayhemContext, state: &'a MayhemState) -> MayhemGame<'a> {
        MayhemGame {
            context,
            tables: &context.tables,
            armies: &context.armies,
            names: &context.names,
            figures: &state.figures,
            order: &state.order,
            previous: &state.previous,
            turns: state.turns,
        }
    }

    /// The weapon row of a figure's weapon.
    fn weapon(&self, figure: &Figure) -> Option<&super::Weapon> {
        let w = figure.weapon.as_deref()?;
        self.tables.fire.weapon.iter().find(|x| x.keyword == w)
    }

    /// A figure's gunpowder small arm (not a gun), which fires once and
    /// is then reloaded.
    fn small_arm(&self, figure: &Figure) -> bool {
        self.weapon(figure).is_some_and(|w| w.gunpowder && !w.gun)
    }

    fn gun(&self, figure: &Figure) -> bool {
        self.weapon(figure).is_some_and(|w| w.gun)
    }

    /// A missile weapon that is never unloaded (a bow): only what it did
    /// this turn stops a second shot.
    fn never_unloaded(&self, figure: &Figure) -> bool {
        self.weapon(figure).is_some_and(|w| !w.gunpowder)
    }

    /// A side's name for the texts: its army's.
    /// A side by the side its list names (`France`), with its army's
    /// name; by its letter where the list names no side.
    fn side_text(&self, i: usize) -> String {
        match self.names.get(i) {
            Some((side, name)) if !side.is_empty() => format!("{side} ({name})"),
            Some((_, name)) => format!("{} ({name})", side_name(i)),
            None => side_name(i),
        }
    }

    fn order_text(&self, order: &[usize]) -> String {
        order
            .iter()
            .map(|i| self.side_text(*i))
            .collect::<Vec<_>>()
            .join(", then ")
    }

    fn figure(&self, id: &str) -> Option<&'a Figure> {
        self.context.figure(id)
    }

    fn state(&self, id: &str) -> FigureState {
        self.figures.get(id).cloned().unwrap_or_default()
    }
}

/// A figure's save and reroll tokens left.
fn tokens_left(figure: &Figure, state: &FigureState) -> (i64, i64) {
    (
        figure
            .saves
            .saturating_sub(i64::from(state.saves_spent))
            .max(0),
        figure
            .rerolls
            .saturating_sub(i64::from(state.rerolls_spent))
            .max(0),
    )
}

impl GameState for MayhemState {
    type Effect = MayhemEffect;
    type Context = MayhemContext;

    fn view<'a>(&'a self, context: &'a MayhemContext) -> Box<dyn GameView + 'a> {
        Box::new(MayhemGame::of(context, self))
    }

    /// A sequence names each side's army.
    fn describe(
        &self,
        context: &MayhemContext,
        unit: Option<&str>,
        effect: &MayhemEffect,
    ) -> String {
        let game = MayhemGame::of(context, self);
        match effect {
            MayhemEffect::Sequence { order } => format!(
                "game: this turn's sequence is {}{}",
                game.order_text(order),
                if order.len() == 2 {
                    " (a tie next turn repeats it)"
                } else {
                    ""
                }
            ),
            MayhemEffect::Killed => {
                let killed = crate::answer::resolution::SystemEffect::describe(effect, unit);
                match unit.and_then(|id| game.casualty_check(id)) {
                    Some(check) => format!("{killed}; {check}"),
                    None => killed,
                }
            }
            _ => crate::answer::resolution::SystemEffect::describe(effect, unit),
        }
    }

    fn apply(
        &mut self,
        context: &MayhemContext,
        unit: Option<&str>,
        effect: &MayhemEffect,
    ) -> Result<(), String> {
        if let MayhemEffect::Sequence { order } = effect {
            self.order = Some(order.clone());
            return Ok(());
        }
        let id = unit.ok_or("an effect on a figure names no figure")?;
        if context.figure(id).is_none() {
            return Err(format!("no Musket Mayhem figure `{id}` in this game"));
        }
        // Tokens typed on a line win over the figure's own, so more may be
        // spent than the list gave: the count left never goes below 0.
        let s = self.figures.entry(id.to_string()).or_default();
        match effect {
            MayhemEffect::Killed => {
                s.killed = true;
                s.killed_this_turn = true;
            }
            MayhemEffect::RanOff => s.ran_off = true,
            MayhemEffect::SaveSpent => s.saves_spent = s.saves_spent.saturating_add(1),
            MayhemEffect::RerollSpent => s.rerolls_spent = s.rerolls_spent.saturating_add(1),
            MayhemEffect::AfterBattle { outcome } => s.after_battle = Some(*outcome),
            MayhemEffect::Unloaded => s.unloaded = true,
            MayhemEffect::Smoke { puffs } => s.smoke = *puffs,
            MayhemEffect::Reloaded => {
                s.unloaded = false;
                s.reloaded = true;
            }
            MayhemEffect::SmokeCleared => {
                s.smoke = s.smoke.saturating_sub(1);
                s.smoke_cleared = true;
            }
            MayhemEffect::Moved => s.moved = true,
            MayhemEffect::Shot => s.shot = true,
            MayhemEffect::StoodStill => s.stood_still = true,
            MayhemEffect::Sequence { .. } => {}
        }
        Ok(())
    }

    /// What a figure did this turn is forgotten; this turn's sequence
    /// becomes the previous one, which a tied initiative repeats.
    fn next_turn(&mut self, _context: &MayhemContext) {
        for s in self.figures.values_mut() {
            s.next_turn();
        }
        if let Some(order) = self.order.take() {
            self.previous = Some(order);
        }
        self.turns = self.turns.saturating_add(1);
    }

    fn named(&self) -> Vec<(&'static str, &str)> {
        self.figures
            .keys()
            .map(|id| ("figure", id.as_str()))
            .collect()
    }

    fn carry(
        &self,
        context: &MayhemContext,
        fought: &[crate::carry::Fought<MayhemEffect>],
        close: &crate::carry::Close<'_>,
        dice: &mut dyn crate::dice::DiceSource,
    ) -> Result<crate::carry::Carry, String> {
        MayhemGame::of(context, self).carry_over(fought, close, dice)
    }
}

impl GameView for MayhemGame<'_> {
    fn facts(&self, id: &str) -> Option<UnitFacts> {
        let f = self.figure(id)?;
        Some(UnitFacts {
            id: f.id.clone(),
            name: f.name.clone(),
            facts: self.figure_facts(f, &self.state(id), false),
            out_of_action: None,
        })
    }

    fn possible_facts(&self, id: &str) -> Vec<UnitFact> {
        self.figure(id)
            .map(|f| self.figure_facts(f, &FigureState::default(), true))
            .unwrap_or_default()
    }

    /// Issue 23: "Refuse a typed word contradicting a named figure's list
    /// or game fact": a flag the figure's list does not give it, a missile
    /// weapon or an armament other than its own, and a small arm said to be
    /// loaded or unloaded against what the game holds. What else the game
    /// tracks turn by turn is read by the verbs themselves.
    fn contradicts(
        &self,
        id: &str,
        verb: &str,
        word: &str,
        _value: Option<i64>,
    ) -> Option<(String, bool)> {
        self.contradiction(id, verb, word)
    }

    fn out_of_action(&self, id: &str) -> Option<String> {
        let s = self.state(id);
        if s.killed {
            Some("was killed".into())
        } else if s.ran_off {
            Some("ran off the board".into())
        } else {
            None
        }
    }

    fn next_turn_text(&self) -> Option<String> {
        self.carried_over()
    }

    /// `initiative` and `activation` alone read the game: the sides, and
    /// the previous turn's sequence that a tie repeats.
    fn expand(&self, command: &Command, _line: &str) -> Option<Command> {
        let sides = self.armies.len();
        let typed = |words: &[&str]| {
            command.words.iter().any(|w| {
                matches!(&w.kind, WordKind::Keyword { name, .. } if words.contains(&name.as_str()))
            })
        };
        let mut add = Vec::new();
        match command.verb.as_str() {
            "initiative" => {
                if sides > 2 && !typed(&["sides"]) {
                    add.push(format!("sides={sides}"));
                }
                if self.order.is_some() {
                    add.push(DICED_THIS_TURN.to_string());
                }
                if typed(PREVIOUS_WORDS) {
                    if let Some([first, ..]) = self.previous.as_deref() {
                        add.push(RECORDED_WORDS[(*first).min(1)].to_string());
                    }
                } else {
                    match self.previous.as_deref() {
                        Some([first, ..]) if *first < 2 => {
                            add.push(previous_word(*first).to_string());
                        }
                        Some(_) => {}
                        None if self.turns == 0 => {
                            add.push(FIRST_TURN.to_string());
                        }
                        None => {}
                    }
                }
            }
            "activation" if sides > 0 && !typed(&["sides"]) => add.push(format!("sides={sides}")),
            _ => return None,
        }
        if add.is_empty() {
            return None;
        }
        let mut command = command.clone();
        let at = command.verb_span;
        command
            .words
            .extend(add.into_iter().map(|w| crate::parse::added_word(w, at)));
        Some(command)
    }

    /// `log`'s name for an initiative's winner (its army's side) and for
    /// the figure that hits in a fight.
    fn outcome_named(&self, command: &Command, outcome: &str) -> Option<String> {
        match (command.verb.as_str(), outcome) {
            ("initiative", "a" | "b") => {
                let (side, _) = self.names.get(usize::from(outcome == "b"))?;
                (!side.is_empty()).then(|| side.clone())
            }
            ("fight", "a-hits" | "b-hits") => {
                let words = if outcome == "a-hits" {
                    command.words.as_slice()
                } else {
                    command.clauses.last()?.words.as_slice()
                };
                let id = words
                    .iter()
                    .filter_map(|w| w.keyword())
                    .find(|id| self.figure(id).is_some())?;
                Some(format!("{id} hits"))
            }
            _ => None,
        }
    }

    fn roster(&self, army: usize) -> Option<Roster> {
        self.roster_of(army)
    }

    fn printed(&self, army: usize) -> Option<crate::system::PrintedArmy> {
        self.printed_of(army)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        self.show_rows(id)
    }

    fn end_turn(&self) -> String {
        self.end_of_turn()
    }

    fn state(&self) -> Option<serde_json::Value> {
        let mut figures = serde_json::Map::new();
        for (_, list) in self.armies {
            for f in &list.figures {
                let s = self.state(&f.id);
                let (saves, rerolls) = tokens_left(f, &s);
                let mut j = serde_json::to_value(&s).unwrap_or_default();
                if let Some(map) = j.as_object_mut() {
                    map.insert("saves_left".into(), saves.into());
                    map.insert("rerolls_left".into(), rerolls.into());
                    map.insert("fate".into(), Self::fate(&s).into());
                }
                figures.insert(f.id.clone(), j);
            }
        }
        let mut state = serde_json::json!({ "figures": figures });
        for (key, order) in [
            ("sequence", &self.order),
            ("previous_sequence", &self.previous),
        ] {
            if let Some(order) = order {
                state[key] =
                    serde_json::json!(order.iter().map(|i| side_name(*i)).collect::<Vec<_>>());
            }
        }
        Some(state)
    }
}

/// The first turn of a game: there is no previous sequence to repeat.
pub(crate) const FIRST_TURN: &str = "first-turn";
/// The words for the previous turn's sequence, as a game adds them to an
/// `initiative` line.
pub(crate) const PREVIOUS_WORDS: &[&str] = &["previous-a-first", "previous-b-first", FIRST_TURN];
/// The previous turn's sequence as the game records it, beside one typed
/// on the line: the typed one may not say otherwise.
pub(crate) const RECORDED_WORDS: &[&str] = &["recorded-a-first", "recorded-b-first"];
/// This turn's sequence is diced (or drawn) already: initiative is diced
/// once a turn.
pub(crate) const DICED_THIS_TURN: &str = "diced-this-turn";

/// The word for a previous turn in which side `first` (0: a, 1: b) went first.
pub(crate) fn previous_word(first: usize) -> &'static str {
    PREVIOUS_WORDS[first.min(1)]
}
