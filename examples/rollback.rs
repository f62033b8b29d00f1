//! Rollback netcode, headless: two peers of the demo game on ggrs 0.13,
//! one thread each, over loopback UDP through a socket that loses one
//! packet in ten and delays one in five. Each peer's ticks (re-simulated
//! ones too) run in the frame arena; its snapshots are recycled slots.
//!
//! Prints frames per second, rollbacks and re-simulated frames per second,
//! heap allocations per frame (ggrs's own apart from the game's). Then the
//! comparison, in the same run: the same game with every frame allocation
//! on the global allocator, both under a `SyncTestSession` with check
//! distance 7 (each rendered frame is 1 load, 8 ticks and 7 saves), on the
//! same inputs, so each does exactly the same work.
//!
//! ```sh
//! cargo run --release --example rollback --features ggrs
//! cargo run --release --example rollback --features ggrs -- --frames 2000 --arena-only
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ggrs::{GgrsError, PlayerType, SessionBuilder, SessionState};
use tickarena::rollback::{RollbackConfig, RollbackGame, RollbackLoop};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
#[path = "support/demo.rs"]
mod demo;
#[path = "support/flags.rs"]
mod flags;
#[path = "support/lossy_socket.rs"]
mod lossy_socket;
#[path = "support/rollback_demo.rs"]
mod rollback_demo;

use counting_alloc::{Counting, thread_allocations};
use demo::{FrameMemory, InArena, OnHeap, World};
use flags::Flags;
use lossy_socket::LossySocket;
use rollback_demo::{DemoInput, DemoState, world_with};

#[global_allocator]
static COUNTING: Counting = Counting;

/// Frames before the counting starts: the snapshot slots and the world's
/// lists grow to their size, the peers synchronize.
const WARM_UP: i32 = 120;

struct Options {
    frames: i32,
    commands: u8,
    entities: usize,
    compare: bool,
}

fn parse_options() -> Options {
    let mut options = Options {
        frames: 1200,
        commands: 50,
        entities: 3000,
        compare: true,
    };
    let mut flags = Flags::new(
        "usage: rollback [--frames N] [--commands-per-player N] [--entities N] [--arena-only]",
    );
    while let Some(flag) = flags.next_flag() {
        match flag.as_str() {
            "--frames" => options.frames = flags.value(&flag, "a number"),
            "--commands-per-player" => options.commands = flags.value(&flag, "a number up to 255"),
            "--entities" => options.entities = flags.value(&flag, "a number"),
            "--arena-only" => options.compare = false,
            other => flags.fail(&format!("unknown flag {other:?}")),
        }
    }
    options
}

/// One peer's figures over its counted (warm) frames.
#[derive(Default)]
struct PeerTotals {
    frames: u64,
    rollbacks: u64,
    resimulated: u64,
    /// Heap allocations inside ggrs's calls (its request and input lists).
    ggrs_allocations: u64,
    /// Heap allocations while the game handled the requests.
    game_allocations: u64,
    /// Time in `handle_requests`: the game's ticks, saves and loads.
    game_time: Duration,
    wall: Duration,
    entities: usize,
}

/// Plays one peer until both peers have confirmed `frames` frames.
fn peer<M: FrameMemory>(
    local: usize,
    socket: LossySocket,
    remote: SocketAddr,
    options: &Options,
    done: &[AtomicBool; 2],
) -> PeerTotals {
    let mut session = SessionBuilder::<RollbackConfig<World<M>>>::new()
        .with_num_players(2)
        .expect("two players")
        .add_player(PlayerType::Local, local)
        .expect("the local player")
        .add_player(PlayerType::Remote(remote), 1 - local)
        .expect("the remote player")
        .with_input_delay(1)
        .start_p2p_session(socket)
        .expect("a session");
    let mut game = RollbackLoop::new(world_with::<M>(options.entities));
    let mut totals = PeerTotals::default();
    let mut counted_from = None;
    let deadline = Instant::now() + Duration::from_secs(600);
    while !(done[0].load(Ordering::Acquire) && done[1].load(Ordering::Acquire)) {
        assert!(Instant::now() < deadline, "peer {local}: the match stalled");
        let before = thread_allocations();
        session.poll_remote_clients();
        let mut ggrs_allocations = thread_allocations() - before;
        if session.current_state() == SessionState::Running {
            let input = DemoInput::scripted(local, session.current_frame(), options.commands);
            let before = thread_allocations();
            session
                .add_local_input(local, input)
                .expect("a local input");
            let requests = session.advance_frame();
            ggrs_allocations += thread_allocations() - before;
            match requests {
                Ok(requests) => {
                    let (before, started) = (thread_allocations(), Instant::now());
                    game.handle_requests(requests);
                    if counted_from.is_some() {
                        totals.game_time += started.elapsed();
                        totals.game_allocations += thread_allocations() - before;
                        totals.frames += 1;
                    }
                }
                Err(GgrsError::PredictionThreshold) => {}
                Err(error) => panic!("peer {local}: {error}"),
            }
        }
        if counted_from.is_some() {
            totals.ggrs_allocations += ggrs_allocations;
        } else if game.frame() >= WARM_UP {
            counted_from = Some((Instant::now(), game.counts()));
        }
        if session.confirmed_frame() >= options.frames {
            done[local].store(true, Ordering::Release);
        }
        std::thread::yield_now();
    }
    let (started, counts_then) = counted_from.expect("the match got past its warm-up");
    totals.wall = started.elapsed();
    totals.rollbacks = game.counts().rollbacks - counts_then.rollbacks;
    totals.resimulated = game.counts().resimulated - counts_then.resimulated;
    totals.entities = game.world().entities.len();
    totals
}

/// Plays a match between two peers on loopback, the game's frame data in `M`.
fn play<M: FrameMemory>(options: &Options) -> [PeerTotals; 2]
where
    World<M>: RollbackGame<Input = DemoInput, State = DemoState>,
{
    let sockets = [
        LossySocket::bind(0x9E37_79B9),
        LossySocket::bind(0x85EB_CA6B),
    ];
    let addresses = [sockets[0].address(), sockets[1].address()];
    let done = [AtomicBool::new(false), AtomicBool::new(false)];
    let done = Arc::new(done);
    std::thread::scope(|scope| {
        let peers = sockets.map(|socket| {
            let local = usize::from(socket.address() == addresses[1]);
            let done = Arc::clone(&done);
            scope.spawn(move || peer::<M>(local, socket, addresses[1 - local], options, &done))
        });
        peers.map(|peer| peer.join().expect("a peer panicked"))
    })
}

/// Prints a match's figures.
fn report(name: &str, peers: &[PeerTotals; 2]) {
    let sum = |f: fn(&PeerTotals) -> u64| peers.iter().map(f).sum::<u64>() as f64;
    let frames = sum(|p| p.frames).max(1.0);
    let seconds = peers.iter().map(|p| p.wall.as_secs_f64()).sum::<f64>() / 2.0;
    let game_us = peers.iter().map(|p| p.game_time.as_secs_f64()).sum::<f64>() * 1e6;
    let ticks = frames + sum(|p| p.resimulated);
    println!("{name}:");
    println!(
        "  {:.0} frames per second per peer, {:.0} rollbacks and {:.0} re-simulated frames per second",
        frames / 2.0 / seconds,
        sum(|p| p.rollbacks) / 2.0 / seconds,
        sum(|p| p.resimulated) / 2.0 / seconds,
    );
    println!(
        "  the game's ticks, saves and loads: {:.1} µs per frame, {:.1} µs per tick ({:.2} re-simulated ticks per frame), {:.2} heap allocations per frame",
        game_us / frames,
        game_us / ticks,
        sum(|p| p.resimulated) / frames,
        sum(|p| p.game_allocations) / frames,
    );
    println!(
        "  ggrs's own calls: {:.2} heap allocations per frame; {} and {} entities at the end",
        sum(|p| p.ggrs_allocations) / frames,
        peers[0].entities,
        peers[1].entities,
    );
}

/// Rendered frames of the demo game under a `SyncTestSession` with check
/// distance 7, frame data in `M`: time per rendered frame (after the warm
/// up) and heap allocations per frame, the game's and ggrs's.
fn sync_test<M: FrameMemory>(options: &Options) -> (Duration, f64, f64)
where
    World<M>: RollbackGame<Input = DemoInput, State = DemoState>,
{
    let mut session = SessionBuilder::<RollbackConfig<World<M>>>::new()
        .with_num_players(2)
        .expect("two players")
        .with_check_distance(7)
        .start_synctest_session()
        .expect("a sync test");
    let mut game = RollbackLoop::new(world_with::<M>(options.entities));
    let (mut time, mut ours, mut theirs) = (Duration::ZERO, 0, 0);
    for frame in 0..options.frames {
        for player in 0..2 {
            let input = DemoInput::scripted(player, frame, options.commands);
            session.add_local_input(player, input).expect("an input");
        }
        let before = thread_allocations();
        let requests = session.advance_frame().expect("no checksum mismatch");
        let (between, started) = (thread_allocations(), Instant::now());
        game.handle_requests(requests);
        if frame >= WARM_UP {
            time += started.elapsed();
            theirs += between - before;
            ours += thread_allocations() - between;
        }
    }
    let frames = (options.frames - WARM_UP).max(1) as u32;
    (
        time / frames,
        ours as f64 / f64::from(frames),
        theirs as f64 / f64::from(frames),
    )
}

fn main() {
    let options = parse_options();
    println!(
        "two peers on loopback UDP (1 packet in 10 lost, 1 in 5 late), {} frames, {} commands per player per frame, {} entities to start; counted after frame {WARM_UP}",
        options.frames, options.commands, options.entities
    );
    report(
        &format!("frame data in the {}", InArena::NAME),
        &play::<InArena>(&options),
    );
    if options.compare {
        println!(
            "the same game under a SyncTestSession, check distance 7 (1 load, 8 ticks, 7 saves per rendered frame), {} frames:",
            options.frames
        );
        let (arena, arena_allocations, ggrs) = sync_test::<InArena>(&options);
        let (heap, heap_allocations, _) = sync_test::<OnHeap>(&options);
        for (name, time, allocations) in [
            (InArena::NAME, arena, arena_allocations),
            (OnHeap::NAME, heap, heap_allocations),
        ] {
            println!(
                "  frame data in the {name:<17} {:>7.1} µs per rendered frame, {allocations:.2} heap allocations per frame (ggrs's own: {ggrs:.2})",
                time.as_secs_f64() * 1e6
            );
        }
        println!(
            "  global allocator / frame arena: {:.2}x",
            heap.as_secs_f64() / arena.as_secs_f64()
        );
    }
}
