//! `ThreadArenas`: one arena per thread, reset together. Run natively, under
//! Miri (which checks data races) and under ThreadSanitizer by `.ci/run`.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Barrier;
use std::thread;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{ArenaError, FrameArena, ThreadArenas, format_in};

/// Values per thread: fewer when interpreted.
const VALUES: usize = if cfg!(miri) { 50 } else { 10_000 };

/// Address of `arenas.local()` on the calling thread.
fn arena_address(arenas: &ThreadArenas) -> usize {
    std::ptr::from_ref(arenas.local()).addr()
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn threads_allocating_at_once_never_overlap_and_keep_their_values() {
    let threads = 4;
    let mut arenas = ThreadArenas::new();
    for frame in 0..3u64 {
        let barrier = Barrier::new(threads);
        let results: Vec<(usize, &[u64], &str)> = thread::scope(|scope| {
            let workers: Vec<_> = (0..threads as u64)
                .map(|t| {
                    let (arenas, barrier) = (&arenas, &barrier);
                    scope.spawn(move || {
                        barrier.wait(); // all threads allocate at the same time
                        let arena = arenas.local();
                        let mut last = &mut 0u64;
                        for i in 0..VALUES as u64 {
                            last = arena.alloc(frame << 48 | t << 32 | i);
                        }
                        assert_eq!(*last, frame << 48 | t << 32 | (VALUES as u64 - 1));
                        let slice =
                            arena.alloc_slice_fill_with(VALUES, |i| t * 1_000_000 + i as u64);
                        let text = arena.alloc_str(&format!("thread {t} frame {frame}"));
                        assert!(std::ptr::eq(arena, arenas.local()), "one arena all frame");
                        (std::ptr::from_ref(arena).addr(), &*slice, &*text)
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let distinct: HashSet<usize> = results.iter().map(|r| r.0).collect();
        assert_eq!(distinct.len(), threads, "each thread has its own arena");
        for (t, (_, slice, text)) in results.iter().enumerate() {
            assert_eq!(*text, format!("thread {t} frame {frame}"));
            assert!(
                slice
                    .iter()
                    .enumerate()
                    .all(|(i, &v)| v == t as u64 * 1_000_000 + i as u64)
            );
        }
        // The slices of different threads do not overlap.
        let mut ranges: Vec<_> = results.iter().map(|r| r.1.as_ptr_range()).collect();
        ranges.sort_by_key(|r| r.start);
        assert!(ranges.windows(2).all(|pair| pair[0].end <= pair[1].start));
        let per_thread = VALUES * 8 * 2 + "thread 0 frame 0".len();
        assert_eq!(arenas.used(), threads * per_thread);
        arenas.reset();
        assert_eq!(arenas.used(), 0, "reset returns every thread's bytes");
    }
    let stats = arenas.stats();
    assert_eq!(stats.frames, 3);
    assert_eq!(stats.high_water, threads * (VALUES * 16 + 16));
    assert!(arenas.len() <= threads, "later frames reused the arenas");
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn new_threads_take_over_the_arenas_of_threads_that_ended() {
    let mut arenas = ThreadArenas::new();
    let mut seen = HashSet::new();
    for frame in 0..8 {
        // Two fresh threads every frame (thread churn), one after the other.
        for _ in 0..2 {
            thread::scope(|scope| {
                scope.spawn(|| {
                    seen.insert(arena_address(&arenas));
                    arenas.local().alloc_slice_fill_with(100, |i| i as u32);
                });
            });
        }
        assert!(arenas.len() <= 2, "frame {frame}: {} arenas", arenas.len());
        arenas.reset();
    }
    assert_eq!(
        arenas.len(),
        2,
        "one arena per thread alive at once in a frame"
    );
    assert_eq!(seen.len(), 2, "the same two arenas served every frame");
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn a_thread_gets_its_own_arena_back_next_frame() {
    let mut arenas = ThreadArenas::new();
    let main = arena_address(&arenas);
    thread::scope(|scope| {
        scope.spawn(|| arena_address(&arenas));
    });
    for _ in 0..3 {
        arenas.reset();
        thread::scope(|scope| {
            // A worker asks first this time; the main thread still gets its own.
            scope.spawn(|| arena_address(&arenas)).join().unwrap();
        });
        assert_eq!(arena_address(&arenas), main);
    }
}

#[test]
fn two_sets_used_in_turn_on_one_thread_keep_their_arenas_apart() {
    let (a, b) = (ThreadArenas::new(), ThreadArenas::new());
    let mut values = Vec::new();
    for i in 0..10u32 {
        values.push(a.local().alloc(i) as &u32);
        values.push(b.local().alloc(100 + i) as &u32);
    }
    assert!(!std::ptr::eq(a.local(), b.local()));
    assert_eq!((a.used(), b.used(), a.len(), b.len()), (40, 40, 1, 1));
    let read: Vec<u32> = values.iter().map(|v| **v).collect();
    assert_eq!(read[..4], [0, 100, 1, 101]);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn results_handed_back_outlive_the_workers() {
    let arenas = ThreadArenas::new();
    let words: Vec<&str> = thread::scope(|scope| {
        (0..3)
            .map(|t| {
                let arenas = &arenas;
                scope.spawn(move || {
                    let arena = arenas.local();
                    // Built in the arena on the worker, frozen, handed back.
                    let label = format_in!(arena, "worker {t}");
                    let frozen: &str = arena.alloc_str(&label);
                    frozen
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|worker| worker.join().unwrap())
            .collect()
    });
    assert_eq!(words, ["worker 0", "worker 1", "worker 2"]);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_refused_arena_is_an_error_and_local_panics_saying_so() {
    let refused = FrameArena::builder().reserve(usize::MAX - 4095);
    let arenas = ThreadArenas::with_builder(refused);
    let error = arenas.try_local().unwrap_err();
    assert!(
        matches!(error, ArenaError::ReservationRefused { .. }),
        "{error:?}"
    );
    let payload = catch_unwind(AssertUnwindSafe(|| {
        arenas.local();
    }))
    .unwrap_err();
    let message = payload.downcast_ref::<String>().unwrap();
    assert!(message.contains("this thread's FrameArena"), "{message}");
    assert!(message.contains("reserve"), "{message}");
    assert_eq!(arenas.len(), 0);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn figures_can_be_read_while_workers_allocate() {
    let arenas = ThreadArenas::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let started = Barrier::new(2);
    thread::scope(|scope| {
        scope.spawn(|| {
            let arena = arenas.local();
            arena.alloc(0u64);
            started.wait();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                arena.alloc(1u64);
                if arena.used() > 1 << 20 {
                    break;
                }
            }
        });
        started.wait();
        for _ in 0..if cfg!(miri) { 5 } else { 1000 } {
            let stats = arenas.stats();
            assert!(stats.used <= stats.committed || stats.committed == 0);
            assert_eq!(arenas.used() % 8, 0);
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    assert!(arenas.used() >= 8);
}

#[test]
fn the_set_is_send_and_sync() {
    fn shared_between_threads<T: Send + Sync>() {}
    shared_between_threads::<ThreadArenas>();
}

mod model {
    //! Frames of jobs on four threads against a model
    //! (`tests/models/threads.rs`): blocks keep their bytes, the collector
    //! gives back what was pushed, the reset empties every arena.

    use proptest::prelude::*;

    use crate::models::threads::{Op, run};

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (any::<u8>(), any::<u16>()).prop_map(|(thread, bytes)| Op::Alloc(thread, bytes)),
            4 => (any::<u8>(), any::<u16>()).prop_map(|(thread, bytes)| Op::Tagged(thread, bytes)),
            6 => (any::<u8>(), any::<u32>()).prop_map(|(thread, value)| Op::Push(thread, value)),
            1 => Just(Op::Reset),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(64)))]

        #[test]
        #[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
        fn frames_of_jobs_on_four_threads_match_the_model(
            ops in prop::collection::vec(op(), 0..if cfg!(miri) { 20 } else { 300 }),
        ) {
            run(&ops);
        }
    }
}
