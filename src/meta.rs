//! The verbs drumhead answers itself rather than a rule system's
//! resolvers: help, odds, simulate, settings, the game's own verbs and
//! the front ends' `quit`. Each is a variant with its name, usage and help,
//! matched once where a line is run (and by the REPL, its completion and
//! a batch's settings), so a verb added here is a compile error until
//! every place that answers it does.

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
    /// The front ends' own: the REPL and a batch read `quit` (or `exit`)
    /// before any session, and stop.
    Quit,
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
    pub(crate) const fn name(self) -> &'static str {
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
    pub(crate) const ALL: [MetaVerb; 13] = [
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
        MetaVerb::Quit,
    ];

    pub(crate) const fn name(self) -> &'static str {
        match self {
            MetaVerb::Help => "help",
            MetaVerb::Odds => "odds",
            MetaVerb::Simulate => "simulate",
            MetaVerb::Set => "set",
            MetaVerb::Load => "load",
            MetaVerb::Game(verb) => verb.name(),
            MetaVerb::Quit => "quit",
        }
    }

    /// Every name the verb is typed by: its own, then any other.
    pub(crate) fn names(self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.name()).chain(self.alias())
    }

    /// The verb's other name, if it has one.
    const fn alias(self) -> Option<&'static str> {
        match self {
            MetaVerb::Quit => Some("exit"),
            _ => None,
        }
    }

    /// A bit for each length a verb's name has (every name is shorter
    /// than 64 bytes), made from the names when the program is built.
    const NAME_LENGTHS: u64 = {
        let mut mask = 0u64;
        let mut i = 0;
        while i < MetaVerb::ALL.len() {
            let verb = MetaVerb::ALL[i];
            mask |= 1 << verb.name().len();
            if let Some(alias) = verb.alias() {
                mask |= 1 << alias.len();
            }
            i += 1;
        }
        mask
    };

    /// Whether a session answers the verb (`quit` is the front ends').
    pub(crate) fn of_session(self) -> bool {
        self != MetaVerb::Quit
    }

    /// The session's verb of this name, if it is one.
    pub(crate) fn named(name: &str) -> Option<MetaVerb> {
        MetaVerb::typed(name).filter(|v| v.of_session())
    }

    /// The verb typed as `name` (the REPL's own too), if it is one.
    pub(crate) fn typed(name: &str) -> Option<MetaVerb> {
        // Asked of every line of a batch, and most lines are a rule
        // system's verb: a word of a length no verb here has is none of
        // them, without comparing it with each.
        if name.len() >= 64 || MetaVerb::NAME_LENGTHS & (1 << name.len()) == 0 {
            return None;
        }
        MetaVerb::ALL
            .into_iter()
            .find(|v| v.name() == name || v.alias() == Some(name))
    }

    /// How the verb is typed, for `help VERB` and the manual.
    pub(crate) fn usage(self) -> &'static str {
        match self {
            MetaVerb::Help => "help [VERB]",
            MetaVerb::Odds => "odds COMMAND [compare WORD…]",
            MetaVerb::Simulate => "simulate N COMMAND",
            MetaVerb::Set => "set SETTING VALUE",
            MetaVerb::Load => "load FILE",
            MetaVerb::Game(GameVerb::Show) => "show UNIT",
            MetaVerb::Game(GameVerb::Save) => "save FILE [force]",
            MetaVerb::Game(_) | MetaVerb::Quit => self.name(),
        }
    }

    /// What the verb does, for `help` and the manual.
    pub(crate) fn about(self) -> &'static str {
        match self {
            MetaVerb::Help => "The verbs of the active rule system, or every word a verb knows.",
            MetaVerb::Odds => {
                "The exact probability of every outcome of COMMAND, with expected values; \
                 compare shows the distribution without and with the words. One throw may \
                 come up at most 501 ways (100d6, a 500-die pool); past that, use simulate. \
                 A sweep: one or two words as a range or a list (bases=2..8, 2BW,6BW) answer \
                 with a row for each combination, like `odds shoot musket 2BW,6BW formed bases=2..8`. \
                 --format csv writes the answer as a table, --svg FILE draws it."
            }
            MetaVerb::Simulate => {
                "Roll COMMAND N times and show the observed frequencies beside the exact ones; \
                 alone, for a line with more outcomes than odds lists. N × the dice of one \
                 roll, each roll counted as 10 dice more, is bounded by the simulate dice limit \
                 (see drumhead(1), LIMITS): a larger N is refused with the N that fits."
            }
            MetaVerb::Set => {
                "A setting: `set rules SYSTEM` makes another rule system the active one (the ids \
                 --rules takes); at the prompt, `set brief [on|off]` and `set ascii [on|off]` change \
                 how the answers look (--brief, --ascii); Drums and Muskets: `set bases N`, the bases \
                 a shooting or melee side is given when neither bases=N nor a unit says."
            }
            MetaVerb::Load => {
                "In the REPL: load an army list, so its units can be named; with no game yet, a game \
                 kept in memory starts (a game kept in a file keeps the armies it began with)."
            }
            MetaVerb::Game(GameVerb::Units) => {
                "Every unit, figure, general and leader of the armies loaded; and what the game knows of each."
            }
            MetaVerb::Game(GameVerb::Show) => "One unit's facts and state.",
            MetaVerb::Game(GameVerb::NextTurn) => {
                "Start the next turn; what the rules clear at the end of a turn is cleared."
            }
            MetaVerb::Game(GameVerb::EndTurn) => {
                "What the rules do at the end of the turn; Drums and Muskets: the units that take \
                 an end-of-turn resilience test, in the rule's order."
            }
            MetaVerb::Game(GameVerb::Undo) => "Take back the last command that changed the game.",
            MetaVerb::Game(GameVerb::Log) => "The game's journal so far.",
            MetaVerb::Game(GameVerb::Save) => {
                "Save the game and its journal to FILE; a new file or another drumhead game \
                 (force: any regular file)."
            }
            MetaVerb::Quit => "Leave the REPL, or end a batch there (so does exit, or Ctrl-D).",
        }
    }

    /// What the verb answers, for a format to say before the line runs.
    pub(crate) fn kind(self) -> Kind {
        match self {
            MetaVerb::Odds => Kind::Odds,
            MetaVerb::Simulate => Kind::Simulation,
            MetaVerb::Help
            | MetaVerb::Set
            | MetaVerb::Load
            | MetaVerb::Game(_)
            | MetaVerb::Quit => Kind::Report,
        }
    }
}
