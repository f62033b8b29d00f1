//! A Bevy app with bursty, variable-size frame data, written three ways:
//! a planning system finds the units that need a path (`par_iter` jobs) and
//! builds path requests (a label and 8–64 waypoints each: 500 a frame, 20x
//! that every 60th frame); two consumer systems read them in the same
//! frame, each with temporaries of its own.
//!
//! * `arena`: tickarena (per-frame data between systems, `FrameScratch`,
//!   a `Collector` for the jobs' results);
//! * `local`: buffers reused through a resource and `Local`s (what Bevy
//!   users write today), with `Local<Parallel<Vec<_>>>` for the jobs;
//! * `csr`: the requests flattened by hand into CSR buffers (one waypoint
//!   buffer and one label `String`, each with a start-offset table) in a
//!   reused resource, temporaries in `Local`s: what a programmer writes for
//!   the one hot structure they tune;
//! * `fresh`: new `Vec`s and `String`s every frame;
//! * `baseline`: the same schedule with empty systems (the planner's
//!   `par_iter` included): Bevy's own cost, subtracted from the `local`
//!   and `fresh` allocation counts; `baseline_last` adds an empty
//!   exclusive system in `Last`, as the arena version's schedule has (the
//!   frame's end), and is subtracted from `arena`'s.
//!
//! Each version runs in its own process (so that its resident memory is
//! its own) and prints the time per frame, heap allocations per frame (the
//! game's: minus the baseline's), the resident memory just before a burst,
//! at it and two frames after, and a checksum of what the consumers found,
//! which must be equal.
//!
//! ```sh
//! cargo run --release -p tickarena-bevy --example bursty -- [--frames 600]
//! cargo run --release -p tickarena-bevy --example bursty -- --version arena
//! ```

#[path = "../../../examples/support/counting_alloc.rs"]
mod counting_alloc;

mod arena;
mod baseline;
mod csr;
mod fresh;
mod game;
mod local_reuse;

use std::time::Instant;

use bevy_app::{App, TaskPoolPlugin};
use counting_alloc::{Counting, allocations};
use game::{BURST_EVERY, FrameCount, Totals, UNITS, Unit, is_burst};

#[global_allocator]
static COUNTING: Counting = Counting;

const VERSIONS: [&str; 6] = [
    "baseline",
    "baseline_last",
    "arena",
    "local",
    "csr",
    "fresh",
];

/// What one version measured.
struct Measured {
    micros_per_frame: f64,
    burst_micros: f64,
    allocations_per_frame: f64,
    /// Resident bytes just before a burst, at it, and two frames after.
    rss: [u64; 3],
    /// The process's address space at the end (`VmSize`).
    address_space: u64,
    /// Heap allocations in the first burst frame (of the warm-up): what
    /// growing to a burst costs the first time.
    first_burst_allocations: u64,
    totals: Totals,
}

/// The process's virtual size, in bytes (Linux; 0 elsewhere).
fn address_space_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmSize:"))
        .and_then(|rest| rest.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn run(version: &str, frames: u64) -> Measured {
    let mut app = App::new();
    app.add_plugins(TaskPoolPlugin::default())
        .init_resource::<FrameCount>()
        .init_resource::<Totals>();
    match version {
        "arena" => arena::add(&mut app),
        "local" => local_reuse::add(&mut app),
        "csr" => csr::add(&mut app),
        "fresh" => fresh::add(&mut app),
        "baseline" => baseline::add(&mut app),
        "baseline_last" => baseline::add_with_one_in_last(&mut app),
        other => panic!("unknown version {other:?}: one of {VERSIONS:?}"),
    }
    app.world_mut().spawn_batch((0..UNITS).map(Unit));
    // Warm-up: two bursts, so every buffer and arena has met one.
    let warm_up = 2 * BURST_EVERY + 1;
    let mut first_burst_allocations = 0;
    for frame in 1..=warm_up {
        let before = allocations();
        app.update();
        if frame == BURST_EVERY {
            first_burst_allocations = allocations() - before;
        }
    }
    let (mut steady, mut burst) = (0.0, 0.0);
    let mut rss = [0; 3];
    let allocations_before = allocations();
    let started = Instant::now();
    for frame in warm_up + 1..=warm_up + frames {
        // The frame the planner is about to count (it counts from 1).
        let last_burst = frame >= warm_up + BURST_EVERY;
        if is_burst(frame + 1) && last_burst && rss[0] == 0 {
            rss[0] = resident_bytes();
        }
        let tick = Instant::now();
        app.update();
        let took = tick.elapsed().as_secs_f64() * 1e6;
        if is_burst(frame) {
            burst += took;
            if rss[0] != 0 && rss[1] == 0 {
                rss[1] = resident_bytes();
            }
        } else {
            steady += took;
        }
        if rss[1] != 0 && rss[2] == 0 && is_burst(frame - 2) {
            rss[2] = resident_bytes();
        }
    }
    let total = started.elapsed().as_secs_f64() * 1e6;
    let bursts = (warm_up + 1..=warm_up + frames)
        .filter(|&f| is_burst(f))
        .count() as f64;
    let _ = steady; // the burst frames are reported apart; the mean has both
    Measured {
        micros_per_frame: total / frames as f64,
        burst_micros: burst / bursts.max(1.0),
        allocations_per_frame: (allocations() - allocations_before) as f64 / frames as f64,
        rss,
        address_space: address_space_bytes(),
        first_burst_allocations,
        totals: *app.world().resource::<Totals>(),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut version, mut frames) = (None, 600u64);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--version" => version = args.next(),
            "--frames" => {
                frames = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--frames N")
            }
            other => panic!("unknown flag {other:?}: --version NAME, --frames N"),
        }
    }
    if let Some(version) = version {
        // One version, in this process: one line for the parent to read.
        let m = run(&version, frames);
        println!(
            "{version} {:.1} {:.1} {:.2} {} {} {} {} {} {:?}",
            m.micros_per_frame,
            m.burst_micros,
            m.allocations_per_frame,
            m.rss[0],
            m.rss[1],
            m.rss[2],
            m.address_space,
            m.first_burst_allocations,
            m.totals
        );
        return;
    }
    println!(
        "{frames} frames of {UNITS} units, 500 path requests a frame, 10 000 every {BURST_EVERY}th"
    );
    println!(
        "| version | µs / frame | µs / burst frame | heap allocations / frame (game's) | heap allocations in the first burst | RSS before burst → at it → 2 frames after (MiB) | address space (MiB) |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | --- | ---: |");
    let (mut baseline, mut baseline_last) = (0.0, 0.0);
    let mut checksum = None;
    // Each version's µs per frame and per burst frame, for the ratios.
    let mut times = std::collections::HashMap::new();
    for version in VERSIONS {
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--version", version, "--frames", &frames.to_string()])
            // A budget's breach (the arena version's) shows as it happens.
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("the version runs");
        assert!(output.status.success(), "{version} failed");
        let line = String::from_utf8_lossy(&output.stdout);
        let fields: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| fields[i].parse::<f64>().unwrap();
        let mib = |i: usize| number(i) / (1 << 20) as f64;
        times.insert(version, [number(1), number(2)]);
        if version == "baseline" {
            baseline = number(3);
        } else if version == "baseline_last" {
            baseline_last = number(3);
        } else {
            let totals = fields[9..].join(" ");
            assert!(
                checksum.get_or_insert_with(|| totals.clone()) == &totals,
                "{version} found other totals: {totals}"
            );
        }
        println!(
            "| {version} | {:.0} | {:.0} | {:.1} ({:.1}) | {:.0} | {:.1} → {:.1} → {:.1} | {:.0} |",
            number(1),
            number(2),
            number(3),
            number(3)
                - if version.starts_with("baseline") || version == "arena" {
                    if version == "baseline" {
                        baseline
                    } else {
                        baseline_last
                    }
                } else {
                    baseline
                },
            number(8),
            mib(4),
            mib(5),
            mib(6),
            mib(7),
        );
    }
    let arena = times["arena"];
    for other in ["local", "csr"] {
        let [frame, burst] = times[other];
        println!(
            "arena ÷ {other}: {:.2} per frame, {:.2} per burst frame",
            arena[0] / frame,
            arena[1] / burst
        );
    }
}

#[cfg(test)]
mod tests {
    use super::run;

    /// The three versions find the same totals, and the arena version
    /// allocates no more than empty systems in the same schedule: none of
    /// its own. `cargo test -p tickarena-bevy` runs this.
    #[test]
    fn the_versions_agree_and_the_arena_version_allocates_nothing_of_its_own() {
        let frames = 70; // one burst after the warm-up's two
        let baseline = run("baseline_last", frames);
        let arena = run("arena", frames);
        let local = run("local", frames);
        let fresh = run("fresh", frames);
        let csr = run("csr", frames);
        assert_eq!(arena.totals, local.totals);
        assert_eq!(arena.totals, csr.totals);
        assert_eq!(arena.totals, fresh.totals);
        assert!(arena.totals.steps > 0);
        assert!(
            arena.allocations_per_frame <= baseline.allocations_per_frame + 0.1,
            "arena {} against Bevy's own {} heap allocations per frame",
            arena.allocations_per_frame,
            baseline.allocations_per_frame
        );
        assert!(fresh.allocations_per_frame > baseline.allocations_per_frame + 1000.0);
    }
}
