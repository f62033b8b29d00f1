//! [`FrameHistory`]: the figures of the last frames, in a ring allocated
//! once, for overlays, logs and tests.

use std::time::Duration;

use crate::Refusals;

/// What a frame asked of the arena: its peak, plus the bytes it was
/// refused (its peak stops at the reservation).
pub(super) fn asked(record: &FrameRecord) -> usize {
    record.arena_bytes.saturating_add(record.refusals.bytes())
}

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
    /// ([`Frame::threads`](super::Frame::threads)): `worker_bytes`.
    pub arena_bytes: usize,
    /// The workers' part of `arena_bytes`: their arenas' peaks summed
    /// ([`ThreadArenas::peak`](crate::ThreadArenas::peak)), what their
    /// whole-frame budget is on.
    pub worker_bytes: usize,
    /// The frame's bytes per [`Tag`](crate::Tag), held at its end and at
    /// their peak, its arena's and its workers' summed, each tag's budget
    /// with them: taken as the frame ends, before the game's scratch is
    /// dropped. Its [`over_budget`](crate::TagBytes::over_budget) lists
    /// the tags the arena or the workers counted over their own budgets.
    pub tags: crate::TagBytes,
    /// Wall-clock time the tick took.
    pub tick_time: Duration,
    /// The allocations the loop's arena and its workers' refused this
    /// frame, and the bytes they asked for, per tag (see
    /// [`Refusals`](crate::Refusals) for what a refusal's bytes are). A
    /// frame with refusals has its `arena_bytes` cut at the reservation:
    /// it needed more; had it kept what it was refused, at most
    /// `arena_bytes + refusals.bytes()` (see
    /// [`FrameArena::refusals`](crate::FrameArena::refusals)).
    pub refusals: crate::Refusals,
    /// The whole-frame budget of the loop's arena
    /// ([`FrameArena::frame_budget`](crate::FrameArena::frame_budget)) as
    /// the frame ended: on the arena's own peak, `arena_bytes -
    /// worker_bytes`.
    pub frame_budget: Option<usize>,
    /// The workers' whole-frame budget
    /// ([`ThreadArenas::frame_budget`](crate::ThreadArenas::frame_budget)):
    /// on their peaks summed, `worker_bytes`.
    pub worker_frame_budget: Option<usize>,
    /// Whether the frame breached a whole-frame budget
    /// ([`Tag::WHOLE_FRAME`](crate::Tag::WHOLE_FRAME)), as the budgets'
    /// [`BudgetPolicy`](crate::BudgetPolicy) counted it: the loop's arena
    /// its own (its peak over `frame_budget`), or the workers theirs
    /// (`worker_bytes` over `worker_frame_budget`).
    pub over_frame_budget: bool,
}

/// The records of the last `capacity` frames, oldest first, and over
/// every frame recorded (those forgotten too): the most arena bytes any
/// used, the most any asked, and the allocations refused. Allocated once:
/// recording makes no allocation.
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
    /// The most a frame asked: its peak plus what it was refused.
    asked_high_water: usize,
    /// Every frame's refusals, and the frames with any.
    refusals_ever: Refusals,
    refused_frames_ever: u64,
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
            asked_high_water: 0,
            refusals_ever: Refusals::default(),
            refused_frames_ever: 0,
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
        self.asked_high_water = self.asked_high_water.max(asked(&record));
        if !record.refusals.is_empty() {
            self.refusals_ever.add(&record.refusals);
            self.refused_frames_ever += 1;
        }
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

    /// The most any recorded frame asked of the arena, frames already
    /// forgotten included: its `arena_bytes` plus the bytes it was refused
    /// ([`FrameRecord::refusals`]). Above [`high_water`](Self::high_water)
    /// when a frame was cut at the reservation; what a
    /// [`SizingReport`](super::SizingReport) advises from when that frame
    /// has left the history.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// use tickarena::FrameArena;
    ///
    /// // A level load cut at a 64 KiB reservation, refused 1 MiB more.
    /// let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// arena.alloc([0u8; 60 << 10]);
    /// assert!(arena.try_alloc_slice_copy(&[0u8; 1 << 20]).is_err());
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { arena_bytes: arena.peak(), refusals: arena.refusals(), ..Default::default() });
    /// history.push(FrameRecord { arena_bytes: 10, ..Default::default() });
    /// assert_eq!(history.high_water(), 60 << 10);
    /// assert_eq!(history.asked_high_water(), (60 << 10) + (1 << 20));
    /// ```
    pub fn asked_high_water(&self) -> usize {
        self.asked_high_water
    }

    /// The allocations refused in every recorded frame, frames already
    /// forgotten included, per tag.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord};
    ///
    /// let arena = tickarena::FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// assert!(arena.try_alloc_slice_copy(&[0u8; 100 << 10]).is_err());
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { refusals: arena.refusals(), ..Default::default() });
    /// history.push(FrameRecord::default());
    /// assert!(history.iter().all(|record| record.refusals.is_empty()));
    /// assert_eq!(history.refusals_ever().bytes(), 100 << 10);
    /// assert_eq!(history.refused_frames_ever(), 1);
    /// ```
    pub fn refusals_ever(&self) -> Refusals {
        self.refusals_ever
    }

    /// Recorded frames in which an allocation was refused, frames already
    /// forgotten included.
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert_eq!(history.refused_frames_ever(), 0);
    /// ```
    pub fn refused_frames_ever(&self) -> u64 {
        self.refused_frames_ever
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
