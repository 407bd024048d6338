//! Text drumhead did not write itself — army lists, configuration files,
//! table files, CRTs, journals, paths and command lines — is shown, never
//! obeyed: no escape sequence in it reaches the terminal, in an error, a
//! note or an answer. Each case puts a window-title sequence (ESC ] … BEL),
//! a clear screen (ESC [2J) and a C1 CSI (U+009B) where drumhead will quote
//! them, checks that none of their bytes is written, and that the text is
//! quoted all the same, made visible (`\u{1b}`), so that a case drumhead
//! never quotes cannot pass unnoticed.

use crate::common;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::game::temp_dir;

/// The sequences as a TOML string's escapes, then a C1 CSI raw, as TOML
/// takes it in a string (an ESC or BEL it refuses raw).
const IN_TOML: &str = "\\u001b]2;PWNED\\u0007\\u001b[2J\\u009b\u{9b}";

/// The same text as typed on a command line or into a path.
const RAW: &str = "\u{1b}]2;PWNED\u{7}\u{1b}[2J\u{9b}";

/// The quoted TOML string.
fn toml_string() -> String {
    format!("\"{IN_TOML}\"")
}

struct Ran {
    code: Option<i32>,
    out: Vec<u8>,
    err: Vec<u8>,
}

impl Ran {
    fn text(&self) -> String {
        format!(
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            String::from_utf8_lossy(&self.out),
            String::from_utf8_lossy(&self.err)
        )
    }
}

fn run<S: AsRef<OsStr>>(args: &[S], stdin: &str) -> Ran {
    use std::io::Write;
    let mut child = Command::new(common::BIN)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("drumhead starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().expect("drumhead runs");
    Ran {
        code: out.status.code(),
        out: out.stdout,
        err: out.stderr,
    }
}

/// No byte of the sequences on either stream, and the text quoted in its
/// visible form (or named by its code point, as a name refused for it is;
/// or as JSON escapes it).
fn assert_shown_not_obeyed(case: &str, ran: &Ran) {
    for (stream, bytes) in [("stdout", &ran.out), ("stderr", &ran.err)] {
        assert!(
            !bytes.contains(&0x1b),
            "{case}: ESC on {stream}\n{}",
            ran.text()
        );
        assert!(
            !bytes.contains(&0x07),
            "{case}: BEL on {stream}\n{}",
            ran.text()
        );
        assert!(
            !bytes.windows(2).any(|w| w == [0xc2, 0x9b]),
            "{case}: a C1 CSI on {stream}\n{}",
            ran.text()
        );
    }
    let text = ran.text();
    assert!(
        [
            "\\u{1b}", "\\u{9b}", "U+001B", "U+009B", "\\u001b", "\\u009b"
        ]
        .iter()
        .any(|shown| text.contains(shown)),
        "{case}: the text is not quoted at all, so this case shows nothing\n{text}"
    );
}

/// A path whose file name holds the sequences.
fn hostile_path(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from("x");
    name.push(OsStr::from_bytes(RAW.as_bytes()));
    name.push(suffix);
    dir.join(name)
}

/// Every way an army list's line `key = value` can carry the text: as
/// the value (a wrong type, an unknown word, a name), in a list, as an
/// unknown key, and as a key inside an inline table.
fn variants(line: &str) -> Vec<String> {
    let Some((key, value)) = line.split_once(" = ") else {
        return Vec::new();
    };
    let payload = toml_string();
    let mut out = vec![
        format!("{key} = {payload}"),
        format!("{payload} = {value}"),
        format!("{key} = [{payload}]"),
    ];
    if let Some(inner) = value.strip_prefix("{ ")
        && let Some((inner_key, rest)) = inner.split_once(" = ")
    {
        out.push(format!("{key} = {{ {payload} = {rest}"));
        if let Some(deeper) = rest.strip_prefix("{ ")
            && let Some((_, deepest)) = deeper.split_once(" = ")
        {
            out.push(format!("{key} = {{ {inner_key} = {{ {payload} = {deepest}"));
        }
    }
    out
}

/// The template `drumhead new-army BOOK` writes: every section and key of
/// the book's lists, kept up to date by the program itself.
fn template(book: &str) -> String {
    let ran = run(&["new-army", book], "");
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    String::from_utf8(ran.out).expect("a template is UTF-8")
}

fn every_field_of_an_army_list(book: &str) {
    let dir = temp_dir(&format!("escapes-army-{book}"));
    let text = template(book);
    let lines: Vec<&str> = text.lines().collect();
    let mut cases = 0;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        for changed in variants(line) {
            let mut list = lines.clone();
            list[i] = &changed;
            let file = dir.join(format!("case-{cases}.toml"));
            std::fs::write(&file, list.join("\n")).unwrap();
            let ran = run(
                &[OsStr::new("--army"), file.as_os_str(), "units".as_ref()],
                "",
            );
            assert_shown_not_obeyed(&format!("{book} list, line {}: {changed}", i + 1), &ran);
            cases += 1;
        }
    }
    assert!(cases > 40, "{book}: only {cases} cases from\n{text}");
}

#[test]
fn every_field_of_a_drums_list() {
    every_field_of_an_army_list("drums");
}

#[test]
fn every_field_of_a_mayhem_list() {
    every_field_of_an_army_list("mayhem");
}

#[test]
fn every_field_of_a_saber_list() {
    every_field_of_an_army_list("saber");
}

#[test]
fn the_list_of_the_report() {
    // The report's own case: the rule system of a list.
    let dir = temp_dir("escapes-rules");
    let file = dir.join("x.toml");
    std::fs::write(
        &file,
        "[army]\nname = \"x\"\nrules = \"\\u001b]2;PWNED\\u0007\"\nside = \"s\"\n",
    )
    .unwrap();
    let ran = run(
        &[OsStr::new("--army"), file.as_os_str(), "units".as_ref()],
        "",
    );
    assert_ne!(ran.code, Some(0), "{}", ran.text());
    assert!(
        String::from_utf8_lossy(&ran.err).contains("\"\\u{1b}]2;PWNED\\u{7}\""),
        "{}",
        ran.text()
    );
    assert_shown_not_obeyed("rules", &ran);
    // `check` says the same.
    let ran = run(&[OsStr::new("check"), file.as_os_str()], "");
    assert_ne!(ran.code, Some(0), "{}", ran.text());
    assert_shown_not_obeyed("check rules", &ran);
}

#[test]
fn paths() {
    let dir = temp_dir("escapes-paths");
    // A list that is there, with a fault, under such a name; then paths
    // that are not there, for each option and task that reads one.
    let list = hostile_path(&dir, ".toml");
    std::fs::write(
        &list,
        "[army]\nname = \"x\"\nrules = \"drums\"\nside = \"s\"\nbogus = 1\n",
    )
    .unwrap();
    let missing = hostile_path(&dir, "-missing");
    let missing = missing.as_os_str();
    // A file in a folder that is not there.
    let within = hostile_path(&dir, "-folder").join("file");
    let within = within.as_os_str();
    let written = hostile_path(&dir, "-written.html");
    // (case, arguments, whether drumhead refuses them)
    let cases: Vec<(&str, Vec<&OsStr>, bool)> = vec![
        (
            "--army, a list with a fault",
            vec!["--army".as_ref(), list.as_os_str(), "units".as_ref()],
            true,
        ),
        ("check", vec!["check".as_ref(), list.as_os_str()], true),
        (
            "--army",
            vec!["--army".as_ref(), missing, "units".as_ref()],
            true,
        ),
        (
            "--tables",
            vec!["--tables".as_ref(), missing, "roll 2d6".as_ref()],
            true,
        ),
        (
            "--crt",
            vec!["--crt".as_ref(), missing, "roll 2d6".as_ref()],
            true,
        ),
        (
            "--config",
            vec!["--config".as_ref(), missing, "roll 2d6".as_ref()],
            true,
        ),
        (
            "--game",
            vec!["--game".as_ref(), within, "roll 2d6".as_ref()],
            true,
        ),
        ("replay", vec!["replay".as_ref(), missing], true),
        ("repair", vec!["repair".as_ref(), missing], true),
        (
            "tables export",
            vec!["tables".as_ref(), "export".as_ref(), list.as_os_str()],
            true,
        ),
        (
            "sheet -o, refused",
            vec!["sheet".as_ref(), "drums".as_ref(), "-o".as_ref(), within],
            true,
        ),
        (
            "--svg, refused",
            vec!["--svg".as_ref(), within, "odds roll 2d6".as_ref()],
            true,
        ),
        // Where the page went, said on standard output.
        (
            "sheet -o",
            vec![
                "sheet".as_ref(),
                "drums".as_ref(),
                "-o".as_ref(),
                written.as_os_str(),
            ],
            false,
        ),
    ];
    for (case, args, refused) in cases {
        let ran = run(&args, "");
        assert_eq!(ran.code != Some(0), refused, "{case}: {}", ran.text());
        assert_shown_not_obeyed(case, &ran);
    }
}

/// A configuration file of `text`, with `args` after `--config FILE`.
fn with_config(name: &str, text: &str, args: &[&str]) -> Ran {
    let dir = temp_dir(name);
    let file = dir.join("config.toml");
    std::fs::write(&file, text).unwrap();
    let mut all: Vec<&OsStr> = vec!["--config".as_ref(), file.as_os_str()];
    all.extend(args.iter().map(OsStr::new));
    run(&all, "")
}

#[test]
fn every_key_and_value_of_a_configuration_file() {
    let p = toml_string();
    let cases = [
        format!("rules = {p}"),
        format!("color = {p}"),
        format!("tables = {p}"),
        format!("crt = {p}"),
        format!("armies = [{p}]"),
        format!("armies = {p}"),
        format!("{p} = \"drums\""),
        format!("rules = \"drums\"\n{p} = 1"),
    ];
    for (i, text) in cases.iter().enumerate() {
        let ran = with_config(&format!("escapes-config-{i}"), text, &["roll 2d6"]);
        assert_ne!(ran.code, Some(0), "{text}: {}", ran.text());
        assert_shown_not_obeyed(&format!("config `{text}`"), &ran);
    }
    // `drumhead config` shows what the file sets, on standard output.
    let ran = with_config(
        "escapes-config-show",
        &format!("tables = {p}\ncrt = {p}\narmies = [{p}]"),
        &["config"],
    );
    assert_eq!(ran.code, Some(0), "{}", ran.text());
    assert_shown_not_obeyed("drumhead config", &ran);
}

#[test]
fn a_caret_under_a_configuration_line_points_past_what_was_escaped() {
    // TOML takes C1 controls and a right-to-left override raw in a string:
    // the line is shown escaped, the caret still under the fault.
    let ran = with_config(
        "escapes-config-caret",
        "rules = \"drums\"\ncolor = \"\u{9b}\u{202e}\u{9b}\" oops\n",
        &["roll 2d6"],
    );
    assert_ne!(ran.code, Some(0), "{}", ran.text());
    assert_shown_not_obeyed("caret", &ran);
    let err = String::from_utf8_lossy(&ran.err).into_owned();
    let lines: Vec<&str> = err.lines().collect();
    let source = lines
        .iter()
        .position(|l| l.starts_with("2 | "))
        .unwrap_or_else(|| panic!("no source line: {err}"));
    assert_eq!(
        lines[source], "2 | color = \"\\u{9b}\\u{202e}\\u{9b}\" oops",
        "{err}"
    );
    let caret = lines[source + 1];
    assert_eq!(caret.find('^'), lines[source].find("oops"), "{err}");
}

#[test]
fn a_table_file_and_a_crt() {
    let p = toml_string();
    let dir = temp_dir("escapes-tables");
    let tables = [
        format!("[resilience]\ndice = {p}\n"),
        format!("[resilience]\n{p} = 3\n"),
        format!(
            "[resilience]\ndice = \"2D6\"\n[[resilience.adjustment]]\nkeyword = {p}\nrow = \"x\"\n"
        ),
        format!(
            "[resilience]\ndice = \"2D6\"\n[[resilience.adjustment]]\nkeyword = \"x\"\nrow = {p}\n"
        ),
    ];
    for (i, text) in tables.iter().enumerate() {
        let folder = dir.join(format!("house-{i}"));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join("drums.toml");
        std::fs::write(&file, text).unwrap();
        let ran = run(
            &[
                OsStr::new("--tables"),
                folder.as_os_str(),
                "resilience".as_ref(),
            ],
            "",
        );
        assert_ne!(ran.code, Some(0), "{text}: {}", ran.text());
        assert_shown_not_obeyed(&format!("--tables `{text}`"), &ran);
        let ran = run(&[OsStr::new("check"), file.as_os_str()], "");
        assert_ne!(ran.code, Some(0), "{text}: {}", ran.text());
        assert_shown_not_obeyed(&format!("check `{text}`"), &ran);
    }
    let rows = "rows = [[\"NE\"]]";
    let crts = [
        format!("name = {p}\nkind = \"differential\"\ncolumns = [0]\n{rows}\n"),
        format!("name = \"x\"\nkind = {p}\ncolumns = [0]\n{rows}\n"),
        format!("name = \"x\"\nkind = \"differential\"\ncolumns = [{p}]\n{rows}\n"),
        format!("name = \"x\"\nkind = \"differential\"\ncolumns = [0]\nrows = [[{p}]]\n"),
        format!("name = \"x\"\nkind = \"differential\"\ncolumns = [0]\n{rows}\n{p} = 1\n"),
    ];
    for (i, text) in crts.iter().enumerate() {
        let file = dir.join(format!("crt-{i}.toml"));
        std::fs::write(&file, text).unwrap();
        let ran = run(
            &[
                OsStr::new("--crt"),
                file.as_os_str(),
                "--rules".as_ref(),
                "saber".as_ref(),
                "roll 2d6".as_ref(),
            ],
            "",
        );
        assert_ne!(ran.code, Some(0), "{text}: {}", ran.text());
        assert_shown_not_obeyed(&format!("--crt `{text}`"), &ran);
    }
}

#[test]
fn a_journal() {
    let dir = temp_dir("escapes-journal");
    let journal = dir.join("game.json.journal");
    let header = "{\"drumhead_journal\":2,\"game\":\"g\",\"armies\":[]}";
    // Each entry follows the chain: it holds the hash of the header.
    let entry = |line: &str, outcome: &str| {
        let prev = drumhead::game::hash(format!("{header}\n").as_bytes());
        format!(
            "{{\"entry\":1,\"prev\":\"{prev}\",\"turn\":1,\"line\":\"{line}\",\"system\":\"drums\",\"seed\":1,\"dice\":[1,4],\"outcome\":\"{outcome}\"}}"
        )
    };
    // An army the journal recorded, under a file name and with a rule
    // system that hold the text.
    let army = "{\"drumhead_journal\":2,\"game\":\"g\",\"armies\":[{\"file\":\"x\\u001b[2J.toml\",\"text\":\"[army]\\nname = \\\"x\\\"\\nrules = \\\"\\u001b]2;PWNED\\u0007\\u009b\\\"\\nside = \\\"s\\\"\\n\"}]}";
    let journals = [
        format!(
            "{header}\n{}\n",
            entry("roll 2d6 \\u001b]2;PWNED\\u0007\\u009b", "total 5")
        ),
        format!(
            "{header}\n{}\n",
            entry("roll 2d6", "total 5\\u001b[2J\\u009b")
        ),
        format!("{army}\n{}\n", entry("roll 2d6", "total 5")),
    ];
    for text in journals {
        std::fs::write(&journal, &text).unwrap();
        let ran = run(&[OsStr::new("replay"), journal.as_os_str()], "");
        assert_ne!(ran.code, Some(0), "{text}: {}", ran.text());
        assert_shown_not_obeyed(&format!("journal `{text}`"), &ran);
    }
}

#[test]
fn command_lines_options_and_answers() {
    let comment = format!("roll 2d6 # {RAW}");
    let word = format!("roll 2d6 {RAW}");
    let rules = format!("--rules={RAW}");
    let unknown = format!("--x{RAW}");
    let cases: Vec<(&str, Vec<&str>, String)> = vec![
        // An answer that quotes the line as typed.
        (
            "--brief",
            vec!["--brief", "--seed", "1", &comment],
            String::new(),
        ),
        ("a word of the line", vec![&word], String::new()),
        ("a line on standard input", vec![], format!("{word}\n")),
        (
            "a line on standard input, JSON",
            vec!["--json"],
            format!("{word}\n"),
        ),
        ("an option's value", vec![&rules, "roll 2d6"], String::new()),
        (
            "an unknown option",
            vec![&unknown, "roll 2d6"],
            String::new(),
        ),
    ];
    for (case, args, stdin) in cases {
        let ran = run(&args, &stdin);
        assert_shown_not_obeyed(case, &ran);
    }
}
