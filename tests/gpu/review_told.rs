//! Adversarial review of `UploadArena::submitted` and of `extend`
//! (cd83c75): random mixes of told / untold frames, several frames per
//! encoder, dropped encoders, discards, growing buffers, texture copies;
//! every submitted frame's data read back and compared.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tickarena::gpu::{GrowingBuffer, UploadArena, UploadConfig, UploadError};

use super::writers_at_once::Rng;
use super::{device, read_back, readable};

fn words(device: &wgpu::Device, buffer: &wgpu::Buffer, len: usize) -> Vec<u32> {
    bytemuck::pod_collect_to_vec(&read_back(device, buffer, (len * 4) as u64))
}

/// What a destination must hold once its encoder is submitted.
enum Want {
    Buffer(wgpu::Buffer, Vec<u32>),
    /// A growing buffer's contents, copied to a readable buffer on the
    /// same encoder after the frame's finish.
    Growing(wgpu::Buffer, Vec<u32>),
    Texture(wgpu::Buffer, Vec<u32>),
}

static CHECKED: AtomicUsize = AtomicUsize::new(0);

fn check(device: &wgpu::Device, wants: Vec<Want>, what: &str) {
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    for want in wants {
        let (buffer, expected) = match &want {
            Want::Buffer(b, e) | Want::Growing(b, e) | Want::Texture(b, e) => (b, e),
        };
        let got = words(device, buffer, expected.len());
        CHECKED.fetch_add(1, Ordering::Relaxed);
        assert!(got == *expected, "{what}: {} words differ", expected.len());
    }
}

/// Random sequences, within what `submitted`'s doc allows: encoders
/// submitted in the order their frames were finished, `submitted` called
/// only once every encoder holding a frame since the last call was
/// submitted or dropped, with the index of the last submit, an older one,
/// an empty submit's, or another device's; frames also left untold.
#[test]
fn random_told_and_untold_frames_land() {
    let (device, queue) = device();
    let (other, other_queue) = tickarena::gpu::test_device().unwrap();
    let other_index = {
        for _ in 0..50 {
            other_queue.submit([other.create_command_encoder(&Default::default()).finish()]);
        }
        other_queue.submit([])
    };
    let texture_size = wgpu::Extent3d {
        width: 64,
        height: 4,
        depth_or_array_layers: 1,
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: texture_size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Uint,
        usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let mut errors_seen = std::collections::BTreeMap::<String, usize>::new();
    let mut total_steps = 0usize;
    for frames_in_flight in [1usize, 2, 3] {
        for seed in 1..=12u64 {
            let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) + frames_in_flight as u64);
            let mut arena = UploadArena::new(
                &device,
                UploadConfig {
                    chunk_size: 1024,
                    frames_in_flight,
                    ..UploadConfig::default()
                },
            );
            let mut growing = GrowingBuffer::new(
                "growing",
                wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            );
            // Encoders not submitted yet, in order, each with its wants.
            let mut open: Vec<(wgpu::CommandEncoder, Vec<Want>)> = Vec::new();
            // Submitted, not checked yet.
            let mut landed: Vec<Want> = Vec::new();
            let mut last_index: Option<wgpu::SubmissionIndex> = None;
            let mut older_index: Option<wgpu::SubmissionIndex>;
            let mut word = (seed as u32) << 20;
            for step in 0..120 {
                total_steps += 1;
                let what = format!("frames {frames_in_flight}, seed {seed}, step {step}");
                match rng.below(10) {
                    0..=4 => {
                        // A frame, on a new encoder or on the last open one.
                        let frame = if open.is_empty() {
                            arena.begin_frame()
                        } else {
                            // An encoder holds an unsubmitted frame: its
                            // slot may never come back; don't wait for it.
                            arena.try_begin_frame()
                        };
                        let mut frame = match frame {
                            Ok(frame) => frame,
                            Err(e) => {
                                assert!(
                                    matches!(
                                        e,
                                        UploadError::AllInFlight { .. }
                                            | UploadError::NotSubmitted { .. }
                                    ),
                                    "{what}: {e:?}"
                                );
                                *errors_seen.entry(format!("{e:?}")).or_default() += 1;
                                continue;
                            }
                        };
                        let mut wants = Vec::new();
                        let mut grown = None;
                        for _ in 0..1 + rng.below(3) {
                            let big = rng.below(4) == 0;
                            let len = 1 + rng.below(if big { 700 } else { 40 });
                            let data: Vec<u32> = (0..len as u32).map(|i| word + i).collect();
                            word = word.wrapping_add(len as u32 + 1);
                            let upload = match rng.below(3) {
                                0 => frame.upload_slice(&data).unwrap(),
                                1 => {
                                    let mut w = frame.upload::<u32>().unwrap();
                                    // Filtered: the next room gets the value
                                    // that did not fit.
                                    let mut i = 0usize;
                                    w.extend(data.iter().copied().filter(|_| {
                                        i += 1;
                                        true
                                    }))
                                    .unwrap();
                                    w.finish()
                                }
                                _ => {
                                    let mut w = frame.upload::<u32>().unwrap();
                                    w.extend(data.iter().copied()).unwrap();
                                    w.finish()
                                }
                            };
                            match rng.below(6) {
                                0 if grown.is_none() => {
                                    growing.copy_from(&mut frame, &upload).unwrap();
                                    grown = Some(data);
                                }
                                // One texture copy a frame: the texture is
                                // shared, and each frame's readback is
                                // recorded after its finish.
                                1 if len >= 256
                                    && !wants.iter().any(|w| matches!(w, Want::Texture(..))) =>
                                {
                                    let rows = (len / 64).min(4) as u32;
                                    let size = wgpu::Extent3d {
                                        width: 64,
                                        height: rows,
                                        depth_or_array_layers: 1,
                                    };
                                    match frame.copy_to_texture(
                                        &upload,
                                        texture.as_image_copy(),
                                        256,
                                        size,
                                    ) {
                                        Ok(()) => {
                                            let out = readable(&device, 256 * rows as u64);
                                            wants.push(Want::Texture(
                                                out,
                                                data[..64 * rows as usize].to_vec(),
                                            ));
                                        }
                                        Err(UploadError::TextureCopy { .. }) => {}
                                        Err(e) => panic!("{what}: {e:?}"),
                                    }
                                }
                                _ => {
                                    let dst = readable(&device, (len * 4) as u64);
                                    frame.copy_to(&upload, &dst, 0).unwrap();
                                    wants.push(Want::Buffer(dst, data));
                                }
                            }
                        }
                        if rng.below(12) == 0 {
                            frame.discard();
                            continue;
                        }
                        let reuse = !open.is_empty() && rng.below(3) == 0;
                        if !reuse {
                            open.push((
                                device.create_command_encoder(&Default::default()),
                                Vec::new(),
                            ));
                        }
                        let (encoder, list) = open.last_mut().unwrap();
                        frame.finish(encoder);
                        // Later passes on the same encoder read what the
                        // frame's copies wrote.
                        for want in &wants {
                            if let Want::Texture(out, expected) = want {
                                let rows = (expected.len() / 64) as u32;
                                encoder.copy_texture_to_buffer(
                                    texture.as_image_copy(),
                                    wgpu::TexelCopyBufferInfo {
                                        buffer: out,
                                        layout: wgpu::TexelCopyBufferLayout {
                                            offset: 0,
                                            bytes_per_row: Some(256),
                                            rows_per_image: None,
                                        },
                                    },
                                    wgpu::Extent3d {
                                        width: 64,
                                        height: rows,
                                        depth_or_array_layers: 1,
                                    },
                                );
                            }
                        }
                        if let Some(data) = grown {
                            let out = readable(&device, (data.len() * 4) as u64);
                            encoder.copy_buffer_to_buffer(
                                growing.buffer().unwrap(),
                                0,
                                &out,
                                0,
                                (data.len() * 4) as u64,
                            );
                            wants.push(Want::Growing(out, data));
                        }
                        list.extend(wants);
                    }
                    5..=6 if !open.is_empty() => {
                        let (encoder, wants) = open.remove(0);
                        let index = queue.submit([encoder.finish()]);
                        landed.extend(wants);
                        older_index = last_index.replace(index.clone());
                        if open.is_empty() && rng.below(4) != 0 {
                            let told = match rng.below(8) {
                                0 => older_index.clone().unwrap_or(index),
                                1 => queue.submit([]),
                                2 => other_index.clone(),
                                _ => index,
                            };
                            arena.submitted(told.clone());
                            if rng.below(5) == 0 {
                                arena.submitted(told);
                            }
                        }
                    }
                    7 if !open.is_empty() && rng.below(2) == 0 => {
                        // An encoder dropped unsubmitted (its wants never land).
                        let i = rng.below(open.len());
                        drop(open.remove(i));
                    }
                    _ => {
                        if open.is_empty() {
                            check(&device, std::mem::take(&mut landed), &what);
                        }
                    }
                }
            }
            for (encoder, wants) in open.drain(..) {
                let index = queue.submit([encoder.finish()]);
                landed.extend(wants);
                last_index = Some(index);
            }
            if let Some(index) = last_index {
                arena.submitted(index);
            }
            check(
                &device,
                landed,
                &format!("frames {frames_in_flight}, seed {seed}, end"),
            );
            drop(arena);
        }
    }
    eprintln!(
        "errors seen (expected kinds): {errors_seen:?}, steps {total_steps}, destinations checked {}",
        CHECKED.load(Ordering::Relaxed)
    );
}

/// The arena dropped with frames handed to the GPU and not told, their
/// encoders submitted after the drop: the copies still land.
#[test]
fn arena_dropped_with_handed_chunks_then_submitted() {
    let (device, queue) = device();
    for frames_in_flight in [1usize, 2, 3] {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                chunk_size: 256,
                frames_in_flight,
                ..UploadConfig::default()
            },
        );
        // Told mode.
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = arena.begin_frame().unwrap();
        let _ = frame.upload_slice(&[0u32; 4]).unwrap();
        frame.finish(&mut encoder);
        arena.submitted(queue.submit([encoder.finish()]));
        let mut encoder = device.create_command_encoder(&Default::default());
        let mut outs = Vec::new();
        for tick in 0..frames_in_flight as u32 {
            let mut frame = arena.begin_frame().unwrap();
            let upload = frame.upload_slice(&[tick + 7; 100]).unwrap();
            let out = readable(&device, 400);
            frame.copy_to(&upload, &out, 0).unwrap();
            frame.finish(&mut encoder);
            outs.push((out, tick + 7));
        }
        drop(arena);
        queue.submit([encoder.finish()]);
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        for (out, word) in outs {
            assert_eq!(words(&device, &out, 100), [word; 100]);
        }
    }
}

/// Several frames finished on one encoder with frames_in_flight 1..=3,
/// the submissions told (more frames than slots, so a slot comes round
/// while its chunk is handed and unsubmitted: `AllInFlight`), then
/// submitted once and told: every finished frame's copy lands.
#[test]
fn more_frames_than_slots_on_one_encoder_when_told() {
    let (device, queue) = device();
    let mut all_in_flight = 0;
    for frames_in_flight in [1usize, 2, 3] {
        for per_submit in 1..=7u32 {
            let mut arena = UploadArena::new(
                &device,
                UploadConfig {
                    chunk_size: 256,
                    frames_in_flight,
                    ..UploadConfig::default()
                },
            );
            // Told once, so that the arena counts on being told.
            let mut encoder = device.create_command_encoder(&Default::default());
            let frame = arena.begin_frame().unwrap();
            let _ = frame.upload_slice(&[0u32; 4]).unwrap();
            frame.finish(&mut encoder);
            arena.submitted(queue.submit([encoder.finish()]));
            for round in 0..4u32 {
                let mut encoder = device.create_command_encoder(&Default::default());
                let mut outs = Vec::new();
                for k in 0..per_submit {
                    let word = round * 100 + k;
                    // More frames than slots: a slot comes round with its
                    // chunk handed, unsubmitted: let go, once; the arena then
                    // maps at the submit, and the slot after that is not back
                    // (AllInFlight, documented).
                    let mut frame = match arena.try_begin_frame() {
                        Ok(f) => f,
                        Err(UploadError::AllInFlight { .. }) => {
                            all_in_flight += 1;
                            continue;
                        }
                        Err(e) => panic!(
                            "fif {frames_in_flight} per {per_submit} round {round} k {k}: {e:?}"
                        ),
                    };
                    let upload = frame.upload_slice(&[word; 80]).unwrap();
                    let out = readable(&device, 320);
                    frame.copy_to(&upload, &out, 0).unwrap();
                    frame.finish(&mut encoder);
                    outs.push((out, word));
                }
                arena.submitted(queue.submit([encoder.finish()]));
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
                for (out, word) in outs {
                    assert_eq!(
                        words(&device, &out, 80),
                        [word; 80],
                        "fif {frames_in_flight} per {per_submit} round {round}"
                    );
                }
            }
        }
    }
    eprintln!("AllInFlight {all_in_flight} times");
}

/// `submitted` told an older index before the submit that carries the
/// frame (a renderer that tells the previous submit's index after
/// recording the next frame), under a program's own uncaptured-error
/// handler that logs (as engines install) and under wgpu's default one
/// (which panics on a validation error): the arena asks for the map only
/// at the next `begin_frame`, after that submit, so no submit fails and
/// every frame's data lands.
#[test]
fn an_older_index_told_before_the_submit_lands_every_frame() {
    for logging in [true, false] {
        let (device, queue) = device();
        let errors = Arc::new(AtomicUsize::new(0));
        if logging {
            let errors = errors.clone();
            device.on_uncaptured_error(Arc::new(move |_e: wgpu::Error| {
                errors.fetch_add(1, Ordering::Relaxed);
            }));
        }
        let mut arena = UploadArena::new(&device, UploadConfig::default());
        let mut previous = queue.submit([]);
        for word in 1..=6u32 {
            let out = readable(&device, 16);
            let mut frame = arena.begin_frame().unwrap();
            let upload = frame.upload_slice(&[word; 4]).unwrap();
            frame.copy_to(&upload, &out, 0).unwrap();
            let mut encoder = device.create_command_encoder(&Default::default());
            frame.finish(&mut encoder);
            // One frame early.
            arena.submitted(previous);
            previous = queue.submit([encoder.finish()]);
            assert_eq!(
                words(&device, &out, 4),
                [word; 4],
                "frame {word}, logging {logging}"
            );
        }
        assert_eq!(errors.load(Ordering::Relaxed), 0, "no validation error");
        let stats = arena.stats();
        assert_eq!(stats.buffers_created, 2, "no chunk let go: {stats:?}");
    }
}
