//! The demo game shared by the examples: entities (glam `Vec2` position
//! and velocity) in a `SegmentedList`, and input events (keys, clicks,
//! spawns, steering, messages) that become actions in the frame arena:
//! move the player, spawn, ask for a despawn near a click, and log lines
//! built with `format_in!` (world units as whole numbers: a log line
//! needs no float formatting, the slowest part of `fmt`). `script` is the headless examples' input: a
//! steady stream and a burst of 20 000 events every 240 frames.
//!
//! What a real game does with the frame's work, this one does too: a click
//! only records a despawn request, and the frame's requests are applied in
//! one pass at its end, through a spatial grid of the requests built in the
//! frame's memory (so a frame with thousands of clicks still walks the
//! entities once). Each update step counts the entities per cell of a
//! crowd grid, also frame data, and slows those in crowded cells.
//!
//! Where the frame's data lives is the `M` parameter ([`FrameMemory`]):
//! the frame arena ([`InArena`], what the examples run), or the global
//! allocator ([`OnHeap`]: the same code through the `Allocator` parameter,
//! for `actions`'s comparison).
//!
//! With workers ([`World::with_workers`]) the update also steers entities
//! away from crowds on a rayon pool: each worker builds a grid of its share
//! of the entities in its own frame arena (`Frame::threads`) and hands the
//! steering back as a slice.
//!
//! Each part of the frame's work runs under a [`Tag`] ([`INPUT`],
//! [`CROWDS`], [`STEERING`] on the workers, [`DESPAWN`]), so the frame's
//! bytes per part are in every `FrameRecord`, the sizing report and the
//! charts.

// Shared by several examples, each of which uses part of it.
#![allow(dead_code)]

use std::alloc::{Allocator, Global};
use std::marker::PhantomData;

use glam::Vec2;
use rayon::prelude::*;
use tickarena::frame_loop::{Action, Frame, Game};
use tickarena::{FrameArena, SegmentedList, Tag, ThreadArenas, format_in};

/// The events' actions, log lines and spawn lists.
pub const INPUT: Tag = Tag::new("input");
/// The update's crowd grid.
pub const CROWDS: Tag = Tag::new("crowds");
/// The workers' steering grids and nudges (in their own arenas).
pub const STEERING: Tag = Tag::new("steering");
/// The frame end's grid of despawn requests.
pub const DESPAWN: Tag = Tag::new("despawn");
/// Every tag of the demo, in the order a frame meets them.
pub const TAGS: [Tag; 4] = [INPUT, CROWDS, STEERING, DESPAWN];

/// Entities and the player stay within this distance of the origin.
pub const BOUNDS: f32 = 500.0;

/// How fast a steered player moves, in world units per second.
const PLAYER_SPEED: f32 = 300.0;

/// Where a frame's data lives: the game's strings, vectors, grids and
/// actions are allocated through `Alloc`.
pub trait FrameMemory: 'static {
    /// The allocator the frame's data takes.
    type Alloc<'f>: Allocator + Copy;
    /// How the summary names it.
    const NAME: &'static str;
    /// The allocator of the frame whose arena is `arena`.
    fn of(arena: &FrameArena) -> Self::Alloc<'_>;
    /// Queues `action` on the frame, its state allocated through `Alloc`.
    fn push<'f, G: 'static>(frame: &mut Frame<'f, G>, action: impl Action<G> + 'f);
}

/// The frame's data in the frame arena: what a tickarena game does.
pub struct InArena;

impl FrameMemory for InArena {
    type Alloc<'f> = &'f FrameArena;
    const NAME: &'static str = "frame arena";

    fn of(arena: &FrameArena) -> &FrameArena {
        arena
    }

    fn push<'f, G: 'static>(frame: &mut Frame<'f, G>, action: impl Action<G> + 'f) {
        frame.push(action);
    }
}

/// The frame's data on the global allocator: every string, vector, grid and
/// action of the game is a heap allocation, freed when dropped. (The loop's
/// own queue of action pointers stays in its arena.)
pub struct OnHeap;

impl FrameMemory for OnHeap {
    type Alloc<'f> = Global;
    const NAME: &'static str = "global allocator";

    fn of(_: &FrameArena) -> Global {
        Global
    }

    fn push<'f, G: 'static>(frame: &mut Frame<'f, G>, action: impl Action<G> + 'f) {
        frame.push(Boxed(Box::new(action)));
    }
}

/// An action on the heap, queued as a pointer to it.
struct Boxed<'f, G>(Box<dyn Action<G> + 'f>);

impl<G> Action<G> for Boxed<'_, G> {
    fn apply(&mut self, world: &mut G, frame: &mut Frame<'_, G>) {
        self.0.apply(world, frame);
    }
}

/// A string of the frame.
type Text<'f, M> = tickarena::String<<M as FrameMemory>::Alloc<'f>>;
/// A vector of the frame.
type List<'f, T, M> = Vec<T, <M as FrameMemory>::Alloc<'f>>;

#[derive(Clone, Copy)]
pub struct Entity {
    pub position: Vec2,
    pub velocity: Vec2,
    /// Which look a view gives it (shape and colour), from 0 to 7.
    pub style: u8,
}

/// The persistent state: entities, a player, and what the log saw.
pub struct World<M: FrameMemory = InArena> {
    pub entities: SegmentedList<Entity>,
    pub player: Vec2,
    /// Where the player is heading (unit length or zero).
    pub steering: Vec2,
    pub log_lines: u64,
    pub log_bytes: u64,
    pub despawned: u64,
    /// Workers for the crowd steering; `None` runs the update on one thread.
    pub workers: Option<rayon::ThreadPool>,
    /// The frame's despawn requests, applied together at its end. Kept
    /// between frames (empty), so its capacity is allocated once.
    despawn_requests: Vec<Vec2>,
    memory: PhantomData<M>,
}

impl World {
    /// An empty world with the player at the origin, its frame data in
    /// the frame arena.
    pub fn new() -> World {
        World::empty()
    }
}

impl<M: FrameMemory> World<M> {
    /// An empty world with the player at the origin.
    pub fn empty() -> World<M> {
        World {
            entities: SegmentedList::new(),
            player: Vec2::ZERO,
            steering: Vec2::ZERO,
            log_lines: 0,
            log_bytes: 0,
            despawned: 0,
            workers: None,
            // Room for a busy frame's clicks from the start, so that a
            // steady frame never grows it (a storm's may).
            despawn_requests: Vec::with_capacity(1024),
            memory: PhantomData,
        }
    }

    /// An empty world whose update steers away from crowds on `threads`
    /// rayon workers.
    pub fn with_workers(threads: usize) -> World<M> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("demo worker {i}"))
            .build()
            .expect("a rayon pool");
        World {
            workers: Some(pool),
            ..World::empty()
        }
    }

    /// Applies the frame's despawn requests in one pass over the entities:
    /// the requests are sorted into a grid whose cells are as wide as the
    /// despawn radius (counted, then placed: two arrays of the frame), so
    /// each entity looks only at the requests in the 3×3 cells around it.
    fn apply_despawn_requests(&mut self, memory: M::Alloc<'_>) {
        if self.despawn_requests.is_empty() {
            return;
        }
        const SIDE: usize = DESPAWN_GRID;
        // starts[c]..starts[c + 1] are cell c's requests in `sorted`.
        let mut starts: List<'_, u32, M> = Vec::with_capacity_in(SIDE * SIDE + 1, memory);
        starts.resize(SIDE * SIDE + 1, 0);
        for &at in &self.despawn_requests {
            starts[cell_index(at, SIDE) + 1] += 1;
        }
        for cell in 0..SIDE * SIDE {
            starts[cell + 1] += starts[cell];
        }
        let mut next = starts.clone();
        let mut sorted: List<'_, Vec2, M> =
            Vec::with_capacity_in(self.despawn_requests.len(), memory);
        sorted.resize(self.despawn_requests.len(), Vec2::ZERO);
        for &at in &self.despawn_requests {
            let cell = cell_index(at, SIDE);
            sorted[next[cell] as usize] = at;
            next[cell] += 1;
        }
        self.despawn_requests.clear();
        let before = self.entities.len();
        self.entities.retain(|entity| {
            let (x, y) = cell_of(entity.position, SIDE);
            // A row's three cells are next to each other in `sorted`.
            let (left, right) = (x.saturating_sub(1), (x + 1).min(SIDE - 1));
            (y.saturating_sub(1)..=(y + 1).min(SIDE - 1)).all(|row| {
                let requests =
                    starts[row * SIDE + left] as usize..starts[row * SIDE + right + 1] as usize;
                sorted[requests].iter().all(|at| {
                    entity.position.distance_squared(*at) > DESPAWN_RADIUS * DESPAWN_RADIUS
                })
            })
        });
        self.despawned += (before - self.entities.len()) as u64;
    }
}

/// How close to a click an entity is despawned.
const DESPAWN_RADIUS: f32 = 20.0;
/// Cells per side of the despawn grid: each as wide as the radius.
const DESPAWN_GRID: usize = (2.0 * BOUNDS / DESPAWN_RADIUS) as usize;

/// The cell of `position` in a grid of `side` × `side` cells over the
/// world (positions just outside it fall in the border cells).
#[inline]
fn cell_of(position: Vec2, side: usize) -> (usize, usize) {
    // A multiplication: a division would be the slowest step here.
    let cells_per_unit = side as f32 / (2.0 * BOUNDS);
    let cell = |v: f32| (((v + BOUNDS) * cells_per_unit).max(0.0) as usize).min(side - 1);
    (cell(position.x), cell(position.y))
}

/// [`cell_of`] as an index into the grid's row-major array.
#[inline]
fn cell_index(position: Vec2, side: usize) -> usize {
    let (x, y) = cell_of(position, side);
    y * side + x
}

/// Nudges every entity away from the crowded cells around it. The entity
/// list's segments are cut into chunks; each rayon job builds a grid of its
/// chunk in its worker's arena and returns the nudges as a slice in that
/// arena, which outlives the job (it borrows the `ThreadArenas`, reset with
/// the tick).
fn avoid_crowds<G>(
    entities: &mut SegmentedList<Entity>,
    pool: &rayon::ThreadPool,
    frame: &Frame<'_, G>,
    dt: f32,
) {
    let _steering = frame.arena().tag(STEERING);
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

/// Entities in one cell of the crowd grid above which they slow down.
const CROWDED: u16 = 12;

/// Entities in each cell of the crowd grid, a grid of the frame (so, in
/// the arena, it costs no heap allocation).
fn crowd_counts<A: Allocator>(entities: &SegmentedList<Entity>, memory: A) -> Vec<u16, A> {
    let mut counts = Vec::with_capacity_in(GRID * GRID, memory);
    counts.resize(GRID * GRID, 0u16);
    for entity in entities.iter() {
        let cell = cell_index(entity.position, GRID);
        counts[cell] = counts[cell].saturating_add(1);
    }
    counts
}

/// Entities per rayon job in the crowd steering.
const CROWD_CHUNK: usize = 1024;
/// Cells per side of the crowd grids over the world.
const GRID: usize = 32;

/// On a worker: a grid of `chunk` in this thread's arena, and for each
/// entity a nudge away from the more crowded neighbouring cells.
fn crowd_nudges<'a>(threads: &'a ThreadArenas, chunk: &[Entity]) -> &'a [Vec2] {
    let arena = threads.local();
    let _steering = arena.tag(STEERING);
    let grid = arena.alloc_slice_fill_with(GRID * GRID, |_| 0u16);
    for entity in chunk {
        let cell = cell_index(entity.position, GRID);
        grid[cell] = grid[cell].saturating_add(1);
    }
    let count = |x: usize, y: usize| f32::from(grid[y.min(GRID - 1) * GRID + x.min(GRID - 1)]);
    arena.alloc_slice_fill_with(chunk.len(), |i| {
        let (x, y) = cell_of(chunk[i].position, GRID);
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

impl<M: FrameMemory> Action<World<M>> for MovePlayer {
    fn apply(&mut self, world: &mut World<M>, _: &mut Frame<'_, World<M>>) {
        world.player += self.0;
    }
}

struct SpawnAt<'f, M: FrameMemory> {
    positions: List<'f, Vec2, M>,
}

impl<M: FrameMemory> Action<World<M>> for SpawnAt<'_, M> {
    fn apply(&mut self, world: &mut World<M>, _: &mut Frame<'_, World<M>>) {
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

impl<M: FrameMemory> Action<World<M>> for Steer {
    fn apply(&mut self, world: &mut World<M>, _: &mut Frame<'_, World<M>>) {
        world.steering = self.0.normalize_or_zero();
    }
}

/// Asks for the entities near a point to go, at the end of the frame.
struct DespawnNear(Vec2);

impl<M: FrameMemory> Action<World<M>> for DespawnNear {
    fn apply(&mut self, world: &mut World<M>, _: &mut Frame<'_, World<M>>) {
        world.despawn_requests.push(self.0);
    }
}

struct LogLine<'f, M: FrameMemory>(Text<'f, M>);

impl<M: FrameMemory> Action<World<M>> for LogLine<'_, M> {
    fn apply(&mut self, world: &mut World<M>, _: &mut Frame<'_, World<M>>) {
        world.log_lines += 1;
        world.log_bytes += self.0.len() as u64;
    }
}

impl<M: FrameMemory> Game for World<M> {
    type Event = Event;
    type Scratch<'f> = ();

    fn actions<'f>(&mut self, event: Event, frame: &mut Frame<'f, Self>) {
        let memory = M::of(frame.arena());
        let _input = frame.arena().tag(INPUT);
        match event {
            Event::Key(key) => {
                let direction = match key {
                    'w' => Vec2::Y,
                    's' => Vec2::NEG_Y,
                    'a' => Vec2::NEG_X,
                    _ => Vec2::X,
                };
                M::push(frame, MovePlayer(direction * 2.0));
                M::push(
                    frame,
                    LogLine(format_in!(
                        memory,
                        "key {key} -> player at ({}, {})",
                        self.player.x as i32,
                        self.player.y as i32
                    )),
                );
            }
            Event::Click(at) => {
                M::push(frame, DespawnNear(at));
                M::push(
                    frame,
                    LogLine(format_in!(
                        memory,
                        "click at ({}, {})",
                        at.x as i32,
                        at.y as i32
                    )),
                );
            }
            Event::Burst { count } => self.actions(
                Event::Spawn {
                    at: self.player,
                    count,
                },
                frame,
            ),
            Event::Spawn { at, count } => {
                let mut positions = Vec::with_capacity_in(count as usize, memory);
                // A small cluster around `at`; the velocities spread them out.
                positions.extend(
                    (0..count)
                        .map(|i| at + Vec2::new((i % 7) as f32 - 3.0, (i * 5 % 11) as f32 - 5.0)),
                );
                M::push(frame, SpawnAt { positions });
                M::push(
                    frame,
                    LogLine(format_in!(
                        memory,
                        "spawn {count} at ({}, {}) on tick {}",
                        at.x as i32,
                        at.y as i32,
                        frame.tick()
                    )),
                );
            }
            Event::Steer(direction) => M::push(frame, Steer(direction)),
            Event::Message(id) => {
                M::push(
                    frame,
                    LogLine(format_in!(memory, "message {id} on tick {}", frame.tick())),
                );
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
        let _crowds = frame.arena().tag(CROWDS);
        let crowds = crowd_counts(&self.entities, M::of(frame.arena()));
        for entity in self.entities.iter_mut() {
            // Slower in crowded cells.
            if crowds[cell_index(entity.position, GRID)] > CROWDED {
                entity.velocity *= 0.995;
            }
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

    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        let _despawn = frame.arena().tag(DESPAWN);
        self.apply_despawn_requests(M::of(frame.arena()));
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
