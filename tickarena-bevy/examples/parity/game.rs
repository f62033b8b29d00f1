//! What both versions share: the units, the frame's workload and the
//! arithmetic of every system, so that they differ only in where their
//! memory comes from.
//!
//! Each frame: every unit moves and decides whether it wants a path (a
//! tenth of them; every unit in a burst frame, every 60th); the planner
//! builds a spatial grid of all units, finds each asking unit's neighbours
//! in the 3x3 cells around it, plans a path that steers away from them and
//! formats a label; two readers go over the published requests in
//! parallel.

use bevy_ecs::prelude::*;

/// Units in the world.
pub const UNITS: u32 = 4000;
/// Every this many frames, a burst: every unit asks for a path (10x).
pub const BURST_EVERY: u64 = 60;
/// The world is a square of this side; the grid's cells are CELL wide.
pub const SIDE: f32 = 1024.0;
pub const CELL: f32 = 32.0;
pub const CELLS: usize = (SIDE / CELL) as usize;
/// Neighbours closer than this push a path away.
const NEAR: f32 = 24.0;

#[derive(Component)]
pub struct Unit(pub u32);

#[derive(Component, Clone, Copy)]
pub struct Position(pub [f32; 2]);

/// The frame number, counted by the movement system.
#[derive(Resource, Default)]
pub struct FrameCount(pub u64);

/// What the first reader found. With [`ReportTotals`], equal in both
/// versions (the check that they do the same work); two resources, so the
/// two readers run in parallel.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq, Debug)]
pub struct WalkTotals {
    pub requests: u64,
    pub steps: u64,
    pub longest: u64,
}

/// What the second reader found.
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReportTotals {
    pub label_bytes: u64,
    pub neighbours: u64,
}

/// The label of a request.
#[macro_export]
macro_rules! label_format {
    () => {
        "unit {} around {} to ({}, {}) in {} steps"
    };
}

pub fn is_burst(frame: u64) -> bool {
    frame > 0 && frame.is_multiple_of(BURST_EVERY)
}

/// A unit's intent this frame: where it wants to go, if anywhere.
#[derive(Clone, Copy)]
pub struct Intent {
    pub unit: u32,
    pub goal: [f32; 2],
}

/// Moves `unit` one step and returns its intent, if it wants a path.
#[inline]
pub fn step_unit(unit: u32, position: &mut Position, frame: u64) -> Option<Intent> {
    let phase = (unit as f32) * 0.618 + frame as f32 * 0.01;
    let [x, y] = &mut position.0;
    *x = (*x + phase.cos() * 1.5).rem_euclid(SIDE);
    *y = (*y + phase.sin() * 1.5).rem_euclid(SIDE);
    let asks = is_burst(frame) || (u64::from(unit) + frame).is_multiple_of(10);
    asks.then(|| Intent {
        unit,
        goal: [
            ((unit * 97) % 1024) as f32,
            ((unit as u64 * 31 + frame) % 1024) as f32,
        ],
    })
}

/// A unit's first position.
pub fn start(unit: u32) -> Position {
    Position([((unit * 37) % 1024) as f32, ((unit * 91) % 1024) as f32])
}

/// The grid cell of a position.
#[inline]
pub fn cell_of([x, y]: [f32; 2]) -> (usize, usize) {
    let cell = |v: f32| ((v / CELL) as usize).min(CELLS - 1);
    (cell(x), cell(y))
}

/// Fills the planner's grid: every unit's position by id, and the units of
/// cell `c` as `members[starts[c]..starts[c + 1]]` (counted, then placed,
/// `next` being the placing cursor). The buffers come zeroed, sized
/// `UNITS`, `CELLS * CELLS + 1` (twice) and `UNITS`: each version makes
/// them its own way.
pub fn build_grid(
    units: impl IntoIterator<Item = (u32, [f32; 2])>,
    positions: &mut [[f32; 2]],
    starts: &mut [u32],
    next: &mut [u32],
    members: &mut [u32],
) {
    for (unit, at) in units {
        positions[unit as usize] = at;
        let (x, y) = cell_of(at);
        starts[y * CELLS + x + 1] += 1;
    }
    for cell in 0..CELLS * CELLS {
        starts[cell + 1] += starts[cell];
    }
    next.copy_from_slice(starts);
    for (id, &at) in positions.iter().enumerate() {
        let (x, y) = cell_of(at);
        let slot = &mut next[y * CELLS + x];
        members[*slot as usize] = id as u32;
        *slot += 1;
    }
}

/// Calls `near` with every unit in the 3x3 cells around `at`, given the
/// grid as `starts` (cell `c`'s units are `members[starts[c]..starts[c+1]]`).
#[inline]
pub fn for_each_near(at: [f32; 2], starts: &[u32], members: &[u32], mut near: impl FnMut(u32)) {
    let (x, y) = cell_of(at);
    let (left, right) = (x.saturating_sub(1), (x + 1).min(CELLS - 1));
    for row in y.saturating_sub(1)..=(y + 1).min(CELLS - 1) {
        let cells = starts[row * CELLS + left] as usize..starts[row * CELLS + right + 1] as usize;
        members[cells].iter().for_each(|&unit| near(unit));
    }
}

/// Whether `other` is close enough to `at` to push a path away.
#[inline]
pub fn is_close(at: [f32; 2], other: [f32; 2]) -> bool {
    let (dx, dy) = (at[0] - other[0], at[1] - other[1]);
    dx * dx + dy * dy < NEAR * NEAR
}

/// The waypoints of a path from `from` to `to` that steers away from the
/// `close` neighbours: 8 to 64 points.
pub fn waypoints(
    from: [f32; 2],
    to: [f32; 2],
    close: &[[f32; 2]],
) -> impl ExactSizeIterator<Item = (i32, i32)> {
    let len = 8 + (close.len() * 7 + from[0] as usize) % 57;
    let (mut push_x, mut push_y) = (0.0, 0.0);
    for other in close {
        push_x += from[0] - other[0];
        push_y += from[1] - other[1];
    }
    (0..len).map(move |k| {
        let t = k as f32 / len as f32;
        let bend = (t * (1.0 - t)) * 4.0;
        (
            (from[0] + (to[0] - from[0]) * t + push_x * bend * 0.1) as i32,
            (from[1] + (to[1] - from[1]) * t + push_y * bend * 0.1) as i32,
        )
    })
}

/// Manhattan length of a path.
pub fn path_length(path: &[(i32, i32)]) -> u64 {
    path.windows(2)
        .map(|w| ((w[1].0 - w[0].0).abs() + (w[1].1 - w[0].1).abs()) as u64)
        .sum()
}
