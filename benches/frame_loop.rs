//! The event → action loop, 1000 events per frame: half become a boxed
//! action holding a formatted shell command, half a boxed action holding a
//! vector of three formatted arguments; the actions are applied to the
//! world in order and the frame ends. The same work four ways:
//!
//! * `tickarena`: `FrameLoop` (actions, strings and vectors in the frame
//!   arena, reclaimed each tick);
//! * `malloc`: `Box<dyn Action>`, `String`, `Vec` on the global allocator
//!   (glibc malloc), the action list reused across frames;
//! * `mimalloc`: the same on mimalloc (what a user picks instead of glibc's
//!   malloc), through the `Allocator` parameter;
//! * `bumpalo`: the same types in a `bumpalo::Bump`, reset each frame;
//! * `floor`: no allocation at all: the same bytes written into fixed-size
//!   buffers held by value in an enum, in a `Vec` reused across frames,
//!   dispatched by `match`. What the loop would cost if allocation were free.
//!
//! Group `article_loop_1000_events` is the loop of the article this project
//! grew from, written as a newcomer would with a plain `FrameArena`: per
//! event either a formatted shell command or `systemctl` with the argument
//! vector `["halt"]` (two `String::from_str_in` and a
//! `Vec::with_capacity_in(1)`), boxed as a `dyn Action`, collected in a
//! `Vec`, run, dropped, and the arena reclaimed; the same five ways, and a
//! sixth: `unchecked_bump`, the same code on the least an allocator could
//! do (no limit check, nothing freed), the bound for any allocator.

use std::alloc::Allocator;
use std::fmt::Write as _;
use std::hint::black_box;
use std::ops::Deref;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use tickarena::frame_loop::FrameLoop;
use tickarena::{FrameArena, format_in};

#[path = "support/fixed_buffer.rs"]
mod fixed_buffer;
#[path = "support/mimalloc_alloc.rs"]
mod mimalloc_alloc;
#[path = "support/seed_game.rs"]
mod seed_game;
#[path = "support/unchecked_bump.rs"]
mod unchecked_bump;

use fixed_buffer::FixedBuffer;
use mimalloc_alloc::Mimalloc;
use seed_game::{Arguments, Command, Perform, SEED, SYSTEMS, Seed, TAGGED, World};
use unchecked_bump::UncheckedBump;

const EVENTS: u32 = 1000;
/// Events in a short frame (about 2 µs): `frame_loop_tags_short`.
const SHORT_FRAME_EVENTS: u32 = 24;

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
        let mut game = FrameLoop::new(Seed::<SEED>::default());
        let step = game.step();
        b.iter(|| game.tick(0..EVENTS, step));
        black_box(game.world().world.checksum);
    });
    group.bench_function("malloc", |b| {
        let mut world = World::default();
        let mut actions: Vec<Box<dyn Perform>> = Vec::with_capacity(EVENTS as usize);
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
                .for_each(|action| action.perform(&mut world));
            actions.clear();
        });
        black_box(world.checksum);
    });
    group.bench_function("mimalloc", |b| {
        let mut world = World::default();
        let mut actions: Vec<Box<dyn Perform, Mimalloc>> = Vec::with_capacity(EVENTS as usize);
        b.iter(|| {
            for i in 0..EVENTS {
                if i.is_multiple_of(2) {
                    actions.push(Box::new_in(
                        Command(format_in!(Mimalloc, "ls -a | sed -n {i}p | xargs rm -rf")),
                        Mimalloc,
                    ));
                } else {
                    let mut arguments = Vec::with_capacity_in(3, Mimalloc);
                    for k in 0..3 {
                        arguments.push(format_in!(Mimalloc, "--flag-{k}={i}"));
                    }
                    actions.push(Box::new_in(Arguments(arguments), Mimalloc));
                }
            }
            actions
                .iter_mut()
                .for_each(|action| action.perform(&mut world));
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
                let mut actions: Vec<Box<dyn Perform + '_, &bumpalo::Bump>, &bumpalo::Bump> =
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
                    .for_each(|action| action.perform(&mut world));
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

// --- the article's loop ------------------------------------------------------

/// The article's second action: a program and its arguments.
struct Run<S, V> {
    program: S,
    arguments: V,
}

impl<S: Deref<Target = str>, V: Deref<Target = [S]>> Perform for Run<S, V> {
    fn perform(&mut self, world: &mut World) {
        world.checksum += self.program.len() as u64;
        world.checksum += self.arguments.iter().map(|s| s.len() as u64).sum::<u64>();
    }
}

/// The article's shell command for event `counter`.
macro_rules! command {
    ($($format:ident)::+!($($in:tt)*), $counter:expr) => {
        $($format)::+!($($in)* "ls -a | sed -n {}p | xargs rm -rf", $counter)
    };
}

enum FloorArticleAction {
    Command(FixedBuffer<64>),
    Run {
        program: FixedBuffer<16>,
        arguments: [FixedBuffer<16>; 1],
    },
}

impl FloorArticleAction {
    fn apply(&self, world: &mut World) {
        world.checksum += match self {
            FloorArticleAction::Command(text) => text.as_bytes().len() as u64,
            FloorArticleAction::Run { program, arguments } => {
                program.as_bytes().len() as u64
                    + arguments
                        .iter()
                        .map(|a| a.as_bytes().len() as u64)
                        .sum::<u64>()
            }
        };
    }
}

/// A fixed buffer holding `text`.
fn fixed<const N: usize>(text: &str) -> FixedBuffer<N> {
    let mut buffer = FixedBuffer::EMPTY;
    buffer.write_str(text).unwrap();
    buffer
}

/// One frame of the article's loop with every object in allocator `a`.
fn article_frame<'a, A: Allocator + Copy + 'a>(a: A, counter: &mut u32, world: &mut World) {
    let mut actions: Vec<Box<dyn Perform + 'a, A>, A> = Vec::new_in(a);
    for _ in 0..EVENTS {
        *counter = counter.wrapping_add(1);
        if counter.is_multiple_of(2) {
            actions.push(Box::new_in(Command(command!(format_in!(a,), *counter)), a));
        } else {
            let program = tickarena::String::from_str_in("systemctl", a);
            let mut arguments = Vec::with_capacity_in(1, a);
            arguments.push(tickarena::String::from_str_in("halt", a));
            actions.push(Box::new_in(Run { program, arguments }, a));
        }
    }
    actions.iter_mut().for_each(|action| action.perform(world));
}

#[allow(
    clippy::vec_init_then_push,
    reason = "the article's code as written: `with_capacity(1)`, then a push"
)]
fn article_loop(c: &mut Criterion) {
    let mut group = c.benchmark_group("article_loop_1000_events");
    group.bench_function("tickarena", |b| {
        let mut world = World::default();
        let mut arena = FrameArena::new();
        let mut counter = 0u32;
        b.iter(|| {
            article_frame(&arena, &mut counter, &mut world);
            arena.reset();
        });
        black_box(world.checksum);
    });
    group.bench_function("malloc", |b| {
        let mut world = World::default();
        let mut counter = 0u32;
        b.iter(|| {
            let mut actions: Vec<Box<dyn Perform>> = Vec::new();
            for _ in 0..EVENTS {
                counter = counter.wrapping_add(1);
                if counter.is_multiple_of(2) {
                    actions.push(Box::new(Command(command!(format!(), counter))));
                } else {
                    let program = String::from("systemctl");
                    let mut arguments = Vec::with_capacity(1);
                    arguments.push(String::from("halt"));
                    actions.push(Box::new(Run { program, arguments }));
                }
            }
            actions
                .iter_mut()
                .for_each(|action| action.perform(&mut world));
        });
        black_box(world.checksum);
    });
    group.bench_function("mimalloc", |b| {
        let mut world = World::default();
        let mut counter = 0u32;
        b.iter(|| article_frame(Mimalloc, &mut counter, &mut world));
        black_box(world.checksum);
    });
    group.bench_function("bumpalo", |b| {
        let mut world = World::default();
        let mut bump = bumpalo::Bump::new();
        let mut counter = 0u32;
        b.iter(|| {
            {
                let a = &bump;
                let mut actions: Vec<Box<dyn Perform + '_, &bumpalo::Bump>, &bumpalo::Bump> =
                    Vec::new_in(a);
                for _ in 0..EVENTS {
                    counter = counter.wrapping_add(1);
                    if counter.is_multiple_of(2) {
                        let text = command!(bumpalo::format!(in a,), counter);
                        actions.push(Box::new_in(Command(text), a));
                    } else {
                        let program = bumpalo::collections::String::from_str_in("systemctl", a);
                        let mut arguments = Vec::with_capacity_in(1, a);
                        arguments.push(bumpalo::collections::String::from_str_in("halt", a));
                        actions.push(Box::new_in(Run { program, arguments }, a));
                    }
                }
                actions
                    .iter_mut()
                    .for_each(|action| action.perform(&mut world));
            }
            bump.reset();
        });
        black_box(world.checksum);
    });
    group.bench_function("unchecked_bump", |b| {
        let mut world = World::default();
        // The loop needs about 100 KiB per frame.
        let mut bump = UncheckedBump::with_capacity(4 << 20);
        let mut counter = 0u32;
        b.iter(|| {
            article_frame(&bump, &mut counter, &mut world);
            bump.reset();
        });
        black_box(world.checksum);
    });
    group.bench_function("floor", |b| {
        let mut world = World::default();
        let mut actions: Vec<FloorArticleAction> = Vec::with_capacity(EVENTS as usize);
        let mut counter = 0u32;
        b.iter(|| {
            for _ in 0..EVENTS {
                counter = counter.wrapping_add(1);
                if counter.is_multiple_of(2) {
                    let mut text = FixedBuffer::<64>::EMPTY;
                    command!(write!(text,), counter).unwrap();
                    actions.push(FloorArticleAction::Command(text));
                } else {
                    actions.push(FloorArticleAction::Run {
                        program: fixed("systemctl"),
                        arguments: [fixed("halt")],
                    });
                }
            }
            actions.iter().for_each(|action| action.apply(&mut world));
            actions.clear();
        });
        black_box(world.checksum);
    });
    group.finish();
}

/// The frame loop with four tag switches a frame against the same loop
/// untagged (issue 39's goal: ≤ 1.01×). Run each in its own process,
/// alternating, for the paired figure (see docs/BENCHMARKS.md).
/// Group `frame_loop_tags_short`: the same with 24 events a frame, a frame
/// of about 2 µs, where the four switches weigh most (issue 59's goal:
/// ≤ 1.02×).
fn tags(c: &mut Criterion) {
    fn run<const MODE: u8>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str, events: u32) {
        group.bench_function(name, |b| {
            let mut game = FrameLoop::new(Seed::<MODE>::default());
            let step = game.step();
            b.iter(|| game.tick(0..events, step));
            black_box(game.world().world.checksum);
            let tags = game
                .history()
                .latest()
                .map_or(0, |record| record.tags.iter().count());
            assert_eq!(tags, if MODE == TAGGED { 5 } else { 1 });
        });
    }
    let mut group = c.benchmark_group("frame_loop_tags");
    run::<SYSTEMS>(&mut group, "untagged", EVENTS);
    run::<TAGGED>(&mut group, "tagged", EVENTS);
    group.finish();
    let mut group = c.benchmark_group("frame_loop_tags_short");
    run::<SYSTEMS>(&mut group, "untagged", SHORT_FRAME_EVENTS);
    run::<TAGGED>(&mut group, "tagged", SHORT_FRAME_EVENTS);
    group.finish();
}

criterion_group!(benches, frame_loop, article_loop, tags);
criterion_main!(benches);
