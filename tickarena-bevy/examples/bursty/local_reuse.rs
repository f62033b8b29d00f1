//! What Bevy users write today to avoid per-frame allocation: buffers kept
//! in a resource and `Local`s, cleared and refilled every frame (the
//! requests' strings and paths reused in place), and a `Local<Parallel>`
//! for the jobs' results. Allocation-free once warm; but every buffer keeps
//! the capacity of the largest frame it ever saw.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_utils::Parallel;
use std::fmt::Write;

use crate::game::{FrameCount, Totals, Unit, needs_path, path_length, requests_in, waypoints};

#[derive(Default)]
struct Request {
    unit: u32,
    label: String,
    path: Vec<(i32, i32)>,
}

/// The frame's requests: the first `len` of `items` are this frame's; the
/// rest are kept for their capacity.
#[derive(Resource, Default)]
struct Requests {
    items: Vec<Request>,
    len: usize,
}

pub fn add(app: &mut App) {
    app.init_resource::<Requests>()
        .add_systems(Update, (plan, (walk, report)).chain());
}

fn plan(
    mut frame: ResMut<FrameCount>,
    units: Query<&Unit>,
    mut found: Local<Parallel<Vec<u32>>>,
    mut needy: Local<Vec<u32>>,
    mut requests: ResMut<Requests>,
) {
    frame.0 += 1;
    let frame = frame.0;
    units.par_iter().for_each(|unit| {
        if needs_path(unit.0, frame) {
            found.borrow_local_mut().push(unit.0);
        }
    });
    needy.clear();
    found.drain_into(&mut needy);
    needy.sort_unstable();
    let requests = &mut *requests;
    requests.len = requests_in(frame);
    if requests.items.len() < requests.len {
        requests.items.resize_with(requests.len, Request::default);
    }
    for (i, request) in requests.items[..requests.len].iter_mut().enumerate() {
        request.unit = needy[i % needy.len()];
        request.path.clear();
        request.path.extend(waypoints(request.unit, frame));
        request.label.clear();
        let _ = write!(
            request.label,
            "unit {} to goal {i} via {} waypoints",
            request.unit,
            request.path.len()
        );
    }
}

fn walk(requests: Res<Requests>, mut lengths: Local<Vec<u64>>, mut totals: ResMut<Totals>) {
    let all = &requests.items[..requests.len];
    lengths.clear();
    lengths.extend(all.iter().map(|request| path_length(&request.path)));
    totals.steps += lengths.iter().sum::<u64>();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    totals.longest += lengths[..10].iter().sum::<u64>();
}

fn report(
    requests: Res<Requests>,
    mut summary: Local<String>,
    mut line: Local<String>,
    mut totals: ResMut<Totals>,
) {
    let all = &requests.items[..requests.len];
    totals.label_bytes += all
        .iter()
        .map(|request| request.label.len() as u64)
        .sum::<u64>();
    summary.clear();
    for request in &all[..10] {
        summary.push_str(&request.label);
        summary.push_str(", ");
    }
    line.clear();
    let _ = write!(line, "{} requests: {}", all.len(), *summary);
    totals.summary_bytes += line.len() as u64;
}
