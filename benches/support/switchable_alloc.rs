//! The global allocator of the serde bench: glibc's malloc (the system's),
//! or mimalloc in a process started with `TICKARENA_SERDE_HEAP=mimalloc`.
//! serde's own derive decodes into std's `String` and `Vec`, which take the
//! global allocator only, so the heap contender is measured once in each
//! kind of process.
//!
//! `TICKARENA_SERDE_HEAP=bump` measures the ceiling instead: while a
//! routine runs ([`bumping`]), every allocation is a bump in a static
//! region and every free is nothing, the cheapest allocator there can be
//! under serde's derive (its region is reused from the start when full;
//! blocks made outside routines come from glibc).
//!
//! One allocator per process, chosen at its first allocation: a free needs
//! no test of whose block it is. Such a test (`mi_is_in_heap_region`) and
//! an atomic count per allocation, both on the heap contenders' path only,
//! once added about 2 µs to a 15 µs decode and flattered the arena. The
//! count now runs only while [`count_allocations`] is on, outside the
//! timed loops; the timed path pays one relaxed load for it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::{CStr, c_char, c_void};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};

use libmimalloc_sys as mi;

pub struct Switchable;

/// 0 until the first allocation, then [`GLIBC`] or [`MIMALLOC`].
static CHOSEN: AtomicU8 = AtomicU8::new(0);
const GLIBC: u8 = 1;
const MIMALLOC: u8 = 2;
const BUMP: u8 = 3;

/// The bump ceiling's region and its next free byte (an offset).
const REGION: usize = 64 << 20;
struct Region(std::cell::UnsafeCell<[u8; REGION]>);
// SAFETY: only `bump` hands out its bytes, on one thread at a time (while
// a routine runs), each range once until the region wraps.
unsafe impl Sync for Region {}
static REGION_BYTES: Region = Region(std::cell::UnsafeCell::new([0; REGION]));
static NEXT: AtomicUsize = AtomicUsize::new(0);
static BUMPING: AtomicBool = AtomicBool::new(false);

/// Runs `routine` with the bump ceiling's region serving its allocations
/// (in a `bump` process; elsewhere it just runs it).
pub fn bumping<R>(routine: impl FnOnce() -> R) -> R {
    BUMPING.store(chosen() == BUMP, Ordering::SeqCst);
    let result = routine();
    BUMPING.store(false, Ordering::SeqCst);
    result
}

fn region_start() -> *mut u8 {
    REGION_BYTES.0.get().cast()
}

fn in_region(ptr: *mut u8) -> bool {
    (ptr as usize).wrapping_sub(region_start() as usize) < REGION
}

/// A block of `layout` from the region (from its start again when full).
/// A load and a store, not a locked read-modify-write: routines run on
/// criterion's one thread, and the ceiling should cost what a bump does.
fn bump(layout: Layout) -> *mut u8 {
    let start = region_start() as usize;
    let next = NEXT.load(Ordering::Relaxed);
    let at = (start + next).next_multiple_of(layout.align()) - start;
    let at = if at + layout.size() <= REGION { at } else { 0 };
    NEXT.store(at + layout.size(), Ordering::Relaxed);
    region_start().wrapping_add(at)
}

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe extern "C" {
    fn getenv(name: *const c_char) -> *mut c_char;
}

/// The process's allocator, read from the environment at the first call
/// (with the C library's `getenv`, which does not allocate).
fn chosen() -> u8 {
    match CHOSEN.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: a NUL-terminated name; the result is NULL or a
            // NUL-terminated value that lives as long as the environment,
            // which the benchmark does not change.
            let value = unsafe { getenv(c"TICKARENA_SERDE_HEAP".as_ptr()) };
            // SAFETY: as above, non-null here.
            let name = (!value.is_null()).then(|| unsafe { CStr::from_ptr(value) });
            let chosen = match name {
                Some(name) if name == c"mimalloc" => MIMALLOC,
                Some(name) if name == c"bump" => BUMP,
                _ => GLIBC,
            };
            CHOSEN.store(chosen, Ordering::Relaxed);
            chosen
        }
        chosen => chosen,
    }
}

/// The name of this process's heap contender: `"glibc"` or `"mimalloc"`.
pub fn heap_name() -> &'static str {
    match chosen() {
        MIMALLOC => "mimalloc",
        BUMP => "bump",
        _ => "glibc",
    }
}

/// Counts allocations from now on (`true`) or stops counting.
pub fn count_allocations(on: bool) {
    COUNTING.store(on, Ordering::SeqCst);
}

/// Allocations and reallocations counted so far.
pub fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

fn count_one() {
    if COUNTING.load(Ordering::Relaxed) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every block of the process outside the bump region is made,
// freed and resized by the one allocator `chosen` returns (fixed before
// the first block), which upholds `GlobalAlloc`'s contract; the region's
// blocks are ranges of a static handed out once each (until it wraps, far
// past any one routine's blocks) and never freed.
unsafe impl GlobalAlloc for Switchable {
    // Each path tests the process's allocator first: a glibc or mimalloc
    // process pays nothing for the bump ceiling's tests.
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        match chosen() {
            // SAFETY: a non-zero size, as `GlobalAlloc` promises.
            MIMALLOC => unsafe { mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8 },
            BUMP if BUMPING.load(Ordering::Relaxed) => bump(layout),
            // SAFETY: as above.
            _ => unsafe { System.alloc(layout) },
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        match chosen() {
            // SAFETY: mimalloc's own block.
            MIMALLOC => unsafe { mi::mi_free(ptr as *mut c_void) },
            // The bump ceiling frees nothing.
            BUMP if in_region(ptr) => {}
            // SAFETY: the system's block, made with `layout`.
            _ => unsafe { System.dealloc(ptr, layout) },
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        let chosen = chosen();
        if chosen == BUMP && in_region(ptr) {
            // SAFETY: `new_size` with the block's alignment is a valid
            // layout (`GlobalAlloc::realloc`'s promise).
            let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            let moved = bump(new);
            // SAFETY: both blocks hold at least the smaller size, and a new
            // bump never overlaps a live block of the same routine.
            unsafe { std::ptr::copy_nonoverlapping(ptr, moved, layout.size().min(new_size)) };
            moved
        } else if chosen == MIMALLOC {
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
