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

const FRONT_ENDS: &[&str] = &["cli"];

#[test]
fn the_systems_list_names_each_shipped_system() {
    let systems = rule_systems();
    assert_eq!(
        systems,
        ["drums", "mayhem", "saber"].map(String::from).into(),
        "systems.rs"
    );
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
