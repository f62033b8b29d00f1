//! A frame's instance data on its way to the GPU: build N instances of 32
//! bytes from their index (10^3, 10^4, 10^5), upload them into a GPU
//! buffer and submit the frame, two frames in flight. The contenders of
//! `examples/gpu_upload` (whose code this shares): tickarena's upload
//! arena, a reused `Vec` + `queue.write_buffer`, a fresh `Vec` +
//! `write_buffer`, `queue.write_buffer_with` and `wgpu::util::StagingBelt`
//! (the last two told the size in advance).
//!
//! On wgpu's first adapter (lavapipe, Mesa's software Vulkan, where there
//! is no GPU: its copies run on the CPU too). Wall time per frame; the
//! example measures each contender's thread CPU time in processes of its
//! own, which is the figure docs/BENCHMARKS.md reports.
//!
//! `cargo bench -p tickarena-benches --features gpu --bench gpu_upload`

use criterion::{
    BenchmarkGroup, Criterion, criterion_group, criterion_main, measurement::WallTime,
};

#[allow(
    dead_code,
    reason = "the example's counts and names, which the bench does not print"
)]
#[path = "../examples/gpu_upload/contenders.rs"]
mod contenders;
#[path = "../examples/gpu_upload/gpu.rs"]
mod gpu;

use contenders::{
    Belt, Contender, FreshVec, ReusedVec, UploadArena, UploadArenaPush, WriteBufferWith,
};
use gpu::{Gpu, InFlight};

/// Frames the GPU may still be working on when a frame begins.
const FRAMES_IN_FLIGHT: usize = 2;

fn contender<C: Contender>(group: &mut BenchmarkGroup<'_, WallTime>, gpu: &Gpu, n: u32) {
    let dst = gpu.destination(u64::from(n) * size_of::<contenders::Instance>() as u64);
    let mut contender = C::new(gpu, n);
    let mut in_flight = InFlight::new(FRAMES_IN_FLIGHT);
    group.bench_function(C::NAME, |b| {
        b.iter(|| {
            let work = contenders::Work {
                candidates: n,
                cull: false,
            };
            let index = contender.frame(gpu, work, &dst);
            in_flight.submitted(gpu, index);
        })
    });
    in_flight.drain(gpu);
}

fn gpu_upload(c: &mut Criterion) {
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(problem) => panic!("gpu_upload needs a GPU adapter: {problem}"),
    };
    eprintln!("adapter: {}", gpu.adapter());
    for n in [1_000, 10_000, 100_000] {
        let mut group = c.benchmark_group(format!("gpu_upload_{n}_instances"));
        contender::<UploadArena>(&mut group, &gpu, n);
        contender::<UploadArenaPush>(&mut group, &gpu, n);
        contender::<WriteBufferWith>(&mut group, &gpu, n);
        contender::<Belt>(&mut group, &gpu, n);
        contender::<ReusedVec>(&mut group, &gpu, n);
        contender::<FreshVec>(&mut group, &gpu, n);
        group.finish();
    }
}

criterion_group!(benches, gpu_upload);
criterion_main!(benches);
