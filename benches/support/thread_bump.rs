//! A `bumpalo::Bump` per thread as an `Allocator` value, reset between
//! ticks: the bumpalo contender of the rollback bench, where the demo
//! game's frame data goes through a zero-sized allocator parameter (the
//! game cannot hold a `&Bump` across its ticks and also reset it).

use std::alloc::{AllocError, Allocator, Layout};
use std::cell::RefCell;
use std::ptr::NonNull;

use bumpalo::Bump;

thread_local! {
    static BUMP: RefCell<Bump> = RefCell::new(Bump::new());
}

/// This thread's bump.
#[derive(Clone, Copy, Default)]
pub struct ThreadBump;

/// Resets this thread's bump: every block it gave out is gone.
///
/// Call it only between ticks, when the tick's data has been dropped (the
/// frame loop drops all of it before a tick returns).
pub fn reset_thread_bump() {
    BUMP.with(|bump| bump.borrow_mut().reset());
}

// SAFETY: blocks come from this thread's `Bump`, which lives as long as
// the thread; they stay valid until `reset_thread_bump`, which the bench
// calls only after the tick that allocated them has dropped all its data.
// Growing and shrinking go to bumpalo's own (in place at its top).
unsafe impl Allocator for ThreadBump {
    #[inline]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        BUMP.with(|bump| (&*bump.borrow()).allocate(layout))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: a block of this thread's bump, with its layout.
        BUMP.with(|bump| unsafe { (&*bump.borrow()).deallocate(ptr, layout) })
    }

    #[inline]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: a block of this thread's bump, with its layout `old`.
        BUMP.with(|bump| unsafe { (&*bump.borrow()).grow(ptr, old, new) })
    }

    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old: Layout,
        new: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: a block of this thread's bump, with its layout `old`.
        BUMP.with(|bump| unsafe { (&*bump.borrow()).shrink(ptr, old, new) })
    }
}
