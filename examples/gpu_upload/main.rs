//! A frame's instance data on its way to the GPU, several ways:
//! tickarena's upload arena (`tickarena::gpu`) with `extend` from an
//! iterator (`arena`) and with one `push` per instance (`arena_push`), a
//! reused `Vec` + `queue.write_buffer`, a fresh `Vec` + `write_buffer`,
//! `queue.write_buffer_with` and `wgpu::util::StagingBelt`. Each frame
//! builds N instances of 32 bytes from their index, uploads them into a
//! GPU buffer and submits the frame, with two frames in flight. The last
//! two are told the frame's size in advance (their APIs need it); the
//! arena and the `Vec`s are not. `--burst-every N` makes every Nth frame
//! 8 times larger (its frames timed apart); `--cull` culls a quarter of
//! each frame's instances as they are built, as a renderer does, so the
//! count is known only at the end: `write_buffer_with` and the belt are
//! then given the candidates' size and write the survivors into it in a
//! plain loop, the arena `extend`s from a filtering iterator (or `push`es
//! the survivors), the `Vec`s push them.
//!
//! ```sh
//! cargo run --release --features wgpu --example gpu_upload -- --instances 10000 --frames 600
//! ```
//!
//! It runs each contender in a process of its own (the example runs
//! itself with `--contender NAME`), pinned to one core (`--cpu N`, default
//! 1, or `--no-pin`), `--pairs P` times (default 5), in alternating order
//! (the arena first, then the arena last), and measures each frame's
//! thread CPU time over `--frames F` steady frames per process after
//! `--warm-up W` (default 60). It prints each contender's median, then
//! the ratio of the arena's median to each other's, paired process by
//! process: the median of the pairs' ratios, lowest–highest; the last six
//! lines are the `arena`'s (`extend`). Heap allocations are counted by a
//! counting global allocator (this thread's), around tickarena's calls
//! alone (`begin_frame` to `finish`, and `submitted`: wgpu's allocations
//! inside them count) and around the whole frame (wgpu's submit and poll included);
//! the arena's process also makes the wgpu calls the arena makes by hand
//! (`by_hand.rs`) and counts them, so that the line on heap allocations
//! can tell wgpu's inside tickarena's calls from tickarena's own;
//! buffers created are the arena's own count
//! (`UploadStats::buffers_created`).
//!
//! The adapter is wgpu's first (`WGPU_BACKEND`, `WGPU_ADAPTER_NAME`
//! choose; `--adapter` prints it and exits); without one the example says
//! so and exits with status 1.

#[path = "../support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../support/flags.rs"]
mod flags;
#[path = "../support/pinned_cpu.rs"]
mod pinned_cpu;

mod by_hand;
mod contenders;
mod gpu;

use contenders::{
    Belt, Contender, FreshVec, NAMES, ReusedVec, UploadArena, UploadArenaPush, Work,
    WriteBufferWith,
};
use counting_alloc::{ThreadCounting, thread_allocations};
use flags::Flags;
use gpu::{Gpu, InFlight};
use pinned_cpu::{median, pin_to, thread_cpu_ns};

#[global_allocator]
static COUNTING: ThreadCounting = counting_alloc::Counting;

const USAGE: &str = "usage: gpu_upload [--instances N] [--frames F] [--warm-up W] [--pairs P] \
                     [--cpu N] [--no-pin] [--burst-every N] [--cull] [--contender NAME] [--adapter]";

/// Frames the GPU may still be working on when a frame begins.
const FRAMES_IN_FLIGHT: usize = 2;

/// Frames of the arena's wgpu calls made by hand (each waits for the
/// GPU).
const BY_HAND_FRAMES: usize = 60;

#[derive(Clone, Copy)]
struct Settings {
    instances: u32,
    frames: usize,
    warm_up: usize,
    cpu: usize,
    pin: bool,
    /// Every this many frames, a burst of `BURST` times the instances
    /// (0: no bursts).
    burst_every: usize,
    /// A quarter of each frame's instances culled as they are built (the
    /// count known only at the end, as in a renderer that culls).
    cull: bool,
}

/// A burst frame's instances, in ordinary frames' (the game's explosion).
const BURST: u32 = 8;

impl Settings {
    /// The instances of measured frame `i`.
    fn instances_of(&self, i: usize) -> u32 {
        if self.burst_every > 0 && i % self.burst_every == self.burst_every - 1 {
            self.instances * BURST
        } else {
            self.instances
        }
    }

    /// The most instances a frame has: what a careful programmer sizes
    /// the belt and the destination for.
    fn max_instances(&self) -> u32 {
        if self.burst_every > 0 {
            self.instances * BURST
        } else {
            self.instances
        }
    }
}

/// What one process measured, over its steady frames.
#[derive(Clone, Copy, Default)]
struct Measured {
    /// Median thread CPU per frame, in microseconds (ordinary frames).
    cpu_us: f64,
    /// The same for burst frames (negative: no bursts).
    burst_us: f64,
    /// Heap allocations of the whole frame, per frame.
    allocations: f64,
    /// Heap allocations around tickarena's calls, per frame.
    allocations_in_calls: f64,
    /// Heap allocations of the same wgpu calls made by hand, per frame
    /// (the arena's process; negative in the others).
    by_hand: f64,
    /// Buffers the contender created, per frame (negative: not counted).
    buffers: f64,
}

fn main() {
    let mut flags = Flags::new(USAGE);
    let mut settings = Settings {
        instances: 10_000,
        frames: 600,
        warm_up: 60,
        cpu: 1,
        pin: true,
        burst_every: 0,
        cull: false,
    };
    let mut pairs = 5usize;
    let mut contender = None;
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--instances" => settings.instances = flags.value(&flag, "a number of instances"),
            "--frames" => settings.frames = flags.value(&flag, "a number of frames"),
            "--warm-up" => settings.warm_up = flags.value(&flag, "a number of frames"),
            "--pairs" => pairs = flags.value(&flag, "a number of pairs of runs"),
            "--cpu" => settings.cpu = flags.value(&flag, "a CPU number"),
            "--no-pin" => settings.pin = false,
            "--burst-every" => settings.burst_every = flags.value(&flag, "a number of frames"),
            "--cull" => settings.cull = true,
            "--adapter" => {
                // The adapter the contenders would run on, and nothing else.
                match Gpu::new() {
                    Ok(gpu) => println!("adapter: {}", gpu.adapter()),
                    Err(problem) => {
                        eprintln!("error: {problem}");
                        std::process::exit(1);
                    }
                }
                return;
            }
            "--contender" => {
                let name: String = flags.value(&flag, "a contender's name");
                if !NAMES.contains(&name.as_str()) {
                    flags.fail(&format!("no contender {name:?}; they are {NAMES:?}"));
                }
                contender = Some(name);
            }
            other => flags.fail(&format!("unknown flag {other}")),
        }
    }
    if settings.instances == 0 || settings.frames == 0 || pairs == 0 {
        flags.fail("--instances, --frames and --pairs need at least 1");
    }
    match contender {
        Some(name) => child(&name, settings),
        None => parent(settings, pairs),
    }
}

/// Runs every contender `pairs` times, each in its own process, and prints
/// the comparison.
fn parent(settings: Settings, pairs: usize) {
    let mut runs: Vec<Vec<Measured>> = vec![Vec::new(); NAMES.len()];
    let mut adapter = String::new();
    for pair in 0..pairs {
        let mut order: Vec<usize> = (0..NAMES.len()).collect();
        if pair % 2 == 1 {
            order.reverse();
        }
        for which in order {
            let (name, measured) = spawn(NAMES[which], settings);
            adapter = name;
            runs[which].push(measured);
        }
    }
    let per_contender = |which: usize, field: fn(&Measured) -> f64| -> (f64, f64, f64) {
        let mut values: Vec<f64> = runs[which].iter().map(field).collect();
        let middle = median(&mut values);
        (middle, values[0], values[values.len() - 1])
    };
    for (which, name) in NAMES.iter().enumerate() {
        let (cpu, low, high) = per_contender(which, |run| run.cpu_us);
        let (allocations, ..) = per_contender(which, |run| run.allocations);
        println!(
            "{name}: {cpu:.1} µs CPU per frame (median of {pairs} processes' medians; \
             {low:.1}–{high:.1}), {} heap allocations per frame",
            count(allocations)
        );
    }
    // Paired process by process: the median, lowest and highest ratio of
    // `field` (ordinary or burst frames).
    let ratio_of = |arena: usize, other: usize, field: fn(&Measured) -> f64| {
        let mut ratios: Vec<f64> = runs[arena]
            .iter()
            .zip(&runs[other])
            .map(|(arena, other)| field(arena) / field(other))
            .collect();
        let middle = median(&mut ratios);
        (middle, ratios[0], ratios[ratios.len() - 1])
    };
    let ratio = |arena: usize, other: usize| ratio_of(arena, other, |run| run.cpu_us);
    let position = |name: &str| NAMES.iter().position(|&n| n == name).unwrap();
    let arena = position(UploadArena::<false>::NAME);
    let push = position(UploadArenaPush::NAME);
    let with = position(WriteBufferWith::NAME);
    let belt = position(Belt::NAME);
    let reused = position(ReusedVec::NAME);
    let fresh = position(FreshVec::NAME);
    // The arena with one `push` per instance, beside the lines below
    // (which are the arena's `extend`).
    for (other, name) in [
        (with, "write_buffer_with"),
        (belt, "staging belt"),
        (reused, "reused Vec + write_buffer"),
        (fresh, "fresh Vec + write_buffer"),
    ] {
        let (middle, low, high) = ratio(push, other);
        println!("arena_push vs {name}: {middle:.2}× ({low:.2}–{high:.2})");
    }
    let (middle, low, high) = ratio(arena, fresh);
    println!("arena vs fresh Vec + write_buffer: {middle:.2}× ({low:.2}–{high:.2})");
    println!(
        "instances per frame: {} (32 B each){}, {} frames, adapter: {adapter}",
        settings.instances,
        if settings.cull {
            ", a quarter culled"
        } else {
            ""
        },
        settings.frames
    );
    let (middle, low, high) = ratio(arena, with);
    println!(
        "arena vs write_buffer_with: {middle:.2}× (arena CPU per frame ÷ write_buffer_with's, \
         median of {pairs} alternating pairs; {low:.2}–{high:.2})"
    );
    let (middle, low, high) = ratio(arena, belt);
    println!("arena vs staging belt: {middle:.2}× ({low:.2}–{high:.2})");
    let (middle, low, high) = ratio(arena, reused);
    println!("arena vs reused Vec + write_buffer: {middle:.2}× ({low:.2}–{high:.2})");
    if settings.burst_every > 0 {
        for (other, name) in [(with, "write_buffer_with"), (belt, "staging belt")] {
            let (middle, low, high) = ratio_of(arena, other, |run| run.burst_us);
            println!(
                "arena vs {name}, burst frames ({BURST}× every {}): {middle:.2}× ({low:.2}–{high:.2})",
                settings.burst_every
            );
        }
    }
    let (around, ..) = per_contender(arena, |run| run.allocations_in_calls);
    let (by_hand, ..) = per_contender(arena, |run| run.by_hand);
    // Each process's difference, then their median: the two counts of one
    // process, on one device. Signed: a negative one says the hand-made
    // calls no longer match the arena's, not that tickarena freed memory.
    let (own, ..) = per_contender(arena, |run| run.allocations_in_calls - run.by_hand);
    let (whole, ..) = per_contender(arena, |run| run.allocations);
    let (buffers, ..) = per_contender(arena, |run| run.buffers);
    println!(
        "tickarena heap allocations per steady frame: {} (counted around tickarena's calls, where \
         the same wgpu calls made by hand make {}: tickarena's own {}; the whole frame, wgpu's \
         submit included: {})",
        count(around),
        count(by_hand),
        figure(own),
        count(whole)
    );
    println!("buffers created per steady frame: {}", count(buffers));
}

/// A count per frame: whole when it is, else to two places.
fn count(per_frame: f64) -> String {
    if per_frame < 0.0 {
        "not counted".to_owned()
    } else {
        figure(per_frame)
    }
}

/// A figure per frame, whatever its sign: whole when it is, else to two
/// places.
fn figure(per_frame: f64) -> String {
    if per_frame.fract() == 0.0 {
        format!("{per_frame:.0}")
    } else {
        format!("{per_frame:.2}")
    }
}

/// Runs contender `name` in a process of its own; its adapter and what it
/// measured. A failed child ends this process too, with its message.
fn spawn(name: &str, settings: Settings) -> (String, Measured) {
    let mut args = vec![
        "--contender".to_owned(),
        name.to_owned(),
        "--instances".into(),
        settings.instances.to_string(),
        "--frames".into(),
        settings.frames.to_string(),
        "--warm-up".into(),
        settings.warm_up.to_string(),
        "--cpu".into(),
        settings.cpu.to_string(),
    ];
    if !settings.pin {
        args.push("--no-pin".into());
    }
    args.extend(["--burst-every".into(), settings.burst_every.to_string()]);
    if settings.cull {
        args.push("--cull".into());
    }
    let output = std::process::Command::new(std::env::current_exe().expect("this program"))
        .args(&args)
        .output()
        .expect("the example runs itself");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        eprintln!("error: contender {name} failed ({})", output.status);
        std::process::exit(output.status.code().unwrap_or(1).max(1));
    }
    let line = |prefix: &str| -> &str {
        text.lines()
            .find_map(|line| line.strip_prefix(prefix))
            .unwrap_or_else(|| panic!("{name} printed no {prefix:?}: {text}"))
    };
    let number = |prefix: &str| -> f64 { line(prefix).trim().parse().expect("a number") };
    let measured = Measured {
        cpu_us: number("cpu_us: "),
        burst_us: number("burst_us: "),
        allocations: number("allocations: "),
        allocations_in_calls: number("allocations_in_calls: "),
        by_hand: number("by_hand: "),
        buffers: number("buffers: "),
    };
    (line("adapter: ").to_owned(), measured)
}

/// One contender's process: pinned, on the first adapter, `warm_up` frames
/// then `frames` measured ones. Prints what it measured, a line each.
fn child(name: &str, settings: Settings) {
    if settings.pin {
        pin_to(settings.cpu);
    }
    let gpu = Gpu::new().unwrap_or_else(|problem| {
        eprintln!("error: {problem}");
        std::process::exit(1);
    });
    println!("adapter: {}", gpu.adapter());
    let mut measured = match name {
        UploadArenaPush::NAME => measure(
            &gpu,
            settings,
            UploadArenaPush::with_counter(&gpu, settings.max_instances(), thread_allocations),
        ),
        UploadArena::<false>::NAME => measure(
            &gpu,
            settings,
            UploadArena::<false>::with_counter(&gpu, settings.max_instances(), thread_allocations),
        ),
        WriteBufferWith::NAME => measure(
            &gpu,
            settings,
            WriteBufferWith::new(&gpu, settings.max_instances()),
        ),
        Belt::NAME => measure(&gpu, settings, Belt::new(&gpu, settings.max_instances())),
        ReusedVec::NAME => measure(
            &gpu,
            settings,
            ReusedVec::new(&gpu, settings.max_instances()),
        ),
        FreshVec::NAME => measure(
            &gpu,
            settings,
            FreshVec::new(&gpu, settings.max_instances()),
        ),
        _ => unreachable!("the flags name a contender"),
    };
    if name == UploadArena::<false>::NAME {
        measured.by_hand = by_hand_allocations(&gpu, settings.instances);
    }
    println!("cpu_us: {}", measured.cpu_us);
    println!("burst_us: {}", measured.burst_us);
    println!("allocations: {}", measured.allocations);
    println!("allocations_in_calls: {}", measured.allocations_in_calls);
    println!("by_hand: {}", measured.by_hand);
    println!("buffers: {}", measured.buffers);
}

/// Heap allocations per frame of the wgpu calls the arena makes, made by
/// hand for `instances` instances: what tells wgpu's allocations inside
/// tickarena's calls from tickarena's own.
fn by_hand_allocations(gpu: &Gpu, instances: u32) -> f64 {
    let data: Vec<contenders::Instance> = (0..instances)
        .map(contenders::Instance::from_index)
        .collect();
    let counts = by_hand::wgpu_calls_by_hand(
        &gpu.device,
        &gpu.queue,
        bytemuck::cast_slice(&data),
        BY_HAND_FRAMES,
        // The arena is told each submission (`UploadArena::submitted`):
        // it maps its chunks again itself, just after the submit.
        by_hand::MapAgain::AfterSubmit {
            gpu_done_first: false,
        },
        |calls| {
            let before = thread_allocations();
            calls();
            thread_allocations() - before
        },
    );
    counts.iter().sum::<u64>() as f64 / counts.len() as f64
}

/// The frames of one contender: each one's thread CPU time (building,
/// uploading, submitting, and the wait before the next frame: polling
/// the device costs the thread, a blocking wait for the GPU costs it
/// nothing) and heap allocations. The whole frame as each is written: the
/// arena waits for its own frames in flight in `begin_frame` (told each
/// submission); the others wait for the oldest frame in flight after
/// submitting, as a renderer using them must.
fn measure<C: Contender>(gpu: &Gpu, settings: Settings, mut contender: C) -> Measured {
    let dst = gpu.destination(
        u64::from(settings.max_instances()) * size_of::<contenders::Instance>() as u64,
    );
    let mut in_flight = InFlight::new(FRAMES_IN_FLIGHT);
    let mut frame = |contender: &mut C, i: usize| {
        let work = Work {
            candidates: settings.instances_of(i),
            cull: settings.cull,
        };
        let index = contender.frame(gpu, work, &dst);
        if !C::WAITS_ITSELF {
            in_flight.submitted(gpu, index);
        }
    };
    for i in 0..settings.warm_up {
        frame(&mut contender, i);
    }
    let mut cpu_ns: Vec<u64> = Vec::with_capacity(settings.frames);
    let mut burst_ns: Vec<u64> = Vec::with_capacity(settings.frames);
    let in_calls_before = contender.allocations_in_calls();
    let buffers_before = contender.buffers_created();
    let allocations_before = thread_allocations();
    for i in 0..settings.frames {
        let began = thread_cpu_ns();
        frame(&mut contender, i);
        // Neither allocates: their capacity is `frames`.
        let spent = thread_cpu_ns() - began;
        if settings.instances_of(i) == settings.instances {
            cpu_ns.push(spent);
        } else {
            burst_ns.push(spent);
        }
    }
    let frames = settings.frames as f64;
    let allocations = (thread_allocations() - allocations_before) as f64 / frames;
    let allocations_in_calls = (contender.allocations_in_calls() - in_calls_before) as f64 / frames;
    let buffers = match (buffers_before, contender.buffers_created()) {
        (Some(before), Some(after)) => (after - before) as f64 / frames,
        _ => -1.0,
    };
    drop(frame);
    in_flight.drain(gpu);
    if let Some(details) = contender.details() {
        println!("details: {details}");
    }
    Measured {
        cpu_us: median(&mut cpu_ns) as f64 / 1000.0,
        burst_us: if burst_ns.is_empty() {
            -1.0
        } else {
            median(&mut burst_ns) as f64 / 1000.0
        },
        allocations,
        allocations_in_calls,
        // The arena's process counts it after its frames, in `child`.
        by_hand: -1.0,
        buffers,
    }
}
