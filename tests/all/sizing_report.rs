//! The sizing report as a newcomer uses it: run the game, read the advice,
//! run again with it. Right when the arena is too small (allocations were
//! refused), as when it is far too big.

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{FixedTimestep, Frame, FrameLoop, Game};
use tickarena::{BudgetPolicy, FrameArena, Tag};

const LEVEL: Tag = Tag::new("level");
const PARTICLES: Tag = Tag::new("particles");
const UI: Tag = Tag::new("ui");

/// What a level load copies, 64 KiB at a time.
static CHUNK: [u8; 64 << 10] = [7; 64 << 10];

/// A bursty game that handles a refused allocation as a careful game
/// does: with the `try_` APIs, skipping what did not fit (and counting it
/// itself, so that the test does not take the crate's word for it).
struct Bursty {
    refused: u64,
}

impl Bursty {
    /// Chunks of the level load at `tick`: 8 MiB every 50 ticks, 15 MiB
    /// at tick 150, none otherwise.
    fn chunks(tick: u64) -> usize {
        match tick {
            150 => 240,
            _ if tick % 50 == 25 => 128,
            _ => 0,
        }
    }
}

impl Game for Bursty {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        {
            let _ui = arena.tag(UI);
            // An ordinary frame: 100 KiB of UI text and vertices.
            if arena.try_alloc_slice_copy(&CHUNK[..50 << 10]).is_err() {
                self.refused += 1;
            }
            if arena.try_alloc_slice_copy(&CHUNK[..50 << 10]).is_err() {
                self.refused += 1;
            }
        }
        let chunks = Bursty::chunks(frame.tick());
        if chunks > 0 {
            let _level = arena.tag(LEVEL);
            for _ in 0..chunks {
                if arena.try_alloc_slice_copy(&CHUNK).is_err() {
                    self.refused += 1;
                }
            }
        }
        if chunks > 0 {
            let _particles = arena.tag(PARTICLES);
            // 1 MiB of particles, reserved at once (a refused growth of a
            // collection).
            let mut particles: Vec<u32, _> = Vec::new_in(arena);
            match particles.try_reserve_exact(256 << 10) {
                Ok(()) => particles.extend(0..256 << 10),
                Err(_) => self.refused += 1,
            }
            std::mem::forget(particles);
        }
    }
}

/// Runs 200 ticks of the game on an arena of `reserve` bytes (`retain`
/// kept), one event a tick; returns the loop.
fn run(reserve: usize, retain: usize) -> FrameLoop<Bursty> {
    let arena = FrameArena::builder()
        .reserve(reserve)
        .retain(retain.min(reserve))
        .build()
        .unwrap();
    let mut game =
        FrameLoop::with_parts(Bursty { refused: 0 }, arena, FixedTimestep::default(), 200);
    for _ in 0..200 {
        game.tick([()], game.step());
    }
    game
}

#[test]
#[cfg_attr(miri, ignore = "tens of MiB per burst")]
#[cfg_attr(
    target_family = "wasm",
    ignore = "reserves 128 MiB of real memory (no virtual memory)"
)]
fn one_resize_from_a_too_small_arena_takes_the_game_to_no_refusal() {
    let small = run(512 << 10, 0);
    assert!(
        small.world().refused > 0,
        "the game must not fit in 512 KiB"
    );
    let report = small.history().report();
    // The report knows: every refusal the game met, per frame and per tag.
    let refusals = report.refusals();
    assert_eq!(refusals.count(), small.world().refused);
    let per_frame: u64 = small.history().iter().map(|r| r.refusals.count()).sum();
    assert_eq!(per_frame, small.world().refused);
    assert_eq!(report.refused_frames(), 5, "the five bursts");
    assert_eq!(refusals.count_of(UI), 0);
    assert_eq!(
        refusals.count_of(PARTICLES),
        5,
        "one refused reservation a burst"
    );
    assert_eq!(refusals.bytes_of(PARTICLES), 5 << 20);
    let level = report.tags().iter().find(|t| t.tag == LEVEL).unwrap();
    assert_eq!(level.refused, refusals.count_of(LEVEL));
    // The worst frame is the largest burst, as asked (not as granted: every
    // burst was cut at the same 512 KiB), and its largest tag the level.
    let worst = report.worst_frame().unwrap();
    assert_eq!(worst.tick, 150);
    assert_eq!(worst.tag.map(|(tag, _)| tag), Some(LEVEL));
    assert!(worst.tag.unwrap().1 >= 240 * (64 << 10) - (512 << 10));
    assert!(worst.bytes > 16 << 20, "{}", worst.bytes);
    let text = report.to_string();
    assert!(text.contains("cut at the reservation"), "{text}");
    assert!(text.contains("at tick 150 (level "), "{text}");
    if std::env::var_os("TICKARENA_SHOW_REPORT").is_some() {
        println!("{text}");
    }

    // The CSV has them per frame too.
    let mut csv = Vec::new();
    small.history().write_csv(&mut csv).unwrap();
    let csv = String::from_utf8(csv).unwrap();
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("tick,tick_us,arena_bytes,refused,refused_bytes,")
    );
    let burst = lines.find(|line| line.starts_with("150,")).unwrap();
    let fields: Vec<u64> = burst.split(',').map(|f| f.parse().unwrap()).collect();
    let record = small.history().iter().find(|r| r.tick == 150).unwrap();
    assert_eq!(
        fields[3..5],
        [record.refusals.count(), record.refusals.bytes() as u64]
    );
    assert!(fields[3] > 200, "most of the 240 chunks refused");

    let (reserve, retain) = (report.suggested_reserve(), report.suggested_retain());
    let rerun = run(reserve, retain);
    assert_eq!(
        rerun.world().refused,
        0,
        "the report advised reserve {reserve}, retain {retain}:\n{report}"
    );
    let second = rerun.history().report();
    assert_eq!((second.refusals().count(), second.refused_frames()), (0, 0));
    assert!(!second.to_string().contains("refused"), "{second}");
    // The burst's real size, now granted, is what the first report asked.
    assert_eq!(second.worst_frame().unwrap().tick, 150);
    assert!(second.frame_max() <= report.frame_max());
}

#[test]
#[cfg_attr(miri, ignore = "tens of MiB per burst")]
#[cfg_attr(
    target_family = "wasm",
    ignore = "reserves 1 GiB of real memory (no virtual memory)"
)]
fn one_resize_from_a_far_too_big_arena_takes_the_game_to_no_refusal() {
    let big = run(1 << 30, 0);
    let report = big.history().report();
    assert_eq!(report.refusals().count(), 0);
    let reserve = report.suggested_reserve();
    assert_eq!(
        reserve,
        128 << 20,
        "4x 16.1 MiB, up to a power of two:\n{report}"
    );
    assert_eq!(run(reserve, report.suggested_retain()).world().refused, 0);
}

/// A game whose every frame allocates `bytes` in the loop's arena.
struct Plain;
impl Game for Plain {
    type Event = usize;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, bytes: usize, frame: &mut Frame<'f, Self>) {
        frame.arena().alloc_slice_fill_with(bytes, |_| 0u8);
    }
}

#[test]
fn the_whole_frame_budget_has_a_row_that_agrees_with_the_policy() {
    let arena = FrameArena::builder()
        .frame_budget(1000)
        .budget_policy(tickarena::BudgetPolicy::Count)
        .build()
        .unwrap();
    let mut game = FrameLoop::with_parts(Plain, arena, FixedTimestep::default(), 16);
    for bytes in [100, 2000, 500, 3000, 1000] {
        game.tick([bytes], game.step());
    }
    let report = game.history().report();
    let row = report.tags().last().copied().unwrap();
    assert_eq!(row.tag, Tag::WHOLE_FRAME);
    assert_eq!(
        (row.budget, row.frames_over_budget, row.max),
        (Some(1000), 2, 3000)
    );
    assert_eq!(
        row.frames_over_budget as u64,
        game.arena().stats().over_budget
    );
    let text = report.to_string();
    assert!(text.contains("whole frame"), "{text}");
    // Without a frame budget, no such row.
    let mut plain = FrameLoop::new(Plain);
    plain.tick([10], plain.step());
    assert!(
        plain
            .history()
            .report()
            .tags()
            .iter()
            .all(|t| t.tag != Tag::WHOLE_FRAME)
    );
}

#[test]
fn a_decode_the_arena_refused_is_counted_and_a_bad_packet_is_not() {
    use serde::de::DeserializeSeed;
    use tickarena::serde::InArena;
    let big = "x".repeat(10 << 10);
    let bytes = postcard::to_allocvec(&(&big, vec![7u32; 3_000])).unwrap();
    let mut small = FrameArena::builder().reserve(8 << 10).build().unwrap();
    {
        let mut input = postcard::Deserializer::from_bytes(&bytes);
        let decoded: Result<(&str, &[u32]), _> = InArena::new(&small).deserialize(&mut input);
        assert!(decoded.is_err());
    }
    // Whatever error the format made of it, the arena says it refused.
    let refusals = small.refusals();
    assert_eq!(refusals.count(), 1, "{refusals:?}");
    assert_eq!(refusals.bytes(), 10 << 10, "the string's bytes");
    small.reset();
    assert!(small.refusals().is_empty(), "the frame's end clears them");
    // A packet that is junk: an error too, but no refusal.
    let junk = [0xff_u8; 3];
    let mut input = postcard::Deserializer::from_bytes(&junk);
    let decoded: Result<(&str, &[u32]), _> = InArena::new(&small).deserialize(&mut input);
    assert!(decoded.is_err());
    assert!(small.refusals().is_empty());
}

/// A game whose workers' arenas refuse what each frame asks of them.
struct Workers;
impl Game for Workers {
    type Event = usize;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, bytes: usize, frame: &mut Frame<'f, Self>) {
        let workers = frame.threads();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let arena = workers.local();
                let _level = arena.tag(LEVEL);
                assert!(arena.try_alloc_slice_fill_with(bytes, |_| 0u8).is_err());
            });
        });
    }
}

#[test]
#[cfg_attr(
    all(target_family = "wasm", target_os = "unknown"),
    ignore = "the workers are threads"
)]
fn the_workers_refusals_are_in_the_frames_record() {
    let workers = tickarena::ThreadArenas::with_builder(FrameArena::builder().reserve(64 << 10));
    let mut game = FrameLoop::new(Workers).with_threads(workers);
    game.tick([100 << 10], game.step());
    let record = game.history().latest().unwrap();
    assert_eq!(record.refusals.count(), 1);
    assert_eq!(record.refusals.bytes_of(LEVEL), 100 << 10);
    assert_eq!(game.history().report().refusals().count(), 1);
}

/// The newcomer's game: ordinary frames of 150 to 216 KiB, and a level
/// load of 8 to 16 MiB every 60 frames, 10 in 600: more than 1 % of the
/// frames, so the 99th percentile is a level load.
fn level_loads() -> tickarena::frame_loop::FrameHistory {
    let mut history = tickarena::frame_loop::FrameHistory::with_capacity(600);
    for tick in 0..600u64 {
        let arena_bytes = if tick % 60 == 30 {
            (8 << 20) + (tick as usize / 60) * (800 << 10)
        } else {
            (150 << 10) + (tick as usize * 7919 % 67) * 1024 // up to 216 KiB
        };
        history.push(tickarena::frame_loop::FrameRecord {
            tick,
            arena_bytes,
            ..Default::default()
        });
    }
    history
}

#[test]
fn the_retain_advice_is_not_a_burst_when_bursts_are_over_one_percent_of_frames() {
    let history = level_loads();
    let report = history.report();
    assert!(
        report.frame_p99() >= 8 << 20,
        "the p99 frame is a level load"
    );
    let ordinary = history
        .iter()
        .map(|record| record.arena_bytes)
        .filter(|&bytes| bytes < 1 << 20)
        .max()
        .unwrap();
    assert_eq!(ordinary, 216 << 10);
    // The largest ordinary frame, rounded up to 64 KiB: not 11 MiB kept
    // for good once the level loads stop.
    assert_eq!(report.suggested_retain(), 256 << 10, "{report}");
    let text = report.to_string();
    assert!(
        text.contains(
            "retain  256 KiB: the largest ordinary frame (216 KiB) rounded up to 64 KiB; \
             10 frames (1.7 %) are bursts over 4x the median frame, so the p99 frame peak"
        ),
        "{text}"
    );

    // Bursts under 1 % of the frames: the p99 frame, as before.
    let mut rare = tickarena::frame_loop::FrameHistory::with_capacity(600);
    for record in history.iter().filter(|r| r.tick % 120 != 30) {
        rare.push(*record);
    }
    let report = rare.report();
    assert!(report.frame_p99() < 1 << 20);
    assert_eq!(
        report.suggested_retain(),
        report.frame_p99().next_multiple_of(64 << 10)
    );
    assert!(
        report
            .to_string()
            .contains("retain  256 KiB: the p99 frame peak (")
    );
}

/// Workers that hold 2000 bytes against their set's whole-frame budget of
/// 1000 (the loop's own arena has none).
struct WorkersBurst;
impl Game for WorkersBurst {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        frame.threads().local().alloc([0u8; 2000]);
    }
}

#[test]
fn the_workers_whole_frame_breach_reaches_the_record_and_the_report() {
    let threads = tickarena::ThreadArenas::with_builder(
        FrameArena::builder()
            .frame_budget(1000)
            .budget_policy(BudgetPolicy::Count),
    );
    let mut game = FrameLoop::new(WorkersBurst).with_threads(threads);
    let record = game.tick([()], game.step());
    assert_eq!(game.threads().stats().over_budget, 1, "the set counted it");
    assert!(record.over_frame_budget, "{record:?}");
    let report = game.history().report();
    let whole = report.tags().iter().find(|t| t.tag == Tag::WHOLE_FRAME);
    assert_eq!(
        whole.map(|t| (t.frames_over_budget, t.budget, t.max)),
        Some((1, Some(1000), 2000)),
        "{report}"
    );
}

/// 600 bytes in the loop's arena, 600 in a worker's.
struct HalfAndHalf;
impl Game for HalfAndHalf {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        frame.arena().alloc([0u8; 600]);
        frame.threads().local().alloc([0u8; 600]);
    }
}

#[test]
fn the_whole_frame_row_is_never_over_its_budget_with_no_frame_over() {
    let arena = FrameArena::builder()
        .frame_budget(1000)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    let mut game = FrameLoop::with_parts(HalfAndHalf, arena, FixedTimestep::default(), 16);
    let record = game.tick([()], game.step());
    assert!(!record.over_frame_budget, "600 of 1000: no breach");
    assert_eq!(game.arena().stats().over_budget, 0);
    let report = game.history().report();
    let whole = *report
        .tags()
        .iter()
        .find(|t| t.tag == Tag::WHOLE_FRAME)
        .unwrap();
    assert_eq!(whole.budget, Some(1000));
    assert!(
        whole.max <= 1000 || whole.frames_over_budget > 0,
        "{whole:?}\n{report}"
    );
    // Its figures are what the arena's policy compared: its own peak.
    assert_eq!((whole.max, whole.frames_over_budget), (600, 0));
}

/// Both holders with a whole-frame budget: a row each, each agreeing
/// with its own policy's count.
#[test]
fn each_whole_frame_budget_holder_has_a_row_that_agrees_with_its_policy() {
    let arena = FrameArena::builder()
        .frame_budget(500)
        .budget_policy(BudgetPolicy::Count)
        .build()
        .unwrap();
    let threads = tickarena::ThreadArenas::with_builder(
        FrameArena::builder()
            .frame_budget(1000)
            .budget_policy(BudgetPolicy::Count),
    );
    let mut game = FrameLoop::with_parts(HalfAndHalf, arena, FixedTimestep::default(), 16)
        .with_threads(threads);
    let record = game.tick([()], game.step());
    assert!(record.over_frame_budget, "the arena's 600 of 500");
    assert_eq!(
        (record.worker_bytes, record.worker_frame_budget),
        (600, Some(1000))
    );
    let report = game.history().report();
    let rows: Vec<_> = report
        .tags()
        .iter()
        .filter(|t| t.tag == Tag::WHOLE_FRAME)
        .map(|t| (t.max, t.budget, t.frames_over_budget))
        .collect();
    assert_eq!(
        rows,
        [(600, Some(500), 1), (600, Some(1000), 0)],
        "{report}"
    );
    assert_eq!(game.arena().stats().over_budget, 1);
    assert_eq!(game.threads().stats().over_budget, 0);
    assert!(
        report.to_string().contains("whole frame, workers"),
        "{report}"
    );
}

/// A game that keeps a particle list and, like a careful game, skips a
/// particle the arena refuses: each spawn tries the same growth again.
struct Particles;
impl Game for Particles {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let mut particles: Vec<u8, _> = Vec::new_in(frame.arena());
        for _ in 0..(1 << 20) + 1000 {
            if particles.try_reserve(1).is_ok() {
                particles.push(0);
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore = "a million pushes")]
fn a_growth_retried_after_its_refusal_counts_once_in_what_the_frame_asked() {
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    let mut game = FrameLoop::with_parts(Particles, arena, FixedTimestep::default(), 16);
    let record = game.tick([()], game.step());
    let report = game.history().report();
    // Every retry is a refusal...
    assert_eq!(report.refusals().count(), 1000);
    // ...of the same growth, 1 MiB to 2 MiB in place: the frame needed
    // 2 MiB, its peak (1 MiB) and the increase.
    assert_eq!(record.arena_bytes, 1 << 20);
    assert_eq!(report.refusals().bytes(), 1 << 20);
    assert_eq!(report.frame_max(), 2 << 20);
    assert_eq!(report.suggested_reserve(), 8 << 20, "{report}");
}

#[test]
fn a_refused_growth_of_the_top_block_counts_the_increase_and_a_moved_one_the_block() {
    let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
    let mut top: Vec<u8, _> = Vec::with_capacity_in(40 << 10, &arena);
    // In place: 40 KiB more on the 40 KiB the frame already holds.
    assert!(top.try_reserve_exact((80 << 10) - top.len()).is_err());
    assert_eq!(arena.refusals().bytes(), 40 << 10);
    // The same growth again, nothing granted in between: counted, no bytes.
    assert!(top.try_reserve_exact(80 << 10).is_err());
    assert_eq!(
        (arena.refusals().count(), arena.refusals().bytes()),
        (2, 40 << 10)
    );
    // A block below the top cannot grow in place: it asks a whole new one.
    let _above = arena.alloc([0u8; 8 << 10]);
    assert!(top.try_reserve_exact(50 << 10).is_err());
    assert_eq!(
        (arena.refusals().count(), arena.refusals().bytes()),
        (3, (40 << 10) + (50 << 10))
    );
    // Distinct allocations of one size are distinct needs: each counts.
    for _ in 0..3 {
        assert!(arena.try_alloc_slice_fill_with(32 << 10, |_| 0u8).is_err());
    }
    assert_eq!(arena.refusals().bytes(), (90 << 10) + 3 * (32 << 10));
}

/// A level load of 16 MiB at tick 0 (64 KiB at a time, skipping what the
/// arena refuses), then ordinary frames of 1 KiB.
struct LoadThenPlay;
impl Game for LoadThenPlay {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        let chunks = if frame.tick() == 0 { 256 } else { 0 };
        for _ in 0..chunks {
            let _ = arena.try_alloc_slice_fill_with(64 << 10, |_| 0u8);
        }
        let _ = arena.try_alloc([0u8; 1024]);
    }
}

#[test]
#[cfg_attr(miri, ignore = "16 MiB asked")]
fn a_refused_frame_that_left_the_history_still_sizes_the_advice() {
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    let mut game = FrameLoop::with_parts(LoadThenPlay, arena, FixedTimestep::default(), 16);
    for _ in 0..32 {
        game.tick([()], game.step());
    }
    let history = game.history();
    assert!(history.iter().all(|r| r.refusals.is_empty()), "tick 0 left");
    assert!(history.asked_high_water() >= 16 << 20);
    assert_eq!(history.refused_frames_ever(), 1);
    assert!(history.refusals_ever().count() > 200);
    let report = history.report();
    assert!(
        report.suggested_reserve() >= 16 << 20,
        "advised {} bytes for a game that asked 16 MiB:\n{report}",
        report.suggested_reserve()
    );
    let text = report.to_string();
    assert!(text.contains("cut at the reservation"), "{text}");
    // The rerun with the advice refuses nothing.
    let arena = FrameArena::builder()
        .reserve(report.suggested_reserve())
        .build()
        .unwrap();
    let mut rerun = FrameLoop::with_parts(LoadThenPlay, arena, FixedTimestep::default(), 16);
    for _ in 0..32 {
        rerun.tick([()], rerun.step());
    }
    assert_eq!(rerun.history().refusals_ever().count(), 0);
}

#[test]
fn a_try_alloc_whose_size_overflows_is_counted_as_a_refusal() {
    let arena = FrameArena::new();
    let _level = arena.tag(LEVEL);
    assert!(
        arena
            .try_alloc_slice_fill_with::<u64>(usize::MAX / 4, |_| 0)
            .is_err()
    );
    assert!(arena.try_alloc_uninit_slice::<u32>(usize::MAX).is_err());
    assert!(arena.try_alloc_zeroed_slice::<u16>(usize::MAX).is_err());
    assert_eq!(arena.refusals().count_of(LEVEL), 3);
    assert_eq!(arena.refusals().bytes_of(LEVEL), usize::MAX, "saturated");
    // A collection's capacity overflow is its own error: the arena never
    // sees the request.
    let mut list: Vec<u8, _> = Vec::new_in(&arena);
    assert!(list.try_reserve(usize::MAX).is_err());
    assert_eq!(arena.refusals().count(), 3);
}

/// Each frame's bytes in the loop's arena and in a worker's.
struct Split;
impl Game for Split {
    type Event = (usize, usize);
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, (mine, workers): (usize, usize), frame: &mut Frame<'f, Self>) {
        frame.arena().alloc_slice_fill_with(mine, |_| 0u8);
        frame
            .threads()
            .local()
            .alloc_slice_fill_with(workers, |_| 0u8);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::proptest_cases(64)))]

    /// Random frames and whole-frame budgets on the arena, the workers or
    /// both: each holder's row counts exactly the breaches its policy
    /// counted, is over its budget only then, and the records say so.
    #[test]
    fn whole_frame_rows_agree_with_their_policies(
        frames in proptest::collection::vec((0usize..3000, 0usize..3000), 1..24),
        arena_budget in proptest::option::of(500usize..2500),
        worker_budget in proptest::option::of(500usize..2500),
    ) {
        let mut builder = FrameArena::builder().budget_policy(BudgetPolicy::Count);
        let mut workers = FrameArena::builder().budget_policy(BudgetPolicy::Count);
        if let Some(budget) = arena_budget {
            builder = builder.frame_budget(budget);
        }
        if let Some(budget) = worker_budget {
            workers = workers.frame_budget(budget);
        }
        let threads = tickarena::ThreadArenas::with_builder(workers);
        let mut game = FrameLoop::with_parts(Split, builder.build().unwrap(), FixedTimestep::default(), 32)
            .with_threads(threads);
        let (mut over_frames, mut counted) = (0, 0);
        for &frame in &frames {
            let record = game.tick([frame], game.step());
            let now = game.arena().stats().over_budget + game.threads().stats().over_budget;
            // Over in the record exactly when a policy counted a breach.
            proptest::prop_assert_eq!(record.over_frame_budget, now > counted);
            counted = now;
            over_frames += u64::from(record.over_frame_budget);
        }
        let report = game.history().report();
        let rows: Vec<_> = report.tags().iter().filter(|t| t.tag == Tag::WHOLE_FRAME).copied().collect();
        let expected_rows = usize::from(arena_budget.is_some()) + usize::from(worker_budget.is_some());
        proptest::prop_assert_eq!(rows.len(), expected_rows);
        for row in rows {
            let policy = if row.workers { game.threads().stats() } else { game.arena().stats() };
            proptest::prop_assert_eq!(row.frames_over_budget as u64, policy.over_budget);
            proptest::prop_assert_eq!(row.max > row.budget.unwrap(), row.frames_over_budget > 0);
        }
        // A frame is over in its record when either holder counted it.
        let either = frames
            .iter()
            .filter(|&&(mine, theirs)| {
                arena_budget.is_some_and(|b| mine > b) || worker_budget.is_some_and(|b| theirs > b)
            })
            .count();
        proptest::prop_assert_eq!(over_frames, either as u64);
    }
}
