//! [`LastSizeVec`]: a frame vector that starts at the size the vectors
//! made at the same call site needed lately, so that a steady frame grows
//! nothing, as a `Vec` kept in a `Local` or a `Resource` grows nothing.
//!
//! Why: an arena buffer starts empty every frame and grows, 4, 8, 16, …,
//! and two buffers filled in turn cannot both grow in place at the top,
//! so they copy. A buffer kept across frames remembers its capacity. Here
//! the arena remembers it instead, per call site (the `Location` a
//! `#[track_caller]` function sees), following its retention windows: a
//! burst's size is kept while bursts recur and forgotten with its pages.

use core::fmt;
use core::ops::{Deref, DerefMut};
use core::panic::Location;

use alloc::vec::Vec;

use crate::arena::FrameArena;
use crate::frame_types::FrameVec;
use crate::freeze::Freeze;

/// A [`FrameVec`] made by [`FrameArena::vec_at_last_size`]: it
/// dereferences to the vector, and when it is dropped, leaked or turned
/// into the plain vector, tells the arena how much its call site needed.
///
/// What is recorded: the most it held (its length then, or before a
/// [`clear`](Self::clear) or [`truncate`](Self::truncate) of its own), or,
/// where the vector grew past the size it started at, its capacity (it
/// needed more than its start, and at least half that). So one list
/// cleared before each search, as a `Local<Vec<_>>` is, records the most
/// a search needed. Whatever else reaches the vector through its
/// dereference (`push`, `extend`, `resize`, `extend_from_slice`, a
/// `&mut Vec` passed on) counts by what the drop sees: the length it ends
/// at, or its capacity where it grew. So a vector cut through the `Vec`'s
/// other methods (`drain`, `retain`, `pop`, or `clear` on the `&mut Vec`
/// it dereferences to) records the length it ends at: record first
/// ([`into_vec`](Self::into_vec) at the largest), or use
/// [`FrameRows::writer_in`](crate::FrameRows::writer_in) for rows, whose
/// writer records the most it held.
///
/// # Example
///
/// ```
/// let mut arena = tickarena::FrameArena::new();
/// for frame in 0..3 {
///     let mut ids = arena.vec_at_last_size::<u32>(); // one call site
///     if frame > 0 {
///         assert!(ids.capacity() >= 1000, "starts at what the last frame needed");
///     }
///     ids.extend(0..1000);
///     drop(ids);
///     arena.reset();
/// }
/// ```
pub struct LastSizeVec<'a, T> {
    vec: FrameVec<'a, T>,
    /// The capacity it started at.
    start: usize,
    /// The most values it held before a [`clear`](Self::clear) or a
    /// [`truncate`](Self::truncate).
    most: usize,
    /// Where the arena keeps its call site's sizes.
    slot: usize,
}

impl FrameArena {
    /// An empty [`FrameVec`] with room for as many values as the vectors
    /// made at this call site needed lately: the most one needed in this
    /// retention window or the one before (see
    /// [`release_after`](crate::FrameArenaBuilder::release_after)). So a
    /// steady frame grows nothing, a burst's size stays while bursts
    /// recur, and it is forgotten (as the burst's pages go back) once
    /// they stop. The first frame starts empty.
    ///
    /// The call site is this call's place in the source, or the place of
    /// the call to the `#[track_caller]` function it is in: a helper that
    /// makes vectors for several callers should be `#[track_caller]`
    /// itself, so that each caller's vectors keep their own size.
    ///
    /// Costs one comparison where the call site is the one this arena
    /// looked up last (a search that makes its list at one line, call
    /// after call), else a scan of the arena's call sites in the order
    /// they first asked, comparing each one's line and column (a system
    /// with a handful of sites scans a handful; the first call at a site
    /// adds it, on the heap); then one bump, as
    /// `Vec::with_capacity_in`. The drop records without a search. For a
    /// list reused search after search, one `vec_at_last_size` per frame
    /// and [`clear`](LastSizeVec::clear) before each search costs what a
    /// `Local<Vec<_>>` does. The room is handed out
    /// as any allocation is: `used`, the frame's peak and a
    /// [`frame_budget`](crate::FrameArenaBuilder::frame_budget) count it,
    /// so after a burst the frames of that window and the next hold the
    /// burst's room (pages the retention keeps anyway), and a budget set
    /// below bursts sees them over it. For a buffer whose bursts should not
    /// count against later frames, keep it the arena's newest allocation
    /// (it grows in place, without a copy) and make it with `Vec::new_in`.
    ///
    /// # Panics
    ///
    /// If the arena cannot hold the remembered size (the message says
    /// which arena and what to raise).
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::new();
    /// let mut capacities = Vec::new();
    /// for frame in 0..3 {
    ///     let mut ids = arena.vec_at_last_size::<u64>();
    ///     capacities.push(ids.capacity());
    ///     ids.extend(0..500);
    ///     let ids: &[u64] = ids.leak(); // frame data; its size recorded
    ///     assert_eq!(ids.len(), 500);
    ///     arena.reset();
    /// }
    /// // Empty the first frame; room for 500 from the start after it.
    /// assert_eq!(capacities[0], 0);
    /// assert!(capacities[1..].iter().all(|&room| room >= 500));
    /// // Another call site has its own size.
    /// assert_eq!(arena.vec_at_last_size::<u64>().capacity(), 0);
    /// ```
    #[inline]
    #[track_caller]
    pub fn vec_at_last_size<T>(&self) -> LastSizeVec<'_, T> {
        let slot = self.last_size_slot((Location::caller(), 0));
        let size = self.last_size_at(slot);
        let vec = match self.try_vec_with_room(size) {
            Some(vec) => vec,
            None => self.vec_with_room_or_panic(size),
        };
        LastSizeVec {
            start: vec.capacity(),
            most: 0,
            vec,
            slot,
        }
    }

    /// The room the arena could not give at once: asked again by the path
    /// that commits, counts a refusal and panics with the arena's message.
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn vec_with_room_or_panic<T>(&self, size: usize) -> FrameVec<'_, T> {
        let mut vec = Vec::new_in(self);
        crate::rows::reserve(&mut vec, size);
        vec
    }
}

impl<'a, T> LastSizeVec<'a, T> {
    /// Tells the arena what this vector's call site needed: its capacity
    /// where it grew past its start, else the most it held.
    #[inline]
    fn record(&self) {
        let needed = if self.vec.capacity() > self.start {
            self.vec.capacity()
        } else {
            self.vec.len().max(self.most)
        };
        self.vec.allocator().record_size_at(self.slot, needed);
    }

    /// Empties the vector, as `Vec::clear`, remembering how many values
    /// it held: a list reused for one search after another (cleared
    /// before each, as a `Local<Vec<_>>` is) records the most one search
    /// needed, not what the last one left.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::new();
    /// let mut rooms = Vec::new();
    /// for _frame in 0..2 {
    ///     let mut near = arena.vec_at_last_size::<u32>();
    ///     rooms.push(near.capacity());
    ///     for search in [40, 300, 2] {
    ///         near.clear();
    ///         near.extend(0..search);
    ///     }
    ///     drop(near); // records 300, the most a search needed
    ///     arena.reset();
    /// }
    /// assert_eq!(rooms[0], 0);
    /// assert!(rooms[1] >= 300);
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Shortens the vector to `len` values, as `Vec::truncate`,
    /// remembering how many it held (see [`clear`](Self::clear)).
    ///
    /// # Example
    ///
    /// ```
    /// let mut arena = tickarena::FrameArena::new();
    /// let mut rooms = Vec::new();
    /// for _frame in 0..2 {
    ///     let mut list = arena.vec_at_last_size::<u8>();
    ///     rooms.push(list.capacity());
    ///     list.extend([1, 2, 3, 4]);
    ///     list.truncate(1);
    ///     assert_eq!(*list, [1]);
    ///     drop(list); // records 4, the most it held
    ///     arena.reset();
    /// }
    /// assert_eq!(rooms[0], 0);
    /// assert!(rooms[1] >= 4);
    /// ```
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        if self.vec.len() > self.most {
            self.most = self.vec.len();
        }
        self.vec.truncate(len);
    }

    /// The plain vector, its size recorded.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut list = arena.vec_at_last_size();
    /// list.push('a');
    /// let list: tickarena::FrameVec<'_, char> = list.into_vec();
    /// assert_eq!(list, ['a']);
    /// ```
    pub fn into_vec(mut self) -> FrameVec<'a, T> {
        self.record();
        let arena = *self.vec.allocator();
        // The drop that follows records an empty vector: nothing, as what
        // is kept is the most recorded.
        core::mem::replace(&mut self.vec, Vec::new_in(arena))
    }

    /// The values, for the rest of the frame (never dropped, as with the
    /// arena's `alloc*`), the size recorded.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut list = arena.vec_at_last_size();
    /// list.extend([3, 1, 2]);
    /// let list: &mut [i32] = list.leak();
    /// list.sort_unstable();
    /// assert_eq!(list, [1, 2, 3]);
    /// ```
    pub fn leak(self) -> &'a mut [T] {
        self.into_vec().leak()
    }
}

impl<'a, T> Freeze<'a, T> for LastSizeVec<'a, T> {
    /// The values as a slice of the frame, as frame data is frozen: the
    /// size recorded first (the call site's next vector starts at it),
    /// then the room not used given back where the vector is the arena's
    /// newest allocation ([`leak`](LastSizeVec::leak) keeps it all).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, Freeze};
    ///
    /// let mut arena = FrameArena::new();
    /// for _frame in 0..2 {
    ///     let mut hits = arena.vec_at_last_size();
    ///     hits.extend([3u64, 7]);
    ///     let hits: &mut [u64] = hits.freeze();
    ///     assert_eq!(hits, [3, 7]);
    ///     assert_eq!(arena.used(), 16);
    ///     arena.reset();
    /// }
    /// ```
    fn freeze(self) -> &'a mut [T] {
        self.into_vec().freeze()
    }
}

impl<'a, T> Deref for LastSizeVec<'a, T> {
    type Target = FrameVec<'a, T>;

    #[inline]
    fn deref(&self) -> &FrameVec<'a, T> {
        &self.vec
    }
}

impl<T> DerefMut for LastSizeVec<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.vec
    }
}

impl<T> Drop for LastSizeVec<'_, T> {
    fn drop(&mut self) {
        self.record();
    }
}

impl<T: fmt::Debug> fmt::Debug for LastSizeVec<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.vec.fmt(f)
    }
}
