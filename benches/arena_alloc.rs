//! Allocation throughput: `u64` ×10007 per iteration (one "frame"), in the
//! frame arena, in bumpalo and with `Box` (the global allocator, glibc
//! malloc). The arenas are reset between iterations, inside the timing: the
//! reset is part of what a frame costs.

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

criterion_group!(benches, alloc_u64);
criterion_main!(benches);
