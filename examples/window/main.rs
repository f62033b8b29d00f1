//! The tickarena game loop in a window: entities in a `SegmentedList`
//! drawn with softbuffer, input turned into actions in the frame arena, and
//! an overlay that plots the arena's bytes per frame. Simulation and
//! drawing are pipelined: the game runs on a simulation thread, which seals
//! each frame's render list (sprites, text) in an arena of
//! `tickarena::in_flight` and hands it to winit's thread, which draws frame
//! N while frame N+1 is built (2 frames in flight).
//!
//! ```sh
//! cargo run --release --example window --features winit
//! cargo run --release --example window --features winit -- --autoplay --frames 600
//! ```
//!
//! WASD or the arrows move the player, a click spawns entities at the
//! cursor, a right click despawns those near it, space fires a burst from
//! the player, T an event storm (20 000 events in one frame), Escape quits.

#[path = "../support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../support/demo.rs"]
mod demo;
#[path = "../support/flags.rs"]
mod flags;

mod canvas;
mod controls;
mod layout;
mod overlay;
mod render_list;
mod scene;
mod screen;
mod scripted;
mod simulation;

use std::process::ExitCode;
use std::sync::mpsc::sync_channel;

use tickarena::frame_loop::{FixedTimestep, FrameLoop};
use tickarena::winit::{Pacing, WindowLoop};
use tickarena::{FrameArena, in_flight};
use winit::dpi::LogicalSize;

use counting_alloc::Counting;
use demo::World;
use flags::Flags;
use overlay::Bytes;
use screen::{IN_FLIGHT, Pipeline, Presenter, Screen};

#[global_allocator]
static COUNTING: Counting = Counting;

/// Frames kept in the history, and so plotted.
const HISTORY: usize = 240;

struct Options {
    frames: Option<u64>,
    size: LogicalSize<f64>,
    pacing: Pacing,
    autoplay: bool,
}

fn parse_options() -> Options {
    let mut options = Options {
        frames: None,
        size: LogicalSize::new(1280.0, 720.0),
        pacing: Pacing::Display,
        autoplay: false,
    };
    let mut flags = Flags::new(
        "usage: window [--frames N] [--size WIDTHxHEIGHT] [--fps RATE|display|unlimited] [--autoplay]",
    );
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--frames" => options.frames = Some(flags.value(&flag, "a number")),
            "--size" => {
                let text: String = flags.value(&flag, "WIDTHxHEIGHT");
                let size = text
                    .split_once('x')
                    .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
                    .filter(|&(w, h)| w > 0 && h > 0);
                let Some((w, h)) = size else {
                    flags.fail(&format!("--size needs WIDTHxHEIGHT, got {text:?}"));
                };
                options.size = LogicalSize::new(f64::from(w), f64::from(h));
            }
            "--fps" => {
                let text: String = flags.value(&flag, "a rate, \"display\" or \"unlimited\"");
                options.pacing = match text.as_str() {
                    "display" => Pacing::Display,
                    "unlimited" => Pacing::Unlimited,
                    rate => match rate.parse::<f64>() {
                        Ok(hz) if hz.is_finite() && hz > 0.0 => Pacing::Hz(hz),
                        _ => flags.fail(&format!(
                            "--fps needs a rate, \"display\" or \"unlimited\", got {text:?}"
                        )),
                    },
                };
            }
            "--autoplay" => options.autoplay = true,
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }
    options
}

fn main() -> ExitCode {
    let options = parse_options();
    let game = FrameLoop::with_parts(
        World::new(),
        FrameArena::new(),
        FixedTimestep::default(),
        HISTORY,
    );
    // The pipeline: input batches to the simulation (and their vectors
    // back, to be reused), sealed render lists to this thread.
    let (producer, frames) = in_flight::channel(IN_FLIGHT);
    let (batches, batches_in) = sync_channel(IN_FLIGHT);
    let (empties_out, empties) = sync_channel(IN_FLIGHT + 1);
    let simulation = std::thread::Builder::new()
        .name("simulation".into())
        .spawn(move || simulation::run(game, batches_in, empties_out, producer))
        .expect("a simulation thread");
    let pipeline = Pipeline {
        batches,
        empties,
        frames,
    };

    let screen = Screen::new(options.size, options.autoplay, pipeline);
    let mut window_loop =
        WindowLoop::new(FrameLoop::new(Presenter), screen).with_pacing(options.pacing);
    if let Some(frames) = options.frames {
        window_loop = window_loop.with_max_frames(frames);
    }
    let finished = match window_loop.run() {
        Ok(finished) => finished,
        Err(error) => {
            eprintln!("window: cannot run the window loop: {error}");
            eprintln!("(it needs a display: X11, or `xvfb-run -a` without one)");
            return ExitCode::FAILURE;
        }
    };
    let (presenter, screen) = finished.into_parts();
    let summary = screen.summary();
    // Hanging up ends the simulation, which gives the game back.
    drop(screen);
    let game = simulation.join().expect("the simulation thread finished");

    let ticks = game.history().iter().count().max(1) as f64;
    let mean_tick = game
        .history()
        .iter()
        .map(|record| record.tick_time.as_secs_f64())
        .sum::<f64>()
        / ticks;
    let stats = game.arena().stats();
    println!("frames               {}", presenter.ticks());
    println!("entities             {}", game.world().entities.len());
    println!(
        "arena                high water {}, committed {}",
        Bytes(stats.high_water),
        Bytes(stats.committed)
    );
    println!(
        "render lists         {} frames in flight, largest {}",
        IN_FLIGHT,
        Bytes(summary.largest_render_list)
    );
    println!(
        "tick                 {:.3} ms mean over the last {} frames (simulation thread)",
        mean_tick * 1e3,
        ticks
    );
    println!(
        "heap allocations     {} in {} steady ticks",
        summary.steady_tick_allocations, summary.steady_ticks
    );
    let input = summary.input;
    println!(
        "input                {} spawn clicks, {} despawn clicks, {} bursts, {} storms, {} steering changes",
        input.spawn_clicks,
        input.despawn_clicks,
        input.bursts,
        input.storms,
        input.steering_changes
    );
    ExitCode::SUCCESS
}
