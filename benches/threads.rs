//! Frame data allocated on several threads at once: every contender of
//! `support/thread_contenders.rs` on both workloads. Per frame, each of the
//! N threads of a rayon pool does its share (one `broadcast` per frame, so
//! every contender is scheduled the same way), then the frame ends. N is the
//! machine's parallelism (`TICKARENA_BENCH_THREADS` overrides it).
//! `scripts/thread-instructions` counts the same frames with callgrind.

#[path = "support/thread_contenders.rs"]
mod thread_contenders;

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rayon::ThreadPoolBuilder;
use thread_contenders::{Workload, contenders};

fn threads() -> usize {
    std::env::var("TICKARENA_BENCH_THREADS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}

fn bench_threads(c: &mut Criterion) {
    let pool = ThreadPoolBuilder::new()
        .num_threads(threads())
        .build()
        .expect("a rayon pool");
    for workload in Workload::ALL {
        let mut group = c.benchmark_group(format!("threads_{}", workload.name()));
        for mut contender in contenders(pool.current_num_threads()) {
            group.bench_function(contender.name(), |b| {
                b.iter(|| {
                    pool.broadcast(|context| {
                        black_box(contender.frame_share(context.index(), workload))
                    });
                    contender.frame_end();
                });
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_threads);
criterion_main!(benches);
