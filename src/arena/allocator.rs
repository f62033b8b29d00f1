//! `Allocator` for `FrameArena`, and so (through std's impl for every
//! reference to an allocator) for `&FrameArena`: the arena under `Vec`,
//! `Box` and every other collection built on the trait.
//!
//! The impl is on the arena itself rather than only on `&FrameArena`: std's
//! blanket impl for `&A` is the one that also gives `&FrameArena` nightly's
//! `AllocatorClone`, which `BTreeMap` and `Rc::clone` need there.

use core::alloc::AllocError;
use core::alloc::{Allocator, Layout};
use core::ptr::NonNull;

use super::FrameArena;
use crate::asan;

// Reclaiming needs the arena by value or `&mut`, so it cannot happen while
// any `&FrameArena` (and thus any collection using it) is alive, nor while
// a collection owns the arena itself. Copies of `&FrameArena` are the same
// allocator, so memory from one can be freed through another. Moving the
// arena moves no memory (the region stays where it was reserved).
// SAFETY: memory handed out stays valid and untouched by the arena until
// the caller frees, shrinks or grows it, or the arena is reclaimed or
// dropped (neither of which can happen while it is in use, above).
unsafe impl Allocator for FrameArena {
    #[inline(always)]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        match self.alloc_layout(layout) {
            Ok(ptr) => Ok(NonNull::slice_from_raw_parts(ptr, layout.size())),
            Err(refused) => {
                self.remember_refusal(layout, 0);
                Err(refused)
            }
        }
    }

    /// Gives the bytes back if this is the most recent allocation; otherwise
    /// they are reused when the frame is reclaimed.
    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        self.release_tail_if_last(ptr, layout.size(), 0);
    }

    /// Grows in place when this is the most recent allocation (committing
    /// pages as needed); otherwise allocates anew and copies. A refusal
    /// counts what the growth needed past the frame: the increase in
    /// place, the new block when it moves (see `refusals`).
    #[inline]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        debug_assert!(
            new_layout.size() >= old_layout.size(),
            "expected the new size ({}) to be at least the old size ({})",
            new_layout.size(),
            old_layout.size()
        );
        if self.grow_in_place(ptr, old_layout.size(), new_layout) {
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        if self.grows_in_place(ptr, old_layout.size(), new_layout) {
            // The newest block could not grow where it is: a new block above
            // it would need more still. The frame needed the increase.
            self.refuse_growth(ptr, old_layout, new_layout, true);
            return Err(AllocError);
        }
        // SAFETY: `ptr` is valid for `old_layout.size()` bytes, all of which
        // fit in the larger new block.
        unsafe { self.move_to_new_block(ptr, old_layout.size(), old_layout.size(), new_layout) }
            .inspect_err(|_| self.refuse_growth(ptr, old_layout, new_layout, false))
    }

    #[inline]
    unsafe fn grow_zeroed(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: the caller's guarantees for `grow_zeroed` are those of `grow`.
        let block = unsafe { self.grow(ptr, old_layout, new_layout)? };
        let added = new_layout.size() - old_layout.size();
        // SAFETY: the block is valid for `new_layout.size()` bytes; the bytes
        // after the old size are ours to initialise.
        unsafe {
            block
                .cast::<u8>()
                .add(old_layout.size())
                .write_bytes(0, added)
        };
        Ok(block)
    }

    /// Shrinks in place (giving the tail back when this is the most recent
    /// allocation); moves only when `ptr` does not suit a larger new alignment.
    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        debug_assert!(
            new_layout.size() <= old_layout.size(),
            "expected the new size ({}) to be at most the old size ({})",
            new_layout.size(),
            old_layout.size()
        );
        if ptr.addr().get() & (new_layout.align() - 1) == 0 {
            // When this is not the most recent allocation the tail just stays
            // unused until the frame ends; the pointer stays put either way.
            self.release_tail_if_last(ptr, old_layout.size(), new_layout.size());
            return Ok(NonNull::slice_from_raw_parts(ptr, new_layout.size()));
        }
        // SAFETY: `ptr` is valid for `old_layout.size() >= new_layout.size()`
        // bytes, of which the new block keeps the first `new_layout.size()`.
        unsafe { self.move_to_new_block(ptr, new_layout.size(), old_layout.size(), new_layout) }
            .inspect_err(|_| {
                self.count_refusal(new_layout);
                self.remember_refusal(new_layout, 0);
            })
    }
}

impl FrameArena {
    /// Allocates `new_layout` and copies the first `keep` bytes of `ptr`
    /// there: a grow or shrink that cannot happen in place. The old block,
    /// `old_size` bytes, is freed by the move. A refusal is the caller's to
    /// count (what it needed depends on what it was).
    ///
    /// # Safety
    ///
    /// `ptr` must be a block of `old_size` bytes from this arena, valid for
    /// reads, and `keep` at most `old_size` and `new_layout.size()`.
    unsafe fn move_to_new_block(
        &self,
        ptr: NonNull<u8>,
        keep: usize,
        old_size: usize,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        let new_ptr = self.alloc_layout_uncounted(new_layout)?;
        // SAFETY: the caller guarantees `ptr` is readable for `keep` bytes and
        // that they fit the new block, which was just allocated above the top
        // and so does not overlap the old one.
        unsafe { new_ptr.copy_from_nonoverlapping(ptr, keep) };
        // The old block is freed by the move: all of it, not only the part
        // that was copied.
        asan::poison(ptr.as_ptr(), old_size);
        Ok(NonNull::slice_from_raw_parts(new_ptr, new_layout.size()))
    }

    /// Counts a refused growth of the block at `ptr` from `old` to `new`,
    /// and remembers it for the alloc-error hook. What it needed past the
    /// frame: the increase `in_place` (the block is in the frame's bytes
    /// already), the whole new block when it was to move.
    #[cold]
    #[inline(never)]
    fn refuse_growth(&self, ptr: NonNull<u8>, old: Layout, new: Layout, in_place: bool) {
        let reused = if in_place { old.size() } else { 0 };
        self.count_refused_growth(ptr, old.size(), new.size() - reused);
        self.remember_refusal(new, reused);
    }
}
