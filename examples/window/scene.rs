//! The world on screen: entities as discs and squares, the player as a
//! ring, as shapes that either renderer draws, from the frame's render
//! list (built and sorted by style on the simulation thread, in a sealed
//! frame arena).

use crate::canvas::{Canvas, Rgb};
use crate::layout::Layout;
use crate::render_list::RenderList;

pub const BACKGROUND: Rgb = 0x0E1117;
const FIELD: Rgb = 0x141A23;
const GRID: Rgb = 0x1B2330;
const BORDER: Rgb = 0x2E3A4D;
const PLAYER: Rgb = 0xF4F4F6;

/// Four colours; styles 0..8 are a colour and a shape each.
pub const PALETTE: [Rgb; 4] = [0x2EC4B6, 0xFF9F1C, 0xE84A72, 0x8E7DFF];

/// One shape of the scene, in window pixels: what both renderers draw
/// (the canvas with softbuffer, instanced quads with wgpu).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        color: Rgb,
    },
    Disc {
        x: i32,
        y: i32,
        r: i32,
        color: Rgb,
    },
    /// A circle outline `thickness` pixels wide.
    Ring {
        x: i32,
        y: i32,
        r: i32,
        thickness: i32,
        color: Rgb,
    },
}

/// The scene's shapes, back to front: the field, its grid and border,
/// the entities inside it, the player and its heading.
pub fn shapes(layout: &Layout, list: &RenderList<'_>, mut emit: impl FnMut(Shape)) {
    let scene = layout.scene;
    let rect = |x, y, w, h, color| Shape::Rect { x, y, w, h, color };
    emit(rect(scene.x, scene.y, scene.w, scene.h, FIELD));
    for line in 1..10 {
        let offset = scene.w * line / 10;
        emit(rect(scene.x + offset, scene.y, 1, scene.h, GRID));
        emit(rect(scene.x, scene.y + offset, scene.w, 1, GRID));
    }
    let (x, y, w, h) = (scene.x - 1, scene.y - 1, scene.w + 2, scene.h + 2);
    emit(rect(x, y, w, 1, BORDER));
    emit(rect(x, y + h - 1, w, 1, BORDER));
    emit(rect(x, y, 1, h, BORDER));
    emit(rect(x + w - 1, y, 1, h, BORDER));

    let radius = (scene.w / 180).max(1);
    for sprite in list.sprites {
        let (x, y) = layout.to_screen(sprite.position);
        let inside = x >= scene.x - radius
            && x < scene.x + scene.w + radius
            && y >= scene.y - radius
            && y < scene.y + scene.h + radius;
        if !inside {
            continue;
        }
        let color = PALETTE[usize::from(sprite.style >> 1) % PALETTE.len()];
        emit(if sprite.style & 1 == 0 {
            Shape::Disc {
                x,
                y,
                r: radius,
                color,
            }
        } else {
            rect(
                x - radius,
                y - radius,
                2 * radius + 1,
                2 * radius + 1,
                color,
            )
        });
    }

    let (px, py) = layout.to_screen(list.player);
    emit(Shape::Ring {
        x: px,
        y: py,
        r: 4 * radius,
        thickness: radius.max(2),
        color: PLAYER,
    });
    let (hx, hy) = layout.to_screen(list.player + list.steering * 24.0);
    emit(Shape::Disc {
        x: hx,
        y: hy,
        r: radius,
        color: PLAYER,
    });
}

/// The scene on the canvas (the softbuffer renderer).
pub fn draw(canvas: &mut Canvas<'_>, layout: &Layout, list: &RenderList<'_>) {
    shapes(layout, list, |shape| shape.draw(canvas));
}

impl Shape {
    /// This shape on the canvas.
    pub fn draw(self, canvas: &mut Canvas<'_>) {
        match self {
            Shape::Rect { x, y, w, h, color } => canvas.fill_rect(x, y, w, h, color),
            Shape::Disc { x, y, r, color } => canvas.disc(x, y, r, color),
            Shape::Ring {
                x,
                y,
                r,
                thickness,
                color,
            } => canvas.ring(x, y, r, thickness, color),
        }
    }
}
