//! Rollback netcode on [ggrs](https://docs.rs/ggrs/0.13) (feature `ggrs`):
//! a [`FrameLoop`] game driven by a ggrs session's requests. See
//! [`guide::rollback`](crate::guide::rollback) for a whole game.
//!
//! Under rollback a game simulates several ticks per rendered frame: when a
//! remote player's real input arrives late, ggrs loads an older state and
//! runs the ticks since again. [`RollbackLoop`] turns each request into the
//! frame loop's terms:
//!
//! * `AdvanceFrame { inputs }` is one tick of the [`FrameLoop`]: each
//!   player's input becomes the tick's events ([`RollbackGame::events`]),
//!   their actions live in the frame arena, and the arena is reset after
//!   the tick, re-simulated ticks too. The tick runs one fixed step.
//! * `SaveGameState` writes the game's state ([`RollbackGame::save`]) into
//!   a free slot of a ring of recycled [`Snapshot`]s, with its
//!   [`checksum`](RollbackGame::checksum), and gives ggrs's cell a shared
//!   handle to it: no heap allocation once the slots have grown to the
//!   state's size.
//! * `LoadGameState` restores the state ([`RollbackGame::load`]) and the
//!   loop's tick and clock.
//!
//! # Example
//!
//! Two players each add their input to a total; a `SyncTestSession` rolls
//! back 7 frames on every frame and compares the checksums.
//!
//! ```
//! use tickarena::frame_loop::{Action, Frame, Game};
//! use tickarena::rollback::{PlayerInput, RollbackConfig, RollbackGame, RollbackLoop};
//!
//! #[derive(Default)]
//! struct Counter {
//!     total: u64,
//! }
//! struct Add(u64);
//! impl Action<Counter> for Add {
//!     fn apply(&mut self, counter: &mut Counter, _: &mut Frame<'_, Counter>) {
//!         counter.total += self.0;
//!     }
//! }
//! impl Game for Counter {
//!     type Event = u8;
//!     type Scratch<'f> = ();
//!     fn actions<'f>(&mut self, input: u8, frame: &mut Frame<'f, Self>) {
//!         frame.push(Add(u64::from(input)));
//!     }
//! }
//! impl RollbackGame for Counter {
//!     type Input = u8;
//!     type State = u64;
//!     fn events(input: PlayerInput<u8>) -> impl IntoIterator<Item = u8> {
//!         [input.input]
//!     }
//!     fn save(&self, state: &mut u64) {
//!         *state = self.total;
//!     }
//!     fn load(&mut self, state: &u64) {
//!         self.total = *state;
//!     }
//!     fn checksum(state: &u64) -> u128 {
//!         u128::from(*state)
//!     }
//! }
//!
//! let mut session = ggrs::SessionBuilder::<RollbackConfig<Counter>>::new()
//!     .with_num_players(2)
//!     .unwrap()
//!     .with_check_distance(7)
//!     .start_synctest_session()
//!     .unwrap();
//! let mut game = RollbackLoop::new(Counter::default());
//! for frame in 0..100u8 {
//!     session.add_local_input(0, frame % 3).unwrap();
//!     session.add_local_input(1, 1).unwrap();
//!     game.handle_requests(session.advance_frame().unwrap());
//! }
//! let expected: u64 = (0..100u64).map(|f| f % 3 + 1).sum();
//! assert_eq!(game.world().total, expected);
//! assert_eq!(game.counts().resimulated, 7 * 92);
//! ```

#![forbid(unsafe_code)]

mod checksum;
mod snapshot;

use core::fmt::Debug;
use core::hash::Hash;
use core::marker::PhantomData;
use std::net::SocketAddr;

use ggrs::{Config, GameStateCell, GgrsRequest, InputStatus, PlayerHandle};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::frame_loop::{Frame, FrameHistory, FrameLoop, Game};

pub use checksum::Checksum;
pub use snapshot::Snapshot;
use snapshot::SnapshotRing;

/// The frames ggrs predicts ahead unless its session builder says
/// otherwise (`with_max_prediction_window`).
const GGRS_MAX_PREDICTION: usize = 8;

/// One player's input for a tick, as ggrs hands it over.
///
/// # Example
///
/// ```
/// use tickarena::rollback::PlayerInput;
/// let input = PlayerInput { player: 1, input: 'w', status: ggrs::InputStatus::Predicted };
/// assert_eq!((input.player, input.input), (1, 'w'));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerInput<I> {
    /// The player's handle (their index in the session).
    pub player: PlayerHandle,
    /// What they pressed.
    pub input: I,
    /// Whether it arrived (`Confirmed`), is ggrs's guess (`Predicted`) or
    /// the player left (`Disconnected`: the input is `I::default()`). A
    /// deterministic game treats all three alike.
    pub status: InputStatus,
}

/// A [`Game`] that ggrs can roll back: its input type, its state, and how
/// the inputs become the tick's events.
///
/// The state is everything the simulation reads from one tick to the next
/// (positions, counters, the random generator's seed), and nothing the
/// frame arena holds: a tick's arena is reset when it ends, so nothing of
/// it can be saved.
///
/// # Example
///
/// The layout that cannot drift: everything the simulation reads from
/// one tick to the next in one field (here `sim`), whose type is the
/// state. `save` and `load` are then one `clone_from` each, no field can
/// be left out of one of them, and `#[derive(RollbackState)]` (feature
/// `derive`) writes a field-wise `clone_from`, so a save reuses every
/// `Vec`'s and `String`'s capacity in the slot (std's derived `Clone`
/// does not: its `clone_from` is `*self = source.clone()`, a fresh
/// allocation per collection per save). What is not simulation state (a
/// log, caches, what the screen shows) lives beside it, is not saved, and
/// is not rolled back.
///
/// ```
/// use tickarena::frame_loop::{Frame, Game};
/// use tickarena::rollback::{Checksum, PlayerInput, RollbackGame};
/// use tickarena::RollbackState;
///
/// #[derive(Default)]
/// struct Shooter {
///     sim: Sim,         // the state: saved and loaded whole
///     log: Vec<String>, // not simulation state: not saved
/// }
/// #[derive(RollbackState, Default, Hash)]
/// struct Sim {
///     positions: Vec<(i32, i32)>,
///     scores: Vec<u32>,
/// }
///
/// impl Game for Shooter {
///     type Event = (usize, char);
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, (player, key): (usize, char), _: &mut Frame<'f, Self>) {
///         if key == 'd' {
///             self.sim.positions[player].0 += 1;
///         }
///     }
/// }
///
/// impl RollbackGame for Shooter {
///     type Input = char;
///     type State = Sim;
///     fn events(input: PlayerInput<char>) -> impl IntoIterator<Item = (usize, char)> {
///         Some((input.player, input.input))
///     }
///     fn save(&self, state: &mut Sim) {
///         state.clone_from(&self.sim); // field by field, into the slot's capacity
///     }
///     fn load(&mut self, state: &Sim) {
///         self.sim.clone_from(state);
///     }
///     fn checksum(state: &Sim) -> u128 {
///         Checksum::of(state) // the same on every machine (see `Checksum`)
///     }
/// }
/// # let sim = Sim { positions: vec![(0, 0)], scores: vec![0] };
/// # let mut game = tickarena::rollback::RollbackLoop::new(Shooter { sim, log: vec![] });
/// # let snapshot = game.save(0);
/// # assert_eq!(snapshot.state().positions, [(0, 0)]);
/// ```
///
/// Without the derive, write `Clone` by hand with a `clone_from` that
/// calls `clone_from` on each field.
pub trait RollbackGame: Game {
    /// What a player sends each frame (ggrs's `Config::Input`: `Copy`,
    /// `PartialEq`, `Default`, and serde's traits, to go over the network).
    type Input: Copy;

    /// What a snapshot keeps. `Default` makes the ring's empty slots; a save
    /// overwrites one in place.
    type State: Default;

    /// The events of one player's input for a tick: what `actions` gets.
    /// Called for each player in handle order.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::{PlayerInput, RollbackGame};
    /// # tickarena::__rollback_doc_game!();
    /// let input = PlayerInput { player: 0, input: 3u8, status: ggrs::InputStatus::Confirmed };
    /// let events: Vec<u8> = Counter::events(input).into_iter().collect();
    /// assert_eq!(events, [3]);
    /// ```
    fn events(input: PlayerInput<Self::Input>) -> impl IntoIterator<Item = Self::Event>;

    /// Writes the world's state into `state`, a recycled slot holding an
    /// older state: overwrite all of it, reusing its capacity
    /// (`clone_from`, `clear` and `extend`), and the save allocates nothing
    /// once the slots have grown.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackGame;
    /// # tickarena::__rollback_doc_game!();
    /// let mut slot = 99; // what the slot held before
    /// Counter { total: 4 }.save(&mut slot);
    /// assert_eq!(slot, 4);
    /// ```
    fn save(&self, state: &mut Self::State);

    /// Puts the world back to `state`.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackGame;
    /// # tickarena::__rollback_doc_game!();
    /// let mut counter = Counter { total: 4 };
    /// counter.load(&1);
    /// assert_eq!(counter.total, 1);
    /// ```
    fn load(&mut self, state: &Self::State);

    /// The state's checksum, for ggrs's desync checks: the same on every
    /// peer for the same state (see [`Checksum`]).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackGame;
    /// # tickarena::__rollback_doc_game!();
    /// assert_ne!(Counter::checksum(&1), Counter::checksum(&2));
    /// ```
    fn checksum(state: &Self::State) -> u128;

    /// A checksum of the whole world, simulation state or not, for the
    /// state check ([`RollbackLoop::check_state`]); `None` (the default)
    /// leaves that part of the check out.
    ///
    /// With it, the check loads each state it saves straight back and
    /// compares the world's fingerprints before and after: a field that
    /// `load` restores but `save` does not write (ggrs cannot see that: every
    /// slot holds the same stale value) changes the world, and the check
    /// says so.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::{Checksum, PlayerInput, RollbackGame};
    /// # tickarena::__rollback_doc_game!(no_fingerprint);
    /// impl RollbackGame for Counter {
    ///     # type Input = u8;
    ///     # type State = u64;
    ///     # fn events(input: PlayerInput<u8>) -> impl IntoIterator<Item = u8> { [input.input] }
    ///     # fn save(&self, state: &mut u64) { *state = self.total; }
    ///     # fn load(&mut self, state: &u64) { self.total = *state; }
    ///     # fn checksum(state: &u64) -> u128 { u128::from(*state) }
    ///     // save, load and checksum as before, and:
    ///     fn fingerprint(&self) -> Option<u128> {
    ///         Some(Checksum::of(&self.total)) // every field of the world
    ///     }
    /// }
    /// assert!(Counter { total: 1 }.fingerprint().is_some());
    /// ```
    fn fingerprint(&self) -> Option<u128> {
        None
    }
}

/// A ggrs [`Config`] for a [`RollbackGame`]: its input, its snapshots,
/// ggrs's `PredictRepeatLast`, and peers addressed by `Address` (a
/// `SocketAddr` unless told otherwise). Write your own `Config` instead when
/// you want another predictor; its `State` must be
/// `Snapshot<G::State>`.
///
/// # Example
///
/// ```
/// # use tickarena::rollback::RollbackConfig;
/// # tickarena::__rollback_doc_game!();
/// let session = ggrs::SessionBuilder::<RollbackConfig<Counter>>::new()
///     .with_check_distance(2)
///     .start_synctest_session();
/// assert!(session.is_ok());
/// ```
pub struct RollbackConfig<G, Address = SocketAddr>(PhantomData<fn() -> (G, Address)>);

impl<G, Address> Config for RollbackConfig<G, Address>
where
    G: RollbackGame + 'static,
    G::Input: PartialEq + Default + Serialize + DeserializeOwned + Send + Sync,
    G::State: Send + Sync + 'static,
    Address: Clone + PartialEq + Eq + Hash + Debug + Send + Sync + 'static,
{
    type Input = G::Input;
    type InputPredictor = ggrs::PredictRepeatLast;
    type State = Snapshot<G::State>;
    type Address = Address;
}

/// What a [`RollbackLoop`] has done so far.
///
/// # Example
///
/// ```
/// # use tickarena::rollback::RollbackLoop;
/// # tickarena::__rollback_doc_game!();
/// let game = RollbackLoop::new(Counter::default());
/// assert_eq!(game.counts(), Default::default());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RollbackCounts {
    /// Ticks run (`AdvanceFrame`s), re-simulated ones included.
    pub ticks: u64,
    /// Ticks that ran again after a load.
    pub resimulated: u64,
    /// States loaded (`LoadGameState`): rollbacks.
    pub rollbacks: u64,
    /// States saved (`SaveGameState`).
    pub saves: u64,
}

/// A [`FrameLoop`] driven by a ggrs session: hand it each batch of
/// requests with [`handle_requests`](Self::handle_requests).
///
/// It owns the loop (and so the frame arena), so a game struct can keep
/// it as a field and call `self.rollback.handle_requests(requests)` from
/// `&mut self`: the arena is reset inside, with nothing to move out.
///
/// # Example
///
/// ```
/// # use tickarena::rollback::{RollbackConfig, RollbackLoop};
/// # tickarena::__rollback_doc_game!();
/// struct App {
///     rollback: RollbackLoop<Counter>,
///     drawn: u64,
/// }
/// impl App {
///     fn handle_requests(&mut self, requests: Vec<ggrs::GgrsRequest<RollbackConfig<Counter>>>) {
///         let drawn = &mut self.drawn;
///         self.rollback.handle_requests_with(requests, |world, _frame, _, _| *drawn = world.total);
///     }
/// }
/// let mut session = ggrs::SessionBuilder::<RollbackConfig<Counter>>::new()
///     .with_num_players(1)
///     .unwrap()
///     .with_check_distance(3)
///     .start_synctest_session()
///     .unwrap();
/// let mut app = App { rollback: RollbackLoop::new(Counter::default()), drawn: 0 };
/// for _ in 0..10 {
///     session.add_local_input(0, 2).unwrap();
///     app.handle_requests(session.advance_frame().unwrap());
/// }
/// assert_eq!(app.drawn, 20);
/// ```
pub struct RollbackLoop<G: RollbackGame> {
    game: FrameLoop<G>,
    snapshots: SnapshotRing<G::State>,
    counts: RollbackCounts,
    /// One past the newest tick ever run: a tick below it is re-simulated.
    newest: u64,
    /// The loop's tick at ggrs's frame 0: the ticks it ran before the
    /// session (a lobby, a countdown).
    origin: u64,
    /// The state check's own slot (see [`check_state`](Self::check_state)),
    /// when the check is on.
    check: Option<G::State>,
}

impl<G: RollbackGame> RollbackLoop<G> {
    /// A loop over `world` with [`FrameLoop::new`]'s arena and step, and
    /// snapshot slots for ggrs's default prediction window (8 frames).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let game = RollbackLoop::new(Counter { total: 3 });
    /// assert_eq!((game.world().total, game.frame()), (3, 0));
    /// ```
    pub fn new(world: G) -> Self {
        RollbackLoop::with_loop(FrameLoop::new(world), GGRS_MAX_PREDICTION)
    }

    /// A loop over `game` (your arena, step and history), with snapshot
    /// slots for a session predicting up to `max_prediction` frames ahead
    /// (the ring grows if the session keeps more).
    ///
    /// `game` may have ticked already (a lobby or a countdown before the
    /// session starts): ggrs's frame 0 is its tick now, and
    /// [`Frame::tick`] goes on counting the loop's ticks (ggrs's frame
    /// plus the ticks before the session).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// use tickarena::frame_loop::FrameLoop;
    /// let game = RollbackLoop::with_loop(FrameLoop::new(Counter::default()), 12);
    /// assert_eq!(game.frame(), 0);
    /// ```
    pub fn with_loop(game: FrameLoop<G>, max_prediction: usize) -> Self {
        RollbackLoop {
            newest: game.ticks(),
            origin: game.ticks(),
            check: cfg!(debug_assertions).then(G::State::default),
            game,
            // ggrs's cells hold `max_prediction + 1` states; one more is
            // written while a cell still holds the one it replaces.
            snapshots: SnapshotRing::with_capacity(max_prediction + 2),
            counts: RollbackCounts::default(),
        }
    }

    /// Carries out a batch of ggrs requests, in order.
    ///
    /// # Panics
    ///
    /// If ggrs asks to save a frame other than the game's, or to load a
    /// cell that holds no state: requests handled out of order.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::{RollbackConfig, RollbackLoop};
    /// # tickarena::__rollback_doc_game!();
    /// let mut session = ggrs::SessionBuilder::<RollbackConfig<Counter>>::new()
    ///     .with_num_players(1)
    ///     .unwrap()
    ///     .with_check_distance(2)
    ///     .start_synctest_session()
    ///     .unwrap();
    /// let mut game = RollbackLoop::new(Counter::default());
    /// for _ in 0..5 {
    ///     session.add_local_input(0, 1).unwrap();
    ///     game.handle_requests(session.advance_frame().unwrap());
    /// }
    /// assert_eq!((game.world().total, game.frame()), (5, 5));
    /// ```
    pub fn handle_requests<C>(&mut self, requests: Vec<GgrsRequest<C>>)
    where
        C: Config<Input = G::Input, State = Snapshot<G::State>>,
    {
        self.handle_requests_with(requests, |_, _, _, _| {});
    }

    /// [`handle_requests`](Self::handle_requests), with `present` run in the
    /// batch's last tick (the frame on screen), while its frame is alive:
    /// draw its labels, keep what the screen shows. Re-simulated ticks
    /// before it are not presented.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::{RollbackConfig, RollbackLoop};
    /// # tickarena::__rollback_doc_game!();
    /// let mut session = ggrs::SessionBuilder::<RollbackConfig<Counter>>::new()
    ///     .with_num_players(1)
    ///     .unwrap()
    ///     .with_check_distance(2)
    ///     .start_synctest_session()
    ///     .unwrap();
    /// let mut game = RollbackLoop::new(Counter::default());
    /// let mut screen = String::new();
    /// for _ in 0..5 {
    ///     session.add_local_input(0, 1).unwrap();
    ///     game.handle_requests_with(session.advance_frame().unwrap(), |world, frame, _, _| {
    ///         let label = tickarena::format_in!(frame.arena(), "total {}", world.total);
    ///         screen.clear();
    ///         screen.push_str(&label);
    ///     });
    /// }
    /// assert_eq!(screen, "total 5");
    /// ```
    pub fn handle_requests_with<C>(
        &mut self,
        requests: Vec<GgrsRequest<C>>,
        present: impl for<'f> FnOnce(&G, &Frame<'f, G>, &G::Scratch<'f>, &FrameHistory),
    ) where
        C: Config<Input = G::Input, State = Snapshot<G::State>>,
    {
        let last_tick = requests
            .iter()
            .rposition(|request| matches!(request, GgrsRequest::AdvanceFrame { .. }));
        let mut present = Some(present);
        for (index, request) in requests.into_iter().enumerate() {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => self.save_into(&cell, frame),
                GgrsRequest::LoadGameState { cell, frame } => self.load_from(&cell, frame),
                GgrsRequest::AdvanceFrame { inputs } => {
                    let present = present.take_if(|_| Some(index) == last_tick);
                    self.advance(inputs, present);
                }
            }
        }
    }

    /// One tick on the players' inputs.
    fn advance(
        &mut self,
        inputs: Vec<(G::Input, InputStatus)>,
        present: Option<impl for<'f> FnOnce(&G, &Frame<'f, G>, &G::Scratch<'f>, &FrameHistory)>,
    ) {
        let tick = self.game.ticks();
        let events = inputs
            .into_iter()
            .enumerate()
            .flat_map(|(player, (input, status))| {
                G::events(PlayerInput {
                    player,
                    input,
                    status,
                })
            });
        let step = self.game.step();
        match present {
            Some(present) => self.game.tick_with(events, step, present),
            None => self.game.tick(events, step),
        };
        self.counts.ticks += 1;
        if tick < self.newest {
            self.counts.resimulated += 1;
        }
        self.newest = self.newest.max(tick + 1);
    }

    /// Saves the game's state as of now, at ggrs frame `frame`.
    ///
    /// [`handle_requests`](Self::handle_requests) does this for
    /// `SaveGameState`; call it yourself to keep a state outside ggrs (a
    /// replay's checkpoint, a test).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter { total: 9 });
    /// let snapshot = game.save(0);
    /// assert_eq!((snapshot.frame(), *snapshot.state()), (0, 9));
    /// ```
    pub fn save(&mut self, frame: ggrs::Frame) -> Snapshot<G::State> {
        let world = self.game.world();
        let snapshot = self.snapshots.save(
            frame,
            (self.game.ticks(), self.game.time()),
            |state| world.save(state),
            G::checksum,
        );
        self.counts.saves += 1;
        if self.check.is_some() {
            self.check_save(&snapshot);
        }
        snapshot
    }

    /// Turns the state check on or off: on by default in debug builds
    /// (`debug_assertions`), off in release builds. Each check panics
    /// with a message that names the frame and what to fix:
    ///
    /// * after each save, the world is saved again into a slot of the
    ///   check's own that holds another state: the two checksums must
    ///   agree (a `save` that keeps part of the slot's old contents, such
    ///   as a `Vec` extended without `clear`, does not);
    /// * with a [`fingerprint`](RollbackGame::fingerprint), the saved state
    ///   is loaded straight back: the world's fingerprint must not change
    ///   (a field `load` restores but `save` does not write does);
    /// * after each load, the world is saved again: its checksum must be
    ///   the loaded state's (a field `save` writes but `load` does not
    ///   restore differs).
    ///
    /// A field that is in neither `save` nor `load` is not rolled back at
    /// all; no check can see it. Keep the simulation's state in one field
    /// (see [`RollbackGame`]'s example) and that cannot happen.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter { total: 9 });
    /// game.check_state(true); // in release builds too
    /// let snapshot = game.save(0);
    /// game.load(&snapshot); // checked: the world saves to the same state
    /// assert_eq!(game.world().total, 9);
    /// ```
    pub fn check_state(&mut self, check: bool) {
        // Kept while on: the check's slot has grown to the state's size.
        self.check = check.then(|| self.check.take().unwrap_or_default());
    }

    /// The checks after a save (see [`check_state`](Self::check_state)).
    #[cold]
    fn check_save(&mut self, snapshot: &Snapshot<G::State>) {
        let Some(spare) = self.check.as_mut() else {
            return;
        };
        let world = self.game.world();
        world.save(spare);
        let again = G::checksum(spare);
        assert_eq!(
            again,
            snapshot.checksum(),
            "tickarena: frame {}'s state saved twice gives two checksums ({again:#x} and {:#x}): \
             `save` keeps part of what the slot held before. Overwrite all of the slot: \
             `clone_from`, or `clear` each collection before extending it",
            snapshot.frame(),
            snapshot.checksum()
        );
        if let Some(before) = world.fingerprint() {
            self.game.world_mut().load(snapshot.state());
            let after = self.game.world().fingerprint();
            assert_eq!(
                after,
                Some(before),
                "tickarena: loading frame {}'s state right after saving it changed the world's \
                 fingerprint: `load` restores something `save` does not write, so every \
                 rollback puts back a stale value. Write it in `save` too (or keep the whole \
                 simulation state in one field, saved and loaded with `clone_from`)",
                snapshot.frame()
            );
        }
    }

    /// The check after a load (see [`check_state`](Self::check_state)).
    #[cold]
    fn check_load(&mut self, snapshot: &Snapshot<G::State>) {
        let Some(spare) = self.check.as_mut() else {
            return;
        };
        self.game.world().save(spare);
        let again = G::checksum(spare);
        assert_eq!(
            again,
            snapshot.checksum(),
            "tickarena: the world loaded from frame {}'s state saves to another state \
             (checksum {again:#x}, the loaded one's {:#x}): `load` does not restore \
             everything `save` writes. Restore it in `load` too (or keep the whole simulation \
             state in one field, saved and loaded with `clone_from`)",
            snapshot.frame(),
            snapshot.checksum()
        );
    }

    /// Puts the game back to `snapshot`: its state, and the loop's tick and
    /// clock (so [`Frame::tick`] counts from that tick again).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter { total: 9 });
    /// let snapshot = game.save(0);
    /// game.load(&snapshot);
    /// assert_eq!(game.world().total, 9);
    /// ```
    pub fn load(&mut self, snapshot: &Snapshot<G::State>) {
        self.game.world_mut().load(snapshot.state());
        let (tick, time) = snapshot.clock();
        self.game.rewind(tick, time);
        self.counts.rollbacks += 1;
        if self.check.is_some() {
            self.check_load(snapshot);
        }
    }

    fn save_into(&mut self, cell: &GameStateCell<Snapshot<G::State>>, frame: ggrs::Frame) {
        assert_eq!(
            u64::try_from(frame).ok(),
            Some(self.game.ticks() - self.origin),
            "tickarena: ggrs asked to save frame {frame}, but the game is at frame {} \
             (tick {}, {} ticks before the session): hand every request to the \
             RollbackLoop, in order, and start a new session with a new RollbackLoop",
            self.frame(),
            self.game.ticks(),
            self.origin
        );
        let snapshot = self.save(frame);
        let checksum = snapshot.checksum();
        cell.save(frame, Some(snapshot), Some(checksum));
    }

    fn load_from(&mut self, cell: &GameStateCell<Snapshot<G::State>>, frame: ggrs::Frame) {
        let snapshot = cell.data().unwrap_or_else(|| {
            panic!(
                "tickarena: ggrs asked to load frame {frame}, which was never saved: \
                 hand every request to the RollbackLoop, in order"
            )
        });
        assert_eq!(
            snapshot.frame(),
            frame,
            "tickarena: ggrs's cell holds another frame"
        );
        self.load(&snapshot);
    }

    /// The world.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// assert_eq!(RollbackLoop::new(Counter { total: 2 }).world().total, 2);
    /// ```
    pub fn world(&self) -> &G {
        self.game.world()
    }

    /// The frame loop: its history, arena and step.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let game = RollbackLoop::new(Counter::default());
    /// assert_eq!(game.frame_loop().arena().used(), 0);
    /// ```
    pub fn frame_loop(&self) -> &FrameLoop<G> {
        &self.game
    }

    /// The ggrs frame the game is at: the next tick to run, counted from
    /// the session's start (see [`with_loop`](Self::with_loop)).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// assert_eq!(RollbackLoop::new(Counter::default()).frame(), 0);
    /// ```
    pub fn frame(&self) -> ggrs::Frame {
        (self.game.ticks() - self.origin) as ggrs::Frame
    }

    /// Ticks, re-simulated ticks, rollbacks and saves so far.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter::default());
    /// game.save(0);
    /// assert_eq!(game.counts().saves, 1);
    /// ```
    pub fn counts(&self) -> RollbackCounts {
        self.counts
    }

    /// Snapshot slots made so far: `max_prediction + 2` once warm, unless
    /// snapshots were kept elsewhere.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::rollback::RollbackLoop;
    /// # tickarena::__rollback_doc_game!();
    /// let mut game = RollbackLoop::new(Counter::default());
    /// let kept = game.save(0);
    /// game.save(0); // `kept` holds the first slot
    /// assert_eq!(game.snapshot_slots(), 2);
    /// ```
    pub fn snapshot_slots(&self) -> usize {
        self.snapshots.len()
    }
}

/// The small game of the module's doc examples (not part of the API).
#[doc(hidden)]
#[macro_export]
macro_rules! __rollback_doc_game {
    (no_fingerprint) => {
        #[derive(Default)]
        struct Counter {
            total: u64,
        }
        impl $crate::frame_loop::Game for Counter {
            type Event = u8;
            type Scratch<'f> = ();
            fn actions<'f>(&mut self, input: u8, _: &mut $crate::frame_loop::Frame<'f, Self>) {
                self.total += u64::from(input);
            }
        }
    };
    () => {
        #[derive(Default)]
        struct Counter {
            total: u64,
        }
        struct Add(u64);
        impl $crate::frame_loop::Action<Counter> for Add {
            fn apply(
                &mut self,
                counter: &mut Counter,
                _: &mut $crate::frame_loop::Frame<'_, Counter>,
            ) {
                counter.total += self.0;
            }
        }
        impl $crate::frame_loop::Game for Counter {
            type Event = u8;
            type Scratch<'f> = ();
            fn actions<'f>(&mut self, input: u8, frame: &mut $crate::frame_loop::Frame<'f, Self>) {
                frame.push(Add(u64::from(input)));
            }
        }
        impl $crate::rollback::RollbackGame for Counter {
            type Input = u8;
            type State = u64;
            fn events(input: $crate::rollback::PlayerInput<u8>) -> impl IntoIterator<Item = u8> {
                [input.input]
            }
            fn save(&self, state: &mut u64) {
                *state = self.total;
            }
            fn load(&mut self, state: &u64) {
                self.total = *state;
            }
            fn checksum(state: &u64) -> u128 {
                u128::from(*state)
            }
        }
    };
}
