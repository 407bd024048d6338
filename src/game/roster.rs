//! `units`, `show UNIT`, `end-turn` and `log`: the game as tables, each
//! army in its own rule system's columns.

use comfy_table::{Cell, ContentArrangement, Table, presets};

use super::Game;

fn table() -> Table {
    let mut t = Table::new();
    t.load_style(presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Disabled);
    t
}

impl Game {
    /// A roster table per army.
    pub fn units_text(&self) -> String {
        let mut out = format!("turn {}", self.turn);
        if self.armies.is_empty() {
            out.push_str("\nno armies loaded (give --army FILE)");
        }
        for (i, army) in self.armies.iter().enumerate() {
            out.push_str(&format!(
                "\n\n{} — {} ({})\n",
                army.name,
                army.side,
                army.rules.title()
            ));
            let Some(roster) = self.part_of_army(i).and_then(|p| p.state.roster(i)) else {
                continue;
            };
            let mut t = table();
            t.set_header(roster.header.clone());
            for row in &roster.rows {
                t.add_row(row.iter().map(Cell::new).collect::<Vec<_>>());
            }
            out.push_str(&t.to_string());
            for note in &roster.notes {
                out.push('\n');
                out.push_str(note);
            }
        }
        out
    }

    /// Everything known of one unit, or `None` for an unknown id.
    pub fn show_text(&self, id: &str) -> Option<String> {
        let (i, army) = self.army_of(id)?;
        let rows = self.part_of_army(i)?.state.show(id)?;
        let name = army
            .list
            .members()
            .into_iter()
            .find(|m| m.id == id)
            .map(|m| m.name.to_string())
            .unwrap_or_default();
        let mut t = table();
        t.add_row(vec![Cell::new("army"), Cell::new(&army.name)]);
        for (k, v) in rows {
            t.add_row(vec![Cell::new(k), Cell::new(v)]);
        }
        Some(format!("{id} — {name}\n{t}"))
    }

    /// What each rule system's rules do at the end of the turn.
    pub fn end_turn_text(&self) -> String {
        let texts: Vec<String> = self.parts.iter().map(|p| p.state.end_turn()).collect();
        if texts.is_empty() {
            return "end of turn: no armies loaded".into();
        }
        texts.join("\n")
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
