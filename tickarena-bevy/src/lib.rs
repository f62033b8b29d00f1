//! tickarena's frame arenas in Bevy.
//!
//! * [`FrameScratch`]: a system parameter giving the system its own
//!   [`FrameArena`], reset before each run of the system. Scratch vectors,
//!   maps, sorted lists and formatted text of one run cost a pointer bump
//!   each and are gone by the next run; a burst's pages above the arena's
//!   retained size go back to the OS.
//! * [`WorkerArenas`]: a resource holding a [`ThreadArenas`]: one arena per
//!   thread, for `par_iter` jobs and every system, reset once per frame.
//! * [`TickarenaPlugin`]: inserts [`WorkerArenas`] and resets it in
//!   [`Last`](bevy_app::Last).
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

mod frame_data;
mod frame_scratch;
mod plugin;
mod worker_arenas;

pub use frame_data::{
    FRAME_DATA_RESERVE, FRAME_DATA_RETAIN, FrameDataApp, FrameReader, FrameWriter, PerFrame,
};
pub use frame_scratch::{FrameScratch, SCRATCH_RESERVE, SCRATCH_RETAIN};
pub use plugin::TickarenaPlugin;
pub use worker_arenas::{WORKER_RESERVE, WORKER_RETAIN, WorkerArenas, Workers};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// The types the parameters hand out, for convenience.
pub use tickarena::{FrameArena, ThreadArenas};
