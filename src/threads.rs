//! [`ThreadArenas`]: one [`FrameArena`] per thread, all reset together.
//!
//! A frame that runs on several threads (a job system, rayon's `par_iter`,
//! scoped threads) needs frame memory on each of them, but a `FrameArena`
//! is `!Sync`: two threads cannot bump one arena. `ThreadArenas` hands each
//! thread its own arena and ends the frame of all of them at once.
//!
//! How a thread finds its arena: each thread keeps, in a thread-local, the
//! arenas it was given most recently (up to `CACHE_SLOTS`, one per set it
//! uses, newest first) and the *frame key* it was given each under. A key
//! is unique to one `ThreadArenas` and one frame (drawn from a global
//! counter at creation and at every reset). [`ThreadArenas::local`]
//! compares the cached keys with the set's current one: equal, the arena is
//! the thread's (thread-local loads and compares: no lock, no atomic
//! read-modify-write; the newest set's is the first compare). Otherwise the
//! thread claims an arena under the set's lock, preferring the one it had
//! last frame, and caches it. So each thread takes the lock once per frame
//! and set, on its first `local()`, as long as it uses at most
//! `CACHE_SLOTS` sets in a frame (the frame loop's `Frame::threads` and a
//! Bevy app's `WorkerArenas` are two); a fifth set pushes the oldest out of
//! the cache, and that one's next `local()` takes the lock again.
//!
//! Why claims last one frame: [`reset`](ThreadArenas::reset) takes `&mut
//! self`, which proves that no `&FrameArena` handed out by `local()` is
//! alive on any thread. Only then may an arena change hands, so a thread
//! that starts after another ended takes over its arena at the next frame,
//! and no thread's teardown (thread-local destructors included) can still be
//! using an arena that another thread was given.

use core::cell::Cell;
use core::ptr::{self, NonNull};
use core::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::arena::{
    ArenaError, ArenaStats, Budgets, FrameArena, FrameArenaBuilder, FrameBreaches, Refusals,
    TagBytes,
};
use crate::segmented::SegmentedList;

/// One frame arena per thread, reset together. `Send + Sync`: share it by
/// reference with the threads of a frame (scoped threads, rayon), and end
/// the frame on all of them with [`reset`](Self::reset) or
/// [`reclaim`](Self::reclaim).
///
/// * [`local`](Self::local) is the calling thread's own arena: made on the
///   thread's first call, found again without a lock or an atomic
///   read-modify-write for the rest of the frame (for up to four sets in
///   use on one thread).
/// * What `local().alloc*()` returns (`&'a mut T`) borrows the
///   `ThreadArenas`, not the thread, so a worker can hand finished values,
///   slices and strs back to the thread that spawned it.
/// * Arena collections (`Vec<_, &FrameArena>`) stay on the thread that made
///   them: `&FrameArena` is not `Send`. Freeze a `Vec` into a slice with
///   `Vec::leak` to hand its elements back.
/// * `reset` needs `&mut self`: the borrow checker allows it only when
///   nothing from any thread's frame is still borrowed.
///
/// # Example
///
/// ```
/// use tickarena::ThreadArenas;
///
/// let mut arenas = ThreadArenas::new();
/// for frame in 0..3u64 {
///     let halves: Vec<&[u64]> = std::thread::scope(|scope| {
///         let workers: Vec<_> = (0..2u64)
///             .map(|half| {
///                 let arenas = &arenas;
///                 scope.spawn(move || {
///                     // This thread's arena; the slice outlives the thread.
///                     let arena = arenas.local();
///                     &*arena.alloc_slice_fill_with(100, |i| frame + half * 100 + i as u64)
///                 })
///             })
///             .collect();
///         workers.into_iter().map(|worker| worker.join().unwrap()).collect()
///     });
///     assert_eq!(halves[1][0], frame + 100);
///     assert_eq!(arenas.used(), 2 * 800);
///     arenas.reset(); // `halves` is no longer used: the frame can end
/// }
/// assert!(arenas.len() <= 2, "threads of later frames took over the arenas");
/// ```
///
/// # Patterns
///
/// **rayon**: call `local()` inside the job (example at
/// [`local`](Self::local)); the result borrows the set, so it can be
/// collected on the calling thread.
///
/// **Scopes**: [`scoped`](crate::scoped) works on any thread, each with
/// its own scope arenas, so a job can search in a scope and keep only its
/// answer in `local()`:
///
/// ```
/// use tickarena::{ThreadArenas, scoped};
///
/// let arenas = ThreadArenas::new();
/// let answers: Vec<&u64> = std::thread::scope(|s| {
///     let jobs: Vec<_> = (0..2u64)
///         .map(|job| {
///             let arenas = &arenas;
///             s.spawn(move || {
///                 let best = scoped(|temp| {
///                     let candidates = temp.alloc_slice_fill_with(10_000, |i| i as u64 ^ job);
///                     *candidates.iter().max().unwrap()
///                 });
///                 &*arenas.local().alloc(best) // 8 bytes kept, not 80 KB
///             })
///         })
///         .collect();
///     jobs.into_iter().map(|j| j.join().unwrap()).collect()
/// });
/// assert_eq!((*answers[0], *answers[1]), (9999, 9999));
/// assert_eq!(arenas.used(), 16);
/// ```
///
/// **Freezing**: an arena `Vec` cannot leave its thread (`&FrameArena` is
/// not `Send`), but its elements can: `Vec::leak` turns a
/// `Vec<T, &'a FrameArena>` into `&'a mut [T]`, and
/// [`FrameArena::alloc_str`] copies text into a `&'a mut str`.
///
/// **Why `reset` needs `&mut`**: results handed back from workers borrow
/// the set, so the frame cannot end while one is still used:
///
/// ```compile_fail,E0502
/// let mut arenas = tickarena::ThreadArenas::new();
/// let from_worker: &str = std::thread::scope(|scope| {
///     scope.spawn(|| &*arenas.local().alloc_str("done")).join().unwrap()
/// });
/// arenas.reset(); // error: `arenas` is still borrowed by `from_worker`
/// println!("{from_worker}");
/// ```
pub struct ThreadArenas {
    /// This set's key for the current frame (see the module docs); changes
    /// at every reset, and no other set or frame ever has it.
    frame_key: u64,
    registry: Mutex<Registry>,
    builder: FrameArenaBuilder,
    /// The most bytes all threads' arenas held in one finished frame.
    high_water: usize,
    /// Resets of the set.
    frames: u64,
    /// The last finished frame's bytes per tag, summed over the threads.
    last_frame_tags: TagBytes,
    last_frame_refusals: Refusals,
    /// The set's budgets (its builder's), on the sum over the threads:
    /// its arenas check none of their own.
    budgets: Budgets,
    /// The set's sums in Tracy, under the builder's name (its arenas are
    /// not plotted one by one).
    #[cfg(feature = "tracy")]
    plots: crate::tracy::ArenaPlots,
}

/// The arenas, and which thread has each one this frame.
struct Registry {
    /// Never moves an element, so the `&FrameArena`s handed out stay valid
    /// while more arenas are added.
    arenas: SegmentedList<CachePadded>,
    /// Per arena (same index): who has it this frame and who had it last.
    claims: Vec<Claim>,
}

/// One thread's arena on cache lines of its own: each thread writes its
/// arena's top on every allocation, and two arenas sharing a line would
/// make the threads' cores pass it back and forth (false sharing). 128
/// bytes, since x86 prefetches lines in pairs.
#[repr(C, align(128))]
struct CachePadded(FrameArena);

impl Registry {
    /// A pointer to arena `index`, derived from the list's segment (see
    /// `SegmentedList::get_ptr`): valid while arenas are added, for as long
    /// as the list.
    fn arena_ptr(&self, index: usize) -> NonNull<FrameArena> {
        let padded = self
            .arenas
            .get_ptr(index)
            .expect("an arena at every index below len");
        padded.cast::<FrameArena>() // `repr(C)`: the only field, at offset 0
    }
}

#[derive(Clone, Copy)]
struct Claim {
    /// The thread that has the arena this frame, or [`NO_THREAD`].
    holder: u64,
    /// The thread that had it most recently, so it gets it back.
    last_holder: u64,
    /// The frame it was last claimed in: an arena nobody claimed for a
    /// while most likely belonged to a thread that ended.
    last_frame: u64,
}

const NO_THREAD: u64 = 0;

/// Keys of sets and frames: starts at 1 so that 0 (an empty cache) never
/// matches.
static NEXT_FRAME_KEY: AtomicU64 = AtomicU64::new(1);
/// Ids of threads, as this module numbers them: never reused.
static NEXT_THREAD: AtomicU64 = AtomicU64::new(1);

/// How many sets a thread finds its arena in without the lock, each frame.
pub(crate) const CACHE_SLOTS: usize = 4;

/// What a thread remembers of an arena it was given.
#[derive(Clone, Copy)]
struct Cached {
    frame_key: u64,
    arena: *const FrameArena,
    /// The arena's index in the set (see `try_local_with_index`).
    index: usize,
}

const EMPTY_SLOT: Cached = Cached {
    frame_key: 0,
    arena: ptr::null(),
    index: 0,
};

thread_local! {
    /// The arenas this thread was given most recently, newest first. No
    /// destructor, so it is usable for all of the thread's life, its
    /// teardown included.
    static CACHED: [Cell<Cached>; CACHE_SLOTS] = const {
        [const { Cell::new(EMPTY_SLOT) }; CACHE_SLOTS]
    };
    /// This thread's id (`NO_THREAD` until it first claims an arena).
    static THREAD: Cell<u64> = const { Cell::new(NO_THREAD) };
}

fn new_frame_key() -> u64 {
    NEXT_FRAME_KEY.fetch_add(1, Ordering::Relaxed)
}

fn this_thread() -> u64 {
    THREAD.with(|id| {
        if id.get() == NO_THREAD {
            id.set(NEXT_THREAD.fetch_add(1, Ordering::Relaxed));
        }
        id.get()
    })
}

impl ThreadArenas {
    /// A set whose arenas are made as [`FrameArena::new`] makes them. Makes
    /// no arena (and allocates nothing) until a thread asks for one.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// assert_eq!(arenas.len(), 0);
    /// assert_eq!(*arenas.local().alloc(7), 7);
    /// assert_eq!(arenas.len(), 1);
    /// ```
    pub fn new() -> ThreadArenas {
        ThreadArenas::with_builder(FrameArena::builder())
    }

    /// A set whose arenas are made from `builder` (reservation, retained
    /// size, huge pages), one per thread.
    ///
    /// The builder's budgets ([`budget`](FrameArenaBuilder::budget),
    /// [`frame_budget`](FrameArenaBuilder::frame_budget)) are on the
    /// frame's sum over the threads, checked by the set at its
    /// [`reset`](Self::reset) with the builder's policy (the arenas check
    /// none of their own): see `guide::budgets`.
    ///
    /// # Example
    ///
    /// ```
    /// let builder = tickarena::FrameArena::builder().reserve(64 << 20).retain(1 << 20);
    /// let arenas = tickarena::ThreadArenas::with_builder(builder);
    /// assert_eq!(arenas.local().stats().reserved, 64 << 20);
    /// ```
    ///
    /// A budget of 200 bytes for a tag, which two threads of 150 each
    /// break together:
    ///
    /// ```
    /// use tickarena::{BudgetPolicy, FrameArena, Tag, ThreadArenas};
    ///
    /// const JOBS: Tag = Tag::new("jobs");
    /// let builder = FrameArena::builder().budget(JOBS, 200).budget_policy(BudgetPolicy::Count);
    /// let mut arenas = ThreadArenas::with_builder(builder);
    /// std::thread::scope(|scope| {
    ///     for _ in 0..2 {
    ///         scope.spawn(|| {
    ///             let _jobs = arenas.local().tag(JOBS);
    ///             arenas.local().alloc([0u8; 150]);
    ///         });
    ///     }
    /// });
    /// arenas.reset();
    /// assert_eq!(arenas.stats().over_budget, 1);
    /// assert!(arenas.last_frame_tag_bytes().over_budget().eq([(JOBS, 300, 200)]));
    /// ```
    pub fn with_builder(builder: FrameArenaBuilder) -> ThreadArenas {
        ThreadArenas {
            frame_key: new_frame_key(),
            registry: Mutex::new(Registry {
                arenas: SegmentedList::new(),
                claims: Vec::new(),
            }),
            #[cfg(feature = "tracy")]
            plots: crate::tracy::ArenaPlots::new(Some(
                builder.arena_name().unwrap_or("tickarena threads"),
            )),
            budgets: builder.budgets(),
            builder,
            high_water: 0,
            frames: 0,
            last_frame_tags: TagBytes::default(),
            last_frame_refusals: Refusals::default(),
        }
    }

    /// The calling thread's arena for this frame.
    ///
    /// A thread's first call in a frame takes the set's lock to claim an
    /// arena; later calls find it again in a thread-local cache, without a
    /// lock. The cache holds the arenas of the last four sets a thread used,
    /// so a thread that works in up to four sets per frame (the frame loop's
    /// and a Bevy app's, say) still takes each set's lock once per frame.
    ///
    /// # Panics
    ///
    /// If the thread has no arena yet and the OS refuses to reserve one
    /// (see [`try_local`](Self::try_local)).
    ///
    /// # Example
    ///
    /// With rayon: each job allocates in its worker's arena and hands its
    /// result back as a slice (an arena `Vec` frozen with `leak`).
    ///
    /// ```
    /// use rayon::prelude::*;
    ///
    /// let arenas = tickarena::ThreadArenas::new();
    /// let positions: Vec<[f32; 2]> = (0..10_000).map(|i| [i as f32, 0.0]).collect();
    /// let visible: Vec<&[u32]> = positions
    ///     .par_chunks(1024)
    ///     .enumerate()
    ///     .map(|(chunk, points)| {
    ///         let arena = arenas.local(); // this worker's arena, the same all frame
    ///         let mut ids = Vec::new_in(arena);
    ///         let first = 1024 * chunk as u32;
    ///         ids.extend((0..points.len() as u32).filter(|i| i % 3 == 0).map(|i| first + i));
    ///         &*ids.leak()
    ///     })
    ///     .collect();
    /// let expected: usize = positions.chunks(1024).map(|c| c.len().div_ceil(3)).sum();
    /// assert_eq!(visible.iter().map(|ids| ids.len()).sum::<usize>(), expected);
    /// assert!(arenas.len() <= rayon::current_num_threads() + 1);
    /// ```
    #[inline]
    #[track_caller]
    pub fn local(&self) -> &FrameArena {
        match self.try_local() {
            Ok(arena) => arena,
            Err(error) => panic!("tickarena: cannot make this thread's FrameArena: {error}"),
        }
    }

    /// The calling thread's arena for this frame, or why it could not be
    /// made.
    ///
    /// # Errors
    ///
    /// [`ArenaError`] from the builder, when the thread has no arena yet and
    /// none is free to take over.
    ///
    /// # Example
    ///
    /// ```
    /// let builder = tickarena::FrameArena::builder().reserve(0);
    /// let arenas = tickarena::ThreadArenas::with_builder(builder);
    /// assert_eq!(arenas.try_local().unwrap_err(), tickarena::ArenaError::ZeroReserve);
    /// ```
    #[inline]
    pub fn try_local(&self) -> Result<&FrameArena, ArenaError> {
        self.try_local_with_index().map(|(arena, _)| arena)
    }

    /// [`try_local`](Self::try_local), and the index of the arena in the
    /// set: below [`len`](Self::len), the same for a thread's every call in
    /// a frame, and no two threads hold the same index in one frame (an
    /// index is an arena, which one thread claims per frame).
    #[inline]
    pub(crate) fn try_local_with_index(&self) -> Result<(&FrameArena, usize), ArenaError> {
        match self.newest_local_with_index() {
            Some(found) => Ok(found),
            None => self.older_local_with_index(),
        }
    }

    /// This thread's arena and its index when this set is the one the
    /// thread used most recently this frame: one thread-local read and a
    /// compare, small enough to inline into a per-element loop.
    #[inline]
    pub(crate) fn newest_local_with_index(&self) -> Option<(&FrameArena, usize)> {
        let newest = CACHED.with(|slots| slots[0].get());
        if newest.frame_key != self.frame_key {
            return None;
        }
        // The key is this set's for this frame, so `claim` stored the
        // pointer for this thread during this frame: it points into
        // `registry.arenas` (elements never move, and the list lives as
        // long as `self`), and the arena is this thread's alone until
        // `reset(&mut self)`, which cannot happen while the returned
        // borrow of `self` lives.
        // SAFETY: a valid pointer to this thread's arena for this frame (above).
        Some((unsafe { &*newest.arena }, newest.index))
    }

    /// The rest of [`try_local_with_index`](Self::try_local_with_index):
    /// the thread's other cached sets, then a claim. Out of line, so that
    /// callers in hot loops inline only the newest-slot check.
    #[inline(never)]
    fn older_local_with_index(&self) -> Result<(&FrameArena, usize), ArenaError> {
        let cached = CACHED.with(|slots| {
            slots[1..]
                .iter()
                .map(Cell::get)
                .find(|slot| slot.frame_key == self.frame_key)
        });
        match cached {
            // As in `newest_local_with_index`: `claim` stored this pointer
            // for this thread during this frame.
            // SAFETY: a valid pointer to this thread's arena for this frame.
            Some(cached) => Ok((unsafe { &*cached.arena }, cached.index)),
            None => self.claim(),
        }
    }

    /// Finds or makes this thread's arena for the frame, under the lock.
    /// `#[cold]`: once per thread per frame, against every other `local()`.
    #[cold]
    #[inline(never)]
    fn claim(&self) -> Result<(&FrameArena, usize), ArenaError> {
        let thread = this_thread();
        let mut registry = self.lock();
        let Registry { arenas, claims } = &mut *registry;
        let held = claims.iter().position(|claim| claim.holder == thread);
        let index = match held {
            Some(index) => index, // claimed earlier this frame; the cache moved on
            None => match Self::free_arena_for(thread, claims) {
                Some(index) => index,
                None => {
                    let mut arena = self.builder.clone().build()?;
                    arena.leave_budgets_to_owner();
                    #[cfg(feature = "tracy")]
                    arena.stop_plotting();
                    arenas.push(CachePadded(arena));
                    claims.push(Claim {
                        holder: NO_THREAD,
                        last_holder: NO_THREAD,
                        last_frame: 0,
                    });
                    claims.len() - 1
                }
            },
        };
        claims[index] = Claim {
            holder: thread,
            last_holder: thread,
            last_frame: self.frames,
        };
        let arena = registry.arena_ptr(index);
        drop(registry);
        #[cfg(test)]
        tests::CLAIMS.with(|claims| claims.set(claims.get() + 1));
        // Newest first: the others move down a slot, the oldest falls out.
        CACHED.with(|slots| {
            for slot in (1..CACHE_SLOTS).rev() {
                slots[slot].set(slots[slot - 1].get());
            }
            slots[0].set(Cached {
                frame_key: self.frame_key,
                arena: arena.as_ptr(),
                index,
            });
        });
        // SAFETY: `get_ptr` derives the pointer from the list's segment, so
        // it stays valid while arenas are pushed (by other threads' claims)
        // and for as long as the list, which `self` owns; the claim gives
        // the arena to this thread alone until `reset(&mut self)`.
        Ok((unsafe { arena.as_ref() }, index))
    }

    /// The free arena `thread` should take: the one it had last, else the
    /// one unclaimed the longest (its thread has most likely ended; on a tie
    /// the newest, since long-lived threads tend to claim first).
    fn free_arena_for(thread: u64, claims: &[Claim]) -> Option<usize> {
        let free = |claim: &&Claim| claim.holder == NO_THREAD;
        let own_last = claims
            .iter()
            .position(|claim| free(&claim) && claim.last_holder == thread);
        own_last.or_else(|| {
            let oldest = claims.iter().enumerate().filter(|(_, claim)| free(claim));
            oldest
                .min_by_key(|&(index, claim)| (claim.last_frame, usize::MAX - index))
                .map(|(index, _)| index)
        })
    }

    /// Ends the frame on every thread's arena at once: all their
    /// allocations are gone, and any thread may take any arena next frame.
    /// Then the set's budgets are checked on the frame's sum (see
    /// [`with_builder`](Self::with_builder)): a
    /// [`BudgetPolicy::Panic`](crate::BudgetPolicy::Panic) panics once
    /// every arena is reset.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arenas = tickarena::ThreadArenas::new();
    /// std::thread::scope(|scope| {
    ///     scope.spawn(|| arenas.local().alloc_str("made on a worker"));
    /// });
    /// assert_eq!(arenas.used(), 16);
    /// arenas.reset();
    /// assert_eq!(arenas.used(), 0);
    /// assert_eq!(arenas.stats().high_water, 16);
    /// ```
    pub fn reset(&mut self) {
        self.reset_deferring_panic().panic_unless_unwinding();
    }

    /// [`reset`](Self::reset), handing back the breaches a
    /// [`BudgetPolicy::Panic`](crate::BudgetPolicy::Panic) is to panic
    /// with: every arena is reset first.
    pub(crate) fn reset_deferring_panic(&mut self) -> FrameBreaches {
        let peak = self.peak();
        self.high_water = self.high_water.max(peak);
        // The tables are read before the arenas empty them.
        self.last_frame_tags = self.tag_bytes();
        let registry = self
            .registry
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let mut refusals = Refusals::default();
        for CachePadded(arena) in registry.arenas.iter_mut() {
            refusals.add(&arena.refusals());
            // Checks no budget (the set does, below): cannot panic.
            arena.reset();
        }
        self.last_frame_refusals = refusals;
        for claim in &mut registry.claims {
            claim.holder = NO_THREAD;
        }
        // Every cached arena pointer now has a stale key.
        self.frame_key = new_frame_key();
        let name = self.builder.arena_name();
        let breaches =
            self.budgets
                .check(name, self.frames, self.last_frame_tags.over_budget(), peak);
        self.frames += 1;
        #[cfg(feature = "tracy")]
        {
            let committed = self.stats().committed;
            self.plots.plot(peak, self.high_water, committed);
            // Untagged sets plot no tag (as an untagged arena does not).
            if self.last_frame_tags.iter().len() > 1 {
                self.plots.plot_tags(&self.last_frame_tags);
            }
        }
        breaches
    }

    /// This frame's bytes per tag, summed over every thread's arena (each
    /// charged on its own thread, see [`FrameArena::tag`]). Needs `&mut`:
    /// no thread may be using the arenas while their tables are read.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{Tag, ThreadArenas};
    ///
    /// const JOBS: Tag = Tag::new("jobs");
    /// let mut arenas = ThreadArenas::new();
    /// std::thread::scope(|scope| {
    ///     for _ in 0..2 {
    ///         scope.spawn(|| {
    ///             let arena = arenas.local();
    ///             let _jobs = arena.tag(JOBS);
    ///             arena.alloc([0u8; 100]);
    ///         });
    ///     }
    /// });
    /// assert_eq!(arenas.tag_bytes().get(JOBS), 200);
    /// ```
    pub fn tag_bytes(&mut self) -> TagBytes {
        let registry = self
            .registry
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        let mut tags = TagBytes::default();
        for CachePadded(arena) in registry.arenas.iter() {
            tags.add(&arena.tag_bytes());
        }
        // The set's budgets are on the sum.
        tags.judge();
        tags
    }

    /// The last finished frame's bytes per tag, summed over the threads
    /// (taken at [`reset`](Self::reset), before the arenas were emptied).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{Tag, ThreadArenas};
    ///
    /// const JOBS: Tag = Tag::new("jobs");
    /// let mut arenas = ThreadArenas::new();
    /// {
    ///     let arena = arenas.local();
    ///     let _jobs = arena.tag(JOBS);
    ///     arena.alloc(0u64);
    /// }
    /// arenas.reset();
    /// assert_eq!(arenas.last_frame_tag_bytes().get(JOBS), 8);
    /// ```
    pub fn last_frame_tag_bytes(&self) -> TagBytes {
        self.last_frame_tags
    }

    /// The last finished frame's refused allocations, summed over the
    /// threads (taken at [`reset`](Self::reset), before the arenas
    /// forgot them).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, ThreadArenas};
    ///
    /// let mut arenas = ThreadArenas::with_builder(FrameArena::builder().reserve(64 << 10));
    /// assert!(arenas.local().try_alloc([0u8; 100 << 10]).is_err());
    /// arenas.reset();
    /// assert_eq!(arenas.last_frame_refusals().count(), 1);
    /// assert_eq!(arenas.last_frame_refusals().bytes(), 100 << 10);
    /// ```
    pub fn last_frame_refusals(&self) -> Refusals {
        self.last_frame_refusals
    }

    /// The set's whole-frame budget
    /// ([`FrameArenaBuilder::frame_budget`] on its builder): on the frame's
    /// [`peak`](Self::peak), the threads' peaks summed.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, ThreadArenas};
    ///
    /// let arenas = ThreadArenas::with_builder(FrameArena::builder().frame_budget(1 << 20));
    /// assert_eq!(arenas.frame_budget(), Some(1 << 20));
    /// assert_eq!(ThreadArenas::new().frame_budget(), None);
    /// ```
    pub fn frame_budget(&self) -> Option<usize> {
        self.budgets.frame_budget
    }

    /// Ends the frame like [`reset`](Self::reset), by value.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arenas = tickarena::ThreadArenas::new();
    /// let label = arenas.local().alloc_str("frame 1");
    /// assert_eq!(label, "frame 1");
    /// arenas = arenas.reclaim(); // `label` cannot be used from here on
    /// assert_eq!(arenas.used(), 0);
    /// ```
    #[must_use = "the reclaimed arenas are the ones to use for the next frame"]
    pub fn reclaim(mut self) -> ThreadArenas {
        self.reset();
        self
    }

    /// Bytes handed out this frame, over all threads' arenas.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// arenas.local().alloc(1u64);
    /// std::thread::scope(|scope| {
    ///     scope.spawn(|| arenas.local().alloc(2u32));
    /// });
    /// assert_eq!(arenas.used(), 12);
    /// ```
    pub fn used(&self) -> usize {
        self.sum(FrameArena::used)
    }

    /// The frame's peak: the sum of each thread's peak this frame (bytes
    /// given back at the top of an arena count, as in [`FrameArena::peak`]).
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// drop(Vec::<u8, _>::with_capacity_in(1000, arenas.local()));
    /// assert_eq!((arenas.used(), arenas.peak()), (0, 1000));
    /// ```
    pub fn peak(&self) -> usize {
        self.sum(FrameArena::peak)
    }

    /// The set's figures: `used`, `committed` and `reserved` summed over the
    /// threads' arenas, `high_water` the most any frame used in all of them
    /// (see [`peak`](Self::peak)), `frames` the resets of the set.
    ///
    /// # Example
    ///
    /// ```
    /// let mut arenas = tickarena::ThreadArenas::new();
    /// arenas.local().alloc([0u8; 100]);
    /// arenas.reset();
    /// let stats = arenas.stats();
    /// assert_eq!((stats.used, stats.high_water, stats.frames), (0, 100, 1));
    /// assert!(stats.committed >= 100);
    /// ```
    pub fn stats(&self) -> ArenaStats {
        let mut total = ArenaStats {
            used: 0,
            high_water: 0,
            committed: 0,
            reserved: 0,
            frames: self.frames,
            over_budget: self.budgets.breaches,
        };
        self.for_each_thread(|stats| {
            total.used += stats.used;
            total.committed += stats.committed;
            total.reserved += stats.reserved;
        });
        total.high_water = self.high_water.max(self.peak());
        total
    }

    /// Calls `visit` with the figures of each arena, in the order they were
    /// made (for a per-thread report). `visit` may use this set (its
    /// figures, `local`): no lock is held while it runs.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// arenas.local().alloc(0u16);
    /// let mut per_thread = Vec::new();
    /// arenas.for_each_thread(|stats| per_thread.push(stats.used));
    /// assert_eq!(per_thread, [2]);
    /// ```
    pub fn for_each_thread(&self, mut visit: impl FnMut(ArenaStats)) {
        // The lock is held only to find each arena, never while `visit`
        // runs: a visitor may call `used`, `len`, `stats` or `local` on
        // this same set. Arenas made meanwhile by other threads may be
        // left out (they are counted from the next call on).
        let len = self.len();
        for index in 0..len {
            let arena = self.lock().arena_ptr(index);
            // The arena may be in use by another thread right now, so only
            // its figures are read: `stats` reads fields that its thread
            // writes through atomics (`Published`) and fields that change
            // only under `&mut` (which no one has while `self` is borrowed).
            // SAFETY: the pointer is valid (see `claim`: arenas never move
            // and live as long as `self`); only figures are read (above).
            visit(unsafe { arena.as_ref() }.stats());
        }
    }

    /// Arenas made so far (at most the number of threads that used the set
    /// in one frame).
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// assert!(arenas.is_empty());
    /// arenas.local();
    /// assert_eq!(arenas.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().arenas.len()
    }

    /// Whether no thread has asked for an arena yet.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::ThreadArenas::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn sum(&self, figure: fn(&FrameArena) -> usize) -> usize {
        let registry = self.lock();
        (0..registry.arenas.len())
            .map(|index| {
                let arena = registry.arena_ptr(index);
                // SAFETY: as in `for_each_thread`: `used` and `peak` read
                // only published figures.
                figure(unsafe { arena.as_ref() })
            })
            .sum()
    }

    /// The registry; a panic while it was held left it consistent (claims
    /// are written whole), so poisoning is ignored.
    fn lock(&self) -> MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for ThreadArenas {
    /// Same as [`ThreadArenas::new`].
    fn default() -> Self {
        ThreadArenas::new()
    }
}

impl core::fmt::Debug for ThreadArenas {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ThreadArenas")
            .field("threads", &self.len())
            .field("stats", &self.stats())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    thread_local! {
        /// Claims made by this thread (each one takes the set's lock).
        pub(super) static CLAIMS: Cell<usize> = const { Cell::new(0) };
    }

    #[test]
    fn up_to_four_sets_per_thread_take_the_lock_once_per_frame() {
        let sets: Vec<ThreadArenas> = (0..CACHE_SLOTS).map(|_| ThreadArenas::new()).collect();
        let before = CLAIMS.get();
        // (Fewer rounds interpreted: each `local()` is a few milliseconds.)
        for round in 0..if cfg!(miri) { 100 } else { 1000u32 } {
            for set in &sets {
                set.local().alloc(round);
            }
        }
        assert_eq!(CLAIMS.get() - before, CACHE_SLOTS, "one claim per set");
        // A fifth set pushes the oldest out: then every switch claims again.
        let fifth = ThreadArenas::new();
        let before = CLAIMS.get();
        for _ in 0..10 {
            for set in sets.iter().chain([&fifth]) {
                set.local().alloc(0u8);
            }
        }
        assert!(CLAIMS.get() - before > 10, "the limit is real");
    }

    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
    fn a_visitor_may_use_the_set_it_visits() {
        let arenas = std::sync::Arc::new(ThreadArenas::new());
        arenas.local().alloc(1u64);
        let (done, finished) = std::sync::mpsc::channel();
        // Detached, so that a deadlock fails the test instead of hanging it.
        let visiting = std::sync::Arc::clone(&arenas);
        std::thread::spawn(move || {
            let mut seen = 0;
            visiting.for_each_thread(|stats| {
                seen += stats.used + visiting.used() + visiting.len() + visiting.stats().used;
                visiting.local().alloc(2u8); // this thread's first claim
            });
            done.send(seen).unwrap();
        });
        let seen = finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("for_each_thread deadlocked on its own set");
        assert_eq!(seen, 8 + 8 + 1 + 8);
        assert_eq!(arenas.len(), 2);
    }
}
