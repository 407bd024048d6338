//! The campaign table file as each rule system reads it: its sections,
//! and the house rows in them. One reader for every system: a system
//! names its sections and the measure of its house row, and checks what
//! is its own.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{CAMPAIGN_FILE, Close};
use crate::error::TableError;
use crate::tables::{TableFile, TableSource};

/// Where a section's row of the campaign table file is, as an answer
/// names it: `[drums] of campaign.toml`.
pub(crate) fn place(section: &str) -> String {
    format!("[{section}] of {CAMPAIGN_FILE}")
}

/// The error of a value of `section` in the campaign table file `file`
/// (its label) that its system's checks refuse.
fn invalid(file: &str, section: &str, key: &str, message: String) -> TableError {
    TableError::Invalid {
        file: file.to_string(),
        key: format!("{section}.{key}"),
        message,
    }
}

/// A rule system's section of the campaign table file, one for each of
/// its books (keyed by the book's id).
pub(crate) trait Section: DeserializeOwned {
    /// The sections it reads, in the order they are checked.
    const SECTIONS: &'static [&'static str];

    /// Its values checked: the key (in the section) of a value the
    /// system refuses, and why.
    fn check(&self) -> Result<(), (String, String)>;
}

/// The section `section` of the campaign table `file`, read from `source`
/// with every section of its system checked, with the label of the file
/// it came from. The other systems' sections are theirs to read.
pub(crate) fn load<T: Section>(
    source: &TableSource,
    file: &TableFile,
    section: &str,
) -> Result<(String, T), TableError> {
    let (label, read) = source.parse_checked(file, |f: &Sections<T>, label| {
        for (name, table) in T::SECTIONS.iter().zip(&f.0) {
            table
                .check()
                .map_err(|(key, message)| invalid(label, name, &key, message))?;
        }
        Ok(())
    })?;
    let found = T::SECTIONS
        .iter()
        .zip(read.0)
        .find(|(name, _)| **name == section)
        .map(|(_, table)| table);
    match found {
        Some(table) => Ok((label, table)),
        None => Err(invalid(
            &label,
            section,
            "",
            "is no section this rule system reads".into(),
        )),
    }
}

/// The campaign file as one system reads it: its sections, in the order
/// of [`Section::SECTIONS`]; every other key is left to its own system.
struct Sections<T>(Vec<T>);

impl<'de, T: Section> de::Deserialize<'de> for Sections<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Of<T>(PhantomData<T>);
        impl<'de, T: Section> Visitor<'de> for Of<T> {
            type Value = Sections<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("struct CampaignFile")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut read: Vec<Option<T>> = T::SECTIONS.iter().map(|_| None).collect();
                while let Some(key) = map.next_key::<String>()? {
                    match T::SECTIONS.iter().position(|s| *s == key) {
                        Some(at) if read[at].is_some() => {
                            return Err(de::Error::duplicate_field(T::SECTIONS[at]));
                        }
                        Some(at) => read[at] = Some(map.next_value()?),
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let mut out = Vec::with_capacity(read.len());
                for (name, table) in T::SECTIONS.iter().zip(read) {
                    out.push(table.ok_or_else(|| de::Error::missing_field(name))?);
                }
                Ok(Sections(out))
            }
        }
        d.deserialize_struct("CampaignFile", T::SECTIONS, Of(PhantomData))
    }
}

/// What a house row measures besides its keyword, words and default (a
/// share in percent, a number of battles), under its own key; a row may
/// measure nothing. Each system names its rows' measures.
pub(crate) trait Measure: DeserializeOwned + Default {
    /// The row's name, as an error names what it expected (`struct
    /// Returning`).
    const ROW: &'static str;
    /// The row's keys, in order: `keyword`, `row`, the measure's key if it
    /// has one, `default`.
    const FIELDS: &'static [&'static str];

    /// The measure checked: why it is refused, if it is.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

impl<M: Measure> HouseRow<M> {
    /// The measure's key, if the row has one.
    fn measure_key() -> Option<&'static str> {
        (M::FIELDS.len() == 4).then(|| M::FIELDS[2])
    }
}

/// A house row of a rule system's section of the campaign table file (a
/// share of bases returning, wounded kept out, steps recovered): the
/// keyword a close line names it by, what it does in words, its measure
/// and whether it is applied at every close. No other key is read.
#[derive(Debug, Clone, Default)]
pub(crate) struct HouseRow<M> {
    pub(crate) keyword: String,
    pub(crate) row: String,
    pub(crate) measure: M,
    pub(crate) default: bool,
}

impl<M: Measure> HouseRow<M> {
    /// Its values checked, as `key` (its key in the section) names them.
    pub(crate) fn check(&self, key: &str) -> Result<(), (String, String)> {
        check_keyword(&self.keyword).map_err(|e| (format!("{key}.keyword"), e))?;
        self.measure.check().map_err(|e| {
            let measure = Self::measure_key().unwrap_or("");
            (format!("{key}.{measure}"), e)
        })
    }

    /// Whether this close applies it — at every close when the table says
    /// `default = true`, else when the close line names its keyword — and
    /// what the answer says of it at `place` (`[drums.returning] of
    /// campaign.toml`), naming the house default either way.
    pub(crate) fn applies(&self, place: &str, close: &Close<'_>) -> (bool, String) {
        let keyword = &self.keyword;
        let (applies, how) = match (self.default, close.names(keyword)) {
            (true, _) => (
                true,
                "applied: the house default (its `default = true`)".to_string(),
            ),
            (false, true) => (true, "applied: named on the close line".to_string()),
            (false, false) => (
                false,
                format!(
                    "not applied: the house default (`default = false`); name `{keyword}` on the close line to apply it"
                ),
            ),
        };
        (
            applies,
            format!("house row `{keyword}` ({place}), {how}: {}", self.row),
        )
    }
}

/// A house row's keyword, as a close line names it: a word of lowercase
/// letters, digits and `-`, starting with a letter.
fn check_keyword(keyword: &str) -> Result<(), String> {
    let word = keyword.len() <= 40
        && keyword.starts_with(|c: char| c.is_ascii_lowercase())
        && keyword
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if word {
        Ok(())
    } else {
        Err(format!(
            "`{keyword}` is not a keyword a close line can name: lowercase letters, digits and -, starting with a letter"
        ))
    }
}

/// A key of a house row, by its place in [`Measure::FIELDS`].
struct Key<M>(PhantomData<M>);

impl<'de, M: Measure> de::DeserializeSeed<'de> for Key<M> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de, M: Measure> Visitor<'de> for Key<M> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("field identifier")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        M::FIELDS
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| E::unknown_field(key, M::FIELDS))
    }
}

/// A house row's values as they are read, one slot a key.
#[derive(Default)]
struct Slots<M> {
    keyword: Option<String>,
    row: Option<String>,
    measure: Option<M>,
    default: Option<bool>,
}

impl<M: Measure> Slots<M> {
    /// The row, or the first key (in order) it lacks.
    fn row<E: de::Error>(self) -> Result<HouseRow<M>, E> {
        let missing = |at: usize| E::missing_field(M::FIELDS[at]);
        let last = M::FIELDS.len() - 1;
        let keyword = self.keyword.ok_or_else(|| missing(0))?;
        let row = self.row.ok_or_else(|| missing(1))?;
        let measure = match (HouseRow::<M>::measure_key(), self.measure) {
            (Some(_), None) => return Err(missing(2)),
            (_, measure) => measure.unwrap_or_default(),
        };
        let default = self.default.ok_or_else(|| missing(last))?;
        Ok(HouseRow {
            keyword,
            row,
            measure,
            default,
        })
    }
}

/// The house row read as serde reads a struct that refuses unknown keys,
/// with the same errors: a key it lacks, a key twice, a key no row has.
struct RowVisitor<M>(PhantomData<M>);

impl<'de, M: Measure> Visitor<'de> for RowVisitor<M> {
    type Value = HouseRow<M>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "struct {}", M::ROW)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<HouseRow<M>, A::Error> {
        let mut slots = Slots::<M>::default();
        let twice = |at: usize| de::Error::duplicate_field(M::FIELDS[at]);
        let has_measure = HouseRow::<M>::measure_key().is_some();
        while let Some(at) = map.next_key_seed(Key::<M>(PhantomData))? {
            match (at, has_measure) {
                (0, _) if slots.keyword.is_some() => return Err(twice(at)),
                (0, _) => slots.keyword = Some(map.next_value()?),
                (1, _) if slots.row.is_some() => return Err(twice(at)),
                (1, _) => slots.row = Some(map.next_value()?),
                (2, true) if slots.measure.is_some() => return Err(twice(at)),
                (2, true) => slots.measure = Some(map.next_value()?),
                _ if slots.default.is_some() => return Err(twice(at)),
                _ => slots.default = Some(map.next_value()?),
            }
        }
        slots.row()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<HouseRow<M>, A::Error> {
        let short = |at: usize| {
            let expected = format!("struct {} with {} elements", M::ROW, M::FIELDS.len());
            de::Error::invalid_length(at, &expected.as_str())
        };
        let keyword = seq.next_element()?.ok_or_else(|| short(0))?;
        let row = seq.next_element()?.ok_or_else(|| short(1))?;
        let (measure, last) = match HouseRow::<M>::measure_key() {
            Some(_) => (seq.next_element()?.ok_or_else(|| short(2))?, 3),
            None => (M::default(), 2),
        };
        let default = seq.next_element()?.ok_or_else(|| short(last))?;
        Ok(HouseRow {
            keyword,
            row,
            measure,
            default,
        })
    }
}

impl<'de, M: Measure> de::Deserialize<'de> for HouseRow<M> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_struct(M::ROW, M::FIELDS, RowVisitor(PhantomData))
    }
}
