//! Frame data allocated on several threads at once. Per frame, each of the N
//! threads of a rayon pool (one `broadcast` per frame, so every contender is
//! scheduled the same way) allocates 10^5 `u64` values and builds 8 vectors
//! of 500 pushes (`values_and_vecs`), or builds one vector of 16 Ki
//! elements and pushes 500 Ki more (`big_vec`); then the frame ends (reset
//! or free). N is the machine's parallelism (`TICKARENA_BENCH_THREADS`
//! overrides it).
//!
//! Contenders: `ThreadArenas`; plain `FrameArena`s, one per worker (each on
//! cache lines of its own, as `ThreadArenas` keeps them), taken by its job
//! through an uncontended `Mutex` once per frame (the floor for the pool's
//! own cost); the global allocator; bumpalo-herd; bump-scope's
//! `BumpPool`; blink-alloc's `SyncBlinkAlloc` with its local proxy; and
//! `thread_local::ThreadLocal<bumpalo::Bump>`.

#![feature(allocator_api)]

use std::alloc::Layout;
use std::hint::black_box;
use std::sync::Mutex;

use criterion::{Criterion, criterion_group, criterion_main};
use rayon::{ThreadPool, ThreadPoolBuilder};
use tickarena::{FrameArena, ThreadArenas};

const VALUES: usize = 100_000;

/// A plain arena on cache lines of its own (no false sharing between the
/// workers' arenas, as in `ThreadArenas`).
#[repr(align(128))]
struct Padded(Mutex<FrameArena>);

fn threads() -> usize {
    std::env::var("TICKARENA_BENCH_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

/// One thread's share of a frame: `$value(v)` places a `u64` and returns
/// `&mut u64`; `$vec` makes an empty vector; `$workload` picks the work.
macro_rules! thread_frame {
    (values_and_vecs, |$v:ident| $value:expr, || $vec:expr) => {{
        let mut sum = 0u64;
        for i in 0..VALUES as u64 {
            let $v = black_box(i);
            let placed: &mut u64 = $value;
            sum = sum.wrapping_add(*placed);
        }
        for _ in 0..8 {
            let mut vec = $vec;
            for i in 0..500usize {
                vec.push(black_box(i));
            }
            sum = sum.wrapping_add(black_box(&vec).len() as u64);
        }
        sum
    }};
    (big_vec, |$v:ident| $value:expr, || $vec:expr) => {{
        let mut vec = $vec;
        vec.extend(0..16 * 1024usize);
        for i in 0..500 * 1024usize {
            vec.push(black_box(i));
        }
        black_box(&vec).len() as u64
    }};
}

/// Benchmarks every contender on one workload.
macro_rules! contenders {
    ($c:expr, $pool:expr, $workload:ident) => {{
        let pool: &ThreadPool = $pool;
        let n = pool.current_num_threads();
        let mut group = $c.benchmark_group(concat!("threads_", stringify!($workload)));

        group.bench_function("tickarena", |b| {
            let mut arenas = ThreadArenas::new();
            b.iter(|| {
                pool.broadcast(|_| {
                    let arena = arenas.local();
                    thread_frame!($workload, |v| arena.alloc(v), || Vec::new_in(arena))
                });
                arenas.reset();
            });
        });

        group.bench_function("plain_arenas", |b| {
            let arenas: Vec<Padded> = (0..n)
                .map(|_| Padded(Mutex::new(FrameArena::new())))
                .collect();
            b.iter(|| {
                pool.broadcast(|context| {
                    let mut arena = arenas[context.index()].0.lock().unwrap();
                    let sum = {
                        let arena: &FrameArena = &arena;
                        thread_frame!($workload, |v| arena.alloc(v), || Vec::new_in(arena))
                    };
                    arena.reset();
                    sum
                });
            });
        });

        group.bench_function("malloc", |b| {
            b.iter(|| {
                pool.broadcast(|_| {
                    // The values live until the end of the frame, as in an arena.
                    #[allow(unused_mut, unused_variables, reason = "big_vec places no values")]
                    let mut kept: Vec<Box<u64>> = Vec::with_capacity(VALUES);
                    thread_frame!(
                        $workload,
                        |v| {
                            kept.push(Box::new(v));
                            kept.last_mut().unwrap()
                        },
                        || Vec::new()
                    )
                });
            });
        });

        group.bench_function("bumpalo_herd", |b| {
            let mut herd = bumpalo_herd::Herd::new();
            b.iter(|| {
                pool.broadcast(|_| {
                    let member = herd.get();
                    let bump = member.as_bump();
                    thread_frame!($workload, |v| bump.alloc(v), || {
                        bumpalo::collections::Vec::new_in(bump)
                    })
                });
                herd.reset();
            });
        });

        group.bench_function("bump_scope_pool", |b| {
            let mut bump_pool: bump_scope::BumpPool = bump_scope::BumpPool::new();
            b.iter(|| {
                pool.broadcast(|_| {
                    let bump = bump_pool.get();
                    thread_frame!($workload, |v| bump.alloc(v).into_mut(), || {
                        bump_scope::BumpVec::new_in(&*bump)
                    })
                });
                bump_pool.reset();
            });
        });

        group.bench_function("blink_alloc_sync", |b| {
            let mut blink = blink_alloc::SyncBlinkAlloc::new();
            b.iter(|| {
                pool.broadcast(|_| {
                    let local = blink.local();
                    thread_frame!(
                        $workload,
                        |v| {
                            let block = local.allocate(Layout::new::<u64>()).unwrap();
                            let slot = block.cast::<u64>();
                            // SAFETY: a fresh, aligned block for one u64, not
                            // freed before the reset below the broadcast.
                            unsafe {
                                slot.write(v);
                                &mut *slot.as_ptr()
                            }
                        },
                        || Vec::new_in(&local)
                    )
                });
                blink.reset();
            });
        });

        group.bench_function("thread_local_bumpalo", |b| {
            let mut bumps = thread_local::ThreadLocal::<bumpalo::Bump>::new();
            b.iter(|| {
                pool.broadcast(|_| {
                    let bump = bumps.get_or_default();
                    thread_frame!($workload, |v| bump.alloc(v), || {
                        bumpalo::collections::Vec::new_in(bump)
                    })
                });
                bumps.iter_mut().for_each(bumpalo::Bump::reset);
            });
        });

        group.finish();
    }};
}

fn bench_threads(c: &mut Criterion) {
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads())
        .build()
        .expect("a rayon pool");
    contenders!(c, &pool, values_and_vecs);
    contenders!(c, &pool, big_vec);
}

criterion_group!(benches, bench_threads);
criterion_main!(benches);
