//! Real `App::update` frames: the worker arenas serve `par_iter` jobs on
//! several threads and are reset in `Last`. A test binary of its own, so
//! that the compute pool is the one this test configures.

use std::sync::Mutex;

use bevy_app::{App, TaskPoolOptions, TaskPoolPlugin, Update};
use bevy_ecs::batching::BatchingStrategy;
use bevy_ecs::prelude::*;
use tickarena_bevy::{TickarenaPlugin, WorkerArenas};

#[derive(Component)]
struct Value(u64);

#[derive(Component, Default)]
struct Doubled(u64);

/// Threads that served a job, by arena address.
#[derive(Resource, Default)]
struct Served(Mutex<Vec<usize>>);

fn double_on_workers(
    workers: Res<WorkerArenas>,
    served: Res<Served>,
    mut query: Query<(&Value, &mut Doubled)>,
) {
    // Small batches, so that the jobs spread over the pool's threads.
    let batches = BatchingStrategy::fixed(64);
    query
        .par_iter_mut()
        .batching_strategy(batches)
        .for_each(|(value, mut doubled)| {
            let arena = workers.local();
            let scratch = arena.alloc_slice_fill_with(64, |i| value.0 + i as u64);
            doubled.0 = scratch[0] * 2;
            let address = arena as *const _ as usize;
            let mut served = served.0.lock().unwrap();
            if !served.contains(&address) {
                served.push(address);
            }
        });
}

#[test]
fn worker_arenas_serve_par_iter_jobs_and_are_reset_in_last() {
    let mut app = App::new();
    // Four threads for the compute pool even on a small machine, so that
    // the jobs are spread.
    let task_pools = TaskPoolPlugin {
        task_pool_options: TaskPoolOptions::with_num_threads(4),
    };
    app.add_plugins((task_pools, TickarenaPlugin))
        .init_resource::<Served>()
        .add_systems(Update, double_on_workers);
    app.world_mut()
        .spawn_batch((0..20_000u64).map(|i| (Value(i), Doubled::default())));
    for frame in 1..=3u64 {
        app.update();
        let workers = app.world().resource::<WorkerArenas>();
        assert_eq!(workers.used(), 0, "frame {frame}: reset in Last");
        assert_eq!(workers.stats().frames, frame);
        assert!(workers.stats().high_water >= 20_000 * 64 * 8 / workers.len().max(1));
    }
    let mut query = app.world_mut().query::<(&Value, &Doubled)>();
    for (value, doubled) in query.iter(app.world()) {
        assert_eq!(doubled.0, value.0 * 2);
    }
    let served = app.world().resource::<Served>().0.lock().unwrap().len();
    let arenas = app.world().resource::<WorkerArenas>().len();
    assert!(
        served > 1,
        "the jobs ran on one arena only ({arenas} arenas made)"
    );
}
