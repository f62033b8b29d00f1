//! [`Refusals`]: the allocations an arena refused this frame, and the
//! bytes they asked for, per tag: what a frame's peak leaves out when the
//! arena was too small (the peak stops at the reservation; the refused
//! requests say how far past it the frame wanted to go).
//!
//! Counted where every refusal passes, the arena's cold path (a `try_*`
//! method's error, a collection's growth refused, a decode that ran out
//! of arena, an `alloc*` about to panic), never on the allocation fast
//! path; kept per slot of the arena's tag table, and given back as a
//! table of tags.

use core::alloc::Layout;
use core::cell::Cell;
use core::fmt;

use super::FrameArena;
use super::tags::{MAX_TAGS, Tag};

/// One frame's refused allocations: how many, the bytes they asked for,
/// and both per [`Tag`] (the tag current when each was refused). From
/// [`FrameArena::refusals`], in each
/// [`FrameRecord`](crate::frame_loop::FrameRecord), and summed over a
/// history by its [`SizingReport`](crate::frame_loop::SizingReport).
///
/// A refused request's size is what it asked for, whole: a collection's
/// refused growth counts its new capacity, not only the increase.
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
}

impl FrameArena {
    /// The allocations this arena refused this frame so far (the frame's
    /// end starts them again at 0), and the bytes they asked for, per tag.
    /// A frame that was refused anything needed more than its
    /// [`peak`](Self::peak), which stops at the reservation: at least
    /// the peak plus [`Refusals::bytes`].
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
        self.refused.set(true);
        let slot = usize::from(self.tags.current());
        let counts = &self.refusal_counts;
        counts.counts[slot].set(counts.counts[slot].get() + 1);
        counts.bytes[slot].set(counts.bytes[slot].get().saturating_add(layout.size()));
    }

    /// The frame ended: every count starts again at 0.
    pub(crate) fn clear_refusal_counts(&self) {
        let counts = &self.refusal_counts;
        counts.counts.iter().for_each(|count| count.set(0));
        counts.bytes.iter().for_each(|bytes| bytes.set(0));
    }
}
