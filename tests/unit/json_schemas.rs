//! Every JSON object drumhead prints has a schema in `schemas/`, named by
//! its `type`; every JSON line of the golden transcripts is validated
//! against its schema, and every schema must be exercised by some golden.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn schemas() -> BTreeMap<String, jsonschema::Validator> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir("schemas").expect("schemas/ is in the repository") {
        let path = entry.unwrap().path();
        let kind = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let schema: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
        assert_eq!(
            schema["properties"]["type"]["const"],
            kind,
            "{}: the schema's type is its file name",
            path.display()
        );
        let validator = jsonschema::validator_for(&schema)
            .unwrap_or_else(|e| panic!("{}: not a schema: {e}", path.display()));
        out.insert(kind, validator);
    }
    out
}

fn goldens(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            goldens(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("md" | "stdout")
        ) {
            out.push(path);
        }
    }
}

/// The JSON objects of a transcript: the lines that begin with `{"`.
/// trycmd shows every backslash as a slash, so an escaped quote reads
/// `/"`: it is put back before parsing, and a line that is still not JSON
/// fails the test rather than being skipped.
fn objects(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| l.starts_with("{\""))
        .map(|l| {
            let line = l.replace("/\"", "\\\"");
            serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("a JSON line that does not parse ({e}): {l}"))
        })
        .collect()
}

#[test]
fn every_json_line_of_every_golden_follows_its_schema() {
    let schemas = schemas();
    let mut files = Vec::new();
    goldens(Path::new("tests/cmd"), &mut files);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for object in objects(&text) {
            let Some(kind) = object["type"].as_str() else {
                failures.push(format!(
                    "{}: an object without a type: {object}",
                    file.display()
                ));
                continue;
            };
            let Some(schema) = schemas.get(kind) else {
                failures.push(format!("{}: no schema for type `{kind}`", file.display()));
                continue;
            };
            *seen.entry(kind.to_string()).or_default() += 1;
            for error in schema.iter_errors(&object) {
                failures.push(format!(
                    "{}: {kind} at {}: {error}\n  {object}",
                    file.display(),
                    error.instance_path()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // An empty walk must fail, not pass: the goldens hold hundreds of
    // resolutions, and every type at least once.
    assert!(
        seen.get("resolution").copied().unwrap_or(0) > 100,
        "{seen:?}"
    );
    // `load` is the REPL's alone: its object is checked below instead.
    let unseen: Vec<&String> = schemas
        .keys()
        .filter(|k| !seen.contains_key(*k) && *k != "loaded")
        .collect();
    assert!(unseen.is_empty(), "no golden shows these types: {unseen:?}");
}

#[test]
fn a_schema_refuses_what_it_should() {
    let schemas = schemas();
    let good = serde_json::json!({
        "type": "error", "version": 1, "line": 1, "input": "x", "kind": "unknown_verb", "error": "unknown verb `x`", "column": 1
    });
    assert!(schemas["error"].is_valid(&good));
    for bad in [
        serde_json::json!({"type": "error", "version": 1, "line": 1, "input": "x", "kind": "unknown_verb"}),
        serde_json::json!({"type": "error", "version": 1, "line": 1, "input": "x", "error": "e"}),
        serde_json::json!({"type": "error", "version": 1, "line": 1, "input": "x", "kind": "no_such_kind", "error": "e"}),
        serde_json::json!({"type": "error", "version": 2, "line": 1, "input": "x", "kind": "unknown_verb", "error": "e"}),
        serde_json::json!({"type": "error", "version": 1, "line": 0, "input": "x", "kind": "unknown_verb", "error": "e"}),
        serde_json::json!({"type": "error", "version": 1, "line": 1, "input": "x", "kind": "unknown_verb", "error": "e", "extra": 1}),
    ] {
        assert!(!schemas["error"].is_valid(&bad), "{bad}");
    }
}

/// Every kind of error is in the schema and the README, with the name
/// the program gives it, and nothing else is.
#[test]
fn the_error_kinds_are_the_programs_own() {
    use crate::error::ErrorKind;
    let text = std::fs::read_to_string("schemas/error.json").unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let listed: Vec<&str> = schema["properties"]["kind"]["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["const"].as_str().unwrap())
        .collect();
    let named: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(listed, named);
    let readme = std::fs::read_to_string("README.md").unwrap();
    let missing: Vec<&&str> = named
        .iter()
        .filter(|n| !readme.contains(&format!("`{n}`")))
        .collect();
    assert!(missing.is_empty(), "the README names no {missing:?}");
}

#[test]
fn the_repl_only_load_answer_follows_its_schema() {
    let report = crate::answer::report::Report::Loaded {
        text: "loaded Prussian army".into(),
    };
    let source = crate::format::Source {
        line: 3,
        input: "load prussians.toml",
    };
    let object = crate::format::json::report_json(&report, source);
    let schemas = schemas();
    assert!(schemas["loaded"].is_valid(&object), "{object}");
    assert!(!schemas["setting"].is_valid(&object), "{object}");
}

/// The README names every type an object can have: the list after "begins
/// with `type`" is the set of schemas, no more and no fewer.
#[test]
fn the_readme_lists_every_type_with_a_schema() {
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let start = readme
        .find("begins with `type` (")
        .expect("the README says what `type` an object has")
        + "begins with `type` (".len();
    let end = start + readme[start..].find(')').expect("the list ends with `)`");
    let listed: std::collections::BTreeSet<String> = readme[start..end]
        .split(',')
        .map(|word| word.split_whitespace().collect::<String>())
        .collect();
    let schemas: std::collections::BTreeSet<String> = schemas().into_keys().collect();
    assert!(!schemas.is_empty(), "no schemas read");
    assert_eq!(listed, schemas, "README's type list against schemas/");
}
