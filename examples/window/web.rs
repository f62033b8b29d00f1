//! The demo in a browser (`scripts/web-demo`): one thread, so the window's
//! thread steps the simulation itself before drawing (still one frame
//! ahead, the render lists still sealed in the frames-in-flight arenas),
//! drawn by wgpu's WebGL2 backend (softbuffer without the `wgpu`
//! feature) into a canvas that winit adds to the page. After every frame
//! the page can read what the run measured, `demo_stats()`: the browser
//! smoke test checks frames, sprites, heap allocations and staging buffers
//! with it.

use std::cell::Cell;

use tickarena::frame_loop::FrameLoop;
use tickarena::in_flight;
use tickarena::winit::{Pacing, WindowLoop};
use wasm_bindgen::prelude::wasm_bindgen;
use winit::dpi::LogicalSize;
use winit::platform::web::WindowAttributesExtWebSys;

use crate::screen::{IN_FLIGHT, Pipeline, Presenter, RunSummary, Screen, ToSimulation};
use crate::simulation::Simulation;
use crate::{new_game, window_attributes};

thread_local! {
    /// What the run measured, as of the last frame drawn.
    static LATEST: Cell<Option<RunSummary>> = const { Cell::new(None) };
}

pub fn main() {
    // A panic aborts on wasm32 and std prints nowhere: say why on the
    // browser's console.
    std::panic::set_hook(Box::new(|panic| {
        web_sys::console::error_1(&panic.to_string().into());
    }));
    let (producer, frames) = in_flight::channel(IN_FLIGHT);
    let pipeline = Pipeline {
        simulation: ToSimulation::Inline(Box::new(Simulation::new(new_game(), producer))),
        frames,
    };
    let attributes = window_attributes(LogicalSize::new(1280.0, 720.0)).with_append(true);
    let screen = Screen::new(attributes, false, pipeline).reporting_to(|summary| {
        LATEST.with(|latest| latest.set(Some(*summary)));
    });
    let window_loop =
        WindowLoop::new(FrameLoop::new(Presenter), screen).with_pacing(Pacing::Display);
    if let Err(error) = window_loop.spawn() {
        web_sys::console::error_1(&format!("window: cannot run the window loop: {error}").into());
    }
}

/// What the run measured so far, as JSON, for the page (and the browser
/// smoke test): frames drawn, sprites in the last one, steady frames and
/// their heap allocations, input handled, and the upload arena's largest
/// frame, staging buffers created after its warm-up, frames that polled
/// the device (not steady ones) and frames skipped with the GPU behind
/// (`null` without wgpu).
#[wasm_bindgen]
pub fn demo_stats() -> String {
    let Some(summary) = LATEST.with(Cell::get) else {
        return "null".into();
    };
    let input = summary.input;
    format!(
        concat!(
            "{{\"frames\":{},\"sprites\":{},\"steady_frames\":{},",
            "\"steady_frame_allocations\":{},\"spawn_clicks\":{},",
            "\"despawn_clicks\":{},\"bursts\":{},\"largest_render_list\":{},",
            "\"staging\":{}}}"
        ),
        summary.frames_drawn,
        summary.sprites_drawn,
        summary.steady_ticks,
        summary.steady_tick_allocations,
        input.spawn_clicks,
        input.despawn_clicks,
        input.bursts,
        summary.largest_render_list,
        staging(&summary),
    )
}

/// The upload arena's figures as JSON: its largest frame, staging buffers
/// created after its warm-up, frames that polled the device and frames
/// skipped; `null` when softbuffer draws.
#[cfg(feature = "wgpu")]
fn staging(summary: &RunSummary) -> String {
    summary.uploads.map_or("null".into(), |uploads| {
        format!(
            concat!(
                "{{\"high_water\":{},\"created_after_warm_up\":{},",
                "\"polled_frames\":{},\"skipped\":{}}}"
            ),
            uploads.stats.high_water,
            uploads.created_after_warm_up,
            uploads.polled_frames,
            uploads.skipped
        )
    })
}

/// Without wgpu, softbuffer draws: no upload arena.
#[cfg(not(feature = "wgpu"))]
fn staging(_: &RunSummary) -> String {
    "null".into()
}
