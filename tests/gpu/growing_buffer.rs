//! `GrowingBuffer`: a destination that grows with the uploads copied into
//! it and shrinks after a window of smaller ones; what it holds is read
//! back after every frame and compared with what was written.

use tickarena::gpu::{GrowingBuffer, UploadArena, UploadError};

use super::{config, device, device_with_max_buffer, read_back};

/// A frame of `count` words from `seed`, copied into `dst`; read back.
fn a_frame(
    arena: &mut UploadArena,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    dst: &mut GrowingBuffer,
    count: u32,
    seed: u32,
) -> (bool, Vec<u32>) {
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut frame = arena.begin_frame().unwrap();
    let mut writer = frame.upload::<u32>().unwrap();
    writer
        .extend((0..count).map(|i| i.wrapping_mul(2654435761) ^ seed))
        .unwrap();
    let upload = writer.finish();
    let made = dst.copy_from(&mut frame, &upload).unwrap();
    frame.finish(&mut encoder);
    queue.submit([encoder.finish()]);
    let bytes = read_back(device, dst.buffer().unwrap(), u64::from(count.max(1)) * 4);
    let mut words: Vec<u32> = bytemuck::pod_collect_to_vec(&bytes);
    words.truncate(count as usize);
    (made, words)
}

#[test]
fn a_growing_buffer_holds_every_frame_as_it_grows_and_shrinks() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(4096));
    let mut dst = GrowingBuffer::new("readback", wgpu::BufferUsages::MAP_READ).release_after(10);
    let mut capacities = Vec::new();
    let mut counts: Vec<u32> = vec![0, 1, 63, 64, 65, 1000, 30_000, 5, 29_999];
    // Then a window of small frames: it shrinks at the window's end.
    counts.extend([100; 25]);
    for (seed, count) in counts.iter().copied().enumerate() {
        let (made, words) = a_frame(&mut arena, &device, &queue, &mut dst, count, seed as u32);
        let want: Vec<u32> = (0..count)
            .map(|i| i.wrapping_mul(2654435761) ^ seed as u32)
            .collect();
        assert!(
            words == want,
            "frame {seed} of {count} words landed otherwise"
        );
        assert_eq!(dst.len::<u32>(), count as usize);
        assert!(dst.capacity() >= u64::from(count) * 4);
        if made {
            capacities.push(dst.capacity());
        }
    }
    // Made at 256 bytes; grown for 65 words (512), 1000 (4096) and 30 000
    // (131072); shrunk once a window of 10 copies needed no more than 400
    // bytes.
    assert_eq!(capacities, [256, 512, 4096, 131_072, 512]);
    assert_eq!(dst.buffers_made(), 5);
}

#[test]
fn a_growing_buffer_that_never_shrinks_keeps_its_largest() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(4096));
    let mut dst = GrowingBuffer::new("readback", wgpu::BufferUsages::MAP_READ).release_after(0);
    a_frame(&mut arena, &device, &queue, &mut dst, 10_000, 1);
    for seed in 0..30 {
        let (made, _) = a_frame(&mut arena, &device, &queue, &mut dst, 3, seed);
        assert!(!made);
    }
    assert_eq!((dst.capacity(), dst.buffers_made()), (65_536, 1));
}

#[test]
fn an_upload_past_the_largest_buffer_is_an_error() {
    let (device, _queue) = device_with_max_buffer(1 << 16);
    let mut arena = UploadArena::new(&device, config(4096));
    let mut dst = GrowingBuffer::new("too small a device", wgpu::BufferUsages::VERTEX);
    let mut frame = arena.begin_frame().unwrap();
    let upload = frame.upload_slice(&[0u32; (1 << 14) + 1]).unwrap();
    assert_eq!(
        dst.copy_from(&mut frame, &upload),
        Err(UploadError::BadDestination {
            offset: 0,
            bytes: (1 << 16) + 4,
            buffer_size: 1 << 16
        })
    );
    assert!(dst.buffer().is_none());
    // One that fits the device's largest buffer exactly is made that large.
    let upload = frame.upload_slice(&[0u32; 1 << 14]).unwrap();
    assert!(dst.copy_from(&mut frame, &upload).unwrap());
    assert_eq!(dst.capacity(), 1 << 16);
}

/// A copy on a frame of another arena (an engine's new arena on a new
/// device, the old one lost) makes a new buffer, on that arena's device,
/// whatever the old buffer's size.
#[test]
fn a_frame_of_another_arena_makes_a_new_buffer_on_its_device() {
    let (device, queue) = super::device();
    let (device_2, queue_2) = super::device();
    let mut first = UploadArena::new(&device, config(4096));
    let mut second = UploadArena::new(&device_2, config(4096));
    let mut dst = GrowingBuffer::new("readback", wgpu::BufferUsages::MAP_READ);
    let (made, _) = a_frame(&mut first, &device, &queue, &mut dst, 1000, 1);
    assert!(made);
    let (made, words) = a_frame(&mut second, &device_2, &queue_2, &mut dst, 10, 2);
    assert!(made, "the buffer was the first arena's");
    assert_eq!(
        words,
        (0..10u32)
            .map(|i| i.wrapping_mul(2654435761) ^ 2)
            .collect::<Vec<_>>()
    );
    let (made, _) = a_frame(&mut second, &device_2, &queue_2, &mut dst, 10, 3);
    assert!(!made, "now the second arena's");
    assert_eq!(dst.buffers_made(), 2);
}
