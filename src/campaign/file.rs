//! The campaign file (TOML): the starting armies' text and the house
//! tables, as a game's journal header keeps them, then each battle in
//! order — its game's id, and once closed the journal's mark at the close,
//! the close's words and dice, each change with the entries that made it,
//! and the armies as the close left them — and a check over all of it.
//!
//! A campaign file from another club may be hostile: it is read bounded,
//! every value is checked before anything is done with it (names, ids,
//! sizes, the lists read again as any list is), a hand edit is found by
//! the check, and `drumhead replay` proves the rest from the battles'
//! journals.

use std::fs::File;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::CampaignError;
use crate::game::ArmySource;
use crate::tables::HouseTable;

/// The campaign file format this drumhead writes.
pub(crate) const CAMPAIGN_VERSION: u32 = 1;

/// The key a campaign file begins with, and by which it is told.
pub(crate) const CAMPAIGN_KEY: &str = "drumhead_campaign";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CampaignFile {
    pub(crate) drumhead_campaign: u32,
    /// The campaign's id, made when it was begun.
    pub(crate) id: String,
    /// SHA-256 over everything else, to find a hand edit.
    pub(crate) check: String,
    /// The armies as the campaign began, each whole.
    #[serde(rename = "army")]
    pub(crate) armies: Vec<ArmySource>,
    /// The house tables in force, each whole (none: the embedded tables).
    #[serde(default, rename = "table", skip_serializing_if = "Vec::is_empty")]
    pub(crate) tables: Vec<HouseTable>,
    #[serde(default, rename = "battle", skip_serializing_if = "Vec::is_empty")]
    pub(crate) battles: Vec<Battle>,
}

/// One battle of the campaign: its game, and its close once closed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Battle {
    /// Its name: the game is `NAME.json` beside the campaign file.
    pub(crate) name: String,
    /// The id of its game, made when `campaign battle` made it.
    pub(crate) game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) close: Option<Closed>,
}

/// What a close recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Closed {
    /// The journal's entries when it was closed, and the SHA-256 of the
    /// last one's line (the chain's head).
    pub(crate) entries: u64,
    pub(crate) head: String,
    /// The close line's words (house rows named).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) words: Vec<String>,
    /// Every die the close threw, in order; the first `entered` were
    /// entered, the rest rolled from `seed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) dice: Vec<u32>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) entered: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) seed: Option<u64>,
    /// Each change the close made, in roster order.
    #[serde(default, rename = "change", skip_serializing_if = "Vec::is_empty")]
    pub(crate) changes: Vec<Recorded>,
    /// The armies as the close left them, in the campaign's order.
    #[serde(rename = "army")]
    pub(crate) armies: Vec<ArmySource>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A change as the campaign records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Recorded {
    /// The army, by its place in the campaign.
    pub(crate) army: usize,
    pub(crate) section: String,
    pub(crate) id: String,
    pub(crate) what: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) die: Option<u32>,
    #[serde(default, rename = "entry", skip_serializing_if = "Vec::is_empty")]
    pub(crate) entries: Vec<Traced>,
}

/// A journal entry that made a change: its number, its line, and the
/// SHA-256 of its journal line, which a replay checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Traced {
    pub(crate) entry: u64,
    #[serde(default)]
    pub(crate) line: String,
    pub(crate) head: String,
}

impl CampaignFile {
    /// The armies as they stand: as the last close left them.
    pub(crate) fn current(&self) -> &[ArmySource] {
        self.battles
            .iter()
            .rev()
            .find_map(|b| b.close.as_ref().map(|c| c.armies.as_slice()))
            .unwrap_or(&self.armies)
    }

    /// The check the file should carry.
    pub(crate) fn check_of(&self) -> String {
        let mut unchecked = self.clone();
        unchecked.check = String::new();
        let text = serde_json::to_string(&unchecked).unwrap_or_default();
        crate::game::hash(text.as_bytes())
    }

    /// The file's text, its check made.
    pub(crate) fn text(&mut self) -> Result<String, CampaignError> {
        self.check = self.check_of();
        toml::to_string(self)
            .map_err(|e| CampaignError::Failed(format!("the campaign cannot be written: {e}")))
    }

    /// Whatever serde cannot check: every name, id, count and size.
    fn validate(&self, path: &Path) -> Result<(), CampaignError> {
        let bad = |what: String| {
            CampaignError::Usage(format!(
                "{}: {what}; the file is not a campaign drumhead can use (was it edited by hand?)",
                path.display()
            ))
        };
        if self.armies.is_empty() {
            return Err(bad("it has no [[army]]".into()));
        }
        if self.battles.len() > MAX_BATTLES {
            return Err(bad(format!(
                "it has {} battles; a campaign may have at most {MAX_BATTLES}",
                self.battles.len()
            )));
        }
        for (i, b) in self.battles.iter().enumerate() {
            let key = format!("battle[{}]", i + 1);
            check_name(&b.name).map_err(|e| bad(format!("{key}.name: {e}")))?;
            if self.battles[..i].iter().any(|o| o.name == b.name) {
                return Err(bad(format!("{key}.name: \"{}\" is used twice", b.name)));
            }
            let open = b.close.is_none();
            if open && i + 1 != self.battles.len() {
                return Err(bad(format!(
                    "{key}: battle \"{}\" is not closed, and a later one is recorded",
                    b.name
                )));
            }
            if let Some(c) = &b.close {
                if c.armies.len() != self.armies.len() {
                    return Err(bad(format!(
                        "{key}.close: {} armies after the close, {} in the campaign",
                        c.armies.len(),
                        self.armies.len()
                    )));
                }
                if let Some(r) = c.changes.iter().find(|r| r.army >= self.armies.len()) {
                    return Err(bad(format!(
                        "{key}.close.change: army {} of {}",
                        r.army,
                        self.armies.len()
                    )));
                }
            }
        }
        Ok(())
    }
}

use crate::limits::MAX_CAMPAIGN_BATTLES as MAX_BATTLES;

/// A battle's name: the file name of its game too.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if crate::army::valid_id(name) {
        Ok(())
    } else {
        Err(format!(
            "\"{}\" is not a battle's name: lowercase letters, digits and -, starting with a letter, at most {} characters (it names the game file NAME.json)",
            crate::text::visible(name),
            crate::army::MAX_ID_LEN
        ))
    }
}

/// Whether a file is a campaign, told by its first bytes: a line
/// `drumhead_campaign = N` before any table.
pub(crate) fn is_campaign(path: &Path) -> bool {
    crate::output_file::is_campaign(path)
}

/// Read and check a campaign file.
pub(crate) fn read(path: &Path) -> Result<CampaignFile, CampaignError> {
    let text = crate::files::read_text(path, crate::limits::MAX_CAMPAIGN_BYTES, "campaign file")
        .map_err(|e| CampaignError::Usage(e.to_string()))?;
    parse(path, &text)
}

/// A campaign file's text, read and checked.
pub(crate) fn parse(path: &Path, text: &str) -> Result<CampaignFile, CampaignError> {
    let not = |why: String| {
        CampaignError::Usage(format!(
            "{}: not a drumhead campaign file ({why}); `drumhead campaign new` begins one",
            path.display()
        ))
    };
    let value: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |s| crate::tables::line_column(text, s.start));
        not(format!(
            "line {line}, column {column}: {}",
            e.message().trim()
        ))
    })?;
    let version = value
        .get(CAMPAIGN_KEY)
        .and_then(|v| v.as_integer())
        .ok_or_else(|| not(format!("it has no `{CAMPAIGN_KEY}` version")))?;
    if version > i64::from(CAMPAIGN_VERSION) || version < 1 {
        return Err(CampaignError::Usage(format!(
            "{}: a campaign file of version {version}, which this drumhead does not read (it reads {CAMPAIGN_VERSION})",
            path.display()
        )));
    }
    let file: CampaignFile = toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map_or((1, 1), |s| crate::tables::line_column(text, s.start));
        not(format!(
            "line {line}, column {column}: {}",
            e.message().trim()
        ))
    })?;
    file.validate(path)?;
    Ok(file)
}

/// The campaign's check: a file whose check does not fit was changed by
/// hand after drumhead wrote it.
pub(crate) fn checked(path: &Path, file: &CampaignFile) -> Result<(), CampaignError> {
    if file.check == file.check_of() {
        return Ok(());
    }
    Err(CampaignError::Usage(format!(
        "{}: the campaign was changed after drumhead wrote it (its check does not fit); \
         `drumhead replay {}` resolves every battle and close again and says where it differs",
        path.display(),
        path.display()
    )))
}

/// A campaign file held for a change (a battle added, a battle closed):
/// an advisory lock on the file, so that two closes of one campaign do
/// not both write it; the file is read again under the lock.
pub(crate) struct Held {
    _file: File,
    pub(crate) path: PathBuf,
}

impl Held {
    pub(crate) fn take(path: &Path) -> Result<(Held, CampaignFile), CampaignError> {
        let io = |e: std::io::Error| CampaignError::Usage(format!("{}: {e}", path.display()));
        let meta = std::fs::symlink_metadata(path).map_err(io)?;
        if meta.file_type().is_symlink() {
            return Err(CampaignError::Usage(format!(
                "{}: a symbolic link; drumhead does not write a campaign through a link: give the file it points to",
                path.display()
            )));
        }
        crate::files::check_regular(path).map_err(|e| CampaignError::Usage(e.to_string()))?;
        let file = File::open(path).map_err(io)?;
        if file.try_lock().is_err() {
            return Err(CampaignError::Failed(format!(
                "{}: another drumhead is changing this campaign just now; run the command again",
                path.display()
            )));
        }
        // The file locked is the file at the path (not one renamed over).
        let same = std::fs::metadata(path)
            .ok()
            .zip(file.metadata().ok())
            .is_some_and(|(a, b)| crate::platform::same_file(&a, &b));
        if !same {
            return Err(CampaignError::Failed(format!(
                "{}: the campaign was written just now by another drumhead; run the command again",
                path.display()
            )));
        }
        let campaign = read(path)?;
        checked(path, &campaign)?;
        Ok((
            Held {
                _file: file,
                path: path.to_path_buf(),
            },
            campaign,
        ))
    }

    /// Write the campaign over its file, whole or not at all.
    pub(crate) fn write(&self, campaign: &mut CampaignFile) -> Result<(), CampaignError> {
        let text = campaign.text()?;
        crate::output_file::replace_campaign(&self.path, text.as_bytes())
            .map_err(|e| CampaignError::Failed(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list's text comes back from the campaign file as it went in,
    /// whatever quotes, escapes and line ends it holds.
    #[test]
    fn a_list_comes_back_from_the_file_byte_for_byte() {
        let text =
            "# a \"\"\" and a ''' in a comment\r\n[army]\nname = \"A \\\\ B\"\t# tab\n\u{e9}\n";
        let mut campaign = CampaignFile {
            drumhead_campaign: CAMPAIGN_VERSION,
            id: "c".into(),
            check: String::new(),
            armies: vec![ArmySource {
                file: "a.toml".into(),
                text: text.into(),
            }],
            tables: Vec::new(),
            battles: Vec::new(),
        };
        let written = campaign.text().expect("written");
        assert!(written.starts_with("drumhead_campaign = 1\n"), "{written}");
        let read = parse(Path::new("c.toml"), &written).expect("read back");
        assert_eq!(read.armies[0].text, text);
        assert_eq!(read, campaign);
        assert!(checked(Path::new("c.toml"), &read).is_ok());
    }

    #[test]
    fn a_battle_name_is_a_plain_word() {
        assert!(check_name("leuthen-2").is_ok());
        for bad in ["../x", "A", "", "x/y", "x.json", "-x"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
