//! Random arena operations with random layouts against the model in
//! `tests/models/arena.rs`.

#![no_main]

#[path = "../../tests/models/arena.rs"]
mod model;

// Every other input on 64 KiB, where most sequences run out and the
// refusals' model is exercised.
libfuzzer_sys::fuzz_target!(|ops: Vec<model::Op>| if ops.len() % 2 == 0 {
    model::run(&ops)
} else {
    model::run_in(&ops, 64 << 10)
});
