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

/// A [`FrameVec`] made by [`FrameArena::vec_at_last_size`]: it
/// dereferences to the vector, and when it is dropped, leaked or turned
/// into the plain vector, tells the arena how much its call site needed.
///
/// What is recorded: the length then, or, where the vector grew past the
/// size it started at, its capacity (it needed more than its start, and at
/// least half that). A vector cleared or cut before its end records the
/// length it ends at: record first ([`into_vec`](Self::into_vec) at the
/// largest), or use [`FrameRows::writer_in`](crate::FrameRows::writer_in)
/// for rows, whose writer records the most it held.
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
    site: &'static Location<'static>,
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
    /// Costs a look-up in a short list of the arena's call sites (the
    /// first call at a site adds it, on the heap). The room is handed out
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
        let site = Location::caller();
        let mut vec = Vec::new_in(self);
        let size = self.last_size((site, 0));
        if size > 0 {
            crate::rows::reserve(&mut vec, size);
        }
        LastSizeVec {
            start: vec.capacity(),
            vec,
            site,
        }
    }
}

impl<'a, T> LastSizeVec<'a, T> {
    /// Tells the arena what this vector's call site needed.
    #[inline]
    fn record(&self) {
        let needed = if self.vec.capacity() > self.start {
            self.vec.capacity()
        } else {
            self.vec.len()
        };
        self.vec.allocator().record_size((self.site, 0), needed);
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
