//! What review 4 tried and found sound, kept as tests: `String` against
//! std's on random operation sequences (those whose panics are caught
//! included), the UTF-8 and UTF-16 decoders against std's on random input,
//! resets and releases at a reservation's exact end, and nested scopes
//! unwinding. (`SegmentedList::clone_from`, the `Collector`'s fast path,
//! `Sealed::get` and the rollback snapshot ring have theirs in
//! `segmented_misc`, `collector`, `sealed` and `rollback::snapshot`.)

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tickarena::{FrameArena, String};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::string::{Op, run};

/// `native` runs, `miri` under Miri, or `TICKARENA_PROPTEST_CASES` when
/// set (the slow checkers in `.ci/run`).
fn runs(native: usize, miri: usize) -> usize {
    std::env::var("TICKARENA_PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(if cfg!(miri) { miri } else { native })
}

const CHARS: &[char] = &['a', 'Z', ' ', '7', 'é', 'ß', '→', '€', '😀', '\u{10FFFF}'];

fn text(rng: &mut SmallRng) -> std::string::String {
    (0..rng.random_range(0..8))
        .map(|_| CHARS[rng.random_range(0..CHARS.len())])
        .collect()
}

fn op(rng: &mut SmallRng) -> Op {
    let c = CHARS[rng.random_range(0..CHARS.len())];
    let at = rng.random();
    // One in six may panic: a caught panic costs some 20 µs, the other
    // operations a few hundred nanoseconds.
    if rng.random_range(0..6) == 0 {
        return match rng.random_range(0..5) {
            0 => Op::InsertAnywhere(at, c),
            1 => Op::InsertStrAnywhere(at, text(rng)),
            2 => Op::RemoveAnywhere(at),
            3 => Op::TruncateAnywhere(at),
            _ => Op::RetainPanicking {
                reject_every: rng.random_range(1..4),
                panic_at: rng.random_range(0..8),
            },
        };
    }
    match rng.random_range(0..13) {
        0 => Op::Push(c),
        1 => Op::PushStr(text(rng)),
        2 => Op::Insert(at, c),
        3 => Op::InsertStr(at, text(rng)),
        4 => Op::Pop,
        5 => Op::Remove(at),
        6 => Op::Truncate(at),
        7 => Op::Clear,
        8 => Op::Retain(rng.random()),
        9 => Op::Reserve(rng.random_range(0..100)),
        10 => Op::ShrinkToFit,
        11 => Op::ExtendChars(text(rng).chars().collect()),
        _ => Op::AddAssign(text(rng)),
    }
}

/// 20 000 random sequences of up to 30 operations (40 under Miri), each
/// in an arena and on the global allocator, against std's `String`: the
/// same contents after every operation, and where one panics, the same
/// panic message and what is left.
#[test]
fn string_random_sequences_match_std() {
    let mut rng = SmallRng::seed_from_u64(4);
    for _ in 0..runs(20_000, 15) {
        let ops: Vec<Op> = (0..rng.random_range(1..30)).map(|_| op(&mut rng)).collect();
        run(&ops);
    }
}

/// Bytes that are often UTF-8, often nearly: pieces of valid characters,
/// cut characters, and stray bytes.
fn almost_utf8(rng: &mut SmallRng) -> Vec<u8> {
    let mut bytes = Vec::new();
    for _ in 0..rng.random_range(0..6) {
        match rng.random_range(0..4) {
            0 => bytes.push(rng.random()),
            1 => {
                let c = CHARS[rng.random_range(0..CHARS.len())];
                let mut buffer = [0; 4];
                let encoded = c.encode_utf8(&mut buffer).as_bytes();
                bytes.extend_from_slice(&encoded[..rng.random_range(1..=encoded.len())]);
            }
            _ => {
                let c = CHARS[rng.random_range(0..CHARS.len())];
                bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
    }
    bytes
}

/// Units that are often UTF-16, with lone and swapped surrogates.
fn almost_utf16(rng: &mut SmallRng) -> Vec<u16> {
    let mut units = Vec::new();
    for _ in 0..rng.random_range(0..6) {
        match rng.random_range(0..4) {
            0 => units.push(rng.random_range(0xD800..0xE000)),
            1 => units.push(rng.random()),
            _ => {
                let c = CHARS[rng.random_range(0..CHARS.len())];
                units.extend_from_slice(c.encode_utf16(&mut [0; 2]));
            }
        }
    }
    units
}

/// 200 000 inputs (200 under Miri) through every decoder, against std's:
/// the same strings, the same errors (`valid_up_to`, `error_len`).
#[test]
fn decoders_match_std_on_random_inputs() {
    let arena = FrameArena::new();
    let mut rng = SmallRng::seed_from_u64(16);
    for _ in 0..runs(200_000, 60) {
        let bytes = almost_utf8(&mut rng);
        let mut in_arena = Vec::new_in(&arena);
        in_arena.extend_from_slice(&bytes);
        let ours = String::from_utf8(in_arena).map_err(|error| error.utf8_error());
        let std = std::string::String::from_utf8(bytes.clone()).map_err(|error| error.utf8_error());
        let error = |e: std::str::Utf8Error| (e.valid_up_to(), e.error_len());
        assert_eq!(
            ours.as_deref().map_err(|e| error(*e)),
            std.as_deref().map_err(|e| error(*e)),
            "{bytes:?}"
        );
        assert_eq!(
            String::from_utf8_lossy_in(&bytes, &arena),
            std::string::String::from_utf8_lossy(&bytes),
            "{bytes:?}"
        );

        let units = almost_utf16(&mut rng);
        assert_eq!(
            String::from_utf16_in(&units, &arena).ok().as_deref(),
            std::string::String::from_utf16(&units).ok().as_deref(),
            "{units:?}"
        );
        let lossy = std::string::String::from_utf16_lossy(&units);
        assert_eq!(
            String::from_utf16_lossy_in(&units, &arena),
            lossy,
            "{units:?}"
        );
        let little: Vec<u8> = units.iter().flat_map(|u| u.to_le_bytes()).collect();
        let big: Vec<u8> = units.iter().flat_map(|u| u.to_be_bytes()).collect();
        assert_eq!(String::from_utf16le_lossy_in(&little, &arena), lossy);
        assert_eq!(String::from_utf16be_lossy_in(&big, &arena), lossy);
        assert_eq!(
            String::from_utf16le_in(&little, &arena).ok().as_deref(),
            std::string::String::from_utf16(&units).ok().as_deref()
        );
        // An odd byte count is an error.
        if let Some((_, odd)) = big.split_last() {
            assert!(String::from_utf16be_in(odd, &arena).is_err());
        }
    }
}

/// An arena filled to the last byte of its reservation, reset, filled
/// again, and its pages released, a few times over.
#[test]
fn resets_and_releases_at_the_reservations_exact_end() {
    const RESERVE: usize = 64 << 10;
    let mut arena = FrameArena::builder()
        .reserve(RESERVE)
        .retain(0)
        .release_after(0)
        .build()
        .unwrap();
    let reserved = arena.stats().reserved;
    // (Two rounds interpreted: a byte a call, 64 KiB a round.)
    for round in 0..if cfg!(miri) { 2 } else { 3 } {
        // Three pieces that end exactly at the reservation's end.
        let first = arena.alloc_slice_fill_with(reserved / 2, |i| i as u8);
        let second = arena.alloc_slice_fill_with(reserved / 4, |_| 1u8);
        let rest = reserved - arena.used();
        let last = arena.alloc_slice_fill_with(rest, |_| 2u8);
        assert_eq!(arena.used(), reserved, "round {round}");
        assert_eq!((first[7], second[0], last[rest - 1]), (7, 1, 2));
        assert!(arena.try_alloc(0u8).is_err(), "not a byte more");
        assert!(arena.stats().committed >= reserved);
        arena.reset();
        assert_eq!(arena.used(), 0);
        assert_eq!(arena.stats().committed, 0, "round {round}: released");
    }
}

/// Scopes three deep, the innermost panicking: the one that catches it
/// goes on allocating, and every scope's memory comes back.
#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn nested_scopes_unwinding() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use tickarena::scoped;

    let total = scoped(|outer| {
        let kept = outer.alloc(1u64);
        let middle = scoped(|middle| {
            let before = middle.used();
            let caught = catch_unwind(AssertUnwindSafe(|| {
                scoped(|inner| {
                    let _ = inner.alloc_slice_fill_with(4096, |i| i as u64);
                    panic!("inner scope fails");
                })
            }));
            assert!(caught.is_err());
            // The middle scope still serves, from where it was.
            assert_eq!(middle.used(), before);
            *middle.alloc(2u64) + *kept
        });
        middle + scoped(|again| *again.alloc(3u64))
    });
    assert_eq!(total, 6);
}
