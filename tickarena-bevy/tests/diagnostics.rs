//! Bevy diagnostics of the plugin's arenas (a `Diagnostic` per system
//! scratch, per kind of frame data and for the workers), and budgets set
//! where the sizes are: a system's `ScratchSize`, a kind's
//! `init_frame_data_with`.

use std::sync::atomic::{AtomicU64, Ordering};

use bevy_app::{App, Update};
use bevy_diagnostic::{DiagnosticsPlugin, DiagnosticsStore};
use bevy_ecs::prelude::*;
use tickarena::{Breach, BudgetPolicy, FrameArena, FrameArenaBuilder, FrameData, Tag};
use tickarena_bevy::{
    FrameDataApp, FrameScratch, FrameWriter, ScratchSize, TickarenaPlugin, WORKERS_DIAGNOSTIC,
    Workers, frame_data_diagnostic, scratch_diagnostic,
};

static SCRATCH_BREACHES: AtomicU64 = AtomicU64::new(0);
static DATA_BREACHES: AtomicU64 = AtomicU64::new(0);

fn scratch_breach(breach: &Breach) {
    assert_eq!(breach.tag, Tag::WHOLE_FRAME);
    assert!(
        breach.arena.unwrap().contains("diagnostics::plan"),
        "{breach}"
    );
    SCRATCH_BREACHES.fetch_add(1, Ordering::Relaxed);
}

fn data_breach(breach: &Breach) {
    assert!(breach.arena.unwrap().contains("Paths"), "{breach}");
    DATA_BREACHES.fetch_add(1, Ordering::Relaxed);
}

/// The planner's scratch: 4 KiB a frame at most, told through a hook.
struct Planning;
impl ScratchSize for Planning {
    fn builder() -> FrameArenaBuilder {
        FrameArena::builder()
            .reserve(1 << 20)
            .frame_budget(4 << 10)
            .budget_policy(BudgetPolicy::Hook(scratch_breach))
    }
}

struct Paths;
impl FrameData for Paths {
    type Of<'f> = &'f [u32];
}

#[derive(Resource, Default)]
struct FrameCount(usize);

/// 1 KiB of scratch a frame, 8 KiB every third; 400 bytes of paths, 4000
/// every third; 256 bytes on a worker.
fn plan(
    scratch: FrameScratch<Planning>,
    mut paths: FrameWriter<Paths>,
    workers: Workers,
    mut count: ResMut<FrameCount>,
) {
    count.0 += 1;
    let burst = count.0.is_multiple_of(3);
    let scratch_bytes = if burst { 8 << 10 } else { 1 << 10 };
    scratch.alloc_slice_fill_with(scratch_bytes, |_| 0u8);
    let ids = if burst { 1000 } else { 100 };
    paths.publish(|arena| &*arena.alloc_slice_fill_with(ids, |i| i as u32));
    workers.local().alloc([0u8; 256]);
}

#[test]
fn each_arena_is_a_diagnostic_and_budgets_tell_where_sizes_are_set() {
    let mut app = App::new();
    app.add_plugins((TickarenaPlugin, DiagnosticsPlugin))
        .init_resource::<FrameCount>()
        .init_frame_data_with::<Paths>(
            FrameArena::builder()
                .frame_budget(1 << 10)
                .budget_policy(BudgetPolicy::Hook(data_breach)),
        )
        .add_systems(Update, plan);
    for _ in 0..6 {
        app.update();
    }
    let store = app.world().resource::<DiagnosticsStore>();
    let values = |path| -> Vec<f64> { store.get(&path).unwrap().values().copied().collect() };
    // Frame data: the frame's data of the kind, every frame.
    assert_eq!(
        values(frame_data_diagnostic::<Paths>()),
        [400.0, 400.0, 4000.0, 400.0, 400.0, 4000.0]
    );
    // The workers' peak, every frame.
    assert_eq!(values(WORKERS_DIAGNOSTIC), [256.0; 6]);
    // A system's scratch: the run's peak, every frame it runs.
    let plan = scratch_diagnostic(core::any::type_name_of_val(&plan));
    assert_eq!(
        values(plan),
        [1024.0, 1024.0, 8192.0, 1024.0, 1024.0, 8192.0]
    );
    // Breaches, each arena naming its system or kind: the data's at the
    // frame's end, the scratch's when it is reset, at the system's next
    // run (the sixth frame's is still to come).
    assert_eq!(SCRATCH_BREACHES.load(Ordering::Relaxed), 1);
    assert_eq!(DATA_BREACHES.load(Ordering::Relaxed), 2);
}
