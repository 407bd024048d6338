//! What the session and the game answer besides resolutions and odds:
//! help, the roster, one unit, the journal, the end and start of a turn,
//! undo, save and settings. Each is typed data; `render` makes text of it
//! and serde makes JSON of it, so a script reads the same facts the table
//! shows, never a drawing of them.

use serde::Serialize;

/// The version of the JSON objects drumhead writes. It changes when a key
/// is renamed or removed or changes its meaning; new keys may appear
/// without it changing.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// One answer that is neither a resolution nor odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Report {
    /// `help`, `help VERB`.
    Help { text: String },
    /// `units`: every army in its own rule system's columns.
    Roster { turn: u32, armies: Vec<ArmyRoster> },
    /// `show UNIT`.
    Unit {
        id: String,
        name: String,
        army: String,
        /// Each fact and state the unit has, in its system's order.
        rows: Vec<Row>,
    },
    /// `log`: the journal, undone entries marked.
    Log { entries: Vec<LogEntry> },
    /// `end-turn`: what each rule system's rules do at the end of the turn.
    EndTurn { turn: u32, systems: Vec<String> },
    /// `next-turn`: the new turn and what it cleared or brought back.
    NextTurn { turn: u32, notes: Vec<String> },
    /// `undo`: the line taken back, if any.
    Undo { undone: Option<String> },
    /// `save FILE`.
    Saved { path: String },
    /// `set …`: what the setting now is.
    Setting { text: String },
    /// `load FILE` (the REPL): the army now in the game.
    Loaded { text: String },
}

/// One army of the roster: its own columns, and a row per unit.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmyRoster {
    pub(crate) name: String,
    pub(crate) side: String,
    pub(crate) rules: String,
    pub(crate) rules_title: String,
    pub(crate) columns: Vec<String>,
    /// Each unit's cells, in the order of `columns` (in JSON, an object
    /// per unit keyed by column).
    pub(crate) units: Vec<Vec<String>>,
    /// Lines under the table (the army's generals).
    pub(crate) notes: Vec<String>,
    /// How each unit stands, in the order of `units` (a unit without one
    /// is fine): what a view marks, in the system's own word.
    pub(crate) status: Vec<UnitStatus>,
}

/// How a unit stands, as its rule system tells it: fine, shaken (it still
/// acts, under a cloud: disrupted, at half strength, forced to retire), or
/// out (it can no longer act: broken, routed off, eliminated, killed).
/// The word is the system's own ("broken", "disrupted", "ran off"): the
/// core names none.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum UnitStatus {
    #[default]
    Fine,
    Shaken(String),
    Out(String),
}

impl UnitStatus {
    /// The system's word for it, when it is not fine.
    pub(crate) fn word(&self) -> Option<&str> {
        match self {
            UnitStatus::Fine => None,
            UnitStatus::Shaken(w) | UnitStatus::Out(w) => Some(w),
        }
    }

    /// Its level in one word, for a style: `fine`, `shaken`, `out`.
    pub(crate) fn level(&self) -> &'static str {
        match self {
            UnitStatus::Fine => "fine",
            UnitStatus::Shaken(_) => "shaken",
            UnitStatus::Out(_) => "out",
        }
    }
}

impl Serialize for ArmyRoster {
    /// Each unit is an object keyed by its system's column names, so a
    /// script reads `unit["hits"]` whatever the system's columns are.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let units: Vec<serde_json::Map<String, serde_json::Value>> = self
            .units
            .iter()
            .map(|row| {
                self.columns
                    .iter()
                    .zip(row)
                    .map(|(c, v)| (c.clone(), serde_json::Value::from(v.as_str())))
                    .collect()
            })
            .collect();
        let mut st = s.serialize_struct("ArmyRoster", 7)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("side", &self.side)?;
        st.serialize_field("rules", &self.rules)?;
        st.serialize_field("rules_title", &self.rules_title)?;
        st.serialize_field("columns", &self.columns)?;
        st.serialize_field("units", &units)?;
        st.serialize_field("notes", &self.notes)?;
        st.end()
    }
}

/// A label and its value, as `show` lists them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub label: String,
    pub value: String,
}

/// One journal entry as `log` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogEntry {
    pub(crate) entry: u64,
    pub(crate) turn: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) line: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outcome: Option<String>,
    /// The outcome as its rule system names it, where its id stands for a
    /// side the line or the game names (`Prussia` for `a`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outcome_named: Option<String>,
    /// This entry takes back entry N.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) undo: Option<u64>,
    /// Taken back by a later `undo`.
    pub(crate) undone: bool,
    /// The seed its dice rolled from, when it was chosen with `--seed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) chosen_seed: Option<u64>,
}

impl Report {
    /// The `type` of its JSON object.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Report::Help { .. } => "help",
            Report::Roster { .. } => "roster",
            Report::Unit { .. } => "unit",
            Report::Log { .. } => "log",
            Report::EndTurn { .. } => "end-turn",
            Report::NextTurn { .. } => "next-turn",
            Report::Undo { .. } => "undo",
            Report::Saved { .. } => "saved",
            Report::Setting { .. } => "setting",
            Report::Loaded { .. } => "loaded",
        }
    }
}
