//! The sizing report as a newcomer uses it: run the game, read the advice,
//! run again with it. Right when the arena is too small (allocations were
//! refused), as when it is far too big.

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{FixedTimestep, Frame, FrameLoop, Game};
use tickarena::{FrameArena, Tag};

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
