//! The demo game (`demo.rs`) under rollback: each player's input is a
//! batch of commands (keys, clicks, spawns, messages) packed in a seed and
//! a count, as an RTS client sends its orders; the state a snapshot keeps
//! is the entities, the player and the counters. Shared by the rollback
//! example, its tests and its bench.

// Shared by several targets, each of which uses part of it.
#![allow(dead_code)]

use core::hash::Hasher;

use glam::Vec2;
use serde::{Deserialize, Serialize};
use tickarena::SegmentedList;
use tickarena::rollback::{Checksum, PlayerInput, RollbackGame};

use crate::demo::{BOUNDS, Entity, Event, FrameMemory, World};

/// What a player sends each frame: `commands` orders drawn from `seed`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DemoInput {
    pub seed: u32,
    pub commands: u8,
}

impl DemoInput {
    /// Player `player`'s scripted input at `frame`: `commands` orders.
    pub fn scripted(player: usize, frame: i32, commands: u8) -> DemoInput {
        DemoInput {
            seed: (frame as u32).wrapping_mul(2_654_435_761) ^ (player as u32).wrapping_mul(97_531),
            commands,
        }
    }
}

/// Order `index` of a batch drawn from `seed`.
fn command(seed: u32, index: u32) -> Event {
    let seed = seed ^ index.wrapping_mul(40_503);
    let seed = seed ^ (seed >> 15);
    let seed = seed.wrapping_mul(0x2C1B_3C6D);
    let at = Vec2::new(
        (seed % 1000) as f32 - BOUNDS,
        ((seed >> 10) % 1000) as f32 - BOUNDS,
    );
    match (seed >> 20) % 16 {
        0..=9 => Event::Key(['w', 'a', 's', 'd'][(seed >> 24) as usize % 4]),
        10 => Event::Click(at),
        11..=12 => Event::Spawn {
            at,
            count: 1 + (seed >> 26) % 3,
        },
        _ => Event::Message(seed >> 8),
    }
}

/// What a snapshot keeps of the world.
#[derive(Clone, Default)]
pub struct DemoState {
    entities: SegmentedList<Entity>,
    player: Vec2,
    steering: Vec2,
    log_lines: u64,
    log_bytes: u64,
    despawned: u64,
}

impl DemoState {
    /// Entities saved.
    pub fn entities(&self) -> usize {
        self.entities.len()
    }
}

impl<M: FrameMemory> RollbackGame for World<M> {
    type Input = DemoInput;
    type State = DemoState;

    fn events(input: PlayerInput<DemoInput>) -> impl IntoIterator<Item = Event> {
        let DemoInput { seed, commands } = input.input;
        (0..u32::from(commands)).map(move |index| command(seed, index))
    }

    fn save(&self, state: &mut DemoState) {
        // `clone_from` writes into the slot's segments: no allocation.
        state.entities.clone_from(&self.entities);
        state.player = self.player;
        state.steering = self.steering;
        state.log_lines = self.log_lines;
        state.log_bytes = self.log_bytes;
        state.despawned = self.despawned;
    }

    fn load(&mut self, state: &DemoState) {
        self.entities.clone_from(&state.entities);
        self.player = state.player;
        self.steering = state.steering;
        self.log_lines = state.log_lines;
        self.log_bytes = state.log_bytes;
        self.despawned = state.despawned;
    }

    fn checksum(state: &DemoState) -> u128 {
        let mut sum = Checksum::new();
        sum.write_usize(state.entities.len());
        for entity in &state.entities {
            for value in [entity.position, entity.velocity] {
                sum.write_f32(value.x);
                sum.write_f32(value.y);
            }
            sum.write_u8(entity.style);
        }
        for value in [state.player, state.steering] {
            sum.write_f32(value.x);
            sum.write_f32(value.y);
        }
        sum.write_u64(state.log_lines);
        sum.write_u64(state.log_bytes);
        sum.write_u64(state.despawned);
        sum.finish128()
    }
}

/// A world of `entities` entities spread over the field, for a game that
/// starts mid-battle.
pub fn world_with<M: FrameMemory>(entities: usize) -> World<M> {
    let mut world = World::empty();
    for i in 0..entities {
        let n = i as f32;
        world.entities.push(Entity {
            position: Vec2::new((n * 37.0) % 1000.0 - BOUNDS, (n * 91.0) % 1000.0 - BOUNDS),
            velocity: Vec2::from_angle(n * 2.399_963) * 50.0,
            style: (i % 8) as u8,
        });
    }
    world
}
