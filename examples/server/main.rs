//! A headless authoritative game server on real UDP sockets (127.0.0.1)
//! that decodes every tick in the frame arena, against the same server
//! decoding onto the heap (`--heap`).
//!
//! Each fixed tick (60 Hz) the server receives every pending datagram into
//! the tick's arena, decodes each with postcard into arena messages
//! (`#[derive(DeserializeIn)]`), turns them into actions through
//! `FrameLoop` and simulates, then encodes one update per client into the
//! arena and sends it. A bot driver (a thread, one socket per bot) sends
//! one input per tick per bot, with every unacknowledged input, and a
//! share of garbage (`--garbage P`).
//!
//! `cargo run --release --example server -- --bots 1000 --seconds 10 --garbage 0.1`
//! runs the arena server, then the heap one, each in its own process, and
//! prints the arena's figures and the ratio of the two median ticks.

use std::net::UdpSocket;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tickarena::frame_loop::FrameLoop;

mod bots;
#[path = "../support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../support/flags.rs"]
mod flags;
mod game;
mod protocol;

use counting_alloc::{ThreadCounting, thread_allocations};
use game::{Codec, InArena, OnHeap, Readable, Reject, Server};

#[global_allocator]
static COUNTING: ThreadCounting = counting_alloc::Counting;

const USAGE: &str = "usage: server [--bots N] [--seconds S] [--garbage P] [--heap | --arena-only]";

/// What one run measured.
#[derive(Debug)]
pub struct Run {
    pub ticks: usize,
    pub p50_us: f64,
    pub p99_us: f64,
    pub allocations_per_steady_tick: f64,
    pub counts: game::Counts,
    pub lost: u64,
    pub bots: bots::BotReport,
}

/// The settings of a run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub bots: u32,
    pub seconds: f64,
    pub garbage: f64,
    /// The server's thread on CPU 0, the bots' on CPU 1 (not in tests,
    /// which share the machine with others).
    pub pin: bool,
}

/// A server socket with room for a tick of datagrams: the kernel's default
/// receive buffer (about 200 KiB) holds some 170 small datagrams, fewer
/// than 1000 bots send in a tick; the rest would be dropped.
fn server_socket() -> UdpSocket {
    let socket = UdpSocket::bind("127.0.0.1:0").expect("a socket on 127.0.0.1");
    socket.set_nonblocking(true).unwrap();
    #[cfg(unix)]
    {
        let _ = rustix::net::sockopt::set_socket_recv_buffer_size(&socket, 16 << 20);
    }
    socket
}

/// Pins the calling thread to CPU `cpu` when the machine has more than one
/// (Linux): the server and the bots each on a core of their own, so that
/// neither's tick times carry the other's scheduling.
fn pin_to(cpu: usize) {
    #[cfg(target_os = "linux")]
    {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        if cpus > 1 {
            let mut set = rustix::thread::CpuSet::new();
            set.set(cpu % cpus);
            let _ = rustix::thread::sched_setaffinity(None, &set);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cpu;
}

/// Runs the server with codec `C` against the bots for `settings`.
pub fn run<C: Codec>(settings: Settings) -> Run {
    let socket = server_socket();
    let address = socket.local_addr().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let drain = Duration::from_millis(500);
    let driver = {
        let stop = Arc::clone(&stop);
        let pin = settings.pin;
        std::thread::spawn(move || {
            if pin {
                pin_to(1);
            }
            bots::run(address, settings.bots, settings.garbage, stop, drain)
        })
    };
    if settings.pin {
        pin_to(0);
    }
    let mut game = FrameLoop::new(Server::<C>::new(socket, settings.bots));
    let step = game.step();
    // Steady: after a second of warm-up (every bot joined, every buffer,
    // chat line and arena page grown).
    let warm_up = Duration::from_secs(1);
    let measured = Duration::from_secs_f64(settings.seconds);
    let mut tick_nanos: Vec<u64> = Vec::with_capacity((settings.seconds * 70.0) as usize + 64);
    let mut steady_allocations = 0;
    let started = Instant::now();
    let mut tick = 0u32;
    loop {
        tick += 1;
        let now = started.elapsed();
        let steady = now > warm_up && now <= warm_up + measured;
        if now > warm_up + measured {
            stop.store(true, Ordering::Relaxed);
        }
        if now > warm_up + measured + drain * 2 {
            break;
        }
        let allocations = thread_allocations();
        let began = Instant::now();
        game.tick([Readable], step);
        let took = began.elapsed();
        if steady {
            tick_nanos.push(took.as_nanos() as u64);
            steady_allocations += thread_allocations() - allocations;
        }
        if let Some(wait) = (started + step * tick).checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    let report = driver.join().expect("the bots ran");
    // A last tick for what the bots sent while draining.
    game.tick([Readable], step);
    let server = game.world();
    let lost = server.counts.gaps
        + server
            .players
            .iter()
            .zip(&report.well_formed_up_to)
            .map(|(player, &sent)| u64::from(sent.saturating_sub(player.last_applied)))
            .sum::<u64>();
    let steady_ticks = tick_nanos.len();
    tick_nanos.sort_unstable();
    let percentile = |p: f64| {
        tick_nanos
            .get(((steady_ticks as f64 * p) as usize).min(steady_ticks.saturating_sub(1)))
            .map_or(0.0, |&ns| ns as f64 / 1000.0)
    };
    Run {
        ticks: steady_ticks,
        p50_us: percentile(0.5),
        p99_us: percentile(0.99),
        allocations_per_steady_tick: steady_allocations as f64 / steady_ticks.max(1) as f64,
        counts: server.counts,
        lost,
        bots: report,
    }
}

/// The lines a run prints.
fn print(run: &Run, codec: &str) {
    println!("{codec} server:");
    println!(
        "ticks: {}, p50 {:.0} us, p99 {:.0} us",
        run.ticks, run.p50_us, run.p99_us
    );
    println!(
        "heap allocations per steady tick: {:.2}",
        run.allocations_per_steady_tick
    );
    print_datagrams(run.counts.received, &run.counts.rejected);
    println!("inputs lost: {}", run.lost);
}

/// `datagrams: received R, rejected J (reason n, ..)`.
fn print_datagrams(received: u64, rejected: &[u64; Reject::ALL.len()]) {
    let reasons: Vec<String> = Reject::ALL
        .iter()
        .zip(rejected)
        .filter(|(_, n)| **n > 0)
        .map(|(why, n)| format!("{} {n}", why.name()))
        .collect();
    println!(
        "datagrams: received {received}, rejected {} ({})",
        rejected.iter().sum::<u64>(),
        reasons.join(", ")
    );
}

/// The counts by reason in a `datagrams:` line.
fn rejected_by_reason(line: &str) -> [u64; Reject::ALL.len()] {
    Reject::ALL.map(|why| {
        line.split(&format!("{} ", why.name()))
            .nth(1)
            .and_then(|rest| rest.split([',', ')']).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    })
}

fn main() {
    let mut flags = flags::Flags::new(USAGE);
    let mut settings = Settings {
        bots: 1000,
        seconds: 10.0,
        garbage: 0.1,
        pin: true,
    };
    let mut mode = "both";
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--bots" => settings.bots = flags.value(&flag, "a number of bots"),
            "--seconds" => settings.seconds = flags.value(&flag, "seconds"),
            "--garbage" => settings.garbage = flags.value(&flag, "a share from 0 to 1"),
            "--heap" => mode = "heap",
            "--arena-only" => mode = "arena",
            other => flags.fail(&format!("unknown flag {other}")),
        }
    }
    if !(0.0..=1.0).contains(&settings.garbage) {
        flags.fail("--garbage needs a share from 0 to 1");
    }
    println!(
        "{} bots for {} s at 60 Hz, {:.0} % garbage, on 127.0.0.1",
        settings.bots,
        settings.seconds,
        settings.garbage * 100.0
    );
    match mode {
        "arena" => print(&run::<InArena>(settings), InArena::NAME),
        "heap" => print(&run::<OnHeap>(settings), OnHeap::NAME),
        _ => {
            // Each in processes of its own, in alternating pairs of short
            // runs (the machine's state drifts over a minute more than the
            // two servers differ): neither sees the other's heap or threads.
            let pairs = 5;
            let part = Settings {
                seconds: settings.seconds / pairs as f64,
                ..settings
            };
            let mut arena = Vec::new();
            let mut heap = Vec::new();
            for pair in 0..pairs {
                if pair % 2 == 0 {
                    arena.push(child(part, "--arena-only"));
                    heap.push(child(part, "--heap"));
                } else {
                    heap.push(child(part, "--heap"));
                    arena.push(child(part, "--arena-only"));
                }
            }
            let mut ratios: Vec<f64> = arena
                .iter()
                .zip(&heap)
                .map(|(a, h)| a.p50 / h.p50)
                .collect();
            ratios.sort_by(f64::total_cmp);
            print_totals("arena", &arena);
            print_totals("heap", &heap);
            println!(
                "arena vs heap: {:.2}× (the arena's median tick ÷ the heap's, median of {pairs} \
                 alternating pairs of {} s runs; {:.2}–{:.2})",
                ratios[pairs / 2],
                part.seconds,
                ratios[0],
                ratios[pairs - 1]
            );
        }
    }
}

/// The lines of `runs` of one server, summed: ticks, the median of their
/// medians and the highest p99, allocations, datagrams and lost inputs.
fn print_totals(codec: &str, runs: &[Child]) {
    let mut medians: Vec<f64> = runs.iter().map(|run| run.p50).collect();
    medians.sort_by(f64::total_cmp);
    let sum = |field: fn(&Child) -> f64| runs.iter().map(field).sum::<f64>();
    let ticks = sum(|run| run.ticks);
    println!("{codec} server:");
    println!(
        "ticks: {ticks}, p50 {:.0} us, p99 {:.0} us",
        medians[runs.len() / 2],
        runs.iter().map(|run| run.p99).fold(0.0, f64::max)
    );
    println!(
        "heap allocations per steady tick: {:.2}",
        sum(|run| run.allocations * run.ticks) / ticks
    );
    let mut rejected = [0u64; Reject::ALL.len()];
    for run in runs {
        for (total, n) in rejected.iter_mut().zip(run.rejected) {
            *total += n;
        }
    }
    print_datagrams(sum(|run| run.received) as u64, &rejected);
    println!("inputs lost: {}", sum(|run| run.lost));
}

/// What a child process printed.
struct Child {
    ticks: f64,
    p50: f64,
    p99: f64,
    allocations: f64,
    received: f64,
    rejected: [u64; Reject::ALL.len()],
    lost: f64,
}

fn child(settings: Settings, mode: &str) -> Child {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            mode,
            "--bots",
            &settings.bots.to_string(),
            "--seconds",
            &settings.seconds.to_string(),
            "--garbage",
            &settings.garbage.to_string(),
        ])
        .output()
        .expect("the server runs");
    assert!(
        output.status.success(),
        "{mode}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let line = |prefix: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("{mode} printed no {prefix:?}: {text}"))
            .to_owned()
    };
    let number = |text: &str| text.trim().parse::<f64>().expect("a number");
    let ticks = line("ticks: ");
    let datagrams = line("datagrams: ");
    let field = |name: &str| {
        let after = ticks
            .split(name)
            .nth(1)
            .or_else(|| datagrams.split(name).nth(1))
            .unwrap();
        number(after.split([' ', ',']).next().unwrap())
    };
    Child {
        ticks: number(ticks.split(',').next().unwrap()),
        p50: field("p50 "),
        p99: field("p99 "),
        allocations: number(&line("heap allocations per steady tick: ")),
        received: field("received "),
        rejected: rejected_by_reason(&line("datagrams: ")),
        lost: number(&line("inputs lost: ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arena server, small: 50 bots for 2 s with 10 % garbage: no heap
    /// allocation in steady ticks, every well-formed input applied once,
    /// garbage refused by reason. `cargo test` runs it (`test = true`).
    #[test]
    fn fifty_bots_with_garbage_lose_no_input_and_allocate_nothing() {
        let run = run::<InArena>(Settings {
            bots: 50,
            seconds: 2.0,
            garbage: 0.1,
            pin: false,
        });
        assert_eq!(run.allocations_per_steady_tick, 0.0, "{run:#?}");
        assert_eq!(run.lost, 0, "{run:#?}");
        assert_eq!(run.counts.gaps, 0);
        let rejected: u64 = run.counts.rejected.iter().sum();
        assert!(
            run.bots.garbage > 0 && rejected >= run.bots.garbage * 9 / 10,
            "{run:#?}"
        );
        assert!(run.counts.applied > 50 * 60, "{run:#?}");
        assert!(
            run.counts.sent > 0 && run.bots.updates > 0,
            "the bots hear back: {run:#?}"
        );
    }

    /// The heap server agrees: the same inputs applied, none lost.
    #[test]
    fn the_heap_server_loses_no_input_either() {
        let run = run::<OnHeap>(Settings {
            bots: 20,
            seconds: 1.0,
            garbage: 0.1,
            pin: false,
        });
        assert_eq!(run.lost, 0, "{run:#?}");
        assert!(run.allocations_per_steady_tick > 20.0, "{run:#?}");
    }
}
