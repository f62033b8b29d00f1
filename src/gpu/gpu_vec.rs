//! A GPU buffer of `T`s rewritten every frame from the upload arena:
//! Bevy's `RawBufferVec` counterpart, with no `Vec` on the host.

use core::marker::PhantomData;

use bytemuck::Pod;

use super::UploadError;
use super::frame::Upload;
use super::growing_buffer::GrowingBuffer;
use super::shared::{OpenFrame, upload_frame};

/// A GPU buffer of `T`s that a frame's data is written into: the
/// values go straight into the upload arena's mapped staging memory, and
/// the frame copies them to the start of a buffer that grows with them
/// (and shrinks as a [`GrowingBuffer`] does, once a window of writes, 300
/// unless [`release_after`](Self::release_after) says otherwise, needed
/// less than half of it). Where a `RawBufferVec<T>` keeps a `Vec<T>`
/// that `write_buffer` copies into wgpu's staging memory (which the GPU
/// copies again), the values here are written once, and the length need
/// not be known before the first one.
///
/// [`write`](Self::write) says when it made a new buffer: then rebuild
/// what refers to [`buffer`](Self::buffer) (a bind group). Between two
/// writes it keeps the last frame's values (a frame that writes nothing
/// to it leaves them, as a `RawBufferVec` not written again does).
///
/// A write takes effect when the frame is finished: its length and a
/// new buffer are the vector's at once, its values land with the frame's
/// copies. A frame discarded after a write (or left open, and discarded
/// by the next `begin_frame`) never copies them: the vector then says
/// that write's length over the values of an earlier one (or a new
/// buffer's zeros) until its next write.
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// use tickarena::gpu::{GpuVec, UploadArena, wgpu::BufferUsages};
///
/// #[repr(C)]
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// struct Instance { position: [f32; 3], scale: f32 }
///
/// let mut arena = UploadArena::new(&device, Default::default());
/// let mut instances = GpuVec::<Instance>::new("instances", BufferUsages::VERTEX);
/// for count in [10, 1000, 50] {
///     let mut encoder = device.create_command_encoder(&Default::default());
///     let mut frame = arena.begin_frame().unwrap();
///     let alive = (0..count).map(|i| Instance { position: [i as f32, 0.0, 0.0], scale: 1.0 });
///     instances.write(&mut frame, alive).unwrap();
///     frame.finish(&mut encoder);
///     // Draw instances.len() instances from instances.buffer().
///     assert_eq!(instances.len(), count);
///     arena.submitted(queue.submit([encoder.finish()]));
/// }
/// assert_eq!(instances.buffers_made(), 2); // made at 10, grown at 1000
/// ```
pub struct GpuVec<T: Pod> {
    buffer: GrowingBuffer,
    _elements: PhantomData<fn(T) -> T>,
}

impl<T: Pod> GpuVec<T> {
    /// An empty vector with no GPU buffer yet (none is made before the
    /// first write: it needs no device, so a plugin's setup can make
    /// it), for `usage` (and `COPY_DST`), labelled `label`.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::gpu::{GpuVec, wgpu::BufferUsages};
    /// let lines = GpuVec::<[f32; 3]>::new("debug lines", BufferUsages::VERTEX);
    /// assert!(lines.buffer().is_none() && lines.is_empty());
    /// ```
    pub fn new(label: &'static str, usage: wgpu::BufferUsages) -> GpuVec<T> {
        GpuVec {
            buffer: GrowingBuffer::new(label, usage),
            _elements: PhantomData,
        }
    }

    /// The same, its shrinking judged over windows of `frames` writes
    /// instead of 300; 0: it never shrinks.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::gpu::{GpuVec, wgpu::BufferUsages};
    /// let lights = GpuVec::<[f32; 8]>::new("lights", BufferUsages::STORAGE).release_after(60);
    /// assert_eq!(lights.capacity(), 0);
    /// ```
    pub fn release_after(mut self, frames: u32) -> GpuVec<T> {
        self.buffer = self.buffer.release_after(frames);
        self
    }

    /// Writes `values` into `frame`'s staging memory (an
    /// [`UploadFrame`](super::UploadFrame) or a
    /// [`SharedFrame`](super::SharedFrame)) and copies them to the
    /// buffer's start at the frame's finish: the buffer then holds
    /// exactly these values. Whether a new buffer was made: on the first
    /// write, when the buffer grows or shrinks, and on a frame of another
    /// arena than the last write's (an engine's new arena after its
    /// device was lost); then rebuild what refers to it.
    ///
    /// # Errors
    ///
    /// Those of [`UploadWriter::extend`](super::UploadWriter::extend) and
    /// [`GrowingBuffer::copy_from`]. Then nothing is copied: the buffer
    /// keeps the last frame's values.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{GpuVec, UploadArena, wgpu::BufferUsages};
    /// let mut arena = UploadArena::new(&device, Default::default());
    /// let mut particles = GpuVec::<[f32; 4]>::new("particles", BufferUsages::VERTEX);
    /// let mut frame = arena.begin_frame().unwrap();
    /// let live = (0..100).filter(|i| i % 3 != 0).map(|i| [i as f32; 4]);
    /// assert!(particles.write(&mut frame, live).unwrap(), "its first buffer");
    /// assert_eq!(particles.len(), 66);
    /// ```
    pub fn write<'a>(
        &mut self,
        frame: &mut impl OpenFrame<'a>,
        values: impl IntoIterator<Item = T>,
    ) -> Result<bool, UploadError> {
        let frame = upload_frame(frame);
        let mut writer = frame.upload::<T>()?;
        writer.extend(values)?;
        let upload = writer.finish();
        self.copy_from(frame, &upload)
    }

    /// [`write`](Self::write) from a slice.
    ///
    /// # Errors
    ///
    /// As [`write`](Self::write).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{GpuVec, UploadArena, wgpu::BufferUsages};
    /// let mut arena = UploadArena::new(&device, Default::default());
    /// let mut uniforms = GpuVec::<[[f32; 4]; 4]>::new("cameras", BufferUsages::UNIFORM);
    /// let mut frame = arena.begin_frame().unwrap();
    /// uniforms.write_slice(&mut frame, &[[[0.0; 4]; 4]; 2]).unwrap();
    /// assert_eq!(uniforms.len(), 2);
    /// ```
    pub fn write_slice<'a>(
        &mut self,
        frame: &mut impl OpenFrame<'a>,
        values: &[T],
    ) -> Result<bool, UploadError> {
        let frame = upload_frame(frame);
        let upload = frame.upload_slice(values)?;
        self.copy_from(frame, &upload)
    }

    /// Copies an upload of `T`s written otherwise (beside others, in one
    /// pass over a scene) to the buffer's start, as
    /// [`GrowingBuffer::copy_from`] does: whether a new buffer was made.
    ///
    /// # Errors
    ///
    /// As [`GrowingBuffer::copy_from`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{GpuVec, UploadArena, wgpu::BufferUsages};
    /// let mut arena = UploadArena::new(&device, Default::default());
    /// let mut quads = GpuVec::<[f32; 4]>::new("quads", BufferUsages::VERTEX);
    /// let mut lines = GpuVec::<[f32; 3]>::new("lines", BufferUsages::VERTEX);
    /// let mut frame = arena.begin_frame().unwrap();
    /// let (mut q, mut l) = (frame.upload::<[f32; 4]>().unwrap(), frame.upload::<[f32; 3]>().unwrap());
    /// for i in 0..10 {
    ///     q.push([i as f32; 4]).unwrap();
    ///     l.extend([[0.0; 3], [i as f32; 3]]).unwrap();
    /// }
    /// let (q, l) = (q.finish(), l.finish());
    /// quads.copy_from(&mut frame, &q).unwrap();
    /// lines.copy_from(&mut frame, &l).unwrap();
    /// assert_eq!((quads.len(), lines.len()), (10, 20));
    /// ```
    pub fn copy_from<'a>(
        &mut self,
        frame: &mut impl OpenFrame<'a>,
        upload: &Upload<'a>,
    ) -> Result<bool, UploadError> {
        self.buffer.copy_from(frame, upload)
    }

    /// The buffer, once a write made it: wgpu's (an engine that wraps
    /// wgpu's buffers, as Bevy's `render_resource::Buffer` does, wraps it
    /// again when [`write`](Self::write) returns `true`).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GpuVec, wgpu::BufferUsages};
    /// assert!(GpuVec::<u32>::new("ids", BufferUsages::STORAGE).buffer().is_none());
    /// ```
    pub fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.buffer.buffer()
    }

    /// The values the last write copied: a draw's instance count.
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GpuVec, wgpu::BufferUsages};
    /// assert_eq!(GpuVec::<u32>::new("ids", BufferUsages::STORAGE).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.buffer.len::<T>()
    }

    /// Whether the last write copied nothing (or there was none).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GpuVec, wgpu::BufferUsages};
    /// assert!(GpuVec::<u32>::new("ids", BufferUsages::STORAGE).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.buffer.is_empty()
    }

    /// The `T`s the buffer holds room for (0 before the first write).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # use tickarena::gpu::{GpuVec, UploadArena, wgpu::BufferUsages};
    /// let mut arena = UploadArena::new(&device, Default::default());
    /// let mut ids = GpuVec::<u32>::new("ids", BufferUsages::STORAGE);
    /// ids.write_slice(&mut arena.begin_frame().unwrap(), &[1, 2, 3]).unwrap();
    /// assert_eq!(ids.capacity(), 64); // the least buffer: 256 bytes
    /// ```
    pub fn capacity(&self) -> usize {
        super::arena::saturating_usize(
            self.buffer.capacity() / (core::mem::size_of::<T>().max(1) as u64),
        )
    }

    /// Buffers it made, ever (each growth or shrink is one).
    ///
    /// # Example
    ///
    /// ```
    /// # use tickarena::gpu::{GpuVec, wgpu::BufferUsages};
    /// assert_eq!(GpuVec::<u32>::new("ids", BufferUsages::STORAGE).buffers_made(), 0);
    /// ```
    pub fn buffers_made(&self) -> u64 {
        self.buffer.buffers_made()
    }
}

impl<T: Pod> core::fmt::Debug for GpuVec<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuVec")
            .field("len", &self.len())
            .field("capacity", &self.capacity())
            .field("buffer", &self.buffer)
            .finish()
    }
}
