//! Instanced particles drawn headless by Bevy's renderer (lavapipe where
//! there is no GPU), their instances uploaded from three prepare systems
//! (one per kind of particle; how many of each is known only once they
//! are filtered) in one of three ways:
//!
//! * `raw`: Bevy's `RawBufferVec` + `write_buffer`;
//! * `new`: a new buffer per frame (`create_buffer_with_data`), as Bevy's
//!   instancing example makes;
//! * `arena`: tickarena's `GpuVec`, through `RenderUploadsPlugin`;
//!
//! and `none`, whose systems make the instances and drop them (it draws
//! nothing): the part of the prepare systems that no upload can save.
//!
//! The count swings by a quarter over 40 frames, and every 30th frame is
//! a burst of eight times the instances. Every version draws the same
//! image (read back and hashed: the hashes must agree).
//!
//! Each version runs in a process of its own, in pairs alternating which
//! goes first; each frame's CPU time on the main thread is measured for
//! the prepare stage (from before the uploads' frame opens to after it
//! closes), the part of it that makes and uploads the instances (the
//! prepare systems, and the arena's begin and finish) and the whole
//! `App::update`, with the schedules run on the
//! main thread (single-threaded executors, so that the thread's clock
//! holds all of it; the test runs them multi-threaded), and so are heap
//! allocations per frame.
//!
//! ```sh
//! cargo run --release -p tickarena-bevy --features render --example particles -- [--instances 10000] [--pairs 6] [--frames 300]
//! cargo run --release -p tickarena-bevy --features render --example particles -- --version arena --frames 60 --image docs/particles.png
//! ```

mod clock;
mod draw;
mod sim;
mod upload;

#[path = "../../../examples/support/pinned_cpu.rs"]
mod pinned_cpu;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use bevy_app::{App, PluginsState, SubApp, TaskPoolPlugin, Update};
use bevy_asset::AssetPlugin;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{IntoScheduleConfigs, SingleThreadedExecutor};
use bevy_ecs::system::ScheduleSystem;
use bevy_render::renderer::{FlushCommands, RenderGraph, RenderGraphSystems};
use bevy_render::settings::{RenderCreation, WgpuSettings};
use bevy_render::{ExtractSchedule, Render, RenderApp, RenderPlugin, RenderStartup, RenderSystems};
use tickarena::gpu::wgpu;
use tickarena_bevy::render::{RenderUploadsPlugin, RenderUploadsSystems};

use clock::PrepareClock;
use draw::Capture;
use sim::{ExtractedParticles, Particles};
use upload::{Arena, Drawn, New, Nothing, Raw};

/// The versions that draw (the same image), then `none`.
const VERSIONS: [&str; 4] = ["raw", "new", "arena", "none"];
const DRAWING: usize = 3;

/// Counts heap allocations, to compare the versions' per frame.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator, counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's layout, as `GlobalAlloc::alloc` requires.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as `GlobalAlloc::realloc` requires, from the caller.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn app(version: &str, instances: usize, single_threaded: bool) -> App {
    let mut app = App::new();
    let settings = WgpuSettings {
        backends: Some(wgpu::Backends::VULKAN),
        ..Default::default()
    };
    app.add_plugins((
        TaskPoolPlugin::default(),
        bevy_time::TimePlugin,
        bevy_diagnostic::FrameCountPlugin,
        AssetPlugin::default(),
        bevy_image::ImagePlugin::default(),
        bevy_mesh::MeshPlugin,
        bevy_camera::CameraPlugin,
        // No window: the image is the target.
        bevy_window::WindowPlugin {
            primary_window: None,
            exit_condition: bevy_window::ExitCondition::DontExit,
            ..Default::default()
        },
        RenderPlugin {
            render_creation: RenderCreation::Automatic(Box::new(settings)),
            synchronous_pipeline_compilation: true,
            ..Default::default()
        },
    ));
    if version == "arena" {
        app.add_plugins(RenderUploadsPlugin::default());
    }
    app.insert_resource(Particles::new(instances))
        .add_systems(Update, sim::simulate);
    let render = app.sub_app_mut(RenderApp);
    render
        .init_resource::<ExtractedParticles>()
        .init_resource::<Capture>()
        .init_resource::<PrepareClock>()
        .add_systems(ExtractSchedule, sim::extract)
        .add_systems(RenderStartup, draw::setup)
        .add_systems(
            Render,
            (
                // The uploads' begin between the first two, their finish
                // between the last two (in `raw` and `new` nothing is).
                (
                    clock::prepare_started.before(RenderUploadsSystems::Begin),
                    clock::begin_ended.after(RenderUploadsSystems::Begin),
                )
                    .chain()
                    .in_set(RenderSystems::Prepare)
                    .before(RenderSystems::PrepareResources),
                // (Strictly after `PrepareResources` too: Bevy chains its
                // prepare sets weakly, which orders only systems that
                // conflict, and the prepare systems' clocks are a static.)
                (
                    clock::finish_started.before(RenderUploadsSystems::Finish),
                    clock::prepare_ended.after(RenderUploadsSystems::Finish),
                )
                    .chain()
                    .in_set(RenderSystems::Prepare)
                    .after(RenderSystems::PrepareResources)
                    .after(RenderSystems::PrepareResourcesFlush)
                    .before(RenderSystems::PrepareBindGroups),
                draw::read_back.in_set(RenderSystems::Cleanup),
            ),
        );
    use upload::{prepare_arena, prepare_new, prepare_nothing, prepare_raw};
    // The frame's command buffers submitted as Bevy's core pipeline
    // submits them (this app has no cameras, so no core pipeline): the
    // uploads' encoder first, then the draw's.
    render.add_systems(
        RenderGraph,
        (|mut commands: FlushCommands| commands.flush()).in_set(RenderGraphSystems::Submit),
    );
    match version {
        "raw" => add_version::<Raw<0>, Raw<1>, Raw<2>, _>(
            render,
            (prepare_raw::<0>, prepare_raw::<1>, prepare_raw::<2>),
        ),
        "new" => add_version::<New<0>, New<1>, New<2>, _>(
            render,
            (prepare_new::<0>, prepare_new::<1>, prepare_new::<2>),
        ),
        "arena" => add_version::<Arena<0>, Arena<1>, Arena<2>, _>(
            render,
            (prepare_arena::<0>, prepare_arena::<1>, prepare_arena::<2>),
        ),
        "none" => add_version::<Nothing<0>, Nothing<1>, Nothing<2>, _>(
            render,
            (
                prepare_nothing::<0>,
                prepare_nothing::<1>,
                prepare_nothing::<2>,
            ),
        ),
        other => panic!("unknown version {other:?}: {}", VERSIONS.join(", ")),
    }
    // What `App::run` does before the first update: the renderer made.
    while app.plugins_state() == PluginsState::Adding {
        std::thread::yield_now();
    }
    app.finish();
    app.cleanup();
    if single_threaded {
        // Every schedule of both worlds (the main world's, extraction,
        // `Render`, the render graph's) on the main thread: its clock
        // then holds the whole frame.
        let on_one_thread = |world: &mut World| {
            for (_, schedule) in world.resource_mut::<Schedules>().iter_mut() {
                schedule.set_executor(SingleThreadedExecutor::new());
            }
        };
        on_one_thread(app.world_mut());
        on_one_thread(app.sub_app_mut(RenderApp).world_mut());
    }
    app
}

/// A version's three resources (one per prepare system), its prepare
/// systems, and the draw of what they hold.
fn add_version<A, B, C, M>(
    render: &mut SubApp,
    prepare: impl IntoScheduleConfigs<ScheduleSystem, M>,
) where
    A: Drawn + Resource + Default,
    B: Drawn + Resource + Default,
    C: Drawn + Resource + Default,
{
    render
        .init_resource::<A>()
        .init_resource::<B>()
        .init_resource::<C>()
        .add_systems(Render, prepare.in_set(RenderSystems::PrepareResources))
        .add_systems(
            RenderGraph,
            draw::draw::<A, B, C>.in_set(RenderGraphSystems::Render),
        );
}

/// A run's figures: the image's hash, and per frame (ordinary, burst) the
/// median CPU in µs of the prepare stage, of its uploading part and of the
/// whole frame, and heap allocations.
struct Run {
    hash: u64,
    prepare: [f64; 2],
    uploads: [f64; 2],
    begin_finish: [f64; 2],
    frame: [f64; 2],
    allocations: [u64; 2],
}

/// One measured frame.
struct Sample {
    prepare: f64,
    uploads: f64,
    begin_finish: f64,
    frame: f64,
    allocations: f64,
}

fn run(
    version: &str,
    instances: usize,
    warm_up: u64,
    frames: u64,
    single_threaded: bool,
) -> (Run, Vec<u8>) {
    let mut app = app(version, instances, single_threaded);
    let mut samples: [Vec<Sample>; 2] = Default::default();
    for i in 0..warm_up + frames {
        let burst = sim::is_burst(app.world().resource::<Particles>().frame + 1);
        let last = i + 1 == warm_up + frames;
        app.sub_app_mut(RenderApp)
            .world_mut()
            .resource_mut::<Capture>()
            .wanted = last;
        let (cpu, allocations) = (
            pinned_cpu::thread_cpu_ns(),
            ALLOCATIONS.load(Ordering::Relaxed),
        );
        app.update();
        let frame = (pinned_cpu::thread_cpu_ns() - cpu) as f64 / 1e3;
        let allocations = ALLOCATIONS.load(Ordering::Relaxed) - allocations;
        let clock = app.sub_app(RenderApp).world().resource::<PrepareClock>();
        if i >= warm_up && !last {
            samples[usize::from(burst)].push(Sample {
                prepare: clock.stage_ns as f64 / 1e3,
                uploads: clock.uploads_ns as f64 / 1e3,
                begin_finish: clock.begin_finish_ns as f64 / 1e3,
                frame,
                allocations: allocations as f64,
            });
        }
    }
    let image = std::mem::take(
        &mut app
            .sub_app_mut(RenderApp)
            .world_mut()
            .resource_mut::<Capture>()
            .image,
    );
    let median = |kind: usize, field: fn(&Sample) -> f64| {
        let mut values: Vec<f64> = samples[kind].iter().map(field).collect();
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(0.0)
    };
    let figures = Run {
        hash: draw::hash(&image),
        prepare: [median(0, |s| s.prepare), median(1, |s| s.prepare)],
        uploads: [median(0, |s| s.uploads), median(1, |s| s.uploads)],
        begin_finish: [median(0, |s| s.begin_finish), median(1, |s| s.begin_finish)],
        frame: [median(0, |s| s.frame), median(1, |s| s.frame)],
        allocations: [
            median(0, |s| s.allocations) as u64,
            median(1, |s| s.allocations) as u64,
        ],
    };
    (figures, image)
}

/// `version` run in a process of its own, pinned to one core.
fn run_apart(version: &str, instances: usize, frames: u64) -> Run {
    let output = std::process::Command::new(std::env::current_exe().expect("this program"))
        .args(["--version", version, "--frames", &frames.to_string()])
        .args(["--instances", &instances.to_string()])
        .output()
        .expect("the version runs");
    assert!(output.status.success(), "{version} failed: {output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    Run::parse(text.lines().last().expect("a line of figures"))
}

impl Run {
    /// The line a version's process prints: its name, then the figures.
    fn line(&self, version: &str) -> String {
        format!(
            "{version} {:016x} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {} {}",
            self.hash,
            self.prepare[0],
            self.prepare[1],
            self.uploads[0],
            self.uploads[1],
            self.begin_finish[0],
            self.begin_finish[1],
            self.frame[0],
            self.frame[1],
            self.allocations[0],
            self.allocations[1]
        )
    }

    /// Reads [`line`](Self::line)'s figures back.
    fn parse(line: &str) -> Run {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 12, "a line of figures: {line:?}");
        let float = |i: usize| f[i].parse::<f64>().expect("a figure");
        Run {
            hash: u64::from_str_radix(f[1], 16).expect("a hash"),
            prepare: [float(2), float(3)],
            uploads: [float(4), float(5)],
            begin_finish: [float(6), float(7)],
            frame: [float(8), float(9)],
            allocations: [float(10) as u64, float(11) as u64],
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut version, mut frames, mut pairs, mut instances, mut image) =
        (None, 300u64, 6usize, 10_000usize, None);
    while let Some(flag) = args.next() {
        let mut number = || args.next().and_then(|n| n.parse().ok()).expect("a number");
        match flag.as_str() {
            "--version" => version = args.next(),
            "--frames" => frames = number() as u64,
            "--pairs" => pairs = number(),
            "--instances" => instances = number(),
            "--image" => image = args.next(),
            other => panic!(
                "unknown flag {other:?}: --instances N, --pairs N, --frames N, --version raw|new|arena|none, --image PATH"
            ),
        }
    }
    let warm_up = 2 * sim::BURST_EVERY + 10;
    if let Some(version) = version {
        pinned_cpu::pin_to(1);
        let (run, picture) = run(&version, instances, warm_up, frames, true);
        if let Some(path) = image {
            std::fs::write(&path, draw::png(&picture)).expect("the image is written");
        }
        println!("{}", run.line(&version));
        return;
    }
    println!(
        "{pairs} rounds of the four versions, {instances} instances ({} in bursts) of 32 bytes, {frames} frames each, \
         pinned, alternating order; medians of each run's median frame (CPU time of the main thread, µs):",
        instances * 8
    );
    let mut runs: [Vec<Run>; VERSIONS.len()] = Default::default();
    for round in 0..pairs {
        for k in 0..VERSIONS.len() {
            let v = (k + round) % VERSIONS.len();
            runs[v].push(run_apart(VERSIONS[v], instances, frames));
        }
        let hashes: Vec<u64> = runs[..DRAWING].iter().map(|r| r[round].hash).collect();
        assert!(
            hashes.iter().all(|&h| h == hashes[0]),
            "the versions drew different images: {hashes:x?}"
        );
    }
    let median = |values: Vec<f64>| {
        let mut values = values;
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    for (kind, name) in ["ordinary", "burst"].into_iter().enumerate() {
        if runs[0].iter().all(|r| r.frame[kind] == 0.0) {
            println!("{name} frames: none measured in {frames} frames");
            continue;
        }
        println!("{name} frames:");
        for (v, version) in VERSIONS.iter().enumerate() {
            let figure = |field: fn(&Run) -> [f64; 2]| {
                let value = median(runs[v].iter().map(|r| field(r)[kind]).collect());
                // The median of the rounds' ratios to `raw`'s run.
                let ratio = median(
                    (0..pairs)
                        .map(|p| field(&runs[v][p])[kind] / field(&runs[0][p])[kind])
                        .collect(),
                );
                format!("{value:8.1} µs ({ratio:.3}× raw)")
            };
            let begin_finish = median(runs[v].iter().map(|r| r.begin_finish[kind]).collect());
            println!(
                "  {version:>5}: prepare {}, its systems and uploads {} (begin and finish {begin_finish:.1} µs), whole frame {}, heap allocations {}",
                figure(|r| r.prepare),
                figure(|r| r.uploads),
                figure(|r| r.frame),
                runs[v][0].allocations[kind]
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DRAWING, Run, VERSIONS, run};

    /// Every version draws the same image, with the schedules run
    /// multi-threaded (the prepare systems in parallel) as a game runs
    /// them (`cargo test -p tickarena-bevy --features render` runs this);
    /// `none` runs too, and draws nothing.
    #[test]
    fn the_versions_draw_the_same_image() {
        let hashes: Vec<u64> = VERSIONS
            .iter()
            .map(|version| run(version, 2_000, 0, 65, false).0.hash)
            .collect();
        let drawn = &hashes[..DRAWING];
        assert!(drawn.iter().all(|&h| h == drawn[0]), "{hashes:x?}");
        let blank = super::draw::hash(&vec![
            0;
            (4 * super::draw::SIZE * super::draw::SIZE) as usize
        ]);
        assert_ne!(drawn[0], blank);
        assert_ne!(hashes[DRAWING], drawn[0], "none drew the particles");
    }

    /// What a version's process prints reads back as the same figures.
    #[test]
    fn a_runs_line_reads_back() {
        let sent = Run {
            hash: 0x0123_4567_89ab_cdef,
            prepare: [1.5, 2.5],
            uploads: [3.5, 4.5],
            begin_finish: [5.5, 6.5],
            frame: [7.5, 8.5],
            allocations: [9, 10],
        };
        let got = Run::parse(&sent.line("none"));
        assert_eq!(got.hash, sent.hash);
        assert_eq!(
            (
                got.prepare,
                got.uploads,
                got.begin_finish,
                got.frame,
                got.allocations
            ),
            (
                sent.prepare,
                sent.uploads,
                sent.begin_finish,
                sent.frame,
                sent.allocations
            )
        );
    }
}
