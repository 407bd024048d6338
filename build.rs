//! The embedded rule tables, read once here rather than at every start:
//! each `tables/*.toml` is also embedded as JSON, which deserializes into
//! the same values several times faster than TOML is parsed (a one-shot
//! command otherwise spends a good part of its time in the TOML parser).
//! `tables::TableSource::parse` uses the JSON only for an embedded file
//! whose text is unchanged, and falls back to the TOML on any doubt.

use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    pocket_module(&out);
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

/// Set by this script for the build of the pocket page's module it runs
/// (which compiles this package again, for wasm32, whose script must not
/// start another: it also sees a wasm32 target and no `native` feature).
const NESTED: &str = "DRUMHEAD_POCKET_NESTED";

/// The pocket page's WebAssembly module (`drumhead pocket`), built by a
/// cargo of its own as `cargo build-pocket` builds it (into the same
/// target folder, so that either reuses the other's) and embedded in the
/// program: `cfg(pocket_module)` and `DRUMHEAD_POCKET_WASM` name it
/// (deflated). A release build (`--release`, `--profile dist`, `cargo
/// install`) makes it whenever the wasm32-unknown-unknown target is
/// installed; a debug build only with `DRUMHEAD_POCKET=1`, since building
/// the whole library again for a second target would double the time of
/// every edit-and-test cycle. `DRUMHEAD_POCKET=0` leaves it out of any
/// build. Without it, `drumhead pocket` says why
/// (`DRUMHEAD_POCKET_MISSING`) and how to get it.
fn pocket_module(out: &Path) {
    println!("cargo::rustc-check-cfg=cfg(pocket_module)");
    // The module is the program's alone: not the platform-free core's
    // (the module itself, and `cargo check --no-default-features`).
    let wasm = std::env::var("TARGET").is_ok_and(|t| t.starts_with("wasm32"));
    if wasm
        || std::env::var_os("CARGO_FEATURE_NATIVE").is_none()
        || std::env::var_os(NESTED).is_some()
    {
        return;
    }
    println!("cargo:rerun-if-env-changed=DRUMHEAD_POCKET");
    let wanted = std::env::var("DRUMHEAD_POCKET").unwrap_or_default();
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let missing = |why: &str| {
        println!("cargo:rustc-env=DRUMHEAD_POCKET_MISSING={why}");
    };
    if wanted == "0" || (wanted != "1" && !release) {
        missing(
            "this build was made without the pocket page's module (a debug build makes it \
             only with DRUMHEAD_POCKET=1; a release build unless DRUMHEAD_POCKET=0)",
        );
        return;
    }
    for watched in [
        "src",
        "tables",
        "armies",
        "pocket",
        "Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={watched}");
    }
    match build_module(out) {
        Ok(wasm) => {
            println!("cargo:rustc-cfg=pocket_module");
            println!("cargo:rustc-env=DRUMHEAD_POCKET_WASM={}", wasm.display());
        }
        Err(why) => {
            for line in why.lines().filter(|l| !l.trim().is_empty()).take(12) {
                println!("cargo:warning={line}");
            }
            println!(
                "cargo:warning=the pocket page is left out of this build: `drumhead pocket` will say so"
            );
            missing(
                "the pocket page's module could not be built with this program (is the \
                 wasm32-unknown-unknown target installed?)",
            );
        }
    }
}

/// `cargo build -p drumhead-pocket --target wasm32-unknown-unknown
/// --profile pocket` into `<target>/pocket`, under the jobserver of the
/// build that runs this script; the module copied into `out`.
fn build_module(out: &Path) -> Result<PathBuf, String> {
    if !Path::new("pocket/Cargo.toml").is_file() {
        return Err("no pocket/ package in this source tree".into());
    }
    // The target folder: OUT_DIR is TARGET_DIR/[TRIPLE/]PROFILE/build/
    // PACKAGE/out. The module's build locks folders of its own in it
    // (`pocket`, `wasm32-unknown-unknown/pocket`), never this build's.
    let above = out
        .ancestors()
        .nth(4)
        .ok_or("no target folder above OUT_DIR")?;
    let triple = std::env::var("TARGET").unwrap_or_default();
    let target = match above.parent() {
        Some(parent) if above.file_name().is_some_and(|n| n == triple.as_str()) => parent,
        _ => above,
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args([
            "build",
            "-p",
            "drumhead-pocket",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "pocket",
            "--offline",
            "--locked",
            "--target-dir",
        ])
        .arg(target)
        .env(NESTED, "1")
        .env_remove("DRUMHEAD_POCKET")
        // The outer build's flags and wrappers (its host's rustflags,
        // clippy's driver) are not the module's.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("CARGO_TARGET_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cargo: {e}"))?;
    let built = finish(built, Duration::from_secs(45 * 60))?;
    if !built.0.success() {
        let said = String::from_utf8_lossy(&built.1);
        let tail: Vec<&str> = said.lines().rev().take(12).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!(
            "building the pocket page's module failed ({}):\n{}\n(to get it: \
             `rustup target add wasm32-unknown-unknown`, then build again)",
            built.0,
            tail.join("\n")
        ));
    }
    let wasm = target.join("wasm32-unknown-unknown/pocket/drumhead_pocket.wasm");
    let bytes = std::fs::read(&wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
    // Deflated, the page is a third of its size, and a browser reads it
    // (and inflates the module with its own DecompressionStream) sooner
    // than it reads the module's base64 whole.
    let deflated = miniz_oxide::deflate::compress_to_vec(&bytes, 10);
    let carried = out.join("drumhead_pocket.wasm.deflate");
    std::fs::write(&carried, deflated).map_err(|e| format!("{}: {e}", carried.display()))?;
    Ok(carried)
}

/// Wait for `child` (its standard error read meanwhile), at most `limit`:
/// a build that hangs (a lock never released) is stopped and said to.
fn finish(mut child: Child, limit: Duration) -> Result<(ExitStatus, Vec<u8>), String> {
    let mut stderr = child.stderr.take().ok_or("no standard error")?;
    let reader = std::thread::spawn(move || {
        let mut said = Vec::new();
        let _ = stderr.read_to_end(&mut said);
        said
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "the module's build took more than {limit:?} and was stopped"
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    Ok((status, reader.join().unwrap_or_default()))
}
