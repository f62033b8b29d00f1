//! A headless game on the tickarena loop: a scripted stream of input events
//! (key presses, clicks, spawns, and now and then a burst of thousands)
//! becomes actions allocated in the frame arena, which move, spawn and
//! despawn entities kept in a `SegmentedList` and write log lines built
//! with `format_in!`. Prints a per-frame report every so often and a
//! summary at the end.
//!
//! ```sh
//! cargo run --release --example actions -- --frames 600 --events-per-frame 1000
//! ```

#![feature(allocator_api)]

use std::time::{Duration, Instant};

use glam::Vec2;
use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
use tickarena::{FrameArena, SegmentedList, format_in};

/// Arena-backed string: lives for one frame.
type FrameString<'f> = tickarena::String<&'f FrameArena>;

#[derive(Clone, Copy)]
struct Entity {
    position: Vec2,
    velocity: Vec2,
}

/// The persistent state: entities, a player, and what the log saw.
struct World {
    entities: SegmentedList<Entity>,
    player: Vec2,
    log_lines: u64,
    log_bytes: u64,
    despawned: u64,
}

/// Input, as a platform layer would deliver it.
#[derive(Clone, Copy)]
enum Event {
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
fn script(tick: u64, per_frame: u32) -> impl Iterator<Item = Event> {
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

struct Options {
    frames: u64,
    events_per_frame: u32,
    report_every: u64,
}

fn parse_options() -> Options {
    let mut options = Options {
        frames: 1200,
        events_per_frame: 1000,
        report_every: 120,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = |name: &str| -> u64 {
            let text = args
                .next()
                .unwrap_or_else(|| usage(&format!("{name} needs a number")));
            text.parse()
                .unwrap_or_else(|_| usage(&format!("{name} needs a number, got {text:?}")))
        };
        match flag.as_str() {
            "--frames" => options.frames = value("--frames"),
            "--events-per-frame" => options.events_per_frame = value("--events-per-frame") as u32,
            "--report-every" => options.report_every = value("--report-every").max(1),
            "--help" | "-h" => usage(""),
            other => usage(&format!("unknown flag {other:?}")),
        }
    }
    options
}

fn usage(problem: &str) -> ! {
    if !problem.is_empty() {
        eprintln!("error: {problem}");
    }
    eprintln!("usage: actions [--frames N] [--events-per-frame N] [--report-every N]");
    std::process::exit(if problem.is_empty() { 0 } else { 2 })
}

fn main() {
    let options = parse_options();
    let world = World {
        entities: SegmentedList::new(),
        player: Vec2::ZERO,
        log_lines: 0,
        log_bytes: 0,
        despawned: 0,
    };
    let mut game = FrameLoop::new(world);
    let step = game.step();
    println!(
        "{:>6} {:>7} {:>7} {:>11} {:>11} {:>9} {:>9}",
        "frame", "events", "actions", "arena B", "high B", "entities", "tick µs"
    );
    let started = Instant::now();
    let (mut events, mut actions, mut tick_time) = (0u64, 0u64, Duration::ZERO);
    for tick in 0..options.frames {
        let record = game.tick(script(tick, options.events_per_frame), step);
        events += record.events as u64;
        actions += record.actions as u64;
        tick_time += record.tick_time;
        if tick % options.report_every == 0
            || tick + 1 == options.frames
            || record.events > 2 * options.events_per_frame as usize
        {
            println!(
                "{:>6} {:>7} {:>7} {:>11} {:>11} {:>9} {:>9.0}",
                record.tick,
                record.events,
                record.actions,
                record.arena_bytes,
                game.history().high_water(),
                game.world().entities.len(),
                record.tick_time.as_secs_f64() * 1e6,
            );
        }
    }
    let wall = started.elapsed();
    let world = game.world();
    let stats = game.arena().stats();
    println!();
    println!("frames            {}", options.frames);
    println!("events / actions  {events} / {actions}");
    println!(
        "entities          {} alive, {} despawned",
        world.entities.len(),
        world.despawned
    );
    println!(
        "log               {} lines, {} bytes (all in frame arenas)",
        world.log_lines, world.log_bytes
    );
    println!(
        "arena             high water {} B, committed {} B, reserved {} B",
        stats.high_water.max(game.history().high_water()),
        stats.committed,
        stats.reserved
    );
    println!(
        "time              {:.2} s wall, {:.1} µs per tick, {:.0} ns per event",
        wall.as_secs_f64(),
        tick_time.as_secs_f64() * 1e6 / options.frames.max(1) as f64,
        tick_time.as_secs_f64() * 1e9 / events.max(1) as f64
    );
    println!("player            at {:.1}", world.player);
}
