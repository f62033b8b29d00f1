//! The scene's shapes as the wgpu renderer's instance data: one 32-byte
//! quad per shape, in window pixels, which `quads.wgsl` turns into the
//! same pixels the canvas fills (rectangles exactly; discs and rings by
//! the canvas's rule, dx² + dy² <= r² + r).

use crate::scene::Shape;

/// One instance: a quad `2 * half` pixels wide around `center`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Quad {
    pub center: [f32; 2],
    pub half: [f32; 2],
    /// 0x00RRGGBB, as the canvas's colours.
    pub color: u32,
    /// 0 a rectangle, 1 a disc, 2 a ring.
    pub shape: u32,
    /// A ring's inner radius (its radius less its thickness).
    pub inner: f32,
    pub _pad: u32,
}

pub const RECT: u32 = 0;
pub const DISC: u32 = 1;
pub const RING: u32 = 2;

impl From<Shape> for Quad {
    fn from(shape: Shape) -> Quad {
        // A round shape is centred on its pixel's centre and half a pixel
        // wider than its radius: the shader reads the radius back as
        // `half - 0.5`.
        let round = |x: i32, y: i32, r: i32| {
            let half = r as f32 + 0.5;
            ([x as f32 + 0.5, y as f32 + 0.5], [half, half])
        };
        let (center, half, color, shape, inner) = match shape {
            Shape::Rect { x, y, w, h, color } => {
                let (w, h) = (w.max(0) as f32, h.max(0) as f32);
                (
                    [x as f32 + w / 2.0, y as f32 + h / 2.0],
                    [w / 2.0, h / 2.0],
                    color,
                    RECT,
                    0.0,
                )
            }
            Shape::Disc { x, y, r, color } => {
                let (center, half) = round(x, y, r);
                (center, half, color, DISC, 0.0)
            }
            Shape::Ring {
                x,
                y,
                r,
                thickness,
                color,
            } => {
                let (center, half) = round(x, y, r);
                (center, half, color, RING, (r - thickness).max(0) as f32)
            }
        };
        Quad {
            center,
            half,
            color,
            shape,
            inner,
            _pad: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canvas::Canvas;

    /// Whether the shader keeps the pixel whose centre is (`px` + ½,
    /// `py` + ½): `quads.wgsl`'s rule, in Rust.
    fn covers(quad: &Quad, px: i32, py: i32) -> bool {
        let local = [
            px as f32 + 0.5 - quad.center[0],
            py as f32 + 0.5 - quad.center[1],
        ];
        if local[0].abs() >= quad.half[0] || local[1].abs() >= quad.half[1] {
            return false;
        }
        let d = local[0] * local[0] + local[1] * local[1];
        let r = quad.half[0] - 0.5;
        if quad.shape != RECT && d > r * r + r + 0.25 {
            return false;
        }
        let k = quad.inner * quad.inner - quad.inner;
        let hole = d < k - 0.5 || ((d - k).abs() < 0.25 && local[0].abs() > 0.25);
        !(quad.shape == RING && quad.inner > 0.0 && hole)
    }

    #[test]
    fn a_quad_is_32_bytes() {
        assert_eq!(size_of::<Quad>(), 32);
    }

    #[test]
    fn quads_cover_the_pixels_the_canvas_fills() {
        let shapes = [
            Shape::Rect {
                x: 3,
                y: 4,
                w: 7,
                h: 1,
                color: 1,
            },
            Shape::Rect {
                x: 20,
                y: 2,
                w: 5,
                h: 9,
                color: 1,
            },
            Shape::Disc {
                x: 12,
                y: 20,
                r: 1,
                color: 1,
            },
            Shape::Disc {
                x: 30,
                y: 20,
                r: 6,
                color: 1,
            },
            Shape::Ring {
                x: 20,
                y: 30,
                r: 8,
                thickness: 2,
                color: 1,
            },
            Shape::Ring {
                x: 8,
                y: 32,
                r: 4,
                thickness: 4,
                color: 1,
            },
            // Inner radius 1: the canvas fills its centre row whole.
            Shape::Ring {
                x: 36,
                y: 38,
                r: 3,
                thickness: 2,
                color: 1,
            },
        ];
        let (w, h) = (48, 48);
        for shape in shapes {
            let mut pixels = vec![0; w * h];
            let mut canvas = Canvas::new(&mut pixels, w as u32, h as u32);
            shape.draw(&mut canvas);
            let quad = Quad::from(shape);
            for py in 0..h {
                for px in 0..w {
                    assert_eq!(
                        covers(&quad, px as i32, py as i32),
                        pixels[py * w + px] == 1,
                        "{shape:?} at ({px}, {py})"
                    );
                }
            }
        }
    }
}
