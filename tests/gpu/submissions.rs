//! `UploadArena::submitted` and `begin_frame`'s wait: wrong indices, the
//! frames in flight, an encoder never submitted beside a busy queue, and
//! a few paths near them (a forgotten frame).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tickarena::gpu::{UploadArena, UploadConfig, UploadError};

use super::{device, readable};

/// `buffer`'s words (its work submitted).
fn read_back(device: &wgpu::Device, buffer: &wgpu::Buffer) -> Vec<u32> {
    bytemuck::pod_collect_to_vec(&super::read_back(device, buffer, buffer.size()))
}

/// 30 frames with 1, 2 and 3 in flight, the GPU kept busy, each frame's
/// submission told as `told` makes it of the frame's own: every frame's
/// data lands.
fn frames_land_when_told(
    mut told: impl FnMut(&wgpu::Queue, wgpu::SubmissionIndex) -> wgpu::SubmissionIndex,
) {
    let (device, queue) = device();
    let busy = Busy::new(&device, 32 << 20);
    for frames in [1usize, 2, 3] {
        let mut arena = UploadArena::new(&device, config(frames));
        let outs: Vec<_> = (0..frames).map(|_| readable(&device, 16)).collect();
        for tick in 0..30u32 {
            let out = &outs[tick as usize % frames];
            let index = frame(&mut arena, &device, &queue, out, tick, Some(&busy)).unwrap();
            arena.submitted(told(&queue, index));
        }
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        for (i, out) in outs.iter().enumerate() {
            let last = (0..30u32)
                .rev()
                .find(|t| *t as usize % frames == i)
                .unwrap();
            assert_eq!(read_back(&device, out), [last; 4], "frames {frames}");
        }
        eprintln!("frames_in_flight {frames}: {:?}", arena.stats());
    }
}

fn config(frames_in_flight: usize) -> UploadConfig {
    UploadConfig {
        chunk_size: 4096,
        frames_in_flight,
        ..UploadConfig::default()
    }
}

/// A big GPU copy, to keep lavapipe busy (tens of ms).
struct Busy {
    src: wgpu::Buffer,
    dst: wgpu::Buffer,
}

impl Busy {
    fn new(device: &wgpu::Device, bytes: u64) -> Busy {
        let make = |usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("busy"),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        Busy {
            src: make(wgpu::BufferUsages::COPY_SRC),
            dst: make(wgpu::BufferUsages::COPY_DST),
        }
    }
    fn record(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.copy_buffer_to_buffer(&self.src, 0, &self.dst, 0, self.src.size());
    }
}

/// One frame: `word` x4 copied to `out`, finished on a new encoder (with
/// optional busy work after it), submitted; the submission index returned.
fn frame(
    arena: &mut UploadArena,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    out: &wgpu::Buffer,
    word: u32,
    busy: Option<&Busy>,
) -> Result<wgpu::SubmissionIndex, UploadError> {
    let mut frame = arena.begin_frame()?;
    let upload = frame.upload_slice(&[word; 4]).unwrap();
    frame.copy_to(&upload, out, 0).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    frame.finish(&mut encoder);
    if let Some(busy) = busy {
        busy.record(&mut encoder);
    }
    Ok(queue.submit([encoder.finish()]))
}

/// `submitted` given the index of another device's queue (a higher
/// number than this device ever returned): wgpu's wait says
/// `WrongSubmissionIndex`, and `settle` takes any poll error but
/// `Timeout` for a lost device, for good.
#[test]
fn an_index_of_another_device_does_not_make_the_arena_lost() {
    let (device, queue) = device();
    let (other, other_queue) = device_pair_other();
    let mut other_index = None;
    for _ in 0..20 {
        let encoder = other.create_command_encoder(&Default::default());
        other_index = Some(other_queue.submit([encoder.finish()]));
    }
    other.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let mut arena = UploadArena::new(&device, config(1));
    let out = readable(&device, 16);
    let _index = frame(&mut arena, &device, &queue, &out, 1, None).unwrap();
    arena.submitted(other_index.unwrap());
    let next = arena.begin_frame().map(|f| f.number());
    eprintln!("begin_frame after submitted(other device's index): {next:?}");
    let later = arena.begin_frame().map(|f| f.number());
    eprintln!("and the call after it: {later:?}");
    assert!(next.is_ok(), "{next:?}");
}

fn device_pair_other() -> (wgpu::Device, wgpu::Queue) {
    device()
}

/// A submission that failed validation (the program runs with its own
/// uncaptured-error handler, which logs) still returns an index, one past
/// the last successful submission. With one frame in flight the next
/// `begin_frame` waits on it: `WrongSubmissionIndex`, taken for a lost
/// device, forever.
#[test]
fn an_index_of_a_failed_submission_does_not_make_the_arena_lost() {
    let (device, queue) = device();
    let errors = Arc::new(AtomicUsize::new(0));
    {
        let errors = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            errors.fetch_add(1, Ordering::Relaxed);
            eprintln!(
                "(uncaptured, logged) {}",
                e.to_string().lines().next().unwrap_or("")
            );
        }));
    }
    let mut arena = UploadArena::new(&device, config(1));
    let out = readable(&device, 16);
    let not_copy_src = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("not COPY_SRC"),
        size: 16,
        usage: wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut frame_ = arena.begin_frame().unwrap();
    let upload = frame_.upload_slice(&[5u32; 4]).unwrap();
    frame_.copy_to(&upload, &out, 0).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    frame_.finish(&mut encoder);
    // The program's own bad command on the same encoder.
    encoder.copy_buffer_to_buffer(&not_copy_src, 0, &out, 0, 16);
    let index = queue.submit([encoder.finish()]);
    arena.submitted(index);
    assert!(
        errors.load(Ordering::Relaxed) > 0,
        "expected a logged validation error"
    );
    let results: Vec<_> = (0..3)
        .map(|_| arena.begin_frame().map(|f| f.number()))
        .collect();
    eprintln!("begin_frame after a failed submission's index: {results:?}");
    assert!(
        !results.contains(&Err(UploadError::DeviceLost)),
        "{results:?}"
    );
}

/// Older index than the frame's own: begin_frame still waits for the
/// right frame, data lands, never AllInFlight.
#[test]
fn an_older_index_still_waits_for_the_right_frame() {
    // An empty submission's, made after the first frame: older than the
    // own submission of every frame after it.
    let mut first = None;
    frames_land_when_told(move |queue, _| first.get_or_insert_with(|| queue.submit([])).clone());
}

/// Each frame's own index, frames_in_flight 1..=3, GPU busy: data lands,
/// never AllInFlight, and waits happen.
#[test]
fn own_index_with_one_two_three_frames_in_flight() {
    frames_land_when_told(|_, own| own);
}

/// try_begin_frame with the GPU behind: AllInFlight, then (after the GPU
/// catches up) a frame.
#[test]
fn try_begin_frame_says_all_in_flight_then_gets_the_frame() {
    let (device, queue) = device();
    let busy = Busy::new(&device, 64 << 20);
    let mut arena = UploadArena::new(&device, config(1));
    let out = readable(&device, 16);
    let index = frame(&mut arena, &device, &queue, &out, 1, Some(&busy)).unwrap();
    arena.submitted(index);
    let first = arena.try_begin_frame().map(|f| f.number());
    eprintln!("try_begin_frame at once: {first:?}");
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let second = arena.try_begin_frame().map(|f| f.number());
    eprintln!("after the GPU is done: {second:?}");
    assert_eq!(second, Ok(2));
}

/// A frame finished on an encoder kept and never submitted, with one
/// frame in flight: the next `begin_frame`, and how long it took.
fn begin_after_an_unsubmitted_frame(device: &wgpu::Device) -> (Result<u64, UploadError>, Duration) {
    let mut arena = UploadArena::new(device, config(1));
    let frame = arena.begin_frame().unwrap();
    let _ = frame.upload_slice(&[1u32; 4]).unwrap();
    let mut kept = device.create_command_encoder(&Default::default());
    frame.finish(&mut kept);
    let start = Instant::now();
    let next = arena.begin_frame().map(|frame| frame.number());
    (next, start.elapsed())
}

/// `begin_frame` where the slot's encoder was finished but never
/// submitted (kept alive) says AllInFlight after its grace, also while
/// another thread keeps the queue busy (then every step's wait on the
/// latest submission times out, and the steps' own limit ends the wait).
#[test]
fn begin_frame_with_an_unsubmitted_encoder_and_a_busy_queue_returns() {
    let (device, queue) = device();
    // Control: quiet queue.
    {
        let (r, took) = begin_after_an_unsubmitted_frame(&device);
        eprintln!("quiet queue: {r:?} after {took:?}");
        assert!(matches!(r, Err(UploadError::AllInFlight { .. })), "{r:?}");
    }
    let stop = Arc::new(AtomicBool::new(false));
    let submitter = {
        let (device, queue, stop) = (device.clone(), queue.clone(), stop.clone());
        std::thread::spawn(move || {
            let busy = Busy::new(&device, 64 << 20);
            let mut last: Option<wgpu::SubmissionIndex> = None;
            while !stop.load(Ordering::Relaxed) {
                // Keep two submissions queued: the latest is never done
                // within 0.5 ms of a wait on it.
                let mut encoder = device.create_command_encoder(&Default::default());
                busy.record(&mut encoder);
                let index = queue.submit([encoder.finish()]);
                if let Some(previous) = last.replace(index) {
                    let _ = device.poll(wgpu::PollType::Wait {
                        submission_index: Some(previous),
                        timeout: None,
                    });
                }
            }
            let _ = device.poll(wgpu::PollType::wait_indefinitely());
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = {
        let device = device.clone();
        std::thread::spawn(move || {
            let _ = tx.send(begin_after_an_unsubmitted_frame(&device));
        })
    };
    let got = rx.recv_timeout(Duration::from_secs(10));
    stop.store(true, Ordering::Relaxed);
    eprintln!("busy queue from another thread: {got:?}");
    submitter.join().unwrap();
    let got = got.or_else(|_| rx.recv_timeout(Duration::from_secs(10)));
    eprintln!("after the other thread stopped: {got:?}");
    let _ = waiter.join();
    let (result, _) = got.expect("begin_frame returned");
    assert!(
        matches!(result, Err(UploadError::AllInFlight { .. })),
        "{result:?}"
    );
}

/// A frame leaked with `mem::forget` does not keep the arena borrowed:
/// its uploads are lost and the arena goes on, its data landing.
#[test]
fn a_forgotten_frame_does_not_keep_the_arena_borrowed() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(2));
    let out = readable(&device, 16);
    let f = arena.begin_frame().unwrap();
    let _ = f.upload_slice(&[7u32; 100]).unwrap();
    std::mem::forget(f);
    // Compiles: the borrow ended with the forget.
    for tick in 0..6u32 {
        let index = frame(&mut arena, &device, &queue, &out, tick, None).unwrap();
        arena.submitted(index);
    }
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    assert_eq!(read_back(&device, &out), [5; 4]);
    eprintln!("after a forgotten frame: {:?}", arena.stats());
}

/// Told its submissions, the arena maps its chunks again itself. A frame
/// then finished on an encoder dropped unsubmitted, and frames submitted
/// but never told (the program stopped calling `submitted`): each such
/// slot's next frame lets its chunk go (wgpu frees it once no submission
/// uses it: a submitted frame's copy still lands) and takes a new one,
/// and the arena goes back to maps asked for at the submit. Every
/// submitted frame's data lands, no error is reported, and the frames
/// after the switch make no more buffers.
#[test]
fn frames_not_told_while_submissions_are_told_land_and_the_arena_goes_on() {
    let (device, queue) = device();
    for frames in [1usize, 2, 3] {
        let mut arena = UploadArena::new(&device, config(frames));
        let mut created_at_20 = 0;
        for tick in 0..40u32 {
            let out = readable(&device, 16);
            if tick == 10 {
                let mut frame = arena.begin_frame().unwrap();
                let upload = frame.upload_slice(&[tick; 4]).unwrap();
                frame.copy_to(&upload, &out, 0).unwrap();
                let mut encoder = device.create_command_encoder(&Default::default());
                frame.finish(&mut encoder);
                drop(encoder);
                continue;
            }
            let index = frame(&mut arena, &device, &queue, &out, tick, None).unwrap();
            if tick < 10 {
                arena.submitted(index);
            }
            assert_eq!(
                read_back(&device, &out),
                [tick; 4],
                "frames {frames}, tick {tick}"
            );
            if tick == 20 {
                created_at_20 = arena.stats().buffers_created;
            }
        }
        let stats = arena.stats();
        eprintln!("frames in flight {frames}: {stats:?}");
        // One chunk per slot at first; each chunk let go made again once.
        assert!(stats.buffers_destroyed >= 1, "{stats:?}");
        assert_eq!(
            stats.buffers_created,
            frames as u64 + stats.buffers_destroyed,
            "{stats:?}"
        );
        assert_eq!(
            stats.buffers_created, created_at_20,
            "steady after the switch: {stats:?}"
        );
    }
}

/// `submitted` told after an encoder the arena's frame was finished on
/// was dropped unsubmitted: the chunk is mapped again at once (no
/// submission uses it) and the next frame goes on.
#[test]
fn submitted_after_a_dropped_encoder_maps_its_chunk_again() {
    let (device, queue) = device();
    let mut arena = UploadArena::new(&device, config(1));
    let out = readable(&device, 16);
    let index = frame(&mut arena, &device, &queue, &out, 1, None).unwrap();
    arena.submitted(index);
    // Told mode: the next frame's chunk waits for `submitted`.
    {
        let frame = arena.begin_frame().unwrap();
        let _ = frame.upload_slice(&[2u32; 4]).unwrap();
        let mut encoder = device.create_command_encoder(&Default::default());
        frame.finish(&mut encoder);
    }
    let other = queue.submit([device.create_command_encoder(&Default::default()).finish()]);
    arena.submitted(other);
    let index = frame(&mut arena, &device, &queue, &out, 3, None).unwrap();
    arena.submitted(index);
    assert_eq!(read_back(&device, &out), [3; 4]);
    let stats = arena.stats();
    assert_eq!(
        (stats.buffers_created, stats.buffers_destroyed),
        (1, 0),
        "{stats:?}"
    );
}
