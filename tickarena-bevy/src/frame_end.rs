//! The end of the frame: one exclusive system in `Last` (in [`FrameEnd`])
//! that resets the worker arenas and ends every kind of frame data. One
//! system, whatever the number of kinds: Bevy's multi-threaded executor
//! spawns a task (a heap allocation, and a few microseconds of waking and
//! bookkeeping) for every system it runs, each frame. It also runs the
//! order check (see [`order_check`](crate::order_check)) on schedules
//! built since the last frame.

use bevy_app::{App, Last, PreStartup};
use bevy_ecs::resource::Resource;
use bevy_ecs::schedule::IntoScheduleConfigs;
use bevy_ecs::world::World;

use bevy_diagnostic::DiagnosticsStore;

use crate::FrameEnd;
use crate::diagnostics::{WORKERS_DIAGNOSTIC, measure, measure_scratch};
use crate::order_check::OrderCheck;
use crate::worker_arenas::WorkerArenas;

/// Ends one kind of frame data.
pub(crate) type EndKind = fn(&mut World);

/// What the frame's end does besides resetting the worker arenas: each
/// kind of frame data's end; and the order check.
#[derive(Resource, Default)]
struct FrameEnders {
    kinds: Vec<EndKind>,
    check: OrderCheck,
}

/// Adds the frame's end (and the order check before the first frame) to
/// `app`, once.
pub(crate) fn install(app: &mut App) {
    if !app.world().contains_resource::<FrameEnders>() {
        let mut enders = FrameEnders::default();
        enders.check.set_end(end_of_frame);
        enders
            .check
            .watch::<WorkerArenas>(core::any::type_name::<WorkerArenas>(), false);
        app.insert_resource(enders)
            .add_systems(PreStartup, check_every_schedule)
            .add_systems(Last, end_of_frame.in_set(FrameEnd));
    }
}

/// Adds `end` to what the frame's end runs, for frame data held in
/// resource `R` (of kind `kind`), whose users the order check watches.
pub(crate) fn add_kind<R: 'static>(app: &mut App, kind: &'static str, end: EndKind) {
    install(app);
    let mut enders = app.world_mut().resource_mut::<FrameEnders>();
    enders.kinds.push(end);
    enders.check.watch::<R>(kind, true);
}

/// Before the first frame: builds every schedule the app has and checks
/// it (the schedules that run later, `FixedUpdate`, a state's `OnEnter`,
/// `Last` itself, included).
fn check_every_schedule(world: &mut World) {
    let mut check = core::mem::take(&mut world.resource_mut::<FrameEnders>().check);
    check.build_and_check_all(world);
    world.resource_mut::<FrameEnders>().check = check;
}

/// The frame's end: the order check of schedules built since, the worker
/// arenas' reset and every kind's end.
fn end_of_frame(world: &mut World) {
    let mut check = core::mem::take(&mut world.resource_mut::<FrameEnders>().check);
    check.check_new(world);
    world.resource_mut::<FrameEnders>().check = check;
    if let Some(mut workers) = world.get_resource_mut::<WorkerArenas>() {
        let peak = workers.peak();
        workers.reset();
        if let Some(mut store) = world.get_resource_mut::<DiagnosticsStore>() {
            measure(&mut store, &WORKERS_DIAGNOSTIC, peak);
        }
    }
    measure_scratch(world);
    // By index: an end takes the world, so the list cannot stay borrowed
    // (and copying it out would allocate every frame).
    let kinds = world.resource::<FrameEnders>().kinds.len();
    for kind in 0..kinds {
        let end = world.resource::<FrameEnders>().kinds[kind];
        end(world);
    }
}
