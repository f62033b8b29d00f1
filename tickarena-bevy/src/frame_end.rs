//! The end of the frame: one exclusive system in `Last` (in [`FrameEnd`])
//! that resets the worker arenas and ends every kind of frame data. One
//! system, whatever the number of kinds: Bevy's multi-threaded executor
//! spawns a task (a heap allocation, and a few microseconds of waking and
//! bookkeeping) for every system it runs, each frame.

use bevy_app::{App, Last};
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::IntoScheduleConfigs;
use bevy_ecs::world::World;

use crate::FrameEnd;
use crate::worker_arenas::WorkerArenas;

/// Ends one kind of frame data; `first` at the end of the first frame.
pub(crate) type EndKind = fn(&mut World, first: bool);

/// What the frame's end does besides resetting the worker arenas: each
/// kind of frame data's end, and whether it has run once.
#[derive(Resource, Default)]
struct FrameEnders(Vec<(EndKind, bool)>);

/// Adds the frame's end to `app`, once.
pub(crate) fn install(app: &mut App) {
    if !app.world().contains_resource::<FrameEnders>() {
        app.init_resource::<FrameEnders>()
            .add_systems(Last, end_of_frame.in_set(FrameEnd));
    }
}

/// Adds `end` to what the frame's end runs.
pub(crate) fn add_kind(app: &mut App, end: EndKind) {
    install(app);
    app.world_mut()
        .resource_mut::<FrameEnders>()
        .0
        .push((end, false));
}

/// The frame's end: the worker arenas' reset and every kind's end.
fn end_of_frame(world: &mut World) {
    if let Some(mut workers) = world.get_resource_mut::<WorkerArenas>() {
        workers.reset();
    }
    // By index: an end takes the world, so the list cannot stay borrowed
    // (and copying it out would allocate every frame).
    let kinds = world.resource::<FrameEnders>().0.len();
    for kind in 0..kinds {
        let (end, ran) = world.resource::<FrameEnders>().0[kind];
        end(world, !ran);
        world.resource_mut::<FrameEnders>().0[kind].1 = true;
    }
}
