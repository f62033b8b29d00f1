//! A length that lies: a format that believes its length prefix (here
//! serde's own `SeqDeserializer` and `MapDeserializer` over an iterator
//! that claims 2^40 items and gives three) gets at most `CAUTIOUS_BYTES`
//! of the arena up front for any container, in bytes taken from the
//! arena (its peak), not elements believed.

use serde::de::DeserializeSeed;
use serde::de::value::{Error, MapDeserializer, SeqDeserializer};
use tickarena::serde::{CAUTIOUS_BYTES, InArena};
use tickarena::{FrameArena, FrameHashMap, FrameVec, SegmentedList};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// `items`, claiming to be `claim` of them.
struct Liar<I> {
    items: I,
    claim: usize,
}

impl<I: Iterator> Iterator for Liar<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.items.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.claim, Some(self.claim))
    }
}

/// What the liar claims: far past the bound, around it, below it (fewer
/// under Miri).
fn claims() -> &'static [usize] {
    let claims = &[usize::MAX / 2, usize::MAX, 100_000, 5_000, 600];
    if cfg!(miri) { &claims[..2] } else { claims }
}

/// An arena that holds the bound and more, smaller than the default (a
/// block of 16 MiB under Miri).
fn arena() -> FrameArena {
    FrameArena::builder().reserve(1 << 20).build().unwrap()
}

/// Decodes a `$ty` from a sequence of `$items` claiming `$claim`, in a
/// fresh arena: the arena's peak.
macro_rules! peak_of_seq {
    ($ty:ty, $items:expr, $claim:expr) => {{
        let arena = arena();
        let input = SeqDeserializer::<_, Error>::new(Liar {
            items: $items,
            claim: $claim,
        });
        let decoded: Result<$ty, Error> = InArena::new(&arena).deserialize(input);
        assert!(decoded.is_ok(), "{:?}", decoded.err());
        arena.peak()
    }};
}

fn check(what: &str, peak: usize) {
    assert!(
        peak <= CAUTIOUS_BYTES,
        "{what}: the arena's peak {peak} bytes, past CAUTIOUS_BYTES {CAUTIOUS_BYTES}"
    );
}

#[test]
fn lists_take_at_most_cautious_bytes_for_a_lying_length() {
    for &claim in claims() {
        let three = [1u64, 2, 3].into_iter();
        check(
            "FrameVec<u64>",
            peak_of_seq!(FrameVec<'_, u64>, three.clone(), claim),
        );
        check("&[u64]", peak_of_seq!(&[u64], three.clone(), claim));
        let bytes = [1u8, 2, 3].into_iter();
        check(
            "FrameVec<u8>",
            peak_of_seq!(FrameVec<'_, u8>, bytes.clone(), claim),
        );
        check("FrameVec<[u8; 3]>", {
            let arena = arena();
            let input = SeqDeserializer::<_, Error>::new(Liar {
                items: [[1u8, 2, 3]]
                    .into_iter()
                    .map(|a| SeqDeserializer::<_, Error>::new(a.into_iter())),
                claim,
            });
            let _: FrameVec<'_, [u8; 3]> = InArena::new(&arena).deserialize(input).unwrap();
            arena.peak()
        });
    }
}

#[test]
fn segmented_lists_take_at_most_cautious_bytes_for_a_lying_length() {
    for &claim in claims() {
        let three = [1u64, 2, 3].into_iter();
        check(
            "SegmentedList<u64>",
            peak_of_seq!(SegmentedList<u64, &FrameArena>, three, claim),
        );
        let bytes = [1u8, 2, 3].into_iter();
        check(
            "SegmentedList<u8>",
            peak_of_seq!(SegmentedList<u8, &FrameArena>, bytes, claim),
        );
        let wide = [1u128, 2, 3].into_iter();
        check(
            "SegmentedList<u128>",
            peak_of_seq!(SegmentedList<u128, &FrameArena>, wide, claim),
        );
    }
}

#[test]
fn maps_take_at_most_cautious_bytes_for_a_lying_length() {
    /// The arena's peak for a map of `K` to `V` from `entries`,
    /// claiming `claim` of them.
    macro_rules! peak_of_map {
        ($k:ty, $v:ty, $entries:expr, $claim:expr) => {{
            let arena = arena();
            let input = MapDeserializer::<_, Error>::new(Liar {
                items: $entries.into_iter(),
                claim: $claim,
            });
            let decoded: Result<FrameHashMap<'_, $k, $v>, Error> =
                InArena::new(&arena).deserialize(input);
            assert!(decoded.is_ok(), "{:?}", decoded.err());
            arena.peak()
        }};
    }
    for &claim in claims() {
        let entries = [(1u32, 10u32), (2, 20), (3, 30)];
        check(
            "FrameHashMap<u32, u32>",
            peak_of_map!(u32, u32, entries, claim),
        );
        let entries = [(1u64, 10u8), (2, 20), (3, 30)];
        check(
            "FrameHashMap<u64, u8>",
            peak_of_map!(u64, u8, entries, claim),
        );
        let entries = [(1u8, 10u8)];
        check("FrameHashMap<u8, u8>", peak_of_map!(u8, u8, entries, claim));
        let entries =
            [(1u128, [7u64; 4])].map(|(k, v)| (k, SeqDeserializer::<_, Error>::new(v.into_iter())));
        check(
            "FrameHashMap<u128, [u64; 4]>",
            peak_of_map!(u128, [u64; 4], entries, claim),
        );
    }
}

#[test]
fn a_postcard_length_bomb_takes_nothing_for_strings_and_at_most_cautious_bytes_for_the_rest() {
    // postcard refuses a length longer than its input itself: the strings
    // and byte lists never reach the arena; the lists and maps get no more
    // than their bound before their elements run out.
    let bomb = crate::serde_arena::postcard_length_bomb();
    macro_rules! peak {
        ($ty:ty) => {{
            let arena = arena();
            let mut input = postcard::Deserializer::from_bytes(&bomb);
            let decoded: postcard::Result<$ty> = InArena::new(&arena).deserialize(&mut input);
            assert!(decoded.is_err());
            arena.peak()
        }};
    }
    assert_eq!(peak!(&str), 0);
    assert_eq!(peak!(tickarena::FrameString<'_>), 0);
    check("FrameVec<u64>", peak!(FrameVec<'_, u64>));
    check("&[&str]", peak!(&[&str]));
    check("FrameHashMap<u32, u32>", peak!(FrameHashMap<'_, u32, u32>));
    check("SegmentedList<u8>", peak!(SegmentedList<u8, &FrameArena>));
}
