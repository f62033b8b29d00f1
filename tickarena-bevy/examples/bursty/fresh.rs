//! The straightforward version: new `Vec`s, `String`s and a new `Parallel`
//! every frame, the requests handed over in a resource replaced each frame.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_utils::Parallel;

use crate::game::{FrameCount, Totals, Unit, needs_path, path_length, requests_in, waypoints};

struct Request {
    unit: u32,
    label: String,
    path: Vec<(i32, i32)>,
}

#[derive(Resource, Default)]
struct Requests(Vec<Request>);

pub fn add(app: &mut App) {
    app.init_resource::<Requests>()
        .add_systems(Update, (plan, (walk, report)).chain());
}

fn plan(mut frame: ResMut<FrameCount>, units: Query<&Unit>, mut requests: ResMut<Requests>) {
    frame.0 += 1;
    let frame = frame.0;
    let mut found = Parallel::<Vec<u32>>::default();
    units.par_iter().for_each(|unit| {
        if needs_path(unit.0, frame) {
            found.borrow_local_mut().push(unit.0);
        }
    });
    let mut needy: Vec<u32> = found.drain().collect();
    needy.sort_unstable();
    requests.0 = (0..requests_in(frame))
        .map(|i| {
            let unit = needy[i % needy.len()];
            let path: Vec<(i32, i32)> = waypoints(unit, frame).collect();
            let label = format!("unit {unit} to goal {i} via {} waypoints", path.len());
            Request { unit, label, path }
        })
        .collect();
}

fn walk(requests: Res<Requests>, mut totals: ResMut<Totals>) {
    let mut lengths: Vec<u64> = requests.0.iter().map(|r| path_length(&r.path)).collect();
    totals.steps += lengths.iter().sum::<u64>();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    totals.longest += lengths[..10].iter().sum::<u64>();
    let _ = requests.0[0].unit;
}

fn report(requests: Res<Requests>, mut totals: ResMut<Totals>) {
    totals.label_bytes += requests.0.iter().map(|r| r.label.len() as u64).sum::<u64>();
    let summary: String = requests.0[..10]
        .iter()
        .map(|r| format!("{}, ", r.label))
        .collect();
    let line = format!("{} requests: {summary}", requests.0.len());
    totals.summary_bytes += line.len() as u64;
}
