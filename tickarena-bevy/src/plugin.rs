//! [`TickarenaPlugin`]: the worker arenas as a resource, reset every frame.

use bevy_app::{App, Plugin};
use bevy_ecs::schedule::SystemSet;

use crate::worker_arenas::WorkerArenas;

/// Inserts [`WorkerArenas`] (unless the app already has one, e.g. made
/// from a builder of your own) and resets it at the end of every frame, in
/// the `Last` schedule. [`FrameScratch`](crate::FrameScratch) needs no
/// plugin.
///
/// # Example
///
/// ```
/// use bevy_app::App;
/// use tickarena_bevy::{TickarenaPlugin, WorkerArenas};
///
/// let mut app = App::new();
/// app.add_plugins(TickarenaPlugin);
/// app.update();
/// app.update();
/// assert_eq!(app.world().resource::<WorkerArenas>().stats().frames, 2);
/// ```
pub struct TickarenaPlugin;

impl Plugin for TickarenaPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WorkerArenas>();
        crate::frame_end::install(app);
    }
}

/// The system that ends tickarena's frame, in [`Last`](bevy_app::Last):
/// the worker arenas' reset and the end of every kind of per-frame data (one
/// exclusive system for all of them). A system in `Last` that still reads
/// frame data or worker-arena data runs before it: `.before(FrameEnd)`.
///
/// # Example
///
/// ```
/// use bevy_app::{App, Last, Update};
/// use bevy_ecs::prelude::*;
/// use tickarena_bevy::{FrameDataApp, FrameEnd, FrameReader, FrameWriter, FrameData};
///
/// struct Score;
/// impl FrameData for Score {
///     type Of<'f> = &'f u32;
/// }
/// fn score(mut out: FrameWriter<Score>) {
///     out.publish(|arena| &*arena.alloc(7));
/// }
/// #[derive(Resource, Default)]
/// struct Shown(u32);
/// fn show(score: FrameReader<Score>, mut shown: ResMut<Shown>) {
///     shown.0 = score.read(|score| **score);
/// }
/// let mut app = App::new();
/// app.init_frame_data::<Score>()
///     .init_resource::<Shown>()
///     .add_systems(Update, score)
///     .add_systems(Last, show.before(FrameEnd)); // a reader in `Last`
/// app.update();
/// assert_eq!(app.world().resource::<Shown>().0, 7);
/// ```
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameEnd;
