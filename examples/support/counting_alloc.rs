//! A global allocator that counts the process's heap allocations (and each
//! thread's own), so the examples can show (and check) that steady frames
//! make none.

// Shared by several examples, each of which uses part of it.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts every allocation and reallocation of the process and of each
/// thread, then forwards to the system allocator.
///
/// [`ThreadCounting`] counts each thread's only (`allocations` stays 0):
/// for an example that times the heap against the arena, where a locked
/// add per allocation, on the heap's path alone, would flatter the arena.
pub struct Counting<const PROCESS_WIDE: bool = true>;

/// [`Counting`] of each thread's allocations only.
pub type ThreadCounting = Counting<false>;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// This thread's allocations. `const` and without a destructor:
    /// counting never allocates, even while the thread exits.
    static THIS_THREAD: Cell<u64> = const { Cell::new(0) };
}

/// Heap allocations (and reallocations) made by the process so far.
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Heap allocations (and reallocations) made by the calling thread so far.
pub fn thread_allocations() -> u64 {
    THIS_THREAD.with(Cell::get)
}

fn count_one<const PROCESS_WIDE: bool>() {
    if PROCESS_WIDE {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
    THIS_THREAD.with(|count| count.set(count.get() + 1));
}

// SAFETY: forwards to `System`, which upholds the `GlobalAlloc` contract;
// counting touches only an atomic and a `const` thread-local.
unsafe impl<const PROCESS_WIDE: bool> GlobalAlloc for Counting<PROCESS_WIDE> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one::<PROCESS_WIDE>();
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one::<PROCESS_WIDE>();
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
