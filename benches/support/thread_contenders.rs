//! The contenders of `benches/threads.rs` (timed by criterion) and of
//! `examples/thread_instructions.rs` (counted by callgrind): frame data
//! allocated on several threads at once, then the frame ended.
//!
//! Per frame each thread allocates [`VALUES`] `u64`s and builds 8 vectors of
//! 500 pushes ([`Workload::ValuesAndVecs`]), or builds one vector of 16 Ki
//! elements and pushes 500 Ki more ([`Workload::BigVec`]).

use std::alloc::{Allocator, Global, Layout};
use std::hint::black_box;
use std::sync::Mutex;

use tickarena::{FrameArena, ThreadArenas};

#[path = "mimalloc_alloc.rs"]
mod mimalloc_alloc;
use mimalloc_alloc::Mimalloc;

/// Values each thread places per frame in [`Workload::ValuesAndVecs`].
pub const VALUES: usize = 100_000;

#[derive(Clone, Copy, Debug)]
pub enum Workload {
    ValuesAndVecs,
    BigVec,
}

impl Workload {
    pub const ALL: [Workload; 2] = [Workload::ValuesAndVecs, Workload::BigVec];

    pub fn name(self) -> &'static str {
        match self {
            Workload::ValuesAndVecs => "values_and_vecs",
            Workload::BigVec => "big_vec",
        }
    }
}

/// An allocator for frame data on many threads.
pub trait Contender: Sync {
    fn name(&self) -> &'static str;
    /// One thread's share of a frame (`thread` is its index in the pool).
    fn frame_share(&self, thread: usize, workload: Workload) -> u64;
    /// Ends the frame on every thread (reset, or nothing for malloc).
    fn frame_end(&mut self);
}

/// One thread's share of a frame: `$value(v)` places a `u64` and returns
/// `&mut u64`; `$vec` makes an empty vector.
macro_rules! share {
    ($workload:expr, |$v:ident| $value:expr, || $vec:expr) => {
        match $workload {
            Workload::ValuesAndVecs => {
                let mut sum = 0u64;
                for i in 0..VALUES as u64 {
                    let $v = black_box(i);
                    let placed: &mut u64 = $value;
                    sum = sum.wrapping_add(*placed);
                }
                for _ in 0..8 {
                    let mut vec = $vec;
                    for i in 0..500usize {
                        vec.push(black_box(i));
                    }
                    sum = sum.wrapping_add(black_box(&vec).len() as u64);
                }
                sum
            }
            Workload::BigVec => {
                let mut vec = $vec;
                vec.extend(0..16 * 1024usize);
                for i in 0..500 * 1024usize {
                    vec.push(black_box(i));
                }
                black_box(&vec).len() as u64
            }
        }
    };
}

/// Every contender, for a pool of `threads` threads.
pub fn contenders(threads: usize) -> Vec<Box<dyn Contender>> {
    vec![
        Box::new(Tickarena(ThreadArenas::new())),
        Box::new(PlainArenas(
            (0..threads)
                .map(|_| Padded(Mutex::new(FrameArena::new())))
                .collect(),
        )),
        Box::new(Heap {
            name: "malloc",
            alloc: Global,
        }),
        Box::new(Heap {
            name: "mimalloc",
            alloc: Mimalloc,
        }),
        Box::new(BumpaloHerd(bumpalo_herd::Herd::new())),
        Box::new(BumpScopePool(bump_scope::BumpPool::new())),
        Box::new(BlinkSync(blink_alloc::SyncBlinkAlloc::new())),
        Box::new(ThreadLocalBumpalo(thread_local::ThreadLocal::new())),
    ]
}

struct Tickarena(ThreadArenas);

impl Contender for Tickarena {
    fn name(&self) -> &'static str {
        "tickarena"
    }
    fn frame_share(&self, _: usize, workload: Workload) -> u64 {
        let arena = self.0.local();
        share!(workload, |v| arena.alloc(v), || Vec::new_in(arena))
    }
    fn frame_end(&mut self) {
        self.0.reset();
    }
}

/// The floor for `ThreadArenas`' own cost: one plain arena per worker, on
/// cache lines of its own as `ThreadArenas` keeps them, taken by its job
/// through an uncontended `Mutex` once per frame.
struct PlainArenas(Vec<Padded>);

#[repr(align(128))]
struct Padded(Mutex<FrameArena>);

impl Contender for PlainArenas {
    fn name(&self) -> &'static str {
        "plain_arenas"
    }
    fn frame_share(&self, thread: usize, workload: Workload) -> u64 {
        let mut arena = self.0[thread].0.lock().unwrap();
        let sum = {
            let arena: &FrameArena = &arena;
            share!(workload, |v| arena.alloc(v), || Vec::new_in(arena))
        };
        arena.reset();
        sum
    }
    fn frame_end(&mut self) {}
}

/// A general-purpose allocator, each value a box of its own: glibc's
/// malloc (std's `Global`), or mimalloc (what a user picks instead).
struct Heap<A> {
    name: &'static str,
    alloc: A,
}

impl<A: Allocator + Copy + Sync> Contender for Heap<A> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn frame_share(&self, _: usize, workload: Workload) -> u64 {
        // The values live until the end of the frame, as in an arena.
        let values = if let Workload::ValuesAndVecs = workload {
            VALUES
        } else {
            0
        };
        let mut kept: Vec<Box<u64, A>> = Vec::with_capacity(values);
        share!(
            workload,
            |v| {
                kept.push(Box::new_in(v, self.alloc));
                kept.last_mut().unwrap()
            },
            || Vec::new_in(self.alloc)
        )
    }
    fn frame_end(&mut self) {}
}

struct BumpaloHerd(bumpalo_herd::Herd);

impl Contender for BumpaloHerd {
    fn name(&self) -> &'static str {
        "bumpalo_herd"
    }
    fn frame_share(&self, _: usize, workload: Workload) -> u64 {
        let member = self.0.get();
        let bump = member.as_bump();
        share!(workload, |v| bump.alloc(v), || {
            bumpalo::collections::Vec::new_in(bump)
        })
    }
    fn frame_end(&mut self) {
        self.0.reset();
    }
}

struct BumpScopePool(bump_scope::BumpPool);

impl Contender for BumpScopePool {
    fn name(&self) -> &'static str {
        "bump_scope_pool"
    }
    fn frame_share(&self, _: usize, workload: Workload) -> u64 {
        let bump = self.0.get();
        share!(workload, |v| bump.alloc(v).into_mut(), || {
            bump_scope::BumpVec::new_in(&*bump)
        })
    }
    fn frame_end(&mut self) {
        self.0.reset();
    }
}

struct BlinkSync(blink_alloc::SyncBlinkAlloc);

impl Contender for BlinkSync {
    fn name(&self) -> &'static str {
        "blink_alloc_sync"
    }
    fn frame_share(&self, _: usize, workload: Workload) -> u64 {
        let local = self.0.local();
        share!(
            workload,
            |v| {
                let slot = local.allocate(Layout::new::<u64>()).unwrap().cast::<u64>();
                // SAFETY: a fresh, aligned block for one u64, not freed
                // before the frame ends (`frame_end`).
                unsafe {
                    slot.write(v);
                    &mut *slot.as_ptr()
                }
            },
            || Vec::new_in(&local)
        )
    }
    fn frame_end(&mut self) {
        self.0.reset();
    }
}

struct ThreadLocalBumpalo(thread_local::ThreadLocal<bumpalo::Bump>);

impl Contender for ThreadLocalBumpalo {
    fn name(&self) -> &'static str {
        "thread_local_bumpalo"
    }
    fn frame_share(&self, _: usize, workload: Workload) -> u64 {
        let bump = self.0.get_or_default();
        share!(workload, |v| bump.alloc(v), || {
            bumpalo::collections::Vec::new_in(bump)
        })
    }
    fn frame_end(&mut self) {
        self.0.iter_mut().for_each(bumpalo::Bump::reset);
    }
}
