//! The compile-fail harness shared by the test binaries that have cases
//! (`tests/all/compile_fail.rs`, `tests/gpu/compile_fail.rs`): the cases
//! of a folder, the error codes each `.stderr` expects, and the codes the
//! compiler reports when the cases are built as binaries of one generated
//! crate. See `tests/all/compile_fail.rs` for which runs where.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The toolchain the `.stderr` files were written by: `rustc -V` of the
/// channel in `rust-toolchain.toml`.
pub const PINNED_RUSTC: &str = "rustc 1.101.0-nightly (92ffebece 2026-10-28)";

/// Checks that every case in `dir` fails with the error codes of its
/// `.stderr` file, built with tickarena's `features` (e.g.
/// `"\"derive\", \"serde\""`).
pub fn check_codes(dir: &str, features: &str, project_name: &str, at_least: usize) {
    let cases = cases(dir);
    assert!(cases.len() >= at_least, "found only {} cases", cases.len());
    let actual = error_codes_of(&cases, features, project_name);
    let mut wrong = Vec::new();
    for case in &cases {
        let expected = expected_codes(case);
        assert!(
            !expected.is_empty(),
            "{}: no error in its .stderr",
            case.display()
        );
        let got = actual.get(case).cloned().unwrap_or_default();
        if got != expected {
            wrong.push(format!(
                "{}: expected {expected:?}, got {got:?}",
                case.display()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "cases rejected otherwise than expected:\n{}",
        wrong.join("\n")
    );
}

/// Whether trybuild can compare whole messages here: the pinned toolchain
/// with rust-src. When not, says why on the terminal.
pub fn messages_comparable() -> bool {
    use std::io::Write;
    let rustc = rustc_version();
    let rust_src = sysroot().join("lib/rustlib/src/rust/library").is_dir();
    if rustc != PINNED_RUSTC || !rust_src {
        // Straight to the terminal: libtest captures `eprintln!`, and a
        // skipped comparison must be seen.
        let _ = writeln!(
            std::io::stderr(),
            "\nnote: compile-fail messages not compared: the .stderr files are pinned to \
             `{PINNED_RUSTC}` with rust-src; this is `{rustc}`{}. The error codes of every \
             case were checked.",
            if rust_src { "" } else { " without rust-src" }
        );
        return false;
    }
    true
}

/// Every case, relative to the package root.
pub fn cases(dir: &str) -> Vec<PathBuf> {
    let mut cases = Vec::new();
    for concept in std::fs::read_dir(dir).unwrap() {
        for file in std::fs::read_dir(concept.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|ext| ext == "rs") {
                cases.push(path);
            }
        }
    }
    cases.sort();
    cases
}

/// The error codes a case's `.stderr` expects; `"error"` for an error
/// without a code (a lifetime error).
pub fn expected_codes(case: &Path) -> BTreeSet<String> {
    let stderr = std::fs::read_to_string(case.with_extension("stderr")).unwrap();
    stderr.lines().filter_map(error_code).collect()
}

/// The code of a diagnostic line that starts an error, if it is one.
fn error_code(line: &str) -> Option<String> {
    let rest = line.strip_prefix("error")?;
    if let Some(code) = rest.strip_prefix('[') {
        return Some(code.split(']').next()?.to_owned());
    }
    rest.starts_with(':').then(|| "error".to_owned())
}

/// Compiles every case as a binary of one generated crate (one cargo run,
/// `--keep-going`) and collects the error codes reported in each file.
pub fn error_codes_of(
    cases: &[PathBuf],
    features: &str,
    project_name: &str,
) -> BTreeMap<PathBuf, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = Path::new(env!("CARGO_TARGET_TMPDIR")).join(project_name);
    std::fs::create_dir_all(&project).unwrap();
    let mut manifest = format!(
        "[package]\nname = \"tickarena-compile-fail-codes\"\nversion = \"0.0.0\"\n\
         edition = \"2024\"\npublish = false\n\n[dependencies]\n\
         tickarena = {{ path = {:?}, features = [{features}] }}\n\
         serde = {{ version = \"1\", features = [\"derive\"] }}\n\n[workspace]\n",
        root.display().to_string()
    );
    for (i, case) in cases.iter().enumerate() {
        let path = root.join(case).display().to_string();
        manifest += &format!("\n[[bin]]\nname = \"case{i}\"\npath = {path:?}\n");
    }
    std::fs::write(project.join("Cargo.toml"), manifest).unwrap();
    // The workspace's versions of tickarena's dependencies, all of which
    // this test's own build has fetched: no network needed.
    std::fs::copy(root.join("Cargo.lock"), project.join("Cargo.lock")).unwrap();
    let output = Command::new(option_env!("CARGO").unwrap_or("cargo"))
        .args([
            "check",
            "--bins",
            "--keep-going",
            "--offline",
            "--message-format=short",
        ])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", project.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "every case compiled:\n{stderr}");
    let mut codes: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    for line in stderr.lines() {
        // `/abs/path/case.rs:7:21: error[E0277]: message`
        let Some((location, diagnostic)) = line.split_once(": ") else {
            continue;
        };
        let Some(file) = location.split(':').next() else {
            continue;
        };
        let Some(case) = cases.iter().find(|case| root.join(case) == Path::new(file)) else {
            continue;
        };
        if let Some(code) = error_code(diagnostic) {
            codes.entry(case.clone()).or_default().insert(code);
        }
    }
    assert!(
        !codes.is_empty(),
        "no error was attributed to a case:\n{stderr}"
    );
    codes
}

pub fn rustc_version() -> String {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc).arg("-V").output().unwrap();
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

pub fn sysroot() -> PathBuf {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .unwrap();
    PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
}
