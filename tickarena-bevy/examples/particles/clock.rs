//! What a frame's prepare stage costs the thread that runs it: the whole
//! stage, and the part that makes and uploads the instances (the prepare
//! systems, and for the arena the plugin's begin and finish around them).
//! Bevy's other prepare systems are the same in `raw`, `new` and `arena`.
//!
//! The figures mean something only where every schedule runs on one
//! thread (the measured runs): the markers read the clock of the thread
//! they run on. Where the test runs the schedules multi-threaded, they
//! are computed (saturating) and ignored.

use std::sync::atomic::{AtomicU64, Ordering};

use bevy_ecs::prelude::*;

use crate::pinned_cpu::thread_cpu_ns;

/// This frame's figures, in thread CPU nanoseconds.
#[derive(Resource, Default)]
pub struct PrepareClock {
    started: u64,
    begin_ended: u64,
    finish_started: u64,
    /// The whole prepare stage.
    pub stage_ns: u64,
    /// The prepare systems, with the uploads' begin and finish.
    pub uploads_ns: u64,
    /// The uploads' begin and finish alone (none in `raw` and `new`).
    pub begin_finish_ns: u64,
}

/// The prepare systems' own clocks, summed over the frame (a static, not
/// a resource: a resource they all wrote would keep them from running in
/// parallel where the test runs them so).
static SYSTEMS_NS: AtomicU64 = AtomicU64::new(0);

/// Adds the time from its start to its drop to the frame's prepare
/// systems: each prepare system holds one for its whole run.
pub struct SystemClock(u64);

impl SystemClock {
    pub fn start() -> SystemClock {
        SystemClock(thread_cpu_ns())
    }
}

impl Drop for SystemClock {
    fn drop(&mut self) {
        SYSTEMS_NS.fetch_add(thread_cpu_ns() - self.0, Ordering::Relaxed);
    }
}

/// Before the uploads' frame opens (and before any prepare system).
pub fn prepare_started(mut clock: ResMut<PrepareClock>) {
    SYSTEMS_NS.store(0, Ordering::Relaxed);
    clock.started = thread_cpu_ns();
}

/// After the uploads' frame opened, before any prepare system.
pub fn begin_ended(mut clock: ResMut<PrepareClock>) {
    clock.begin_ended = thread_cpu_ns();
}

/// After every prepare system, before the uploads' frame closes.
pub fn finish_started(mut clock: ResMut<PrepareClock>) {
    clock.finish_started = thread_cpu_ns();
}

/// After the uploads' frame closed, before the bind groups.
pub fn prepare_ended(mut clock: ResMut<PrepareClock>) {
    let now = thread_cpu_ns();
    clock.stage_ns = now.saturating_sub(clock.started);
    clock.begin_finish_ns =
        clock.begin_ended.saturating_sub(clock.started) + now.saturating_sub(clock.finish_started);
    clock.uploads_ns = clock.begin_finish_ns + SYSTEMS_NS.load(Ordering::Relaxed);
}
