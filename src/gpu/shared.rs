//! The upload arena for an engine's schedule: a frame opened by one
//! system, written by any number of others (in parallel where the
//! schedule runs them so), and closed by a last one, on one encoder.
//! What the borrow checker cannot follow across systems is checked at
//! run time: a handle asked for with no frame open, an upload of an
//! earlier frame, a frame begun while one is still open.

use std::sync::Mutex;

use bytemuck::Pod;

use super::arena::{UploadArena, UploadStats};
use super::error::UploadError;
use super::frame::{Upload, UploadFrame, UploadWriter, held};
use crate::Tag;
use crate::frame_loop::FrameRecord;

/// An [`UploadArena`] whose frame stays open from one system to the
/// next: [`begin_frame`](Self::begin_frame) opens it (one system, with
/// the arena mutably), [`frame`](Self::frame) hands any number of
/// systems a [`SharedFrame`] at once (the arena shared: it is `Sync`),
/// and [`finish`](Self::finish) records every copy asked for on one
/// encoder and hands the frame's staging memory to the GPU.
///
/// The writers of one frame write in parallel: each upload grows in a
/// room of its own, claimed in blocks from the first frame (see
/// [`UploadFrame::upload`]), and the arena's lock is taken only to claim
/// a room, close an upload or ask for a copy, never while your code
/// writes.
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// use tickarena::gpu::{GpuVec, SharedUploadArena, UploadArena, wgpu::BufferUsages};
///
/// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
/// let mut sprites = GpuVec::<[f32; 4]>::new("sprites", BufferUsages::VERTEX);
/// let mut lights = GpuVec::<[f32; 8]>::new("lights", BufferUsages::STORAGE);
/// for tick in 0..3 {
///     uploads.begin_frame().unwrap(); // a first system
///     std::thread::scope(|s| {
///         // Two systems that run in parallel, each with the arena shared.
///         s.spawn(|| sprites.write(&mut uploads.frame().unwrap(), (0..100 + tick).map(|i| [i as f32; 4])));
///         s.spawn(|| lights.write_slice(&mut uploads.frame().unwrap(), &[[1.0; 8]; 4]));
///     });
///     let mut encoder = device.create_command_encoder(&Default::default()); // a last system
///     uploads.finish(&mut encoder).unwrap();
///     uploads.submitted(queue.submit([encoder.finish()]));
/// }
/// assert_eq!((sprites.len(), lights.len()), (102, 4));
/// ```
pub struct SharedUploadArena {
    arena: Mutex<UploadArena>,
    /// The open frame: its slot and number.
    open: Option<(usize, u64)>,
    /// The arena's id, for the check that an upload is this arena's.
    id: u64,
}

impl SharedUploadArena {
    /// The shared form of `arena`, with no frame open.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// assert!(!uploads.is_open());
    /// ```
    pub fn new(mut arena: UploadArena) -> SharedUploadArena {
        let id = arena.id;
        // Several systems write at once, from the first frame: rooms in
        // blocks from the start, so that a first overlap of two writers
        // (whenever the scheduler first runs them together) does not
        // reshape the chunks of a steady game.
        arena.uploads_together = true;
        SharedUploadArena {
            arena: Mutex::new(arena),
            open: None,
            id,
        }
    }

    /// Opens the next frame, as [`UploadArena::begin_frame`] does (and
    /// waits as it does for the GPU to give back its staging memory), and
    /// returns its number. [`frame`](Self::frame) hands it out until
    /// [`finish`](Self::finish) or [`discard`](Self::discard) ends it.
    ///
    /// # Errors
    ///
    /// Those of [`UploadArena::begin_frame`]. A frame still open (its
    /// `finish` never ran: the system that closes it was skipped, or
    /// returned early) is discarded as a dropped frame is: this call
    /// reports [`UploadError::NotSubmitted`] with its number, and the next
    /// one goes on.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena, UploadError};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// assert_eq!(uploads.begin_frame(), Ok(1));
    /// // Never finished: reported once, then the arena goes on.
    /// assert_eq!(uploads.begin_frame(), Err(UploadError::NotSubmitted { frame: 1 }));
    /// assert_eq!(uploads.begin_frame(), Ok(2));
    /// ```
    pub fn begin_frame(&mut self) -> Result<u64, UploadError> {
        if let Some(frame) = self.open.map(|(_, number)| number) {
            // Left open (or overtaken by the arena's own `begin_frame`):
            // ended as a dropped frame is, and reported.
            self.discard();
            return Err(UploadError::NotSubmitted { frame });
        }
        let frame = self.arena_mut().begin_frame()?;
        let opened = (frame.slot(), frame.number());
        // The frame's state is the arena's slot; the handle that borrowed
        // it goes without ending it.
        frame.keep_open();
        self.open = Some(opened);
        Ok(opened.1)
    }

    /// A handle on the open frame, for one system: upload, write and ask
    /// for copies through it. Any number may be out at once, on any
    /// threads.
    ///
    /// # Errors
    ///
    /// [`UploadError::NoFrameOpen`] when no frame is open (before the
    /// first [`begin_frame`](Self::begin_frame), or after
    /// [`finish`](Self::finish)).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena, UploadError};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// assert_eq!(uploads.frame().err(), Some(UploadError::NoFrameOpen));
    /// uploads.begin_frame().unwrap();
    /// let frame = uploads.frame().unwrap();
    /// assert_eq!(frame.upload_slice(&[1u32, 2]).unwrap().len(), 2);
    /// ```
    pub fn frame(&self) -> Result<SharedFrame<'_>, UploadError> {
        let Some((slot, number)) = self.open else {
            return Err(UploadError::NoFrameOpen);
        };
        if !is_latest(&held::lock(&self.arena), number) {
            return Err(UploadError::NoFrameOpen);
        }
        Ok(SharedFrame {
            frame: UploadFrame::locked(&self.arena, slot, number, self.id),
        })
    }

    /// Whether a frame is open.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// assert!(uploads.is_open());
    /// ```
    pub fn is_open(&self) -> bool {
        self.open
            .is_some_and(|(_, number)| is_latest(&held::lock(&self.arena), number))
    }

    /// Ends the open frame as [`UploadFrame::finish`] does: every copy
    /// its systems asked for is recorded on `encoder`, in the order they
    /// were asked for, and its staging memory is handed to the GPU with
    /// that encoder's submission. Submit `encoder` after the passes that
    /// read the copies' destinations are recorded, and tell the arena its
    /// index ([`submitted`](Self::submitted)).
    ///
    /// # Errors
    ///
    /// [`UploadError::NoFrameOpen`] when no frame is open: nothing is
    /// recorded.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// uploads.begin_frame().unwrap();
    /// let _ = uploads.frame().unwrap().upload_slice(&[0u32; 4]).unwrap();
    /// assert_eq!(uploads.finish(&mut encoder).unwrap().arena_bytes, 16);
    /// uploads.submitted(queue.submit([encoder.finish()]));
    /// assert!(uploads.finish(&mut device.create_command_encoder(&Default::default())).is_err());
    /// ```
    pub fn finish(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
    ) -> Result<FrameRecord, UploadError> {
        let Some((slot, number)) = self.open.take() else {
            return Err(UploadError::NoFrameOpen);
        };
        let arena = self.arena_mut();
        if !is_latest(arena, number) {
            // Overtaken: ended as a dropped frame is, and said so here.
            discard_slot(arena, slot, number);
            return Err(UploadError::NoFrameOpen);
        }
        Ok(UploadFrame::new(arena, slot).finish(encoder))
    }

    /// Ends the open frame without handing it to the GPU, as
    /// [`UploadFrame::discard`] does: its uploads and copies are dropped,
    /// and nothing is reported. Whether a frame was open.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// assert!(uploads.discard());
    /// assert_eq!(uploads.begin_frame(), Ok(2)); // nothing reported
    /// ```
    pub fn discard(&mut self) -> bool {
        let Some((slot, number)) = self.open.take() else {
            return false;
        };
        let arena = self.arena_mut();
        let latest = is_latest(arena, number);
        discard_slot(arena, slot, number);
        latest
    }

    /// Tells the arena the index of the submission that carried the last
    /// finished frame, as [`UploadArena::submitted`] does.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// uploads.finish(&mut encoder).unwrap();
    /// uploads.submitted(queue.submit([encoder.finish()]));
    /// ```
    pub fn submitted(&mut self, index: wgpu::SubmissionIndex) {
        self.arena_mut().submitted(index);
    }

    /// The arena's counts, as [`UploadArena::stats`] gives them.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// assert_eq!(uploads.stats().frames, 0);
    /// ```
    pub fn stats(&self) -> UploadStats {
        held::lock(&self.arena).stats()
    }

    /// The arena itself, for what this type does not forward (its
    /// history, sizing report, budgets). Its own
    /// [`begin_frame`](UploadArena::begin_frame) is not the shared one:
    /// a frame begun through it overtakes a shared frame that is open,
    /// which is then ended as a dropped frame is ([`frame`](Self::frame),
    /// [`finish`](Self::finish) say [`UploadError::NoFrameOpen`], and the
    /// next shared [`begin_frame`](Self::begin_frame) reports it as
    /// [`UploadError::NotSubmitted`]), however many frames are in flight.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// assert!(uploads.arena_mut().history().is_empty());
    /// ```
    pub fn arena_mut(&mut self) -> &mut UploadArena {
        self.arena
            .get_mut()
            .expect("tickarena: a call of the shared upload arena panicked before this one")
    }

    /// The arena, taken back (an open frame discarded first).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let mut arena = uploads.into_inner();
    /// assert_eq!(arena.begin_frame().unwrap().number(), 2);
    /// ```
    pub fn into_inner(mut self) -> UploadArena {
        self.discard();
        self.arena
            .into_inner()
            .expect("tickarena: a call of the shared upload arena panicked before this one")
    }
}

/// Whether frame `number` is the last the arena began: a shared frame
/// that is not was overtaken by the arena's own `begin_frame`.
fn is_latest(arena: &UploadArena, number: u64) -> bool {
    arena.stats.frames == number
}

/// Ends shared frame `number` in `slot` without handing it to the GPU,
/// where the slot is still that frame's (the arena's own `begin_frame`
/// may have taken it since: then there is nothing of it left to end).
fn discard_slot(arena: &mut UploadArena, slot: usize, number: u64) {
    if arena.slots[slot].frame == number {
        UploadFrame::new(arena, slot).discard();
    }
}

impl core::fmt::Debug for SharedUploadArena {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharedUploadArena")
            .field("open", &self.open.map(|(_, number)| number))
            .finish_non_exhaustive()
    }
}

/// One system's handle on the frame a [`SharedUploadArena`] holds open:
/// what an [`UploadFrame`] does but end the frame (the arena does, once
/// every handle is gone) and list an upload's segments.
///
/// # Example
///
/// ```
/// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
/// # use tickarena::gpu::{SharedUploadArena, UploadArena};
/// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
/// uploads.begin_frame().unwrap();
/// let frame = uploads.frame().unwrap();
/// let mut lines = frame.upload::<[f32; 3]>().unwrap();
/// lines.extend([[0.0; 3], [1.0; 3]]).unwrap();
/// assert_eq!(lines.finish().len(), 2);
/// ```
pub struct SharedFrame<'s> {
    frame: UploadFrame<'s>,
}

impl<'s> SharedFrame<'s> {
    /// The open frame's number, as [`UploadFrame::number`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// assert_eq!(uploads.frame().unwrap().number(), 1);
    /// ```
    pub fn number(&self) -> u64 {
        self.frame.number()
    }

    /// The frame's upload bytes so far, every system's, as
    /// [`UploadFrame::bytes`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let _ = uploads.frame().unwrap().upload_slice(&[1u8]).unwrap();
    /// assert_eq!(uploads.frame().unwrap().bytes(), 4);
    /// ```
    pub fn bytes(&self) -> u64 {
        self.frame.bytes()
    }

    /// Opens an upload, as [`UploadFrame::upload`].
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::upload`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let frame = uploads.frame().unwrap();
    /// let mut indices = frame.upload::<u16>().unwrap();
    /// indices.extend([0, 1, 2]).unwrap();
    /// assert_eq!(indices.finish().copy_size(), 8);
    /// ```
    pub fn upload<T: Pod>(&self) -> Result<UploadWriter<'_, 's, T>, UploadError> {
        self.frame.upload()
    }

    /// Opens an upload under `tag`, as [`UploadFrame::upload_tagged`].
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::upload`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// const UI: tickarena::Tag = tickarena::Tag::new("ui");
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let mut quads = uploads.frame().unwrap();
    /// let _ = quads.upload_tagged::<[f32; 4]>(UI).unwrap().finish();
    /// ```
    pub fn upload_tagged<T: Pod>(&self, tag: Tag) -> Result<UploadWriter<'_, 's, T>, UploadError> {
        self.frame.upload_tagged(tag)
    }

    /// Uploads a slice at once, as [`UploadFrame::upload_slice`].
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::upload_slice`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// assert_eq!(uploads.frame().unwrap().upload_slice(&[[0.5f32; 4]; 3]).unwrap().bytes(), 48);
    /// ```
    pub fn upload_slice<T: Pod>(&self, data: &[T]) -> Result<Upload<'s>, UploadError> {
        self.frame.upload_slice(data)
    }

    /// Uploads a slice under `tag`, as [`UploadFrame::upload_slice_tagged`].
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::upload_slice`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// const LINES: tickarena::Tag = tickarena::Tag::new("debug lines");
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// assert_eq!(uploads.frame().unwrap().upload_slice_tagged(LINES, &[0u32; 2]).unwrap().len(), 2);
    /// ```
    pub fn upload_slice_tagged<T: Pod>(
        &self,
        tag: Tag,
        data: &[T],
    ) -> Result<Upload<'s>, UploadError> {
        self.frame.upload_slice_tagged(tag, data)
    }

    /// Asks for the copy of `upload` into `dst` at `dst_offset`, recorded
    /// at the shared arena's [`finish`](SharedUploadArena::finish), as
    /// [`UploadFrame::copy_to`].
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::copy_to`]. An upload of an earlier frame (an
    /// `Upload` kept in a system's state) is
    /// [`UploadError::ForeignUpload`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let dst = device.create_buffer(&wgpu::BufferDescriptor {
    ///     label: None, size: 16, mapped_at_creation: false,
    ///     usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::UNIFORM,
    /// });
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let mut frame = uploads.frame().unwrap();
    /// let upload = frame.upload_slice(&[1.0f32; 4]).unwrap();
    /// frame.copy_to(&upload, &dst, 0).unwrap();
    /// ```
    pub fn copy_to(
        &mut self,
        upload: &Upload<'s>,
        dst: &wgpu::Buffer,
        dst_offset: u64,
    ) -> Result<(), UploadError> {
        self.frame.copy_to(upload, dst, dst_offset)
    }

    /// Asks for the copy of `upload` into a texture, as
    /// [`UploadFrame::copy_to_texture`].
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::copy_to_texture`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{SharedUploadArena, UploadArena};
    /// let size = wgpu::Extent3d { width: 64, height: 1, depth_or_array_layers: 1 };
    /// let texture = device.create_texture(&wgpu::TextureDescriptor {
    ///     label: None, size, mip_level_count: 1, sample_count: 1,
    ///     dimension: wgpu::TextureDimension::D2, format: wgpu::TextureFormat::Rgba8Unorm,
    ///     usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::TEXTURE_BINDING,
    ///     view_formats: &[],
    /// });
    /// let mut uploads = SharedUploadArena::new(UploadArena::new(&device, Default::default()));
    /// uploads.begin_frame().unwrap();
    /// let mut frame = uploads.frame().unwrap();
    /// let texels = frame.upload_slice(&[[255u8, 0, 0, 255]; 64]).unwrap();
    /// frame.copy_to_texture(&texels, texture.as_image_copy(), 256, size).unwrap();
    /// ```
    pub fn copy_to_texture(
        &mut self,
        upload: &Upload<'s>,
        dst: wgpu::TexelCopyTextureInfo<'_>,
        bytes_per_row: u32,
        size: wgpu::Extent3d,
    ) -> Result<(), UploadError> {
        self.frame.copy_to_texture(upload, dst, bytes_per_row, size)
    }
}

impl core::fmt::Debug for SharedFrame<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SharedFrame")
            .field("number", &self.number())
            .finish_non_exhaustive()
    }
}

/// A frame open for uploads and copies: an [`UploadFrame`] or a
/// [`SharedFrame`]. [`GpuVec`](super::GpuVec) and
/// [`GrowingBuffer`](super::GrowingBuffer) copy on either. Sealed: only
/// these two are frames.
///
/// # Example
///
/// ```
/// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
/// use tickarena::gpu::{GpuVec, OpenFrame, UploadArena, wgpu::BufferUsages};
/// fn draw_points<'a>(frame: &mut impl OpenFrame<'a>, points: &mut GpuVec<[f32; 2]>) {
///     points.write(frame, (0..10).map(|i| [i as f32, 0.0])).unwrap();
/// }
/// let mut arena = UploadArena::new(&device, Default::default());
/// let mut points = GpuVec::new("points", BufferUsages::VERTEX);
/// draw_points(&mut arena.begin_frame().unwrap(), &mut points);
/// assert_eq!(points.len(), 10);
/// ```
pub trait OpenFrame<'a>: sealed::Sealed {
    /// The frame underneath (sealed: callable only here).
    #[doc(hidden)]
    fn upload_frame(&mut self, _: sealed::Token) -> &mut UploadFrame<'a>;
}

impl<'a> OpenFrame<'a> for UploadFrame<'a> {
    fn upload_frame(&mut self, _: sealed::Token) -> &mut UploadFrame<'a> {
        self
    }
}

impl<'s> OpenFrame<'s> for SharedFrame<'s> {
    fn upload_frame(&mut self, _: sealed::Token) -> &mut UploadFrame<'s> {
        &mut self.frame
    }
}

impl<'a, F: OpenFrame<'a> + ?Sized> OpenFrame<'a> for &mut F {
    fn upload_frame(&mut self, token: sealed::Token) -> &mut UploadFrame<'a> {
        (**self).upload_frame(token)
    }
}

impl<'a, F: OpenFrame<'a> + ?Sized> OpenFrame<'a> for Box<F> {
    fn upload_frame(&mut self, token: sealed::Token) -> &mut UploadFrame<'a> {
        (**self).upload_frame(token)
    }
}

/// The frame underneath `frame`, for this module's neighbours.
pub(super) fn upload_frame<'f, 'a>(frame: &'f mut impl OpenFrame<'a>) -> &'f mut UploadFrame<'a> {
    frame.upload_frame(sealed::Token(()))
}

mod sealed {
    /// Only this crate's frames are [`OpenFrame`](super::OpenFrame)s.
    pub trait Sealed {}
    impl Sealed for super::UploadFrame<'_> {}
    impl Sealed for super::SharedFrame<'_> {}
    impl<F: Sealed + ?Sized> Sealed for &mut F {}
    impl<F: Sealed + ?Sized> Sealed for Box<F> {}

    /// The key to `OpenFrame::upload_frame`: no one outside this crate
    /// can make one, so no one outside can take a shared frame's
    /// `UploadFrame` (and `finish` it while other systems write).
    #[allow(unnameable_types)]
    pub struct Token(pub(super) ());
}
