//! A headless game on the tickarena loop: a scripted stream of input events
//! (key presses, clicks, spawns, and now and then a burst of thousands)
//! becomes actions allocated in the frame arena, which move, spawn and
//! despawn entities kept in a `SegmentedList` and write log lines built
//! with `format_in!`. Prints a per-frame report every so often and a
//! summary at the end.
//!
//! ```sh
//! cargo run --release --example actions -- --frames 600 --events-per-frame 1000
//! cargo run --release --example actions -- --threads 2   # crowd steering on 2 workers
//! ```

use std::time::{Duration, Instant};

#[path = "support/demo.rs"]
mod demo;
#[path = "support/flags.rs"]
mod flags;

use demo::{World, script};
use flags::Flags;
use tickarena::frame_loop::FrameLoop;

struct Options {
    frames: u64,
    events_per_frame: u32,
    report_every: u64,
    threads: usize,
}

fn parse_options() -> Options {
    let mut options = Options {
        frames: 1200,
        events_per_frame: 1000,
        report_every: 120,
        threads: 0,
    };
    let mut flags = Flags::new(
        "usage: actions [--frames N] [--events-per-frame N] [--report-every N] [--threads N]",
    );
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--frames" => options.frames = flags.value(&flag, "a number"),
            "--events-per-frame" => options.events_per_frame = flags.value(&flag, "a number"),
            "--report-every" => options.report_every = flags.value::<u64>(&flag, "a number").max(1),
            "--threads" => options.threads = flags.value(&flag, "a number of worker threads"),
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }
    options
}

fn main() {
    let options = parse_options();
    let world = match options.threads {
        0 => World::new(),
        threads => World::with_workers(threads),
    };
    let mut game = FrameLoop::new(world);
    let step = game.step();
    println!(
        "{:>6} {:>7} {:>7} {:>11} {:>11} {:>9} {:>9}",
        "frame", "events", "actions", "arena B", "high B", "entities", "tick µs"
    );
    let started = Instant::now();
    let (mut events, mut actions, mut tick_time) = (0u64, 0u64, Duration::ZERO);
    for tick in 0..options.frames {
        let record = game.tick(script(tick, options.events_per_frame), step);
        events += record.events as u64;
        actions += record.actions as u64;
        tick_time += record.tick_time;
        if tick % options.report_every == 0
            || tick + 1 == options.frames
            || record.events > 2 * options.events_per_frame as usize
        {
            println!(
                "{:>6} {:>7} {:>7} {:>11} {:>11} {:>9} {:>9.0}",
                record.tick,
                record.events,
                record.actions,
                record.arena_bytes,
                game.history().high_water(),
                game.world().entities.len(),
                record.tick_time.as_secs_f64() * 1e6,
            );
        }
    }
    let wall = started.elapsed();
    let world = game.world();
    let stats = game.arena().stats();
    println!();
    println!("frames            {}", options.frames);
    println!("events / actions  {events} / {actions}");
    println!(
        "entities          {} alive, {} despawned",
        world.entities.len(),
        world.despawned
    );
    println!(
        "log               {} lines, {} bytes (all in frame arenas)",
        world.log_lines, world.log_bytes
    );
    println!(
        "arena             high water {} B, committed {} B, reserved {} B",
        stats.high_water, stats.committed, stats.reserved
    );
    println!(
        "time              {:.2} s wall, {:.1} µs per tick, {:.0} ns per event",
        wall.as_secs_f64(),
        tick_time.as_secs_f64() * 1e6 / options.frames.max(1) as f64,
        tick_time.as_secs_f64() * 1e9 / events.max(1) as f64
    );
    println!("player            at {:.1}", world.player);
    if options.threads > 0 {
        let mut per_thread = Vec::new();
        game.threads()
            .for_each_thread(|stats| per_thread.push(stats.high_water.to_string()));
        println!(
            "worker arenas     {} (crowd grids and nudges), high water per arena: {} B",
            per_thread.len(),
            per_thread.join(", ")
        );
    }
}
