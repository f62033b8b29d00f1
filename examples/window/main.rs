//! The tickarena game loop in a window: entities in a `SegmentedList`
//! drawn by wgpu as instanced quads (feature `wgpu`; WebGL2 in a
//! browser) or by a CPU canvas with softbuffer (without it), input turned
//! into actions in the frame arena, and an overlay that plots the arena's
//! bytes per frame. Simulation and
//! drawing are pipelined: the game runs on a simulation thread, which seals
//! each frame's render list (sprites, text) in an arena of
//! `tickarena::in_flight` and hands it to winit's thread, which draws frame
//! N while frame N+1 is built (2 frames in flight).
//!
//! ```sh
//! cargo run --release --example window --features winit
//! cargo run --release --example window --features winit,wgpu
//! cargo run --release --example window --features winit -- --autoplay --frames 600
//! ```
//!
//! WASD or the arrows move the player, a click spawns entities at the
//! cursor, a right click despawns those near it, space fires a burst from
//! the player, T an event storm (20 000 events in one frame), Escape quits.
//!
//! The same game runs in a browser (`scripts/web-demo`), drawn by wgpu's
//! WebGL2 backend: there, on one thread, the window's thread steps the
//! simulation itself (`web.rs`).

#[path = "../support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../support/demo.rs"]
mod demo;
#[cfg(not(target_family = "wasm"))]
#[path = "../support/flags.rs"]
mod flags;

mod canvas;
mod controls;
#[cfg(feature = "wgpu")]
mod gpu;
#[cfg_attr(
    not(feature = "wgpu"),
    allow(
        dead_code,
        reason = "the wgpu renderer's overlay copies, tested without it"
    )
)]
mod layout;
#[cfg(not(target_family = "wasm"))]
mod native;
mod overlay;
#[cfg_attr(
    not(feature = "wgpu"),
    allow(dead_code, reason = "the wgpu renderer's instances, tested without it")
)]
mod quads;
mod render_list;
mod scene;
mod screen;
mod scripted;
mod simulation;
#[cfg(target_family = "wasm")]
mod web;

use counting_alloc::Counting;
use demo::World;
use tickarena::FrameArena;
use tickarena::frame_loop::{FixedTimestep, FrameLoop};
use winit::dpi::LogicalSize;
use winit::window::{Window, WindowAttributes};

#[global_allocator]
static COUNTING: Counting = Counting;

/// Frames kept in the history, and so plotted.
const HISTORY: usize = 240;

/// The demo's window, `size` in logical pixels.
fn window_attributes(size: LogicalSize<f64>) -> WindowAttributes {
    Window::default_attributes()
        .with_title("tickarena: frame arena demo")
        .with_inner_size(size)
}

/// The input's budget per frame: ordinary frames take some 100 KiB, a
/// storm megabytes (a breach, drawn as the dashed line it crosses).
const INPUT_BUDGET: usize = 256 << 10;

/// The game, keeping as many frames of history as the chart plots.
fn new_game() -> FrameLoop<World> {
    let game = FrameLoop::with_parts(
        World::new(),
        FrameArena::new(),
        FixedTimestep::default(),
        HISTORY,
    );
    game.arena().set_budget(demo::INPUT, INPUT_BUDGET);
    game
}

#[cfg(not(target_family = "wasm"))]
fn main() -> std::process::ExitCode {
    native::main()
}

#[cfg(target_family = "wasm")]
fn main() {
    web::main();
}
