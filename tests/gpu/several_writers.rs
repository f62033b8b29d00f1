//! Several uploads open at once in one frame (a renderer writes instances,
//! debug lines and indices in one pass over its objects): each lands
//! where its copy says, across chunk ends and in frames that grow and
//! shrink, with one writer pushing from inside another's `extend`; and
//! steady frames of such a renderer make no buffer and no allocation of
//! the arena's own.

use tickarena::gpu::{UploadArena, UploadConfig};

use super::{Instance, config, count, device, instance, read_back, readable};

/// One frame of `n` objects: instances for all, a line (two points) for
/// every third, an index for each; copied, submitted and read back.
/// Returns what landed for each, and what should have.
#[allow(clippy::type_complexity)]
fn a_frame_of_three_uploads(
    arena: &mut UploadArena,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    dst: &[wgpu::Buffer; 3],
    n: u32,
    tick: u32,
) -> [(Vec<u8>, Vec<u8>); 3] {
    let mut want: [Vec<u8>; 3] = Default::default();
    let mut encoder = device.create_command_encoder(&Default::default());
    let frame = arena.begin_frame().unwrap();
    let mut instances = frame.upload::<Instance>().unwrap();
    let mut lines = frame.upload::<[f32; 3]>().unwrap();
    let mut indices = frame.upload::<u16>().unwrap();
    // The lines and indices are written from inside the instances'
    // `extend`, as the renderer's one pass over its objects writes them.
    instances
        .extend((0..n).map(|i| {
            if i % 3 == 0 {
                let line = [[i as f32, 0.0, 1.0], [tick as f32, i as f32, 2.0]];
                lines.extend(line).unwrap();
                want[1].extend_from_slice(bytemuck::cast_slice(&line));
            }
            let index = (i ^ tick) as u16;
            indices.push(index).unwrap();
            want[2].extend_from_slice(&index.to_le_bytes());
            instance(i + tick)
        }))
        .unwrap();
    want[0] = (0..n)
        .flat_map(|i| bytemuck::bytes_of(&instance(i + tick)).to_vec())
        .collect();
    assert_eq!(
        (instances.len(), lines.len(), indices.len()),
        (n as usize, n.div_ceil(3) as usize * 2, n as usize)
    );
    let uploads = [instances.finish(), lines.finish(), indices.finish()];
    let mut frame = frame;
    for (upload, dst) in uploads.iter().zip(dst) {
        frame.copy_to(upload, dst, 0).unwrap();
    }
    frame.finish(&mut encoder);
    queue.submit([encoder.finish()]);
    let mut out: [(Vec<u8>, Vec<u8>); 3] = Default::default();
    for (i, (dst, want)) in dst.iter().zip(want).enumerate() {
        let len = want.len().next_multiple_of(4) as u64;
        let mut got = read_back(device, dst, len.max(4));
        got.truncate(want.len());
        out[i] = (got, want);
    }
    out
}

#[test]
fn uploads_open_at_once_land_where_their_copies_say() {
    let (device, queue) = device();
    // Small chunks: the three uploads' rooms cross chunk ends often, and
    // the frames grow, burst and shrink.
    let mut arena = UploadArena::new(&device, config(4096));
    let dst = [
        readable(&device, 48 * 3000),
        readable(&device, 24 * 1000),
        readable(&device, 2 * 3000),
    ];
    for (tick, n) in [0u32, 1, 2, 3, 10, 100, 1000, 3000, 7, 2999, 500, 0, 64]
        .into_iter()
        .enumerate()
    {
        for (i, (got, want)) in
            a_frame_of_three_uploads(&mut arena, &device, &queue, &dst, n, tick as u32)
                .into_iter()
                .enumerate()
        {
            assert!(
                got == want,
                "upload {i} of frame {tick} ({n} objects) landed otherwise"
            );
        }
    }
}

/// After a few frames, a renderer that writes its uploads at once makes
/// no buffer a frame, keeps one chunk per frame in flight, and the
/// arena's calls allocate no more than a frame of one upload did.
#[test]
fn steady_frames_of_uploads_open_at_once_make_no_buffers() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            frames_in_flight: 2,
            ..config(64 << 10)
        },
    );
    let dst = [
        readable(&device, 48 * 2000),
        readable(&device, 24 * 700),
        readable(&device, 2 * 2000),
    ];
    for tick in 0..8 {
        a_frame_of_three_uploads(&mut arena, &device, &queue, &dst, 2000, tick);
    }
    let created = arena.stats().buffers_created;
    let chunks = arena.stats().chunks;
    let mut allocations = Vec::new();
    for tick in 8..40 {
        let mut encoder = device.create_command_encoder(&Default::default());
        let ((), made) = count(|| {
            let frame = arena.begin_frame().unwrap();
            let mut instances = frame.upload::<Instance>().unwrap();
            let mut lines = frame.upload::<[f32; 3]>().unwrap();
            instances
                .extend((0..2000).map(|i| {
                    if i % 3 == 0 {
                        lines.push([i as f32; 3]).unwrap();
                    }
                    instance(i + tick)
                }))
                .unwrap();
            let (instances, lines) = (instances.finish(), lines.finish());
            let mut frame = frame;
            frame.copy_to(&instances, &dst[0], 0).unwrap();
            frame.copy_to(&lines, &dst[1], 0).unwrap();
            frame.finish(&mut encoder);
        });
        allocations.push(made);
        queue.submit([encoder.finish()]);
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    }
    let stats = arena.stats();
    assert_eq!(
        stats.buffers_created, created,
        "no buffer in a steady frame"
    );
    assert_eq!(stats.chunks, chunks);
    assert!(
        stats.chunks <= 2,
        "one chunk per frame in flight: {stats:?}"
    );
    // wgpu allocates in the calls the arena makes (a view per room, the
    // map callbacks, the copy commands): bounded, and the same each
    // frame once steady.
    let most = allocations.iter().copied().max().unwrap();
    let least = allocations.iter().copied().min().unwrap();
    eprintln!("allocations per steady frame of two uploads at once: {least}..={most}");
    assert!(most - least <= 2, "{allocations:?}");
}
