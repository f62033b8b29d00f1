//! A chart of a recorded history, drawn with plotters as SVG: the most
//! bytes each tag held at once in each frame, stacked (in the order the
//! frames first met the tags),
//! with a legend, and each tag's budget as a dashed line over the base of
//! its band (where the band's top crosses it, the frame breached it). The
//! axis ends at twice the 99th percentile of the frames (or above the
//! budgets): a burst many times larger would flatten every ordinary
//! frame's band, so the frames above the top are cut there and labelled
//! with their size.

use std::error::Error;
use std::path::Path;

use plotters::prelude::*;
use tickarena::Tag;
use tickarena::frame_loop::FrameHistory;

/// The bands' colours, in tag order (then round again).
const PALETTE: [RGBColor; 6] = [
    RGBColor(66, 133, 244),
    RGBColor(219, 68, 55),
    RGBColor(244, 180, 0),
    RGBColor(15, 157, 88),
    RGBColor(171, 71, 188),
    RGBColor(0, 172, 193),
];

/// Writes the chart of `history`'s frames to `path` (`width` × `height`
/// pixels).
pub fn write_svg(
    history: &FrameHistory,
    path: &Path,
    (width, height): (u32, u32),
) -> Result<(), Box<dyn Error>> {
    let tags = history.tags();
    let records: Vec<_> = history.iter().collect();
    let (Some(first), Some(last)) = (records.first(), records.last()) else {
        return Err("no frame recorded".into());
    };
    // tops[k][i]: the top of tag k's band in frame i (the bands stack).
    let mut tops: Vec<Vec<f64>> = Vec::new();
    for (k, &tag) in tags.iter().enumerate() {
        let band = records
            .iter()
            .enumerate()
            .map(|(i, record)| base(&tops, k, i) + kib(record.tags.peak(tag)));
        tops.push(band.collect());
    }
    let highest_budget = tags
        .iter()
        .enumerate()
        .filter_map(|(k, &tag)| {
            Some(base(&tops, k, records.len() - 1) + kib(last.tags.budget(tag)?))
        })
        .fold(0.0, f64::max);
    let totals: &[f64] = tops.last().map_or(&[], Vec::as_slice);
    let mut sorted = totals.to_vec();
    sorted.sort_by(f64::total_cmp);
    let p99 = sorted.get(sorted.len() * 99 / 100).copied().unwrap_or(0.0);
    let top = (2.0 * p99).max(highest_budget * 1.2).max(1.0);

    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "arena bytes per frame by tag (each tag at its peak)",
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(first.tick..last.tick + 1, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("tick")
        .y_desc("KiB")
        .disable_x_mesh()
        .draw()?;
    // The top band first, so that each band below paints over its part.
    for (k, &tag) in tags.iter().enumerate().rev() {
        let colour = PALETTE[k % PALETTE.len()];
        let points = records.iter().zip(&tops[k]).map(|(r, &top)| (r.tick, top));
        chart
            .draw_series(AreaSeries::new(points, 0.0, colour.mix(0.85)).border_style(colour))?
            .label(tag.name())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
    }
    for (k, &tag) in tags.iter().enumerate() {
        if let Some(budget) = last.tags.budget(tag) {
            let colour = PALETTE[k % PALETTE.len()];
            let line = records
                .iter()
                .enumerate()
                .map(|(i, r)| (r.tick, base(&tops, k, i) + kib(budget)));
            chart
                .draw_series(DashedLineSeries::new(line, 6, 4, colour.stroke_width(2)))?
                .label(budget_label(tag, budget))
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 12, y)], colour.stroke_width(2))
                });
        }
    }
    // The frames cut at the top, labelled with their size.
    let cut = records
        .iter()
        .zip(totals)
        .filter(|&(_, &total)| total > top)
        .map(|(record, &total)| {
            let label = format!("{:.1} MiB", total / 1024.0);
            Text::new(label, (record.tick, top * 0.97), ("sans-serif", 12))
        });
    chart.draw_series(cut)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}

/// The base of band `k` in frame `i`.
fn base(tops: &[Vec<f64>], k: usize, i: usize) -> f64 {
    if k == 0 { 0.0 } else { tops[k - 1][i] }
}

fn kib(bytes: usize) -> f64 {
    bytes as f64 / 1024.0
}

fn budget_label(tag: Tag, budget: usize) -> String {
    format!("{} budget ({:.0} KiB)", tag.name(), kib(budget))
}
