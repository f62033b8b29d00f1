//! Everyday names for the collections of one frame: what everyone would
//! otherwise write as `Vec<T, &'f FrameArena>` in every signature.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::arena::FrameArena;
use crate::string::String;

/// A `Vec` in a frame arena: `Vec<T, &'f FrameArena>`.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameVec};
///
/// fn visible<'f>(arena: &'f FrameArena, ids: &[u32]) -> FrameVec<'f, u32> {
///     let mut out = Vec::with_capacity_in(ids.len(), arena);
///     out.extend(ids.iter().filter(|id| **id % 2 == 0));
///     out
/// }
/// let arena = FrameArena::new();
/// assert_eq!(visible(&arena, &[1, 2, 3, 4]), [2, 4]);
/// ```
pub type FrameVec<'f, T> = Vec<T, &'f FrameArena>;

/// A `Box` in a frame arena: `Box<T, &'f FrameArena>` (also for `dyn`
/// values and slices).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameBox};
///
/// let arena = FrameArena::new();
/// let shout: FrameBox<'_, dyn Fn(&str) -> usize> = Box::new_in(|s: &str| s.len() * 2, &arena);
/// assert_eq!(shout("hey"), 6);
/// ```
pub type FrameBox<'f, T> = Box<T, &'f FrameArena>;

/// A [`String`](crate::String) in a frame arena, as [`format_in!`](crate::format_in)
/// makes it: `tickarena::String<&'f FrameArena>`. Name it so rather than
/// importing `tickarena::String`, which would hide std's `String` (whose
/// allocator is the global one).
///
/// # Example
///
/// ```
/// use tickarena::{format_in, FrameArena, FrameString};
///
/// fn label<'f>(arena: &'f FrameArena, id: u32) -> FrameString<'f> {
///     format_in!(arena, "entity #{id}")
/// }
/// let arena = FrameArena::new();
/// let owned: String = label(&arena, 7).as_str().to_owned(); // std's String is untouched
/// assert_eq!(owned, "entity #7");
/// ```
pub type FrameString<'f> = String<&'f FrameArena>;

/// A hash map in a frame arena, for per-frame maps (a spatial grid, an
/// index of this frame's entities): hashbrown's `HashMap` (the map std's is
/// built on; std's takes no allocator on stable Rust), with its fast
/// default hasher (foldhash) unless `S` says otherwise. Its whole API works
/// in the arena, `entry(..).or_default()` included for values that have a
/// `Default`. An arena `Vec` has none (it needs its arena): a map of
/// lists fills its entries with `or_insert_with(|| Vec::new_in(arena))`
/// (`or_default()` there is rustc's E0599, "the method `or_default`
/// exists ... but its trait bounds were not satisfied"). Cargo feature
/// `hashbrown` (default).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameHashMap};
///
/// let arena = FrameArena::new();
/// let mut grid: FrameHashMap<'_, (i32, i32), u32> = FrameHashMap::new_in(&arena);
/// *grid.entry((0, 1)).or_default() += 1;
/// *grid.entry((0, 1)).or_insert(0) += 1;
/// assert_eq!(grid[&(0, 1)], 2);
/// assert!(arena.used() > 0, "the table is in the arena");
/// ```
///
/// A map of lists, each list in the arena too:
///
/// ```
/// use tickarena::{FrameArena, FrameHashMap, FrameVec};
///
/// let arena = FrameArena::new();
/// let mut by_cell: FrameHashMap<'_, (i32, i32), FrameVec<'_, u32>> = FrameHashMap::new_in(&arena);
/// for (unit, cell) in [(1, (0, 0)), (2, (0, 0)), (3, (1, 0))] {
///     by_cell.entry(cell).or_insert_with(|| Vec::new_in(&arena)).push(unit);
/// }
/// assert_eq!(by_cell[&(0, 0)], [1, 2]);
/// ```
///
/// Another hasher, such as Bevy's `FixedHasher` or std's `RandomState`:
///
/// ```
/// use std::hash::RandomState;
/// use tickarena::{FrameArena, FrameHashMap};
///
/// let arena = FrameArena::new();
/// let mut seen: FrameHashMap<'_, &str, u32, RandomState> =
///     FrameHashMap::with_hasher_in(RandomState::new(), &arena);
/// for word in "a frame, a map, a frame".split(", ") {
///     *seen.entry(word).or_default() += 1;
/// }
/// assert_eq!(seen["a frame"], 2);
/// ```
///
/// The alias names hashbrown 0.17's map; a program on another hashbrown
/// version, or on allocator-api2 collections, uses the `allocator-api2`
/// feature's `Allocator` impl with its own types.
#[cfg(feature = "hashbrown")]
pub type FrameHashMap<'f, K, V, S = hashbrown::DefaultHashBuilder> =
    hashbrown::HashMap<K, V, S, &'f FrameArena>;
