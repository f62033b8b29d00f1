//! A `#[global_allocator]` that opens scopes of its own (as a tracking or
//! profiling allocator might, for its temporaries), while the program opens
//! scopes too: the allocator's scopes run inside the allocations that make
//! the program's scope arenas, and must be deeper scopes, not a second
//! `&mut` to the thread's list of arenas. Its own binary, since a global
//! allocator is the whole program's; run under Miri with Stacked and Tree
//! Borrows by `.ci/run`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tickarena::scoped;

/// Hands every allocation to the system allocator, after a scope of its own
/// (while `SCOPING` is on, and not inside itself).
struct ScopingAllocator;

static SCOPING: AtomicBool = AtomicBool::new(false);
static SCOPES_IN_THE_ALLOCATOR: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static IN_THE_ALLOCATOR: Cell<bool> = const { Cell::new(false) };
}

/// The allocator's own work, in a scope: a small table, summed.
fn allocators_scope() {
    let sum = scoped(|temp| {
        let table = temp.alloc_slice_fill_with(16, |i| i as u32);
        table.iter().sum::<u32>()
    });
    assert_eq!(sum, 120);
    SCOPES_IN_THE_ALLOCATOR.fetch_add(1, Ordering::Relaxed);
}

// SAFETY: every call goes to `System` with the caller's arguments; the
// scope before it neither frees nor hands out memory of the caller's.
unsafe impl GlobalAlloc for ScopingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if SCOPING.load(Ordering::Relaxed) {
            let _ = IN_THE_ALLOCATOR.try_with(|inside| {
                if !inside.replace(true) {
                    allocators_scope();
                    inside.set(false);
                }
            });
        }
        // SAFETY: the caller's guarantees, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as in `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: ScopingAllocator = ScopingAllocator;

/// Opens scopes `depth` deep on a thread that never opened one, each
/// allocating on the heap (the allocator's scopes run then) and in the
/// scope, and checks every scope's data after the deeper ones ended.
fn nest(depth: usize, at: usize) -> usize {
    if at == depth {
        return 0;
    }
    scoped(|temp| {
        let mine = temp.alloc_slice_fill_with(64, |i| i * at);
        let on_the_heap = vec![at; 8];
        let below = nest(depth, at + 1);
        assert!(mine.iter().enumerate().all(|(i, &v)| v == i * at));
        assert_eq!(on_the_heap, [at; 8]);
        mine[1] + below
    })
}

#[test]
fn scopes_opened_by_the_global_allocator_are_deeper_scopes() {
    const DEPTH: usize = if cfg!(miri) { 12 } else { 40 };
    let total = std::thread::spawn(|| {
        SCOPING.store(true, Ordering::Relaxed);
        // The first scopes on this thread: every depth's arena and the
        // table's segments are made now, calling the allocator.
        let first = nest(DEPTH, 0);
        // Reached again: the arenas are reused.
        let second = nest(DEPTH, 0);
        SCOPING.store(false, Ordering::Relaxed);
        assert_eq!(first, second);
        first
    })
    .join()
    .unwrap();
    assert_eq!(total, (0..DEPTH).sum::<usize>());
    assert!(SCOPES_IN_THE_ALLOCATOR.load(Ordering::Relaxed) >= DEPTH);
}
