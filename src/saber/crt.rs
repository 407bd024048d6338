//! The combat results table engine. The folios' CRTs are not in the rule
//! texts, so a CRT is a TOML file the user supplies (SPEC 3.3):
//!
//! ```toml
//! name = "Example CRT (illustrative, not from any published folio)"
//! kind = "differential"                 # or "ratio": columns like "1:2", "3:1"
//! columns = [-3, -2, -1, 0, 1, 2, 3]    # outer columns take everything beyond
//! rows = [ ["Ar", "Ac(NE)", …], … ]     # one row per die face, 1 to 6
//! ```
//!
//! A cell is a primary result, an optional parenthesized secondary result,
//! then optional extras (`DF`, `L`, `Ammo`). Every cell is read when the
//! file loads; a bad one is reported with its line, column, die row and CRT
//! column.

use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use crate::error::TableError;
use crate::tables::line_column;

/// Said under every result read from the shipped example CRT.
pub(crate) const EXAMPLE_NOTE: &str = "this is drumhead's illustrative example CRT, not your folio's: copy your folio's CRT into a TOML file (like tables/saber-example-crt.toml) and give it with `--crt FILE`, or as crt.toml in `--tables DIR`";

/// The same, as a note a page may fold into a line.
pub(crate) const EXAMPLE: crate::answer::resolution::Standing =
    crate::answer::resolution::Standing {
        line: "drumhead's illustrative example CRT, not your folio's",
        text: EXAMPLE_NOTE,
    };

/// How many rows a CRT has: one per face of the combat die.
pub(crate) const DIE_FACES: usize = 6;

/// A combat result code (standard 7.8, QuickPlay 7.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    NE,
    Ar,
    Dr,
    Ac,
    Dc,
    Ax,
    Dx,
    Am,
    Dm,
    Ae,
    De,
    Ex,
}

/// Which side a result falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Attacker,
    Defender,
}

impl Side {
    pub(crate) fn id(self) -> &'static str {
        match self {
            Side::Attacker => "attacker",
            Side::Defender => "defender",
        }
    }

    pub(crate) fn other(self) -> Side {
        match self {
            Side::Attacker => Side::Defender,
            Side::Defender => Side::Attacker,
        }
    }
}

/// What kind of result a code is, whatever side it falls on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Letter {
    /// `r`: retreat.
    R,
    /// `c`: check for retreat.
    C,
    /// `x`: step loss.
    X,
    /// `m`: check for rout.
    M,
    /// `e`: eliminated.
    E,
}

impl Code {
    pub(crate) const ALL: [Code; 12] = [
        Code::NE,
        Code::Ar,
        Code::Dr,
        Code::Ac,
        Code::Dc,
        Code::Ax,
        Code::Dx,
        Code::Am,
        Code::Dm,
        Code::Ae,
        Code::De,
        Code::Ex,
    ];

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Code::NE => "NE",
            Code::Ar => "Ar",
            Code::Dr => "Dr",
            Code::Ac => "Ac",
            Code::Dc => "Dc",
            Code::Ax => "Ax",
            Code::Dx => "Dx",
            Code::Am => "Am",
            Code::Dm => "Dm",
            Code::Ae => "Ae",
            Code::De => "De",
            Code::Ex => "Ex",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Code> {
        let text = text.trim();
        if text == "-" || text == "—" {
            return Some(Code::NE);
        }
        Code::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(text))
    }

    /// The side the result falls on (`None` for NE and Ex).
    pub(crate) fn side(self) -> Option<Side> {
        match self {
            Code::Ar | Code::Ac | Code::Ax | Code::Am | Code::Ae => Some(Side::Attacker),
            Code::Dr | Code::Dc | Code::Dx | Code::Dm | Code::De => Some(Side::Defender),
            Code::NE | Code::Ex => None,
        }
    }

    pub(crate) fn letter(self) -> Option<Letter> {
        match self {
            Code::Ar | Code::Dr => Some(Letter::R),
            Code::Ac | Code::Dc => Some(Letter::C),
            Code::Ax | Code::Dx => Some(Letter::X),
            Code::Am | Code::Dm => Some(Letter::M),
            Code::Ae | Code::De => Some(Letter::E),
            Code::NE | Code::Ex => None,
        }
    }

    /// The code of a letter on a side: (Defender, M) is `Dm`.
    pub(crate) fn of(side: Side, letter: Letter) -> Code {
        match (side, letter) {
            (Side::Attacker, Letter::R) => Code::Ar,
            (Side::Attacker, Letter::C) => Code::Ac,
            (Side::Attacker, Letter::X) => Code::Ax,
            (Side::Attacker, Letter::M) => Code::Am,
            (Side::Attacker, Letter::E) => Code::Ae,
            (Side::Defender, Letter::R) => Code::Dr,
            (Side::Defender, Letter::C) => Code::Dc,
            (Side::Defender, Letter::X) => Code::Dx,
            (Side::Defender, Letter::M) => Code::Dm,
            (Side::Defender, Letter::E) => Code::De,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The results that apply in addition to any other (standard 7.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Extra {
    /// `DF`: the defending player receives a fortune of war.
    DF,
    /// `L`: leader casualty check.
    L,
    /// `Ammo`: ammunition depleted.
    Ammo,
}

impl Extra {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Extra::DF => "DF",
            Extra::L => "L",
            Extra::Ammo => "Ammo",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<Extra> {
        match text.to_ascii_lowercase().as_str() {
            "df" => Some(Extra::DF),
            "l" | "leader" => Some(Extra::L),
            "ammo" => Some(Extra::Ammo),
            _ => None,
        }
    }
}

/// One box of the CRT.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// As printed in the file.
    pub text: String,
    pub primary: Code,
    pub secondary: Option<Code>,
    pub extras: Vec<Extra>,
}

impl Cell {
    /// Read a cell: `Dm(Dr) L`, `Ac (NE)`, `Ex, DF`, `NE`.
    pub(crate) fn parse(text: &str) -> Result<Cell, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err("the cell is empty; write `NE` for no effect".into());
        }
        // Primary: up to the first `(`, space or comma.
        let end = trimmed
            .find(|c: char| c == '(' || c == ',' || c.is_whitespace())
            .unwrap_or(trimmed.len());
        let (first, mut rest) = trimmed.split_at(end);
        let primary = Code::parse(first).ok_or_else(|| {
            if Extra::parse(first).is_some() {
                format!(
                    "`{first}` is an extra result; a cell starts with a primary result such as `NE` or `Dr`"
                )
            } else {
                format!("`{first}` is not a combat result; expected one of {}", codes())
            }
        })?;
        rest = rest.trim_start();
        let mut secondary = None;
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner
                .find(')')
                .ok_or_else(|| format!("`({inner}` has no closing parenthesis"))?;
            let code = &inner[..close];
            secondary = Some(Code::parse(code).ok_or_else(|| {
                format!(
                    "`({code})` is not a parenthesized result; expected one of {}",
                    codes()
                )
            })?);
            rest = &inner[close + 1..];
        }
        let mut extras = Vec::new();
        for word in rest
            .split(|c: char| c == ',' || c == '+' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            if word.starts_with('(') {
                return Err(format!(
                    "`{word}`: a cell has at most one parenthesized result, right after the primary"
                ));
            }
            let extra = Extra::parse(word).ok_or_else(|| {
                format!("`{word}` is not an extra result; expected DF, L or Ammo after the result")
            })?;
            if extras.contains(&extra) {
                return Err(format!("`{word}` is given twice"));
            }
            extras.push(extra);
        }
        Ok(Cell {
            text: trimmed.to_string(),
            primary,
            secondary,
            extras,
        })
    }
}

fn codes() -> String {
    Code::ALL.map(Code::as_str).join(", ")
}

/// How the columns are headed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrtKind {
    /// Attack total minus defence total.
    Differential,
    /// Attack total to defence total, as `3:1` or `1:2`.
    Ratio,
}

impl CrtKind {}

/// One column heading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    Differential(i64),
    /// attack : defence
    Ratio(u32, u32),
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Column::Differential(d) if *d > 0 => write!(f, "+{d}"),
            Column::Differential(d) if *d < 0 => write!(f, "−{}", -d),
            Column::Differential(d) => write!(f, "{d}"),
            Column::Ratio(a, d) => write!(f, "{a}:{d}"),
        }
    }
}

/// A loaded and checked CRT.
#[derive(Debug, Clone, PartialEq)]
pub struct Crt {
    pub name: String,
    /// Where it came from, for the output.
    pub(crate) file: String,
    pub kind: CrtKind,
    pub columns: Vec<Column>,
    /// `rows[face - 1][column]`.
    pub rows: Vec<Vec<Cell>>,
    /// For each column, the faces where its result changes: see [`Crt::changes`].
    changes: Vec<Vec<u32>>,
}

/// Where a combat lands on the table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Lookup {
    /// The differential, or the totals of a ratio table.
    pub(crate) actual: Actual,
    pub(crate) column: usize,
    /// Whether the actual value lay beyond an outer column.
    pub(crate) clamped: bool,
}

impl Crt {
    /// The column for a differential, clamped to the outer columns; for a
    /// differential between two columns, the one in the defender's favour.
    pub(crate) fn differential_column(&self, differential: i64) -> Lookup {
        let mut column = 0;
        for (i, c) in self.columns.iter().enumerate() {
            if let Column::Differential(d) = c
                && *d <= differential
            {
                column = i;
            }
        }
        let clamped = match (self.columns.first(), self.columns.last()) {
            (Some(Column::Differential(lo)), Some(Column::Differential(hi))) => {
                differential < *lo || differential > *hi
            }
            _ => false,
        };
        Lookup {
            actual: Actual::Differential(differential),
            column,
            clamped,
        }
    }

    /// The column for attack and defence totals on a ratio table: the
    /// highest column not above the true ratio (hex games round odds in
    /// the defender's favour), clamped to the outer columns.
    pub(crate) fn ratio_column(&self, attack: i64, defence: i64) -> Lookup {
        let (attack, defence) = (attack.max(0), defence.max(0));
        let mut column = 0;
        let mut any = false;
        for (i, c) in self.columns.iter().enumerate() {
            if let Column::Ratio(a, d) = c
                && i64::from(*a) * defence <= attack * i64::from(*d)
            {
                column = i;
                any = true;
            }
        }
        let above_top = match self.columns.last() {
            Some(Column::Ratio(a, d)) => match rounded_ratio(attack, defence) {
                None => true,
                Some((ra, rd)) => ra * i64::from(*d) > i64::from(*a) * rd,
            },
            _ => false,
        };
        let clamped = !any || above_top;
        Lookup {
            actual: Actual::Ratio(attack, defence),
            column,
            clamped,
        }
    }

    /// The faces of the combat die where the column's result changes from
    /// the face below: a die read only through this column need not be
    /// told apart within a run of equal cells.
    pub(crate) fn changes(&self, column: usize) -> &[u32] {
        self.changes.get(column).map_or(&[], Vec::as_slice)
    }

    pub(crate) fn cell(&self, face: u32, column: usize) -> Option<&Cell> {
        self.rows
            .get((face as usize).checked_sub(1)?)
            .and_then(|r| r.get(column))
    }

    /// Load and check a CRT file.
    pub(crate) fn parse(file: &str, text: &str) -> Result<Crt, TableError> {
        let raw: RawCrt = crate::tables::parse_toml(file, text, "")?;
        let at = |span: std::ops::Range<usize>, message: String| {
            let (line, column) = line_column(text, span.start);
            TableError::Syntax {
                file: file.to_string(),
                line,
                column,
                message,
            }
        };
        let invalid = |key: &str, message: String| TableError::Invalid {
            file: file.to_string(),
            key: key.to_string(),
            message,
        };
        if raw.name.get_ref().trim().is_empty() {
            return Err(at(
                raw.name.span(),
                "`name` is empty: name the CRT (the folio it comes from)".into(),
            ));
        }
        let kind = match raw.kind.get_ref().as_str() {
            "differential" => CrtKind::Differential,
            "ratio" => CrtKind::Ratio,
            other => {
                return Err(at(
                    raw.kind.span(),
                    format!("kind `{other}` is not `differential` or `ratio`"),
                ));
            }
        };
        if raw.columns.get_ref().is_empty() {
            return Err(at(raw.columns.span(), "`columns` is empty".into()));
        }
        let columns = parse_columns(kind, &raw.columns, &at)?;
        if raw.rows.get_ref().len() != DIE_FACES {
            return Err(at(
                raw.rows.span(),
                format!(
                    "`rows` has {} rows; a CRT has one row per face of the combat die, {DIE_FACES} rows",
                    raw.rows.get_ref().len()
                ),
            ));
        }
        let rows = parse_rows(&raw.rows, &columns, &at)?;
        if kind == CrtKind::Differential && columns.len() < 2 {
            return Err(invalid(
                "columns",
                "a CRT needs at least two columns".into(),
            ));
        }
        Ok(Crt {
            name: raw.name.into_inner(),
            file: file.to_string(),
            kind,
            changes: column_changes(&rows, columns.len()),
            columns,
            rows,
        })
    }
}

/// The columns, each of the CRT's kind, each greater than the last.
fn parse_columns(
    kind: CrtKind,
    raw: &Spanned<Vec<Spanned<ColumnValue>>>,
    at: &dyn Fn(std::ops::Range<usize>, String) -> TableError,
) -> Result<Vec<Column>, TableError> {
    let mut columns = Vec::new();
    for (i, value) in raw.get_ref().iter().enumerate() {
        let column = match (kind, value.get_ref()) {
            (CrtKind::Differential, ColumnValue::Int(n)) => Column::Differential(*n),
            (CrtKind::Differential, ColumnValue::Text(t)) => {
                return Err(at(
                    value.span(),
                    format!(
                        "columns[{i}] is \"{t}\": a differential CRT's columns are whole numbers like -2 or 3"
                    ),
                ));
            }
            (CrtKind::Ratio, ColumnValue::Text(t)) => parse_ratio(t).ok_or_else(|| {
                at(
                    value.span(),
                    format!(
                        "columns[{i}] is \"{t}\": a ratio column is two whole numbers from 1 up, like \"1:2\" or \"3:1\""
                    ),
                )
            })?,
            (CrtKind::Ratio, ColumnValue::Int(n)) => {
                return Err(at(
                    value.span(),
                    format!(
                        "columns[{i}] is {n}: a ratio CRT's columns are strings like \"1:2\" or \"3:1\""
                    ),
                ));
            }
        };
        if let Some(prev) = columns.last()
            && !ascending(prev, &column)
        {
            return Err(at(
                value.span(),
                format!(
                    "columns[{i}] ({column}) does not come after {prev}: columns must run from the defender's best to the attacker's best, each greater than the last"
                ),
            ));
        }
        columns.push(column);
    }
    Ok(columns)
}

/// The rows, one cell for each column, each cell a result.
fn parse_rows(
    raw: &Spanned<Vec<Spanned<Vec<Spanned<String>>>>>,
    columns: &[Column],
    at: &dyn Fn(std::ops::Range<usize>, String) -> TableError,
) -> Result<Vec<Vec<Cell>>, TableError> {
    let mut rows = Vec::new();
    for (r, row) in raw.get_ref().iter().enumerate() {
        if row.get_ref().len() != columns.len() {
            return Err(at(
                row.span(),
                format!(
                    "rows[{r}] (die {}) has {} cells; there are {} columns",
                    r + 1,
                    row.get_ref().len(),
                    columns.len()
                ),
            ));
        }
        let mut cells = Vec::new();
        for (c, cell) in row.get_ref().iter().enumerate() {
            let parsed = Cell::parse(cell.get_ref()).map_err(|e| {
                at(
                    cell.span(),
                    format!("rows[{r}][{c}] (die {}, column {}): {e}", r + 1, columns[c]),
                )
            })?;
            cells.push(parsed);
        }
        rows.push(cells);
    }
    Ok(rows)
}

/// Each column's faces where the result changes from the face below,
/// worked out once: `odds` asks on every way the dice fall.
fn column_changes(rows: &[Vec<Cell>], columns: usize) -> Vec<Vec<u32>> {
    (0..columns)
        .map(|column| {
            (1..rows.len())
                .filter(|&r| rows[r].get(column) != rows[r - 1].get(column))
                .map(|r| r as u32 + 1)
                .collect()
        })
        .collect()
}

fn ascending(a: &Column, b: &Column) -> bool {
    match (a, b) {
        (Column::Differential(x), Column::Differential(y)) => x < y,
        (Column::Ratio(a1, d1), Column::Ratio(a2, d2)) => {
            u64::from(*a1) * u64::from(*d2) < u64::from(*a2) * u64::from(*d1)
        }
        _ => false,
    }
}

fn parse_ratio(text: &str) -> Option<Column> {
    let (a, d) = text.trim().split_once(':')?;
    let a: u32 = a.trim().parse().ok()?;
    let d: u32 = d.trim().parse().ok()?;
    (a >= 1 && d >= 1).then_some(Column::Ratio(a, d))
}

/// The ratio as hex games state it, rounded in the defender's favour:
/// `7` to `3` is `2:1`, `3` to `7` is `1:3`.
#[cfg(test)]
fn reduced_ratio(attack: i64, defence: i64) -> String {
    Actual::Ratio(attack, defence).to_string()
}

/// What a combat is looked up by: written only when it is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Actual {
    Differential(i64),
    /// The attack and defence totals, shown as their ratio rounded in the
    /// defender's favour.
    Ratio(i64, i64),
}

impl fmt::Display for Actual {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Actual::Differential(d) => Column::Differential(d).fmt(f),
            Actual::Ratio(attack, defence) => match rounded_ratio(attack, defence) {
                Some((a, d)) => write!(f, "{a}:{d}"),
                None => write!(f, "{attack}:0"),
            },
        }
    }
}

/// `(attack, defence)` of the rounded ratio; `None` against a defence of 0.
fn rounded_ratio(attack: i64, defence: i64) -> Option<(i64, i64)> {
    if defence <= 0 {
        None
    } else if attack >= defence {
        Some((attack / defence, 1))
    } else if attack <= 0 {
        Some((0, 1))
    } else {
        Some((1, (defence + attack - 1) / attack))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrt {
    name: Spanned<String>,
    kind: Spanned<String>,
    columns: Spanned<Vec<Spanned<ColumnValue>>>,
    rows: Spanned<Vec<Spanned<Vec<Spanned<String>>>>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum ColumnValue {
    Int(i64),
    Text(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        let c = Cell::parse("Dm(Dr) L").unwrap();
        assert_eq!(c.primary, Code::Dm);
        assert_eq!(c.secondary, Some(Code::Dr));
        assert_eq!(c.extras, vec![Extra::L]);
        let c = Cell::parse("Ex, DF Ammo").unwrap();
        assert_eq!(c.primary, Code::Ex);
        assert_eq!(c.extras, vec![Extra::DF, Extra::Ammo]);
        assert!(Cell::parse("Dq").is_err());
        assert!(Cell::parse("Dr(NE").is_err());
        assert!(Cell::parse("L").is_err());
    }

    #[test]
    fn ratios_round_for_the_defender() {
        assert_eq!(reduced_ratio(7, 3), "2:1");
        assert_eq!(reduced_ratio(3, 7), "1:3");
        assert_eq!(reduced_ratio(6, 6), "1:1");
        assert_eq!(reduced_ratio(5, 10), "1:2");
    }
}
