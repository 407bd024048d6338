//! What a game keeps of Musket Mayhem figures: killed or run off, hero
//! tokens spent, the dice for the downed after the battle, weapons
//! unloaded and guns' smoke puffs, what each did this turn; the turn's
//! sequence of play and the previous one; the facts a figure brings to a
//! command; the roster.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::army::{Bonus, Figure, List, MELEE};
use super::{Downed, MayhemTables};
use crate::army::Army;
use crate::catalog::{UnitFact, UnitFacts};
use crate::command::{Command, WordKind};
use crate::resolution::SystemEffect;
use crate::system::{GameState, Roster};

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
                "game: {u} stands still instead of charging, and charges no more this turn (`next-turn`)"
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
pub fn side_name(i: usize) -> String {
    match u8::try_from(i).ok().filter(|n| *n < 26) {
        Some(n) => format!("side {}", char::from(b'a' + n)),
        None => format!("side {}", i.saturating_add(1)),
    }
}

pub fn downed_word(d: Downed) -> &'static str {
    match d {
        Downed::Wounded => "wounded",
        Downed::Dead => "dead",
    }
}

/// The fact words a figure brings that say what became of it, for the
/// verbs that may name the fallen (`post-battle`).
pub const DOWNED: &str = "downed";
pub const RAN_OFF: &str = "ran-off";

/// The fact word of a figure that leads ("+1 if leader"): `courage` reads
/// it beside the figure's courage value as a mark, not as a rank.
pub const LEADER: &str = "leader";

/// Fact words of a figure's gunpowder weapon and what it did this turn.
pub const LOADED: &str = "loaded";
pub const UNLOADED: &str = "unloaded";
pub const SMOKE: &str = "smoke";
pub const SMOKE_CLEARED: &str = "smoke-cleared";
pub const MOVED: &str = "moved";
pub const RELOADED: &str = "reloaded";
/// The fact word of a figure whose group failed the order to charge this
/// turn: "they stand still instead".
pub const STOOD_STILL: &str = "stood-still";
/// The fact of a figure in a group of its list whose highest courage value
/// in play is above its own: the rate a check for a missile hit is taken
/// at ("individual check, but taken at the group rate").
pub const GROUP_RATE: &str = "group-rate";
/// The fact word of a figure that shot this turn with a weapon that is
/// never unloaded (a bow): "may shoot once".
pub const SHOT: &str = "shot";

/// The fact words of a hero's bonuses: `rifle-skill`, `melee-impact`.
pub fn bonus_word(what: &str, die: &str) -> String {
    format!("{what}-{die}")
}

/// Everything the game remembers about one figure. What is left out when
/// it is written (false, none, no puffs) reads back as such.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FigureState {
    pub killed: bool,
    pub ran_off: bool,
    pub saves_spent: u32,
    pub rerolls_spent: u32,
    /// What the dice said of it after the battle, when it was downed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_battle: Option<Downed>,
    /// Its gunpowder weapon fired and was not reloaded since.
    #[serde(skip_serializing_if = "is_false")]
    pub unloaded: bool,
    /// Smoke puffs on its gun.
    #[serde(skip_serializing_if = "is_zero")]
    pub smoke: u32,
    /// This turn: moved, reloaded, had a smoke puff removed, was killed.
    #[serde(skip_serializing_if = "is_false")]
    pub moved: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub reloaded: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub smoke_cleared: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub killed_this_turn: bool,
    /// This turn: shot with a weapon that is never unloaded (a bow).
    #[serde(skip_serializing_if = "is_false")]
    pub shot: bool,
    /// This turn: its group failed the order to charge, and stood still.
    #[serde(skip_serializing_if = "is_false")]
    pub stood_still: bool,
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

/// The Musket Mayhem part of a game.
#[derive(Clone)]
pub struct MayhemGame {
    tables: Rc<MayhemTables>,
    armies: Vec<(usize, Rc<List>)>,
    /// Each army's name, in the same order.
    names: Vec<String>,
    figures: BTreeMap<String, FigureState>,
    /// This turn's sequence of play, once diced or drawn.
    order: Option<Vec<usize>>,
    /// The previous turn's, which a tied initiative repeats.
    previous: Option<Vec<usize>>,
    /// Turns begun since the game began (`next-turn`).
    turns: u32,
}

/// Everything the part keeps that effects and `next-turn` change, for a
/// checkpoint of the game.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Checkpoint {
    #[serde(deserialize_with = "crate::system::object_values")]
    figures: BTreeMap<String, FigureState>,
    sequence: Option<Vec<usize>>,
    previous_sequence: Option<Vec<usize>>,
    turns: u32,
}

impl MayhemGame {
    pub fn new(tables: Rc<MayhemTables>, armies: &[(usize, &Army)]) -> MayhemGame {
        let (armies, names) = armies
            .iter()
            .filter_map(|(i, a)| {
                let list = super::army::read(a)?;
                Some(((*i, Rc::new(list)), a.name.clone()))
            })
            .unzip();
        MayhemGame {
            tables,
            armies,
            names,
            figures: BTreeMap::new(),
            order: None,
            previous: None,
            turns: 0,
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
    fn side_text(&self, i: usize) -> String {
        match self.names.get(i) {
            Some(name) => format!("{} ({name})", side_name(i)),
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

    /// The figures of a list still in play, by group (`None`: figures of
    /// no group, each an individual), in list order.
    fn in_play_by_group<'l>(&self, list: &'l List) -> Vec<(Option<&'l str>, Vec<&'l str>)> {
        let mut groups: Vec<(Option<&str>, Vec<&str>)> = Vec::new();
        for f in &list.figures {
            if self.out_of_action(&f.id).is_some() {
                continue;
            }
            let g = f.group.as_deref();
            match groups.iter_mut().find(|(k, _)| g.is_some() && *k == g) {
                Some((_, ids)) => ids.push(&f.id),
                None => groups.push((g, vec![&f.id])),
            }
        }
        groups
    }

    /// The courage checks a leader killed this turn calls for: "If a
    /// company or warband's leader killed", and "For the death of a
    /// commander, all individuals and groups in the contingent must check".
    fn leader_checks(&self) -> Vec<String> {
        let mut out = Vec::new();
        let line = |ids: &[&str]| format!("`courage {} cause=leader-killed`", ids.join(" "));
        for (_, list) in &self.armies {
            for f in &list.figures {
                let s = self.state(&f.id);
                if !s.killed_this_turn || !(Self::leads(f) || f.commander) {
                    continue;
                }
                let groups = self.in_play_by_group(list);
                if f.commander {
                    let checks: Vec<String> = groups
                        .iter()
                        .map(|(g, ids)| match g {
                            Some(g) => format!("group {g}: {}", line(ids)),
                            None => format!("{}: {}", ids.join(", "), line(ids)),
                        })
                        .collect();
                    out.push(format!(
                        "{} was killed this turn, the commander of the contingent: \"{}\" — {}.",
                        f.id,
                        self.tables.courage.commander.row.trim_end_matches('.'),
                        if checks.is_empty() {
                            "no figure of the contingent is left".to_string()
                        } else {
                            checks.join("; ")
                        }
                    ));
                    continue;
                }
                let cause = self
                    .tables
                    .courage
                    .cause
                    .iter()
                    .find(|c| c.keyword == "leader-killed")
                    .map_or("", |c| c.row.as_str());
                let check = match f.group.as_deref() {
                    Some(g) => match groups.iter().find(|(k, _)| *k == Some(g)) {
                        Some((_, ids)) => format!("group {g} checks courage: {}", line(ids)),
                        None => format!("no figure of group {g} is left"),
                    },
                    None => "the company or warband he led checks courage (`courage FIGURE… cause=leader-killed`)".to_string(),
                };
                out.push(format!(
                    "{} was killed this turn, a leader (\"{cause}\"): {check}.",
                    f.id
                ));
            }
        }
        out
    }

    fn figure(&self, id: &str) -> Option<&Figure> {
        self.armies
            .iter()
            .find_map(|(_, l)| l.figures.iter().find(|f| f.id == id))
    }

    fn state(&self, id: &str) -> FigureState {
        self.figures.get(id).cloned().unwrap_or_default()
    }

    /// The figure's courage value: its own, or its rank's.
    fn courage(&self, figure: &Figure) -> Option<i64> {
        figure.courage.or_else(|| {
            let rank = figure.rank.as_deref()?;
            self.tables
                .courage
                .rank
                .iter()
                .find(|r| r.keyword == rank)
                .map(|r| r.value)
        })
    }

    /// The highest courage value among the figures of its list's group
    /// still in play (itself among them), when it has a group.
    fn group_rate(&self, figure: &Figure) -> Option<i64> {
        let group = figure.group.as_deref()?;
        // Its own list's group: another side's list may use the same name.
        let (_, list) = self
            .armies
            .iter()
            .find(|(_, l)| l.figures.iter().any(|f| f.id == figure.id))?;
        list.figures
            .iter()
            .filter(|f| f.group.as_deref() == Some(group))
            .filter(|f| f.id == figure.id || self.out_of_action(&f.id).is_none())
            .filter_map(|f| self.courage(f))
            .max()
    }

    /// Whether the figure is a leader for hand-to-hand ("+1 if leader"):
    /// marked so, or a leader by rank.
    fn leads(figure: &Figure) -> bool {
        figure.leader
            || figure
                .rank
                .as_deref()
                .is_some_and(|r| matches!(r, "leader" | "exceptional-leader"))
    }

    /// The facts of a figure in a state. With `every` set, each fact the
    /// figure could bring in any state of the game.
    fn figure_facts(&self, figure: &Figure, state: &FigureState, every: bool) -> Vec<UnitFact> {
        let mut facts = Vec::new();
        if let Some(courage) = self.courage(figure) {
            facts.push(UnitFact::number("courage", courage));
            match self.group_rate(figure) {
                Some(rate) if every || rate > courage => {
                    facts.push(UnitFact::number(GROUP_RATE, rate));
                }
                _ => {}
            }
        }
        if let Some(weapon) = &figure.weapon {
            facts.push(UnitFact::word(weapon.clone()));
        }
        facts.push(UnitFact::word(figure.armament.clone()));
        for (flag, word) in [
            (figure.mounted, "mounted"),
            (Self::leads(figure), LEADER),
            (figure.shock, "shock"),
            (figure.bayonet, "bayonet"),
        ] {
            if flag {
                facts.push(UnitFact::word(word));
            }
        }
        let mut bonus = |what: &str, b: Bonus| {
            for (die, n) in [("skill", b.skill), ("impact", b.impact)] {
                if n != 0 {
                    facts.push(UnitFact::number(bonus_word(what, die), n));
                }
            }
        };
        bonus(MELEE, figure.melee_bonus());
        if let Some(weapon) = &figure.weapon {
            bonus(weapon, figure.weapon_bonus);
        }
        // "+1d6 bonus for specially designated heroes": the figure its
        // list designates, not every figure holding a save token.
        if figure.move_bonus {
            facts.push(UnitFact::word("hero"));
        }
        let (saves, rerolls) = tokens_left(figure, state);
        if figure.saves > 0 {
            facts.push(UnitFact::number("saves", saves));
        }
        if figure.rerolls > 0 {
            facts.push(UnitFact::number("rerolls", rerolls));
        }
        if figure.incendiary {
            facts.push(UnitFact::word(super::INCENDIARY));
        }
        if figure.commander {
            facts.push(UnitFact::word(super::COMMANDER));
        }
        if self.small_arm(figure) {
            if state.unloaded || every {
                facts.push(UnitFact::word(UNLOADED));
            }
            if !state.unloaded || every {
                facts.push(UnitFact::word(LOADED));
            }
        }
        if self.gun(figure) {
            // A gun always brings its puffs, none as well: `reload GUN`
            // then says it is loaded rather than how long a shot's take.
            let puffs = if every {
                self.tables.reload.puffs
            } else {
                i64::from(state.smoke)
            };
            facts.push(UnitFact::number(SMOKE, puffs));
            if state.smoke_cleared || every {
                facts.push(UnitFact::word(SMOKE_CLEARED));
            }
        }
        if state.moved || every {
            facts.push(UnitFact::word(MOVED));
        }
        if state.reloaded || every {
            facts.push(UnitFact::word(RELOADED));
        }
        if self.never_unloaded(figure) && (state.shot || every) {
            facts.push(UnitFact::word(SHOT));
        }
        if state.stood_still || every {
            facts.push(UnitFact::word(STOOD_STILL));
        }
        if state.killed || every {
            facts.push(UnitFact::word(DOWNED));
        }
        if state.ran_off || every {
            facts.push(UnitFact::word(RAN_OFF));
        }
        facts
    }

    fn fate(s: &FigureState) -> String {
        let mut fate = if s.killed {
            "killed".to_string()
        } else if s.ran_off {
            "ran off".to_string()
        } else {
            "in play".to_string()
        };
        if let Some(d) = s.after_battle {
            fate.push_str(&format!(" — after the battle: {}", downed_word(d)));
        }
        fate
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

impl MayhemGame {
    /// The roster's weapon: with its state, when it has one.
    fn weapon_text(&self, f: &Figure, s: &FigureState) -> String {
        let Some(w) = &f.weapon else {
            return "—".into();
        };
        // A figure out of the game has no marker on the table to read.
        if self.out_of_action(&f.id).is_some() {
            return w.clone();
        }
        if s.unloaded {
            format!("{w} (unloaded)")
        } else if s.smoke > 0 {
            format!("{w} ({} smoke puff(s))", s.smoke)
        } else {
            w.clone()
        }
    }
}

fn tokens_text(figure: &Figure, state: &FigureState) -> String {
    let (saves, rerolls) = tokens_left(figure, state);
    let mut parts = Vec::new();
    if figure.saves > 0 {
        parts.push(format!("{saves} of {} save(s)", figure.saves));
    }
    if figure.rerolls > 0 {
        parts.push(format!("{rerolls} of {} reroll(s)", figure.rerolls));
    }
    if parts.is_empty() {
        "—".into()
    } else {
        parts.join(", ")
    }
}

fn bonus_text(what: &str, b: Bonus) -> Option<String> {
    if !b.any() {
        return None;
    }
    let mut dice = Vec::new();
    if b.skill != 0 {
        dice.push(format!("skill +{}", b.skill));
    }
    if b.impact != 0 {
        dice.push(format!("impact +{}", b.impact));
    }
    Some(format!("{what}: {}", dice.join(", ")))
}

impl GameState for MayhemGame {
    type Effect = MayhemEffect;

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
    fn contradicts(&self, id: &str, word: &str, _value: Option<i64>) -> Option<(String, bool)> {
        let figure = self.figure(id)?;
        if self.small_arm(figure) {
            let state = self.state(id);
            let weapon = figure.weapon.as_deref().unwrap_or_default();
            if word == LOADED && state.unloaded {
                return Some((
                    format!(
                        "the game holds its {weapon} unloaded: it fired and has not reloaded (`reload {id}` when it may)"
                    ),
                    false,
                ));
            }
            if word == UNLOADED && !state.unloaded {
                return Some((format!("the game holds its {weapon} loaded"), false));
            }
        }
        let flags = [
            ("mounted", figure.mounted, "mounted"),
            (LEADER, Self::leads(figure), "a leader"),
            ("shock", figure.shock, "shock troops"),
            ("bayonet", figure.bayonet, "armed with a bayonet"),
            (
                "hero",
                figure.move_bonus,
                "a designated hero (`move_bonus`: +1d6 on its moves)",
            ),
            (
                super::INCENDIARY,
                figure.incendiary,
                "carrying incendiary materials",
            ),
            (
                super::COMMANDER,
                figure.commander,
                "the contingent's commander",
            ),
        ];
        if let Some((_, _, what)) = flags.iter().find(|(w, has, _)| *w == word && !has) {
            return Some((format!("its list does not make it {what}"), true));
        }
        if self.tables.fire.weapon.iter().any(|w| w.keyword == word)
            && figure.weapon.as_deref() != Some(word)
        {
            let why = match &figure.weapon {
                Some(own) => format!("its list arms it with a {own}, not a {word}"),
                None => format!("its list gives it no missile weapon, so no {word}"),
            };
            return Some((why, true));
        }
        if self.tables.fight.armament.iter().any(|a| a.keyword == word) && figure.armament != word {
            return Some((
                format!("its list makes it {}, not {word}", figure.armament),
                true,
            ));
        }
        None
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

    fn apply(&mut self, unit: Option<&str>, effect: &MayhemEffect) -> Result<(), String> {
        if let MayhemEffect::Sequence { order } = effect {
            self.order = Some(order.clone());
            return Ok(());
        }
        let id = unit.ok_or("an effect on a figure names no figure")?;
        if self.figure(id).is_none() {
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
    fn next_turn(&mut self) {
        for s in self.figures.values_mut() {
            s.next_turn();
        }
        if let Some(order) = self.order.take() {
            self.previous = Some(order);
        }
        self.turns = self.turns.saturating_add(1);
    }

    fn next_turn_text(&self) -> Option<String> {
        // "The rules are set up so that it is not necessary to remember any
        // "continuing results" for one turn to the next": what carries over
        // is what the table shows — figures out of the game, hero tokens
        // spent, unloaded weapons and smoke puffs (markers) — and the
        // previous turn's sequence, which a tied initiative repeats.
        let t = &self.tables.initiative;
        let previous = match &self.previous {
            Some(order) => format!(" The previous turn's sequence: {}.", self.order_text(order)),
            None => String::new(),
        };
        let mut markers = Vec::new();
        for (_, list) in &self.armies {
            for f in &list.figures {
                let s = self.state(&f.id);
                if self.out_of_action(&f.id).is_some() {
                    continue;
                }
                if s.unloaded {
                    markers.push(format!("{} unloaded", f.id));
                }
                if s.smoke > 0 {
                    markers.push(format!("{} {} smoke puff(s)", f.id, s.smoke));
                }
            }
        }
        let markers = if markers.is_empty() {
            String::new()
        } else {
            format!(" Markers stay: {}.", markers.join(", "))
        };
        Some(format!(
            "no result carries over in Musket Mayhem (the situation is read from the table); \
             figures killed or run off stay out and hero tokens spent stay spent; unloaded \
             weapons and smoke puffs stay until reloaded.{markers} {} {} (`initiative`; \
             with more than two sides, `activation`).{previous}",
            t.row, t.tie
        ))
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
                if !typed(PREVIOUS_WORDS) {
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

    fn roster(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec![
                "id",
                "name",
                "courage",
                "weapon",
                "group",
                "tokens left",
                "fate",
            ],
            ..Roster::default()
        };
        for f in &list.figures {
            let s = self.state(&f.id);
            roster.rows.push(vec![
                f.id.clone(),
                f.name.clone(),
                self.courage(f).map_or("—".into(), |c| c.to_string()),
                self.weapon_text(f, &s),
                f.group.clone().unwrap_or_else(|| "—".into()),
                tokens_text(f, &s),
                Self::fate(&s),
            ]);
        }
        Some(roster)
    }

    fn show(&self, id: &str) -> Option<Vec<(String, String)>> {
        let f = self.figure(id)?;
        let s = self.state(id);
        let t = &self.tables;
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |k: &str, v: String| rows.push((k.to_string(), v));
        if let Some(rank) = &f.rank {
            row("rank", rank.clone());
        }
        if let Some(courage) = self.courage(f) {
            row("courage", courage.to_string());
        }
        let armament = t
            .fight
            .armament
            .iter()
            .find(|a| a.keyword == f.armament)
            .map_or(f.armament.clone(), |a| {
                format!("{} ({}: {})", a.keyword, a.value, a.row)
            });
        row("armament", armament);
        let weapon = match &f.weapon {
            Some(w) => t
                .fire
                .weapon
                .iter()
                .find(|x| &x.keyword == w)
                .map_or(w.clone(), |x| format!("{w} ({}\")", x.range)),
            None => "— (no missile weapon)".into(),
        };
        row("weapon", weapon);
        if self.small_arm(f) {
            row(
                "loaded",
                if s.unloaded {
                    "no: unloaded (`reload` in a turn it does not move)".into()
                } else {
                    "yes".into()
                },
            );
        }
        if self.gun(f) {
            row(
                "smoke puffs",
                if s.smoke == 0 {
                    "none: the gun may fire".into()
                } else {
                    format!(
                        "{} (a crew of {} or more removes {} a turn: `reload {} CREW…`)",
                        s.smoke, t.reload.min_crew, t.reload.clear_per_turn, f.id
                    )
                },
            );
        }
        let mut this_turn = Vec::new();
        for (flag, what) in [
            (s.moved, "moved"),
            (s.reloaded, "reloaded"),
            (s.smoke_cleared, "a smoke puff removed"),
        ] {
            if flag {
                this_turn.push(what);
            }
        }
        if !this_turn.is_empty() {
            row("this turn", this_turn.join(", "));
        }
        let mut melee: Vec<&str> = Vec::new();
        for (flag, word) in [
            (Self::leads(f), "leader"),
            (f.shock, "shock"),
            (f.bayonet, "bayonet"),
            (f.mounted, "mounted"),
            (f.commander, "commander"),
            (f.incendiary, "incendiary"),
        ] {
            if flag {
                melee.push(word);
            }
        }
        row(
            "marked",
            if melee.is_empty() {
                "—".into()
            } else {
                melee.join(", ")
            },
        );
        row("tokens left", tokens_text(f, &s));
        let bonuses: Vec<String> = f
            .weapon
            .iter()
            .filter_map(|w| bonus_text(&format!("with the {w}"), f.weapon_bonus))
            .chain(bonus_text("in melee", f.melee_bonus()))
            .collect();
        row(
            "bonuses",
            if bonuses.is_empty() {
                "—".into()
            } else {
                bonuses.join("; ")
            },
        );
        row("group", f.group.clone().unwrap_or_else(|| "—".into()));
        row("fate", Self::fate(&s));
        Some(rows)
    }

    fn end_turn(&self) -> String {
        let t = &self.tables;
        let mut due = self.leader_checks();
        for (_, list) in &self.armies {
            for f in &list.figures {
                let s = self.state(&f.id);
                if s.smoke > 0 && self.out_of_action(&f.id).is_none() {
                    due.push(format!(
                        "{} has {} smoke puff(s){}.",
                        f.id,
                        s.smoke,
                        if s.smoke_cleared {
                            " (one removed this turn)"
                        } else {
                            ""
                        }
                    ));
                }
            }
        }
        let due = if due.is_empty() {
            String::new()
        } else {
            format!(" {}", due.join(" "))
        };
        format!(
            "end of turn (Musket Mayhem): no result carries over from one turn to the next — the \
             situation is read from the table. Next turn: {} {} (`initiative`). Guns with smoke \
             puffs: a trained crew of {} or more (a leader counting as {}) may remove {} \
             (`reload`).{due}",
            t.initiative.row,
            t.initiative.tie,
            t.reload.min_crew,
            t.reload.leader_counts,
            t.reload.clear_per_turn
        )
    }

    fn state(&self) -> serde_json::Value {
        let mut figures = serde_json::Map::new();
        for (_, list) in &self.armies {
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
        state
    }

    fn checkpoint(&self) -> Option<serde_json::Value> {
        serde_json::to_value(Checkpoint {
            figures: self.figures.clone(),
            sequence: self.order.clone(),
            previous_sequence: self.previous.clone(),
            turns: self.turns,
        })
        .ok()
    }

    /// Every figure the checkpoint names must be one of this part's
    /// armies: the part is left as it was when one is not.
    fn restore(&mut self, saved: &serde_json::Value) -> Result<(), String> {
        let saved = crate::system::from_object::<Checkpoint>(saved)
            .map_err(|e| format!("the Musket Mayhem checkpoint cannot be read: {e}"))?;
        if let Some(id) = saved.figures.keys().find(|id| self.figure(id).is_none()) {
            return Err(format!(
                "the Musket Mayhem checkpoint names figure `{id}` that no army of this game has"
            ));
        }
        self.figures = saved.figures;
        self.order = saved.sequence;
        self.previous = saved.previous_sequence;
        self.turns = saved.turns;
        Ok(())
    }
}

/// The first turn of a game: there is no previous sequence to repeat.
pub const FIRST_TURN: &str = "first-turn";
/// The words for the previous turn's sequence, as a game adds them to an
/// `initiative` line.
pub const PREVIOUS_WORDS: &[&str] = &["previous-a-first", "previous-b-first", FIRST_TURN];

/// The word for a previous turn in which side `first` (0: a, 1: b) went first.
pub fn previous_word(first: usize) -> &'static str {
    PREVIOUS_WORDS[first.min(1)]
}
