//! Random alloc / grow / shrink / dealloc / reclaim sequences with random
//! layouts, checked against a model of the live allocations: each is
//! aligned, inside the reservation, disjoint from the others, and keeps its
//! bytes.

use core::alloc::{Allocator, Layout};
use core::ptr::NonNull;

use tickarena::FrameArena;

/// The reservation every run uses: small, so exhaustion is exercised too.
pub const RESERVE: usize = 1 << 20;

/// The largest single allocation tried; Miri checks every byte of every
/// live block after each step, so it gets smaller blocks.
const LARGEST: usize = if cfg!(miri) { 4_000 } else { 200_000 };

/// One operation on the arena. Sizes and picks are reduced into range by
/// [`run`], so any value is valid.
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    Alloc {
        size: u32,
        align_log: u8,
    },
    Grow {
        pick: u16,
        extra: u16,
        align_log: u8,
    },
    Shrink {
        pick: u16,
        keep: u32,
    },
    Dealloc {
        pick: u16,
    },
    Reclaim,
}

/// One live allocation of the model: where it is, its layout, the byte it
/// was filled with.
struct Live {
    ptr: NonNull<u8>,
    layout: Layout,
    fill: u8,
}

fn fill(live: &Live) {
    // SAFETY: the block is live and `layout.size()` bytes long.
    unsafe { live.ptr.write_bytes(live.fill, live.layout.size()) };
}

fn check(base: usize, lives: &[Live]) {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for live in lives {
        let addr = live.ptr.addr().get();
        let size = live.layout.size();
        assert_eq!(
            addr % live.layout.align(),
            0,
            "misaligned {:?}",
            live.layout
        );
        if size == 0 {
            continue;
        }
        assert!(
            addr >= base && addr + size <= base + RESERVE,
            "outside the reservation"
        );
        // SAFETY: the block is live and `size` bytes long.
        let bytes = unsafe { NonNull::slice_from_raw_parts(live.ptr, size).as_ref() };
        // Miri reads byte by byte, slowly: there it checks the ends of each
        // block (where neighbours would overwrite it); natively, every byte.
        let (head, tail) = if cfg!(miri) {
            (&bytes[..size.min(32)], &bytes[size.saturating_sub(32)..])
        } else {
            (bytes, &bytes[..0])
        };
        assert!(
            head.iter().chain(tail).all(|&b| b == live.fill),
            "bytes of a live block changed"
        );
        spans.push((addr, addr + size));
    }
    spans.sort_unstable();
    for pair in spans.windows(2) {
        assert!(pair[0].1 <= pair[1].0, "overlapping blocks {pair:?}");
    }
}

/// Applies `ops` to a fresh arena, checking the model after every step.
pub fn run(ops: &[Op]) {
    let mut arena = FrameArena::builder()
        .reserve(RESERVE)
        .retain(RESERVE / 4)
        .build()
        .unwrap();
    let probe = arena.allocate(Layout::new::<u8>()).unwrap().cast::<u8>();
    // SAFETY: just allocated from this arena with this layout.
    unsafe { arena.deallocate(probe, Layout::new::<u8>()) };
    let base = probe.addr().get();
    assert_eq!(arena.used(), 0);
    let mut lives: Vec<Live> = Vec::new();
    let mut next_fill = 1u8;
    // The model of `FrameArena::peak`: the most `used` seen since the last
    // reclaim, starting with the probe's byte.
    let mut peak = 1;
    for op in ops {
        match *op {
            Op::Alloc { size, align_log } => {
                // Mostly small blocks, now and then a large one.
                let size = if size % 9 == 0 {
                    size as usize % LARGEST
                } else {
                    size as usize % 300
                };
                let layout = Layout::from_size_align(size, 1 << (align_log % 13)).unwrap();
                if let Ok(block) = arena.allocate(layout) {
                    assert_eq!(block.len(), size);
                    let live = Live {
                        ptr: block.cast(),
                        layout,
                        fill: next_fill,
                    };
                    fill(&live);
                    lives.push(live);
                }
            }
            Op::Grow {
                pick,
                extra,
                align_log,
            } if !lives.is_empty() => {
                let i = pick as usize % lives.len();
                let old = lives[i].layout;
                let align = old.align().max(1 << (align_log % 8));
                let new =
                    Layout::from_size_align(old.size() + extra as usize % 5000, align).unwrap();
                // SAFETY: the block is live with layout `old`; `new` is no smaller.
                if let Ok(block) = unsafe { arena.grow(lives[i].ptr, old, new) } {
                    lives[i].ptr = block.cast();
                    lives[i].layout = new;
                    lives[i].fill = next_fill;
                    fill(&lives[i]);
                }
            }
            Op::Shrink { pick, keep } if !lives.is_empty() => {
                let i = pick as usize % lives.len();
                let old = lives[i].layout;
                let new =
                    Layout::from_size_align(keep as usize % (old.size() + 1), old.align()).unwrap();
                // SAFETY: the block is live with layout `old`; `new` is no larger.
                let block = unsafe { arena.shrink(lives[i].ptr, old, new) }.unwrap();
                assert_eq!(block.len(), new.size());
                lives[i].ptr = block.cast();
                lives[i].layout = new;
            }
            Op::Dealloc { pick } if !lives.is_empty() => {
                let live = lives.swap_remove(pick as usize % lives.len());
                // SAFETY: the block is live with this layout, and leaves the model.
                unsafe { arena.deallocate(live.ptr, live.layout) };
            }
            Op::Reclaim => {
                lives.clear();
                arena = arena.reclaim();
                assert_eq!(arena.used(), 0);
                peak = 0;
            }
            _ => {}
        }
        next_fill = next_fill.wrapping_add(1).max(1);
        check(base, &lives);
        assert!(arena.used() <= RESERVE);
        peak = peak.max(arena.used());
        assert_eq!(arena.peak(), peak);
    }
}
