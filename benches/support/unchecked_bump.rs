//! The least work any allocator could do for the article's loop: bump a
//! pointer through a buffer with no limit check and no commit, free
//! nothing, grow and shrink the most recent block in place. Not a usable
//! allocator (it writes past its buffer when that is full); the bench
//! sizes the buffer for the loop and uses it as the bound an allocator can
//! reach, so the gap between it and the allocation-free floor is the cost
//! of the code's own boxes, vtables and drops.

use std::alloc::{AllocError, Allocator, Layout};
use std::cell::Cell;
use std::ptr::NonNull;

pub struct UncheckedBump {
    buffer: Box<[u8]>,
    top: Cell<usize>,
}

impl UncheckedBump {
    /// A bump allocator over `bytes` bytes, which the caller must never
    /// exceed between two resets.
    pub fn with_capacity(bytes: usize) -> Self {
        let buffer = vec![0u8; bytes].into_boxed_slice();
        let top = Cell::new(buffer.as_ptr().addr());
        UncheckedBump { buffer, top }
    }

    pub fn reset(&mut self) {
        self.top.set(self.buffer.as_ptr().addr());
    }

    /// Moves the top to the new end of `ptr`'s block if it is the last one.
    #[inline(always)]
    fn resize_if_last(&self, ptr: NonNull<u8>, old: Layout, new: Layout) -> bool {
        let last = ptr.addr().get() + old.size() == self.top.get();
        if last {
            self.top.set(ptr.addr().get() + new.size());
        }
        last
    }

    fn at(&self, addr: usize) -> NonNull<u8> {
        // The buffer's provenance, at an address inside it (the caller's
        // promise to stay within the capacity).
        let base = NonNull::from(&*self.buffer).cast::<u8>();
        base.with_addr(addr.try_into().expect("inside the buffer"))
    }
}

// SAFETY: blocks are disjoint slices of the buffer as long as the caller
// stays within its capacity (the bench's loop needs a fixed amount far
// below it), and stay valid until `reset`, which takes `&mut self` and so
// cannot run while any collection borrows the allocator.
unsafe impl Allocator for &UncheckedBump {
    #[inline(always)]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        let start = self.top.get().next_multiple_of(layout.align());
        self.top.set(start + layout.size());
        Ok(NonNull::slice_from_raw_parts(self.at(start), layout.size()))
    }

    #[inline(always)]
    unsafe fn deallocate(&self, _: NonNull<u8>, _: Layout) {}

    #[inline(always)]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        if self.resize_if_last(ptr, old, new) {
            return Ok(NonNull::slice_from_raw_parts(ptr, new.size()));
        }
        let block = self.allocate(new)?;
        // SAFETY: the old block holds `old.size()` bytes, the new one is
        // larger and above the old top, so they do not overlap.
        unsafe { block.cast::<u8>().copy_from_nonoverlapping(ptr, old.size()) };
        Ok(block)
    }

    #[inline(always)]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        self.resize_if_last(ptr, old, new);
        Ok(NonNull::slice_from_raw_parts(ptr, new.size()))
    }
}
