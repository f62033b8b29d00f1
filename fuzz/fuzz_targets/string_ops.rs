//! `tickarena::String` operations against `std::string::String`
//! (`tests/models/string.rs`).

#![no_main]

#[path = "../../tests/models/string.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
