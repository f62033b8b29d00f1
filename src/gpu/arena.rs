//! The upload arena: a ring of frames in flight, each a list of staging
//! chunks (wgpu buffers `MAP_WRITE | COPY_SRC`), handed out one frame at a
//! time once the GPU is done with the frame that used them before.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::bump::{Bump, COPY_ALIGN, Segment};
use super::error::UploadError;
use super::frame::{PendingCopy, Staging, UploadFrame};
use super::growth::{fitting, holding, next_chunk};
use super::signal::{FAILED, HANDED, MAPPED, NEVER_SUBMITTED, Notify, PENDING, Signal};
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

/// One staging buffer. The frame's writers hold views of their rooms in
/// it while they write; none is left once the frame is finished or
/// dropped. Dropped with the arena, a chunk is freed once the last
/// submission that copies from it is gone (never destroyed then: an
/// encoder finished but not yet submitted still copies from it).
pub(super) struct Chunk {
    pub(super) buffer: wgpu::Buffer,
    pub(super) signal: Arc<Signal>,
}

/// One frame in flight.
pub(super) struct Slot {
    pub(super) chunks: Vec<Chunk>,
    pub(super) bump: Bump,
    pub(super) segments: Vec<Segment>,
    /// The copies the open frame records at its finish (kept between
    /// frames for their room: no allocation in a steady frame).
    pub(super) copies: Vec<PendingCopy>,
    /// The submission that carries the slot's last finished frame, as
    /// [`UploadArena::submitted`] said: `begin_frame` waits on it alone.
    pub(super) submission: Option<wgpu::SubmissionIndex>,
    /// Finished and handed to the GPU, its submission not told yet.
    pub(super) awaiting_submission: bool,
    /// Told its submission: its `HANDED` chunks are mapped again at the
    /// next `begin_frame`.
    pub(super) map_at_begin: bool,
    pub(super) tags: TagBytes,
    /// The number of the frame that used it last.
    pub(super) frame: u64,
    /// The size of its first chunk, when it has none.
    pub(super) first_size: u64,
}

/// Segments a frame's table holds before it grows (kept between frames).
const SEGMENTS: usize = 256;

/// Copies a frame records before its list grows (kept between frames).
const COPIES: usize = 64;

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
///     frame.copy_to(&upload, &dst, 0).unwrap();
///     frame.finish(&mut encoder);
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
    /// A frame had several uploads open at once: rooms are claimed in
    /// blocks from then on (see [`UploadFrame::upload`]).
    pub(super) uploads_together: bool,
    /// A frame dropped without `finish`, to report.
    pub(super) abandoned: Option<u64>,
    /// The device was found lost: every frame from now on says so.
    lost: bool,
    /// [`submitted`](UploadArena::submitted) told the submission of the
    /// frames finished before it: the next frame's chunks are mapped
    /// again by the arena when told, not by a map wgpu runs at the
    /// submit (which costs three heap allocations more per chunk).
    pub(super) told: bool,
    /// The largest staging chunk: the device's `max_buffer_size`, on 4.
    pub(super) max_chunk: u64,
}

/// How long one step of `begin_frame`'s wait lasts: wgpu waits only for
/// the latest submission, so the arena waits in steps (a sleep, then a
/// poll that runs the callbacks of what finished) and looks at its own
/// frame's chunks between them.
const WAIT_STEP: std::time::Duration = std::time::Duration::from_micros(500);

/// The longest `begin_frame` waits on a frame's own submission in one
/// wait (then it goes on in steps, and says `AllInFlight` where all the
/// submitted work is done and the frame still not back).
const OWN_SUBMISSION_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

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
                copies: Vec::with_capacity(COPIES),
                submission: None,
                awaiting_submission: false,
                map_at_begin: false,
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
            retention: Retention::new(saturating_usize(config.retain), config.release_after),
            keep_bytes: None,
            last_bytes: 0,
            history: FrameHistory::with_capacity(config.history),
            budgets: Budgets::new(
                config.budget_policy,
                config.frame_budget.map(saturating_usize),
            ),
            budget_table: TagBytes::default(),
            uploads_together: false,
            abandoned: None,
            lost: false,
            told: false,
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
    /// rather than report a frame in flight. It also says `AllInFlight`
    /// after waiting 5 s for a frame that is not back (a GPU that far
    /// behind, or an encoder never submitted while other work keeps the
    /// queue busy).
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
        self.map_told();
        let index = self.next;
        self.settle(index, wait)?;
        self.resize(index);
        let slot = &mut self.slots[index];
        slot.bump.reset();
        slot.segments.clear();
        slot.copies.clear();
        slot.tags = self.budget_table;
        self.stats.frames += 1;
        slot.frame = self.stats.frames;
        self.next = (index + 1) % self.slots.len();
        Ok(UploadFrame::new(self, index))
    }

    /// Brings slot `index` back from the GPU: every chunk mapped again.
    /// Where the slot's submission is known ([`submitted`](Self::submitted)),
    /// one blocking wait on that submission alone (which returns at once
    /// when it is done), so that the frames submitted after it stay in
    /// flight and a GPU that is behind costs the CPU one wait. Otherwise
    /// a non-blocking poll first; then (if `wait`) waits in steps of
    /// [`WAIT_STEP`] until this slot's chunks are back.
    fn settle(&mut self, index: usize, wait: bool) -> Result<(), UploadError> {
        #[derive(PartialEq)]
        enum Next {
            /// One wait on the slot's own submission.
            OwnSubmission,
            Poll,
            Wait,
            /// All submitted work is done: no poll can bring more back.
            Done,
        }
        let mut next = Next::Poll;
        if wait && self.slots[index].submission.is_some() {
            next = Next::OwnSubmission;
        }
        // When all submitted work was first seen done with this slot's
        // frame still pending (see `SUBMIT_GRACE`).
        let mut done_since: Option<std::time::Instant> = None;
        // When the steps of `WAIT_STEP` began.
        let mut waiting_since: Option<std::time::Instant> = None;
        // One wait counted per call, however many steps it takes.
        let mut counted_wait = false;
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
                    HANDED => {
                        // Finished while submissions were being told, and
                        // its submission never was: whether its encoder
                        // was submitted is unknown, so it cannot be mapped
                        // (a map before that submit would fail it). The
                        // arena lets it go (wgpu frees it once no
                        // submission uses it) and maps again at the submit
                        // from now on.
                        slot.chunks.remove(i);
                        self.stats.buffers_destroyed += 1;
                        self.told = false;
                        continue;
                    }
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
                slot.submission = None;
                return Ok(());
            }
            let poll = match next {
                // A timed wait, which wgpu-core 30 can panic in when it
                // times out while another thread's poll retires the queue
                // (see `Next::Wait`): only a GPU 5 s behind gets there.
                Next::OwnSubmission => wgpu::PollType::Wait {
                    submission_index: slot.submission.take(),
                    timeout: Some(OWN_SUBMISSION_LIMIT),
                },
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
                // The latest submission may never finish while another
                // thread keeps submitting and this frame's encoder was
                // never submitted: the steps end after the same limit
                // as one wait on the frame's own submission.
                Next::Wait
                    if waiting_since
                        .get_or_insert_with(std::time::Instant::now)
                        .elapsed()
                        >= OWN_SUBMISSION_LIMIT =>
                {
                    return Err(UploadError::AllInFlight {
                        frames: self.slots.len(),
                    });
                }
                // A step is a sleep and a poll, not a wait with a timeout:
                // wgpu-core 30 panics in a timed-out wait when another
                // thread's poll retires the latest submission meanwhile
                // ("If the queue is empty, the current submission index
                // ... should be at least the wait submission index",
                // gfx-rs/wgpu#9958, not in a release yet).
                Next::Wait => {
                    std::thread::sleep(WAIT_STEP);
                    wgpu::PollType::Poll
                }
            };
            self.stats.polls += 1;
            let own = next == Next::OwnSubmission;
            if own {
                self.stats.waits += 1;
                counted_wait = true;
            }
            next = match self.device.poll(poll) {
                // Its own submission done and the slot still pending: the
                // index said was not the one that carried the frame (or
                // another thread's poll is running the callback): the
                // steps below find it.
                Ok(_) | Err(wgpu::PollError::Timeout) if own => Next::Poll,
                // An index this device never returned from a successful
                // submit (another device's, or a failed submit's) is no
                // lost device: it is forgotten, and the steps go on.
                Err(wgpu::PollError::WrongSubmissionIndex(..)) => Next::Poll,
                Ok(status) if status.is_queue_empty() => Next::Done,
                Ok(_) if wait => {
                    if !counted_wait {
                        self.stats.waits += 1;
                        counted_wait = true;
                    }
                    Next::Wait
                }
                Ok(_) => Next::Done,
                // Only a wait times out (the own submission's, above); a
                // poll never does.
                Err(wgpu::PollError::Timeout) => Next::Wait,
                // No other error: on wgpu-core, `device.poll` returns only
                // these two, and a device error panics inside wgpu.
            };
        }
    }

    /// Tells the arena the submission that carries the frames finished
    /// since the last call: pass it what `queue.submit` returned for the
    /// encoder given to [`finish`](UploadFrame::finish). When
    /// [`begin_frame`](Self::begin_frame) must wait for such a frame's
    /// staging memory, it then waits on that submission alone, in one
    /// blocking wait, and the frames after it stay in flight. Without it,
    /// `begin_frame` still waits for the right frame, but in steps of
    /// half a millisecond, each a wake-up and a poll (the CPU time of
    /// about two blocking waits per frame where the GPU is behind).
    /// Where another part of the program submits (an engine's render
    /// graph), not calling it is fine.
    ///
    /// Told, the arena also asks wgpu itself to map those frames' chunks
    /// again, at the next `begin_frame` (as `StagingBelt::recall` does
    /// after the submit), instead of asking it at `finish` to map them at
    /// the submit: three heap allocations fewer per chunk, all wgpu's.
    /// So submit a finished frame before the next `begin_frame` (a chunk
    /// mapped before the submit that copies from it fails that submit in
    /// wgpu); telling an older index before the submit is fine. Once
    /// told, the arena counts on being told: a frame
    /// finished after that and never told (its encoder dropped, or the
    /// calls stopped) has its chunk let go at its slot's next frame (wgpu
    /// frees it once no submission uses it; a submitted frame's copy still
    /// lands) and a new one made, once; the frames after that are mapped
    /// at the submit again, until the next call.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// for _ in 0..4 {
    ///     let mut encoder = device.create_command_encoder(&Default::default());
    ///     let mut frame = arena.begin_frame().unwrap();
    ///     let _ = frame.upload_slice(&[1u32, 2, 3]).unwrap();
    ///     frame.finish(&mut encoder);
    ///     arena.submitted(queue.submit([encoder.finish()]));
    /// }
    /// assert_eq!(arena.stats().frames, 4);
    /// ```
    pub fn submitted(&mut self, index: wgpu::SubmissionIndex) {
        for slot in self
            .slots
            .iter_mut()
            .filter(|slot| slot.awaiting_submission)
        {
            slot.awaiting_submission = false;
            slot.submission = Some(index.clone());
            slot.map_at_begin = true;
        }
        self.told = true;
    }

    /// Asks wgpu to map again the chunks of the frames told their
    /// submission since the last frame began. Here, not in `submitted`:
    /// a program that tells an older index before it submits the frame
    /// (finish, `submitted(last frame's index)`, submit) has submitted it
    /// by the next `begin_frame`, and a map asked for before that submit
    /// would fail it in wgpu.
    fn map_told(&mut self) {
        for slot in self.slots.iter_mut().filter(|slot| slot.map_at_begin) {
            slot.map_at_begin = false;
            for chunk in &slot.chunks {
                if chunk.signal.get() == HANDED {
                    let notify = Notify::pending(&chunk.signal);
                    chunk
                        .buffer
                        .map_async(wgpu::MapMode::Write, .., move |r| notify.done(r));
                }
            }
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
        if self.retention.frame_ended(saturating_usize(needed)) {
            self.keep_bytes = Some(self.retention.end_window().keep as u64);
        }
    }

    /// Sets `tag`'s upload budget: bytes per frame, checked as each frame
    /// finishes, under the arena's [`BudgetPolicy`]. The arena tells
    /// [`MAX_TAGS`](crate::MAX_TAGS) tags apart: a budget for a tag past
    /// those is ignored, as [`FrameArena::set_budget`](crate::FrameArena::set_budget)
    /// ignores it (it never takes another tag's budget).
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
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice_tagged(SPRITES, &[0u32; 4]).unwrap();
    /// let record = frame.finish(&mut encoder);
    /// assert!(record.tags.over_budget().eq([(SPRITES, 16, 8)]));
    /// assert_eq!(arena.stats().breaches, 1);
    /// ```
    pub fn set_budget(&mut self, tag: Tag, bytes: u64) {
        self.budget_table
            .set_budget_of(tag, Some(saturating_usize(bytes)));
    }

    /// Destroys the staging chunks of the frames handed to the GPU and
    /// not back yet, as a lost buffer would be: their maps then fail, as
    /// the tests of `MapFailed` need. Only a finished frame's chunks are
    /// touched (no writer holds a view of them), so no write of the
    /// arena's can reach a destroyed buffer's memory. Not for programs: the arena
    /// hands out no staging buffer for this reason.
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// assert_eq!(arena.destroy_chunks_in_flight(), 0);
    /// ```
    #[doc(hidden)]
    pub fn destroy_chunks_in_flight(&mut self) -> usize {
        let mut destroyed = 0;
        for slot in self.slots.iter() {
            for chunk in slot.chunks.iter().filter(|c| c.signal.get() == PENDING) {
                chunk.buffer.destroy();
                destroyed += 1;
            }
        }
        destroyed
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
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice(&[0u32; 256]).unwrap();
    /// frame.finish(&mut encoder);
    /// assert_eq!(arena.report().frame_max(), 1024);
    /// ```
    pub fn report(&self) -> SizingReport {
        self.history.report().for_uploads()
    }
}

/// Bytes counted in `u64` (wgpu's sizes) where the tags, budgets and
/// retention count in `usize`: on a 32-bit target (wasm32) a figure past
/// `usize::MAX` is `usize::MAX`, never cut to its low bits (a budget of
/// 4 GiB is no budget of 0).
pub(super) fn saturating_usize(bytes: u64) -> usize {
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// The room a frame needs, as retention and the next chunk's size count
/// it: one chunk's worth (its bytes and its last unit, the same in any
/// chunks) when one chunk of the device can hold it; past that, the room
/// it took in its chunks of the device's largest size (with the ends of
/// chunks where an element's unit did not fit), so that as many such
/// chunks are kept.
pub(super) fn needed(bump: &Bump, max_chunk: u64) -> u64 {
    let one = bump.one_chunk();
    if bump.had_uploads_together() {
        // Rooms left unused beside one another count too: one chunk of
        // the frame's span holds the same frame again.
        one.max(bump.spanned())
    } else if one <= max_chunk {
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
    let descriptor = wgpu::BufferDescriptor {
        label: Some(config.label),
        size,
        usage: wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    };
    // An allocation the device cannot make is an error of the write that
    // needed it, not wgpu's default handler's panic. Its scope answers at
    // once on native backends; a browser's answers between the page's
    // tasks, where nothing can wait for it (there the handler's message
    // stays).
    let buffer = if MAY_WAIT {
        let scope = staging
            .device
            .push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = staging.device.create_buffer(&descriptor);
        if super::ready(scope.pop()).is_some() {
            buffer.destroy();
            return Err(UploadError::OutOfMemory { bytes: size });
        }
        buffer
    } else {
        staging.device.create_buffer(&descriptor)
    };
    staging.chunks.push(Chunk {
        buffer,
        signal: Arc::new(Signal::default()),
    });
    staging.stats.buffers_created += 1;
    Ok(())
}

impl core::fmt::Debug for UploadArena {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UploadArena")
            .field("config", &self.config)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}
