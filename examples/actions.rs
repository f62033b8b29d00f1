//! A headless game on the tickarena loop: a scripted stream of input events
//! (key presses, clicks, spawns, and now and then a burst of thousands)
//! becomes actions allocated in the frame arena, which move, spawn and
//! despawn entities kept in a `SegmentedList` and write log lines built
//! with `format_in!`. Prints a per-frame report every so often and a
//! summary at the end.
//!
//! The same game runs a second time in the same run, tick for tick on the
//! same events, with every frame allocation of the game on the global
//! allocator instead (the same code, its allocator parameter swapped): the
//! summary prints both per-tick times, their ratio and the heap allocations
//! per tick of each.
//!
//! ```sh
//! cargo run --release --example actions -- --frames 600 --events-per-frame 1000
//! cargo run --release --example actions -- --arena-only  # no comparison
//! cargo run --release --example actions -- --threads 2   # crowd steering on 2 workers
//! cargo run --release --example actions --features chart -- --report frames.csv --chart frames.svg
//! ```
//!
//! The game's work runs under tags (input, crowds, steering, despawn) with
//! a budget for input; at its end the demo prints the sizing report of
//! every frame (per-frame peaks, p50/p99/max per tag, frames over budget,
//! the `reserve` and `retain` to choose). `--report FILE.csv` writes one
//! row per frame and one column per tag; `--chart FILE.svg` (with the
//! `chart` feature) draws the bytes per frame stacked by tag, with the
//! budget (`FrameHistory::chart`).

use std::time::{Duration, Instant};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/demo.rs"]
mod demo;
#[path = "support/flags.rs"]
mod flags;

use counting_alloc::{Counting, thread_allocations};
use demo::{FrameMemory, INPUT, InArena, OnHeap, World, script};
use flags::Flags;
use tickarena::FrameArena;
use tickarena::frame_loop::{FixedTimestep, FrameLoop, FrameRecord};

// Counts heap allocations for the comparison (a relaxed atomic add and a
// thread-local add per allocation, on both sides).
#[global_allocator]
static COUNTING: Counting = Counting;

struct Options {
    frames: u64,
    events_per_frame: u32,
    report_every: u64,
    threads: usize,
    compare: bool,
    report: Option<std::path::PathBuf>,
    chart: Option<std::path::PathBuf>,
}

fn parse_options() -> Options {
    let mut options = Options {
        frames: 1200,
        events_per_frame: 1000,
        report_every: 120,
        threads: 0,
        compare: true,
        report: None,
        chart: None,
    };
    let mut flags = Flags::new(
        "usage: actions [--frames N] [--events-per-frame N] [--report-every N] [--threads N] [--arena-only] [--report FILE.csv] [--chart FILE.svg]",
    );
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--frames" => options.frames = flags.value(&flag, "a number"),
            "--events-per-frame" => options.events_per_frame = flags.value(&flag, "a number"),
            "--report-every" => options.report_every = flags.value::<u64>(&flag, "a number").max(1),
            "--threads" => options.threads = flags.value(&flag, "a number of worker threads"),
            "--arena-only" => options.compare = false,
            "--report" => options.report = Some(flags.value(&flag, "a CSV file's path")),
            "--chart" => options.chart = Some(flags.value(&flag, "an SVG file's path")),
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }
    options
}

/// Time, events and heap allocations of one game's ticks.
#[derive(Default)]
struct Totals {
    events: u64,
    actions: u64,
    tick_time: Duration,
    heap_allocations: u64,
}

impl Totals {
    /// Runs one tick of `game` on `tick`'s events, adding up what it did.
    fn tick<M: FrameMemory>(
        &mut self,
        game: &mut FrameLoop<World<M>>,
        tick: u64,
        options: &Options,
    ) -> FrameRecord {
        let step = game.step();
        let allocations = thread_allocations();
        let record = game.tick(script(tick, options.events_per_frame), step);
        self.heap_allocations += thread_allocations() - allocations;
        self.events += record.events as u64;
        self.actions += record.actions as u64;
        self.tick_time += record.tick_time;
        record
    }

    /// The summary's line for this game's time.
    fn describe(&self, memory: &str, frames: u64) -> std::string::String {
        format!(
            "{memory:<17} {:.1} µs per tick, {:.0} ns per event, {:.2} heap allocations per tick",
            self.tick_time.as_secs_f64() * 1e6 / frames.max(1) as f64,
            self.tick_time.as_secs_f64() * 1e9 / self.events.max(1) as f64,
            self.heap_allocations as f64 / frames.max(1) as f64,
        )
    }
}

/// The input's budget per frame.
const INPUT_BUDGET: usize = 256 << 10;

fn main() {
    let options = parse_options();
    let world = match options.threads {
        0 => World::new(),
        threads => World::with_workers(threads),
    };
    // A history of every frame, for the sizing report at the end.
    let arena = FrameArena::builder()
        .name("actions")
        .build()
        .expect("the arena's address space");
    let mut game = FrameLoop::with_parts(
        world,
        arena,
        FixedTimestep::default(),
        options.frames as usize,
    );
    // Ordinary frames' input takes some 100 KiB; the bursts' take megabytes
    // and are reported (a line at most every 300 frames, on stderr).
    game.arena().set_budget(INPUT, INPUT_BUDGET);
    // The comparison: the same game with its frame data on the heap,
    // single-threaded (the workers' grids are arena-only), run after this one.
    let mut on_heap =
        (options.compare && options.threads == 0).then(|| FrameLoop::new(World::<OnHeap>::empty()));
    println!(
        "{:>6} {:>7} {:>7} {:>11} {:>11} {:>9} {:>9}",
        "frame", "events", "actions", "arena B", "high B", "entities", "tick µs"
    );
    let started = Instant::now();
    let (mut arena_totals, mut heap_totals) = (Totals::default(), Totals::default());
    for tick in 0..options.frames {
        let record = arena_totals.tick(&mut game, tick, &options);
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
    // Then the same ticks again on the heap (one game at a time: neither
    // evicts the other's data from the caches).
    if let Some(on_heap) = &mut on_heap {
        for tick in 0..options.frames {
            heap_totals.tick(on_heap, tick, &options);
        }
    }
    let world = game.world();
    let stats = game.arena().stats();
    println!();
    println!("frames            {}", options.frames);
    println!(
        "events / actions  {} / {}",
        arena_totals.events, arena_totals.actions
    );
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
        "arena             high water {} B (the largest frame), committed {} B (grown in doubling steps: not what frames use), reserved {} B",
        stats.high_water, stats.committed, stats.reserved
    );
    println!(
        "wall              {:.2} s (the arena's run)",
        wall.as_secs_f64()
    );
    println!("{}", arena_totals.describe(InArena::NAME, options.frames));
    if let Some(on_heap) = &on_heap {
        // The same events must have made the same world.
        assert_eq!(on_heap.world().entities.len(), world.entities.len());
        assert_eq!(on_heap.world().log_bytes, world.log_bytes);
        println!("{}", heap_totals.describe(OnHeap::NAME, options.frames));
        println!(
            "arena vs heap     {:.2}× as fast in the frame arena (same game code; only its allocator differs)",
            heap_totals.tick_time.as_secs_f64() / arena_totals.tick_time.as_secs_f64()
        );
    } else if options.compare {
        println!("arena vs heap     compared single-threaded only: run without --threads");
    }
    println!("player            at {:.1}", world.player);
    println!();
    println!("{}", game.history().report());
    if let Some(path) = &options.report {
        let file = std::io::BufWriter::new(std::fs::File::create(path).expect("the report file"));
        game.history().write_csv(file).expect("the report written");
        println!(
            "report            {} (a row per frame, a column per tag)",
            path.display()
        );
    }
    if let Some(path) = &options.chart {
        write_chart(game.history(), path);
    }
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

/// The chart of every frame: `FrameHistory::chart`, behind the `chart`
/// feature.
#[cfg(feature = "chart")]
fn write_chart(history: &tickarena::frame_loop::FrameHistory, path: &std::path::Path) {
    history
        .chart()
        .title("actions demo")
        .write_svg(path)
        .expect("the chart written");
    println!("chart             {}", path.display());
}

#[cfg(not(feature = "chart"))]
fn write_chart(_: &tickarena::frame_loop::FrameHistory, path: &std::path::Path) {
    eprintln!(
        "chart             not written to {}: build with `--features chart`",
        path.display()
    );
}
