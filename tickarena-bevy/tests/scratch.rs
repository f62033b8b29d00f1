//! Real `App::update` frames: each system's scratch is its own and reset
//! before each run, and a burst's pages go back.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use tickarena_bevy::{FrameScratch, SCRATCH_RETAIN, ScratchSize};

/// What the systems under test saw, run by run.
#[derive(Resource, Default)]
struct Seen {
    /// (system, used at the start of the run, committed, arena address)
    runs: Vec<(&'static str, usize, usize, usize)>,
}

fn record(name: &'static str, scratch: &FrameScratch, seen: &mut Seen) {
    let stats = scratch.stats();
    seen.runs.push((
        name,
        stats.used,
        stats.committed,
        &**scratch as *const _ as usize,
    ));
}

/// Allocates 8 MiB on odd frames (a burst), 4 KiB otherwise.
fn bursty(scratch: FrameScratch, mut seen: ResMut<Seen>, mut frame: Local<u32>) {
    record("bursty", &scratch, &mut seen);
    *frame += 1;
    let bytes = if *frame % 2 == 1 { 8 << 20 } else { 4 << 10 };
    let block = scratch.alloc_slice_fill_with(bytes, |i| i as u8);
    assert_eq!(block[bytes - 1], (bytes - 1) as u8);
}

fn steady(scratch: FrameScratch, mut seen: ResMut<Seen>) {
    record("steady", &scratch, &mut seen);
    let mut list = Vec::with_capacity_in(100, &*scratch);
    list.extend(0..100u64);
    assert_eq!(list.iter().sum::<u64>(), 4950);
}

#[test]
fn each_system_has_its_own_scratch_reset_before_every_run() {
    let mut app = App::new();
    app.init_resource::<Seen>()
        .add_systems(Update, (bursty, steady.after(bursty)));
    for _ in 0..4 {
        app.update();
    }
    let runs = &app.world().resource::<Seen>().runs;
    assert_eq!(runs.len(), 8);
    for &(name, used, ..) in runs {
        assert_eq!(used, 0, "{name} started a run on a used arena");
    }
    let address = |name| runs.iter().find(|run| run.0 == name).unwrap().3;
    assert_ne!(address("bursty"), address("steady"), "one arena per system");
    assert!(
        runs.iter()
            .filter(|run| run.0 == "bursty")
            .all(|run| run.3 == address("bursty"))
    );
    // Bursts every other run: their pages stay committed between them
    // (no page is faulted in again), as the retention window says.
    let bursty_committed: Vec<usize> = runs
        .iter()
        .filter(|run| run.0 == "bursty")
        .map(|run| run.2)
        .collect();
    for committed in &bursty_committed[1..] {
        assert!(
            *committed >= 8 << 20,
            "a recurring burst's pages went back: {bursty_committed:?}"
        );
    }
}

/// A scratch arena whose bursts' pages go back after 4 quiet runs.
struct ShortMemory;
impl ScratchSize for ShortMemory {
    fn builder() -> tickarena::FrameArenaBuilder {
        tickarena::FrameArena::builder()
            .reserve(64 << 20)
            .retain(SCRATCH_RETAIN)
            .release_after(4)
    }
}

#[derive(Resource, Default)]
struct Committed(Vec<usize>);

/// One 8 MiB burst in its first run, then quiet runs.
fn once(scratch: FrameScratch<ShortMemory>, mut committed: ResMut<Committed>) {
    committed.0.push(scratch.stats().committed);
    let bytes = if committed.0.len() == 1 {
        8 << 20
    } else {
        4 << 10
    };
    let block = scratch.alloc_slice_fill_with(bytes, |i| i as u8);
    assert_eq!(block[bytes - 1], (bytes - 1) as u8);
}

#[test]
fn a_burst_that_stops_gives_its_pages_back() {
    let mut app = App::new();
    app.init_resource::<Committed>().add_systems(Update, once);
    for _ in 0..12 {
        app.update();
    }
    let committed = &app.world().resource::<Committed>().0;
    assert!(committed[1] >= 8 << 20, "kept at first: {committed:?}");
    assert!(
        committed[11] <= SCRATCH_RETAIN,
        "given back within two windows of quiet runs: {committed:?}"
    );
}

/// What `sized` saw each run: the room its lists started with, and its
/// scratch's bytes at the end of the run.
#[derive(Resource, Default)]
struct Sized(Vec<(usize, usize, usize)>);

/// Two flat lists filled in turn, as a system with two `Local<Vec<_>>`s
/// fills them; here from `vec_at_last_size`, which remembers their sizes
/// per line of code, as the `Local`s remember their capacities.
fn sized(scratch: FrameScratch, mut seen: ResMut<Sized>) {
    let mut ids = scratch.vec_at_last_size::<u32>();
    let mut weights = scratch.vec_at_last_size::<f32>();
    let room = (ids.capacity(), weights.capacity());
    for id in 0..3000u32 {
        ids.push(id);
        weights.push(id as f32 * 0.5);
    }
    assert_eq!(ids.len(), weights.len());
    let used = scratch.used();
    drop((ids, weights)); // their sizes recorded
    seen.0.push((room.0, room.1, used));
}

#[test]
fn scratch_lists_start_at_the_size_the_last_run_needed() {
    let mut app = App::new();
    app.init_resource::<Sized>().add_systems(Update, sized);
    for _ in 0..3 {
        app.update();
    }
    let runs = &app.world().resource::<Sized>().0;
    // The first run grows both from empty, copying each (they take turns
    // at the arena's top): more bytes than the two lists.
    assert_eq!((runs[0].0, runs[0].1), (0, 0));
    assert!(runs[0].2 > 2 * 3000 * 4, "{runs:?}");
    // Later runs start at the most the first needed (the capacity it grew
    // to: it grew, so its length at the end may not be all it needed):
    // nothing grows, nothing is left behind.
    let (ids, weights, used) = runs[1];
    assert!(ids >= 3000 && weights >= 3000, "{runs:?}");
    assert_eq!(used, (ids + weights) * 4);
    assert_eq!(runs[2], runs[1]);
}
