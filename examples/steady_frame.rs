//! What a steady frame of the demo game costs besides its own work: heap
//! allocations and minor page faults per tick, over 10^4 ticks after a
//! warm-up (the burst frames of the script included). For system calls per
//! tick, `scripts/steady-frame-costs` runs this under `strace -c -f`.
//!
//! ```sh
//! cargo run --release --example steady_frame -- [--ticks 10000]
//! ```

#[path = "support/demo.rs"]
mod demo;

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/flags.rs"]
mod flags;
#[allow(
    dead_code,
    reason = "shared with tests/steady_state.rs, which reads threads"
)]
#[path = "support/page_faults.rs"]
mod page_faults;

use counting_alloc::{Counting, allocations};
use demo::{World, script};
use flags::Flags;
use tickarena::frame_loop::FrameLoop;

#[global_allocator]
static COUNTING: Counting = Counting;

fn main() {
    let mut ticks: u64 = 10_000;
    let mut flags = Flags::new("usage: steady_frame [--ticks N]");
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--ticks" => ticks = flags.value(&flag, "a number"),
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }
    let mut game = FrameLoop::new(World::new());
    let step = game.step();
    // Warm-up: two burst cycles, so the world and the arena reach their size.
    for tick in 0..480 {
        game.tick(script(tick, 1000), step);
    }
    let (allocations_before, faults) = (allocations(), page_faults::minor_faults_of_process());
    for tick in 480..480 + ticks {
        game.tick(script(tick, 1000), step);
    }
    let allocations = allocations() - allocations_before;
    let faults = page_faults::minor_faults_of_process() - faults;
    println!("ticks                       {ticks}");
    println!(
        "heap allocations per tick   {:.4} ({allocations} in all)",
        allocations as f64 / ticks as f64
    );
    println!(
        "minor page faults per tick  {:.4} ({faults} in all)",
        faults as f64 / ticks as f64
    );
    println!(
        "arena high water            {} B",
        game.history().high_water()
    );
}
