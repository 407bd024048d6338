//! The configuration file: a user's defaults for the options they would
//! otherwise type every evening (rule system, armies, house tables, CRT,
//! colour, width, `--brief`: any long option). The command line always wins over it, and `--no-config` (or
//! `DRUMHEAD_CONFIG=`) leaves it out, so a script can be sure of what it
//! runs.

use std::path::{Path, PathBuf};

use clap::{CommandFactory, Parser};

use super::Args;
use crate::system::Registry;

/// The environment variable naming a configuration file to read instead of
/// the usual one; set and empty, it means "no configuration file".
pub(crate) const ENV: &str = "DRUMHEAD_CONFIG";

/// A configuration file: each key it sets, in the file's order. A key is
/// `rules`, `armies`, or any long option of the command line (`width`,
/// `brief`, `seed`…), read off the command's own definition so the two
/// never drift apart. Unknown keys are refused: a misspelt `armys` would
/// otherwise be ignored without a word.
#[derive(Debug, Default)]
pub(crate) struct Config {
    entries: Vec<Entry>,
}

/// One key of the file.
#[derive(Debug)]
struct Entry {
    key: String,
    value: toml::Value,
    /// As options, with the file's paths resolved: `--width=80`.
    tokens: Vec<String>,
}

/// The keys that are not an option of their own name: `rules` is a
/// default the armies' own system still wins over, `armies` the lists
/// loaded when none is given.
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
        "OPTION = VALUE",
        "Any other long option of the command line, by its name without the dashes: `width = 80`, `brief = true`, `seed = 7`, `color = \"never\"`, `tables = \"DIR\"`. A flag takes true or false; an option given on the command line wins over its key, and so does one it cannot be given with (--format over json).",
    ),
];

/// Options that make no sense in the file itself.
const NOT_IN_FILE: &[&str] = &["config", "no-config", "help", "version"];

/// The example the man page shows; `tests/suite/config.rs` runs it.
pub const EXAMPLE: &str = "\
rules = \"drums\"
armies = [\"leuthen-1757-prussian.toml\", \"leuthen-1757-austrian.toml\"]
tables = \"house-rules\"
color = \"never\"
width = 100
brief = true
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
    #[error(
        "configuration file {file}, line {line}: `{key}` is not an option drumhead takes{near}; a key is `rules`, `armies` or a long option without its dashes (`drumhead config` lists them)"
    )]
    Key {
        file: String,
        line: usize,
        key: String,
        near: String,
    },
    #[error("configuration file {file}, line {line}: {key} = {value}: {message}")]
    Value {
        file: String,
        line: usize,
        key: String,
        value: String,
        message: String,
    },
    #[error("the options with the configuration file {file}'s: {message}")]
    Merged { file: String, message: String },
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
    let dir = file.parent().unwrap_or(Path::new("."));
    let config = parse(&text, &shown, dir, registry)?;
    Ok(Some((file, config)))
}

/// Parse a configuration file's text: each key must be `rules`,
/// `armies` or a long option, with a value that option takes. Paths are
/// resolved against `dir`, the file's folder.
pub(crate) fn parse(
    text: &str,
    file: &str,
    dir: &Path,
    registry: &Registry,
) -> Result<Config, ConfigError> {
    use std::collections::BTreeMap;
    use toml::Spanned;
    let table: BTreeMap<Spanned<String>, Spanned<toml::Value>> =
        toml::from_str(text).map_err(|e| ConfigError::Parse {
            file: file.to_string(),
            message: toml_error(text, &e),
        })?;
    let mut keys: Vec<_> = table.into_iter().collect();
    keys.sort_by_key(|(k, _)| k.span().start);
    let command = Args::command();
    let mut config = Config::default();
    for (key, value) in keys {
        let line = crate::tables::line_column(text, key.span().start).0;
        let (key, value) = (key.into_inner(), value.into_inner());
        let bad = |message: String| ConfigError::Value {
            file: file.to_string(),
            line,
            key: key.clone(),
            value: value.to_string(),
            message,
        };
        let tokens = match key.as_str() {
            "rules" => {
                let rules = value
                    .as_str()
                    .ok_or_else(|| bad("expected a rule system's name in quotes".into()))?;
                check_rules(rules, file, registry)?;
                Vec::new()
            }
            "armies" => strings(&value)
                .ok_or_else(|| {
                    bad("expected a list of army files: [\"a.toml\", \"b.toml\"]".into())
                })?
                .into_iter()
                .map(|f| format!("--army={}", resolve_path(dir, f.into()).display()))
                .collect(),
            _ => {
                let Some(arg) = option(&command, &key) else {
                    return Err(unknown_key(&command, file, line, &key));
                };
                let tokens = tokens_of(arg, &key, &value, dir).map_err(bad)?;
                // The value as the option would take it on its own (a
                // width too small, a colour it does not know).
                let alone = std::iter::once("drumhead".to_string()).chain(tokens.iter().cloned());
                if let Err(e) = command.clone().try_get_matches_from(alone)
                    && e.kind() != clap::error::ErrorKind::MissingRequiredArgument
                {
                    return Err(bad(clap_message(&e)));
                }
                tokens
            }
        };
        config.entries.push(Entry { key, value, tokens });
    }
    Ok(config)
}

/// `rules` names a rule book drumhead knows.
fn check_rules(rules: &str, file: &str, registry: &Registry) -> Result<(), ConfigError> {
    if registry.book(rules).is_some() {
        return Ok(());
    }
    let ids: Vec<&str> = registry.books().into_iter().map(|b| b.id()).collect();
    let near = crate::bind::nearest(rules, ids.iter().copied());
    let expected = match near {
        Some(near) => format!("did you mean `{near}`? (one of {})", ids.join(", ")),
        None => format!("expected one of {}", ids.join(", ")),
    };
    Err(ConfigError::Rules {
        file: file.to_string(),
        given: rules.to_string(),
        expected,
    })
}

/// The long option a key stands for, if it may be set in the file.
fn option<'a>(command: &'a clap::Command, key: &str) -> Option<&'a clap::Arg> {
    if NOT_IN_FILE.contains(&key) {
        return None;
    }
    command
        .get_arguments()
        .find(|a| a.get_long() == Some(key) && !a.is_hide_set())
}

/// Every key the file takes: `rules`, `armies` and each long option.
fn key_names(command: &clap::Command) -> Vec<&str> {
    let options = command
        .get_arguments()
        .filter_map(clap::Arg::get_long)
        .filter(|l| !NOT_IN_FILE.contains(l));
    ["rules", "armies"].into_iter().chain(options).collect()
}

fn unknown_key(command: &clap::Command, file: &str, line: usize, key: &str) -> ConfigError {
    let names = key_names(command);
    let near = match crate::bind::nearest(key, names.iter().copied()) {
        Some(near) => format!(" (did you mean `{near}`?)"),
        None if NOT_IN_FILE.contains(&key) => " in its configuration file".to_string(),
        None => String::new(),
    };
    ConfigError::Key {
        file: file.to_string(),
        line,
        key: key.to_string(),
        near,
    }
}

/// A TOML value as the option's words: `true` for a flag, a value or a
/// list of them (an option given more than once), paths resolved.
fn tokens_of(
    arg: &clap::Arg,
    key: &str,
    value: &toml::Value,
    dir: &Path,
) -> Result<Vec<String>, String> {
    if !arg.get_action().takes_values() {
        return match value.as_bool() {
            Some(true) => Ok(vec![format!("--{key}")]),
            Some(false) => Ok(Vec::new()),
            None => Err(format!("--{key} is a flag: expected true or false")),
        };
    }
    let is_path = arg
        .get_value_names()
        .is_some_and(|names| names.iter().any(|n| *n == "FILE" || *n == "DIR"));
    let word = |v: &toml::Value| -> Result<String, String> {
        let text = match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => return Err(format!("--{key} takes a word or a number")),
        };
        Ok(if is_path {
            resolve_path(dir, text.into()).display().to_string()
        } else {
            text
        })
    };
    let values = match value {
        toml::Value::Array(list) if matches!(arg.get_action(), clap::ArgAction::Append) => {
            list.iter().map(word).collect::<Result<Vec<_>, _>>()?
        }
        toml::Value::Array(_) => return Err(format!("--{key} takes one value, not a list")),
        one => vec![word(one)?],
    };
    Ok(values.into_iter().map(|v| format!("--{key}={v}")).collect())
}

/// A list of strings, or one string.
fn strings(value: &toml::Value) -> Option<Vec<String>> {
    match value {
        toml::Value::String(s) => Some(vec![s.clone()]),
        toml::Value::Array(list) => list
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => None,
    }
}

/// clap's refusal in one line, without its `error: ` and usage.
fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let said: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let said = said.join(" ");
    said.strip_prefix("error: ").unwrap_or(&said).to_string()
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
    /// The options with the file's keys: each key fills in the option the
    /// command line left out (`given`), and yields to one the command line
    /// gave that it cannot be given with. The command line is read again
    /// after the keys, so clap checks them together. Returns the keys
    /// that filled an option, so an error about what they name can say
    /// where it came from.
    pub(crate) fn apply(self, file: &Path, args: &mut Args) -> Result<Vec<String>, ConfigError> {
        let command = Args::command();
        let given = |id: &str| args.given.iter().any(|g| g == id);
        let mut used = Vec::new();
        let mut tokens = Vec::new();
        let game_exists = args.game.as_deref().is_some_and(Path::exists);
        for entry in self.entries {
            let taken = match entry.key.as_str() {
                "rules" if args.rules.is_none() => {
                    args.default_rules = entry.value.as_str().map(str::to_string);
                    true
                }
                "rules" => false,
                "armies" => args.army.is_empty() && !game_exists,
                key => option(&command, key).is_some_and(|arg| {
                    let id = arg.get_id().as_str();
                    !given(id) && !conflicts(&command, arg, &given)
                }),
            };
            if taken {
                tokens.extend(entry.tokens);
                used.push(entry.key);
            }
        }
        if tokens.is_empty() {
            return Ok(used);
        }
        let argv = std::iter::once(std::ffi::OsString::from("drumhead"))
            .chain(tokens.into_iter().map(Into::into))
            .chain(args.argv.iter().skip(1).cloned());
        let merged = Args::try_parse_from(argv).map_err(|e| ConfigError::Merged {
            file: file.display().to_string(),
            message: clap_message(&e),
        })?;
        let kept = (
            args.default_rules.take(),
            std::mem::take(&mut args.given),
            std::mem::take(&mut args.argv),
        );
        *args = merged;
        (args.default_rules, args.given, args.argv) = kept;
        Ok(used)
    }
}

/// Whether an option conflicts with one the command line gave.
fn conflicts(command: &clap::Command, arg: &clap::Arg, given: &dyn Fn(&str) -> bool) -> bool {
    let id = arg.get_id();
    command.get_arguments().any(|other| {
        given(other.get_id().as_str())
            && (command
                .get_arg_conflicts_with(arg)
                .iter()
                .any(|c| c.get_id() == other.get_id())
                || command
                    .get_arg_conflicts_with(other)
                    .iter()
                    .any(|c| c.get_id() == id))
    })
}

/// The line after an error about something the configuration file named:
/// where it came from, and how to leave it out.
pub(crate) fn origin(applied: &Option<(PathBuf, Vec<String>)>, keys: &[&str]) -> Option<String> {
    let (file, used) = applied.as_ref()?;
    let named: Vec<&str> = used
        .iter()
        .map(String::as_str)
        .filter(|k| keys.contains(k))
        .collect();
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
        say!(
            "the options it may set: {}",
            key_names(&Args::command()).join(", ")
        );
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
    let set = config.entries.len();
    for entry in &config.entries {
        say!("  {}", shown_entry(entry));
    }
    if set == 0 {
        say!("  (it sets nothing)");
    } else {
        say!("paths are shown resolved; an option on the command line wins over its key");
    }
    ExitCode::SUCCESS
}

/// A key as `drumhead config` shows it: its paths resolved.
fn shown_entry(entry: &Entry) -> String {
    let values: Vec<String> = entry
        .tokens
        .iter()
        .filter_map(|t| t.split_once('=').map(|(_, v)| format!("{v:?}")))
        .collect();
    let value = match (&entry.value, values.as_slice()) {
        // A flag, a number, a word: as the file says it.
        (_, []) | (toml::Value::Boolean(_) | toml::Value::Integer(_), _) => entry.value.to_string(),
        (toml::Value::Array(_), _) => format!("[{}]", values.join(", ")),
        (_, [one]) => one.clone(),
        (_, _) => entry.value.to_string(),
    };
    format!("{} = {value}", entry.key)
}
