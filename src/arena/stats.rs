//! [`ArenaStats`]: the figures an overlay or a log line wants from an arena.

/// A snapshot of a [`FrameArena`](crate::FrameArena)'s memory figures,
/// from [`FrameArena::stats`](crate::FrameArena::stats).
///
/// # Example
///
/// ```
/// let mut arena = tickarena::FrameArena::new();
/// arena.alloc_slice_copy(&[0u32; 256]);
/// arena.reset();
/// let stats = arena.stats();
/// assert_eq!((stats.used, stats.high_water, stats.frames), (0, 1024, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaStats {
    /// Bytes handed out this frame (the same as `FrameArena::used`).
    pub used: usize,
    /// Most bytes used by any frame so far, this one included.
    pub high_water: usize,
    /// Bytes of address space currently backed by read/write pages.
    pub committed: usize,
    /// Bytes of address space reserved.
    pub reserved: usize,
    /// Reclaims and resets so far.
    pub frames: u64,
    /// Frames that ended with a tag over its budget, one per tag
    /// ([`FrameArena::set_budget`](crate::FrameArena::set_budget)).
    pub over_budget: u64,
}
