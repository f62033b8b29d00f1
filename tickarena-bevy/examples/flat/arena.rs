//! The same buffers as the guide says: each one the system rebuilds every
//! frame from `scratch.vec_at_last_size()` (it starts at the most its line
//! needed lately, as a `Local` keeps its capacity), the neighbour list one
//! of them for the whole run, cleared before each search.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use tickarena_bevy::{FrameScratch, TickarenaPlugin};

use crate::game::{
    CELLS, Checksum, FrameCount, LastCell, Position, Search, UNITS, Unit, build_grid, fold_crossed,
    fold_summaries, note_crossings, search,
};

/// The systems; `OWN_FUNCTION`: the search loop in a function of its own.
pub fn add<const OWN_FUNCTION: bool>(app: &mut App) {
    app.add_plugins(TickarenaPlugin).add_systems(
        Update,
        (spatial::<OWN_FUNCTION>, events).chain().in_set(Search),
    );
}

fn spatial<const OWN_FUNCTION: bool>(
    frame: Res<FrameCount>,
    units: Query<(&Unit, &Position)>,
    mut sum: ResMut<Checksum>,
    scratch: FrameScratch,
) {
    let mut positions = scratch.vec_at_last_size();
    positions.resize(UNITS as usize, Position(0.0, 0.0));
    for (unit, p) in &units {
        positions[unit.0 as usize] = *p;
    }
    let mut starts = scratch.vec_at_last_size();
    starts.resize(CELLS + 1, 0);
    let mut next = scratch.vec_at_last_size();
    next.resize(CELLS, 0);
    let mut members = scratch.vec_at_last_size();
    members.resize(UNITS as usize, 0);
    build_grid(&positions, &mut starts, &mut next, &mut members);
    let mut near = scratch.vec_at_last_size::<(u32, f32)>();
    let mut summaries = scratch.vec_at_last_size();
    search::<OWN_FUNCTION, _, _>(
        frame.0,
        &positions,
        &starts,
        &members,
        &mut near,
        &mut summaries,
    );
    fold_summaries(&mut sum.0, &summaries);
}

fn events(
    mut units: Query<(&Unit, &Position, &mut LastCell)>,
    mut sum: ResMut<Checksum>,
    scratch: FrameScratch,
) {
    let mut crossed = scratch.vec_at_last_size();
    note_crossings(&mut units, &mut *crossed);
    fold_crossed(&mut sum.0, &crossed);
}
