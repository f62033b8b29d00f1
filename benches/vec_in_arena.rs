//! `Vec<usize, &FrameArena>` against `Vec<usize>` (glibc malloc) and
//! bumpalo's `Vec`, one "frame" per iteration (arenas reset inside the
//! timing): 500 pushes repeated 8 times; 16 Ki prefilled then 500 Ki pushes;
//! 1000 pushes of `[usize; 1024]`; and `reserve_exact(1)` + push ×10007 in
//! each arena's vector, the worst case for growth (in place at the top of
//! tickarena, a copy per push where growth cannot happen in place).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::FrameArena;

/// One benchmark: a "frame" that makes a vector with `$new` (from the
/// allocator state `$setup`), runs `$body` on it, drops it and ends with
/// `$reset`.
macro_rules! frame_case {
    ($group:ident, $name:expr, $setup:expr, |$state:ident| $new:expr, $reset:expr, |$v:ident| $body:block) => {
        $group.bench_function($name, |b| {
            #[allow(unused_mut, reason = "only the arenas need `mut`")]
            let mut $state = $setup;
            b.iter(|| {
                {
                    let mut $v = $new;
                    $body
                    black_box(&$v);
                }
                $reset;
            });
        });
    };
}

/// The same pushes into any vector-like type.
macro_rules! workloads {
    ($group:ident, $name:literal, $setup:expr, |$state:ident| $new:expr, $reset:expr) => {{
        frame_case!(
            $group,
            concat!($name, "/push_500_x8"),
            $setup,
            |$state| (),
            $reset,
            |_frame| {
                for _ in 0..8 {
                    let mut v = $new;
                    for i in 0..500usize {
                        v.push(black_box(i));
                    }
                    black_box(&v);
                }
            }
        );
        frame_case!(
            $group,
            concat!($name, "/prefill_16Ki_push_500Ki"),
            $setup,
            |$state| $new,
            $reset,
            |v| {
                v.extend(0..16 * 1024usize);
                for i in 0..500 * 1024usize {
                    v.push(black_box(i));
                }
            }
        );
        frame_case!(
            $group,
            concat!($name, "/push_1000_x_8KiB"),
            $setup,
            |$state| $new,
            $reset,
            |v| {
                for i in 0..1000usize {
                    v.push(black_box([i; 1024]));
                }
            }
        );
    }};
}

/// `reserve_exact(1)` then a push, 10007 times: growth by one element.
macro_rules! one_at_a_time {
    ($group:ident, $name:literal, $setup:expr, |$state:ident| $new:expr, $reset:expr) => {
        frame_case!($group, $name, $setup, |$state| $new, $reset, |v| {
            for i in 0..10_007usize {
                v.reserve_exact(1);
                v.push(black_box(i));
            }
        })
    };
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
    one_at_a_time!(
        group,
        "tickarena",
        FrameArena::new(),
        |arena| Vec::new_in(&arena),
        arena.reset()
    );
    one_at_a_time!(
        group,
        "bumpalo",
        bumpalo::Bump::new(),
        |bump| bumpalo::collections::Vec::new_in(&bump),
        bump.reset()
    );
    one_at_a_time!(
        group,
        "bump_scope",
        bump_scope::Bump::<bump_scope::alloc::Global>::new(),
        |bump| bump_scope::BumpVec::new_in(&bump),
        bump.reset()
    );
    one_at_a_time!(group, "malloc", (), |_unit| Vec::new(), black_box(()));
    group.finish();
}

criterion_group!(benches, vec_in_arena);
criterion_main!(benches);
