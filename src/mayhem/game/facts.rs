//! The facts a figure brings to a command, from its list and its state in
//! the game, and the typed words that contradict them.

use crate::catalog::UnitFact;
use crate::mayhem::army::{Bonus, Figure, MELEE};
use crate::mayhem::{COMMANDER, INCENDIARY};

use crate::system::GameView;

use super::{
    DICED, DOWNED, FigureState, GROUP_RATE, LEADER, LOADED, MOVED, MayhemGame, RAN_OFF, RELOADED,
    SHOT, SMOKE, SMOKE_CLEARED, STOOD_STILL, UNLOADED, bonus_word, tokens_left,
};

impl MayhemGame<'_> {
    /// The figure's courage value: its own, or its rank's.
    pub(super) fn courage(&self, figure: &Figure) -> Option<i64> {
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
    pub(super) fn group_rate(&self, figure: &Figure) -> Option<i64> {
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
    pub(super) fn leads(figure: &Figure) -> bool {
        figure.leader
            || figure
                .rank
                .as_deref()
                .is_some_and(|r| matches!(r, "leader" | "exceptional-leader"))
    }

    /// The facts of a figure in a state. With `every` set, each fact the
    /// figure could bring in any state of the game.
    pub(super) fn figure_facts(
        &self,
        figure: &Figure,
        state: &FigureState,
        every: bool,
    ) -> Vec<UnitFact> {
        let mut facts = self.list_facts(figure, every);
        held_facts(figure, state, &mut facts);
        self.state_facts(figure, state, every, &mut facts);
        facts
    }

    /// What the figure's list makes it: its courage (and group rate),
    /// weapon, armament, kind and bonuses.
    fn list_facts(&self, figure: &Figure, every: bool) -> Vec<UnitFact> {
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
        facts
    }

    /// What the game holds of the figure now (with `every`, each it could
    /// hold): its weapon loaded or not, its gun's smoke, and what it did
    /// this turn and this battle.
    fn state_facts(
        &self,
        figure: &Figure,
        state: &FigureState,
        every: bool,
        facts: &mut Vec<UnitFact>,
    ) {
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
        if state.after_battle.is_some() || every {
            facts.push(UnitFact::word(DICED));
        }
    }

    /// Issue 23: "Refuse a typed word contradicting a named figure's list
    /// or game fact": a flag the figure's list does not give it, a missile
    /// weapon or an armament other than its own, and a small arm said to be
    /// loaded or unloaded against what the game holds. What else the game
    /// tracks turn by turn is read by the verbs themselves.
    /// The designated hero's bonus to its moves, as the move table says
    /// it ("+1d6 bonus for specially designated heroes"); `None` for
    /// another figure.
    pub(super) fn move_bonus_text(&self, figure: &Figure) -> Option<String> {
        if !figure.move_bonus {
            return None;
        }
        let row = self
            .tables
            .movement
            .bonus
            .iter()
            .find(|b| b.keyword == "hero")?;
        Some(format!("moves: +{} ({})", row.dice, row.row))
    }

    /// A figure the scenario makes a hero by tokens or bonuses (the text's
    /// "Heroes" rule).
    fn has_hero_tokens(figure: &Figure) -> bool {
        let bonus = |b: Bonus| b.skill != 0 || b.impact != 0;
        figure.saves > 0
            || figure.rerolls > 0
            || bonus(figure.melee_bonus())
            || bonus(figure.weapon_bonus)
    }

    pub(super) fn contradiction(&self, id: &str, verb: &str, word: &str) -> Option<(String, bool)> {
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
            // "+1d6 bonus for specially designated heroes" in a move;
            // elsewhere a hero is what its tokens and bonuses make it
            // ("Heroes: ... some combination of save tokens ..., reroll
            // tokens, or bonuses": Hawkeye, the text's own example).
            if verb == "move" {
                (
                    "hero",
                    figure.move_bonus,
                    "a designated hero (`move_bonus`: +1d6 on its moves)",
                )
            } else {
                (
                    "hero",
                    figure.move_bonus || Self::has_hero_tokens(figure),
                    "a hero (no save or reroll tokens, no weapon or melee bonus)",
                )
            },
            (
                INCENDIARY,
                figure.incendiary,
                "carrying incendiary materials",
            ),
            (COMMANDER, figure.commander, "the contingent's commander"),
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
}

/// What the figure carries: the hero's tokens it has left, incendiary
/// materials, the command of its side.
fn held_facts(figure: &Figure, state: &FigureState, facts: &mut Vec<UnitFact>) {
    let (saves, rerolls) = tokens_left(figure, state);
    if figure.saves > 0 {
        facts.push(UnitFact::number("saves", saves));
    }
    if figure.rerolls > 0 {
        facts.push(UnitFact::number("rerolls", rerolls));
    }
    if figure.incendiary {
        facts.push(UnitFact::word(INCENDIARY));
    }
    if figure.commander {
        facts.push(UnitFact::word(COMMANDER));
    }
}
