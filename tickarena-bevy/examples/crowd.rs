//! A headless Bevy app with 10^4 entities and tickarena's arenas:
//!
//! * `steer` runs on the compute pool (`par_iter_mut`); each job builds a
//!   little scratch list of candidate headings in its worker thread's
//!   arena (`WorkerArenas`, reset every frame by `TickarenaPlugin`);
//! * `draw_list` builds, in its own `FrameScratch`, a per-frame spatial
//!   grid (a hashbrown map in the arena), a draw list sorted by layer, and
//!   labels formatted with `format_in!`.
//!
//! Prints each frame's arena bytes and heap allocations: Bevy's own
//! (schedules, the task pool) and those of the scratch work (0).
//!
//! ```sh
//! cargo run --release -p tickarena-bevy --example crowd -- 600
//! ```

#[path = "../../examples/support/counting_alloc.rs"]
mod counting_alloc;

use std::sync::atomic::{AtomicU64, Ordering};

use bevy_app::{App, TaskPoolOptions, TaskPoolPlugin, Update};
use bevy_ecs::batching::BatchingStrategy;
use bevy_ecs::prelude::*;
use counting_alloc::{Counting, allocations, thread_allocations};
use tickarena::format_in;
use tickarena_bevy::{FrameScratch, TickarenaPlugin, WorkerArenas};

#[global_allocator]
static COUNTING: Counting = Counting;

const ENTITIES: u32 = 10_000;
/// The world is this square around the origin.
const BOUNDS: f32 = 500.0;
const CELL: f32 = 20.0;

#[derive(Component, Clone, Copy)]
struct Position([f32; 2]);

#[derive(Component, Clone, Copy)]
struct Velocity([f32; 2]);

/// Draw order: higher is nearer.
#[derive(Component, Clone, Copy)]
struct Layer(u8);

/// What the systems report for the frame.
#[derive(Resource, Default)]
struct FrameReport {
    scratch_bytes: usize,
    worker_bytes: usize,
    crowded_cells: usize,
    visible: usize,
    label_bytes: usize,
    /// Heap allocations made by the scratch work itself (both systems).
    scratch_allocations: u64,
}

/// Allocations made inside `steer`'s jobs, on any thread.
static JOB_ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

fn steer(
    workers: Res<WorkerArenas>,
    mut query: Query<(&Position, &mut Velocity)>,
    mut report: ResMut<FrameReport>,
) {
    query
        .par_iter_mut()
        .batching_strategy(BatchingStrategy::fixed(256))
        .for_each(|(position, mut velocity)| {
            let before = thread_allocations();
            // Eight candidate headings in this thread's arena; keep the one
            // that points most towards the centre.
            let arena = workers.local();
            let headings = arena.alloc_slice_fill_with(8, |i| {
                let angle = i as f32 * std::f32::consts::FRAC_PI_4;
                [angle.cos(), angle.sin()]
            });
            let [x, y] = position.0;
            let best = headings
                .iter()
                .max_by(|a, b| (-(a[0] * x + a[1] * y)).total_cmp(&-(b[0] * x + b[1] * y)))
                .copied()
                .unwrap_or([0.0, 0.0]);
            velocity.0[0] = velocity.0[0] * 0.98 + best[0] * 0.5;
            velocity.0[1] = velocity.0[1] * 0.98 + best[1] * 0.5;
            JOB_ALLOCATIONS.fetch_add(thread_allocations() - before, Ordering::Relaxed);
        });
    report.worker_bytes = workers.used();
}

fn movement(mut query: Query<(&mut Position, &Velocity)>) {
    for (mut position, velocity) in &mut query {
        for axis in 0..2 {
            position.0[axis] = (position.0[axis] + velocity.0[axis] / 60.0).clamp(-BOUNDS, BOUNDS);
        }
    }
}

fn draw_list(
    scratch: FrameScratch,
    query: Query<(Entity, &Position, &Layer)>,
    mut report: ResMut<FrameReport>,
) {
    let before = thread_allocations();
    let arena = &*scratch;
    // A per-frame spatial grid: entities per cell, in the arena.
    let mut grid = hashbrown::HashMap::with_capacity_in(1024, arena);
    for (_, position, _) in &query {
        let cell = (
            (position.0[0] / CELL).floor() as i32,
            (position.0[1] / CELL).floor() as i32,
        );
        *grid.entry(cell).or_insert(0u32) += 1;
    }
    let crowded = grid.values().filter(|count| **count > 8).count();
    // What is on screen, sorted back to front.
    let mut visible = Vec::with_capacity_in(query.iter().len(), arena);
    visible.extend(
        query
            .iter()
            .filter(|(_, position, _)| position.0[0].abs() < 300.0 && position.0[1].abs() < 300.0)
            .map(|(entity, position, layer)| (layer.0, entity, *position)),
    );
    visible.sort_unstable_by_key(|(layer, entity, _)| (*layer, *entity));
    // Labels for the nearest 32.
    let mut label_bytes = 0;
    for (layer, entity, position) in visible.iter().rev().take(32) {
        // Not `{entity}`: Bevy's `Display` for `Entity` formats into a new
        // `String` first (to support padding); its parts do not.
        let label = format_in!(
            arena,
            "{}v{} layer {layer} at ({:.0}, {:.0})",
            entity.index(),
            entity.generation(),
            position.0[0],
            position.0[1]
        );
        label_bytes += label.len();
    }
    report.crowded_cells = crowded;
    report.visible = visible.len();
    report.label_bytes = label_bytes;
    report.scratch_bytes = arena.used();
    report.scratch_allocations = thread_allocations() - before;
}

/// What a run measured.
struct Summary {
    steady_frames: u64,
    /// Heap allocations per steady frame made by Bevy itself.
    bevy_per_frame: f64,
    /// Heap allocations of the scratch work in all steady frames.
    scratch_allocations: u64,
    worker_arenas: usize,
    worker_high_water: usize,
}

/// Runs `frames` frames, printing a line every `report_every`.
fn run(frames: u64, report_every: u64) -> Summary {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(4),
        },
        TickarenaPlugin,
    ))
    .init_resource::<FrameReport>()
    .add_systems(
        Update,
        (steer, movement.after(steer), draw_list.after(movement)),
    );
    app.world_mut().spawn_batch((0..ENTITIES).map(|i| {
        let angle = i as f32 * 2.399_963;
        let radius = (i % 400) as f32;
        (
            Position([angle.cos() * radius, angle.sin() * radius]),
            Velocity([angle.sin() * 40.0, -angle.cos() * 40.0]),
            Layer((i % 16) as u8),
        )
    }));

    // The first frames size Bevy's queues and commit the arenas' pages.
    let warm_up = 10.min(frames / 2);
    let (mut steady_bevy, mut steady_scratch) = (0, 0);
    for frame in 0..frames {
        JOB_ALLOCATIONS.store(0, Ordering::Relaxed);
        let before = allocations();
        app.update();
        let all = allocations() - before;
        let report = app.world().resource::<FrameReport>();
        let scratch = report.scratch_allocations + JOB_ALLOCATIONS.load(Ordering::Relaxed);
        if frame >= warm_up {
            steady_bevy += all - scratch;
            steady_scratch += scratch;
        }
        if frame % report_every == 0 {
            println!(
                "frame {frame:>4}: scratch {:>6} B, workers {:>6} B, {} visible, {} crowded cells, \
                 {} label bytes; heap allocations {all} (scratch work {scratch})",
                report.scratch_bytes,
                report.worker_bytes,
                report.visible,
                report.crowded_cells,
                report.label_bytes,
            );
        }
    }
    let steady_frames = (frames - warm_up).max(1);
    let workers = app.world().resource::<WorkerArenas>();
    Summary {
        steady_frames,
        bevy_per_frame: steady_bevy as f64 / steady_frames as f64,
        scratch_allocations: steady_scratch,
        worker_arenas: workers.len(),
        worker_high_water: workers.stats().high_water,
    }
}

fn main() {
    let frames: u64 = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(600);
    let summary = run(frames, 100);
    println!(
        "{frames} frames, {} worker arenas (high water {} B); in {} steady frames: \
         {:.1} heap allocations per frame by Bevy itself, {} by the scratch work",
        summary.worker_arenas,
        summary.worker_high_water,
        summary.steady_frames,
        summary.bevy_per_frame,
        summary.scratch_allocations,
    );
}

#[cfg(test)]
mod tests {
    /// The scratch work (grid, sorted list, labels, the jobs' headings)
    /// makes no heap allocation once warm: `cargo test -p tickarena-bevy`
    /// runs this.
    #[test]
    fn the_scratch_work_makes_no_heap_allocation_in_steady_frames() {
        let summary = super::run(40, 1000);
        assert_eq!(summary.scratch_allocations, 0);
        assert!(summary.worker_high_water > 0 && summary.worker_arenas >= 1);
    }
}
