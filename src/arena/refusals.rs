//! [`Refusals`]: the allocations an arena refused this frame, and the
//! bytes they asked for, per tag: what a frame's peak leaves out when the
//! arena was too small (the peak stops at the reservation; the refused
//! requests say how far past it the frame wanted to go).
//!
//! Counted where every refusal passes, the arena's cold path (a `try_*`
//! method's error, a collection's growth refused, a decode that ran out
//! of arena, an `alloc*` about to panic because the arena is full), never
//! on the allocation fast path; kept per slot of the arena's tag table, and
//! given back as a table of tags. A `FrameArena::try_*` method whose size
//! does not make a `Layout` is counted where it computes the layout.
//!
//! The bytes are what the frame would have needed past what it held had
//! it kept what it was refused: a fresh allocation its size, a growth of
//! the top block in place only the increase (the block's own bytes are in
//! the peak), a growth that moves the block the whole new block. A game
//! that skips a refused particle and tries again retries the very same
//! growth: asked again for the same block with nothing granted since, it
//! is counted as a refusal but its bytes only once, so that "what the
//! frame asked" does not grow with the retries.

use core::alloc::{AllocError, Layout};
use core::cell::Cell;
use core::fmt;
use core::ptr::NonNull;

use super::FrameArena;
use super::tags::{MAX_TAGS, Tag};

/// One frame's refused allocations: how many, the bytes they asked for,
/// and both per [`Tag`] (the tag current when each was refused). From
/// [`FrameArena::refusals`], in each
/// [`FrameRecord`](crate::frame_loop::FrameRecord), and summed over a
/// history by its [`SizingReport`](crate::frame_loop::SizingReport).
///
/// A refused request's bytes are what it needed past what the frame
/// held: a fresh allocation's size; a collection's refused growth the
/// increase when its block is the arena's newest (it grows in place), the
/// whole new block otherwise (it moves). A growth of the same block
/// refused again with nothing granted or freed in between (a game that
/// retries a particle list's growth for each particle) counts as a
/// refusal but adds no bytes, or only what it asks beyond the last time.
/// Distinct allocations each count, even of one size (a level's assets).
///
/// Every error of the arena's own `try_*` methods is counted, one whose
/// size does not fit in `isize::MAX` bytes too, with the bytes it asked
/// for (saturating at `usize::MAX`): the report then shows the bad length
/// rather than hide it. A collection's capacity overflow
/// (`TryReserveErrorKind::CapacityOverflow`, a `Vec::try_reserve(usize::MAX)`)
/// is not: it is the collection's own error and never reaches the arena.
/// Nor is an `alloc*` method's panic for such a size, which is not the
/// arena's (no reservation could serve it).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, Tag};
///
/// const LEVEL: Tag = Tag::new("level");
/// let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
/// {
///     let _level = arena.tag(LEVEL);
///     assert!(arena.try_alloc_slice_copy(&[0u8; 100 << 10]).is_err());
/// }
/// let refusals = arena.refusals();
/// assert_eq!((refusals.count(), refusals.bytes()), (1, 100 << 10));
/// assert_eq!((refusals.count_of(LEVEL), refusals.bytes_of(LEVEL)), (1, 100 << 10));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct Refusals {
    entries: [RefusalEntry; MAX_TAGS],
    len: u8,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct RefusalEntry {
    tag: Tag,
    count: u64,
    bytes: usize,
}

impl Refusals {
    /// Allocations refused.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::Refusals::default().count(), 0);
    /// ```
    pub fn count(&self) -> u64 {
        self.iter().map(|(_, count, _)| count).sum()
    }

    /// The bytes the refused allocations asked for, summed (saturating).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// assert!(arena.try_alloc([0u64; 10_000]).is_err());
    /// assert_eq!(arena.refusals().bytes(), 80_000);
    /// ```
    pub fn bytes(&self) -> usize {
        self.iter()
            .fold(0, |sum, (_, _, bytes)| sum.saturating_add(bytes))
    }

    /// Whether nothing was refused.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::FrameArena::new().refusals().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Allocations refused while `tag` was current.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::Refusals::default().count_of(tickarena::Tag::UNTAGGED), 0);
    /// ```
    pub fn count_of(&self, tag: Tag) -> u64 {
        self.entry(tag).map_or(0, |entry| entry.count)
    }

    /// The bytes asked for by the allocations refused while `tag` was
    /// current.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::Refusals::default().bytes_of(tickarena::Tag::UNTAGGED), 0);
    /// ```
    pub fn bytes_of(&self, tag: Tag) -> usize {
        self.entry(tag).map_or(0, |entry| entry.bytes)
    }

    /// Each tag that was refused something: `(tag, allocations, bytes)`,
    /// in the order the arena first met the tags.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Tag};
    /// let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// assert!(arena.try_alloc([0u8; 100 << 10]).is_err());
    /// assert!(arena.refusals().iter().eq([(Tag::UNTAGGED, 1, 100 << 10)]));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (Tag, u64, usize)> + '_ {
        self.entries[..usize::from(self.len)]
            .iter()
            .map(|entry| (entry.tag, entry.count, entry.bytes))
    }

    /// Adds `other`'s refusals to these, tag by tag (a tag that does not
    /// fit goes to the last slot's): several frames, or several arenas.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// assert!(arena.try_alloc([0u8; 100 << 10]).is_err());
    /// let mut sum = arena.refusals();
    /// sum.add(&arena.refusals());
    /// assert_eq!((sum.count(), sum.bytes()), (2, 200 << 10));
    /// ```
    pub fn add(&mut self, other: &Refusals) {
        for (tag, count, bytes) in other.iter() {
            self.charge(tag, count, bytes);
        }
    }

    /// Adds `count` refusals of `bytes` in all to `tag`.
    fn charge(&mut self, tag: Tag, count: u64, bytes: usize) {
        let len = usize::from(self.len);
        let slot = match self.entries[..len].iter().position(|e| e.tag == tag) {
            Some(slot) => slot,
            None if len == MAX_TAGS => MAX_TAGS - 1,
            None => {
                self.entries[len] = RefusalEntry {
                    tag,
                    ..RefusalEntry::default()
                };
                self.len += 1;
                len
            }
        };
        let entry = &mut self.entries[slot];
        entry.count += count;
        entry.bytes = entry.bytes.saturating_add(bytes);
    }

    fn entry(&self, tag: Tag) -> Option<&RefusalEntry> {
        self.entries[..usize::from(self.len)]
            .iter()
            .find(|entry| entry.tag == tag)
    }
}

impl fmt::Debug for Refusals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(
                self.iter()
                    .map(|(tag, count, bytes)| (tag.name(), (count, bytes))),
            )
            .finish()
    }
}

/// The arena's own counts, per slot of its tag table (a refusal finds its
/// tag's slot without a search). `Cell`s: only the arena's thread writes.
#[derive(Default)]
pub(crate) struct RefusalCounts {
    counts: [Cell<u64>; MAX_TAGS],
    bytes: [Cell<usize>; MAX_TAGS],
    /// The last refused growth this frame: its block, and the arena's top
    /// then (a grant or a free since moves the top).
    last_growth: Cell<Option<RefusedGrowth>>,
}

/// A refused growth, to know a retry of it.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RefusedGrowth {
    /// The block's address and size.
    block: (usize, usize),
    /// The arena's top when it was refused.
    top: usize,
    /// The most bytes past the frame a growth of it was counted as needing.
    needed: usize,
}

impl FrameArena {
    /// The allocations this arena refused this frame so far (the frame's
    /// end starts them again at 0), and the bytes they asked for, per tag.
    /// A frame that was refused anything needed more than its
    /// [`peak`](Self::peak), which stops at the reservation. Had it kept
    /// every allocation it was refused (and asked for nothing more), it
    /// would have needed at most the peak plus [`Refusals::bytes`], and
    /// that much when they were refused at its peak, as a level load's
    /// are (see [`Refusals`] for what each refusal counts: a growth only
    /// what it needed past the frame, and once however often it is
    /// retried).
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::builder().reserve(1 << 20).build().unwrap();
    /// let mut particles: Vec<u32, _> = Vec::new_in(&arena);
    /// assert!(particles.try_reserve_exact(1 << 20).is_err()); // 4 MiB asked
    /// drop(particles);
    /// assert_eq!(arena.refusals().bytes(), 4 << 20);
    /// arena.reset();
    /// assert!(arena.refusals().is_empty());
    ///
    /// // A list on top of the arena, grown in place: the frame needed its
    /// // 512 KiB and 1 MiB more, however often it tries.
    /// let mut particles: Vec<u8, _> = Vec::with_capacity_in(512 << 10, &arena);
    /// for _ in 0..10 {
    ///     assert!(particles.try_reserve_exact(1536 << 10).is_err());
    /// }
    /// assert_eq!((arena.refusals().count(), arena.refusals().bytes()), (10, 1 << 20));
    /// assert_eq!(arena.peak() + arena.refusals().bytes(), 1536 << 10);
    /// ```
    pub fn refusals(&self) -> Refusals {
        let mut table = Refusals::default();
        if !self.refused.get() {
            return table;
        }
        // The tag table lists the tags in slot order.
        for (slot, (tag, _)) in self.tag_bytes().iter().enumerate() {
            let count = self.refusal_counts.counts[slot].get();
            if count > 0 {
                table.charge(tag, count, self.refusal_counts.bytes[slot].get());
            }
        }
        table
    }

    /// Counts a refusal of `layout`, charged to the current tag.
    #[cold]
    #[inline(never)]
    pub(crate) fn count_refusal(&self, layout: Layout) {
        if self.refused_by_ceiling() {
            return; // a decode's bound, not the arena's (see `ceiling`)
        }
        self.count_refused_bytes(layout.size());
    }

    /// Counts a refusal of `bytes`, charged to the current tag: a fresh
    /// allocation, or one whose size does not even make a `Layout`.
    #[cold]
    #[inline(never)]
    pub(crate) fn count_refused_bytes(&self, bytes: usize) {
        self.refused.set(true);
        let slot = usize::from(self.tags.current());
        let counts = &self.refusal_counts;
        counts.counts[slot].set(counts.counts[slot].get() + 1);
        counts.bytes[slot].set(counts.bytes[slot].get().saturating_add(bytes));
    }

    /// The layout of `[T; len]`, or a refusal counted (of the bytes it
    /// asked, saturating): a `try_*` method's every error is a refusal.
    #[inline]
    pub(crate) fn try_array_layout<T>(&self, len: usize) -> Result<Layout, AllocError> {
        Layout::array::<T>(len).map_err(|_| {
            self.count_refused_bytes(len.saturating_mul(size_of::<T>()));
            AllocError
        })
    }

    /// Counts a refused growth of the block at `ptr`, `old_size` bytes,
    /// that needed `needed` bytes past what the frame holds (the increase
    /// in place, the new block when it moves). A growth of the same block
    /// asked again with the top where it was (nothing granted or freed
    /// since: a game retrying it) adds only what it needs beyond the last.
    #[cold]
    #[inline(never)]
    pub(crate) fn count_refused_growth(&self, ptr: NonNull<u8>, old_size: usize, needed: usize) {
        if self.refused_by_ceiling() {
            return; // a decode's bound, not the arena's (see `ceiling`)
        }
        let (block, top) = ((ptr.addr().get(), old_size), self.top.get());
        let last = &self.refusal_counts.last_growth;
        let counted = match last.get() {
            Some(growth) if growth.block == block && growth.top == top => growth.needed,
            _ => 0,
        };
        last.set(Some(RefusedGrowth {
            block,
            top,
            needed: needed.max(counted),
        }));
        self.count_refused_bytes(needed.saturating_sub(counted));
    }

    /// The frame ended: every count starts again at 0.
    pub(crate) fn clear_refusal_counts(&self) {
        let counts = &self.refusal_counts;
        counts.counts.iter().for_each(|count| count.set(0));
        counts.bytes.iter().for_each(|bytes| bytes.set(0));
        counts.last_growth.set(None);
    }
}
