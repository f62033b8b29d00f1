//! A headless authoritative game server on real UDP sockets (127.0.0.1)
//! that decodes every tick in the frame arena, against the same server
//! decoding onto the heap (`--heap`).
//!
//! Each fixed tick (60 Hz, one simulation step per tick) the loop asks the
//! server's source of events, its `Inbox`, for the tick's datagrams: every
//! pending datagram is received into the tick's arena and decoded there
//! with postcard into arena messages (`#[derive(DeserializeIn)]`); each is
//! an event of the tick, which the server turns into actions
//! (`Receive::receive`); the actions apply the inputs and hand the chat
//! lines to the tick's scratch; the snapshots encode one update per client
//! into the arena and send it; the loop resets the arena. A bot driver (a
//! thread, one socket per bot) sends one input per tick per bot, with
//! every unacknowledged input, and a share of garbage (`--garbage P`).
//!
//! `cargo run --release --example server -- --bots 1000 --seconds 10 --garbage 0.1`
//! runs the arena server, then the heap one, each in its own process, in
//! alternating pairs, and prints the arena's figures and the ratio of the
//! two median ticks. `--lockstep` runs the bots in lockstep with the
//! server (a round of one datagram per bot, then the server's tick, never
//! both at once), each on a core of its own (`--server-cpu N`,
//! `--bots-cpu N`): the measurement that carries a claim.

use std::net::UdpSocket;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
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
use game::{Codec, InArena, Inbox, OnHeap, Reject, Server, thread_cpu_ns};

#[global_allocator]
static COUNTING: ThreadCounting = counting_alloc::Counting;

const USAGE: &str = "usage: server [--bots N] [--seconds S] [--garbage P] [--heap | --arena-only] \
                     [--lockstep] [--pairs N] [--server-cpu N] [--bots-cpu N] [--no-pin] \
                     [--max-decoded BYTES]";

/// The phases of a tick, as `Run::phases_p50_us` lists them.
pub const PHASES: [&str; 4] = [
    "receive+decode+apply",
    "simulate",
    "snapshots",
    "reset+record",
];

/// What one run measured.
#[derive(Debug)]
pub struct Run {
    pub ticks: usize,
    pub p50_us: f64,
    pub p99_us: f64,
    /// The thread's CPU time per steady tick, median, in all and by phase.
    pub cpu_p50_us: f64,
    pub phases_p50_us: [f64; PHASES.len()],
    pub allocations_per_steady_tick: f64,
    /// The frame arena's bytes per steady tick (its peak within the tick):
    /// median and highest.
    pub arena_p50_bytes: usize,
    pub arena_peak_bytes: usize,
    pub counts: game::Counts,
    pub lost: u64,
    /// Lockstep ticks whose round did not all arrive in time.
    pub short_rounds: u64,
    pub bots: bots::BotReport,
    /// The last chat lines the server kept (handed from the actions to the
    /// snapshots through the tick's scratch, in the arena server).
    pub chat: [String; protocol::CHAT_LINES],
}

/// The settings of a run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub bots: u32,
    pub seconds: f64,
    pub garbage: f64,
    /// The server's thread on `server_cpu`, the bots' on `bots_cpu` (not
    /// in tests, which share the machine with others).
    pub pin: bool,
    pub server_cpu: usize,
    pub bots_cpu: usize,
    /// The bots in lockstep with the server ([`bots::Lockstep`]).
    pub lockstep: bool,
    /// What one datagram's decode may take of the arena (`--max-decoded`).
    pub max_decoded: usize,
}

/// A server socket with room for a tick of datagrams: the kernel's default
/// receive buffer (about 200 KiB) holds some 170 small datagrams, fewer
/// than 1000 bots send in a tick; the rest would be dropped. (Past
/// `net.core.rmem_max`, only a privileged process gets the room.)
fn server_socket() -> UdpSocket {
    let socket = UdpSocket::bind("127.0.0.1:0").expect("a socket on 127.0.0.1");
    socket.set_nonblocking(true).unwrap();
    #[cfg(target_os = "linux")]
    {
        if rustix::net::sockopt::set_socket_recv_buffer_size_force(&socket, 16 << 20).is_err() {
            let _ = rustix::net::sockopt::set_socket_recv_buffer_size(&socket, 16 << 20);
        }
    }
    #[cfg(all(unix, not(target_os = "linux")))]
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

/// The median of `values` (sorted here).
fn median<T: Copy + Default + PartialOrd>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap());
    values.get(values.len() / 2).copied().unwrap_or_default()
}

/// Runs the server with codec `C` against the bots for `settings`.
pub fn run<C: Codec>(settings: Settings) -> Run {
    let socket = server_socket();
    let address = socket.local_addr().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let drain = Duration::from_millis(500);
    let (lockstep, bots_lockstep) = if settings.lockstep {
        let (sent, rounds) = mpsc::sync_channel(1);
        let (done, ticks) = mpsc::sync_channel(1);
        (
            Some((rounds, done)),
            Some(bots::Lockstep { sent, done: ticks }),
        )
    } else {
        (None, None)
    };
    let driver = {
        let stop = Arc::clone(&stop);
        let (pin, cpu) = (settings.pin, settings.bots_cpu);
        std::thread::spawn(move || {
            if pin {
                pin_to(cpu);
            }
            bots::run(
                address,
                settings.bots,
                settings.garbage,
                stop,
                drain,
                bots_lockstep,
            )
        })
    };
    if settings.pin {
        pin_to(settings.server_cpu);
    }
    // The source receives on the socket, the world sends on it.
    let mut inbox = Inbox::<C>::new(socket.try_clone().expect("a second handle on the socket"));
    inbox.max_decoded = settings.max_decoded;
    let mut game = FrameLoop::new(Server::<C>::new(socket, settings.bots)).one_step_per_tick();
    let step = game.step();
    // Steady: after a second of warm-up (every bot joined, every buffer,
    // chat line and arena page grown).
    let warm_up = Duration::from_secs(1);
    let measured = Duration::from_secs_f64(settings.seconds);
    let capacity = (settings.seconds * 70.0) as usize + 64;
    let mut tick_nanos: Vec<u64> = Vec::with_capacity(capacity);
    let mut cpu_nanos: Vec<u64> = Vec::with_capacity(capacity);
    let mut phase_nanos: [Vec<u64>; PHASES.len()] =
        std::array::from_fn(|_| Vec::with_capacity(capacity));
    let mut arena_bytes: Vec<usize> = Vec::with_capacity(capacity);
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
        match &lockstep {
            // The bots' round is out; they end the run when they are done.
            Some((rounds, _)) => match rounds.recv() {
                Ok(sent) => inbox.expect = Some(sent),
                Err(_) => break,
            },
            None if now > warm_up + measured + drain * 2 => break,
            None => {}
        }
        let allocations = thread_allocations();
        let cpu_began = thread_cpu_ns();
        let began = Instant::now();
        let record = game.tick_from(&mut inbox, Duration::ZERO);
        // A lockstep tick's wait for the rest of its round is not work.
        let took = began.elapsed().saturating_sub(inbox.waited);
        let cpu_took = thread_cpu_ns() - cpu_began;
        if let Some((_, done)) = &lockstep {
            let _ = done.send(());
        }
        if steady {
            tick_nanos.push(took.as_nanos() as u64);
            steady_allocations += thread_allocations() - allocations;
            let marks = game.world().marks;
            let bounds = [cpu_began, marks.update, marks.snapshots, marks.sent];
            for (phase, times) in phase_nanos.iter_mut().enumerate() {
                let end = bounds
                    .get(phase + 1)
                    .copied()
                    .unwrap_or(cpu_began + cpu_took);
                times.push(end.saturating_sub(bounds[phase]));
            }
            cpu_nanos.push(cpu_took);
            arena_bytes.push(record.arena_bytes);
        }
        if let Some(wait) = (started + step * tick).checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
    drop(lockstep);
    let report = driver.join().expect("the bots ran");
    // A last tick for what the bots sent while draining.
    inbox.expect = None;
    game.tick_from(&mut inbox, Duration::ZERO);
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
        cpu_p50_us: median(&mut cpu_nanos) as f64 / 1000.0,
        phases_p50_us: phase_nanos.map(|mut times| median(&mut times) as f64 / 1000.0),
        allocations_per_steady_tick: steady_allocations as f64 / steady_ticks.max(1) as f64,
        arena_p50_bytes: median(&mut arena_bytes.clone()),
        arena_peak_bytes: arena_bytes.iter().copied().max().unwrap_or(0),
        counts: server.counts,
        lost,
        short_rounds: inbox.short_rounds,
        bots: report,
        chat: server.chat.clone(),
    }
}

/// `receive+decode+apply 812, simulate 3, ..`: each phase's figure.
fn phase_list(figures: &[f64; PHASES.len()]) -> String {
    PHASES
        .iter()
        .zip(figures)
        .map(|(name, us)| format!("{name} {us:.1}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The lines a run prints.
fn print(run: &Run, codec: &str) {
    println!("{codec} server:");
    println!(
        "ticks: {}, p50 {:.0} us, p99 {:.0} us",
        run.ticks, run.p50_us, run.p99_us
    );
    println!(
        "thread CPU per tick (p50, us): {:.1}; by phase: {}",
        run.cpu_p50_us,
        phase_list(&run.phases_p50_us)
    );
    println!(
        "heap allocations per steady tick: {:.2}",
        run.allocations_per_steady_tick
    );
    println!(
        "arena bytes per tick: p50 {}, peak {}",
        run.arena_p50_bytes, run.arena_peak_bytes
    );
    print_datagrams(run.counts.received, &run.counts.rejected);
    println!("inputs lost: {}", run.lost);
    if run.short_rounds > 0 {
        println!(
            "lockstep rounds that did not all arrive: {}",
            run.short_rounds
        );
    }
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
        server_cpu: 0,
        bots_cpu: 1,
        lockstep: false,
        max_decoded: protocol::MAX_DECODED,
    };
    let mut mode = "both";
    let mut pairs = 5;
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--bots" => settings.bots = flags.value(&flag, "a number of bots"),
            "--seconds" => settings.seconds = flags.value(&flag, "seconds"),
            "--garbage" => settings.garbage = flags.value(&flag, "a share from 0 to 1"),
            "--heap" => mode = "heap",
            "--arena-only" => mode = "arena",
            "--lockstep" => settings.lockstep = true,
            "--pairs" => pairs = flags.value(&flag, "a number of pairs of runs"),
            "--server-cpu" => settings.server_cpu = flags.value(&flag, "a CPU number"),
            "--bots-cpu" => settings.bots_cpu = flags.value(&flag, "a CPU number"),
            "--no-pin" => settings.pin = false,
            "--max-decoded" => settings.max_decoded = flags.value(&flag, "a number of bytes"),
            other => flags.fail(&format!("unknown flag {other}")),
        }
    }
    if !(0.0..=1.0).contains(&settings.garbage) {
        flags.fail("--garbage needs a share from 0 to 1");
    }
    if pairs == 0 {
        flags.fail("--pairs needs at least 1");
    }
    println!(
        "{} bots for {} s at 60 Hz, {:.0} % garbage, on 127.0.0.1{}{}",
        settings.bots,
        settings.seconds,
        settings.garbage * 100.0,
        if settings.lockstep {
            ", bots in lockstep"
        } else {
            ""
        },
        if settings.pin {
            format!(
                ", server on CPU {}, bots on CPU {}",
                settings.server_cpu, settings.bots_cpu
            )
        } else {
            String::new()
        }
    );
    #[cfg(unix)]
    if mode == "both" {
        // What the kernel granted: a round of 1000 bots in lockstep needs
        // some MiB queued at once (rounds that do not fit are counted).
        let granted = rustix::net::sockopt::socket_recv_buffer_size(server_socket());
        println!(
            "server socket receive buffer: {} bytes",
            granted.unwrap_or(0)
        );
    }
    match mode {
        "arena" => print(&run::<InArena>(settings), InArena::NAME),
        "heap" => print(&run::<OnHeap>(settings), OnHeap::NAME),
        _ => {
            // Each in processes of its own, in alternating pairs of short
            // runs (the machine's state drifts over a minute more than the
            // two servers differ): neither sees the other's heap or threads.
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
            print_totals("arena", &arena);
            print_totals("heap", &heap);
            let ratios = |of: &dyn Fn(&Child) -> f64| -> (f64, f64, f64) {
                let mut ratios: Vec<f64> = arena
                    .iter()
                    .zip(&heap)
                    .map(|(a, h)| of(a) / of(h))
                    .collect();
                ratios.sort_by(f64::total_cmp);
                (ratios[pairs / 2], ratios[0], ratios[pairs - 1])
            };
            let (median, low, high) = ratios(&|run| run.p50);
            println!(
                "arena vs heap: {median:.2}× (the arena's median tick ÷ the heap's, median of {pairs} \
                 alternating pairs of {} s runs; {low:.2}–{high:.2})",
                part.seconds,
            );
            let (median, low, high) = ratios(&|run| run.cpu);
            println!("arena vs heap, thread CPU per tick: {median:.2}× ({low:.2}–{high:.2})");
            for (phase, name) in PHASES.iter().enumerate() {
                let (median, low, high) = ratios(&|run| run.phases[phase]);
                println!("arena vs heap, {name}: {median:.2}× ({low:.2}–{high:.2})");
            }
        }
    }
}

/// The lines of `runs` of one server, summed: ticks, the median of their
/// medians and the highest p99, the median of each phase's medians,
/// allocations, the arena's bytes, datagrams and lost inputs.
fn print_totals(codec: &str, runs: &[Child]) {
    let median_of = |field: &dyn Fn(&Child) -> f64| {
        let mut values: Vec<f64> = runs.iter().map(field).collect();
        median(&mut values)
    };
    let sum = |field: fn(&Child) -> f64| runs.iter().map(field).sum::<f64>();
    let ticks = sum(|run| run.ticks);
    println!("{codec} server:");
    println!(
        "ticks: {ticks}, p50 {:.0} us, p99 {:.0} us",
        median_of(&|run| run.p50),
        runs.iter().map(|run| run.p99).fold(0.0, f64::max)
    );
    let phases: [f64; PHASES.len()] =
        std::array::from_fn(|phase| median_of(&|run| run.phases[phase]));
    println!(
        "thread CPU per tick (p50, us): {:.1}; by phase: {}",
        median_of(&|run| run.cpu),
        phase_list(&phases)
    );
    println!(
        "heap allocations per steady tick: {:.2}",
        sum(|run| run.allocations * run.ticks) / ticks
    );
    println!(
        "arena bytes per tick: p50 {:.0}, peak {:.0}",
        median_of(&|run| run.arena_p50),
        runs.iter().map(|run| run.arena_peak).fold(0.0, f64::max)
    );
    let mut rejected = [0u64; Reject::ALL.len()];
    for run in runs {
        for (total, n) in rejected.iter_mut().zip(run.rejected) {
            *total += n;
        }
    }
    print_datagrams(sum(|run| run.received) as u64, &rejected);
    println!("inputs lost: {}", sum(|run| run.lost));
    let short = sum(|run| run.short_rounds);
    if short > 0.0 {
        println!("lockstep rounds that did not all arrive: {short}");
    }
}

/// What a child process printed.
struct Child {
    ticks: f64,
    p50: f64,
    p99: f64,
    cpu: f64,
    phases: [f64; PHASES.len()],
    allocations: f64,
    arena_p50: f64,
    arena_peak: f64,
    received: f64,
    rejected: [u64; Reject::ALL.len()],
    lost: f64,
    short_rounds: f64,
}

fn child(settings: Settings, mode: &str) -> Child {
    let mut args = vec![
        mode.to_owned(),
        "--bots".into(),
        settings.bots.to_string(),
        "--seconds".into(),
        settings.seconds.to_string(),
        "--garbage".into(),
        settings.garbage.to_string(),
        "--server-cpu".into(),
        settings.server_cpu.to_string(),
        "--bots-cpu".into(),
        settings.bots_cpu.to_string(),
        "--max-decoded".into(),
        settings.max_decoded.to_string(),
    ];
    if settings.lockstep {
        args.push("--lockstep".into());
    }
    if !settings.pin {
        args.push("--no-pin".into());
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(&args)
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
    // The number after `name ` in `text`.
    let after = |text: &str, name: &str| {
        number(
            text.split(name)
                .nth(1)
                .unwrap_or_else(|| panic!("no {name:?} in {text:?}"))
                .split([' ', ',', ';'])
                .next()
                .unwrap(),
        )
    };
    let ticks = line("ticks: ");
    let datagrams = line("datagrams: ");
    let cpu = line("thread CPU per tick (p50, us): ");
    let (total, by_phase) = cpu.split_once(';').expect("a total, then the phases");
    let arena = line("arena bytes per tick: ");
    Child {
        ticks: number(ticks.split(',').next().unwrap()),
        p50: after(&ticks, "p50 "),
        p99: after(&ticks, "p99 "),
        cpu: number(total),
        phases: PHASES.map(|name| after(by_phase, &format!("{name} "))),
        allocations: number(&line("heap allocations per steady tick: ")),
        arena_p50: after(&arena, "p50 "),
        arena_peak: after(&arena, "peak "),
        received: after(&datagrams, "received "),
        rejected: rejected_by_reason(&datagrams),
        lost: number(&line("inputs lost: ")),
        short_rounds: text
            .lines()
            .find_map(|line| line.strip_prefix("lockstep rounds that did not all arrive: "))
            .map_or(0.0, number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A test's run: `bots` for `seconds`, 10 % garbage, unpinned (the
    /// tests share the machine), the default per-packet bound.
    fn small(bots: u32, seconds: f64, lockstep: bool) -> Settings {
        Settings {
            bots,
            seconds,
            garbage: 0.1,
            pin: false,
            server_cpu: 0,
            bots_cpu: 1,
            lockstep,
            max_decoded: protocol::MAX_DECODED,
        }
    }

    /// The arena server, small: 50 bots for 2 s with 10 % garbage: no heap
    /// allocation in steady ticks, every well-formed input applied once,
    /// garbage refused by reason. `cargo test` runs it (`test = true`).
    #[test]
    fn fifty_bots_with_garbage_lose_no_input_and_allocate_nothing() {
        let run = run::<InArena>(small(50, 2.0, false));
        assert_eq!(run.allocations_per_steady_tick, 0.0, "{run:#?}");
        assert_eq!(run.lost, 0, "{run:#?}");
        assert_eq!(run.counts.gaps, 0);
        let rejected: u64 = run.counts.rejected.iter().sum();
        assert!(
            run.bots.garbage > 0 && rejected >= run.bots.garbage * 9 / 10,
            "{run:#?}"
        );
        // The nested length bombs (a tenth of the garbage) stop at the
        // per-packet bound; no valid message reaches it (none was lost).
        assert!(
            run.counts.rejected[Reject::OverBound as usize] > 0,
            "{run:#?}"
        );
        assert!(run.counts.applied > 50 * 60, "{run:#?}");
        assert!(
            run.counts.sent > 0 && run.bots.updates > 0,
            "the bots hear back: {run:#?}"
        );
        assert!(
            run.chat.iter().all(|line| line.contains(" says hello at ")),
            "the chat lines went from the actions to the snapshots: {run:#?}"
        );
    }

    /// In lockstep (a round of the bots, then the server's tick): each
    /// tick handles its whole round, and the figures hold; the per-phase
    /// clock and the arena's bytes are measured.
    #[test]
    fn fifty_bots_in_lockstep_lose_no_input_and_allocate_nothing() {
        let run = run::<InArena>(small(50, 2.0, true));
        assert_eq!(run.allocations_per_steady_tick, 0.0, "{run:#?}");
        assert_eq!((run.lost, run.counts.gaps), (0, 0), "{run:#?}");
        let rejected: u64 = run.counts.rejected.iter().sum();
        assert!(
            run.bots.garbage > 0 && rejected >= run.bots.garbage * 9 / 10,
            "{run:#?}"
        );
        // A tick receives into its arena: the 64 KiB buffer at least.
        assert!(run.arena_peak_bytes >= 1 << 16, "{run:#?}");
        assert!(run.arena_peak_bytes >= run.arena_p50_bytes);
        #[cfg(target_os = "linux")]
        assert!(
            run.phases_p50_us[0] > 0.0 && run.phases_p50_us[2] > 0.0 && run.cpu_p50_us > 0.0,
            "the phases are timed: {run:#?}"
        );
        assert!(
            run.chat.iter().all(|line| line.contains(" says hello at ")),
            "{run:#?}"
        );
    }

    /// The heap server agrees: the same inputs applied, none lost.
    #[test]
    fn the_heap_server_loses_no_input_either() {
        let run = run::<OnHeap>(small(20, 1.0, false));
        assert_eq!(run.lost, 0, "{run:#?}");
        assert!(run.allocations_per_steady_tick > 20.0, "{run:#?}");
        assert!(
            run.chat.iter().all(|line| line.contains(" says hello at ")),
            "{run:#?}"
        );
    }
}
