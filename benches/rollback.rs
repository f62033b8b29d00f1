//! One rendered frame of the demo game under rollback: a `SyncTestSession`
//! with check distance 7, so every frame loads the state of 7 frames ago,
//! runs 8 ticks (7 re-simulated) and saves 7 states (ggrs skips the one
//! it just loaded), on two players'
//! inputs of 50 orders each (about 200 actions a tick, each with a
//! formatted log line), about 3000 entities. ggrs's own calls are in every
//! contender's time alike.
//!
//! * `tickarena`: `RollbackLoop` (each tick's data in the frame arena,
//!   snapshots in recycled slots, shared with ggrs's cells);
//! * `frame_arena_by_hand`: the same frame loop and arena, the requests
//!   handled as ggrs's examples do: each save a fresh copy of the state,
//!   each load a clone of it (`GameStateCell::load`);
//! * `bumpalo_reset_per_tick`: that by-hand loop with the frame's data in
//!   a `bumpalo::Bump` reset after every tick;
//! * `global_allocator`: `RollbackLoop` with every frame allocation of the
//!   game on the global allocator (glibc malloc).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ggrs::{Config, GgrsRequest, SessionBuilder, SyncTestSession};
use tickarena::FrameArena;
use tickarena::frame_loop::{Action, Frame, FrameLoop};
use tickarena::rollback::{PlayerInput, RollbackConfig, RollbackGame, RollbackLoop};

#[path = "../examples/support/demo.rs"]
mod demo;
#[path = "../examples/support/rollback_demo.rs"]
mod rollback_demo;
#[path = "support/thread_bump.rs"]
mod thread_bump;

use demo::{FrameMemory, InArena, OnHeap, World};
use rollback_demo::{DemoInput, DemoState, world_with};
use thread_bump::{ThreadBump, reset_thread_bump};

const COMMANDS: u8 = 50;
const ENTITIES: usize = 3000;
/// Frames run before measuring: the slots, lists and bumps have grown.
const WARM_UP: i32 = 100;

/// The frame's data in this thread's bumpalo `Bump`.
struct InBump;

/// An action in the bump, queued as a pointer to it.
struct BumpBoxed<'f, G>(Box<dyn Action<G> + 'f, ThreadBump>);

impl<G> Action<G> for BumpBoxed<'_, G> {
    fn apply(&mut self, world: &mut G, frame: &mut Frame<'_, G>) {
        self.0.apply(world, frame);
    }
}

impl FrameMemory for InBump {
    type Alloc<'f> = ThreadBump;
    const NAME: &'static str = "bumpalo";

    fn of(_: &FrameArena) -> ThreadBump {
        ThreadBump
    }

    fn push<'f, G: 'static>(frame: &mut Frame<'f, G>, action: impl Action<G> + 'f) {
        frame.push(BumpBoxed(Box::new_in(action, ThreadBump)));
    }
}

/// A state as ggrs's examples save it: a copy of its own, with the loop's
/// clock.
#[derive(Clone)]
struct Copied {
    state: DemoState,
    tick: u64,
    time: Duration,
}

struct CopiedConfig<M>(std::marker::PhantomData<M>);

impl<M: FrameMemory> Config for CopiedConfig<M> {
    type Input = DemoInput;
    type InputPredictor = ggrs::PredictRepeatLast;
    type State = Copied;
    type Address = std::net::SocketAddr;
}

/// The requests handled by hand, as ggrs's examples do, on the frame loop.
struct ByHand<M: FrameMemory> {
    game: FrameLoop<World<M>>,
    /// What ends a tick besides the loop's own reset (the bump's reset).
    after_tick: fn(),
}

impl<M: FrameMemory> ByHand<M> {
    fn handle_requests(&mut self, requests: Vec<GgrsRequest<CopiedConfig<M>>>) {
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let mut state = DemoState::default();
                    self.game.world().save(&mut state);
                    let checksum = World::<M>::checksum(&state);
                    let (tick, time) = (self.game.ticks(), self.game.time());
                    cell.save(frame, Some(Copied { state, tick, time }), Some(checksum));
                }
                GgrsRequest::LoadGameState { cell, .. } => {
                    let copied = cell.load().expect("a saved state");
                    self.game.world_mut().load(&copied.state);
                    self.game.rewind(copied.tick, copied.time);
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    let events =
                        inputs
                            .into_iter()
                            .enumerate()
                            .flat_map(|(player, (input, status))| {
                                World::<M>::events(PlayerInput {
                                    player,
                                    input,
                                    status,
                                })
                            });
                    let step = self.game.step();
                    self.game.tick(events, step);
                    (self.after_tick)();
                }
            }
        }
    }
}

fn session<C: Config<Input = DemoInput>>() -> SyncTestSession<C> {
    SessionBuilder::<C>::new()
        .with_num_players(2)
        .unwrap()
        .with_check_distance(7)
        .start_synctest_session()
        .unwrap()
}

/// Adds both players' inputs of `frame` and advances the session.
fn next_requests<C: Config<Input = DemoInput>>(
    session: &mut SyncTestSession<C>,
    frame: &mut i32,
) -> Vec<GgrsRequest<C>> {
    for player in 0..2 {
        let input = DemoInput::scripted(player, *frame, COMMANDS);
        session.add_local_input(player, input).unwrap();
    }
    *frame += 1;
    session.advance_frame().expect("no checksum mismatch")
}

/// Frames measured in one game at most: a sample of more frames plays
/// several games. Every contender measures the same frames of the same
/// game (frames `WARM_UP` onward), whose work varies as the battle goes.
const WINDOW: u64 = 400;

/// A contender: a fresh session and game for every stretch of frames
/// measured, warmed up untimed, then `iters` frames timed.
fn contender<C, G>(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    new_game: impl Fn() -> G,
    handle: fn(&mut G, Vec<GgrsRequest<C>>),
) where
    C: Config<Input = DemoInput>,
{
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut measured = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let (mut session, mut game, mut frame) = (session::<C>(), new_game(), 0);
                while frame < WARM_UP {
                    let requests = next_requests(&mut session, &mut frame);
                    handle(&mut game, requests);
                }
                let frames = left.min(WINDOW);
                let started = Instant::now();
                for _ in 0..frames {
                    let requests = next_requests(&mut session, &mut frame);
                    handle(&mut game, black_box(requests));
                }
                measured += started.elapsed();
                left -= frames;
            }
            measured
        })
    });
}

fn rollback(c: &mut Criterion) {
    let mut group = c.benchmark_group("rollback_check_distance_7");
    contender::<RollbackConfig<World<InArena>>, _>(
        &mut group,
        "tickarena",
        || RollbackLoop::new(world_with::<InArena>(ENTITIES)),
        |game, requests| game.handle_requests(requests),
    );
    contender::<CopiedConfig<InArena>, _>(
        &mut group,
        "frame_arena_by_hand",
        || ByHand {
            game: FrameLoop::new(world_with::<InArena>(ENTITIES)),
            after_tick: || {},
        },
        ByHand::handle_requests,
    );
    contender::<CopiedConfig<InBump>, _>(
        &mut group,
        "bumpalo_reset_per_tick",
        || ByHand {
            game: FrameLoop::new(world_with::<InBump>(ENTITIES)),
            after_tick: reset_thread_bump,
        },
        ByHand::handle_requests,
    );
    contender::<RollbackConfig<World<OnHeap>>, _>(
        &mut group,
        "global_allocator",
        || RollbackLoop::new(world_with::<OnHeap>(ENTITIES)),
        |game, requests| game.handle_requests(requests),
    );
    group.finish();
}

criterion_group!(benches, rollback);
criterion_main!(benches);
