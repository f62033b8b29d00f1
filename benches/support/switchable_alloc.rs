//! The global allocator of the serde bench: glibc's (the system's) or
//! mimalloc, switched at run time, and counted. serde's own derive decodes
//! into std's `String` and `Vec`, which take the global allocator only; so
//! the heap contender runs once on each, in one binary, one run.
//!
//! A block goes back to the allocator that made it: mimalloc says whether
//! a pointer is its own (`mi_is_in_heap_region`), so a block made before a
//! switch is freed correctly after it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use libmimalloc_sys as mi;

pub struct Switchable;

static MIMALLOC: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

/// New allocations go to mimalloc (`true`) or glibc's malloc.
pub fn use_mimalloc(on: bool) {
    MIMALLOC.store(on, Ordering::SeqCst);
}

/// Allocations and reallocations so far, of either allocator.
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

fn is_mimallocs(ptr: *mut u8) -> bool {
    // SAFETY: a look-up of an address; nothing is read through it.
    unsafe { mi::mi_is_in_heap_region(ptr as *const c_void) }
}

// SAFETY: each block is made by one allocator with its layout and freed or
// resized by the same one (mimalloc recognises its own blocks); both
// allocators uphold `GlobalAlloc`'s contract.
unsafe impl GlobalAlloc for Switchable {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        if MIMALLOC.load(Ordering::Relaxed) {
            // SAFETY: a non-zero size, as `GlobalAlloc` promises.
            unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8 }
        } else {
            // SAFETY: as above.
            unsafe { System.alloc(layout) }
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if is_mimallocs(ptr) {
            // SAFETY: mimalloc's own block.
            unsafe { mi::mi_free(ptr as *mut c_void) }
        } else {
            // SAFETY: the system's block, made with `layout`.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        if is_mimallocs(ptr) {
            // SAFETY: mimalloc's own block, resized with its alignment.
            unsafe {
                mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
            }
        } else {
            // SAFETY: the system's block, made with `layout`.
            unsafe { System.realloc(ptr, layout, new_size) }
        }
    }
}
