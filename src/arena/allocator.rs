//! `Allocator` for `&FrameArena`: the arena under `Vec`, `Box`, `VecDeque`,
//! `BTreeMap`, `Rc` and every other collection built on the trait.

use core::alloc::AllocError;
use core::alloc::{Allocator, Layout};
use core::ptr::NonNull;

use super::FrameArena;
use crate::asan;

// Reclaiming needs the arena by value or `&mut`, so it cannot happen while
// any `&FrameArena` (and thus any collection using it) is alive. Copies of
// `&FrameArena` are the same allocator, so memory from one can be freed
// through another.
// SAFETY: memory handed out stays valid and untouched by the arena until
// the caller frees, shrinks or grows it, or the arena is reclaimed (above).
unsafe impl Allocator for &FrameArena {
    #[inline(always)]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        let ptr = self.alloc_layout(layout)?;
        Ok(NonNull::slice_from_raw_parts(ptr, layout.size()))
    }

    /// Gives the bytes back if this is the most recent allocation; otherwise
    /// they are reused when the frame is reclaimed.
    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        self.release_tail_if_last(ptr, layout.size(), 0);
    }

    /// Grows in place when this is the most recent allocation (committing
    /// pages as needed); otherwise allocates anew and copies.
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
        // SAFETY: `ptr` is valid for `old_layout.size()` bytes, all of which
        // fit in the larger new block.
        unsafe { self.move_to_new_block(ptr, old_layout.size(), new_layout) }
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
        unsafe { self.move_to_new_block(ptr, new_layout.size(), new_layout) }
    }
}

impl FrameArena {
    /// Allocates `new_layout` and copies the first `keep` bytes of `ptr`
    /// there: a grow or shrink that cannot happen in place.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid for reads of `keep` bytes, and `keep` at most
    /// `new_layout.size()`.
    unsafe fn move_to_new_block(
        &self,
        ptr: NonNull<u8>,
        keep: usize,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        let new_ptr = self.alloc_layout(new_layout)?;
        // SAFETY: the caller guarantees `ptr` is readable for `keep` bytes and
        // that they fit the new block, which was just allocated above the top
        // and so does not overlap the old one.
        unsafe { new_ptr.copy_from_nonoverlapping(ptr, keep) };
        // The old block is freed by the move.
        asan::poison(ptr.as_ptr(), keep);
        Ok(NonNull::slice_from_raw_parts(new_ptr, new_layout.size()))
    }
}
