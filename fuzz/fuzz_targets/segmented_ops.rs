//! `SegmentedList` operations against `Vec` (`tests/models/segmented.rs`).

#![no_main]

#[path = "../../tests/models/segmented.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
