//! The storage of a segmented list: which segments exist and where, apart
//! from which elements are initialised (like std's `RawVec` beside `Vec`).

use alloc::collections::TryReserveError;
use core::alloc::{Allocator, Layout};
use core::ptr::{self, NonNull};

use crate::reserve_error;

use super::index::{
    MAX_SEGMENTS, SLOTS, segment_len, segment_start, slot_of_index, slot_of_segment,
};

/// Segments `0..allocated`, each a block of `segment_len(k)` elements from `A`.
///
/// The table keeps each segment's base pointer *biased* by the segment's
/// first index (`base_k - segment_start(k)` elements, wrapping arithmetic,
/// never dereferenced), in the slot `leading_zeros(i + 8)` of its indices
/// `i`, so the address of element `i` is `biased[slot_of_index(i)] + i`: a
/// leading-zeros count, one table load, one multiply-add, no bounds check.
pub(crate) struct SegmentTable<T, A: Allocator> {
    biased: [*mut T; SLOTS],
    allocated: usize,
    alloc: A,
}

impl<T, A: Allocator> SegmentTable<T, A> {
    const IS_ZST: bool = size_of::<T>() == 0;

    pub(crate) const fn new_in(alloc: A) -> Self {
        SegmentTable {
            biased: [ptr::null_mut(); SLOTS],
            allocated: 0,
            alloc,
        }
    }

    pub(crate) fn allocator(&self) -> &A {
        &self.alloc
    }

    /// Segments allocated so far (always a prefix `0..allocated`).
    #[inline(always)]
    pub(crate) fn allocated(&self) -> usize {
        self.allocated
    }

    /// Elements the allocated segments hold; zero-sized elements need none.
    #[inline(always)]
    pub(crate) fn capacity(&self) -> usize {
        if Self::IS_ZST {
            usize::MAX
        } else {
            segment_start(self.allocated)
        }
    }

    /// Address of element `i`, which must be below [`capacity`](Self::capacity).
    #[inline(always)]
    pub(crate) fn element_ptr(&self, i: usize) -> *mut T {
        if Self::IS_ZST {
            return NonNull::dangling().as_ptr();
        }
        debug_assert!(
            i < self.capacity(),
            "expected index {i} below the capacity {}",
            self.capacity()
        );
        // SAFETY: `i < capacity <= segment_start(MAX_SEGMENTS) = usize::MAX - 7`
        // (all segments allocated), so `i + 8` does not wrap: this lets the
        // compiler drop the zero case of the `ilog2` in `slot_of_index`.
        unsafe { core::hint::assert_unchecked(i < usize::MAX - 7) };
        // `i < capacity` means the segment of `i` is allocated, so its slot
        // holds its biased base, which `+ i` brings back inside the segment.
        self.biased[slot_of_index(i)].wrapping_add(i)
    }

    /// First element of segment `k`, which must be allocated.
    #[inline(always)]
    pub(crate) fn segment_base(&self, k: usize) -> *mut T {
        if Self::IS_ZST {
            return NonNull::dangling().as_ptr();
        }
        self.biased[slot_of_segment(k)].wrapping_add(segment_start(k))
    }

    /// The biased base of segment `k`, which must be allocated: element `i`
    /// of the segment is at `biased_base(k) + i`.
    #[inline(always)]
    pub(crate) fn biased_base(&self, k: usize) -> *mut T {
        self.biased[slot_of_segment(k)]
    }

    /// Allocates the next segment.
    #[cold]
    #[inline(never)]
    pub(crate) fn try_grow(&mut self) -> Result<(), TryReserveError> {
        let k = self.allocated;
        if Self::IS_ZST {
            return Ok(());
        }
        if k == MAX_SEGMENTS {
            return Err(reserve_error::capacity_overflow());
        }
        let layout =
            Layout::array::<T>(segment_len(k)).map_err(|_| reserve_error::capacity_overflow())?;
        let block = self
            .alloc
            .allocate(layout)
            .map_err(|_| reserve_error::refused(layout))?;
        self.biased[slot_of_segment(k)] = block.cast::<T>().as_ptr().wrapping_sub(segment_start(k));
        self.allocated = k + 1;
        Ok(())
    }

    /// The table of biased bases, for iterators that walk segments without
    /// borrowing the list.
    #[inline(always)]
    pub(crate) fn biased(&self) -> &[*mut T; SLOTS] {
        &self.biased
    }
}

impl<T, A: Allocator> SegmentTable<T, A> {
    /// Frees segments `keep..allocated`, newest first (so an arena gets each
    /// one back at its top). The elements in them must be dropped or moved
    /// out already.
    pub(crate) fn free_from(&mut self, keep: usize) {
        if Self::IS_ZST {
            return;
        }
        while self.allocated > keep {
            let k = self.allocated - 1;
            let layout = Layout::array::<T>(segment_len(k)).expect("allocated with this layout");
            let base = NonNull::new(self.segment_base(k)).expect("allocated segments are not null");
            // SAFETY: segment `k` was allocated from `alloc` with this layout,
            // holds no live element (the caller's promise), and is freed
            // once: `allocated` drops below `k` before anything else runs.
            unsafe { self.alloc.deallocate(base.cast(), layout) };
            self.biased[slot_of_segment(k)] = ptr::null_mut();
            self.allocated = k;
        }
    }
}

impl<T, A: Allocator> Drop for SegmentTable<T, A> {
    fn drop(&mut self) {
        // The list dropped its elements already.
        self.free_from(0);
    }
}
