//! The session's own verbs: the game's (`units`, `show`, `next-turn`,
//! `end-turn`, `undo`, `log`, `save`) and `set`.

use super::{DISPLAY_SETTINGS, Session, catalog};
use crate::answer::report::Report;
use crate::catalog::Units;
use crate::command::{Command, Mode, Span};
use crate::error::{BindError, CommandError, ErrorKind};
use crate::game::GameError;
use crate::meta::{GameVerb, MetaVerb};

/// Whether a line may change a game: a resolution, `next-turn` or `undo`.
pub(super) fn may_change_game(command: &Command, meta: Option<MetaVerb>) -> bool {
    command.mode == Mode::Resolve
        && match meta {
            Some(MetaVerb::Game(verb)) => verb.changes_game(),
            Some(_) => false,
            None => true,
        }
}

/// Whether a journal entry's line is one a game records, so that it may
/// be resolved again from the journal: a rule system's line, or the
/// game's `next-turn` or `undo` where the entry is one. Anything else (a
/// `save`, `set`, `load`, `help`, `units`, an `odds` line) is never
/// journaled by drumhead, and resolving it would act outside the game:
/// it is refused before anything runs. Says why, after the line.
pub(super) fn journaled(entry: &crate::game::Entry, command: &Command) -> Result<(), String> {
    let meta = MetaVerb::named(&command.verb);
    let fits = match (command.mode, meta) {
        (Mode::Odds, _) => false,
        (Mode::Resolve, None) => entry.undo.is_none() && !entry.next_turn(),
        (Mode::Resolve, Some(MetaVerb::Game(GameVerb::NextTurn))) => entry.next_turn(),
        (Mode::Resolve, Some(MetaVerb::Game(GameVerb::Undo))) => entry.undo.is_some(),
        (Mode::Resolve, Some(_)) => false,
    };
    if fits {
        return Ok(());
    }
    let verb = match (command.mode, meta) {
        (Mode::Odds, _) => "odds".to_string(),
        (_, Some(verb)) => verb.name().to_string(),
        (_, None) => command.verb.to_string(),
    };
    Err(format!(
        "is not a line a game records (`{verb}` here), so it is not resolved from a journal: \
         drumhead journals the rule systems' lines, `next-turn` and `undo`, and nothing else; \
         the journal was written by hand or by another program"
    ))
}

/// `load` outside the REPL.
pub(super) fn load_not_here(command: &Command) -> CommandError {
    BindError::NotHere {
        kind: ErrorKind::WrongMode,
        span: command.verb_span,
        text: MetaVerb::Load.name().into(),
        why: "loads an army list in the REPL only: here, give the list with --army FILE".into(),
    }
    .into()
}

pub(super) fn game_error(e: GameError) -> CommandError {
    match e {
        GameError::Locked(_) => CommandError::Busy(format!("game: {e}")),
        e => CommandError::refused(ErrorKind::GameFile, format!("game: {e}")),
    }
}

/// A game verb's word not given.
fn needs_a_word(verb: &str) -> CommandError {
    CommandError::refused(ErrorKind::MissingWord, format!("`{verb}` needs a word"))
}

impl Session {
    /// `units`, `show UNIT`, `next-turn`, `end-turn`, `undo`, `log`, `save FILE`.
    pub(super) fn game_verb(
        &mut self,
        which: GameVerb,
        command: &Command,
        line: &str,
    ) -> Result<Report, CommandError> {
        let verb = which.name();
        let Some(game) = &mut self.game else {
            return Err(BindError::NotHere {
                kind: ErrorKind::NotInGame,
                span: command.verb_span,
                text: verb.to_string(),
                why: "needs a game: load armies with --army FILE or a game with --game FILE".into(),
            }
            .into());
        };
        let takes_word = which.takes_word().is_some();
        // `save PATH force` replaces a file that is not a drumhead game.
        let force = which == GameVerb::Save
            && command
                .words
                .get(1)
                .is_some_and(|w| w.text == "force" || w.text == "--force");
        if let Some(extra) = command
            .words
            .get(usize::from(takes_word) + usize::from(force))
        {
            return Err(BindError::NotHere {
                kind: ErrorKind::ExtraWord,
                span: extra.span,
                text: extra.text.to_string(),
                why: format!("is one word too many for `{verb}`"),
            }
            .into());
        }
        if let Some(clause) = command.clauses.first() {
            return Err(crate::bind::clause_not_here(clause, verb).into());
        }
        if let Some(span) = command.rolled_span {
            return Err(BindError::NotHere {
                kind: ErrorKind::ExtraWord,
                span,
                text: "rolled".into(),
                why: format!("means nothing to `{verb}`, which throws no dice"),
            }
            .into());
        }
        let word = match (which.takes_word(), command.words.first()) {
            (Some(what), None) => {
                return Err(BindError::Missing {
                    span: Span::at_end(line),
                    what: format!("`{verb}` needs {what}"),
                }
                .into());
            }
            (_, word) => word,
        };
        match which {
            GameVerb::Units => Ok(game.roster()),
            GameVerb::Show => {
                let Some(word) = word else {
                    return Err(needs_a_word(verb));
                };
                let id = crate::parse::normalise(&word.text);
                game.show(&id).ok_or_else(|| {
                    let ids = game.ids();
                    BindError::UnknownWord {
                        span: word.span,
                        word: word.text.to_string(),
                        verb: verb.to_string(),
                        suggestion: crate::bind::nearest(&id, ids.iter().map(String::as_str)),
                    }
                    .into()
                })
            }
            GameVerb::NextTurn => {
                game.next_turn(line).map_err(game_error)?;
                Ok(Report::NextTurn {
                    turn: game.turn,
                    notes: game.next_turn_texts(),
                })
            }
            GameVerb::EndTurn => Ok(game.end_turn()),
            GameVerb::Undo => Ok(Report::Undo {
                undone: game.undo().map_err(game_error)?,
            }),
            GameVerb::Log => game.log().map_err(game_error),
            GameVerb::Save => {
                let Some(word) = word else {
                    return Err(needs_a_word(verb));
                };
                let path = std::path::Path::new(&word.text);
                game.save_as(path, force).map_err(game_error)?;
                Ok(Report::Saved {
                    path: path.display().to_string(),
                })
            }
        }
    }
}

impl Session {
    /// `set WORD VALUE`: a setting of the active rule system (`set bases N`).
    pub(super) fn set(&mut self, command: &Command, line: &str) -> Result<String, CommandError> {
        if command
            .words
            .first()
            .is_some_and(|w| crate::parse::normalise(&w.text) == "rules")
        {
            return self.set_rules(command, line);
        }
        if let (Some(file), Some(what)) = (
            self.game.as_ref().and_then(|g| g.file.as_ref()),
            command.words.first(),
        ) {
            // A game is resolved again under what its journal records:
            // a setting made in one session only would make its lines
            // answer otherwise when they are read again.
            return Err(BindError::NotHere {
                kind: ErrorKind::WrongMode,
                span: what.span,
                text: what.text.to_string(),
                why: format!(
                    "is a setting of a session, and {} is a game kept in a file, whose lines are resolved \
                     again as its journal records them: give the value on the line instead (`bases=N`), \
                     or keep it in a house table (--tables DIR) when the game begins",
                    file.display()
                ),
            }
            .into());
        }
        let system = command.system.map_or(self.rules, |(s, _)| s);
        let set = self.tables.set(system).cloned();
        let settings = set.as_ref().map(|s| s.settings()).unwrap_or_default();
        let usage = settings
            .iter()
            .map(|(usage, what)| format!("`{usage}` ({what})"))
            .chain(std::iter::once(
                "`set rules SYSTEM` (the rule system lines are read under)".to_string(),
            ))
            .collect::<Vec<_>>()
            .join(", ");
        let Some(what) = command.words.first() else {
            return Err(BindError::Missing {
                span: Span::at_end(line),
                what: format!("`set` needs a setting: {usage}"),
            }
            .into());
        };
        if let Some(extra) = command.words.get(2) {
            return Err(BindError::NotHere {
                kind: ErrorKind::ExtraWord,
                span: extra.span,
                text: extra.text.to_string(),
                why: format!("is one word too many: {usage}"),
            }
            .into());
        }
        let wanted = crate::parse::normalise(&what.text);
        if let Some((name, _)) = DISPLAY_SETTINGS.iter().find(|(n, _)| *n == wanted) {
            return Err(BindError::NotHere {
                kind: ErrorKind::WrongMode,
                span: what.span,
                text: what.text.to_string(),
                why: format!(
                    "is a setting of the prompt's display: give `--{name}` on the command line instead"
                ),
            }
            .into());
        }
        let made = set.and_then(|s| s.set(what, command.words.get(1), line));
        let Some(made) = made else {
            let names = settings
                .iter()
                .filter_map(|(usage, _)| usage.split_whitespace().nth(1))
                .chain(["rules"]);
            return Err(BindError::UnknownWord {
                span: what.span,
                word: what.text.to_string(),
                verb: MetaVerb::Set.name().into(),
                suggestion: crate::bind::nearest(&what.text, names),
            }
            .into());
        };
        let (new, said) = made?;
        self.tables.replace(new);
        self.catalog = catalog(&self.tables);
        Ok(said)
    }

    /// `set rules SYSTEM`: the rule system the lines after it are read under.
    fn set_rules(&mut self, command: &Command, line: &str) -> Result<String, CommandError> {
        let known = self
            .catalog
            .books
            .iter()
            .map(|b| format!("`{}` ({})", b.id(), b.title()))
            .collect::<Vec<_>>()
            .join(", ");
        let Some(id) = command.words.get(1) else {
            return Err(BindError::Missing {
                span: Span::at_end(line),
                what: format!("`set rules` needs a rule system: {known}"),
            }
            .into());
        };
        if let Some(extra) = command.words.get(2) {
            return Err(BindError::NotHere {
                kind: ErrorKind::ExtraWord,
                span: extra.span,
                text: extra.text.to_string(),
                why: "is one word too many: `set rules SYSTEM`".into(),
            }
            .into());
        }
        let wanted = crate::parse::normalise(&id.text);
        let Some(book) = self
            .catalog
            .books
            .iter()
            .find(|b| b.id() == wanted)
            .copied()
        else {
            let ids = self.catalog.books.iter().map(|b| b.id());
            let near = crate::bind::nearest(&wanted, ids)
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            return Err(BindError::BadValue {
                span: id.span,
                text: id.text.to_string(),
                expected: format!("not a rule system drumhead knows: {known}{near}"),
            }
            .into());
        };
        self.rules = book;
        Ok(format!(
            "rules: {} — its verbs are read without a prefix now",
            book.title()
        ))
    }
}
