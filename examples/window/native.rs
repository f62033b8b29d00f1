//! The demo natively: the simulation on a thread of its own, pipelined
//! with the window's thread (or, with `--one-thread`, stepped by the
//! window's thread as in a browser), and a summary printed at exit.

use std::process::ExitCode;
use std::sync::mpsc::sync_channel;

use tickarena::frame_loop::FrameLoop;
use tickarena::in_flight;
use tickarena::winit::{Pacing, WindowLoop};
use winit::dpi::LogicalSize;

use crate::flags::Flags;
use crate::overlay::Bytes;
use crate::screen::{IN_FLIGHT, Pipeline, Presenter, Screen, ToSimulation};
use crate::simulation::{self, Simulation};
use crate::{new_game, window_attributes};

struct Options {
    frames: Option<u64>,
    size: LogicalSize<f64>,
    pacing: Pacing,
    autoplay: bool,
    one_thread: bool,
}

fn parse_options() -> Options {
    let mut options = Options {
        frames: None,
        size: LogicalSize::new(1280.0, 720.0),
        pacing: Pacing::Display,
        autoplay: false,
        one_thread: false,
    };
    let mut flags = Flags::new(
        "usage: window [--frames N] [--size WIDTHxHEIGHT] [--fps RATE|display|unlimited] [--autoplay] [--one-thread]",
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
            "--one-thread" => options.one_thread = true,
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }
    options
}

pub fn main() -> ExitCode {
    let options = parse_options();
    let game = new_game();
    // The pipeline: input batches to the simulation (and their vectors
    // back, to be reused), sealed render lists to this thread.
    let (producer, frames) = in_flight::channel(IN_FLIGHT);
    let simulation = Simulation::new(game, producer);
    let simulation = if options.one_thread {
        ToSimulation::Inline(Box::new(simulation))
    } else {
        let (batches, batches_in) = sync_channel(IN_FLIGHT);
        let (empties_out, empties) = sync_channel(IN_FLIGHT + 1);
        let thread = std::thread::Builder::new()
            .name("simulation".into())
            .spawn(move || simulation::run(simulation, batches_in, empties_out))
            .expect("a simulation thread");
        ToSimulation::Thread {
            batches,
            empties,
            thread,
        }
    };
    let pipeline = Pipeline { simulation, frames };

    let screen = Screen::new(window_attributes(options.size), options.autoplay, pipeline);
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
    let game = screen.hang_up();

    let ticks = game.history().iter().count().max(1) as f64;
    let mean_tick = game
        .history()
        .iter()
        .map(|record| record.tick_time.as_secs_f64())
        .sum::<f64>()
        / ticks;
    let stats = game.arena().stats();
    println!(
        "frames               {} ({} drawn, {} sprites in the last)",
        presenter.ticks(),
        summary.frames_drawn,
        summary.sprites_drawn
    );
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
        "tick                 {:.3} ms mean over the last {} frames (simulation)",
        mean_tick * 1e3,
        ticks
    );
    println!(
        "heap allocations     {} in {} steady ticks",
        summary.steady_tick_allocations, summary.steady_ticks
    );
    #[cfg(feature = "wgpu")]
    if let Some(uploads) = summary.uploads {
        let stats = uploads.stats;
        println!(
            "gpu uploads          high water {} a frame, {} staging in {} chunks, {} buffers created ({} after frame {}), {} waits for the GPU, {} frames polled it (not steady ones)",
            Bytes(stats.high_water as usize),
            Bytes(stats.staging_bytes as usize),
            stats.chunks,
            stats.buffers_created,
            uploads.created_after_warm_up,
            crate::gpu::WARM_UP,
            stats.waits,
            uploads.polled_frames
        );
    }
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
