//! One error type per layer, and the rendering that shows a person which
//! word of which line is at fault.

use thiserror::Error;

use crate::command::Span;

/// What went wrong, as a script would branch on it: every error has one,
/// and a JSON error carries its [`ErrorKind::name`] as `kind`. The names
/// are stable (documented in `schemas/error.json`); the messages are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A line longer than a command line may be.
    LineTooLong,
    /// A line that is not UTF-8 text.
    NotUtf8,
    /// No verb, or a first word that is none.
    NotAVerb,
    /// A verb the rule system does not have.
    UnknownVerb,
    /// A word the verb does not know (a unit id no army has among them).
    UnknownWord,
    /// A verb or a unit of another rule system than the line's.
    WrongSystem,
    /// A word given twice that is not counted.
    RepeatedWord,
    /// A word, number or clause more than the verb takes.
    ExtraWord,
    /// A word the verb knows, in a place it does not go.
    MisplacedWord,
    /// Something the line needs and does not give.
    MissingWord,
    /// A word that needs a value given none.
    MissingValue,
    /// A value that is not one the word takes.
    BadValue,
    /// A value given to a word that takes none.
    UnexpectedValue,
    /// Two words of the line that exclude each other.
    Conflict,
    /// A word that contradicts what a named unit, or the game, already
    /// says (an override may resolve it as typed).
    Contradiction,
    /// A rule that does not apply to this unit, weapon or case.
    NotApplicable,
    /// A distance outside the weapon's ranges.
    OutOfRange,
    /// A unit or commander that can no longer act.
    OutOfAction,
    /// What the unit or the game has done this turn forbids it now.
    NotNow,
    /// A verb that needs a game, and there is none.
    NotInGame,
    /// A verb or word that belongs to another place: the REPL, the
    /// command line, `odds`, a game kept in memory.
    WrongMode,
    /// Entered dice that do not fit what the line throws.
    BadDice,
    /// Dice that never end a tie or a run of rerolls.
    EndlessDice,
    /// More than a limit allows: dice, outcomes, paths, swept words, the
    /// size of an answer.
    OverLimit,
    /// A command-line option or an output file refused.
    BadOption,
    /// The game file could not be read or written.
    GameFile,
    /// Another writer holds the game: try again in a moment.
    Busy,
    /// Stopped by Ctrl-C.
    Stopped,
    /// A request the server could not read (served games only).
    BadRequest,
    /// A write to a served game without the umpire's token.
    Unauthorized,
    /// No such game, or page, on the server.
    NotFound,
    /// Too many requests from one place at once.
    TooManyRequests,
    /// The server cannot answer now: ask again in a moment.
    Unavailable,
    /// A fault of drumhead itself.
    Internal,
}

impl ErrorKind {
    pub(crate) const ALL: [ErrorKind; 34] = [
        ErrorKind::LineTooLong,
        ErrorKind::NotUtf8,
        ErrorKind::NotAVerb,
        ErrorKind::UnknownVerb,
        ErrorKind::UnknownWord,
        ErrorKind::WrongSystem,
        ErrorKind::RepeatedWord,
        ErrorKind::ExtraWord,
        ErrorKind::MisplacedWord,
        ErrorKind::MissingWord,
        ErrorKind::MissingValue,
        ErrorKind::BadValue,
        ErrorKind::UnexpectedValue,
        ErrorKind::Conflict,
        ErrorKind::Contradiction,
        ErrorKind::NotApplicable,
        ErrorKind::OutOfRange,
        ErrorKind::OutOfAction,
        ErrorKind::NotNow,
        ErrorKind::NotInGame,
        ErrorKind::WrongMode,
        ErrorKind::BadDice,
        ErrorKind::EndlessDice,
        ErrorKind::OverLimit,
        ErrorKind::BadOption,
        ErrorKind::GameFile,
        ErrorKind::Busy,
        ErrorKind::Stopped,
        ErrorKind::BadRequest,
        ErrorKind::Unauthorized,
        ErrorKind::NotFound,
        ErrorKind::TooManyRequests,
        ErrorKind::Unavailable,
        ErrorKind::Internal,
    ];

    /// The kind's stable name, as a JSON error's `kind` gives it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ErrorKind::LineTooLong => "line_too_long",
            ErrorKind::NotUtf8 => "not_utf8",
            ErrorKind::NotAVerb => "not_a_verb",
            ErrorKind::UnknownVerb => "unknown_verb",
            ErrorKind::UnknownWord => "unknown_word",
            ErrorKind::WrongSystem => "wrong_system",
            ErrorKind::RepeatedWord => "repeated_word",
            ErrorKind::ExtraWord => "extra_word",
            ErrorKind::MisplacedWord => "misplaced_word",
            ErrorKind::MissingWord => "missing_word",
            ErrorKind::MissingValue => "missing_value",
            ErrorKind::BadValue => "bad_value",
            ErrorKind::UnexpectedValue => "unexpected_value",
            ErrorKind::Conflict => "conflict",
            ErrorKind::Contradiction => "contradiction",
            ErrorKind::NotApplicable => "not_applicable",
            ErrorKind::OutOfRange => "out_of_range",
            ErrorKind::OutOfAction => "out_of_action",
            ErrorKind::NotNow => "not_now",
            ErrorKind::NotInGame => "not_in_game",
            ErrorKind::WrongMode => "wrong_mode",
            ErrorKind::BadDice => "bad_dice",
            ErrorKind::EndlessDice => "endless_dice",
            ErrorKind::OverLimit => "over_limit",
            ErrorKind::BadOption => "bad_option",
            ErrorKind::GameFile => "game_file",
            ErrorKind::Busy => "busy",
            ErrorKind::Stopped => "stopped",
            ErrorKind::BadRequest => "bad_request",
            ErrorKind::Unauthorized => "unauthorized",
            ErrorKind::NotFound => "not_found",
            ErrorKind::TooManyRequests => "too_many_requests",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Internal => "internal",
        }
    }
}

/// The line could not be read as a command at all.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ParseError {
    #[error("the line is {len} bytes long; the limit is {max}")]
    LineTooLong { len: usize, max: usize },
    #[error("expected a verb after the rule system (try `help`)")]
    MissingVerb { span: Span },
    #[error(
        "`{text}` is not a verb: a line starts with a verb such as `resilience` or `roll` (try `help`)"
    )]
    NotAVerb { span: Span, text: String },
    #[error(
        "`{text}` is not a die face: after `rolled` give whole numbers, like `rolled 4 3` (and `roll-rest` to roll the dice not given)"
    )]
    BadFace { span: Span, text: String },
    #[error("`rolled` needs the faces you rolled, like `rolled 4 3`")]
    NoDice { span: Span },
    #[error(
        "`roll-rest` comes after every entered face, last on the line: `rolled 4 5 roll-rest` rolls the dice after 4 and 5"
    )]
    MisplacedRollRest { span: Span },
}

impl ParseError {
    pub(crate) fn kind(&self) -> ErrorKind {
        match self {
            ParseError::LineTooLong { .. } => ErrorKind::LineTooLong,
            ParseError::MissingVerb { .. } | ParseError::NotAVerb { .. } => ErrorKind::NotAVerb,
            ParseError::BadFace { .. }
            | ParseError::NoDice { .. }
            | ParseError::MisplacedRollRest { .. } => ErrorKind::BadDice,
        }
    }

    pub(crate) fn span(&self) -> Option<Span> {
        match self {
            ParseError::LineTooLong { .. } => None,
            ParseError::MissingVerb { span }
            | ParseError::NotAVerb { span, .. }
            | ParseError::BadFace { span, .. }
            | ParseError::NoDice { span }
            | ParseError::MisplacedRollRest { span } => Some(*span),
        }
    }
}

/// The words were read, but do not fit the verb.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum BindError {
    #[error("unknown verb `{verb}` for {system}{}", hint(.suggestion))]
    UnknownVerb {
        span: Span,
        verb: String,
        system: &'static str,
        suggestion: Option<String>,
    },
    #[error("unknown word `{word}` for `{verb}`{}", hint(.suggestion))]
    UnknownWord {
        span: Span,
        word: String,
        verb: String,
        suggestion: Option<String>,
    },
    #[error("`{word}` is given twice; it is not a counted word")]
    Repeated { span: Span, word: String },
    #[error("`{word}` needs a value: {expected}")]
    MissingValue {
        span: Span,
        word: String,
        expected: String,
    },
    #[error("`{text}`: {expected}")]
    BadValue {
        span: Span,
        text: String,
        expected: String,
    },
    #[error("`{word}` takes no value")]
    UnexpectedValue { span: Span, word: String },
    #[error("`{second}` and `{first}` are both {group}: give one")]
    Conflict {
        span: Span,
        first: String,
        second: String,
        group: String,
    },
    #[error("{what}")]
    Missing { span: Span, what: String },
    /// A word the verb knows, refused here: `kind` says why, for a script.
    #[error("`{text}` {why}")]
    NotHere {
        span: Span,
        text: String,
        why: String,
        kind: ErrorKind,
    },
}

fn hint(s: &Option<String>) -> String {
    match s {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    }
}

impl BindError {
    pub(crate) fn kind(&self) -> ErrorKind {
        match self {
            BindError::UnknownVerb { .. } => ErrorKind::UnknownVerb,
            BindError::UnknownWord { .. } => ErrorKind::UnknownWord,
            BindError::Repeated { .. } => ErrorKind::RepeatedWord,
            BindError::MissingValue { .. } => ErrorKind::MissingValue,
            BindError::BadValue { .. } => ErrorKind::BadValue,
            BindError::UnexpectedValue { .. } => ErrorKind::UnexpectedValue,
            BindError::Conflict { .. } => ErrorKind::Conflict,
            BindError::Missing { .. } => ErrorKind::MissingWord,
            BindError::NotHere { kind, .. } => *kind,
        }
    }

    pub(crate) fn span(&self) -> Span {
        match self {
            BindError::UnknownVerb { span, .. }
            | BindError::UnknownWord { span, .. }
            | BindError::Repeated { span, .. }
            | BindError::MissingValue { span, .. }
            | BindError::BadValue { span, .. }
            | BindError::UnexpectedValue { span, .. }
            | BindError::Conflict { span, .. }
            | BindError::Missing { span, .. }
            | BindError::NotHere { span, .. } => *span,
        }
    }
}

/// More dice entered than a line used: how many it throws at most, when
/// known, decides which are to go.
fn too_many(entered: usize, used: usize, extra: usize, most: Option<usize>) -> String {
    match most {
        Some(most) if most > used => format!(
            "{entered} dice were entered, but no outcome of this line throws more than {most} \
             (this one threw {used}); remove the last {}",
            entered.saturating_sub(most)
        ),
        Some(most) => format!(
            "{entered} dice were entered, but no outcome of this line throws more than {most}; \
             remove the last {}",
            entered.saturating_sub(most)
        ),
        None => format!(
            "{entered} dice were entered but this needs only {used}; remove the extra {extra}"
        ),
    }
}

/// Entered dice that do not fit what the procedure rolls.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum DiceError {
    #[error("{face} is not a face of a d{sides}: entered faces must be 1 to {sides}")]
    FaceOutOfRange { span: Span, face: u32, sides: u32 },
    #[error("{}", too_many(*.entered, *.used, *.extra, *.most))]
    TooMany {
        span: Span,
        entered: usize,
        used: usize,
        extra: usize,
        /// The most dice the line throws on any outcome, when known.
        most: Option<usize>,
    },
    /// The entered dice ran out before the procedure did: refused, not
    /// made up, unless the line ends with `roll-rest`.
    #[error(
        "{entered} {} entered, but this line throws {}{}: {} — enter every die (`rolled {} …`), or add `roll-rest` after them to roll the missing ones",
        if *.entered == 1 { "die was" } else { "dice were" },
        match .needed { Some(n) => n.to_string(), None => "more".to_string() },
        if .needed.is_some() { " here" } else { "" },
        .missing,
        .typed
    )]
    TooFew {
        span: Span,
        entered: usize,
        /// How many the line throws with these faces, when known.
        needed: Option<usize>,
        /// What the first missing die is for.
        missing: String,
        /// The entered faces as typed, for the advice.
        typed: String,
    },
    #[error("{count} dice in one roll is more than the limit of {max}")]
    TooManyToRoll { span: Span, count: u64, max: u64 },
    #[error(
        "{dice} has {count} possible {what}; `odds` lists at most {max} (the `odds outcomes` limit): {instead}"
    )]
    TooManyOutcomes {
        dice: String,
        count: u64,
        what: &'static str,
        max: u64,
        /// What to do instead: fewer dice, or the `simulate` line that
        /// answers it (filled in where the line is known).
        instead: String,
    },
    #[error(
        "there are more than {max} ways the dice can fall to walk (the `odds paths` limit){}: {instead}",
        if *.sweep { " over the whole sweep" } else { "" }
    )]
    TooManyPaths {
        max: usize,
        /// Counted over every combination of a sweep, not one line.
        sweep: bool,
        instead: String,
    },
    #[error("{rounds} drawn rounds in a row: the entered dice never break the tie")]
    EndlessTies { rounds: usize },
    #[error("{rolls} throws in a row showed more than {max}")]
    EndlessRerolls { rolls: u32, max: u32 },
}

/// What an error that `odds` cannot answer a line says to do instead,
/// when nothing better is known.
pub(crate) const FEWER_DICE: &str = "use fewer dice";

impl DiceError {
    /// The advice of an answer too large for `odds`, to be replaced by a
    /// line that answers it; `None` for any other error.
    pub(crate) fn instead_mut(&mut self) -> Option<&mut String> {
        match self {
            DiceError::TooManyOutcomes { instead, .. }
            | DiceError::TooManyPaths { instead, .. } => Some(instead),
            _ => None,
        }
    }

    pub(crate) fn kind(&self) -> ErrorKind {
        match self {
            DiceError::FaceOutOfRange { .. }
            | DiceError::TooMany { .. }
            | DiceError::TooFew { .. } => ErrorKind::BadDice,
            DiceError::TooManyToRoll { .. }
            | DiceError::TooManyOutcomes { .. }
            | DiceError::TooManyPaths { .. } => ErrorKind::OverLimit,
            DiceError::EndlessTies { .. } | DiceError::EndlessRerolls { .. } => {
                ErrorKind::EndlessDice
            }
        }
    }

    pub(crate) fn span(&self) -> Span {
        match self {
            DiceError::FaceOutOfRange { span, .. }
            | DiceError::TooMany { span, .. }
            | DiceError::TooFew { span, .. }
            | DiceError::TooManyToRoll { span, .. } => *span,
            DiceError::EndlessTies { .. }
            | DiceError::EndlessRerolls { .. }
            | DiceError::TooManyOutcomes { .. }
            | DiceError::TooManyPaths { .. } => Span::default(),
        }
    }
}

/// A house-rule or embedded table that does not have the expected shape.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum TableError {
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{file}: {key}: {message}")]
    Invalid {
        file: String,
        key: String,
        message: String,
    },
    #[error("{file}: {message}")]
    Io { file: String, message: String },
}

/// Anything that stops one command from resolving.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum CommandError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Bind(#[from] BindError),
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// A problem with a command-line option rather than with the line.
    #[error("{0}")]
    Option(String),
    /// Another process is writing the game this line would change: worth
    /// trying again in a moment (the server answers it 409, not 422).
    #[error("{0}")]
    Busy(String),
    /// Refused for a reason of its own kind that has no place on the line.
    #[error("{message}")]
    Refused { kind: ErrorKind, message: String },
    /// One combination of a sweep could not be answered.
    #[error("with {with}: {inner}")]
    Sweep {
        with: String,
        inner: Box<CommandError>,
    },
}

impl CommandError {
    /// What kind of error this is: the one place each is named.
    pub(crate) fn kind(&self) -> ErrorKind {
        match self {
            CommandError::Parse(e) => e.kind(),
            CommandError::Bind(e) => e.kind(),
            CommandError::Dice(e) => e.kind(),
            CommandError::Option(_) => ErrorKind::BadOption,
            CommandError::Busy(_) => ErrorKind::Busy,
            CommandError::Refused { kind, .. } => *kind,
            CommandError::Sweep { inner, .. } => inner.kind(),
        }
    }

    /// A refusal of `kind` with no place on the line.
    pub(crate) fn refused(kind: ErrorKind, message: impl Into<String>) -> CommandError {
        CommandError::Refused {
            kind,
            message: message.into(),
        }
    }

    pub(crate) fn span(&self) -> Option<Span> {
        match self {
            CommandError::Parse(e) => e.span(),
            CommandError::Bind(e) => Some(e.span()),
            CommandError::Dice(e) => Some(e.span()),
            CommandError::Option(_) | CommandError::Busy(_) | CommandError::Refused { .. } => None,
            CommandError::Sweep { inner, .. } => inner.span(),
        }
    }

    /// 1-based column of the first character at fault, counted in characters.
    pub fn column(&self, line: &str) -> Option<usize> {
        self.span().map(|s| {
            line.get(..s.start.min(line.len()))
                .map_or(1, |p| p.chars().count() + 1)
        })
    }

    /// The message, the line, and a caret under the words at fault.
    pub fn render(&self, line: &str, line_no: Option<usize>) -> String {
        let label = line_no.map_or(String::new(), |n| format!("line {n}: "));
        // The message quotes what was typed: shown, never obeyed.
        let mut out = format!("error: {label}{}", crate::text::visible(&self.to_string()));
        if let Some(span) = self.span() {
            let gutter = line_no.map_or(String::from(" "), |n| n.to_string());
            out.push('\n');
            out.push_str(&crate::text::pointed(line, span.start..span.end, &gutter));
        }
        out
    }
}
