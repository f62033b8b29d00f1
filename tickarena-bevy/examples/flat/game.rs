//! The game both versions run: 5 000 units on a 1024 × 1024 torus, a grid
//! of 16 × 16 cells rebuilt every frame by counting sort, a neighbour
//! search for every tenth unit (every unit twice over on every 60th frame,
//! a burst) within 48 units in the 3 × 3 cells around it, and the ids of
//! the units that crossed a cell border. What each frame found is folded
//! into a checksum, which the versions must agree on.

use bevy_ecs::prelude::*;

pub const UNITS: u32 = 5_000;
pub const SIZE: f32 = 1024.0;
pub const CELL: f32 = 64.0;
pub const SIDE: u32 = 16;
pub const CELLS: usize = (SIDE * SIDE) as usize;
pub const RADIUS2: f32 = 48.0 * 48.0;
pub const BURST_EVERY: u64 = 60;

#[derive(Component)]
pub struct Unit(pub u32);
#[derive(Component, Clone, Copy)]
pub struct Position(pub f32, pub f32);
#[derive(Component)]
pub struct Velocity(pub f32, pub f32);
#[derive(Component)]
pub struct LastCell(pub u32);

#[derive(Resource, Default)]
pub struct FrameCount(pub u64);
#[derive(Resource, Default)]
pub struct Checksum(pub u64);

/// The searching systems, after the units moved.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct Search;

pub fn cell_of(p: Position) -> u32 {
    (p.1 / CELL) as u32 % SIDE * SIDE + (p.0 / CELL) as u32 % SIDE
}

pub fn torus_d2(a: Position, b: Position) -> f32 {
    let (dx, dy) = ((a.0 - b.0).abs(), (a.1 - b.1).abs());
    let (dx, dy) = (dx.min(SIZE - dx), dy.min(SIZE - dy));
    dx * dx + dy * dy
}

pub fn is_burst(frame: u64) -> bool {
    frame.is_multiple_of(BURST_EVERY)
}

/// The units searching on `frame`.
pub fn searchers(frame: u64) -> impl Iterator<Item = u32> {
    let count = if is_burst(frame) {
        2 * UNITS
    } else {
        UNITS / 10
    };
    (0..count).map(|k| (k * 10 + k * 10 / UNITS) % UNITS)
}

pub fn fold(sum: &mut u64, value: u64) {
    *sum = (*sum ^ value).wrapping_mul(0x100_0000_01b3);
}

pub fn step(mut frame: ResMut<FrameCount>, mut units: Query<(&mut Position, &Velocity)>) {
    frame.0 += 1;
    for (mut p, v) in &mut units {
        p.0 = (p.0 + v.0).rem_euclid(SIZE);
        p.1 = (p.1 + v.1).rem_euclid(SIZE);
    }
}

/// Counts each cell's units into `starts` (cell `c`'s are
/// `members[starts[c]..starts[c + 1]]`), `next` the fill cursor.
pub fn build_grid(
    positions: &[Position],
    starts: &mut [u32],
    next: &mut [u32],
    members: &mut [u32],
) {
    for p in positions {
        starts[cell_of(*p) as usize + 1] += 1;
    }
    for c in 0..CELLS {
        starts[c + 1] += starts[c];
    }
    next.copy_from_slice(&starts[..CELLS]);
    for (id, p) in positions.iter().enumerate() {
        let c = cell_of(*p) as usize;
        members[next[c] as usize] = id as u32;
        next[c] += 1;
    }
}

/// The neighbour list a search fills: a `Vec` cleared before each search,
/// or a `LastSizeVec`, whose `clear` records the most a search held.
pub trait NearList {
    type Alloc: core::alloc::Allocator;
    fn clear_list(&mut self);
    fn list(&mut self) -> &mut Vec<(u32, f32), Self::Alloc>;
}

impl NearList for Vec<(u32, f32)> {
    type Alloc = std::alloc::Global;
    fn clear_list(&mut self) {
        self.clear();
    }
    fn list(&mut self) -> &mut Vec<(u32, f32)> {
        self
    }
}

impl<'a> NearList for tickarena_bevy::tickarena::LastSizeVec<'a, (u32, f32)> {
    type Alloc = &'a tickarena_bevy::tickarena::FrameArena;
    fn clear_list(&mut self) {
        self.clear();
    }
    fn list(&mut self) -> &mut Vec<(u32, f32), Self::Alloc> {
        self
    }
}

/// Every search of `frame`: each one's count and nearest distance pushed
/// to `summaries`. Inlined into the system that calls it.
#[inline(always)]
pub fn search_inline<L: NearList, S: core::alloc::Allocator>(
    frame: u64,
    positions: &[Position],
    starts: &[u32],
    members: &[u32],
    near: &mut L,
    summaries: &mut Vec<(u32, f32), S>,
) {
    for me in searchers(frame) {
        near.clear_list();
        let near = near.list();
        let at = positions[me as usize];
        let (cx, cy) = ((at.0 / CELL) as u32 % SIDE, (at.1 / CELL) as u32 % SIDE);
        for dy in [SIDE - 1, 0, 1] {
            for dx in [SIDE - 1, 0, 1] {
                let c = ((cy + dy) % SIDE * SIDE + (cx + dx) % SIDE) as usize;
                for &other in &members[starts[c] as usize..starts[c + 1] as usize] {
                    let d2 = torus_d2(at, positions[other as usize]);
                    if other != me && d2 <= RADIUS2 {
                        near.push((other, d2));
                    }
                }
            }
        }
        let nearest = near.iter().map(|n| n.1).fold(f32::INFINITY, f32::min);
        summaries.push((near.len() as u32, nearest));
    }
}

/// [`search_inline`] as a function of its own: the loop's values get the
/// registers of a small function, whatever else the system holds.
#[inline(never)]
pub fn search_own_function<L: NearList, S: core::alloc::Allocator>(
    frame: u64,
    positions: &[Position],
    starts: &[u32],
    members: &[u32],
    near: &mut L,
    summaries: &mut Vec<(u32, f32), S>,
) {
    search_inline(frame, positions, starts, members, near, summaries);
}

/// Every search of `frame`, in a function of its own (`OWN_FUNCTION`) or
/// inlined into the caller.
#[inline(always)]
pub fn search<const OWN_FUNCTION: bool, L: NearList, S: core::alloc::Allocator>(
    frame: u64,
    positions: &[Position],
    starts: &[u32],
    members: &[u32],
    near: &mut L,
    summaries: &mut Vec<(u32, f32), S>,
) {
    if OWN_FUNCTION {
        search_own_function(frame, positions, starts, members, near, summaries);
    } else {
        search_inline(frame, positions, starts, members, near, summaries);
    }
}

/// The units whose cell changed since the last frame, each pushed to
/// `crossed` (its cell noted).
#[inline(always)]
pub fn note_crossings<A: core::alloc::Allocator>(
    units: &mut Query<(&Unit, &Position, &mut LastCell)>,
    crossed: &mut Vec<u32, A>,
) {
    for (unit, p, mut last) in units {
        let c = cell_of(*p);
        if c != last.0 {
            last.0 = c;
            crossed.push(unit.0);
        }
    }
}

/// What a frame's searches add to the checksum.
pub fn fold_summaries(sum: &mut u64, summaries: &[(u32, f32)]) {
    for (count, nearest) in summaries {
        fold(sum, u64::from(*count) << 32 | u64::from(nearest.to_bits()));
    }
}

/// What a frame's crossings add to the checksum.
pub fn fold_crossed(sum: &mut u64, crossed: &[u32]) {
    fold(sum, crossed.len() as u64);
    for id in crossed {
        fold(sum, u64::from(*id));
    }
}
