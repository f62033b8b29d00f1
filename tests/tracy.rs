//! The `tracy` feature: every reset of a `FrameArena` or `ThreadArenas`
//! and every frame-loop tick plots its figures to Tracy while a client
//! runs, and nothing before. `.ci/run` runs this with tracy-client's
//! `enable` and `manual-lifetime` features (the C++ client really runs,
//! without a server attached):
//!
//! ```sh
//! cargo test --features tracy,tracy-client/enable,tracy-client/manual-lifetime --test tracy
//! ```

#![cfg(feature = "tracy")]

use tickarena::frame_loop::{Frame, FrameLoop, Game};
use tickarena::{FrameArena, ThreadArenas, tracy_points_sent};

struct Idle;
impl Game for Idle {
    type Event = ();
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
}

/// Runs a reset of each kind; the points plotted meanwhile.
fn one_frame_of_each(
    arena: &mut FrameArena,
    threads: &mut ThreadArenas,
    game: &mut FrameLoop<Idle>,
) -> u64 {
    let before = tracy_points_sent();
    arena.alloc_slice_fill_with(1000, |i| i as u64);
    arena.reset();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| threads.local().alloc_str("worker"));
        }
    });
    threads.reset();
    game.tick([()], game.step());
    tracy_points_sent() - before
}

#[test]
fn frames_are_plotted_while_a_client_runs() {
    let mut arena = FrameArena::builder().name("test arena").build().unwrap();
    let mut threads = ThreadArenas::with_builder(FrameArena::builder().name("test threads"));
    let mut game = FrameLoop::new(Idle);
    // With `manual-lifetime`, no client runs yet: nothing is plotted (and
    // nothing panics). Without it the client runs from the start.
    let running_from_start = tracy_client::Client::running().is_some();
    let points = one_frame_of_each(&mut arena, &mut threads, &mut game);
    // 3 for the arena, 3 for the thread set (not 3 per thread), 3 for the
    // frame loop's arena, 3 for its (empty) workers, 1 for its tick.
    let expected = 3 + 3 + 3 + 3 + 1;
    assert_eq!(points, if running_from_start { expected } else { 0 });

    let _client = tracy_client::Client::start();
    assert!(tracy_client::Client::running().is_some());
    for _ in 0..3 {
        assert_eq!(
            one_frame_of_each(&mut arena, &mut threads, &mut game),
            expected
        );
    }
    // A tagged frame adds a point per tag (the untagged bytes' included),
    // in the arena's plots and the thread set's sums alike.
    const AI: tickarena::Tag = tickarena::Tag::new("ai");
    let before = tracy_points_sent();
    {
        let _ai = arena.tag(AI);
        arena.alloc(0u64);
    }
    arena.reset();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let _ai = threads.local().tag(AI);
            threads.local().alloc(0u64);
        });
    });
    threads.reset();
    assert_eq!(tracy_points_sent() - before, (3 + 2) + (3 + 2));
    // Tracy's symbol worker thread reads /proc/kallsyms right after the
    // client starts; a process that exits under it can make that read fail
    // an assertion inside Tracy. Give it time to finish.
    std::thread::sleep(std::time::Duration::from_millis(500));
}
