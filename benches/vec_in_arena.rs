//! `Vec<usize, &FrameArena>` against `Vec<usize>` (glibc malloc) and
//! bumpalo's `Vec`, one "frame" per iteration (arenas reset inside the
//! timing): 500 pushes repeated 8 times; 16 Ki prefilled then 500 Ki pushes;
//! 1000 pushes of `[usize; 1024]`; and `reserve_exact(1)` + push ×10007 in
//! each arena's vector, the worst case for growth (in place at the top of
//! tickarena, a copy per push where growth cannot happen in place).

#![feature(allocator_api)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::FrameArena;

/// The same pushes into any vector-like type.
macro_rules! workloads {
    ($group:ident, $name:literal, $setup:expr, |$state:ident| $new:expr, $reset:expr) => {{
        $group.bench_function(concat!($name, "/push_500_x8"), |b| {
            #[allow(unused_mut, reason = "only the arenas need `mut`")]
            let mut $state = $setup;
            b.iter(|| {
                for _ in 0..8 {
                    let mut v = $new;
                    for i in 0..500usize {
                        v.push(black_box(i));
                    }
                    black_box(&v);
                }
                $reset;
            });
        });
        $group.bench_function(concat!($name, "/prefill_16Ki_push_500Ki"), |b| {
            #[allow(unused_mut, reason = "only the arenas need `mut`")]
            let mut $state = $setup;
            b.iter(|| {
                {
                    let mut v = $new;
                    v.extend(0..16 * 1024usize);
                    for i in 0..500 * 1024usize {
                        v.push(black_box(i));
                    }
                    black_box(&v);
                }
                $reset;
            });
        });
        $group.bench_function(concat!($name, "/push_1000_x_8KiB"), |b| {
            #[allow(unused_mut, reason = "only the arenas need `mut`")]
            let mut $state = $setup;
            b.iter(|| {
                {
                    let mut v = $new;
                    for i in 0..1000usize {
                        v.push(black_box([i; 1024]));
                    }
                    black_box(&v);
                }
                $reset;
            });
        });
    }};
}

fn vec_in_arena(c: &mut Criterion) {
    let mut group = c.benchmark_group("vec");
    workloads!(
        group,
        "tickarena",
        FrameArena::new(),
        |arena| Vec::new_in(&arena),
        arena.reset()
    );
    workloads!(group, "malloc", (), |_unit| Vec::new(), black_box(()));
    workloads!(
        group,
        "bumpalo",
        bumpalo::Bump::new(),
        |bump| bumpalo::collections::Vec::new_in(&bump),
        bump.reset()
    );
    group.finish();

    let mut group = c.benchmark_group("reserve_exact_1_push_x10007");
    group.bench_function("tickarena", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            {
                let mut v = Vec::new_in(&arena);
                for i in 0..10_007usize {
                    v.reserve_exact(1);
                    v.push(black_box(i));
                }
                black_box(&v);
            }
            arena.reset();
        });
    });
    group.bench_function("bumpalo", |b| {
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            {
                let mut v = bumpalo::collections::Vec::new_in(&bump);
                for i in 0..10_007usize {
                    v.reserve_exact(1);
                    v.push(black_box(i));
                }
                black_box(&v);
            }
            bump.reset();
        });
    });
    group.bench_function("bump_scope", |b| {
        let mut bump: bump_scope::Bump = bump_scope::Bump::new();
        b.iter(|| {
            {
                let mut v = bump_scope::BumpVec::new_in(&bump);
                for i in 0..10_007usize {
                    v.reserve_exact(1);
                    v.push(black_box(i));
                }
                black_box(&v);
            }
            bump.reset();
        });
    });
    group.bench_function("malloc", |b| {
        b.iter(|| {
            let mut v = Vec::new();
            for i in 0..10_007usize {
                v.reserve_exact(1);
                v.push(black_box(i));
            }
            black_box(&v);
        });
    });
    group.finish();
}

criterion_group!(benches, vec_in_arena);
criterion_main!(benches);
