//! tickarena-bevy as its README recommends: the jobs' intents come back
//! through a `Collector` in the worker arenas and go to the planner as
//! frame data; the planner's positions and grid are its `FrameScratch`;
//! the neighbour list is one frame vector for all the searches, cleared
//! before each, as the `Local` version's list is, from
//! `vec_at_last_size` (it starts at the most a search needed lately, as
//! the `Local` keeps its capacity); the requests are frame data read by
//! both readers. Nothing to size or index by hand.
//!
//! The variants keep a list per search instead, in a scope on a scratch of
//! its own (`FrameScratch::scoped`): from `vec_at_last_size`, with room for
//! 16 guessed, or grown from empty.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use tickarena_bevy::{
    CovariantFrameData, FrameData, FrameDataApp, FrameReader, FrameScratch, FrameVec, FrameWriter,
    TickarenaPlugin, Workers, format_in,
};

use crate::game::{
    CELLS, FrameCount, Intent, Position, ReportTotals, UNITS, Unit, WalkTotals, build_grid,
    for_each_near, is_close, path_length, step_unit, waypoints,
};

/// The units that want a path this frame, by id.
struct Intents;
impl FrameData for Intents {
    type Of<'f> = &'f [Intent];
}
// Read with `get()`, without a closure: the data is covariant (shown to the
// compiler by `shorten`, which compiles only if it is).
impl CovariantFrameData for Intents {
    fn shorten<'s, 'l: 's>(data: &'s &'l [Intent]) -> &'s &'s [Intent] {
        data
    }
}

/// The path requests: a label, the waypoints, and how many neighbours the
/// path steered around.
struct Requests;
impl FrameData for Requests {
    type Of<'f> = &'f [(&'f str, &'f [(i32, i32)], u32)];
}
impl CovariantFrameData for Requests {
    fn shorten<'s, 'l: 's>(
        data: &'s &'l [(&'l str, &'l [(i32, i32)], u32)],
    ) -> &'s &'s [(&'s str, &'s [(i32, i32)], u32)] {
        data
    }
}

/// `ROOM` for one neighbour list for all the searches, cleared before
/// each (`plan_one_list`): the default.
pub const ONE_LIST: usize = usize::MAX - 1;

/// `ROOM` that makes each search's list (in its scope) start at the size
/// the lists needed lately (`vec_at_last_size`).
pub const LAST_SIZE: usize = usize::MAX;

/// `ROOM` for one neighbour list, as [`ONE_LIST`], and every other buffer
/// the game rebuilds each frame (the grid's, the walk's lengths) from
/// `vec_at_last_size` too: a game that follows the guide everywhere.
pub const ALL_LAST_SIZE: usize = usize::MAX - 2;

/// The game's systems: one neighbour list for the frame (`ROOM` =
/// [`ONE_LIST`]), or a list per search in a scope that starts at the size
/// the searches needed lately ([`LAST_SIZE`]) or with room for `ROOM`
/// neighbours (0: `Vec::new_in(temp)`, as the game wrote it).
pub fn add<const ROOM: usize>(app: &mut App) {
    app.add_plugins(TickarenaPlugin)
        .init_frame_data::<Intents>()
        .init_frame_data::<Requests>();
    if ROOM == ONE_LIST {
        app.add_systems(
            Update,
            (step, plan_one_list::<false>, (walk, report)).chain(),
        );
    } else if ROOM == ALL_LAST_SIZE {
        app.add_systems(
            Update,
            (step, plan_one_list::<true>, (walk_sized, report)).chain(),
        );
    } else {
        app.add_systems(Update, (step, plan::<ROOM>, (walk, report)).chain());
    }
}

fn step(
    mut frame: ResMut<FrameCount>,
    workers: Workers,
    mut units: Query<(&Unit, &mut Position)>,
    mut intents: FrameWriter<Intents>,
) {
    frame.0 += 1;
    let frame = frame.0;
    let mut found = workers.collector();
    units.par_iter_mut().for_each(|(unit, mut position)| {
        if let Some(intent) = step_unit(unit.0, &mut position, frame) {
            found.push(intent);
        }
    });
    intents.publish(|arena| {
        let mut all = Vec::new_in(arena);
        found.drain_into(&mut all);
        all.sort_unstable_by_key(|intent| intent.unit);
        &*all.leak()
    });
}

/// Every unit's position, by id, and a grid of them (cell `c`'s units are
/// `members[starts[c]..starts[c + 1]]`), in the system's scratch.
fn grid<'s>(
    scratch: &'s FrameScratch,
    units: &Query<(&Unit, &Position)>,
) -> (FrameVec<'s, [f32; 2]>, FrameVec<'s, u32>, FrameVec<'s, u32>) {
    let zeroed = |len: usize| {
        let mut buffer = Vec::with_capacity_in(len, &**scratch);
        buffer.resize(len, 0u32);
        buffer
    };
    let mut positions = Vec::with_capacity_in(UNITS as usize, &**scratch);
    positions.resize(UNITS as usize, [0.0; 2]);
    let (mut starts, mut next) = (zeroed(CELLS * CELLS + 1), zeroed(CELLS * CELLS + 1));
    let mut members = zeroed(UNITS as usize);
    let units = units.iter().map(|(unit, position)| (unit.0, position.0));
    build_grid(units, &mut positions, &mut starts, &mut next, &mut members);
    (positions, starts, members)
}

/// [`grid`], each buffer from `vec_at_last_size` (a call site each).
fn grid_sized<'s>(
    scratch: &'s FrameScratch,
    units: &Query<(&Unit, &Position)>,
) -> (FrameVec<'s, [f32; 2]>, FrameVec<'s, u32>, FrameVec<'s, u32>) {
    let mut positions = scratch.vec_at_last_size();
    positions.resize(UNITS as usize, [0.0; 2]);
    let mut starts = scratch.vec_at_last_size();
    starts.resize(CELLS * CELLS + 1, 0u32);
    let mut next = scratch.vec_at_last_size();
    next.resize(CELLS * CELLS + 1, 0u32);
    let mut members = scratch.vec_at_last_size();
    members.resize(UNITS as usize, 0u32);
    let units = units.iter().map(|(unit, position)| (unit.0, position.0));
    build_grid(units, &mut positions, &mut starts, &mut next, &mut members);
    (positions.into_vec(), starts.into_vec(), members.into_vec())
}

fn plan_one_list<const SIZED: bool>(
    scratch: FrameScratch,
    units: Query<(&Unit, &Position)>,
    intents: FrameReader<Intents>,
    mut requests: FrameWriter<Requests>,
) {
    let (positions, starts, members) = if SIZED {
        grid_sized(&scratch, &units)
    } else {
        grid(&scratch, &units)
    };
    // The neighbour list, for all the searches: it starts at the most a
    // search needed lately (kept by the arena for this line of code).
    let mut close = scratch.vec_at_last_size();
    let intents = intents.get();
    requests.publish(|arena| {
        let mut all = Vec::with_capacity_in(intents.len(), arena);
        for intent in *intents {
            let from = positions[intent.unit as usize];
            close.clear();
            for_each_near(from, &starts, &members, |other| {
                let at = positions[other as usize];
                if other != intent.unit && is_close(from, at) {
                    close.push(at);
                }
            });
            let path = arena.alloc_slice_fill_iter(waypoints(from, intent.goal, &close));
            let label = format_in!(
                arena,
                crate::label_format!(),
                intent.unit,
                close.len(),
                intent.goal[0] as i32,
                intent.goal[1] as i32,
                path.len()
            );
            all.push((&*label.leak(), &*path, close.len() as u32));
        }
        &*all.leak()
    });
}

fn plan<const ROOM: usize>(
    scratch: FrameScratch,
    mut searches: FrameScratch,
    units: Query<(&Unit, &Position)>,
    intents: FrameReader<Intents>,
    mut requests: FrameWriter<Requests>,
) {
    let (positions, starts, members) = grid(&scratch, &units);
    let intents = intents.get();
    requests.publish(|arena| {
        let mut all = Vec::with_capacity_in(intents.len(), arena);
        for intent in *intents {
            let from = positions[intent.unit as usize];
            // The neighbour list lives for this search alone, in a scope on
            // the system's second scratch (a checkpoint of its top: the
            // first holds the grid the search reads). Room for the
            // usual count costs nothing in a scope (nothing is written
            // until pushed; the scope's end gives it back) and spares std's
            // `Vec` its growth from empty: 4, 8, 16, each an out-of-line call.
            let (path, close) = searches.scoped(|temp| {
                // The size the lists of this run and the last ones needed
                // (kept by the arena for this line of code), or a guess.
                let (mut sized, mut room);
                let close: &mut Vec<_, _> = if ROOM == LAST_SIZE {
                    sized = temp.vec_at_last_size();
                    &mut sized
                } else {
                    room = Vec::with_capacity_in(ROOM, temp);
                    &mut room
                };
                for_each_near(from, &starts, &members, |other| {
                    let at = positions[other as usize];
                    if other != intent.unit && is_close(from, at) {
                        close.push(at);
                    }
                });
                let path = arena.alloc_slice_fill_iter(waypoints(from, intent.goal, close));
                (path, close.len() as u32)
            });
            let label = format_in!(
                arena,
                crate::label_format!(),
                intent.unit,
                close,
                intent.goal[0] as i32,
                intent.goal[1] as i32,
                path.len()
            );
            all.push((&*label.leak(), &*path, close));
        }
        &*all.leak()
    });
}

fn walk(requests: FrameReader<Requests>, scratch: FrameScratch, mut totals: ResMut<WalkTotals>) {
    let all = requests.get();
    let mut lengths = Vec::with_capacity_in(all.len(), &*scratch);
    lengths.extend(all.iter().map(|(_, path, _)| path_length(path)));
    totals.steps += lengths.iter().sum::<u64>();
    totals.requests += all.len() as u64;
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    totals.longest += lengths[..10].iter().sum::<u64>();
}

/// [`walk`], its lengths from `vec_at_last_size`.
fn walk_sized(
    requests: FrameReader<Requests>,
    scratch: FrameScratch,
    mut totals: ResMut<WalkTotals>,
) {
    let all = requests.get();
    let mut lengths = scratch.vec_at_last_size();
    lengths.extend(all.iter().map(|(_, path, _)| path_length(path)));
    totals.steps += lengths.iter().sum::<u64>();
    totals.requests += all.len() as u64;
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    totals.longest += lengths[..10].iter().sum::<u64>();
}

fn report(requests: FrameReader<Requests>, mut totals: ResMut<ReportTotals>) {
    let all = requests.get();
    totals.label_bytes += all
        .iter()
        .map(|(label, ..)| label.len() as u64)
        .sum::<u64>();
    totals.neighbours += all.iter().map(|&(.., close)| u64::from(close)).sum::<u64>();
}
