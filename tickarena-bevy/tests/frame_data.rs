//! Frame data between systems (`FrameWriter`/`FrameReader`) under the
//! multi-threaded executor, the messages for a reader that runs too early
//! and for a missing `TickarenaPlugin`, and `par_iter` jobs handing results
//! back through a `Collector` in the worker arenas. A test binary of its
//! own, so that the compute pool is the one these tests configure.

use std::panic::{AssertUnwindSafe, catch_unwind};

use bevy_app::{App, TaskPoolOptions, TaskPoolPlugin, Update};
use bevy_ecs::batching::BatchingStrategy;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::SingleThreadedExecutor;
use tickarena::{FrameData, format_in};
use tickarena_bevy::{FrameDataApp, FrameReader, FrameWriter, PerFrame, TickarenaPlugin, Workers};

/// This frame's path requests: a label and a path each.
struct PathRequests;
impl FrameData for PathRequests {
    type Of<'f> = &'f [(&'f str, &'f [(i32, i32)])];
}

#[derive(Resource, Default)]
struct Frame(u32);

fn plan(mut frame: ResMut<Frame>, mut requests: FrameWriter<PathRequests>) {
    frame.0 += 1;
    let n = frame.0 as i32;
    requests.publish(|arena| {
        let mut all = Vec::new_in(arena);
        for unit in 0..100 {
            let mut path = Vec::new_in(arena);
            path.extend((0..unit % 7 + n).map(|step| (step, unit)));
            let label = format_in!(arena, "unit {unit} in frame {n}");
            all.push((&*label.leak(), &*path.leak()));
        }
        &*all.leak()
    });
}

#[derive(Resource, Default)]
struct Steps(Vec<usize>);
#[derive(Resource, Default)]
struct Labels(Vec<String>);

fn count_steps(requests: FrameReader<PathRequests>, mut steps: ResMut<Steps>) {
    steps
        .0
        .push(requests.read(|all| all.iter().map(|(_, path)| path.len()).sum()));
}

fn last_label(requests: FrameReader<PathRequests>, mut labels: ResMut<Labels>) {
    labels
        .0
        .push(requests.read(|all| all.last().unwrap().0.to_owned()));
}

fn four_threads() -> TaskPoolPlugin {
    TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(4),
    }
}

#[test]
fn readers_see_the_data_the_writer_published_this_frame() {
    let mut app = App::new();
    app.add_plugins(four_threads())
        .init_frame_data::<PathRequests>()
        .init_resource::<Frame>()
        .init_resource::<Steps>()
        .init_resource::<Labels>()
        // Two readers after the writer; the executor may run them at once.
        .add_systems(Update, (count_steps, last_label).after(plan))
        .add_systems(Update, plan);
    for _ in 0..5 {
        app.update();
        let per_frame = app.world().resource::<PerFrame<PathRequests>>();
        assert!(!per_frame.is_published(), "the data ends with its frame");
    }
    let expected: Vec<usize> = (1..=5)
        .map(|n| (0..100).map(|unit| (unit % 7 + n) as usize).sum())
        .collect();
    assert_eq!(app.world().resource::<Steps>().0, expected);
    assert_eq!(app.world().resource::<Labels>().0[4], "unit 99 in frame 5");
}

/// Runs one frame of `app` on one thread, and returns its panic message.
fn panic_of_update(app: &mut App) -> String {
    app.edit_schedule(Update, |schedule| {
        schedule.set_executor(SingleThreadedExecutor::new());
    });
    let payload = catch_unwind(AssertUnwindSafe(|| app.update())).expect_err("the frame panics");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn a_reader_before_the_writer_is_told_the_order_to_add() {
    let mut app = App::new();
    app.init_frame_data::<PathRequests>()
        .init_resource::<Frame>()
        .init_resource::<Steps>()
        .add_systems(Update, (count_steps, plan).chain()); // the wrong way round
    let message = panic_of_update(&mut app);
    for expected in [
        "count_steps",
        "FrameReader<",
        "PathRequests",
        "no system has published it yet",
    ] {
        assert!(message.contains(expected), "{expected:?} in {message:?}");
    }
    // The reader skipped in frame 0, so the writer published then; in
    // frame 1 the reader runs before the writer and finds last frame's
    // data gone.
    let mut app = App::new();
    app.init_frame_data::<PathRequests>()
        .init_resource::<Frame>()
        .init_resource::<Steps>()
        .add_systems(
            Update,
            (count_steps.run_if(|frame: Res<Frame>| frame.0 > 0), plan).chain(),
        );
    app.update();
    let message = panic_of_update(&mut app);
    for expected in [
        "in frame 1",
        "`frame_data::plan` published it last, in frame 0",
        "frame_data::count_steps.after(frame_data::plan)",
    ] {
        assert!(message.contains(expected), "{expected:?} in {message:?}");
    }
}

fn uses_workers(workers: Workers) {
    workers.local().alloc(1u8);
}

#[test]
fn a_missing_plugin_is_named() {
    let mut app = App::new();
    app.add_systems(Update, uses_workers);
    let message = panic_of_update(&mut app);
    assert!(message.contains("TickarenaPlugin"), "{message:?}");
}

#[derive(Component)]
struct Health(i32);

#[derive(Resource, Default)]
struct Dying(Vec<Entity>);

fn find_dying(workers: Workers, query: Query<(Entity, &Health)>, mut dying: ResMut<Dying>) {
    let mut found = workers.collector();
    query
        .par_iter()
        .batching_strategy(BatchingStrategy::fixed(64))
        .for_each(|(entity, health)| {
            if health.0 <= 0 {
                found.push(entity);
            }
        });
    dying.0.clear();
    dying.0.extend(found.drain());
}

#[test]
fn par_iter_jobs_hand_results_back_through_the_worker_arenas() {
    let mut app = App::new();
    app.add_plugins((four_threads(), TickarenaPlugin))
        .init_resource::<Dying>()
        .add_systems(Update, find_dying);
    app.world_mut()
        .spawn_batch((0..10_000).map(|i| Health(i % 50 - 1)));
    for _ in 0..3 {
        app.update();
        assert_eq!(app.world().resource::<Dying>().0.len(), 400);
    }
}

/// A writer and a reader of the same frame data with no order between
/// them are reported at the end of the first frame, naming both.
#[test]
#[should_panic(expected = "are not ordered")]
fn an_unordered_writer_and_reader_are_reported_at_the_first_frame() {
    use bevy_ecs::schedule::SingleThreadedExecutor;

    struct Count;
    impl FrameData for Count {
        type Of<'f> = &'f u32;
    }
    fn write(mut out: FrameWriter<Count>) {
        out.publish(|arena| &*arena.alloc(1));
    }
    fn read(count: FrameReader<Count>) {
        let _ = count.try_read(|count| **count);
    }
    let mut app = App::new();
    app.init_frame_data::<Count>()
        .add_systems(Update, (write, read)); // no order
    app.edit_schedule(Update, |schedule| {
        schedule.set_executor(SingleThreadedExecutor::new());
    });
    app.update();
}

/// Frame data for the order-check tests.
struct Count;
impl FrameData for Count {
    type Of<'f> = &'f u32;
}
fn write_count(mut out: FrameWriter<Count>) {
    out.publish(|arena| &*arena.alloc(1));
}
fn read_count(count: FrameReader<Count>) {
    let _ = count.try_read(|count| **count);
}

/// A schedule the game runs itself, from its third frame on.
#[derive(bevy_ecs::schedule::ScheduleLabel, Debug, Clone, PartialEq, Eq, Hash)]
struct Later;

fn run_later_from_frame_3(world: &mut World, mut frames: Local<u32>) {
    *frames += 1;
    if *frames >= 3 {
        world.run_schedule(Later);
    }
}

/// Every schedule is checked before the first frame, also one that first
/// runs later (like `FixedUpdate` without a fixed step in frame 1, or a
/// state's `OnEnter`).
#[test]
fn an_unordered_pair_in_a_schedule_that_runs_later_is_reported_before_the_first_frame() {
    let mut app = App::new();
    app.init_frame_data::<Count>()
        .add_systems(Later, (write_count, read_count)) // no order
        .add_systems(Update, run_later_from_frame_3);
    let message = panic_of_update(&mut app);
    assert!(message.contains("in schedule Later"), "{message}");
    assert!(message.contains("are not ordered"), "{message}");
}

/// A schedule added after the first frame is checked at the end of the
/// first frame it ran in.
#[test]
fn an_unordered_pair_in_a_schedule_added_later_is_reported_after_its_first_run() {
    let mut app = App::new();
    app.init_frame_data::<Count>()
        .add_systems(Update, run_later_from_frame_3);
    app.update();
    app.add_systems(Later, (write_count, read_count)); // no order
    app.update(); // frame 2: `Later` does not run yet
    let message = panic_of_update(&mut app);
    assert!(message.contains("in schedule Later"), "{message}");
    assert!(message.contains("are not ordered"), "{message}");
}

/// A reader in `Last` with no order to the frame's end may run after it
/// (single-threaded, it does here): the check says `.before(FrameEnd)`.
#[test]
fn a_reader_in_last_unordered_with_the_frames_end_is_told_before_frame_end() {
    use bevy_app::Last;

    let mut app = App::new();
    app.init_frame_data::<Count>()
        .add_systems(Update, write_count)
        .add_systems(Last, read_count); // no order to FrameEnd
    app.edit_schedule(Last, |schedule| {
        schedule.set_executor(SingleThreadedExecutor::new());
    });
    let message = panic_of_update(&mut app);
    assert!(message.contains("in schedule Last"), "{message}");
    assert!(message.contains("read_count"), "{message}");
    assert!(message.contains(".before(FrameEnd)"), "{message}");
}

/// Frame data of two flat lists, each from `vec_at_last_size`.
struct Flat;
impl FrameData for Flat {
    type Of<'f> = (&'f [u32], &'f [u64]);
}

/// The room each list started with, frame by frame.
#[derive(Resource, Default)]
struct Rooms(Vec<(usize, usize)>);

fn publish_flat(mut flat: FrameWriter<Flat>, mut rooms: ResMut<Rooms>) {
    flat.publish(|arena| {
        let mut ids = arena.vec_at_last_size::<u32>();
        let mut keys = arena.vec_at_last_size::<u64>();
        rooms.0.push((ids.capacity(), keys.capacity()));
        for id in 0..2000u32 {
            ids.push(id);
            keys.push(u64::from(id) << 8);
        }
        (&*ids.leak(), &*keys.leak())
    });
}

#[derive(Resource, Default)]
struct FlatSum(u64);

fn read_flat(flat: FrameReader<Flat>, mut sum: ResMut<FlatSum>) {
    flat.read(|&(ids, keys)| {
        sum.0 += ids.iter().map(|&id| u64::from(id)).sum::<u64>() + keys.len() as u64;
    });
}

#[test]
fn frame_data_lists_start_at_the_size_the_last_frame_needed() {
    let mut app = App::new();
    app.add_plugins(TickarenaPlugin)
        .init_frame_data::<Flat>()
        .init_resource::<Rooms>()
        .init_resource::<FlatSum>()
        .add_systems(Update, (publish_flat, read_flat).chain());
    for _ in 0..3 {
        app.update();
    }
    let rooms = &app.world().resource::<Rooms>().0;
    assert_eq!(rooms[0], (0, 0));
    // From the second frame on, each starts with room for its 2000 (the
    // capacity the first frame grew to): nothing grows.
    assert!(rooms[1].0 >= 2000 && rooms[1].1 >= 2000, "{rooms:?}");
    assert_eq!(rooms[2], rooms[1]);
    assert_eq!(
        app.world().resource::<FlatSum>().0,
        3 * ((0..2000u64).sum::<u64>() + 2000)
    );
}
