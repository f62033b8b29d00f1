//! The demo game shared by the examples: entities (glam `Vec2` position
//! and velocity) in a `SegmentedList`, and a scripted stream of input
//! events (keys, clicks, spawns, and a burst of 20 000 events every 240
//! frames) that become actions in the frame arena: move the player, spawn,
//! despawn near a click, and log lines built with `format_in!`.

use glam::Vec2;
use tickarena::frame_loop::{Action, Frame, Game};
use tickarena::{FrameArena, SegmentedList, format_in};

/// Arena-backed string: lives for one frame.
type FrameString<'f> = tickarena::String<&'f FrameArena>;

#[derive(Clone, Copy)]
pub struct Entity {
    pub position: Vec2,
    pub velocity: Vec2,
}

/// The persistent state: entities, a player, and what the log saw.
pub struct World {
    pub entities: SegmentedList<Entity>,
    pub player: Vec2,
    pub log_lines: u64,
    pub log_bytes: u64,
    pub despawned: u64,
}

impl World {
    /// An empty world with the player at the origin.
    pub fn new() -> World {
        World {
            entities: SegmentedList::new(),
            player: Vec2::ZERO,
            log_lines: 0,
            log_bytes: 0,
            despawned: 0,
        }
    }
}

/// Input, as a platform layer would deliver it.
#[derive(Clone, Copy)]
pub enum Event {
    Key(char),
    Click(Vec2),
    Spawn { at: Vec2, count: u32 },
}

struct MovePlayer(Vec2);

impl Action<World> for MovePlayer {
    fn apply(&mut self, world: &mut World) {
        world.player += self.0;
    }
}

struct SpawnAt<'f> {
    positions: Vec<Vec2, &'f FrameArena>,
}

impl Action<World> for SpawnAt<'_> {
    fn apply(&mut self, world: &mut World) {
        for &position in &self.positions {
            let velocity = Vec2::new(position.y.sin(), position.x.cos()) * 20.0;
            world.entities.push(Entity { position, velocity });
        }
    }
}

struct DespawnNear(Vec2);

impl Action<World> for DespawnNear {
    fn apply(&mut self, world: &mut World) {
        let before = world.entities.len();
        let target = self.0;
        world
            .entities
            .retain(|entity| entity.position.distance_squared(target) > 400.0);
        world.despawned += (before - world.entities.len()) as u64;
    }
}

struct LogLine<'f>(FrameString<'f>);

impl Action<World> for LogLine<'_> {
    fn apply(&mut self, world: &mut World) {
        world.log_lines += 1;
        world.log_bytes += self.0.len() as u64;
    }
}

impl Game for World {
    type Event = Event;

    fn actions<'f>(&self, event: Event, frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        match event {
            Event::Key(key) => {
                let direction = match key {
                    'w' => Vec2::Y,
                    's' => Vec2::NEG_Y,
                    'a' => Vec2::NEG_X,
                    _ => Vec2::X,
                };
                frame.push(MovePlayer(direction * 2.0));
                frame.push(LogLine(format_in!(
                    arena,
                    "key {key} -> player at {:.1}",
                    self.player
                )));
            }
            Event::Click(at) => {
                frame.push(DespawnNear(at));
                frame.push(LogLine(format_in!(
                    arena,
                    "click at ({:.0}, {:.0})",
                    at.x,
                    at.y
                )));
            }
            Event::Spawn { at, count } => {
                let mut positions = Vec::with_capacity_in(count as usize, arena);
                positions.extend((0..count).map(|i| at + Vec2::new(i as f32, (i * 7 % 13) as f32)));
                frame.push(SpawnAt { positions });
                frame.push(LogLine(format_in!(
                    arena,
                    "spawn {count} at {at:?} on tick {}",
                    frame.tick()
                )));
            }
        }
    }

    fn update(&mut self, frame: &Frame<'_, Self>) {
        let dt = frame.step().as_secs_f32();
        for entity in self.entities.iter_mut() {
            entity.position += entity.velocity * dt;
            if entity.position.x.abs() > 500.0 {
                entity.velocity.x = -entity.velocity.x;
            }
            if entity.position.y.abs() > 500.0 {
                entity.velocity.y = -entity.velocity.y;
            }
        }
        // Keep the world bounded: the oldest entities leave when crowded.
        while self.entities.len() > 20_000 {
            self.entities.swap_remove(0);
            self.despawned += 1;
        }
    }
}

/// The scripted input of frame `tick`: `per_frame` ordinary events, and a
/// burst of many thousands every 240 frames.
pub fn script(tick: u64, per_frame: u32) -> impl Iterator<Item = Event> {
    let burst = if tick % 240 == 120 { 20_000 } else { 0 };
    (0..per_frame + burst).map(move |i| {
        let seed = (tick as u32).wrapping_mul(2_654_435_761) ^ i.wrapping_mul(40_503);
        let at = Vec2::new(
            (seed % 1000) as f32 - 500.0,
            ((seed >> 10) % 1000) as f32 - 500.0,
        );
        match seed % 16 {
            0..=9 => Event::Key(['w', 'a', 's', 'd'][(seed >> 4) as usize % 4]),
            10..=13 => Event::Click(at),
            _ => Event::Spawn {
                at,
                count: 1 + seed % 8,
            },
        }
    })
}
