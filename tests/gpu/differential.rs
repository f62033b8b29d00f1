//! The upload arena against a reference: random frames of uploads of
//! every element size (pushed, extended with and without a size hint,
//! from slices; some writers dropped, some frames discarded), copied to
//! destinations at random offsets and read back, byte for byte against
//! what one contiguous copy of each upload would have written (zero
//! padding to 4, the destination's other bytes untouched), with several
//! frames in flight before each read. `TICKARENA_PROPTEST_CASES` scales
//! the seeds.

use std::sync::atomic::{AtomicUsize, Ordering};

use bytemuck::Pod;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tickarena::BudgetPolicy;
use tickarena::gpu::{Upload, UploadArena, UploadConfig, UploadFrame};

use super::{device, device_with_max_buffer};

const SENTINEL: u8 = 0xAB;

/// Uploads of more than one segment made by the differential test.
static SPANNING: AtomicUsize = AtomicUsize::new(0);

/// A destination filled with sentinel bytes.
fn sentinel_dst(device: &wgpu::Device, size: u64) -> wgpu::Buffer {
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("dst"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: true,
    });
    buffer
        .get_mapped_range_mut(..)
        .unwrap()
        .slice(..)
        .fill(SENTINEL);
    buffer.unmap();
    buffer
}

fn read_all(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Vec<u8> {
    buffer.map_async(wgpu::MapMode::Read, .., |r| r.unwrap());
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let bytes = buffer.get_mapped_range(..).unwrap().to_vec();
    buffer.unmap();
    bytes
}

/// One upload of random `T`s with push / extend / extend_from_slice mixed.
/// Returns the Upload and its bytes, or None if the writer was dropped.
fn one_upload<'a, T: Pod>(
    frame: &mut UploadFrame<'a>,
    rng: &mut SmallRng,
    max_elems: usize,
) -> Option<(Upload<'a>, Vec<u8>)> {
    let size = size_of::<T>();
    let mut writer = frame.upload::<T>().unwrap();
    let n = rng.random_range(0..=max_elems);
    let mut bytes = Vec::new();
    let mut values: Vec<T> = Vec::new();
    for _ in 0..n {
        let raw: Vec<u8> = (0..size).map(|_| rng.random()).collect();
        values.push(bytemuck::pod_read_unaligned(&raw));
    }
    let mut i = 0;
    while i < n {
        let k = rng.random_range(1..=(n - i).min(17));
        let part = &values[i..i + k];
        match rng.random_range(0..4) {
            0 => part.iter().for_each(|v| writer.push(*v).unwrap()),
            1 => writer.extend(part.iter().copied()).unwrap(),
            // no exact size hint
            2 => writer
                .extend(part.iter().copied().filter(|_| true))
                .unwrap(),
            _ => writer.extend_from_slice(part).unwrap(),
        }
        bytes.extend_from_slice(bytemuck::cast_slice(part));
        i += k;
        assert_eq!(writer.len(), i, "len mid-write");
    }
    if rng.random_bool(0.1) {
        drop(writer); // never copied
        return None;
    }
    let upload = writer.finish();
    if upload.segment_count() > 1 {
        SPANNING.fetch_add(1, Ordering::Relaxed);
    }
    assert_eq!(upload.len(), n);
    assert_eq!(upload.bytes(), bytes.len() as u64);
    assert_eq!(upload.copy_size(), (bytes.len() as u64).next_multiple_of(4));
    Some((upload, bytes))
}

fn random_upload<'a>(
    frame: &mut UploadFrame<'a>,
    rng: &mut SmallRng,
    max_elems: usize,
) -> Option<(Upload<'a>, Vec<u8>)> {
    macro_rules! pick {
        ($($t:ty),*) => {{
            let all = [$(size_of::<$t>()),*];
            let mut k = rng.random_range(0..all.len());
            $(
                if k == 0 {
                    return one_upload::<$t>(frame, rng, max_elems);
                }
                k -= 1;
            )*
            let _ = k;
            unreachable!()
        }};
    }
    pick!(
        [u8; 1], [u8; 2], [u8; 3], [u8; 4], [u8; 5], [u8; 6], [u8; 7], [u8; 8], [u8; 9], [u8; 12],
        [u8; 13], [u8; 16], [u8; 17], [u8; 20], [u8; 24], [u8; 31], [u8; 32], [u8; 33], [u8; 48],
        [u8; 63], [u8; 64], [u16; 3], [u16; 5], [u16; 6], [u16; 11], [u16; 24], u32, [u32; 3],
        [u32; 5], [u32; 7], [u32; 12], [u32; 16], u64, [u64; 3], [u64; 6], [u64; 8], [f32; 4]
    )
}

struct Pending {
    dst: wgpu::Buffer,
    expected: Vec<u8>,
    frame: u64,
}

fn differential(seed: u64, chunk_size: u64, fif: usize, frames: usize, release_after: u32) {
    let (device, queue) = device();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            chunk_size,
            frames_in_flight: fif,
            release_after,
            budget_policy: BudgetPolicy::Count,
            ..UploadConfig::default()
        },
    );
    let mut pending: Vec<Pending> = Vec::new();
    for f in 0..frames {
        // Frame sizes: random, oscillating around a power of two, or big bursts.
        let (uploads, max_elems) = match (f / 37) % 3 {
            0 => (rng.random_range(0..10), rng.random_range(0..40)),
            1 => (if f % 2 == 0 { 4 } else { 5 }, 16),
            _ => (rng.random_range(0..4), if f % 11 == 0 { 400 } else { 8 }),
        };
        let mut frame = arena.begin_frame().unwrap();
        let number = frame.number();
        let mut made = Vec::new();
        for _ in 0..uploads {
            if let Some(u) = random_upload(&mut frame, &mut rng, max_elems) {
                made.push(u);
            }
        }
        let total: u64 = made.iter().map(|(_, b)| b.len() as u64 + 12).sum::<u64>() + 16;
        let dst = sentinel_dst(&device, total.next_multiple_of(4));
        let mut expected = vec![SENTINEL; total.next_multiple_of(4) as usize];
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut offset = 4 * rng.random_range(0..3u64);
        for (upload, bytes) in &made {
            frame.copy_to(upload, &dst, offset).unwrap();
            let o = offset as usize;
            expected[o..o + bytes.len()].copy_from_slice(bytes);
            let padded = bytes.len().next_multiple_of(4);
            expected[o + bytes.len()..o + padded].fill(0);
            offset += padded as u64 + 4 * rng.random_range(0..3u64);
        }
        if rng.random_bool(0.05) {
            drop(encoder);
            frame.discard();
            continue;
        }
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
        pending.push(Pending {
            dst,
            expected,
            frame: number,
        });
        // Several frames pending before any read back.
        if pending.len() > fif + 1 || f + 1 == frames {
            for p in pending.drain(..) {
                let got = read_all(&device, &p.dst);
                assert!(
                    got == p.expected,
                    "seed {seed} chunk {chunk_size} fif {fif}: frame {} differs at byte {:?}",
                    p.frame,
                    got.iter().zip(&p.expected).position(|(a, b)| a != b)
                );
            }
        }
    }
}

#[test]
fn random_frames_land_byte_for_byte_as_one_copy_would() {
    let cases: u64 = std::env::var("TICKARENA_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    for seed in 0..cases {
        let chunk = [256, 260, 300, 512][seed as usize % 4];
        let fif = 1 + (seed as usize % 3);
        differential(
            seed,
            chunk,
            fif,
            160,
            [4, 300, 1, 16][(seed / 4) as usize % 4],
        );
    }
    let spanning = SPANNING.load(Ordering::Relaxed);
    assert!(spanning > 20, "the test must make uploads span chunks");
}

/// The differential run on a device whose largest buffer is 1024 bytes:
/// frames of up to ~10 KiB span chunks capped at 1024 (one destination
/// per upload, as a destination may not pass the limit either).
#[test]
fn random_frames_past_the_largest_buffer_land_byte_for_byte() {
    let (device, queue) = device_with_max_buffer(1024);
    for seed in 0..8u64 {
        let mut rng = SmallRng::seed_from_u64(1000 + seed);
        let fif = 1 + seed as usize % 3;
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                chunk_size: 256,
                frames_in_flight: fif,
                release_after: [1, 5, 300][seed as usize % 3],
                ..UploadConfig::default()
            },
        );
        let mut pending: Vec<(wgpu::Buffer, Vec<u8>)> = Vec::new();
        for f in 0..120 {
            let uploads = if f % 3 == 0 {
                rng.random_range(8..16)
            } else {
                rng.random_range(0..3)
            };
            let mut frame = arena.begin_frame().unwrap();
            let mut made = Vec::new();
            for _ in 0..uploads {
                if let Some(u) = random_upload(&mut frame, &mut rng, 12) {
                    made.push(u);
                }
            }
            let mut encoder = device.create_command_encoder(&Default::default());
            let mut here = Vec::new();
            for (upload, bytes) in &made {
                let size = (bytes.len() as u64 + 8).next_multiple_of(4);
                let dst = sentinel_dst(&device, size);
                frame.copy_to(upload, &dst, 4).unwrap();
                let mut expected = vec![SENTINEL; size as usize];
                expected[4..4 + bytes.len()].copy_from_slice(bytes);
                expected[4 + bytes.len()..4 + bytes.len().next_multiple_of(4)].fill(0);
                here.push((dst, expected));
            }
            frame.finish(&mut encoder);
            queue.submit([encoder.finish()]);
            pending.extend(here);
            if f % (fif + 1) == 0 {
                for (dst, expected) in pending.drain(..) {
                    assert!(read_all(&device, &dst) == expected, "seed {seed} frame {f}");
                }
            }
        }
        for (dst, expected) in pending.drain(..) {
            assert!(read_all(&device, &dst) == expected, "seed {seed} end");
        }
    }
}
