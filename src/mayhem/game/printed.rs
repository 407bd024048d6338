//! The printed roster of a Musket Mayhem contingent: one line a figure,
//! under its movement group, with its kit and boxes for its save and
//! reroll tokens.

use super::roster::bonus_text;
use super::{FigureState, MayhemGame};
use crate::answer::{Boxes, Commanded, Line};
use crate::mayhem::army::Figure;
use crate::system::{GameView, PrintedArmy};

/// The columns between a line's name and its boxes.
const COLUMNS: [&str; 6] = ["rank", "courage", "armament", "weapon", "marked", "bonuses"];

impl MayhemGame<'_> {
    pub(super) fn printed_of(&self, army: usize) -> Option<PrintedArmy> {
        let (_, list) = self.armies.iter().find(|(i, _)| *i == army)?;
        let mut groups: Vec<Option<&str>> = Vec::new();
        for f in &list.figures {
            if !groups.contains(&f.group.as_deref()) {
                groups.push(f.group.as_deref());
            }
        }
        let commands = groups
            .iter()
            .map(|g| Commanded {
                heading: g.map_or("In no group".to_string(), |g| format!("Group: {g}")),
                lines: list
                    .figures
                    .iter()
                    .filter(|f| f.group.as_deref() == *g)
                    .map(|f| self.figure_line(f))
                    .collect(),
            })
            .collect();
        Some(PrintedArmy {
            columns: COLUMNS.iter().map(|c| c.to_string()).collect(),
            commands,
            notes: vec![
                "Cross a save or reroll token as it is spent, and the figure's box \
                 when it is killed or runs off; note a figure that is down under state."
                    .into(),
            ],
        })
    }

    fn figure_line(&self, f: &Figure) -> Line {
        let s = self.state(&f.id);
        let weapon = match &f.weapon {
            Some(w) => self
                .tables
                .fire
                .weapon
                .iter()
                .find(|x| &x.keyword == w)
                .map_or(w.clone(), |x| format!("{w} {}\"", x.range)),
            None => "—".into(),
        };
        let mut marked: Vec<&str> = Vec::new();
        for (flag, word) in [
            (f.commander, "commander"),
            (Self::leads(f) && !f.commander, "leader"),
            (f.shock, "shock"),
            (f.bayonet, "bayonet"),
            (f.mounted, "mounted"),
            (f.incendiary, "incendiary"),
        ] {
            if flag {
                marked.push(word);
            }
        }
        let bonuses: Vec<String> = f
            .weapon
            .iter()
            .filter_map(|w| bonus_text(w, f.weapon_bonus))
            .chain(bonus_text("melee", f.melee_bonus()))
            .chain(self.move_bonus_text(f))
            .collect();
        // One box for the figure itself, crossed when it is out of the game.
        let mut boxes = vec![Boxes::new("figure", 1, i64::from(s.killed || s.ran_off))];
        if f.saves > 0 {
            boxes.push(Boxes::new("saves", f.saves, i64::from(s.saves_spent)));
        }
        if f.rerolls > 0 {
            boxes.push(Boxes::new("rerolls", f.rerolls, i64::from(s.rerolls_spent)));
        }
        Line {
            id: f.id.clone(),
            name: f.name.clone(),
            cells: vec![
                f.rank.as_deref().unwrap_or("—").replace('-', " "),
                self.courage(f).map_or("—".into(), |c| c.to_string()),
                f.armament.clone(),
                weapon,
                marked.join(", "),
                bonuses.join("; "),
            ],
            boxes,
            state: state_words(&s),
            out_of_action: self.out_of_action(&f.id),
        }
    }
}

/// What is so of a figure now; nothing when it is fresh.
fn state_words(s: &FigureState) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for (on, word) in [
        (s.unloaded, "unloaded"),
        (s.moved, "moved"),
        (s.reloaded, "reloaded"),
    ] {
        if on {
            words.push(word.into());
        }
    }
    if s.smoke > 0 {
        words.push(format!("{} smoke", s.smoke));
    }
    words
}
