//! [`Ceiling`]: an address no allocation may end past while a decode runs
//! (`crate::serde`'s per-decode byte bound, `InArena::max_bytes`).
//!
//! The ceiling is enforced where the arena refuses, not by polling
//! `used()` after the fact: the arena keeps its `end` (what the fast path
//! compares with) at or below the ceiling, so every allocation that would
//! pass it, a single `with_capacity` of a length bomb included, falls to
//! the cold path and is refused there. The fast path gains no
//! instruction; the cold path and growth past the committed end test it.
//!
//! A refusal by the ceiling is the decode's, not the arena's: it is not
//! counted in [`refusals`](FrameArena::refusals) nor remembered for the
//! alloc-error hook (the arena had room), and the decode's error says the
//! bound.

use core::cell::Cell;

use super::FrameArena;
use super::bump::align_up;

/// No ceiling: an address no allocation can end past.
const NONE: usize = usize::MAX;

/// The ceiling of an arena, and whether it made the latest refusal.
#[derive(Debug)]
pub(crate) struct Ceiling {
    /// Allocations end at or below this address (`NONE`: no ceiling).
    at: Cell<usize>,
    /// The top when the ceiling was set: where the bound counts from.
    from: Cell<usize>,
    /// Whether the latest refusal of the arena was the ceiling's (set at
    /// each refusal the cold path or an in-place growth makes).
    refused_last: Cell<bool>,
}

impl Ceiling {
    pub(crate) const fn new() -> Ceiling {
        Ceiling {
            at: Cell::new(NONE),
            from: Cell::new(0),
            refused_last: Cell::new(false),
        }
    }
}

// Only the serde decode sets a ceiling; without the feature the arena
// still tests it (always `NONE`) on its cold paths.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
impl FrameArena {
    /// Lets no allocation end more than `bytes` above the top from now on,
    /// until [`lift_ceiling`](Self::lift_ceiling). Returns the top, where
    /// the bound is counted from.
    pub(crate) fn set_ceiling(&self, bytes: usize) -> usize {
        let top = self.top.get();
        let at = top.saturating_add(bytes);
        self.ceiling.at.set(at);
        self.ceiling.from.set(top);
        self.ceiling.refused_last.set(false);
        if self.end.get() > at {
            // The fast path compares with `end` alone: keeping it at the
            // ceiling sends every allocation that would pass it to the cold
            // path. Lowering `end` is always sound (it only refuses more).
            self.end.set(at);
        }
        top
    }

    /// Removes the ceiling: `end` is the committed end again.
    pub(crate) fn lift_ceiling(&self) {
        self.ceiling.at.set(NONE);
        self.ceiling.refused_last.set(false);
        self.end.set(self.base() + self.region.committed());
    }

    /// Bytes left below the ceiling for a block aligned to `align` (the
    /// padding to reach it taken off; `usize::MAX` or near without a
    /// ceiling).
    #[inline]
    pub(crate) fn room_under_ceiling(&self, align: usize) -> usize {
        // Rounded up as an allocation is, with a mask (`next_multiple_of`
        // is a division where `align` is not a constant).
        let start = align_up(self.top.get(), align).unwrap_or(usize::MAX);
        self.ceiling.at.get().saturating_sub(start)
    }

    /// Whether the latest refusal of this arena was its ceiling's: the
    /// arena had room, the decode's bound did not.
    pub(crate) fn refused_by_ceiling(&self) -> bool {
        self.ceiling.refused_last.get()
    }

    /// `end` for the committed end `committed_end`: no higher than the
    /// ceiling.
    #[inline]
    pub(super) fn end_below_ceiling(&self, committed_end: usize) -> usize {
        committed_end.min(self.ceiling.at.get())
    }

    /// Whether an allocation ending at `new_top` (or needing more than the
    /// address space, `None`) is refused by the ceiling: past it, where the
    /// ceiling is below the reservation's end (above it, the arena itself
    /// refuses first). Notes which refused, for the refusal's accounting.
    #[cold]
    pub(super) fn past_ceiling(&self, new_top: Option<usize>) -> bool {
        let at = self.ceiling.at.get();
        let past = at < self.base() + self.region.reserved() && new_top.is_none_or(|top| top > at);
        self.ceiling.refused_last.set(past);
        past
    }

    /// Panics for an allocation of `layout` that the ceiling refused (an
    /// `alloc*` call inside a decode, by a hand-written `DeserializeIn`).
    #[cold]
    #[inline(never)]
    #[track_caller]
    pub(super) fn over_ceiling(&self, layout: core::alloc::Layout) -> ! {
        let (from, at) = (self.ceiling.from.get(), self.ceiling.at.get());
        panic!(
            "tickarena: the decode running in this arena may take at most {} bytes of it \
             (InArena::max_bytes): asked for {} more bytes (align {}) with {} taken",
            at - from,
            layout.size(),
            layout.align(),
            self.top.get() - from
        )
    }

    /// Notes that the arena itself refused (its reservation or the OS).
    #[cold]
    pub(super) fn refused_by_arena(&self) {
        self.ceiling.refused_last.set(false);
    }
}
