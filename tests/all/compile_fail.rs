//! The borrow-checked guarantees, as programs the compiler must reject.
//! Each case lives in `tests/trybuild/compile_fail/<concept>/` with the
//! expected compiler message beside it.
//!
//! One check, as strict as the toolchain allows. On the pinned toolchain
//! of `rust-toolchain.toml` with rust-src, trybuild compares each case's
//! whole message with its `.stderr` file (error codes included). Elsewhere
//! (Rust 1.100 and newer, stable or nightly, with or without rust-src:
//! rustc's wording and its quotes of std's source change between
//! toolchains), each case must fail with the error codes of its `.stderr`
//! file (`E0277`, `E0505`, or a plain `error:`), which do not change, and
//! the terminal says that the messages were not compared, and why. (Both
//! at once on the pinned toolchain built the cases' dependencies twice,
//! for nothing the whole message does not check.)

#![cfg(not(miri))] // It runs the compiler, which Miri cannot start.

#[path = "../trybuild/harness.rs"]
mod harness;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

const CASES: &str = "tests/trybuild/compile_fail";

#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn misuse_is_rejected_by_the_compiler() {
    let cases = harness::cases(CASES).len();
    assert!(cases >= 20, "found only {cases} cases");
    if harness::messages_comparable() {
        trybuild::TestCases::new().compile_fail(format!("{CASES}/*/*.rs"));
    } else {
        harness::check_codes(CASES, "\"derive\", \"serde\"", "compile-fail-codes", 20);
    }
}
