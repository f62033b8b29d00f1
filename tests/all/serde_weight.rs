//! Issue 59, part 1: what one packet may cost the tick. A bound that
//! follows the input's length (`InArena::for_input`) holds for any
//! datagram (random bytes, nested length claims, mutated valid packets);
//! an attack's committed pages go back within the retention's windows;
//! nested untagged enums read as serde's derive; a decode that switches stacks
//! (`serde_stacker`) is not refused by the stack bound, which can be
//! switched off while the depth bound holds; and `too_deep` tells depth
//! refusals from the others.

use proptest::prelude::*;
use serde::de::DeserializeSeed;
use tickarena::serde::{InArena, arena_refused, over_max_bytes, too_deep};
use tickarena::{FrameArena, FrameVec};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::byte_edit::{apply_bytes, byte_edit};
use crate::serde_bound::Slices;

/// Four lists inside each other, numbers at the bottom.
type Lists<'a> = FrameVec<'a, FrameVec<'a, FrameVec<'a, FrameVec<'a, u64>>>>;

/// What `for_input(len)` lets a decode take (the documented formula).
fn input_bound(len: usize) -> usize {
    32 * len + (16 << 10)
}

/// A postcard varint.
fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A `len`-byte postcard datagram whose every list claims the bytes left
/// (the most postcard believes), nested as deep as the bytes go.
fn nested_claims(len: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    while bytes.len() + 3 <= len {
        let left = (len - bytes.len()) as u64;
        varint(left, &mut bytes);
    }
    bytes.resize(len, 1);
    bytes
}

/// The arena bytes one decode of `bytes` as `T` took, and whether it
/// succeeded, under `for_input` (or the default bound without).
fn cost<'a, T: tickarena::serde::DeserializeIn<'a>>(
    arena: &'a FrameArena,
    bytes: &[u8],
    by_length: bool,
) -> (bool, usize) {
    let before = arena.used();
    let mut seed = InArena::<T>::new(arena);
    if by_length {
        seed = seed.for_input(bytes.len());
    }
    let ok = seed
        .deserialize(&mut postcard::Deserializer::from_bytes(bytes))
        .is_ok();
    (ok, arena.used() - before)
}

/// The costliest 1 200-byte datagram of nested length claims (serde_bound's
/// bombs, at every level, after 0 to 2 small finished lists, into frozen
/// slices): its cost under `for_input` and under the fixed default.
fn worst_bomb(arena: &FrameArena) -> (Vec<u8>, usize, usize) {
    let mut worst = (Vec::new(), 0, 0);
    for level in 0..4 {
        for small_first in 0..3 {
            let bomb = crate::serde_bound::postcard_bomb(level, small_first, None, 1200);
            assert!(bomb.len() <= 1200);
            let (ok, by_length) = cost::<Slices<'_>>(arena, &bomb, true);
            assert!(!ok);
            let (_, fixed) = cost::<Slices<'_>>(arena, &bomb, false);
            if fixed > worst.2 {
                worst = (bomb, by_length, fixed);
            }
        }
    }
    worst
}

#[test]
fn a_datagram_of_nested_claims_costs_at_most_its_bound() {
    let arena = FrameArena::builder().reserve(256 << 20).build().unwrap();
    let (_, by_length, fixed) = worst_bomb(&arena);
    println!(
        "1200-byte nested claims: {by_length} bytes by length, {fixed} under the fixed default"
    );
    assert!(
        by_length <= input_bound(1200) && by_length <= 64 << 10,
        "{by_length} bytes for 1200"
    );
    assert!(fixed <= tickarena::serde::DEFAULT_MAX_BYTES);
}

/// A unit of a game's packet: text, a list, a map and a box.
#[derive(tickarena::DeserializeIn, Debug)]
#[allow(dead_code)]
struct Unit<'a> {
    id: u32,
    name: &'a str,
    path: FrameVec<'a, (i16, i16)>,
    tags: tickarena::FrameHashMap<'a, &'a str, u8>,
    next: Option<tickarena::FrameBox<'a, Unit<'a>>>,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    /// Any datagram up to 1 200 bytes (random, nested claims, a valid
    /// packet mutated), any of the shapes: at most its length's bound, and
    /// at most 64 KiB.
    #[test]
    fn any_datagram_costs_at_most_its_length_bound(
        random in prop::collection::vec(any::<u8>(), 0..1200),
        claims in 3usize..1200,
        edits in prop::collection::vec(byte_edit(), 0..8),
        shape in 0..4u8,
    ) {
        let arena = FrameArena::builder().reserve(16 << 20).build().unwrap();
        let mut valid = postcard::to_allocvec(&vec![vec![vec![vec![7u64; 3]; 2]; 2]; 3]).unwrap();
        for edit in &edits {
            apply_bytes(&mut valid, edit);
        }
        for bytes in [random, nested_claims(claims), valid] {
            let (_, taken) = match shape {
                0 => cost::<Lists<'_>>(&arena, &bytes, true),
                1 => cost::<&str>(&arena, &bytes, true),
                2 => cost::<FrameVec<'_, Unit<'_>>>(&arena, &bytes, true),
                _ => cost::<tickarena::FrameHashMap<'_, u32, Lists<'_>>>(&arena, &bytes, true),
            };
            prop_assert!(taken <= input_bound(bytes.len()), "{taken} bytes for {}", bytes.len());
            prop_assert!(bytes.len() > 1200 || taken <= 64 << 10);
        }
    }
}

#[test]
fn an_attacks_pages_go_back_within_two_windows() {
    const WINDOW: u32 = 10;
    const RETAIN: usize = 64 << 10;
    let mut arena = FrameArena::builder()
        .reserve(256 << 20)
        .retain(RETAIN)
        .release_after(WINDOW)
        .build()
        .unwrap();
    let (bomb, _, _) = worst_bomb(&FrameArena::builder().reserve(256 << 20).build().unwrap());
    // A tick of 200 hostile datagrams, each decoded and failed.
    for _ in 0..200 {
        let seed = InArena::<Slices<'_>>::new(&arena).for_input(bomb.len());
        assert!(
            seed.deserialize(&mut postcard::Deserializer::from_bytes(&bomb))
                .is_err()
        );
    }
    let attacked = arena.used();
    println!("200 datagrams of nested claims left {attacked} bytes in the tick");
    assert!(attacked <= 200 * input_bound(1200), "{attacked}");
    assert!(
        arena.stats().committed > RETAIN,
        "the attack committed pages"
    );
    // The documented promise: gone within one to two windows of quiet.
    for _ in 0..=2 * WINDOW {
        arena.reset();
    }
    assert!(
        arena.stats().committed <= RETAIN,
        "{} bytes still committed",
        arena.stats().committed
    );
}

// The fields are read through `Debug`, which the dead-code lint does not see.
#[allow(dead_code)]
mod arena_side {
    use tickarena::FrameVec;

    /// Every level tries `Strict` first, which reads the whole subtree
    /// and then misses `x`: each failed try used to keep its bytes, 2^d.
    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Tree<'a> {
        Strict { k: FrameVec<'a, Tree<'a>>, x: u8 },
        Loose { k: FrameVec<'a, Tree<'a>> },
        Leaf(u32),
        Name(&'a str),
    }
}

#[allow(dead_code)]
mod heap_side {
    #[derive(serde::Deserialize, Debug)]
    #[serde(untagged)]
    pub enum Tree {
        Strict { k: Vec<Tree>, x: u8 },
        Loose { k: Vec<Tree> },
        Leaf(u32),
        Name(String),
    }
}

/// `{"k":[` `depth` times, a leaf, closed.
fn nested_json(depth: usize, leaf: &str) -> String {
    format!("{}{leaf}{}", r#"{"k":["#.repeat(depth), "]}".repeat(depth))
}

/// The arena bytes of a decode of `json` as `T`, and its value (by `Debug`)
/// or error.
fn json_cost<'a, T>(arena: &'a FrameArena, json: &str) -> (Result<String, String>, usize)
where
    T: tickarena::serde::DeserializeIn<'a> + std::fmt::Debug,
{
    let before = arena.used();
    let got = InArena::<T>::new(arena)
        .deserialize(&mut serde_json::Deserializer::from_str(json))
        .map(|value| format!("{value:?}"))
        .map_err(|error| error.to_string());
    (got, arena.used() - before)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 128 }))]

    /// Random and nested documents: the arena reads what serde's derive
    /// reads, under the defaults.
    #[test]
    fn nested_untagged_reads_as_serdes(
        document in crate::serde_tagged::document(&["k", "x", "y"]),
        depth in 0usize..16,
    ) {
        for json in [document.clone(), nested_json(depth, &document)] {
            let arena = FrameArena::new();
            let (tree, _) = json_cost::<arena_side::Tree<'_>>(&arena, &json);
            let heap = serde_json::from_str::<heap_side::Tree>(&json)
                .map(|value| format!("{value:?}"))
                .map_err(|error| error.to_string());
            prop_assert_eq!(tree, heap, "on {}", json);
        }
    }
}

/// `{"k":[…]}` nested, read by the arena (by tests Miri does not run).
#[cfg(not(miri))]
#[derive(tickarena::DeserializeIn, Debug)]
// Read only through `serde_stacker`, which the web build leaves out.
#[cfg_attr(target_family = "wasm", allow(dead_code))]
struct K<'a> {
    k: FrameVec<'a, K<'a>>,
}

/// Decodes `json` as [`K`] through `serde_stacker`, with `seed`'s limits:
/// `every_level` moves to a fresh 256 KiB stack segment at every level
/// (its red zone larger than any stack), else to a 128 KiB one when less
/// than 64 KiB is left.
#[cfg(not(any(miri, target_family = "wasm")))]
fn through_stacker(
    seed: InArena<'_, K<'_>>,
    json: &str,
    every_level: bool,
) -> Result<usize, String> {
    let mut inner = serde_json::Deserializer::from_str(json);
    inner.disable_recursion_limit();
    let (red_zone, stack_size) = if every_level {
        (usize::MAX / 2, 256 << 10)
    } else {
        (64 << 10, 128 << 10)
    };
    let stacked = serde_stacker::Deserializer {
        de: &mut inner,
        red_zone,
        stack_size,
    };
    let value = seed.deserialize(stacked).map_err(|e| e.to_string())?;
    let mut depth = 0;
    let mut at = &value;
    while let Some(next) = at.k.first() {
        depth += 1;
        at = next;
    }
    Ok(depth)
}

#[cfg(not(any(miri, target_family = "wasm")))]
#[test]
fn a_decode_that_switches_stacks_is_measured_per_segment() {
    let arena = FrameArena::new();
    for depth in [1, 3, 10, 60] {
        let json = nested_json(depth, "");
        // The defaults: every level on another segment, none refused.
        let got = through_stacker(InArena::new(&arena), &json, true);
        assert_eq!(got, Ok(depth - 1), "depth {depth}");
        assert!(!too_deep(&arena));
        // A small stack bound still holds per segment: one level fits.
        let got = through_stacker(InArena::new(&arena).max_stack(64 << 10), &json, true);
        assert_eq!(got, Ok(depth - 1));
    }
    // Deeper than the default level count, with the stack bound off: the
    // depth bound alone, raised.
    // (7 KB of JSON, past the default byte bound: bounded by its length.)
    let json = nested_json(1000, "");
    let seed = InArena::new(&arena)
        .max_depth(3000)
        .max_stack(usize::MAX)
        .for_input(json.len());
    assert_eq!(through_stacker(seed, &json, false), Ok(999));
    // The depth bound holds with the stack bound off.
    let seed = InArena::new(&arena)
        .max_depth(100)
        .max_stack(usize::MAX)
        .for_input(json.len());
    let error = through_stacker(seed, &json, false).unwrap_err();
    assert!(error.contains("deeper than 100 levels"), "{error}");
    assert!(too_deep(&arena));
}

#[cfg(not(miri))]
#[test]
fn the_stack_bound_can_be_switched_off() {
    // On the main stack: 60 levels of `{"k":[…]}` under a 1-byte stack
    // bound are refused; off, only the depth bound counts.
    let arena = FrameArena::new();
    let json = nested_json(60, "");
    let seed = InArena::<K<'_>>::new(&arena).max_stack(1);
    let refused = seed.deserialize(&mut serde_json::Deserializer::from_str(&json));
    assert!(refused.unwrap_err().to_string().contains("bytes of stack"));
    assert!(too_deep(&arena), "a stack refusal is a depth refusal");
    let seed = InArena::<K<'_>>::new(&arena).max_stack(usize::MAX);
    assert!(
        seed.deserialize(&mut serde_json::Deserializer::from_str(&json))
            .is_ok()
    );
    assert!(!too_deep(&arena));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 128 }))]

    /// Nested lists, in postcard and JSON, against a limit: `too_deep` is
    /// exactly "nested deeper than the limit" (a naive count of the
    /// levels), and the other kinds stay false.
    #[test]
    fn too_deep_tells_depth_refusals(depth in 1usize..40, limit in 1u32..40) {
        let json = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        // The same lists in postcard: a list of one list, ..., an empty one.
        let mut bytes = vec![1u8; depth - 1];
        bytes.push(0);
        let arena = FrameArena::new();
        for postcard in [false, true] {
            let seed = InArena::<Nested<'_>>::new(&arena).max_depth(limit);
            let ok = if postcard {
                seed.deserialize(&mut postcard::Deserializer::from_bytes(&bytes)).is_ok()
            } else {
                seed.deserialize(&mut serde_json::Deserializer::from_str(&json)).is_ok()
            };
            let deeper = depth > limit as usize;
            prop_assert_eq!(ok, !deeper);
            prop_assert_eq!(too_deep(&arena), deeper);
            prop_assert!(!over_max_bytes(&arena) && !arena_refused(&arena));
        }
        // A later decode that fails otherwise clears it.
        let seed = InArena::<Nested<'_>>::new(&arena).max_depth(limit);
        prop_assert!(seed.deserialize(&mut serde_json::Deserializer::from_str("7")).is_err());
        prop_assert!(!too_deep(&arena));
    }
}

/// Lists nested to any depth.
#[derive(tickarena::DeserializeIn, Debug)]
#[serde(transparent)]
#[allow(dead_code)] // read through `Debug`
struct Nested<'a>(FrameVec<'a, Nested<'a>>);

/// Recursive enums that buffer their input (untagged, internally and
/// adjacently tagged), for `buffered_input_is_not_buffered_again`.
#[allow(dead_code)] // read through `Debug`
mod buffering {
    use tickarena::{FrameBox, FrameVec};

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(untagged)]
    pub enum Value<'a> {
        Int(u32),
        Name(&'a str),
        List(FrameVec<'a, Value<'a>>),
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "op")]
    pub enum Expr<'a> {
        Num { v: u32 },
        Neg { of: FrameBox<'a, Expr<'a>> },
    }

    #[derive(tickarena::DeserializeIn, Debug)]
    #[serde(tag = "t", content = "c")]
    pub enum Adjacent<'a> {
        Leaf(u32),
        Wrap(FrameBox<'a, Adjacent<'a>>),
    }
}

/// Arena bytes of a decode of `json` as `T` (under a bound that never
/// stops it), which must succeed.
fn decoded_bytes<'a, T: tickarena::serde::DeserializeIn<'a>>(
    arena: &'a FrameArena,
    json: &str,
) -> usize {
    let before = arena.used();
    let seed = InArena::<T>::new(arena)
        .max_bytes(usize::MAX)
        .max_depth(1000);
    let mut input = serde_json::Deserializer::from_str(json);
    input.disable_recursion_limit();
    if let Err(error) = seed.deserialize(&mut input) {
        panic!("{error} on {} bytes of JSON", json.len());
    }
    arena.used() - before
}

/// An enum that buffers its input, nested in itself: each level is read
/// from the buffer of the level above, and must not copy its part of it
/// again (serde's derive clones it there, which in a frame arena would
/// keep `d` copies of the input, for the rest of the frame): the bytes a
/// level takes do not grow with the depth.
#[test]
fn buffered_input_is_not_buffered_again() {
    let depths = if cfg!(miri) { [10, 20] } else { [50, 100] };
    // `depth` levels of each shape around its leaf, as JSON.
    let nested = |shape: &str, depth: usize| match shape {
        "untagged" => format!("{}\"x\"{}", "[".repeat(depth), "]".repeat(depth)),
        "internally tagged" => format!(
            "{}{{\"op\":\"Num\",\"v\":7}}{}",
            r#"{"op":"Neg","of":"#.repeat(depth),
            "}".repeat(depth)
        ),
        _ => format!(
            "{}{{\"c\":7,\"t\":\"Leaf\"}}{}",
            r#"{"c":"#.repeat(depth),
            r#","t":"Wrap"}"#.repeat(depth)
        ),
    };
    for name in ["untagged", "internally tagged", "adjacently tagged"] {
        let arena = FrameArena::new();
        let per_level = depths.map(|depth| {
            let json = nested(name, depth);
            let bytes = match name {
                "untagged" => decoded_bytes::<buffering::Value<'_>>(&arena, &json),
                "internally tagged" => decoded_bytes::<buffering::Expr<'_>>(&arena, &json),
                _ => decoded_bytes::<buffering::Adjacent<'_>>(&arena, &json),
            };
            println!(
                "{name}, {depth} levels: {bytes} bytes for {} of JSON",
                json.len()
            );
            bytes as f64 / depth as f64
        });
        // Copied at each level, twice the depth would take about twice
        // the bytes per level.
        assert!(
            per_level[1] <= 1.1 * per_level[0],
            "{name}: {per_level:?} bytes per level"
        );
    }
}

/// Every level of [`arena_side::Tree`] tries `Strict` first, which reads
/// the whole subtree and then misses `x`: each failed try's copies (the
/// subtree buffered again, its text) used to stay in the arena, 2^d of
/// them. Now the buffer lends its values and its text, so the bytes a
/// decode takes grow with the input: 12 levels (97 to 125 bytes of JSON)
/// decode under the defaults, as under serde's derive.
#[test]
fn nested_untagged_tries_take_bytes_linear_in_the_input() {
    let leaves = ["7", r#""abcdefgh""#, r#"{"k":["abcdefgh","abcdefgh"]}"#];
    // (Interpreted, the tries' time still doubles with each level: Miri,
    // which looks at the lending, sees 4 and 6.)
    let depths: &[usize] = if cfg!(miri) { &[4, 6] } else { &[4, 8, 12, 16] };
    for leaf in leaves {
        for &depth in depths {
            let arena = FrameArena::new();
            let json = nested_json(depth, leaf);
            let (got, bytes) = json_cost::<arena_side::Tree<'_>>(&arena, &json);
            if depth == 12 {
                println!(
                    "12 levels, leaf {leaf}: {bytes} arena bytes for {} of JSON",
                    json.len()
                );
            }
            assert!(got.is_ok(), "{json}: {got:?}");
            assert!(bytes <= 16 * json.len(), "{bytes} bytes for {json}");
        }
    }
}
