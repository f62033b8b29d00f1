//! Adversarial review of `UploadWriter::extend` (cd83c75): every element
//! size 1..=64, iterators of every kind (exact, filter, chain, flat_map,
//! size hints that lie every way, not fused, panicking), counts that end
//! rooms exactly, a frame limit reached mid-extend, a writer pushed into
//! from inside another's filter: what lands is compared with a `Vec`.

use std::cell::Cell;

use tickarena::gpu::{UploadArena, UploadConfig, UploadError};

use super::{device, read_back, readable, submit_and_read_back};

/// An iterator whose size hint is `.1`, whatever it holds.
struct Hint<I>(I, (usize, Option<usize>));
impl<I: Iterator> Iterator for Hint<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.1
    }
}

/// Not fused: `None` once after `.1` values, then the rest.
struct Gap<I>(I, usize, bool);
impl<I: Iterator> Iterator for Gap<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        if self.1 == 0 && !self.2 {
            self.2 = true;
            return None;
        }
        self.1 = self.1.wrapping_sub(1);
        self.0.next()
    }
}

const KINDS: &[&str] = &[
    "exact",
    "filter",
    "chain",
    "flat_map",
    "exact hint, short",
    "exact hint, long",
    "exact hint 0",
    "lower bound huge",
    "(0, None)",
    "not fused",
    "peekable",
    "skip_while",
];

/// The values `kind` yields from `elements` (as `Vec::extend` takes
/// them), and `f` run with that iterator.
fn with_kind<T: Copy, R>(
    kind: &str,
    elements: &[T],
    f: &mut dyn FnMut(&mut dyn Iterator<Item = T>) -> R,
) -> (Vec<T>, R) {
    macro_rules! go {
        ($it:expr) => {{
            let mut model = Vec::new();
            model.extend($it);
            let mut it = $it;
            (model, f(&mut it))
        }};
    }
    let n = elements.len();
    let v = elements.iter().copied();
    match kind {
        "exact" => go!(v.clone()),
        "filter" => go!(v
            .clone()
            .enumerate()
            .filter(|(i, _)| i % 4 != 3)
            .map(|(_, x)| x)),
        "chain" => go!(v
            .clone()
            .take(n / 2)
            .filter(|_| true)
            .chain(v.clone().skip(n / 2))),
        "flat_map" => go!(v
            .clone()
            .enumerate()
            .flat_map(|(i, x)| std::iter::repeat_n(x, i % 3))),
        "exact hint, short" => go!(Hint(v.clone(), (n / 3, Some(n / 3)))),
        "exact hint, long" => go!(Hint(v.clone(), (n * 3 + 7, Some(n * 3 + 7)))),
        "exact hint 0" => go!(Hint(v.clone(), (0, Some(0)))),
        "lower bound huge" => go!(Hint(v.clone(), (n * 5 + 1000, None))),
        "(0, None)" => go!(Hint(v.clone(), (0, None))),
        "not fused" => go!(Gap(v.clone(), n / 2, false)),
        "peekable" => go!({
            let mut p = v.clone().filter(|_| true).peekable();
            let _ = p.peek();
            p
        }),
        "skip_while" => go!(v.clone().skip_while(|_| false)),
        _ => unreachable!(),
    }
}

fn elem<const N: usize>(i: usize) -> [u8; N] {
    let mut out = [0u8; N];
    for (b, o) in out.iter_mut().enumerate() {
        *o = ((i * 7 + b * 31 + N) % 251 + 1) as u8;
    }
    out
}

fn check_size<const N: usize>(device: &wgpu::Device, queue: &wgpu::Queue)
where
    [u8; N]: bytemuck::Pod,
{
    let mut arena = UploadArena::new(
        device,
        UploadConfig {
            chunk_size: 256,
            ..UploadConfig::default()
        },
    );
    // Counts that end the first room, a chunk, two, exactly, and beside.
    let mut counts: Vec<usize> = (0..6).collect();
    for bytes in [256usize, 512, 768, 1024, 1536, 4096] {
        let k = bytes / N;
        counts.extend([k.saturating_sub(1), k, k + 1]);
    }
    for &count in &counts {
        let elements: Vec<[u8; N]> = (0..count).map(elem::<N>).collect();
        for (pre, kind) in [0usize, 1, 5]
            .iter()
            .flat_map(|p| KINDS.iter().map(move |k| (*p, *k)))
        {
            let frame = arena.begin_frame().unwrap();
            // Something in the chunk before, so that rooms start anywhere.
            let _ = frame.upload_slice(&vec![0xEEu8; pre * 3]).ok();
            let mut writer = frame.upload::<[u8; N]>().unwrap();
            let (model, result) = with_kind(kind, &elements, &mut |it| writer.extend(it));
            result.unwrap();
            assert_eq!(writer.len(), model.len(), "N {N}, count {count}, {kind}");
            // A push after: the writer goes on where extend ended.
            writer.push(elem::<N>(9999)).unwrap();
            let upload = writer.finish();
            let len = (model.len() + 1) * N;
            let dst = readable(device, (len as u64).next_multiple_of(4));
            let bytes =
                submit_and_read_back(device, queue, frame, &[(&upload, 0)], &dst, dst.size());
            let mut want: Vec<u8> = model.iter().flatten().copied().collect();
            want.extend(elem::<N>(9999));
            assert!(
                bytes[..len] == want[..],
                "N {N}, count {count}, pre {pre}, {kind}"
            );
        }
    }
}

#[test]
fn extend_of_every_size_from_every_kind_of_iterator_matches_a_vec() {
    let (device, queue) = device();
    macro_rules! sizes {
        ($($n:literal)*) => { $( check_size::<$n>(&device, &queue); )* };
    }
    sizes!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
           33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64);
}

/// A frame limit reached mid-extend: an error, the elements written
/// before it stay (and land), and of the rest no more than one value is
/// read (the one that did not fit).
#[test]
fn a_frame_limit_mid_extend_keeps_what_was_written() {
    let (device, queue) = device();
    fn run<const N: usize>(device: &wgpu::Device, queue: &wgpu::Queue)
    where
        [u8; N]: bytemuck::Pod,
    {
        for limit in [1024u64, 1280, 4096] {
            for kind in KINDS {
                let mut arena = UploadArena::new(
                    device,
                    UploadConfig {
                        chunk_size: 256,
                        max_frame_bytes: limit,
                        ..UploadConfig::default()
                    },
                );
                let count = 2 * limit as usize / N + 10;
                let elements: Vec<[u8; N]> = (0..count).map(elem::<N>).collect();
                let frame = arena.begin_frame().unwrap();
                let mut writer = frame.upload::<[u8; N]>().unwrap();
                let read = Cell::new(0usize);
                let (model, result) = with_kind(kind, &elements, &mut |it| {
                    writer.extend(it.inspect(|_| read.set(read.get() + 1)))
                });
                let err = result.expect_err("past the limit");
                assert!(
                    matches!(err, UploadError::FrameTooLarge { .. }),
                    "N {N} {kind}: {err:?}"
                );
                let len = writer.len();
                assert!(
                    read.get() <= len + 1,
                    "N {N}, {kind}: read {} values, kept {len}",
                    read.get()
                );
                assert!(len * N <= limit as usize);
                // The writer still works after the error (nothing more fits).
                let upload = writer.finish();
                let bytes = len * N;
                let dst = readable(device, (bytes as u64).next_multiple_of(4).max(4));
                let got =
                    submit_and_read_back(device, queue, frame, &[(&upload, 0)], &dst, dst.size());
                let want: Vec<u8> = model[..len].iter().flatten().copied().collect();
                assert!(
                    got[..bytes] == want[..],
                    "N {N}, limit {limit}, {kind}: kept {len}"
                );
            }
        }
    }
    run::<4>(&device, &queue);
    run::<12>(&device, &queue);
    run::<7>(&device, &queue);
    run::<64>(&device, &queue);
}

/// An iterator that panics midway: caught, the writer goes on; what it
/// says it holds lands intact (a prefix of what was read).
#[test]
fn an_iterator_that_panics_midway_leaves_a_consistent_writer() {
    let (device, queue) = device();
    for kind in ["exact", "filter"] {
        for at in [0usize, 1, 63, 64, 65, 200, 640] {
            let mut arena = UploadArena::new(
                &device,
                UploadConfig {
                    chunk_size: 256,
                    ..UploadConfig::default()
                },
            );
            let frame = arena.begin_frame().unwrap();
            let mut writer = frame.upload::<u32>().unwrap();
            let values = (0..1000u32).inspect(|&i| {
                if i as usize == at {
                    panic!("midway");
                }
            });
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match kind {
                "exact" => writer.extend(values),
                _ => writer.extend(values.filter(|_| true)),
            }));
            assert!(r.is_err());
            let kept = writer.len();
            writer.extend(5000..5100u32).unwrap();
            let upload = writer.finish();
            let n = kept + 100;
            let dst = readable(&device, (n * 4) as u64);
            let got: Vec<u32> = bytemuck::pod_collect_to_vec(&submit_and_read_back(
                &device,
                &queue,
                frame,
                &[(&upload, 0)],
                &dst,
                dst.size(),
            ));
            let want: Vec<u32> = (0..kept as u32).chain(5000..5100).collect();
            assert_eq!(
                got, want,
                "{kind}, panic at {at}: kept {kept} (a Vec keeps {at})"
            );
            eprintln!("{kind}, panic at {at}: kept {kept} (a Vec keeps {at})");
        }
    }
}

/// A filter's closure pushes into a second writer while the first's
/// `extend` runs its room (the try_fold path): both land.
#[test]
fn pushing_into_another_writer_from_inside_a_filter() {
    let (device, queue) = device();
    for every in [1usize, 2, 3, 7, 64] {
        let mut arena = UploadArena::new(
            &device,
            UploadConfig {
                chunk_size: 256,
                ..UploadConfig::default()
            },
        );
        let frame = arena.begin_frame().unwrap();
        let mut a = frame.upload::<[u8; 12]>().unwrap();
        let b = std::cell::RefCell::new(frame.upload::<u32>().unwrap());
        let mut want_b = Vec::new();
        let mut want_a = Vec::new();
        let elements: Vec<[u8; 12]> = (0..500).map(elem::<12>).collect();
        a.extend(
            elements
                .iter()
                .copied()
                .enumerate()
                .filter(|(i, _)| {
                    if i % every == 0 {
                        b.borrow_mut().push(*i as u32).unwrap();
                        want_b.push(*i as u32);
                    }
                    i % 5 != 4
                })
                .map(|(_, x)| x),
        )
        .unwrap();
        want_a.extend(
            elements
                .iter()
                .enumerate()
                .filter(|(i, _)| i % 5 != 4)
                .map(|(_, x)| *x),
        );
        let ua = a.finish();
        let ub = b.into_inner().finish();
        let la = (want_a.len() * 12) as u64;
        let lb = (want_b.len() * 4) as u64;
        let dst = readable(&device, la + lb);
        let mut frame = frame;
        let mut encoder = device.create_command_encoder(&Default::default());
        frame.copy_to(&ua, &dst, 0).unwrap();
        frame.copy_to(&ub, &dst, la).unwrap();
        frame.finish(&mut encoder);
        queue.submit([encoder.finish()]);
        let got = read_back(&device, &dst, la + lb);
        let wa: Vec<u8> = want_a.iter().flatten().copied().collect();
        assert!(got[..la as usize] == wa[..], "every {every}: a");
        assert_eq!(
            &got[la as usize..],
            bytemuck::cast_slice::<u32, u8>(&want_b),
            "every {every}: b"
        );
    }
}
