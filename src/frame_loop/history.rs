//! [`FrameHistory`]: the figures of the last frames, in a ring allocated
//! once, for overlays, logs and tests.

use std::time::Duration;

/// What one tick did and cost.
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
/// let record = game.tick([(), ()], game.step());
/// assert_eq!((record.events, record.actions, record.arena_bytes), (2, 0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameRecord {
    /// The tick number, from 0.
    pub tick: u64,
    /// Input events handled.
    pub events: usize,
    /// Actions applied.
    pub actions: usize,
    /// Fixed update steps run.
    pub steps: u32,
    /// The most bytes the frame had in the arena at once (alignment padding
    /// included; see [`FrameArena::peak`](crate::FrameArena::peak)), plus
    /// the peaks of the worker threads' arenas
    /// ([`Frame::threads`](super::Frame::threads)).
    pub arena_bytes: usize,
    /// The frame's bytes per [`Tag`](crate::Tag), held at its end and at
    /// their peak, its arena's and its workers' summed, each tag's budget
    /// with them: taken as the frame ends, before the game's scratch is
    /// dropped. Its [`over_budget`](crate::TagBytes::over_budget) lists
    /// the tags the arena or the workers counted over their own budgets.
    pub tags: crate::TagBytes,
    /// Wall-clock time the tick took.
    pub tick_time: Duration,
    /// The allocations the loop's arena refused this frame, and the bytes
    /// they asked for, per tag (the workers' arenas are not counted). A
    /// frame with refusals has its `arena_bytes` cut at the reservation:
    /// it asked for at least `arena_bytes + refusals.bytes()`.
    pub refusals: crate::Refusals,
    /// The whole-frame budget of the loop's arena
    /// ([`FrameArena::frame_budget`](crate::FrameArena::frame_budget)) as
    /// the frame ended.
    pub frame_budget: Option<usize>,
    /// Whether the frame breached that budget ([`Tag::WHOLE_FRAME`](crate::Tag::WHOLE_FRAME)),
    /// as the arena's [`BudgetPolicy`](crate::BudgetPolicy) counts it: the
    /// loop's arena's own peak over the budget (its workers' arenas, which
    /// are in `arena_bytes`, have budgets of their own).
    pub over_frame_budget: bool,
}

/// The records of the last `capacity` frames, oldest first, and the most
/// arena bytes any frame used. Allocated once: recording makes no
/// allocation.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{FrameHistory, FrameRecord};
///
/// let mut history = FrameHistory::with_capacity(2);
/// for tick in 0..3 {
///     history.push(FrameRecord { tick, arena_bytes: 100 * tick as usize, ..Default::default() });
/// }
/// let ticks: Vec<u64> = history.iter().map(|r| r.tick).collect();
/// assert_eq!(ticks, [1, 2]);
/// assert_eq!(history.high_water(), 200);
/// ```
#[derive(Clone, Debug)]
pub struct FrameHistory {
    records: Box<[FrameRecord]>,
    /// Where the next record goes.
    next: usize,
    len: usize,
    high_water: usize,
}

impl FrameHistory {
    /// An empty history that keeps the last `capacity` records (at least one).
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(60);
    /// assert_eq!((history.len(), history.capacity()), (0, 60));
    /// ```
    pub fn with_capacity(capacity: usize) -> Self {
        FrameHistory {
            records: vec![FrameRecord::default(); capacity.max(1)].into_boxed_slice(),
            next: 0,
            len: 0,
            high_water: 0,
        }
    }

    /// Records a frame, forgetting the oldest when full.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(4);
    /// history.push(FrameRecord { arena_bytes: 64, ..Default::default() });
    /// assert_eq!(history.latest().unwrap().arena_bytes, 64);
    /// ```
    pub fn push(&mut self, record: FrameRecord) {
        self.records[self.next] = record;
        self.next = (self.next + 1) % self.records.len();
        self.len = (self.len + 1).min(self.records.len());
        self.high_water = self.high_water.max(record.arena_bytes);
    }

    /// Records kept (at most the capacity).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord::default());
    /// history.push(FrameRecord::default());
    /// assert_eq!(history.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no frame was recorded yet.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::frame_loop::FrameHistory::with_capacity(8).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Records the history keeps.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::frame_loop::FrameHistory::with_capacity(0).capacity(), 1);
    /// ```
    pub fn capacity(&self) -> usize {
        self.records.len()
    }

    /// The most arena bytes any recorded frame used, including frames
    /// already forgotten.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { arena_bytes: 900, ..Default::default() });
    /// history.push(FrameRecord { arena_bytes: 10, ..Default::default() });
    /// assert_eq!(history.high_water(), 900);
    /// ```
    pub fn high_water(&self) -> usize {
        self.high_water
    }

    /// The most recent record.
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(3);
    /// assert!(history.latest().is_none());
    /// ```
    pub fn latest(&self) -> Option<&FrameRecord> {
        self.iter().next_back()
    }

    /// The records, oldest first.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(3);
    /// (0..5).for_each(|tick| history.push(FrameRecord { tick, ..Default::default() }));
    /// assert!(history.iter().map(|r| r.tick).eq(2..5));
    /// ```
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &FrameRecord> {
        // Until the ring is full the records are its first `len` slots;
        // after, the oldest is the one about to be overwritten.
        let (older, newer) = if self.len < self.records.len() {
            (&self.records[..self.len], &self.records[..0])
        } else {
            (&self.records[self.next..], &self.records[..self.next])
        };
        older.iter().chain(newer)
    }
}
