//! One frame of the upload arena: uploads written at the top of its
//! staging chunks, each closed into an [`Upload`] that says where it
//! landed, copied into the game's buffers on the frame's encoder.

use core::marker::PhantomData;
use core::ops::Range;

use bytemuck::Pod;

use super::arena::{Chunk, UploadArena, UploadConfig, UploadStats, make_chunk};
use super::bump::{BumpError, Chunks, Cursor, Segment};
use super::error::UploadError;
use super::signal::Notify;
use crate::Tag;
use crate::frame_loop::FrameRecord;

/// The frame being written: from [`UploadArena::begin_frame`] until
/// [`finish`](Self::finish). It borrows the arena mutably, so there is
/// one open frame at a time, and its [`Upload`]s cannot be used once
/// the next frame has begun (the compiler refuses).
///
/// # The order of a frame's calls
///
/// Copies recorded from a frame ([`copy_to`](Self::copy_to), or your own
/// from [`segments`](Self::segments)) must be submitted only after that
/// frame's [`finish`](Self::finish) was given the encoder that holds them
/// (or an encoder submitted after that one): `finish` unmaps the staging
/// chunks, and wgpu refuses to submit a copy from a buffer still mapped.
///
/// Dropped without `finish`, the frame's chunks stay mapped and its
/// uploads are discarded; the next `begin_frame` reports
/// [`UploadError::NotSubmitted`] once. Copies already recorded from it on
/// an encoder are *not* undone: wgpu refuses that encoder at submit (a
/// panic under its default error handler, "still mapped"), so drop that
/// encoder too. [`discard`](Self::discard) is the same, said on purpose:
/// nothing is reported. Leaking a frame (`mem::forget`) leaks its
/// borrow of the arena forever, so the arena cannot be used again (the
/// compiler keeps it borrowed); its chunks are freed with the arena.
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
/// let encoder = device.create_command_encoder(&Default::default());
/// let mut frame = arena.begin_frame().unwrap();
/// let mut points = frame.upload::<[f32; 2]>().unwrap();
/// for i in 0..100 {
///     points.push([i as f32, 0.0]).unwrap();
/// }
/// let points = points.finish();
/// assert_eq!((points.len(), points.bytes()), (100, 800));
/// let record = frame.finish(&encoder);
/// assert_eq!(record.arena_bytes, 800);
/// queue.submit([encoder.finish()]);
/// ```
#[must_use = "a frame's uploads reach the GPU only through finish(&encoder)"]
pub struct UploadFrame<'a> {
    arena: &'a mut UploadArena,
    slot: usize,
    number: u64,
    finished: bool,
}

/// Where an upload landed: its segments in the frame's staging chunks
/// (one, unless it crossed a chunk's end), its length, and the frame it
/// belongs to. Only that frame copies from it: its lifetime ends when the
/// arena is borrowed for the next frame, and a runtime check catches an
/// upload of another arena.
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
/// let mut frame = arena.begin_frame().unwrap();
/// let upload = frame.upload_slice(&[1u16, 2, 3]).unwrap();
/// assert_eq!((upload.len(), upload.bytes(), upload.copy_size()), (3, 6, 8));
/// ```
#[derive(Clone, Debug)]
#[must_use = "an upload reaches its destination only through copy_to"]
pub struct Upload<'a> {
    arena: u64,
    frame: u64,
    segments: Range<u32>,
    len: usize,
    bytes: u64,
    copy_size: u64,
    _frame: PhantomData<&'a ()>,
}

impl Upload<'_> {
    /// Elements uploaded.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// # let mut frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.upload_slice(&[0u64; 5]).unwrap().len(), 5);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no element was uploaded (then copies copy nothing).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// # let mut frame = arena.begin_frame().unwrap();
    /// assert!(frame.upload_slice::<u32>(&[]).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements' bytes.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// # let mut frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.upload_slice(&[0u8; 5]).unwrap().bytes(), 5);
    /// ```
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The bytes a copy writes: [`bytes`](Self::bytes) rounded up to 4
    /// (wgpu copies in 4-byte units; the padding is zeros).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// # let mut frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.upload_slice(&[0u8; 5]).unwrap().copy_size(), 8);
    /// ```
    pub fn copy_size(&self) -> u64 {
        self.copy_size
    }

    /// The number of segments (staging chunks) the upload spans.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// use tickarena::gpu::{UploadArena, UploadConfig};
    /// let mut arena = UploadArena::new(&device, UploadConfig { chunk_size: 64, ..Default::default() });
    /// let mut frame = arena.begin_frame().unwrap();
    /// // Chunks of 64 bytes, then 128 (each twice the last).
    /// assert_eq!(frame.upload_slice(&[0u32; 40]).unwrap().segment_count(), 2);
    /// ```
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }
}

/// A part of an [`Upload`] in one staging buffer, for copies of your own
/// (to a texture, say): `size` bytes at `offset` of `buffer`, landing at
/// `dst_offset` bytes from where the upload's start lands.
///
/// # Example
///
/// ```
/// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
/// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
/// let mut frame = arena.begin_frame().unwrap();
/// let upload = frame.upload_slice(&[7u32; 3]).unwrap();
/// let segments: Vec<_> = frame.segments(&upload).unwrap().collect();
/// assert_eq!((segments[0].offset, segments[0].size, segments[0].dst_offset), (0, 12, 0));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct UploadSegment<'f> {
    /// The staging buffer (`MAP_WRITE | COPY_SRC`). It is a wgpu handle
    /// that you can clone: the arena never reads mapped memory, but that
    /// is the arena's promise, not wgpu's. Use it as a copy source only;
    /// mapping or reading it yourself breaks the write-only rule.
    pub buffer: &'f wgpu::Buffer,
    /// Where the segment starts in it (a multiple of 4).
    pub offset: u64,
    /// Its bytes (a multiple of 4).
    pub size: u64,
    /// Where it lands, from where the upload's start lands.
    pub dst_offset: u64,
}

impl<'a> UploadFrame<'a> {
    pub(super) fn new(arena: &'a mut UploadArena, slot: usize) -> UploadFrame<'a> {
        let number = arena.slots[slot].frame;
        UploadFrame {
            arena,
            slot,
            number,
            finished: false,
        }
    }

    /// The frame's number: 1 for the arena's first frame, then counting.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// assert_eq!(arena.begin_frame().unwrap().number(), 1);
    /// ```
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Upload bytes so far this frame (uploads closed, padding included).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice(&[1u8]).unwrap();
    /// assert_eq!(frame.bytes(), 4);
    /// ```
    pub fn bytes(&self) -> u64 {
        self.arena.slots[self.slot].bump.closed_bytes()
    }

    /// Opens an upload of `T`s at the top of the frame's staging memory,
    /// untagged: push, extend, and [`finish`](UploadWriter::finish) it.
    ///
    /// # Errors
    ///
    /// [`UploadError::ElementTooLarge`] when a `T` (padded to 4 bytes
    /// with its neighbours: 12 for a 6-byte `T`) is larger than a chunk;
    /// [`UploadError::ZeroSizedElement`] for a zero-sized `T`.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut indices = frame.upload::<u16>().unwrap();
    /// indices.extend([0, 1, 2, 2, 1, 3]).unwrap();
    /// assert_eq!(indices.finish().copy_size(), 12);
    /// ```
    pub fn upload<T: Pod>(&mut self) -> Result<UploadWriter<'_, 'a, T>, UploadError> {
        self.upload_tagged(Tag::UNTAGGED)
    }

    /// [`upload`](Self::upload), its bytes counted under `tag` (in the
    /// frame's record, the budgets and the sizing report).
    ///
    /// # Errors
    ///
    /// As [`upload`](Self::upload).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// use tickarena::Tag;
    /// const UI: Tag = Tag::new("ui");
    /// let encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut quads = frame.upload_tagged::<[f32; 4]>(UI).unwrap();
    /// quads.push([0.0; 4]).unwrap();
    /// let _ = quads.finish();
    /// assert_eq!(frame.finish(&encoder).tags.get(UI), 16);
    /// ```
    pub fn upload_tagged<T: Pod>(
        &mut self,
        tag: Tag,
    ) -> Result<UploadWriter<'_, 'a, T>, UploadError> {
        let size = core::mem::size_of::<T>() as u64;
        if size == 0 {
            return Err(UploadError::ZeroSizedElement);
        }
        let slot = &mut self.arena.slots[self.slot];
        slot.bump
            .begin::<UploadError>(size, slot.segments.len())
            .map_err(|error| convert(error, size))?;
        let mut writer = UploadWriter {
            frame: self,
            tag,
            cursor: Cursor::default(),
            view: None,
            _elements: PhantomData,
        };
        writer.take_room();
        Ok(writer)
    }

    /// Uploads `data` at once: an [`upload`](Self::upload) extended from
    /// the slice and finished.
    ///
    /// # Errors
    ///
    /// As [`upload`](Self::upload) and [`UploadWriter::extend_from_slice`].
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.upload_slice(&[[0.5f32; 4]; 3]).unwrap().bytes(), 48);
    /// ```
    pub fn upload_slice<T: Pod>(&mut self, data: &[T]) -> Result<Upload<'a>, UploadError> {
        self.upload_slice_tagged(Tag::UNTAGGED, data)
    }

    /// [`upload_slice`](Self::upload_slice) under `tag`.
    ///
    /// # Errors
    ///
    /// As [`upload_slice`](Self::upload_slice).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// const LINES: tickarena::Tag = tickarena::Tag::new("debug lines");
    /// let mut frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.upload_slice_tagged(LINES, &[0u32; 2]).unwrap().len(), 2);
    /// ```
    pub fn upload_slice_tagged<T: Pod>(
        &mut self,
        tag: Tag,
        data: &[T],
    ) -> Result<Upload<'a>, UploadError> {
        let mut writer = self.upload_tagged::<T>(tag)?;
        writer.extend_from_slice(data)?;
        Ok(writer.finish())
    }

    /// The segments of `upload`, for copies of your own.
    ///
    /// # Errors
    ///
    /// [`UploadError::ForeignUpload`] for an upload of another arena.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let upload = frame.upload_slice(&[1u32]).unwrap();
    /// assert_eq!(frame.segments(&upload).unwrap().count(), 1);
    /// ```
    pub fn segments<'f>(
        &'f self,
        upload: &Upload<'a>,
    ) -> Result<impl ExactSizeIterator<Item = UploadSegment<'f>> + use<'f>, UploadError> {
        if upload.arena != self.arena.id || upload.frame != self.number {
            return Err(UploadError::ForeignUpload);
        }
        let slot = &self.arena.slots[self.slot];
        let segments = &slot.segments[upload.segments.start as usize..upload.segments.end as usize];
        let mut dst_offset = 0;
        Ok(segments.iter().map(move |segment: &Segment| {
            let out = UploadSegment {
                buffer: &slot.chunks[segment.chunk as usize].buffer,
                offset: segment.offset,
                size: segment.size,
                dst_offset,
            };
            dst_offset += segment.size;
            out
        }))
    }

    /// Records on `encoder` the copy of `upload` into `dst` at
    /// `dst_offset` ([`copy_size`](Upload::copy_size) bytes; `dst` needs
    /// `COPY_DST`). One `copy_buffer_to_buffer` per segment.
    ///
    /// # Errors
    ///
    /// [`UploadError::BadDestination`] when `dst_offset` is not a multiple
    /// of 4 or the copy does not fit in `dst`;
    /// [`UploadError::DestinationNotCopyDst`] when `dst` lacks `COPY_DST`;
    /// [`UploadError::ForeignUpload`] for an upload of another arena.
    /// Not checked (wgpu panics at the copy or at submit): an `encoder` or
    /// `dst` of another device than the arena's; submitting the encoder
    /// before this frame's [`finish`](Self::finish) (see [the frame's
    /// order of calls](Self#the-order-of-a-frames-calls)).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let dst = device.create_buffer(&wgpu::BufferDescriptor {
    ///     label: None, size: 16, mapped_at_creation: false,
    ///     usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::UNIFORM,
    /// });
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let upload = frame.upload_slice(&[1.0f32; 4]).unwrap();
    /// frame.copy_to(&mut encoder, &upload, &dst, 0).unwrap();
    /// assert!(frame.copy_to(&mut encoder, &upload, &dst, 4).is_err()); // 16 bytes at 4: too small
    /// ```
    pub fn copy_to(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        upload: &Upload<'a>,
        dst: &wgpu::Buffer,
        dst_offset: u64,
    ) -> Result<(), UploadError> {
        let fits = dst_offset
            .checked_add(upload.copy_size)
            .is_some_and(|end| end <= dst.size());
        if !dst.usage().contains(wgpu::BufferUsages::COPY_DST) {
            return Err(UploadError::DestinationNotCopyDst);
        }
        if !dst_offset.is_multiple_of(4) || !fits {
            return Err(UploadError::BadDestination {
                offset: dst_offset,
                bytes: upload.copy_size,
                buffer_size: dst.size(),
            });
        }
        for segment in self.segments(upload)? {
            encoder.copy_buffer_to_buffer(
                segment.buffer,
                segment.offset,
                dst,
                dst_offset + segment.dst_offset,
                segment.size,
            );
        }
        Ok(())
    }

    /// Ends the frame: its staging chunks are unmapped, and mapped for
    /// writing again once the GPU has finished the submission of
    /// `encoder` (wgpu's `map_buffer_on_submit`); only then does a later
    /// frame reuse them. Give it the encoder that holds the frame's copies
    /// (or one submitted with or after it), and submit that encoder.
    /// Returns the frame's record: upload bytes, per tag, with budgets.
    ///
    /// # Panics
    ///
    /// Only under [`BudgetPolicy::Panic`](crate::BudgetPolicy::Panic),
    /// for a breached budget, once the frame is handed to the GPU.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice(&[0u32; 8]).unwrap();
    /// let record = frame.finish(&encoder);
    /// queue.submit([encoder.finish()]);
    /// assert_eq!((record.tick, record.arena_bytes), (1, 32));
    /// assert_eq!(arena.history().len(), 1);
    /// ```
    pub fn finish(mut self, encoder: &wgpu::CommandEncoder) -> FrameRecord {
        self.finished = true;
        let arena = &mut *self.arena;
        let slot = &mut arena.slots[self.slot];
        for chunk in &mut slot.chunks[..slot.bump.chunks_opened()] {
            hand_to_gpu(chunk, encoder);
        }
        let bytes = slot.bump.closed_bytes();
        let needed = super::arena::needed(&slot.bump, arena.max_chunk);
        let mut tags = slot.tags;
        tags.judge();
        let breaches =
            arena
                .budgets
                .check(Some(arena.config.label), self.number, &tags, bytes as usize);
        let record = FrameRecord {
            tick: self.number,
            arena_bytes: bytes as usize,
            tags,
            frame_budget: arena.config.frame_budget.map(|b| b as usize),
            over_frame_budget: arena.config.frame_budget.is_some_and(|b| bytes > b),
            ..FrameRecord::default()
        };
        arena.history.push(record);
        arena.frame_ended(bytes, needed);
        breaches.panic_unless_unwinding();
        record
    }
}

/// Unmaps a chunk the frame wrote to and has wgpu map it again once the
/// submission of `encoder` is done.
fn hand_to_gpu(chunk: &mut Chunk, encoder: &wgpu::CommandEncoder) {
    // The view must be gone before the unmap.
    chunk.view = None;
    chunk.buffer.unmap();
    let notify = Notify::pending(&chunk.signal);
    encoder.map_buffer_on_submit(&chunk.buffer, wgpu::MapMode::Write, .., move |result| {
        notify.done(result)
    });
}

impl UploadFrame<'_> {
    /// Ends the frame without handing it to the GPU, on purpose (an early
    /// return on an error path): its uploads are discarded, its chunks
    /// stay mapped for the next frame, and unlike a dropped frame the next
    /// [`begin_frame`](UploadArena::begin_frame) reports nothing. Copies
    /// already recorded from this frame stay on their encoder, and wgpu
    /// refuses that encoder at submit: drop it too.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice(&[1u32; 4]).unwrap();
    /// frame.discard();
    /// let frame = arena.begin_frame().unwrap(); // no NotSubmitted
    /// assert_eq!(frame.bytes(), 0);
    /// ```
    pub fn discard(mut self) {
        self.abandon();
        self.finished = true;
    }

    /// Nothing was handed to the GPU: the chunks stay mapped, their views
    /// go, and the slot is taken again by the next frame.
    fn abandon(&mut self) {
        let slot = &mut self.arena.slots[self.slot];
        for chunk in &mut slot.chunks {
            chunk.view = None;
        }
        self.arena.rewind(self.slot);
    }
}

impl Drop for UploadFrame<'_> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        self.abandon();
        self.arena.abandoned = Some(self.number);
    }
}

impl core::fmt::Debug for UploadFrame<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UploadFrame")
            .field("number", &self.number)
            .field("bytes", &self.bytes())
            .finish_non_exhaustive()
    }
}

/// An upload being written at the top of its frame: elements go straight
/// into mapped staging memory, through wgpu's write-only view (never read,
/// no `&mut` to it). It grows in place, and goes on in the next chunk at
/// a chunk's end. [`finish`](Self::finish) closes it; dropped, it is
/// closed and its data stays in the frame with no [`Upload`] to copy it.
///
/// # Example
///
/// ```
/// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
/// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
/// let mut frame = arena.begin_frame().unwrap();
/// let mut instances = frame.upload::<[f32; 8]>().unwrap();
/// instances.extend((0..1000).map(|i| [i as f32; 8])).unwrap();
/// assert_eq!(instances.len(), 1000);
/// assert_eq!(instances.finish().bytes(), 32_000);
/// ```
///
/// Leaking a writer (`mem::forget`) leaks the mapped view of the chunk it
/// was writing: wgpu then refuses to unmap that chunk, and the frame's
/// [`finish`](UploadFrame::finish) panics.
#[must_use = "finish the writer to get the Upload to copy; dropped, its data is never copied"]
pub struct UploadWriter<'w, 'a, T: Pod> {
    frame: &'w mut UploadFrame<'a>,
    tag: Tag,
    /// The room at the top of the current chunk, kept here between
    /// writes; meaningful only while `view` is held.
    cursor: Cursor,
    /// The current chunk's write-only view, taken from its chunk while
    /// the cursor has room and given back (with the cursor synced into
    /// the bump pointer) before anything else touches the frame.
    view: Option<wgpu::BufferViewMut>,
    _elements: PhantomData<fn(T)>,
}

/// The chunks of one slot, as the bump pointer writes them, borrowed
/// beside the slot's bump pointer and segment table.
pub(super) struct Staging<'s> {
    pub(super) chunks: &'s mut Vec<Chunk>,
    /// The size of the slot's first chunk, if it has to be made.
    pub(super) first_size: u64,
    pub(super) device: &'s wgpu::Device,
    pub(super) config: &'s UploadConfig,
    pub(super) stats: &'s mut UploadStats,
    pub(super) lost: &'s mut bool,
    /// The largest chunk the device allows.
    pub(super) max_chunk: u64,
}

impl Chunks for Staging<'_> {
    type Error = UploadError;

    fn open(&mut self, index: usize) -> Result<u64, UploadError> {
        let fresh = index >= self.chunks.len();
        if fresh {
            make_chunk(self)?;
        }
        let chunk = &mut self.chunks[index];
        if chunk.view.is_none() {
            match chunk.buffer.get_mapped_range_mut(..) {
                Ok(view) => chunk.view = Some(view),
                // A buffer made mapped that is not: its device is gone
                // (wgpu makes buffers of a lost device as invalid ones).
                Err(_) if fresh => {
                    if let Some(chunk) = self.chunks.pop() {
                        chunk.buffer.destroy();
                        self.stats.buffers_destroyed += 1;
                    }
                    *self.lost = true;
                    return Err(UploadError::DeviceLost);
                }
                // Not mapped as its callback said: dropped, so that the
                // next try makes a new chunk (none after it is open yet).
                Err(_) => {
                    let chunk = self.chunks.remove(index);
                    drop(chunk.view);
                    chunk.buffer.destroy();
                    self.stats.buffers_destroyed += 1;
                    return Err(UploadError::MapFailed);
                }
            }
        }
        Ok(chunk.buffer.size())
    }

    #[inline]
    fn write(&mut self, index: usize, offset: u64, bytes: &[u8]) {
        if let Some(view) = &mut self.chunks[index].view {
            let offset = offset as usize;
            view.slice(offset..offset + bytes.len())
                .copy_from_slice(bytes);
        }
    }

    fn zero(&mut self, index: usize, offset: u64, len: u64) {
        if let Some(view) = &mut self.chunks[index].view {
            let offset = offset as usize;
            view.slice(offset..offset + len as usize).fill(0);
        }
    }
}

/// Writes `values` into `window`, one slot of `N` bytes (the size of a
/// `T`) each, as long as both last: how many were written. A value is
/// taken only for a slot: `values` is not read past the window.
#[inline(always)]
fn fill<T: Pod, const N: usize>(
    window: wgpu::WriteOnly<'_, [u8]>,
    values: &mut impl Iterator<Item = T>,
) -> usize {
    let (slots, _) = window.into_chunks::<N>();
    let mut written = 0;
    // The slot first: `zip` asks `values` only once it has one.
    for (slot, value) in slots.into_iter().zip(values) {
        slot.write(bytemuck::cast::<T, [u8; N]>(value));
        written += 1;
    }
    written
}

/// [`fill`] for any size: `window` cut into `size` bytes per value.
#[inline(always)]
fn fill_bytes<T: Pod>(
    mut window: wgpu::WriteOnly<'_, [u8]>,
    size: usize,
    values: impl Iterator<Item = T>,
) -> usize {
    let mut written = 0;
    for value in values {
        window
            .slice(written * size..(written + 1) * size)
            .copy_from_slice(bytemuck::bytes_of(&value));
        written += 1;
    }
    written
}

fn convert(error: BumpError<UploadError>, _size: u64) -> UploadError {
    match error {
        BumpError::ElementTooLarge { unit, chunk } => UploadError::ElementTooLarge {
            bytes: unit,
            chunk_size: chunk,
        },
        BumpError::Chunk(error) => error,
    }
}

impl<'a, T: Pod> UploadWriter<'_, 'a, T> {
    /// Takes the room at the top of the current chunk (and its view) into
    /// the writer, if there is room.
    fn take_room(&mut self) {
        debug_assert!(self.view.is_none(), "expected the room given back");
        let slot = &mut self.frame.arena.slots[self.frame.slot];
        self.cursor = slot.bump.cursor();
        if self.cursor.free() > 0 {
            self.view = slot.chunks[self.cursor.chunk].view.take();
        }
    }

    /// Gives the room back: the bump pointer records the writes made
    /// through the cursor, and the view goes back to its chunk.
    fn give_back_room(&mut self) {
        if let Some(view) = self.view.take() {
            let slot = &mut self.frame.arena.slots[self.frame.slot];
            slot.bump.sync(&self.cursor);
            slot.chunks[self.cursor.chunk].view = Some(view);
        }
    }

    /// The slow path: `bytes` written by the bump pointer, which opens
    /// the next chunk where this one ends.
    #[cold]
    #[inline(never)]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), UploadError> {
        self.give_back_room();
        let (bump, segments, mut staging) = self.frame.arena.parts(self.frame.slot);
        let result = bump
            .write(&mut staging, segments, bytes)
            .map_err(|error| convert(error, core::mem::size_of::<T>() as u64));
        self.take_room();
        result
    }

    /// Appends one element. For many at once, [`extend`](Self::extend)
    /// is faster: its loop keeps the top in a register, where `push`
    /// loads and stores it in the writer for each element.
    ///
    /// # Errors
    ///
    /// [`UploadError::FrameTooLarge`] past the frame's limit,
    /// [`UploadError::MapFailed`] if a chunk cannot be mapped.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut uniforms = frame.upload::<[[f32; 4]; 4]>().unwrap();
    /// uniforms.push([[0.0; 4]; 4]).unwrap();
    /// assert_eq!(uniforms.len(), 1);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, value: T) -> Result<(), UploadError> {
        let size = core::mem::size_of::<T>();
        // The fast path: room at the top, all of it in the writer.
        if let Some(view) = &mut self.view
            && let Some(at) = self.cursor.bump(size as u64)
        {
            let at = at as usize;
            let mut window = view.slice(at..at + size);
            window.copy_from_slice(bytemuck::bytes_of(&value));
            return Ok(());
        }
        self.push_slow(value)
    }

    /// [`push`](Self::push) where the room is full. It takes the value
    /// (not its bytes) so that `push`'s value never has its address taken
    /// out of line: then the compiler stores its fields straight into the
    /// mapped memory, not onto the stack to be loaded back 16 bytes at a
    /// time (loads that wait for the narrower stores: no store
    /// forwarding), which made a push 4 times slower.
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, value: T) -> Result<(), UploadError> {
        self.write_bytes(bytemuck::bytes_of(&value))
    }

    /// Appends every element of `values`, in one write where the chunk
    /// has room.
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push); the elements that fitted before the error
    /// stay.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut v = frame.upload::<u32>().unwrap();
    /// v.extend_from_slice(&[1, 2, 3]).unwrap();
    /// assert_eq!(v.len(), 3);
    /// ```
    pub fn extend_from_slice(&mut self, values: &[T]) -> Result<(), UploadError> {
        let bytes: &[u8] = bytemuck::cast_slice(values);
        if let Some(view) = &mut self.view
            && let Some(at) = self.cursor.bump(bytes.len() as u64)
        {
            let at = at as usize;
            view.slice(at..at + bytes.len()).copy_from_slice(bytes);
            return Ok(());
        }
        self.write_bytes(bytes)
    }

    /// Appends the elements of `values`, each written straight into the
    /// open segment's room as the iterator yields it (one pass, no copy on
    /// the way); at a segment's end one element goes the way of
    /// [`push`](Self::push), which opens the next chunk.
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push); the elements that fitted before the error
    /// stay, and the rest of `values` is not read.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut v = frame.upload::<u32>().unwrap();
    /// v.extend(0..1000).unwrap();
    /// assert_eq!(v.finish().bytes(), 4000);
    /// ```
    #[inline(always)]
    pub fn extend(&mut self, values: impl IntoIterator<Item = T>) -> Result<(), UploadError> {
        let mut values = values.into_iter();
        if self.view.is_none() {
            // No room taken: the frame's first write (or a full room,
            // where opening opens nothing). An iterator that says it has
            // elements has the room opened before its first; one that may
            // have none (a filter) has its first element, if any, go the
            // slow way, which opens it: nothing to write opens nothing.
            if values.size_hint().0 > 0 {
                self.open_first_room()?;
            } else {
                let Some(value) = values.next() else {
                    return Ok(());
                };
                self.push(value)?;
            }
        }
        // The first pass is inlined where `extend` is called, with the
        // iterator as it came: where its length is known there (as for
        // `examples/gpu_upload`'s range, mapped), the compiler folds the
        // room's end and the iterator's into one count, and an element
        // costs its store and that count alone (`write_buffer_with`'s
        // `write_iter`, told the length, keeps two). The rest, past the
        // room, is out of line.
        if self.fill_room(&mut values) {
            return Ok(());
        }
        self.extend_room_by_room(values)
    }

    /// Opens the frame's first chunk for this upload, if none is opened
    /// yet, and takes its room: so that `extend`'s first pass writes from
    /// the first element.
    #[cold]
    #[inline(never)]
    fn open_first_room(&mut self) -> Result<(), UploadError> {
        let (bump, _, mut staging) = self.frame.arena.parts(self.frame.slot);
        bump.open_first(&mut staging)
            .map_err(|error| convert(error, core::mem::size_of::<T>() as u64))?;
        self.take_room();
        Ok(())
    }

    /// Writes elements of `values` into the room as long as both last:
    /// whether the iterator ended within it (otherwise the room is full,
    /// or none is taken, and `values` has not been read past it).
    #[inline(always)]
    fn fill_room(&mut self, values: &mut impl Iterator<Item = T>) -> bool {
        let size = core::mem::size_of::<T>();
        let Some(view) = &mut self.view else {
            return false;
        };
        if size == 0 {
            return false;
        }
        let fits = (self.cursor.free() / size as u64) as usize;
        let top = self.cursor.top() as usize;
        let window = view.slice(top..top + fits * size);
        // Elements of the common sizes go through slots of their size
        // (one store of the element each, no bounds check per element);
        // others through byte windows.
        let written = match size {
            4 => fill::<T, 4>(window, values),
            8 => fill::<T, 8>(window, values),
            12 => fill::<T, 12>(window, values),
            16 => fill::<T, 16>(window, values),
            20 => fill::<T, 20>(window, values),
            24 => fill::<T, 24>(window, values),
            32 => fill::<T, 32>(window, values),
            48 => fill::<T, 48>(window, values),
            64 => fill::<T, 64>(window, values),
            _ => fill_bytes(window, size, values.by_ref().take(fits)),
        };
        self.cursor.bump((written * size) as u64);
        written < fits
    }

    /// [`extend`](Self::extend) past the room: one element the way of
    /// [`push`](Self::push), which opens the next chunk, then the next
    /// room filled, and so on.
    #[inline(never)]
    fn extend_room_by_room(
        &mut self,
        mut values: impl Iterator<Item = T>,
    ) -> Result<(), UploadError> {
        loop {
            let Some(value) = values.next() else {
                return Ok(());
            };
            self.push(value)?;
            if self.fill_room(&mut values) {
                return Ok(());
            }
        }
    }

    /// Elements written so far.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// assert_eq!(frame.upload::<u64>().unwrap().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        let size = core::mem::size_of::<T>().max(1);
        let bump = &self.frame.arena.slots[self.frame.slot].bump;
        let len = match self.view {
            Some(_) => bump.open_len_with(&self.cursor),
            None => bump.open_len(),
        };
        len as usize / size
    }

    /// Whether nothing was written yet.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// assert!(frame.upload::<u64>().unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Closes the upload: where it landed, to copy from.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut v = frame.upload::<u32>().unwrap();
    /// v.push(9).unwrap();
    /// assert_eq!(v.finish().len(), 1);
    /// ```
    pub fn finish(mut self) -> Upload<'a> {
        self.close()
    }

    fn close(&mut self) -> Upload<'a> {
        self.give_back_room();
        let frame = &mut *self.frame;
        let (arena_id, number, slot) = (frame.arena.id, frame.number, frame.slot);
        let (bump, segments, mut staging) = frame.arena.parts(slot);
        let (range, bytes) = bump.close(&mut staging, segments);
        let copy_size: u64 = segments[range.clone()].iter().map(|s| s.size).sum();
        frame.arena.slots[slot]
            .tags
            .charge(self.tag, copy_size as usize);
        Upload {
            arena: arena_id,
            frame: number,
            segments: range.start as u32..range.end as u32,
            len: (bytes / (core::mem::size_of::<T>().max(1) as u64)) as usize,
            bytes,
            copy_size,
            _frame: PhantomData,
        }
    }
}

impl<T: Pod> Drop for UploadWriter<'_, '_, T> {
    fn drop(&mut self) {
        if self.view.is_some() || self.frame.arena.slots[self.frame.slot].bump.is_open() {
            // Its data stays in the frame, with no Upload to copy it.
            let _ = self.close();
        }
    }
}

impl<T: Pod> core::fmt::Debug for UploadWriter<'_, '_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("UploadWriter")
            .field("len", &self.len())
            .field("tag", &self.tag)
            .finish_non_exhaustive()
    }
}
