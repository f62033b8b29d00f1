//! Allocation throughput, one "frame" per iteration:
//!
//! * `u64` ×10007 in the frame arena, in bumpalo and with `Box` (the global
//!   allocator, glibc malloc);
//! * values of 8 to 256 bytes ×10^4 in tickarena, bumpalo, bump-scope,
//!   typed-arena and `Box`.
//!
//! The arenas are reset between iterations, inside the timing: the reset is
//! part of what a frame costs (typed-arena has no reset, so it gets a new
//! arena each frame, as it would be used).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::FrameArena;

const COUNT: u64 = 10_007;

fn alloc_u64(c: &mut Criterion) {
    let mut group = c.benchmark_group("alloc_u64_x10007");
    group.bench_function("tickarena", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            for i in 0..COUNT {
                black_box(arena.alloc(black_box(i)));
            }
            arena.reset();
        });
    });
    group.bench_function("bumpalo", |b| {
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            for i in 0..COUNT {
                black_box(bump.alloc(black_box(i)));
            }
            bump.reset();
        });
    });
    group.bench_function("box_malloc", |b| {
        let mut boxes: Vec<Box<u64>> = Vec::with_capacity(COUNT as usize);
        b.iter(|| {
            for i in 0..COUNT {
                boxes.push(Box::new(black_box(i)));
            }
            black_box(&boxes);
            boxes.clear();
        });
    });
    group.finish();
}

/// Allocates `VALUES` values of `BYTES` bytes in every allocator.
fn alloc_sized<const WORDS: usize>(c: &mut Criterion) {
    const VALUES: u64 = 10_000;
    let bytes = WORDS * 8;
    let mut group = c.benchmark_group(format!("alloc_{bytes}B_x10k"));
    let value = |i: u64| [i; WORDS];
    group.bench_function("tickarena", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            for i in 0..VALUES {
                black_box(arena.alloc(value(black_box(i))));
            }
            arena.reset();
        });
    });
    group.bench_function("bumpalo", |b| {
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            for i in 0..VALUES {
                black_box(bump.alloc(value(black_box(i))));
            }
            bump.reset();
        });
    });
    group.bench_function("bump_scope", |b| {
        let mut bump: bump_scope::Bump = bump_scope::Bump::new();
        b.iter(|| {
            for i in 0..VALUES {
                black_box(bump.alloc(value(black_box(i))).into_mut());
            }
            bump.reset();
        });
    });
    group.bench_function("typed_arena", |b| {
        b.iter(|| {
            let arena = typed_arena::Arena::new();
            for i in 0..VALUES {
                black_box(arena.alloc(value(black_box(i))));
            }
        });
    });
    group.bench_function("box_malloc", |b| {
        let mut boxes = Vec::with_capacity(VALUES as usize);
        b.iter(|| {
            for i in 0..VALUES {
                boxes.push(Box::new(value(black_box(i))));
            }
            black_box(&boxes);
            boxes.clear();
        });
    });
    group.finish();
}

criterion_group!(
    benches,
    alloc_u64,
    alloc_sized::<1>,
    alloc_sized::<2>,
    alloc_sized::<4>,
    alloc_sized::<8>,
    alloc_sized::<16>,
    alloc_sized::<32>
);
criterion_main!(benches);
