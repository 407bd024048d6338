//! The shipped army lists (the project's `armies/` folder), embedded: a
//! list added there is in the next module.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../armies");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the armies folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".toml"))
        .collect();
    files.sort();
    let mut code = String::from(
        "/// The shipped army lists: file name and text.\npub(crate) const SHIPPED: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        let path = dir.join(file);
        writeln!(
            code,
            "    ({file:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("written");
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("shipped.rs");
    std::fs::write(out, code).expect("shipped.rs written");
}
