//! [`SizingReport`]: how large the arena must be, read from the frames a
//! [`FrameHistory`] holds, and their per-tag CSV (Unreal's LLM CSV: one row
//! per frame, one column per tag).

use std::fmt;
use std::io;

use super::history::{FrameHistory, FrameRecord, asked};
use crate::{Refusals, Tag};

/// Granularity of the suggested `retain`: what a frame arena commits at
/// a time is of this order, and a finer figure would promise a precision
/// the history does not have.
const RETAIN_STEP: usize = 64 << 10;

/// A frame over this many times the median frame is a burst: when more
/// than 1 % of the frames are, the 99th percentile is one, and the
/// suggested `retain` goes by the largest ordinary frame instead.
const BURST_RATIO: usize = 4;

/// The suggested reservation is the smallest power of two at least this
/// many times the largest frame seen (so 4× to 8× it).
const RESERVE_HEADROOM: usize = 4;

/// The smallest suggested reservation.
const MIN_RESERVE: usize = 1 << 20;

/// One tag's bytes per frame over the history (the most it held at once
/// in each frame, [`TagBytes::peak`](crate::TagBytes::peak), plus the
/// bytes of its allocations the arena refused that frame), from
/// [`SizingReport::tags`]. The last summaries may be those of
/// [`Tag::WHOLE_FRAME`], one per holder of a whole-frame budget
/// ([`FrameArenaBuilder::frame_budget`](crate::FrameArenaBuilder::frame_budget)):
/// the loop's arena's (its own peak each frame), then its workers' (their
/// peaks summed, [`workers`](Self::workers)). A whole-frame row's figures
/// are those its budget's policy compared, peaks as granted (what frames
/// were refused is not added), so with a budget that did not change over
/// the history its `max` is over the budget exactly when
/// `frames_over_budget` is not 0.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{Frame, FrameLoop, Game};
/// use tickarena::Tag;
///
/// const AI: Tag = Tag::new("ai");
/// struct Thinker;
/// impl Game for Thinker {
///     type Event = usize;
///     type Scratch<'f> = ();
///     fn actions<'f>(&mut self, bytes: usize, frame: &mut Frame<'f, Self>) {
///         let _ai = frame.arena().tag(AI);
///         // A scratch buffer, dropped before the frame ends.
///         drop(Vec::<u8, _>::with_capacity_in(bytes, frame.arena()));
///     }
/// }
/// let mut game = FrameLoop::new(Thinker);
/// game.arena().set_budget(AI, 150);
/// for bytes in [100, 200] {
///     game.tick([bytes], game.step());
/// }
/// let ai = game.history().report().tags()[0];
/// // The second frame ended with nothing held, but its peak was over.
/// assert_eq!((ai.tag, ai.max, ai.budget, ai.frames_over_budget), (AI, 200, Some(150), 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TagSummary {
    /// The tag.
    pub tag: Tag,
    /// Bytes in the median frame.
    pub p50: usize,
    /// Bytes at the 99th percentile of frames.
    pub p99: usize,
    /// Bytes in the tag's largest frame.
    pub max: usize,
    /// The tag's budget, as the latest frame had it.
    pub budget: Option<usize>,
    /// Frames in which the tag's peak, the most it held at once at any
    /// time in the frame (not what it held at the frame's end), went over
    /// the budget it had then, as the arena's budget policy counted them.
    pub frames_over_budget: usize,
    /// Allocations refused while the tag was current, over the history
    /// (a whole-frame row: those refused in the frames, the arena's and
    /// its workers').
    pub refused: u64,
    /// Whether this is the whole-frame row of a frame loop's workers
    /// ([`Frame::threads`](super::Frame::threads)), on their peaks summed
    /// and their budget; `false` for every other row.
    pub workers: bool,
}

/// The frame that asked the most of the arena, from
/// [`SizingReport::worst_frame`]: its tick, its bytes, and the tag that
/// held the most in it.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{FrameHistory, FrameRecord};
///
/// let mut history = FrameHistory::with_capacity(4);
/// for (tick, arena_bytes) in [(10, 100), (11, 900), (12, 300)] {
///     history.push(FrameRecord { tick, arena_bytes, ..Default::default() });
/// }
/// let worst = history.report().worst_frame().unwrap();
/// assert_eq!((worst.tick, worst.bytes, worst.tag), (11, 900, None));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorstFrame {
    /// Its tick ([`FrameRecord::tick`]).
    pub tick: u64,
    /// Its peak plus the bytes the arena refused it.
    pub bytes: usize,
    /// The tag that held the most in it (its peak plus what it was
    /// refused), and those bytes; `None` for an untagged history.
    pub tag: Option<(Tag, usize)>,
}

/// How large a frame arena must be, from the frames a history holds: a
/// histogram of per-frame peaks in power-of-two buckets, the worst frame
/// and its largest tag, p50/p99/max per tag, frames over budget per tag
/// (and over the whole-frame budget), the allocations the arena refused,
/// and the [`reserve`](crate::FrameArenaBuilder::reserve) and
/// [`retain`](crate::FrameArenaBuilder::retain) to choose, with the reason.
/// Its `Display` is the report a game prints at exit; its figures are also
/// there as data.
///
/// **A frame the arena refused allocations** (its
/// [`refusals`](FrameRecord::refusals)) had its peak cut at the
/// reservation: the report counts it as its peak plus the bytes it was
/// refused, what it asked for, so that the advice of a run on a too-small
/// arena is right the first time; and it remembers the most a frame asked
/// after that frame has left the history
/// ([`asked_high_water`](Self::asked_high_water)). What a frame asked is
/// what it would have needed had it kept every allocation it was refused
/// and they came at its peak, as a level load's assets do; a growth counts
/// only what it needed past the frame, once however often it was retried
/// (see [`Refusals`]). It is no bound of what the game needs: short for a
/// game that stops growing a collection at its first refusal (what it
/// would have asked next is unknown), over for one refused only after it
/// had freed what made its peak.
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{FrameHistory, FrameRecord};
///
/// let mut history = FrameHistory::with_capacity(100);
/// for tick in 0..100 {
///     let arena_bytes = if tick == 50 { 3 << 20 } else { 20 << 10 };
///     history.push(FrameRecord { tick, arena_bytes, ..Default::default() });
/// }
/// let report = history.report();
/// assert_eq!(report.histogram(), [(16 << 10, 99), (2 << 20, 1)]);
/// assert_eq!(report.suggested_retain(), 64 << 10); // the p99 frame, rounded up
/// // The smallest power of two at least 4× the largest frame (12 MiB).
/// assert_eq!(report.suggested_reserve(), 16 << 20);
/// assert_eq!((report.frame_p50(), report.frame_max()), (20 << 10, 3 << 20));
/// assert_eq!(report.worst_frame().unwrap().tick, 50);
/// println!("{report}");
/// ```
#[derive(Clone, Debug)]
pub struct SizingReport {
    frames: usize,
    ticks: Option<(u64, u64)>,
    histogram: Vec<(usize, usize)>,
    /// Each frame's peak plus what it was refused, smallest first.
    peaks: Vec<usize>,
    tags: Vec<TagSummary>,
    high_water: usize,
    worst: Option<WorstFrame>,
    refusals: Refusals,
    refused_frames: usize,
    /// The largest peak of a frame with refusals: about the reservation.
    cut_at: usize,
    /// Over every frame recorded, the forgotten ones too.
    asked_high_water: usize,
    refusals_ever: Refusals,
    refused_frames_ever: u64,
    /// Whether a frame had bytes in the workers' arenas.
    workers_seen: bool,
    /// Whether the frames are an upload arena's (`gpu::UploadArena`):
    /// then the advice names its settings, not the CPU arena's.
    uploads: bool,
}

impl FrameHistory {
    /// The sizing report of the frames this history holds (see
    /// [`SizingReport`]). Computed on call: it sorts and allocates, and
    /// belongs at exit or in a debug overlay, not in every frame.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(8);
    /// history.push(FrameRecord { arena_bytes: 1000, ..Default::default() });
    /// assert_eq!(history.report().histogram(), [(512, 1)]);
    /// ```
    pub fn report(&self) -> SizingReport {
        let mut peaks: Vec<usize> = self.iter().map(asked).collect();
        peaks.sort_unstable();
        // The peaks are sorted, so their buckets come in order.
        let mut histogram: Vec<(usize, usize)> = Vec::new();
        for &peak in &peaks {
            let low = bucket_of(peak);
            match histogram.last_mut() {
                Some((bucket, count)) if *bucket == low => *count += 1,
                _ => histogram.push((low, 1)),
            }
        }
        let tag_list = self.tags();
        let mut tags: Vec<TagSummary> = tag_list
            .iter()
            .map(|&tag| summarize(tag, self.iter()))
            .collect();
        for workers in [false, true] {
            if self
                .iter()
                .any(|record| whole_frame(record, workers).1.is_some())
            {
                tags.push(summarize_whole_frame(self.iter(), workers));
            }
        }
        let ticks = self
            .iter()
            .next()
            .zip(self.latest())
            .map(|(first, last)| (first.tick, last.tick));
        let mut refusals = Refusals::default();
        let (mut refused_frames, mut cut_at) = (0, 0);
        for record in self.iter().filter(|record| !record.refusals.is_empty()) {
            refusals.add(&record.refusals);
            refused_frames += 1;
            cut_at = cut_at.max(record.arena_bytes);
        }
        // The first of the largest.
        let worst = self
            .iter()
            .rev()
            .max_by_key(|record| asked(record))
            .map(|record| WorstFrame {
                tick: record.tick,
                bytes: asked(record),
                tag: tag_list
                    .iter()
                    .map(|&tag| (tag, tag_asked(record, tag)))
                    .rev()
                    .max_by_key(|&(_, bytes)| bytes),
            });
        SizingReport {
            frames: peaks.len(),
            ticks,
            histogram,
            peaks,
            tags,
            high_water: self.high_water(),
            worst,
            refusals,
            refused_frames,
            cut_at,
            asked_high_water: self.asked_high_water(),
            refusals_ever: self.refusals_ever(),
            refused_frames_ever: self.refused_frames_ever(),
            workers_seen: self.iter().any(|record| record.worker_bytes > 0),
            uploads: false,
        }
    }

    /// Writes one row per frame it holds, one column per tag (Unreal's LLM
    /// CSV): `tick,tick_us,arena_bytes,` then, when the arena refused
    /// allocations in any of the frames, `refused,refused_bytes,` (each
    /// frame's [`refusals`](FrameRecord::refusals): how many, the bytes
    /// they asked for), then the most bytes each tag held at once
    /// ([`TagBytes::peak`](crate::TagBytes::peak)), the tags in the order
    /// they were first met. Tags' names are quoted.
    ///
    /// # Errors
    ///
    /// Those of `out`.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(8);
    /// history.push(FrameRecord { tick: 7, arena_bytes: 1000, ..Default::default() });
    /// let mut csv = Vec::new();
    /// history.write_csv(&mut csv)?;
    /// assert_eq!(String::from_utf8(csv).unwrap(), "tick,tick_us,arena_bytes\n7,0,1000\n");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_csv(&self, mut out: impl io::Write) -> io::Result<()> {
        let tags = self.tags();
        let refused = self.iter().any(|record| !record.refusals.is_empty());
        write!(out, "tick,tick_us,arena_bytes")?;
        if refused {
            write!(out, ",refused,refused_bytes")?;
        }
        for tag in &tags {
            write!(out, ",\"{}\"", tag.name().replace('"', "\"\""))?;
        }
        writeln!(out)?;
        for record in self.iter() {
            write!(
                out,
                "{},{},{}",
                record.tick,
                record.tick_time.as_micros(),
                record.arena_bytes
            )?;
            if refused {
                let refusals = &record.refusals;
                write!(out, ",{},{}", refusals.count(), refusals.bytes())?;
            }
            for &tag in &tags {
                write!(out, ",{}", record.tags.peak(tag))?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// Every tag of the frames held, in the order they were first met,
    /// without [`Tag::UNTAGGED`] when no frame had untagged bytes and other
    /// tags are there.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::FrameHistory;
    /// assert!(FrameHistory::with_capacity(8).tags().is_empty());
    /// ```
    pub fn tags(&self) -> Vec<Tag> {
        let mut tags: Vec<Tag> = Vec::new();
        for record in self.iter() {
            for (tag, _) in record.tags.iter() {
                if !tags.contains(&tag) {
                    tags.push(tag);
                }
            }
        }
        let untagged_unused = self.iter().all(|record| {
            record.tags.peak(Tag::UNTAGGED) == 0 && record.refusals.count_of(Tag::UNTAGGED) == 0
        });
        if untagged_unused && tags.len() > 1 {
            tags.retain(|&tag| tag != Tag::UNTAGGED);
        }
        tags
    }
}

impl SizingReport {
    /// Frames in the report.
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert_eq!(history.report().frames(), 0);
    /// ```
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Frames per power-of-two bucket of their peak, `(low, frames)` for
    /// the bucket `[low, 2 × low)` (a peak of 0 is the bucket `(0, _)`),
    /// smallest first, empty buckets left out.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(8);
    /// for bytes in [0, 1, 3, 3, 4] {
    ///     history.push(FrameRecord { arena_bytes: bytes, ..Default::default() });
    /// }
    /// assert_eq!(history.report().histogram(), [(0, 1), (1, 1), (2, 2), (4, 1)]);
    /// ```
    pub fn histogram(&self) -> &[(usize, usize)] {
        &self.histogram
    }

    /// p50, p99 and max of each tag's bytes per frame, with its budget, the
    /// frames over it and the allocations it was refused; then a summary
    /// of [`Tag::WHOLE_FRAME`] for each holder of a whole-frame budget in
    /// the history: the loop's arena (each frame its own peak), then its
    /// workers ([`TagSummary::workers`]: their peaks summed), on the figures
    /// its policy compared (see [`TagSummary`]).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// use tickarena::Tag;
    ///
    /// const AI: Tag = Tag::new("ai");
    /// struct Thinker;
    /// impl Game for Thinker {
    ///     type Event = usize;
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, bytes: usize, frame: &mut Frame<'f, Self>) {
    ///         let _ai = frame.arena().tag(AI);
    ///         frame.arena().alloc_slice_fill_with(bytes, |_| 0u8);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Thinker);
    /// game.arena().set_budget(AI, 150);
    /// for bytes in [100, 100, 200] {
    ///     game.tick([bytes], game.step());
    /// }
    /// let ai = game.history().report().tags()[0];
    /// assert_eq!((ai.tag, ai.p50, ai.max, ai.frames_over_budget), (AI, 100, 200, 1));
    /// ```
    pub fn tags(&self) -> &[TagSummary] {
        &self.tags
    }

    /// The median frame's bytes: its peak, plus what the arena refused it.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord};
    ///
    /// let mut history = FrameHistory::with_capacity(100);
    /// for tick in 0..100 {
    ///     history.push(FrameRecord { tick, arena_bytes: 1000 + tick as usize, ..Default::default() });
    /// }
    /// let report = history.report();
    /// assert_eq!((report.frame_p50(), report.frame_p99(), report.frame_max()), (1049, 1098, 1099));
    /// ```
    pub fn frame_p50(&self) -> usize {
        percentiles(&self.peaks)[0]
    }

    /// The 99th percentile of the frames' bytes (each frame's peak, plus
    /// what the arena refused it): 99 % of the frames asked no more.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(200);
    /// for tick in 0..200 {
    ///     let arena_bytes = if tick % 70 == 0 { 1 << 20 } else { 1000 };
    ///     history.push(FrameRecord { tick, arena_bytes, ..Default::default() });
    /// }
    /// // 3 frames in 200 are bursts, more than 1 %: the 99th percentile is one.
    /// assert_eq!(history.report().frame_p99(), 1 << 20);
    /// ```
    pub fn frame_p99(&self) -> usize {
        percentiles(&self.peaks)[1]
    }

    /// The largest frame's bytes in the history: its peak, plus what the
    /// arena refused it (see [`worst_frame`](Self::worst_frame) for which,
    /// and [`asked_high_water`](Self::asked_high_water) for frames already
    /// forgotten).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// use tickarena::{FrameArena, Tag};
    ///
    /// // A frame cut at a 64 KiB reservation, refused 1 MiB more.
    /// let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// arena.alloc([0u8; 60 << 10]);
    /// assert!(arena.try_alloc_slice_copy(&[0u8; 1 << 20]).is_err());
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord {
    ///     arena_bytes: arena.peak(),
    ///     refusals: arena.refusals(),
    ///     ..Default::default()
    /// });
    /// assert_eq!(history.report().frame_max(), (60 << 10) + (1 << 20));
    /// ```
    pub fn frame_max(&self) -> usize {
        percentiles(&self.peaks)[2]
    }

    /// The most bytes any frame the history recorded used, those it has
    /// forgotten included ([`FrameHistory::high_water`]; refused bytes not
    /// included).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { arena_bytes: 900, ..Default::default() });
    /// history.push(FrameRecord { arena_bytes: 10, ..Default::default() });
    /// let report = history.report();
    /// assert_eq!((report.frame_max(), report.high_water()), (10, 900));
    /// ```
    pub fn high_water(&self) -> usize {
        self.high_water
    }

    /// The most any frame the history recorded asked of the arena, those
    /// it has forgotten included: its peak plus what it was refused
    /// ([`FrameHistory::asked_high_water`]). The advice is sized for it
    /// too, so a level load refused at the start still sizes the
    /// reservation after it has left the history.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord};
    ///
    /// let arena = tickarena::FrameArena::builder().reserve(1 << 20).build().unwrap();
    /// assert!(arena.try_alloc_slice_fill_with(16 << 20, |_| 0u8).is_err());
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { arena_bytes: arena.peak(), refusals: arena.refusals(), ..Default::default() });
    /// history.push(FrameRecord { arena_bytes: 1000, ..Default::default() });
    /// let report = history.report();
    /// assert_eq!((report.frame_max(), report.asked_high_water()), (1000, 16 << 20));
    /// assert_eq!(report.suggested_reserve(), 64 << 20);
    /// ```
    pub fn asked_high_water(&self) -> usize {
        self.asked_high_water
    }

    /// The allocations refused in every frame the history recorded, those
    /// it has forgotten included ([`FrameHistory::refusals_ever`]); see
    /// [`refusals`](Self::refusals) for the history's own.
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert!(history.report().refusals_ever().is_empty());
    /// ```
    pub fn refusals_ever(&self) -> Refusals {
        self.refusals_ever
    }

    /// Frames with a refused allocation among every frame the history
    /// recorded, those it has forgotten included
    /// ([`FrameHistory::refused_frames_ever`]).
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert_eq!(history.report().refused_frames_ever(), 0);
    /// ```
    pub fn refused_frames_ever(&self) -> u64 {
        self.refused_frames_ever
    }

    /// The frame that asked the most of the arena (the first of them, on a
    /// tie), and its largest tag; `None` for an empty history.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    /// use tickarena::Tag;
    ///
    /// const LEVEL: Tag = Tag::new("level");
    /// const UI: Tag = Tag::new("ui");
    /// struct Loader;
    /// impl Game for Loader {
    ///     type Event = usize;
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, level: usize, frame: &mut Frame<'f, Self>) {
    ///         let _ui = frame.arena().tag(UI);
    ///         frame.arena().alloc([0u8; 512]);
    ///         let _level = frame.arena().tag(LEVEL);
    ///         frame.arena().alloc_slice_fill_with(level, |_| 0u8);
    ///     }
    /// }
    /// let mut game = FrameLoop::new(Loader);
    /// for level in [0, 0, 4096, 0] {
    ///     game.tick([level], game.step());
    /// }
    /// let worst = game.history().report().worst_frame().unwrap();
    /// assert_eq!((worst.tick, worst.bytes, worst.tag), (2, 4608, Some((LEVEL, 4096))));
    /// ```
    pub fn worst_frame(&self) -> Option<WorstFrame> {
        self.worst
    }

    /// The allocations the arena refused over the history, and the bytes
    /// they asked for, per tag.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{Frame, FrameLoop, Game};
    ///
    /// struct Greedy;
    /// impl Game for Greedy {
    ///     type Event = ();
    ///     type Scratch<'f> = ();
    ///     fn actions<'f>(&mut self, _: (), frame: &mut Frame<'f, Self>) {
    ///         let _ = frame.arena().try_alloc_slice_copy(&[0u8; 2 << 20]);
    ///     }
    /// }
    /// let arena = tickarena::FrameArena::builder().reserve(1 << 20).build().unwrap();
    /// let mut game = FrameLoop::with_parts(Greedy, arena, Default::default(), 8);
    /// game.tick([(), ()], game.step());
    /// game.tick([], game.step());
    /// let report = game.history().report();
    /// assert_eq!((report.refusals().count(), report.refusals().bytes()), (2, 4 << 20));
    /// assert_eq!(report.refused_frames(), 1);
    /// assert!(report.to_string().contains("cut at the reservation"));
    /// ```
    pub fn refusals(&self) -> Refusals {
        self.refusals
    }

    /// Frames in which the arena refused an allocation.
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert_eq!(history.report().refused_frames(), 0);
    /// ```
    pub fn refused_frames(&self) -> usize {
        self.refused_frames
    }

    /// The [`retain`](crate::FrameArenaBuilder::retain) to choose: the 99th
    /// percentile of frame peaks (plus what those frames were refused),
    /// rounded up to 64 KiB. Those frames then
    /// run on pages kept between frames, with no page fault; the larger
    /// ones commit more, which stays while such frames recur (within
    /// [`release_after`](crate::FrameArenaBuilder::release_after) frames)
    /// and goes back once they stop.
    ///
    /// **When more than 1 % of the frames are bursts** (over 4× the median
    /// frame), the 99th percentile is a burst, and `retain` would keep a
    /// burst's pages for good, long after the bursts stop. Then it is the
    /// largest ordinary frame (at most 4× the median), rounded up to 64
    /// KiB: the bursts' pages stay while they recur anyway, and go back
    /// once they stop. The report says which it chose.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord};
    ///
    /// assert_eq!(FrameHistory::with_capacity(8).report().suggested_retain(), 64 << 10);
    /// // A 12 MiB level load every 60 frames over frames of 200 KiB.
    /// let mut history = FrameHistory::with_capacity(600);
    /// for tick in 0..600 {
    ///     let arena_bytes = if tick % 60 == 30 { 12 << 20 } else { 200 << 10 };
    ///     history.push(FrameRecord { tick, arena_bytes, ..Default::default() });
    /// }
    /// let report = history.report();
    /// assert_eq!(report.frame_p99(), 12 << 20); // 10 loads in 600 frames
    /// assert_eq!(report.suggested_retain(), 256 << 10); // 200 KiB, rounded up
    /// assert!(report.to_string().contains("the largest ordinary frame (200 KiB)"));
    /// ```
    pub fn suggested_retain(&self) -> usize {
        self.retain_basis()
            .bytes()
            .max(1)
            .next_multiple_of(RETAIN_STEP)
    }

    /// What `retain` is sized on: the p99 frame, or the largest ordinary
    /// frame when the p99 frame is a burst.
    fn retain_basis(&self) -> RetainBasis {
        let [p50, p99, _] = percentiles(&self.peaks);
        let ordinary = p50.saturating_mul(BURST_RATIO);
        if p99 <= ordinary {
            return RetainBasis::P99(p99);
        }
        let bursts = self.over(ordinary);
        let largest = self.peaks[self.peaks.len() - bursts - 1];
        RetainBasis::Ordinary { largest, bursts }
    }

    /// The [`reserve`](crate::FrameArenaBuilder::reserve) to choose: the
    /// smallest power of two at least 4× the largest frame (so between 4×
    /// and 8× it: 16.2 MiB gives 128 MiB), and at least 1 MiB. The largest
    /// frame is the largest of [`frame_max`](Self::frame_max) (which
    /// includes what frames were refused), [`high_water`](Self::high_water)
    /// and [`asked_high_water`](Self::asked_high_water) (frames the history
    /// forgot, as granted and as asked).
    /// Reserving costs address space, not memory, where the OS has virtual
    /// memory; a frame past the reservation fails to allocate, so the
    /// headroom is for the burst not seen yet. On wasm, under Miri and
    /// without `std` the reservation is real memory: choose nearer the
    /// largest frame.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { arena_bytes: 3 << 20, ..Default::default() });
    /// history.push(FrameRecord { arena_bytes: 10, ..Default::default() });
    /// assert_eq!(history.report().suggested_reserve(), 16 << 20); // 12 MiB, up to a power of two
    /// ```
    pub fn suggested_reserve(&self) -> usize {
        self.largest()
            .saturating_mul(RESERVE_HEADROOM)
            .max(MIN_RESERVE)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX)
    }

    /// The largest frame: what the advice is sized for.
    fn largest(&self) -> usize {
        percentiles(&self.peaks)[2]
            .max(self.high_water)
            .max(self.asked_high_water)
    }
}

impl fmt::Display for SizingReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = self.words();
        write!(f, "{}: {} frames", words.title, self.frames)?;
        if let Some((first, last)) = self.ticks {
            write!(f, " ({}{first}–{last})", words.numbers)?;
        }
        writeln!(f)?;
        if self.refused_frames_ever > 0 {
            let ever = &self.refusals_ever;
            write!(
                f,
                "refused: {} allocations in {} frames, {} asked",
                ever.count(),
                self.refused_frames_ever,
                Bytes(ever.bytes()),
            )?;
            if self.refused_frames_ever > self.refused_frames as u64 {
                write!(
                    f,
                    " over the run ({} of those frames in this history)",
                    self.refused_frames
                )?;
            }
            write!(f, "; those frames' peaks are cut at the reservation")?;
            if self.refused_frames > 0 {
                write!(f, " (the largest held {})", Bytes(self.cut_at))?;
            }
            writeln!(
                f,
                ": the figures below add what each frame was refused, what it asked for"
            )?;
        }
        let [p50, p99, max] = percentiles(&self.peaks);
        let what = if self.refused_frames > 0 {
            "frame peaks with what was refused"
        } else {
            "frame peaks"
        };
        write!(
            f,
            "{what}: p50 {}, p99 {}, max {}",
            Bytes(p50),
            Bytes(p99),
            Bytes(max),
        )?;
        if let Some(worst) = self.worst {
            write!(f, " at {} {}", words.number, worst.tick)?;
            if let Some((tag, bytes)) = worst.tag {
                write!(f, " ({} {})", tag.name(), Bytes(bytes))?;
            }
        }
        writeln!(f, " (largest ever {})", Bytes(self.largest()))?;
        let widest = self.histogram.iter().map(|&(_, n)| n).max().unwrap_or(1);
        for &(low, frames) in &self.histogram {
            let bar = "#".repeat((frames * 40).div_ceil(widest));
            let range = if low == 0 {
                "[0]".to_string()
            } else {
                format!("[{}, {})", Bytes(low), Bytes(low.saturating_mul(2)))
            };
            writeln!(f, "  {range:>22}: {frames:>6} frames {bar}")?;
        }
        if !self.tags.is_empty() {
            let refused = self.refused_frames > 0;
            let names: Vec<&str> = self.tags.iter().map(|tag| self.row_name(tag)).collect();
            let width = names
                .iter()
                .map(|name| name.chars().count())
                .fold(16, usize::max);
            write!(
                f,
                "{:<width$} {:>10} {:>10} {:>10} {:>10} {:>12}",
                "tag", "p50", "p99", "max", "budget", "over budget"
            )?;
            if refused {
                write!(f, " {:>8}", "refused")?;
            }
            writeln!(f)?;
            for (tag, name) in self.tags.iter().zip(names) {
                let budget = tag.budget.map_or("-".to_string(), |b| Bytes(b).to_string());
                write!(
                    f,
                    "{:<width$} {:>10} {:>10} {:>10} {:>10} {:>6} frames",
                    name,
                    Bytes(tag.p50).to_string(),
                    Bytes(tag.p99).to_string(),
                    Bytes(tag.max).to_string(),
                    budget,
                    tag.frames_over_budget
                )?;
                if refused {
                    write!(f, " {:>8}", tag.refused)?;
                }
                writeln!(f)?;
            }
        }
        let over_retain = self.over(self.suggested_retain());
        let retain = Bytes(self.suggested_retain());
        let per = words.retain_per;
        match self.retain_basis() {
            RetainBasis::P99(_) => writeln!(
                f,
                "retain  {retain}{per}: the p99 frame peak ({}) rounded up to 64 KiB; \
                 {}{over_retain}{}",
                Bytes(p99),
                words.kept_below,
                words.kept_above,
            )?,
            RetainBasis::Ordinary { largest, bursts } => writeln!(
                f,
                "retain  {retain}{per}: the largest ordinary frame ({}) rounded up to 64 KiB; \
                 {bursts} frames ({:.1} %) are bursts over 4x the median frame, so the p99 frame \
                 peak ({}) is a burst, whose {}",
                Bytes(largest),
                bursts as f64 * 100.0 / self.frames.max(1) as f64,
                Bytes(p99),
                words.bursts_kept,
            )?,
        }
        let largest = self.largest();
        write!(
            f,
            "{} {}: the smallest power of two at least 4x the largest frame ({} x 4 = {}), \
             so 4x to 8x it; {}",
            words.reserve,
            Bytes(self.suggested_reserve()),
            Bytes(largest),
            Bytes(largest.saturating_mul(RESERVE_HEADROOM)),
            words.reserve_why,
        )
    }
}

/// The words of the report that differ between the CPU arena's and an
/// upload arena's (whose frames are upload frames, whose `retain` is per
/// frame in flight, and whose limit is `max_frame_bytes`).
struct Words {
    title: &'static str,
    /// Before the first–last frame numbers.
    numbers: &'static str,
    /// Before the largest frame's number.
    number: &'static str,
    /// After the suggested `retain`.
    retain_per: &'static str,
    /// Around the count of frames above the suggested `retain`.
    kept_below: &'static str,
    kept_above: &'static str,
    /// What happens to a burst's memory.
    bursts_kept: &'static str,
    /// The setting sized from the largest frame, and why.
    reserve: &'static str,
    reserve_why: &'static str,
}

const CPU_WORDS: Words = Words {
    title: "tickarena sizing report",
    numbers: "ticks ",
    number: "tick",
    retain_per: "",
    kept_below: "those frames run on pages kept between frames, the ",
    kept_above: " larger ones commit more while such frames recur",
    bursts_kept: "pages a retain would keep for good; ordinary frames run on pages kept between \
                  frames, bursts commit more, which stays while they recur and goes back once \
                  they stop",
    reserve: "reserve",
    reserve_why: "address space, not memory, and room for a burst not seen yet",
};

const UPLOAD_WORDS: Words = Words {
    title: "tickarena upload sizing report",
    numbers: "",
    number: "frame",
    retain_per: " per frame in flight",
    kept_below: "each frame in flight keeps that much staging for good, and the ",
    kept_above: " larger frames' chunks stay while such frames recur within release_after frames",
    bursts_kept: "chunk a retain would keep for good; a burst's chunk stays while bursts recur \
                  within release_after frames and goes once they stop",
    reserve: "max_frame_bytes",
    reserve_why: "a limit, not memory: a frame past it fails to write (FrameTooLarge), and the \
                  headroom is for a burst not seen yet",
};

impl SizingReport {
    /// The words of this report's kind.
    fn words(&self) -> &'static Words {
        if self.uploads {
            &UPLOAD_WORDS
        } else {
            &CPU_WORDS
        }
    }

    /// The report of an upload arena's frames: the same figures, its
    /// advice written for `UploadConfig`'s `retain` and `max_frame_bytes`.
    #[cfg_attr(not(feature = "wgpu"), allow(dead_code))]
    pub(crate) fn for_uploads(mut self) -> SizingReport {
        self.uploads = true;
        self
    }

    /// A row's name in the table: a whole-frame row says whose frame it
    /// is when the loop had workers (the arena's row is not the frame's
    /// sum).
    fn row_name(&self, row: &TagSummary) -> &'static str {
        match (row.tag == Tag::WHOLE_FRAME, row.workers, self.workers_seen) {
            (true, true, _) => "whole frame, workers",
            (true, false, true) => "whole frame, arena",
            _ => row.tag.name(),
        }
    }

    /// Frames whose peak is above `bytes`.
    fn over(&self, bytes: usize) -> usize {
        self.peaks.len() - self.peaks.partition_point(|&peak| peak <= bytes)
    }
}

/// What the suggested `retain` is sized on.
#[derive(Clone, Copy, Debug)]
enum RetainBasis {
    /// The 99th percentile frame.
    P99(usize),
    /// The largest frame of at most 4× the median, with the frames over
    /// it (bursts, more than 1 % of the frames).
    Ordinary { largest: usize, bursts: usize },
}

impl RetainBasis {
    fn bytes(self) -> usize {
        match self {
            RetainBasis::P99(bytes) | RetainBasis::Ordinary { largest: bytes, .. } => bytes,
        }
    }
}

/// The low end of `bytes`'s power-of-two bucket.
fn bucket_of(bytes: usize) -> usize {
    match bytes {
        0 => 0,
        _ => 1 << bytes.ilog2(),
    }
}

/// p50, p99 and max of `values`, sorted (0s when empty).
fn percentiles(values: &[usize]) -> [usize; 3] {
    if values.is_empty() {
        return [0; 3];
    }
    let at = |percent: usize| values[(values.len() * percent).div_ceil(100).max(1) - 1];
    [at(50), at(99), values[values.len() - 1]]
}

/// What `tag` asked of the arena in a frame: its peak, plus the bytes it
/// was refused.
fn tag_asked(record: &FrameRecord, tag: Tag) -> usize {
    record
        .tags
        .peak(tag)
        .saturating_add(record.refusals.bytes_of(tag))
}

fn summarize<'r>(tag: Tag, records: impl Iterator<Item = &'r FrameRecord>) -> TagSummary {
    let mut bytes = Vec::new();
    let (mut budget, mut frames_over_budget, mut refused) = (None, 0, 0);
    for record in records {
        bytes.push(tag_asked(record, tag));
        budget = record.tags.budget(tag);
        // As the budgets' holders counted it (a frame loop's arena and its
        // workers each check their own budget).
        if record.tags.over_budget().any(|(over, ..)| over == tag) {
            frames_over_budget += 1;
        }
        refused += record.refusals.count_of(tag);
    }
    TagSummary {
        budget,
        frames_over_budget,
        refused,
        ..TagSummary::of(tag, bytes, false)
    }
}

/// A whole-frame budget holder's figure in a frame and its budget: the
/// loop's arena's own peak, or (`workers`) the workers' peaks summed. What
/// the holder's policy compared.
fn whole_frame(record: &FrameRecord, workers: bool) -> (usize, Option<usize>) {
    if workers {
        (record.worker_bytes, record.worker_frame_budget)
    } else {
        (
            record.arena_bytes.saturating_sub(record.worker_bytes),
            record.frame_budget,
        )
    }
}

/// The row of a whole-frame budget's holder: each frame's figure against
/// its budget then, over it as its policy counted.
fn summarize_whole_frame<'r>(
    records: impl Iterator<Item = &'r FrameRecord>,
    workers: bool,
) -> TagSummary {
    let mut bytes = Vec::new();
    let (mut budget, mut frames_over_budget, mut refused) = (None, 0, 0);
    for record in records {
        let (figure, frame_budget) = whole_frame(record, workers);
        bytes.push(figure);
        budget = frame_budget;
        frames_over_budget += usize::from(frame_budget.is_some_and(|budget| figure > budget));
        refused += record.refusals.count();
    }
    TagSummary {
        budget,
        frames_over_budget,
        refused,
        ..TagSummary::of(Tag::WHOLE_FRAME, bytes, workers)
    }
}

impl TagSummary {
    /// A row of `tag`'s figures over the frames (`bytes`, one a frame, in
    /// any order): its percentiles, with no budget, breach or refusal yet.
    fn of(tag: Tag, mut bytes: Vec<usize>, workers: bool) -> TagSummary {
        bytes.sort_unstable();
        let [p50, p99, max] = percentiles(&bytes);
        TagSummary {
            tag,
            p50,
            p99,
            max,
            budget: None,
            frames_over_budget: 0,
            refused: 0,
            workers,
        }
    }
}

/// A byte count for people: `512 B`, `12.5 KiB`, `3.0 MiB`.
pub(super) struct Bytes(pub(super) usize);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
        if self.0 < 1024 {
            return write!(f, "{} B", self.0);
        }
        let mut value = self.0 as f64 / 1024.0;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if value.fract() == 0.0 {
            write!(f, "{value:.0} {}", UNITS[unit])
        } else {
            write!(f, "{value:.1} {}", UNITS[unit])
        }
    }
}
