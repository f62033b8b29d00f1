//! What the three versions share: the units, the frame's workload (path
//! requests, 20x every 60th frame), and the arithmetic each system does,
//! so that they differ only in where their memory comes from.

use bevy_ecs::prelude::*;

/// Units in the world.
pub const UNITS: u32 = 5000;
/// Path requests in an ordinary frame; a burst frame has 20 times more.
pub const REQUESTS: usize = 500;
/// Every this many frames, a burst.
pub const BURST_EVERY: u64 = 60;

#[derive(Component)]
pub struct Unit(pub u32);

/// The frame number, counted by the planner.
#[derive(Resource, Default)]
pub struct FrameCount(pub u64);

/// What the consumers found: equal in every version (the check that they
/// do the same work).
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq, Debug)]
pub struct Totals {
    pub steps: u64,
    pub longest: u64,
    pub label_bytes: u64,
    pub summary_bytes: u64,
}

pub fn is_burst(frame: u64) -> bool {
    frame > 0 && frame.is_multiple_of(BURST_EVERY)
}

pub fn requests_in(frame: u64) -> usize {
    if is_burst(frame) {
        REQUESTS * 20
    } else {
        REQUESTS
    }
}

/// Whether `unit` needs a path this frame (a fifth of them do).
pub fn needs_path(unit: u32, frame: u64) -> bool {
    (u64::from(unit) + frame).is_multiple_of(5)
}

/// The waypoints of the path planned for `unit` in `frame`: 8 to 64.
pub fn waypoints(unit: u32, frame: u64) -> impl Iterator<Item = (i32, i32)> {
    let len = 8 + (u64::from(unit) * 7 + frame) % 57;
    (0..len as i32).map(move |k| (unit as i32 % 100 + k, (frame % 100) as i32 + 2 * k))
}

/// Manhattan length of a path.
pub fn path_length(path: &[(i32, i32)]) -> u64 {
    path.windows(2)
        .map(|w| ((w[1].0 - w[0].0).abs() + (w[1].1 - w[0].1).abs()) as u64)
        .sum()
}
