//! [`Frame`]: what the code of one tick gets: the arena, the tick number,
//! the step length, the simulated time, the tick's figures so far, its
//! scratch, and its queue of actions ([`Action`], [`FrameAction`]).

use std::mem;
use std::time::Duration;

use super::Game;
use super::scratch::{ScratchSlot, Slot};
use crate::arena::{FrameArena, Placed};
use crate::segmented::SegmentedList;
use crate::threads::ThreadArenas;

/// Something that changes the world, pushed with [`Frame::push`] and
/// applied once, in order, later in the same tick (see [`Frame::push`] for
/// when). Allocated in the frame arena, so it may hold `format_in!` strings
/// and arena vectors that live as long as the frame.
///
/// `apply` gets the world and the frame: it can allocate in
/// `frame.arena()` and push follow-up actions, which apply right after the
/// batch it belongs to.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
/// use tickarena::{format_in, FrameString};
///
/// struct Named(std::string::String);
///
/// struct Rename<'f>(FrameString<'f>);
/// impl Action<Named> for Rename<'_> {
///     fn apply(&mut self, world: &mut Named, frame: &mut Frame<'_, Named>) {
///         world.0.clear();
///         world.0.push_str(&self.0);
///         // An action may allocate in the frame and push another action.
///         let note = format_in!(frame.arena(), " (renamed in tick {})", frame.tick());
///         frame.push(Append(note));
///     }
/// }
///
/// struct Append<'f>(FrameString<'f>);
/// impl Action<Named> for Append<'_> {
///     fn apply(&mut self, world: &mut Named, _: &mut Frame<'_, Named>) {
///         world.0.push_str(&self.0);
///     }
/// }
///
/// impl Game for Named {
///     type Event = u32;
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, player: u32, frame: &mut Frame<'f, Self>) {
///         frame.push(Rename(format_in!(frame.arena(), "player {player}")));
///     }
/// }
///
/// let mut game = FrameLoop::new(Named(std::string::String::new()));
/// let record = game.tick([2], game.step());
/// assert_eq!(game.world().0, "player 2 (renamed in tick 0)");
/// assert_eq!(record.actions, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an action on the world `{W}`",
    label = "`Frame::push` takes an `Action<{W}>`",
    note = "implement it: `impl Action<{W}> for {Self} {{ fn apply(&mut self, world: &mut {W}, frame: &mut Frame<'_, {W}>) {{ .. }} }}`; \
            an action holding arena data is generic over the frame: `impl Action<{W}> for MyAction<'_>`"
)]
pub trait Action<W> {
    /// Applies the action to the world; `frame` is the tick it runs in.
    fn apply(&mut self, world: &mut W, frame: &mut Frame<'_, W>);
}

/// An action that names the frame it runs in: [`Action`] with the frame's
/// lifetime `'f` instead of an anonymous one, pushed with
/// [`Frame::push_in`]. Its data of the frame (`&'f str`, arena lists) can
/// then go on to later phases of the tick: into the tick's scratch
/// ([`Frame::scratch`]), or into actions it pushes. An [`Action`]'s
/// `apply` gets a frame of some lifetime of its own, unrelated to its
/// data's, so it can only copy that data.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{Frame, FrameAction, FrameLoop, Game};
/// use tickarena::FrameVec;
///
/// #[derive(Default)]
/// struct Chat { shown: Vec<std::string::String> }
///
/// // A decoded chat line, borrowed from the tick's arena.
/// struct Say<'f>(&'f str);
/// impl<'f> FrameAction<'f, Chat> for Say<'f> {
///     fn apply(&mut self, _: &mut Chat, frame: &mut Frame<'f, Chat>) {
///         frame.scratch().push(self.0); // no copy: the line lives as long as the tick
///     }
/// }
///
/// impl Game for Chat {
///     type Event = &'static str;
///     type Scratch<'f> = FrameVec<'f, &'f str>; // this tick's lines, for the snapshot
///     fn actions<'f>(&mut self, line: &'static str, frame: &mut Frame<'f, Self>) {
///         let copy = frame.arena().alloc_str(line);
///         frame.push_in(Say(copy));
///     }
///     fn end_frame<'f>(&mut self, _: &mut Frame<'f, Self>, said: &mut Self::Scratch<'f>) {
///         self.shown.extend(said.iter().map(|line| line.to_uppercase()));
///     }
/// }
///
/// let mut game = FrameLoop::new(Chat::default());
/// game.tick(["hi", "gg"], game.step());
/// assert_eq!(game.world().shown, ["HI", "GG"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an action of its frame on the world `{W}`",
    label = "`Frame::push_in` takes a `FrameAction<'f, {W}>`",
    note = "implement it for the frame's lifetime: `impl<'f> FrameAction<'f, {W}> for MyAction<'f> {{ fn apply(&mut self, world: &mut {W}, frame: &mut Frame<'f, {W}>) {{ .. }} }}`, \
            or push an `Action` with `Frame::push`"
)]
pub trait FrameAction<'f, W> {
    /// Applies the action to the world; `frame` is the tick it was pushed
    /// in, with the lifetime of the action's data.
    fn apply(&mut self, world: &mut W, frame: &mut Frame<'f, W>);
}

/// An [`Action`] in a frame's list, which holds [`FrameAction`]s: the
/// same call, through the same vtable.
#[repr(transparent)]
struct Plain<A>(A);

impl<'f, W, A: Action<W>> FrameAction<'f, W> for Plain<A> {
    #[inline(always)]
    fn apply(&mut self, world: &mut W, frame: &mut Frame<'f, W>) {
        self.0.apply(world, frame);
    }
}

/// The actions of a frame: placed in the frame arena (dropped with the
/// list, their memory reclaimed with the frame), listed in a
/// `SegmentedList` whose segments also come from the arena.
type ActionList<'f, G> = SegmentedList<Placed<'f, dyn FrameAction<'f, G> + 'f>, &'f FrameArena>;

/// The tick's scratch while it waits in the frame, its type erased (a
/// `Frame<'f, G>` does not require `G: Game`, as `Action<W>` does not).
type ScratchHandle<'f, G> = Placed<'f, dyn ScratchSlot<'f, G> + 'f>;

/// The tick being run: hands out the frame arena and collects actions.
///
/// Everything allocated through it lives until the end of the tick and no
/// longer: the frame is borrowed from the [`FrameLoop`](super::FrameLoop)
/// only for the tick, and the arena is reset after it.
///
/// # Example
///
/// ```
/// use tickarena::format_in;
/// use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
///
/// struct Journal(Vec<std::string::String>);
/// struct Log<'f>(tickarena::String<&'f tickarena::FrameArena>);
/// impl Action<Journal> for Log<'_> {
///     fn apply(&mut self, world: &mut Journal, _: &mut Frame<'_, Journal>) {
///         world.0.push(self.0.as_str().to_owned()); // a copy may outlive the frame
///     }
/// }
///
/// impl Game for Journal {
///     type Event = u32;
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, key: u32, frame: &mut Frame<'f, Self>) {
///         let line = format_in!(frame.arena(), "tick {}: key {key}", frame.tick());
///         frame.push(Log(line));
///     }
/// }
///
/// let mut game = FrameLoop::new(Journal(Vec::new()));
/// game.tick([7, 8], game.step());
/// assert_eq!(game.world().0, ["tick 0: key 7", "tick 0: key 8"]);
/// ```
pub struct Frame<'f, G> {
    arena: &'f FrameArena,
    threads: &'f ThreadArenas,
    tick: u64,
    step: Duration,
    time: Duration,
    /// Events mapped so far.
    events: usize,
    /// Fixed steps this tick, and how many have run.
    steps: u32,
    steps_run: u32,
    /// Actions applied so far.
    applied: usize,
    /// Actions pushed and not applied yet.
    pending: ActionList<'f, G>,
    /// The tick's scratch, while no phase has it as its parameter.
    scratch: Option<ScratchHandle<'f, G>>,
}

// A frame belongs to the thread running the tick: it is neither `Send` nor
// `Sync`, through `&FrameArena` (the arena is not `Sync`) and its queue of
// actions (which need not be `Send`). Workers allocate in
// `Frame::threads` instead (`compile_fail/frame_loop/frame_shared_with_a_worker`).

impl<'f, G> Frame<'f, G> {
    pub(super) fn new(
        arena: &'f FrameArena,
        threads: &'f ThreadArenas,
        tick: u64,
        step: Duration,
        time: Duration,
        steps: u32,
    ) -> Self {
        Frame {
            arena,
            threads,
            tick,
            step,
            time,
            events: 0,
            steps,
            steps_run: 0,
            applied: 0,
            pending: SegmentedList::new_in(arena),
            scratch: None,
        }
    }

    /// The frame arena: allocate anything that lives for this tick here.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Scratch;
    /// impl Game for Scratch {
    ///     type Event = u8;
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, n: u8, frame: &mut Frame<'f, Self>) {
    ///         let squares = frame.arena().alloc_slice_fill_with(n as usize, |i| i * i);
    ///         assert_eq!(squares.len(), n as usize);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Scratch);
    /// assert!(game.tick([10], game.step()).arena_bytes >= 80);
    /// ```
    pub fn arena(&self) -> &'f FrameArena {
        self.arena
    }

    /// One arena per worker thread, for work the tick fans out (rayon,
    /// scoped threads, a job system): each thread allocates in
    /// `frame.threads().local()`. They are reset with the tick, and their
    /// bytes count in the tick's [`FrameRecord::arena_bytes`](super::FrameRecord).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    ///
    /// struct Field(Vec<u64>);
    /// impl Game for Field {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         let threads = frame.threads();
    ///         // Each worker builds its half in its own arena and hands back a slice.
    ///         let halves: Vec<&[u64]> = std::thread::scope(|scope| {
    ///             let workers: Vec<_> = self.0.chunks(2)
    ///                 .map(|chunk| scope.spawn(move || {
    ///                     &*threads.local().alloc_slice_fill_with(chunk.len(), |i| chunk[i] * 10)
    ///                 }))
    ///                 .collect();
    ///             workers.into_iter().map(|w| w.join().unwrap()).collect()
    ///         });
    ///         let scaled: Vec<u64> = halves.concat();
    ///         self.0 = scaled;
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Field(vec![1, 2, 3, 4]));
    /// let record = game.tick([], game.step());
    /// assert_eq!(game.world().0, [10, 20, 30, 40]);
    /// assert_eq!(record.arena_bytes, 32); // the workers' bytes count
    /// assert_eq!(game.threads().used(), 0); // and were reset with the tick
    /// ```
    pub fn threads(&self) -> &'f ThreadArenas {
        self.threads
    }

    /// The tick number, from 0.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Ticks(Vec<u64>);
    /// impl Game for Ticks {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0.push(frame.tick());
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Ticks(Vec::new()));
    /// game.tick([], game.step());
    /// game.tick([], game.step());
    /// assert_eq!(game.world().0, [0, 1]);
    /// ```
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// The length of one fixed update step.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Falling(f32);
    /// impl Game for Falling {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0 -= 9.8 * frame.step().as_secs_f32();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Falling(0.0));
    /// game.tick([], game.step() * 60); // a one-second stall...
    /// let fell = -game.world().0;
    /// assert!(fell > 0.8 && fell < 0.9); // ...runs five 1/60 s steps at most
    /// ```
    pub fn step(&self) -> Duration {
        self.step
    }

    /// Simulated time: the fixed steps run before this point of the tick.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// # use std::time::Duration;
    /// struct Clock(Duration);
    /// impl Game for Clock {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0 = frame.time();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Clock(Duration::ZERO));
    /// game.tick([], game.step() * 2);
    /// assert_eq!(game.world().0, game.step() * 2);
    /// ```
    pub fn time(&self) -> Duration {
        self.time
    }

    /// Input events mapped to actions so far this tick: during
    /// [`Game::actions`](super::Game::actions), the events before this one;
    /// afterwards, all of the tick's events.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Seen(Vec<usize>);
    /// impl Game for Seen {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
    ///         self.0.push(frame.events());
    ///     }
    ///     fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0.push(frame.events());
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Seen(Vec::new()));
    /// game.tick([(), (), ()], game.step());
    /// assert_eq!(game.world().0, [0, 1, 2, 3]);
    /// ```
    pub fn events(&self) -> usize {
        self.events
    }

    /// The fixed update steps this tick runs, decided at its start from
    /// the elapsed time (see [`FrameLoop::tick`](super::FrameLoop::tick)).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Steps(Vec<(u32, u32)>);
    /// impl Game for Steps {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0.push((frame.steps_run(), frame.steps()));
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Steps(Vec::new()));
    /// game.tick([], game.step() * 3);
    /// assert_eq!(game.world().0, [(0, 3), (1, 3), (2, 3)]);
    /// ```
    pub fn steps(&self) -> u32 {
        self.steps
    }

    /// The fixed update steps of this tick that have finished.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// struct Done(u32);
    /// impl Game for Done {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0 = frame.steps_run();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Done(0));
    /// game.tick([], game.step() * 2);
    /// assert_eq!(game.world().0, 2);
    /// ```
    pub fn steps_run(&self) -> u32 {
        self.steps_run
    }

    /// Adds an action, allocated in the frame arena. It is applied to the
    /// world at the end of the phase that pushed it, in push order:
    ///
    /// * from [`Game::actions`](super::Game::actions): after every event of
    ///   the tick has been mapped, before the first update step;
    /// * from [`Game::update`](super::Game::update): right after that step,
    ///   so the next step sees its effect;
    /// * from [`Game::end_frame`](super::Game::end_frame): right after it,
    ///   before the frame is presented;
    /// * from [`Action::apply`]: right after the batch it belongs to.
    ///
    /// An action is dropped once its batch has been applied.
    ///
    /// # Panics
    ///
    /// If the arena cannot serve the action.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// struct Doubles(u32);
    /// struct Double;
    /// impl Action<Doubles> for Double {
    ///     fn apply(&mut self, world: &mut Doubles, _: &mut Frame<'_, Doubles>) {
    ///         world.0 *= 2;
    ///     }
    /// }
    /// impl Game for Doubles {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
    ///         frame.push(Double);
    ///     }
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         frame.push(Double); // applies after this step
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Doubles(1));
    /// assert_eq!(game.tick([(), (), ()], game.step()).actions, 4);
    /// assert_eq!(game.world().0, 16);
    /// ```
    #[track_caller]
    pub fn push(&mut self, action: impl Action<G> + 'f) {
        self.push_in(Plain(action));
    }

    /// Adds a [`FrameAction`]: an action whose `apply` gets this frame with
    /// its lifetime `'f`, so it can hand its frame data on (to
    /// [`Frame::scratch`], to the actions it pushes). Applied as
    /// [`push`](Self::push) says, in one order with the other actions.
    ///
    /// # Panics
    ///
    /// If the arena cannot serve the action.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameAction, FrameLoop, Game};
    /// use tickarena::FrameVec;
    ///
    /// struct Grid { hits: usize }
    /// struct Hit<'f>(&'f [u32]);
    /// impl<'f> FrameAction<'f, Grid> for Hit<'f> {
    ///     fn apply(&mut self, _: &mut Grid, frame: &mut Frame<'f, Grid>) {
    ///         frame.scratch().extend_from_slice(self.0);
    ///     }
    /// }
    /// impl Game for Grid {
    ///     type Event = u32;
    ///     type Scratch<'f> = FrameVec<'f, u32>;
    ///     fn actions<'f>(&mut self, cell: u32, frame: &mut Frame<'f, Self>) {
    ///         let cells = frame.arena().alloc_slice_copy(&[cell, cell + 1]);
    ///         frame.push_in(Hit(cells));
    ///     }
    ///     fn update<'f>(&mut self, _: &mut Frame<'f, Self>, hit: &mut FrameVec<'f, u32>) {
    ///         self.hits = hit.len();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Grid { hits: 0 });
    /// let record = game.tick([1, 5], game.step());
    /// assert_eq!((game.world().hits, record.actions), (4, 2));
    /// ```
    #[track_caller]
    pub fn push_in(&mut self, action: impl FrameAction<'f, G> + 'f) {
        // `&mut A` to `&mut dyn FrameAction` is the one unsizing coercion
        // stable Rust has for a pointer of our own.
        let placed = match self.arena.try_place(action, |action| {
            action as &mut (dyn FrameAction<'f, G> + 'f)
        }) {
            Ok(placed) => placed,
            Err(_) => panic!(
                "tickarena: the frame arena cannot hold another action ({} bytes used); \
                 raise FrameArena::builder().reserve(bytes)",
                self.arena.used()
            ),
        };
        self.pending.push(placed);
    }

    /// Actions pushed and not applied yet: 0 once their phase is over.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// struct Nop;
    /// impl Action<Counted> for Nop {
    ///     fn apply(&mut self, _: &mut Counted, _: &mut Frame<'_, Counted>) {}
    /// }
    /// #[derive(Default)]
    /// struct Counted { pending: Vec<usize>, applied: usize }
    /// impl Game for Counted {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
    ///         frame.push(Nop);
    ///         self.pending.push(frame.pending_actions());
    ///     }
    ///     fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.pending.push(frame.pending_actions());
    ///         self.applied = frame.actions_applied();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Counted::default());
    /// game.tick([(), ()], game.step());
    /// assert_eq!(game.world().pending, [1, 2, 0]);
    /// assert_eq!(game.world().applied, 2);
    /// ```
    pub fn pending_actions(&self) -> usize {
        self.pending.len()
    }

    /// Actions applied so far this tick.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// struct Nop;
    /// impl Action<Applied> for Nop {
    ///     fn apply(&mut self, _: &mut Applied, _: &mut Frame<'_, Applied>) {}
    /// }
    /// struct Applied(usize);
    /// impl Game for Applied {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
    ///         frame.push(Nop);
    ///     }
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
    ///         self.0 = frame.actions_applied();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Applied(0));
    /// game.tick([(), ()], game.step());
    /// assert_eq!(game.world().0, 2, "the events' actions apply before the first step");
    /// ```
    pub fn actions_applied(&self) -> usize {
        self.applied
    }

    /// Applies the pending actions in order, and then the actions they
    /// pushed, until none is left; each batch is dropped once applied.
    pub(super) fn apply_pending(&mut self, world: &mut G) {
        while !self.pending.is_empty() {
            // Take the batch out, so that an action may push onto the frame
            // while the batch is being applied.
            let mut batch = mem::replace(&mut self.pending, SegmentedList::new_in(self.arena));
            // Segment by segment: a plain slice loop per segment, which
            // the element iterator's per-item segment check would cost.
            for segment in batch.segments_mut() {
                for action in segment {
                    action.apply(world, self);
                    self.applied += 1;
                }
            }
        }
    }

    /// Counts one mapped event.
    #[inline]
    pub(super) fn count_event(&mut self) {
        self.events += 1;
    }

    /// Moves simulated time on by one finished step.
    pub(super) fn finish_step(&mut self) {
        self.time += self.step;
        self.steps_run += 1;
    }
}

impl<'f, G: Game + 'f> Frame<'f, G> {
    /// The tick's [`Game::Scratch`], for the phases that do not get it as a
    /// parameter: [`Game::actions`], [`Receive::receive`](super::Receive),
    /// and the actions ([`FrameAction`] and [`Action`]) of every phase. It
    /// is made at the start of the tick, before the first event, so what
    /// the events and their actions put there reaches the update steps,
    /// `end_frame` and `present`.
    ///
    /// # Panics
    ///
    /// Inside [`Game::update`], [`Game::end_frame`] and `present`, which
    /// hold the scratch as their `scratch` parameter: use that (or
    /// [`try_scratch`](Self::try_scratch), which says `None` there).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// use tickarena::FrameVec;
    ///
    /// struct Keys(usize);
    /// impl Game for Keys {
    ///     type Event = char;
    ///     type Scratch<'f> = FrameVec<'f, char>;
    ///     fn actions<'f>(&mut self, key: char, frame: &mut Frame<'f, Self>) {
    ///         frame.scratch().push(key); // straight from the event to the update
    ///     }
    ///     fn update<'f>(&mut self, _: &mut Frame<'f, Self>, keys: &mut FrameVec<'f, char>) {
    ///         self.0 = keys.len();
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Keys(0));
    /// game.tick(['w', 'a'], game.step());
    /// assert_eq!(game.world().0, 2);
    /// ```
    #[track_caller]
    pub fn scratch(&mut self) -> &mut G::Scratch<'f> {
        match self.try_scratch() {
            Some(scratch) => scratch,
            None => panic!(
                "tickarena: Frame::scratch inside update, end_frame or present: \
                 the scratch is that phase's `scratch` parameter"
            ),
        }
    }

    /// The tick's scratch as [`scratch`](Self::scratch) gives it, or `None`
    /// inside [`Game::update`], [`Game::end_frame`] and `present`, which
    /// hold it as their parameter.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    ///
    /// struct Where(Vec<bool>);
    /// impl Game for Where {
    ///     type Event = ();
    ///     type Scratch<'f> = Option<u8>;
    ///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
    ///         self.0.push(frame.try_scratch().is_some());
    ///     }
    ///     fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut Option<u8>) {
    ///         self.0.push(frame.try_scratch().is_some());
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Where(Vec::new()));
    /// game.tick([()], game.step());
    /// assert_eq!(game.world().0, [true, false]);
    /// ```
    pub fn try_scratch(&mut self) -> Option<&mut G::Scratch<'f>> {
        self.scratch.as_mut().map(|slot| slot.get())
    }

    /// Makes the tick's scratch in the arena, where the frame keeps it.
    pub(super) fn make_scratch(&mut self) {
        let scratch = Slot::<G>::from_arena(self.arena);
        match self
            .arena
            .try_place(scratch, |slot| slot as &mut (dyn ScratchSlot<'f, G> + 'f))
        {
            Ok(placed) => self.scratch = Some(placed),
            Err(_) => panic!(
                "tickarena: the frame arena cannot hold the tick's scratch ({} bytes used); \
                 raise FrameArena::builder().reserve(bytes)",
                self.arena.used()
            ),
        }
    }

    /// Lends the scratch to `phase` (update, end_frame, present), taken out
    /// of the frame meanwhile; back in the frame afterwards, for the
    /// actions the phase pushed. (If `phase` unwinds, the scratch drops
    /// with it.)
    pub(super) fn with_scratch<R>(
        &mut self,
        phase: impl FnOnce(&mut Self, &mut G::Scratch<'f>) -> R,
    ) -> R {
        let mut scratch = self
            .scratch
            .take()
            .expect("tickarena: the scratch is made at the start of the tick");
        let result = phase(self, scratch.get());
        self.scratch = Some(scratch);
        result
    }
}
