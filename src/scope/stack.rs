//! Each thread's scope arenas, one per depth: a table of segments (segment
//! `k` holds `8 << k` slots, as a `SegmentedList`'s does), each slot an
//! arena made the first time its depth is reached, and the depth now.
//!
//! Why not a `SegmentedList<FrameArena>`: making a segment or an arena may
//! call the global allocator, and a `#[global_allocator]` may itself open a
//! scope (a tracking or profiling allocator, for its temporaries). Pushing
//! to a list would hold `&mut` to it across that call, and the scope opened
//! inside would make a second one. Here a scope claims its depth first, so
//! whatever opens inside the allocation takes deeper slots, and no
//! reference to the table or to another depth's slot is held across an
//! allocation: segments are published through `Cell`s, slots are written
//! through their own `UnsafeCell`s.

use core::cell::{Cell, UnsafeCell};
use core::ptr::{self, NonNull};

use crate::arena::{ArenaError, FrameArena};
use crate::segmented::index::{
    MAX_SEGMENTS, SLOTS, segment_len, segment_of, segment_start, slot_of_index, slot_of_segment,
};

/// One depth's arena, made when the depth is first reached.
type Slot = UnsafeCell<Option<FrameArena>>;

/// A thread's scope arenas and its depth.
pub(super) struct Stack {
    /// Segment `k`'s first slot minus `segment_start(k)` (so that depth
    /// `d`'s slot is this plus `d`), at `slot_of_segment(k)`; null before a
    /// scope reaches it. Indexed by `slot_of_index(depth)`, below `SLOTS`:
    /// no bounds check. Slots never move, so a pointer to an arena stays
    /// valid for the thread.
    biased: [Cell<*mut Slot>; SLOTS],
    /// Scopes open on this thread.
    depth: Cell<usize>,
}

impl Stack {
    pub(super) const fn new() -> Stack {
        Stack {
            biased: [const { Cell::new(ptr::null_mut()) }; SLOTS],
            depth: Cell::new(0),
        }
    }

    /// Opens a scope: claims the next depth and returns it with its arena,
    /// made (by `make`) if this depth was never reached. On an error the
    /// depth is given back.
    #[inline(always)]
    pub(super) fn open(
        &self,
        make: fn() -> Result<FrameArena, ArenaError>,
    ) -> Result<(usize, NonNull<FrameArena>), ArenaError> {
        let depth = self.depth.get();
        // Claimed before anything can allocate: a scope opened by the
        // global allocator while this one makes its slot is a deeper one.
        self.depth.set(depth + 1);
        match self.made_arena(depth) {
            Some(arena) => Ok((depth, arena)),
            None => match self.make_arena(depth, make) {
                Ok(arena) => Ok((depth, arena)),
                Err(error) => {
                    self.depth.set(depth);
                    Err(error)
                }
            },
        }
    }

    /// Closes the scope opened at `depth`, which must be the innermost.
    ///
    /// # Errors
    ///
    /// The depth now, when another scope opened after this one is still
    /// open (scopes closed out of order).
    #[inline(always)]
    pub(super) fn close(&self, depth: usize) -> Result<(), usize> {
        let now = self.depth.get();
        if now != depth + 1 {
            return Err(now);
        }
        self.depth.set(depth);
        Ok(())
    }

    /// The slot of `depth`, if its segment was made.
    #[inline(always)]
    fn slot(&self, depth: usize) -> Option<NonNull<Slot>> {
        let biased = self.biased[slot_of_index(depth)].get();
        // In bounds when not null: depth's segment holds it (the segment of
        // `depth` is the one at its slot).
        NonNull::new(biased).map(|biased| NonNull::new(biased.as_ptr().wrapping_add(depth)))?
    }

    /// The first slot of segment `k`, if it was made.
    fn first_slot(&self, k: usize) -> Option<*mut Slot> {
        let biased = self.biased[slot_of_segment(k)].get();
        (!biased.is_null()).then(|| biased.wrapping_add(segment_start(k)))
    }

    /// The arena of `depth`, if it was made.
    #[inline(always)]
    fn made_arena(&self, depth: usize) -> Option<NonNull<FrameArena>> {
        let slot = self.slot(depth)?;
        // SAFETY: the slot is valid for the thread (segments are freed only
        // when it ends), and no reference to it is alive: only the scope
        // that claimed `depth` touches it, and that is the caller's.
        unsafe { (*slot.as_ref().get()).as_mut().map(NonNull::from) }
    }

    /// A depth reached for the first time on this thread: its segment if
    /// need be, and its arena.
    #[cold]
    #[inline(never)]
    fn make_arena(
        &self,
        depth: usize,
        make: fn() -> Result<FrameArena, ArenaError>,
    ) -> Result<NonNull<FrameArena>, ArenaError> {
        let slot = match self.slot(depth) {
            Some(slot) => slot,
            None => self.make_segment(segment_of(depth), depth),
        };
        // May allocate, and so open scopes: deeper ones, with slots of
        // their own.
        let arena = make()?;
        // SAFETY: as in `made_arena`; the slot was empty (the caller found
        // no arena), and nothing that ran since could fill it.
        let arena = unsafe { (*slot.as_ref().get()).insert(arena) };
        Ok(NonNull::from(arena))
    }

    /// Makes segment `k` and returns `depth`'s slot in it.
    #[cold]
    #[inline(never)]
    fn make_segment(&self, k: usize, depth: usize) -> NonNull<Slot> {
        let slots: Box<[Slot]> = (0..segment_len(k)).map(|_| UnsafeCell::new(None)).collect();
        let made = Box::into_raw(slots).cast::<Slot>();
        // The allocation above may have opened deeper scopes that made this
        // segment already: theirs stays (their arenas are in it), ours goes.
        if self.first_slot(k).is_none() {
            self.biased[slot_of_segment(k)].set(made.wrapping_sub(segment_start(k)));
        } else {
            // SAFETY: `made` is the box made above, published nowhere.
            drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(made, segment_len(k))) });
        }
        self.slot(depth).expect("segment made above")
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        for k in 0..MAX_SEGMENTS {
            if let Some(first) = self.first_slot(k) {
                // SAFETY: made by `make_segment` as a box of
                // `segment_len(k)` slots; the thread is ending, so no scope
                // is open and no pointer into it is used again.
                drop(unsafe {
                    Box::from_raw(ptr::slice_from_raw_parts_mut(first, segment_len(k)))
                });
            }
        }
    }
}
