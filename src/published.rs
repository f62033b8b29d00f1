//! [`Published`]: a `usize` that one thread writes and others may read.

use core::sync::atomic::{AtomicUsize, Ordering};

/// A `usize` that only its owner's thread writes (like a `Cell`), and that
/// other threads may read for figures (`ThreadArenas::used` summing every
/// thread's arena) without a data race.
///
/// Relaxed loads and stores: on x86-64 and AArch64 these are the same plain
/// `mov`/`ldr`/`str` a `Cell` compiles to, so the arena's fast path is
/// unchanged (`scripts/alloc-instructions`). There is no read-modify-write:
/// a value is only ever written by the one thread that owns it, so a
/// `get` then `set` cannot lose an update.
pub(crate) struct Published(AtomicUsize);

impl Published {
    #[inline(always)]
    pub(crate) const fn new(value: usize) -> Published {
        Published(AtomicUsize::new(value))
    }

    #[inline(always)]
    pub(crate) fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }

    /// Writes `value`. Only the owning thread calls this (the arena is
    /// `!Sync`), so no write is ever lost.
    #[inline(always)]
    pub(crate) fn set(&self, value: usize) {
        self.0.store(value, Ordering::Relaxed)
    }
}
