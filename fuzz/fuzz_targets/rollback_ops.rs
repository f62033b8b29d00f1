//! The rollback snapshot ring under random save/load/advance orders
//! against a model of what each cell saved (`tests/models/rollback.rs`).

#![no_main]

#[path = "../../tests/models/rollback.rs"]
mod model;

libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| model::run(&ops));
