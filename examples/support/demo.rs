//! The demo game shared by the examples: entities (glam `Vec2` position
//! and velocity) in a `SegmentedList`, and input events (keys, clicks,
//! spawns, steering, messages) that become actions in the frame arena:
//! move the player, spawn, despawn near a click, and log lines built with
//! `format_in!`. `script` is the headless examples' input: a steady stream
//! and a burst of 20 000 events every 240 frames. With workers
//! ([`World::with_workers`]) the update also steers entities away from
//! crowds on a rayon pool: each worker builds a spatial grid of its share
//! of the entities in its own frame arena (`Frame::threads`) and hands the
//! steering back as a slice.

// Shared by several examples, each of which uses part of it.
#![allow(dead_code)]

use glam::Vec2;
use rayon::prelude::*;
use tickarena::frame_loop::{Action, Frame, Game};
use tickarena::{FrameString, FrameVec, SegmentedList, ThreadArenas, format_in};

/// Entities and the player stay within this distance of the origin.
pub const BOUNDS: f32 = 500.0;

/// How fast a steered player moves, in world units per second.
const PLAYER_SPEED: f32 = 300.0;

#[derive(Clone, Copy)]
pub struct Entity {
    pub position: Vec2,
    pub velocity: Vec2,
    /// Which look a view gives it (shape and colour), from 0 to 7.
    pub style: u8,
}

/// The persistent state: entities, a player, and what the log saw.
pub struct World {
    pub entities: SegmentedList<Entity>,
    pub player: Vec2,
    /// Where the player is heading (unit length or zero).
    pub steering: Vec2,
    pub log_lines: u64,
    pub log_bytes: u64,
    pub despawned: u64,
    /// Workers for the crowd steering; `None` runs the update on one thread.
    pub workers: Option<rayon::ThreadPool>,
}

impl World {
    /// An empty world with the player at the origin.
    pub fn new() -> World {
        World {
            entities: SegmentedList::new(),
            player: Vec2::ZERO,
            steering: Vec2::ZERO,
            log_lines: 0,
            log_bytes: 0,
            despawned: 0,
            workers: None,
        }
    }

    /// An empty world whose update steers away from crowds on `threads`
    /// rayon workers.
    pub fn with_workers(threads: usize) -> World {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("demo worker {i}"))
            .build()
            .expect("a rayon pool");
        World {
            workers: Some(pool),
            ..World::new()
        }
    }
}

/// Nudges every entity away from the crowded cells around it. The entity
/// list's segments are cut into chunks; each rayon job builds a grid of its
/// chunk in its worker's arena and returns the nudges as a slice in that
/// arena, which outlives the job (it borrows the `ThreadArenas`, reset with
/// the tick).
fn avoid_crowds(
    entities: &mut SegmentedList<Entity>,
    pool: &rayon::ThreadPool,
    frame: &Frame<'_, World>,
    dt: f32,
) {
    let threads = frame.threads();
    // Frozen into slices: arena `Vec`s stay on this thread.
    let chunks: &[&[Entity]] = {
        let mut chunks = Vec::new_in(frame.arena());
        for segment in entities.segments() {
            chunks.extend(segment.chunks(CROWD_CHUNK));
        }
        chunks.leak()
    };
    let nudges = frame
        .arena()
        .alloc_slice_fill_with(chunks.len(), |_| &[][..]);
    pool.install(|| {
        chunks
            .par_iter()
            .zip(nudges.par_iter_mut())
            .for_each(|(chunk, nudge)| *nudge = crowd_nudges(threads, chunk));
    });
    let nudges = nudges.iter().flat_map(|chunk| chunk.iter());
    for (entity, nudge) in entities.iter_mut().zip(nudges) {
        entity.velocity += *nudge * dt;
    }
}

/// Side of a cell of the per-frame crowd map.
const CROWD_CELL: f32 = 25.0;
/// Entities in one cell above which they slow down.
const CROWDED: u32 = 12;

/// Slows entities in crowded cells a little. The cells are counted in a
/// hashbrown map built in the frame arena each step (`FrameHashMap`), so
/// it costs no heap allocation.
fn slow_in_crowds(entities: &mut SegmentedList<Entity>, arena: &tickarena::FrameArena) {
    let cell = |position: Vec2| {
        let cell = (position / CROWD_CELL).floor();
        (cell.x as i32, cell.y as i32)
    };
    let mut counts = tickarena::FrameHashMap::with_capacity_in(1024, arena);
    for entity in entities.iter() {
        *counts.entry(cell(entity.position)).or_insert(0u32) += 1;
    }
    for entity in entities.iter_mut() {
        if counts[&cell(entity.position)] > CROWDED {
            entity.velocity *= 0.995;
        }
    }
}

/// Entities per rayon job in the crowd steering.
const CROWD_CHUNK: usize = 1024;
/// Cells per side of the crowd grid over the world.
const GRID: usize = 32;

fn grid_cell(position: Vec2) -> (usize, usize) {
    let cell = |v: f32| (((v + BOUNDS) / (2.0 * BOUNDS) * GRID as f32) as usize).min(GRID - 1);
    (cell(position.x), cell(position.y))
}

/// On a worker: a grid of `chunk` in this thread's arena, and for each
/// entity a nudge away from the more crowded neighbouring cells.
fn crowd_nudges<'a>(threads: &'a ThreadArenas, chunk: &[Entity]) -> &'a [Vec2] {
    let arena = threads.local();
    let grid = arena.alloc_slice_fill_with(GRID * GRID, |_| 0u16);
    for entity in chunk {
        let (x, y) = grid_cell(entity.position);
        grid[y * GRID + x] = grid[y * GRID + x].saturating_add(1);
    }
    let count = |x: usize, y: usize| f32::from(grid[y.min(GRID - 1) * GRID + x.min(GRID - 1)]);
    arena.alloc_slice_fill_with(chunk.len(), |i| {
        let (x, y) = grid_cell(chunk[i].position);
        let across = count(x + 1, y) - count(x.saturating_sub(1), y);
        let down = count(x, y + 1) - count(x, y.saturating_sub(1));
        -Vec2::new(across, down) * 2.0
    })
}

/// Input, as a platform layer would deliver it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// A key press: 'w', 'a', 's', 'd' nudge the player.
    Key(char),
    /// Despawns the entities near a point.
    Click(Vec2),
    /// Spawns `count` entities flying out from a point.
    Spawn { at: Vec2, count: u32 },
    /// Spawns `count` entities flying out from the player.
    Burst { count: u32 },
    /// Sets the direction the player moves in (zero: stop).
    Steer(Vec2),
    /// A message from somewhere (the network, a script): logged.
    Message(u32),
}

struct MovePlayer(Vec2);

impl Action<World> for MovePlayer {
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
        world.player += self.0;
    }
}

struct SpawnAt<'f> {
    positions: FrameVec<'f, Vec2>,
}

impl Action<World> for SpawnAt<'_> {
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
        let first = world.entities.len() as u32;
        for (i, &position) in self.positions.iter().enumerate() {
            let n = first.wrapping_add(i as u32);
            // Spread over the circle by the golden angle, at a few speeds.
            let angle = n as f32 * 2.399_963;
            let speed = 40.0 + (n % 5) as f32 * 25.0;
            world.entities.push(Entity {
                position,
                velocity: Vec2::from_angle(angle) * speed,
                style: (n % 8) as u8,
            });
        }
    }
}

struct Steer(Vec2);

impl Action<World> for Steer {
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
        world.steering = self.0.normalize_or_zero();
    }
}

struct DespawnNear(Vec2);

impl Action<World> for DespawnNear {
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
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
    fn apply(&mut self, world: &mut World, _: &mut Frame<'_, World>) {
        world.log_lines += 1;
        world.log_bytes += self.0.len() as u64;
    }
}

impl Game for World {
    type Event = Event;
    type Scratch<'f> = ();

    fn actions<'f>(&mut self, event: Event, frame: &mut Frame<'f, Self>) {
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
            Event::Burst { count } => self.actions(
                Event::Spawn {
                    at: self.player,
                    count,
                },
                frame,
            ),
            Event::Spawn { at, count } => {
                let mut positions = Vec::with_capacity_in(count as usize, arena);
                // A small cluster around `at`; the velocities spread them out.
                positions.extend(
                    (0..count)
                        .map(|i| at + Vec2::new((i % 7) as f32 - 3.0, (i * 5 % 11) as f32 - 5.0)),
                );
                frame.push(SpawnAt { positions });
                frame.push(LogLine(format_in!(
                    arena,
                    "spawn {count} at {at:?} on tick {}",
                    frame.tick()
                )));
            }
            Event::Steer(direction) => frame.push(Steer(direction)),
            Event::Message(id) => {
                frame.push(LogLine(format_in!(
                    arena,
                    "message {id} on tick {}",
                    frame.tick()
                )));
            }
        }
    }

    fn update<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        let dt = frame.step().as_secs_f32();
        self.player = (self.player + self.steering * PLAYER_SPEED * dt)
            .clamp(Vec2::splat(-BOUNDS), Vec2::splat(BOUNDS));
        if let Some(pool) = &self.workers {
            avoid_crowds(&mut self.entities, pool, frame, dt);
        }
        slow_in_crowds(&mut self.entities, frame.arena());
        for entity in self.entities.iter_mut() {
            entity.position += entity.velocity * dt;
            // Bounce off the walls, heading back in.
            if entity.position.x.abs() > BOUNDS {
                entity.velocity.x = -entity.velocity.x.abs() * entity.position.x.signum();
            }
            if entity.position.y.abs() > BOUNDS {
                entity.velocity.y = -entity.velocity.y.abs() * entity.position.y.signum();
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
