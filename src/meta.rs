//! The verbs drumhead answers itself rather than a rule system's
//! resolvers: help, odds, simulate, settings, and the game's own verbs.
//! Each is a variant, matched once where a line is run, so a verb added
//! here is a compile error until every place that answers it does.

use crate::answer::Kind;

/// A verb of the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MetaVerb {
    Help,
    /// `odds` starts a line (the parser reads it as the line's mode).
    Odds,
    Simulate,
    Set,
    Load,
    Game(GameVerb),
}

/// A verb about the game rather than the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GameVerb {
    Units,
    Show,
    NextTurn,
    EndTurn,
    Undo,
    Log,
    Save,
}

impl GameVerb {
    pub(crate) fn name(self) -> &'static str {
        match self {
            GameVerb::Units => "units",
            GameVerb::Show => "show",
            GameVerb::NextTurn => "next-turn",
            GameVerb::EndTurn => "end-turn",
            GameVerb::Undo => "undo",
            GameVerb::Log => "log",
            GameVerb::Save => "save",
        }
    }

    /// Whether the verb changes the game (and so runs under its lock).
    pub(crate) fn changes_game(self) -> bool {
        matches!(self, GameVerb::NextTurn | GameVerb::Undo)
    }

    /// The one word after the verb it takes: a unit id or a file.
    pub(crate) fn takes_word(self) -> Option<&'static str> {
        match self {
            GameVerb::Show => Some("a unit id, like `show gren-1`"),
            GameVerb::Save => Some("a file, like `save game.json`"),
            _ => None,
        }
    }
}

impl MetaVerb {
    pub(crate) const ALL: [MetaVerb; 12] = [
        MetaVerb::Help,
        MetaVerb::Odds,
        MetaVerb::Simulate,
        MetaVerb::Set,
        MetaVerb::Load,
        MetaVerb::Game(GameVerb::Units),
        MetaVerb::Game(GameVerb::Show),
        MetaVerb::Game(GameVerb::NextTurn),
        MetaVerb::Game(GameVerb::EndTurn),
        MetaVerb::Game(GameVerb::Undo),
        MetaVerb::Game(GameVerb::Log),
        MetaVerb::Game(GameVerb::Save),
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            MetaVerb::Help => "help",
            MetaVerb::Odds => "odds",
            MetaVerb::Simulate => "simulate",
            MetaVerb::Set => "set",
            MetaVerb::Load => "load",
            MetaVerb::Game(verb) => verb.name(),
        }
    }

    /// The session's verb of this name, if it is one.
    pub(crate) fn named(name: &str) -> Option<MetaVerb> {
        MetaVerb::ALL.into_iter().find(|v| v.name() == name)
    }

    /// What the verb answers, for a format to say before the line runs.
    pub(crate) fn kind(self) -> Kind {
        match self {
            MetaVerb::Odds => Kind::Odds,
            MetaVerb::Simulate => Kind::Simulation,
            MetaVerb::Help | MetaVerb::Set | MetaVerb::Load | MetaVerb::Game(_) => Kind::Report,
        }
    }
}
