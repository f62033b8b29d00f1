//! Scopes inside a frame (`tickarena::scoped`): what a scope allocates goes
//! back when it ends, what it keeps in the frame stays; nesting, threads,
//! panics and a full reservation. Run under Miri with Stacked and Tree
//! Borrows by `.ci/run`; AddressSanitizer's view is in `asan_poison.rs`.

use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, SCOPE_RESERVE, scoped, try_scoped};

/// Scopes each test runs: fewer interpreted.
const SCOPES: usize = if cfg!(miri) { 20 } else { 1000 };

/// Temporaries (`u32`s) per scope: 16 KiB natively, 1 KiB interpreted
/// (filled and summed in every scope: most of the test's time under Miri).
const TEMPORARIES: usize = if cfg!(miri) { 256 } else { 4096 };

#[test]
fn the_result_is_kept_while_the_temporaries_go() {
    let frame = FrameArena::new();
    // Frame data (256 bytes), used inside.
    let weights = frame.alloc_slice_fill_with(64, |i| i as u32);
    let mut kept = Vec::new_in(&frame);
    for unit in 0..SCOPES {
        let (sum, label) = scoped(|temp| {
            // The temporaries (16 KiB natively).
            let scratch = temp.alloc_slice_fill_with(TEMPORARIES, |i| (i + unit) as u32 % 7);
            let sum: u32 = scratch
                .iter()
                .zip(weights.iter().cycle())
                .map(|(a, b)| a * b)
                .sum();
            // What the scope keeps goes in the frame arena it captured.
            (
                sum,
                &*frame.alloc_str(if sum % 2 == 0 { "even" } else { "odd" }),
            )
        });
        kept.push((sum, label));
    }
    assert_eq!(kept.len(), SCOPES);
    assert!(
        kept.iter()
            .all(|(sum, label)| (sum % 2 == 0) == (*label == "even"))
    );
    let high_water = scoped(|temp| temp.stats().high_water);
    assert_eq!(
        high_water,
        TEMPORARIES * 4,
        "the scope's high water is one scope's"
    );
    // Far below the temporaries of all the scopes (`SCOPES` times
    // `TEMPORARIES` `u32`s): the kept `Vec` (24 bytes an entry, copied as
    // it grows) and the labels.
    assert!(
        frame.stats().high_water < 256 + SCOPES * 128,
        "the frame holds only what was kept: {} bytes",
        frame.stats().high_water
    );
}

#[test]
fn nested_scopes_each_get_their_own_memory() {
    const DEPTH: usize = if cfg!(miri) { 6 } else { 32 };
    fn nest(depth: usize, outer: &mut Vec<*const u64>) -> u64 {
        scoped(|temp| {
            let mine = temp.alloc(depth as u64 * 1000);
            outer.push(mine as *const u64);
            let below = if depth + 1 < DEPTH {
                nest(depth + 1, outer)
            } else {
                0
            };
            // The deeper scopes came and went: this one's value is intact.
            assert_eq!(*mine, depth as u64 * 1000);
            *mine + below
        })
    }
    let mut addresses = Vec::new();
    let total = nest(0, &mut addresses);
    assert_eq!(total, (0..DEPTH as u64).map(|d| d * 1000).sum::<u64>());
    addresses.sort();
    addresses.dedup();
    assert_eq!(addresses.len(), DEPTH, "every depth had its own arena");
    // Back at depth 0: the outermost arena again, empty.
    assert_eq!(scoped(|temp| temp.used()), 0);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn scopes_on_four_threads_at_once() {
    let frame = tickarena::ThreadArenas::new();
    let sums: Vec<u64> = std::thread::scope(|threads| {
        let workers: Vec<_> = (0..4u64)
            .map(|t| {
                let frame = &frame;
                threads.spawn(move || {
                    let mut total = 0;
                    for round in 0..SCOPES as u64 / 4 {
                        total += scoped(|temp| {
                            let values = temp
                                .alloc_slice_fill_with(256, |i| t * 1_000_000 + round + i as u64);
                            // Nested, on this thread.
                            let inner = scoped(|deeper| *deeper.alloc(values[255]));
                            assert_eq!(
                                values[0],
                                t * 1_000_000 + round,
                                "another thread wrote here"
                            );
                            inner - values[0]
                        });
                        frame.local().alloc(total); // the frame's data, alongside
                    }
                    total
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert_eq!(sums, [255 * (SCOPES as u64 / 4); 4]);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_panic_inside_a_scope_gives_its_memory_back() {
    let outer = scoped(|temp| temp as *const FrameArena);
    let caught = catch_unwind(AssertUnwindSafe(|| {
        scoped(|temp| {
            temp.alloc_slice_fill_with(1000, |i| i as u64);
            scoped(|_| panic!("a search gave up"));
        })
    }));
    assert!(caught.is_err());
    // The depth went back to 0 (the same arena), and it is empty.
    scoped(|temp| {
        assert_eq!(temp as *const FrameArena, outer);
        assert_eq!(temp.used(), 0);
        assert!(temp.stats().high_water >= 8000);
    });
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_full_scope_says_so() {
    scoped(|temp| {
        // More than the scope's whole reservation: an error, nothing kept.
        assert!(
            temp.try_alloc_uninit_slice::<u8>(SCOPE_RESERVE + 1)
                .is_err()
        );
        let mut v: Vec<u8, _> = Vec::new_in(temp);
        assert!(v.try_reserve(SCOPE_RESERVE + 1).is_err());
        assert_eq!(temp.used(), 0);
        temp.alloc(1u8); // still usable
    });
    let message = catch_unwind(|| {
        scoped(|temp| {
            temp.alloc_slice_fill_with(SCOPE_RESERVE, |_| 0u64);
        })
    })
    .unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("reservation exhausted")
            && message.contains(&format!("of {SCOPE_RESERVE} reserved")),
        "{message}"
    );
    assert_eq!(
        try_scoped(|temp| temp.used()),
        Ok(0),
        "usable after the panic"
    );
}

/// A stackful coroutine suspended inside a scope, resumed (and so ending
/// its scope) inside a scope its resumer opened after it: the process must
/// stop with a message, not hand the resumer's arena out again while its
/// data is in use (before the fix: the depth went back below the resumer's
/// scope, and two scopes later its data read as the poison pattern).
#[cfg(all(unix, target_arch = "x86_64", not(miri)))]
#[test]
fn scopes_closed_out_of_order_abort_with_a_message() {
    use corosensei::Coroutine;

    const CASE: &str = "TICKARENA_SCOPES_OUT_OF_ORDER";
    if std::env::var_os(CASE).is_some() {
        let mut coroutine = Coroutine::new(|yielder, ()| {
            scoped(|temp| {
                let value = temp.alloc(7u64);
                yielder.suspend(());
                *value
            })
        });
        // Opens the coroutine's scope, which stays open as it suspends.
        assert!(coroutine.resume(()).as_yield().is_some());
        scoped(|mine| {
            let data = mine.alloc_slice_fill_with(64, |i| i as u64);
            // Ends the coroutine's scope while this one is open.
            let _ = coroutine.resume(());
            // Two scopes deep: the second takes this scope's arena if the
            // depth went back, and resets it when it ends.
            scoped(|_| scoped(|deeper| *deeper.alloc(1u8)));
            assert!(
                data.iter().enumerate().all(|(i, &v)| v == i as u64),
                "the open scope's data was reused"
            );
        });
        println!("no abort");
        return;
    }
    let child = crate::child_process::rerun_test(
        "scopes::scopes_closed_out_of_order_abort_with_a_message",
        CASE,
        "1",
    );
    let stderr = String::from_utf8_lossy(&child.stderr);
    assert!(
        !child.status.success(),
        "the child must not finish: {stderr}"
    );
    assert!(
        stderr.contains("a scope at depth 0 ended while 1 scope(s) opened after it"),
        "the abort says why: {stderr}"
    );
    assert!(!String::from_utf8_lossy(&child.stdout).contains("no abort"));
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(child.status.signal(), Some(6), "SIGABRT: {stderr}");
    }
}

mod on_one_arena {
    //! `FrameArena::scoped`: a checkpoint of one arena's top.

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tickarena::{FrameArena, Tag};

    #[test]
    fn the_scope_gives_back_its_bytes_and_counts_in_the_peak() {
        let mut arena = FrameArena::new();
        let before = arena.alloc_slice_copy(&[1u8, 2, 3]).len();
        for round in 1..=3usize {
            let sum = arena.scoped(|temp| {
                let mut values = Vec::with_capacity_in(100 * round, temp);
                values.extend(0..100 * round as u64);
                values.iter().sum::<u64>()
            });
            assert_eq!(sum, (0..100 * round as u64).sum::<u64>());
            assert_eq!(arena.used(), before);
        }
        // The largest scope: 3 bytes, padding to a u64's alignment (8 on
        // x86-64, 4 on i686), 300 u64s.
        let kept = 3usize.next_multiple_of(align_of::<u64>());
        assert_eq!(arena.peak(), kept + 2400);
        // The scope's bytes are the next allocation's.
        let next = arena.alloc(9u64) as *const u64 as usize;
        arena.reset();
        let base = arena.alloc(0u8) as *const u8 as usize;
        assert_eq!(next - base, kept);
    }

    #[test]
    #[cfg_attr(panic = "abort", ignore = "unwinds")]
    fn an_unwinding_scope_gives_back_its_bytes_too() {
        let mut arena = FrameArena::new();
        arena.alloc(1u32);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            arena.scoped(|temp| {
                temp.alloc_slice_fill_with(1000, |_| 0u8);
                panic!("in the scope");
            })
        }));
        assert!(caught.is_err());
        assert_eq!(arena.used(), 4);
        assert_eq!(arena.peak(), 1004);
    }

    #[test]
    fn a_scope_inside_keeps_the_outer_data_and_tags_see_its_peak() {
        const SEARCH: Tag = Tag::new("search");
        let mut arena = FrameArena::new();
        let _outer: &[u32] = &*arena.alloc_slice_copy(&[1, 2, 3]);
        let best = arena.scoped(|temp| {
            let _search = temp.tag(SEARCH);
            let open = temp.alloc_slice_fill_with(500, |i| i as u32);
            // A scope of the thread's own inside this one.
            tickarena::scoped(|inner| *inner.alloc(open[499]))
        });
        assert_eq!(best, 499);
        let tags = arena.tag_bytes();
        assert_eq!((tags.get(SEARCH), tags.peak(SEARCH)), (0, 2000));
        assert_eq!(tags.total(), arena.used());
    }

    // Found by the tags model (`tests/models/tags.rs`): the scope put the
    // untagged bytes from before it back as a turn from the base, which the
    // tag left current by the leaked guard then took.
    #[test]
    fn a_tag_left_current_by_a_scope_does_not_take_the_bytes_from_before_it() {
        const LEAKED: Tag = Tag::new("leaked");
        let mut arena = FrameArena::new();
        arena.alloc([0u8; 100]);
        arena.scoped(|temp| {
            std::mem::forget(temp.tag(LEAKED));
            temp.alloc([0u8; 50]);
        });
        arena.alloc([0u8; 7]);
        let tags = arena.tag_bytes();
        assert_eq!(tags.get(Tag::UNTAGGED), 100);
        assert_eq!((tags.get(LEAKED), tags.peak(LEAKED)), (7, 50));
        assert_eq!(tags.total(), arena.used());
    }
}

mod model {
    //! Scopes nested and unwound against a model (`tests/models/scopes.rs`).

    use proptest::prelude::*;

    use crate::models::scopes::{Op, run};

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            8 => any::<u16>().prop_map(Op::Alloc),
            3 => Just(Op::Open),
            1 => Just(Op::OpenOnArena),
            3 => Just(Op::Close),
            1 => Just(Op::Unwind),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(200)))]

        #[test]
        #[cfg_attr(panic = "abort", ignore = "unwinds")]
        fn nested_scopes_keep_every_level_and_give_back_theirs(
            ops in prop::collection::vec(op(), 0..if cfg!(miri) { 30 } else { 200 }),
        ) {
            run(&ops);
        }
    }
}
