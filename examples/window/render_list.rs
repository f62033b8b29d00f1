//! What the simulation thread hands the window thread for each frame: the
//! sprites, the panel's text and the chart's bars, built in a frame arena
//! of `tickarena::in_flight` and sealed, so the window thread draws frame N
//! while the simulation builds frame N+1.

use std::collections::VecDeque;

use glam::Vec2;
use tickarena::frame_loop::{Frame, FrameHistory};
use tickarena::{FrameArena, FrameData, format_in};

use crate::demo::{self, World};
use crate::overlay::Bytes;
use crate::scripted::is_storm;

/// One entity to draw, in world coordinates (the window projects it).
#[derive(Clone, Copy)]
pub struct WorldSprite {
    pub position: Vec2,
    pub style: u8,
}

/// The chart's layers: the demo's tags, then the rest (untagged bytes and
/// the render list's).
pub const LAYERS: [&str; demo::TAGS.len() + 1] = {
    let mut names = ["other"; demo::TAGS.len() + 1];
    let mut k = 0;
    while k < demo::TAGS.len() {
        names[k] = demo::TAGS[k].name();
        k += 1;
    }
    names
};

/// One bar of the chart: a frame's bytes in the simulation's arena and in
/// its render list's, stacked by layer (each tag at its peak), and whether
/// it was a storm.
#[derive(Clone, Copy)]
pub struct Bar {
    pub layers: [usize; LAYERS.len()],
    pub storm: bool,
}

impl Bar {
    fn of(record: &tickarena::frame_loop::FrameRecord, render_bytes: usize) -> Bar {
        let arena_bytes = record.arena_bytes + render_bytes;
        let mut layers = [0; LAYERS.len()];
        for (layer, tag) in layers.iter_mut().zip(demo::TAGS) {
            *layer = record.tags.peak(tag);
        }
        let tagged: usize = layers.iter().sum();
        layers[LAYERS.len() - 1] = arena_bytes.saturating_sub(tagged);
        Bar {
            layers,
            storm: is_storm(record.events),
        }
    }
}

/// A frame as the window draws it. Everything borrowed is in the sealed
/// frame's arena; nothing holds the arena itself (it moves between
/// threads).
pub struct RenderList<'f> {
    pub tick: u64,
    /// Sorted by style, so that drawing batches by colour and shape.
    pub sprites: &'f [WorldSprite],
    pub player: Vec2,
    pub steering: Vec2,
    /// The panel's simulation rows, formatted with `format_in!`.
    pub rows: &'f [(&'static str, &'f str)],
    /// Arena bytes of the recorded frames, oldest first.
    pub bars: &'f [Bar],
    /// Each layer's budget (the latest frame's), if it has one.
    pub budgets: [Option<usize>; LAYERS.len()],
    pub high_water: usize,
    pub history_capacity: usize,
    /// Events of this frame (storm frames are not steady).
    pub events: usize,
    /// The world's entity list capacity (a change means it allocated).
    pub entity_capacity: usize,
    /// Heap allocations the simulation thread made in this tick.
    pub simulation_allocations: u64,
    /// Bytes of this render list in its own arena.
    pub bytes: usize,
}

/// Names [`RenderList`] for sealing.
pub struct Render;

impl FrameData for Render {
    type Of<'f> = RenderList<'f>;
}

/// The frames before this one: the simulation's history, the bytes of
/// their render lists (as many, oldest first) and the most bytes a frame
/// took in both arenas.
pub struct PastFrames<'a> {
    pub history: &'a FrameHistory,
    pub render_bytes: &'a VecDeque<usize>,
    pub high_water: usize,
}

/// Builds the render list of `frame` in `arena` (a frame arena of the
/// frames-in-flight circle, not the simulation's own).
pub fn build<'f>(
    arena: &'f FrameArena,
    world: &World,
    frame: &Frame<'_, World>,
    past: &PastFrames<'_>,
    simulation_allocations: u64,
) -> RenderList<'f> {
    let history = past.history;
    let mut sprites = Vec::with_capacity_in(world.entities.len(), arena);
    sprites.extend(world.entities.iter().map(|entity| WorldSprite {
        position: entity.position,
        style: entity.style,
    }));
    sprites.sort_unstable_by_key(|sprite| sprite.style);

    let simulation = frame.arena();
    let stats = simulation.stats();
    let tick_ms = history
        .latest()
        .map_or(0.0, |record| record.tick_time.as_secs_f64() * 1e3);
    let rows: [(&'static str, &'f str); 9] = [
        ("frame", format_in!(arena, "{}", frame.tick()).leak()),
        (
            "entities",
            format_in!(arena, "{}", world.entities.len()).leak(),
        ),
        ("events", format_in!(arena, "{}", frame.events()).leak()),
        (
            "actions",
            format_in!(arena, "{}", frame.actions_applied()).leak(),
        ),
        (
            "sim arena",
            format_in!(arena, "{}", Bytes(simulation.peak())).leak(),
        ),
        (
            "high water",
            format_in!(arena, "{}", Bytes(stats.high_water)).leak(),
        ),
        (
            "committed",
            format_in!(arena, "{}", Bytes(stats.committed)).leak(),
        ),
        (
            "sim allocs",
            format_in!(arena, "{simulation_allocations}").leak(),
        ),
        ("tick", format_in!(arena, "{tick_ms:.2} ms").leak()),
    ];
    let rows = arena.alloc_slice_copy(&rows);

    let mut bars = Vec::with_capacity_in(history.len(), arena);
    bars.extend(
        history
            .iter()
            .zip(past.render_bytes)
            .map(|(record, &render)| Bar::of(record, render)),
    );
    let mut budgets = [None; LAYERS.len()];
    if let Some(latest) = history.latest() {
        for (budget, tag) in budgets.iter_mut().zip(demo::TAGS) {
            *budget = latest.tags.budget(tag);
        }
    }

    RenderList {
        tick: frame.tick(),
        sprites: sprites.leak(),
        player: world.player,
        steering: world.steering,
        rows,
        bars: bars.leak(),
        budgets,
        high_water: past.high_water,
        history_capacity: history.capacity(),
        events: frame.events(),
        entity_capacity: world.entities.capacity(),
        simulation_allocations,
        bytes: arena.used(),
    }
}
