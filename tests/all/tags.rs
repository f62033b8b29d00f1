//! Tags: the bytes of a frame charged to the tag current when the top
//! moved; they sum to `used()`, nested and on worker threads; budgets tell
//! through each policy.

use std::sync::atomic::{AtomicU64, Ordering};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{FixedTimestep, Frame, FrameLoop, Game};
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
fn a_tag_that_frees_the_newest_allocation_of_another_gives_the_bytes_back_to_it() {
    let arena = FrameArena::new();
    let scratch = {
        let _ai = arena.tag(AI);
        Vec::<u8, _>::with_capacity_in(64, &arena)
    };
    let ui = arena.tag(UI);
    drop(scratch); // the top goes back below where UI began
    assert_eq!(arena.used(), 0);
    assert_eq!(arena.tag_bytes().get(UI), 0);
    assert_eq!(arena.tag_bytes().get(AI), 0);
    assert_eq!(arena.tag_bytes().peak(AI), 64);
    drop(ui);
    assert_eq!(sum(&arena), arena.used());
}

#[test]
fn the_tag_doc_examples_pattern_sums_to_used_after_the_vec_drops() {
    // `FrameArena::tag`'s example: a Vec built under a tag, returned out
    // of its guard's block and dropped after it.
    let arena = FrameArena::new();
    let paths = {
        let _paths = arena.tag(PATHS);
        let mut path = Vec::new_in(&arena);
        path.extend([(0u32, 0u32), (1, 0), (1, 1)]);
        path
    };
    drop(paths);
    assert_eq!((sum(&arena), arena.used()), (0, 0));
    // The review's second case: 1000 bytes freed under another tag, then
    // one allocated.
    let scratch = {
        let _ai = arena.tag(AI);
        Vec::<u8, _>::with_capacity_in(1000, &arena)
    };
    let _ui = arena.tag(UI);
    drop(scratch);
    arena.alloc(0u8);
    assert_eq!((sum(&arena), arena.used()), (1, 1));
    let bytes = arena.tag_bytes();
    assert_eq!((bytes.get(AI), bytes.get(UI), bytes.peak(AI)), (0, 1, 1000));
}

#[test]
fn a_tag_that_frees_another_tags_block_then_allocates_has_its_real_peak() {
    const LEVEL: Tag = Tag::new("level");
    let mut arena = FrameArena::builder()
        .budget(LEVEL, 100 << 10)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    {
        let old = {
            let _ai = arena.tag(AI);
            Vec::<u8, _>::with_capacity_in(100 << 10, &arena)
        };
        let _level = arena.tag(LEVEL);
        drop(old);
        let level = Vec::<u8, _>::with_capacity_in(150 << 10, &arena);
        let bytes = arena.tag_bytes();
        assert_eq!(
            (bytes.get(LEVEL), bytes.peak(LEVEL)),
            (150 << 10, 150 << 10)
        );
        assert_eq!(sum(&arena), arena.used());
        drop(level);
    }
    arena.reset();
    assert_eq!(arena.stats().over_budget, 1, "the breach is counted");
}

#[test]
fn frees_back_through_a_hundred_runs_give_each_tags_bytes_back_to_it() {
    // 100 runs of alternating tags (more than the 32 the arena keeps
    // inline), freed at the top in turn under a third tag: each free goes
    // to its owner.
    let arena = FrameArena::new();
    let mut temps = Vec::new();
    for i in 0..100 {
        let (tag, len) = if i % 2 == 0 { (AI, 10) } else { (PATHS, 7) };
        let _tag = arena.tag(tag);
        temps.push(Vec::<u8, _>::with_capacity_in(len, &arena));
    }
    let _ui = arena.tag(UI);
    while let Some(temp) = temps.pop() {
        drop(temp);
        let ai = temps.iter().filter(|temp| temp.capacity() == 10).count() * 10;
        let paths = temps.iter().filter(|temp| temp.capacity() == 7).count() * 7;
        let bytes = arena.tag_bytes();
        assert_eq!(
            (bytes.get(AI), bytes.get(PATHS), bytes.get(UI)),
            (ai, paths, 0)
        );
    }
    let bytes = arena.tag_bytes();
    assert_eq!((bytes.peak(AI), bytes.peak(PATHS)), (500, 350));
}

#[test]
fn a_scope_rewinds_the_runs_past_those_kept_inline() {
    // 40 runs before the scope, 40 more in it: the rewind cuts the
    // scope's, so that the runs pushed after it stack on the right one.
    let mut arena = FrameArena::new();
    let ledger_of = |arena: &FrameArena| {
        let bytes = arena.tag_bytes();
        (bytes.get(AI), bytes.get(PATHS), bytes.get(UI))
    };
    let mut before = Vec::new();
    for i in 0..40 {
        let _tag = arena.tag(if i % 2 == 0 { AI } else { PATHS });
        before.push(arena.alloc_slice_fill_with(10, |_| 0u8).len());
    }
    arena.scoped(|temp| {
        for i in 0..40 {
            let _tag = temp.tag(if i % 2 == 0 { UI } else { PATHS });
            temp.alloc([0u8; 3]);
        }
        assert_eq!(ledger_of(temp), (200, 260, 60));
    });
    assert_eq!(ledger_of(&arena), (200, 200, 0));
    let ai_block = {
        let _ai = arena.tag(AI);
        Vec::<u8, _>::with_capacity_in(5, &arena)
    };
    drop(ai_block);
    assert_eq!(ledger_of(&arena), (200, 200, 0));
    assert_eq!(arena.tag_bytes().total(), arena.used());
    arena.reset();
    assert_eq!(ledger_of(&arena), (0, 0, 0));
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
            2 => any::<u16>().prop_map(Step::Shrink),
            2 => any::<u16>().prop_map(Step::Grow),
            3 => any::<u8>().prop_map(Step::Tag),
            2 => Just(Step::Untag),
            1 => Just(Step::Leak),
            1 => (any::<u8>(), any::<u16>()).prop_map(|(tag, bytes)| Step::Budget(tag, bytes)),
            1 => (any::<u8>(), any::<u8>()).prop_map(|(count, bytes)| Step::Runs(count, bytes)),
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

/// Runs `f`, which must panic, and gives its message (compiled where
/// panics abort too, for the tests ignored there).
fn panic_message(f: impl FnOnce()) -> String {
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_err();
    payload.downcast_ref::<String>().unwrap().clone()
}

#[test]
#[cfg_attr(panic = "abort", ignore = "the policy panics")]
fn the_panic_policy_counts_and_names_every_breach_of_the_frame() {
    let mut arena = FrameArena::builder()
        .budget(AI, 64)
        .budget(UI, 64)
        .budget_policy(BudgetPolicy::Panic)
        .build()
        .unwrap();
    for tag in [AI, UI] {
        let _tag = arena.tag(tag);
        arena.alloc([0u8; 100]);
    }
    let message = panic_message(|| arena.reset());
    assert!(
        message.contains("tag \"ai\"") && message.contains("tag \"ui\""),
        "{message}"
    );
    assert_eq!(arena.stats().over_budget, 2);
    assert_eq!(arena.used(), 0);
}

#[test]
#[cfg_attr(
    any(panic = "abort", target_family = "wasm"),
    ignore = "the policy panics"
)]
fn a_thread_sets_budget_is_on_the_frames_sum_and_its_panic_leaves_every_arena_reset() {
    const JOBS: Tag = Tag::new("jobs");
    let builder = FrameArena::builder()
        .name("workers")
        .budget(JOBS, 200)
        .budget_policy(BudgetPolicy::Panic);
    let mut arenas = ThreadArenas::with_builder(builder);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let arena = arenas.local();
                let _jobs = arena.tag(JOBS);
                arena.alloc([0u8; 150]); // under the budget on each thread
            });
        }
    });
    assert_eq!(arenas.len(), 2);
    let message = panic_message(|| arenas.reset());
    assert_eq!(
        message,
        "tickarena: arena \"workers\", frame 0: tag \"jobs\" held 300 bytes at once, over its budget of 200"
    );
    assert_eq!(arenas.used(), 0, "every thread's arena is reset");
    assert_eq!(arenas.stats().over_budget, 1);
    let last = arenas.last_frame_tag_bytes();
    assert!(last.over_budget().eq([(JOBS, 300, 200)]));
}

#[test]
#[cfg_attr(
    any(panic = "abort", target_family = "wasm"),
    ignore = "the policy panics"
)]
fn a_thread_sets_table_shows_no_breach_its_policy_did_not_count() {
    const JOBS: Tag = Tag::new("jobs");
    let builder = FrameArena::builder()
        .budget(JOBS, 200)
        .budget_policy(BudgetPolicy::Count);
    let mut arenas = ThreadArenas::with_builder(builder);
    for frame in 0..4u64 {
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    let arena = arenas.local();
                    let _jobs = arena.tag(JOBS);
                    arena.alloc_slice_fill_with(if frame % 2 == 0 { 90 } else { 150 }, |_| 0u8);
                });
            }
        });
        arenas.reset();
        let over = arenas.last_frame_tag_bytes().over_budget().count() as u64;
        assert_eq!(over, frame % 2, "frame {frame}");
    }
    assert_eq!(arenas.stats().over_budget, 2);
}

/// A game whose every tick holds `ai` bytes in the main arena (over a
/// budget of 64 with 100) and 1000 bytes on a worker.
struct OverBudget {
    ai: usize,
}

impl Game for OverBudget {
    type Event = ();
    type Scratch<'f> = ();

    fn actions<'f>(&mut self, (): (), frame: &mut Frame<'f, Self>) {
        {
            let _ai = frame.arena().tag(AI);
            frame.arena().alloc_slice_fill_with(self.ai, |_| 0u8);
        }
        let threads = frame.threads();
        std::thread::scope(|scope| {
            scope.spawn(|| threads.local().alloc([0u8; 1000]));
        });
    }
}

#[test]
#[cfg_attr(
    any(panic = "abort", target_family = "wasm"),
    ignore = "the policy panics"
)]
fn a_frame_loops_breaking_tick_resets_its_workers_and_is_counted_and_recorded() {
    let arena = FrameArena::builder()
        .budget(AI, 64)
        .budget_policy(BudgetPolicy::Panic)
        .build()
        .unwrap();
    let timestep =
        tickarena::frame_loop::FixedTimestep::new(std::time::Duration::from_millis(10), 1);
    let mut game = FrameLoop::with_parts(OverBudget { ai: 10 }, arena, timestep, 16);
    game.tick([()], game.step());
    game.world_mut().ai = 100;
    let message = panic_message(|| {
        game.tick([()], game.step());
    });
    assert_eq!(
        message,
        "tickarena: frame 1: tag \"ai\" held 100 bytes at once, over its budget of 64"
    );
    assert_eq!(game.threads().used(), 0, "the workers were reset");
    assert_eq!(game.arena().used(), 0);
    assert_eq!(game.ticks(), 2, "the breaking tick is counted");
    let breaking = *game.history().latest().unwrap();
    assert_eq!(breaking.tick, 1, "Breach::frame is the tick");
    assert!(breaking.tags.over_budget().eq([(AI, 100, 64)]));
    assert_eq!(game.arena().stats().over_budget, 1);
    game.world_mut().ai = 10;
    let next = game.tick([()], game.step());
    assert_eq!(next.tick, 2);
    assert_eq!(next.tags.peak(Tag::UNTAGGED), 1000, "no stale worker bytes");
    assert_eq!(next.tags.over_budget().count(), 0);
}

#[test]
#[cfg_attr(
    any(panic = "abort", target_family = "wasm"),
    ignore = "the policy panics"
)]
fn a_tick_whose_arena_and_workers_both_break_panics_once_naming_both() {
    let arena = FrameArena::builder()
        .budget(AI, 64)
        .budget_policy(BudgetPolicy::Panic)
        .build()
        .unwrap();
    let workers = FrameArena::builder()
        .name("workers")
        .budget(Tag::UNTAGGED, 500)
        .budget_policy(BudgetPolicy::Panic);
    let timestep =
        tickarena::frame_loop::FixedTimestep::new(std::time::Duration::from_millis(10), 1);
    let mut game = FrameLoop::with_parts(OverBudget { ai: 100 }, arena, timestep, 16)
        .with_threads(ThreadArenas::with_builder(workers));
    let message = panic_message(|| {
        game.tick([()], game.step());
    });
    assert_eq!(
        message,
        "tickarena: frame 0: tag \"ai\" held 100 bytes at once, over its budget of 64\n\
         tickarena: arena \"workers\", frame 0: tag \"untagged\" held 1000 bytes at once, over its budget of 500"
    );
    assert_eq!((game.arena().used(), game.threads().used()), (0, 0));
    assert_eq!(
        (
            game.arena().stats().over_budget,
            game.threads().stats().over_budget
        ),
        (1, 1)
    );
    let record = *game.history().latest().unwrap();
    assert_eq!(record.tags.over_budget().count(), 2);
    assert_eq!(game.ticks(), 1);
}

/// The `Log` policy at exit: in a child process, whose stderr the test
/// reads (a child process: none under Miri).
#[cfg(not(miri))]
mod log_at_drop {
    use super::*;
    // Named, not glob-imported: the glob's `test` would be ambiguous.
    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    const LOG_AT_DROP_CHILD: &str = "TICKARENA_LOG_AT_DROP_CHILD";

    /// Seven frames, each over `AI`'s budget of 64 bytes by more than the
    /// last (frame `f` holds `100 + f` bytes), under a `Log` policy with a
    /// window of 4 frames: lines at frames 0 and 4, and frames 5 and 6 left
    /// for the end of a window that never comes.
    const LOGGED_FRAMES: usize = 7;

    fn logging(name: &'static str) -> tickarena::FrameArenaBuilder {
        FrameArena::builder()
            .name(name)
            .budget(AI, 64)
            .budget_policy(BudgetPolicy::Log { every_frames: 4 })
    }

    struct Thinker;
    impl Game for Thinker {
        type Event = usize;
        type Scratch<'f> = ();
        fn actions<'f>(&mut self, bytes: usize, frame: &mut Frame<'f, Self>) {
            let _ai = frame.arena().tag(AI);
            frame.arena().alloc_slice_fill_with(bytes, |_| 0u8);
        }
    }

    /// The child: an arena, a `ThreadArenas` and a frame loop, each dropped
    /// with two breaches not yet told.
    fn log_and_drop() {
        let mut arena = logging("drop-arena").build().unwrap();
        for frame in 0..LOGGED_FRAMES {
            {
                let _ai = arena.tag(AI);
                arena.alloc_slice_fill_with(100 + frame, |_| 0u8);
            }
            arena.reset();
        }
        drop(arena);

        let mut threads = ThreadArenas::with_builder(logging("drop-threads"));
        for frame in 0..LOGGED_FRAMES {
            {
                let local = threads.local();
                let _ai = local.tag(AI);
                local.alloc_slice_fill_with(100 + frame, |_| 0u8);
            }
            threads.reset();
        }
        drop(threads);

        let arena = logging("drop-loop").build().unwrap();
        let mut game = FrameLoop::with_parts(Thinker, arena, Default::default(), 8);
        for frame in 0..LOGGED_FRAMES {
            game.tick([100 + frame], game.step());
        }
        drop(game);
    }

    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "starts a process")]
    fn the_log_policy_tells_the_last_windows_breaches_when_its_holder_is_dropped() {
        if std::env::var_os(LOG_AT_DROP_CHILD).is_some() {
            log_and_drop();
            return;
        }
        let output = crate::child_process::rerun_test(
            "tags::log_at_drop::the_log_policy_tells_the_last_windows_breaches_when_its_holder_is_dropped",
            LOG_AT_DROP_CHILD,
            "1",
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{}\n{stderr}", output.status);
        for name in ["drop-arena", "drop-threads", "drop-loop"] {
            let lines: Vec<&str> = stderr
                .lines()
                .filter(|line| line.starts_with(&format!("tickarena: arena \"{name}\"")))
                .collect();
            // The window's lines, then the one its drop tells: the largest of
            // the last two breaches, frame 6's.
            assert_eq!(
                lines,
                [
                    format!(
                        "tickarena: arena \"{name}\", frame 0: tag \"ai\" held 100 bytes at once, over its budget of 64"
                    ),
                    format!(
                        "tickarena: arena \"{name}\", frame 4: tag \"ai\" held 104 bytes at once, over its budget of 64 (the largest of 4 breaches since the last line)"
                    ),
                    format!(
                        "tickarena: arena \"{name}\", frame 6: tag \"ai\" held 106 bytes at once, over its budget of 64 (the largest of 2 breaches since the last line)"
                    ),
                ],
                "{name}'s lines in:\n{stderr}"
            );
        }
    }
}

const Q: Tag = Tag::new("q");
const R: Tag = Tag::new("r");
const S: Tag = Tag::new("s");

/// Q's 1000 bytes, then AI's 1000, then 40 runs of 8 bytes alternating R
/// and S, all freed at the top, then AI's block freed: the arena holds
/// exactly Q's 1000 bytes. The slots are met in the order AI, Q, R, S, so
/// a ledger that gave bytes back "newest tag first" past the runs it kept
/// would take AI's from Q.
fn q_holds_1000_after_frees_back_through_many_runs(arena: &FrameArena) -> Vec<u8, &FrameArena> {
    for tag in [AI, Q, R, S] {
        drop(arena.tag(tag));
    }
    let q_block = {
        let _q = arena.tag(Q);
        Vec::<u8, _>::with_capacity_in(1000, arena)
    };
    let ai_block = {
        let _ai = arena.tag(AI);
        Vec::<u8, _>::with_capacity_in(1000, arena)
    };
    let mut small = Vec::new();
    for i in 0..40 {
        let _t = arena.tag(if i % 2 == 0 { R } else { S });
        small.push(Vec::<u8, _>::with_capacity_in(8, arena));
    }
    while let Some(block) = small.pop() {
        drop(block);
    }
    drop(ai_block);
    assert_eq!(arena.used(), 1000);
    q_block
}

#[test]
fn frees_back_through_many_runs_give_each_byte_back_to_its_owner() {
    let arena = FrameArena::new();
    let _q_block = q_holds_1000_after_frees_back_through_many_runs(&arena);
    let bytes = arena.tag_bytes();
    assert_eq!(bytes.total(), arena.used(), "the sum holds");
    assert_eq!(
        [AI, Q, R, S].map(|tag| bytes.get(tag)),
        [0, 1000, 0, 0],
        "{bytes:?}"
    );
    assert_eq!(
        [AI, Q, R, S].map(|tag| bytes.peak(tag)),
        [1000, 1000, 160, 160]
    );
}

#[test]
fn after_frees_back_through_many_runs_budgets_see_what_each_tag_held() {
    let arena = FrameArena::builder()
        .budget(AI, 1500)
        .budget(Q, 1500)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    let _q_block = q_holds_1000_after_frees_back_through_many_runs(&arena);
    {
        let _q = arena.tag(Q);
        arena.alloc([0u8; 600]);
    }
    {
        let _ai = arena.tag(AI);
        arena.alloc([0u8; 600]);
    }
    let bytes = arena.tag_bytes();
    assert_eq!(bytes.peak(Q), 1600, "Q held 1600 bytes at once");
    assert_eq!(bytes.peak(AI), 1000, "AI never held more than 1000");
    assert!(bytes.over_budget().eq([(Q, 1600, 1500)]));
}

const NINE: [Tag; 9] = [
    Tag::new("t1"),
    Tag::new("t2"),
    Tag::new("t3"),
    Tag::new("t4"),
    Tag::new("t5"),
    Tag::new("t6"),
    Tag::new("t7"),
    Tag::new("t8"),
    Tag::new("t9"),
];

/// Breaks nine budgets on the loop's arena and nine on its workers'.
struct NineEach;
impl Game for NineEach {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        for arena in [frame.arena(), frame.threads().local()] {
            for tag in NINE {
                let _t = arena.tag(tag);
                arena.alloc(0u64);
            }
        }
    }
}

#[test]
#[cfg_attr(
    any(panic = "abort", target_family = "wasm"),
    ignore = "the policy panics"
)]
fn the_panic_names_every_breach_of_a_loops_arena_and_its_workers() {
    let mut builder = FrameArena::builder().budget_policy(BudgetPolicy::Panic);
    for tag in NINE {
        builder = builder.budget(tag, 1);
    }
    let threads = ThreadArenas::with_builder(builder.clone());
    let arena = builder.build().unwrap();
    let mut game =
        FrameLoop::with_parts(NineEach, arena, FixedTimestep::default(), 16).with_threads(threads);
    let message = panic_message(|| {
        game.tick([()], game.step());
    });
    let counted = game.arena().stats().over_budget + game.threads().stats().over_budget;
    assert_eq!(counted, 18);
    assert_eq!(message.lines().count(), 18, "{message}");
    for tag in NINE {
        let named = format!("tag {:?}", tag.name());
        assert_eq!(message.matches(&named).count(), 2, "{message}");
    }
}

static HOOKED_FRAMES: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());
fn remember_frame(breach: &tickarena::Breach) {
    HOOKED_FRAMES.lock().unwrap().push(breach.frame);
}

/// Breaks AI's budget every tick; panics once, on tick 1.
struct PanicsOnce {
    panicked: bool,
}
impl Game for PanicsOnce {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        let _ai = arena.tag(AI);
        arena.alloc([0u8; 100]);
        if frame.tick() == 1 && !self.panicked {
            self.panicked = true;
            panic!("the game's own bug");
        }
    }
}

#[test]
#[cfg_attr(panic = "abort", ignore = "the game panics")]
fn a_breachs_frame_counts_the_arenas_resets_a_caught_game_panics_included() {
    // `Breach::frame` is the arena's frame number: the tick that panicked
    // was not counted as a tick, but reset the arena.
    let arena = FrameArena::builder()
        .budget(AI, 10)
        .budget_policy(BudgetPolicy::Hook(remember_frame))
        .build()
        .unwrap();
    let mut game = FrameLoop::with_parts(
        PanicsOnce { panicked: false },
        arena,
        FixedTimestep::default(),
        16,
    );
    game.tick([()], game.step());
    let step = game.step();
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        game.tick([()], step);
    }))
    .unwrap_err();
    let record = game.tick([()], game.step());
    let frames = HOOKED_FRAMES.lock().unwrap().clone();
    // The failed tick breached too (counted, not recorded): three breaches.
    assert_eq!(frames, [0, 1, 2]);
    assert_eq!((record.tick, game.ticks()), (1, 2));
    assert_eq!(game.arena().stats().frames, 3);
    assert_eq!(game.arena().stats().over_budget, 3);
}
