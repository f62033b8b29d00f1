//! [`Frame`]: what the code of one tick gets: the arena, the tick number,
//! the step length, the simulated time, and the tick's list of actions.

use std::time::Duration;

use crate::arena::{FrameArena, Placed};
use crate::segmented::SegmentedList;
use crate::threads::ThreadArenas;

/// Something that changes the world, made from an input event and applied
/// once, in order, later in the same tick. Allocated in the frame arena, so
/// it may hold `format_in!` strings and arena vectors that live as long as
/// the frame.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::Action;
///
/// struct Rename<'f>(tickarena::String<&'f tickarena::FrameArena>);
///
/// impl Action<std::string::String> for Rename<'_> {
///     fn apply(&mut self, world: &mut std::string::String) {
///         world.clear();
///         world.push_str(&self.0);
///     }
/// }
///
/// let arena = tickarena::FrameArena::new();
/// let mut world = std::string::String::new();
/// Rename(tickarena::format_in!(&arena, "player {}", 2)).apply(&mut world);
/// assert_eq!(world, "player 2");
/// ```
pub trait Action<W> {
    /// Applies the action to the world.
    fn apply(&mut self, world: &mut W);
}

/// The actions of a frame: placed in the frame arena (dropped with the
/// list, their memory reclaimed with the frame), listed in a
/// `SegmentedList` whose segments also come from the arena.
type ActionList<'f, G> = SegmentedList<Placed<'f, dyn Action<G> + 'f>, &'f FrameArena>;

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
///     fn apply(&mut self, world: &mut Journal) {
///         world.0.push(self.0.as_str().to_owned()); // a copy may outlive the frame
///     }
/// }
///
/// impl Game for Journal {
///     type Event = u32;
///     fn actions<'f>(&self, key: u32, frame: &mut Frame<'f, Self>) {
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
    actions: ActionList<'f, G>,
}

impl<'f, G> Frame<'f, G> {
    pub(super) fn new(
        arena: &'f FrameArena,
        threads: &'f ThreadArenas,
        tick: u64,
        step: Duration,
        time: Duration,
    ) -> Self {
        Frame {
            arena,
            threads,
            tick,
            step,
            time,
            actions: SegmentedList::new_in(arena),
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
    ///     fn actions<'f>(&self, n: u8, frame: &mut Frame<'f, Self>) {
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
    ///     fn actions<'f>(&self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn update(&mut self, frame: &Frame<'_, Self>) {
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
    ///     fn actions<'f>(&self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn end_frame(&mut self, frame: &Frame<'_, Self>) {
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
    ///     fn actions<'f>(&self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn update(&mut self, frame: &Frame<'_, Self>) {
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
    ///     fn actions<'f>(&self, _: (), _: &mut Frame<'f, Self>) {}
    ///     fn end_frame(&mut self, frame: &Frame<'_, Self>) {
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

    /// Adds an action, allocated in the frame arena, to be applied to the
    /// world after every event of the tick has been mapped.
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
    ///     fn apply(&mut self, world: &mut Doubles) {
    ///         world.0 *= 2;
    ///     }
    /// }
    /// impl Game for Doubles {
    ///     type Event = ();
    ///     fn actions<'f>(&self, _: (), frame: &mut Frame<'f, Self>) {
    ///         frame.push(Double);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Doubles(1));
    /// assert_eq!(game.tick([(), (), ()], game.step()).actions, 3);
    /// assert_eq!(game.world().0, 8);
    /// ```
    #[track_caller]
    pub fn push(&mut self, action: impl Action<G> + 'f) {
        let placed = match self.arena.try_place(action) {
            Ok(placed) => placed,
            Err(_) => panic!(
                "tickarena: the frame arena cannot hold another action ({} bytes used); \
                 raise FrameArena::builder().reserve(bytes)",
                self.arena.used()
            ),
        };
        self.actions.push(placed);
    }

    /// Actions pushed so far this tick.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
    /// struct Nop;
    /// impl Action<Counted> for Nop {
    ///     fn apply(&mut self, _: &mut Counted) {}
    /// }
    /// struct Counted(usize);
    /// impl Game for Counted {
    ///     type Event = ();
    ///     fn actions<'f>(&self, _: (), frame: &mut Frame<'f, Self>) {
    ///         frame.push(Nop);
    ///         assert!(frame.pending_actions() >= 1);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Counted(0));
    /// game.tick([()], game.step());
    /// ```
    pub fn pending_actions(&self) -> usize {
        self.actions.len()
    }

    /// Applies the actions in order and returns how many there were.
    pub(super) fn apply_actions(&mut self, world: &mut G) -> usize {
        self.actions
            .iter_mut()
            .for_each(|action| action.apply(world));
        self.actions.len()
    }

    /// Moves simulated time on by one step.
    pub(super) fn advance(&mut self, step: Duration) {
        self.time += step;
    }
}
