//! [`Freeze`]: a frame `Vec` turned into a slice of the frame, giving back
//! the room it did not use when it is the arena's newest allocation.

use crate::arena::FrameArena;

/// Freezes a `FrameVec` into a `&'f mut [T]` of the frame (which, unlike
/// the `Vec`, holds no arena and is `Send`/`Sync` as `T` is: frame data,
/// a slice handed to workers). The room it did not use goes back to the
/// arena when the vector is its newest allocation (a list with room for
/// 10 and 2 used then holds 2), else it stays unused until the frame ends.
/// `Vec::leak` keeps the whole capacity.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, Freeze};
///
/// let arena = FrameArena::new();
/// let mut hits = Vec::with_capacity_in(10, &arena);
/// hits.extend([3u64, 7]);
/// let hits: &[u64] = hits.freeze();
/// assert_eq!(hits, [3, 7]);
/// assert_eq!(arena.used(), 16); // not 80
/// ```
pub trait Freeze<'f, T> {
    /// The elements, as a slice of the frame, the unused room given back
    /// where it can be.
    fn freeze(self) -> &'f mut [T];
}

impl<'f, T> Freeze<'f, T> for alloc::vec::Vec<T, &'f FrameArena> {
    #[inline]
    fn freeze(mut self) -> &'f mut [T] {
        // The arena shrinks its newest allocation in place (and keeps any
        // other where it is): no copy either way.
        self.shrink_to_fit();
        self.leak()
    }
}
