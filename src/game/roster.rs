//! `units`, `show UNIT`, `end-turn` and `log`: the game as tables.

use comfy_table::{Cell, ContentArrangement, Table, presets};

use super::Game;
use super::facts::Strength;

fn table() -> Table {
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    t
}

fn flags(s: &super::UnitState) -> String {
    let mut f: Vec<String> = Vec::new();
    for (on, word) in [
        (s.broken, "broken"),
        (s.killed, "killed"),
        (s.ran_off, "ran off"),
        (s.moved, "moved"),
        (s.hit, "hit this turn"),
        (s.inflicted, "inflicted hits"),
        (s.retired, "forced to retire"),
    ] {
        if on {
            f.push(word.into());
        }
    }
    if s.shots > 0 {
        f.push(format!("shots {}", s.shots));
    }
    if s.melees > 0 {
        f.push(format!("melees {}", s.melees));
    }
    if s.charges > 0 {
        f.push(format!("charges {}", s.charges));
    }
    if s.routed {
        f.push("routed".into());
    }
    if s.steps_lost > 0 {
        f.push(format!("steps lost {}", s.steps_lost));
    }
    if s.saves_spent > 0 {
        f.push(format!("saves spent {}", s.saves_spent));
    }
    f.join(", ")
}

impl Game {
    /// A roster table per army.
    pub fn units_text(&self) -> String {
        let mut out = format!("turn {}", self.state.turn);
        if self.armies.is_empty() {
            out.push_str("\nno armies loaded (give --army FILE)");
        }
        for army in &self.armies {
            out.push_str(&format!(
                "\n\n{} — {} ({})\n",
                army.name,
                army.side,
                army.rules.title()
            ));
            let mut t = table();
            t.set_header(vec!["id", "name", "bases", "strength", "hits", "state"]);
            for u in &army.units {
                let s = self.state.unit(&u.id);
                let (bases, strength) = match (u.bases, u.steps) {
                    (Some(_), _) => {
                        let st = Strength::of(u, &s, self.hits_per_base);
                        (
                            format!("{}/{}", st.left(), st.bases),
                            format!("{}%", st.percent()),
                        )
                    }
                    (None, Some(steps)) => {
                        let left = (steps - i64::from(s.steps_lost)).max(0);
                        (
                            format!("{left}/{steps} steps"),
                            format!("{}%", left * 100 / steps.max(1)),
                        )
                    }
                    (None, None) => ("—".into(), "—".into()),
                };
                t.add_row(vec![
                    Cell::new(&u.id),
                    Cell::new(&u.name),
                    Cell::new(bases),
                    Cell::new(strength),
                    Cell::new(s.hits),
                    Cell::new(flags(&s)),
                ]);
            }
            for f in &army.figures {
                let s = self.state.unit(&f.id);
                t.add_row(vec![
                    Cell::new(&f.id),
                    Cell::new(&f.name),
                    Cell::new("—"),
                    Cell::new(if s.killed || s.ran_off {
                        "out"
                    } else {
                        "in play"
                    }),
                    Cell::new(s.hits),
                    Cell::new(flags(&s)),
                ]);
            }
            out.push_str(&t.to_string());
            let generals: Vec<String> = army
                .generals
                .iter()
                .map(|g| {
                    let gone = if self.state.generals_removed.contains(&g.id) {
                        " (removed)"
                    } else {
                        ""
                    };
                    format!("{} {} [{}]{gone}", g.id, g.name, g.ability)
                })
                .collect();
            if !generals.is_empty() {
                out.push_str(&format!("\ngenerals: {}", generals.join("; ")));
            }
        }
        out
    }

    /// Everything known of one unit, or `None` for an unknown id.
    pub fn show_text(&self, id: &str) -> Option<String> {
        if self.find_unit(id).is_none() {
            return self.show_figure(id);
        }
        let (army, u) = self.find_unit(id)?;
        let s = self.state.unit(id);
        let mut t = table();
        let mut row = |k: &str, v: String| {
            t.add_row(vec![Cell::new(k), Cell::new(v)]);
        };
        row("army", army.name.clone());
        if let Some(arm) = &u.arm {
            row("arm", arm.clone());
        }
        if !u.class.is_empty() {
            row("class", u.class.join(", "));
        }
        if let Some(f) = &u.formation {
            row("formation", f.clone());
        }
        if let Some(w) = &u.weapon {
            row("weapon", w.clone());
        }
        if u.bases.is_some() {
            let st = Strength::of(u, &s, self.hits_per_base);
            row(
                "bases",
                format!("{} of {} ({}%)", st.left(), st.bases, st.percent()),
            );
        }
        if !u.doctrine.is_empty() {
            row("doctrine", u.doctrine.join(", "));
        }
        if let Some(g) = &u.general {
            row("general", g.clone());
        }
        for (k, v) in [("cf", u.cf), ("mr", u.mr), ("ma", u.ma), ("steps", u.steps)] {
            if let Some(v) = v {
                row(k, v.to_string());
            }
        }
        row("hits", s.hits.to_string());
        row("state", flags(&s));
        Some(format!("{} — {}\n{t}", u.id, u.name))
    }

    /// A Musket Mayhem figure: rank, arms, hero tokens left, fate.
    fn show_figure(&self, id: &str) -> Option<String> {
        let (army, f) = self
            .armies
            .iter()
            .find_map(|a| a.figures.iter().find(|f| f.id == id).map(|f| (a, f)))?;
        let s = self.state.unit(id);
        let mut t = table();
        let mut row = |k: &str, v: String| {
            t.add_row(vec![Cell::new(k), Cell::new(v)]);
        };
        row("army", army.name.clone());
        if let Some(rank) = &f.rank {
            row("rank", rank.clone());
        }
        if let Some(courage) = f.courage {
            row("courage", courage.to_string());
        }
        if let Some(w) = &f.weapon {
            row("weapon", w.clone());
        }
        row("armament", f.armament.clone());
        if f.saves > 0 || f.rerolls > 0 {
            row(
                "hero tokens left",
                format!(
                    "{} save(s), {} reroll(s)",
                    (f.saves - i64::from(s.saves_spent)).max(0),
                    (f.rerolls - i64::from(s.rerolls_spent)).max(0)
                ),
            );
        }
        row("state", flags(&s));
        Some(format!("{} — {}\n{t}", f.id, f.name))
    }

    /// The units at 50% or less that take the end-of-turn resilience test:
    /// the side without the initiative first, then alternating.
    pub fn end_turn_order(&self) -> Vec<(String, String)> {
        let mut queues: Vec<Vec<(String, String)>> = self
            .armies
            .iter()
            .map(|a| {
                a.units
                    .iter()
                    .filter(|u| u.bases.is_some())
                    .filter(|u| {
                        let s = self.state.unit(&u.id);
                        !s.broken && Strength::of(u, &s, self.hits_per_base).percent() <= 50
                    })
                    .map(|u| (u.id.clone(), u.name.clone()))
                    .collect()
            })
            .collect();
        // With two armies, the one without the initiative tests first.
        if let Some(with) = self.state.initiative
            && queues.len() == 2
            && with == 0
        {
            queues.swap(0, 1);
        }
        let mut order = Vec::new();
        let longest = queues.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..longest {
            for q in &queues {
                if let Some(u) = q.get(i) {
                    order.push(u.clone());
                }
            }
        }
        order
    }

    pub fn log_text(&self) -> String {
        let live: Vec<u64> = self.live_entries().iter().map(|e| e.entry).collect();
        let mut out = String::new();
        for e in &self.entries {
            let mark = if live.contains(&e.entry) || e.undo.is_some() {
                " "
            } else {
                "×"
            };
            let what = match (&e.line, e.undo) {
                (_, Some(n)) => format!("undo entry {n}"),
                (Some(line), _) => line.clone(),
                _ => String::new(),
            };
            let outcome = e
                .outcome
                .as_deref()
                .map_or(String::new(), |o| format!(" ⇒ {o}"));
            out.push_str(&format!(
                "{mark}{:>4}  turn {}  {what}{outcome}\n",
                e.entry, e.turn
            ));
        }
        if out.is_empty() {
            out.push_str("the journal is empty");
        }
        out.trim_end().to_string()
    }
}
