//! Scopes inside a frame: 10^4 scoped computations per frame, each building
//! a vector of 1–64 KiB by pushes (an open list, a candidate set) and
//! keeping 16 bytes in the frame. Time per frame for tickarena's `scoped`,
//! bump-scope's `scoped`, bumpalo with a second `Bump` reset after each
//! use (bumpalo 3.20 has no checkpoint), malloc, and tickarena without
//! scopes (every temporary stays until the frame ends). Before timing, it
//! prints each one's high water: the frame's, and the scopes'.
//!
//! ```sh
//! cargo bench -p tickarena-benches --bench scopes
//! ```

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::{FrameArena, scoped};

/// Scoped computations per frame.
const SCOPES: u64 = 10_000;

/// Elements (`u64`) of computation `i`'s vector: 128 to 8191, 1–64 KiB.
fn len_of(i: u64) -> u64 {
    128 + (i * 977) % 8064
}

/// What a computation keeps: 16 bytes.
type Kept = [u64; 2];

/// The work on the vector, the same for every contender.
fn summarize(values: &[u64], i: u64) -> Kept {
    [values.iter().sum::<u64>(), values[values.len() / 2] ^ i]
}

fn tickarena_scoped(frame: &FrameArena) -> u64 {
    let mut total = 0;
    for i in 0..SCOPES {
        let kept: &Kept = frame.alloc(scoped(|temp| {
            let mut values = Vec::new_in(temp);
            values.extend((0..len_of(i)).map(|k| k ^ i));
            summarize(&values, i)
        }));
        total += kept[0];
    }
    total
}

fn tickarena_without_scopes(frame: &FrameArena) -> u64 {
    let mut total = 0;
    for i in 0..SCOPES {
        let mut values = Vec::new_in(frame);
        values.extend((0..len_of(i)).map(|k| k ^ i));
        let kept: &Kept = frame.alloc(summarize(&values, i));
        // Not dropped: its bytes stay in the frame, as a temporary that is
        // not the newest allocation does.
        std::mem::forget(values);
        total += kept[0];
    }
    total
}

fn bump_scope_scoped(frame: &mut bump_scope::Bump) -> u64 {
    let mut total = 0;
    for i in 0..SCOPES {
        let result = frame.scoped(|temp| {
            let mut values = bump_scope::BumpVec::new_in(&*temp);
            values.extend((0..len_of(i)).map(|k| k ^ i));
            summarize(&values, i)
        });
        let kept: &Kept = frame.alloc(result).into_ref();
        total += kept[0];
    }
    total
}

fn bumpalo_second_bump(frame: &bumpalo::Bump, temp: &mut bumpalo::Bump) -> u64 {
    let mut total = 0;
    for i in 0..SCOPES {
        let result = {
            let mut values = bumpalo::collections::Vec::new_in(&*temp);
            values.extend((0..len_of(i)).map(|k| k ^ i));
            summarize(&values, i)
        };
        temp.reset();
        let kept: &Kept = frame.alloc(result);
        total += kept[0];
    }
    total
}

fn malloc(kept: &mut Vec<Kept>) -> u64 {
    let mut total = 0;
    for i in 0..SCOPES {
        let values: Vec<u64> = (0..len_of(i)).map(|k| k ^ i).collect();
        kept.push(summarize(&values, i));
        total += kept.last().unwrap()[0];
    }
    total
}

/// One frame of each tickarena contender, and its high water: the frame
/// arena's, and (with scopes) the depth-0 scope arena's.
fn print_high_water() {
    let frame = FrameArena::new();
    black_box(tickarena_scoped(&frame));
    let scope_high = scoped(|temp| temp.stats().high_water);
    let largest_scope = (0..SCOPES).map(len_of).max().unwrap() * 8;
    eprintln!(
        "high water with scopes: frame {} B + scope {} B (largest scope {} B, kept {} B)",
        frame.stats().high_water,
        scope_high,
        largest_scope,
        SCOPES * 16
    );
    let frame = FrameArena::new();
    black_box(tickarena_without_scopes(&frame));
    eprintln!(
        "high water without scopes: frame {} B",
        frame.stats().high_water
    );
}

fn scopes(c: &mut Criterion) {
    print_high_water();
    let mut group = c.benchmark_group("scopes_10k_per_frame");
    group.sample_size(10);
    group.bench_function("tickarena_scoped", |b| {
        let mut frame = FrameArena::new();
        b.iter(|| {
            black_box(tickarena_scoped(&frame));
            frame.reset();
        });
    });
    group.bench_function("bump_scope_scoped", |b| {
        let mut frame = bump_scope::Bump::<bump_scope::alloc::Global>::new();
        b.iter(|| {
            black_box(bump_scope_scoped(&mut frame));
            frame.reset();
        });
    });
    group.bench_function("bumpalo_second_bump", |b| {
        let (mut frame, mut temp) = (bumpalo::Bump::new(), bumpalo::Bump::new());
        b.iter(|| {
            black_box(bumpalo_second_bump(&frame, &mut temp));
            frame.reset();
        });
    });
    group.bench_function("malloc", |b| {
        let mut kept = Vec::new();
        b.iter(|| {
            black_box(malloc(&mut kept));
            kept.clear();
        });
    });
    group.bench_function("tickarena_without_scopes", |b| {
        let mut frame = FrameArena::new();
        b.iter(|| {
            black_box(tickarena_without_scopes(&frame));
            frame.reset();
        });
    });
    group.finish();
}

/// One scope alone, open and close: keeping a `u64` allocated in it; and a
/// scope whose vector is pushed to 64 `u64`s from empty (and with room for
/// them), against a `Vec` reused across calls (`clear`, then 64 pushes:
/// what a careful programmer writes without an arena) and bump-scope's
/// `BumpVec` in its scope.
fn one_scope(c: &mut Criterion) {
    let mut group = c.benchmark_group("scope_open_close");
    group.bench_function("tickarena", |b| {
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            scoped(|temp| *temp.alloc(black_box(i)))
        })
    });
    // A checkpoint of one arena's top, on the arena by `&mut`.
    group.bench_function("tickarena_arena_scoped", |b| {
        let mut arena = FrameArena::new();
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            arena.scoped(|temp| *temp.alloc(black_box(i)))
        })
    });
    group.bench_function("bump_scope", |b| {
        let mut bump = bump_scope::Bump::<bump_scope::alloc::Global>::new();
        let mut i = 0u64;
        b.iter(|| {
            i += 1;
            bump.scoped(|temp| *temp.alloc(black_box(i)).into_ref())
        })
    });
    group.finish();

    let mut group = c.benchmark_group("scope_vec_64_pushes");
    group.bench_function("tickarena_scoped", |b| {
        b.iter(|| {
            scoped(|temp| {
                let mut values = Vec::new_in(temp);
                (0..64u64).for_each(|k| values.push(black_box(k)));
                values[63]
            })
        })
    });
    // The same with room for the 64 from the start: what is left of the
    // case above is std's `Vec` growing 4, 8, .., 64 through its
    // out-of-line growth path (the arena grows each in place).
    group.bench_function("tickarena_scoped_with_capacity", |b| {
        b.iter(|| {
            scoped(|temp| {
                let mut values = Vec::with_capacity_in(64, temp);
                (0..64u64).for_each(|k| values.push(black_box(k)));
                values[63]
            })
        })
    });
    group.bench_function("tickarena_arena_scoped_with_capacity", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            arena.scoped(|temp| {
                let mut values = Vec::with_capacity_in(64, temp);
                (0..64u64).for_each(|k| values.push(black_box(k)));
                values[63]
            })
        })
    });
    group.bench_function("reused_vec", |b| {
        let mut values = Vec::new();
        b.iter(|| {
            values.clear();
            (0..64u64).for_each(|k| values.push(black_box(k)));
            values[63]
        })
    });
    group.bench_function("bump_scope_scoped", |b| {
        let mut bump = bump_scope::Bump::<bump_scope::alloc::Global>::new();
        b.iter(|| {
            bump.scoped(|temp| {
                let mut values = bump_scope::BumpVec::new_in(&*temp);
                (0..64u64).for_each(|k| values.push(black_box(k)));
                values[63]
            })
        })
    });
    group.finish();
}

criterion_group!(benches, scopes, one_scope);
criterion_main!(benches);
