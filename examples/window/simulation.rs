//! The simulation: runs the game's `FrameLoop` on the input of each frame,
//! and at the end of every tick builds that frame's render list in a free
//! arena of the frames-in-flight circle and hands it over, sealed. Natively
//! it has a thread of its own ([`run`]), which waits when 2 frames are in
//! flight; in a browser (one thread) the window's thread steps it before
//! drawing ([`Simulation::step`]).

use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, SyncSender};
use std::time::Duration;

use tickarena::frame_loop::FrameLoop;
use tickarena::in_flight::Producer;

use crate::counting_alloc::thread_allocations;
use crate::demo::{Event, World};
use crate::render_list::{self, PastFrames, Render};

/// One frame of input for the simulation.
pub struct Batch {
    pub events: Vec<Event>,
    /// Wall-clock time since the last batch.
    pub elapsed: Duration,
}

/// The game and what the render lists need of the frames before.
pub struct Simulation {
    game: FrameLoop<World>,
    producer: Producer<Render>,
    /// The render lists' bytes of the frames in the history (allocated
    /// once), so that the chart shows each frame's bytes in both arenas.
    render_bytes: VecDeque<usize>,
    high_water: usize,
}

impl Simulation {
    pub fn new(game: FrameLoop<World>, producer: Producer<Render>) -> Simulation {
        let kept = game.history().capacity();
        Simulation {
            game,
            producer,
            render_bytes: VecDeque::with_capacity(kept),
            high_water: 0,
        }
    }

    /// Runs one tick on the batch's events (leaving its vector empty, to be
    /// filled again) and seals the frame's render list.
    pub fn step(&mut self, batch: &mut Batch) {
        let before = thread_allocations();
        let mut bytes = 0;
        let (producer, render_bytes, high_water) =
            (&mut self.producer, &self.render_bytes, self.high_water);
        self.game.tick_with(
            batch.events.drain(..),
            batch.elapsed,
            |world, frame, _, history| {
                let past = PastFrames {
                    history,
                    render_bytes,
                    high_water,
                };
                let allocated = thread_allocations() - before;
                // An error means the window is gone: the loop ends with the
                // next batch, which will not come.
                let _ = producer.produce(|arena| {
                    let list = render_list::build(arena, world, frame, &past, allocated);
                    bytes = list.bytes;
                    list
                });
            },
        );
        if let Some(record) = self.game.history().latest() {
            self.high_water = self.high_water.max(record.arena_bytes + bytes);
        }
        if self.render_bytes.len() == self.game.history().capacity() {
            self.render_bytes.pop_front();
        }
        self.render_bytes.push_back(bytes);
    }

    /// The capacity of the world's entity list (a change means the world
    /// allocated).
    pub fn entity_capacity(&self) -> usize {
        self.game.world().entities.capacity()
    }

    #[cfg_attr(
        target_family = "wasm",
        expect(dead_code, reason = "only the native summary takes the game back")
    )]
    pub fn into_game(self) -> FrameLoop<World> {
        self.game
    }
}

/// The simulation thread: steps until the window thread hangs up, then
/// gives the game back. Emptied event vectors go back on `empties`, to be
/// filled again.
#[cfg_attr(
    target_family = "wasm",
    expect(dead_code, reason = "a browser has no simulation thread")
)]
pub fn run(
    mut simulation: Simulation,
    batches: Receiver<Batch>,
    empties: SyncSender<Vec<Event>>,
) -> FrameLoop<World> {
    for mut batch in batches {
        simulation.step(&mut batch);
        // The window thread keeps a few vectors circling; if it has enough,
        // this one is dropped.
        let _ = empties.try_send(batch.events);
    }
    simulation.into_game()
}
