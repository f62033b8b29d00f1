//! [`FixedTimestep`]: turns wall-clock time into a whole number of fixed
//! simulation steps, with a cap so a stall cannot make the game spiral.

use std::time::Duration;

/// An accumulator of elapsed time, paid out in fixed steps.
///
/// Each tick adds the wall-clock time since the last one and runs as many
/// whole steps as have accumulated, at most `max_steps`; time beyond the cap
/// is dropped (the game slows down instead of falling further behind).
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use tickarena::frame_loop::FixedTimestep;
///
/// let mut timestep = FixedTimestep::new(Duration::from_millis(10), 4);
/// assert_eq!(timestep.advance(Duration::from_millis(25)), 2);
/// assert_eq!(timestep.advance(Duration::from_millis(5)), 1); // 5 left over + 5
/// assert_eq!(timestep.advance(Duration::from_secs(3)), 4); // a stall: capped
/// assert_eq!(timestep.advance(Duration::ZERO), 0); // and not paid back later
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FixedTimestep {
    step: Duration,
    max_steps: u32,
    accumulated: Duration,
    /// Exactly one step per tick, whatever the elapsed time.
    one_per_tick: bool,
}

impl FixedTimestep {
    /// Steps of `step`, at most `max_steps` per tick.
    ///
    /// # Panics
    ///
    /// If `step` is zero or `max_steps` is zero.
    ///
    /// # Example
    ///
    /// ```
    /// let timestep = tickarena::frame_loop::FixedTimestep::new(std::time::Duration::from_millis(5), 8);
    /// assert_eq!(timestep.max_steps(), 8);
    /// ```
    #[track_caller]
    pub fn new(step: Duration, max_steps: u32) -> Self {
        assert!(
            !step.is_zero(),
            "FixedTimestep: the step must be longer than zero"
        );
        assert!(max_steps > 0, "FixedTimestep: max_steps must be at least 1");
        FixedTimestep {
            step,
            max_steps,
            accumulated: Duration::ZERO,
            one_per_tick: false,
        }
    }

    /// Exactly one step of `step` per tick, whatever time the tick is
    /// given: what a server that ticks at a fixed rate runs (its timer, not
    /// the simulation, decides when a tick happens), and a lockstep or
    /// replayed game. The elapsed time passed to a tick is then ignored,
    /// [`max_steps`](Self::max_steps) is 1 and [`alpha`](Self::alpha) 0.
    ///
    /// # Panics
    ///
    /// If `step` is zero.
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    /// use tickarena::frame_loop::FixedTimestep;
    ///
    /// let mut timestep = FixedTimestep::one_per_tick(Duration::from_millis(50));
    /// assert_eq!(timestep.advance(Duration::ZERO), 1);
    /// assert_eq!(timestep.advance(Duration::from_secs(3)), 1, "a stall is not caught up");
    /// assert_eq!(timestep.advance(Duration::from_millis(1)), 1);
    /// assert!(timestep.is_one_per_tick());
    /// ```
    #[track_caller]
    pub fn one_per_tick(step: Duration) -> Self {
        FixedTimestep {
            one_per_tick: true,
            ..FixedTimestep::new(step, 1)
        }
    }

    /// Whether every tick runs exactly one step
    /// ([`one_per_tick`](Self::one_per_tick)).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::FixedTimestep;
    /// assert!(!FixedTimestep::default().is_one_per_tick());
    /// ```
    pub fn is_one_per_tick(&self) -> bool {
        self.one_per_tick
    }

    /// Adds `elapsed` and returns how many steps to run now (always 1 for
    /// [`one_per_tick`](Self::one_per_tick)).
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// let mut timestep = tickarena::frame_loop::FixedTimestep::new(Duration::from_millis(10), 5);
    /// assert_eq!(timestep.advance(Duration::from_millis(9)), 0);
    /// assert_eq!(timestep.advance(Duration::from_millis(1)), 1);
    /// ```
    pub fn advance(&mut self, elapsed: Duration) -> u32 {
        if self.one_per_tick {
            return 1;
        }
        self.accumulated = self.accumulated.saturating_add(elapsed);
        let due = self.accumulated.as_nanos() / self.step.as_nanos();
        let steps = due.min(u128::from(self.max_steps)) as u32;
        self.accumulated -= self.step * steps;
        if steps == self.max_steps {
            // Behind by more than the cap allows: forget the backlog, keep
            // only the fraction of a step, so the next tick is not behind too.
            self.accumulated =
                Duration::from_nanos((self.accumulated.as_nanos() % self.step.as_nanos()) as u64);
        }
        steps
    }

    /// Forgets the fraction of a step carried over (a rolled-back loop
    /// starts its tick on a whole step).
    pub(crate) fn drop_pending(&mut self) {
        self.accumulated = Duration::ZERO;
    }

    /// The step length.
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// let timestep = tickarena::frame_loop::FixedTimestep::new(Duration::from_millis(4), 2);
    /// assert_eq!(timestep.step(), Duration::from_millis(4));
    /// ```
    pub fn step(&self) -> Duration {
        self.step
    }

    /// The most steps one tick runs.
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// let timestep = tickarena::frame_loop::FixedTimestep::new(Duration::from_millis(4), 2);
    /// assert_eq!(timestep.max_steps(), 2);
    /// ```
    pub fn max_steps(&self) -> u32 {
        self.max_steps
    }

    /// How far into the next step the accumulated time is, from 0 to 1:
    /// the weight for interpolating between the last two states when drawing.
    ///
    /// # Example
    ///
    /// ```
    /// # use std::time::Duration;
    /// let mut timestep = tickarena::frame_loop::FixedTimestep::new(Duration::from_millis(10), 5);
    /// timestep.advance(Duration::from_millis(15));
    /// assert!((timestep.alpha() - 0.5).abs() < 1e-6);
    /// ```
    pub fn alpha(&self) -> f32 {
        self.accumulated.as_secs_f32() / self.step.as_secs_f32()
    }
}

impl Default for FixedTimestep {
    /// 60 steps a second, at most 5 per tick.
    fn default() -> Self {
        FixedTimestep::new(Duration::from_secs(1) / 60, 5)
    }
}
