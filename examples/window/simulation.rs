//! The simulation thread: runs the game's `FrameLoop` on the input the
//! window thread sends each frame, and at the end of every tick builds that
//! frame's render list in a free arena of the frames-in-flight circle and
//! hands it over, sealed. It waits when 2 frames are in flight.

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

/// Runs until the window thread hangs up, then gives the game back.
/// Emptied event vectors go back on `empties`, to be filled again.
pub fn run(
    mut game: FrameLoop<World>,
    batches: Receiver<Batch>,
    empties: SyncSender<Vec<Event>>,
    mut producer: Producer<Render>,
) -> FrameLoop<World> {
    // The render lists' bytes of the frames in the history (allocated
    // once), so that the chart shows each frame's bytes in both arenas.
    let kept = game.history().capacity();
    let mut render_bytes = VecDeque::with_capacity(kept);
    let mut high_water = 0;
    for mut batch in batches {
        let before = thread_allocations();
        let mut bytes = 0;
        game.tick_with(
            batch.events.drain(..),
            batch.elapsed,
            |world, frame, _, history| {
                let past = PastFrames {
                    history,
                    render_bytes: &render_bytes,
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
        if let Some(record) = game.history().latest() {
            high_water = high_water.max(record.arena_bytes + bytes);
        }
        if render_bytes.len() == kept {
            render_bytes.pop_front();
        }
        render_bytes.push_back(bytes);
        // The window thread keeps a few vectors circling; if it has enough,
        // this one is dropped.
        let _ = empties.try_send(batch.events);
    }
    game
}
