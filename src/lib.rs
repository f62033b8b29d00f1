//! Per-frame memory for game and event loops.
//!
//! A game loop builds a lot of short-lived data every tick: input actions,
//! formatted strings, scratch vectors, per-frame maps. With the global
//! allocator each of those is a `malloc` and a `free`. tickarena gives every
//! frame a [`FrameArena`] instead: allocation is a pointer bump of a few
//! instructions, and the whole frame is dropped at once by
//! [`FrameArena::reclaim`], which the borrow checker proves safe: nothing
//! allocated in the frame can be used after it.
//!
//! The arena sits on reserved virtual memory (16 GiB of address space by
//! default, which costs nothing until used): pages are committed as a frame
//! grows and stay committed between frames, so a steady frame makes no
//! system call; a burst's pages above a retained size stay while bursts
//! recur and are given back once they stop.
//!
//! `&FrameArena` implements [`Allocator`](core::alloc::Allocator), stable
//! since Rust 1.100, so `Vec`, `Box` and every other collection built on
//! that trait work in it (and, with the `allocator-api2` feature, those
//! built on `allocator_api2`'s trait, such as hashbrown's map).
//!
//! # Example
//!
//! ```
//! use tickarena::FrameArena;
//!
//! let mut arena = FrameArena::new();
//! for tick in 0..60u64 {
//!     // Everything transient this tick goes in the arena.
//!     let mut visible = Vec::new_in(&arena);
//!     visible.extend((0..100u64).filter(|id| (id + tick) % 3 == 0));
//!     let boxed = Box::new_in(tick * 2, &arena);
//!     assert_eq!(*boxed, tick * 2);
//!     assert!(visible.len() >= 33);
//!     // End the frame: `visible` and `boxed` must be gone by now, or this
//!     // line does not compile.
//!     drop((visible, boxed));
//!     arena = arena.reclaim();
//! }
//! assert_eq!(arena.stats().frames, 60);
//! assert!(arena.stats().high_water > 0);
//! ```
//!
//! # What is in the crate
//!
//! * [`FrameArena`]: the bump arena over reserved virtual memory, with
//!   `alloc*` helpers and the `Allocator` impl; values too large for the
//!   stack go in with [`FrameArena::alloc_zeroed`] (for [`Zeroable`] types)
//!   or [`FrameArena::alloc_uninit`], never built outside the arena.
//! * [`String`], [`format_in!`], [`try_format_in!`], [`vec_in!`]: text and
//!   vectors in any allocator, cheap in the arena.
//! * [`SegmentedList`]: a growable list whose elements never move, for
//!   entities, in any allocator.
//! * [`scoped`]: a scope inside the frame, whose temporary memory goes back
//!   when the closure returns, while the frame's data stays usable in it.
//! * [`ThreadArenas`]: one arena per thread for frames that run on several
//!   threads (rayon, scoped threads, a job system), reset together; its
//!   [`Collector`] gathers what parallel jobs push, in their own arenas.
//! * [`frame_loop`]: the game loop that turns input events into actions in
//!   the frame arena and reclaims it every tick; a server's packets, received
//!   and decoded into the tick's arena, are its events through an
//!   [`EventSource`](frame_loop::EventSource).
//! * [`FrameVec`], [`FrameBox`], [`FrameString`], [`FrameHashMap`]: the
//!   everyday names of a frame's collections.
//! * [`guide`]: the guides, each with tested examples:
//!   [`frame_loop`](guide::frame_loop), [`scopes`](guide::scopes),
//!   [`threads`](guide::threads), [`in_flight`](guide::in_flight),
//!   [`bevy`](guide::bevy), `rollback` (feature `ggrs`), `serde` (feature
//!   `serde`),
//!   [`platforms`](guide::platforms), and
//!   [`errors`](guide::errors): the compiler errors and messages a newcomer
//!   meets first, and their fixes.
//! * `winit` (cargo feature `winit`): runs the game loop in a winit window,
//!   drawing each frame while its arena is alive.
//! * `rollback` (cargo feature `ggrs`): the game loop driven by a ggrs
//!   rollback session, re-simulated ticks in the frame arena, snapshots
//!   in recycled slots (the `rollback` guide).
//! * `serde` (cargo feature `serde`): packets decoded into the tick's arena
//!   with every string and list inside them (`DeserializeIn`, `InArena`),
//!   `Serialize` for the arena's collections (the `serde` guide, and the
//!   `server` example: a UDP game server decoding every tick in the arena).
//!
//! # Platforms and cargo features
//!
//! * Linux, the BSDs and macOS reserve with `mmap` and commit with
//!   `mprotect` (through `rustix`); Windows reserves and commits with
//!   `VirtualAlloc` (through `windows-sys`). Both give a burst's pages back
//!   on reclaim. On wasm32 an arena is one block of linear memory (16 MiB
//!   unless [`FrameArenaBuilder::reserve`] says otherwise), since linear
//!   memory never shrinks.
//! * [`FrameArena::from_buffer`] puts an arena over memory the program
//!   already has, on any target, without calling the OS.
//! * `std` (default): the OS backends and the [`frame_loop`]. Without it
//!   the crate is `no_std` + `alloc`: arenas (over a buffer, or one block
//!   from the global allocator), [`String`], the macros, [`SegmentedList`].
//! * `winit`: the window adapter (implies `std`).
//! * `ggrs`: rollback netcode on ggrs 0.13, `tickarena::rollback`
//!   (implies `std`).
//! * `serde`: `tickarena::serde`, serde in the frame arena (works without
//!   `std` too).
//! * `derive`: the derives, re-exported at the root:
//!   `#[derive(FrameData)]` (frame data with its covariance checked),
//!   `#[derive(RollbackState)]` (a `Clone` whose `clone_from` reuses every
//!   field's capacity) and, with `serde`, `#[derive(DeserializeIn)]`.
//! * `chart`: `FrameHistory::chart`, a history's bytes per frame by tag as
//!   an SVG chart (plotters' SVG backend alone; implies `std`).
//! * `hashbrown` (default): [`FrameHashMap`], hashbrown's map in a frame
//!   arena (std's `HashMap` takes no allocator on stable Rust).
//! * `allocator-api2`: `&FrameArena` also implements
//!   `allocator_api2::alloc::Allocator` (0.2), the trait hashbrown and other
//!   stable crates take allocators through. On Rust 1.100 that trait is
//!   core's: the feature turns on allocator-api2's `nightly` mode, in which
//!   the crate re-exports core's `Allocator` (and std's `Vec`, `Box`)
//!   instead of copies, so the arena's one impl serves both. This makes the
//!   feature additive: a graph where another crate (hashbrown's `nightly`,
//!   bump-scope's) turns that mode on builds as well. A crate that
//!   implements both traits for one type itself, assuming they differ,
//!   conflicts with that mode whoever turns it on.
//! * `nightly`: see Toolchains below.
//! * `tracy`: every reset of a [`FrameArena`] or [`ThreadArenas`] plots the
//!   frame's bytes, high water and committed bytes to Tracy (named after
//!   [`FrameArenaBuilder::name`]), and the frame loop its tick's bytes,
//!   while a Tracy client runs; nothing at all when off.
//!
//! # Toolchains
//!
//! Rust 1.100 or newer, stable or nightly: the crate uses no `#![feature]`
//! by default, and neither does code that uses it (`Vec::new_in`,
//! `Box::new_in` and the `Allocator` trait are stable since 1.100). On
//! stable, std's `Vec` methods bounded by the unstable `AllocatorNightly`
//! (`drain`, `splice`, `extract_if`) and std's other allocator-aware
//! collections (`HashMap`, `VecDeque`, `BTreeMap`, `Rc`) are not yet
//! available for any allocator but the global one; [`guide::errors`] says
//! what to write instead, and [`FrameHashMap`] is hashbrown's map.
//!
//! The `nightly` cargo feature (nightly toolchains only) adds what only
//! nightly can give: a collection refused by an arena says which arena ran
//! out before std aborts (std's unstable alloc-error hook);
//! `TryReserveError`s carry the refused layout exactly; and std's
//! `VecDeque`, `BTreeMap` and `HashMap` in the arena can be a game's
//! [`Scratch`](frame_loop::Game::Scratch) ([`FromArena`](frame_loop::FromArena)).
//! Nothing else changes with it.

#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(
    feature = "nightly",
    feature(allocator_ext, btreemap_alloc, try_reserve_kind, alloc_error_hook)
)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

extern crate alloc;

mod arena;
mod asan;
#[cfg(feature = "std")]
pub mod collector;
#[cfg(feature = "std")]
pub mod frame_loop;
mod frame_types;
mod freeze;
// The upload arena; its wgpu-free part (the bump pointer over chunks, the
// completion signal) is also built for the unit tests, which Miri runs.
#[cfg(any(feature = "wgpu", all(test, feature = "std")))]
pub mod gpu;
#[cfg(feature = "std")]
pub mod guide;
#[cfg(feature = "std")]
pub mod in_flight;
mod last_size_vec;
mod published;
mod region;
mod reserve_error;
#[cfg(feature = "ggrs")]
pub mod rollback;
mod rows;
mod rows_writer;
#[cfg(feature = "std")]
mod scope;
mod sealed;
mod segmented;
#[cfg(feature = "serde")]
pub mod serde;
mod string;
#[cfg(feature = "std")]
mod threads;
#[cfg(feature = "tracy")]
mod tracy;
mod vec_in;
#[cfg(feature = "winit")]
pub mod winit;

pub use arena::{
    ArenaError, ArenaStats, Breach, BudgetPolicy, FrameArena, FrameArenaBuilder, MAX_TAGS,
    Refusals, Tag, TagBytes, TagGuard, Zeroable,
};
#[cfg(feature = "std")]
pub use collector::Collector;
#[cfg(feature = "hashbrown")]
pub use frame_types::FrameHashMap;
pub use frame_types::{FrameBox, FrameString, FrameVec};
pub use freeze::Freeze;
pub use last_size_vec::LastSizeVec;
pub use rows::{FrameRows, RowsBuilder};
pub use rows_writer::{OpenRow, RankedRow, RowsWriter};
#[cfg(feature = "std")]
pub use scope::{SCOPE_RELEASE_AFTER, SCOPE_RESERVE, SCOPE_RETAIN, scoped, try_scoped};
pub use sealed::{CovariantFrameData, FrameData, Sealed};
pub use segmented::SegmentedList;
pub use string::{FromUtf8Error, FromUtf16Error, String};
#[cfg(feature = "std")]
pub use threads::ThreadArenas;
/// `#[derive(DeserializeIn)]` (features `derive` and `serde`): a struct or
/// an enum deserialized with its nested data in a frame arena, in serde's
/// own encoding (so it can derive serde's `Serialize` beside it), and
/// read as serde's own derive reads it: a field missing from a map is
/// `None` if it is an `Option`, its `Default` with `#[serde(default)]`, and
/// an error otherwise; `r#type` is the key `"type"`. serde's attributes
/// (`rename_all`, `alias`, `deny_unknown_fields`, `default`,
/// `deserialize_with`, `other`, ..) mean what they mean to serde's derive;
/// the table in [`guide::serde`] says which are followed, what each costs,
/// and why the others are refused. Through a re-export,
/// `#[tickarena(crate = "..")]` names the path (see
/// [`FrameData`](derive@FrameData)). See [`serde::DeserializeIn`] and
/// [`guide::serde`].
///
/// # Example
///
/// ```
/// use serde::Serialize;
/// use serde::de::DeserializeSeed;
/// use tickarena::serde::InArena;
/// use tickarena::{DeserializeIn, FrameArena, FrameVec};
///
/// #[derive(Serialize, DeserializeIn, Debug, PartialEq)]
/// struct Chat<'a> {
///     from: &'a str,
///     #[serde(with = "tickarena::serde::vec")]
///     words: FrameVec<'a, &'a str>,
/// }
/// let arena = FrameArena::new();
/// let sent = Chat { from: "ann", words: tickarena::vec_in![&arena; "gg", "wp"] };
/// let bytes = postcard::to_allocvec(&sent).unwrap();
/// let mut input = postcard::Deserializer::from_bytes(&bytes);
/// let got: Chat<'_> = InArena::new(&arena).deserialize(&mut input).unwrap();
/// assert_eq!(got, sent);
/// ```
#[cfg(all(feature = "derive", feature = "serde"))]
pub use tickarena_derive::DeserializeIn;
/// `#[derive(FrameData)]` (feature `derive`): a kind of frame data from
/// the type of the data itself. On a type with one lifetime, the frame
/// arena's (`HoodOf<'f>`), it implements [`FrameData`](trait@FrameData)
/// for the type at `'static` (`type Of<'f> = HoodOf<'f>`) and
/// [`CovariantFrameData`], whose `{ data }` body compiles only if the type
/// is covariant in that lifetime (frozen data is: slices, `str`s,
/// structs of those). Name the kind with an alias: `type Hood =
/// HoodOf<'static>;`. A type with no lifetime works too; data that is not
/// covariant (a `Cell`, a `&mut` in it) takes
/// `#[frame_data(not_covariant)]` and is read through closures.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameData};
///
/// /// Each cell's units, and their labels: frozen arena data.
/// #[derive(FrameData)]
/// struct HoodOf<'f> {
///     cells: &'f [&'f [u32]],
///     labels: &'f [&'f str],
/// }
/// type Hood = HoodOf<'static>; // the kind, for `seal`, `FrameWriter<Hood>`, ..
///
/// let sealed = FrameArena::new().seal::<Hood>(|arena| {
///     let cells = [&*arena.alloc_slice_copy(&[1, 2]), &*arena.alloc_slice_copy(&[3])];
///     HoodOf { cells: arena.alloc_slice_copy(&cells), labels: arena.alloc_slice_copy(&["a", "b"]) }
/// });
/// let hood: &HoodOf<'_> = sealed.get(); // covariant: no closure needed
/// assert_eq!((hood.cells[0], hood.labels[1]), (&[1, 2][..], "b"));
/// ```
///
/// # Through a re-export
///
/// The derives' code reaches tickarena at `::tickarena`. A crate that
/// reaches it through another crate's re-export names the path with
/// `#[tickarena(crate = "..")]`, which `FrameData`, `DeserializeIn` and
/// `RollbackState` all take (serde's `#[serde(crate = "..")]` is the
/// model). A crate whose `Cargo.toml` depends on tickarena-bevy and not on
/// tickarena needs nothing: the derives find `tickarena_bevy::tickarena`.
///
/// ```
/// mod engine {
///     pub use tickarena::*; // another crate's re-export
/// }
/// #[derive(tickarena::FrameData)]
/// #[tickarena(crate = "engine")]
/// struct MarksOf<'f>(&'f [u32]);
///
/// let sealed = engine::FrameArena::new()
///     .seal::<MarksOf<'static>>(|arena| MarksOf(arena.alloc_slice_copy(&[4, 2])));
/// assert_eq!(sealed.get().0, [4, 2]);
/// ```
#[cfg(feature = "derive")]
pub use tickarena_derive::FrameData;
/// `#[derive(RollbackState)]` (feature `derive`): `Clone` for a rollback
/// state, with a `clone_from` that calls `clone_from` on every field (and,
/// in an enum, on every field of the same variant), so saving into a
/// recycled slot reuses the capacity of each `Vec` and `String` in it.
/// std's derived `Clone` keeps the default `clone_from`
/// (`*self = source.clone()`): a fresh allocation per collection per save.
/// Used in place of `#[derive(Clone)]`. See
#[cfg_attr(feature = "ggrs", doc = "[`RollbackGame`](rollback::RollbackGame).")]
#[cfg_attr(not(feature = "ggrs"), doc = "`rollback::RollbackGame`.")]
///
/// # Example
///
/// ```
/// use tickarena::RollbackState;
///
/// #[derive(RollbackState, Default)]
/// struct Sim {
///     positions: Vec<(i32, i32)>,
///     names: Vec<String>,
/// }
/// let live = Sim { positions: vec![(1, 2); 100], names: vec!["ann".into()] };
/// let mut slot = Sim::default();
/// slot.clone_from(&live); // the first save allocates
/// let buffer = slot.positions.as_ptr();
/// slot.clone_from(&live); // later ones reuse the slot's buffers
/// assert_eq!((slot.positions.as_ptr(), slot.positions.len()), (buffer, 100));
/// ```
#[cfg(feature = "derive")]
pub use tickarena_derive::RollbackState;
#[cfg(feature = "tracy")]
pub use tracy::tracy_points_sent;

/// Iterators of [`SegmentedList`].
///
/// # Example
///
/// ```
/// use tickarena::{SegmentedList, segmented_iter::Segments};
///
/// let list: SegmentedList<u32> = (0..30).collect();
/// let segments: Segments<'_, u32> = list.segments();
/// assert_eq!(segments.map(<[u32]>::len).collect::<Vec<_>>(), [8, 16, 6]);
/// ```
pub mod segmented_iter {
    pub use crate::segmented::{IntoIter, Iter, IterMut, Segments, SegmentsMut};
}
/// Iterators of [`String`]: [`String::drain`]'s and [`String::into_chars`]'.
///
/// # Example
///
/// ```
/// use tickarena::string_iter::{Drain, IntoChars};
///
/// let mut s = tickarena::String::from("abc");
/// let drained: Drain<'_> = s.drain(..1);
/// assert_eq!(drained.as_str(), "a");
/// drop(drained);
/// let chars: IntoChars = s.into_chars();
/// assert_eq!(chars.as_str(), "bc");
/// ```
pub mod string_iter {
    pub use crate::string::{Drain, IntoChars};
}
#[doc(hidden)]
pub use vec_in::{__vec_from_array_in, __vec_from_elem_in, __vec_new_in};

/// The README's example, compiled and run as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
