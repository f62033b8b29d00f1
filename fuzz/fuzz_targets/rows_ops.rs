//! `RowsBuilder`/`FrameRows` against `Vec<Vec<u32>>`
//! (`tests/models/rows.rs`).

#![no_main]

#[path = "../../tests/models/rows.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|input: (u16, Vec<model::Op>)| model::run(input.0, &input.1));
