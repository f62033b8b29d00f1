//! What a careful Bevy programmer writes today to avoid per-frame
//! allocation: `Local<Parallel<Vec<_>>>` for the jobs' intents, a resource
//! of flat buffers reused every frame for the intents and the requests
//! (labels in one `String`, paths in one `Vec`, ranges into them), `Local`s
//! for the planner's grid and the neighbour list, all cleared and refilled.
//! Allocation-free once warm; every buffer keeps the capacity of the
//! largest frame it saw.

use std::fmt::Write;
use std::ops::Range;

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_utils::Parallel;

use crate::game::{
    CELLS, FrameCount, Intent, Position, ReportTotals, UNITS, Unit, WalkTotals, build_grid,
    for_each_near, is_close, path_length, step_unit, waypoints,
};

/// The frame's intents, sorted by unit.
#[derive(Resource, Default)]
struct Intents(Vec<Intent>);

/// The frame's requests, flat: each names its label and path by range.
#[derive(Resource, Default)]
struct Requests {
    items: Vec<Request>,
    labels: String,
    paths: Vec<(i32, i32)>,
}

struct Request {
    label: Range<usize>,
    path: Range<usize>,
    close: u32,
}

pub fn add(app: &mut App) {
    app.init_resource::<Intents>()
        .init_resource::<Requests>()
        .add_systems(Update, (step, plan, (walk, report)).chain());
}

fn step(
    mut frame: ResMut<FrameCount>,
    mut units: Query<(&Unit, &mut Position)>,
    mut found: Local<Parallel<Vec<Intent>>>,
    mut intents: ResMut<Intents>,
) {
    frame.0 += 1;
    let frame = frame.0;
    units.par_iter_mut().for_each(|(unit, mut position)| {
        if let Some(intent) = step_unit(unit.0, &mut position, frame) {
            found.borrow_local_mut().push(intent);
        }
    });
    intents.0.clear();
    found.drain_into(&mut intents.0);
    intents.0.sort_unstable_by_key(|intent| intent.unit);
}

/// The planner's grid, kept between frames for its capacity.
#[derive(Default)]
struct Grid {
    positions: Vec<[f32; 2]>,
    starts: Vec<u32>,
    next: Vec<u32>,
    members: Vec<u32>,
}

fn plan(
    units: Query<(&Unit, &Position)>,
    intents: Res<Intents>,
    mut grid: Local<Grid>,
    mut close: Local<Vec<[f32; 2]>>,
    mut requests: ResMut<Requests>,
) {
    let Grid {
        positions,
        starts,
        next,
        members,
    } = &mut *grid;
    for (buffer, len) in [
        (&mut *starts, CELLS * CELLS + 1),
        (&mut *next, CELLS * CELLS + 1),
        (&mut *members, UNITS as usize),
    ] {
        buffer.clear();
        buffer.resize(len, 0);
    }
    positions.clear();
    positions.resize(UNITS as usize, [0.0; 2]);
    let units = units.iter().map(|(unit, position)| (unit.0, position.0));
    build_grid(units, positions, starts, next, members);
    let requests = &mut *requests;
    requests.items.clear();
    requests.labels.clear();
    requests.paths.clear();
    for intent in &intents.0 {
        let from = positions[intent.unit as usize];
        close.clear();
        for_each_near(from, starts, members, |other| {
            let at = positions[other as usize];
            if other != intent.unit && is_close(from, at) {
                close.push(at);
            }
        });
        let path_start = requests.paths.len();
        requests.paths.extend(waypoints(from, intent.goal, &close));
        let label_start = requests.labels.len();
        let _ = write!(
            requests.labels,
            crate::label_format!(),
            intent.unit,
            close.len(),
            intent.goal[0] as i32,
            intent.goal[1] as i32,
            requests.paths.len() - path_start
        );
        requests.items.push(Request {
            label: label_start..requests.labels.len(),
            path: path_start..requests.paths.len(),
            close: close.len() as u32,
        });
    }
}

fn walk(requests: Res<Requests>, mut lengths: Local<Vec<u64>>, mut totals: ResMut<WalkTotals>) {
    lengths.clear();
    lengths.extend(
        requests
            .items
            .iter()
            .map(|request| path_length(&requests.paths[request.path.clone()])),
    );
    totals.steps += lengths.iter().sum::<u64>();
    totals.requests += requests.items.len() as u64;
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    totals.longest += lengths[..10].iter().sum::<u64>();
}

fn report(requests: Res<Requests>, mut totals: ResMut<ReportTotals>) {
    totals.label_bytes += requests
        .items
        .iter()
        .map(|request| request.label.len() as u64)
        .sum::<u64>();
    totals.neighbours += requests
        .items
        .iter()
        .map(|request| u64::from(request.close))
        .sum::<u64>();
}
