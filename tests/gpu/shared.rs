//! `SharedUploadArena`: a frame opened by one "system", written by
//! several at once on their own threads (each into a `GpuVec` of its own,
//! bursts and empty frames among them), and closed by a last one on one
//! encoder. After every frame each buffer is read back and compared with
//! a plain `Vec` of what its system wrote, and the frame's record with
//! the sum of the uploads' bytes.

use tickarena::gpu::{GpuVec, SharedUploadArena, UploadArena, UploadError};

use super::{Instance, config, device, instance, read_back};

/// A system's values for `frame`: how many depends on the system and the
/// frame (none on some frames, a burst on every 7th).
fn values(system: u32, frame: u32) -> Vec<u32> {
    let count = match (frame + system) % 7 {
        0 => 5_000 + 997 * system,
        3 if system == 1 => 0,
        n => 13 * n + system * 40,
    };
    (0..count)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ (frame << 16) ^ system)
        .collect()
}

fn readable<T: bytemuck::Pod>(label: &'static str) -> GpuVec<T> {
    GpuVec::new(label, wgpu::BufferUsages::MAP_READ).release_after(8)
}

/// `vec`'s buffer, its `len` values read back.
fn read<T: bytemuck::Pod>(device: &wgpu::Device, vec: &GpuVec<T>) -> Vec<T> {
    let bytes = size_of::<T>() as u64 * vec.len() as u64;
    let Some(buffer) = vec.buffer() else {
        return Vec::new();
    };
    if bytes == 0 {
        return Vec::new();
    }
    bytemuck::pod_collect_to_vec(&read_back(device, buffer, bytes.next_multiple_of(4)))
}

#[test]
fn systems_on_several_threads_write_one_frame_and_every_copy_lands() {
    let (device, queue) = device();
    let mut uploads = SharedUploadArena::new(UploadArena::new(&device, config(4096)));
    let mut words: Vec<GpuVec<u32>> = (0..3).map(|_| readable("words")).collect();
    let mut instances = readable::<Instance>("instances");
    for frame in 0..30u32 {
        let number = uploads.begin_frame().unwrap();
        assert_eq!(number, u64::from(frame) + 1);
        std::thread::scope(|s| {
            let uploads = &uploads;
            for (system, vec) in words.iter_mut().enumerate() {
                s.spawn(move || {
                    let mut handle = uploads.frame().unwrap();
                    // One system writes from an iterator, the others
                    // from slices.
                    let values = values(system as u32, frame);
                    if system == 0 {
                        vec.write(&mut handle, values.iter().copied()).unwrap();
                    } else {
                        vec.write_slice(&mut handle, &values).unwrap();
                    }
                });
            }
            let instances = &mut instances;
            s.spawn(move || {
                let mut handle = uploads.frame().unwrap();
                let count = if frame % 5 == 4 { 3_000 } else { 100 + frame };
                instances
                    .write(&mut handle, (0..count).map(instance))
                    .unwrap();
            });
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        let record = uploads.finish(&mut encoder).unwrap();
        uploads.submitted(queue.submit([encoder.finish()]));

        // The ledger: what each system wrote, and its bytes.
        let mut bytes = 0;
        for (system, vec) in words.iter().enumerate() {
            let want = values(system as u32, frame);
            bytes += want.len() * 4;
            assert!(
                read(&device, vec) == want,
                "frame {frame}: system {system}'s {} words landed otherwise",
                want.len()
            );
        }
        let count = if frame % 5 == 4 { 3_000 } else { 100 + frame };
        let want: Vec<Instance> = (0..count).map(instance).collect();
        bytes += want.len() * size_of::<Instance>();
        assert!(
            read(&device, &instances) == want,
            "frame {frame}: instances"
        );
        assert_eq!(record.arena_bytes, bytes, "frame {frame}'s record");
    }
}

#[test]
fn steady_frames_of_several_systems_make_no_buffer() {
    let (device, queue) = device();
    let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    let (mut a, mut b) = (readable::<u32>("a"), readable::<[f32; 4]>("b"));
    let run = |uploads: &mut SharedUploadArena, a: &mut GpuVec<u32>, b: &mut GpuVec<[f32; 4]>| {
        uploads.begin_frame().unwrap();
        std::thread::scope(|s| {
            let shared = &*uploads;
            s.spawn(move || a.write(&mut shared.frame().unwrap(), 0..10_000).unwrap());
            s.spawn(move || {
                b.write_slice(&mut shared.frame().unwrap(), &[[1.0; 4]; 4_000])
                    .unwrap()
            });
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        uploads.finish(&mut encoder).unwrap();
        uploads.submitted(queue.submit([encoder.finish()]));
    };
    for _ in 0..10 {
        run(&mut uploads, &mut a, &mut b);
    }
    let (staging, made) = (
        uploads.stats().buffers_created,
        a.buffers_made() + b.buffers_made(),
    );
    for _ in 0..20 {
        run(&mut uploads, &mut a, &mut b);
    }
    assert_eq!(
        uploads.stats().buffers_created,
        staging,
        "staging chunks made in steady frames"
    );
    assert_eq!(
        a.buffers_made() + b.buffers_made(),
        made,
        "destinations made in steady frames"
    );
}

#[test]
fn a_frame_with_nothing_written_breaks_nothing() {
    let (device, queue) = device();
    let mut uploads = SharedUploadArena::new(UploadArena::new(&device, config(1024)));
    let mut lines = readable::<u32>("lines");
    for frame in 0..6u32 {
        uploads.begin_frame().unwrap();
        if frame % 2 == 0 {
            // Odd frames: the system has nothing to draw and writes nothing.
            lines
                .write(&mut uploads.frame().unwrap(), 0..frame + 1)
                .unwrap();
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        let record = uploads.finish(&mut encoder).unwrap();
        uploads.submitted(queue.submit([encoder.finish()]));
        let last = frame - frame % 2;
        assert_eq!(read(&device, &lines), (0..last + 1).collect::<Vec<_>>());
        assert_eq!(
            record.arena_bytes,
            if frame % 2 == 0 {
                4 * (frame as usize + 1)
            } else {
                0
            }
        );
    }
}

#[test]
fn what_the_borrow_checker_cannot_follow_is_refused_at_run_time() {
    let (device, queue) = device();
    let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    let mut other = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    let mut encoder = device.create_command_encoder(&Default::default());
    // No frame open: no handle, no finish.
    assert_eq!(uploads.frame().err(), Some(UploadError::NoFrameOpen));
    assert_eq!(
        uploads.finish(&mut encoder).err(),
        Some(UploadError::NoFrameOpen)
    );
    assert!(!uploads.discard());

    // An upload of another arena's frame.
    uploads.begin_frame().unwrap();
    other.begin_frame().unwrap();
    let dst = super::readable(&device, 16);
    {
        let theirs = other.frame().unwrap().upload_slice(&[1u32; 4]).unwrap();
        let mut ours = uploads.frame().unwrap();
        assert_eq!(
            ours.copy_to(&theirs, &dst, 0),
            Err(UploadError::ForeignUpload)
        );
    }

    // A frame left open (the closing system did not run) is discarded
    // by the next begin, reported once; the arena goes on.
    assert_eq!(
        uploads.begin_frame(),
        Err(UploadError::NotSubmitted { frame: 1 })
    );
    assert_eq!(uploads.begin_frame(), Ok(2));
    {
        let mut frame = uploads.frame().unwrap();
        let upload = frame.upload_slice(&[7u32; 4]).unwrap();
        frame.copy_to(&upload, &dst, 0).unwrap();
    }
    uploads.finish(&mut encoder).unwrap();
    uploads.submitted(queue.submit([encoder.finish()]));
    assert_eq!(
        read_back(&device, &dst, 16),
        bytemuck::cast_slice::<u32, u8>(&[7; 4])
    );

    // The arena's own begin_frame takes the slot of an open shared frame
    // (one frame in flight): the shared frame is gone, and says so.
    let config = tickarena::gpu::UploadConfig {
        frames_in_flight: 1,
        ..Default::default()
    };
    let mut uploads = SharedUploadArena::new(UploadArena::new(&device, config));
    uploads.begin_frame().unwrap();
    uploads.arena_mut().begin_frame().unwrap().discard();
    assert_eq!(uploads.frame().err(), Some(UploadError::NoFrameOpen));
    let mut encoder = device.create_command_encoder(&Default::default());
    assert_eq!(
        uploads.finish(&mut encoder).err(),
        Some(UploadError::NoFrameOpen)
    );
    assert_eq!(uploads.begin_frame(), Ok(3));
    other.discard();

    // With two frames in flight the arena's own frame takes the other
    // slot: the shared frame is overtaken all the same, and reported.
    let config = tickarena::gpu::UploadConfig {
        frames_in_flight: 2,
        ..Default::default()
    };
    let mut uploads = SharedUploadArena::new(UploadArena::new(&device, config));
    uploads.begin_frame().unwrap();
    let _ = uploads.frame().unwrap().upload_slice(&[1u32; 4]).unwrap();
    uploads.arena_mut().begin_frame().unwrap().discard();
    assert!(!uploads.is_open());
    assert_eq!(uploads.frame().err(), Some(UploadError::NoFrameOpen));
    assert_eq!(
        uploads.begin_frame(),
        Err(UploadError::NotSubmitted { frame: 1 })
    );
    assert_eq!(uploads.begin_frame(), Ok(3));
    {
        let mut frame = uploads.frame().unwrap();
        let upload = frame.upload_slice(&[9u32; 4]).unwrap();
        frame.copy_to(&upload, &dst, 0).unwrap();
    }
    let mut encoder = device.create_command_encoder(&Default::default());
    assert_eq!(uploads.finish(&mut encoder).unwrap().tick, 3);
    uploads.submitted(queue.submit([encoder.finish()]));
    assert_eq!(
        read_back(&device, &dst, 16),
        bytemuck::cast_slice::<u32, u8>(&[9; 4])
    );
    assert_eq!(
        uploads
            .arena_mut()
            .history()
            .iter()
            .map(|r| r.tick)
            .collect::<Vec<_>>(),
        [3],
        "the overtaken frame reached no history"
    );
}

/// A function that takes any frame, called with a frame behind a
/// reference or a box, as `GrowingBuffer::copy_from` was called before it
/// took `impl OpenFrame`.
#[test]
fn frames_behind_references_and_boxes_are_frames() {
    let (device, _queue) = device();
    let mut arena = UploadArena::new(&device, Default::default());
    let mut vec = readable::<u32>("v");
    let mut frame = arena.begin_frame().unwrap();
    let by_ref = &mut frame;
    vec.write(by_ref, 0..3).unwrap();
    let mut boxed = Box::new(frame);
    vec.write(&mut boxed, 0..5).unwrap();
    assert_eq!(vec.len(), 5);
}

#[test]
fn the_shared_arena_is_a_resource_any_thread_may_hold() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SharedUploadArena>();
    send_sync::<GpuVec<Instance>>();
}
