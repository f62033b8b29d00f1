//! A small headless game written the way a newcomer would: entities in a
//! `SegmentedList`, ~200 input events per frame through the frame loop,
//! actions that allocate and push follow-ups, collisions found in a
//! per-frame hash map and turned into actions by `update`, a visible list
//! built in `update` and drawn (depth-sorted, as text) in `end_frame`, and
//! each hit's target search in a scope of its own (`tickarena::scoped`).
//! Everything per-frame lives in the frame arena; `examples/first_game.rs`
//! runs it and `tests/steady_state.rs` checks it makes no heap allocation in
//! a steady tick.

use glam::Vec2;
use tickarena::frame_loop::{Action, Frame, FromArena, Game};
use tickarena::{FrameArena, FrameHashMap, FrameString, FrameVec, SegmentedList, format_in};

/// Entities live in this square around the origin.
const BOUNDS: f32 = 400.0;
/// Side of a collision-grid cell.
const CELL: f32 = 16.0;
/// How far a hit reaches.
const REACH: f32 = 120.0;
/// At most this many entities; spawns beyond are refused.
const MAX_ENTITIES: usize = 4000;

#[derive(Clone, Copy, Debug)]
pub struct Entity {
    pub id: u32,
    pub position: Vec2,
    pub velocity: Vec2,
    /// Draw order: smaller is further away.
    pub depth: f32,
    pub health: u8,
}

/// An input event.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    Spawn(Vec2),
    /// Hit whatever is nearest this point.
    Hit(Vec2),
    Say(u32),
}

/// The persistent state.
#[derive(Default)]
pub struct Arena2d {
    pub entities: SegmentedList<Entity>,
    /// Ids handed out so far: a plain counter, since `actions` gets `&mut self`.
    pub next_id: u32,
    pub spawned: u64,
    pub despawned: u64,
    pub collisions: u64,
    pub said_bytes: u64,
    /// Bytes of text "drawn" by `end_frame` last tick, and the front-most
    /// entity then (what a renderer would show on top).
    pub drawn_bytes: usize,
    pub front_most: Option<u32>,
    pub visible_last_tick: usize,
}

/// What `update` builds in the frame arena for `end_frame`.
pub struct Visible<'f> {
    /// (depth, id, position) of every entity on screen.
    pub sprites: FrameVec<'f, (f32, u32, Vec2)>,
}

impl<'f> FromArena<'f> for Visible<'f> {
    fn from_arena(arena: &'f FrameArena) -> Self {
        Visible {
            sprites: FromArena::from_arena(arena),
        }
    }
}

struct Spawn {
    id: u32,
    at: Vec2,
}

impl Action<Arena2d> for Spawn {
    fn apply(&mut self, world: &mut Arena2d, _: &mut Frame<'_, Arena2d>) {
        if world.entities.len() >= MAX_ENTITIES {
            return;
        }
        let angle = self.id as f32 * 2.399_963;
        world.entities.push(Entity {
            id: self.id,
            position: self.at,
            velocity: Vec2::from_angle(angle) * 60.0,
            depth: (self.id % 97) as f32,
            health: 3,
        });
        world.spawned += 1;
    }
}

struct Damage {
    id: u32,
}

impl Action<Arena2d> for Damage {
    fn apply(&mut self, world: &mut Arena2d, frame: &mut Frame<'_, Arena2d>) {
        let Some(entity) = world.entities.iter_mut().find(|e| e.id == self.id) else {
            return; // already gone this tick
        };
        entity.health = entity.health.saturating_sub(1);
        if entity.health == 0 {
            // A follow-up action, with text from the arena: applied right
            // after this batch.
            let epitaph = format_in!(frame.arena(), "entity {} is gone", self.id);
            frame.push(Despawn {
                id: self.id,
                epitaph,
            });
        }
    }
}

struct Despawn<'f> {
    id: u32,
    epitaph: FrameString<'f>,
}

impl Action<Arena2d> for Despawn<'_> {
    fn apply(&mut self, world: &mut Arena2d, _: &mut Frame<'_, Arena2d>) {
        let before = world.entities.len();
        world.entities.retain(|e| e.id != self.id);
        world.despawned += (before - world.entities.len()) as u64;
        world.said_bytes += self.epitaph.len() as u64;
    }
}

struct Say<'f>(FrameString<'f>);

impl Action<Arena2d> for Say<'_> {
    fn apply(&mut self, world: &mut Arena2d, _: &mut Frame<'_, Arena2d>) {
        world.said_bytes += self.0.len() as u64;
    }
}

fn cell_of(position: Vec2) -> (i32, i32) {
    let cell = (position / CELL).floor();
    (cell.x as i32, cell.y as i32)
}

impl Game for Arena2d {
    type Event = Event;
    type Scratch<'f> = Visible<'f>;

    fn actions<'f>(&mut self, event: Event, frame: &mut Frame<'f, Self>) {
        match event {
            Event::Spawn(at) => {
                self.next_id += 1;
                frame.push(Spawn {
                    id: self.next_id,
                    at,
                });
            }
            Event::Hit(at) => {
                // The targets in reach, nearest first, built in a scope:
                // the temporary list is gone when the search ends, and only
                // the answer stays in the frame (a real game would also
                // filter by line of sight, team, and so on).
                let entities = &self.entities;
                let target = tickarena::scoped(|temp| {
                    let mut in_reach = Vec::with_capacity_in(64, temp);
                    in_reach.extend(entities.iter().filter_map(|entity| {
                        let distance = entity.position.distance_squared(at);
                        (distance < REACH * REACH).then_some((distance, entity.id))
                    }));
                    in_reach.sort_by(|a, b| a.0.total_cmp(&b.0));
                    in_reach.first().map(|&(_, id)| id)
                });
                if let Some(id) = target {
                    frame.push(Damage { id });
                }
            }
            Event::Say(n) => {
                let line = format_in!(
                    frame.arena(),
                    "player {n} says hello on tick {}",
                    frame.tick()
                );
                frame.push(Say(line));
            }
        }
    }

    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, visible: &mut Visible<'f>) {
        let dt = frame.step().as_secs_f32();
        for entity in self.entities.iter_mut() {
            entity.position += entity.velocity * dt;
            if entity.position.x.abs() > BOUNDS {
                entity.velocity.x = -entity.velocity.x;
            }
            if entity.position.y.abs() > BOUNDS {
                entity.velocity.y = -entity.velocity.y;
            }
        }
        // A per-frame spatial grid: who is in each cell. Two entities in
        // one cell collide: each takes damage, through an action, after
        // this step.
        let mut grid: FrameHashMap<'f, (i32, i32), u32> = FromArena::from_arena(frame.arena());
        grid.reserve(self.entities.len());
        for entity in self.entities.iter() {
            if let Some(other) = grid.insert(cell_of(entity.position), entity.id) {
                self.collisions += 1;
                frame.push(Damage { id: other });
                frame.push(Damage { id: entity.id });
            }
        }
        // What is on screen this step; the last step's list is drawn.
        visible.sprites.clear();
        let screen = BOUNDS * 0.75;
        visible.sprites.extend(
            self.entities
                .iter()
                .filter(|e| e.position.x.abs() < screen && e.position.y.abs() < screen)
                .map(|e| (e.depth, e.id, e.position)),
        );
    }

    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, visible: &mut Visible<'f>) {
        // Back to front, as a painter draws.
        visible.sprites.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let mut drawn = 0;
        for &(depth, id, position) in visible.sprites.iter().rev().take(8) {
            let label = format_in!(frame.arena(), "#{id} at {position:.0} (depth {depth})");
            drawn += label.len();
        }
        let hud = format_in!(
            frame.arena(),
            "tick {} | {} events | {} entities | {} visible | {} steps",
            frame.tick(),
            frame.events(),
            self.entities.len(),
            visible.sprites.len(),
            frame.steps_run(),
        );
        self.drawn_bytes = drawn + hud.len();
        self.front_most = visible.sprites.last().map(|s| s.1);
        self.visible_last_tick = visible.sprites.len();
    }
}

/// The input of tick `tick`: `per_frame` events, a mix of spawns, hits and
/// chatter, the same on every run.
pub fn script(tick: u64, per_frame: u32) -> impl Iterator<Item = Event> {
    (0..per_frame).map(move |i| {
        let seed = (tick as u32).wrapping_mul(2_654_435_761) ^ i.wrapping_mul(40_503);
        let at = Vec2::new(
            (seed % 800) as f32 - 400.0,
            ((seed >> 10) % 800) as f32 - 400.0,
        );
        match seed % 10 {
            0..=3 => Event::Spawn(at),
            4..=7 => Event::Hit(at),
            _ => Event::Say(seed % 4),
        }
    })
}
