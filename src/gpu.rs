//! The frame reaches the GPU (feature `wgpu`, wgpu 30): an upload arena
//! over wgpu's mapped staging buffers. A frame's data for the GPU
//! (instances, vertices, debug lines, uniforms), whose length is not
//! known in advance, is written straight into staging memory, growing in
//! place at the top, and copied into your buffers on the frame's command
//! encoder: no `Vec` to build first, no second copy into staging memory
//! that `queue.write_buffer` makes, and no size to know in advance as
//! `write_buffer_with` and wgpu's `StagingBelt` need.
//!
//! * [`UploadArena`]: a ring of frames in flight (2 or 3), each a list of
//!   staging chunks (`MAP_WRITE | COPY_SRC` buffers).
//!   [`begin_frame`](UploadArena::begin_frame) hands out the next frame
//!   once the GPU has finished the frame that used its chunks before.
//! * [`UploadFrame`]: [`upload`](UploadFrame::upload) opens an
//!   [`UploadWriter`] (push, extend, `extend_from_slice` of `Pod` values),
//!   [`finish`](UploadWriter::finish) closes it into an [`Upload`] that
//!   says where it landed, [`copy_to`](UploadFrame::copy_to) (or
//!   [`copy_to_texture`](UploadFrame::copy_to_texture)) asks for its
//!   copy, and [`finish`](UploadFrame::finish) records the frame's copies
//!   on the encoder and hands the chunks to the GPU: wgpu maps them for
//!   writing again when that submission is done, and not before.
//!   [`UploadArena::submitted`] with the submission's index lets a later
//!   frame wait on exactly it, and has the arena ask for that map itself
//!   at the next `begin_frame` (otherwise `finish` asks wgpu to map at the
//!   submit, `map_buffer_on_submit`, three heap allocations more).
//! * [`SharedUploadArena`]: the frame held open from one system of an
//!   engine's schedule to the next, written through a [`SharedFrame`] by
//!   several systems at once (on several threads), and closed by a last
//!   one on one encoder; what the borrow checker cannot follow across
//!   systems is checked at run time.
//! * [`GpuVec`] and [`GrowingBuffer`]: destinations that grow with what a
//!   frame wrote (Bevy's `RawBufferVec` counterparts), copied into on
//!   either kind of frame ([`OpenFrame`]).
//!
//! # Why this is sound
//!
//! Staging memory mapped for writing may be *write-combining*: uncached,
//! so a read of it is very slow, and what it holds before a write is not
//! yours to see. And a `&mut [u8]` over mapped memory is unsound when the
//! buffer is handed over with atomics (a map callback on another thread):
//! the compiler may assume that the memory behind a `&mut` stays as it
//! left it, which the GPU breaks, and may read it back for its own
//! purposes (wgpu #8897). wgpu 30 hands out mapped memory as
//! `WriteOnly` (wgpu #9042), and so does this arena: every write goes
//! through wgpu's write-only view, memory is never read, and no `&mut` to
//! mapped memory leaves this module. Data once written never moves, so an
//! upload that reaches a chunk's end goes on in the next chunk as a second
//! segment (each segment a whole number of elements, on 4 bytes).
//!
//! The borrow checker keeps the use sound, as `reclaim(self)` does for the
//! CPU arena: a frame borrows the arena mutably (one open frame at a
//! time); an [`Upload`] cannot be used once the next frame has begun; and
//! a frame's chunks come back only through the GPU's completion (the map
//! callback), never by a call of yours. Where the arena asks for that map
//! itself (told its submissions), wgpu maps a chunk only once every
//! submission that copies from it is done, and refuses a submit that
//! copies from a chunk mapped or being mapped: the arena never writes
//! where a copy may still read. No handle to a staging buffer
//! leaves the arena (a `wgpu::Buffer` can be destroyed from safe code
//! while the arena writes through its view): copies out of staging
//! memory are the frame's operations, recorded at its `finish`, so a
//! frame that is dropped or discarded leaves no copy on any encoder.
//!
//! # Example
//!
//! ```
//! # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
//! use tickarena::gpu::{UploadArena, UploadConfig};
//!
//! let mut arena = UploadArena::new(&device, UploadConfig { frames_in_flight: 2, ..Default::default() });
//! let instances = device.create_buffer(&wgpu::BufferDescriptor {
//!     label: Some("instances"), size: 1 << 16, mapped_at_creation: false,
//!     usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::VERTEX,
//! });
//! for tick in 0..4 {
//!     let mut encoder = device.create_command_encoder(&Default::default());
//!     let mut frame = arena.begin_frame().unwrap();
//!     let mut sprites = frame.upload::<[f32; 4]>().unwrap();
//!     for i in 0..100 + tick {
//!         sprites.push([i as f32, tick as f32, 1.0, 1.0]).unwrap(); // length not known in advance
//!     }
//!     let sprites = sprites.finish();
//!     frame.copy_to(&sprites, &instances, 0).unwrap();
//!     frame.finish(&mut encoder);
//!     arena.submitted(queue.submit([encoder.finish()]));
//! }
//! assert_eq!(arena.stats().frames, 4);
//! assert_eq!(arena.stats().buffers_created, 2);
//! ```

pub(crate) mod bump;
#[cfg_attr(not(feature = "wgpu"), allow(dead_code))] // its unit tests alone
pub(crate) mod growth;

/// The wgpu this module is built on (30), so that your buffers and
/// encoders are its types.
#[cfg(feature = "wgpu")]
#[doc(no_inline)]
pub use wgpu;

#[cfg(feature = "wgpu")]
mod arena;
#[cfg(feature = "wgpu")]
mod error;
#[cfg(feature = "wgpu")]
mod frame;
#[cfg(feature = "wgpu")]
mod gpu_vec;
#[cfg(feature = "wgpu")]
mod growing_buffer;
#[cfg(feature = "wgpu")]
mod shared;
#[cfg_attr(not(feature = "wgpu"), allow(dead_code))] // its unit tests alone
mod signal;
#[cfg_attr(not(feature = "wgpu"), allow(dead_code))] // its unit tests alone
mod texture_copy;

#[cfg(feature = "wgpu")]
pub use arena::{UploadArena, UploadConfig, UploadStats};
#[cfg(feature = "wgpu")]
pub use error::UploadError;
#[cfg(feature = "wgpu")]
pub use frame::{Upload, UploadFrame, UploadSegment, UploadWriter};
#[cfg(feature = "wgpu")]
pub use gpu_vec::GpuVec;
#[cfg(feature = "wgpu")]
pub use growing_buffer::GrowingBuffer;
#[cfg(feature = "wgpu")]
pub use shared::{OpenFrame, SharedFrame, SharedUploadArena};

/// The environment variable that lets the GPU tests and doc examples skip
/// where no adapter is found: set to `skip`. Unset (as in CI), no adapter
/// is a failure, never a quiet skip.
#[cfg(feature = "wgpu")]
#[doc(hidden)]
pub const NO_GPU_ENV: &str = "TICKARENA_NO_GPU";

/// A device for tickarena's tests and doc examples: the first adapter
/// wgpu finds (lavapipe where there is no GPU: `mesa-vulkan-drivers`).
/// `None` only when there is none and [`NO_GPU_ENV`] is `skip` (said on
/// stderr); otherwise no adapter panics, saying what to install.
#[cfg(feature = "wgpu")]
#[doc(hidden)]
pub fn test_device() -> Option<(wgpu::Device, wgpu::Queue)> {
    test_device_with(wgpu::Limits::default())
}

/// [`test_device`] with the device's limits given (a test of what the
/// arena does on a device with small buffers, say).
///
/// ```
/// let limits = wgpu::Limits { max_buffer_size: 1 << 20, ..wgpu::Limits::default() };
/// let Some((device, _queue)) = tickarena::gpu::test_device_with(limits) else { return };
/// assert_eq!(device.limits().max_buffer_size, 1 << 20);
/// ```
#[cfg(feature = "wgpu")]
#[doc(hidden)]
pub fn test_device_with(limits: wgpu::Limits) -> Option<(wgpu::Device, wgpu::Queue)> {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = match ready(instance.request_adapter(&wgpu::RequestAdapterOptions::default())) {
        Ok(adapter) => adapter,
        Err(error) => {
            if std::env::var(NO_GPU_ENV).is_ok_and(|v| v == "skip") {
                eprintln!(
                    "tickarena: no wgpu adapter ({error}); skipped as {NO_GPU_ENV}=skip says"
                );
                return None;
            }
            panic!(
                "tickarena: no wgpu adapter ({error}). The GPU tests run on any machine with \
                 Vulkan: install Mesa's lavapipe (Debian: mesa-vulkan-drivers) and build with \
                 --features wgpu; or set {NO_GPU_ENV}=skip to skip them"
            )
        }
    };
    let descriptor = wgpu::DeviceDescriptor {
        required_limits: limits,
        ..wgpu::DeviceDescriptor::default()
    };
    let device = ready(adapter.request_device(&descriptor));
    Some(device.expect("tickarena: the adapter refused a device"))
}

/// Runs a future of wgpu's native backends to its end (they are ready at
/// once; a pending one is polled again).
#[cfg(feature = "wgpu")]
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = core::pin::pin!(future);
    let mut context = core::task::Context::from_waker(core::task::Waker::noop());
    loop {
        if let core::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        std::thread::yield_now();
    }
}
