//! Budgets: what happens when a frame ends with a tag over its budget.
//! A budget tells; it never refuses an allocation (the reservation does).

use core::fmt;

use super::tags::{Tag, TagBytes};

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
    /// The arena's frame number (its resets before this one).
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
    /// arena, the first breach's, with the count of breaches since the
    /// last line. The default, every 300 frames (5 s at 60 Hz). Without
    /// the `std` feature, counted only.
    Log {
        /// Frames between two lines at least.
        every_frames: u32,
    },
    /// The game's function, called for every breach at the frame's end.
    Hook(fn(&Breach)),
    /// A panic at the frame's end (the arena already reset), with the
    /// breach: for tests and debug builds. A frame reset while a panic
    /// unwinds counts its breach without a second panic.
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
    /// Breaches since the last log line, and the frame of that line.
    unlogged: u64,
    last_line: Option<u64>,
    /// Lines logged (for the tests of the window).
    #[cfg(test)]
    lines: u64,
}

impl Budgets {
    /// Handles the breaches of a frame that ended with `table`, its peak
    /// `peak`.
    pub(crate) fn check(
        &mut self,
        arena: Option<&'static str>,
        frame: u64,
        table: &TagBytes,
        peak: usize,
    ) {
        let whole_frame = self
            .frame_budget
            .filter(|&budget| peak > budget)
            .map(|budget| (Tag::WHOLE_FRAME, peak, budget));
        for (tag, bytes, budget) in table.over_budget().chain(whole_frame) {
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
                BudgetPolicy::Log { every_frames } => {
                    let due = self
                        .last_line
                        .is_none_or(|line| frame >= line + u64::from(every_frames));
                    if due {
                        log(&breach, self.unlogged);
                        #[cfg(test)]
                        {
                            self.lines += 1;
                        }
                        self.unlogged = 0;
                        self.last_line = Some(frame);
                    } else {
                        self.unlogged += 1;
                    }
                }
                BudgetPolicy::Hook(hook) => hook(&breach),
                BudgetPolicy::Panic => panic_unless_unwinding(&breach),
            }
        }
    }
}

/// Panics with the breach, unless the thread is already unwinding (a
/// frame reset while a panic unwinds through the game): a second panic
/// would abort the process, so that breach is only counted.
fn panic_unless_unwinding(breach: &Breach) {
    #[cfg(feature = "std")]
    if std::thread::panicking() {
        return;
    }
    panic!("{breach}");
}

#[cfg(feature = "std")]
fn log(breach: &Breach, unlogged: u64) {
    if unlogged == 0 {
        std::eprintln!("{breach}");
    } else {
        std::eprintln!("{breach} (and {unlogged} more breaches since the last line)");
    }
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
            budgets.check(None, frame, &table, 0);
        }
        // Lines at frames 0, 10 and 20; 4 breaches wait for the next one.
        assert_eq!(
            (budgets.breaches, budgets.lines, budgets.unlogged),
            (25, 3, 4)
        );
    }
}
