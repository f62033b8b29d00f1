//! A first game on tickarena, as `guide::frame_loop` ("A game's first hour") walks through
//! it: ~200 events per frame become actions in the frame arena; `update`
//! finds collisions in a per-frame hash map and pushes damage as actions;
//! an action that kills pushes a follow-up; the visible list built in
//! `update` reaches `end_frame` as the tick's scratch, is depth-sorted
//! there and labelled with `format_in!`. Prints what the frames cost and
//! how many heap allocations the steady frames made (none).
//!
//! ```sh
//! cargo run --release --example first_game -- --frames 2000
//! ```

use std::time::Instant;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/first_game.rs"]
mod first_game;
#[path = "support/flags.rs"]
mod flags;

use first_game::{Arena2d, script};
use flags::Flags;
use tickarena::frame_loop::FrameLoop;

#[global_allocator]
static COUNTING: counting_alloc::Counting = counting_alloc::Counting;

/// Ticks before the steady state: the entity list and the arena's pages
/// grow to their working size.
const WARM_UP: u64 = 300;
const EVENTS_PER_FRAME: u32 = 200;

fn main() {
    let mut frames = 2000u64;
    let mut flags = Flags::new("usage: first_game [--frames N]");
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--frames" => frames = flags.value::<u64>(&flag, "a number").max(WARM_UP + 1),
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }

    let mut game = FrameLoop::new(Arena2d::default());
    let mut steady_allocations = 0;
    let started = Instant::now();
    let mut steady_started = started;
    for tick in 0..frames {
        if tick == WARM_UP {
            steady_started = Instant::now();
        }
        let before = counting_alloc::allocations();
        let record = game.tick(script(tick, EVENTS_PER_FRAME), game.step());
        if tick >= WARM_UP {
            steady_allocations += counting_alloc::allocations() - before;
        }
        if tick % 500 == 0 {
            let world = game.world();
            println!(
                "tick {:>5}: {} events, {} actions, {:>6} arena bytes, {} entities, {} visible, front-most #{}",
                record.tick,
                record.events,
                record.actions,
                record.arena_bytes,
                world.entities.len(),
                world.visible_last_tick,
                world.front_most.unwrap_or(0),
            );
        }
    }
    let steady = frames - WARM_UP;
    let world = game.world();
    println!(
        "{frames} frames: {:.1} µs per steady frame; arena high water {} bytes; \
         {} spawned, {} despawned, {} collisions",
        steady_started.elapsed().as_secs_f64() * 1e6 / steady as f64,
        game.arena().stats().high_water,
        world.spawned,
        world.despawned,
        world.collisions,
    );
    println!("heap allocations in {steady} steady frames: {steady_allocations}");
}
