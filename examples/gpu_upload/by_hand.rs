//! The wgpu calls the upload arena makes for a frame of one chunk, made
//! by hand on a staging buffer of the same kind, so that the heap
//! allocations wgpu makes inside them can be told from tickarena's own:
//! the example prints the difference, and the GPU tests (`tests/gpu`,
//! which include this file) assert it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Frames made by hand before the counted ones: wgpu's own pools and
/// lists grow in the first frames.
const WARM_UP: usize = 10;

/// How the staging buffer is mapped again after its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapAgain {
    /// `encoder.map_buffer_on_submit` before the submit: what the arena
    /// does where it is not told its submissions.
    OnSubmit,
    /// `buffer.map_async` after the submit: what the arena does once
    /// `UploadArena::submitted` tells it the submission (and what
    /// `StagingBelt::recall` does). `gpu_done_first`: the GPU waited for
    /// before it (outside the count), since wgpu allocates in `map_async`
    /// while the buffer's submission runs (a list of that submission's
    /// maps), not once it is done; otherwise asked for at once, as a
    /// renderer does, and the count follows the GPU's timing.
    AfterSubmit { gpu_done_first: bool },
}

/// For each of `frames` frames (after a short warm-up): writes `data`
/// into a mapped staging buffer through a view, drops the view, unmaps
/// the buffer, records its copy into a destination on a new encoder and
/// has wgpu map it again once that encoder's submission is done (asked
/// for as `map_again` says): what the arena does for a frame whose
/// uploads fit one chunk. `counted` runs the closure it is given and
/// returns the heap allocations made meanwhile; the submit and the waits
/// for the GPU are not counted, so no poll is.
pub fn wgpu_calls_by_hand(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    data: &[u8],
    frames: usize,
    map_again: MapAgain,
    mut counted: impl FnMut(&mut dyn FnMut()) -> u64,
) -> Vec<u64> {
    let bytes = (data.len() as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("by hand: staging"),
        size: bytes,
        usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    });
    let destination = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("by hand: destination"),
        size: bytes,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::VERTEX,
        mapped_at_creation: false,
    });
    // A callback that tells someone, as the arena's does: it holds a
    // shared flag (a zero-sized closure would be boxed without an
    // allocation).
    let mapped = Arc::new(AtomicBool::new(false));
    let mut counts = Vec::with_capacity(frames);
    for frame in 0..WARM_UP + frames {
        let mut encoder = device.create_command_encoder(&Default::default());
        let callback = |mapped: Arc<AtomicBool>| {
            move |result: Result<(), wgpu::BufferAsyncError>| {
                mapped.store(result.is_ok(), Ordering::Release)
            }
        };
        let mut allocations = counted(&mut || {
            let mut view = staging
                .get_mapped_range_mut(..)
                .expect("the staging buffer is mapped");
            view.slice(..data.len()).copy_from_slice(data);
            drop(view);
            staging.unmap();
            encoder.copy_buffer_to_buffer(&staging, 0, &destination, 0, bytes);
            if map_again == MapAgain::OnSubmit {
                let callback = callback(mapped.clone());
                encoder.map_buffer_on_submit(&staging, wgpu::MapMode::Write, .., callback);
            }
        });
        queue.submit([encoder.finish()]);
        if let MapAgain::AfterSubmit { gpu_done_first } = map_again {
            if gpu_done_first {
                device
                    .poll(wgpu::PollType::wait_indefinitely())
                    .expect("the GPU finishes the frame");
            }
            allocations += counted(&mut || {
                staging.map_async(wgpu::MapMode::Write, .., callback(mapped.clone()));
            });
        }
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .expect("the GPU finishes the frame");
        if frame >= WARM_UP {
            counts.push(allocations);
        }
    }
    counts
}
