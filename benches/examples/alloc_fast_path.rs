//! A tiny program for `scripts/alloc-instructions`: allocates `u64`s in a
//! loop with tickarena, with `ThreadArenas::local()` + tickarena (the
//! thread's arena looked up for every value), with bumpalo, or not at all
//! (the baseline loop), so that callgrind can count the instructions and
//! branches one allocation costs. Not a benchmark of time.
//!
//! ```sh
//! cargo run --release --example alloc_fast_path -- tickarena 1000000
//! ```

use std::hint::black_box;

use tickarena::{FrameArena, ThreadArenas};

/// The loop with no allocation: what the other two loops cost besides it.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "Rust" fn fast_path_baseline(n: u64) {
    for i in 0..n {
        black_box(i);
    }
}

#[unsafe(no_mangle)]
#[inline(never)]
pub extern "Rust" fn fast_path_tickarena(arena: &FrameArena, n: u64) {
    for i in 0..n {
        black_box(arena.alloc(black_box(i)));
    }
}

#[unsafe(no_mangle)]
#[inline(never)]
pub extern "Rust" fn fast_path_threads(arenas: &ThreadArenas, n: u64) {
    for i in 0..n {
        black_box(arenas.local().alloc(black_box(i)));
    }
}

#[unsafe(no_mangle)]
#[inline(never)]
pub extern "Rust" fn fast_path_bumpalo(bump: &bumpalo::Bump, n: u64) {
    for i in 0..n {
        black_box(bump.alloc(black_box(i)));
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "tickarena".to_owned());
    let n: u64 = args
        .next()
        .map_or(1_000_000, |n| n.parse().expect("a count"));
    // Warm both arenas up first (pages committed, chunks allocated), so the
    // counted loop runs the fast path only.
    let arena = FrameArena::new();
    let bump = bumpalo::Bump::with_capacity(16 * n as usize);
    let mut arena = {
        arena.alloc_slice_copy(&vec![0u64; n as usize]);
        arena.reclaim()
    };
    let mut arenas = ThreadArenas::new();
    arenas.local().alloc_slice_copy(&vec![0u64; n as usize]);
    arenas.reset();
    arenas.local(); // this thread's arena claimed for the frame
    match which.as_str() {
        "baseline" => fast_path_baseline(n),
        "tickarena" => fast_path_tickarena(&arena, n),
        "threads" => fast_path_threads(&arenas, n),
        "bumpalo" => fast_path_bumpalo(&bump, n),
        other => panic!("unknown loop {other:?}: baseline, tickarena, threads or bumpalo"),
    }
    arena.reset();
    arenas.reset();
}
