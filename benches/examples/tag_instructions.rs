//! A tiny program for `scripts/tag-instructions`: runs short frames (24
//! events, about 2 µs) of the seed loop of `benches/frame_loop.rs`, its
//! four systems under a tag each (four tag switches a frame) or untagged,
//! so that callgrind can count the instructions a frame costs each way.
//! Not a benchmark of time (that is `frame_loop_tags_short`).
//!
//! ```sh
//! cargo run --release -p tickarena-benches --example tag_instructions -- tagged 1000
//! ```

use std::hint::black_box;

use tickarena::frame_loop::FrameLoop;

#[path = "../support/seed_game.rs"]
mod seed_game;

use seed_game::{SYSTEMS, Seed, TAGGED};

/// Events in a short frame, as `frame_loop_tags_short` has.
const SHORT_FRAME_EVENTS: u32 = 24;

fn frames<const MODE: u8>(game: &mut FrameLoop<Seed<MODE>>, n: usize) {
    let step = game.step();
    for _ in 0..n {
        game.tick(0..SHORT_FRAME_EVENTS, step);
    }
}

#[unsafe(no_mangle)]
#[inline(never)]
pub extern "Rust" fn frames_untagged(game: &mut FrameLoop<Seed<SYSTEMS>>, n: usize) {
    frames(game, n);
}

#[unsafe(no_mangle)]
#[inline(never)]
pub extern "Rust" fn frames_tagged(game: &mut FrameLoop<Seed<TAGGED>>, n: usize) {
    frames(game, n);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().expect("tagged or untagged");
    let n: usize = args.next().expect("frames").parse().expect("a number");
    if mode == "tagged" {
        let mut game = FrameLoop::new(Seed::<TAGGED>::default());
        frames_tagged(&mut game, n);
        black_box(game.world().world.checksum);
    } else {
        let mut game = FrameLoop::new(Seed::<SYSTEMS>::default());
        frames_untagged(&mut game, n);
        black_box(game.world().world.checksum);
    }
}
