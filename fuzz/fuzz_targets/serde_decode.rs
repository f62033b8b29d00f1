//! Random bytes into postcard and `InArena<Snapshot>` (the snapshot packet
//! of `examples/support/snapshot.rs`), in an arena of 1 MiB reset after
//! each input: no panic, no UB, nothing past the reservation (a refusal is
//! an error). What decodes is a model check: encoded again, it decodes to
//! the same packet (the same bytes again), and serde's own derive reads the same bytes into the
//! heap shape. The same bytes also go to the differential model of
//! `tests/models/serde_decode.rs`: serde's derive and `DeserializeIn` on
//! its packet (options, defaults, raw identifiers, renames, recursive
//! enums) give the same value or both an error.

#![no_main]

use std::cell::RefCell;

use serde::de::DeserializeSeed;
use tickarena::FrameArena;
use tickarena::serde::InArena;

#[path = "../../examples/support/snapshot.rs"]
mod snapshot;

use snapshot::{HeapSnapshot, Snapshot};

#[path = "../../tests/models/serde_decode.rs"]
mod model;

// The types carrying serde's attributes (their postcard family), with
// `mod tokens` beside, which the model reads tokens with.
#[path = "../../tests/models/tokens.rs"]
#[allow(dead_code)] // the writer of tokens is the tests' alone
mod tokens;
#[path = "../../tests/models/serde_attrs_decode.rs"]
mod serde_attrs_decode;

thread_local! {
    static ARENA: RefCell<FrameArena> =
        RefCell::new(FrameArena::builder().reserve(1 << 20).build().unwrap());
}

fn decode<'a>(arena: &'a FrameArena, bytes: &[u8]) -> Option<Snapshot<'a>> {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    InArena::new(arena).deserialize(&mut input).ok()
}

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    ARENA.with(|arena| {
        let mut arena = arena.borrow_mut();
        if let Some(packet) = decode(&arena, bytes) {
            let again = postcard::to_allocvec(&packet).unwrap();
            let twice = decode(&arena, &again).expect("an encoded packet decodes");
            // By the bytes: a NaN in a position is not equal to itself.
            assert_eq!(postcard::to_allocvec(&twice).unwrap(), again);
            let heap: HeapSnapshot = postcard::from_bytes(&again).expect("serde's derive reads it");
            assert_eq!(postcard::to_allocvec(&heap).unwrap(), again);
        }
        assert!(arena.used() <= arena.stats().reserved);
        arena.reset();
        model::check_postcard(&mut arena, bytes);
        serde_attrs_decode::compact::check_postcard(&mut arena, bytes);
    });
});
