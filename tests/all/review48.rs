//! Review of issue 48 (the tick's event source, the scratch reached from
//! actions, the per-decode byte bound): reproducers for what was found,
//! and the checks that held.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

use serde::de::DeserializeSeed;
use serde::{Deserialize, Deserializer, Serialize};
use tickarena::frame_loop::{
    Action, EventSource, FixedTimestep, Frame, FrameAction, FrameLoop, Game, Receive,
};
use tickarena::serde::{
    DEFAULT_MAX_BYTES, DeserializeIn, InArena, arena_refused, over_max_bytes, refusal_error,
};
use tickarena::{FrameArena, FrameVec};

fn small_arena() -> FrameArena {
    FrameArena::builder().reserve(1 << 20).build().unwrap()
}

// ---------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------

/// A hand-written `DeserializeIn` that collects with `Vec::push` (as std
/// code does) worked on any input the arena could hold before the bound;
/// under the default bound (1 MiB) the growth is refused and `Vec::push`
/// turns that into `handle_alloc_error`, as on a full arena. The documented
/// way (`DeserializeIn`'s "Implementing it by hand"): `try_reserve`, and
/// `refusal_error` for the format's error.
struct Collected<'a>(FrameVec<'a, u64>);

impl<'a> DeserializeIn<'a> for Collected<'a> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        let n: u32 = Deserialize::deserialize(d)?;
        let mut list = Vec::new_in(arena);
        for i in 0..n {
            if list.try_reserve(1).is_err() {
                return Err(refusal_error(arena, "collected list"));
            }
            list.push(u64::from(i));
        }
        Ok(Collected(list))
    }
}

#[test]
fn review48_handwritten_growth_past_the_default_bound_is_the_formats_error() {
    let count = if cfg!(miri) { "20000" } else { "262144" };
    let arena = FrameArena::new();
    let bound = if cfg!(miri) {
        64 << 10
    } else {
        DEFAULT_MAX_BYTES
    };
    let refused = InArena::<Collected<'_>>::new(&arena)
        .max_bytes(bound)
        .deserialize(&mut serde_json::Deserializer::from_str(count))
        .err()
        .expect("past the bound");
    assert!(
        refused.to_string().contains(&format!(
            "collected list would take more than {bound} bytes"
        )),
        "{refused}"
    );
    assert!(over_max_bytes(&arena) && !arena_refused(&arena));
    // Without the bound the same decode holds it.
    let unbounded = InArena::<Collected<'_>>::new(&arena)
        .max_bytes(usize::MAX)
        .deserialize(&mut serde_json::Deserializer::from_str(count))
        .unwrap();
    assert_eq!(unbounded.0.len().to_string(), count);
    assert!(!over_max_bytes(&arena));
}

/// An envelope whose payload is decoded by a nested seed and dropped if
/// it does not fit: the outer decode succeeds, yet `over_max_bytes` says
/// true ("False after a decode that succeeded", says its doc).
struct Envelope<'a> {
    payload: Option<FrameVec<'a, u64>>,
}

impl<'a> DeserializeIn<'a> for Envelope<'a> {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        let blob: Vec<u8> = Deserialize::deserialize(d)?;
        let payload = InArena::<FrameVec<'a, u64>>::new(arena)
            .deserialize(&mut postcard::Deserializer::from_bytes(&blob))
            .ok();
        Ok(Envelope { payload })
    }
}

#[test]
fn review48_over_max_bytes_is_false_after_a_decode_that_succeeded() {
    let arena = small_arena();
    let payload = postcard::to_allocvec(&vec![7u64; 1000]).unwrap(); // 8000 bytes decoded
    let packet = postcard::to_allocvec(&payload).unwrap();
    let envelope = InArena::<Envelope<'_>>::new(&arena)
        .max_bytes(4096)
        .deserialize(&mut postcard::Deserializer::from_bytes(&packet))
        .unwrap();
    assert!(envelope.payload.is_none(), "the payload did not fit");
    assert!(
        !over_max_bytes(&arena),
        "the decode succeeded, yet over_max_bytes says it met its bound"
    );
}

/// `DEFAULT_MAX_BYTES`'s doc: "the largest UDP datagram (64 KiB) decodes
/// under it even where its arena data is 16 times its size" (the words
/// before the review; now it says up to 16 times). 16 is not
/// a ceiling on the ratio: a unit variant is one wire byte and a whole
/// enum in the arena, so an ordinary, valid datagram of commands under
/// 64 KiB does not decode under the default.
#[cfg(not(miri))]
#[derive(Serialize, Clone)]
enum WireCmd {
    Stop,
    #[allow(dead_code)]
    Move(u64, u64, u64, u64),
}

#[cfg(not(miri))]
#[derive(tickarena::DeserializeIn)]
enum Cmd {
    Stop,
    #[allow(dead_code)]
    Move(u64, u64, u64, u64),
}

#[cfg(not(miri))]
#[test]
fn review48_a_valid_datagram_under_64_kib_fails_the_default_bound() {
    let packet = postcard::to_allocvec(&vec![WireCmd::Stop; 60_000]).unwrap();
    assert!(packet.len() < 64 << 10, "{}", packet.len());
    let arena = FrameArena::new();
    let got = InArena::<&[Cmd]>::new(&arena)
        .deserialize(&mut postcard::Deserializer::from_bytes(&packet));
    assert!(got.is_err() && over_max_bytes(&arena) && !arena_refused(&arena));
    // What it needs: 40 bytes a command, 40 times the datagram.
    let fits = InArena::<&[Cmd]>::new(&arena)
        .max_bytes(60_000 * core::mem::size_of::<Cmd>() * 2)
        .deserialize(&mut postcard::Deserializer::from_bytes(&packet))
        .unwrap();
    assert!(fits.iter().all(|cmd| matches!(cmd, Cmd::Stop)));
    assert!(60_000 * core::mem::size_of::<Cmd>() > 16 * packet.len());
    assert!(60_000 * core::mem::size_of::<Cmd>() > DEFAULT_MAX_BYTES);
}

/// `DeserializeIn::deserialize_in`, called directly as its own doc
/// example does, starts no decode: the depth and stack limits apply at
/// their defaults, the byte bound not at all (its doc and
/// `DEFAULT_MAX_BYTES`'s say so); through a seed the bound holds.
#[cfg(not(miri))]
#[test]
fn review48_direct_deserialize_in_starts_no_decode_and_no_byte_bound() {
    let arena = FrameArena::new();
    let json = format!("{:?}", "x".repeat(2 << 20));
    let seeded =
        InArena::<&str>::new(&arena).deserialize(&mut serde_json::Deserializer::from_str(&json));
    assert!(seeded.is_err(), "through a seed: the bound");
    let direct = <&str>::deserialize_in(&arena, &mut serde_json::Deserializer::from_str(&json));
    assert_eq!(direct.unwrap().len(), 2 << 20, "called directly: no bound");
}

/// A client game's tick (`tick`, no events, nothing pushed into the
/// scratch): before the change its scratch lived on the loop's stack and
/// an empty `FrameVec` took nothing of the arena; now the scratch is
/// placed in the arena, and every tick's `arena_bytes` (and the sizing
/// report, the budgets) count it.
struct Idle;
impl Game for Idle {
    type Event = ();
    type Scratch<'f> = (FrameVec<'f, u64>, FrameVec<'f, u32>);
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        assert_eq!(
            frame.arena().used(),
            SCRATCH,
            "the first event finds the tick's scratch, and nothing else, in the arena"
        );
    }
}

/// What an empty scratch of two lists takes of the tick's arena (the
/// tick places it there, so that actions reach it: `Game::Scratch`'s doc).
const SCRATCH: usize = std::mem::size_of::<(FrameVec<'static, u64>, FrameVec<'static, u32>)>();

#[test]
fn review48_an_empty_scratch_takes_its_size_of_the_arena() {
    let mut game = FrameLoop::new(Idle);
    let record = game.tick([()], game.step());
    assert_eq!(
        record.arena_bytes, SCRATCH,
        "an empty scratch in the frame's figures: its own size, as documented"
    );
}

/// A decode that succeeds unbounded, its high `needed` bytes, succeeds
/// under `max_bytes(needed)` (the ledger `serde_bound.rs` checks for
/// lists and the oracle's packet). A map's hint is believed only while
/// `cautious_map`'s worst-case estimate of its table fits the room left,
/// so under a bound that just holds the table the map grows instead, and
/// the growth's high (old table plus new) passes the bound.
#[cfg(feature = "hashbrown")]
#[test]
fn review48_a_map_decodes_under_a_bound_that_holds_it() {
    let mut failed = Vec::new();
    for n in [3usize, 7, 14, 28, 100] {
        let map: std::collections::BTreeMap<u64, u64> = (0..n as u64).map(|i| (i, i)).collect();
        let bytes = postcard::to_allocvec(&map).unwrap();
        let decode = |bound: usize| {
            let arena = small_arena();
            let got = InArena::<tickarena::FrameHashMap<'_, u64, u64>>::new(&arena)
                .max_bytes(bound)
                .deserialize(&mut postcard::Deserializer::from_bytes(&bytes))
                .map(|map| map.len());
            (got.ok(), arena.peak())
        };
        let (free, needed) = decode(usize::MAX);
        assert_eq!(free, Some(n));
        let (bounded, _) = decode(needed);
        if bounded != Some(n) {
            // The smallest bound it decodes under, for the report.
            let enough = (needed..)
                .step_by(8)
                .find(|&bound| decode(bound).0 == Some(n))
                .unwrap();
            failed.push((n, needed, enough));
        }
    }
    assert!(
        failed.is_empty(),
        "(entries, needed, smallest bound that decodes) that failed under max_bytes(needed): {failed:?}"
    );
}

/// The same ledger for the other list shapes, from a top one byte off
/// (a segmented list's segments, JSON's growing lists, lists of strings).
#[test]
fn review48_lists_decode_under_a_bound_that_holds_them() {
    macro_rules! check {
        ($ty:ty, $what:expr, $json:expr, $failed:expr) => {{
            let decode = |bound: usize| {
                let arena = small_arena();
                arena.alloc(1u8);
                let before = arena.used();
                let got = InArena::<$ty>::new(&arena)
                    .max_bytes(bound)
                    .deserialize(&mut serde_json::Deserializer::from_str($json))
                    .is_ok();
                (got, arena.peak() - before)
            };
            let (free, needed) = decode(usize::MAX);
            assert!(free, "{}", $what);
            if !decode(needed).0 || decode(needed - 1).0 {
                $failed.push(format!("{} {}", $what, needed));
            }
        }};
    }
    let mut failed = Vec::new();
    for n in [1usize, 7, 9, 30, 100] {
        let numbers = serde_json::to_string(&(0..n).collect::<Vec<_>>()).unwrap();
        let words =
            serde_json::to_string(&(0..n).map(|i| format!("w{i}")).collect::<Vec<_>>()).unwrap();
        let small = serde_json::to_string(&vec![1u8; n]).unwrap();
        check!(tickarena::SegmentedList<u64, &FrameArena>, format!("segmented u64 x{n}"), &numbers, failed);
        check!(FrameVec<'_, u64>, format!("vec u64 x{n}"), &numbers, failed);
        check!(FrameVec<'_, u8>, format!("vec u8 x{n}"), &small, failed);
        check!(&[&str], format!("strings x{n}"), &words, failed);
    }
    assert!(failed.is_empty(), "{failed:?}");
}

// ---------------------------------------------------------------------
// Checks that held
// ---------------------------------------------------------------------

/// The bound counts the padding to the decode's first aligned block:
/// from a top one byte past a boundary, a list of four `u64` needs the
/// padding to `u64`'s alignment (7 bytes on 64-bit targets, 3 on i686)
/// and 32.
#[test]
fn review48_bound_counts_alignment_padding_exactly() {
    let bytes = postcard::to_allocvec(&vec![1u64, 2, 3, 4]).unwrap();
    let needed = (std::mem::align_of::<u64>() - 1) + 32;
    for (bound, fits) in [(needed - 1, false), (needed, true)] {
        let arena = small_arena();
        arena.alloc(0u8);
        let before = arena.used();
        let got = InArena::<FrameVec<'_, u64>>::new(&arena)
            .max_bytes(bound)
            .deserialize(&mut postcard::Deserializer::from_bytes(&bytes));
        assert_eq!(got.is_ok(), fits, "bound {bound}");
        assert!(arena.used() - before <= bound);
        assert_eq!(over_max_bytes(&arena), !fits);
    }
}

/// A seed inside a running decode keeps its bound, even one asking for
/// none; a decode into another arena inside it neither lifts nor moves
/// the outer arena's ceiling; both lift after.
struct Nested {
    inner_ok: bool,
    other_ok: bool,
    big_refused: bool,
}

impl<'a> DeserializeIn<'a> for Nested {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        let n: u32 = Deserialize::deserialize(d)?;
        let blob = postcard::to_allocvec(&vec![1u8; n as usize]).unwrap();
        let inner_ok = InArena::<&[u8]>::new(arena)
            .max_bytes(usize::MAX)
            .deserialize(&mut postcard::Deserializer::from_bytes(&blob))
            .is_ok();
        let other = small_arena();
        let other_ok = InArena::<&[u8]>::new(&other)
            .max_bytes(16)
            .deserialize(&mut postcard::Deserializer::from_bytes(&blob))
            .is_ok();
        let big_refused = arena.try_alloc_slice_copy(&[0u8; 300]).is_err();
        Ok(Nested {
            inner_ok,
            other_ok,
            big_refused,
        })
    }
}

#[test]
fn review48_nested_seeds_keep_the_outer_bound_and_other_arenas_do_not_touch_it() {
    let arena = small_arena();
    let got = InArena::<Nested>::new(&arena)
        .max_bytes(256)
        .deserialize(&mut serde_json::Deserializer::from_str("400"))
        .unwrap();
    assert!(!got.inner_ok, "the inner seed kept the outer 256 bytes");
    assert!(!got.other_ok, "the other arena's own bound");
    assert!(got.big_refused, "the other decode's end did not lift ours");
    assert!(
        arena.try_alloc_slice_copy(&[0u8; 4096]).is_ok(),
        "lifted after"
    );
}

/// A decode inside `FrameArena::scoped`: bounded from the scope's top,
/// its bytes given back by the scope, the arena whole after.
#[test]
fn review48_bound_inside_a_scope() {
    let mut arena = small_arena();
    let kept = arena.alloc_slice_copy(&[5u8; 100]).len();
    let used = arena.used();
    let bomb = postcard::to_allocvec(&vec![9u64; 2000]).unwrap();
    let failed = arena.scoped(|scope| {
        let got = InArena::<FrameVec<'_, u64>>::new(scope)
            .max_bytes(1024)
            .deserialize(&mut postcard::Deserializer::from_bytes(&bomb));
        assert!(scope.used() - used <= 1024);
        got.is_err() && over_max_bytes(scope)
    });
    assert!(failed && kept == 100);
    assert_eq!(arena.used(), used, "the scope gave the bytes back");
    let list = InArena::<FrameVec<'_, u64>>::new(&arena)
        .deserialize(&mut postcard::Deserializer::from_bytes(&bomb))
        .unwrap();
    assert_eq!(list.len(), 2000);
}

/// A test source: each tick's packets, decoded into the tick's arena
/// under a bound; a packet `[0xFF]` makes `poll` panic midway through a
/// decode (a hand-written impl), after emitting the packets before it.
struct Packets(Vec<Vec<Vec<u8>>>);

struct Bomb;
impl<'a> DeserializeIn<'a> for Bomb {
    fn deserialize_in<'de, D: Deserializer<'de>>(
        arena: &'a FrameArena,
        d: D,
    ) -> Result<Self, D::Error> {
        let _: u8 = Deserialize::deserialize(d)?;
        arena.alloc([0u8; 512]); // past the bound: panics
        Ok(Bomb)
    }
}

impl EventSource for Packets {
    type Event<'f> = &'f [u16];
    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f [u16])) {
        let Some(tick) = self.0.pop() else { return };
        for packet in tick {
            if packet == [0xFF] {
                let _ = InArena::<Bomb>::new(arena)
                    .max_bytes(64)
                    .deserialize(&mut postcard::Deserializer::from_bytes(&[1]));
            }
            let got = InArena::<&[u16]>::new(arena)
                .max_bytes(64)
                .deserialize(&mut postcard::Deserializer::from_bytes(&packet));
            if let Ok(list) = got {
                emit(list);
            }
        }
    }
}

#[derive(Default)]
struct Server {
    sums: Vec<u32>,
    lines_seen: Vec<usize>,
    panic_in_action: bool,
}

struct Keep<'f>(&'f [u16]);
impl<'f> FrameAction<'f, Server> for Keep<'f> {
    fn apply(&mut self, world: &mut Server, frame: &mut Frame<'f, Server>) {
        if world.panic_in_action && self.0.first() == Some(&13) {
            world.panic_in_action = false;
            panic!("an action panics midway");
        }
        frame.scratch().push(self.0);
        frame.push(Count);
    }
}

struct Count;
impl Action<Server> for Count {
    fn apply(&mut self, _: &mut Server, frame: &mut Frame<'_, Server>) {
        assert!(frame.try_scratch().is_some());
    }
}

impl Game for Server {
    type Event = ();
    type Scratch<'f> = FrameVec<'f, &'f [u16]>;
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, lists: &mut Self::Scratch<'f>) {
        assert!(frame.try_scratch().is_none());
        self.sums.push(
            lists
                .iter()
                .flat_map(|l| l.iter())
                .map(|&n| u32::from(n))
                .sum(),
        );
    }
    fn end_frame<'f>(&mut self, _: &mut Frame<'f, Self>, lists: &mut Self::Scratch<'f>) {
        self.lines_seen.push(lists.len());
    }
}

impl Receive<Packets> for Server {
    fn receive<'f>(&mut self, list: &'f [u16], frame: &mut Frame<'f, Self>) {
        frame.push_in(Keep(list));
    }
}

fn packet(values: &[u16]) -> Vec<u8> {
    postcard::to_allocvec(values).unwrap()
}

#[test]
fn review48_tick_from_records_and_recovers_from_panics() {
    let mut game = FrameLoop::new(Server::default()).one_step_per_tick();
    // Ticks pop from the back.
    let mut source = Packets(vec![
        vec![packet(&[4]), packet(&[5])],
        vec![packet(&[13]), packet(&[1])],
        vec![packet(&[1]), vec![0xFF], packet(&[2])],
        vec![
            packet(&[1, 2]),
            vec![0x05, 1],
            packet(&[3; 40]),
            packet(&[4]),
        ],
    ]);
    let record = game.tick_from(&mut source, Duration::from_secs(5));
    // Two good, one truncated, one over the bound (40 u16 = 80 > 64).
    assert_eq!((record.events, record.steps), (2, 1));
    assert_eq!(record.actions, 4, "two Keeps, two Counts");
    assert!(record.arena_bytes >= 4 + 2, "the two lists decoded");
    assert_eq!(
        game.history().latest().unwrap().arena_bytes,
        record.arena_bytes
    );
    assert_eq!(game.world().sums, [7]);
    assert_eq!(game.arena().used(), 0);

    // A panic inside a decode, inside poll: the ceiling goes with it.
    let caught = catch_unwind(AssertUnwindSafe(|| {
        game.tick_from(&mut source, Duration::ZERO)
    }));
    assert!(caught.is_err());
    assert_eq!(game.arena().used(), 0);
    assert!(game.arena().try_alloc_slice_copy(&[0u8; 4096]).is_ok());

    // A panic in an action: the next tick starts with a fresh scratch.
    game.world_mut().panic_in_action = true;
    let caught = catch_unwind(AssertUnwindSafe(|| {
        game.tick_from(&mut source, Duration::ZERO)
    }));
    assert!(caught.is_err());
    let record = game.tick_from(&mut source, Duration::ZERO);
    assert_eq!((record.events, record.actions, record.steps), (2, 4, 1));
    assert_eq!(game.world().sums, [7, 9]);
    assert_eq!(game.world().lines_seen, [2, 2]);
    assert_eq!(game.arena().used(), 0);
}

/// `one_step_per_tick`: one step, whatever elapsed; `alpha` 0 and
/// `max_steps` 1 as `FixedTimestep::one_per_tick` says; the plain loop's
/// `tick_from` still runs its steps from the elapsed time.
#[test]
fn review48_one_step_per_tick_and_the_plain_timestep() {
    let mut timestep = FixedTimestep::one_per_tick(Duration::from_millis(50));
    assert_eq!(timestep.advance(Duration::from_millis(10)), 1);
    assert_eq!((timestep.max_steps(), timestep.alpha()), (1, 0.0));
    let mut plain = FrameLoop::new(Server::default());
    let mut none = Packets(vec![]);
    assert_eq!(plain.tick_from(&mut none, Duration::ZERO).steps, 0);
    assert_eq!(plain.tick_from(&mut none, plain.step() * 2).steps, 2);
    assert_eq!(plain.world().sums, [0, 0]);
}

/// A `()` scratch takes none of the tick's arena (`Game::Scratch`'s doc).
#[test]
fn review48_a_unit_scratch_takes_nothing() {
    struct Still;
    impl Game for Still {
        type Event = ();
        type Scratch<'f> = ();
        fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
            assert_eq!(frame.arena().used(), 0);
        }
    }
    let mut game = FrameLoop::new(Still);
    assert_eq!(game.tick([()], game.step()).arena_bytes, 0);
}
