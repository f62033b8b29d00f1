//! A destination buffer that grows with what frames upload: Bevy's
//! `RawBufferVec` and a hand-grown buffer's counterpart, for an upload
//! whose length is known only once it is written.

use super::UploadError;
use super::frame::Upload;
use super::shared::{OpenFrame, upload_frame};
use crate::arena::{DEFAULT_RELEASE_AFTER, Retention};

/// The least buffer a [`GrowingBuffer`] makes.
const MIN_CAPACITY: u64 = 256;

/// A GPU buffer that an upload is copied into from its start, made and
/// remade as large as the uploads need: it grows (to the next power of
/// two, as a `Vec` grows) when an upload does not fit, and shrinks under
/// the arena's retention rule, to what the largest upload of the last
/// window needed, once a window of frames (300 by default) needed less
/// than half of it. Its usage is what you give it and `COPY_DST`.
///
/// [`copy_from`](Self::copy_from) says when it made a new buffer: then
/// rebuild what refers to [`buffer`](Self::buffer) (a bind group). The
/// buffer it replaces is dropped: wgpu keeps it until the GPU is done
/// with it. A copy on a frame of another arena than the one whose frame
/// made the buffer makes a new one, on that arena's device (an engine's
/// new device after the old one was lost, with a new arena on it). It needs no device until its first copy, so it can be made
/// before the renderer has one (a plugin's setup).
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// use tickarena::gpu::{GrowingBuffer, UploadArena};
/// let mut arena = UploadArena::new(&device, Default::default());
/// let mut instances = GrowingBuffer::new("instances", wgpu::BufferUsages::VERTEX);
/// for count in [10u32, 1000, 50] {
///     let mut encoder = device.create_command_encoder(&Default::default());
///     let mut frame = arena.begin_frame().unwrap();
///     let mut writer = frame.upload::<[f32; 4]>().unwrap();
///     writer.extend((0..count).map(|i| [i as f32; 4])).unwrap();
///     let upload = writer.finish();
///     let remade = instances.copy_from(&mut frame, &upload).unwrap();
///     assert_eq!(remade, count != 50, "made at 10, grown at 1000, kept at 50");
///     frame.finish(&mut encoder);
///     // Draw instances.len::<[f32; 4]>() instances from instances.buffer().
///     assert_eq!(instances.len::<[f32; 4]>(), count as usize);
///     queue.submit([encoder.finish()]);
/// }
/// assert_eq!(instances.capacity(), 16384);
/// ```
#[derive(Debug)]
pub struct GrowingBuffer {
    label: &'static str,
    usage: wgpu::BufferUsages,
    buffer: Option<wgpu::Buffer>,
    /// The bytes the last copy wrote, no padding.
    bytes: u64,
    retention: Retention,
    /// Buffers made, ever.
    made: u64,
    /// The arena whose frame made the buffer: one of another arena (a new
    /// one, on a new device after the old was lost) is not reused.
    arena: u64,
}

impl GrowingBuffer {
    /// A growing buffer with no GPU buffer yet, for `usage` (and
    /// `COPY_DST`), labelled `label`.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// let lines = GrowingBuffer::new("debug lines", BufferUsages::VERTEX);
    /// assert!(lines.buffer().is_none());
    /// ```
    pub fn new(label: &'static str, usage: wgpu::BufferUsages) -> GrowingBuffer {
        GrowingBuffer {
            label,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            buffer: None,
            bytes: 0,
            retention: Retention::new(0, DEFAULT_RELEASE_AFTER),
            made: 0,
            arena: 0,
        }
    }

    /// The same, its shrinking judged over windows of `frames` copies
    /// (one a frame) instead of 300; 0: it never shrinks.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// let uniforms = GrowingBuffer::new("uniforms", BufferUsages::UNIFORM).release_after(60);
    /// assert_eq!(uniforms.capacity(), 0);
    /// ```
    pub fn release_after(mut self, frames: u32) -> GrowingBuffer {
        self.retention = Retention::new(0, frames);
        self
    }

    /// Copies `upload` to the start of the buffer on `frame` (an
    /// [`UploadFrame`](super::UploadFrame) or a
    /// [`SharedFrame`](super::SharedFrame); recorded at its finish, as
    /// [`UploadFrame::copy_to`](super::UploadFrame::copy_to) is), making a buffer first
    /// where there is none, or it is too small, or (at the end of a
    /// retention window) more than twice as large as the window's largest
    /// upload needed. Whether it made one: then rebuild what refers to
    /// [`buffer`](Self::buffer).
    ///
    /// # Errors
    ///
    /// As [`UploadFrame::copy_to`](super::UploadFrame::copy_to); and [`UploadError::BadDestination`]
    /// for an upload larger than the device's largest buffer.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// let mut indices = GrowingBuffer::new("indices", BufferUsages::INDEX);
    /// let mut frame = arena.begin_frame().unwrap();
    /// let upload = frame.upload_slice(&[0u16, 1, 2]).unwrap();
    /// assert!(indices.copy_from(&mut frame, &upload).unwrap(), "its first buffer");
    /// assert_eq!((indices.len::<u16>(), indices.capacity()), (3, 256));
    /// ```
    pub fn copy_from<'a>(
        &mut self,
        frame: &mut impl OpenFrame<'a>,
        upload: &Upload<'a>,
    ) -> Result<bool, UploadError> {
        let frame = upload_frame(frame);
        // The upload is checked first: a copy refused after a new buffer
        // replaced the old one would leave that unreported.
        frame.checked(upload)?;
        if self.arena != frame.arena_id() {
            // Made by another arena (maybe on a device since lost): a new
            // buffer on this arena's device.
            self.buffer = None;
        }
        let needed = upload.copy_size();
        let capacity = self.capacity();
        let mut shrink_to = None;
        if self
            .retention
            .frame_ended(super::arena::saturating_usize(needed))
        {
            let keep = grown(self.retention.end_window().keep as u64);
            if self.retention.release_after() > 0 && capacity > 2 * keep {
                shrink_to = Some(keep);
            }
        }
        let wanted = if capacity < needed || self.buffer.is_none() {
            Some(grown(needed))
        } else {
            shrink_to
        };
        let Some(size) = wanted else {
            if let Some(buffer) = &self.buffer {
                frame.copy_to(upload, buffer, 0)?;
            }
            self.bytes = upload.bytes();
            return Ok(false);
        };
        let device = frame.device();
        let max = device.limits().max_buffer_size;
        if needed > max {
            return Err(UploadError::BadDestination {
                offset: 0,
                bytes: needed,
                buffer_size: max,
            });
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(self.label),
            size: size.min(max / 4 * 4).max(needed),
            usage: self.usage,
            mapped_at_creation: false,
        });
        // Installed only once its copy is recorded.
        frame.copy_to(upload, &buffer, 0)?;
        self.buffer = Some(buffer);
        self.arena = frame.arena_id();
        self.made += 1;
        self.bytes = upload.bytes();
        Ok(true)
    }

    /// The buffer, once a copy made it.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// # use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// let mut points = GrowingBuffer::new("points", BufferUsages::VERTEX);
    /// let mut frame = arena.begin_frame().unwrap();
    /// let upload = frame.upload_slice(&[[0.0f32; 2]; 3]).unwrap();
    /// points.copy_from(&mut frame, &upload).unwrap();
    /// assert!(points.buffer().unwrap().usage().contains(BufferUsages::VERTEX | BufferUsages::COPY_DST));
    /// ```
    pub fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.buffer.as_ref()
    }

    /// The bytes the last copy wrote (its upload's, no padding).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// assert_eq!(GrowingBuffer::new("lines", BufferUsages::VERTEX).bytes(), 0);
    /// ```
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The elements of `T` the last copy wrote: a draw's instance or
    /// vertex count.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// assert_eq!(GrowingBuffer::new("lines", BufferUsages::VERTEX).len::<[f32; 3]>(), 0);
    /// ```
    pub fn len<T>(&self) -> usize {
        super::arena::saturating_usize(self.bytes / (core::mem::size_of::<T>().max(1) as u64))
    }

    /// Whether the last copy wrote nothing (or there was none).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// assert!(GrowingBuffer::new("lines", BufferUsages::VERTEX).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.bytes == 0
    }

    /// The buffer's size in bytes (0 before the first copy).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// assert_eq!(GrowingBuffer::new("lines", BufferUsages::VERTEX).capacity(), 0);
    /// ```
    pub fn capacity(&self) -> u64 {
        self.buffer.as_ref().map_or(0, wgpu::Buffer::size)
    }

    /// Buffers it made, ever (each growth or shrink is one).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GrowingBuffer, wgpu::BufferUsages};
    /// assert_eq!(GrowingBuffer::new("lines", BufferUsages::VERTEX).buffers_made(), 0);
    /// ```
    pub fn buffers_made(&self) -> u64 {
        self.made
    }
}

/// The size a buffer for `bytes` is made: the next power of two, at
/// least [`MIN_CAPACITY`].
fn grown(bytes: u64) -> u64 {
    bytes
        .max(MIN_CAPACITY)
        .checked_next_power_of_two()
        .unwrap_or(u64::MAX / 4 * 4)
}
