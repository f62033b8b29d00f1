//! [`FrameArenaBuilder`]: reservation size, retained size, huge pages.

use crate::region::{self, Region, ReserveRequest};

use super::bump::ADDRESS_LIMIT;
use super::retention::{DEFAULT_RELEASE_AFTER, Retention};
use super::tags::{MAX_TAGS, Tag};
use super::{ArenaError, BudgetPolicy, FrameArena};

/// Committed bytes kept across a reclaim unless told otherwise.
const DEFAULT_RETAIN: usize = 64 << 20;

/// Configures a [`FrameArena`]; from [`FrameArena::builder`].
///
/// * [`reserve`](Self::reserve): address space to reserve up front, the most
///   one frame can use. Default: 16 GiB on 64-bit Linux, macOS and Windows
///   (halved on refusal down to 64 MiB), 256 MiB on 32-bit ones; reserving
///   costs no memory there, only address space. On wasm32, under Miri and
///   without the `std` feature the arena is one block of real memory, and
///   the default is 16 MiB.
/// * [`retain`](Self::retain): committed bytes always kept across a
///   reclaim. Default: 64 MiB (or the whole reservation if smaller).
/// * [`release_after`](Self::release_after): how many frames a burst's
///   pages above that stay before they go back to the OS. Default: 300.
/// * [`huge_pages`](Self::huge_pages): ask for transparent huge pages
///   (Linux).
///
/// # Example
///
/// ```
/// let arena = tickarena::FrameArena::builder()
///     .reserve(64 << 20)
///     .retain(16 << 20)
///     .huge_pages(true)
///     .build()?;
/// assert_eq!(arena.stats().reserved, 64 << 20);
/// # Ok::<(), tickarena::ArenaError>(())
/// ```
#[derive(Clone, Debug, Default)]
#[must_use = "call .build() to get the arena"]
pub struct FrameArenaBuilder {
    reserve: Option<usize>,
    retain: Option<usize>,
    release_after: Option<u32>,
    huge_pages: bool,
    name: Option<&'static str>,
    budgets: [Option<(Tag, usize)>; MAX_TAGS - 1],
    frame_budget: Option<usize>,
    budget_policy: BudgetPolicy,
}

impl FrameArenaBuilder {
    /// Reserves exactly `bytes` of address space (rounded up to a page): the
    /// most one frame can allocate. Fails in `build` if the OS refuses.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(1 << 20).build().unwrap();
    /// let mut bytes: Vec<u8, _> = Vec::new_in(&arena);
    /// assert!(bytes.try_reserve_exact(2 << 20).is_err());
    /// assert!(bytes.try_reserve_exact(1 << 20).is_ok());
    /// ```
    pub fn reserve(mut self, bytes: usize) -> Self {
        self.reserve = Some(bytes);
        self
    }

    /// Always keeps up to `bytes` committed across a reclaim; pages above
    /// are given back to the OS as [`release_after`](Self::release_after)
    /// says (`madvise(MADV_DONTNEED)` on Linux, a `PROT_NONE` remap on macOS
    /// and the BSDs, `VirtualFree(MEM_DECOMMIT)` on Windows; nothing on
    /// wasm32, whose memory never shrinks).
    ///
    /// Set it above the usual frame size so a steady frame makes no system
    /// call, and below the burst size so a burst's memory does not stay
    /// once bursts stop.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::builder()
    ///     .retain(1 << 20)
    ///     .release_after(0) // give a burst's pages back at once
    ///     .build()
    ///     .unwrap();
    /// drop(Vec::<u8, _>::with_capacity_in(8 << 20, &arena)); // a burst
    /// assert!(arena.stats().committed >= 8 << 20);
    /// arena.reset();
    /// assert!(arena.stats().committed <= 1 << 20);
    /// ```
    pub fn retain(mut self, bytes: usize) -> Self {
        self.retain = Some(bytes);
        self
    }

    /// How long a burst's pages stay: frames are counted in windows of
    /// `frames`, and at the end of each window the arena keeps what the
    /// largest frame of that window used (at least [`retain`](Self::retain));
    /// the pages above go back to the OS. Default: 300 frames (5 s at
    /// 60 Hz).
    ///
    /// So a burst that recurs at least once a window keeps its pages: after
    /// the first bursts, the next ones fault no page in and make no system
    /// call. Once bursts stop, their pages go back within one to two
    /// windows, and the resident memory is what it was before them. `0`
    /// gives everything above `retain` back at every reset.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::builder()
    ///     .retain(1 << 20)
    ///     .release_after(60) // a second at 60 Hz
    ///     .build()
    ///     .unwrap();
    /// for frame in 0..240 {
    ///     if frame < 120 && frame % 30 == 0 {
    ///         drop(Vec::<u8, _>::with_capacity_in(8 << 20, &arena)); // a burst
    ///     }
    ///     arena.reset();
    ///     if frame == 119 {
    ///         // Bursts every 30 frames: their pages stayed.
    ///         assert!(arena.stats().committed >= 8 << 20);
    ///     }
    /// }
    /// // Two quiet windows later, they are back with the OS.
    /// assert!(arena.stats().committed <= 1 << 20);
    /// ```
    pub fn release_after(mut self, frames: u32) -> Self {
        self.release_after = Some(frames);
        self
    }

    /// Asks the OS to back the arena with transparent huge pages
    /// (`MADV_HUGEPAGE`), which saves TLB misses on large frames. A hint:
    /// ignored where huge pages are unavailable, and a no-op on Windows
    /// (large pages there need a privilege and an up-front commit), macOS
    /// and wasm32.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().huge_pages(true).build().unwrap();
    /// assert_eq!(*arena.alloc(5u8), 5);
    /// ```
    pub fn huge_pages(mut self, enabled: bool) -> Self {
        self.huge_pages = enabled;
        self
    }

    /// Names the arena: shown by `Debug` and, with the cargo feature
    /// `tracy`, the name of its plots in Tracy (`"<name>: frame bytes"`,
    /// `"<name>: high water"`, `"<name>: committed"`; unnamed arenas share
    /// `"tickarena"`).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().name("particles").build().unwrap();
    /// assert_eq!(arena.name(), Some("particles"));
    /// ```
    pub fn name(mut self, name: &'static str) -> Self {
        self.name = Some(name);
        self
    }

    /// The name given with [`name`](Self::name), if any.
    ///
    /// # Example
    ///
    /// ```
    /// let builder = tickarena::FrameArena::builder().name("ai");
    /// assert_eq!(builder.arena_name(), Some("ai"));
    /// ```
    pub fn arena_name(&self) -> Option<&'static str> {
        self.name
    }

    /// A budget of `bytes` per frame for `tag` (see
    /// [`FrameArena::set_budget`]); the last [`MAX_TAGS`] − 1 tags given
    /// are kept.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let arena = FrameArena::builder().budget(AI, 64 << 10).build().unwrap();
    /// assert_eq!(arena.tag_bytes().budget(AI), Some(64 << 10));
    /// ```
    pub fn budget(mut self, tag: Tag, bytes: usize) -> Self {
        let slot = self
            .budgets
            .iter()
            .position(|budget| budget.is_none_or(|(known, _)| known == tag))
            .unwrap_or_else(|| {
                self.budgets.rotate_left(1);
                MAX_TAGS - 2
            });
        self.budgets[slot] = Some((tag, bytes));
        self
    }

    /// A budget of `bytes` for the whole frame, all tags together (see
    /// [`FrameArena::set_frame_budget`]): for an arena that serves one
    /// system or one kind of data.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().frame_budget(256 << 10).build().unwrap();
    /// assert_eq!(arena.frame_budget(), Some(256 << 10));
    /// ```
    pub fn frame_budget(mut self, bytes: usize) -> Self {
        self.frame_budget = Some(bytes);
        self
    }

    /// What a frame over a tag's budget does. Default: a log line at most
    /// every 300 frames ([`BudgetPolicy::Log`]).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{BudgetPolicy, FrameArena, Tag};
    /// const AI: Tag = Tag::new("ai");
    /// let mut arena = FrameArena::builder()
    ///     .budget(AI, 8)
    ///     .budget_policy(BudgetPolicy::Panic)
    ///     .build()
    ///     .unwrap();
    /// {
    ///     let _ai = arena.tag(AI);
    ///     arena.alloc(0u64); // at the budget: no breach
    /// }
    /// arena.reset();
    /// ```
    pub fn budget_policy(mut self, policy: BudgetPolicy) -> Self {
        self.budget_policy = policy;
        self
    }

    /// The budget policy and whole-frame budget given, for an owner that
    /// checks the budgets of the arenas it builds on their sum.
    #[cfg(feature = "std")] // for `ThreadArenas` and the frame loop
    pub(crate) fn budgets(&self) -> super::Budgets {
        super::Budgets::new(self.budget_policy, self.frame_budget)
    }

    /// Reserves the address space and creates the arena.
    ///
    /// # Errors
    ///
    /// [`ArenaError::ZeroReserve`] or [`ArenaError::RetainExceedsReserve`]
    /// for contradictory settings; [`ArenaError::ReservationRefused`] when
    /// the OS will not reserve the address space.
    ///
    /// # Example
    ///
    /// ```
    /// let error = tickarena::FrameArena::builder().reserve(0).build().unwrap_err();
    /// assert_eq!(error, tickarena::ArenaError::ZeroReserve);
    /// ```
    pub fn build(self) -> Result<FrameArena, ArenaError> {
        let page = region::page_size();
        let (bytes, smallest) = match self.reserve {
            Some(0) => return Err(ArenaError::ZeroReserve),
            Some(bytes) => {
                let bytes = bytes
                    .checked_next_multiple_of(page)
                    .unwrap_or(usize::MAX & !(page - 1));
                (bytes, bytes)
            }
            None => (
                region::DEFAULT_RESERVE,
                region::MIN_DEFAULT_RESERVE.min(region::DEFAULT_RESERVE),
            ),
        };
        if let Some(retain) = self.retain
            && retain > bytes
        {
            return Err(ArenaError::RetainExceedsReserve {
                retain,
                reserve: bytes,
            });
        }
        let region = Region::reserve(ReserveRequest {
            bytes,
            smallest,
            huge_pages: self.huge_pages,
            address_limit: ADDRESS_LIMIT,
        })
        .map_err(|refused| ArenaError::ReservationRefused {
            requested: bytes,
            smallest_tried: refused.smallest_tried,
        })?;
        let retain = self.retain.unwrap_or(DEFAULT_RETAIN).min(region.reserved());
        let retention = Retention::new(retain, self.release_after.unwrap_or(DEFAULT_RELEASE_AFTER));
        let mut arena = FrameArena::from_region(region, retention, self.name);
        arena.budgets.policy = self.budget_policy;
        if self.frame_budget.is_some() {
            arena.set_frame_budget(self.frame_budget);
        }
        for (tag, bytes) in self.budgets.into_iter().flatten() {
            arena.set_budget(tag, bytes);
        }
        Ok(arena)
    }
}
