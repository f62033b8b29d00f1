//! [`TagChart`]: a [`FrameHistory`] drawn as SVG (feature `chart`, with
//! plotters' SVG backend only): the most bytes each tag held at once in
//! each frame, stacked, with its budgets, the frames over them, the frames
//! whose allocations were refused, and the largest bursts labelled.
//!
//! What a person looking at it needs, and how it is met:
//! - ordinary frames readable beside bursts a hundred times larger: a
//!   log axis, chosen by [`ChartScale::Auto`] when the largest frame is over
//!   10× the median;
//! - a one-frame spike as visible as a long one: frames are grouped into
//!   columns 3 pixels wide at least, each drawn as its largest frame;
//! - budget lines that mean something: the budgeted tags are stacked
//!   first, so the lowest one's line is flat (a budget drawn over the bands
//!   below it would zig-zag with them); the others' breaches are marked
//!   on their bands, and the whole-frame budget is a flat line over all;
//! - a legend that covers nothing: it has a panel of its own;
//! - solid colours only, no `opacity` attribute (ImageMagick 6 renders
//!   any as opaque, which hides the bands behind).

use std::io;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::history::{FrameHistory, FrameRecord};
use super::report::Bytes;
use crate::Tag;

/// The bands' colours, in stacking order (then round again).
const PALETTE: [RGBColor; 6] = [
    RGBColor(66, 133, 244),
    RGBColor(219, 68, 55),
    RGBColor(244, 180, 0),
    RGBColor(15, 157, 88),
    RGBColor(171, 71, 188),
    RGBColor(0, 172, 193),
];

/// Refused allocations' marker.
const REFUSED: RGBColor = RGBColor(200, 0, 0);

/// The legend's panel, right of the plot.
const LEGEND_WIDTH: u32 = 210;

/// The narrowest column, in pixels: a one-frame spike is never a needle
/// (4, so that it keeps 3 once its edges are rounded to pixels).
const MIN_COLUMN_PX: u32 = 4;

/// The largest frame over the median above which [`ChartScale::Auto`] draws a
/// log axis.
const AUTO_LOG_RATIO: usize = 10;

/// The vertical axis of a [`TagChart`].
///
/// # Example
///
/// ```
/// use tickarena::frame_loop::{FrameHistory, ChartScale};
/// let history = FrameHistory::with_capacity(8);
/// let chart = history.chart().scale(ChartScale::Log);
/// assert_eq!(chart.scale_used(), ChartScale::Log);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChartScale {
    /// Log when the largest frame is over 10× the median one (bursts),
    /// linear otherwise.
    #[default]
    Auto,
    /// Bytes from 0, to the largest frame: the true proportions, ordinary
    /// frames flattened by large bursts.
    Linear,
    /// Powers of two: ordinary frames and bursts both readable.
    Log,
}

/// A chart of a history's bytes per frame by tag, written as SVG: from
/// [`FrameHistory::chart`], sized and scaled with its methods, drawn by
/// [`to_svg`](Self::to_svg) or [`write_svg`](Self::write_svg). Feature
/// `chart`.
///
/// Each tag is a band of its peak ([`TagBytes::peak`](crate::TagBytes::peak))
/// per frame, stacked (budgeted tags first), with a legend in a panel of
/// its own. The lowest budgeted tag's budget is a dashed line; frames in
/// which another tag went over its budget get a dot on its band; the
/// whole-frame budget, if any, is a dashed black line; frames whose
/// allocations the arena refused get a red dot at the top (their bands
/// stop at the reservation). The largest bursts are labelled with their
/// size.
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
/// game.arena().set_budget(AI, 4096);
/// for tick in 0..100 {
///     game.tick([if tick == 50 { 1 << 20 } else { 1000 }], game.step());
/// }
/// let svg = game.history().chart().size(640, 320).title("thinker").to_svg()?;
/// assert!(svg.starts_with("<svg") && svg.contains(">\nai\n<")); // the legend
/// assert!(svg.contains("ai budget 4 KiB"));
/// assert!(!svg.contains("opacity="));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TagChart<'h> {
    history: &'h FrameHistory,
    size: (u32, u32),
    scale: ChartScale,
    title: Option<String>,
}

impl FrameHistory {
    /// A chart of the frames this history holds, 960 × 480 pixels, its
    /// axis chosen by [`ChartScale::Auto`] (see [`TagChart`]). Feature `chart`.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(8);
    /// history.push(FrameRecord { arena_bytes: 1000, ..Default::default() });
    /// let svg = history.chart().to_svg()?;
    /// assert!(svg.contains("arena bytes per frame"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn chart(&self) -> TagChart<'_> {
        TagChart {
            history: self,
            size: (960, 480),
            scale: ChartScale::Auto,
            title: None,
        }
    }
}

impl TagChart<'_> {
    /// The picture's size in pixels (the legend takes 210 of the width).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(8);
    /// history.push(FrameRecord::default());
    /// let svg = history.chart().size(640, 320).to_svg()?;
    /// assert!(svg.starts_with(r#"<svg width="640" height="320""#));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.size = (width.max(LEGEND_WIDTH + 200), height.max(160));
        self
    }

    /// The vertical axis (see [`ChartScale`]).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// # use tickarena::frame_loop::ChartScale;
    /// let mut history = FrameHistory::with_capacity(8);
    /// history.push(FrameRecord { arena_bytes: 1000, ..Default::default() });
    /// let svg = history.chart().scale(ChartScale::Log).to_svg()?;
    /// assert!(svg.contains("(log scale)"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn scale(mut self, scale: ChartScale) -> Self {
        self.scale = scale;
        self
    }

    /// The run's name, in the title.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::frame_loop::{FrameHistory, FrameRecord};
    /// let mut history = FrameHistory::with_capacity(8);
    /// history.push(FrameRecord::default());
    /// let svg = history.chart().title("level 3, 600 frames").to_svg()?;
    /// assert!(svg.contains("level 3, 600 frames"));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn title(mut self, title: &str) -> Self {
        self.title = Some(title.to_string());
        self
    }

    /// The axis [`ChartScale::Auto`] comes to for this history (the scale
    /// itself when not `Auto`).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::frame_loop::{FrameHistory, FrameRecord, ChartScale};
    /// let mut history = FrameHistory::with_capacity(100);
    /// for tick in 0..100 {
    ///     let arena_bytes = if tick == 50 { 16 << 20 } else { 100 << 10 };
    ///     history.push(FrameRecord { tick, arena_bytes, ..Default::default() });
    /// }
    /// assert_eq!(history.chart().scale_used(), ChartScale::Log);
    /// assert_eq!(history.chart().scale(ChartScale::Linear).scale_used(), ChartScale::Linear);
    /// ```
    pub fn scale_used(&self) -> ChartScale {
        match self.scale {
            ChartScale::Auto => {
                let mut totals: Vec<usize> = self.history.iter().map(stacked_total).collect();
                totals.sort_unstable();
                let median = totals.get(totals.len() / 2).copied().unwrap_or(0);
                let largest = totals.last().copied().unwrap_or(0);
                if largest > median.max(1).saturating_mul(AUTO_LOG_RATIO) {
                    ChartScale::Log
                } else {
                    ChartScale::Linear
                }
            }
            scale => scale,
        }
    }

    /// The chart as an SVG document.
    ///
    /// # Errors
    ///
    /// When the history is empty (`InvalidInput`), or plotters fails to
    /// draw (`Other`, with its message).
    ///
    /// # Example
    ///
    /// ```
    /// let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// assert!(history.chart().to_svg().is_err()); // no frame yet
    /// ```
    pub fn to_svg(&self) -> io::Result<String> {
        if self.history.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "tickarena: no frame recorded to chart",
            ));
        }
        let mut svg = String::new();
        self.draw(&mut svg)
            .map_err(|error| io::Error::other(format!("tickarena: chart: {error}")))?;
        // Every colour is solid: the attribute plotters writes for each
        // element says only `1`, and any other value would be a bug (a
        // viewer such as ImageMagick 6 would draw it opaque).
        Ok(svg.replace(" opacity=\"1\"", ""))
    }

    /// Writes [`to_svg`](Self::to_svg) to `path`.
    ///
    /// # Errors
    ///
    /// Those of [`to_svg`](Self::to_svg), and of writing the file.
    ///
    /// # Example
    ///
    /// ```no_run
    /// # let history = tickarena::frame_loop::FrameHistory::with_capacity(8);
    /// history.chart().write_svg("frames.svg")?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_svg(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.to_svg()?)
    }

    fn draw(&self, svg: &mut String) -> Result<(), Box<dyn std::error::Error>> {
        let records: Vec<&FrameRecord> = self.history.iter().collect();
        let ticks: Vec<u64> = records.iter().map(|record| record.tick).collect();
        let tags = stacking_order(self.history.tags(), records.last().copied());
        let log = self.scale_used() == ChartScale::Log;
        let (width, height) = self.size;

        let root = SVGBackend::with_string(svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let (plot_area, legend_area) = root.split_horizontally(width - LEGEND_WIDTH);
        // The scale is in the title: rotated text (an axis' name) is lost
        // by some renderers, ImageMagick 6's among them.
        let title = format!(
            "{}arena bytes per frame by tag, each at its peak{}",
            self.title
                .as_ref()
                .map_or(String::new(), |title| format!("{title}: ")),
            if log { " (log scale)" } else { "" }
        );
        // Plot width in pixels, less the label area and the margins.
        let plot_px = (width - LEGEND_WIDTH).saturating_sub(72 + 2 * 12).max(1);
        let columns = columns_of(records.len(), plot_px, |i| stacked_total(records[i]));
        // tops[k][c]: the top of band k in column c (the bands stack).
        let tops: Vec<Vec<usize>> = (0..tags.len())
            .map(|k| {
                columns
                    .iter()
                    .map(|column| {
                        let record = records[column.shown];
                        tags[..=k].iter().map(|&tag| record.tags.peak(tag)).sum()
                    })
                    .collect()
            })
            .collect();
        let totals: Vec<usize> = columns
            .iter()
            .map(|column| stacked_total(records[column.shown]))
            .collect();
        let largest = totals.iter().copied().max().unwrap_or(0);
        let frame_budget = records.last().and_then(|record| record.frame_budget);
        let bottom_budget = tags
            .first()
            .and_then(|&tag| records.last().and_then(|r| r.tags.budget(tag)));
        let highest = largest
            .max(frame_budget.unwrap_or(0))
            .max(bottom_budget.unwrap_or(0))
            .max(1);
        let axis = if log {
            // Half the smallest band top seen, down to a power of two, is
            // the axis' floor: every band that has bytes shows.
            let smallest = tops
                .iter()
                .flatten()
                .copied()
                .filter(|&top| top > 1)
                .min()
                .unwrap_or(2);
            Axis::Log {
                floor: (1usize << (smallest / 2).ilog2()).max(64),
            }
        } else {
            Axis::Linear
        };
        let y_top = match axis {
            Axis::Linear => highest as f64 * 1.12,
            Axis::Log { .. } => axis.y(highest) + 0.8,
        };
        let y_bottom = axis.y(0);

        let mut chart = ChartBuilder::on(&plot_area)
            .caption(title, ("sans-serif", 17))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(72)
            .build_cartesian_2d(0f64..records.len() as f64, y_bottom..y_top)?;
        let tick_of = |x: &f64| {
            let index = (*x as usize).min(ticks.len() - 1);
            ticks[index].to_string()
        };
        let bytes_at = |y: &f64| Bytes(axis.bytes(*y)).to_string();
        chart
            .configure_mesh()
            .x_desc("tick")
            .y_labels(8)
            .disable_x_mesh()
            .x_label_formatter(&tick_of)
            .y_label_formatter(&bytes_at)
            .bold_line_style(RGBColor(214, 214, 214))
            .light_line_style(RGBColor(238, 238, 238))
            .draw()?;

        // The bands, the top one first so that each band below paints
        // over its part; steps, one flat top per column.
        for k in (0..tags.len()).rev() {
            let colour = PALETTE[k % PALETTE.len()];
            let fill = blend(colour, 0.7);
            let upper: Vec<(f64, f64)> = steps(&columns, &tops[k], axis);
            let mut outline = upper.clone();
            outline.push((records.len() as f64, y_bottom));
            outline.push((0.0, y_bottom));
            chart.draw_series(std::iter::once(Polygon::new(outline, fill.filled())))?;
            chart.draw_series(std::iter::once(PathElement::new(
                upper,
                colour.stroke_width(1),
            )))?;
        }
        // The lowest budgeted tag's budget: flat, its band starts at 0.
        if let Some(budget) = bottom_budget {
            dashed(
                &mut chart,
                axis.y(budget),
                records.len(),
                darken(PALETTE[0]),
            )?;
        }
        if let Some(budget) = frame_budget {
            dashed(&mut chart, axis.y(budget), records.len(), BLACK)?;
        }
        // The other tags' breaches: a dot on the band's top.
        for (k, &tag) in tags.iter().enumerate().skip(1) {
            let colour = darken(PALETTE[k % PALETTE.len()]);
            let dots = columns.iter().enumerate().filter_map(|(c, column)| {
                let over = records[column.frames.clone()].iter().any(|record| {
                    record
                        .tags
                        .budget(tag)
                        .is_some_and(|budget| record.tags.peak(tag) > budget)
                });
                over.then(|| Circle::new((column.middle(), axis.y(tops[k][c])), 3, colour.filled()))
            });
            chart.draw_series(dots)?;
        }
        // Refused allocations: a red dot above the column.
        let refused = columns.iter().enumerate().filter_map(|(c, column)| {
            let refused = records[column.frames.clone()]
                .iter()
                .any(|record| !record.refusals.is_empty());
            refused.then(|| Circle::new((column.middle(), axis.y(totals[c])), 4, REFUSED.filled()))
        });
        chart.draw_series(refused)?;
        // The largest bursts, labelled.
        let label_style = TextStyle::from(("sans-serif", 12).into_font())
            .pos(Pos::new(HPos::Center, VPos::Bottom))
            .color(&BLACK);
        // A label is some 110 pixels wide.
        let column_px = (plot_px as usize / columns.len()).max(1);
        let labels = burst_labels(&totals, 110usize.div_ceil(column_px));
        let labels = labels.into_iter().map(|c| {
            let column = &columns[c];
            let record = records[column.shown];
            let text = format!("{} (tick {})", Bytes(stacked_total(record)), record.tick);
            let lift = match axis {
                Axis::Linear => highest as f64 * 0.015,
                Axis::Log { .. } => 0.12,
            };
            Text::new(
                text,
                (column.middle(), axis.y(totals[c]) + lift),
                label_style.clone(),
            )
        });
        chart.draw_series(labels)?;

        // The legend, in its own panel: top band first, as stacked.
        let font = ("sans-serif", 13).into_font();
        let mut y = 44;
        for (k, &tag) in tags.iter().enumerate().rev() {
            let colour = PALETTE[k % PALETTE.len()];
            legend_area.draw(&Rectangle::new(
                [(8, y - 6), (22, y + 6)],
                blend(colour, 0.7).filled(),
            ))?;
            legend_area.draw(&Rectangle::new([(8, y - 6), (22, y + 6)], colour))?;
            legend_area.draw(&Text::new(
                tag.name().to_string(),
                (30, y - 7),
                font.clone(),
            ))?;
            y += 20;
        }
        y += 6;
        let last = records.last().copied();
        if let (Some(budget), Some(&tag)) = (bottom_budget, tags.first()) {
            legend_dash(&legend_area, y, darken(PALETTE[0]))?;
            let text = format!("{} budget {}", tag.name(), Bytes(budget));
            legend_area.draw(&Text::new(text, (30, y - 7), font.clone()))?;
            y += 20;
        }
        for (k, &tag) in tags.iter().enumerate().skip(1) {
            if let Some(budget) = last.and_then(|record| record.tags.budget(tag)) {
                let colour = darken(PALETTE[k % PALETTE.len()]);
                legend_area.draw(&Circle::new((15, y), 3, colour.filled()))?;
                let text = format!("{} over {}", tag.name(), Bytes(budget));
                legend_area.draw(&Text::new(text, (30, y - 7), font.clone()))?;
                y += 20;
            }
        }
        if let Some(budget) = frame_budget {
            legend_dash(&legend_area, y, BLACK)?;
            let text = format!("frame budget {}", Bytes(budget));
            legend_area.draw(&Text::new(text, (30, y - 7), font.clone()))?;
            y += 20;
        }
        if records.iter().any(|record| !record.refusals.is_empty()) {
            legend_area.draw(&Circle::new((15, y), 4, REFUSED.filled()))?;
            legend_area.draw(&Text::new(
                "allocations refused".to_string(),
                (30, y - 7),
                font.clone(),
            ))?;
        }
        root.present()?;
        Ok(())
    }
}

/// How bytes map to the vertical axis.
#[derive(Clone, Copy, Debug)]
enum Axis {
    Linear,
    /// log2 of the bytes, those below `floor` at the floor.
    Log {
        floor: usize,
    },
}

impl Axis {
    fn y(self, bytes: usize) -> f64 {
        match self {
            Axis::Linear => bytes as f64,
            Axis::Log { floor } => (bytes.max(floor) as f64).log2(),
        }
    }

    fn bytes(self, y: f64) -> usize {
        match self {
            Axis::Linear => y.max(0.0) as usize,
            Axis::Log { .. } => y.exp2().round() as usize,
        }
    }
}

/// A column of the chart: the frames it covers, and the one it shows
/// (the largest of them, so that no spike is averaged away).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Column {
    frames: std::ops::Range<usize>,
    shown: usize,
}

impl Column {
    fn middle(&self) -> f64 {
        (self.frames.start + self.frames.end) as f64 / 2.0
    }
}

/// `frames` frames in columns of at least [`MIN_COLUMN_PX`] of `plot_px`
/// pixels (one frame a column where they fit), each showing its frame
/// with the largest `size` (the first of them).
fn columns_of(frames: usize, plot_px: u32, size: impl Fn(usize) -> usize) -> Vec<Column> {
    let count = frames.min((plot_px / MIN_COLUMN_PX).max(1) as usize).max(1);
    (0..count)
        .map(|c| {
            // `count <= frames`: no column is empty.
            let range = c * frames / count..(c + 1) * frames / count;
            let shown = range.clone().rev().max_by_key(|&i| size(i)).unwrap_or(0);
            Column {
                frames: range,
                shown,
            }
        })
        .collect()
}

/// The stacked total of a frame: the sum of its tags' peaks.
fn stacked_total(record: &FrameRecord) -> usize {
    let total: usize = record.tags.peaks().map(|(_, peak)| peak).sum();
    // An untagged history has no table: its frame's peak is the band.
    total.max(record.arena_bytes * usize::from(record.tags.peaks().len() == 0))
}

/// The tags in stacking order: those with a budget in `last` first.
fn stacking_order(tags: Vec<Tag>, last: Option<&FrameRecord>) -> Vec<Tag> {
    let budgeted = |tag: &Tag| last.is_some_and(|record| record.tags.budget(*tag).is_some());
    let (mut first, rest): (Vec<Tag>, Vec<Tag>) = tags.into_iter().partition(budgeted);
    first.extend(rest);
    if first.is_empty() {
        first.push(Tag::UNTAGGED);
    }
    first
}

/// The upper edge of a band: a flat step per column.
fn steps(columns: &[Column], tops: &[usize], axis: Axis) -> Vec<(f64, f64)> {
    columns
        .iter()
        .zip(tops)
        .flat_map(|(column, &top)| {
            let y = axis.y(top);
            [
                (column.frames.start as f64, y),
                (column.frames.end as f64, y),
            ]
        })
        .collect()
}

/// Up to 3 columns to label: the largest totals over 4× the median,
/// `apart` columns from each other at least.
fn burst_labels(totals: &[usize], min_apart: usize) -> Vec<usize> {
    let mut sorted = totals.to_vec();
    sorted.sort_unstable();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
    let mut order: Vec<usize> = (0..totals.len())
        .filter(|&c| totals[c] > median.saturating_mul(4))
        .collect();
    order.sort_by_key(|&c| std::cmp::Reverse(totals[c]));
    let apart = min_apart.max(1);
    let mut chosen: Vec<usize> = Vec::new();
    for c in order {
        if chosen.len() == 3 {
            break;
        }
        if chosen.iter().all(|&other| other.abs_diff(c) >= apart) {
            chosen.push(c);
        }
    }
    chosen
}

/// A dashed horizontal line at `y` over `frames` frames.
fn dashed<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    y: f64,
    frames: usize,
    colour: RGBColor,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (px, _) = chart.plotting_area().dim_in_pixel();
    // 8 pixels of line, 5 of gap.
    let per_px = frames as f64 / f64::from(px.max(1));
    let (dash, period) = (8.0 * per_px, 13.0 * per_px);
    let mut x = 0.0;
    let mut segments = Vec::new();
    while x < frames as f64 {
        let end = (x + dash).min(frames as f64);
        segments.push(PathElement::new([(x, y), (end, y)], colour.stroke_width(2)));
        x += period;
    }
    chart.draw_series(segments)?;
    Ok(())
}

/// The legend's sample of a dashed line, at `y`.
fn legend_dash<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    y: i32,
    colour: RGBColor,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    area.draw(&PathElement::new([(6, y), (12, y)], colour.stroke_width(2)))?;
    area.draw(&PathElement::new(
        [(16, y), (22, y)],
        colour.stroke_width(2),
    ))?;
    Ok(())
}

/// `colour` blended with white, `weight` of it kept: a solid colour.
fn blend(colour: RGBColor, weight: f64) -> RGBColor {
    let mix = |c: u8| (f64::from(c) * weight + 255.0 * (1.0 - weight)).round() as u8;
    RGBColor(mix(colour.0), mix(colour.1), mix(colour.2))
}

/// `colour`, darker (lines and dots over its own band).
fn darken(colour: RGBColor) -> RGBColor {
    let dark = |c: u8| (f64::from(c) * 0.6).round() as u8;
    RGBColor(dark(colour.0), dark(colour.1), dark(colour.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_4_pixels_wide_at_least_and_keep_a_one_frame_spike() {
        // 600 frames on 600 pixels: 150 columns of 4 frames.
        let spike = 301;
        let columns = columns_of(600, 600, |i| if i == spike { 1 << 20 } else { 1000 });
        assert_eq!(columns.len(), 150);
        assert!(columns.iter().all(|c| c.frames.len() == 4));
        let covering: Vec<&Column> = columns
            .iter()
            .filter(|c| c.frames.contains(&spike))
            .collect();
        assert_eq!(covering.len(), 1);
        assert_eq!(covering[0].shown, spike);
        // Every frame in exactly one column, in order.
        let flat: Vec<usize> = columns.iter().flat_map(|c| c.frames.clone()).collect();
        assert!(flat.iter().copied().eq(0..600));
        // Few frames: one a column.
        assert_eq!(columns_of(5, 600, |_| 0).len(), 5);
        let narrow = columns_of(7, 10, |_| 0);
        assert_eq!(narrow.len(), 2);
        assert!(narrow.iter().flat_map(|c| c.frames.clone()).eq(0..7));
    }

    #[test]
    fn blended_colours_are_solid_and_between_the_colour_and_white() {
        assert_eq!(blend(RGBColor(0, 100, 255), 0.7), RGBColor(77, 147, 255));
        assert_eq!(darken(RGBColor(100, 0, 255)), RGBColor(60, 0, 153));
    }

    #[test]
    fn bursts_are_labelled_apart_and_only_over_four_times_the_median() {
        let mut totals = vec![100; 100];
        totals[10] = 5000;
        totals[11] = 4000; // next to the first: not labelled
        totals[60] = 300; // not a burst
        totals[80] = 1000;
        assert_eq!(burst_labels(&totals, 3), [10, 80]);
    }
}
