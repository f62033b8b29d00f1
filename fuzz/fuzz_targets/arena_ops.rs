//! Random arena operations with random layouts against the model in
//! `tests/models/arena.rs`.

#![no_main]

#[path = "../../tests/models/arena.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
