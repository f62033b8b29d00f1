//! The seed loop's game, shared by `benches/frame_loop.rs` and the
//! callgrind program of `scripts/tag-instructions`
//! (`examples/tag_instructions.rs`): per event a formatted shell command
//! or three formatted arguments, boxed as actions; [`World`] and the two
//! actions, generic over their string and vector types, for every
//! allocator the bench compares.

// Each includer uses part of it.
#![allow(dead_code)]

use std::hint::black_box;
use std::ops::Deref;

use tickarena::frame_loop::{Action, Frame, Game};
use tickarena::{Tag, format_in};

/// The world every variant applies its actions to.
#[derive(Default)]
pub struct World {
    pub checksum: u64,
}

// --- the two actions, for every allocator -----------------------------

/// An action holding one formatted command, whatever string type holds it.
pub struct Command<S>(pub S);

/// An action holding formatted arguments, whatever vector and string types.
pub struct Arguments<V>(pub V);

/// What every variant's actions do to the world; the frame loop's
/// [`Action`] is this plus the frame, which the other variants do not have.
pub trait Perform {
    fn perform(&mut self, world: &mut World);
}

impl<S: Deref<Target = str>> Perform for Command<S> {
    fn perform(&mut self, world: &mut World) {
        world.checksum += self.0.len() as u64;
    }
}

impl<S: Deref<Target = str>, V: Deref<Target = [S]>> Perform for Arguments<V> {
    fn perform(&mut self, world: &mut World) {
        world.checksum += self.0.iter().map(|s| s.len() as u64).sum::<u64>();
    }
}

impl<S: Deref<Target = str>, const MODE: u8> Action<Seed<MODE>> for Command<S> {
    fn apply(&mut self, seed: &mut Seed<MODE>, _: &mut Frame<'_, Seed<MODE>>) {
        self.perform(&mut seed.world);
    }
}

impl<S: Deref<Target = str>, V: Deref<Target = [S]>, const MODE: u8> Action<Seed<MODE>>
    for Arguments<V>
{
    fn apply(&mut self, seed: &mut Seed<MODE>, _: &mut Frame<'_, Seed<MODE>>) {
        self.perform(&mut seed.world);
    }
}

// --- tickarena: the frame loop --------------------------------------------

/// The frame loop's game. `MODE` [`SEED`]: the seed loop. [`SYSTEMS`]:
/// at each frame's end four systems each build a small list in the arena
/// as well; [`TAGGED`]: each under a tag of its own, four tag switches a
/// frame, as a game with four tagged systems has.
#[derive(Default)]
pub struct Seed<const MODE: u8> {
    pub world: World,
}

pub const SEED: u8 = 0;
pub const SYSTEMS: u8 = 1;
pub const TAGGED: u8 = 2;

pub const SYSTEM_TAGS: [Tag; 4] = [
    Tag::new("input"),
    Tag::new("ai"),
    Tag::new("physics"),
    Tag::new("ui"),
];

impl<const MODE: u8> Game for Seed<MODE> {
    type Event = u32;
    type Scratch<'f> = ();
    fn actions<'f>(&mut self, i: u32, frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        if i.is_multiple_of(2) {
            frame.push(Command(format_in!(
                arena,
                "ls -a | sed -n {i}p | xargs rm -rf"
            )));
        } else {
            let mut arguments = Vec::with_capacity_in(3, arena);
            for k in 0..3 {
                arguments.push(format_in!(arena, "--flag-{k}={i}"));
            }
            frame.push(Arguments(arguments));
        }
    }

    fn end_frame<'f>(&mut self, frame: &mut Frame<'f, Self>, _: &mut ()) {
        if MODE == SEED {
            return;
        }
        let arena = frame.arena();
        for (k, system) in SYSTEM_TAGS.into_iter().enumerate() {
            let _system = (MODE == TAGGED).then(|| arena.tag(system));
            let list = arena.alloc_slice_fill_with(8, |j| (k + j) as u32);
            self.world.checksum += u64::from(black_box(list)[7]);
        }
    }
}
