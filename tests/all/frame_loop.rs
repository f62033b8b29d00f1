//! The game loop: actions applied in order, a burst of 10^5 events, the
//! fixed timestep and its catch-up cap, the history.

use std::time::Duration;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{Action, FixedTimestep, Frame, FrameLoop, Game};
use tickarena::{FrameArena, format_in};

#[derive(Default)]
struct Log {
    lines: Vec<std::string::String>,
    updates: u32,
}

struct Append<'f>(tickarena::String<&'f FrameArena>);

impl Action<Log> for Append<'_> {
    fn apply(&mut self, world: &mut Log, _: &mut Frame<'_, Log>) {
        world.lines.push(self.0.as_str().to_owned());
    }
}

impl Game for Log {
    type Event = u32;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, event: u32, frame: &mut Frame<'f, Self>) {
        let line = format_in!(frame.arena(), "{}:{event}", frame.tick());
        frame.push(Append(line));
    }
    fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut ()) {
        self.updates += 1;
    }
}

#[test]
fn actions_apply_in_event_order_and_the_frame_is_reclaimed() {
    let mut game = FrameLoop::new(Log::default());
    let record = game.tick([5, 6, 7], game.step());
    assert_eq!(game.world().lines, ["0:5", "0:6", "0:7"]);
    assert_eq!((record.events, record.actions, record.steps), (3, 3, 1));
    assert!(record.arena_bytes > 0);
    assert_eq!(
        game.arena().used(),
        0,
        "the frame is reclaimed after the tick"
    );
    game.tick([1], game.step());
    assert_eq!(game.world().lines.last().unwrap(), "1:1");
}

struct Burst;
struct Nop<'f>(#[allow(dead_code, reason = "held to cost arena bytes")] &'f [u64]);
impl Action<Burst> for Nop<'_> {
    fn apply(&mut self, _: &mut Burst, _: &mut Frame<'_, Burst>) {}
}
impl Game for Burst {
    type Event = u64;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, event: u64, frame: &mut Frame<'f, Self>) {
        let payload = frame.arena().alloc_slice_fill_with(8, |i| event + i as u64);
        frame.push(Nop(payload));
    }
}

#[test]
fn a_burst_of_events_is_served_and_its_pages_given_back() {
    const RETAIN: usize = if cfg!(miri) { 64 << 10 } else { 1 << 20 };
    let arena = FrameArena::builder()
        .reserve(256 << 20)
        .retain(RETAIN)
        .release_after(0)
        .build()
        .unwrap();
    let mut game = FrameLoop::with_parts(Burst, arena, FixedTimestep::default(), 64);
    let step = game.step();
    let usual = game.tick(0..100, step).arena_bytes;
    let burst_events = if cfg!(miri) { 5_000 } else { 100_000 };
    let burst = game.tick(0..burst_events, step);
    assert_eq!(burst.actions, burst_events as usize);
    assert!(
        burst.arena_bytes > RETAIN,
        "the burst needs more than the retained pages"
    );
    assert!(
        game.arena().stats().committed <= RETAIN,
        "pages above retain went back"
    );
    let after = game.tick(0..100, step).arena_bytes;
    assert_eq!(after, usual, "the next frame is back to its usual size");
    assert_eq!(game.history().high_water(), burst.arena_bytes);
    // The arena sees the frame at its reset, after the actions were dropped
    // (the last one gives its bytes back), so a little below the peak.
    let at_reset = game.arena().stats().high_water;
    assert!(at_reset > RETAIN && at_reset <= burst.arena_bytes);
}

#[test]
fn fixed_timestep_counts_steps_and_caps_catch_up() {
    let step = Duration::from_millis(10);
    let mut timestep = FixedTimestep::new(step, 3);
    assert_eq!(timestep.advance(Duration::from_millis(9)), 0);
    assert_eq!(timestep.advance(Duration::from_millis(2)), 1);
    assert_eq!(timestep.advance(Duration::from_millis(29)), 3);
    assert_eq!(timestep.advance(Duration::ZERO), 0);
    // A 10-second stall runs 3 steps, not 1000, and leaves no backlog.
    assert_eq!(timestep.advance(Duration::from_secs(10)), 3);
    assert_eq!(timestep.advance(Duration::from_millis(5)), 0);
    assert_eq!(timestep.advance(Duration::from_millis(5)), 1);

    let mut game = FrameLoop::with_parts(
        Log::default(),
        FrameArena::new(),
        FixedTimestep::new(step, 4),
        8,
    );
    game.tick([], Duration::from_millis(35));
    assert_eq!(game.world().updates, 3);
    game.tick([], Duration::from_secs(2));
    assert_eq!(game.world().updates, 7);
}

#[test]
fn history_keeps_the_last_frames() {
    let mut game = FrameLoop::with_parts(
        Log::default(),
        FrameArena::new(),
        FixedTimestep::default(),
        4,
    );
    for events in 0..10u32 {
        game.tick(0..events, game.step());
    }
    let events: Vec<usize> = game.history().iter().map(|r| r.events).collect();
    assert_eq!(events, [6, 7, 8, 9]);
    assert_eq!(game.history().latest().unwrap().tick, 9);
    assert_eq!(game.ticks(), 10);
}

/// Panics in the step named by `panic_in`, after allocating in the arena.
struct Fragile {
    panic_in: &'static str,
}

struct Explode<'f>(&'f mut [u8]);

impl Action<Fragile> for Explode<'_> {
    fn apply(&mut self, world: &mut Fragile, _: &mut Frame<'_, Fragile>) {
        self.0[0] = 1;
        assert!(world.panic_in != "action", "action failed");
    }
}

impl Game for Fragile {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        let bytes = frame.arena().alloc_slice_fill_with(4096, |_| 0u8);
        assert!(self.panic_in != "actions", "actions failed");
        frame.push(Explode(bytes));
    }
    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        frame.arena().alloc([0u64; 16]);
        assert!(self.panic_in != "update", "update failed");
    }
    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        let _ = format_in!(frame.arena(), "end {}", frame.tick());
        assert!(self.panic_in != "end_frame", "end_frame failed");
    }
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_panic_in_a_tick_still_resets_the_arena() {
    for step in ["actions", "action", "update", "end_frame", "present"] {
        let mut game = FrameLoop::new(Fragile { panic_in: step });
        let frames_before = game.arena().stats().frames;
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            game.tick_with([(), ()], game.step(), |world, frame, _, _| {
                frame.arena().alloc_str("drawn");
                assert!(world.panic_in != "present", "present failed");
            })
        }));
        assert!(caught.is_err(), "{step} did not panic");
        let stats = game.arena().stats();
        assert_eq!(stats.used, 0, "a panic in {step} left the frame's bytes");
        assert!(
            stats.high_water >= 4096,
            "{step}: the frame's use is still counted"
        );
        assert_eq!(stats.frames, frames_before + 1, "{step}: one reset");
        assert_eq!(game.ticks(), 0, "{step}: the failed tick is not counted");
        // The loop goes on from an empty arena.
        game.world_mut().panic_in = "";
        let record = game.tick([()], game.step());
        assert_eq!((record.tick, record.actions), (0, 1));
        assert_eq!(game.arena().used(), 0);
    }
}

/// Holds a share of the world's token: counts the live actions.
struct Holding(std::rc::Rc<()>);

impl Action<Tokens> for Holding {
    fn apply(&mut self, world: &mut Tokens, _: &mut Frame<'_, Tokens>) {
        assert!(std::rc::Rc::ptr_eq(&self.0, &world.token));
        world.applied += 1;
    }
}

struct Tokens {
    token: std::rc::Rc<()>,
    applied: usize,
    alive_while_mapping: usize,
    alive_during_update: usize,
}

impl Game for Tokens {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        frame.push(Holding(std::rc::Rc::clone(&self.token)));
        self.alive_while_mapping = std::rc::Rc::strong_count(&self.token) - 1;
    }
    fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut ()) {
        self.alive_during_update = std::rc::Rc::strong_count(&self.token) - 1;
    }
}

#[test]
fn every_action_is_dropped_once_right_after_its_batch_is_applied() {
    let mut game = FrameLoop::new(Tokens {
        token: std::rc::Rc::new(()),
        applied: 0,
        alive_while_mapping: 0,
        alive_during_update: 0,
    });
    for tick in 1..=3 {
        game.tick([(), (), ()], game.step());
        let world = game.world();
        assert_eq!(world.applied, 3 * tick);
        assert_eq!(world.alive_while_mapping, 3, "pushed actions wait, alive");
        assert_eq!(
            world.alive_during_update, 0,
            "applied actions are dropped before the update step"
        );
        assert_eq!(std::rc::Rc::strong_count(&world.token), 1, "and only once");
    }
}

/// Records what happened, in order, to check when each phase's actions
/// apply and what the frame's figures say at each point.
#[derive(Default)]
struct Trace(Vec<std::string::String>);

struct Note(&'static str);

impl Action<Trace> for Note {
    fn apply(&mut self, world: &mut Trace, frame: &mut Frame<'_, Trace>) {
        world.0.push(format!("apply {}", self.0));
        if self.0 == "event" {
            // A follow-up, with text from the arena.
            let text = tickarena::format_in!(frame.arena(), "follow-up of tick {}", frame.tick());
            frame.push(FollowUp(text));
        }
    }
}

struct FollowUp<'f>(tickarena::FrameString<'f>);

impl Action<Trace> for FollowUp<'_> {
    fn apply(&mut self, world: &mut Trace, _: &mut Frame<'_, Trace>) {
        world.0.push(format!("apply {}", self.0));
    }
}

impl Game for Trace {
    type Event = ();
    type Scratch<'f> = tickarena::FrameVec<'f, u32>;

    fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
        frame.push(Note("event"));
        self.0.push(format!(
            "event {} pending {}",
            frame.events(),
            frame.pending_actions()
        ));
    }
    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, scratch: &mut Self::Scratch<'f>) {
        scratch.push(frame.steps_run());
        self.0.push(format!(
            "update {}/{} applied {} pending {}",
            frame.steps_run(),
            frame.steps(),
            frame.actions_applied(),
            frame.pending_actions()
        ));
        frame.push(Note("update"));
    }
    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, scratch: &mut Self::Scratch<'f>) {
        self.0.push(format!("end_frame scratch {scratch:?}"));
        frame.push(Note("end_frame"));
    }
}

#[test]
fn actions_apply_at_the_end_of_the_phase_that_pushed_them() {
    let mut game = FrameLoop::new(Trace::default());
    let record = game.tick_with([(), ()], game.step() * 2, |world, frame, scratch, _| {
        assert_eq!(world.0.last().unwrap(), "apply end_frame");
        assert_eq!(
            scratch.as_slice(),
            [0, 1],
            "present sees the tick's scratch"
        );
        assert_eq!((frame.events(), frame.steps_run()), (2, 2));
        assert_eq!((frame.actions_applied(), frame.pending_actions()), (7, 0));
    });
    assert_eq!(
        game.world().0,
        [
            "event 0 pending 1",
            "event 1 pending 2",
            "apply event",
            "apply event",
            "apply follow-up of tick 0",
            "apply follow-up of tick 0",
            "update 0/2 applied 4 pending 0",
            "apply update",
            "update 1/2 applied 5 pending 0",
            "apply update",
            "end_frame scratch [0, 1]",
            "apply end_frame",
        ]
    );
    assert_eq!((record.events, record.actions, record.steps), (2, 7, 2));
    assert_eq!(game.arena().used(), 0);
}

#[test]
fn the_scratch_is_made_anew_every_tick() {
    let mut game = FrameLoop::new(Trace::default());
    for _ in 0..3 {
        game.world_mut().0.clear();
        game.tick([], game.step());
        assert_eq!(game.world().0[2], "end_frame scratch [0]");
    }
    // No step: the scratch reaches end_frame empty.
    game.world_mut().0.clear();
    game.tick([], std::time::Duration::ZERO);
    assert_eq!(game.world().0[0], "end_frame scratch []");
}
