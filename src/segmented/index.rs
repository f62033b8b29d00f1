//! Index arithmetic of the segmented list, on plain integers.
//!
//! Segment `k` holds `8 << k` elements and starts at index `(8 << k) - 8`:
//! segment 0 holds indices 0..8, segment 1 8..24, segment 2 24..56, and so
//! on. The segment of index `i` is `log2(i + 8) - 3`: a leading-zeros count
//! and two subtractions, no loop, no division.

#![forbid(unsafe_code)]

use core::num::NonZeroUsize;

/// Elements in segment 0; each later segment holds twice the one before.
pub(crate) const FIRST_SEGMENT_LEN: usize = 8;

/// Segments enough for any `usize` index: segment `usize::BITS - 4` is the
/// last one whose first index fits in a `usize`.
pub(crate) const MAX_SEGMENTS: usize = usize::BITS as usize - 3;

/// Slots in the table of segment bases: one per possible `ilog2` of a
/// `usize` (0 to `usize::BITS - 1`).
pub(crate) const SLOTS: usize = usize::BITS as usize;

/// The table slot that holds the base of the segment of index `i`:
/// `ilog2(i + 8)`, which is the segment number plus 3. Indexing the table by
/// it saves the subtraction, and an `ilog2` is below `usize::BITS`, so a
/// table of [`SLOTS`] entries needs no bounds check. `i + 8` is never zero
/// for `i <= usize::MAX - 8`, so the compiler emits a bare `bsr`/`lzcnt`.
#[inline(always)]
pub(crate) const fn slot_of_index(i: usize) -> usize {
    debug_assert!(
        i <= usize::MAX - FIRST_SEGMENT_LEN,
        "index beyond the last segment"
    );
    match NonZeroUsize::new(i.wrapping_add(FIRST_SEGMENT_LEN)) {
        Some(biased) => biased.ilog2() as usize,
        None => 0,
    }
}

/// The table slot of segment `k` (see [`slot_of_index`]).
#[inline(always)]
pub(crate) const fn slot_of_segment(k: usize) -> usize {
    k + FIRST_SEGMENT_LEN.trailing_zeros() as usize
}

/// Elements in segment `k`.
#[inline(always)]
pub(crate) const fn segment_len(k: usize) -> usize {
    FIRST_SEGMENT_LEN << k
}

/// Index of the first element of segment `k`, which is also the number of
/// elements in segments `0..k` (the capacity of `k` segments). Wraps to
/// `usize::MAX - 7` for `k == MAX_SEGMENTS`, the capacity of all of them.
#[inline(always)]
pub(crate) const fn segment_start(k: usize) -> usize {
    (FIRST_SEGMENT_LEN << k).wrapping_sub(FIRST_SEGMENT_LEN)
}

/// The segment that holds index `i`. Requires `i <= usize::MAX - 8`.
#[inline(always)]
pub(crate) const fn segment_of(i: usize) -> usize {
    let biased = i + FIRST_SEGMENT_LEN;
    (usize::BITS - 1 - biased.leading_zeros()) as usize
        - FIRST_SEGMENT_LEN.trailing_zeros() as usize
}

/// How many segments hold `capacity` elements: the smallest `k` with
/// `segment_start(k) >= capacity`, or `None` when even all
/// [`MAX_SEGMENTS`] cannot (`capacity > usize::MAX - 7`).
#[inline]
pub(crate) const fn segments_for(capacity: usize) -> Option<usize> {
    if capacity == 0 {
        Some(0)
    } else if capacity <= segment_start(MAX_SEGMENTS) {
        // The segment of the last index needed, and every one before it.
        Some(segment_of(capacity - 1) + 1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn first_segments_are_laid_out_by_doubling() {
        assert_eq!(
            (segment_len(0), segment_len(1), segment_len(2)),
            (8, 16, 32)
        );
        assert_eq!(
            (segment_start(0), segment_start(1), segment_start(2)),
            (0, 8, 24)
        );
        assert_eq!(
            (
                segment_of(0),
                segment_of(7),
                segment_of(8),
                segment_of(23),
                segment_of(24)
            ),
            (0, 0, 1, 1, 2)
        );
    }

    #[test]
    fn every_index_of_the_first_millions_lands_in_its_segment() {
        let limit = if cfg!(miri) { 5_000 } else { 1 << 23 };
        let (mut k, mut start) = (0, 0);
        for i in 0..limit {
            if i == start + segment_len(k) {
                start += segment_len(k);
                k += 1;
            }
            assert_eq!(segment_of(i), k, "index {i}");
            assert_eq!(segment_start(k), start, "segment {k}");
        }
    }

    #[test]
    fn slots_of_indices_agree_with_slots_of_segments() {
        let limit = if cfg!(miri) { 2_000 } else { 1 << 20 };
        for i in (0..limit).chain(usize::MAX - limit..=usize::MAX - 8) {
            let slot = slot_of_index(i);
            assert_eq!(slot, slot_of_segment(segment_of(i)), "index {i}");
            assert!(slot < SLOTS);
        }
    }

    #[test]
    fn segments_for_is_the_fewest_that_hold_the_capacity() {
        let limit = if cfg!(miri) { 500 } else { 1 << 16 };
        for capacity in 0..limit {
            let k = segments_for(capacity).unwrap();
            assert!(segment_start(k) >= capacity, "capacity {capacity}");
            assert!(
                k == 0 || segment_start(k - 1) < capacity,
                "capacity {capacity}"
            );
        }
        assert_eq!(segments_for(usize::MAX - 7), Some(MAX_SEGMENTS));
        assert_eq!(segments_for(usize::MAX - 6), None);
        assert_eq!(segments_for(usize::MAX), None);
    }

    #[test]
    fn the_largest_indices_fit_the_table() {
        let last = usize::MAX - FIRST_SEGMENT_LEN;
        assert_eq!(segment_of(last), MAX_SEGMENTS - 1);
        assert_eq!(segment_start(MAX_SEGMENTS), usize::MAX - 7);
        assert!(segment_start(MAX_SEGMENTS - 1) <= last);
        for k in 0..MAX_SEGMENTS {
            assert_eq!(segment_of(segment_start(k)), k);
            assert_eq!(segment_of(segment_start(k) + segment_len(k) - 1), k);
        }
    }
}
