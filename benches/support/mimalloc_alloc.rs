//! mimalloc, the allocator a user picks instead of glibc's, as an
//! `Allocator` value: the benches' malloc code with `_in(Mimalloc)`, the
//! same as making it the `#[global_allocator]` but without changing the
//! allocator of every other contender in the same binary. `grow` and
//! `shrink` go through mimalloc's `realloc`, as `Vec` on a global mimalloc
//! would.

use std::alloc::{AllocError, Allocator, GlobalAlloc, Layout};
use std::ptr::NonNull;

use mimalloc::MiMalloc;

#[derive(Clone, Copy, Default)]
pub struct Mimalloc;

/// A block of `layout` from mimalloc, or a dangling aligned pointer for a
/// zero-sized one (`GlobalAlloc` takes no zero sizes).
fn block(ptr: *mut u8, size: usize) -> Result<NonNull<[u8]>, AllocError> {
    NonNull::new(ptr)
        .map(|ptr| NonNull::slice_from_raw_parts(ptr, size))
        .ok_or(AllocError)
}

// SAFETY: every block comes from mimalloc's `GlobalAlloc` with its layout
// and goes back to it with the same layout; zero-sized blocks are dangling
// and never passed to mimalloc.
unsafe impl Allocator for Mimalloc {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        if layout.size() == 0 {
            return Ok(NonNull::slice_from_raw_parts(layout.dangling_ptr(), 0));
        }
        // SAFETY: the size is not zero.
        block(unsafe { MiMalloc.alloc(layout) }, layout.size())
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        if layout.size() != 0 {
            // SAFETY: a block this allocator gave out with `layout`.
            unsafe { MiMalloc.dealloc(ptr.as_ptr(), layout) }
        }
    }

    #[inline]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        self.resize(ptr, old, new)
    }

    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        self.resize(ptr, old, new)
    }
}

impl Mimalloc {
    /// `realloc` when both sizes are non-zero and the alignment stays;
    /// otherwise a new block, a copy and a free.
    #[inline]
    fn resize(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        if old.size() != 0 && new.size() != 0 && old.align() == new.align() {
            // SAFETY: a live block of `old`; `new.size()` is not zero.
            return block(
                unsafe { MiMalloc.realloc(ptr.as_ptr(), old, new.size()) },
                new.size(),
            );
        }
        let moved = self.allocate(new)?;
        // SAFETY: both blocks hold at least the smaller size and are
        // distinct allocations; the old one is freed after the copy.
        unsafe {
            moved
                .cast::<u8>()
                .copy_from_nonoverlapping(ptr, old.size().min(new.size()));
            self.deallocate(ptr, old);
        }
        Ok(moved)
    }
}
