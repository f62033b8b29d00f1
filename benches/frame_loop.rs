//! The event → action loop, 1000 events per frame: half become a boxed
//! action holding a formatted shell command, half a boxed action holding a
//! vector of three formatted arguments; the actions are applied to the
//! world in order and the frame ends. The same work four ways:
//!
//! * `tickarena`: `FrameLoop` (actions, strings and vectors in the frame
//!   arena, reclaimed each tick);
//! * `malloc`: `Box<dyn Action>`, `String`, `Vec` on the global allocator
//!   (glibc malloc), the action list reused across frames;
//! * `bumpalo`: the same types in a `bumpalo::Bump`, reset each frame;
//! * `floor`: no allocation at all: the same bytes written into fixed-size
//!   buffers held by value in an enum, in a `Vec` reused across frames,
//!   dispatched by `match`. What the loop would cost if allocation were free.

#![feature(allocator_api)]

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
use tickarena::{FrameArena, format_in};

#[path = "support/fixed_buffer.rs"]
mod fixed_buffer;

use fixed_buffer::FixedBuffer;

const EVENTS: u32 = 1000;

/// The world every variant applies its actions to.
#[derive(Default)]
struct World {
    checksum: u64,
}

// --- tickarena --------------------------------------------------------

struct ArenaCommand<'f>(tickarena::String<&'f FrameArena>);
struct ArenaArguments<'f>(Vec<tickarena::String<&'f FrameArena>, &'f FrameArena>);

impl Action<World> for ArenaCommand<'_> {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.len() as u64;
    }
}

impl Action<World> for ArenaArguments<'_> {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.iter().map(|s| s.len() as u64).sum::<u64>();
    }
}

impl Game for World {
    type Event = u32;
    fn actions<'f>(&self, i: u32, frame: &mut Frame<'f, Self>) {
        let arena = frame.arena();
        if i.is_multiple_of(2) {
            frame.push(ArenaCommand(format_in!(
                arena,
                "ls -a | sed -n {i}p | xargs rm -rf"
            )));
        } else {
            let mut arguments = Vec::with_capacity_in(3, arena);
            for k in 0..3 {
                arguments.push(format_in!(arena, "--flag-{k}={i}"));
            }
            frame.push(ArenaArguments(arguments));
        }
    }
}

// --- malloc and bumpalo: the same actions over a generic allocator ---------

trait DynAction {
    fn apply(&mut self, world: &mut World);
}

struct StdCommand(String);
struct StdArguments(Vec<String>);

impl DynAction for StdCommand {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.len() as u64;
    }
}

impl DynAction for StdArguments {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.iter().map(|s| s.len() as u64).sum::<u64>();
    }
}

struct BumpCommand<'b>(bumpalo::collections::String<'b>);
struct BumpArguments<'b>(Vec<bumpalo::collections::String<'b>, &'b bumpalo::Bump>);

impl DynAction for BumpCommand<'_> {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.len() as u64;
    }
}

impl DynAction for BumpArguments<'_> {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.iter().map(|s| s.len() as u64).sum::<u64>();
    }
}

// --- the floor: fixed buffers by value, dispatched by match -------------

enum FloorAction {
    Command(FixedBuffer<64>),
    Arguments([FixedBuffer<32>; 3]),
}

impl FloorAction {
    fn apply(&self, world: &mut World) {
        world.checksum += match self {
            FloorAction::Command(text) => text.as_bytes().len() as u64,
            FloorAction::Arguments(arguments) => {
                arguments.iter().map(|a| a.as_bytes().len() as u64).sum()
            }
        };
    }
}

fn frame_loop(c: &mut Criterion) {
    let mut group = c.benchmark_group("frame_loop_1000_events");
    group.bench_function("tickarena", |b| {
        let mut game = FrameLoop::new(World::default());
        let step = game.step();
        b.iter(|| game.tick(0..EVENTS, step));
        black_box(game.world().checksum);
    });
    group.bench_function("malloc", |b| {
        let mut world = World::default();
        let mut actions: Vec<Box<dyn DynAction>> = Vec::with_capacity(EVENTS as usize);
        b.iter(|| {
            for i in 0..EVENTS {
                if i.is_multiple_of(2) {
                    actions.push(Box::new(StdCommand(format!(
                        "ls -a | sed -n {i}p | xargs rm -rf"
                    ))));
                } else {
                    let mut arguments = Vec::with_capacity(3);
                    for k in 0..3 {
                        arguments.push(format!("--flag-{k}={i}"));
                    }
                    actions.push(Box::new(StdArguments(arguments)));
                }
            }
            actions
                .iter_mut()
                .for_each(|action| action.apply(&mut world));
            actions.clear();
        });
        black_box(world.checksum);
    });
    group.bench_function("bumpalo", |b| {
        let mut world = World::default();
        let mut bump = bumpalo::Bump::new();
        b.iter(|| {
            {
                let bump = &bump;
                let mut actions: Vec<Box<dyn DynAction + '_, &bumpalo::Bump>, &bumpalo::Bump> =
                    Vec::with_capacity_in(EVENTS as usize, bump);
                for i in 0..EVENTS {
                    if i.is_multiple_of(2) {
                        let text =
                            bumpalo::format!(in bump, "ls -a | sed -n {}p | xargs rm -rf", i);
                        actions.push(Box::new_in(BumpCommand(text), bump));
                    } else {
                        let mut arguments = Vec::with_capacity_in(3, bump);
                        for k in 0..3 {
                            arguments.push(bumpalo::format!(in bump, "--flag-{}={}", k, i));
                        }
                        actions.push(Box::new_in(BumpArguments(arguments), bump));
                    }
                }
                actions
                    .iter_mut()
                    .for_each(|action| action.apply(&mut world));
            }
            bump.reset();
        });
        black_box(world.checksum);
    });
    group.bench_function("floor", |b| {
        let mut world = World::default();
        let mut actions: Vec<FloorAction> = Vec::with_capacity(EVENTS as usize);
        b.iter(|| {
            for i in 0..EVENTS {
                if i.is_multiple_of(2) {
                    let mut text = FixedBuffer::<64>::EMPTY;
                    write!(text, "ls -a | sed -n {i}p | xargs rm -rf").unwrap();
                    actions.push(FloorAction::Command(text));
                } else {
                    let mut arguments = [FixedBuffer::<32>::EMPTY; 3];
                    for (k, argument) in arguments.iter_mut().enumerate() {
                        write!(argument, "--flag-{k}={i}").unwrap();
                    }
                    actions.push(FloorAction::Arguments(arguments));
                }
            }
            actions.iter().for_each(|action| action.apply(&mut world));
            actions.clear();
        });
        black_box(world.checksum);
    });
    group.finish();
}

criterion_group!(benches, frame_loop);
criterion_main!(benches);
