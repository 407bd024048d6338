//! How a figure reads in the roster and in `show`: its kit, its state in the
//! game, its tokens and bonuses, its fate.

use crate::answer::report::UnitStatus;
use crate::mayhem::army::{Bonus, Figure};
use crate::system::{GameView, Roster};

use super::{FigureState, MayhemGame, downed_word, tokens_left};

impl MayhemGame<'_> {
    pub(super) fn fate(s: &FigureState) -> String {
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

    pub(super) fn roster_of(&self, army: usize) -> Option<Roster> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut roster = Roster {
            header: vec![
                "id", "name", "courage", "weapon", "group", "saves", "rerolls", "fate",
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
                token_left(tokens_left(f, &s).0, f.saves),
                token_left(tokens_left(f, &s).1, f.rerolls),
                Self::fate(&s),
            ]);
            roster.status.push(if s.killed {
                UnitStatus::Out("killed".into())
            } else if s.ran_off {
                UnitStatus::Out("ran off".into())
            } else {
                UnitStatus::Fine
            });
        }
        Some(roster)
    }

    /// The rows `show` gives of a figure.
    pub(super) fn show_rows(&self, id: &str) -> Option<Vec<(String, String)>> {
        let f = self.figure(id)?;
        let s = self.state(id);
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |k: &str, v: String| rows.push((k.to_string(), v));
        if let Some(rank) = &f.rank {
            row("rank", rank.clone());
        }
        if let Some(courage) = self.courage(f) {
            row("courage", courage.to_string());
        }
        for (k, v) in self.kit(f, &s) {
            row(k, v);
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
            .chain(self.move_bonus_text(f))
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

    /// Its armament and weapon, with the weapon's state, and what it did
    /// this turn.
    fn kit(&self, f: &Figure, s: &FigureState) -> Vec<(&'static str, String)> {
        let t = &self.tables;
        let mut rows = Vec::new();
        let mut row = |k: &'static str, v: String| rows.push((k, v));
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
        rows
    }
}

/// One kind of token in the roster: left of those the figure has, as
/// steps are (`1/2`); a column each, so that a figure takes one line.
fn token_left(left: i64, of: i64) -> String {
    if of > 0 {
        format!("{left}/{of}")
    } else {
        "—".into()
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

/// A bonus as the table says it: `musket: skill +2, impact +1` (signed,
/// so a penalty reads `-1`), for `units` and the printed roster alike.
pub(super) fn bonus_text(what: &str, b: Bonus) -> Option<String> {
    if !b.any() {
        return None;
    }
    let mut dice = Vec::new();
    if b.skill != 0 {
        dice.push(format!("skill {:+}", b.skill));
    }
    if b.impact != 0 {
        dice.push(format!("impact {:+}", b.impact));
    }
    Some(format!("{what}: {}", dice.join(", ")))
}
