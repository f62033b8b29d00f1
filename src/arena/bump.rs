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

/// The highest address an arena may end at: one past `isize::MAX`. With
/// `top <= ADDRESS_LIMIT`, `top + (align - 1) + size` cannot overflow for any
/// valid `Layout`, because `Layout` guarantees `size + align - 1 <=
/// isize::MAX`. User-space addresses on 64-bit targets are far below it.
pub(crate) const ADDRESS_LIMIT: usize = isize::MAX as usize + 1;

/// Places `layout` at the first address at or above `top` aligned to
/// `layout.align()`, if it ends at or below `limit`.
///
/// Requires `top <= limit <= ADDRESS_LIMIT` (see there): then the
/// arithmetic cannot overflow and the fast path is add, mask, add, compare,
/// one branch. For a layout known at compile time the first two fold into
/// one addition and one mask.
#[inline(always)]
pub(crate) const fn bump_up(top: usize, limit: usize, layout: Layout) -> Option<Bumped> {
    debug_assert!(top <= limit, "expected `top` to be at most `limit`");
    debug_assert!(
        limit <= ADDRESS_LIMIT,
        "expected `limit` to be at most ADDRESS_LIMIT"
    );
    let mask = layout.align() - 1;
    let start = (top + mask) & !mask;
    let new_top = start + layout.size();
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
        limit <= ADDRESS_LIMIT,
        "expected `limit` to be at most ADDRESS_LIMIT"
    );
    let mask = layout.align() - 1;
    debug_assert!(
        layout.size() & mask == 0,
        "expected the size to be a multiple of the alignment"
    );
    let new_top = (top + mask + layout.size()) & !mask;
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
