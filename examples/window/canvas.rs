//! Drawing into a 0RGB pixel buffer (softbuffer's format), or into a
//! premultiplied ARGB one that starts transparent (the wgpu renderer's
//! overlay): rectangles, circles, lines and 8x8 bitmap text. Everything
//! clips to the buffer.

use font8x8::legacy::BASIC_LEGACY;

/// A colour as 0x00RRGGBB.
pub type Rgb = u32;

/// Mixes `over` onto `under`; `alpha` from 0 (all `under`) to 256. All
/// four bytes mix alike: with the top byte as coverage (an overlay canvas),
/// that is premultiplied "over"; in 0RGB it stays 0.
fn blend(under: u32, over: u32, alpha: u32) -> u32 {
    let mix = |shift: u32| {
        let (a, b) = ((under >> shift) & 0xFF, (over >> shift) & 0xFF);
        ((a * (256 - alpha) + b * alpha) >> 8) << shift
    };
    mix(24) | mix(16) | mix(8) | mix(0)
}

pub struct Canvas<'a> {
    pixels: &'a mut [u32],
    width: i32,
    height: i32,
    /// Or-ed into every colour drawn: 0 for softbuffer's 0RGB, full
    /// coverage (0xFF in the top byte) for an overlay.
    opaque: u32,
}

impl<'a> Canvas<'a> {
    /// A canvas over `pixels`, row by row, `width` pixels a row.
    pub fn new(pixels: &'a mut [u32], width: u32, height: u32) -> Self {
        assert_eq!(pixels.len(), width as usize * height as usize);
        Canvas {
            pixels,
            width: width as i32,
            height: height as i32,
            opaque: 0,
        }
    }

    /// An overlay canvas over `pixels`, `width` pixels a row: premultiplied
    /// ARGB (BGRA bytes in memory), cleared to transparent; what is drawn
    /// covers what is under it, as on a 0RGB canvas.
    #[cfg_attr(
        not(any(feature = "wgpu", test)),
        expect(dead_code, reason = "the wgpu renderer's overlay")
    )]
    pub fn overlay(pixels: &'a mut [u32], width: u32, height: u32) -> Self {
        pixels.fill(0);
        Canvas {
            opaque: 0xFF00_0000,
            ..Canvas::new(pixels, width, height)
        }
    }

    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn clear(&mut self, color: Rgb) {
        self.pixels.fill(color | self.opaque);
    }

    /// The part of the rows `y0..y1` and columns `x0..x1` inside the canvas.
    fn clip(&self, x0: i32, y0: i32, x1: i32, y1: i32) -> Option<(usize, usize, usize, usize)> {
        let (x0, x1) = (x0.max(0), x1.min(self.width));
        let (y0, y1) = (y0.max(0), y1.min(self.height));
        (x0 < x1 && y0 < y1).then_some((x0 as usize, y0 as usize, x1 as usize, y1 as usize))
    }

    fn row(&mut self, y: usize, x0: usize, x1: usize) -> &mut [u32] {
        let start = y * self.width as usize;
        &mut self.pixels[start + x0..start + x1]
    }

    pub fn fill_rect(&mut self, x: i32, y: i32, w: i32, h: i32, color: Rgb) {
        let color = color | self.opaque;
        if let Some((x0, y0, x1, y1)) = self.clip(x, y, x + w, y + h) {
            for row in y0..y1 {
                self.row(row, x0, x1).fill(color);
            }
        }
    }

    /// A rectangle of `color` at `alpha` (0..=256) over what is there.
    pub fn blend_rect(&mut self, x: i32, y: i32, w: i32, h: i32, color: Rgb, alpha: u32) {
        let color = color | self.opaque;
        if let Some((x0, y0, x1, y1)) = self.clip(x, y, x + w, y + h) {
            for row in y0..y1 {
                for pixel in self.row(row, x0, x1) {
                    *pixel = blend(*pixel, color, alpha);
                }
            }
        }
    }

    /// A one-pixel rectangle outline.
    pub fn outline(&mut self, x: i32, y: i32, w: i32, h: i32, color: Rgb) {
        self.fill_rect(x, y, w, 1, color);
        self.fill_rect(x, y + h - 1, w, 1, color);
        self.fill_rect(x, y, 1, h, color);
        self.fill_rect(x + w - 1, y, 1, h, color);
    }

    /// A horizontal line of dashes `dash` pixels long.
    pub fn dashed_line(&mut self, x: i32, y: i32, w: i32, dash: i32, color: Rgb) {
        let mut start = x;
        while start < x + w {
            self.fill_rect(start, y, dash.min(x + w - start), 1, color);
            start += 2 * dash;
        }
    }

    /// A filled disc of radius `r` centred on (`cx`, `cy`).
    pub fn disc(&mut self, cx: i32, cy: i32, r: i32, color: Rgb) {
        for dy in -r..=r {
            // Half the width of the row: the largest dx with dx² + dy² <= r² + r.
            let span = ((r * r + r - dy * dy) as f32).sqrt() as i32;
            self.fill_rect(cx - span, cy + dy, 2 * span + 1, 1, color);
        }
    }

    /// A circle outline of radius `r`, `thickness` pixels wide.
    pub fn ring(&mut self, cx: i32, cy: i32, r: i32, thickness: i32, color: Rgb) {
        let inner = (r - thickness).max(0);
        for dy in -r..=r {
            let outer_span = ((r * r + r - dy * dy) as f32).sqrt() as i32;
            let inner_sq = inner * inner - inner - dy * dy;
            if inner_sq <= 0 {
                self.fill_rect(cx - outer_span, cy + dy, 2 * outer_span + 1, 1, color);
            } else {
                let inner_span = (inner_sq as f32).sqrt() as i32;
                self.fill_rect(cx - outer_span, cy + dy, outer_span - inner_span, 1, color);
                self.fill_rect(
                    cx + inner_span + 1,
                    cy + dy,
                    outer_span - inner_span,
                    1,
                    color,
                );
            }
        }
    }

    /// `text` in the 8x8 font, each font pixel `scale` pixels square;
    /// returns the width drawn. Characters outside ASCII draw as '?'.
    pub fn text(&mut self, x: i32, y: i32, scale: i32, text: &str, color: Rgb) -> i32 {
        let mut pen = x;
        for ch in text.chars() {
            let glyph = BASIC_LEGACY[if ch.is_ascii() {
                ch as usize
            } else {
                '?' as usize
            }];
            for (row, bits) in glyph.iter().enumerate() {
                for column in 0..8 {
                    if bits & (1 << column) != 0 {
                        self.fill_rect(
                            pen + column * scale,
                            y + row as i32 * scale,
                            scale,
                            scale,
                            color,
                        );
                    }
                }
            }
            pen += 8 * scale;
        }
        pen - x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_clip_to_the_canvas() {
        let mut pixels = vec![0; 16 * 8];
        let mut canvas = Canvas::new(&mut pixels, 16, 8);
        canvas.ring(0, 0, 20, 3, 0xBB);
        canvas.text(10, 4, 2, "clipped", 0xCC);
        canvas.fill_rect(-4, -4, 8, 8, 0xFF);
        canvas.disc(15, 7, 6, 0xAA);
        assert_eq!(pixels[0], 0xFF);
        assert_eq!(pixels[16 * 7 + 15], 0xAA);
    }

    #[test]
    fn a_disc_is_round_and_filled() {
        let mut pixels = vec![0; 21 * 21];
        Canvas::new(&mut pixels, 21, 21).disc(10, 10, 10, 1);
        let filled = pixels.iter().filter(|&&p| p == 1).count() as f32;
        // Rows reach r² + r, about (r + 1/2)²: rounder at small radii.
        let area = std::f32::consts::PI * 10.5 * 10.5;
        assert!(
            (filled - area).abs() / area < 0.1,
            "{filled} pixels for {area}"
        );
        assert_eq!(pixels[0], 0, "corners stay empty");
    }

    #[test]
    fn text_draws_glyph_pixels_and_measures_its_width() {
        let mut pixels = vec![0; 32 * 8];
        let width = Canvas::new(&mut pixels, 32, 8).text(0, 0, 1, "Hi", 7);
        assert_eq!(width, 16);
        assert!(pixels.contains(&7));
    }

    #[test]
    fn blending_goes_from_under_to_over() {
        assert_eq!(blend(0x000000, 0xFFFFFF, 0), 0x000000);
        assert_eq!(blend(0x000000, 0xFFFFFF, 256), 0xFFFFFF);
        assert_eq!(blend(0x000000, 0x804020, 128), 0x402010);
    }

    #[test]
    fn an_overlay_starts_transparent_and_blends_premultiplied() {
        let mut pixels = vec![0x1234_5678; 4 * 2];
        let mut canvas = Canvas::overlay(&mut pixels, 4, 2);
        canvas.fill_rect(0, 0, 1, 1, 0x102030);
        canvas.blend_rect(1, 0, 2, 1, 0x804020, 128);
        canvas.fill_rect(2, 0, 1, 1, 0xFFFFFF);
        canvas.blend_rect(2, 0, 1, 1, 0x000000, 128);
        assert_eq!(pixels[0], 0xFF10_2030, "drawn: opaque");
        assert_eq!(
            pixels[1], 0x7F40_2010,
            "half over transparent: half coverage"
        );
        assert_eq!(pixels[2], 0xFF7F_7F7F, "half over opaque: opaque");
        assert_eq!(pixels[3], 0, "untouched: transparent");
        assert!(pixels[4..].iter().all(|&p| p == 0));
    }
}
