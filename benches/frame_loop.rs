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
use std::ops::Deref;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::format_in;
use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};

#[path = "support/fixed_buffer.rs"]
mod fixed_buffer;

use fixed_buffer::FixedBuffer;

const EVENTS: u32 = 1000;

/// The world every variant applies its actions to.
#[derive(Default)]
struct World {
    checksum: u64,
}

// --- the two actions, for every allocator -----------------------------

/// An action holding one formatted command, whatever string type holds it.
struct Command<S>(S);

/// An action holding formatted arguments, whatever vector and string types.
struct Arguments<V>(V);

impl<S: Deref<Target = str>> Action<World> for Command<S> {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.len() as u64;
    }
}

impl<S: Deref<Target = str>, V: Deref<Target = [S]>> Action<World> for Arguments<V> {
    fn apply(&mut self, world: &mut World) {
        world.checksum += self.0.iter().map(|s| s.len() as u64).sum::<u64>();
    }
}

// --- tickarena: the frame loop --------------------------------------------

impl Game for World {
    type Event = u32;
    fn actions<'f>(&self, i: u32, frame: &mut Frame<'f, Self>) {
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
        let mut actions: Vec<Box<dyn Action<World>>> = Vec::with_capacity(EVENTS as usize);
        b.iter(|| {
            for i in 0..EVENTS {
                if i.is_multiple_of(2) {
                    actions.push(Box::new(Command(format!(
                        "ls -a | sed -n {i}p | xargs rm -rf"
                    ))));
                } else {
                    let mut arguments = Vec::with_capacity(3);
                    for k in 0..3 {
                        arguments.push(format!("--flag-{k}={i}"));
                    }
                    actions.push(Box::new(Arguments(arguments)));
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
                let mut actions: Vec<Box<dyn Action<World> + '_, &bumpalo::Bump>, &bumpalo::Bump> =
                    Vec::with_capacity_in(EVENTS as usize, bump);
                for i in 0..EVENTS {
                    if i.is_multiple_of(2) {
                        let text =
                            bumpalo::format!(in bump, "ls -a | sed -n {}p | xargs rm -rf", i);
                        actions.push(Box::new_in(Command(text), bump));
                    } else {
                        let mut arguments = Vec::with_capacity_in(3, bump);
                        for k in 0..3 {
                            arguments.push(bumpalo::format!(in bump, "--flag-{}={}", k, i));
                        }
                        actions.push(Box::new_in(Arguments(arguments), bump));
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
