//! tickarena's frame arenas in Bevy.
//!
//! * [`FrameScratch`]: a system parameter giving the system its own
//!   [`FrameArena`], reset before each run of the system. Scratch vectors,
//!   maps, sorted lists and formatted text of one run cost a pointer bump
//!   each and are gone by the next run; a burst's pages stay while bursts
//!   recur and go back to the OS once they stop.
//! * [`FrameWriter`] and [`FrameReader`]: per-frame data between systems.
//!   One system publishes a frame's data (built in a frame arena: nested
//!   slices, strings, paths), any number of later systems read it in
//!   parallel ([`FrameReader::get`], or [`FrameReader::read`] with a
//!   closure), and it all goes at the frame's end
//!   ([`FrameDataApp::init_frame_data`]).
//! * [`Workers`]: a system parameter for `par_iter` jobs: each job's thread
//!   allocates in its own arena, and a [`Collector`] gathers the jobs'
//!   results without a lock per push.
//! * [`WorkerArenas`]: the resource behind [`Workers`], a [`ThreadArenas`]:
//!   one arena per thread, reset once per frame.
//! * [`TickarenaPlugin`]: inserts [`WorkerArenas`] and resets it in
//!   [`Last`](bevy_app::Last).
//! * `render` (cargo feature `render`): Bevy's render world, a frame's
//!   GPU data written once, straight into mapped staging memory, by any
//!   number of prepare systems (`RenderUploadsPlugin`, `RenderUploads`,
//!   `GpuVec`).
//! * tickarena's everyday items, re-exported so that a game needs this
//!   crate alone: [`format_in!`], [`try_format_in!`], [`vec_in!`],
//!   [`scoped`], [`try_scoped`], [`FrameArena`], [`FrameArenaBuilder`],
//!   [`ThreadArenas`], [`FrameVec`], [`FrameBox`], [`FrameString`],
//!   [`FrameHashMap`], lists of lists as [`FrameRows`] (built by
//!   [`RowsWriter`] row by row in place, with [`OpenRow`], or by
//!   [`RowsBuilder`] in any order), [`Freeze`], [`LastSizeVec`] (a frame
//!   vector that starts at the size its call site needed lately:
//!   `scratch.vec_at_last_size()`), [`FrameData`], [`CovariantFrameData`],
//!   [`Sealed`], [`Collector`].
//!
//! What a system allocates borrows its parameter, so the borrow checker
//! keeps it inside the run: nothing from a frame arena can be stored in a
//! component or resource (those are `'static`).
//!
//! For temporaries that should not even last the system's run (a search
//! per entity, inside a loop or a `par_iter` job), use
//! [`tickarena::scoped`]: its arena is emptied when the closure returns, on
//! whatever thread it runs, and the system's [`FrameScratch`] stays usable
//! inside it for what is kept.
//!
//! ```
//! use bevy_app::{App, Update};
//! use bevy_ecs::prelude::*;
//! use tickarena_bevy::FrameScratch;
//!
//! #[derive(Component)]
//! struct Targets(Vec<u32>);
//! #[derive(Resource, Default)]
//! struct Best(Vec<u32>);
//!
//! fn pick(scratch: FrameScratch, query: Query<&Targets>, mut best: ResMut<Best>) {
//!     let mut picks = Vec::new_in(&*scratch); // lives for the run
//!     for targets in &query {
//!         picks.push(tickarena::scoped(|temp| {
//!             let mut sorted = Vec::with_capacity_in(targets.0.len(), temp);
//!             sorted.extend_from_slice(&targets.0);
//!             sorted.sort_unstable();
//!             sorted[sorted.len() / 2] // the median; the sorted copy goes
//!         }));
//!     }
//!     best.0 = picks.to_vec();
//! }
//!
//! let mut app = App::new();
//! app.init_resource::<Best>().add_systems(Update, pick);
//! app.world_mut().spawn(Targets(vec![9, 1, 5]));
//! app.update();
//! assert_eq!(app.world().resource::<Best>().0, [5]);
//! ```
//!
//! # Example
//!
//! ```
//! use bevy_app::{App, Update};
//! use bevy_ecs::prelude::*;
//! use tickarena_bevy::{FrameScratch, TickarenaPlugin, WorkerArenas};
//!
//! #[derive(Component)]
//! struct Health(u32);
//!
//! #[derive(Resource, Default)]
//! struct LowestThree(Vec<u32>);
//!
//! fn lowest(scratch: FrameScratch, query: Query<&Health>, mut out: ResMut<LowestThree>) {
//!     // A sorted scratch list in this system's arena, gone by its next run.
//!     let mut all = Vec::with_capacity_in(query.iter().len(), &*scratch);
//!     all.extend(query.iter().map(|health| health.0));
//!     all.sort_unstable();
//!     out.0 = all.iter().take(3).copied().collect();
//! }
//!
//! let mut app = App::new();
//! app.add_plugins(TickarenaPlugin)
//!     .init_resource::<LowestThree>()
//!     .add_systems(Update, lowest);
//! app.world_mut().spawn_batch((0..100).map(|i| Health(100 - i)));
//! app.update();
//! assert_eq!(app.world().resource::<LowestThree>().0, [1, 2, 3]);
//! assert_eq!(app.world().resource::<WorkerArenas>().stats().frames, 1);
//! ```

/// The compiler errors a Bevy programmer meets first, and their fixes.
#[doc = include_str!("errors.md")]
pub mod errors {}

mod diagnostics;
mod frame_data;
mod frame_end;
mod frame_scratch;
mod order_check;
mod plugin;
#[cfg(feature = "render")]
pub mod render;
mod worker_arenas;

pub use diagnostics::{
    DIAGNOSTIC_ROOT, WORKERS_DIAGNOSTIC, frame_data_diagnostic, scratch_diagnostic,
};
pub use frame_data::{
    FRAME_DATA_RESERVE, FRAME_DATA_RETAIN, FrameDataApp, FrameReader, FrameWriter, PerFrame,
};
pub use frame_scratch::{
    DefaultScratch, FrameScratch, SCRATCH_RESERVE, SCRATCH_RETAIN, ScratchSize,
};
pub use plugin::{FrameEnd, TickarenaPlugin};
pub use worker_arenas::{WORKER_RESERVE, WORKER_RETAIN, WorkerArenas, Workers};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// tickarena itself, for what the re-exports below leave out: a game that
/// depends on tickarena-bevy alone reaches all of tickarena here. The
/// derives (`#[derive(FrameData)]`) find it here too, in a crate whose
/// `Cargo.toml` names tickarena-bevy and not tickarena (or with
/// `#[tickarena(crate = "tickarena_bevy::tickarena")]`).
///
/// # Example
///
/// ```
/// use tickarena_bevy::tickarena::{FrameArena, FrameVec};
///
/// let arena = FrameArena::new();
/// let list: FrameVec<'_, u8> = tickarena_bevy::vec_in![&arena; 1, 2];
/// assert_eq!(list.len(), 2);
/// ```
pub use tickarena;

// What the README's examples use from tickarena, so that a Bevy game needs
// this crate alone: the arenas, frame data, the collector, the everyday
// type names and the macros.
pub use tickarena::{
    Collector, CovariantFrameData, FrameArena, FrameArenaBuilder, FrameBox, FrameData,
    FrameHashMap, FrameRows, FrameString, FrameVec, Freeze, LastSizeVec, OpenRow, RowsBuilder,
    RowsWriter, Sealed, ThreadArenas, format_in, scoped, try_format_in, try_scoped, vec_in,
};
