//! The world on screen: entities as discs and squares, the player as a
//! ring, drawn from the frame's render list (built and sorted by style on
//! the simulation thread, in a sealed frame arena).

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

pub fn draw(canvas: &mut Canvas<'_>, layout: &Layout, list: &RenderList<'_>) {
    let scene = layout.scene;
    canvas.fill_rect(scene.x, scene.y, scene.w, scene.h, FIELD);
    for line in 1..10 {
        let offset = scene.w * line / 10;
        canvas.fill_rect(scene.x + offset, scene.y, 1, scene.h, GRID);
        canvas.fill_rect(scene.x, scene.y + offset, scene.w, 1, GRID);
    }
    canvas.outline(scene.x - 1, scene.y - 1, scene.w + 2, scene.h + 2, BORDER);

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
        if sprite.style & 1 == 0 {
            canvas.disc(x, y, radius, color);
        } else {
            canvas.fill_rect(
                x - radius,
                y - radius,
                2 * radius + 1,
                2 * radius + 1,
                color,
            );
        }
    }

    let (px, py) = layout.to_screen(list.player);
    canvas.ring(px, py, 4 * radius, radius.max(2), PLAYER);
    let (hx, hy) = layout.to_screen(list.player + list.steering * 24.0);
    canvas.disc(hx, hy, radius, PLAYER);
}
