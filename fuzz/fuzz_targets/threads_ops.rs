//! `ThreadArenas` and its `Collector` from four threads, reset between
//! frames, against a model (`tests/models/threads.rs`).

#![no_main]

#[path = "../../tests/models/threads.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
