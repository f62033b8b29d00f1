//! [`Collector`]: results pushed by parallel jobs (rayon, Bevy's
//! `par_iter`), each thread's part in its own [`ThreadArenas`] arena, all
//! read back by the thread that made the collector once the jobs are done.
//!
//! A job pushes with `&self`: the calling thread's part is found by the
//! index of its arena in the set (cached per thread, see
//! `ThreadArenas::try_local_with_index`), which no other thread holds this
//! frame, so pushes take no lock and no atomic read-modify-write. A part is
//! a list of chunks (16, 32, … up to 4096 values) allocated in the pushing
//! thread's arena and never freed one by one: the frame's reset takes them.
//! The table of parts is allocated in the arena of the thread that made the
//! collector, with room for every thread the set has seen (and the
//! machine's cores); a thread beyond that pushes into one part shared under
//! a lock.

use core::alloc::{Allocator, Layout};
use core::cell::UnsafeCell;
use core::fmt;
use core::mem::MaybeUninit;
use core::ptr::{self, NonNull};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::arena::FrameArena;
use crate::threads::ThreadArenas;

/// Values of one chunk of a part, at first.
const FIRST_CHUNK: usize = 16;
/// Values of a chunk, at most.
const LARGEST_CHUNK: usize = 4096;

/// Values pushed by parallel jobs into their threads' arenas, read back
/// together afterwards: like Bevy's `Parallel<Vec<T>>` or a `Mutex<Vec<T>>`,
/// without the heap (every part is frame memory) and without a lock per
/// push.
///
/// Made by [`ThreadArenas::collector`]; lives no longer than the borrow of
/// the set (so no longer than the frame). Jobs share it by reference and
/// [`push`](Self::push); once they are done, [`drain`](Self::drain) hands
/// every value over, thread by thread, each thread's in the order it pushed
/// them. Values not drained are dropped with the collector.
///
/// # Example
///
/// ```
/// use rayon::prelude::*;
/// use tickarena::ThreadArenas;
///
/// let arenas = ThreadArenas::new();
/// let healths: Vec<i32> = (0..10_000).map(|i| i % 100 - 5).collect();
/// let mut dying = arenas.collector();
/// healths.par_iter().enumerate().for_each(|(id, &health)| {
///     if health <= 0 {
///         dying.push(id); // this worker's part, in its arena
///     }
/// });
/// let mut ids: Vec<usize> = dying.drain().collect();
/// ids.sort_unstable();
/// assert_eq!(ids.len(), 600);
/// assert_eq!(ids[..3], [0, 1, 2]);
/// ```
pub struct Collector<'a, T> {
    arenas: &'a ThreadArenas,
    /// Part `i` is pushed to only by the thread holding arena `i` of the
    /// set this frame.
    parts: &'a [Part<T>],
    /// Where threads with an index past `parts` push, one at a time.
    overflow: Mutex<Chunks<T>>,
}

/// One thread's values.
struct Part<T>(UnsafeCell<Chunks<T>>);

/// A list of chunks in arena memory; `last` is the one being filled.
struct Chunks<T> {
    first: Option<NonNull<Chunk<T>>>,
    last: Option<NonNull<Chunk<T>>>,
}

/// `len` initialised values at the start of `values`.
struct Chunk<T> {
    next: Option<NonNull<Chunk<T>>>,
    len: usize,
    values: NonNull<[MaybeUninit<T>]>,
}

// SAFETY: a `Collector` hands each thread only its own part (by the arena
// index no other thread holds this frame) or the overflow part under its
// lock, so sharing it lets threads send `T`s to the one that drains: `T`
// must be `Send`, nothing more.
unsafe impl<T: Send> Sync for Collector<'_, T> {}
// SAFETY: moving the collector moves the `T`s it holds (all pushes are
// done: moving needs it by value).
unsafe impl<T: Send> Send for Collector<'_, T> {}

impl<T> Chunks<T> {
    const EMPTY: Chunks<T> = Chunks {
        first: None,
        last: None,
    };

    /// Appends `value` when the last chunk has room; gives it back
    /// otherwise.
    #[inline]
    fn push_in_room(&mut self, value: T) -> Result<(), T> {
        let Some(mut last) = self.last else {
            return Err(value);
        };
        // SAFETY: chunks of this list are valid while the arena's frame
        // lasts, which outlives the collector, and only the caller
        // (holding `&mut self`) touches them.
        let chunk = unsafe { last.as_mut() };
        if chunk.len == chunk.values.len() {
            return Err(value);
        }
        // SAFETY: as above; the chunk has room at `len`.
        unsafe { chunk.values.cast::<T>().add(chunk.len).write(value) };
        chunk.len += 1;
        Ok(())
    }

    /// Appends `value`, with a new chunk from `arena` when the last is full.
    ///
    /// # Errors
    ///
    /// `value` back, with the layout the arena refused, when it cannot
    /// serve a new chunk: the caller drops it (and panics) once it no longer
    /// holds this list, since dropping it may push to the same collector.
    fn push(&mut self, value: T, arena: &FrameArena) -> Result<(), (T, Layout)> {
        let value = match self.push_in_room(value) {
            Ok(()) => return Ok(()),
            Err(value) => value,
        };
        if let Err(refused) = self.grow(arena) {
            return Err((value, refused));
        }
        self.push_in_room(value)
            .map_err(|_| unreachable!("a new chunk has room"))
    }

    /// Values in the list: a walk over its chunks (a few per thread).
    fn len(&self) -> usize {
        let mut len = 0;
        let mut chunk = self.first;
        while let Some(at) = chunk {
            // SAFETY: as in `push`; the caller holds the list (`&self` of
            // a list no push is writing: see `Collector::len`).
            let at = unsafe { at.as_ref() };
            len += at.len;
            chunk = at.next;
        }
        len
    }

    /// Links a new, empty chunk twice the size of the last (16 to 4096).
    #[cold]
    #[inline(never)]
    ///
    /// # Errors
    ///
    /// The layout the arena refused.
    fn grow(&mut self, arena: &FrameArena) -> Result<(), Layout> {
        let capacity = match self.last {
            // SAFETY: as in `push`.
            Some(last) => (unsafe { last.as_ref().values.len() } * 2).min(LARGEST_CHUNK),
            None => FIRST_CHUNK,
        };
        let refused = |layout: Result<Layout, _>| layout.unwrap_or(Layout::new::<T>());
        let values = arena
            .try_alloc_uninit_slice::<T>(capacity)
            .map_err(|_| refused(Layout::array::<T>(capacity)))?;
        let chunk = Chunk {
            next: None,
            len: 0,
            values: NonNull::from(values),
        };
        let chunk = NonNull::from(
            arena
                .try_alloc(chunk)
                .map_err(|_| Layout::new::<Chunk<T>>())?,
        );
        match self.last {
            // SAFETY: as in `push`.
            Some(mut last) => unsafe { last.as_mut().next = Some(chunk) },
            None => self.first = Some(chunk),
        }
        self.last = Some(chunk);
        Ok(())
    }
}

/// The machine's cores, read once: `available_parallelism` allocates.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

impl ThreadArenas {
    /// A [`Collector`] for values that parallel jobs push from their
    /// threads, read back once the jobs are done. Its table of parts is
    /// allocated in the calling thread's arena.
    ///
    /// # Panics
    ///
    /// As [`local`](Self::local) does, if the calling thread has no arena
    /// yet and the OS refuses to reserve one.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// let mut squares = arenas.collector();
    /// std::thread::scope(|s| {
    ///     for t in 0..4u64 {
    ///         let squares = &squares;
    ///         s.spawn(move || (0..100).for_each(|i| squares.push((t * 100 + i).pow(2))));
    ///     }
    /// });
    /// assert_eq!(squares.drain().count(), 400);
    /// ```
    #[track_caller]
    pub fn collector<T>(&self) -> Collector<'_, T> {
        let slots = self.len().max(cores()) + 1;
        let parts = self
            .local()
            .alloc_slice_fill_with(slots, |_| Part(UnsafeCell::new(Chunks::EMPTY)));
        Collector {
            arenas: self,
            parts,
            overflow: Mutex::new(Chunks::EMPTY),
        }
    }
}

impl<'a, T> Collector<'a, T> {
    /// Adds `value` to the calling thread's part: a thread-local lookup and
    /// a store, or a new chunk from the thread's arena now and then.
    ///
    /// # Panics
    ///
    /// If the thread's arena cannot serve a new chunk (its reservation is
    /// exhausted), or the thread has no arena yet and the OS refuses one.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// let mut seen = arenas.collector();
    /// seen.push("main thread");
    /// assert_eq!(seen.drain().collect::<Vec<_>>(), ["main thread"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&self, value: T) {
        // The fast path, inlined into the job's loop: this thread's part
        // found through the newest cached arena, and a chunk with room.
        // Everything else is out of line: inlining it all made a
        // `par_iter` loop that pushed a tenth of its elements run at half
        // speed (its body no longer fit the caller's inlining).
        if let Some((_, index)) = self.arenas.newest_local_with_index()
            && let Some(part) = self.parts.get(index)
        {
            // Part `index` is only pushed to by the thread holding arena
            // `index` this frame (none other can while the collector
            // borrows the set), and `drain` needs `&mut self`, so no push
            // runs then.
            // SAFETY: so this thread is the only one using this part now.
            let chunks = unsafe { &mut *part.0.get() };
            match chunks.push_in_room(value) {
                Ok(()) => return,
                Err(value) => return self.push_slow(value),
            }
        }
        self.push_slow(value);
    }

    /// [`push`](Self::push) when the fast path cannot: the thread's arena
    /// is not its newest cached one, the thread has no part (the overflow,
    /// under its lock), or the last chunk is full.
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn push_slow(&self, value: T) {
        let (arena, index) = match self.arenas.try_local_with_index() {
            Ok(found) => found,
            Err(error) => panic!("tickarena: cannot make this thread's FrameArena: {error}"),
        };
        let pushed = match self.parts.get(index) {
            // As in `push`: this thread is the only one using part `index`.
            // SAFETY: so this thread is the only one using this part now.
            Some(part) => unsafe { (*part.0.get()).push(value, arena) },
            None => self
                .overflow
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(value, arena),
        };
        // The part (or the overflow's lock) is released by now: dropping
        // the value may push to this collector again.
        if let Err((value, refused)) = pushed {
            drop(value);
            arena.out_of_memory(refused);
        }
    }

    /// How many values were pushed (and not drained): with the collector
    /// by `&mut`, so once every job is done.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// let mut hits = arenas.collector();
    /// std::thread::scope(|s| {
    ///     for t in 0..3u32 {
    ///         let hits = &hits;
    ///         s.spawn(move || (0..10).for_each(|i| hits.push(t * 10 + i)));
    ///     }
    /// });
    /// assert_eq!(hits.len(), 30);
    /// let mut sorted = Vec::with_capacity(hits.len()); // sized once
    /// sorted.extend(hits.drain());
    /// assert_eq!(sorted.capacity(), 30);
    /// ```
    pub fn len(&mut self) -> usize {
        let overflow = self
            .overflow
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        let part_len = |part: &Part<T>| {
            // SAFETY: `&mut self`: no push runs now, and pushes on other
            // threads are done (the jobs that borrowed it have returned).
            unsafe { (*part.0.get()).len() }
        };
        overflow + self.parts.iter().map(part_len).sum::<usize>()
    }

    /// Whether no value was pushed (or all were drained).
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// let mut none = arenas.collector::<u8>();
    /// assert!(none.is_empty());
    /// ```
    pub fn is_empty(&mut self) -> bool {
        self.len() == 0
    }

    /// Every value pushed so far, moved out: each thread's part in turn,
    /// in the order its values were pushed. Values the iterator is dropped
    /// before reaching are dropped with it.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// let mut words = arenas.collector();
    /// words.push(String::from("a"));
    /// words.push(String::from("b"));
    /// let mut drain = words.drain();
    /// assert_eq!(drain.next().as_deref(), Some("a"));
    /// drop(drain); // "b" is dropped here
    /// assert_eq!(words.drain().count(), 0);
    /// ```
    pub fn drain(&mut self) -> Drain<'_, T> {
        let remaining = self.len();
        // Take every list out now: whatever happens to the iterator, each
        // value is moved out or dropped once.
        let overflow = core::mem::replace(
            self.overflow
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner),
            Chunks::EMPTY,
        );
        Drain {
            parts: self.parts,
            next_part: 0,
            overflow: Some(overflow),
            chunk: None,
            at: 0,
            remaining,
        }
    }
}

impl<T> Collector<'_, T> {
    /// Every value pushed so far, moved to the end of `out`, in
    /// [`drain`](Self::drain)'s order: what Bevy's `Parallel::drain_into`
    /// does for a `Parallel<Vec<T>>`. `out` grows once (as
    /// [`Vec::extend`] grows it, the same way when its allocator refuses),
    /// and each chunk of a part moves in one copy, not value by value.
    ///
    /// # Example
    ///
    /// ```
    /// let arenas = tickarena::ThreadArenas::new();
    /// let mut wanted = arenas.collector();
    /// std::thread::scope(|jobs| {
    ///     for job in 0..4u32 {
    ///         let wanted = &wanted;
    ///         jobs.spawn(move || {
    ///             for unit in (job * 250..(job + 1) * 250).filter(|unit| unit % 10 == 0) {
    ///                 wanted.push(unit); // this thread's part, in its arena
    ///             }
    ///         });
    ///     }
    /// });
    /// let frame = tickarena::FrameArena::new();
    /// let mut all = Vec::new_in(&frame);
    /// wanted.drain_into(&mut all);
    /// all.sort_unstable();
    /// assert_eq!(all.len(), 100);
    /// assert_eq!(all[..3], [0, 10, 20]);
    /// assert!(wanted.is_empty());
    /// ```
    pub fn drain_into<A: Allocator>(&mut self, out: &mut Vec<T, A>) {
        let mut drain = self.drain();
        out.reserve(drain.remaining);
        while let Some((first, count)) = drain.take_run() {
            // `take_run` handed over `count` initialised values at `first`,
            // counted as moved out: the drain never reads or drops them
            // again. `out` has room for every value left in the drain, these
            // included, and its buffer cannot overlap a chunk (chunks belong
            // to the collector alone). Nothing between the copy and
            // `set_len` can panic.
            // SAFETY: `count` values to move, room for them, no overlap.
            unsafe {
                let end = out.as_mut_ptr().add(out.len());
                ptr::copy_nonoverlapping(first.as_ptr(), end, count);
                out.set_len(out.len() + count);
            }
        }
    }
}

impl<T> Drop for Collector<'_, T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            self.drain().for_each(drop);
        }
    }
}

impl<T> fmt::Debug for Collector<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Collector")
            .field("parts", &self.parts.len())
            .finish_non_exhaustive()
    }
}

/// The values of a [`Collector`], moved out: made by [`Collector::drain`].
/// Its length is known from the start, so the values can be collected into
/// a vector sized once.
///
/// # Example
///
/// ```
/// let arenas = tickarena::ThreadArenas::new();
/// let mut ids = arenas.collector();
/// (0..5u32).for_each(|id| ids.push(id));
/// let drain = ids.drain();
/// assert_eq!(drain.len(), 5);
/// let sorted: Vec<u32> = drain.collect();
/// assert_eq!(sorted, [0, 1, 2, 3, 4]);
/// ```
pub struct Drain<'c, T> {
    parts: &'c [Part<T>],
    /// The next part whose list to take.
    next_part: usize,
    /// The overflow list, taken last.
    overflow: Option<Chunks<T>>,
    /// The chunk being read, and the index of its next value.
    chunk: Option<NonNull<Chunk<T>>>,
    at: usize,
    /// Values not yet moved out.
    remaining: usize,
}

impl<T> Iterator for Drain<'_, T> {
    type Item = T;

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }

    fn next(&mut self) -> Option<T> {
        loop {
            if let Some(chunk) = self.chunk {
                // SAFETY: the chunk was taken out of its list by this
                // iterator (which borrows the collector mutably: no pushes),
                // it is valid for the frame, and values `at..len` are
                // initialised and not yet moved out.
                let chunk = unsafe { chunk.as_ref() };
                if self.at < chunk.len {
                    self.at += 1;
                    self.remaining -= 1;
                    // SAFETY: as above; `at` moves past the value, so it is
                    // read once.
                    return Some(unsafe { chunk.values.cast::<T>().add(self.at - 1).read() });
                }
                (self.chunk, self.at) = (chunk.next, 0);
                continue;
            }
            self.chunk = self.next_list()?.first;
        }
    }
}

impl<T> Drain<'_, T> {
    /// The next part's list of chunks, taken out of it, then the overflow
    /// list; `None` once every list was taken.
    fn next_list(&mut self) -> Option<Chunks<T>> {
        let Some(part) = self.parts.get(self.next_part) else {
            return self.overflow.take();
        };
        self.next_part += 1;
        // SAFETY: no push runs while the collector is borrowed mutably, and
        // pushes on other threads are done (the jobs that borrowed it have
        // returned, which orders their writes before this read); the list
        // is taken, so each is read once.
        Some(unsafe { ptr::replace(part.0.get(), Chunks::EMPTY) })
    }

    /// The values of the chunk being read that are not moved out yet (or
    /// of the next chunk that has any), counted as moved out: the caller
    /// must move them (a pointer to the first, and how many).
    fn take_run(&mut self) -> Option<(NonNull<T>, usize)> {
        loop {
            if let Some(chunk) = self.chunk {
                // SAFETY: as in `next`: the chunk is this iterator's, valid
                // for the frame, its values `at..len` initialised and not
                // moved out.
                let chunk = unsafe { chunk.as_ref() };
                let at = self.at;
                // Every value of this chunk is the caller's now: the next
                // read starts at the next chunk.
                (self.chunk, self.at) = (chunk.next, 0);
                if at < chunk.len {
                    let count = chunk.len - at;
                    self.remaining -= count;
                    // SAFETY: `at < len`, inside the chunk's values.
                    let first = unsafe { chunk.values.cast::<T>().add(at) };
                    return Some((first, count));
                }
                continue;
            }
            self.chunk = self.next_list()?.first;
        }
    }
}

impl<T> ExactSizeIterator for Drain<'_, T> {}
impl<T> core::iter::FusedIterator for Drain<'_, T> {}

impl<T> Drop for Drain<'_, T> {
    fn drop(&mut self) {
        if core::mem::needs_drop::<T>() {
            self.for_each(drop);
        }
    }
}
