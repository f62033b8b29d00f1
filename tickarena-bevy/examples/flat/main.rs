//! Flat frame buffers in a game that makes every buffer it rebuilds with
//! `vec_at_last_size`, against the same game with `Local<Vec<_>>`s (issue
//! 61: a newcomer's game, written from the docs alone). Each frame a
//! spatial grid is rebuilt by counting sort, a tenth of the units search
//! their neighbours (all of them twice over on every 60th frame, a burst),
//! and the units that crossed a cell border are listed.
//!
//! * `local`: `Local<Vec<_>>`s, cleared and refilled;
//! * `arena`: the system's `FrameScratch`, each buffer from
//!   `vec_at_last_size`, the neighbour list one for the run, cleared
//!   before each search (as the guide says);
//! * `local_own_function`, `arena_own_function`: the same, with the search
//!   loop in a function of its own (`#[inline(never)]`, the buffers passed
//!   as slices and the lists by `&mut`).
//!
//! The two ways of writing the loop run the same code in both versions
//! (`game::search_inline`, inlined into the system, or
//! `game::search_own_function`); what differs is where the system keeps
//! its buffers. Each version runs in its own process, in pairs, alternating
//! which goes first; the median of the pairs' ratios of each run's mean
//! frame time is printed, ordinary and burst frames apart, and the
//! versions' checksums must agree.
//!
//! ```sh
//! cargo run --release -p tickarena-bevy --example flat -- [--pairs 8] [--frames 600] [--own-function]
//! cargo run --release -p tickarena-bevy --example flat -- --version arena --frames 200
//! ```

mod arena;
mod game;
mod local_reuse;
#[path = "../support/median.rs"]
mod median;

use median::median;
use std::time::Instant;

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use game::{Checksum, FrameCount, LastCell, Position, Search, UNITS, Unit, Velocity, cell_of};

const VERSIONS: [&str; 4] = ["local", "arena", "local_own_function", "arena_own_function"];

fn app(version: &str) -> App {
    let mut app = App::new();
    app.init_resource::<FrameCount>()
        .init_resource::<Checksum>();
    match version {
        "local" => local_reuse::add::<false>(&mut app),
        "arena" => arena::add::<false>(&mut app),
        "local_own_function" => local_reuse::add::<true>(&mut app),
        "arena_own_function" => arena::add::<true>(&mut app),
        other => panic!("unknown version {other:?}: {}", VERSIONS.join(", ")),
    }
    app.add_systems(Update, game::step.before(Search));
    // The same units in every version: a xorshift from a fixed seed.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let units: Vec<_> = (0..UNITS)
        .map(|id| {
            let at = Position(random() * game::SIZE, random() * game::SIZE);
            let velocity = Velocity(random() * 6.0 - 3.0, random() * 6.0 - 3.0);
            (Unit(id), at, velocity, LastCell(cell_of(at)))
        })
        .collect();
    app.world_mut().spawn_batch(units);
    app
}

/// One run: the checksum and the mean ordinary and burst frame, in µs.
fn run(version: &str, warm_up: u64, frames: u64) -> (u64, [f64; 2]) {
    let mut app = app(version);
    for _ in 0..warm_up {
        app.update();
    }
    let (mut total, mut count) = ([0.0; 2], [0u32; 2]);
    for _ in 0..frames {
        let burst = game::is_burst(app.world().resource::<FrameCount>().0 + 1);
        let started = Instant::now();
        app.update();
        total[usize::from(burst)] += started.elapsed().as_secs_f64() * 1e6;
        count[usize::from(burst)] += 1;
    }
    let mean = |i: usize| total[i] / f64::from(count[i].max(1));
    (app.world().resource::<Checksum>().0, [mean(0), mean(1)])
}

/// `version` run in a process of its own.
fn run_apart(version: &str, frames: u64) -> (u64, [f64; 2]) {
    let output = std::process::Command::new(std::env::current_exe().expect("this program"))
        .args(["--version", version, "--frames", &frames.to_string()])
        .output()
        .expect("the version runs");
    assert!(output.status.success(), "{version} failed: {output:?}");
    let line = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<&str> = line.split_whitespace().collect();
    let checksum = u64::from_str_radix(fields[1], 16).expect("a checksum");
    (
        checksum,
        [fields[2].parse().unwrap(), fields[3].parse().unwrap()],
    )
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut version, mut frames, mut pairs, mut own) = (None, 600u64, 8usize, false);
    while let Some(flag) = args.next() {
        let mut number = || args.next().and_then(|n| n.parse().ok()).expect("a number");
        match flag.as_str() {
            "--version" => version = args.next(),
            "--frames" => frames = number(),
            "--pairs" => pairs = number() as usize,
            "--own-function" => own = true,
            other => panic!(
                "unknown flag {other:?}: --pairs N, --frames N, --own-function, --version NAME"
            ),
        }
    }
    // Two bursts' warm-up, so that every buffer has met one.
    let warm_up = 2 * game::BURST_EVERY + 10;
    if let Some(version) = version {
        let (checksum, [ordinary, burst]) = run(&version, warm_up, frames);
        println!("{version} {checksum:016x} {ordinary:.2} {burst:.2}");
        return;
    }
    let (local, arena) = if own {
        ("local_own_function", "arena_own_function")
    } else {
        ("local", "arena")
    };
    println!(
        "{pairs} pairs of runs ({arena} and {local}), {frames} frames each; arena ÷ Local, each run's mean frame:"
    );
    let mut ratios = [Vec::new(), Vec::new()];
    for pair in 0..pairs {
        let order = if pair % 2 == 0 {
            [local, arena]
        } else {
            [arena, local]
        };
        let [first, second] = order.map(|version| run_apart(version, frames));
        let (l, a) = if pair % 2 == 0 {
            (first, second)
        } else {
            (second, first)
        };
        assert_eq!(l.0, a.0, "the versions found different checksums");
        for kind in 0..2 {
            ratios[kind].push(a.1[kind] / l.1[kind]);
        }
        println!(
            "  pair {}: ordinary {:.3}, burst {:.3}",
            pair + 1,
            ratios[0][pair],
            ratios[1][pair]
        );
    }
    for (kind, name) in ["ordinary", "burst"].into_iter().enumerate() {
        let low = ratios[kind].iter().copied().fold(f64::INFINITY, f64::min);
        let high = ratios[kind].iter().copied().fold(0.0, f64::max);
        println!(
            "{name} frames: median {:.3} ({low:.3}–{high:.3})",
            median(ratios[kind].clone())
        );
    }
}

#[cfg(test)]
mod tests {
    use super::{VERSIONS, run};

    /// Every version finds the same checksum (`cargo test -p
    /// tickarena-bevy` runs this).
    #[test]
    fn the_versions_agree() {
        let checksums: Vec<u64> = VERSIONS
            .iter()
            .map(|version| run(version, 0, 70).0)
            .collect();
        assert!(
            checksums.iter().all(|&sum| sum == checksums[0]),
            "{checksums:x?}"
        );
    }
}
