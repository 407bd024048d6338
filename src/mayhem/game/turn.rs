//! What a turn leaves: the courage checks a leader killed calls for, the
//! markers that stay, and the texts of the turn's end and the next.

use crate::mayhem::army::List;

use crate::system::GameView;

use super::MayhemGame;

impl MayhemGame<'_> {
    /// The figures of a list still in play, by group (`None`: figures of
    /// no group, each an individual), in list order.
    pub(super) fn in_play_by_group<'l>(
        &self,
        list: &'l List,
    ) -> Vec<(Option<&'l str>, Vec<&'l str>)> {
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

    /// "1. A figure in a group is killed (only once per turn)": the check
    /// a figure's death calls for from the rest of its group, as its
    /// answer says it; `None` for a figure of no group, or one whose group
    /// has no figure left.
    pub(super) fn casualty_check(&self, id: &str) -> Option<String> {
        let (list, figure) = self
            .armies
            .iter()
            .find_map(|(_, l)| l.figures.iter().find(|f| f.id == id).map(|f| (l, f)))?;
        let group = figure.group.as_deref()?;
        let left: Vec<&str> = self
            .in_play_by_group(list)
            .into_iter()
            .find(|(g, _)| *g == Some(group))
            .map(|(_, ids)| ids.into_iter().filter(|i| *i != id).collect())
            .unwrap_or_default();
        if left.is_empty() {
            return None;
        }
        let once = list.figures.iter().any(|f| {
            f.id != id && f.group.as_deref() == Some(group) && self.state(&f.id).killed_this_turn
        });
        let rule = self.cause_row("casualty");
        Some(if once {
            format!(
                "group {group} has had a figure killed this turn already: \"{rule}\" — it checks once"
            )
        } else {
            format!(
                "a figure of group {group} was killed: \"{rule}\" — the group checks courage at the end of its movement or combat: `courage {} cause=casualty`",
                left.join(" ")
            )
        })
    }

    /// The rules' words for a cause of a courage check.
    fn cause_row(&self, keyword: &str) -> &str {
        self.tables
            .courage
            .cause
            .iter()
            .find(|c| c.keyword == keyword)
            .map_or("", |c| c.row.as_str())
    }

    /// The casualty checks this turn's deaths call for, each group once
    /// ("only once per turn").
    pub(super) fn casualty_checks(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (_, list) in self.armies {
            for (group, ids) in self.in_play_by_group(list) {
                let Some(group) = group else { continue };
                let lost = list.figures.iter().any(|f| {
                    f.group.as_deref() == Some(group) && self.state(&f.id).killed_this_turn
                });
                if lost {
                    out.push(format!(
                        "Group {group} had a figure killed this turn (\"{}\"): `courage {} cause=casualty`.",
                        self.cause_row("casualty"),
                        ids.join(" ")
                    ));
                }
            }
        }
        out
    }

    /// The courage checks a leader killed this turn calls for: "If a
    /// company or warband's leader killed", and "For the death of a
    /// commander, all individuals and groups in the contingent must check".
    pub(super) fn leader_checks(&self) -> Vec<String> {
        let mut out = Vec::new();
        let line = |ids: &[&str]| format!("`courage {} cause=leader-killed`", ids.join(" "));
        for (_, list) in self.armies {
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

    /// What carries over to the next turn.
    pub(super) fn carried_over(&self) -> Option<String> {
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
        for (_, list) in self.armies {
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

    pub(super) fn end_of_turn(&self) -> String {
        let t = &self.tables;
        let mut due = self.casualty_checks();
        due.extend(self.leader_checks());
        for (_, list) in self.armies {
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
}
