//! The game loop: input events become actions allocated in the frame
//! arena, the actions are applied to the world, a fixed-timestep update
//! runs, and the frame is reclaimed, every tick.
//!
//! A [`FrameLoop`] owns the world (any type implementing [`Game`]) and one
//! [`FrameArena`]. [`FrameLoop::tick`] lends the tick's code a [`Frame`]
//! whose lifetime ends before the arena is reset, so the borrow checker
//! proves that no action, string or scratch vector of a frame survives it;
//! nobody calls `reclaim` by hand. In steady state a tick makes no heap
//! allocation and no system call.
//!
//! # Example
//!
//! ```
//! use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
//!
//! struct Log(Vec<usize>);
//! struct Line<'f>(tickarena::String<&'f tickarena::FrameArena>);
//! impl Action<Log> for Line<'_> {
//!     fn apply(&mut self, world: &mut Log, _: &mut Frame<'_, Log>) {
//!         world.0.push(self.0.len());
//!     }
//! }
//! impl Game for Log {
//!     type Event = &'static str;
//!     type Scratch<'f> = ();
//!     fn actions<'f>(&mut self, name: &'static str, frame: &mut Frame<'f, Self>) {
//!         frame.push(Line(tickarena::format_in!(frame.arena(), "hello, {name}")));
//!     }
//! }
//!
//! let mut game = FrameLoop::new(Log(Vec::new()));
//! let record = game.tick(["ada", "grace"], game.step());
//! assert_eq!(game.world().0, [10, 12]);
//! assert_eq!((record.events, record.actions), (2, 2));
//! assert_eq!(game.arena().used(), 0, "the frame is reclaimed");
//! ```

#[cfg(feature = "chart")]
mod chart;
pub(crate) mod clock;
mod frame;
mod history;
mod report;
mod scratch;
mod source;
mod timestep;

use std::time::Duration;

use crate::arena::{FrameArena, FrameBreaches};
use crate::threads::ThreadArenas;

#[cfg(feature = "chart")]
pub use chart::{ChartScale, TagChart};
use clock::Instant;
pub use frame::{Action, Frame, FrameAction};
pub use history::{FrameHistory, FrameRecord};
pub use report::{SizingReport, TagSummary, WorstFrame};
pub use scratch::FromArena;
pub use source::{EventSource, Receive};
pub use timestep::FixedTimestep;

/// Frames kept in the history unless told otherwise.
const DEFAULT_HISTORY: usize = 240;

/// The persistent state of a game, and what it does each tick.
///
/// A tick ([`FrameLoop::tick`]) runs, with one [`Frame`] for all of it:
///
/// 1. [`actions`](Game::actions) for each input event (or, for
///    [`FrameLoop::tick_from`], [`Receive::receive`] for each event the
///    [`EventSource`] emits), then the actions pushed so far are applied;
/// 2. [`update`](Game::update) once per fixed step (zero or more times,
///    see [`FrameLoop::tick`]), each step followed by the actions it pushed;
/// 3. [`end_frame`](Game::end_frame), then the actions it pushed, then the
///    `present` callback of [`FrameLoop::tick_with`];
/// 4. the frame's arena is reset.
///
/// The world is `&mut` in every phase. Data that must last the whole tick
/// but not beyond (a visible list built in `update` and drawn in
/// `end_frame`, a per-frame spatial grid, the chat lines a tick's packets
/// carried) goes in [`Game::Scratch`]: the loop makes it in the frame
/// arena at the start of the tick, hands it to `update`, `end_frame` and
/// `present` as a parameter, and to the events' mapping and every action
/// through [`Frame::scratch`]. Data that must not even last that long
/// (the temporaries of a path search per unit, of a query per light) goes
/// in a scope: [`tickarena::scoped`](crate::scoped) lends a closure an
/// arena that is emptied when it returns, while `frame.arena()` and the
/// frame's data stay usable inside it; only what the closure returns (or
/// allocates in `frame.arena()`) is kept.
///
/// ```
/// use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
/// use tickarena::scoped;
///
/// struct Units { positions: Vec<(i32, i32)>, goals: Vec<usize> }
/// impl Game for Units {
///     type Event = ();
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
///         let positions = &self.positions;
///         for (unit, goal) in self.goals.iter_mut().enumerate() {
///             // A search per unit: its temporaries go when it returns.
///             *goal = scoped(|temp| {
///                 let mut open = Vec::with_capacity_in(positions.len(), temp);
///                 open.extend(positions.iter().enumerate().filter(|&(i, _)| i != unit));
///                 let me = positions[unit];
///                 open.sort_by_key(|(_, p)| (p.0 - me.0).abs() + (p.1 - me.1).abs());
///                 open[0].0
///             });
///         }
///         assert!(frame.arena().used() < 64, "the frame kept nothing of the searches");
///     }
/// }
/// let mut game = FrameLoop::new(Units { positions: vec![(0, 0), (5, 5), (1, 0)], goals: vec![0; 3] });
/// game.tick([], game.step());
/// assert_eq!(game.world().goals, [2, 2, 0]);
/// ```
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
/// use tickarena::FrameVec;
///
/// #[derive(Default)]
/// struct Counter {
///     total: i64,
///     next_id: u32,
///     drawn: Vec<i64>,
/// }
///
/// struct Add(i64);
///
/// impl Action<Counter> for Add {
///     fn apply(&mut self, world: &mut Counter, _: &mut Frame<'_, Counter>) {
///         world.total += self.0;
///     }
/// }
///
/// impl Game for Counter {
///     type Event = i64;
///     // Built in the frame's arena in `update`, read in `end_frame`.
///     type Scratch<'f> = FrameVec<'f, i64>;
///
///     fn actions<'f>(&mut self, event: i64, frame: &mut Frame<'f, Self>) {
///         self.next_id += 1; // the world is `&mut` here too
///         frame.push(Add(event));
///     }
///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, seen: &mut FrameVec<'f, i64>) {
///         seen.push(self.total);
///         frame.push(Add(100)); // applied right after this step
///     }
///     fn end_frame<'f>(&mut self, _: &mut Frame<'f, Self>, seen: &mut FrameVec<'f, i64>) {
///         self.drawn.extend_from_slice(seen);
///     }
/// }
///
/// let mut game = FrameLoop::new(Counter::default());
/// game.tick([1, 2, 3], game.step() * 2);
/// assert_eq!(game.world().drawn, [6, 106]);
/// assert_eq!((game.world().total, game.world().next_id), (206, 3));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a game the frame loop can run",
    label = "`FrameLoop` needs `{Self}: Game`",
    note = "implement `tickarena::frame_loop::Game` for it: `type Event`, and `fn actions<'f>(&mut self, event: Self::Event, frame: &mut Frame<'f, Self>)`"
)]
pub trait Game: Sized {
    /// An input event: a key press, a click, a network message.
    type Event;

    /// What the tick builds in its arena and hands from one phase to the
    /// next (the events and actions through [`Frame::scratch`], the update
    /// steps, `end_frame` and `present` as their parameter): `()` for nothing (write
    /// `type Scratch<'f> = ();`: stable Rust has no defaults for associated
    /// types), or a [`FrameVec`](crate::FrameVec), a tuple, a struct of
    /// your own implementing [`FromArena`]. Made at the start of every
    /// tick, dropped at its end: the borrow checker keeps it from outliving
    /// the frame. The tick places it in its arena, where the events'
    /// actions reach it ([`Frame::scratch`]): its own size (64 bytes for two
    /// empty `FrameVec`s, none for `()`) counts in every tick's
    /// `arena_bytes`.
    type Scratch<'f>: FromArena<'f>
    where
        Self: 'f;

    /// Turns one event into zero or more actions, pushed onto the frame
    /// (allocated in its arena), applied once every event of the tick is
    /// mapped.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// struct Inbox { next_id: u32, read: Vec<(u32, usize)> }
    /// struct Read<'f>(u32, &'f str);
    /// impl Action<Inbox> for Read<'_> {
    ///     fn apply(&mut self, inbox: &mut Inbox, _: &mut Frame<'_, Inbox>) {
    ///         inbox.read.push((self.0, self.1.len()));
    ///     }
    /// }
    /// impl Game for Inbox {
    ///     type Event = &'static str;
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, message: &'static str, frame: &mut Frame<'f, Self>) {
    ///         self.next_id += 1; // `&mut self`: ids need no `Cell`
    ///         let copy = frame.arena().alloc_str(message);
    ///         frame.push(Read(self.next_id, copy));
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Inbox { next_id: 0, read: Vec::new() });
    /// game.tick(["hi", "hello"], game.step());
    /// assert_eq!(game.world().read, [(1, 2), (2, 5)]);
    /// ```
    fn actions<'f>(&mut self, event: Self::Event, frame: &mut Frame<'f, Self>);

    /// One fixed step of the simulation, after the events' actions are
    /// applied; runs as many times per tick as the fixed timestep says
    /// (possibly zero: see [`FrameLoop::tick`]). Actions it pushes apply
    /// right after the step; scratch memory comes from `frame.arena()`, and
    /// what must reach `end_frame` goes in `scratch`.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Ball { height: f32, lowest: f32 }
    /// impl Game for Ball {
    ///     type Event = ();
    ///     type Scratch<'f> = Option<f32>; // the step's lowest point, for `end_frame`
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, lowest: &mut Option<f32>) {
    ///         self.height -= 10.0 * frame.step().as_secs_f32();
    ///         *lowest = Some(lowest.map_or(self.height, |l| l.min(self.height)));
    ///     }
    ///     fn end_frame<'f>(&mut self, _: &mut Frame<'f, Self>, lowest: &mut Option<f32>) {
    ///         self.lowest = lowest.unwrap_or(self.height);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Ball { height: 1.0, lowest: 1.0 });
    /// game.tick([], game.step() * 3);
    /// assert!(game.world().lowest < 0.6);
    /// ```
    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, scratch: &mut Self::Scratch<'f>) {
        let _ = (frame, scratch);
    }

    /// The end of the tick, before it is presented and reclaimed: draw,
    /// report, log (with strings from the arena). Actions it pushes apply
    /// right after it.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Hud(std::string::String);
    /// impl Game for Hud {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         let line = tickarena::format_in!(frame.arena(), "{} events", frame.events());
    ///         self.0 = line.as_str().to_owned();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Hud(std::string::String::new()));
    /// game.tick([(), ()], game.step());
    /// assert_eq!(game.world().0, "2 events");
    /// ```
    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, scratch: &mut Self::Scratch<'f>) {
        let _ = (frame, scratch);
    }
}

/// Owns the world and the frame arena and runs ticks.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{Frame, FrameLoop, Game};
///
/// struct Idle;
/// impl Game for Idle {
///     type Event = ();
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
/// }
///
/// let mut game = FrameLoop::new(Idle);
/// for _ in 0..10 {
///     game.tick([(), ()], game.step());
/// }
/// assert_eq!(game.history().len(), 10);
/// assert_eq!(game.history().latest().unwrap().events, 2);
/// ```
pub struct FrameLoop<G: Game> {
    world: G,
    arena: FrameArena,
    threads: ThreadArenas,
    timestep: FixedTimestep,
    history: FrameHistory,
    tick: u64,
    /// Simulated time: the fixed steps run so far.
    time: Duration,
    #[cfg(feature = "tracy")]
    tick_plot: crate::tracy::TickPlot,
}

impl<G: Game> FrameLoop<G> {
    /// A loop with a default arena, a 60 Hz fixed step (at most 5 catch-up
    /// steps per tick) and a history of 240 frames.
    ///
    /// # Panics
    ///
    /// If the OS refuses the arena's address space (see [`FrameArena::new`]).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let game = FrameLoop::new(Idle);
    /// assert_eq!(game.step(), std::time::Duration::from_secs(1) / 60);
    /// ```
    pub fn new(world: G) -> Self {
        let arena = match FrameArena::builder().name("frame loop").build() {
            Ok(arena) => arena,
            Err(error) => panic!("tickarena: cannot create the frame loop's arena: {error}"),
        };
        FrameLoop::with_parts(world, arena, FixedTimestep::default(), DEFAULT_HISTORY)
    }

    /// A loop with the given arena, fixed timestep and history length.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game, FixedTimestep};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// use std::time::Duration;
    /// let arena = tickarena::FrameArena::builder().reserve(64 << 20).build().unwrap();
    /// let timestep = FixedTimestep::new(Duration::from_millis(10), 3);
    /// let game = FrameLoop::with_parts(Idle, arena, timestep, 16);
    /// assert_eq!(game.history().capacity(), 16);
    /// ```
    pub fn with_parts(
        world: G,
        arena: FrameArena,
        timestep: FixedTimestep,
        history: usize,
    ) -> Self {
        FrameLoop {
            world,
            arena,
            threads: ThreadArenas::with_builder(FrameArena::builder().name("frame loop workers")),
            timestep,
            history: FrameHistory::with_capacity(history),
            tick: 0,
            time: Duration::ZERO,
            #[cfg(feature = "tracy")]
            tick_plot: crate::tracy::TickPlot::new(),
        }
    }

    /// The same loop, running exactly one [`update`](Game::update) step per
    /// tick of its step length, whatever elapsed time a tick is given (see
    /// [`FixedTimestep::one_per_tick`]): the mode of a server that ticks at
    /// a fixed rate, of lockstep and of replays. Pass any duration
    /// (`Duration::ZERO`) to the tick methods.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// use std::time::Duration;
    /// let mut server = FrameLoop::new(Idle).one_step_per_tick();
    /// assert_eq!(server.tick([], Duration::ZERO).steps, 1);
    /// assert_eq!(server.tick([], Duration::from_secs(2)).steps, 1);
    /// assert_eq!(server.time(), server.step() * 2);
    /// ```
    pub fn one_step_per_tick(mut self) -> Self {
        self.timestep = FixedTimestep::one_per_tick(self.timestep.step());
        self
    }

    /// Runs one tick: maps `events` to actions in a fresh frame, applies
    /// them to the world in order, runs the fixed-timestep update for
    /// `elapsed` wall-clock time, calls [`Game::end_frame`], and reclaims
    /// the frame. Returns the tick's figures (also kept in the history;
    /// during the tick, [`Frame`] has them so far).
    ///
    /// # The clock
    ///
    /// `elapsed` is the wall-clock time since the previous tick. It is
    /// added to what is left over from earlier ticks, and
    /// [`update`](Game::update) runs once per whole [`step`](Self::step)
    /// in that sum, at most the timestep's `max_steps` times (time beyond
    /// is dropped: the game slows down rather than spiral). So a tick may
    /// run `update` **zero times**: with `Duration::ZERO`, or with a real
    /// clock on a frame shorter than a step (a 144 Hz display, a 60 Hz
    /// step); the remainder carries to the next tick. A loop made with
    /// [`one_step_per_tick`](Self::one_step_per_tick) runs exactly one step
    /// every tick and ignores `elapsed` (a server, lockstep, replays).
    ///
    /// # Panics
    ///
    /// When the game panics (in `actions`, an action, `update`, `end_frame`
    /// or `present`), the panic goes on, but the frame's arena and its
    /// workers' are reset on the way out: a loop that catches the panic
    /// starts its next tick on empty arenas. The failed tick is not
    /// counted nor recorded.
    ///
    /// A [`BudgetPolicy::Panic`](crate::BudgetPolicy::Panic) on the arena
    /// or the workers panics after the tick: both are reset, the tick is
    /// recorded (in the history, so in the CSV and the report) and
    /// counted, then one panic names every breach of the frame.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// let record = game.tick([()], game.step() * 2);
    /// assert_eq!((record.tick, record.events, record.steps), (0, 1, 2));
    /// let record = game.tick([()], std::time::Duration::ZERO);
    /// assert_eq!(record.steps, 0, "no time passed: no update step");
    /// let record = game.tick([()], game.step() / 2);
    /// let record_after = game.tick([()], game.step() / 2);
    /// assert_eq!((record.steps, record_after.steps), (0, 1), "halves carry over");
    /// ```
    pub fn tick(
        &mut self,
        events: impl IntoIterator<Item = G::Event>,
        elapsed: Duration,
    ) -> FrameRecord {
        self.tick_with(events, elapsed, |_, _, _, _| {})
    }

    /// [`tick`](Self::tick), with `present` run last, after
    /// [`Game::end_frame`] and its actions, while the frame is still alive:
    /// it gets the world, the frame (so drawing can use the arena; what it
    /// allocates counts in the tick's `arena_bytes`), the tick's
    /// [`Game::Scratch`] and the history of the frames before this one. This is how a window adapter draws a frame without
    /// the world owning the window.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Score(u32);
    /// impl Game for Score {
    ///     type Event = u32;
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: u32, _: &mut Frame<'f, Self>) {}
    /// }
    /// let mut game = FrameLoop::new(Score(3));
    /// let mut screen = std::string::String::new();
    /// let record = game.tick_with([], game.step(), |world, frame, _scratch, _history| {
    ///     let text = tickarena::format_in!(frame.arena(), "score {}", world.0);
    ///     screen.push_str(&text);
    /// });
    /// assert_eq!(screen, "score 3");
    /// // The text was freed at the end of `present`; the frame's peak counts it.
    /// assert!(record.arena_bytes >= "score 3".len());
    /// ```
    pub fn tick_with(
        &mut self,
        events: impl IntoIterator<Item = G::Event>,
        elapsed: Duration,
        present: impl for<'f> FnOnce(&G, &Frame<'f, G>, &G::Scratch<'f>, &FrameHistory),
    ) -> FrameRecord {
        self.run_tick(Listed(events), elapsed, present)
    }

    /// Runs one tick whose events come from `source`: the loop asks it
    /// once, first, lending it the frame's arena
    /// ([`EventSource::poll`]), and hands each event it emits to the
    /// game's [`Receive::receive`]; the rest of the tick is
    /// [`tick`](Self::tick)'s (the actions applied, the update steps for
    /// `elapsed`, `end_frame`, the reset). This is how a server's packets,
    /// received and decoded into the tick's arena, are the tick's events.
    /// A loop made [`one_step_per_tick`](Self::one_step_per_tick) (a
    /// server's) runs exactly one update step and ignores `elapsed`: pass
    /// `Duration::ZERO`.
    ///
    /// # Panics
    ///
    /// As [`tick`](Self::tick); a panic in the source's `poll` resets the
    /// arenas too.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::FrameArena;
    /// use tickarena::frame_loop::{EventSource, Frame, FrameLoop, Game, Receive};
    ///
    /// // Replays recorded lines, one tick's worth per tick.
    /// struct Replay { ticks: Vec<&'static str> }
    /// impl EventSource for Replay {
    ///     type Event<'f> = &'f str;
    ///     fn poll<'f>(&mut self, arena: &'f FrameArena, emit: &mut dyn FnMut(&'f str)) {
    ///         if let Some(tick) = self.ticks.pop() {
    ///             tick.split(';').for_each(|line| emit(arena.alloc_str(line)));
    ///         }
    ///     }
    /// }
    /// struct Moves(usize);
    /// impl Game for Moves {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// }
    /// impl Receive<Replay> for Moves {
    ///     fn receive<'f>(&mut self, line: &'f str, _: &mut Frame<'f, Self>) {
    ///         self.0 += line.len();
    ///     }
    /// }
    /// let mut replay = Replay { ticks: vec!["e4;e5", "d4"] };
    /// let mut game = FrameLoop::new(Moves(0)).one_step_per_tick();
    /// assert_eq!(game.tick_from(&mut replay, game.step()).events, 1);
    /// assert_eq!(game.tick_from(&mut replay, game.step()).events, 2);
    /// assert_eq!(game.tick_from(&mut replay, game.step()).events, 0);
    /// assert_eq!(game.world().0, 6);
    /// ```
    pub fn tick_from<S: EventSource>(&mut self, source: &mut S, elapsed: Duration) -> FrameRecord
    where
        G: Receive<S>,
    {
        self.run_tick(Polled(source), elapsed, |_, _, _, _| {})
    }

    /// [`tick_from`](Self::tick_from), with `present` run last as in
    /// [`tick_with`](Self::tick_with).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::FrameArena;
    /// use tickarena::frame_loop::{EventSource, Frame, FrameLoop, Game, Receive};
    ///
    /// struct Pings(u32);
    /// impl EventSource for Pings {
    ///     type Event<'f> = u32;
    ///     fn poll<'f>(&mut self, _: &'f FrameArena, emit: &mut dyn FnMut(u32)) {
    ///         (0..self.0).for_each(emit);
    ///     }
    /// }
    /// struct Seen(u32);
    /// impl Game for Seen {
    ///     type Event = ();
    ///     type Scratch<'f> = Option<u32>; // the tick's highest ping
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// }
    /// impl Receive<Pings> for Seen {
    ///     fn receive<'f>(&mut self, ping: u32, frame: &mut Frame<'f, Self>) {
    ///         self.0 += 1;
    ///         *frame.scratch() = Some(ping);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Seen(0));
    /// let mut shown = None;
    /// game.tick_from_with(&mut Pings(3), game.step(), |_, _, highest, _| shown = *highest);
    /// assert_eq!((game.world().0, shown), (3, Some(2)));
    /// ```
    pub fn tick_from_with<S: EventSource>(
        &mut self,
        source: &mut S,
        elapsed: Duration,
        present: impl for<'f> FnOnce(&G, &Frame<'f, G>, &G::Scratch<'f>, &FrameHistory),
    ) -> FrameRecord
    where
        G: Receive<S>,
    {
        self.run_tick(Polled(source), elapsed, present)
    }

    /// A tick, its events mapped by `events`.
    fn run_tick(
        &mut self,
        events: impl TickEvents<G>,
        elapsed: Duration,
        present: impl for<'f> FnOnce(&G, &Frame<'f, G>, &G::Scratch<'f>, &FrameHistory),
    ) -> FrameRecord {
        let started = Instant::now();
        let steps = self.timestep.advance(elapsed);
        // Resets the arena when dropped: after the frame below on the normal
        // path, and also while unwinding from a panic in the game, so a
        // caught panic never leaves the next tick on this frame's bytes.
        let arenas = ResetOnDrop {
            arena: &mut self.arena,
            threads: &mut self.threads,
        };
        let (events, actions, mut tags) = {
            let mut frame = Frame::new(
                arenas.arena,
                arenas.threads,
                self.tick,
                self.timestep.step(),
                self.time,
                steps,
            );
            let world = &mut self.world;
            // The scratch first: the events and their actions reach it.
            frame.make_scratch();
            events.map(world, &mut frame);
            frame.apply_pending(world);
            for _ in 0..steps {
                frame.with_scratch(|frame, scratch| world.update(frame, scratch));
                frame.apply_pending(world);
                frame.finish_step();
            }
            frame.with_scratch(|frame, scratch| world.end_frame(frame, scratch));
            frame.apply_pending(world);
            let history = &self.history;
            frame.with_scratch(|frame, scratch| present(world, frame, scratch, history));
            self.time = frame.time();
            let tags = arenas.arena.tag_bytes();
            (frame.events(), frame.actions_applied(), tags)
            // The scratch, the frame and everything they hold drop here...
        };
        // ...so the arena can be reset: the borrow checker has proved that
        // nothing from the frame is still reachable. (Its peaks and
        // refusals are read first, the peaks as the budgets are about to
        // compare them: the reset clears them.) A panicking budget policy
        // waits until the tick is recorded and counted.
        let mut refusals = arenas.arena.refusals();
        let (arena_peak, worker_bytes) = (arenas.arena.peak(), arenas.threads.peak());
        let frame_budget = arenas.arena.frame_budget();
        let worker_frame_budget = arenas.threads.frame_budget();
        // Each holder's whole-frame breach, as its policy counts it.
        let over_frame_budget = frame_budget.is_some_and(|budget| arena_peak > budget)
            || worker_frame_budget.is_some_and(|budget| worker_bytes > budget);
        let breaches = arenas.reset();
        // The workers' tables were summed as their arenas were reset.
        tags.add(&self.threads.last_frame_tag_bytes());
        refusals.add(&self.threads.last_frame_refusals());
        let record = FrameRecord {
            tick: self.tick,
            events,
            actions,
            steps,
            arena_bytes: arena_peak + worker_bytes,
            worker_bytes,
            tags,
            tick_time: started.elapsed(),
            refusals,
            frame_budget,
            worker_frame_budget,
            over_frame_budget,
        };
        self.history.push(record);
        self.tick += 1;
        #[cfg(feature = "tracy")]
        self.tick_plot.plot(record.arena_bytes);
        breaches.panic_unless_unwinding();
        record
    }

    /// The world.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Score(u32);
    /// # impl Game for Score {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let game = FrameLoop::new(Score(7));
    /// assert_eq!(game.world().0, 7);
    /// ```
    pub fn world(&self) -> &G {
        &self.world
    }

    /// The world, mutably (between ticks).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Score(u32);
    /// # impl Game for Score {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Score(7));
    /// game.world_mut().0 = 9;
    /// assert_eq!(game.world().0, 9);
    /// ```
    pub fn world_mut(&mut self) -> &mut G {
        &mut self.world
    }

    /// The per-frame figures of the last frames, and the high-water mark.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// game.tick([], game.step());
    /// assert_eq!(game.history().iter().count(), 1);
    /// ```
    pub fn history(&self) -> &FrameHistory {
        &self.history
    }

    /// The worker threads' arenas (between ticks: empty, with their
    /// statistics); see [`Frame::threads`].
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// game.tick([], game.step());
    /// assert_eq!(game.threads().stats().frames, 1);
    /// assert!(game.threads().is_empty(), "no thread asked for an arena");
    /// ```
    pub fn threads(&self) -> &ThreadArenas {
        &self.threads
    }

    /// Replaces the worker threads' arenas, e.g. with arenas from a builder
    /// of your own.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// use tickarena::{FrameArena, ThreadArenas};
    /// let workers = ThreadArenas::with_builder(FrameArena::builder().reserve(256 << 20));
    /// let game = FrameLoop::new(Idle).with_threads(workers);
    /// assert_eq!(game.threads().len(), 0);
    /// ```
    pub fn with_threads(mut self, threads: ThreadArenas) -> Self {
        self.threads = threads;
        self
    }

    /// The frame arena (between ticks: empty, with its statistics).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// game.tick([], game.step());
    /// assert_eq!(game.arena().stats().frames, 1);
    /// ```
    pub fn arena(&self) -> &FrameArena {
        &self.arena
    }

    /// The fixed step length.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// assert!(FrameLoop::new(Idle).step() > std::time::Duration::ZERO);
    /// ```
    pub fn step(&self) -> Duration {
        self.timestep.step()
    }

    /// Ticks run so far.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// game.tick([], game.step());
    /// assert_eq!(game.ticks(), 1);
    /// ```
    pub fn ticks(&self) -> u64 {
        self.tick
    }

    /// Simulated time: the fixed steps run so far.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// game.tick([], game.step() * 2);
    /// assert_eq!(game.time(), game.step() * 2);
    /// ```
    pub fn time(&self) -> Duration {
        self.time
    }

    /// Puts the loop's clock back to tick `tick` at simulated time `time`,
    /// with no fraction of a step pending: what a rollback does after it
    /// loads the world's state of that tick (and a replay, to start from a
    /// checkpoint). The history keeps its records.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Idle;
    /// # impl Game for Idle {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// let mut game = FrameLoop::new(Idle);
    /// let (tick, time) = (game.ticks(), game.time());
    /// for _ in 0..3 {
    ///     game.tick([], game.step());
    /// }
    /// game.rewind(tick, time);
    /// assert_eq!((game.ticks(), game.time()), (0, std::time::Duration::ZERO));
    /// ```
    pub fn rewind(&mut self, tick: u64, time: Duration) {
        self.tick = tick;
        self.time = time;
        self.timestep.drop_pending();
    }

    /// Gives the world back, dropping the loop.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # struct Score(u32);
    /// # impl Game for Score {
    /// #     type Event = ();
    /// #     type Scratch<'f> = ();
    /// #     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    /// # }
    /// assert_eq!(FrameLoop::new(Score(3)).into_world().0, 3);
    /// ```
    pub fn into_world(self) -> G {
        self.world
    }
}

/// Where a tick's events come from, and how each becomes actions.
trait TickEvents<G: Game> {
    fn map<'f>(self, world: &mut G, frame: &mut Frame<'f, G>);
}

/// The events the caller lists ([`FrameLoop::tick`]), through
/// [`Game::actions`].
struct Listed<I>(I);

impl<G: Game, I: IntoIterator<Item = G::Event>> TickEvents<G> for Listed<I> {
    #[inline]
    fn map<'f>(self, world: &mut G, frame: &mut Frame<'f, G>) {
        for event in self.0 {
            world.actions(event, frame);
            frame.count_event();
        }
    }
}

/// The events a source emits into the tick's arena
/// ([`FrameLoop::tick_from`]), through [`Receive::receive`].
struct Polled<'s, S>(&'s mut S);

impl<G: Receive<S>, S: EventSource> TickEvents<G> for Polled<'_, S> {
    #[inline]
    fn map<'f>(self, world: &mut G, frame: &mut Frame<'f, G>) {
        let arena = frame.arena();
        self.0.poll(arena, &mut |event| {
            world.receive(event, frame);
            frame.count_event();
        });
    }
}

/// Resets the frame's arenas when dropped, on every way out of a tick.
struct ResetOnDrop<'a> {
    arena: &'a mut FrameArena,
    threads: &'a mut ThreadArenas,
}

impl ResetOnDrop<'_> {
    /// Resets both, the arena's and the workers' breaches handed back for
    /// a panicking policy to panic with once the tick is recorded.
    fn reset(self) -> FrameBreaches {
        let mut this = core::mem::ManuallyDrop::new(self);
        this.reset_both()
    }

    fn reset_both(&mut self) -> FrameBreaches {
        let mut breaches = self.arena.reset_deferring_panic();
        breaches.append(self.threads.reset_deferring_panic());
        breaches
    }
}

impl Drop for ResetOnDrop<'_> {
    /// The game panicked: the breaches are counted, not panicked with
    /// (a second panic would abort).
    fn drop(&mut self) {
        self.reset_both();
    }
}
