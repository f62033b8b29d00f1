//! The game of issue 31, written twice: 4000 units; each frame a `par_iter`
//! job moves them and collects the ones that want a path (a tenth; every
//! unit on a burst frame, every 60th), a planner builds a spatial grid,
//! each asking unit's neighbour list (a `scoped` search in the tickarena
//! version) and a path and label, and two readers go over the requests in
//! parallel.
//!
//! * `arena`: tickarena-bevy as its README recommends (`Workers`'
//!   collector, `FrameWriter`/`FrameReader`, `FrameScratch`), the
//!   neighbour list one frame vector from `vec_at_last_size`, cleared
//!   before each search as the `Local` version's list is (it starts at the
//!   most a search needed lately, as a `Local` keeps its capacity);
//! * `arena_sized`: the same with every buffer the game rebuilds each
//!   frame from `vec_at_last_size` (the grid's four and the walk's
//!   lengths too, not `Vec::with_capacity_in`): a game that follows the
//!   guide everywhere;
//! * `arena_scoped`: the same with a list per search, in a scope
//!   (`FrameScratch::scoped`), each from `vec_at_last_size`;
//! * `arena_room`: a list per search in a scope with room for 16
//!   neighbours guessed (`Vec::with_capacity_in(16, temp)`, the advice
//!   before);
//! * `arena_grown`: a list per search in a scope, grown from empty
//!   (`Vec::new_in(temp)`, as the issue's game wrote it; `--arena
//!   arena_grown` pairs it with `local`);
//! * `local`: `Local<Parallel<_>>`, `Local`s and a resource of flat buffers
//!   reused every frame: what a careful Bevy programmer writes today.
//!
//! Each version runs in its own process, in pairs, alternating which goes
//! first; the table gives the median of the pairs' ratios, and each
//! version's medians: time per ordinary and per burst frame (each run's
//! mean, which counts the frames a busy machine stalls, and each run's
//! median, which does not), minor page
//! faults, heap allocations per frame (Bevy's own included, the same
//! schedule in both), resident memory before a burst, at it and after the
//! bursts stop, and the address space.
//!
//! ```sh
//! cargo run --release -p tickarena-bevy --example parity -- [--pairs 6] [--frames 600] [--arena arena_grown]
//! ```

#[path = "../../../examples/support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../../../examples/support/page_faults.rs"]
#[allow(dead_code)] // the per-thread count is the steady-state tests'
mod page_faults;

mod arena;
mod game;
mod local_reuse;
#[path = "../support/median.rs"]
mod median;

use median::median;
use std::time::Instant;

use bevy_app::{App, TaskPoolPlugin};
use counting_alloc::{Counting, allocations};
use game::{BURST_EVERY, FrameCount, ReportTotals, UNITS, Unit, WalkTotals, is_burst, start};
use page_faults::minor_faults_of_process;

#[global_allocator]
static COUNTING: Counting = Counting;

/// What one run of a version measured.
#[derive(Clone, Copy, Debug, Default)]
struct Measured {
    /// Time per ordinary frame, the run's mean and its median.
    ordinary_micros: [f64; 2],
    /// Time per burst frame, the same.
    burst_micros: [f64; 2],
    faults_per_frame: f64,
    allocations_per_frame: f64,
    /// Resident bytes just before a burst, at it, and after the bursts stop.
    rss: [u64; 3],
    address_space: u64,
    totals: (WalkTotals, ReportTotals),
}

fn status_field(name: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// The app of `version`, with its units.
fn app(version: &str) -> App {
    let mut app = App::new();
    app.add_plugins(TaskPoolPlugin::default())
        .init_resource::<FrameCount>()
        .init_resource::<WalkTotals>()
        .init_resource::<ReportTotals>();
    match version {
        // One neighbour list for the frame, cleared before each search.
        "arena" => arena::add::<{ arena::ONE_LIST }>(&mut app),
        // A list per search, in a scope, at the size the lists needed lately.
        "arena_scoped" => arena::add::<{ arena::LAST_SIZE }>(&mut app),
        // Every buffer the game rebuilds from `vec_at_last_size`.
        "arena_sized" => arena::add::<{ arena::ALL_LAST_SIZE }>(&mut app),
        // Room for 16 neighbours, a guess (the recommendation before
        // `vec_at_last_size`).
        "arena_room" => arena::add::<16>(&mut app),
        // The issue's code: each neighbour list grows from empty.
        "arena_grown" => arena::add::<0>(&mut app),
        "local" => local_reuse::add(&mut app),
        // The `Local` version with an empty exclusive system in `Last`, as
        // the tickarena version's frame end is: Bevy's own cost of one more
        // system (its executor allocates a task for each system it runs).
        "local_last" => {
            local_reuse::add(&mut app);
            app.add_systems(bevy_app::Last, |_: &mut bevy_ecs::world::World| {});
        }
        other => {
            panic!(
                "unknown version {other:?}: arena, arena_scoped, arena_sized, arena_room, arena_grown, local or local_last"
            )
        }
    }
    app.world_mut()
        .spawn_batch((0..UNITS).map(|unit| (Unit(unit), start(unit))));
    app
}

fn run(version: &str, frames: u64) -> Measured {
    let mut app = app(version);
    // Warm-up: two bursts, so every buffer and arena has met one.
    let warm_up = 2 * BURST_EVERY + 1;
    for _ in 0..warm_up {
        app.update();
    }
    // Each frame's time, ordinary and burst: sized before the allocations
    // are counted.
    let mut times = [
        Vec::with_capacity(frames as usize),
        Vec::with_capacity(frames as usize),
    ];
    let mut rss = [0; 3];
    let (faults, allocations_before) = (minor_faults_of_process(), allocations());
    for frame in warm_up + 1..=warm_up + frames {
        if is_burst(frame) && rss[0] == 0 {
            rss[0] = status_field("VmRSS:");
        }
        let started = Instant::now();
        app.update();
        times[usize::from(is_burst(frame))].push(started.elapsed().as_secs_f64() * 1e6);
        if is_burst(frame) && rss[1] == 0 {
            rss[1] = status_field("VmRSS:");
        }
    }
    let faults_per_frame = (minor_faults_of_process() - faults) as f64 / frames as f64;
    let allocations_per_frame = (allocations() - allocations_before) as f64 / frames as f64;
    // The bursts stop: the frame count stays off the burst frames for 12
    // seconds of 60 Hz frames, then the resident memory is read again.
    for _ in 0..720 {
        let next = app.world().resource::<FrameCount>().0 + 1;
        if is_burst(next) {
            app.world_mut().resource_mut::<FrameCount>().0 += 1;
        }
        app.update();
    }
    rss[2] = status_field("VmRSS:");
    Measured {
        ordinary_micros: mean_and_median(&times[0]),
        burst_micros: mean_and_median(&times[1]),
        faults_per_frame,
        allocations_per_frame,
        rss,
        address_space: status_field("VmSize:"),
        totals: (
            *app.world().resource::<WalkTotals>(),
            *app.world().resource::<ReportTotals>(),
        ),
    }
}

/// Non-blank lines that are not comments, of a version's source.
fn lines_of(source: &str) -> usize {
    source
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .count()
}

fn mean_and_median(values: &[f64]) -> [f64; 2] {
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    [mean, median(values.to_vec())]
}

/// Runs `version` in a process of its own.
fn run_child(version: &str, frames: u64) -> Measured {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--version", version, "--frames", &frames.to_string()])
        .output()
        .expect("the version runs");
    assert!(output.status.success(), "{version} failed: {output:?}");
    let line = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<&str> = line.split_whitespace().collect();
    let number = |i: usize| fields[i].parse::<f64>().unwrap();
    let whole = |i: usize| fields[i].parse::<u64>().unwrap();
    Measured {
        ordinary_micros: [number(0), number(13)],
        burst_micros: [number(1), number(14)],
        faults_per_frame: number(2),
        allocations_per_frame: number(3),
        rss: [whole(4), whole(5), whole(6)],
        address_space: whole(7),
        totals: (
            WalkTotals {
                requests: whole(8),
                steps: whole(9),
                longest: whole(10),
            },
            ReportTotals {
                label_bytes: whole(11),
                neighbours: whole(12),
            },
        ),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut version, mut frames, mut pairs) = (None, 600u64, 6usize);
    // The tickarena version paired with `Local` reuse.
    let mut arena = "arena".to_owned();
    while let Some(flag) = args.next() {
        let mut number = || args.next().and_then(|n| n.parse().ok()).expect("a number");
        match flag.as_str() {
            "--version" => version = args.next(),
            "--frames" => frames = number(),
            "--pairs" => pairs = number() as usize,
            "--arena" => arena = args.next().expect("a version"),
            other => panic!(
                "unknown flag {other:?}: --pairs N, --frames N, --arena NAME, --version NAME"
            ),
        }
    }
    if let Some(version) = version {
        // One version, in this process: one line for the parent to read.
        let m = run(&version, frames);
        let (walk, report) = m.totals;
        println!(
            "{:.2} {:.2} {:.3} {:.3} {} {} {} {} {} {} {} {} {} {:.2} {:.2}",
            m.ordinary_micros[0],
            m.burst_micros[0],
            m.faults_per_frame,
            m.allocations_per_frame,
            m.rss[0],
            m.rss[1],
            m.rss[2],
            m.address_space,
            walk.requests,
            walk.steps,
            walk.longest,
            report.label_bytes,
            report.neighbours,
            m.ordinary_micros[1],
            m.burst_micros[1],
        );
        return;
    }
    println!(
        "{pairs} pairs of runs ({arena} and local), {frames} frames each after a warm-up of two bursts; {UNITS} units, a burst every {BURST_EVERY}th frame"
    );
    let mut runs: [Vec<Measured>; 2] = [Vec::new(), Vec::new()];
    for pair in 0..pairs {
        // Alternate which version goes first.
        let order = if pair % 2 == 0 { [0, 1] } else { [1, 0] };
        for index in order {
            runs[index].push(run_child([arena.as_str(), "local"][index], frames));
        }
    }
    let totals = runs[0][0].totals;
    for run in runs.iter().flatten() {
        assert_eq!(run.totals, totals, "the versions found different totals");
    }
    // Per pair, tickarena's figure over `Local`'s.
    let ratios = |f: fn(&Measured) -> f64| -> Vec<f64> {
        runs[0]
            .iter()
            .zip(&runs[1])
            .map(|(a, l)| f(a) / f(l))
            .collect()
    };
    let of = |index: usize, f: fn(&Measured) -> f64| median(runs[index].iter().map(f).collect());
    let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
    println!("| | tickarena-bevy | `Local` reuse | tickarena ÷ `Local` (median of pairs, range) |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, f) in [
        (
            "ordinary frame, each run's mean",
            (|m| m.ordinary_micros[0]) as fn(&Measured) -> f64,
        ),
        ("ordinary frame, each run's median", |m| {
            m.ordinary_micros[1]
        }),
        ("burst frame, each run's mean", |m| m.burst_micros[0]),
        ("burst frame, each run's median", |m| m.burst_micros[1]),
    ] {
        let ratios = ratios(f);
        let (low, high) = ratios
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        println!(
            "| {name} | {:.0} µs | {:.0} µs | {:.3} ({low:.2}–{high:.2}) |",
            of(0, f),
            of(1, f),
            median(ratios)
        );
    }
    for (name, f) in [
        (
            "minor page faults per frame",
            (|m| m.faults_per_frame) as fn(&Measured) -> f64,
        ),
        ("heap allocations per frame (Bevy's own included)", |m| {
            m.allocations_per_frame
        }),
    ] {
        println!("| {name} | {:.2} | {:.2} | |", of(0, f), of(1, f));
    }
    for (name, index) in [
        ("before a burst", 0),
        ("at a burst", 1),
        ("12 s after the bursts stop", 2),
    ] {
        println!(
            "| RSS {name} | {:.1} MiB | {:.1} MiB | |",
            mib(runs[0][0].rss[index]),
            mib(runs[1][0].rss[index])
        );
    }
    println!(
        "| address space | {:.0} MiB | {:.0} MiB | |",
        mib(runs[0][0].address_space),
        mib(runs[1][0].address_space)
    );
    println!(
        "| lines (code, no comments) | {} | {} | |",
        lines_of(include_str!("arena.rs")),
        lines_of(include_str!("local_reuse.rs"))
    );
}

#[cfg(test)]
mod tests {
    use super::run;

    /// The versions find the same totals, and the tickarena versions make
    /// no more heap allocations than the `Local` one with the same number
    /// of systems (Bevy's own): none of their own. `cargo test -p
    /// tickarena-bevy` runs this.
    #[test]
    fn the_versions_agree_and_the_arena_version_allocates_no_more() {
        let frames = 70; // one burst after the warm-up's two
        let arena = run("arena", frames);
        let local = run("local_last", frames);
        assert_eq!(arena.totals, local.totals);
        assert_eq!(run("arena_grown", frames).totals, local.totals);
        assert_eq!(run("arena_room", frames).totals, local.totals);
        assert_eq!(run("arena_scoped", frames).totals, local.totals);
        let sized = run("arena_sized", frames);
        assert_eq!(sized.totals, local.totals);
        assert!(arena.totals.0.requests > 0 && arena.totals.1.neighbours > 0);
        for (version, measured) in [("arena", &arena), ("arena_sized", &sized)] {
            assert!(
                measured.allocations_per_frame <= local.allocations_per_frame + 0.5,
                "{version} {} against Local reuse's {} heap allocations per frame",
                measured.allocations_per_frame,
                local.allocations_per_frame
            );
        }
    }
}
