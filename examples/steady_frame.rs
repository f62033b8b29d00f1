//! What a steady frame of the demo game costs besides its own work: heap
//! allocations and minor page faults per tick, over 10^4 ticks after a
//! warm-up (the burst frames of the script included). For system calls per
//! tick, `scripts/steady-frame-costs` runs this under `strace -c -f`.
//!
//! ```sh
//! cargo run --release --example steady_frame -- [--ticks 10000]
//! ```

#![feature(allocator_api)]

#[path = "support/demo.rs"]
mod demo;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use demo::{World, script};
use tickarena::frame_loop::FrameLoop;

/// Counts every allocation of the process.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to `System`, which upholds the `GlobalAlloc` contract;
// counting touches only an atomic.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

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
    let mut args = std::env::args().skip(1);
    let ticks: u64 = match (args.next().as_deref(), args.next()) {
        (Some("--ticks"), Some(n)) => n.parse().expect("--ticks takes a number"),
        _ => 10_000,
    };
    let mut game = FrameLoop::new(World::new());
    let step = game.step();
    // Warm-up: two burst cycles, so the world and the arena reach their size.
    for tick in 0..480 {
        game.tick(script(tick, 1000), step);
    }
    let (allocations, faults) = (ALLOCATIONS.load(Ordering::Relaxed), minor_faults());
    for tick in 480..480 + ticks {
        game.tick(script(tick, 1000), step);
    }
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - allocations;
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
