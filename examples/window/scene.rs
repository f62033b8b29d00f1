//! The world on screen: entities as discs and squares, the player as a
//! ring. The sprite list is built in the frame arena every frame (cull,
//! project, sort by style to batch), so its bytes show in the chart.

use tickarena::FrameArena;

use crate::canvas::{Canvas, Rgb};
use crate::demo::World;
use crate::layout::Layout;

pub const BACKGROUND: Rgb = 0x0E1117;
const FIELD: Rgb = 0x141A23;
const GRID: Rgb = 0x1B2330;
const BORDER: Rgb = 0x2E3A4D;
const PLAYER: Rgb = 0xF4F4F6;

/// Four colours; styles 0..8 are a colour and a shape each.
pub const PALETTE: [Rgb; 4] = [0x2EC4B6, 0xFF9F1C, 0xE84A72, 0x8E7DFF];

/// One entity, projected to the window.
#[derive(Clone, Copy)]
struct Sprite {
    x: i32,
    y: i32,
    style: u8,
}

pub fn draw(canvas: &mut Canvas<'_>, layout: &Layout, world: &World, arena: &FrameArena) {
    let scene = layout.scene;
    canvas.fill_rect(scene.x, scene.y, scene.w, scene.h, FIELD);
    for line in 1..10 {
        let offset = scene.w * line / 10;
        canvas.fill_rect(scene.x + offset, scene.y, 1, scene.h, GRID);
        canvas.fill_rect(scene.x, scene.y + offset, scene.w, 1, GRID);
    }
    canvas.outline(scene.x - 1, scene.y - 1, scene.w + 2, scene.h + 2, BORDER);

    let radius = (scene.w / 180).max(1);
    let mut sprites = Vec::with_capacity_in(world.entities.len(), arena);
    sprites.extend(world.entities.iter().filter_map(|entity| {
        let (x, y) = layout.to_screen(entity.position);
        let inside = x >= scene.x - radius
            && x < scene.x + scene.w + radius
            && y >= scene.y - radius
            && y < scene.y + scene.h + radius;
        inside.then_some(Sprite {
            x,
            y,
            style: entity.style,
        })
    }));
    sprites.sort_unstable_by_key(|sprite| sprite.style);
    for sprite in &sprites {
        let color = PALETTE[usize::from(sprite.style >> 1) % PALETTE.len()];
        if sprite.style & 1 == 0 {
            canvas.disc(sprite.x, sprite.y, radius, color);
        } else {
            canvas.fill_rect(
                sprite.x - radius,
                sprite.y - radius,
                2 * radius + 1,
                2 * radius + 1,
                color,
            );
        }
    }

    let (px, py) = layout.to_screen(world.player);
    canvas.ring(px, py, 4 * radius, radius.max(2), PLAYER);
    let (hx, hy) = layout.to_screen(world.player + world.steering * 24.0);
    canvas.disc(hx, hy, radius, PLAYER);
}
