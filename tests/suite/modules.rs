//! The module graph: one direction only. The rule systems depend on the
//! core and on nothing above it; the front ends depend on the session; the
//! core never imports a rule system or a front end; and no two top-level
//! modules import each other, directly or round a loop.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The code of a file without comments and without its unit tests (a
/// test may use anything).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules each top-level module names (`crate::x`, or `x`
/// inside `use crate::{x, …}`).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in rust_files(&src) {
        let rel = path.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default()
            .trim_end_matches(".rs")
            .to_string();
        if top == "main" || top == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        files.entry(top).or_default().push(code(&text));
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (module, texts) in &files {
        let mut uses = BTreeSet::new();
        for text in texts {
            for (i, _) in text.match_indices("crate::") {
                let rest = &text[i + "crate::".len()..];
                if let Some(group) = rest.strip_prefix('{') {
                    let inner = group.split('}').next().unwrap_or("");
                    for part in inner.split(',') {
                        let name = part.trim().split("::").next().unwrap_or("").trim();
                        uses.insert(name.to_string());
                    }
                } else {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    uses.insert(name);
                }
            }
        }
        uses.retain(|u| modules.contains(u) && u != module);
        graph.insert(module.clone(), uses);
    }
    graph
}

/// The rule systems: the folders `systems.rs` registers.
fn rule_systems() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/systems.rs");
    let text = code(&std::fs::read_to_string(path).expect("systems.rs"));
    text.match_indices("crate::")
        .filter_map(|(i, _)| {
            let rest = &text[i + "crate::".len()..];
            let (name, tail) = rest.split_once("::")?;
            tail.starts_with("SYSTEM").then(|| name.to_string())
        })
        .collect()
}

const FRONT_ENDS: &[&str] = &["cli", "pocket"];

/// The folders that hold a rule system: those with an `impl RuleSystem`.
fn system_folders() -> BTreeSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    rust_files(&src)
        .into_iter()
        .filter(|path| {
            std::fs::read_to_string(path)
                .is_ok_and(|text| code(&text).contains("impl RuleSystem for"))
        })
        .filter_map(|path| {
            let rel = path.strip_prefix(&src).ok()?.to_path_buf();
            let mut parts = rel.components();
            let first = parts.next()?.as_os_str().to_str()?.to_string();
            parts.next().map(|_| first)
        })
        .collect()
}

#[test]
fn the_systems_list_names_each_shipped_system() {
    let systems = rule_systems();
    assert!(systems.len() >= 3, "systems.rs registers {systems:?}");
    assert_eq!(systems, system_folders(), "systems.rs against the folders");
}

#[test]
fn the_answers_import_no_other_module() {
    let graph = graph();
    let uses = graph.get("answer").expect("an answer module");
    assert!(uses.is_empty(), "answer imports {uses:?}");
}

#[test]
fn no_format_imports_the_session_or_the_engine() {
    let graph = graph();
    let uses = graph.get("format").expect("a format module");
    let engine: BTreeSet<String> = rule_systems()
        .into_iter()
        .chain(
            [
                "session", "game", "catalog", "bind", "parse", "systems", "system", "cli",
            ]
            .map(String::from),
        )
        .collect();
    let bad: Vec<&String> = uses.iter().filter(|u| engine.contains(*u)).collect();
    assert!(bad.is_empty(), "format imports {bad:?}");
    assert!(uses.contains("answer"), "format writes answers: {uses:?}");
}

/// The files of one folder each file names (`super::x`, `crate::folder::x`).
fn folder_graph(dir: &Path, src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let module = dir
        .strip_prefix(src)
        .expect("under src")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("::");
    let names: BTreeMap<String, PathBuf> = std::fs::read_dir(dir)
        .expect("a folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| Some((p.file_stem()?.to_str()?.to_string(), p)))
        .filter(|(name, _)| name != "mod")
        .collect();
    let mut graph = BTreeMap::new();
    for (name, path) in &names {
        let text = code(&std::fs::read_to_string(path).expect("readable source"));
        let mut uses = BTreeSet::new();
        let prefixes = ["super::".to_string(), format!("crate::{module}::")];
        for prefix in prefixes.iter().filter(|p| p.as_str() != "crate::::") {
            for (i, _) in text.match_indices(prefix.as_str()) {
                let rest = &text[i + prefix.len()..];
                let named: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if named != *name && names.contains_key(&named) {
                    uses.insert(named);
                }
            }
        }
        graph.insert(name.clone(), uses);
    }
    graph
}

#[test]
fn no_folder_has_a_cycle_inside() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut folders = 0;
    for entry in std::fs::read_dir(&src).expect("src is readable") {
        let dir = entry.expect("directory entry").path();
        if !dir.is_dir() {
            continue;
        }
        folders += 1;
        let graph = folder_graph(&dir, &src);
        for start in graph.keys() {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<&String> = graph[start].iter().collect();
            while let Some(m) = todo.pop() {
                assert!(
                    m != start,
                    "{}: `{start}` imports itself round a loop",
                    dir.display()
                );
                if seen.insert(m.clone()) {
                    todo.extend(graph.get(m).into_iter().flatten());
                }
            }
        }
    }
    assert!(folders >= 8, "found only {folders} folders");
}

#[test]
fn no_module_imports_round_a_loop() {
    let graph = graph();
    assert!(graph.len() > 15, "found only {:?}", graph.keys());
    // A module on a cycle reaches itself.
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = graph[start].iter().collect();
        while let Some(m) = todo.pop() {
            assert!(
                m != start,
                "`{start}` imports itself round a loop: {:?}",
                graph
                    .iter()
                    .filter(|(_, uses)| uses.contains(start))
                    .map(|(k, _)| k)
                    .collect::<Vec<_>>()
            );
            if seen.insert(m.clone()) {
                todo.extend(graph.get(m).into_iter().flatten());
            }
        }
    }
}

#[test]
fn nothing_imports_upward() {
    let graph = graph();
    let systems = rule_systems();
    let above_core: BTreeSet<String> = systems
        .iter()
        .cloned()
        .chain(["systems".to_string()])
        .chain(FRONT_ENDS.iter().map(|s| s.to_string()))
        .collect();
    for (module, uses) in &graph {
        if systems.contains(module) {
            // A rule system uses the core only: never another system, the
            // list of systems, the session or a front end.
            let bad: Vec<&String> = uses
                .iter()
                .filter(|u| above_core.contains(*u) || *u == "session")
                .collect();
            assert!(bad.is_empty(), "rule system `{module}` imports {bad:?}");
        } else if !above_core.contains(module) {
            let bad: Vec<&String> = uses.iter().filter(|u| above_core.contains(*u)).collect();
            assert!(bad.is_empty(), "core module `{module}` imports {bad:?}");
        }
    }
    // The front ends reach the rules through the session.
    for front in FRONT_ENDS {
        assert!(
            graph[*front].contains("session"),
            "{front} uses the session"
        );
    }
}
