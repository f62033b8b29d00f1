//! The same schedule with empty systems: the planner's `par_iter` over the
//! units and two consumers after it, doing nothing. What Bevy itself costs
//! (its executor, its task pool's jobs), subtracted from the others'
//! allocation counts.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;

use crate::game::{FrameCount, Unit, needs_path};

pub fn add(app: &mut App) {
    app.add_systems(Update, (plan, (walk, report)).chain());
}

/// The same, with an empty exclusive system in `Last` as well: the shape
/// of the arena version's schedule (tickarena-bevy's frame end, which
/// resets the worker arenas and ends the frame data), since Bevy's
/// executor allocates for each system it runs.
pub fn add_with_one_in_last(app: &mut App) {
    add(app);
    app.add_systems(bevy_app::Last, |_: &mut World| {});
}

fn plan(mut frame: ResMut<FrameCount>, units: Query<&Unit>) {
    frame.0 += 1;
    let frame = frame.0;
    units.par_iter().for_each(|unit| {
        std::hint::black_box(needs_path(unit.0, frame));
    });
}

fn walk(frame: Res<FrameCount>) {
    std::hint::black_box(frame.0);
}

fn report(frame: Res<FrameCount>) {
    std::hint::black_box(frame.0);
}
