//! Where things go in the window: the square scene, the stats panel and the
//! key help on its right, the memory chart along the bottom; and
//! the mapping between world and window coordinates.

use glam::Vec2;

use crate::demo::BOUNDS;

/// Rows of figures in the stats panel (a title line and padding besides).
pub const PANEL_ROWS: i32 = 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Pixels per font pixel of the 8x8 text.
    pub text_scale: i32,
    pub margin: i32,
    pub scene: Rect,
    pub panel: Rect,
    pub help: Rect,
    pub chart: Rect,
}

impl Layout {
    /// The layout of a `width` x `height` window at `scale_factor`.
    pub fn new(width: u32, height: u32, scale_factor: f64) -> Layout {
        let (width, height) = (width as i32, height as i32);
        // 16-pixel text on a 1280-wide window at scale 1; smaller windows
        // get 8-pixel text, high-DPI screens proportionally more.
        let dpi = (scale_factor.round() as i32).clamp(1, 4);
        let text_scale = if width >= 960 * dpi { 2 * dpi } else { dpi };
        let margin = 4 * text_scale;
        let chart_h = (height / 4).clamp(40, 100 * text_scale);
        let chart = Rect {
            x: margin,
            y: height - chart_h - margin,
            w: (width - 2 * margin).max(1),
            h: chart_h,
        };
        let side = (width - 2 * margin).min(chart.y - 2 * margin).max(1);
        let scene = Rect {
            x: margin,
            y: margin,
            w: side,
            h: side,
        };
        // The stats panel and the key help share the column right of the scene.
        let column_x = scene.x + side + 2 * margin;
        let column_w = (width - column_x - margin).max(0);
        let panel_h = (PANEL_ROWS + 2) * 11 * text_scale;
        let panel = Rect {
            x: column_x,
            y: margin,
            w: column_w,
            h: panel_h,
        };
        let help = Rect {
            x: column_x,
            y: margin + panel_h + margin,
            w: column_w,
            h: (side - panel_h - margin).max(0),
        };
        Layout {
            text_scale,
            margin,
            scene,
            panel,
            help,
            chart,
        }
    }

    /// World coordinates (y up, ±BOUNDS) to window pixels (y down).
    pub fn to_screen(self, world: Vec2) -> (i32, i32) {
        let unit = (world + Vec2::splat(BOUNDS)) / (2.0 * BOUNDS);
        let side = self.scene.w as f32;
        (
            self.scene.x + (unit.x * side) as i32,
            self.scene.y + ((1.0 - unit.y) * side) as i32,
        )
    }

    /// Window pixels to world coordinates, clamped into the world.
    pub fn to_world(self, x: f64, y: f64) -> Vec2 {
        let side = self.scene.w as f32;
        let unit = Vec2::new(
            (x as f32 - self.scene.x as f32) / side,
            1.0 - (y as f32 - self.scene.y as f32) / side,
        );
        (unit * 2.0 * BOUNDS - Vec2::splat(BOUNDS)).clamp(Vec2::splat(-BOUNDS), Vec2::splat(BOUNDS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn world_and_screen_coordinates_round_trip() {
        for (width, height) in [(1280, 720), (640, 480), (300, 900)] {
            let layout = Layout::new(width, height, 1.0);
            for world in [
                Vec2::ZERO,
                Vec2::new(-400.0, 250.0),
                Vec2::new(499.0, -499.0),
            ] {
                let (x, y) = layout.to_screen(world);
                let back = layout.to_world(f64::from(x), f64::from(y));
                let pixel = 2.0 * BOUNDS / layout.scene.w as f32;
                assert!(
                    (back - world).abs().max_element() <= pixel,
                    "{world} -> {back}"
                );
            }
        }
    }

    #[test]
    fn the_scene_is_square_and_above_the_chart() {
        let layout = Layout::new(1280, 720, 1.0);
        assert_eq!(layout.scene.w, layout.scene.h);
        assert!(layout.scene.y + layout.scene.h <= layout.chart.y);
        assert!(layout.panel.w > 300, "room for the stats beside the scene");
        assert_eq!(layout.text_scale, 2);
        // y is up in the world, down on screen.
        assert!(layout.to_screen(Vec2::new(0.0, 100.0)).1 < layout.to_screen(Vec2::ZERO).1);
    }

    #[test]
    fn tiny_windows_still_lay_out() {
        for (width, height) in [(1, 1), (10, 300), (300, 10)] {
            let layout = Layout::new(width, height, 1.0);
            assert!(layout.scene.w >= 1 && layout.chart.w >= 1);
        }
    }
}
