//! The overlay: the figures of the frame in a panel (text formatted in the
//! frame arena), the key help, and a chart of arena bytes per frame over
//! the recorded frames, stacked by tag, with a legend, each tag's budget
//! and the high-water line.

use std::fmt;

use tickarena::{FrameArena, format_in};

use crate::canvas::{Canvas, Rgb};
use crate::controls::HELP;
use crate::layout::{Layout, Rect};
use crate::render_list::{LAYERS, RenderList};

const PANEL: Rgb = 0x0A0D12;
const LABEL: Rgb = 0x8A96A8;
const VALUE: Rgb = 0xF4F4F6;
const TITLE: Rgb = 0x2EC4B6;
/// The layers' colours: input, crowds, steering, despawn, other.
const LAYER_COLORS: [Rgb; LAYERS.len()] = [0x2EC4B6, 0x8E7DFF, 0xFFD166, 0x06D6A0, 0x5C677D];
/// A thin cap on the bars of storm frames.
const STORM_CAP: Rgb = 0xFF9F1C;
const HIGH_WATER: Rgb = 0xE84A72;
const GRID: Rgb = 0x253041;

/// A byte count for people: 512 B, 84.2 KiB, 2.31 MiB.
pub struct Bytes(pub usize);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0 as f64;
        match self.0 {
            0..1024 => write!(f, "{} B", self.0),
            1024..1_048_576 => write!(f, "{:.1} KiB", n / 1024.0),
            _ => write!(f, "{:.2} MiB", n / 1_048_576.0),
        }
    }
}

/// The panel: `rows` of (label, value), the simulation's (formatted on
/// its thread, in the sealed frame) and the window's.
pub fn draw_panel(canvas: &mut Canvas<'_>, layout: &Layout, rows: &[(&str, &str)]) {
    let scale = layout.text_scale;
    let line = 11 * scale;
    // Beside the scene when there is room, over its corner otherwise.
    let label_w = 12 * 8 * scale;
    let needed = label_w + 16 * 8 * scale;
    let (x, y) = if layout.panel.w >= needed && layout.panel.y + layout.panel.h <= layout.chart.y {
        (layout.panel.x, layout.panel.y)
    } else {
        (
            layout.scene.x + layout.margin,
            layout.scene.y + layout.margin,
        )
    };
    let height = line * (rows.len() as i32 + 2);
    canvas.blend_rect(x, y, needed.min(canvas.width() - x), height, PANEL, 200);
    let pad = 2 * scale;
    canvas.text(x + pad, y + pad, scale, "tickarena", TITLE);
    for (row, (label, value)) in rows.iter().enumerate() {
        let row_y = y + pad + line * (row as i32 + 1) + line / 2;
        canvas.text(x + pad, row_y, scale, label, LABEL);
        canvas.text(x + pad + label_w, row_y, scale, value, VALUE);
    }
}

pub fn draw_help(canvas: &mut Canvas<'_>, layout: &Layout) {
    let scale = layout.text_scale;
    let line = 11 * scale;
    let keys = HELP.split("  ");
    let rows = keys.clone().count() as i32 + 1;
    if layout.help.w >= 20 * 8 * scale && layout.help.h >= rows * line {
        canvas.text(layout.help.x, layout.help.y, scale, "controls", TITLE);
        for (row, entry) in keys.enumerate() {
            let y = layout.help.y + line * (row as i32 + 1) + line / 2;
            canvas.text(layout.help.x, y, scale, entry, LABEL);
        }
    } else {
        // No room beside the scene: one small line above the chart.
        let small = 1.max(scale / 2);
        canvas.text(
            layout.chart.x,
            layout.chart.y - 9 * small - 2,
            small,
            HELP,
            LABEL,
        );
    }
}

/// Log-scale position of `bytes` between 256 B and `top` in a plot `h` high.
fn bar_height(bytes: usize, top: usize, h: i32) -> i32 {
    let low = 8.0; // log2(256 B)
    let span = (top as f64).log2() - low;
    let level = ((bytes.max(1) as f64).log2() - low).clamp(0.0, span);
    (level / span * f64::from(h)).round() as i32
}

/// The smallest power of four at least 1.5 times `bytes`, and at least 64 KiB.
fn chart_top(bytes: usize) -> usize {
    let mut top = 64 << 10;
    while top < bytes + bytes / 2 {
        top *= 4;
    }
    top
}

pub fn draw_chart(
    canvas: &mut Canvas<'_>,
    layout: &Layout,
    list: &RenderList<'_>,
    arena: &FrameArena,
) {
    let Rect { x, y, w, h } = layout.chart;
    let scale = layout.text_scale;
    canvas.blend_rect(x, y, w, h, PANEL, 220);
    canvas.outline(x, y, w, h, GRID);

    let title_scale = 1.max(scale / 2);
    let high_water = list.high_water;
    let title = format_in!(
        arena,
        "arena bytes per frame by tag, last {} frames (log scale)",
        list.history_capacity
    );
    let title_end =
        x + 2 * scale + canvas.text(x + 2 * scale, y + 2 * scale, title_scale, &title, LABEL);
    draw_legend(canvas, layout, title_end, title_scale);

    let axis_w = 8 * 8 * title_scale;
    let plot = Rect {
        x: x + axis_w,
        y: y + 6 * scale + 8 * title_scale,
        w: (w - axis_w - 2 * scale).max(1),
        h: (h - 12 * scale - 8 * title_scale).max(1),
    };
    let bottom = plot.y + plot.h;
    // Room for the high water and every budget line.
    let highest_budget = list.budgets.iter().flatten().max().copied().unwrap_or(0);
    let top = chart_top(high_water.max(highest_budget));

    // Grid lines at powers of four, labelled.
    let mut level = 256usize;
    while level <= top {
        let line_y = bottom - bar_height(level, top, plot.h);
        canvas.fill_rect(plot.x, line_y, plot.w, 1, GRID);
        let label = match level {
            0..1024 => format_in!(arena, "{level} B"),
            1024..1_048_576 => format_in!(arena, "{} KiB", level >> 10),
            _ => format_in!(arena, "{} MiB", level >> 20),
        };
        canvas.text(
            x + 2 * scale,
            line_y - 4 * title_scale,
            title_scale,
            &label,
            LABEL,
        );
        level *= 4;
    }

    // One bar per frame, newest on the right.
    let slots = list.history_capacity as i32;
    let bar_w = (plot.w / slots).max(1);
    let gap = i32::from(bar_w >= 3);
    let right = plot.x + plot.w;
    for (age, bar) in list.bars.iter().rev().enumerate() {
        let bar_x = right - (age as i32 + 1) * bar_w;
        if bar_x < plot.x {
            break;
        }
        // Each layer from the sum of those below it to its own top.
        let mut below = 0;
        for (k, &bytes) in bar.layers.iter().enumerate() {
            let (from, to) = (below, below + bytes);
            below = to;
            if bytes == 0 {
                continue;
            }
            let (from_h, to_h) = (bar_height(from, top, plot.h), bar_height(to, top, plot.h));
            let layer_h = (to_h - from_h).max(1);
            canvas.fill_rect(
                bar_x,
                bottom - from_h - layer_h,
                bar_w - gap,
                layer_h,
                LAYER_COLORS[k],
            );
        }
        if bar.storm {
            let bar_h = bar_height(below, top, plot.h);
            canvas.fill_rect(bar_x, bottom - bar_h - scale, bar_w - gap, scale, STORM_CAP);
        }
        // Each budget over the base of its layer, a dash on every other bar.
        if age % 2 == 0 {
            let mut base = 0;
            for (k, budget) in list.budgets.iter().enumerate() {
                if let Some(budget) = budget {
                    let line_h = bar_height(base + budget, top, plot.h);
                    canvas.fill_rect(
                        bar_x,
                        bottom - line_h,
                        bar_w,
                        1.max(scale / 2),
                        LAYER_COLORS[k],
                    );
                }
                base += bar.layers[k];
            }
        }
    }
    if let Some((k, Some(budget))) = list.budgets.iter().enumerate().find(|(_, b)| b.is_some()) {
        let line_y = bottom - bar_height(*budget, top, plot.h);
        let label = format_in!(arena, "{} budget {}", LAYERS[k], Bytes(*budget));
        canvas.text(
            plot.x + 2 * scale,
            line_y - 10 * title_scale,
            title_scale,
            &label,
            LAYER_COLORS[k],
        );
    }

    if high_water > 0 {
        let line_y = bottom - bar_height(high_water, top, plot.h);
        canvas.dashed_line(plot.x, line_y, plot.w, 3 * scale, HIGH_WATER);
        let label = format_in!(arena, "high water {}", Bytes(high_water));
        let label_w = label.len() as i32 * 8 * title_scale;
        canvas.text(
            right - label_w,
            line_y - 10 * title_scale,
            title_scale,
            &label,
            HIGH_WATER,
        );
    }
}

/// The layers' names and colours, after the title if they fit in the
/// chart's width.
fn draw_legend(canvas: &mut Canvas<'_>, layout: &Layout, title_end: i32, text_scale: i32) {
    let Rect { x, y, w, .. } = layout.chart;
    let glyph = 8 * text_scale;
    let width: i32 = LAYERS
        .iter()
        .map(|name| (name.len() as i32 + 3) * glyph)
        .sum();
    let mut at = (x + w - width - glyph).max(title_end + 2 * glyph);
    if at + width > x + w {
        return;
    }
    let top = y + 2 * layout.text_scale;
    for (name, color) in LAYERS.iter().zip(LAYER_COLORS) {
        canvas.fill_rect(at, top, glyph, glyph, color);
        let name_x = at + glyph + glyph / 2;
        at = name_x + canvas.text(name_x, top, text_scale, name, LABEL) + glyph + glyph / 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(86_220).to_string(), "84.2 KiB");
        assert_eq!(Bytes(2_422_210).to_string(), "2.31 MiB");
    }

    #[test]
    fn the_log_scale_spans_the_plot() {
        let top = chart_top(3 << 20);
        assert_eq!(top, 16 << 20);
        assert_eq!(bar_height(256, top, 100), 0);
        assert_eq!(bar_height(top, top, 100), 100);
        assert_eq!(bar_height(usize::MAX, top, 100), 100, "clamped at the top");
        let mid = bar_height(1 << 16, top, 100);
        assert!(mid > 30 && mid < 70, "{mid}");
        assert_eq!(chart_top(0), 64 << 10);
    }
}
