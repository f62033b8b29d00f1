//! Tags, budgets and scopes on one arena against a model of the tag ledger
//! (`tests/models/tags.rs`).

#![no_main]

#[path = "../../tests/models/tags.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
