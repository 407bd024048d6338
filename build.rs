//! The embedded rule tables, read once here rather than at every start:
//! each `tables/*.toml` is also embedded as JSON, which deserializes into
//! the same values several times faster than TOML is parsed (a one-shot
//! command otherwise spends a good part of its time in the TOML parser).
//! `tables::TableSource::parse` uses the JSON only for an embedded file
//! whose text is unchanged, and falls back to the TOML on any doubt.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=tables");
    let mut names: Vec<String> = std::fs::read_dir("tables")
        .expect("the tables directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let mut code = String::from(
        "/// Each embedded table file's name, its TOML text and the same values as JSON.\n\
         pub(crate) const PREPARSED: &[(&str, &str, &str)] = &[\n",
    );
    for name in &names {
        let path = Path::new("tables").join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a table file");
        // A file the TOML reader refuses is left to it, at run time, to
        // report as it always does.
        let Ok(value) = text.parse::<toml::Table>() else {
            continue;
        };
        let json = serde_json::to_string(&value).expect("TOML values are JSON values");
        std::fs::write(out.join(format!("{name}.json")), json).expect("OUT_DIR is writable");
        let _ = writeln!(
            code,
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/tables/{name}\")), \
             include_str!(concat!(env!(\"OUT_DIR\"), \"/{name}.json\"))),"
        );
    }
    code.push_str("];\n");
    std::fs::write(out.join("preparsed.rs"), code).expect("OUT_DIR is writable");
}
