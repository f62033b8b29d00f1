//! Random alloc / grow / shrink / dealloc / reclaim sequences with random
//! layouts, checked against a model of the live allocations: each is
//! aligned, inside the reservation, disjoint from the others, and keeps its
//! bytes. The arena's refusals are checked against a model too: one per
//! request refused, and the bytes `Refusals` documents (a fresh block's
//! size, a growth's increase in place or its new block when it moves, a
//! retried growth once), which at the frame's first refusal are at least
//! what the frame then needed past its peak.

use core::alloc::{Allocator, Layout};
use core::ptr::NonNull;

use tickarena::FrameArena;

/// The reservation of [`run`]: small, so exhaustion is exercised too
/// (more often with [`run_in`] and a smaller one).
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

fn check(base: usize, reserve: usize, lives: &[Live]) {
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
            addr >= base && addr + size <= base + reserve,
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
    run_in(ops, RESERVE);
}

/// [`run`] on an arena of `reserve` bytes (a multiple of the page size).
pub fn run_in(ops: &[Op], reserve: usize) {
    let mut arena = FrameArena::builder()
        .reserve(reserve)
        .retain(reserve / 4)
        .build()
        .unwrap();
    let probe = arena.allocate(Layout::new::<u8>()).unwrap().cast::<u8>();
    // SAFETY: just allocated from this arena with this layout.
    unsafe { arena.deallocate(probe, Layout::new::<u8>()) };
    let base = probe.addr().get();
    assert_eq!(arena.used(), 0);
    let mut lives: Vec<Live> = Vec::new();
    let mut next_fill = 1u8;
    let mut refusals = RefusalModel::default();
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
                } else {
                    refusals.refused(arena.used(), peak, size);
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
                let (addr, used) = (lives[i].ptr.addr().get(), arena.used());
                // SAFETY: the block is live with layout `old`; `new` is no smaller.
                match unsafe { arena.grow(lives[i].ptr, old, new) } {
                    Ok(block) => {
                        lives[i].ptr = block.cast();
                        lives[i].layout = new;
                        lives[i].fill = next_fill;
                        fill(&lives[i]);
                    }
                    Err(_) => {
                        // The newest block, suitably aligned, grows in place.
                        let on_top = old.size() > 0 && addr + old.size() == base + used;
                        let in_place = on_top && addr % new.align() == 0;
                        let needed = new.size() - if in_place { old.size() } else { 0 };
                        refusals.refused_growth(used, peak, (addr, old.size()), needed);
                    }
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
                refusals = RefusalModel::default();
            }
            _ => {}
        }
        next_fill = next_fill.wrapping_add(1).max(1);
        check(base, reserve, &lives);
        assert!(arena.used() <= reserve);
        peak = peak.max(arena.used());
        assert_eq!(arena.peak(), peak);
        let counted = arena.refusals();
        assert_eq!(
            (counted.count(), counted.bytes()),
            (refusals.count, refusals.bytes),
            "{op:?}"
        );
        if let Some(first_need) = refusals.first_need {
            assert!(peak + counted.bytes() >= first_need, "{op:?}");
        }
    }
}

/// What the arena's refusals of a frame should be.
#[derive(Default)]
struct RefusalModel {
    count: u64,
    bytes: usize,
    /// The last refused growth: its block, `used` then, what it needed.
    last_growth: Option<((usize, usize), usize, usize)>,
    /// What the frame needed at its first refusal: `used` then, plus the
    /// request's bytes past it (a lower bound of any arena that serves it).
    first_need: Option<usize>,
}

impl RefusalModel {
    /// A fresh block of `size` refused with `used` bytes in use.
    fn refused(&mut self, used: usize, peak: usize, size: usize) {
        self.count += 1;
        self.bytes += size;
        self.first(used, peak, size);
    }

    /// A growth of `block` that needed `needed` bytes past `used`, refused.
    fn refused_growth(&mut self, used: usize, peak: usize, block: (usize, usize), needed: usize) {
        self.count += 1;
        let counted = match self.last_growth {
            Some((last, last_used, last_needed)) if last == block && last_used == used => {
                last_needed
            }
            _ => 0,
        };
        self.bytes += needed.saturating_sub(counted);
        self.last_growth = Some((block, used, needed.max(counted)));
        self.first(used, peak, needed);
    }

    fn first(&mut self, used: usize, peak: usize, needed: usize) {
        // The peak may be above `used`: the frame needed both, at least.
        self.first_need.get_or_insert((used + needed).max(peak));
    }
}
