//! The upload arena on a real device: lavapipe (Mesa's software Vulkan,
//! `mesa-vulkan-drivers`) where there is no GPU. `cargo test --features
//! wgpu --test gpu`. No adapter is a failure, not a skip, unless
//! `TICKARENA_NO_GPU=skip` is set (see `tickarena::gpu::test_device`).
//!
//! Each test uploads, copies into a destination buffer, reads it back
//! (mapped for reading) and compares with what it wrote.

#[path = "../../examples/gpu_upload/by_hand.rs"]
mod by_hand;
mod compile_fail;
mod differential;
mod growing_buffer;
mod review_extend;
mod review_told;
mod several_writers;
mod shared;
mod submissions;
mod texture_copies;
mod writers_at_once;

use std::sync::atomic::{AtomicU64, Ordering};

use bytemuck::{Pod, Zeroable};
use tickarena::gpu::{Upload, UploadArena, UploadConfig, UploadError, UploadFrame};
use tickarena::{BudgetPolicy, Tag};

fn device() -> (wgpu::Device, wgpu::Queue) {
    match tickarena::gpu::test_device() {
        Some(device) => device,
        None => {
            // Only with TICKARENA_NO_GPU=skip, said on stderr.
            std::process::exit(0)
        }
    }
}

/// A destination that can be read back.
fn readable(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    })
}

/// `buffer`'s bytes, `len` from the start (its work submitted).
fn read_back(device: &wgpu::Device, buffer: &wgpu::Buffer, len: u64) -> Vec<u8> {
    buffer.map_async(wgpu::MapMode::Read, ..len, |r| r.unwrap());
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let bytes = buffer.get_mapped_range(..len).unwrap().to_vec();
    buffer.unmap();
    bytes
}

/// Copies each upload to `dst` at its offset on a new encoder, finishes
/// the frame with it, submits it, and reads back `dst`'s first `len`
/// bytes.
fn submit_and_read_back<'a>(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    mut frame: UploadFrame<'a>,
    copies: &[(&Upload<'a>, u64)],
    dst: &wgpu::Buffer,
    len: u64,
) -> Vec<u8> {
    let mut encoder = device.create_command_encoder(&Default::default());
    for &(upload, offset) in copies {
        frame.copy_to(upload, dst, offset).unwrap();
    }
    frame.finish(&mut encoder);
    queue.submit([encoder.finish()]);
    read_back(device, dst, len)
}

/// A frame of one upload, four `word`s, copied to a new buffer and read
/// back: the arena works (again).
fn a_frame_of_four(
    arena: &mut UploadArena,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    word: u32,
) -> Vec<u32> {
    let dst = readable(device, 16);
    let frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[word; 4]).unwrap();
    let bytes = submit_and_read_back(device, queue, frame, &[(&upload, 0)], &dst, 16);
    bytemuck::pod_collect_to_vec(&bytes)
}

fn config(chunk_size: u64) -> UploadConfig {
    UploadConfig {
        chunk_size,
        budget_policy: BudgetPolicy::Count,
        ..UploadConfig::default()
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
struct Instance {
    position: [f32; 3],
    scale: f32,
    color: [u8; 4],
    id: u32,
    rotation: [f32; 2],
}

fn instance(i: u32) -> Instance {
    Instance {
        position: [i as f32, -(i as f32), 0.5],
        scale: 1.0 + i as f32,
        color: [i as u8, (i >> 8) as u8, 7, 255],
        id: i,
        rotation: [0.0, 1.0],
    }
}

#[test]
fn an_upload_is_copied_to_the_destination_intact() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(4096));
    let dst = readable(&device, 32 * 100);
    let frame = arena.begin_frame().unwrap();
    let mut writer = frame.upload::<Instance>().unwrap();
    for i in 0..100 {
        writer.push(instance(i)).unwrap();
    }
    let upload = writer.finish();
    assert_eq!(
        (upload.len(), upload.bytes(), upload.segment_count()),
        (100, 3200, 1)
    );
    let bytes = submit_and_read_back(&device, &queue, frame, &[(&upload, 0)], &dst, 3200);
    let expected: Vec<Instance> = (0..100).map(instance).collect();
    assert_eq!(bytes, bytemuck::cast_slice::<_, u8>(&expected));
}

#[test]
fn uploads_of_every_kind_land_where_their_copies_say() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let dst = readable(&device, 1024);
    let frame = arena.begin_frame().unwrap();
    let indices = frame.upload_slice(&[0u16, 1, 2, 2, 1]).unwrap(); // 10 bytes, padded to 12
    let mut floats = frame.upload::<f32>().unwrap();
    floats.extend((0..50).map(|i| i as f32 * 0.5)).unwrap();
    let floats = floats.finish();
    let mut rgb = frame.upload::<[u8; 3]>().unwrap(); // units of 12 bytes
    rgb.extend((0..30u8).map(|i| [i, i + 1, i + 2])).unwrap();
    let rgb = rgb.finish();
    let copies = [(&indices, 0), (&floats, 16), (&rgb, 512)];
    let bytes = submit_and_read_back(&device, &queue, frame, &copies, &dst, 1024);
    assert_eq!(
        &bytes[..12],
        bytemuck::cast_slice::<u16, u8>(&[0, 1, 2, 2, 1, 0])
    );
    let floats_expected: Vec<f32> = (0..50).map(|i| i as f32 * 0.5).collect();
    assert_eq!(
        &bytes[16..216],
        bytemuck::cast_slice::<f32, u8>(&floats_expected)
    );
    let rgb_expected: Vec<u8> = (0..30u8).flat_map(|i| [i, i + 1, i + 2]).collect();
    assert_eq!(&bytes[512..602], &rgb_expected[..]);
    assert_eq!(&bytes[602..604], [0, 0], "the padding is zeros");
}

#[test]
fn an_upload_grows_across_chunk_ends() {
    let (device, queue) = device();
    // Chunks of 96, 192, 384, 768 bytes (each twice the last): 4 bytes
    // then 2, 6, 12 and 20 instances.
    let mut arena = UploadArena::new(&device, config(96));
    let dst = readable(&device, 32 * 41 + 4);
    let frame = arena.begin_frame().unwrap();
    let small = frame.upload_slice(&[9u32]).unwrap();
    let mut writer = frame.upload::<Instance>().unwrap();
    for i in 0..40 {
        writer.push(instance(i)).unwrap();
    }
    let upload = writer.finish();
    assert_eq!(upload.segment_count(), 4);
    let sizes: Vec<u64> = frame.segments(&upload).unwrap().map(|s| s.size).collect();
    assert_eq!(sizes, [64, 192, 384, 640]);
    let copies = [(&small, 0), (&upload, 4)];
    let bytes = submit_and_read_back(&device, &queue, frame, &copies, &dst, 32 * 40 + 4);
    let expected: Vec<Instance> = (0..40).map(instance).collect();
    assert_eq!(&bytes[..4], 9u32.to_ne_bytes());
    assert_eq!(&bytes[4..], bytemuck::cast_slice::<_, u8>(&expected));
    let stats = arena.stats();
    assert_eq!(
        (stats.buffers_created, stats.staging_bytes),
        (4, 96 + 192 + 384 + 768)
    );
}

/// The writer keeps its place between writes: pushes, `extend`s and
/// slices mixed, across chunk ends, with `len` right after each; then a
/// writer dropped without `finish` (mid-chunk) leaves its bytes in the
/// frame, and the next upload lands after them, intact.
#[test]
fn a_writer_keeps_its_place_across_chunk_ends_and_when_dropped() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(96));
    let dst = readable(&device, 32 * 64);
    let frame = arena.begin_frame().unwrap();
    let mut writer = frame.upload::<Instance>().unwrap();
    let mut next = 0;
    for round in 0..6 {
        writer.push(instance(next)).unwrap();
        next += 1;
        writer.extend((next..next + round).map(instance)).unwrap();
        next += round;
        let slice: Vec<Instance> = (next..next + 2).map(instance).collect();
        writer.extend_from_slice(&slice).unwrap();
        next += 2;
        assert_eq!(writer.len(), next as usize);
    }
    let upload = writer.finish();
    assert_eq!(upload.len(), next as usize);
    assert!(upload.segment_count() > 1, "{}", upload.segment_count());
    {
        let mut dropped = frame.upload::<Instance>().unwrap();
        dropped.push(instance(1000)).unwrap();
        assert_eq!(dropped.len(), 1);
    }
    let after = frame.upload_slice(&[instance(2000)]).unwrap();
    assert_eq!(frame.bytes(), 32 * (next as u64 + 2));
    let copies = [(&upload, 0), (&after, 32 * next as u64)];
    let len = 32 * (next as u64 + 1);
    let bytes = submit_and_read_back(&device, &queue, frame, &copies, &dst, len);
    let mut expected: Vec<Instance> = (0..next).map(instance).collect();
    expected.push(instance(2000));
    assert_eq!(bytes, bytemuck::cast_slice::<_, u8>(&expected));
}

/// A writer opened and dropped with nothing written, and one that wrote
/// into an open chunk and was dropped, leave a frame that finishes (the
/// chunks' views all back where the unmap needs them) and comes back
/// for the next frame.
#[test]
fn dropped_writers_give_their_chunk_back_for_the_unmap() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    for _ in 0..4 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = arena.begin_frame().unwrap();
        let _ = frame.upload_slice(&[1u32; 3]).unwrap();
        drop(frame.upload::<u32>().unwrap());
        let mut writer = frame.upload::<u32>().unwrap();
        writer.extend(0..10).unwrap();
        drop(writer);
        assert_eq!(frame.bytes(), 12 + 40);
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
    }
    assert_eq!(arena.stats().buffers_created, 2);
}

/// `extend` writes elements of every size right: those with slots of
/// their own size (4 to 64 bytes) and the others, byte windows; across
/// chunk ends too (chunks of 256 bytes, then 512, ...); from iterators
/// of every kind: a length known, a filter, and size hints that lie.
#[test]
fn extend_writes_elements_of_every_size_intact() {
    fn check<const N: usize>(device: &wgpu::Device, queue: &wgpu::Queue)
    where
        [u8; N]: Pod,
    {
        let mut arena = UploadArena::new(device, config(256));
        let count = 100usize;
        let all: Vec<u8> = (0..count * N).map(|i| (i * 7 + N) as u8).collect();
        let elements = all.as_chunks::<N>().0;
        // A length known, a filter (a quarter culled), and iterators whose
        // size hint lies (a length too short, and too long): each across
        // the room ends of 256-byte chunks.
        for kind in ["exact", "filter", "claims fewer", "claims more"] {
            let kept = |i: &usize| kind != "filter" || i % 4 != 3;
            let expected: Vec<u8> = (0..count).filter(kept).flat_map(|i| elements[i]).collect();
            let dst = readable(device, (count * N).next_multiple_of(4) as u64);
            let frame = arena.begin_frame().unwrap();
            let mut writer = frame.upload::<[u8; N]>().unwrap();
            let values = elements.iter().copied();
            match kind {
                "exact" => writer.extend(values),
                "filter" => {
                    writer.extend(values.enumerate().filter(|(i, _)| kept(i)).map(|(_, v)| v))
                }
                "claims fewer" => writer.extend(Lying(values, count / 3)),
                _ => writer.extend(Lying(values, count * 3)),
            }
            .unwrap();
            let len = expected.len();
            assert_eq!(writer.len() * N, len, "{kind}");
            let upload = writer.finish();
            let bytes =
                submit_and_read_back(device, queue, frame, &[(&upload, 0)], &dst, dst.size());
            assert_eq!(
                &bytes[..len],
                &expected[..],
                "elements of {N} bytes, {kind}"
            );
        }
    }
    /// An iterator that says it has exactly `.1` elements.
    struct Lying<I>(I, usize);
    impl<I: Iterator> Iterator for Lying<I> {
        type Item = I::Item;
        fn next(&mut self) -> Option<I::Item> {
            self.0.next()
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.1, Some(self.1))
        }
    }
    let (device, queue) = device();
    check::<1>(&device, &queue);
    check::<4>(&device, &queue);
    check::<8>(&device, &queue);
    check::<12>(&device, &queue);
    check::<16>(&device, &queue);
    check::<20>(&device, &queue);
    check::<24>(&device, &queue);
    check::<28>(&device, &queue);
    check::<32>(&device, &queue);
    check::<48>(&device, &queue);
    check::<64>(&device, &queue);
}

/// A writer leaked with `mem::forget` keeps its chunk's mapped view: the
/// frame's `finish` cannot unmap that chunk, and wgpu panics (as the
/// writer's docs say). Not UB, and not reachable without a leak.
#[test]
#[should_panic(expected = "mapped views")]
fn a_leaked_writer_makes_finish_panic() {
    let (device, _queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[1u32]).unwrap();
    let mut writer = frame.upload::<u32>().unwrap();
    writer.push(2).unwrap();
    std::mem::forget(writer);
    frame.finish(&mut encoder);
}

/// Frames, each of `count(tick)` instances, uploaded, copied, read back and
/// compared; the arena's stats after.
fn run_frames(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    arena: &mut UploadArena,
    frames: u32,
    count: impl Fn(u32) -> u32,
) {
    let dst = readable(device, 32 * 4096);
    for tick in 0..frames {
        let n = count(tick);
        let frame = arena.begin_frame().unwrap();
        let mut writer = frame.upload::<Instance>().unwrap();
        writer.extend((0..n).map(|i| instance(i ^ tick))).unwrap();
        let upload = writer.finish();
        let len = 32 * u64::from(n.max(1));
        let bytes = submit_and_read_back(device, queue, frame, &[(&upload, 0)], &dst, len);
        let expected: Vec<Instance> = (0..n).map(|i| instance(i ^ tick)).collect();
        assert_eq!(
            &bytes[..32 * n as usize],
            bytemuck::cast_slice::<_, u8>(&expected),
            "tick {tick}"
        );
    }
}

#[test]
fn after_a_burst_staging_memory_goes_back_down() {
    let (device, queue) = device();
    let config = UploadConfig {
        release_after: 4,
        ..config(1024) // 32 instances a chunk
    };
    let mut arena = UploadArena::new(&device, config);
    // Steady frames of 20 instances: one chunk per frame in flight.
    run_frames(&device, &queue, &mut arena, 8, |_| 20);
    assert_eq!(arena.stats().chunks, 2);
    // A burst of 4000 instances (125 KiB) in one frame: chunks of 1, 2,
    // 4, ..., 64 KiB in its slot (127 KiB).
    run_frames(&device, &queue, &mut arena, 1, |_| 4000);
    let stats = arena.stats();
    assert_eq!(
        (stats.chunks, stats.staging_bytes),
        (1 + 7, 1024 + 127 * 1024)
    );
    assert_eq!(stats.high_water, 128_000);
    // Its slot's next frame: one chunk that holds the burst.
    run_frames(&device, &queue, &mut arena, 2, |_| 20);
    let stats = arena.stats();
    assert_eq!((stats.chunks, stats.staging_bytes), (2, 1024 + 128 * 1024));
    // Quiet again: within two windows the burst's chunk is destroyed, and
    // its slot makes one of the steady size.
    run_frames(&device, &queue, &mut arena, 10, |_| 20);
    let stats = arena.stats();
    assert_eq!((stats.chunks, stats.staging_bytes), (2, 2048), "{stats:?}");
    assert_eq!(stats.buffers_destroyed, 7 + 1);
}

/// A steady frame larger than the first chunk: its first frames grow
/// (chunks twice the last), the next frame in each slot is one chunk
/// that holds it all, and from then on a frame is one chunk (one
/// segment) and makes no buffer.
#[test]
fn a_steady_frame_is_one_chunk_after_growing_once() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(1024));
    // 3000 instances: 96,000 bytes, chunks 1, 2, 4, ..., 64 KiB.
    run_frames(&device, &queue, &mut arena, 1, |_| 3000);
    assert_eq!(arena.stats().chunks, 7);
    // The second slot's first chunk is sized from the frame before.
    run_frames(&device, &queue, &mut arena, 1, |_| 3000);
    assert_eq!(arena.stats().chunks, 8);
    run_frames(&device, &queue, &mut arena, 2, |_| 3000);
    let settled = arena.stats();
    assert_eq!(
        (settled.chunks, settled.staging_bytes),
        (2, 2 * 128 * 1024),
        "{settled:?}"
    );
    let dst = readable(&device, 32 * 3000);
    for _ in 0..6 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut frame = arena.begin_frame().unwrap();
        let mut writer = frame.upload::<Instance>().unwrap();
        for i in 0..3000 {
            writer.push(instance(i)).unwrap();
        }
        let upload = writer.finish();
        assert_eq!(upload.segment_count(), 1);
        frame.copy_to(&upload, &dst, 0).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
    }
    let stats = arena.stats();
    assert_eq!(stats.buffers_created, settled.buffers_created);
    assert_eq!(stats.chunks, 2);
}

#[test]
fn a_recurring_burst_keeps_its_chunks() {
    let (device, queue) = device();
    let config = UploadConfig {
        release_after: 4,
        ..config(1024)
    };
    let mut arena = UploadArena::new(&device, config);
    run_frames(&device, &queue, &mut arena, 24, |tick| {
        if tick % 3 == 0 { 200 } else { 10 }
    });
    // Each slot grew once (chunks of 1, 2 and 4 KiB for a burst of
    // 6,400 bytes) and then holds one chunk of 8 KiB.
    let before = arena.stats();
    assert_eq!(
        (before.chunks, before.staging_bytes),
        (2, 2 * 8192),
        "{before:?}"
    );
    run_frames(&device, &queue, &mut arena, 24, |tick| {
        if tick % 3 == 0 { 200 } else { 10 }
    });
    let after = arena.stats();
    assert_eq!(
        (after.buffers_created, after.buffers_destroyed),
        (before.buffers_created, before.buffers_destroyed),
        "no buffer made or destroyed again"
    );
}

#[test]
fn frames_in_flight_reuse_their_chunks_in_order() {
    let (device, queue) = device();
    let config = UploadConfig {
        frames_in_flight: 3,
        ..config(4096)
    };
    let mut arena = UploadArena::new(&device, config);
    let dst = readable(&device, 64);
    let mut used = Vec::new();
    for tick in 0..12u32 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut frame = arena.begin_frame().unwrap();
        assert_eq!(frame.number(), u64::from(tick) + 1);
        let upload = frame.upload_slice(&[tick; 4]).unwrap();
        frame.copy_to(&upload, &dst, 0).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
        // The chunks made so far: one per slot, then reused in turn.
        used.push(arena.stats().buffers_created);
    }
    // A chunk made in each of the first three frames, none after.
    assert_eq!(&used[..4], [1, 2, 3, 3]);
    assert!(used[3..].iter().all(|&made| made == 3), "{used:?}");
    assert_eq!(arena.stats().buffers_created, 3);
    assert_eq!(
        read_back(&device, &dst, 16),
        bytemuck::cast_slice::<u32, u8>(&[11; 4])
    );
}

#[test]
fn a_slow_gpu_fills_the_ring_and_begin_frame_says_so_or_waits() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(4096));
    let dst = readable(&device, 64);
    // Two frames handed to the GPU, their encoders not submitted yet: the
    // GPU has not even started them.
    let mut held = Vec::new();
    for tick in 0..2u32 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[tick; 4]).unwrap();
        frame.copy_to(&upload, &dst, 0).unwrap();
        frame.finish(&mut encoder);
        held.push(encoder);
    }
    assert_eq!(arena.stats().in_flight, 2);
    let error = arena.try_begin_frame().unwrap_err();
    assert_eq!(error, UploadError::AllInFlight { frames: 2 });
    // Waiting cannot help while nothing is submitted: said, not a hang.
    assert_eq!(
        arena.begin_frame().unwrap_err(),
        UploadError::AllInFlight { frames: 2 }
    );
    queue.submit(held.into_iter().map(|encoder| encoder.finish()));
    // Now begin_frame gets the oldest frame's chunks back from the GPU,
    // waiting if the GPU is still at it (or not: a GPU as fast as the
    // submit, which a busy machine's scheduling can make lavapipe, has
    // nothing to wait for), and goes on.
    let frame = arena.begin_frame().unwrap();
    assert_eq!(frame.number(), 3);
    frame.discard();
    assert_eq!(
        arena.stats().buffers_created,
        2,
        "no buffer made to get around the wait"
    );
    assert_eq!(
        read_back(&device, &dst, 16),
        bytemuck::cast_slice::<u32, u8>(&[1; 4])
    );
}

#[test]
fn an_element_larger_than_a_chunk_is_an_error() {
    let (device, _queue) = device();
    let mut arena = UploadArena::new(&device, config(64));
    let frame = arena.begin_frame().unwrap();
    let error = frame.upload::<[u8; 100]>().unwrap_err();
    assert_eq!(
        error,
        UploadError::ElementTooLarge {
            bytes: 100,
            chunk_size: 64
        }
    );
    assert!(error.to_string().contains("chunk_size"), "{error}");
    // The frame goes on (chunks of 64 and 128 bytes).
    assert_eq!(frame.upload_slice(&[1u32; 40]).unwrap().segment_count(), 2);
}

#[test]
fn a_frame_larger_than_its_limit_is_an_error_and_what_fitted_stays() {
    let (device, queue) = device();
    let config = UploadConfig {
        max_frame_bytes: 256,
        ..config(64)
    };
    let mut arena = UploadArena::new(&device, config);
    let dst = readable(&device, 256);
    let frame = arena.begin_frame().unwrap();
    let mut writer = frame.upload::<u32>().unwrap();
    let error = writer.extend(0..100).unwrap_err();
    assert_eq!(
        error,
        UploadError::FrameTooLarge {
            max_frame_bytes: 256
        }
    );
    assert_eq!(writer.len(), 64);
    let upload = writer.finish();
    let bytes = submit_and_read_back(&device, &queue, frame, &[(&upload, 0)], &dst, 256);
    let expected: Vec<u32> = (0..64).collect();
    assert_eq!(bytes, bytemuck::cast_slice::<u32, u8>(&expected));
}

#[test]
fn a_map_that_fails_is_an_error_and_the_chunk_is_replaced() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: 1,
            ..config(256)
        },
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[1u32; 4]).unwrap();
    frame.finish(&mut encoder);
    // The staging buffer destroyed behind the arena's back: wgpu's map
    // after the submission fails.
    // A game's own error handler (wgpu's default panics): the failed map
    // is reported to it, and to the arena through the map's callback.
    let errors = std::sync::Arc::new(AtomicU64::new(0));
    let seen = errors.clone();
    device.on_uncaptured_error(std::sync::Arc::new(move |_| {
        seen.fetch_add(1, Ordering::Relaxed);
    }));
    assert_eq!(arena.destroy_chunks_in_flight(), 1);
    queue.submit([encoder.finish()]);
    assert!(errors.load(Ordering::Relaxed) >= 1);
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    assert_eq!(arena.begin_frame().unwrap_err(), UploadError::MapFailed);
    assert_eq!(arena.stats().chunks, 0);
    // The next frame makes a new chunk and works.
    assert_eq!(a_frame_of_four(&mut arena, &device, &queue, 5), [5; 4]);
    assert_eq!(arena.stats().buffers_created, 2);
}

#[test]
fn a_lost_device_is_an_error_not_a_panic() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: 1,
            ..config(256)
        },
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[1u32; 4]).unwrap();
    frame.finish(&mut encoder);
    queue.submit([encoder.finish()]);
    device.destroy();
    let mut errors = Vec::new();
    for _ in 0..6 {
        match arena.begin_frame() {
            Ok(frame) => {
                if let Err(error) = frame.upload_slice(&[2u32; 4]) {
                    errors.push(error);
                }
                let mut encoder = device.create_command_encoder(&Default::default());
                frame.finish(&mut encoder);
            }
            Err(error) => errors.push(error),
        }
    }
    eprintln!("{errors:?}");
    // The chunk the GPU had cannot be mapped: dropped (or, when wgpu's
    // non-blocking poll hands it back mapped, the frame's encoder is
    // never submitted). Then a new chunk cannot be mapped: the device is
    // lost, and every frame from then on says so.
    let lost = errors
        .iter()
        .position(|e| *e == UploadError::DeviceLost)
        .expect("the lost device is found");
    assert!(errors[lost..].iter().all(|e| *e == UploadError::DeviceLost));
    assert!(errors.len() - lost >= 2, "{errors:?}");
    assert!(
        errors[..lost]
            .iter()
            .all(|e| matches!(e, UploadError::MapFailed | UploadError::NotSubmitted { .. })),
        "{errors:?}"
    );
}

/// One way to extend a writer by nothing.
type EmptyExtend = fn(&mut tickarena::gpu::UploadWriter<'_, '_, u32>) -> Result<(), UploadError>;

/// `extend` opens the frame's first chunk before its first element only
/// for an iterator that says it has one: an empty one, whatever its size
/// hint, makes no buffer, and cannot fail on a lost device.
#[test]
fn an_empty_extend_makes_no_buffer_and_needs_no_device() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let empties: [EmptyExtend; 4] = [
        |w| w.extend(0..0),
        |w| w.extend((0..10).filter(|_| false)),
        |w| w.extend(std::iter::from_fn(|| None)),
        |w| w.extend([].iter().copied()),
    ];
    for frame in 0..3 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame_ = arena.begin_frame().unwrap();
        let mut writer = frame_.upload::<u32>().unwrap();
        for empty in &empties {
            empty(&mut writer).unwrap();
        }
        assert_eq!(writer.len(), 0, "frame {frame}");
        let _ = writer.finish();
        frame_.finish(&mut encoder);
        queue.submit([encoder.finish()]);
    }
    assert_eq!(arena.stats().buffers_created, 0);
    device.destroy();
    let frame = arena.begin_frame().unwrap();
    let mut writer = frame.upload::<u32>().unwrap();
    for empty in &empties {
        assert_eq!(empty(&mut writer), Ok(()));
    }
    // Elements to write need the chunk the lost device cannot give.
    assert_eq!(writer.extend(0..4), Err(UploadError::DeviceLost));
}

#[test]
fn a_frame_dropped_without_finish_is_reported_and_its_slot_reused() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[3u32; 4]).unwrap();
    drop(frame);
    assert_eq!(
        arena.begin_frame().unwrap_err(),
        UploadError::NotSubmitted { frame: 1 }
    );
    // Reported once; the slot is ready, its chunk still mapped.
    assert_eq!(a_frame_of_four(&mut arena, &device, &queue, 4), [4; 4]);
    assert_eq!(arena.stats().buffers_created, 1);
}

#[test]
fn an_encoder_dropped_unsubmitted_is_reported_and_its_chunks_come_back() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: 1,
            ..config(256)
        },
    );
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[3u32; 4]).unwrap();
    frame.finish(&mut encoder);
    drop(encoder);
    assert_eq!(
        arena.begin_frame().unwrap_err(),
        UploadError::NotSubmitted { frame: 1 }
    );
    // Mapped again by the arena; the next frame waits for that and goes on.
    assert_eq!(a_frame_of_four(&mut arena, &device, &queue, 6), [6; 4]);
    assert_eq!(arena.stats().buffers_created, 1);
}

#[test]
fn an_upload_of_another_arena_or_a_bad_destination_is_refused() {
    let (device, _queue) = device();
    let mut a = UploadArena::new(&device, config(256));
    let mut b = UploadArena::new(&device, config(256));
    let dst = readable(&device, 16);
    let mut frame_a = a.begin_frame().unwrap();
    let mut frame_b = b.begin_frame().unwrap();
    let upload = frame_a.upload_slice(&[1u32; 4]).unwrap();
    // Same lifetime by construction here; the arena id tells them apart.
    let foreign = frame_b.copy_to(&unsafe_free_rebrand(&upload), &dst, 0);
    assert_eq!(foreign.unwrap_err(), UploadError::ForeignUpload);
    assert!(matches!(
        frame_a.copy_to(&upload, &dst, 2),
        Err(UploadError::BadDestination {
            offset: 2,
            bytes: 16,
            buffer_size: 16
        })
    ));
    assert!(frame_a.copy_to(&upload, &dst, 4).is_err());
    assert!(frame_a.copy_to(&upload, &dst, 0).is_ok());
}

/// An upload's clone (its lifetime is the arena borrow's; two arenas
/// borrowed at once give the compiler no reason to refuse it).
fn unsafe_free_rebrand<'a>(upload: &tickarena::gpu::Upload<'a>) -> tickarena::gpu::Upload<'a> {
    upload.clone()
}

#[test]
fn upload_bytes_per_tag_go_to_budgets_and_the_sizing_report() {
    const SPRITES: Tag = Tag::new("sprites");
    const LINES: Tag = Tag::new("debug lines");
    let (device, queue) = device();
    let config = UploadConfig {
        frame_budget: Some(4000),
        ..config(4096)
    };
    let mut arena = UploadArena::new(&device, config);
    arena.set_budget(LINES, 100);
    for tick in 0..10u32 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = arena.begin_frame().unwrap();
        let _ = frame
            .upload_slice_tagged(SPRITES, &vec![0u32; 100 * tick as usize])
            .unwrap();
        let _ = frame.upload_slice_tagged(LINES, &[0u32; 10]).unwrap();
        let record = frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
        assert_eq!(record.tags.get(SPRITES), 400 * tick as usize);
        assert_eq!(record.tags.get(LINES), 40);
        assert_eq!(record.arena_bytes, 400 * tick as usize + 40);
        assert_eq!(record.over_frame_budget, 400 * tick + 40 > 4000);
    }
    // Frames 0..10 with LINES under its budget; tick 10 over.
    arena.set_budget(LINES, 39);
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice_tagged(LINES, &[0u32; 10]).unwrap();
    let record = frame.finish(&mut encoder);
    queue.submit([encoder.finish()]);
    assert!(record.tags.over_budget().eq([(LINES, 40, 39)]));
    assert_eq!(arena.stats().breaches, 1);
    let report = arena.report();
    assert_eq!(report.frames(), 11);
    assert_eq!(report.frame_max(), 3640);
    let sprites = report.tags().iter().find(|t| t.tag == SPRITES).unwrap();
    assert_eq!(sprites.max, 3600);
    let lines = report.tags().iter().find(|t| t.tag == LINES).unwrap();
    assert_eq!((lines.max, lines.frames_over_budget), (40, 1));
    assert!(report.to_string().contains("sprites"), "{report}");
    // Its advice names the upload arena's settings, not the CPU arena's.
    let text = report.to_string();
    assert!(
        text.starts_with("tickarena upload sizing report: 11 frames (1–11)"),
        "{text}"
    );
    assert!(text.contains(" at frame 10 (sprites "), "{text}");
    assert!(
        text.contains("\nretain  64 KiB per frame in flight: "),
        "{text}"
    );
    assert!(text.contains("\nmax_frame_bytes 1 MiB: "), "{text}");
    assert!(
        !text.contains("address space") && !text.contains("reserve") && !text.contains(" tick"),
        "{text}"
    );
}

// Heap allocations counted per thread (`counting_alloc`, shared with the
// examples): tests run side by side, and a count shared by the process
// would take in another test's allocations made while this one counts (on
// a busy machine, tens a frame).
#[path = "../../examples/support/counting_alloc.rs"]
mod counting_alloc;

#[global_allocator]
static GLOBAL: counting_alloc::ThreadCounting = counting_alloc::Counting;

/// Allocations `f` makes on this thread.
fn count<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = counting_alloc::thread_allocations();
    let r = f();
    (r, counting_alloc::thread_allocations() - before)
}

/// Steady frames counted: frames in which the arena did not poll the
/// device (`stats().polls` unchanged around the frame). A poll is where
/// wgpu allocates when the GPU lags (on a busy machine), and it is wgpu's
/// work, not the arena's; the frames that polled are left out, and the
/// test waits for the GPU (outside the counts) after each so that enough
/// frames are steady ones.
const STEADY_FRAMES: usize = 30;

#[test]
fn a_steady_frame_makes_no_buffer_and_no_allocation_of_its_own() {
    steady_frames(Tell::No);
}

/// Told each submission (`UploadArena::submitted`), the arena maps its
/// chunks again itself after the submit, as `StagingBelt::recall` does:
/// no more of wgpu's allocations in its calls than those calls by hand;
/// and over the whole frame (the submit included, where a map asked for
/// at the submit costs wgpu three allocations more) fewer than an arena
/// not told. The two arenas alternate frames, the GPU waited for after
/// each frame (outside the counts), so that the submit's own upkeep is
/// the same for both.
#[test]
fn a_steady_frame_told_its_submission_makes_fewer_allocations() {
    steady_frames(Tell::Yes);
    let (device, queue) = device();
    let dst = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 32 * 1000,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::VERTEX,
        mapped_at_creation: false,
    });
    let mut arenas = [Tell::Yes, Tell::No].map(|tell| {
        (
            tell,
            UploadArena::new(&device, config(64 << 10)),
            Vec::new(),
        )
    });
    for tick in 0..(10 + STEADY_FRAMES as u32) {
        for (tell, arena, whole) in &mut arenas {
            let (_, made) = count(|| {
                let mut encoder = device.create_command_encoder(&Default::default());
                let mut frame = arena.begin_frame().unwrap();
                let upload = frame.upload_slice(&[instance(tick); 1000]).unwrap();
                frame.copy_to(&upload, &dst, 0).unwrap();
                frame.finish(&mut encoder);
                let index = queue.submit([encoder.finish()]);
                if *tell == Tell::Yes {
                    arena.submitted(index);
                }
            });
            device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
            if tick >= 10 {
                whole.push(made);
            }
        }
    }
    let [(_, _, mut told), (_, _, mut untold)] = arenas;
    let (told, untold) = (median(&mut told), median(&mut untold));
    eprintln!("heap allocations per whole steady frame (median): told {told}, not told {untold}");
    assert!(told < untold, "told {told}, not told {untold}");
}

fn median(values: &mut [u64]) -> u64 {
    values.sort_unstable();
    values[values.len() / 2]
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tell {
    Yes,
    No,
}

/// Runs steady frames, the arena told each submission or not, and
/// checks that tickarena's calls (`begin_frame` to `finish`, and
/// `submitted` where told) make no buffer and no heap allocation beyond
/// the same wgpu calls made by hand.
fn steady_frames(tell: Tell) {
    let (device, queue) = device();
    for frames_in_flight in [2, 3] {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                frames_in_flight,
                ..config(64 << 10)
            },
        );
        let dst = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 32 * 1000,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::VERTEX,
            mapped_at_creation: false,
        });
        let mut ours = Vec::with_capacity(STEADY_FRAMES);
        let (mut polled, mut created) = (0, 0);
        for tick in 0..400u32 {
            if ours.len() == STEADY_FRAMES {
                break;
            }
            let mut encoder = device.create_command_encoder(&Default::default());
            let polls = arena.stats().polls;
            let ((), mut inside) = count(|| {
                let mut frame = arena.begin_frame().unwrap();
                let mut writer = frame.upload::<Instance>().unwrap();
                writer
                    .extend((0..1000).map(|i| instance(i + tick)))
                    .unwrap();
                let upload = writer.finish();
                frame.copy_to(&upload, &dst, 0).unwrap();
                frame.finish(&mut encoder);
            });
            let index = queue.submit([encoder.finish()]);
            if tell == Tell::Yes {
                // As by hand: the GPU done first (outside the count), since
                // wgpu's `map_async` allocates while the submission runs.
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
                inside += count(|| arena.submitted(index)).1;
            }
            if tick == 10 {
                created = arena.stats().buffers_created;
            }
            if tick < 10 {
                continue;
            }
            if arena.stats().polls == polls {
                ours.push(inside);
            } else {
                polled += 1;
                // The GPU lags: let it catch up (outside the counts), so
                // that the next frame finds its chunks back.
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
            }
        }
        assert_eq!(
            ours.len(),
            STEADY_FRAMES,
            "{STEADY_FRAMES} frames without a poll, with the GPU waited for after each that polled"
        );
        let stats = arena.stats();
        assert_eq!(
            stats.buffers_created, created,
            "no buffer after the first frames"
        );
        assert_eq!(stats.buffers_created, frames_in_flight as u64);
        // wgpu allocates inside the calls tickarena makes (the mapped
        // view, the boxed map callback, the copy command); tickarena
        // itself allocates nothing: its typical frame makes no more than
        // those calls made alone.
        let data: Vec<Instance> = (0..1000).map(instance).collect();
        let by_hand = |map_again| {
            by_hand::wgpu_calls_by_hand(
                &device,
                &queue,
                bytemuck::cast_slice(&data),
                STEADY_FRAMES,
                map_again,
                |calls| count(calls).1,
            )
        };
        let alone = by_hand(match tell {
            Tell::Yes => by_hand::MapAgain::AfterSubmit {
                gpu_done_first: true,
            },
            Tell::No => by_hand::MapAgain::OnSubmit,
        });
        let (ours_sum, alone_sum) = (ours.iter().sum::<u64>(), alone.iter().sum::<u64>());
        eprintln!(
            "frames in flight {frames_in_flight}: heap allocations in tickarena's calls per \
             steady frame: {:.1}; the same wgpu calls alone: {:.1} ({polled} frames that \
             polled left out; waits {})",
            ours_sum as f64 / STEADY_FRAMES as f64,
            alone_sum as f64 / STEADY_FRAMES as f64,
            stats.waits
        );
        // The typical frame, as the median: on a busy machine wgpu
        // allocates a few more in a frame here and there (its lists of
        // what a submission maps and frees grow when the GPU lags: seen
        // 4 to 6 in 3 of 30 frames in a CI run, beside two builds).
        let (ours_typical, alone_typical) = (median(&mut ours.clone()), median(&mut alone.clone()));
        assert!(
            ours_typical <= alone_typical,
            "tickarena's calls make {ours_typical} in a typical frame, wgpu's alone \
             {alone_typical}: {ours:?} vs {alone:?}"
        );
    }
}

/// The arena can be made on one thread and moved to the render thread.
#[test]
fn the_arena_moves_to_another_thread() {
    fn send<T: Send>(_: &T) {}
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    send(&arena);
    let dst = readable(&device, 16);
    let dst_on_thread = dst.clone();
    let device_on_thread = device.clone();
    std::thread::spawn(move || {
        let mut encoder = device_on_thread.create_command_encoder(&Default::default());
        let mut frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[8u32; 4]).unwrap();
        frame.copy_to(&upload, &dst_on_thread, 0).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
    })
    .join()
    .unwrap();
    assert_eq!(
        read_back(&device, &dst, 16),
        bytemuck::cast_slice::<u32, u8>(&[8; 4])
    );
}

/// A device whose largest buffer is `max_buffer_size` bytes (the arena
/// must never ask for more).
fn device_with_max_buffer(max_buffer_size: u64) -> (wgpu::Device, wgpu::Queue) {
    let limits = wgpu::Limits {
        max_buffer_size,
        ..wgpu::Limits::default()
    };
    match tickarena::gpu::test_device_with(limits) {
        Some(device) => device,
        None => device(), // no adapter: exits as the other tests do
    }
}

/// Settings no device or arena can honour are clamped at `new`, not a
/// panic (wgpu's, or an overflow) at the first frame.
#[test]
fn configs_the_device_cannot_honour_are_clamped() {
    let (device, queue) = device_with_max_buffer(64 << 10);
    assert_eq!(device.limits().max_buffer_size, 64 << 10);
    let arena = UploadArena::new(
        &device,
        UploadConfig {
            chunk_size: u64::MAX,
            frames_in_flight: usize::MAX,
            history: usize::MAX,
            ..UploadConfig::default()
        },
    );
    let taken = arena.config();
    assert_eq!(taken.chunk_size, 64 << 10, "the device's largest buffer");
    assert_eq!(taken.frames_in_flight, UploadConfig::MAX_FRAMES_IN_FLIGHT);
    assert_eq!(taken.history, UploadConfig::MAX_HISTORY);
    drop(arena);
    let arena = UploadArena::new(
        &device,
        UploadConfig {
            chunk_size: (64 << 10) + 1,
            ..UploadConfig::default()
        },
    );
    assert_eq!(
        arena.config().chunk_size,
        64 << 10,
        "rounded within the limit"
    );
    drop(arena);
    // A frame past the device's largest buffer goes on in chunks of that
    // size (never one larger), intact; its slot keeps them from then on.
    // Two uploads of 48,000 bytes: the second crosses into a second chunk.
    let mut arena = UploadArena::new(&device, config(u64::MAX));
    let dsts = [readable(&device, 48_000), readable(&device, 48_000)];
    for tick in 0..6u32 {
        let mut frame = arena.begin_frame().unwrap();
        let mut uploads = Vec::new();
        for half in 0..2u32 {
            let mut writer = frame.upload::<Instance>().unwrap();
            writer
                .extend((0..1500).map(|i| instance(i ^ tick ^ (half << 12))))
                .unwrap();
            uploads.push(writer.finish());
        }
        assert_eq!(uploads[1].segment_count(), 2);
        for upload in &uploads {
            assert!(
                frame
                    .segments(upload)
                    .unwrap()
                    .all(|s| s.offset + s.size <= 64 << 10)
            );
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        for (upload, dst) in uploads.iter().zip(&dsts) {
            frame.copy_to(upload, dst, 0).unwrap();
        }
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
        for (half, dst) in (0..2u32).zip(&dsts) {
            let expected: Vec<Instance> = (0..1500)
                .map(|i| instance(i ^ tick ^ (half << 12)))
                .collect();
            assert_eq!(
                read_back(&device, dst, 48_000),
                bytemuck::cast_slice::<_, u8>(&expected),
                "tick {tick}"
            );
        }
    }
    let stats = arena.stats();
    assert_eq!(
        (stats.buffers_created, stats.buffers_destroyed),
        (4, 0),
        "2 chunks per slot, made once"
    );
    // Past max_frame_bytes it is the arena's error, not wgpu's panic.
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            max_frame_bytes: 100 << 10,
            ..config(u64::MAX)
        },
    );
    let frame = arena.begin_frame().unwrap();
    let mut writer = frame.upload::<Instance>().unwrap();
    let error = writer.extend((0..8000).map(instance)).unwrap_err();
    assert_eq!(
        error,
        UploadError::FrameTooLarge {
            max_frame_bytes: 100 << 10
        }
    );
}

/// `begin_frame` waits for its own frame's submission, not for the last
/// one: a long submission after it stays in flight.
#[test]
fn begin_frame_waits_for_its_own_frame_not_the_whole_queue() {
    let (device, queue) = device();
    let big = 64 << 20;
    let usage = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let a = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: big,
        usage,
        mapped_at_creation: false,
    });
    let b = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: big,
        usage,
        mapped_at_creation: false,
    });
    let dst = readable(&device, 16);
    let long_copies = |encoder: &mut wgpu::CommandEncoder, copies: u32| {
        for i in 0..copies {
            let (from, to) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
            encoder.copy_buffer_to_buffer(from, 0, to, 0, big);
        }
    };
    // The frame's submission holds long copies of the game's own, and a
    // submission four times longer follows it: begin_frame has to wait for
    // the frame, and only for it. Mesa's lavapipe runs one submission at
    // a time and `queue.submit` returns only once the one before it is
    // done, so the later submission is made on another thread while this
    // one calls begin_frame; a try tells only where the frame was still
    // with the GPU when begin_frame was called and the later submission
    // was made (its `submit` returned) before begin_frame returned. On a
    // busy machine a try may not tell: tried again, longer each time.
    // Both buffers written once first (wgpu makes a copy from memory never
    // written cheap).
    let mut warm = device.create_command_encoder(&Default::default());
    warm.clear_buffer(&a, 0, None);
    long_copies(&mut warm, 2);
    queue.submit([warm.finish()]);
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    // (frame in flight at the call, later submission made before it
    // returned, later submission done when it returned), per try.
    let mut outcomes = Vec::new();
    let started = std::time::Instant::now();
    for copies in [4u32, 8, 16, 32]
        .into_iter()
        .cycle()
        .take_while(|_| started.elapsed() < std::time::Duration::from_secs(120))
    {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                frames_in_flight: 1,
                ..config(4096)
            },
        );
        let mut encoder = device.create_command_encoder(&Default::default());
        long_copies(&mut encoder, copies);
        let mut frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[5u32; 4]).unwrap();
        frame.copy_to(&upload, &dst, 0).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
        let mut last = device.create_command_encoder(&Default::default());
        long_copies(&mut last, 4 * copies);
        let last = last.finish();
        let submitted = std::sync::atomic::AtomicBool::new(false);
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let outcome = std::thread::scope(|scope| {
            scope.spawn(|| {
                queue.submit([last]);
                submitted.store(true, Ordering::Release);
                let flag = done.clone();
                queue.on_submitted_work_done(move || flag.store(true, Ordering::Release));
            });
            let frame_in_flight = arena.stats().in_flight == 1;
            let frame = arena.begin_frame().unwrap();
            let outcome = (
                frame_in_flight,
                submitted.load(Ordering::Acquire),
                done.load(Ordering::Acquire),
            );
            drop(frame);
            outcome
        });
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        assert!(done.load(Ordering::Acquire));
        outcomes.push(outcome);
        if let (true, true, false) = outcome {
            break;
        }
    }
    eprintln!(
        "(the frame in flight, the later submission made, the later submission done): {outcomes:?}"
    );
    assert!(
        !outcomes.contains(&(true, true, true)),
        "begin_frame waited for the later, long submission: {outcomes:?}"
    );
    assert!(
        outcomes.contains(&(true, true, false)),
        "no try showed begin_frame returning while the later submission ran: {outcomes:?}"
    );
}

#[test]
fn a_destination_without_copy_dst_is_refused() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let dst = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: 64,
        usage: wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[1u32; 4]).unwrap();
    assert_eq!(
        frame.copy_to(&upload, &dst, 0),
        Err(UploadError::DestinationNotCopyDst)
    );
    frame.finish(&mut encoder);
    // Nothing was recorded: the encoder submits.
    queue.submit([encoder.finish()]);
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
}

#[test]
fn zero_sized_elements_are_refused() {
    #[derive(Clone, Copy, Pod, Zeroable)]
    #[repr(C)]
    struct Nothing;
    let (device, _queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let frame = arena.begin_frame().unwrap();
    assert_eq!(
        frame.upload::<Nothing>().err(),
        Some(UploadError::ZeroSizedElement)
    );
    assert_eq!(
        frame.upload_slice(&[(); 5]).err(),
        Some(UploadError::ZeroSizedElement)
    );
    assert_eq!(frame.bytes(), 0);
    // The frame goes on.
    assert_eq!(frame.upload_slice(&[1u8]).unwrap().len(), 1);
}

/// `discard` is the early return on purpose: the next frame reports
/// nothing and takes the same slot, its chunks still mapped.
#[test]
fn a_discarded_frame_reports_nothing_and_its_slot_is_reused() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let dst = readable(&device, 16);
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[1u32; 4]).unwrap();
    frame.discard();
    let frame = arena.begin_frame().unwrap();
    assert_eq!(frame.bytes(), 0);
    let upload = frame.upload_slice(&[2u32; 4]).unwrap();
    let bytes = submit_and_read_back(&device, &queue, frame, &[(&upload, 0)], &dst, 16);
    assert_eq!(bytes, bytemuck::cast_slice::<u32, u8>(&[2; 4]));
    assert_eq!(arena.stats().buffers_created, 1);
    assert!(arena.begin_frame().is_ok());
}

/// A frame dropped (or discarded) after `copy_to` has recorded nothing on
/// any encoder: the encoder submits, its destination keeps what it held,
/// and the arena reports the dropped frame and goes on. The review's
/// case: the same encoder goes on to the next frame's `finish` (one frame
/// in flight, so the next frame writes the same chunk): only the next
/// frame's copy lands, never the old copy with the new frame's bytes.
#[test]
fn copies_of_a_frame_dropped_or_discarded_never_reach_an_encoder() {
    for discard in [false, true] {
        let (device, queue) = device();
        let config = UploadConfig {
            frames_in_flight: 1,
            ..config(256)
        };
        let mut arena = UploadArena::new(&device, config);
        let old_dst = readable(&device, 16);
        let new_dst = readable(&device, 16);
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[1u32; 4]).unwrap();
        frame.copy_to(&upload, &old_dst, 0).unwrap();
        if discard {
            frame.discard();
        } else {
            drop(frame);
            assert_eq!(
                arena.begin_frame().err(),
                Some(UploadError::NotSubmitted { frame: 1 })
            );
        }
        // The same encoder, the next frame: the same chunk, new bytes.
        let mut frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[2u32; 4]).unwrap();
        frame.copy_to(&upload, &new_dst, 0).unwrap();
        frame.finish(&mut encoder);
        arena.submitted(queue.submit([encoder.finish()]));
        assert_eq!(
            read_back(&device, &old_dst, 16),
            [0; 16],
            "discard: {discard}"
        );
        assert_eq!(
            read_back(&device, &new_dst, 16),
            bytemuck::cast_slice::<u32, u8>(&[2; 4])
        );
        assert_eq!(a_frame_of_four(&mut arena, &device, &queue, 3), [3; 4]);
    }
}

/// The arena dropped after its last frame's `finish` and before that
/// encoder's submit: the submit goes through (wgpu keeps the staging
/// buffers alive for it) and the copy lands.
#[test]
fn an_arena_dropped_before_its_last_submit_lets_the_submit_land() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(256));
    let dst = readable(&device, 16);
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[9u32; 4]).unwrap();
    frame.copy_to(&upload, &dst, 0).unwrap();
    frame.finish(&mut encoder);
    drop(arena);
    queue.submit([encoder.finish()]);
    assert_eq!(
        read_back(&device, &dst, 16),
        bytemuck::cast_slice::<u32, u8>(&[9; 4])
    );
}

/// A budget for a tag past the arena's table is ignored: it never takes
/// the last tag's budget, which keeps its own figure and makes no breach.
#[test]
fn a_budget_past_the_tag_table_takes_no_other_tags_budget() {
    let (device, _queue) = device();
    let mut arena = UploadArena::new(&device, config(4096));
    let names: Vec<&'static str> = (0..tickarena::MAX_TAGS + 1)
        .map(|i| &*format!("tag {i}").leak())
        .collect();
    let tags: Vec<Tag> = names.iter().map(|name| Tag::new(name)).collect();
    for &tag in &tags[..tickarena::MAX_TAGS] {
        arena.set_budget(tag, 1024);
    }
    arena.set_budget(tags[tickarena::MAX_TAGS], 4);
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let last = tags[tickarena::MAX_TAGS - 1];
    let _ = frame.upload_slice_tagged(last, &[0u32; 4]).unwrap();
    let record = frame.finish(&mut encoder);
    assert_eq!(record.tags.budget(last), Some(1024));
    assert_eq!(record.tags.over_budget().count(), 0);
    assert_eq!(arena.stats().breaches, 0);
}

/// Budgets and sizes past 32 bits are kept whole where the arena counts
/// them in `usize` (cut to their low bits on a 32-bit target, a budget of
/// 4 GiB would be a budget of 0); here, on 64 bits, as given.
#[test]
fn a_budget_of_four_gibibytes_is_no_budget_of_zero() {
    let (device, _queue) = device();
    let mut arena = UploadArena::new(&device, config(4096));
    const BIG: Tag = Tag::new("big");
    arena.set_budget(BIG, 1 << 32);
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice_tagged(BIG, &[0u32; 4]).unwrap();
    let record = frame.finish(&mut encoder);
    assert_eq!(
        record.tags.budget(BIG),
        Some(usize::try_from(1u64 << 32).unwrap_or(usize::MAX))
    );
    assert_eq!(arena.stats().breaches, 0);
}

/// Another thread polls the device all the time (a common pattern): its
/// poll may retire a frame's submission and run the frame's map callback
/// a moment later, while `begin_frame`'s own poll already finds the queue
/// empty. With every encoder submitted, `begin_frame` never says
/// `AllInFlight` (it waits out that moment, up to 100 ms).
#[test]
fn another_thread_polling_never_makes_a_submitted_frame_all_in_flight() {
    let (device, queue) = device();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let poller = {
        let (device, stop) = (device.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let _ = device.poll(wgpu::PollType::Poll);
            }
        })
    };
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: 1,
            ..config(4096)
        },
    );
    let mut all_in_flight = 0;
    for _ in 0..10_000 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = match arena.begin_frame() {
            Ok(frame) => frame,
            Err(UploadError::AllInFlight { .. }) => {
                all_in_flight += 1;
                continue;
            }
            Err(error) => panic!("{error:?}"),
        };
        let _ = frame.upload_slice(&[3u32; 256]).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
    }
    stop.store(true, Ordering::Relaxed);
    poller.join().unwrap();
    assert_eq!(all_in_flight, 0, "AllInFlight with every encoder submitted");
}

/// Frames past the device's largest buffer (1024 bytes here) span several
/// chunks of that size; alternating with frames of one chunk, they keep
/// those chunks: retention counts what the window's largest frame took
/// (that many chunks of the largest size), not one chunk capped at it.
#[test]
fn frames_past_the_largest_buffer_alternating_with_small_ones_keep_their_chunks() {
    let (device, queue) = device_with_max_buffer(1024);
    for (release_after, frames) in [(10, 120), (300, 400)] {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                frames_in_flight: 2,
                release_after,
                ..config(4096)
            },
        );
        assert_eq!(arena.config().chunk_size, 1024);
        let mut created = 0;
        for f in 0..frames {
            if f == frames - 70 {
                created = arena.stats().buffers_created;
            }
            // Two frames of ~3.7 KiB (four chunks), two of one chunk.
            let uploads = if f % 4 < 2 { 1 } else { 4 };
            let data: Vec<Vec<[u8; 7]>> = (0..uploads)
                .map(|u| {
                    (0..(130 + (f + u) % 7) as usize)
                        .map(|i| [(i as u8) ^ (f as u8) ^ (u as u8 * 31); 7])
                        .collect()
                })
                .collect();
            let mut encoder = device.create_command_encoder(&Default::default());
            let mut frame = arena.begin_frame().unwrap();
            let mut dsts = Vec::new();
            for d in &data {
                let upload = frame.upload_slice(d).unwrap();
                let dst = readable(&device, upload.copy_size());
                frame.copy_to(&upload, &dst, 0).unwrap();
                dsts.push(dst);
            }
            frame.finish(&mut encoder);
            queue.submit([encoder.finish()]);
            for (d, dst) in data.iter().zip(&dsts) {
                let len = (d.len() * 7) as u64;
                let got = read_back(&device, dst, len.next_multiple_of(4));
                assert_eq!(&got[..len as usize], bytemuck::cast_slice::<[u8; 7], u8>(d));
            }
        }
        assert_eq!(
            arena.stats().buffers_created,
            created,
            "buffers made in the last 70 frames (release_after {release_after})"
        );
    }
}

/// A frame whose last element's unit (12 bytes for 6-byte elements) does
/// not fit at its chunk's end goes on in a second chunk; the room it
/// needed counts that unit, so the next chunk up holds it in one piece:
/// steady, it is one chunk; alternating with a frame that fits the first
/// chunk, no chunk is made again.
#[test]
fn an_element_unit_past_a_chunk_end_sizes_the_next_chunk_for_good() {
    let (device, queue) = device();
    for alternate in [false, true] {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                frames_in_flight: 1,
                release_after: 10,
                ..config(1024)
            },
        );
        let mut created = 0;
        for f in 0..200 {
            if f == 100 {
                created = arena.stats().buffers_created;
            }
            let mut encoder = device.create_command_encoder(&Default::default());
            let frame = arena.begin_frame().unwrap();
            // 1016 bytes, then one 6-byte element (8 with its padding):
            // 1024 bytes, but its 12-byte unit does not fit at 1016.
            let _ = frame.upload_slice(&[1u8; 1016]).unwrap();
            if !alternate || f % 2 == 0 {
                let _ = frame.upload_slice(&[[2u8; 6]]).unwrap();
            }
            frame.finish(&mut encoder);
            queue.submit([encoder.finish()]);
        }
        let stats = arena.stats();
        assert_eq!(
            stats.buffers_created, created,
            "alternate {alternate}: {stats:?}"
        );
        assert_eq!(
            (stats.chunks, stats.staging_bytes),
            (1, 2048),
            "alternate {alternate}"
        );
    }
}

/// `max_frame_bytes` below `chunk_size`, or equal to an odd one (which is
/// rounded up to 4), is raised to the chunk size taken: a frame's first
/// write is never refused for want of its first chunk.
#[test]
fn max_frame_bytes_is_at_least_the_chunk_size() {
    let (device, _queue) = device();
    for (chunk, max, taken) in [
        (1001u64, 1001u64, 1004u64),
        (1000, 1001, 1001),
        (4096, 1000, 4096),
        (4, 4, 4),
        (1 << 20, 4, 1 << 20),
    ] {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                chunk_size: chunk,
                max_frame_bytes: max,
                ..UploadConfig::default()
            },
        );
        assert_eq!(
            arena.config().max_frame_bytes,
            taken,
            "chunk {chunk} max {max}"
        );
        let frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[1u32]).map(|upload| upload.bytes());
        assert_eq!(upload, Ok(4), "chunk {chunk} max {max}");
    }
}

/// Buffers made in frames 100..300 of frames of `sizes(frame)` bytes
/// (chunks of 1 KiB to start).
fn buffers_made_late(fif: usize, release_after: u32, sizes: impl Fn(usize) -> usize) -> u64 {
    let (device, queue) = device();
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: fif,
            release_after,
            ..config(1024)
        },
    );
    let mut made = 0;
    for f in 0..300 {
        if f == 100 {
            made = arena.stats().buffers_created;
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = arena.begin_frame().unwrap();
        let _ = frame.upload_slice(&vec![7u8; sizes(f)]).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
    }
    arena.stats().buffers_created - made
}

/// Steady frames, frames that wobble around a chunk size or alternate
/// between sizes, make no buffer once grown, whatever the frames in
/// flight and the retention window; a slow climb makes a few.
#[test]
fn steady_oscillating_and_slowly_growing_frames_make_no_buffers() {
    for fif in 1..=3 {
        for release_after in [300, 30, 7] {
            let made =
                |sizes: &dyn Fn(usize) -> usize| buffers_made_late(fif, release_after, sizes);
            let steady = made(&|_| 5000);
            let two = made(&|f| if f % 2 == 0 { 4000 } else { 4200 });
            let three = made(&|f| if f % 3 == 0 { 3000 } else { 9000 });
            let five = made(&|f| if f % 5 < 2 { 1000 } else { 8200 });
            let around_pow2 = made(&|f| 8192 + (f % 7) * 4 - 12);
            assert_eq!(
                (steady, two, three, five, around_pow2),
                (0, 0, 0, 0, 0),
                "fif {fif} release_after {release_after}"
            );
            let slow = made(&|f| 4000 + (f % 300) * 3);
            assert!(slow <= 3 * fif as u64, "slow climb: {slow} buffers");
        }
    }
}

/// A texture's texels, uploaded as a run of texels that crosses chunk
/// ends mid-row (chunks of 1 KiB, rows of 256 bytes with 200 of texels),
/// land in the texture where a single copy would put them; read back
/// through a buffer, row by row.
#[test]
fn an_upload_copied_to_a_texture_lands_texel_for_texel_across_chunks() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(1000));
    let (width, height) = (50u32, 9u32);
    let size = wgpu::Extent3d {
        width,
        height,
        depth_or_array_layers: 1,
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Uint,
        usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    // Rows 256 bytes apart (64 texels), of which 50 texels are the image.
    let texel = |x: u32, y: u32| [x as u8, y as u8, (x * y) as u8, 255u8];
    let mut frame = arena.begin_frame().unwrap();
    // A first upload so that the texels start mid-chunk.
    let _ = frame.upload_slice(&[0u32; 30]).unwrap();
    let mut texels = frame.upload::<[u8; 4]>().unwrap();
    texels
        .extend((0..height).flat_map(|y| (0..64).map(move |x| texel(x, y))))
        .unwrap();
    let texels = texels.finish();
    assert_eq!(texels.segment_count(), 2); // split 880 bytes in: mid-row
    // A refusal records nothing and says why.
    assert!(matches!(
        frame.copy_to_texture(&texels, texture.as_image_copy(), 200, size),
        Err(UploadError::TextureCopy { .. })
    ));
    frame
        .copy_to_texture(&texels, texture.as_image_copy(), 256, size)
        .unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    frame.finish(&mut encoder);
    let read = readable(&device, 256 * u64::from(height));
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &read,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(256),
                rows_per_image: None,
            },
        },
        size,
    );
    arena.submitted(queue.submit([encoder.finish()]));
    let bytes = read_back(&device, &read, 256 * u64::from(height));
    for y in 0..height {
        for x in 0..width {
            let at = (y * 256 + x * 4) as usize;
            assert_eq!(bytes[at..at + 4], texel(x, y), "texel ({x}, {y})");
        }
    }
}

/// Told each frame's submission, `begin_frame` waits on it alone: one
/// poll at most per frame (a blocking wait on that submission, or none
/// where the frame was back), with the GPU kept busy by a large copy in
/// every frame, and every frame's data lands.
#[test]
fn told_its_submissions_begin_frame_polls_at_most_once_a_frame() {
    let (device, queue) = device();
    // One frame in flight: each frame's slot is the one its previous frame
    // just handed to the GPU (a GPU that keeps two frames' pace would
    // otherwise never be behind here: lavapipe's submits can return with
    // the frame before done).
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: 1,
            ..config(1 << 20)
        },
    );
    let big = 32 << 20;
    let (src, dst) = (
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: big,
            usage: wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        }),
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: big,
            usage: wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        }),
    );
    let out = readable(&device, 16);
    // Until a few frames found the GPU behind (on a busy machine the GPU
    // may keep up for a while: the CPU's frames are the slow ones), at
    // most 400 frames.
    let mut last = 0;
    for tick in 0..400u32 {
        if tick >= 40 && arena.stats().waits >= 3 {
            break;
        }
        last = tick;
        let before = arena.stats().polls;
        let mut frame = arena.begin_frame().unwrap();
        let upload = frame.upload_slice(&[tick; 4]).unwrap();
        frame.copy_to(&upload, &out, 0).unwrap();
        let mut encoder = device.create_command_encoder(&Default::default());
        frame.finish(&mut encoder);
        encoder.copy_buffer_to_buffer(&src, 0, &dst, 0, big);
        arena.submitted(queue.submit([encoder.finish()]));
        // `begin_frame` is the arena's only poll.
        let polls = arena.stats().polls - before;
        assert!(polls <= 1, "frame {tick}: {polls} polls");
    }
    let stats = arena.stats();
    assert!(stats.polls <= stats.frames, "{stats:?}");
    // The GPU was behind: some frames waited.
    assert!(stats.waits > 0, "{stats:?}");
    assert_eq!(
        read_back(&device, &out, 16),
        bytemuck::cast_slice::<u32, u8>(&[last; 4])
    );
}
