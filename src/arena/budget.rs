//! Budgets: what happens when a tag's peak in a frame goes over its budget.
//! A budget tells; it never refuses an allocation (the reservation does).

use alloc::vec::Vec;
use core::fmt;

use super::tags::Tag;

/// A frame in which a tag held more than its budget at once.
///
/// # Example
///
/// ```
/// use tickarena::{Breach, Tag};
///
/// let breach = Breach { arena: Some("main"), tag: Tag::new("ai"), frame: 12, bytes: 100, budget: 64 };
/// assert_eq!(
///     breach.to_string(),
///     "tickarena: arena \"main\", frame 12: tag \"ai\" held 100 bytes at once, over its budget of 64",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breach {
    /// The arena's name ([`FrameArenaBuilder::name`](crate::FrameArenaBuilder::name)).
    pub arena: Option<&'static str>,
    /// The tag over its budget.
    pub tag: Tag,
    /// The arena's frame number: its resets before this one (a
    /// [`ThreadArenas`](crate::ThreadArenas)' for a budget on the set).
    /// In a [`FrameLoop`](crate::frame_loop::FrameLoop) it is the tick's
    /// number while every tick ran to its end and the loop was not
    /// rewound: a tick that panicked (the panic caught by the caller) is
    /// not counted as a tick but still resets the arenas, and
    /// [`rewind`](crate::frame_loop::FrameLoop::rewind) sets the ticks
    /// alone. The arena's frames only go forward, which the
    /// [`Log`](BudgetPolicy::Log) policy's windows count on.
    pub frame: u64,
    /// The most bytes the tag held at once this frame (its
    /// [`peak`](crate::TagBytes::peak)).
    pub bytes: usize,
    /// Its budget.
    pub budget: usize,
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tickarena: ")?;
        if let Some(name) = self.arena {
            write!(f, "arena {name:?}, ")?;
        }
        write!(
            f,
            "frame {}: tag {:?} held {} bytes at once, over its budget of {}",
            self.frame,
            self.tag.name(),
            self.bytes,
            self.budget
        )
    }
}

/// What an arena does with a [`Breach`]; set with
/// [`FrameArenaBuilder::budget_policy`](crate::FrameArenaBuilder::budget_policy).
/// Every policy counts breaches in
/// [`ArenaStats::over_budget`](crate::ArenaStats::over_budget).
///
/// # Example
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use tickarena::{Breach, BudgetPolicy, FrameArena, Tag};
///
/// static OVER: AtomicU64 = AtomicU64::new(0);
/// fn tell(breach: &Breach) {
///     OVER.fetch_add(breach.bytes as u64 - breach.budget as u64, Ordering::Relaxed);
/// }
/// const AI: Tag = Tag::new("ai");
/// let mut arena = FrameArena::builder()
///     .budget(AI, 64)
///     .budget_policy(BudgetPolicy::Hook(tell))
///     .build()
///     .unwrap();
/// {
///     let _ai = arena.tag(AI);
///     arena.alloc([0u8; 100]);
/// }
/// arena.reset();
/// assert_eq!(OVER.load(Ordering::Relaxed), 36);
/// ```
#[derive(Clone, Copy, Debug)]
pub enum BudgetPolicy {
    /// Counted, nothing else.
    Count,
    /// One line on stderr at most once every `every_frames` frames of the
    /// arena: the largest breach (the most bytes over its budget) since
    /// the last line, with how many there were. A breach with no line for
    /// `every_frames` frames gets one at once; those that come sooner are
    /// told at the end of the window, or when the arena (the
    /// [`ThreadArenas`](crate::ThreadArenas), the frame loop) is dropped
    /// before it ends: none goes untold at exit. The default, every 300
    /// frames (5 s at 60 Hz). Without the `std` feature, counted only.
    Log {
        /// Frames between two lines at least.
        every_frames: u32,
    },
    /// The game's function, called for every breach at the frame's end.
    Hook(fn(&Breach)),
    /// A panic at the frame's end, with every breach of the frame (one
    /// line each), once the arena is reset and ready for the next frame:
    /// for tests and debug builds. A [`ThreadArenas`](crate::ThreadArenas)
    /// panics once every thread's arena is reset, a frame loop once the
    /// tick is recorded and counted. A frame reset while a panic unwinds
    /// counts its breaches without a second panic.
    Panic,
}

impl Default for BudgetPolicy {
    fn default() -> BudgetPolicy {
        BudgetPolicy::Log { every_frames: 300 }
    }
}

/// An arena's policy and what it has counted.
#[derive(Debug, Default)]
pub(crate) struct Budgets {
    pub(crate) policy: BudgetPolicy,
    /// The whole frame's budget (`Tag::WHOLE_FRAME`).
    pub(crate) frame_budget: Option<usize>,
    pub(crate) breaches: u64,
    /// The arena's owner checks its budgets on a sum of several arenas
    /// (a `ThreadArenas`): the arena itself checks nothing.
    pub(crate) left_to_owner: bool,
    /// Breaches since the last log line, the largest of them, and the
    /// frame of that line.
    unlogged: u64,
    worst_unlogged: Option<Breach>,
    last_line: Option<u64>,
    /// Lines logged and the breach each last named (for the tests of the
    /// window).
    #[cfg(test)]
    lines: u64,
    #[cfg(test)]
    last_logged: Option<Breach>,
}

impl Budgets {
    #[cfg(feature = "std")] // for `ThreadArenas` and the frame loop
    pub(crate) fn new(policy: BudgetPolicy, frame_budget: Option<usize>) -> Budgets {
        Budgets {
            policy,
            frame_budget,
            ..Budgets::default()
        }
    }

    /// Handles the breaches of a frame that ended with the tags
    /// `over_budget` (`(tag, peak, budget)`, a table's
    /// [`over_budget`](crate::TagBytes::over_budget)), its peak `peak`: every one
    /// is counted, and handed to the policy. Those of
    /// [`BudgetPolicy::Panic`] come back, for the caller to panic with
    /// once everything it owns is ready for the next frame.
    #[must_use = "the breaches to panic with"]
    #[inline]
    pub(crate) fn check(
        &mut self,
        arena: Option<&'static str>,
        frame: u64,
        over_budget: impl Iterator<Item = (Tag, usize, usize)>,
        peak: usize,
    ) -> FrameBreaches {
        if self.left_to_owner {
            return FrameBreaches::default();
        }
        let whole_frame = self
            .frame_budget
            .filter(|&budget| peak > budget)
            .map(|budget| (Tag::WHOLE_FRAME, peak, budget));
        let mut breaches = over_budget.chain(whole_frame).peekable();
        // Most frames: no breach, and no line owed by an earlier one;
        // checked inline, where the caller's empty iterator costs nothing.
        if breaches.peek().is_none() && self.worst_unlogged.is_none() {
            return FrameBreaches::default();
        }
        self.handle(arena, frame, breaches)
    }

    /// [`check`](Self::check) for a frame with breaches, or a line owed.
    #[inline(never)]
    fn handle(
        &mut self,
        arena: Option<&'static str>,
        frame: u64,
        breaches: impl Iterator<Item = (Tag, usize, usize)>,
    ) -> FrameBreaches {
        let mut to_panic = FrameBreaches::default();
        for (tag, bytes, budget) in breaches {
            let breach = Breach {
                arena,
                tag,
                frame,
                bytes,
                budget,
            };
            self.breaches += 1;
            match self.policy {
                BudgetPolicy::Count => {}
                BudgetPolicy::Log { .. } => {
                    self.unlogged += 1;
                    if self
                        .worst_unlogged
                        .is_none_or(|worst| over(&breach) > over(&worst))
                    {
                        self.worst_unlogged = Some(breach);
                    }
                }
                BudgetPolicy::Hook(hook) => hook(&breach),
                BudgetPolicy::Panic => to_panic.push(breach),
            }
        }
        if let BudgetPolicy::Log { every_frames } = self.policy {
            self.log_if_due(frame, every_frames);
        }
        to_panic
    }

    /// One line for the window, when it is due: the largest breach since
    /// the last line, with how many there were. Checked at every frame's
    /// end, so a window's breaches are told at its end even when no
    /// breach follows.
    fn log_if_due(&mut self, frame: u64, every_frames: u32) {
        let due = self
            .last_line
            .is_none_or(|line| frame >= line + u64::from(every_frames));
        if due {
            self.log_pending(frame);
        }
    }

    /// The line of the breaches not told yet, if there are any, at `frame`.
    fn log_pending(&mut self, frame: u64) {
        let Some(worst) = self.worst_unlogged else {
            return;
        };
        log(&worst, self.unlogged - 1);
        #[cfg(test)]
        {
            self.lines += 1;
            self.last_logged = Some(worst);
        }
        self.unlogged = 0;
        self.worst_unlogged = None;
        self.last_line = Some(frame);
    }
}

/// The window's breaches not told yet are told when their holder (an
/// arena, a `ThreadArenas`, and so a frame loop) is dropped: a game that
/// exits in the middle of a window would otherwise never see them.
impl Drop for Budgets {
    fn drop(&mut self) {
        if let Some(worst) = self.worst_unlogged {
            self.log_pending(worst.frame);
        }
    }
}

/// How far a breach went over its budget: what "the largest" means.
fn over(breach: &Breach) -> usize {
    breach.bytes - breach.budget
}

/// The breaches of one frame that a [`BudgetPolicy::Panic`] is to panic
/// with (at most one per tag and the whole frame's for each budget
/// holder: an arena, a `ThreadArenas`, a frame loop's two), kept until
/// the frame's owner has reset everything. On the heap, and only under
/// that policy: a frame that has one is about to panic (or, reset while a
/// panic unwinds, only counts them).
#[derive(Clone, Default)]
pub(crate) struct FrameBreaches {
    breaches: Vec<Breach>,
}

impl FrameBreaches {
    fn push(&mut self, breach: Breach) {
        self.breaches.push(breach);
    }

    /// Adds `other`'s breaches after these (a frame loop's arena and its
    /// workers').
    #[cfg(feature = "std")] // for `ThreadArenas` and the frame loop
    pub(crate) fn append(&mut self, mut other: FrameBreaches) {
        self.breaches.append(&mut other.breaches);
    }

    fn iter(&self) -> impl Iterator<Item = &Breach> {
        self.breaches.iter()
    }

    /// Panics with every breach, if there is one, unless the thread is
    /// already unwinding (a frame reset while a panic unwinds through the
    /// game): a second panic would abort the process, so those breaches
    /// are only counted.
    pub(crate) fn panic_unless_unwinding(self) {
        if self.breaches.is_empty() {
            return;
        }
        #[cfg(feature = "std")]
        if std::thread::panicking() {
            return;
        }
        panic!("{self}");
    }
}

impl fmt::Display for FrameBreaches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, breach) in self.iter().enumerate() {
            if index > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{breach}")?;
        }
        Ok(())
    }
}

/// Writes the line to stderr. An error writing is ignored rather than
/// raised as `eprintln!` would: the line may be written from a drop while a
/// panic unwinds, where a second panic aborts the process.
#[cfg(feature = "std")]
fn log(breach: &Breach, unlogged: u64) {
    use std::io::Write;
    let mut stderr = std::io::stderr().lock();
    let _ = if unlogged == 0 {
        writeln!(stderr, "{breach}")
    } else {
        writeln!(
            stderr,
            "{breach} (the largest of {} breaches since the last line)",
            unlogged + 1
        )
    };
}

#[cfg(not(feature = "std"))]
fn log(_: &Breach, _: u64) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FrameArena;

    const AI: Tag = Tag::new("ai");

    #[test]
    fn the_log_policy_writes_one_line_per_window_and_counts_the_rest() {
        let arena = FrameArena::new();
        arena.set_budget(AI, 1);
        let _ai = arena.tag(AI);
        arena.alloc(0u16);
        let table = arena.tag_bytes();
        let mut budgets = Budgets {
            policy: BudgetPolicy::Log { every_frames: 10 },
            ..Budgets::default()
        };
        for frame in 0..25 {
            let _ = budgets.check(None, frame, table.over_budget(), 0);
        }
        // Lines at frames 0, 10 and 20; 4 breaches wait for the next one.
        assert_eq!(
            (budgets.breaches, budgets.lines, budgets.unlogged),
            (25, 3, 4)
        );
    }

    #[test]
    fn the_log_policy_names_the_largest_breach_of_its_window() {
        const LEVEL: Tag = Tag::new("level");
        let arena = FrameArena::new();
        arena.set_budget(AI, 1);
        arena.set_budget(LEVEL, 1);
        {
            let _ai = arena.tag(AI);
            arena.alloc(0u16);
        }
        let small = arena.tag_bytes();
        {
            let _level = arena.tag(LEVEL);
            arena.alloc([0u8; 1 << 16]); // a level load, far over its budget
        }
        let large = arena.tag_bytes();
        let mut budgets = Budgets {
            policy: BudgetPolicy::Log { every_frames: 10 },
            ..Budgets::default()
        };
        let _ = budgets.check(None, 0, small.over_budget(), 0); // the first: a line at once
        for frame in 1..10 {
            let table = if frame == 5 { &large } else { &small };
            let _ = budgets.check(None, frame, table.over_budget(), 0);
        }
        // Frame 10, with no breach of its own, ends the window: its line
        // names the level's breach of frame 5, the largest since the last
        // line, not the first.
        let _ = budgets.check(None, 10, core::iter::empty(), 0);
        let named = budgets.last_logged.unwrap();
        assert_eq!((named.tag, named.frame, named.bytes), (LEVEL, 5, 1 << 16));
        assert_eq!(budgets.lines, 2);
    }
}
