//! The per-decode byte bound (`InArena::max_bytes`, default
//! `DEFAULT_MAX_BYTES`): no decode takes more of the arena than its
//! bound, whether it succeeds or fails, whatever the input (length bombs
//! at every nesting level, lists that finish a small list and then bomb,
//! truncations, 64 KB blocks of junk or of a valid document's prefix), in
//! postcard and JSON; documents under the bound decode as serde's derive
//! decodes them; the bound is refused where the arena refuses (not
//! counted as the arena's refusal), lifted after the decode, and its
//! bytes count in the frame's peak and the current tag's bytes.

use std::panic::{AssertUnwindSafe, catch_unwind};

use proptest::prelude::*;
use serde::Deserializer;
use serde::de::value::{Error, SeqDeserializer};
use serde::de::{DeserializeSeed, IntoDeserializer};
use tickarena::serde::{DEFAULT_MAX_BYTES, DeserializeIn, InArena, arena_refused, over_max_bytes};
use tickarena::{FrameArena, FrameVec, Tag};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::byte_edit::{apply_bytes, byte_edit};
use crate::models::serde_decode::{HeapPacket, Outcome, Packet, agree, heap_json, heap_postcard};

/// Four lists inside each other, numbers at the bottom.
type Lists<'a> = FrameVec<'a, FrameVec<'a, FrameVec<'a, FrameVec<'a, u16>>>>;

/// The bounds the tests decode under: a few hundred bytes to the default.
const BOUNDS: [usize; 5] = [256, 4096, 8192, 64 << 10, DEFAULT_MAX_BYTES];

fn arena() -> FrameArena {
    FrameArena::builder().reserve(16 << 20).build().unwrap()
}

/// Decodes a `T` from `deserializer` into `arena` under `bound`: the
/// result (its error as text) and the bytes of the arena the decode took.
fn bounded<'a, 'de, T, D>(
    arena: &'a FrameArena,
    bound: usize,
    deserializer: D,
) -> (Result<T, String>, usize)
where
    T: DeserializeIn<'a>,
    D: Deserializer<'de>,
    D::Error: std::fmt::Display,
{
    // The top at a 16-byte boundary (the arena's base is page-aligned), as
    // in a fresh arena: what a decode takes depends on its padding.
    arena.alloc_slice_fill_with((16 - arena.used() % 16) % 16, |_| 0u8);
    let before = arena.used();
    let got = InArena::<T>::new(arena)
        .max_bytes(bound)
        .deserialize(deserializer);
    let taken = arena.used() - before;
    assert!(
        taken <= bound,
        "a decode under a bound of {bound} bytes took {taken} ({})",
        if got.is_ok() {
            "it succeeded"
        } else {
            "it failed"
        }
    );
    assert!(arena.peak() >= arena.used());
    (got.map_err(|error| error.to_string()), taken)
}

/// The same as slices: frozen as each list ends, never given back (the
/// `examples/server` messages' shape: `&'a [Input<'a>]`).
pub(crate) type Slices<'a> = &'a [&'a [&'a [&'a [u16]]]];

/// [`Lists`] from postcard (or [`Slices`] with `slices`).
fn postcard_lists(arena: &FrameArena, bound: usize, bytes: &[u8]) -> (Result<(), String>, usize) {
    postcard_nested(arena, bound, bytes, false)
}

fn postcard_nested(
    arena: &FrameArena,
    bound: usize,
    bytes: &[u8],
    slices: bool,
) -> (Result<(), String>, usize) {
    nested(
        arena,
        bound,
        &mut postcard::Deserializer::from_bytes(bytes),
        slices,
    )
}

/// [`Lists`] (or [`Slices`] with `slices`) from any format.
fn nested<'de, D>(
    arena: &FrameArena,
    bound: usize,
    input: D,
    slices: bool,
) -> (Result<(), String>, usize)
where
    D: Deserializer<'de>,
    D::Error: std::fmt::Display,
{
    if slices {
        let (got, taken) = bounded::<Slices<'_>, _>(arena, bound, input);
        (got.map(drop), taken)
    } else {
        let (got, taken) = bounded::<Lists<'_>, _>(arena, bound, input);
        (got.map(drop), taken)
    }
}

/// [`Lists`] from JSON (or [`Slices`] with `slices`).
fn json_lists(arena: &FrameArena, bound: usize, text: &str) -> (Result<(), String>, usize) {
    json_nested(arena, bound, text, false)
}

fn json_nested(
    arena: &FrameArena,
    bound: usize,
    text: &str,
    slices: bool,
) -> (Result<(), String>, usize) {
    nested(
        arena,
        bound,
        &mut serde_json::Deserializer::from_str(text),
        slices,
    )
}

/// A postcard varint.
fn varint(mut n: u64, out: &mut Vec<u8>) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A postcard document of [`Lists`] of about `len` bytes with a length
/// bomb at `level` (0: the outermost list): every list above it has
/// `small_first` small valid lists and then one more, the one that leads
/// down to the bomb; the bomb claims every byte left (the most postcard
/// believes) or `claim` elements, and its elements are lists of one
/// element (zeros at the bottom) until the input ends, short of the
/// claim.
pub(crate) fn postcard_bomb(
    level: usize,
    small_first: usize,
    claim: Option<u64>,
    len: usize,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    for depth in 0..level {
        varint(small_first as u64 + 1, &mut bytes);
        for _ in 0..small_first {
            // A small list of the level below, filled and finished.
            let small: Vec<u8> = match depth {
                0 => postcard::to_allocvec(&vec![vec![vec![1u16, 2]]; 2]).unwrap(),
                1 => postcard::to_allocvec(&vec![vec![3u16]; 2]).unwrap(),
                _ => postcard::to_allocvec(&vec![4u16, 5]).unwrap(),
            };
            bytes.extend_from_slice(&small);
        }
    }
    // Elements of one element each (a list that holds an empty list, or
    // a zero: an allocation each, frozen as a slice), or zeros at the
    // bottom; the claim one more than the bytes left after it hold.
    let unit: &[u8] = if level == 3 { &[0] } else { &[1, 0] };
    let claim = claim.unwrap_or_else(|| {
        (1..=5)
            .map(|size| (len.saturating_sub(bytes.len() + size) / unit.len()) as u64 + 1)
            .find(|&claim| {
                let mut encoded = Vec::new();
                varint(claim, &mut encoded);
                (len.saturating_sub(bytes.len() + encoded.len()) / unit.len()) as u64 + 1 == claim
            })
            .unwrap()
    });
    varint(claim, &mut bytes);
    while bytes.len() + unit.len() <= len {
        bytes.extend_from_slice(unit);
    }
    bytes
}

/// The same bomb in JSON: lists opened down to `level`, each after
/// `small_first` small finished lists, then lists of one element (zeros
/// at the bottom) until the text is `len` bytes long, never closed.
fn json_bomb(level: usize, small_first: usize, len: usize) -> String {
    let mut text = String::new();
    for depth in 0..level {
        text.push('[');
        for _ in 0..small_first {
            text.push_str(match depth {
                0 => "[[[1,2]],[[1,2]]],",
                1 => "[[3],[3]],",
                _ => "[4,5],",
            });
        }
    }
    text.push('[');
    let filler = match level {
        3 => "0,",
        2 => "[0],",
        _ => "[[]],",
    };
    while text.len() + filler.len() <= len {
        text.push_str(filler);
    }
    text
}

/// Reproducer of the issue (failed before the bound: 2 491 648 bytes
/// left): a format that believes its length prefixes (serde's own
/// `SeqDeserializer`), a list of 40 lists each claiming 2^60 (2^28 on 32 bits) elements and
/// giving one, the last one bad: each list reserved 64 KiB up front, and
/// the failed decode left all of it.
#[test]
fn serde_bound_lying_lists_leave_at_most_the_default_bound() {
    use crate::serde_review6::Liar;
    struct LyingList(i64);
    impl<'de> IntoDeserializer<'de, Error> for LyingList {
        type Deserializer = SeqDeserializer<Liar<std::vec::IntoIter<i64>>, Error>;
        fn into_deserializer(self) -> Self::Deserializer {
            SeqDeserializer::new(Liar(vec![self.0].into_iter(), usize::MAX >> 4))
        }
    }
    let lists = |count: usize, bad: bool| {
        SeqDeserializer::<_, Error>::new(
            (0..count).map(move |i| LyingList(if bad && i + 1 == count { -1 } else { 1 })),
        )
    };
    let arena = FrameArena::new();
    let got: Result<FrameVec<'_, FrameVec<'_, u8>>, Error> =
        InArena::new(&arena).deserialize(lists(40, true));
    let error = got.unwrap_err().to_string();
    assert!(
        arena.used() <= DEFAULT_MAX_BYTES,
        "a failed decode left {} bytes",
        arena.used()
    );
    assert!(
        error.contains(&format!("more than {DEFAULT_MAX_BYTES} bytes of the arena")),
        "{error}"
    );
    assert!(over_max_bytes(&arena) && !arena_refused(&arena));

    // Good lists that claim too much are a bomb too: under a bound they
    // fail on it, leaving at most the bound; a bound that holds every
    // claim's 64 KiB decodes them.
    let arena = FrameArena::new();
    let seed = InArena::<FrameVec<'_, FrameVec<'_, u8>>>::new(&arena);
    assert!(seed.max_bytes(4096).deserialize(lists(40, false)).is_err());
    assert!(arena.used() <= 4096 && over_max_bytes(&arena));
    let decoded = seed
        .max_bytes(41 << 16)
        .deserialize(lists(40, false))
        .unwrap();
    assert!(decoded.iter().all(|list| list[..] == [1]));
    // One lying list is believed only as far as the bound has room, and
    // its elements fit.
    let arena = FrameArena::new();
    let one = SeqDeserializer::<_, Error>::new(Liar(vec![1u64, 2, 3].into_iter(), usize::MAX >> 4));
    let list = InArena::<FrameVec<'_, u64>>::new(&arena)
        .max_bytes(512)
        .deserialize(one)
        .unwrap();
    assert_eq!(list[..], [1, 2, 3]);
    assert!(arena.used() <= 512);
}

/// Length bombs at every level of four nested lists, alone and after
/// small finished lists, claiming every byte left or 2^32 elements (which
/// postcard refuses), in 1.2 KB datagrams and 64 KB ones: no decode takes
/// more than its bound.
#[test]
fn serde_bound_postcard_bombs_at_every_level() {
    let lens: &[usize] = if cfg!(miri) { &[300] } else { &[1200, 64_000] };
    let arena = arena();
    let mut over = 0;
    for &len in lens {
        for level in 0..4 {
            for small_first in [0, 1, 3] {
                for claim in [None, Some(1 << 32)] {
                    let bomb = postcard_bomb(level, small_first, claim, len);
                    for (bound, slices) in BOUNDS
                        .into_iter()
                        .flat_map(|bound| [(bound, false), (bound, true)])
                    {
                        let (got, _) = postcard_nested(&arena, bound, &bomb, slices);
                        assert!(
                            got.is_err(),
                            "level {level}: the bomb is short of its claim"
                        );
                        over += usize::from(over_max_bytes(&arena));
                    }
                }
            }
        }
    }
    assert!(over > 0, "some bombs met their bound");
}

/// The same in JSON (no length prefixes: the bomb is the input's own
/// empty lists, 24 bytes of the arena for 3 of input).
#[test]
fn serde_bound_json_bombs_at_every_level() {
    let lens: &[usize] = if cfg!(miri) { &[300] } else { &[1200, 64_000] };
    let arena = arena();
    let mut over = 0;
    for &len in lens {
        for level in 0..4 {
            for small_first in [0, 1, 3] {
                let bomb = json_bomb(level, small_first, len);
                for (bound, slices) in BOUNDS
                    .into_iter()
                    .flat_map(|bound| [(bound, false), (bound, true)])
                {
                    let (got, _) = json_nested(&arena, bound, &bomb, slices);
                    assert!(got.is_err(), "level {level}: the lists are never closed");
                    over += usize::from(over_max_bytes(&arena));
                }
            }
        }
    }
    assert!(over > 0, "some bombs met their bound");
}

/// The shape: a nested bomb in a 1.2 KB datagram left more than
/// 4 KiB in the arena (about 6 KiB with 32-bit pointers, more with 64;
/// the server's messages: about 24 KiB); under a bound of 4 KiB it leaves
/// at most that, and says so.
#[test]
fn serde_bound_cuts_a_datagram_bomb_to_its_bound() {
    let arena = arena();
    let bomb = postcard_bomb(2, 1, None, 1200);
    let (unbounded, left) = postcard_nested(&arena, usize::MAX, &bomb, true);
    assert!(unbounded.is_err());
    assert!(left > 4 << 10, "the bomb leaves {left} bytes unbounded");
    let (bounded, taken) = postcard_nested(&arena, 4 << 10, &bomb, true);
    assert!(taken <= 4 << 10);
    assert!(over_max_bytes(&arena) && !arena_refused(&arena));
    assert_eq!(bounded.unwrap_err(), "Serde Deserialization Error"); // postcard keeps no message
    let json = json_bomb(2, 1, 1200);
    let (bounded, _) = json_lists(&arena, 2 << 10, &json);
    let error = bounded.unwrap_err();
    assert!(
        error.contains("would take more than 2048 bytes of the arena"),
        "{error}"
    );
    assert!(
        error.contains("InArena::new(arena).max_bytes(bytes)"),
        "{error}"
    );
}

/// Every prefix of a valid document (postcard and JSON) under a bound
/// below and above what the whole takes: each decode within its bound;
/// the whole document, under a bound that holds it, decodes as serde's
/// derive decodes it.
#[test]
fn serde_bound_truncations() {
    let sent = sample_packet(if cfg!(miri) { 3 } else { 40 });
    let bytes = postcard::to_allocvec(&sent).unwrap();
    let text = serde_json::to_string(&sent).unwrap();
    let arena = arena();
    let whole = postcard_packet(&arena, usize::MAX, &bytes).1;
    let step = if cfg!(miri) { 7 } else { 1 };
    for bound in [whole / 3, whole / 2, whole] {
        for end in (0..bytes.len()).step_by(step) {
            let (got, _) = postcard_packet(&arena, bound, &bytes[..end]);
            assert!(got.is_err(), "a prefix of {end} bytes is short");
        }
        for end in (0..text.len()).step_by(step) {
            if text.is_char_boundary(end) {
                let (got, _) = json_packet(&arena, bound, &text[..end]);
                assert!(got.is_err(), "a prefix of {end} characters is short");
            }
        }
    }
    let (got, taken) = postcard_packet(&arena, whole, &bytes);
    assert_eq!(taken, whole);
    assert!(agree(&heap_postcard(&bytes), &got), "{got:?}");
    let (got, _) = postcard_packet(&arena, whole - 1, &bytes);
    assert!(
        got.is_err() && over_max_bytes(&arena),
        "one byte short of what it takes"
    );
    let (got, _) = json_packet(&arena, DEFAULT_MAX_BYTES, &text);
    assert!(agree(&heap_json(&text), &got), "{got:?}");
}

/// 64 KB blocks: random bytes, and a valid document's first 64 000 bytes
/// (a packet of thousands of tags), in postcard and JSON, under each
/// bound.
#[test]
fn serde_bound_64_kb_blocks() {
    let len = if cfg!(miri) { 2_000 } else { 64_000 };
    let arena = arena();
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut random = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    };
    let junk: Vec<u8> = (0..len).map(|_| random()).collect();
    let sent = sample_packet(len / 8);
    let mut prefix = postcard::to_allocvec(&sent).unwrap();
    assert!(prefix.len() > len);
    prefix.truncate(len);
    let mut text = serde_json::to_string(&sent).unwrap();
    text.truncate(len);
    let ascii_junk: String = junk
        .iter()
        .map(|&b| char::from(b"[]{},:0\"a"[usize::from(b) % 9]))
        .collect();
    for bound in BOUNDS {
        assert!(postcard_packet(&arena, bound, &junk).0.is_err());
        assert!(postcard_lists(&arena, bound, &junk).0.is_err());
        assert!(postcard_packet(&arena, bound, &prefix).0.is_err());
        assert!(json_packet(&arena, bound, &text).0.is_err());
        assert!(json_packet(&arena, bound, &ascii_junk).0.is_err());
        assert!(json_lists(&arena, bound, &ascii_junk).0.is_err());
    }
}

/// A failed decode's bytes happened: they count in the frame's peak and
/// in the bytes of the tag that was current, and the sizing figures show
/// them until the frame ends.
#[test]
fn serde_bound_failed_decode_counts_in_peak_and_tag() {
    const NET: Tag = Tag::new("net");
    let mut arena = arena();
    // Finished small lists first: the bomb's list moves as it grows and
    // leaves them (and its old room) behind.
    let bomb = postcard_bomb(2, 3, None, 1200);
    let peak = {
        let _net = arena.tag(NET);
        let (got, taken) = postcard_lists(&arena, 4096, &bomb);
        assert!(got.is_err() && taken > 0 && taken <= 4096, "{taken}");
        assert_eq!(
            arena.tag_bytes().get(NET),
            arena.used(),
            "the tag holds what the decode left"
        );
        assert!(arena.peak() >= arena.used());
        arena.peak()
    };
    // A decode whose list was the newest block gives it back as it fails
    // (the list's drop): none left, but its high is in the peak.
    let fresh = self::arena();
    let (got, taken) = json_lists(&fresh, 4096, &format!("[[{}", "[],".repeat(400)));
    assert!(got.is_err() && taken == 0 && fresh.used() == 0);
    assert!(
        fresh.peak() > 2048 && fresh.peak() <= 4096,
        "{}",
        fresh.peak()
    );
    assert!(arena.peak() >= peak);
    let high = arena.peak();
    arena.reset();
    assert!(
        arena.stats().high_water >= high,
        "the frame's high water keeps it"
    );
}

/// The bound's refusal is the decode's, not the arena's: not counted in
/// the arena's refusals; an arena smaller than the bound still refuses as
/// the arena (`arena_refused`, counted).
#[test]
fn serde_bound_refusals_are_the_decodes() {
    let arena = arena();
    let bomb = json_bomb(1, 0, 4000);
    let (got, _) = json_lists(&arena, 1024, &bomb);
    assert!(got.is_err() && over_max_bytes(&arena) && !arena_refused(&arena));
    assert!(arena.refusals().is_empty(), "{:?}", arena.refusals());

    let small = FrameArena::builder().reserve(16 << 10).build().unwrap();
    let packet = postcard::to_allocvec(&vec![7u32; 10_000]).unwrap();
    let got = InArena::<FrameVec<'_, u32>>::new(&small)
        .max_bytes(1 << 30)
        .deserialize(&mut postcard::Deserializer::from_bytes(&packet));
    assert!(got.is_err() && arena_refused(&small) && !over_max_bytes(&small));
    assert!(!small.refusals().is_empty());
}

/// After a decode (good, failed, or panicking in a hand-written impl that
/// allocates past the bound), the bound is gone: the arena serves large
/// allocations again, and a list made before the decode, at the top,
/// still grows in place.
#[test]
#[cfg_attr(
    all(target_family = "wasm", target_os = "unknown"),
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn serde_bound_is_lifted_after_the_decode() {
    #[derive(Debug)]
    struct Greedy;
    impl<'a> DeserializeIn<'a> for Greedy {
        fn deserialize_in<'de, D: Deserializer<'de>>(
            arena: &'a FrameArena,
            d: D,
        ) -> Result<Self, D::Error> {
            let _: u8 = serde::Deserialize::deserialize(d)?;
            arena.alloc([0u8; 2048]); // panics past the bound
            Ok(Greedy)
        }
    }
    let arena = arena();
    let mut before: FrameVec<'_, u8> = Vec::with_capacity_in(16, &arena);
    before.extend([1, 2, 3]);
    let (got, _) = json_lists(&arena, 256, &json_bomb(1, 0, 1200));
    assert!(got.is_err());
    let (got, _) = json_lists(&arena, 1024, "[[[[1]]]]");
    assert!(got.is_ok(), "{got:?}");
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        InArena::<Greedy>::new(&arena)
            .max_bytes(1024)
            .deserialize(&mut serde_json::Deserializer::from_str("1"))
    }))
    .unwrap_err();
    let message = panicked.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("may take at most 1024 bytes of it (InArena::max_bytes)"),
        "{message}"
    );
    let big = arena.alloc_slice_fill_with(1 << 20, |_| 9u8);
    assert_eq!(big.len(), 1 << 20);
    let grown = InArena::<Greedy>::new(&arena)
        .max_bytes(4096)
        .deserialize(&mut serde_json::Deserializer::from_str("1"));
    assert!(grown.is_ok());
    // `before` is no longer the newest block: it moves, intact.
    before.extend(0..100);
    assert_eq!(before[..3], [1, 2, 3]);
}

/// Nothing to the heap: a bounded decode and its failure allocate there
/// no more than an unbounded one (postcard: nothing).
#[test]
fn serde_bound_under_the_bound_decodes_as_without_it() {
    for size in [0, 1, 5, 30] {
        let sent = sample_packet(size);
        let bytes = postcard::to_allocvec(&sent).unwrap();
        let text = serde_json::to_string(&sent).unwrap();
        for json in [false, true] {
            let (free, needed) = needs(json, &bytes, &text);
            let took = {
                let fresh = arena();
                if json {
                    json_packet(&fresh, usize::MAX, &text).1
                } else {
                    postcard_packet(&fresh, usize::MAX, &bytes).1
                }
            };
            let fresh = arena();
            let (bounded, taken) = if json {
                json_packet(&fresh, needed, &text)
            } else {
                postcard_packet(&fresh, needed, &bytes)
            };
            assert_eq!(
                taken, took,
                "the same bytes, under a bound that just holds them"
            );
            assert_eq!(fresh.peak(), needed);
            let heap = if json {
                heap_json(&text)
            } else {
                heap_postcard(&bytes)
            };
            assert!(
                agree(&free, &bounded) && agree(&heap, &bounded),
                "{bounded:?}"
            );
            // A byte less, and it does not fit: the bound holds the decode's
            // high, not only what it leaves (a list's room shrunk to fit
            // counts while it is held).
            let (short, _) = if json {
                json_packet(&fresh, needed - 1, &text)
            } else {
                postcard_packet(&fresh, needed - 1, &bytes)
            };
            assert!(short.is_err() && over_max_bytes(&fresh), "{short:?}");
        }
    }
}

/// What a decode of the oracle's packet needs of the arena at most (its
/// high, from a fresh arena), unbounded: its outcome and that.
fn needs(json: bool, bytes: &[u8], text: &str) -> (Outcome, usize) {
    let fresh = arena();
    let (outcome, _) = if json {
        json_packet(&fresh, usize::MAX, text)
    } else {
        postcard_packet(&fresh, usize::MAX, bytes)
    };
    (outcome, fresh.peak())
}

/// A packet of the oracle's model with `tags` tags and as many commands.
fn sample_packet(tags: usize) -> HeapPacket {
    let text = serde_json::json!({
        "id": 7, "type": "t", "n": "ann", "score": 3, "lvl": 2,
        "tags": (0..tags).map(|i| format!("tag{i}")).collect::<Vec<_>>(),
        "boxed": 9,
        "commands": (0..tags).map(|i| match i % 3 {
            0 => serde_json::json!({"Move": [1, 2]}),
            1 => serde_json::json!({"say": "hi"}),
            _ => serde_json::json!({"Macro": ["Stop", {"match": 3}]}),
        }).collect::<Vec<_>>(),
        "position": [0.5, -3], "pair": ["p", 1], "id2": 11, "flags": [true, "x"],
    });
    serde_json::from_value(text).unwrap()
}

/// The oracle's packet from postcard under `bound`: its outcome, and the
/// bytes it took.
fn postcard_packet(arena: &FrameArena, bound: usize, bytes: &[u8]) -> (Outcome, usize) {
    let mut input = postcard::Deserializer::from_bytes(bytes);
    let (got, taken) = bounded::<Packet<'_>, _>(arena, bound, &mut input);
    let outcome = got.and_then(|packet| {
        let rest = input.finalize().map_err(|error| error.to_string())?;
        Ok((packet.to_heap(), rest.len()))
    });
    (outcome, taken)
}

/// The same from JSON, nothing but whitespace after.
fn json_packet(arena: &FrameArena, bound: usize, text: &str) -> (Outcome, usize) {
    let mut input = serde_json::Deserializer::from_str(text);
    let (got, taken) = bounded::<Packet<'_>, _>(arena, bound, &mut input);
    let outcome = got.and_then(|packet| {
        input.end().map_err(|error| error.to_string())?;
        Ok((packet.to_heap(), 0))
    });
    (outcome, taken)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(128)))]

    /// Random packets, mutated, decoded one after another into one arena
    /// (no reset) under a random bound, against the same decode unbounded
    /// in another arena and serde's derive: the ledger holds after every
    /// step (what the arena's `used()` grew by is what each decode took,
    /// never more than its bound); a decode whose unbounded twin took no
    /// more than the bound gives the same outcome and takes the same
    /// bytes; one that took more fails on the bound; a good one agrees
    /// with serde's derive.
    #[test]
    fn serde_bound_random_packets_keep_the_ledger(
        tags in 0usize..12,
        edits in prop::collection::vec(byte_edit(), 0..6),
        bound_at in 0usize..4,
        json in any::<bool>(),
    ) {
        let sent = sample_packet(tags);
        let bounded_arena = arena();
        let mut ledger = 0usize;
        let mut bytes = postcard::to_allocvec(&sent).unwrap();
        let text = serde_json::to_string(&sent).unwrap();
        for step in 0..=edits.len() {
            if step > 0 {
                apply_bytes(&mut bytes, &edits[step - 1]);
            }
            // JSON: the text cut shorter at each step (its edits are the
            // oracle's own test's); postcard: the bytes edited.
            let cut = &text[..text.len() * (edits.len() + 1 - step) / (edits.len() + 1)];
            let cut = &cut[..(0..=cut.len()).rev().find(|&at| cut.is_char_boundary(at)).unwrap()];
            let decode = |arena: &FrameArena, bound: usize| {
                if json { json_packet(arena, bound, cut) } else { postcard_packet(arena, bound, &bytes) }
            };
            let fresh = arena();
            let (free, took) = decode(&fresh, usize::MAX);
            let needed = fresh.peak();
            let bound = [needed / 2, needed.saturating_sub(1), needed, needed + 64][bound_at];
            let padding = (16 - bounded_arena.used() % 16) % 16; // see `bounded`
            let (got, taken) = decode(&bounded_arena, bound);
            ledger += padding + taken;
            prop_assert_eq!(bounded_arena.used(), ledger, "the ledger, after step {}", step);
            prop_assert!(taken <= bound);
            if needed <= bound {
                prop_assert!(agree(&free, &got), "{:?} vs {:?}", free, got);
                prop_assert_eq!(taken, took);
            } else {
                // Past the bound: an error, the bound's where the input was
                // good (a bad one may fail on itself first).
                prop_assert!(got.is_err(), "{:?}", got);
                prop_assert!(free.is_err() || over_max_bytes(&bounded_arena), "{:?}", got);
            }
            if got.is_ok() {
                let heap = if json { heap_json(cut) } else { heap_postcard(&bytes) };
                prop_assert!(agree(&heap, &got), "{:?} vs serde's {:?}", got, heap);
            }
        }
    }
}
