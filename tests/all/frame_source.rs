//! A tick's events from a source, in the tick's arena (`EventSource`,
//! `Receive`, `FrameLoop::tick_from`); the tick's scratch reached by the
//! events and by actions (`Frame::scratch`, `FrameAction`); one step per
//! tick.

use std::cell::Cell;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::frame_loop::{
    Action, EventSource, FixedTimestep, Frame, FrameAction, FrameLoop, FromArena, Game, Receive,
};
use tickarena::{FrameArena, FrameVec};

/// Packets waiting on a test's wire; each poll receives them all into the
/// tick's arena and emits each as text (or its length, if not UTF-8).
#[derive(Default)]
struct Wire {
    pending: VecDeque<Vec<u8>>,
    polls: u32,
    /// The arena's bytes in use when the last poll ended.
    used_after_poll: usize,
    /// Panic in the next poll, after emitting.
    panic_next: bool,
}

enum Packet<'f> {
    Text(&'f str),
    Junk(usize),
}

impl EventSource for Wire {
    type Event<'f> = Packet<'f>;
    fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(Packet<'f>)) {
        self.polls += 1;
        while let Some(bytes) = self.pending.pop_front() {
            let copy = arena.alloc_slice_copy(&bytes);
            match std::str::from_utf8(copy) {
                Ok(text) => emit(Packet::Text(text)),
                Err(_) => emit(Packet::Junk(copy.len())),
            }
        }
        self.used_after_poll = arena.used();
        if std::mem::take(&mut self.panic_next) {
            panic!("the socket broke");
        }
    }
}

/// What the server saw, phase by phase.
#[derive(Default)]
struct Server {
    junk: usize,
    /// Lines applied by actions, in order, with the phase's mark.
    applied: Vec<String>,
    /// What each update step found in the scratch.
    updates: Vec<Vec<String>>,
    /// What end_frame found in the scratch.
    ends: Vec<Vec<String>>,
    /// Whether the scratch could be reached through the frame in each
    /// phase: receive, an action, update, end_frame.
    reach: Vec<(&'static str, bool)>,
}

/// This tick's lines, from the packets to the snapshot.
type Said<'f> = FrameVec<'f, &'f str>;

/// A line, handed on to the scratch without a copy.
struct Say<'f>(&'f str);
impl<'f> FrameAction<'f, Server> for Say<'f> {
    fn apply(&mut self, server: &mut Server, frame: &mut Frame<'f, Server>) {
        server.applied.push(format!("say {}", self.0));
        let reached = frame.try_scratch().is_some();
        server.reach.push(("frame action", reached));
        frame.scratch().push(self.0);
    }
}

/// A plain action: it copies what it hands on into the frame.
struct Shout(&'static str);
impl Action<Server> for Shout {
    fn apply(&mut self, server: &mut Server, frame: &mut Frame<'_, Server>) {
        server.applied.push(format!("shout {}", self.0));
        let loud = frame.arena().alloc_str(&self.0.to_uppercase());
        server.reach.push(("action", frame.try_scratch().is_some()));
        frame.scratch().push(loud);
    }
}

impl Game for Server {
    type Event = &'static str;
    type Scratch<'f> = Said<'f>;
    fn actions<'f>(&mut self, shout: &'static str, frame: &mut Frame<'f, Self>) {
        frame.push(Shout(shout));
    }
    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, said: &mut Said<'f>) {
        self.reach.push(("update", frame.try_scratch().is_some()));
        self.updates
            .push(said.iter().map(|line| (*line).to_owned()).collect());
    }
    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, said: &mut Said<'f>) {
        self.reach
            .push(("end_frame", frame.try_scratch().is_some()));
        self.ends
            .push(said.iter().map(|line| (*line).to_owned()).collect());
    }
}

impl Receive<Wire> for Server {
    fn receive<'f>(&mut self, packet: Packet<'f>, frame: &mut Frame<'f, Self>) {
        self.reach.push(("receive", frame.try_scratch().is_some()));
        match packet {
            Packet::Text(line) if line.starts_with('!') => frame.push(Shout("alarm")),
            // Straight into the scratch, and through an action.
            Packet::Text(line) => {
                frame.scratch().push("(heard)");
                frame.push_in(Say(line));
            }
            Packet::Junk(len) => self.junk += len,
        }
    }
}

fn wire(packets: &[&[u8]]) -> Wire {
    Wire {
        pending: packets.iter().map(|p| p.to_vec()).collect(),
        ..Wire::default()
    }
}

#[test]
fn a_source_is_asked_once_per_tick_and_its_events_live_in_the_tick() {
    let mut source = wire(&[b"hello", &[0xff, 0xfe], b"gg"]);
    let mut game = FrameLoop::new(Server::default());
    let record = game.tick_from(&mut source, game.step());
    assert_eq!(source.polls, 1);
    assert!(
        source.used_after_poll >= 9,
        "the packets were received into the tick's arena: {}",
        source.used_after_poll
    );
    assert_eq!((record.events, record.actions, record.steps), (3, 2, 1));
    assert!(record.arena_bytes >= source.used_after_poll);
    assert_eq!(game.arena().used(), 0, "the packets went with the tick");
    let server = game.world();
    assert_eq!(server.junk, 2);
    assert_eq!(server.applied, ["say hello", "say gg"]);
    // The scratch: what `receive` put there and what the actions handed
    // on, in that order, seen by the update step and by end_frame.
    let said = ["(heard)", "(heard)", "hello", "gg"];
    assert_eq!(server.updates, [said]);
    assert_eq!(server.ends, [said]);

    // Nothing pending: asked again, nothing emitted.
    let record = game.tick_from(&mut source, game.step());
    assert_eq!((source.polls, record.events, record.actions), (2, 0, 0));
    assert_eq!(game.world().ends[1], Vec::<String>::new());
}

#[test]
fn the_scratch_is_reached_from_receive_and_actions_and_is_each_phase_parameter_otherwise() {
    let mut source = wire(&[b"hi"]);
    let mut game = FrameLoop::new(Server::default());
    game.tick_from(&mut source, game.step());
    assert_eq!(
        game.world().reach,
        [
            ("receive", true),
            ("frame action", true),
            ("update", false),
            ("end_frame", false)
        ]
    );
    // The listed events' path (`tick`, `Game::actions`) reaches it too.
    let mut game = FrameLoop::new(Server::default());
    game.tick(["boo"], game.step());
    assert_eq!(game.world().reach[0], ("action", true));
    assert_eq!(game.world().updates, [["BOO"]]);
}

#[test]
fn actions_of_both_kinds_apply_in_push_order() {
    let mut source = wire(&[b"a", b"!", b"b"]);
    let mut game = FrameLoop::new(Server::default());
    let record = game.tick_from(&mut source, game.step());
    assert_eq!(game.world().applied, ["say a", "shout alarm", "say b"]);
    assert_eq!(record.actions, 3);
    assert_eq!(
        game.world().updates,
        [["(heard)", "(heard)", "a", "ALARM", "b"]]
    );
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn frame_scratch_inside_update_panics_with_a_message_and_the_loop_goes_on() {
    struct Misuse;
    impl Game for Misuse {
        type Event = ();
        type Scratch<'f> = Option<u8>;
        fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
        fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut Option<u8>) {
            *frame.scratch() = Some(1);
        }
    }
    let mut game = FrameLoop::new(Misuse);
    let panic = catch_unwind(AssertUnwindSafe(|| game.tick([], game.step()))).unwrap_err();
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or(panic.downcast_ref::<String>().map(String::as_str))
        .unwrap();
    assert!(
        message.contains("Frame::scratch inside update") && message.contains("parameter"),
        "{message}"
    );
    assert_eq!(game.arena().used(), 0, "the arena was reset on the way out");
    assert_eq!(game.ticks(), 0, "the failed tick is not counted");
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_panic_in_the_source_resets_the_arena_and_the_next_tick_runs() {
    let mut source = wire(&[b"x"]);
    source.panic_next = true;
    let mut game = FrameLoop::new(Server::default());
    let result = catch_unwind(AssertUnwindSafe(|| {
        game.tick_from(&mut source, game.step())
    }));
    assert!(result.is_err());
    assert_eq!(game.arena().used(), 0);
    assert_eq!((game.ticks(), game.history().len()), (0, 0));
    source.pending.push_back(b"y".to_vec());
    let record = game.tick_from(&mut source, game.step());
    assert_eq!((record.tick, record.events), (0, 1));
    assert_eq!(game.world().ends, [["(heard)", "y"]]);
}

thread_local! {
    static MADE: Cell<u32> = const { Cell::new(0) };
    static DROPPED: Cell<u32> = const { Cell::new(0) };
}

/// A scratch that counts how often it is made and dropped.
struct Counted<'f>(#[allow(dead_code, reason = "an arena list, to be dropped")] FrameVec<'f, u8>);
impl<'f> FromArena<'f> for Counted<'f> {
    fn from_arena(arena: &'f FrameArena) -> Self {
        MADE.with(|made| made.set(made.get() + 1));
        Counted(Vec::new_in(arena))
    }
}
impl Drop for Counted<'_> {
    fn drop(&mut self) {
        DROPPED.with(|dropped| dropped.set(dropped.get() + 1));
    }
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn the_scratch_is_made_and_dropped_once_per_tick_also_when_a_phase_panics() {
    struct Crashy(bool);
    impl Game for Crashy {
        type Event = ();
        type Scratch<'f> = Counted<'f>;
        fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
        fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut Counted<'f>) {
            assert!(!self.0, "update fails");
        }
    }
    let mut game = FrameLoop::new(Crashy(false));
    game.tick([], game.step());
    game.tick([], Duration::ZERO); // no update step: made and dropped all the same
    assert_eq!((MADE.get(), DROPPED.get()), (2, 2));
    game.world_mut().0 = true;
    assert!(catch_unwind(AssertUnwindSafe(|| game.tick([], game.step()))).is_err());
    assert_eq!(
        (MADE.get(), DROPPED.get()),
        (3, 3),
        "dropped while the update that held it unwound"
    );
}

#[test]
fn one_step_per_tick_runs_one_update_whatever_the_elapsed_time() {
    struct Steps(u32);
    impl Game for Steps {
        type Event = ();
        type Scratch<'f> = ();
        fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
        fn update<'f>(&mut self, _: &mut Frame<'f, Self>, _: &mut ()) {
            self.0 += 1;
        }
    }
    let mut game = FrameLoop::new(Steps(0)).one_step_per_tick();
    for elapsed in [
        Duration::ZERO,
        Duration::from_nanos(1),
        Duration::from_secs(10),
        game.step() / 2,
    ] {
        assert_eq!(game.tick([], elapsed).steps, 1, "{elapsed:?}");
    }
    assert_eq!(game.world().0, 4);
    assert_eq!(game.time(), game.step() * 4);
    // The same mode through the parts, with a step of its own.
    let step = Duration::from_millis(50);
    let arena = FrameArena::builder().build().unwrap();
    let mut game = FrameLoop::with_parts(Steps(0), arena, FixedTimestep::one_per_tick(step), 8);
    game.tick([], Duration::from_secs(1));
    assert_eq!((game.world().0, game.time(), game.step()), (1, step, step));
    // The ordinary loop still pays out elapsed time.
    let mut game = FrameLoop::new(Steps(0));
    assert_eq!(game.tick([], Duration::ZERO).steps, 0);
    assert_eq!(game.tick([], game.step() * 3).steps, 3);
}

#[test]
fn actions_pushed_by_update_and_end_frame_reach_the_scratch_after_their_phase() {
    struct Mark(&'static str);
    impl Action<Steps> for Mark {
        fn apply(&mut self, _: &mut Steps, frame: &mut Frame<'_, Steps>) {
            frame.scratch().push(self.0);
        }
    }
    #[derive(Default)]
    struct Steps {
        seen: Vec<Vec<&'static str>>,
        presented: Vec<&'static str>,
    }
    impl Game for Steps {
        type Event = ();
        type Scratch<'f> = FrameVec<'f, &'static str>;
        fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
            frame.push(Mark("event"));
        }
        fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, marks: &mut Self::Scratch<'f>) {
            self.seen.push(marks.to_vec());
            frame.push(Mark("update"));
        }
        fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, marks: &mut Self::Scratch<'f>) {
            self.seen.push(marks.to_vec());
            frame.push(Mark("end_frame"));
        }
    }
    let mut game = FrameLoop::new(Steps::default());
    let mut presented = Vec::new();
    game.tick_with([()], game.step() * 2, |_, _, marks, _| {
        presented = marks.to_vec();
    });
    game.world_mut().presented = presented;
    assert_eq!(
        game.world().seen,
        [
            vec!["event"],
            vec!["event", "update"],
            vec!["event", "update", "update"]
        ]
    );
    assert_eq!(
        game.world().presented,
        ["event", "update", "update", "end_frame"]
    );
}
