//! The bump computation on plain integers: where an allocation lands.
//!
//! Kept apart from pointers so the whole fast path reads on one screen and
//! can be tested exhaustively without touching memory.

#![forbid(unsafe_code)]

use core::alloc::Layout;

/// The outcome of one successful bump: the allocation starts at `start` and
/// the next free byte is `new_top`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bumped {
    pub start: usize,
    pub new_top: usize,
}

/// Whether the sums of the bump can be left unchecked: on 64-bit targets
/// every arena ends at or below [`ADDRESS_LIMIT`] = `isize::MAX + 1`, and
/// with `top <= ADDRESS_LIMIT`, `top + (align - 1) + size` cannot overflow
/// for any valid `Layout` (which guarantees `size + align - 1 <=
/// isize::MAX`). User-space addresses there are far below the limit.
///
/// On 32-bit targets (i686, wasm32, Cortex-M) memory above 2 GiB is
/// ordinary (Linux maps top-down from 3 GiB), so the limit is the whole
/// address space and the two sums are checked instead: one more branch on
/// those targets, none on 64-bit ones.
const UNCHECKED_SUMS: bool = cfg!(target_pointer_width = "64");

/// The highest address an arena may end at (see [`UNCHECKED_SUMS`]).
pub(crate) const ADDRESS_LIMIT: usize = if UNCHECKED_SUMS {
    isize::MAX as usize + 1
} else {
    usize::MAX
};

/// Whether `addr <= ADDRESS_LIMIT`: always, on targets where the limit is
/// the whole address space.
#[allow(
    clippy::absurd_extreme_comparisons,
    reason = "ADDRESS_LIMIT is usize::MAX on 32-bit targets"
)]
const fn below_address_limit(addr: usize) -> bool {
    addr <= ADDRESS_LIMIT
}

/// `a + b`, which cannot overflow where [`UNCHECKED_SUMS`] holds, or `None`
/// on overflow elsewhere.
#[inline(always)]
const fn sum(a: usize, b: usize) -> Option<usize> {
    if UNCHECKED_SUMS {
        Some(a + b)
    } else {
        a.checked_add(b)
    }
}

/// `addr` rounded up to `align` (a power of two), or `None` past the
/// address space: an add and a mask. Requires `addr <= ADDRESS_LIMIT`.
#[inline(always)]
pub(crate) const fn align_up(addr: usize, align: usize) -> Option<usize> {
    debug_assert!(align.is_power_of_two(), "expected an alignment");
    let mask = align - 1;
    match sum(addr, mask) {
        Some(padded) => Some(padded & !mask),
        None => None,
    }
}

/// Places `layout` at the first address at or above `top` aligned to
/// `layout.align()`, if it ends at or below `limit`.
///
/// Requires `top <= limit <= ADDRESS_LIMIT` (see there): then on 64-bit
/// targets the arithmetic cannot overflow and the fast path is add, mask,
/// add, compare, one branch. For a layout known at compile time the first two fold into
/// one addition and one mask.
#[inline(always)]
pub(crate) const fn bump_up(top: usize, limit: usize, layout: Layout) -> Option<Bumped> {
    debug_assert!(top <= limit, "expected `top` to be at most `limit`");
    debug_assert!(
        below_address_limit(limit),
        "expected `limit` to be at most ADDRESS_LIMIT"
    );
    let Some(start) = align_up(top, layout.align()) else {
        return None;
    };
    let Some(new_top) = sum(start, layout.size()) else {
        return None;
    };
    if new_top > limit {
        return None;
    }
    Some(Bumped { start, new_top })
}

/// [`bump_up`] for a layout whose size is a multiple of its alignment, as
/// every Rust type's is (`Layout::new::<T>()`, `Layout::array::<T>(n)`).
///
/// Then rounding the end gives the same result as rounding the start, and
/// the new top is one add and one mask away from the old one: a shorter
/// dependency chain from one allocation to the next than [`bump_up`].
/// Same requirements as [`bump_up`], plus `layout.size() % layout.align() == 0`.
#[inline(always)]
pub(crate) const fn bump_up_whole(top: usize, limit: usize, layout: Layout) -> Option<Bumped> {
    debug_assert!(top <= limit, "expected `top` to be at most `limit`");
    debug_assert!(
        below_address_limit(limit),
        "expected `limit` to be at most ADDRESS_LIMIT"
    );
    let mask = layout.align() - 1;
    debug_assert!(
        layout.size() & mask == 0,
        "expected the size to be a multiple of the alignment"
    );
    // `mask + size` cannot overflow: a `Layout` keeps it within isize::MAX.
    let Some(end) = sum(top, mask + layout.size()) else {
        return None;
    };
    let new_top = end & !mask;
    if new_top > limit {
        return None;
    }
    Some(Bumped {
        start: new_top - layout.size(),
        new_top,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn aligned_top_needs_no_padding() {
        assert_eq!(
            bump_up(64, 128, layout(8, 8)),
            Some(Bumped {
                start: 64,
                new_top: 72
            })
        );
    }

    #[test]
    fn misaligned_top_is_padded_to_the_alignment() {
        assert_eq!(
            bump_up(65, 128, layout(8, 8)),
            Some(Bumped {
                start: 72,
                new_top: 80
            })
        );
        assert_eq!(
            bump_up(4097, 1 << 20, layout(1, 4096)),
            Some(Bumped {
                start: 8192,
                new_top: 8193
            })
        );
    }

    #[test]
    fn allocation_ending_exactly_at_the_limit_fits() {
        assert_eq!(
            bump_up(120, 128, layout(8, 8)),
            Some(Bumped {
                start: 120,
                new_top: 128
            })
        );
        assert_eq!(bump_up(121, 128, layout(8, 8)), None);
        assert_eq!(bump_up(120, 128, layout(9, 1)), None);
    }

    #[test]
    fn padding_alone_can_exhaust_the_space() {
        assert_eq!(
            bump_up(1, 4096, layout(0, 4096)),
            Some(Bumped {
                start: 4096,
                new_top: 4096
            })
        );
        assert_eq!(bump_up(1, 4095, layout(0, 4096)), None);
    }

    #[test]
    fn at_the_address_limit_nothing_overflows() {
        let top = ADDRESS_LIMIT - 16;
        let largest = layout(isize::MAX as usize, 1);
        assert_eq!(bump_up(top, ADDRESS_LIMIT, largest), None);
        let huge_align = layout(1, 1 << (usize::BITS - 2));
        assert_eq!(bump_up(top, ADDRESS_LIMIT, huge_align), None);
        let near_max = layout(isize::MAX as usize - 4095, 4096);
        assert_eq!(bump_up(ADDRESS_LIMIT, ADDRESS_LIMIT, near_max), None);
        assert_eq!(
            bump_up(top, ADDRESS_LIMIT, layout(16, 1)),
            Some(Bumped {
                start: top,
                new_top: ADDRESS_LIMIT
            })
        );
    }

    /// Only 32-bit targets can have an arena this high (the i686 stage of
    /// `.ci/run` runs it); on 64-bit ones the limit keeps `top` far below.
    #[test]
    #[cfg(not(target_pointer_width = "64"))]
    fn at_the_top_of_the_address_space_nothing_wraps() {
        assert_eq!(ADDRESS_LIMIT, usize::MAX);
        let top = usize::MAX - 8;
        assert_eq!(bump_up(top, usize::MAX, layout(16, 1)), None);
        assert_eq!(bump_up(top, usize::MAX, layout(1, 16)), None);
        assert_eq!(bump_up_whole(top, usize::MAX, layout(16, 16)), None);
        assert_eq!(
            bump_up(top, usize::MAX, layout(8, 1)),
            Some(Bumped {
                start: top,
                new_top: usize::MAX
            })
        );
    }

    #[test]
    fn exhaustive_small_cases_agree_with_a_checked_model() {
        // Miri interprets every step: a smaller square there.
        let span = if cfg!(miri) { 8 } else { 70 };
        for top in 0..200usize.min(span * 3) {
            for limit in top..top + span {
                for align_log in 0..7 {
                    let align = 1 << align_log;
                    for size in 0..span {
                        let l = layout(size, align);
                        let start = top.next_multiple_of(align);
                        let model = (start + size <= limit).then_some(Bumped {
                            start,
                            new_top: start + size,
                        });
                        assert_eq!(
                            bump_up(top, limit, l),
                            model,
                            "top {top} limit {limit} {l:?}"
                        );
                        if size % align == 0 {
                            let whole = bump_up_whole(top, limit, l);
                            assert_eq!(whole, model, "whole: top {top} limit {limit} {l:?}");
                        }
                    }
                }
            }
        }
    }
}
