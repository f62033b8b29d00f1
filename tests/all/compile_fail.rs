//! The borrow-checked guarantees, as programs the compiler must reject.
//! Each case lives in `tests/trybuild/compile_fail/<concept>/` with the
//! expected compiler message beside it.
//!
//! Two checks. On every toolchain (Rust 1.100 and newer, stable or
//! nightly, with or without rust-src), each case must fail to compile with
//! the error codes of its `.stderr` file (`E0277`, `E0505`, or a plain
//! `error:`): those do not change between toolchains. On the pinned
//! toolchain of `rust-toolchain.toml` with rust-src installed, trybuild
//! also compares the whole message (rustc's wording and its quotes of std's
//! source change between toolchains); elsewhere that comparison says on the
//! terminal that it was skipped, and why.

#![cfg(not(miri))] // Both run the compiler, which Miri cannot start.

#[path = "../trybuild/harness.rs"]
mod harness;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

const CASES: &str = "tests/trybuild/compile_fail";

#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn misuse_is_rejected_by_the_compiler() {
    harness::check_codes(CASES, "\"derive\", \"serde\"", "compile-fail-codes", 20);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "starts a process")]
fn misuse_messages_match_the_pinned_toolchain() {
    if harness::messages_comparable() {
        trybuild::TestCases::new().compile_fail(format!("{CASES}/*/*.rs"));
    }
}
