//! Frames in flight: a producer thread builds each frame's render list
//! (10^4 sprites and 100 formatted strings), a consumer thread reads it
//! (sums the sprites and the text lengths), with 2 frames in flight. Three
//! ways:
//!
//! * `sealed_frames`: built in a frame arena, sealed and handed over by
//!   `tickarena::in_flight` (two arenas circling; nothing allocated per
//!   frame);
//! * `channel_of_vecs`: a fresh `Vec` and `String`s on the global allocator
//!   every frame, sent through a bounded channel (what most Rust code does);
//! * `extract_copy`: the simulation keeps its own reused buffers and copies
//!   ("extracts", as Bevy's pipelined rendering does) into one of two reused
//!   render buffers that circle between the threads.
//!
//! Each measurement runs a batch of frames through a fresh pair of threads.

use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::{FrameData, format_in, in_flight};

const SPRITES: usize = 10_000;
const LABELS: usize = 100;
const IN_FLIGHT: usize = 2;

#[derive(Clone, Copy, Default)]
struct Sprite {
    position: [f32; 2],
    size: f32,
    color: u32,
}

/// Sprite `i` of `frame`: what the simulation computes. Cheap on purpose
/// (a few multiply-adds, no trigonometry), so that the bench measures how
/// a frame is built and handed over rather than the math.
fn sprite(frame: u64, i: usize) -> Sprite {
    let t = frame as f32 * 0.25 + i as f32;
    Sprite {
        position: [t * 0.5 - 100.0, t * 0.25 + 3.0],
        size: 1.0 + (i % 7) as f32,
        color: (i as u32).wrapping_mul(2_654_435_761),
    }
}

/// What the consumer computes from a frame: the renderer's work stand-in.
fn read_frame<'a>(sprites: &[Sprite], labels: impl Iterator<Item = &'a str>) -> f32 {
    let sprites: f32 = sprites
        .iter()
        .map(|s| s.position[0] + s.size + (s.color >> 24) as f32)
        .sum();
    let text: usize = labels.map(str::len).sum();
    sprites + text as f32
}

struct RenderList;
impl FrameData for RenderList {
    type Of<'f> = (&'f [Sprite], &'f [&'f str]);
}

fn sealed_frames(frames: u64) -> Duration {
    let started = Instant::now();
    let (mut producer, mut consumer) = in_flight::channel::<RenderList>(IN_FLIGHT);
    let simulation = std::thread::spawn(move || {
        for frame in 0..frames {
            producer
                .produce(|arena| {
                    let mut sprites = Vec::with_capacity_in(SPRITES, arena);
                    sprites.extend((0..SPRITES).map(|i| sprite(frame, i)));
                    let sprites = sprites.leak();
                    let labels = arena.alloc_slice_fill_with(LABELS, |i| {
                        &*format_in!(arena, "entity {i} on frame {frame}").leak()
                    });
                    (&*sprites, &*labels)
                })
                .unwrap();
        }
    });
    while let Some(sum) =
        consumer.consume(|(sprites, labels)| read_frame(sprites, labels.iter().copied()))
    {
        black_box(sum);
    }
    simulation.join().unwrap();
    started.elapsed()
}

fn channel_of_vecs(frames: u64) -> Duration {
    let started = Instant::now();
    let (sender, receiver) = sync_channel::<(Vec<Sprite>, Vec<String>)>(IN_FLIGHT - 1);
    let simulation = std::thread::spawn(move || {
        for frame in 0..frames {
            let sprites: Vec<Sprite> = (0..SPRITES).map(|i| sprite(frame, i)).collect();
            let labels: Vec<String> = (0..LABELS)
                .map(|i| format!("entity {i} on frame {frame}"))
                .collect();
            sender.send((sprites, labels)).unwrap();
        }
    });
    for (sprites, labels) in receiver {
        black_box(read_frame(&sprites, labels.iter().map(String::as_str)));
    }
    simulation.join().unwrap();
    started.elapsed()
}

/// A render buffer that circles between the threads, reused every frame.
#[derive(Default)]
struct RenderBuffer {
    sprites: Vec<Sprite>,
    labels: Vec<String>,
}

fn extract_copy(frames: u64) -> Duration {
    let started = Instant::now();
    let (to_render, rendered) = sync_channel::<RenderBuffer>(IN_FLIGHT);
    let (to_simulation, returned) = sync_channel::<RenderBuffer>(IN_FLIGHT);
    for _ in 0..IN_FLIGHT {
        to_simulation.send(RenderBuffer::default()).unwrap();
    }
    let simulation = std::thread::spawn(move || {
        // The simulation's own state, rebuilt in place every frame.
        let mut sprites: Vec<Sprite> = Vec::with_capacity(SPRITES);
        let mut labels: Vec<String> = vec![String::new(); LABELS];
        for frame in 0..frames {
            sprites.clear();
            sprites.extend((0..SPRITES).map(|i| sprite(frame, i)));
            for (i, label) in labels.iter_mut().enumerate() {
                label.clear();
                write!(label, "entity {i} on frame {frame}").unwrap();
            }
            // Extract: copy into a reused render buffer.
            let mut buffer = returned.recv().unwrap();
            buffer.sprites.clear();
            buffer.sprites.extend_from_slice(&sprites);
            buffer.labels.resize_with(LABELS, String::new);
            for (to, from) in buffer.labels.iter_mut().zip(&labels) {
                to.clear();
                to.push_str(from);
            }
            to_render.send(buffer).unwrap();
        }
    });
    for buffer in rendered {
        black_box(read_frame(
            &buffer.sprites,
            buffer.labels.iter().map(String::as_str),
        ));
        // The simulation may be gone after its last frame.
        let _ = to_simulation.send(buffer);
    }
    simulation.join().unwrap();
    started.elapsed()
}

fn pipeline(c: &mut Criterion) {
    let mut group = c.benchmark_group("pipeline_2_in_flight");
    group.bench_function("sealed_frames", |b| b.iter_custom(sealed_frames));
    group.bench_function("channel_of_vecs", |b| b.iter_custom(channel_of_vecs));
    group.bench_function("extract_copy", |b| b.iter_custom(extract_copy));
    group.finish();
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
