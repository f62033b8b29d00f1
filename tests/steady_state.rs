//! In steady state a tick makes no heap allocation: after warm-up, 1000
//! ticks of a loop that formats strings, boxes actions and builds scratch
//! vectors, all in the frame arena, leave the global allocator untouched.
//!
//! Its own test binary: the counting `#[global_allocator]` sees everything.

#![feature(allocator_api)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tickarena::frame_loop::{Action, Frame, FrameLoop, Game};
use tickarena::{FrameArena, SegmentedList, format_in};

/// Counts allocations made by the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards to `System`, which upholds the `GlobalAlloc` contract;
// the counter is a thread-local `Cell` with no destructor, so counting
// never allocates or re-enters the allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|count| count.set(count.get() + 1));
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

struct World {
    entities: SegmentedList<[f32; 4]>,
    checksum: u64,
}

enum Event {
    Spawn(f32),
    Command(u32),
}

struct Spawn(f32);

impl Action<World> for Spawn {
    fn apply(&mut self, world: &mut World) {
        if world.entities.len() < 500 {
            world.entities.push([self.0; 4]);
        } else {
            world.entities.swap_remove(0);
        }
    }
}

struct Run<'f> {
    command: tickarena::String<&'f FrameArena>,
    arguments: Vec<tickarena::String<&'f FrameArena>, &'f FrameArena>,
}

impl Action<World> for Run<'_> {
    fn apply(&mut self, world: &mut World) {
        world.checksum +=
            self.command.len() as u64 + self.arguments.iter().map(|a| a.len() as u64).sum::<u64>();
    }
}

impl Game for World {
    type Event = Event;

    fn actions<'f>(&self, event: Event, frame: &mut Frame<'f, Self>) {
        match event {
            Event::Spawn(x) => frame.push(Spawn(x)),
            Event::Command(n) => {
                let arena = frame.arena();
                let mut arguments = Vec::new_in(arena);
                for i in 0..3 {
                    arguments.push(format_in!(arena, "--flag-{i}={n}"));
                }
                let command = format_in!(arena, "ls -a | sed -n {n}p | xargs rm -rf");
                frame.push(Run { command, arguments });
            }
        }
    }

    fn update(&mut self, frame: &Frame<'_, Self>) {
        let mut visible = Vec::new_in(frame.arena());
        visible.extend(self.entities.iter().filter(|e| e[0] > 0.5).map(|e| e[1]));
        self.checksum += visible.len() as u64;
    }
}

#[test]
fn steady_ticks_make_no_heap_allocation() {
    let mut game = FrameLoop::new(World {
        entities: SegmentedList::new(),
        checksum: 0,
    });
    let step = game.step();
    let events = |tick: u32| {
        (0..200u32).map(move |i| {
            if i % 2 == 0 {
                Event::Spawn((i % 7) as f32 / 7.0)
            } else {
                Event::Command(tick + i)
            }
        })
    };
    // Warm-up: the world's list reaches its size, the arena commits its pages.
    for tick in 0..200 {
        game.tick(events(tick), step);
    }
    let before = allocations();
    for tick in 200..1200 {
        game.tick(events(tick), step);
    }
    let during = allocations() - before;
    assert_eq!(
        during, 0,
        "1000 steady ticks made {during} heap allocations"
    );
    assert!(game.world().checksum > 0);
    assert!(game.history().high_water() > 0);
}
