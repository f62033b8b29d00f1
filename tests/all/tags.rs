//! Tags: the bytes of a frame charged to the tag current when the top
//! moved; they sum to `used()`, nested and on worker threads; budgets tell
//! through each policy.

use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{Frame, FrameLoop, Game};
use tickarena::{BudgetPolicy, FrameArena, Tag, ThreadArenas};

const AI: Tag = Tag::new("ai");
const PATHS: Tag = Tag::new("paths");
const UI: Tag = Tag::new("ui");

fn sum(arena: &FrameArena) -> usize {
    arena.bytes_by_tag().map(|(_, bytes)| bytes).sum()
}

#[test]
fn tags_nest_and_sum_to_used_with_padding_charged_to_who_caused_it() {
    let mut arena = FrameArena::new();
    for _frame in 0..3 {
        arena.alloc(1u8);
        {
            let _ai = arena.tag(AI);
            arena.alloc(1u64); // its padding (7 bytes on x86-64) charged to AI
            {
                let _paths = arena.tag(PATHS);
                let mut path = Vec::new_in(&arena);
                path.extend(0..100u32); // grows in place: all PATHS's
                assert_eq!(sum(&arena), arena.used());
                std::mem::forget(path);
            }
            arena.alloc_str("ai again");
        }
        let _ui = arena.tag(UI);
        arena.alloc([0u8; 3]);
        let bytes: Vec<(Tag, usize)> = arena.bytes_by_tag().collect();
        assert_eq!(
            bytes,
            [
                (Tag::UNTAGGED, 1),
                (AI, align_of::<u64>() - 1 + 8 + 8),
                (PATHS, 400),
                (UI, 3)
            ]
        );
        assert_eq!(sum(&arena), arena.used());
        drop(_ui);
        arena.reset();
        // The tags stay, at zero, in the same order.
        assert!(arena.bytes_by_tag().all(|(_, bytes)| bytes == 0));
        assert_eq!(arena.bytes_by_tag().count(), 4);
    }
}

#[test]
fn a_tag_that_frees_the_newest_allocation_of_another_counts_zero() {
    let arena = FrameArena::new();
    let scratch = {
        let _ai = arena.tag(AI);
        Vec::<u8, _>::with_capacity_in(64, &arena)
    };
    let ui = arena.tag(UI);
    drop(scratch); // the top goes back below where UI began
    assert_eq!(arena.used(), 0);
    assert_eq!(arena.tag_bytes().get(UI), 0);
    assert_eq!(arena.tag_bytes().get(AI), 64);
    drop(ui);
}

#[test]
fn past_the_table_new_tags_charge_the_tag_around_them() {
    const NAMES: [&str; 20] = [
        "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12", "t13",
        "t14", "t15", "t16", "t17", "t18", "t19",
    ];
    let arena = FrameArena::new();
    let outer = arena.tag(AI);
    for name in NAMES {
        let _tag = arena.tag(Tag::new(name));
        arena.alloc(0u8);
    }
    drop(outer);
    assert_eq!(arena.bytes_by_tag().count(), tickarena::MAX_TAGS);
    assert_eq!(sum(&arena), arena.used());
    // AI, then t0..t13 fit; t14..t19 went to AI.
    assert_eq!(arena.tag_bytes().get(AI), 6);
    assert_eq!(arena.tag_bytes().get(Tag::new("t19")), 0);
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn worker_threads_charge_their_own_arenas_and_the_set_sums_them() {
    let mut arenas = ThreadArenas::new();
    std::thread::scope(|scope| {
        for worker in 0..4usize {
            let arenas = &arenas;
            scope.spawn(move || {
                let arena = arenas.local();
                let _paths = arena.tag(PATHS);
                arena.alloc_slice_fill_with(10 * (worker + 1), |_| 0u8);
                let _ai = arena.tag(AI);
                arena.alloc(0u32);
            });
        }
    });
    let tags = arenas.tag_bytes();
    assert_eq!(tags.get(PATHS), 100);
    assert_eq!(tags.total(), arenas.used());
    arenas.reset();
    assert_eq!(arenas.last_frame_tag_bytes().get(PATHS), 100);
    assert_eq!(
        arenas.last_frame_tag_bytes().total(),
        arenas.stats().high_water
    );
}

struct Tagged;

impl Game for Tagged {
    type Event = u32;
    type Scratch<'f> = ();

    fn actions<'f>(&mut self, event: u32, frame: &mut Frame<'f, Self>) {
        let _ai = frame.arena().tag(AI);
        frame.arena().alloc_slice_fill_with(event as usize, |_| 0u8);
    }

    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        let _paths = frame.arena().tag(PATHS);
        frame.arena().alloc([0u8; 16]);
        let threads = frame.threads();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let arena = threads.local();
                let _ui = arena.tag(UI);
                arena.alloc([0u8; 32]);
            });
        });
    }
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn a_frame_loop_records_each_ticks_bytes_per_tag_its_workers_included() {
    let mut game = FrameLoop::new(Tagged);
    for tick in 0..5u32 {
        let record = game.tick([tick, 2 * tick], game.step());
        assert_eq!(record.tags.get(AI), 3 * tick as usize);
        assert_eq!(record.tags.get(PATHS), 16 * record.steps as usize);
        assert_eq!(record.tags.get(UI), 32 * record.steps as usize);
        assert_eq!(record.tags.total(), record.arena_bytes);
    }
}

static HOOKED: AtomicU64 = AtomicU64::new(0);

fn count_breach(breach: &tickarena::Breach) {
    assert_eq!((breach.tag, breach.budget), (AI, 64));
    HOOKED.fetch_add(1, Ordering::Relaxed);
}

fn breaching_frames(policy: BudgetPolicy, frames: u64) -> FrameArena {
    let mut arena = FrameArena::builder()
        .budget(AI, 64)
        .budget_policy(policy)
        .build()
        .unwrap();
    for frame in 0..frames {
        {
            let _ai = arena.tag(AI);
            // Over the budget every other frame.
            arena.alloc_slice_fill_with(if frame % 2 == 0 { 100 } else { 64 }, |_| 0u8);
        }
        arena.reset();
    }
    arena
}

#[test]
fn every_policy_counts_each_breach_and_the_hook_hears_each() {
    assert_eq!(
        breaching_frames(BudgetPolicy::Count, 10)
            .stats()
            .over_budget,
        5
    );
    let logged = breaching_frames(BudgetPolicy::Log { every_frames: 4 }, 10);
    assert_eq!(logged.stats().over_budget, 5);
    let hooked = breaching_frames(BudgetPolicy::Hook(count_breach), 10);
    assert_eq!(hooked.stats().over_budget, 5);
    assert_eq!(HOOKED.load(Ordering::Relaxed), 5);
}

#[test]
#[cfg_attr(panic = "abort", ignore = "the policy panics")]
fn the_panic_policy_panics_at_the_first_breach_naming_it_with_the_arena_reset() {
    let mut arena = FrameArena::builder()
        .name("main")
        .budget(AI, 64)
        .budget_policy(BudgetPolicy::Panic)
        .build()
        .unwrap();
    {
        let _ai = arena.tag(AI);
        arena.alloc([0u8; 100]);
    }
    let panic =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| arena.reset())).unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert_eq!(
        message,
        "tickarena: arena \"main\", frame 0: tag \"ai\" held 100 bytes at once, over its budget of 64"
    );
    // The frame ended before the policy ran: the next one starts empty.
    assert_eq!(
        (
            arena.used(),
            arena.stats().frames,
            arena.stats().over_budget
        ),
        (0, 1, 1)
    );
    assert_eq!(arena.tag_bytes().get(AI), 0);
}

#[test]
fn a_tags_peak_counts_the_temporaries_it_gave_back() {
    let arena = FrameArena::new();
    {
        let _ai = arena.tag(AI);
        let scratch = Vec::<u8, _>::with_capacity_in(1000, &arena);
        {
            let _paths = arena.tag(PATHS);
            arena.alloc([0u8; 24]);
        }
        drop(scratch); // not the top: stays
        let more = Vec::<u8, _>::with_capacity_in(500, &arena);
        drop(more); // the top: given back
    }
    {
        let _ui = arena.tag(UI);
        drop(Vec::<u8, _>::with_capacity_in(300, &arena));
    }
    let bytes = arena.tag_bytes();
    assert_eq!((bytes.get(AI), bytes.peak(AI)), (1000, 1500));
    assert_eq!((bytes.get(PATHS), bytes.peak(PATHS)), (24, 24));
    assert_eq!((bytes.get(UI), bytes.peak(UI)), (0, 300));
    assert_eq!(bytes.total(), arena.used());
    assert_eq!(arena.peak(), 1524);
}

/// A few frames of the `Tagged` game with budgets: the history to write.
fn recorded_history() -> FrameLoop<Tagged> {
    let mut game = FrameLoop::new(Tagged);
    game.arena().set_budget(AI, 10);
    for tick in 0..6u32 {
        game.tick([tick, 2 * tick], game.step());
    }
    game
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads (the game's workers)")]
fn the_csv_has_a_row_per_frame_and_a_column_per_tag_and_parses_back() {
    let game = recorded_history();
    let mut csv = Vec::new();
    game.history().write_csv(&mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "tick,tick_us,arena_bytes,\"ai\",\"paths\",\"ui\""
    );
    let rows: Vec<Vec<u64>> = lines
        .map(|line| {
            line.split(',')
                .map(|field| field.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 6);
    for (row, record) in rows.iter().zip(game.history().iter()) {
        assert_eq!(row[0], record.tick);
        assert_eq!(row[2], record.arena_bytes as u64);
        assert_eq!(
            row[3..],
            [AI, PATHS, UI].map(|tag| record.tags.peak(tag) as u64)
        );
    }
    let report = game.history().report();
    assert_eq!(report.tags()[0].frames_over_budget, 2); // ticks 4 and 5: 12 and 15 bytes
    assert!(report.to_string().contains("retain  64 KiB"));
}

mod model {
    //! Tags, budgets and scopes on one arena against a model of the ledger
    //! (`tests/models/tags.rs`).

    use proptest::prelude::*;

    use crate::models::tags::{Op, Step, run};

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            4 => any::<u16>().prop_map(Step::Alloc),
            4 => any::<u16>().prop_map(Step::Temp),
            3 => Just(Step::FreeNewest),
            3 => any::<u8>().prop_map(Step::Tag),
            2 => Just(Step::Untag),
            1 => Just(Step::Leak),
            1 => any::<u8>().prop_map(Step::Budget),
        ]
    }

    fn op() -> impl Strategy<Value = Op> {
        let steps = || prop::collection::vec(step(), 0..12);
        prop_oneof![
            8 => step().prop_map(Op::Step),
            2 => steps().prop_map(Op::Scope),
            1 => steps().prop_map(Op::UnwindingScope),
            1 => Just(Op::Reset),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(300)))]

        #[test]
        fn every_tags_bytes_and_peak_match_the_model_through_scopes_and_resets(
            ops in prop::collection::vec(op(), 0..if cfg!(miri) { 12 } else { 120 }),
        ) {
            run(&ops);
        }
    }
}
