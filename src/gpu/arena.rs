//! The upload arena: a ring of frames in flight, each a list of staging
//! chunks (wgpu buffers `MAP_WRITE | COPY_SRC`), handed out one frame at a
//! time once the GPU is done with the frame that used them before.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::bump::{Bump, COPY_ALIGN, Segment};
use super::error::UploadError;
use super::frame::{Staging, UploadFrame};
use super::growth::{fitting, holding, next_chunk};
use super::signal::{FAILED, MAPPED, NEVER_SUBMITTED, Notify, PENDING, Signal};
use crate::arena::{Budgets, DEFAULT_RELEASE_AFTER, Retention};
use crate::frame_loop::{FrameHistory, SizingReport};
use crate::{BudgetPolicy, Tag, TagBytes};

/// How an [`UploadArena`] is sized. Build one with struct update syntax
/// from [`UploadConfig::default()`].
///
/// # Example
///
/// ```
/// use tickarena::gpu::UploadConfig;
/// let config = UploadConfig { chunk_size: 256 << 10, frames_in_flight: 3, ..UploadConfig::default() };
/// assert_eq!(config.max_frame_bytes, 256 << 20);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct UploadConfig {
    /// Bytes of the smallest staging chunk (one wgpu buffer), rounded up
    /// to 4, and no more than the device's `max_buffer_size`; no element
    /// may be larger. Chunks grow from it: a frame that outgrows its
    /// chunk goes on in a next one twice as large (an upload crossing a
    /// chunk's end goes on there as a second segment; no chunk is larger
    /// than the device's `max_buffer_size`), and the next frame in that
    /// slot gets one chunk that holds all it used, so that a steady frame
    /// is one chunk and makes no buffer. The rule: set it to the largest
    /// element you upload, or larger; the growth finds a steady frame's
    /// size by itself within a frame per slot. Setting it to the [sizing
    /// report](UploadArena::report)'s p99 frame only saves those first
    /// frames their growth. Default 1 MiB.
    pub chunk_size: u64,
    /// Frames that may be with the GPU at once: at least 1 and at most
    /// [`UploadConfig::MAX_FRAMES_IN_FLIGHT`] (clamped to those). Default 2.
    pub frames_in_flight: usize,
    /// The most staging memory one frame may use (over all its chunks):
    /// past it, writes fail with [`UploadError::FrameTooLarge`]. Never
    /// less than `chunk_size` (as [`UploadArena::new`] rounds and clamps
    /// it): a lower setting is raised to it, so that a frame always has
    /// its first chunk. Default 256 MiB.
    pub max_frame_bytes: u64,
    /// Staging bytes each frame in flight always keeps. Default 0: a frame
    /// keeps what recent frames needed (see `release_after`).
    pub retain: u64,
    /// Frames a burst's chunks stay once the bursts stop: frames are
    /// counted in windows of this many, and at a window's end each frame
    /// in flight keeps a chunk that holds the largest frame of the window
    /// (and never less than `retain`); a slot whose chunks are larger
    /// destroys them, and its next frame makes one of that size. The CPU
    /// arena's retention, over chunks. Default 300 (5 s at 60 Hz).
    pub release_after: u32,
    /// Frames the [history](UploadArena::history) keeps for the sizing
    /// report: at least 1 and at most [`UploadConfig::MAX_HISTORY`]
    /// (clamped to those). Default 600.
    pub history: usize,
    /// What a breach of a tag's upload budget (or of `frame_budget`) does:
    /// the CPU arena's policies. Default: a line on stderr at most every
    /// 300 frames.
    pub budget_policy: BudgetPolicy,
    /// Upload bytes one frame may use before that is a breach
    /// ([`Tag::WHOLE_FRAME`]). Default none.
    pub frame_budget: Option<u64>,
    /// The staging buffers' label, and the arena's name in breaches.
    pub label: &'static str,
}

impl UploadConfig {
    /// The most [`frames_in_flight`](Self::frames_in_flight) an arena
    /// takes: a larger setting is clamped to it.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// use tickarena::gpu::{UploadArena, UploadConfig};
    /// let config = UploadConfig { frames_in_flight: usize::MAX, ..Default::default() };
    /// let arena = UploadArena::new(&device, config);
    /// assert_eq!(arena.config().frames_in_flight, UploadConfig::MAX_FRAMES_IN_FLIGHT);
    /// ```
    pub const MAX_FRAMES_IN_FLIGHT: usize = 16;

    /// The most frames of [`history`](Self::history) an arena keeps: a
    /// larger setting is clamped to it (the history is allocated at
    /// [`UploadArena::new`]).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// use tickarena::gpu::{UploadArena, UploadConfig};
    /// let config = UploadConfig { history: usize::MAX, ..Default::default() };
    /// let arena = UploadArena::new(&device, config);
    /// assert_eq!(arena.config().history, UploadConfig::MAX_HISTORY);
    /// ```
    pub const MAX_HISTORY: usize = 1 << 16;
}

impl Default for UploadConfig {
    fn default() -> UploadConfig {
        UploadConfig {
            chunk_size: 1 << 20,
            frames_in_flight: 2,
            max_frame_bytes: 256 << 20,
            retain: 0,
            release_after: DEFAULT_RELEASE_AFTER,
            history: 600,
            budget_policy: BudgetPolicy::default(),
            frame_budget: None,
            label: "tickarena upload arena",
        }
    }
}

/// What an [`UploadArena`] has done so far.
///
/// # Example
///
/// ```
/// let stats = tickarena::gpu::UploadStats::default();
/// assert_eq!((stats.frames, stats.buffers_created), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UploadStats {
    /// Frames begun.
    pub frames: u64,
    /// Staging buffers created, ever: in steady state this stops growing.
    pub buffers_created: u64,
    /// Staging buffers destroyed, ever (retention after bursts, failed maps).
    pub buffers_destroyed: u64,
    /// Staging chunks alive now, over every frame in flight.
    pub chunks: usize,
    /// Their bytes.
    pub staging_bytes: u64,
    /// The most upload bytes one frame used (padding included).
    pub high_water: u64,
    /// Times `begin_frame` waited for the GPU (the next frame's staging
    /// memory was still with the GPU after a poll).
    pub waits: u64,
    /// Times the arena polled the device (`device.poll`, non-blocking or
    /// waiting): only when a frame's staging memory was not yet back.
    /// wgpu allocates inside a poll; a frame that made none is a steady
    /// frame of the arena's own.
    pub polls: u64,
    /// Frames finished but not yet given back by the GPU.
    pub in_flight: usize,
    /// Budget breaches counted.
    pub breaches: u64,
}

/// One staging buffer, and its mapped view while its frame is open.
pub(super) struct Chunk {
    pub(super) buffer: wgpu::Buffer,
    /// The whole chunk's write-only view, taken when the frame first
    /// writes to it and dropped before it is unmapped.
    pub(super) view: Option<wgpu::BufferViewMut>,
    pub(super) signal: Arc<Signal>,
}

/// One frame in flight.
pub(super) struct Slot {
    pub(super) chunks: Vec<Chunk>,
    pub(super) bump: Bump,
    pub(super) segments: Vec<Segment>,
    pub(super) tags: TagBytes,
    /// The number of the frame that used it last.
    pub(super) frame: u64,
    /// The size of its first chunk, when it has none.
    pub(super) first_size: u64,
}

/// Segments a frame's table holds before it grows (kept between frames).
const SEGMENTS: usize = 256;

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A frame arena over wgpu's mapped staging memory: each frame's data for
/// the GPU (instances, vertices, uniforms), written straight into
/// staging buffers, then copied into your buffers on the frame's command
/// encoder. Frames in flight: a frame's chunks are reused only after the
/// GPU has finished the frame that used them. See [the module](super) for
/// the whole picture and [`guide::gpu`](crate::guide::gpu) for when to use
/// it.
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// use tickarena::gpu::{UploadArena, UploadConfig};
///
/// let mut arena = UploadArena::new(&device, UploadConfig::default());
/// let dst = device.create_buffer(&wgpu::BufferDescriptor {
///     label: None, size: 64, mapped_at_creation: false,
///     usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::VERTEX,
/// });
/// for _ in 0..10 {
///     let mut encoder = device.create_command_encoder(&Default::default());
///     let mut frame = arena.begin_frame().unwrap();
///     let upload = frame.upload_slice(&[[1.0f32, 2.0], [3.0, 4.0]]).unwrap();
///     frame.copy_to(&mut encoder, &upload, &dst, 0).unwrap();
///     frame.finish(&encoder);
///     queue.submit([encoder.finish()]);
/// }
/// assert_eq!(arena.stats().buffers_created, 2); // one chunk per frame in flight
/// ```
pub struct UploadArena {
    pub(super) device: wgpu::Device,
    pub(super) config: UploadConfig,
    pub(super) slots: Box<[Slot]>,
    /// The slot the next frame takes.
    next: usize,
    pub(super) id: u64,
    pub(super) stats: UploadStats,
    retention: Retention,
    /// Staging bytes each slot keeps, as retention last decided (all of
    /// them until the first window ends).
    keep_bytes: Option<u64>,
    /// The room the last finished frame took (its upload bytes and the
    /// chunk ends it could not use): a slot with no chunk makes its first
    /// one that large.
    last_bytes: u64,
    pub(super) history: FrameHistory,
    pub(super) budgets: Budgets,
    /// Each tag's upload budget (no bytes).
    pub(super) budget_table: TagBytes,
    /// A frame dropped without `finish`, to report.
    pub(super) abandoned: Option<u64>,
    /// The device was found lost: every frame from now on says so.
    lost: bool,
    /// The largest staging chunk: the device's `max_buffer_size`, on 4.
    pub(super) max_chunk: u64,
}

/// How long one step of `begin_frame`'s wait lasts: wgpu waits for the
/// latest submission, so the arena waits in steps and looks at its own
/// frame's chunks between them (wgpu runs the callbacks of what finished).
const WAIT_STEP: std::time::Duration = std::time::Duration::from_micros(500);

/// How long `begin_frame` keeps looking at a frame whose submitted work
/// is all done but which is not back yet, before it says `AllInFlight`:
/// another thread's `device.poll` may have retired the submission and be
/// about to run the frame's map callback.
const SUBMIT_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

/// Whether `begin_frame` may wait for the GPU. A browser page's thread
/// cannot: wgpu's WebGL2 backend waits on a fence for zero time and the
/// fence signals only between the page's tasks, so a wait would never
/// end; WebGPU's poll says the queue is empty at once; std's clock panics
/// there. In a page it looks once, as `try_begin_frame` does.
const MAY_WAIT: bool = !cfg!(all(target_family = "wasm", target_os = "unknown"));

impl UploadArena {
    /// An arena on `device` with no staging memory yet: chunks are made
    /// as frames need them. The config is clamped to what the device and
    /// the arena can honour: `chunk_size` to 4 bytes ..= the device's
    /// `max_buffer_size` (on 4), then `max_frame_bytes` to at least that
    /// chunk size, `frames_in_flight` to
    /// 1 ..= [`UploadConfig::MAX_FRAMES_IN_FLIGHT`], `history` to
    /// 1 ..= [`UploadConfig::MAX_HISTORY`]; [`config`](Self::config)
    /// says what it took.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// let arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// assert_eq!(arena.stats().chunks, 0);
    /// ```
    pub fn new(device: &wgpu::Device, config: UploadConfig) -> UploadArena {
        let mut config = config;
        // wgpu refuses a buffer larger than this (a panic in its default
        // error handler): no chunk is ever larger.
        let max_chunk = (device.limits().max_buffer_size / COPY_ALIGN * COPY_ALIGN).max(COPY_ALIGN);
        // Within the limit first, so that rounding up cannot overflow.
        config.chunk_size = config
            .chunk_size
            .clamp(COPY_ALIGN, max_chunk)
            .next_multiple_of(COPY_ALIGN)
            .min(max_chunk);
        // A frame takes at least one chunk: a lower limit would refuse
        // every write.
        config.max_frame_bytes = config.max_frame_bytes.max(config.chunk_size);
        config.frames_in_flight = config
            .frames_in_flight
            .clamp(1, UploadConfig::MAX_FRAMES_IN_FLIGHT);
        config.history = config.history.clamp(1, UploadConfig::MAX_HISTORY);
        let slots = (0..config.frames_in_flight)
            .map(|_| Slot {
                chunks: Vec::with_capacity(8),
                bump: Bump::new(config.chunk_size),
                segments: Vec::with_capacity(SEGMENTS),
                tags: TagBytes::default(),
                frame: 0,
                first_size: config.chunk_size,
            })
            .collect();
        UploadArena {
            device: device.clone(),
            config,
            slots,
            next: 0,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            stats: UploadStats::default(),
            retention: Retention::new(config.retain as usize, config.release_after),
            keep_bytes: None,
            last_bytes: 0,
            history: FrameHistory::with_capacity(config.history),
            budgets: Budgets::new(
                config.budget_policy,
                config.frame_budget.map(|b| b as usize),
            ),
            budget_table: TagBytes::default(),
            abandoned: None,
            lost: false,
            max_chunk,
        }
    }

    /// The arena's settings, as [`new`](Self::new) clamped them (the
    /// chunk size rounded up to 4).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// use tickarena::gpu::{UploadArena, UploadConfig};
    /// let arena = UploadArena::new(&device, UploadConfig { chunk_size: 1001, ..Default::default() });
    /// assert_eq!(arena.config().chunk_size, 1004);
    /// // A frame limit below the chunk is raised to it.
    /// let config = UploadConfig { chunk_size: 4096, max_frame_bytes: 1000, ..Default::default() };
    /// assert_eq!(UploadArena::new(&device, config).config().max_frame_bytes, 4096);
    /// ```
    pub fn config(&self) -> &UploadConfig {
        &self.config
    }

    /// The next frame, once the GPU has finished the frame that used its
    /// staging memory before. When that frame is not back yet, it polls
    /// the device (`device.poll`, non-blocking) and, if still not back,
    /// waits for the GPU until that frame is done, and no longer: the
    /// frames submitted after it stay in flight.
    ///
    /// # Errors
    ///
    /// [`UploadError::NotSubmitted`] for a frame never submitted and
    /// [`UploadError::MapFailed`]: reported once, and a second call goes
    /// on. [`UploadError::DeviceLost`]: every later call says so too.
    /// [`UploadError::AllInFlight`] if, with all submitted work done, the
    /// slot's frame is still not back after a grace of up to 100 ms (its encoder was given to
    /// [`finish`](UploadFrame::finish) but is neither submitted nor
    /// dropped yet): every call says so until that encoder is submitted
    /// (or dropped). The grace is there for a device polled by another
    /// thread too: that poll may have retired the frame's submission and
    /// not yet run its map callback, so the queue looks empty a moment
    /// before the frame is back; `begin_frame` waits for that callback
    /// rather than report a frame in flight.
    ///
    /// In a browser (`wasm32-unknown-unknown`) it never waits, since a
    /// page's thread cannot block: there it is
    /// [`try_begin_frame`](Self::try_begin_frame), and a frame whose
    /// staging memory is still with the GPU is `AllInFlight` (skip
    /// drawing it and try again at the next animation frame).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.number(), 1);
    /// ```
    pub fn begin_frame(&mut self) -> Result<UploadFrame<'_>, UploadError> {
        self.begin(MAY_WAIT)
    }

    /// [`begin_frame`](Self::begin_frame) without waiting: when the next
    /// frame's staging memory is still with the GPU, it says so.
    ///
    /// # Errors
    ///
    /// [`UploadError::AllInFlight`] when the GPU is that far behind, and
    /// those of [`begin_frame`](Self::begin_frame). It also says
    /// `AllInFlight` for a frame whose work is done but whose map callback
    /// has not run yet (another thread's `device.poll` is running it): "not
    /// yet", with no grace; a later call gets the frame.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// assert!(arena.try_begin_frame().is_ok());
    /// ```
    pub fn try_begin_frame(&mut self) -> Result<UploadFrame<'_>, UploadError> {
        self.begin(false)
    }

    fn begin(&mut self, wait: bool) -> Result<UploadFrame<'_>, UploadError> {
        if self.lost {
            return Err(UploadError::DeviceLost);
        }
        if let Some(frame) = self.abandoned.take() {
            return Err(UploadError::NotSubmitted { frame });
        }
        let index = self.next;
        self.settle(index, wait)?;
        self.resize(index);
        let slot = &mut self.slots[index];
        slot.bump.reset();
        slot.segments.clear();
        slot.tags = self.budget_table;
        self.stats.frames += 1;
        slot.frame = self.stats.frames;
        self.next = (index + 1) % self.slots.len();
        Ok(UploadFrame::new(self, index))
    }

    /// Brings slot `index` back from the GPU: every chunk mapped again.
    /// First a non-blocking poll; then (if `wait`) waits in steps of
    /// [`WAIT_STEP`] until this slot's chunks are back, so that the frames
    /// submitted after this one stay in flight.
    fn settle(&mut self, index: usize, wait: bool) -> Result<(), UploadError> {
        #[derive(PartialEq)]
        enum Next {
            Poll,
            Wait,
            /// All submitted work is done: no poll can bring more back.
            Done,
        }
        let mut next = Next::Poll;
        // When all submitted work was first seen done with this slot's
        // frame still pending (see `SUBMIT_GRACE`).
        let mut done_since: Option<std::time::Instant> = None;
        loop {
            let mut pending = false;
            let mut error = None;
            let slot = &mut self.slots[index];
            let mut i = 0;
            while i < slot.chunks.len() {
                let chunk = &slot.chunks[i];
                match chunk.signal.get() {
                    MAPPED => {}
                    PENDING => pending = true,
                    NEVER_SUBMITTED => {
                        // Unmapped and idle: map it again, as the GPU's
                        // completion would have.
                        let notify = Notify::pending(&chunk.signal);
                        chunk
                            .buffer
                            .map_async(wgpu::MapMode::Write, .., move |r| notify.done(r));
                        pending = true;
                        error.get_or_insert(UploadError::NotSubmitted { frame: slot.frame });
                    }
                    _ => {
                        debug_assert_eq!(chunk.signal.get(), FAILED);
                        let chunk = slot.chunks.remove(i);
                        chunk.buffer.destroy();
                        self.stats.buffers_destroyed += 1;
                        error = Some(UploadError::MapFailed);
                        continue;
                    }
                }
                i += 1;
            }
            if let Some(error) = error {
                return Err(error);
            }
            if !pending {
                return Ok(());
            }
            let poll = match next {
                Next::Done if wait => {
                    // Another thread's poll may be about to run this
                    // frame's callback: look again, in short steps, for a
                    // bounded time before saying the frame is in flight.
                    let since = *done_since.get_or_insert_with(std::time::Instant::now);
                    if since.elapsed() >= SUBMIT_GRACE {
                        return Err(UploadError::AllInFlight {
                            frames: self.slots.len(),
                        });
                    }
                    std::thread::yield_now();
                    wgpu::PollType::Poll
                }
                Next::Done => {
                    return Err(UploadError::AllInFlight {
                        frames: self.slots.len(),
                    });
                }
                Next::Poll => wgpu::PollType::Poll,
                Next::Wait => wgpu::PollType::Wait {
                    submission_index: None,
                    timeout: Some(WAIT_STEP),
                },
            };
            self.stats.polls += 1;
            let waited = next == Next::Wait;
            next = match self.device.poll(poll) {
                Ok(status) if status.is_queue_empty() || waited => Next::Done,
                Ok(_) if wait => {
                    self.stats.waits += 1;
                    Next::Wait
                }
                Ok(_) => Next::Done,
                // The latest submission is not done yet; wgpu has run the
                // callbacks of what is: look at this slot again.
                Err(wgpu::PollError::Timeout) => Next::Wait,
                Err(_) => {
                    self.lost = true;
                    return Err(UploadError::DeviceLost);
                }
            };
        }
    }

    /// Sizes slot `index`'s chunks for its next frame (its last frame's
    /// bump pointer still in place): after a frame that spanned several
    /// chunks, one chunk that holds it all; past what retention keeps, a
    /// chunk that holds the window's largest frame. Either way the slot's
    /// chunks are destroyed now (they are back from the GPU) and its next
    /// frame makes the one chunk.
    fn resize(&mut self, index: usize) {
        let (base, max) = (self.config.chunk_size, self.config.max_frame_bytes);
        let max_chunk = self.max_chunk;
        let slot = &mut self.slots[index];
        let total: u64 = slot.chunks.iter().map(|chunk| chunk.buffer.size()).sum();
        let mut target = None;
        if slot.bump.chunks_opened() > 1 {
            let size = fitting(base, needed(&slot.bump, max_chunk), max, max_chunk);
            // A frame past the device's largest buffer spans several
            // chunks of that size for good: keep them.
            let first = slot.chunks.first().map(|chunk| chunk.buffer.size());
            if first != Some(size) {
                target = Some(size);
            }
        } else if let Some(keep) = self.keep_bytes {
            // In the terms of what the window's largest frame took: past
            // the device's largest buffer, that many chunks of it.
            let cap = holding(base, keep, max, max_chunk);
            if total > cap {
                target = Some(cap);
            }
        }
        match target {
            Some(size) => {
                for chunk in slot.chunks.drain(..) {
                    drop(chunk.view);
                    chunk.buffer.destroy();
                    self.stats.buffers_destroyed += 1;
                }
                slot.first_size = size;
            }
            None if slot.chunks.is_empty() => {
                slot.first_size =
                    slot.first_size
                        .max(fitting(base, self.last_bytes, max, max_chunk));
            }
            None => {}
        }
    }

    /// Slot `index`'s bump pointer, segment table and chunks, borrowed
    /// apart.
    #[inline]
    pub(super) fn parts(&mut self, index: usize) -> (&mut Bump, &mut Vec<Segment>, Staging<'_>) {
        let slot = &mut self.slots[index];
        (
            &mut slot.bump,
            &mut slot.segments,
            Staging {
                chunks: &mut slot.chunks,
                first_size: slot.first_size,
                device: &self.device,
                config: &self.config,
                stats: &mut self.stats,
                lost: &mut self.lost,
                max_chunk: self.max_chunk,
            },
        )
    }

    /// The next frame takes slot `index` again (its frame was dropped).
    pub(super) fn rewind(&mut self, index: usize) {
        self.next = index;
    }

    /// A frame of `bytes` ended, having taken `needed` bytes of room in
    /// its chunks (its bytes and the chunk ends an element's unit did not
    /// fit): the record; retention's window and the next first chunk
    /// count the room, so that one chunk of that size holds such a frame.
    pub(super) fn frame_ended(&mut self, bytes: u64, needed: u64) {
        self.stats.high_water = self.stats.high_water.max(bytes);
        self.last_bytes = needed;
        if self.retention.frame_ended(needed as usize) {
            self.keep_bytes = Some(self.retention.end_window().keep as u64);
        }
    }

    /// Sets `tag`'s upload budget: bytes per frame, checked as each frame
    /// finishes, under the arena's [`BudgetPolicy`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// use tickarena::{BudgetPolicy, Tag, gpu::{UploadArena, UploadConfig}};
    /// const SPRITES: Tag = Tag::new("sprites");
    /// let config = UploadConfig { budget_policy: BudgetPolicy::Count, ..Default::default() };
    /// let mut arena = UploadArena::new(&device, config);
    /// arena.set_budget(SPRITES, 8);
    /// let encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice_tagged(SPRITES, &[0u32; 4]).unwrap();
    /// let record = frame.finish(&encoder);
    /// assert!(record.tags.over_budget().eq([(SPRITES, 16, 8)]));
    /// assert_eq!(arena.stats().breaches, 1);
    /// ```
    pub fn set_budget(&mut self, tag: Tag, bytes: u64) {
        self.budget_table.set_budget_of(tag, Some(bytes as usize));
    }

    /// What the arena has done so far.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// let arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// assert_eq!(arena.stats().frames, 0);
    /// ```
    pub fn stats(&self) -> UploadStats {
        let mut stats = self.stats;
        let chunks = self.slots.iter().flat_map(|slot| &slot.chunks);
        stats.chunks = chunks.clone().count();
        stats.staging_bytes = chunks.map(|chunk| chunk.buffer.size()).sum();
        stats.in_flight = self
            .slots
            .iter()
            .filter(|slot| slot.chunks.iter().any(|c| c.signal.get() == PENDING))
            .count();
        stats.breaches = self.budgets.breaches;
        stats
    }

    /// The last frames' upload bytes, per tag, as the CPU arena's frames
    /// are recorded: each [`FrameRecord`](crate::frame_loop::FrameRecord)'s
    /// `arena_bytes` is the frame's upload bytes (padding included), its
    /// `tags` their split by tag.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// let arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// assert!(arena.history().is_empty());
    /// ```
    pub fn history(&self) -> &FrameHistory {
        &self.history
    }

    /// The sizing report of the [history](Self::history): upload bytes per
    /// frame (p50, p99, max), per tag, and the bursts. It is the CPU
    /// arena's report, printed for uploads: its frames are numbered by
    /// [`UploadFrame::number`], and its last lines advise
    /// [`UploadConfig::retain`] (per frame in flight) and
    /// [`UploadConfig::max_frame_bytes`] (its figure is
    /// [`suggested_reserve`](SizingReport::suggested_reserve)).
    /// [`UploadConfig::chunk_size`] needs no figure from it
    /// (chunks grow to a steady frame by themselves; its p99 frame only
    /// spares the first frames that growth).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice(&[0u32; 256]).unwrap();
    /// frame.finish(&encoder);
    /// assert_eq!(arena.report().frame_max(), 1024);
    /// ```
    pub fn report(&self) -> SizingReport {
        self.history.report().for_uploads()
    }
}

/// The room a frame needs, as retention and the next chunk's size count
/// it: one chunk's worth (its bytes and its last unit, the same in any
/// chunks) when one chunk of the device can hold it; past that, the room
/// it took in its chunks of the device's largest size (with the ends of
/// chunks where an element's unit did not fit), so that as many such
/// chunks are kept.
pub(super) fn needed(bump: &Bump, max_chunk: u64) -> u64 {
    let one = bump.one_chunk();
    if one <= max_chunk {
        one
    } else {
        one.max(bump.spanned())
    }
}

/// The slot's next chunk, made now (mapped at creation): its first as
/// large as the slot's frames need, each next one twice the last, all of
/// them within the frame's limit.
pub(super) fn make_chunk(staging: &mut Staging<'_>) -> Result<(), UploadError> {
    let config = staging.config;
    let wanted = staging.chunks.last().map_or(staging.first_size, |last| {
        last.buffer.size().saturating_mul(2)
    });
    let total = staging.chunks.iter().map(|chunk| chunk.buffer.size()).sum();
    let Some(size) = next_chunk(
        config.chunk_size,
        wanted,
        total,
        config.max_frame_bytes,
        staging.max_chunk,
    ) else {
        return Err(UploadError::FrameTooLarge {
            max_frame_bytes: config.max_frame_bytes,
        });
    };
    let buffer = staging.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(config.label),
        size,
        usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    });
    staging.chunks.push(Chunk {
        buffer,
        view: None,
        signal: Arc::new(Signal::default()),
    });
    staging.stats.buffers_created += 1;
    Ok(())
}

impl Drop for UploadArena {
    /// Destroys the staging buffers (wgpu keeps one alive until the GPU
    /// is done with it).
    fn drop(&mut self) {
        for slot in self.slots.iter_mut() {
            for chunk in slot.chunks.drain(..) {
                drop(chunk.view);
                chunk.buffer.destroy();
            }
        }
    }
}

impl core::fmt::Debug for UploadArena {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UploadArena")
            .field("config", &self.config)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}
