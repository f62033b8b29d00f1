//! Formatting short strings, 1000 per iteration (one "frame"):
//! `format_in!` in the frame arena against `format!` (glibc malloc),
//! `bumpalo::format!`, and formatting into a stack buffer (the floor: the
//! formatting work with no allocation at all). Each frame keeps its strings
//! alive in a vector made for the frame, as frame code would.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::{FrameArena, format_in};

#[path = "support/fixed_buffer.rs"]
mod fixed_buffer;

use fixed_buffer::FixedBuffer;

const STRINGS: usize = 1000;

fn format_commands(c: &mut Criterion) {
    let mut group = c.benchmark_group("format_x1000");
    group.bench_function("tickarena", |b| {
        let mut arena = FrameArena::new();
        b.iter(|| {
            {
                let mut kept = Vec::with_capacity_in(STRINGS, &arena);
                for i in 0..STRINGS {
                    kept.push(format_in!(
                        &arena,
                        "ls -a | sed -n {}p | xargs rm -rf",
                        black_box(i)
                    ));
                }
                black_box(&kept);
            }
            arena.reset();
        });
    });
    group.bench_function("malloc", |b| {
        b.iter(|| {
            let mut kept = Vec::with_capacity(STRINGS);
            for i in 0..STRINGS {
                kept.push(format!("ls -a | sed -n {}p | xargs rm -rf", black_box(i)));
            }
            black_box(&kept);
        });
    });
    group.bench_function("bumpalo", |b| {
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            {
                let mut kept = bumpalo::collections::Vec::with_capacity_in(STRINGS, &bump);
                for i in 0..STRINGS {
                    kept.push(bumpalo::format!(in &bump, "ls -a | sed -n {}p | xargs rm -rf", black_box(i)));
                }
                black_box(&kept);
            }
            bump.reset();
        });
    });
    group.bench_function("floor", |b| {
        b.iter(|| {
            for i in 0..STRINGS {
                let mut buffer = FixedBuffer::<64>::EMPTY;
                write!(buffer, "ls -a | sed -n {}p | xargs rm -rf", black_box(i)).unwrap();
                black_box(buffer.as_bytes());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, format_commands);
criterion_main!(benches);
