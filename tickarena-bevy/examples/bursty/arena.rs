//! tickarena: the requests are per-frame data (`FrameWriter` in the
//! planner, `FrameReader` in both consumers; their paths, lists of lists,
//! a `FrameRows` packed like hand CSR), the needy units come back
//! from the `par_iter` jobs through a `Collector` in the worker arenas,
//! and each consumer's temporaries are in its `FrameScratch`. Nothing to
//! clear or to size: every frame starts empty, and a burst's pages go back.
//! The requests have a budget of 1 MiB a frame, which every burst breaks:
//! the arena reports it on stderr (a line at most every 300 frames).

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use tickarena::{FrameArena, FrameData, FrameRows, format_in};
use tickarena_bevy::{
    FRAME_DATA_RESERVE, FRAME_DATA_RETAIN, FrameDataApp, FrameReader, FrameScratch, FrameWriter,
    TickarenaPlugin, Workers,
};

use crate::game::{FrameCount, Totals, Unit, needs_path, path_length, requests_in, waypoints};

/// Each request's unit and label, and the paths: request `i`'s waypoints
/// are row `i` of a `FrameRows` (lists of lists packed in one buffer).
struct Requests;
impl FrameData for Requests {
    type Of<'f> = (&'f [(u32, &'f str)], FrameRows<'f, (i32, i32)>);
}

pub fn add(app: &mut App) {
    // Ordinary frames' requests take some 180 KiB, a burst's 3.5 MiB.
    let requests = FrameArena::builder()
        .reserve(FRAME_DATA_RESERVE)
        .retain(FRAME_DATA_RETAIN)
        .frame_budget(1 << 20);
    app.add_plugins(TickarenaPlugin)
        .init_frame_data_with::<Requests>(requests)
        .add_systems(Update, (plan, (walk, report)).chain());
}

fn plan(
    mut frame: ResMut<FrameCount>,
    workers: Workers,
    scratch: FrameScratch,
    units: Query<&Unit>,
    mut requests: FrameWriter<Requests>,
) {
    frame.0 += 1;
    let frame = frame.0;
    let mut found = workers.collector();
    units.par_iter().for_each(|unit| {
        if needs_path(unit.0, frame) {
            found.push(unit.0);
        }
    });
    let mut needy = Vec::new_in(&scratch);
    found.drain_into(&mut needy);
    needy.sort_unstable();
    requests.publish(|arena| {
        let unit_of = |i: usize| needy[i % needy.len()];
        let paths = FrameRows::from_rows_in(
            (0..requests_in(frame)).map(|i| waypoints(unit_of(i), frame)),
            arena,
        );
        let mut all = Vec::with_capacity_in(paths.len(), arena);
        for (i, path) in paths.iter().enumerate() {
            let unit = unit_of(i);
            let label = format_in!(
                arena,
                "unit {unit} to goal {i} via {} waypoints",
                path.len()
            );
            all.push((unit, &*label.leak()));
        }
        (&*all.leak(), paths)
    });
}

fn walk(requests: FrameReader<Requests>, scratch: FrameScratch, mut totals: ResMut<Totals>) {
    requests.read(|(_, paths)| {
        let mut lengths = Vec::with_capacity_in(paths.len(), &scratch);
        lengths.extend(paths.iter().map(path_length));
        totals.steps += lengths.iter().sum::<u64>();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        totals.longest += lengths[..10].iter().sum::<u64>();
    });
}

fn report(requests: FrameReader<Requests>, scratch: FrameScratch, mut totals: ResMut<Totals>) {
    requests.read(|&(all, _)| {
        totals.label_bytes += all.iter().map(|(_, label)| label.len() as u64).sum::<u64>();
        let mut summary = tickarena::String::new_in(&*scratch);
        for (_, label) in &all[..10] {
            summary.push_str(label);
            summary.push_str(", ");
        }
        let line = format_in!(&*scratch, "{} requests: {summary}", all.len());
        totals.summary_bytes += line.len() as u64;
    });
}
