//! AddressSanitizer's view of the arena: free bytes are poisoned, so that
//! `unsafe` code reading a frame's data after `reset`/`reclaim` (through a
//! raw pointer it kept) is reported instead of silently reading stale bytes.
//!
//! Built with `-Zsanitizer=address` (`build.rs` then sets
//! `cfg(tickarena_asan)`), the region poisons what it commits and
//! unpoisons what it gives back to the OS, and the arena unpoisons what it
//! hands out and poisons what it takes back (freed blocks, trimmed tails,
//! the whole frame on reset). In every other build these functions are
//! empty and inline to nothing.
//!
//! Poisoning works on 8-byte granules, each of which can only be "the first
//! k bytes addressable": a partly freed granule stays addressable, so a
//! report is never false, and a stale read of a partial granule may be
//! missed.

#[cfg(tickarena_asan)]
unsafe extern "C" {
    fn __asan_poison_memory_region(addr: *const core::ffi::c_void, size: usize);
    fn __asan_unpoison_memory_region(addr: *const core::ffi::c_void, size: usize);
}

/// Marks `ptr..ptr + len` as not to be accessed.
///
/// `ptr..ptr + len` must lie in memory this program maps or owns (an
/// arena's region), which ASan shadows.
#[inline(always)]
pub(crate) fn poison(ptr: *const u8, len: usize) {
    #[cfg(tickarena_asan)]
    // SAFETY: the ASan runtime only updates its shadow of the range, which
    // callers keep inside memory the arena owns.
    unsafe {
        __asan_poison_memory_region(ptr.cast(), len)
    };
    let _ = (ptr, len);
}

/// Marks `ptr..ptr + len` as accessible again.
///
/// Same requirement as [`poison`].
#[inline(always)]
pub(crate) fn unpoison(ptr: *const u8, len: usize) {
    #[cfg(tickarena_asan)]
    // SAFETY: as in `poison`.
    unsafe {
        __asan_unpoison_memory_region(ptr.cast(), len)
    };
    let _ = (ptr, len);
}
