//! The requests flattened by hand into CSR buffers, what a programmer
//! writes for the one hot structure they tune: one waypoint buffer with a
//! start-offset table, one `String` holding every label with its own
//! offsets, all in a resource cleared and refilled every frame; the jobs'
//! results and each consumer's temporaries in `Local`s. As tight as the
//! data can be packed, allocation-free once warm, and every buffer keeps
//! the capacity of the largest frame it ever saw.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_utils::Parallel;
use std::fmt::Write;

use crate::game::{FrameCount, Totals, Unit, needs_path, path_length, requests_in, waypoints};

/// Request `i` is `units[i]`, the waypoints `waypoints[path_starts[i]..path_starts[i + 1]]`
/// and the label `labels[label_starts[i]..label_starts[i + 1]]`.
#[derive(Resource, Default)]
struct Requests {
    units: Vec<u32>,
    path_starts: Vec<usize>,
    waypoints: Vec<(i32, i32)>,
    label_starts: Vec<usize>,
    labels: String,
}

impl Requests {
    fn len(&self) -> usize {
        self.units.len()
    }

    fn path(&self, i: usize) -> &[(i32, i32)] {
        &self.waypoints[self.path_starts[i]..self.path_starts[i + 1]]
    }

    fn label(&self, i: usize) -> &str {
        &self.labels[self.label_starts[i]..self.label_starts[i + 1]]
    }
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
    requests.units.clear();
    requests.waypoints.clear();
    requests.labels.clear();
    requests.path_starts.clear();
    requests.path_starts.push(0);
    requests.label_starts.clear();
    requests.label_starts.push(0);
    for i in 0..requests_in(frame) {
        let unit = needy[i % needy.len()];
        requests.units.push(unit);
        let start = requests.waypoints.len();
        requests.waypoints.extend(waypoints(unit, frame));
        let waypoint_count = requests.waypoints.len() - start;
        requests.path_starts.push(requests.waypoints.len());
        let _ = write!(
            requests.labels,
            "unit {unit} to goal {i} via {waypoint_count} waypoints"
        );
        requests.label_starts.push(requests.labels.len());
    }
}

fn walk(requests: Res<Requests>, mut lengths: Local<Vec<u64>>, mut totals: ResMut<Totals>) {
    lengths.clear();
    lengths.extend((0..requests.len()).map(|i| path_length(requests.path(i))));
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
    totals.label_bytes += requests.labels.len() as u64;
    summary.clear();
    for i in 0..10 {
        summary.push_str(requests.label(i));
        summary.push_str(", ");
    }
    line.clear();
    let _ = write!(line, "{} requests: {}", requests.len(), *summary);
    totals.summary_bytes += line.len() as u64;
}
