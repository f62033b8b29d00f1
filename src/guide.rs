//! Guides that are part of the documentation, with examples the test suite
//! compiles and runs (and, for the errors, checks that they fail to compile).
//!
//! * [`frame_loop`]: what a tick of the game loop runs, the frame's data, a
//!   first game, a full arena, and the windowed demo.
//! * [`scopes`]: temporary memory inside a frame, given back when a closure
//!   returns.
//! * [`threads`]: one arena per thread, reset together.
//! * [`in_flight`]: a frame's data moved to another thread with its arena.
//! * [`budgets`]: where a frame's memory goes: tags, budgets, the sizing
//!   report (the `reserve` and `retain` to choose), its CSV and charts,
//!   on worker threads and in Bevy.
//! * [`bevy`]: the `tickarena-bevy` crate, hashbrown's maps, Tracy plots.
//! * `rollback` (feature `ggrs`): rollback netcode on ggrs, every
//!   re-simulated tick in the frame arena, snapshots without the heap.
//! * `serde` (feature `serde`): packets decoded into the tick's arena, with
//!   every string and list inside them; encoding into the arena; the
//!   derive; the `server` example.
//! * `gpu` (feature `wgpu`): the upload arena, a frame's data for the GPU
//!   written straight into wgpu's staging memory; when to use it rather
//!   than `write_buffer` or a `Vec`, a frame across an engine's systems
//!   (written from several at once), the write-only rule, frames in flight
//!   to the GPU, sizing from the report.
//! * [`platforms`]: toolchains (stable 1.100, the `nightly` feature),
//!   operating systems, wasm32 and no_std, and what CI checks on each.
//! * [`errors`]: the compiler errors and runtime messages a newcomer meets
//!   first, what each says, and the fix.
//!
//! # Example
//!
//! The crate's own docs start at [`crate`]; the shortest program:
//!
//! ```
//! let arena = tickarena::FrameArena::new();
//! assert_eq!(arena.used(), 0);
//! ```

#[doc = include_str!("guide/frame_loop.md")]
pub mod frame_loop {}

#[doc = include_str!("guide/scopes.md")]
pub mod scopes {}

#[doc = include_str!("guide/threads.md")]
pub mod threads {}

#[doc = include_str!("guide/in_flight.md")]
pub mod in_flight {}

#[doc = include_str!("guide/bevy.md")]
pub mod bevy {}

#[doc = include_str!("guide/budgets.md")]
pub mod budgets {}

#[cfg(feature = "ggrs")]
#[doc = include_str!("guide/rollback.md")]
pub mod rollback {}

#[cfg(feature = "serde")]
#[doc = include_str!("guide/serde.md")]
pub mod serde {}

#[cfg(feature = "wgpu")]
#[doc = include_str!("guide/gpu.md")]
pub mod gpu {}

#[doc = include_str!("guide/platforms.md")]
pub mod platforms {}

#[doc = include_str!("guide/errors.md")]
pub mod errors {}
