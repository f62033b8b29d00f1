//! Scopes nested (of the thread, and on one arena) against a model of each
//! level's bytes (`tests/models/scopes.rs`).

#![no_main]

#[path = "../../tests/models/scopes.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
