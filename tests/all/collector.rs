//! `Collector`: values pushed by parallel jobs into their threads' arenas,
//! drained together. Every value arrives once, each thread's in order;
//! every value is dropped once, drained or not; threads past the table of
//! parts share one part under a lock. Run under Miri and ThreadSanitizer
//! by `.ci/run`.

use std::sync::atomic::{AtomicUsize, Ordering};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::ThreadArenas;

const PER_THREAD: u64 = if cfg!(miri) { 100 } else { 10_000 };

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn every_value_arrives_once_in_its_threads_order() {
    let mut arenas = ThreadArenas::new();
    for frame in 0..3u64 {
        let mut collector = arenas.collector();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let collector = &collector;
                s.spawn(move || {
                    for i in 0..PER_THREAD {
                        collector.push((t, frame * PER_THREAD + i));
                    }
                });
            }
        });
        let mut last = [None; 4];
        let mut count = 0;
        for (t, value) in collector.drain() {
            let t = t as usize;
            assert!(
                last[t].is_none_or(|previous| previous < value),
                "thread {t}'s order"
            );
            last[t] = Some(value);
            count += 1;
        }
        assert_eq!(count, 4 * PER_THREAD);
        assert_eq!(last, [Some((frame + 1) * PER_THREAD - 1); 4]);
        drop(collector);
        assert!(arenas.used() > 0, "the parts are frame memory");
        arenas.reset();
    }
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn threads_beyond_the_table_share_a_part() {
    let arenas = ThreadArenas::new();
    // Made before any other thread has an arena: a table for the machine's
    // cores and one more (this thread holds index 0). Claims last the
    // frame, so each spawned thread holds an index of its own: the last 4
    // are past the table and share the overflow part.
    let mut collector = arenas.collector::<usize>();
    let threads = std::thread::available_parallelism().map_or(1, usize::from) + 4;
    std::thread::scope(|s| {
        for t in 0..threads {
            let collector = &collector;
            s.spawn(move || (0..50).for_each(|i| collector.push(t * 1000 + i)));
        }
    });
    let mut values: Vec<usize> = collector.drain().collect();
    values.sort_unstable();
    let expected: Vec<usize> = (0..threads)
        .flat_map(|t| (0..50).map(move |i| t * 1000 + i))
        .collect();
    assert_eq!(values, expected);
}

/// Drops of [`CountsDrops<N>`] values, one counter per test that counts
/// (the tests run in parallel).
static DROPS: [AtomicUsize; 2] = [const { AtomicUsize::new(0) }; 2];

/// A value whose drops count in `DROPS[N]`.
struct CountsDrops<const N: usize>(u64);

impl<const N: usize> Drop for CountsDrops<N> {
    fn drop(&mut self) {
        DROPS[N].fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn every_value_is_dropped_once() {
    let arenas = ThreadArenas::new();
    let before = DROPS[0].load(Ordering::Relaxed);
    {
        let mut collector = arenas.collector();
        std::thread::scope(|s| {
            for t in 0..3 {
                let collector = &collector;
                s.spawn(move || {
                    (0..100).for_each(|i| collector.push(CountsDrops::<0>(t * 100 + i)))
                });
            }
        });
        // Some moved out and dropped, the rest dropped with the iterator...
        let mut drain = collector.drain();
        drop(drain.by_ref().take(50).collect::<Vec<_>>());
        drop(drain);
        assert_eq!(DROPS[0].load(Ordering::Relaxed) - before, 300);
        // ...and values pushed after, with the collector.
        collector.push(CountsDrops::<0>(7));
    }
    assert_eq!(DROPS[0].load(Ordering::Relaxed) - before, 301);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn drain_into_moves_every_value_once_in_each_threads_order() {
    // Made before any other thread has an arena: threads past the
    // machine's cores push into the overflow part (as in
    // `threads_beyond_the_table_share_a_part`), which is moved last.
    let arenas = ThreadArenas::new();
    let frame = tickarena::FrameArena::new();
    let threads = std::thread::available_parallelism().map_or(1, usize::from) + 4;
    let per_thread = PER_THREAD / 2; // past the ends of chunks of 16, 32, …
    let mut collector = arenas.collector();
    std::thread::scope(|s| {
        for t in 0..threads {
            let collector = &collector;
            s.spawn(move || (0..per_thread).for_each(|i| collector.push((t, CountsDrops::<1>(i)))));
        }
    });
    // Into a vector that holds a value already: appended after it.
    let mut moved = Vec::new_in(&frame);
    moved.push((usize::MAX, CountsDrops::<1>(9)));
    collector.drain_into(&mut moved);
    assert!(collector.is_empty());
    drop(collector);
    assert_eq!(DROPS[1].load(Ordering::Relaxed), 0, "moved, not dropped");
    let values = threads * per_thread as usize;
    assert_eq!(moved.len(), 1 + values);
    assert_eq!(moved[0].1.0, 9);
    let mut next = vec![0; threads];
    for (t, CountsDrops(i)) in &moved[1..] {
        assert_eq!(
            *i, next[*t],
            "thread {t}'s values in the order it pushed them"
        );
        next[*t] += 1;
    }
    assert!(next.iter().all(|&count| count == per_thread));
    drop(moved);
    assert_eq!(DROPS[1].load(Ordering::Relaxed), 1 + values);
}

#[test]
fn drain_into_gives_one_threads_values_in_drains_order() {
    let arenas = ThreadArenas::new();
    let mut collector = arenas.collector();
    // 16 + 32 + 64 + 128 values fill four chunks, and 10 more a fifth.
    (0..250u32).for_each(|i| collector.push(i));
    let mut out = Vec::new();
    collector.drain_into(&mut out);
    (0..250u32).for_each(|i| collector.push(i));
    let one_by_one: Vec<u32> = collector.drain().collect();
    assert_eq!(out, one_by_one);
    assert_eq!(out, (0..250).collect::<Vec<_>>());
}

#[test]
fn drain_into_takes_zero_sized_values_and_an_empty_collector() {
    let arenas = ThreadArenas::new();
    let mut units = arenas.collector();
    (0..1000).for_each(|_| units.push(()));
    let mut out = Vec::new();
    units.drain_into(&mut out);
    assert_eq!(out.len(), 1000);
    let mut none = arenas.collector::<u32>();
    let mut kept = vec![1, 2];
    none.drain_into(&mut kept);
    assert_eq!(kept, [1, 2]);
}

#[test]
fn zero_sized_values_are_counted() {
    let arenas = ThreadArenas::new();
    let mut collector = arenas.collector();
    (0..1000).for_each(|_| collector.push(()));
    assert_eq!(collector.drain().count(), 1000);
}

#[cfg(not(miri))] // rayon's deque breaks a Stacked Borrows rule inside crossbeam
#[test]
fn rayon_jobs_hand_results_back() {
    use rayon::prelude::*;
    let arenas = ThreadArenas::new();
    let mut odd = arenas.collector();
    (0..100_000u32).into_par_iter().for_each(|i| {
        if i % 2 == 1 {
            odd.push(i);
        }
    });
    let sum: u64 = odd.drain().map(u64::from).sum();
    assert_eq!(sum, 2_500_000_000);
}

/// A value whose drop pushes another to the collector it was pushed to.
struct PushesOnDrop<'c>(Option<&'c tickarena::Collector<'c, PushesOnDrop<'c>>>);

impl Drop for PushesOnDrop<'_> {
    fn drop(&mut self) {
        if let Some(collector) = self.0 {
            collector.push(PushesOnDrop(None));
        }
    }
}

/// Pushes values whose drop pushes again until one push is refused (the
/// arena is full): the refused value is dropped, so its drop pushes to the
/// same collector, and that must happen after the part (or the overflow's
/// lock) is released; then the push panics with the arena's message.
/// Before the fix the value was dropped while this thread's part was
/// borrowed (`&mut`): UB under Stacked Borrows; on the overflow part, a
/// deadlock on its lock.
fn refused_push_drops_its_value_outside_the_part<'c>(
    collector: &'c tickarena::Collector<'c, PushesOnDrop<'c>>,
) {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let filled = catch_unwind(AssertUnwindSafe(|| {
        loop {
            collector.push(PushesOnDrop(Some(collector)));
        }
    }));
    let payload = filled.expect_err("the arena fills up");
    let refusal = payload
        .downcast_ref::<String>()
        .map_or("(not a String)", String::as_str);
    assert!(refusal.contains("reservation exhausted"), "{refusal}");
}

/// An arena set whose arenas fill up after a few thousand values (a
/// quarter of them under Miri, where each push is slow to interpret).
fn small_arenas() -> ThreadArenas {
    let reserve = if cfg!(miri) { 16 << 10 } else { 64 << 10 };
    ThreadArenas::with_builder(tickarena::FrameArena::builder().reserve(reserve))
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_refused_push_drops_its_value_after_releasing_the_part() {
    let arenas = small_arenas();
    // Not dropped: its values borrow it. Its parts are frame memory.
    let collector = std::mem::ManuallyDrop::new(arenas.collector());
    refused_push_drops_its_value_outside_the_part(&collector);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn a_refused_push_on_the_overflow_part_drops_its_value_after_unlocking() {
    let arenas = small_arenas();
    let collector = std::mem::ManuallyDrop::new(arenas.collector());
    // As in `threads_beyond_the_table_share_a_part`: every thread alive at
    // once holds an index of its own, and the last 4 are past the table.
    let threads = std::thread::available_parallelism().map_or(1, usize::from) + 4;
    let all_started = std::sync::Barrier::new(threads);
    std::thread::scope(|s| {
        for _ in 0..threads {
            let (collector, all_started) = (&*collector, &all_started);
            s.spawn(move || {
                all_started.wait();
                refused_push_drops_its_value_outside_the_part(collector);
            });
        }
    });
}

#[test]
fn pushes_alternating_between_two_sets_on_one_thread_keep_their_values_apart() {
    // Each push finds the other set's arena as the thread's newest: the
    // fast path misses and the slow one finds the right part.
    let (first, second) = (ThreadArenas::new(), ThreadArenas::new());
    let (mut odd, mut even) = (first.collector(), second.collector());
    for i in 0..1000u32 {
        if i % 2 == 1 {
            odd.push(i);
        } else {
            even.push(i);
        }
    }
    let odd: Vec<u32> = odd.drain().collect();
    let even: Vec<u32> = even.drain().collect();
    assert_eq!(odd, (1..1000).step_by(2).collect::<Vec<_>>());
    assert_eq!(even, (0..1000).step_by(2).collect::<Vec<_>>());
}
