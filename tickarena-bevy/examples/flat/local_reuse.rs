//! Flat buffers kept across frames in `Local<Vec<_>>`s, cleared and filled
//! again each frame: what a Bevy programmer writes today.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;

use crate::game::{
    CELLS, Checksum, FrameCount, LastCell, Position, Search, UNITS, Unit, build_grid, fold_crossed,
    fold_summaries, note_crossings, search,
};

/// The systems; `OWN_FUNCTION`: the search loop in a function of its own.
pub fn add<const OWN_FUNCTION: bool>(app: &mut App) {
    app.add_systems(
        Update,
        (spatial::<OWN_FUNCTION>, events).chain().in_set(Search),
    );
}

#[allow(clippy::too_many_arguments)]
fn spatial<const OWN_FUNCTION: bool>(
    frame: Res<FrameCount>,
    units: Query<(&Unit, &Position)>,
    mut sum: ResMut<Checksum>,
    mut positions: Local<Vec<Position>>,
    mut starts: Local<Vec<u32>>,
    mut next: Local<Vec<u32>>,
    mut members: Local<Vec<u32>>,
    mut near: Local<Vec<(u32, f32)>>,
    mut summaries: Local<Vec<(u32, f32)>>,
) {
    positions.clear();
    positions.resize(UNITS as usize, Position(0.0, 0.0));
    for (unit, p) in &units {
        positions[unit.0 as usize] = *p;
    }
    starts.clear();
    starts.resize(CELLS + 1, 0);
    next.clear();
    next.resize(CELLS, 0);
    members.clear();
    members.resize(UNITS as usize, 0);
    build_grid(&positions, &mut starts, &mut next, &mut members);
    summaries.clear();
    let near = &mut *near;
    search::<OWN_FUNCTION, _, _>(frame.0, &positions, &starts, &members, near, &mut summaries);
    fold_summaries(&mut sum.0, &summaries);
}

fn events(
    mut units: Query<(&Unit, &Position, &mut LastCell)>,
    mut sum: ResMut<Checksum>,
    mut crossed: Local<Vec<u32>>,
) {
    crossed.clear();
    note_crossings(&mut units, &mut *crossed);
    fold_crossed(&mut sum.0, &crossed);
}
