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
    /// Bytes of address space currently made read/write, which is **not**
    /// what the frames use: commits grow by doubling what is committed (64
    /// KiB first, at most 64 MiB a step), so this can be up to twice the
    /// largest frame the arena has kept pages for, and the pages above
    /// [`retain`](crate::FrameArenaBuilder::retain) stay committed until
    /// [`release_after`](crate::FrameArenaBuilder::release_after) frames
    /// go by without needing them. Pages committed and never written cost
    /// the OS no memory on Linux, Windows and macOS. What frames use is
    /// [`high_water`](Self::high_water) (and each frame's
    /// [`FrameArena::peak`](crate::FrameArena::peak)).
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::builder().retain(8 << 20).build().unwrap();
    /// for _ in 0..17 {
    ///     arena.alloc([0u8; 64 << 10]); // a frame that grows to 1088 KiB
    /// }
    /// arena.reset();
    /// let stats = arena.stats();
    /// assert_eq!(stats.high_water, 1088 << 10);
    /// assert_eq!(stats.committed, 2 << 20); // 1 MiB committed, then doubled
    /// ```
    pub committed: usize,
    /// Bytes of address space reserved.
    pub reserved: usize,
    /// Reclaims and resets so far.
    pub frames: u64,
    /// Budget breaches so far: one per tag over its budget
    /// ([`FrameArena::set_budget`](crate::FrameArena::set_budget)) per
    /// frame, and one per frame over the whole-frame budget
    /// ([`FrameArena::set_frame_budget`](crate::FrameArena::set_frame_budget),
    /// a breach of [`Tag::WHOLE_FRAME`](crate::Tag::WHOLE_FRAME)). A frame
    /// with two tags over theirs and over its own budget counts 3.
    ///
    /// ```
    /// use tickarena::{BudgetPolicy, FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let mut arena = FrameArena::builder()
    ///     .budget(AI, 10)
    ///     .frame_budget(10)
    ///     .budget_policy(BudgetPolicy::Count)
    ///     .build()
    ///     .unwrap();
    /// {
    ///     let _ai = arena.tag(AI);
    ///     arena.alloc([0u8; 20]);
    /// }
    /// arena.reset();
    /// assert_eq!(arena.stats().over_budget, 2); // "ai" and the whole frame
    /// ```
    pub over_budget: u64,
}
