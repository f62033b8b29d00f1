//! [`SizingReport`]: how large the arena must be, read from the frames a
//! [`FrameHistory`] holds, and their per-tag CSV (Unreal's LLM CSV: one row
//! per frame, one column per tag).

use std::fmt;
use std::io;

use super::history::{FrameHistory, FrameRecord};
use crate::Tag;

/// Granularity of the suggested `retain`: what a frame arena commits at
/// a time is of this order, and a finer figure would promise a precision
/// the history does not have.
const RETAIN_STEP: usize = 64 << 10;

/// The suggested reservation is this many times the largest frame seen.
const RESERVE_HEADROOM: usize = 4;

/// One tag's bytes per frame over the history (the most it held at once
/// in each frame, [`TagBytes::peak`](crate::TagBytes::peak)), from
/// [`SizingReport::tags`].
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{FrameHistory, FrameRecord};
///
/// let history = FrameHistory::with_capacity(4);
/// let report = history.report();
/// assert!(report.tags().is_empty());
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
    /// Frames that ended with the tag over the budget it had then.
    pub frames_over_budget: usize,
}

/// How large a frame arena must be, from the frames a history holds: a
/// histogram of per-frame peaks in power-of-two buckets, p50/p99/max per
/// tag, frames over budget per tag, and the
/// [`reserve`](crate::FrameArenaBuilder::reserve) and
/// [`retain`](crate::FrameArenaBuilder::retain) to choose, with the reason.
/// Its `Display` is the report a game prints at exit.
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
/// assert_eq!(report.suggested_reserve(), 16 << 20); // 4× the largest, a power of two
/// println!("{report}");
/// ```
#[derive(Clone, Debug)]
pub struct SizingReport {
    frames: usize,
    ticks: Option<(u64, u64)>,
    histogram: Vec<(usize, usize)>,
    /// Each frame's peak, smallest first.
    peaks: Vec<usize>,
    tags: Vec<TagSummary>,
    high_water: usize,
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
        let mut peaks: Vec<usize> = self.iter().map(|record| record.arena_bytes).collect();
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
        let tags = self
            .tags()
            .into_iter()
            .map(|tag| summarize(tag, self.iter()))
            .collect();
        let ticks = self
            .iter()
            .next()
            .zip(self.latest())
            .map(|(first, last)| (first.tick, last.tick));
        SizingReport {
            frames: peaks.len(),
            ticks,
            histogram,
            peaks,
            tags,
            high_water: self.high_water(),
        }
    }

    /// Writes one row per frame it holds, one column per tag (Unreal's LLM
    /// CSV): `tick,tick_us,arena_bytes,` then the most bytes each tag held
    /// at once ([`TagBytes::peak`](crate::TagBytes::peak)), the tags in the
    /// order they were first met. Tags' names are quoted.
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
        write!(out, "tick,tick_us,arena_bytes")?;
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
        let untagged_unused = self
            .iter()
            .all(|record| record.tags.peak(Tag::UNTAGGED) == 0);
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

    /// p50, p99 and max of each tag's bytes per frame, with its budget and
    /// the frames over it.
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

    /// The [`retain`](crate::FrameArenaBuilder::retain) to choose: the 99th
    /// percentile of frame peaks, rounded up to 64 KiB. Those frames then
    /// run on pages kept between frames, with no page fault; the larger
    /// ones commit more, which stays while such frames recur (within
    /// [`release_after`](crate::FrameArenaBuilder::release_after) frames)
    /// and goes back once they stop.
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert_eq!(history.report().suggested_retain(), 64 << 10);
    /// ```
    pub fn suggested_retain(&self) -> usize {
        percentiles(&self.peaks)[1]
            .max(1)
            .next_multiple_of(RETAIN_STEP)
    }

    /// The [`reserve`](crate::FrameArenaBuilder::reserve) to choose: four
    /// times the largest frame the history saw (those it forgot
    /// included), rounded up to a power of two, at least 1 MiB. Reserving
    /// costs address space, not memory, where the OS has virtual memory; a
    /// frame past the reservation fails to allocate, so the headroom is
    /// for the burst not seen yet. On wasm, under Miri and without `std`
    /// the reservation is real memory: choose nearer the largest frame.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(1);
    /// history.push(FrameRecord { arena_bytes: 3 << 20, ..Default::default() });
    /// history.push(FrameRecord { arena_bytes: 10, ..Default::default() });
    /// assert_eq!(history.report().suggested_reserve(), 16 << 20);
    /// ```
    pub fn suggested_reserve(&self) -> usize {
        let largest = percentiles(&self.peaks)[2].max(self.high_water);
        largest
            .saturating_mul(RESERVE_HEADROOM)
            .max(1 << 20)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX)
    }
}

impl fmt::Display for SizingReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tickarena sizing report: {} frames", self.frames)?;
        if let Some((first, last)) = self.ticks {
            write!(f, " (ticks {first}–{last})")?;
        }
        writeln!(f)?;
        let [p50, p99, max] = percentiles(&self.peaks);
        writeln!(
            f,
            "frame peaks: p50 {}, p99 {}, max {} (largest ever {})",
            Bytes(p50),
            Bytes(p99),
            Bytes(max),
            Bytes(self.high_water.max(max))
        )?;
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
            writeln!(
                f,
                "{:<16} {:>10} {:>10} {:>10} {:>10} {:>12}",
                "tag", "p50", "p99", "max", "budget", "over budget"
            )?;
            for tag in &self.tags {
                let budget = tag.budget.map_or("-".to_string(), |b| Bytes(b).to_string());
                writeln!(
                    f,
                    "{:<16} {:>10} {:>10} {:>10} {:>10} {:>6} frames",
                    tag.tag.name(),
                    Bytes(tag.p50).to_string(),
                    Bytes(tag.p99).to_string(),
                    Bytes(tag.max).to_string(),
                    budget,
                    tag.frames_over_budget
                )?;
            }
        }
        let over_retain = self.over(self.suggested_retain());
        writeln!(
            f,
            "retain  {}: the p99 frame peak ({}) rounded up to 64 KiB; those frames run on \
             pages kept between frames, the {over_retain} larger ones commit more while such \
             frames recur",
            Bytes(self.suggested_retain()),
            Bytes(p99)
        )?;
        write!(
            f,
            "reserve {}: 4x the largest frame ({}), a power of two; address space, not memory, \
             and room for a burst not seen yet",
            Bytes(self.suggested_reserve()),
            Bytes(self.high_water.max(max))
        )
    }
}

impl SizingReport {
    /// Frames whose peak is above `bytes`.
    fn over(&self, bytes: usize) -> usize {
        self.peaks.len() - self.peaks.partition_point(|&peak| peak <= bytes)
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

fn summarize<'r>(tag: Tag, records: impl Iterator<Item = &'r FrameRecord>) -> TagSummary {
    let mut bytes = Vec::new();
    let (mut budget, mut frames_over_budget) = (None, 0);
    for record in records {
        let used = record.tags.peak(tag);
        bytes.push(used);
        budget = record.tags.budget(tag);
        // As the budgets' holders counted it (a frame loop's arena and its
        // workers each check their own budget).
        if record.tags.over_budget().any(|(over, ..)| over == tag) {
            frames_over_budget += 1;
        }
    }
    bytes.sort_unstable();
    let [p50, p99, max] = percentiles(&bytes);
    TagSummary {
        tag,
        p50,
        p99,
        max,
        budget,
        frames_over_budget,
    }
}

/// A byte count for people: `512 B`, `12.5 KiB`, `3.0 MiB`.
struct Bytes(usize);

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
