//! What a resolver returns: the dice, the modifier stack, the score and the
//! outcome, the typed effects it has on the units it names, the measures
//! `odds` takes expectations of, and the procedure's own fields for JSON
//! (output only: nothing reads them back).

use std::borrow::Cow;
use std::fmt;
use std::rc::Rc;

use serde_json::Value;

use super::{ClauseKind, Rolled, System};

/// One row of the explanation table. Dice and modifiers refer to the
/// resolution's own lists, so the text is built only when it is shown.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    /// A die; the label is shared by the dice of one roll, numbered when
    /// there are several.
    Die {
        label: Rc<str>,
        number: Option<usize>,
        die: usize,
    },
    /// An entry of `modifiers`.
    Modifier(usize),
    Plain {
        label: String,
        value: String,
    },
    /// A table's own row, its label shared by every line that lands on
    /// it, beside a word of the program's.
    Shared {
        label: Rc<str>,
        value: &'static str,
    },
    /// The score, written out only when shown.
    Score(i64),
}

impl Row {
    pub(crate) fn plain(label: impl std::fmt::Display, value: impl ToString) -> Row {
        Row::Plain {
            label: label.to_string(),
            value: value.to_string(),
        }
    }
}

/// A label of the stack, made shared text only when the row is kept. A
/// table row's own label (already shared) is taken as it is, and a
/// `format_args!` is formatted once, straight into the text: every line
/// of a batch labels a few rows, and going through `Display` for a label
/// that is already text cost more than the rest of the row.
pub(crate) trait IntoLabel {
    fn into_label(self) -> Rc<str>;
}

impl IntoLabel for Rc<str> {
    fn into_label(self) -> Rc<str> {
        self
    }
}

impl IntoLabel for &Rc<str> {
    fn into_label(self) -> Rc<str> {
        self.clone()
    }
}

impl IntoLabel for &str {
    fn into_label(self) -> Rc<str> {
        self.into()
    }
}

impl IntoLabel for String {
    fn into_label(self) -> Rc<str> {
        self.into()
    }
}

impl IntoLabel for &String {
    fn into_label(self) -> Rc<str> {
        self.as_str().into()
    }
}

impl IntoLabel for fmt::Arguments<'_> {
    fn into_label(self) -> Rc<str> {
        match self.as_str() {
            Some(text) => text.into(),
            None => fmt::format(self).into(),
        }
    }
}

/// One adjustment between the dice and the score, named by its table row.
#[derive(Debug, Clone, PartialEq)]
pub struct Modifier {
    pub label: Rc<str>,
    pub value: i64,
}

/// The procedure's own results, in the order the resolver gave them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fields(pub Vec<(Cow<'static, str>, Value)>);

impl Fields {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Set a field, replacing an earlier value of the same key.
    pub(crate) fn insert(&mut self, key: impl Into<Cow<'static, str>>, value: Value) {
        let key = key.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => *v = value,
            None => self.0.push((key, value)),
        }
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.0.iter().map(|(k, v)| (k.as_ref(), v))
    }
}

impl std::ops::Index<&str> for Fields {
    type Output = Value;
    /// A missing field reads as `null`, like indexing a JSON object.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&Value::Null)
    }
}

/// A note said under every answer of a table alike, in full and in a
/// line of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// What it is about, in a few words.
    pub line: &'static str,
    /// The note in full.
    pub text: &'static str,
}

/// How an outcome should be coloured: good for the acting unit, bad, or neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Good,
    Neutral,
    Bad,
}

/// An effect as answers show it: what it did, in words, and as the
/// journal keeps it. A rule system's resolvers make its own effect type
/// ([`Resolution`] of that type); the game applies those, typed, and the
/// answer keeps them shown.
pub(crate) type Shown = Rc<dyn Effect>;

#[derive(Debug, Clone)]
pub struct Resolution<E = Shown> {
    pub(crate) rules: System,
    pub(crate) verb: &'static str,
    /// A short description shown above the table: "resilience test, from shooting".
    pub heading: String,
    /// The seed of the generator, when any die came from it.
    pub(crate) seed: Option<u64>,
    pub dice: Vec<Rolled>,
    pub rows: Vec<Row>,
    pub modifiers: Vec<Modifier>,
    pub score: Option<i64>,
    /// Machine id of the outcome (`carry-on`, `must-charge`, …).
    pub outcome: Cow<'static, str>,
    /// The outcome in the rule's words.
    pub outcome_text: Cow<'static, str>,
    pub(crate) tone: Tone,
    /// Extra lines under the outcome: follow-ups the rules require.
    pub notes: Vec<String>,
    /// Those of the notes that say the same under every answer of a table
    /// (the example CRT's warning), each with a line of its own: a page
    /// shows such a note folded into its line rather than whole every
    /// time. Each one's text is among `notes`, where the text output
    /// shows it.
    pub standing: Vec<Standing>,
    /// Procedure-specific JSON fields, for output only.
    pub fields: Fields,
    /// What the resolution does to the units it named, by who they are in
    /// the command. Not kept under `odds`.
    pub(crate) effects: Vec<(Target, E)>,
    /// Numeric results `odds` reports the expectation of, as
    /// `expected_NAME`: hits, distance, bases lost…
    pub measures: Vec<(&'static str, f64)>,
    /// Units of loaded armies the command named.
    pub(crate) units: Vec<NamedUnit>,
    /// How `odds` groups this outcome, when coarser than `outcome_text`
    /// (a melee round by who wins it, not by every score).
    pub odds_group: Option<Cow<'static, str>>,
    /// Built for `odds`, which reads only the outcome and the fields: the
    /// explanation (rows, notes) is not kept.
    pub(crate) quiet: bool,
}

/// Two resolutions are the same when everything shown and every effect
/// (as the journal would keep it) is.
impl<E: Effect> PartialEq for Resolution<E> {
    fn eq(&self, other: &Resolution<E>) -> bool {
        let effects = |r: &Resolution<E>| -> Vec<(Target, serde_json::Value)> {
            r.effects.iter().map(|(t, e)| (*t, e.json())).collect()
        };
        self.rules == other.rules
            && self.verb == other.verb
            && self.heading == other.heading
            && self.seed == other.seed
            && self.dice == other.dice
            && self.rows == other.rows
            && self.modifiers == other.modifiers
            && self.score == other.score
            && self.outcome == other.outcome
            && self.outcome_text == other.outcome_text
            && self.tone == other.tone
            && self.notes == other.notes
            && self.standing == other.standing
            && self.fields == other.fields
            && effects(self) == effects(other)
            && self.measures == other.measures
            && self.units == other.units
            && self.odds_group == other.odds_group
            && self.quiet == other.quiet
    }
}

impl<E> Resolution<E> {
    /// A resolution that keeps its explanation when `explain` is set;
    /// `odds` builds them without (see [`Resolution::quiet`]).
    pub(crate) fn new(
        rules: System,
        verb: &'static str,
        heading: impl Into<String>,
        explain: bool,
    ) -> Resolution<E> {
        // Room for a usual explanation at once, rather than growing each
        // list push by push (under `odds` the lists stay unallocated).
        let room = |n: usize| if explain { n } else { 0 };
        Resolution {
            rules,
            verb,
            heading: heading.into(),
            seed: None,
            dice: Vec::with_capacity(room(4)),
            rows: Vec::with_capacity(room(12)),
            modifiers: Vec::with_capacity(room(6)),
            score: None,
            outcome: Cow::Borrowed(""),
            outcome_text: Cow::Borrowed(""),
            tone: Tone::Neutral,
            notes: Vec::new(),
            standing: Vec::new(),
            fields: Fields(Vec::with_capacity(room(4))),
            effects: Vec::new(),
            measures: Vec::with_capacity(room(2)),
            units: Vec::new(),
            odds_group: None,
            quiet: !explain,
        }
    }

    /// A die in the stack: `2D6 (rolled)  4`.
    pub(crate) fn die(&mut self, label: impl IntoLabel, die: Rolled) {
        if self.quiet {
            self.dice.push(die);
            return;
        }
        self.rows.push(Row::Die {
            label: label.into_label(),
            number: None,
            die: self.dice.len(),
        });
        self.dice.push(die);
    }

    /// Several dice under one label, numbered when there is more than one.
    pub(crate) fn dice_rows(&mut self, label: impl IntoLabel, dice: &[Rolled]) {
        if self.quiet {
            self.dice.extend_from_slice(dice);
            return;
        }
        let label = label.into_label();
        for (i, die) in dice.iter().enumerate() {
            self.rows.push(Row::Die {
                label: label.clone(),
                number: (dice.len() > 1).then_some(i + 1),
                die: self.dice.len(),
            });
            self.dice.push(*die);
        }
    }

    /// An adjustment with its table row. The label becomes text only when
    /// the row is kept (see [`Resolution::row`]).
    pub(crate) fn modifier(&mut self, label: impl IntoLabel, value: i64) {
        if self.quiet {
            return;
        }
        self.rows.push(Row::Modifier(self.modifiers.len()));
        self.modifiers.push(Modifier {
            label: label.into_label(),
            value,
        });
    }

    /// A plain explanation row (a looked-up value, a fixed distance).
    /// Both parts are only turned into text when the row is kept, so a
    /// resolver may pass `format_args!` and pay nothing under `odds`.
    pub(crate) fn row(&mut self, label: impl std::fmt::Display, value: impl ToString) {
        if self.quiet {
            return;
        }
        self.rows.push(Row::plain(label, value));
    }

    /// A table's row whose label the table keeps ([`Row::Shared`]).
    pub(crate) fn shared_row(&mut self, label: impl FnOnce() -> Rc<str>, value: &'static str) {
        if self.quiet {
            return;
        }
        self.rows.push(Row::Shared {
            label: label(),
            value,
        });
    }

    /// Add another resolution's explanation (rows, dice, modifiers, notes)
    /// after this one's: a resolver's work done once and reused.
    pub(crate) fn append<F>(&mut self, other: &Resolution<F>) {
        let (dice, modifiers) = (self.dice.len(), self.modifiers.len());
        self.rows.extend(other.rows.iter().map(|row| match row {
            Row::Die { label, number, die } => Row::Die {
                label: label.clone(),
                number: *number,
                die: die + dice,
            },
            Row::Modifier(i) => Row::Modifier(i + modifiers),
            plain => plain.clone(),
        }));
        self.dice.extend_from_slice(&other.dice);
        self.modifiers.extend(other.modifiers.iter().cloned());
        self.notes.extend(other.notes.iter().cloned());
        for note in &other.standing {
            if !self.standing.contains(note) {
                self.standing.push(*note);
            }
        }
    }

    /// The rows as (label, value) text, for display.
    pub fn row_texts(&self) -> Vec<(String, String)> {
        self.rows
            .iter()
            .map(|row| match row {
                Row::Die { label, number, die } => {
                    // "2D6 die 1 (entered)", by hand as `signed` is.
                    let d = self.dice.get(*die).copied();
                    let how = d.map_or("", |d| d.how());
                    let face = d.map_or(String::new(), |d| {
                        itoa::Buffer::new().format(d.face).to_string()
                    });
                    let mut text = String::with_capacity(label.len() + how.len() + 12);
                    text.push_str(label);
                    if let Some(n) = number {
                        text.push_str(" die ");
                        text.push_str(itoa::Buffer::new().format(*n));
                    }
                    text.push_str(" (");
                    text.push_str(how);
                    text.push(')');
                    (text, face)
                }
                Row::Modifier(i) => self
                    .modifiers
                    .get(*i)
                    .map_or((String::new(), String::new()), |m| {
                        (m.label.to_string(), signed(m.value))
                    }),
                Row::Plain { label, value } => (label.clone(), value.clone()),
                Row::Shared { label, value } => (label.to_string(), value.to_string()),
                Row::Score(score) => (
                    "score".to_string(),
                    itoa::Buffer::new().format(*score).to_string(),
                ),
            })
            .collect()
    }

    pub(crate) fn set_score(&mut self, score: i64) {
        self.score = Some(score);
        if !self.quiet {
            self.rows.push(Row::Score(score));
        }
    }

    pub(crate) fn set_outcome(
        &mut self,
        id: impl Into<Cow<'static, str>>,
        text: impl Into<Cow<'static, str>>,
        tone: Tone,
    ) {
        self.outcome = id.into();
        self.outcome_text = text.into();
        self.tone = tone;
    }

    /// A procedure's own result for JSON. Fields are output only: under
    /// `odds`, which shows none, they are not kept (measures are).
    pub(crate) fn field(&mut self, key: impl Into<Cow<'static, str>>, value: impl Into<Value>) {
        if self.quiet {
            return;
        }
        self.fields.insert(key, value.into());
    }

    /// An effect on a unit the command named (or on the game). Only
    /// resolutions that explain keep effects: `odds` applies none.
    pub(crate) fn effect(&mut self, to: Target, effect: E) {
        if self.quiet {
            return;
        }
        self.effects.push((to, effect));
    }

    /// A numeric result whose expectation `odds` reports.
    pub(crate) fn measure(&mut self, name: &'static str, value: f64) {
        match self.measures.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => *v = value,
            None => self.measures.push((name, value)),
        }
    }

    /// The effects with the unit each falls on: effects on a side that
    /// named no unit fall on nobody and are left out.
    pub(crate) fn addressed(&self) -> Vec<(Option<&str>, &E)> {
        let mut out = Vec::new();
        for (to, effect) in &self.effects {
            match to {
                Target::Game => out.push((None, effect)),
                Target::Side { clause, nth } => {
                    let unit = self
                        .units
                        .iter()
                        .filter(|u| u.clause.map(|(i, _)| i) == *clause)
                        .nth(*nth);
                    if let Some(u) = unit {
                        out.push((Some(u.id.as_str()), effect));
                    }
                }
            }
        }
        out
    }

    pub(crate) fn note(&mut self, text: impl std::fmt::Display) {
        if self.quiet {
            return;
        }
        self.notes.push(text.to_string());
    }

    /// Entered dice the line took and did not need: a note says which and
    /// `why` (and, when other outcomes throw more, up to how many), and
    /// the JSON lists them as `unused_dice`.
    pub(crate) fn unused_dice(
        &mut self,
        faces: &[u32],
        why: impl std::fmt::Display,
        most_on_others: Option<usize>,
    ) {
        let list = faces
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let (dice, were) = if faces.len() == 1 {
            ("die", "was")
        } else {
            ("dice", "were")
        };
        let others = most_on_others.map_or(String::new(), |most| {
            format!("the line throws up to {most} on other outcomes; ")
        });
        self.note(format_args!(
            "Entered {dice} {list} {were} not needed: {why} ({others}the dice are read in the \
             order they are thrown)."
        ));
        self.field("unused_dice", faces.to_vec());
    }

    /// A note that is the same under every answer of a table: among the
    /// notes, and marked [standing](Resolution::standing).
    pub(crate) fn standing_note(&mut self, note: Standing) {
        if self.quiet {
            return;
        }
        self.notes.push(note.text.to_string());
        if !self.standing.contains(&note) {
            self.standing.push(note);
        }
    }
}

impl<E: Effect + Clone + 'static> Resolution<E> {
    /// The resolution as answers show it, and the effects it has on the
    /// units it names (each with its unit's id), in the resolver's own
    /// type, for the game to apply.
    pub(crate) fn split(self) -> (Resolution, Vec<(Option<String>, E)>) {
        let typed = self
            .addressed()
            .into_iter()
            .map(|(unit, e)| (unit.map(str::to_string), e.clone()))
            .collect();
        (self.shown(), typed)
    }

    /// The resolution as answers show it.
    pub(crate) fn shown(self) -> Resolution {
        Resolution {
            rules: self.rules,
            verb: self.verb,
            heading: self.heading,
            seed: self.seed,
            dice: self.dice,
            rows: self.rows,
            modifiers: self.modifiers,
            score: self.score,
            outcome: self.outcome,
            outcome_text: self.outcome_text,
            tone: self.tone,
            notes: self.notes,
            standing: self.standing,
            fields: self.fields,
            effects: self
                .effects
                .into_iter()
                .map(|(to, e)| (to, Rc::new(e) as Shown))
                .collect(),
            measures: self.measures,
            units: self.units,
            odds_group: self.odds_group,
            quiet: self.quiet,
        }
    }
}

/// `+1`, `-2`, `+0`: adjustments always show their sign.
pub(crate) fn signed(value: i64) -> String {
    // Put together by hand rather than with `format!`: every modifier of
    // every answer is written so, and the formatting machinery cost
    // several times what the digits do.
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(value.unsigned_abs());
    let mut out = String::with_capacity(digits.len() + 3);
    out.push(if value < 0 { '−' } else { '+' });
    out.push_str(digits);
    out
}

/// A unit a command named, on which side, and the facts it brought.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NamedUnit {
    /// `None`: the acting side; otherwise the clause's index and kind.
    pub(crate) clause: Option<(usize, ClauseKind)>,
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) applied: Vec<String>,
}

/// What a resolution does to a unit, in its rule system's own terms: hits
/// taken, a figure killed, a token spent, a step lost. The game applies
/// exactly these; the journal keeps them as JSON.
pub trait Effect: fmt::Debug {
    /// What happened, in words: "aus-5 takes 4 hits".
    fn describe(&self, unit: Option<&str>) -> String;
    /// The effect as the journal keeps it.
    fn json(&self) -> serde_json::Value;
}

impl Effect for Shown {
    fn describe(&self, unit: Option<&str>) -> String {
        self.as_ref().describe(unit)
    }

    fn json(&self) -> serde_json::Value {
        self.as_ref().json()
    }
}

/// A rule system's effect type: serde writes it for the journal (as an
/// object with an `effect` tag), and it says what it did. Every such type
/// is an [`Effect`].
pub(crate) trait SystemEffect: serde::Serialize + fmt::Debug + 'static {
    fn describe(&self, unit: Option<&str>) -> String;
}

impl<T: SystemEffect> Effect for T {
    fn describe(&self, unit: Option<&str>) -> String {
        SystemEffect::describe(self, unit)
    }

    fn json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// Who an effect falls on: a unit the command named, by its side and its
/// place among the units named there, or the game itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `clause: None` is the acting side; `nth` counts the units named on
    /// that side, from 0.
    Side {
        clause: Option<usize>,
        nth: usize,
    },
    Game,
}

impl Target {
    /// The first unit named on the acting side.
    pub(crate) const ACTOR: Target = Target::Side {
        clause: None,
        nth: 0,
    };

    /// The `nth` unit named in clause `clause` (from 0).
    pub(crate) fn clause(clause: usize, nth: usize) -> Target {
        Target::Side {
            clause: Some(clause),
            nth,
        }
    }
}
