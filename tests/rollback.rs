//! Rollback on ggrs 0.13 with the demo game: a `SyncTestSession` that rolls
//! back and re-simulates 7 frames on every frame, and two `P2PSession`s on
//! loopback UDP through a socket that drops and delays packets.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ggrs::{
    DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, PlayerType, SessionBuilder, SessionState,
};
use tickarena::rollback::{RollbackConfig, RollbackLoop};

#[path = "../examples/support/counting_alloc.rs"]
mod counting_alloc;
#[path = "../examples/support/demo.rs"]
mod demo;
#[path = "../examples/support/lossy_socket.rs"]
mod lossy_socket;
#[path = "../examples/support/rollback_demo.rs"]
mod rollback_demo;

use counting_alloc::{Counting, thread_allocations};
use demo::{InArena, OnHeap, World};
use lossy_socket::LossySocket;
use rollback_demo::{DemoInput, world_with};

#[global_allocator]
static COUNTING: Counting = Counting;

type Config = RollbackConfig<World>;

/// Orders per player per frame: with two players about 200 actions a tick,
/// each with a formatted log line.
const COMMANDS: u8 = 50;

#[test]
fn a_thousand_frames_under_sync_test_with_check_distance_7_never_mismatch() {
    const FRAMES: i32 = 1000;
    const WARM: i32 = 300;
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .unwrap()
        .with_check_distance(7)
        .start_synctest_session()
        .unwrap();
    let mut game = RollbackLoop::new(world_with::<InArena>(3000));
    let (mut ours_when_warm, mut ggrs_when_warm) = (0, 0);
    for frame in 0..FRAMES {
        for player in 0..2 {
            let input = DemoInput::scripted(player, frame, COMMANDS);
            session.add_local_input(player, input).unwrap();
        }
        let before = thread_allocations();
        // A mismatch is an `Err(MismatchedChecksum)` here.
        let requests = match session.advance_frame() {
            Ok(requests) => requests,
            Err(error) => panic!("frame {frame}: {error}"),
        };
        let between = thread_allocations();
        game.handle_requests(requests);
        if frame >= WARM {
            ggrs_when_warm += between - before;
            ours_when_warm += thread_allocations() - between;
        }
    }
    let counts = game.counts();
    // Frames 8..1000 each load frame - 7 and run 7 ticks again.
    assert_eq!(counts.rollbacks, (FRAMES - 8) as u64);
    assert_eq!(counts.resimulated, 7 * (FRAMES - 8) as u64);
    assert_eq!(counts.ticks, FRAMES as u64 + counts.resimulated);
    assert_eq!(game.frame(), FRAMES);
    assert!(game.world().entities.len() > 1000, "the battle went on");
    assert!(
        game.world().log_lines > 50_000,
        "{}",
        game.world().log_lines
    );
    // ggrs allocates its request and input lists every frame; the ticks,
    // saves and loads of ours allocate nothing once warm.
    assert!(ggrs_when_warm > 0);
    assert_eq!(
        ours_when_warm,
        0,
        "heap allocations in {} warm frames of ticks, saves and loads",
        FRAMES - WARM
    );
    assert!(
        game.snapshot_slots() <= 10,
        "{} slots",
        game.snapshot_slots()
    );
}

#[test]
fn the_arena_and_the_heap_versions_of_the_game_agree_frame_by_frame() {
    // The same inputs, the frame's data in the arena or on the heap: the
    // same states, so the same checksums (determinism does not depend on
    // where a frame's memory comes from).
    let mut in_arena = RollbackLoop::new(world_with::<InArena>(500));
    let mut on_heap = RollbackLoop::new(world_with::<OnHeap>(500));
    let mut arena_session = sync_test::<World<InArena>>();
    let mut heap_session = sync_test::<World<OnHeap>>();
    for frame in 0..120 {
        for player in 0..2 {
            let input = DemoInput::scripted(player, frame, COMMANDS);
            arena_session.add_local_input(player, input).unwrap();
            heap_session.add_local_input(player, input).unwrap();
        }
        in_arena.handle_requests(arena_session.advance_frame().unwrap());
        on_heap.handle_requests(heap_session.advance_frame().unwrap());
        let (a, b) = (in_arena.save(frame + 1), on_heap.save(frame + 1));
        assert_eq!(a.checksum(), b.checksum(), "frame {frame}");
    }
}

fn sync_test<G>() -> ggrs::SyncTestSession<RollbackConfig<G>>
where
    G: tickarena::rollback::RollbackGame<Input = DemoInput> + 'static,
    G::State: Send + Sync,
{
    SessionBuilder::<RollbackConfig<G>>::new()
        .with_num_players(2)
        .unwrap()
        .with_check_distance(3)
        .start_synctest_session()
        .unwrap()
}

/// What a peer saw: its saved checksums by frame, and its counts.
struct PeerReport {
    checksums: HashMap<i32, u128>,
    rollbacks: u64,
    resimulated: u64,
}

/// One peer: plays its scripted input until both peers have confirmed
/// `target`, or panics at `deadline`.
fn peer(
    local: usize,
    socket: LossySocket,
    remote: SocketAddr,
    target: i32,
    done: Arc<[AtomicBool; 2]>,
    deadline: Instant,
) -> PeerReport {
    let mut session = SessionBuilder::<Config>::new()
        .with_num_players(2)
        .unwrap()
        .add_player(PlayerType::Local, local)
        .unwrap()
        .add_player(PlayerType::Remote(remote), 1 - local)
        .unwrap()
        .with_input_delay(1)
        .with_desync_detection_mode(DesyncDetection::On { interval: 10 })
        .start_p2p_session(socket)
        .unwrap();
    let mut game = RollbackLoop::new(world_with::<InArena>(500));
    let mut checksums = HashMap::new();
    let mut saved = Vec::new();
    while !(done[0].load(Ordering::Acquire) && done[1].load(Ordering::Acquire)) {
        assert!(
            Instant::now() < deadline,
            "peer {local}: no agreement in time (confirmed frame {}, frame {})",
            session.confirmed_frame(),
            session.current_frame()
        );
        session.poll_remote_clients();
        for event in session.events() {
            if let GgrsEvent::DesyncDetected { frame, .. } = event {
                panic!("peer {local}: desync at frame {frame}");
            }
        }
        if session.current_state() == SessionState::Running {
            let input = DemoInput::scripted(local, session.current_frame(), 20);
            session.add_local_input(local, input).unwrap();
            match session.advance_frame() {
                Ok(requests) => {
                    saved.clear();
                    saved.extend(requests.iter().filter_map(|request| match request {
                        GgrsRequest::SaveGameState { cell, frame } => Some((*frame, cell.clone())),
                        _ => None,
                    }));
                    game.handle_requests(requests);
                    for (frame, cell) in saved.drain(..) {
                        let checksum = cell.data().map(|snapshot| snapshot.checksum());
                        checksums.insert(frame, checksum.unwrap());
                    }
                }
                // Too far ahead of the other peer: wait for its inputs.
                Err(GgrsError::PredictionThreshold) => {}
                Err(error) => panic!("peer {local}: {error}"),
            }
        }
        if session.confirmed_frame() > target {
            done[local].store(true, Ordering::Release);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let counts = game.counts();
    PeerReport {
        checksums,
        rollbacks: counts.rollbacks,
        resimulated: counts.resimulated,
    }
}

#[test]
fn two_peers_over_a_lossy_loopback_agree_on_the_confirmed_frame() {
    const TARGET: i32 = 240;
    let sockets = [
        LossySocket::bind(0x9E37_79B9),
        LossySocket::bind(0x85EB_CA6B),
    ];
    let addresses = [sockets[0].address(), sockets[1].address()];
    let losses = [
        Arc::clone(&sockets[0].losses),
        Arc::clone(&sockets[1].losses),
    ];
    let done = Arc::new([AtomicBool::new(false), AtomicBool::new(false)]);
    // Generous: a busy CI machine runs this beside two builds.
    let deadline = Instant::now() + Duration::from_secs(120);
    let peers: Vec<_> = sockets
        .into_iter()
        .enumerate()
        .map(|(local, socket)| {
            let (done, remote) = (Arc::clone(&done), addresses[1 - local]);
            std::thread::spawn(move || peer(local, socket, remote, TARGET, done, deadline))
        })
        .collect();
    let reports: Vec<PeerReport> = peers.into_iter().map(|p| p.join().unwrap()).collect();
    let at_target: Vec<u128> = reports.iter().map(|r| r.checksums[&TARGET]).collect();
    assert_eq!(
        at_target[0], at_target[1],
        "the peers' states at frame {TARGET}"
    );
    // Every frame both saved up to the target agrees once confirmed.
    for frame in (0..=TARGET).step_by(10) {
        if let (Some(a), Some(b)) = (
            reports[0].checksums.get(&frame),
            reports[1].checksums.get(&frame),
        ) {
            assert_eq!(a, b, "frame {frame}");
        }
    }
    // The lost and late packets made the peers predict wrong and roll back.
    assert!(
        reports.iter().any(|r| r.rollbacks > 0 && r.resimulated > 0),
        "no rollback happened"
    );
    for (peer, losses) in losses.iter().enumerate() {
        let [dropped, delayed] = [0, 1].map(|i| losses[i].load(Ordering::Relaxed));
        assert!(
            dropped > 0 && delayed > 0,
            "peer {peer}: {dropped} lost, {delayed} late"
        );
    }
}

/// Review 4 and the ggrs trial: a loop that ticked before its session, and
/// the state check that sees a `save` or `load` that drifts.
mod state {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use tickarena::RollbackState;
    use tickarena::frame_loop::{Frame, FrameLoop, Game};
    use tickarena::rollback::{Checksum, PlayerInput, RollbackConfig, RollbackGame, RollbackLoop};

    use crate::counting_alloc::thread_allocations;

    /// How a [`Drifting`] game gets its `save` and `load` wrong.
    #[derive(Clone, Copy, Default, PartialEq)]
    enum Mistake {
        #[default]
        None,
        /// `save` leaves `hits` out; `load` restores it (stale).
        HitsNotSaved,
        /// `load` leaves `hits` out; `save` writes it.
        HitsNotLoaded,
        /// `save` extends the trail without clearing the slot's.
        TrailExtended,
    }

    /// A game with a position, a hit counter and a trail, saved field by
    /// field (the way that can drift).
    #[derive(Default)]
    struct Drifting {
        x: i64,
        hits: u64,
        trail: Vec<i64>,
        mistake: Mistake,
        fingerprint: bool,
    }

    #[derive(Clone, Default, Hash)]
    struct DriftingState {
        x: i64,
        hits: u64,
        trail: Vec<i64>,
    }

    impl Game for Drifting {
        type Event = u8;
        type Scratch<'f> = ();
        fn actions<'f>(&mut self, input: u8, _: &mut Frame<'f, Self>) {
            self.x += i64::from(input);
            self.hits += u64::from(input % 2);
            self.trail.push(self.x);
            if self.trail.len() > 4 {
                self.trail.remove(0);
            }
        }
    }

    impl RollbackGame for Drifting {
        type Input = u8;
        type State = DriftingState;
        fn events(input: PlayerInput<u8>) -> impl IntoIterator<Item = u8> {
            [input.input]
        }
        fn save(&self, state: &mut DriftingState) {
            state.x = self.x;
            if self.mistake != Mistake::HitsNotSaved {
                state.hits = self.hits;
            }
            if self.mistake != Mistake::TrailExtended {
                state.trail.clear();
            }
            state.trail.extend_from_slice(&self.trail);
        }
        fn load(&mut self, state: &DriftingState) {
            self.x = state.x;
            if self.mistake != Mistake::HitsNotLoaded {
                self.hits = state.hits;
            }
            self.trail.clone_from(&state.trail);
        }
        fn checksum(state: &DriftingState) -> u128 {
            Checksum::of(state)
        }
        fn fingerprint(&self) -> Option<u128> {
            self.fingerprint
                .then(|| Checksum::of(&(self.x, self.hits, &self.trail)))
        }
    }

    /// A one-player SyncTest session rolling back `check_distance` frames.
    fn session(check_distance: usize) -> ggrs::SyncTestSession<RollbackConfig<Drifting>> {
        ggrs::SessionBuilder::<RollbackConfig<Drifting>>::new()
            .with_num_players(1)
            .unwrap()
            .with_check_distance(check_distance)
            .start_synctest_session()
            .unwrap()
    }

    /// Runs 60 SyncTest frames (check distance 3) of `game`, the state
    /// check on or off; its hits, or the panic message if it panicked.
    fn sync_test(game: Drifting, check: bool) -> Result<u64, String> {
        let mut game = RollbackLoop::new(game);
        game.check_state(check);
        let mut session = session(3);
        catch_unwind(AssertUnwindSafe(|| {
            for frame in 0..60u8 {
                session.add_local_input(0, frame % 3).unwrap();
                game.handle_requests(session.advance_frame().unwrap());
            }
            game.world().hits
        }))
        .map_err(|payload| {
            payload
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_default()
        })
    }

    /// The checked run of a game making `mistake` panics, saying `what`.
    fn caught(mistake: Mistake, fingerprint: bool, what: &str) {
        let game = Drifting {
            mistake,
            fingerprint,
            ..Drifting::default()
        };
        let message = sync_test(game, true).unwrap_err();
        assert!(message.contains(what), "{message}");
    }

    /// Hits of the scripted inputs: every input of 1.
    const HITS: u64 = 20;

    #[test]
    fn a_correct_game_passes_the_check() {
        let game = Drifting {
            fingerprint: true,
            ..Drifting::default()
        };
        assert_eq!(sync_test(game, true), Ok(HITS));
    }

    #[test]
    fn a_field_load_restores_but_save_leaves_out_is_caught_with_a_fingerprint() {
        // What ggrs cannot see: every slot holds the same stale `hits`, so
        // the checksums agree, and the game ends with other hits.
        let unchecked = Drifting {
            mistake: Mistake::HitsNotSaved,
            ..Drifting::default()
        };
        let hits = sync_test(unchecked, false).expect("ggrs's sync test sees nothing wrong");
        assert_ne!(hits, HITS, "hits drifted");
        // The check, with the world's fingerprint, sees it at the first save.
        caught(
            Mistake::HitsNotSaved,
            true,
            "`load` restores something `save` does not write",
        );
    }

    #[test]
    fn a_field_save_writes_but_load_leaves_out_is_caught() {
        caught(
            Mistake::HitsNotLoaded,
            false,
            "`load` does not restore everything `save` writes",
        );
    }

    #[test]
    fn a_save_that_keeps_the_slots_old_contents_is_caught() {
        caught(
            Mistake::TrailExtended,
            false,
            "`save` keeps part of what the slot held before",
        );
    }

    #[test]
    fn a_loop_that_ticked_before_its_session_maps_ggrs_frames_onto_its_ticks() {
        // A lobby: 5 ticks before the session starts.
        let mut lobby = FrameLoop::new(Drifting::default());
        for _ in 0..5 {
            lobby.tick([1], lobby.step());
        }
        let mut game = RollbackLoop::with_loop(lobby, 8);
        assert_eq!(game.frame(), 0);
        let mut session = session(7);
        for frame in 0..40u8 {
            session.add_local_input(0, frame % 3).unwrap();
            game.handle_requests(session.advance_frame().unwrap());
        }
        assert_eq!(game.frame(), 40);
        assert_eq!(game.frame_loop().ticks(), 45);
        let moved: i64 = 5 + (0..40).map(|f| i64::from(f % 3)).sum::<i64>();
        assert_eq!(game.world().x, moved);
    }

    /// The state of the guide's layout: derived `RollbackState`.
    #[derive(RollbackState, Default, Hash)]
    struct Sim {
        positions: Vec<(i32, i32)>,
        names: Vec<String>,
        title: String,
    }

    /// The same fields with std's derived `Clone`.
    #[derive(Clone, Default, Hash)]
    struct ClonedSim {
        positions: Vec<(i32, i32)>,
        names: Vec<String>,
        title: String,
    }

    /// Heap allocations of 10 warm saves of `live` into a ring of 10 slots,
    /// by `clone_from`, the documented pattern.
    fn allocations_of_ten_saves<S: Clone + Default>(live: &S) -> u64 {
        let mut slots: Vec<S> = (0..10).map(|_| S::default()).collect();
        for slot in &mut slots {
            slot.clone_from(live); // warm: each slot grows once
        }
        let before = thread_allocations();
        for slot in &mut slots {
            slot.clone_from(live);
        }
        thread_allocations() - before
    }

    #[test]
    fn saves_with_the_derived_rollback_state_allocate_nothing_once_warm() {
        let names = vec!["ann".to_string(), "bob".to_string()];
        let sim = Sim {
            positions: vec![(1, 2); 64],
            names: names.clone(),
            title: "t".into(),
        };
        assert_eq!(allocations_of_ten_saves(&sim), 0);
        // std's derived `Clone` allocates every collection again per save:
        // what the ggrs trial measured (20 for a struct with a Vec and a String).
        let cloned = ClonedSim {
            positions: vec![(1, 2); 64],
            names,
            title: "t".into(),
        };
        assert!(allocations_of_ten_saves(&cloned) >= 10 * 4);
    }
}

#[path = "models/rollback.rs"]
mod ring_model;

mod ring {
    //! The snapshot ring under random save/load/advance orders against a
    //! model (`tests/models/rollback.rs`; the fuzz target `rollback_ops`
    //! runs the same).

    use proptest::prelude::*;

    use crate::ring_model::{Op, run};

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => Just(Op::Save),
            3 => any::<u8>().prop_map(Op::Load),
            6 => any::<u8>().prop_map(Op::Advance),
            2 => any::<u8>().prop_map(Op::Forget),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 8 } else { 256 }))]

        #[test]
        fn loads_bring_back_what_each_cell_saved(
            ops in prop::collection::vec(op(), 0..if cfg!(miri) { 30 } else { 300 }),
        ) {
            run(&ops);
        }
    }
}
