//! [`TickarenaPlugin`]: the worker arenas as a resource, reset every frame.

use bevy_app::{App, Last, Plugin};
use bevy_ecs::system::ResMut;

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
        app.init_resource::<WorkerArenas>()
            .add_systems(Last, reset_worker_arenas);
    }
}

/// Ends the frame of every worker thread's arena: `ResMut` proves no
/// system holds anything from them.
fn reset_worker_arenas(mut workers: ResMut<WorkerArenas>) {
    workers.reset();
}
