//! What a game's notes say of where their effects are kept: a game in a
//! file keeps them ("game: gren-1 takes 1 hit"); a game in memory keeps
//! them for the session only, and a one-shot run's for its line only, so
//! its notes must not read as if anything was kept.

use super::Game;

/// How a system's note of an effect starts.
const KEPT: &str = "game: ";

impl Game {
    /// Whether this game in memory ends with the one line it resolves.
    pub(crate) fn one_line(mut self, yes: bool) -> Game {
        self.one_line = yes;
        self
    }

    /// Armies of different rule systems can share a game, but a line
    /// resolves under one system (`under`): the note that says which.
    pub(crate) fn systems_note(&self, under: crate::answer::System) -> Option<String> {
        let mut books: Vec<&str> = Vec::new();
        for army in &self.armies {
            if !books.contains(&army.rules.title()) {
                books.push(army.rules.title());
            }
        }
        (books.len() > 1).then(|| {
            format!(
                "note: the armies are of different rule systems ({}): each line resolves under {} unless it starts with another system's word (`mayhem fire …`) or --rules says otherwise",
                books.join(", "),
                under.title()
            )
        })
    }

    /// Say where a game reopened from its file stands (`yes`): in a
    /// session, and when its armies are given again; a one-shot line in a
    /// game goes without it.
    pub(crate) fn say_reopened(mut self, yes: bool) -> Game {
        if let Some(note) = self.reopened.take().filter(|_| yes) {
            self.notes.insert(0, note);
        }
        self
    }

    /// The notes of a line's effects as this game keeps them.
    pub(super) fn unkept(&self, described: Vec<String>) -> Vec<String> {
        if self.file.is_some() {
            return described;
        }
        let instead = if self.one_line {
            "not kept: "
        } else {
            "this session only: "
        };
        let mut notes: Vec<String> = described
            .into_iter()
            .map(|d| match d.strip_prefix(KEPT) {
                Some(rest) => format!("{instead}{rest}"),
                None => d,
            })
            .collect();
        if self.one_line && !notes.is_empty() {
            notes.push(
                "Nothing was kept: without --game FILE a line's effects end with it; --game FILE keeps them for the next line."
                    .into(),
            );
        }
        notes
    }
}
