//! The configuration file: a user's defaults for the options they would
//! otherwise type every evening (rule system, armies, house tables, CRT,
//! colour). The command line always wins over it, and `--no-config` (or
//! `DRUMHEAD_CONFIG=`) leaves it out, so a script can be sure of what it
//! runs.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Args, ColorChoice};
use crate::system::Registry;

/// The environment variable naming a configuration file to read instead of
/// the usual one; set and empty, it means "no configuration file".
pub(crate) const ENV: &str = "DRUMHEAD_CONFIG";

/// The keys a configuration file may hold, each standing for the option of
/// the same name. Unknown keys are refused: a misspelt `armys` would
/// otherwise be ignored without a word.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Config {
    /// `--rules`: the rule system when the armies do not decide it.
    pub(crate) rules: Option<String>,
    /// `--army`, for every list: used when none is given on the command
    /// line and no existing game already names its armies.
    #[serde(default)]
    pub(crate) armies: Vec<PathBuf>,
    /// `--tables`.
    pub(crate) tables: Option<PathBuf>,
    /// `--crt`.
    pub(crate) crt: Option<PathBuf>,
    /// `--color`.
    pub(crate) color: Option<ColorChoice>,
}

/// Every key, with what it stands for: the man page and `drumhead config`
/// print these.
pub(crate) const KEYS: &[(&str, &str)] = &[
    (
        "rules = \"SYSTEM\"",
        "The rule system a line resolves under when no --rules is given and the armies do not decide it.",
    ),
    (
        "armies = [\"FILE\", …]",
        "Army lists loaded when no --army is given (and no existing --game already records its armies).",
    ),
    (
        "tables = \"DIR\"",
        "House-rule tables, as --tables DIR, when no --tables is given.",
    ),
    (
        "crt = \"FILE\"",
        "A combat results table, as --crt FILE, when no --crt is given.",
    ),
    (
        "color = \"auto\" | \"always\" | \"never\"",
        "When to colour, as --color, when no --color is given.",
    ),
];

/// The example the man page shows; `tests/suite/config.rs` runs it.
pub const EXAMPLE: &str = "\
rules = \"drums\"
armies = [\"leuthen-1757-prussian.toml\", \"leuthen-1757-austrian.toml\"]
tables = \"house-rules\"
color = \"never\"
";

#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    #[error("configuration file {why}{named}")]
    Read { why: String, named: &'static str },
    #[error("configuration file {file}: {message}")]
    Parse { file: String, message: String },
    #[error("configuration file {file}: rules = \"{given}\" is not a rule system; {expected}")]
    Rules {
        file: String,
        given: String,
        expected: String,
    },
}

/// Where the configuration file is, and whether it must exist: one named by
/// `--config` or `DRUMHEAD_CONFIG` must; the usual one need not.
pub(crate) fn locate(args: &Args) -> Option<(PathBuf, bool)> {
    if args.no_config {
        return None;
    }
    if let Some(file) = &args.config {
        return Some((file.clone(), true));
    }
    if let Some(value) = std::env::var_os(ENV) {
        return (!value.is_empty()).then(|| (PathBuf::from(value), true));
    }
    usual().map(|file| (file, false))
}

/// `$XDG_CONFIG_HOME/drumhead/config.toml`, else
/// `$HOME/.config/drumhead/config.toml`. A relative XDG directory is
/// ignored, as the XDG base directory specification asks.
pub(crate) fn usual() -> Option<PathBuf> {
    let absolute = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    let base =
        absolute("XDG_CONFIG_HOME").or_else(|| absolute("HOME").map(|h| h.join(".config")))?;
    Some(base.join("drumhead").join("config.toml"))
}

/// Read the configuration file, if there is one to read.
pub(crate) fn load(
    args: &Args,
    registry: &Registry,
) -> Result<Option<(PathBuf, Config)>, ConfigError> {
    let Some((file, required)) = locate(args) else {
        return Ok(None);
    };
    let shown = file.display().to_string();
    if !required && !file.exists() {
        return Ok(None);
    }
    let text = crate::files::read_text(&file, crate::limits::MAX_LIST_BYTES, "configuration file")
        .map_err(|e| ConfigError::Read {
            why: e.to_string(),
            named: if args.config.is_some() {
                " (named by --config)"
            } else {
                " (named by DRUMHEAD_CONFIG)"
            },
        })?;
    let config = parse(&text, &shown, registry)?;
    Ok(Some((file, config)))
}

/// Parse a configuration file's text and check its rule system's name.
pub(crate) fn parse(text: &str, file: &str, registry: &Registry) -> Result<Config, ConfigError> {
    let config: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
        file: file.to_string(),
        message: toml_error(text, &e),
    })?;
    if let Some(rules) = &config.rules
        && registry.book(rules).is_none()
    {
        let ids: Vec<&str> = registry.books().into_iter().map(|b| b.id()).collect();
        let near = crate::bind::nearest(rules, ids.iter().copied());
        let expected = match near {
            Some(near) => format!("did you mean `{near}`? (one of {})", ids.join(", ")),
            None => format!("expected one of {}", ids.join(", ")),
        };
        return Err(ConfigError::Rules {
            file: file.to_string(),
            given: rules.clone(),
            expected,
        });
    }
    Ok(config)
}

/// A TOML error as the file's other errors read: its line and column,
/// the message, and the line itself with a caret that stays under the
/// fault however the line is made visible (TOML takes C1 controls and
/// bidirectional overrides raw in a string, before the fault).
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim();
    let Some(span) = e.span() else {
        return message.to_string();
    };
    let start = span.start.min(text.len());
    let (line_no, column) = crate::tables::line_column(text, start);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    // `pointed` keeps the caret within the line.
    let at = start - line_start..span.end.max(start) - line_start;
    format!(
        "line {line_no}, column {column}: {message}\n{}",
        crate::text::pointed(line, at, &line_no.to_string())
    )
}

impl Config {
    /// Fill in each option the command line left out. Paths in the file are
    /// relative to the file's own folder (a leading `~/` is the home
    /// folder), so the file means the same from any working directory.
    /// Returns the keys that filled an option, so an error about what they
    /// name can say where it came from.
    pub(crate) fn apply(self, file: &Path, args: &mut Args) -> Vec<&'static str> {
        let dir = file.parent().unwrap_or(Path::new("."));
        let resolve = |p: PathBuf| resolve_path(dir, p);
        let mut used = Vec::new();
        if args.rules.is_none() && self.rules.is_some() {
            args.default_rules = self.rules;
            used.push("rules");
        }
        if args.tables.is_none() && self.tables.is_some() {
            args.tables = self.tables.map(resolve);
            used.push("tables");
        }
        if args.crt.is_none() && self.crt.is_some() {
            args.crt = self.crt.map(resolve);
            used.push("crt");
        }
        if args.color.is_none() && self.color.is_some() {
            args.color = self.color;
            used.push("color");
        }
        let game_exists = args.game.as_deref().is_some_and(Path::exists);
        if args.army.is_empty() && !game_exists && !self.armies.is_empty() {
            args.army = self.armies.into_iter().map(resolve).collect();
            used.push("armies");
        }
        used
    }
}

/// The line after an error about something the configuration file named:
/// where it came from, and how to leave it out.
pub(crate) fn origin(
    applied: &Option<(PathBuf, Vec<&'static str>)>,
    keys: &[&str],
) -> Option<String> {
    let (file, used) = applied.as_ref()?;
    let named: Vec<&str> = used.iter().copied().filter(|k| keys.contains(k)).collect();
    (!named.is_empty()).then(|| {
        format!(
            "note: `{}` came from the configuration file {} (`drumhead config` shows it; --no-config leaves it out)",
            named.join("`, `"),
            file.display()
        )
    })
}

fn resolve_path(dir: &Path, path: PathBuf) -> PathBuf {
    if let Ok(rest) = path.strip_prefix("~")
        && let Some(home) = std::env::var_os("HOME")
    {
        return PathBuf::from(home).join(rest);
    }
    if path.is_absolute() {
        path
    } else {
        dir.join(path)
    }
}

/// `drumhead config`: which file is read, and what each key it sets stands
/// for once its paths are resolved.
pub(crate) fn show(args: &Args, registry: &Registry) -> std::process::ExitCode {
    use std::process::ExitCode;
    let Some((file, required)) = locate(args) else {
        say!("no configuration file is read (--no-config, or {ENV} set and empty)");
        return ExitCode::SUCCESS;
    };
    let shown = file.display();
    if !required && !file.exists() {
        say!("configuration file: {shown} (none there: nothing is set)");
        say!("it may set:");
        for (key, meaning) in KEYS {
            say!("  {key}\n      {meaning}");
        }
        return ExitCode::SUCCESS;
    }
    let config = match load(args, registry) {
        Ok(Some((_, config))) => config,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            warn!("error: {e}");
            return ExitCode::from(2);
        }
    };
    say!("configuration file: {shown}");
    let dir = file.parent().unwrap_or(Path::new("."));
    let quoted = |p: &PathBuf| format!("{:?}", resolve_path(dir, p.clone()).display().to_string());
    let mut set = 0;
    if let Some(rules) = &config.rules {
        say!("  rules = {rules:?}");
        set += 1;
    }
    if !config.armies.is_empty() {
        let armies: Vec<String> = config.armies.iter().map(quoted).collect();
        say!("  armies = [{}]", armies.join(", "));
        set += 1;
    }
    if let Some(tables) = &config.tables {
        say!("  tables = {}", quoted(tables));
        set += 1;
    }
    if let Some(crt) = &config.crt {
        say!("  crt = {}", quoted(crt));
        set += 1;
    }
    if let Some(word) = config
        .color
        .and_then(|c| clap::ValueEnum::to_possible_value(&c))
    {
        say!("  color = {:?}", word.get_name());
        set += 1;
    }
    if set == 0 {
        say!("  (it sets nothing)");
    } else {
        say!("paths are shown resolved; an option on the command line wins over its key");
    }
    ExitCode::SUCCESS
}
