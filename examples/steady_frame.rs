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

use counting_alloc::{Counting, allocations};
use demo::{World, script};
use flags::Flags;
use tickarena::frame_loop::FrameLoop;

#[global_allocator]
static COUNTING: Counting = Counting;

/// Minor page faults of this process so far (field 10 of /proc/self/stat).
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The command name (field 2) may hold spaces: count from after its ')'.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    after_name
        .split_whitespace()
        .nth(7)
        .and_then(|field| field.parse().ok())
        .unwrap_or(0)
}

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
    let (allocations_before, faults) = (allocations(), minor_faults());
    for tick in 480..480 + ticks {
        game.tick(script(tick, 1000), step);
    }
    let allocations = allocations() - allocations_before;
    let faults = minor_faults() - faults;
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
