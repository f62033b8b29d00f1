//! A networked game's world snapshot, the packet `tickarena::serde` is
//! measured and tested with: 64 entities, each with a name, 0 to 8
//! components (an enum with payloads) and a list of events with formatted
//! text. Written twice: decoded into a frame arena (`Snapshot<'a>`,
//! `#[derive(DeserializeIn)]`) and onto the heap (`HeapSnapshot`, serde's
//! own derive, `String`s and `Vec`s): the same encoding, field for field.

// Shared by the tests, the benches and the server example, each of which
// uses part of it.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use tickarena::{DeserializeIn, FrameArena, FrameVec, format_in};

/// What the server sends each tick: every entity's state.
#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
pub struct Snapshot<'a> {
    pub tick: u64,
    #[serde(with = "tickarena::serde::vec")]
    pub entities: FrameVec<'a, Entity<'a>>,
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
pub struct Entity<'a> {
    pub id: u32,
    pub name: &'a str,
    pub position: [f32; 3],
    pub components: &'a [Component<'a>],
    pub events: &'a [Event<'a>],
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
pub enum Component<'a> {
    Health(u32),
    Tag(&'a str),
    Velocity { x: f32, y: f32, z: f32 },
    Inventory(&'a [u32]),
    Frozen,
    Owner(u32, &'a str),
}

#[derive(Serialize, DeserializeIn, Debug, PartialEq)]
pub struct Event<'a> {
    pub at: u64,
    pub text: &'a str,
}

/// The same packet on the heap, with serde's own derive.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct HeapSnapshot {
    pub tick: u64,
    pub entities: Vec<HeapEntity>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct HeapEntity {
    pub id: u32,
    pub name: String,
    pub position: [f32; 3],
    pub components: Vec<HeapComponent>,
    pub events: Vec<HeapEvent>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub enum HeapComponent {
    Health(u32),
    Tag(String),
    Velocity { x: f32, y: f32, z: f32 },
    Inventory(Vec<u32>),
    Frozen,
    Owner(u32, String),
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct HeapEvent {
    pub at: u64,
    pub text: String,
}

pub const ENTITIES: u32 = 64;

/// A snapshot of `ENTITIES` entities at `tick`, built in `arena`:
/// deterministic, with 0 to 8 components and 0 to 3 events each.
pub fn snapshot(arena: &FrameArena, tick: u64) -> Snapshot<'_> {
    let mut entities = Vec::with_capacity_in(ENTITIES as usize, arena);
    for id in 0..ENTITIES {
        let mix = (u64::from(id) * 2_654_435_761 + tick) % 1000;
        let components: Vec<Component<'_>, _> = (0..mix % 9)
            .map(|k| match (mix + k) % 6 {
                0 => Component::Health((mix * 7 + k) as u32 % 100),
                1 => Component::Tag(format_in!(arena, "team-{}", k % 3).leak()),
                2 => Component::Velocity {
                    x: k as f32,
                    y: -0.5,
                    z: mix as f32 / 8.0,
                },
                3 => Component::Inventory(
                    arena.alloc_slice_fill_with((k % 5) as usize, |i| i as u32 * 3),
                ),
                4 => Component::Frozen,
                _ => Component::Owner(id % 7, format_in!(arena, "player {}", id % 7).leak()),
            })
            .collect_in(arena);
        let events: Vec<Event<'_>, _> = (0..mix % 4)
            .map(|k| Event {
                at: tick - k,
                text: format_in!(
                    arena,
                    "entity {id} took {} damage at tick {}",
                    mix % 50,
                    tick - k
                )
                .leak(),
            })
            .collect_in(arena);
        entities.push(Entity {
            id,
            name: format_in!(arena, "unit-{id:04}").leak(),
            position: [id as f32 * 1.5, mix as f32 * 0.25, -(k_of(id) as f32)],
            components: components.leak(),
            events: events.leak(),
        });
    }
    Snapshot { tick, entities }
}

fn k_of(id: u32) -> u32 {
    id % 11
}

/// `collect` into an arena `Vec`.
trait CollectIn: Iterator + Sized {
    fn collect_in(self, arena: &FrameArena) -> FrameVec<'_, Self::Item> {
        let mut out = Vec::new_in(arena);
        out.extend(self);
        out
    }
}

impl<I: Iterator> CollectIn for I {}
