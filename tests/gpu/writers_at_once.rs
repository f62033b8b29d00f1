//! Several writers open at once, at random (an adversarial review's cases):
//! element sizes 1, 2, 3, 6, 12, 48 bytes, tiny chunks, writers pushing
//! from inside another's `extend`, errors, drops in any order; every
//! finished upload read back from the GPU and compared byte for byte.

use tickarena::gpu::{Upload, UploadArena, UploadConfig, UploadError, UploadWriter};

use super::{device, read_back, readable};

/// A small xorshift generator, seeded by hand (shared with
/// `review_told`).
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Element `i` of writer `k`: no byte is zero (padding must be).
fn elem<const N: usize>(k: usize, i: usize) -> [u8; N] {
    let mut out = [0u8; N];
    for (b, o) in out.iter_mut().enumerate() {
        *o = ((k * 131 + i * 7 + b * 29) % 255 + 1) as u8;
    }
    out
}

enum Wr<'w, 'a> {
    S1(UploadWriter<'w, 'a, [u8; 1]>),
    S2(UploadWriter<'w, 'a, [u8; 2]>),
    S3(UploadWriter<'w, 'a, [u8; 3]>),
    S6(UploadWriter<'w, 'a, [u8; 6]>),
    S12(UploadWriter<'w, 'a, [u8; 12]>),
    S48(UploadWriter<'w, 'a, [u8; 48]>),
}

macro_rules! each {
    ($w:expr, $x:ident, $n:ident => $body:expr) => {
        match $w {
            Wr::S1($x) => {
                const $n: usize = 1;
                $body
            }
            Wr::S2($x) => {
                const $n: usize = 2;
                $body
            }
            Wr::S3($x) => {
                const $n: usize = 3;
                $body
            }
            Wr::S6($x) => {
                const $n: usize = 6;
                $body
            }
            Wr::S12($x) => {
                const $n: usize = 12;
                $body
            }
            Wr::S48($x) => {
                const $n: usize = 48;
                $body
            }
        }
    };
}

struct Live<'w, 'a> {
    k: usize,
    w: Wr<'w, 'a>,
    want: Vec<u8>,
    next: usize,
}

fn ok_or_too_large(r: Result<(), UploadError>) -> bool {
    match r {
        Ok(()) => true,
        Err(UploadError::FrameTooLarge { .. }) => false,
        Err(e) => panic!("unexpected error {e:?}"),
    }
}

/// Pushes `count` elements into `live` the way `how` says; `want` grows
/// by what landed (by the writer's own count).
fn write(live: &mut Live<'_, '_>, how: usize, count: usize) {
    let k = live.k;
    let start = live.next;
    each!(&mut live.w, w, N => {
        let before = w.len();
        let r = match how {
            0 => {
                let mut r = Ok(());
                for i in 0..count {
                    r = w.push(elem::<N>(k, start + i));
                    if r.is_err() { break; }
                }
                r
            }
            1 => {
                let v: Vec<[u8; N]> = (0..count).map(|i| elem::<N>(k, start + i)).collect();
                w.extend_from_slice(&v)
            }
            2 => w.extend((0..count).map(|i| elem::<N>(k, start + i))),
            _ => w.extend((0..count).filter(|_| true).map(|i| elem::<N>(k, start + i))),
        };
        ok_or_too_large(r);
        let written = w.len() - before;
        for i in 0..written {
            live.want.extend_from_slice(&elem::<N>(k, start + i));
        }
        live.next += count;
    });
}

/// `a.extend` whose iterator pushes one element into `b` every `every`.
fn nested(a: &mut Live<'_, '_>, b: &mut Live<'_, '_>, count: usize, every: usize) {
    let (ka, start_a) = (a.k, a.next);
    let kb = b.k;
    let b_want = &mut b.want;
    let b_next = &mut b.next;
    let b_w = &mut b.w;
    let mut generated: Vec<Vec<u8>> = Vec::new();
    each!(&mut a.w, w, N => {
        let before = w.len();
        let r = w.extend((0..count).map(|i| {
            if i % every == 0 {
                each!(&mut *b_w, wb, M => {
                    let lb = wb.len();
                    let v = elem::<M>(kb, *b_next);
                    *b_next += 1;
                    ok_or_too_large(wb.push(v));
                    if wb.len() > lb {
                        b_want.extend_from_slice(&v);
                    }
                });
            }
            let v = elem::<N>(ka, start_a + i);
            generated.push(v.to_vec());
            v
        }));
        ok_or_too_large(r);
        let written = w.len() - before;
        for g in &generated[..written] {
            a.want.extend_from_slice(g);
        }
        a.next += count;
    });
}

fn finish<'a>(live: Live<'_, 'a>) -> (Upload<'a>, Vec<u8>) {
    let up = each!(live.w, w, N => { let _ = N; w.finish() });
    (up, live.want)
}

fn lcm4(n: u64) -> u64 {
    let g = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    n / g(n, 4) * 4
}

fn run_case(device: &wgpu::Device, queue: &wgpu::Queue, seed: u64) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let chunk_size = [4u64, 8, 12, 16, 24, 48, 52, 64, 100, 256, 4096, 8196][rng.below(12)];
    let fif = 1 + rng.below(3);
    let limit = if rng.below(3) == 0 {
        chunk_size * (2 + rng.below(40) as u64)
    } else {
        256 << 20
    };
    let mut arena = UploadArena::new(
        device,
        UploadConfig {
            chunk_size,
            frames_in_flight: fif,
            max_frame_bytes: limit,
            release_after: 1 + rng.below(5) as u32,
            ..UploadConfig::default()
        },
    );
    let real_chunk = arena.config().chunk_size;
    let frames = 2 + rng.below(5);
    for f in 0..frames {
        let frame = arena
            .begin_frame()
            .unwrap_or_else(|e| panic!("seed {seed} frame {f}: {e:?}"));
        let mut done: Vec<(Upload<'_>, Vec<u8>)> = Vec::new();
        let mut closed_bytes = 0u64;
        {
            let mut live: Vec<Live<'_, '_>> = Vec::new();
            let mut k = 0;
            let ops = 5 + rng.below(40);
            let big = if chunk_size >= 4096 { 800 } else { 60 };
            for _ in 0..ops {
                match rng.below(10) {
                    0 | 1 if live.len() < 5 => {
                        k += 1;
                        let size = [1u64, 2, 3, 6, 12, 48][rng.below(6)];
                        let w = match size {
                            1 => frame.upload::<[u8; 1]>().map(Wr::S1),
                            2 => frame.upload::<[u8; 2]>().map(Wr::S2),
                            3 => frame.upload::<[u8; 3]>().map(Wr::S3),
                            6 => frame.upload::<[u8; 6]>().map(Wr::S6),
                            12 => frame.upload::<[u8; 12]>().map(Wr::S12),
                            _ => frame.upload::<[u8; 48]>().map(Wr::S48),
                        };
                        match w {
                            Ok(w) => {
                                assert!(lcm4(size) <= real_chunk, "seed {seed}");
                                live.push(Live {
                                    k,
                                    w,
                                    want: Vec::new(),
                                    next: 0,
                                })
                            }
                            Err(UploadError::ElementTooLarge { .. }) => {
                                assert!(lcm4(size) > real_chunk, "seed {seed}")
                            }
                            Err(e) => panic!("seed {seed}: {e:?}"),
                        }
                    }
                    2..=5 if !live.is_empty() => {
                        let i = rng.below(live.len());
                        let how = rng.below(4);
                        let count = rng.below(big);
                        write(&mut live[i], how, count);
                    }
                    6 if live.len() >= 2 => {
                        let i = rng.below(live.len());
                        let mut j = rng.below(live.len() - 1);
                        if j >= i {
                            j += 1;
                        }
                        let (a, b) = if i < j {
                            let (l, r) = live.split_at_mut(j);
                            (&mut l[i], &mut r[0])
                        } else {
                            let (l, r) = live.split_at_mut(i);
                            (&mut r[0], &mut l[j])
                        };
                        let count = rng.below(big);
                        nested(a, b, count, 1 + rng.below(4));
                    }
                    7 | 8 if !live.is_empty() => {
                        let i = rng.below(live.len());
                        let l = live.remove(i);
                        let (up, want) = finish(l);
                        assert_eq!(up.bytes(), want.len() as u64, "seed {seed}");
                        closed_bytes += up.copy_size();
                        // A segments iterator held while another writes.
                        let mut segs = frame.segments(&up).unwrap();
                        let first = segs.next();
                        if let Some(other) = live.first_mut() {
                            write(other, 0, 3);
                        }
                        let mut total = first.map_or(0, |s| s.size);
                        for s in segs {
                            total += s.size;
                        }
                        assert_eq!(total, up.copy_size(), "seed {seed}");
                        done.push((up, want));
                    }
                    9 if !live.is_empty() => {
                        let i = rng.below(live.len());
                        let l = live.remove(i);
                        closed_bytes += (l.want.len() as u64).next_multiple_of(4);
                        drop(l);
                    }
                    _ => {}
                }
            }
            // The rest closed in a random order.
            while !live.is_empty() {
                let i = rng.below(live.len());
                let l = live.remove(i);
                let (up, want) = finish(l);
                closed_bytes += up.copy_size();
                done.push((up, want));
            }
        }
        assert_eq!(frame.bytes(), closed_bytes, "seed {seed} frame {f}");
        let mut frame = frame;
        // Segments of different uploads never share a byte.
        let mut ranges: Vec<(usize, u64, u64)> = Vec::new();
        for (up, _) in &done {
            let mut at = 0;
            for s in frame.segments(up).unwrap() {
                assert_eq!(s.dst_offset, at, "seed {seed}");
                assert!(
                    s.offset % 4 == 0 && s.size % 4 == 0 && s.size > 0,
                    "seed {seed}: {s:?}"
                );
                at += s.size;
                ranges.push((s.chunk, s.offset, s.offset + s.size));
            }
            assert_eq!(at, up.copy_size(), "seed {seed}");
        }
        ranges.sort();
        for w in ranges.windows(2) {
            assert!(
                w[0].0 != w[1].0 || w[0].2 <= w[1].1,
                "seed {seed} frame {f}: overlapping segments {:?} {:?}",
                w[0],
                w[1]
            );
        }
        let max = device.limits().max_buffer_size;
        let mut checks: Vec<(u64, Vec<u8>, wgpu::Buffer)> = Vec::new();
        for (up, want) in done {
            if up.copy_size().max(4) > max {
                continue;
            }
            let dst = readable(device, up.copy_size().max(4));
            frame.copy_to(&up, &dst, 0).unwrap();
            checks.push((up.copy_size(), want, dst));
        }
        if rng.below(6) == 0 {
            frame.discard();
            continue;
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        let record = frame.finish(&mut encoder);
        assert_eq!(record.arena_bytes as u64, closed_bytes, "seed {seed}");
        arena.submitted(queue.submit([encoder.finish()]));
        for (n, (copy_size, want, dst)) in checks.iter().enumerate() {
            let bytes = read_back(device, dst, copy_size.max(&4).to_owned());
            let got = &bytes[..*copy_size as usize];
            assert!(
                got[..want.len()] == want[..],
                "seed {seed} frame {f} upload {n} ({} bytes, chunk {chunk_size}): landed otherwise",
                want.len()
            );
            CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            assert!(
                got[want.len()..].iter().all(|&b| b == 0),
                "seed {seed} frame {f} upload {n}: padding not zero: {:?}",
                &got[want.len()..]
            );
        }
    }
}

static CHECKED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[test]
fn random_frames_of_writers_at_once_on_a_device_of_small_buffers() {
    for max in [64u64, 300, 4100] {
        let (device, queue) = super::device_with_max_buffer(max);
        for seed in 0..300 {
            run_case(&device, &queue, seed * 7 + max);
        }
    }
}

#[test]
fn random_frames_of_writers_open_at_once_land_intact() {
    let (device, queue) = device();
    let cases: u64 = std::env::var("TICKARENA_WRITER_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(150);
    let first: u64 = std::env::var("TICKARENA_WRITER_SEED")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    for seed in first..first + cases {
        run_case(&device, &queue, seed);
    }
    eprintln!(
        "writers at once: {} uploads checked",
        CHECKED.load(std::sync::atomic::Ordering::Relaxed)
    );
}

/// Buffers made in frames 100..300 of frames written by `frame_fn`.
fn late_buffers(
    fif: usize,
    release_after: u32,
    chunk_size: u64,
    frame_fn: &dyn Fn(&tickarena::gpu::UploadFrame<'_>, usize),
) -> (u64, tickarena::gpu::UploadStats) {
    let (device, queue) = device();
    let mut arena = UploadArena::new(
        &device,
        UploadConfig {
            chunk_size,
            frames_in_flight: fif,
            release_after,
            ..UploadConfig::default()
        },
    );
    let mut made = 0;
    for f in 0..300 {
        if f == 100 {
            made = arena.stats().buffers_created;
        }
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = arena.begin_frame().unwrap();
        frame_fn(&frame, f);
        frame.finish(&mut encoder);
        arena.submitted(queue.submit([encoder.finish()]));
    }
    (arena.stats().buffers_created - made, arena.stats())
}

/// Two long-lived writers, with small uploads (a uniform per object)
/// finished while they are open; counts wobble from frame to frame.
fn two_writers_and_small_uploads(frame: &tickarena::gpu::UploadFrame<'_>, f: usize) {
    let n = 700 + (f % 7) * 13;
    let mut a = frame.upload::<[f32; 12]>().unwrap();
    let mut b = frame.upload::<[f32; 3]>().unwrap();
    for i in 0..n {
        a.push([i as f32; 12]).unwrap();
        if i % 3 == 0 {
            b.push([1.0; 3]).unwrap();
        }
        if i % 20 == 0 {
            let _ = frame.upload_slice(&[[i as f32; 4]; 4]).unwrap();
        }
    }
    let _ = (a.finish(), b.finish());
}

/// Together frames every other frame; the others one upload at a time.
fn together_every_other(frame: &tickarena::gpu::UploadFrame<'_>, f: usize) {
    let n = 3000 + (f % 5) * 17;
    if f % 2 == 0 {
        let mut a = frame.upload::<[u8; 12]>().unwrap();
        let mut b = frame.upload::<[u8; 6]>().unwrap();
        a.extend((0..n).map(|i| {
            if i % 2 == 0 {
                b.push([i as u8; 6]).unwrap();
            }
            [i as u8; 12]
        }))
        .unwrap();
    } else {
        let _ = frame.upload_slice(&vec![[1u8; 12]; n]).unwrap();
        let _ = frame.upload_slice(&vec![[1u8; 6]; n / 2]).unwrap();
    }
}

/// Writers opened in an order that changes from frame to frame.
fn rotating_order(frame: &tickarena::gpu::UploadFrame<'_>, f: usize) {
    let n = 2000;
    let mut w: Vec<_> = (0..3)
        .map(|_| frame.upload::<[u8; 16]>().unwrap())
        .collect();
    for i in 0..n {
        let which = (i + f) % 3;
        let reps = 1 + ((i * 7 + f) % 3);
        for _ in 0..reps {
            w[which].push([i as u8; 16]).unwrap();
        }
    }
    // Dropped in a rotating order.
    for k in 0..3 {
        let _ = w.remove((f + k) % w.len());
    }
}

#[test]
fn steady_frames_of_writers_at_once_in_every_pattern_make_no_buffers() {
    let mut report = Vec::new();
    type Pattern = fn(&tickarena::gpu::UploadFrame<'_>, usize);
    let patterns: [(&str, Pattern); 3] = [
        (
            "two_writers_and_small_uploads",
            two_writers_and_small_uploads,
        ),
        ("together_every_other", together_every_other),
        ("rotating_order", rotating_order),
    ];
    for (name, pattern) in patterns {
        for fif in 1..=3 {
            for release_after in [300, 30, 7] {
                for chunk in [1024u64, 1 << 20] {
                    let (made, stats) = late_buffers(fif, release_after, chunk, &pattern);
                    if made != 0 {
                        report.push(format!(
                            "{name} fif {fif} release_after {release_after} chunk {chunk}: {made} buffers in frames 100..300 ({stats:?})"
                        ));
                    }
                }
            }
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// An arena of one frame in flight whose frames have had two writers
/// open at once (rooms in blocks from then on), and whose last frame was
/// discarded with a writer forgotten in it: its view of the chunk's first
/// room stays.
fn arena_with_a_forgotten_view(device: &wgpu::Device, queue: &wgpu::Queue) -> UploadArena {
    let mut arena = UploadArena::new(
        device,
        UploadConfig {
            frames_in_flight: 1,
            ..UploadConfig::default()
        },
    );
    // A frame with two writers at once: rooms in blocks from now on.
    {
        let mut encoder = device.create_command_encoder(&Default::default());
        let frame = arena.begin_frame().unwrap();
        let (mut a, mut b) = (
            frame.upload::<u32>().unwrap(),
            frame.upload::<u32>().unwrap(),
        );
        a.push(1).unwrap();
        b.push(2).unwrap();
        let _ = (a.finish(), b.finish());
        frame.finish(&mut encoder);
        arena.submitted(queue.submit([encoder.finish()]));
    }
    {
        let frame = arena.begin_frame().unwrap();
        let mut w = frame.upload::<u32>().unwrap();
        w.push(7).unwrap();
        std::mem::forget(w);
        frame.discard();
    }
    arena
}

/// A writer leaked with `mem::forget` in a discarded frame: its view of
/// [0, 4096) of the slot's chunk stays. The slot's next frame: the first
/// upload's room overlaps it (MapFailed, the chunk is not handed to the
/// GPU); the second upload, beside it, goes to the next chunk, and its
/// copy lands (it used to be recorded from the chunk left mapped, and the
/// submit panicked).
#[test]
fn a_writer_forgotten_in_a_discarded_frame_fails_one_upload_not_the_next_submit() {
    let (device, queue) = device();
    let mut arena = arena_with_a_forgotten_view(&device, &queue);
    let dst = readable(&device, 16);
    let mut encoder = device.create_command_encoder(&Default::default());
    let mut frame = arena.begin_frame().unwrap();
    let mut first = frame.upload::<u32>().unwrap();
    assert_eq!(first.push(1), Err(UploadError::MapFailed));
    let second = frame.upload_slice(&[2u32; 4]).unwrap();
    let first = first.finish();
    assert!(first.is_empty());
    frame.copy_to(&second, &dst, 0).unwrap();
    frame.finish(&mut encoder);
    arena.submitted(queue.submit([encoder.finish()]));
    let got = read_back(&device, &dst, 16);
    assert_eq!(got, bytemuck::cast_slice::<u32, u8>(&[2; 4]));
}

/// After a MapFailed room (here: the leaked view's), the same writer
/// writes on in the next chunk: its length counts only what it wrote
/// (the failed room was given up, unwritten).
#[test]
fn a_writer_writes_on_after_map_failed_in_a_new_segment() {
    let (device, queue) = device();
    let mut arena = arena_with_a_forgotten_view(&device, &queue);
    let frame = arena.begin_frame().unwrap();
    let mut w = frame.upload::<u32>().unwrap();
    assert_eq!(w.push(1), Err(UploadError::MapFailed));
    w.push(2).unwrap();
    w.push(3).unwrap();
    assert_eq!(w.len(), 2);
    let up = w.finish();
    assert_eq!((up.bytes(), up.segment_count()), (8, 1));
    frame.discard();
}

/// `GrowingBuffer::copy_from` checks the upload before it remakes its
/// buffer: a refused (foreign) upload leaves the buffer as it was, and the
/// next good copy that needs more says it remade it (it used to remake it
/// first, and no call ever said so).
#[test]
fn a_growing_buffer_is_not_remade_by_a_refused_copy() {
    use tickarena::gpu::GrowingBuffer;
    let (device, _queue) = device();
    let mut a = UploadArena::new(&device, UploadConfig::default());
    let mut b = UploadArena::new(&device, UploadConfig::default());
    let mut growing = GrowingBuffer::new("g", wgpu::BufferUsages::VERTEX);
    let mut frame_a = a.begin_frame().unwrap();
    let frame_b = b.begin_frame().unwrap();
    let small = frame_a.upload_slice(&[1u32; 4]).unwrap();
    assert!(growing.copy_from(&mut frame_a, &small).unwrap());
    let before = growing.buffer().unwrap().clone();
    let foreign = frame_b.upload_slice(&[2u32; 1000]).unwrap();
    let foreign: Upload<'_> = foreign.clone();
    assert_eq!(
        growing.copy_from(&mut frame_a, &foreign).unwrap_err(),
        UploadError::ForeignUpload
    );
    assert!(
        *growing.buffer().unwrap() == before,
        "a refused copy remade it"
    );
    let big = frame_a.upload_slice(&[3u32; 1000]).unwrap();
    assert!(growing.copy_from(&mut frame_a, &big).unwrap());
    assert!(*growing.buffer().unwrap() != before);
}
