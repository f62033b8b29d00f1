//! One frame of the upload arena: uploads written at the top of its
//! staging chunks, each closed into an [`Upload`] that says where it
//! landed, copied into the game's buffers on the frame's encoder.

use core::cell::RefCell;
use core::marker::PhantomData;
use core::ops::{ControlFlow, Range};

use bytemuck::Pod;

use super::arena::{Chunk, UploadArena, UploadConfig, UploadStats, make_chunk, saturating_usize};
use super::bump::{BumpError, COPY_ALIGN, Chunks, Closed, Cursor, Open, Room, of_upload};
use super::error::UploadError;
use super::signal::{FAILED, HANDED, Notify};
use super::texture_copy::{Rows, row_copies};
use crate::Tag;
use crate::frame_loop::FrameRecord;
use held::Held;

pub(super) mod held;

/// The frame being written: from [`UploadArena::begin_frame`] until
/// [`finish`](Self::finish). It borrows the arena mutably, so there is
/// one open frame at a time, and its [`Upload`]s cannot be used once
/// the next frame has begun (the compiler refuses). Several uploads may
/// be open at once ([`upload`](Self::upload) takes the frame shared):
/// each grows in its own room, and the copies and `finish` wait until
/// every writer is finished (the compiler sees to it).
///
/// # The order of a frame's calls
///
/// Write uploads, ask for their copies ([`copy_to`](Self::copy_to),
/// [`copy_to_texture`](Self::copy_to_texture)), then
/// [`finish`](Self::finish) the frame on an encoder: the copies are
/// recorded there, at that moment, before whatever you record on the
/// encoder after it (the passes that read what was copied). Submit that
/// encoder. No handle to a staging buffer ever leaves the frame, so no
/// copy from its memory can be recorded anywhere else.
///
/// Dropped without `finish`, the frame's chunks stay mapped and its
/// uploads and copies are discarded (nothing reached an encoder); the
/// next `begin_frame` reports [`UploadError::NotSubmitted`] once.
/// [`discard`](Self::discard) is the same, said on purpose: nothing is
/// reported. A frame leaked with `mem::forget` is as one discarded,
/// but its slot is not taken again first: its uploads are lost, nothing
/// is reported, and the arena goes on.
///
/// # Example
///
/// ```
/// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
/// let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
/// let mut encoder = device.create_command_encoder(&Default::default());
/// let mut frame = arena.begin_frame().unwrap();
/// let mut points = frame.upload::<[f32; 2]>().unwrap();
/// for i in 0..100 {
///     points.push([i as f32, 0.0]).unwrap();
/// }
/// let points = points.finish();
/// assert_eq!((points.len(), points.bytes()), (100, 800));
/// let record = frame.finish(&mut encoder);
/// assert_eq!(record.arena_bytes, 800);
/// queue.submit([encoder.finish()]);
/// ```
#[must_use = "a frame's uploads reach the GPU only through finish(&encoder)"]
pub struct UploadFrame<'a> {
    /// The arena, shared by the frame's open writers: each borrows it
    /// only inside its own calls (a room claimed, an upload closed),
    /// never while it runs the caller's code (an `extend`'s iterator,
    /// which may write to another writer).
    arena: Held<'a>,
    slot: usize,
    number: u64,
    /// The arena's id, for the check that an upload is this frame's.
    arena_id: u64,
    /// Finished, discarded, or a handle on a shared frame (which its
    /// arena ends): its drop has nothing to do.
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
    /// The span of the frame's segment table that holds its segments,
    /// those that carry its number (others' lie between them where
    /// uploads were open at once).
    span: Range<u32>,
    number: u32,
    segment_count: u32,
    len: usize,
    bytes: u64,
    copy_size: u64,
    _frame: PhantomData<&'a ()>,
}

impl Upload<'_> {
    /// The span of the frame's segment table that holds its segments.
    fn span(&self) -> Range<usize> {
        self.span.start as usize..self.span.end as usize
    }

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
        self.segment_count as usize
    }
}

/// A part of an [`Upload`] in one staging chunk: `size` bytes at `offset`
/// of the chunk, landing at `dst_offset` bytes from where the upload's
/// start lands. It says where the bytes are, for a reader's curiosity and
/// the tests; it holds no handle to the staging buffer, which the arena
/// still writes through while the frame is open (copies from it are the
/// frame's operations: [`copy_to`](UploadFrame::copy_to) and
/// [`copy_to_texture`](UploadFrame::copy_to_texture)).
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct UploadSegment {
    /// The staging chunk, by its place in the frame's list of chunks.
    pub chunk: usize,
    /// Where the segment starts in it (a multiple of 4).
    pub offset: u64,
    /// Its bytes (a multiple of 4).
    pub size: u64,
    /// Where it lands, from where the upload's start lands.
    pub dst_offset: u64,
}

/// A copy out of the frame's staging chunks, recorded on the encoder
/// given to the frame's [`finish`](UploadFrame::finish) and not before:
/// a frame that is discarded or dropped has recorded nothing anywhere.
pub(super) enum PendingCopy {
    Buffer {
        chunk: u32,
        offset: u64,
        size: u64,
        dst: wgpu::Buffer,
        dst_offset: u64,
    },
    Texture {
        chunk: u32,
        offset: u64,
        bytes_per_row: u32,
        rows_per_image: u32,
        dst: wgpu::TexelCopyTextureInfoBase<wgpu::Texture>,
        size: wgpu::Extent3d,
    },
}

impl PendingCopy {
    /// The staging chunk it copies from.
    fn chunk(&self) -> usize {
        match self {
            PendingCopy::Buffer { chunk, .. } | PendingCopy::Texture { chunk, .. } => {
                *chunk as usize
            }
        }
    }
}

impl<'a> UploadFrame<'a> {
    pub(super) fn new(arena: &'a mut UploadArena, slot: usize) -> UploadFrame<'a> {
        let number = arena.slots[slot].frame;
        let arena_id = arena.id;
        UploadFrame {
            arena: Held::Borrowed(RefCell::new(arena)),
            slot,
            number,
            arena_id,
            finished: false,
        }
    }

    /// A handle on frame `number`, in `slot` of the arena behind `lock`,
    /// which a [`SharedUploadArena`](super::SharedUploadArena) holds
    /// open: it writes and asks for copies, and its drop ends nothing.
    pub(super) fn locked(
        lock: &'a std::sync::Mutex<UploadArena>,
        slot: usize,
        number: u64,
        arena_id: u64,
    ) -> UploadFrame<'a> {
        UploadFrame {
            arena: Held::Locked(lock),
            slot,
            number,
            arena_id,
            finished: true,
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

    /// The id of the arena the frame is of.
    pub(super) fn arena_id(&self) -> u64 {
        self.arena_id
    }

    /// The arena's slot the frame writes in.
    pub(super) fn slot(&self) -> usize {
        self.slot
    }

    /// Lets the frame go without ending it: a
    /// [`SharedUploadArena`](super::SharedUploadArena) keeps it open in
    /// its slot.
    pub(super) fn keep_open(mut self) {
        self.finished = true;
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
        self.arena.take().slots[self.slot].bump.closed_bytes()
    }

    /// Opens an upload of `T`s at the top of the frame's staging memory,
    /// untagged: push, extend, and [`finish`](UploadWriter::finish) it.
    /// Others may be open beside it (instances and debug lines written in
    /// one pass over a scene's objects): each grows in a room of its own.
    /// An arena whose frames open one upload at a time gives it the rest
    /// of its chunk; once a frame has had two open at once, rooms are
    /// claimed in blocks that grow with each upload (from 4 KiB, doubling
    /// as a `Vec` grows), and the next frame's chunk holds them all.
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
    /// let frame = arena.begin_frame().unwrap();
    /// let mut indices = frame.upload::<u16>().unwrap();
    /// indices.extend([0, 1, 2, 2, 1, 3]).unwrap();
    /// assert_eq!(indices.finish().copy_size(), 12);
    ///
    /// // Two uploads open at once, written in one pass.
    /// let (mut instances, mut lines) = (frame.upload::<[f32; 4]>().unwrap(), frame.upload::<[f32; 3]>().unwrap());
    /// for i in 0..100 {
    ///     instances.push([i as f32; 4]).unwrap();
    ///     if i % 10 == 0 {
    ///         lines.extend([[0.0; 3], [i as f32; 3]]).unwrap();
    ///     }
    /// }
    /// let (instances, lines) = (instances.finish(), lines.finish());
    /// assert_eq!((instances.len(), lines.len()), (100, 20));
    /// ```
    pub fn upload<T: Pod>(&self) -> Result<UploadWriter<'_, 'a, T>, UploadError> {
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
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let mut quads = frame.upload_tagged::<[f32; 4]>(UI).unwrap();
    /// quads.push([0.0; 4]).unwrap();
    /// let _ = quads.finish();
    /// assert_eq!(frame.finish(&mut encoder).tags.get(UI), 16);
    /// ```
    pub fn upload_tagged<T: Pod>(&self, tag: Tag) -> Result<UploadWriter<'_, 'a, T>, UploadError> {
        let size = core::mem::size_of::<T>() as u64;
        if size == 0 {
            return Err(UploadError::ZeroSizedElement);
        }
        let open = {
            let mut arena = self.arena.take();
            let slot = &mut arena.slots[self.slot];
            slot.bump
                .begin::<UploadError>(size, slot.segments.len())
                .map_err(convert)?
        };
        Ok(UploadWriter {
            frame: self,
            tag,
            open,
            cursor: Cursor::default(),
            view: None,
            closed: false,
            _elements: PhantomData,
        })
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
    pub fn upload_slice<T: Pod>(&self, data: &[T]) -> Result<Upload<'a>, UploadError> {
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
        &self,
        tag: Tag,
        data: &[T],
    ) -> Result<Upload<'a>, UploadError> {
        let mut writer = self.upload_tagged::<T>(tag)?;
        writer.extend_from_slice(data)?;
        Ok(writer.finish())
    }

    /// Where `upload`'s bytes lie in the frame's staging chunks, segment
    /// by segment (one, unless it crossed a chunk's end).
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
    pub fn segments(
        &self,
        upload: &Upload<'a>,
    ) -> Result<impl ExactSizeIterator<Item = UploadSegment> + use<'_, 'a>, UploadError> {
        self.checked(upload)?;
        // Each segment read from the table on its own (a short borrow), so
        // that the iterator may be held while writers of the frame write.
        let (mut at, end) = (upload.span.start as usize, upload.span.end as usize);
        let number = upload.number;
        let mut dst_offset = 0;
        Ok((0..upload.segment_count as usize).map(move |_| {
            let arena = self.arena.take();
            let table = &arena.slots[self.slot].segments;
            let segment = table[at..end]
                .iter()
                .position(|segment| segment.upload == number)
                .map(|i| {
                    at += i + 1;
                    table[at - 1]
                });
            let segment = segment.expect("expected the upload's segments in its span");
            let out = UploadSegment {
                chunk: segment.chunk as usize,
                offset: segment.offset,
                size: segment.size,
                dst_offset,
            };
            dst_offset += segment.size;
            out
        }))
    }

    /// The copy of `upload` into `dst` at `dst_offset`
    /// ([`copy_size`](Upload::copy_size) bytes; `dst` needs `COPY_DST`),
    /// recorded on the encoder given to [`finish`](Self::finish), before
    /// anything you record on it after `finish` (your passes that read
    /// `dst`). One `copy_buffer_to_buffer` per segment. A frame discarded
    /// or dropped records none of its copies.
    ///
    /// # Errors
    ///
    /// [`UploadError::BadDestination`] when `dst_offset` is not a multiple
    /// of 4 or the copy does not fit in `dst`;
    /// [`UploadError::DestinationNotCopyDst`] when `dst` lacks `COPY_DST`;
    /// [`UploadError::ForeignUpload`] for an upload of another arena.
    /// Not checked (wgpu panics at `finish`): a `dst` of another device
    /// than the arena's.
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
    /// let mut frame = arena.begin_frame().unwrap();
    /// let upload = frame.upload_slice(&[1.0f32; 4]).unwrap();
    /// frame.copy_to(&upload, &dst, 0).unwrap();
    /// assert!(frame.copy_to(&upload, &dst, 4).is_err()); // 16 bytes at 4: too small
    /// ```
    pub fn copy_to(
        &mut self,
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
        self.checked(upload)?;
        self.check_mapped(upload)?;
        let mut arena = self.arena.take_mut();
        let slot = &mut arena.slots[self.slot];
        let mut landed = dst_offset;
        for segment in of_upload(&slot.segments, upload.span(), upload.number) {
            slot.copies.push(PendingCopy::Buffer {
                chunk: segment.chunk,
                offset: segment.offset,
                size: segment.size,
                dst: dst.clone(),
                dst_offset: landed,
            });
            landed += segment.size;
        }
        Ok(())
    }

    /// The copy of `upload` into a texture: its rows, `bytes_per_row`
    /// apart in the upload (a multiple of 256, as wgpu's buffer-to-texture
    /// copies need; the bytes of a row past `size`'s width are padding),
    /// land in `dst` over `size` texels, recorded at
    /// [`finish`](Self::finish) as [`copy_to`](Self::copy_to) is. An
    /// upload that crossed a chunk's end, even between two texels of a
    /// row, is copied segment by segment (at most three copies each: the
    /// end of a row, whole rows, the start of a row).
    ///
    /// # Errors
    ///
    /// [`UploadError::TextureCopy`] when wgpu would refuse the copy: a
    /// `bytes_per_row` that is not a multiple of 256 or is too short for a
    /// row of `size`, a format without a single copy size (depth and
    /// stencil together), an upload too small for `size`, a segment that
    /// splits a block of the format (upload elements of whole texels or
    /// blocks) or starts off its size (a block of more than 4 bytes, in a
    /// chunk's offset of 4), a copy of several layers that crossed a
    /// chunk's end; a multisampled texture, an aspect it lacks, a depth
    /// aspect that cannot be copied to, a mip level past its own, a copy
    /// past the level's size or off its blocks, and a depth or stencil
    /// copy that is not the whole level in one segment.
    /// [`UploadError::DestinationNotCopyDst`] when the texture lacks
    /// `COPY_DST`, [`UploadError::ForeignUpload`] as for `copy_to`.
    /// Nothing is recorded when it refuses. Not checked (wgpu panics at
    /// `finish`, or at `encoder.finish()`): a texture of another device.
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, _queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let size = wgpu::Extent3d { width: 64, height: 4, depth_or_array_layers: 1 };
    /// let texture = device.create_texture(&wgpu::TextureDescriptor {
    ///     label: None, size, mip_level_count: 1, sample_count: 1,
    ///     dimension: wgpu::TextureDimension::D2, format: wgpu::TextureFormat::Rgba8Unorm,
    ///     usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::TEXTURE_BINDING,
    ///     view_formats: &[],
    /// });
    /// let mut frame = arena.begin_frame().unwrap();
    /// // 64 texels of 4 bytes a row: 256 bytes.
    /// let texels = frame.upload_slice(&[[255u8, 0, 0, 255]; 64 * 4]).unwrap();
    /// frame.copy_to_texture(&texels, texture.as_image_copy(), 256, size).unwrap();
    /// ```
    pub fn copy_to_texture(
        &mut self,
        upload: &Upload<'a>,
        dst: wgpu::TexelCopyTextureInfo<'_>,
        bytes_per_row: u32,
        size: wgpu::Extent3d,
    ) -> Result<(), UploadError> {
        let TexelLayout {
            rows,
            block,
            block_width,
            block_height,
            rows_per_image,
            whole_only,
        } = texel_layout(&dst, bytes_per_row, size)?;
        let texture = dst.texture;
        let layers = u64::from(size.depth_or_array_layers);
        let refuse = |why| Err(UploadError::TextureCopy { why });
        let row = rows.row;
        let needed = match rows.rows {
            0 => Some(0),
            n => (n - 1)
                .checked_mul(rows.stride)
                .and_then(|b| b.checked_add(row)),
        };
        if needed.is_none_or(|needed| upload.bytes < needed) {
            return refuse("the upload holds fewer bytes than the copy's rows");
        }
        self.checked(upload)?;
        self.check_mapped(upload)?;
        let mut arena = self.arena.take_mut();
        let slot = &mut arena.slots[self.slot];
        let segments = &slot.segments;
        let count = upload.segment_count;
        if count > 1 && whole_only {
            return refuse(
                "a depth or stencil copy crossed a chunk's end (wgpu takes no partial copy)",
            );
        }
        if count > 1 && layers > 1 {
            return refuse("a copy of several layers crossed a chunk's end");
        }
        // Every copy checked first, so that a refusal records nothing.
        let copies = || {
            let mut start = 0;
            of_upload(segments, upload.span(), upload.number).flat_map(move |segment| {
                let at = start;
                start += segment.size;
                row_copies(rows, at, segment.size).map(move |copy| (segment, copy))
            })
        };
        for (segment, copy) in copies() {
            if !(segment.offset + copy.offset).is_multiple_of(block) {
                return refuse("a segment starts off the format's block size");
            }
            if !copy.x.is_multiple_of(block) || !copy.width.is_multiple_of(block) {
                return refuse("a segment splits a block: upload whole texels or blocks");
            }
        }
        let texels = |blocks: u64, per_block: u32| (blocks as u32).saturating_mul(per_block);
        for (segment, copy) in copies() {
            let mut part = size;
            let mut origin = dst.origin;
            if layers == 1 {
                origin.x += texels(copy.x / block, block_width);
                origin.y += texels(copy.y, block_height);
                part.width = texels(copy.width / block, block_width).min(size.width);
                part.height = texels(copy.height, block_height)
                    .min(size.height - texels(copy.y, block_height).min(size.height));
            }
            slot.copies.push(PendingCopy::Texture {
                chunk: segment.chunk,
                offset: segment.offset + copy.offset,
                bytes_per_row,
                rows_per_image,
                dst: wgpu::TexelCopyTextureInfoBase {
                    texture: texture.clone(),
                    mip_level: dst.mip_level,
                    origin,
                    aspect: dst.aspect,
                },
                size: part,
            });
            if layers > 1 {
                break;
            }
        }
        Ok(())
    }

    /// The arena's device (to make a destination with).
    pub(super) fn device(&mut self) -> wgpu::Device {
        self.arena.take_mut().device.clone()
    }

    /// Refuses an upload with bytes in a chunk found unmapped this frame
    /// (a view of it refused): that chunk is not handed to the GPU, so no
    /// copy may come from it.
    fn check_mapped(&mut self, upload: &Upload<'a>) -> Result<(), UploadError> {
        let arena = self.arena.take_mut();
        let slot = &arena.slots[self.slot];
        let failed = |segment: &super::bump::Segment| {
            slot.chunks[segment.chunk as usize].signal.get() == FAILED
        };
        if of_upload(&slot.segments, upload.span(), upload.number).any(failed) {
            return Err(UploadError::MapFailed);
        }
        Ok(())
    }

    /// Whether `upload` is this frame's.
    pub(super) fn checked(&self, upload: &Upload<'a>) -> Result<(), UploadError> {
        if upload.arena != self.arena_id || upload.frame != self.number {
            return Err(UploadError::ForeignUpload);
        }
        Ok(())
    }

    /// Ends the frame: its copies ([`copy_to`](Self::copy_to),
    /// [`copy_to_texture`](Self::copy_to_texture)) are recorded on
    /// `encoder`, its staging chunks are unmapped, and mapped for writing
    /// again once the GPU has finished the submission of `encoder` (asked
    /// for by [`UploadArena::submitted`] where the arena is told its
    /// submissions, otherwise here with wgpu's `map_buffer_on_submit`);
    /// only then does a later frame reuse them. Record the passes that read the copies' destinations
    /// on `encoder` after this call (or on an encoder submitted after it),
    /// and submit it; [`UploadArena::submitted`] with its submission
    /// index lets the next frame that needs these chunks wait on exactly
    /// it. Returns the frame's record: upload bytes, per tag, with
    /// budgets.
    ///
    /// # Panics
    ///
    /// Under [`BudgetPolicy::Panic`](crate::BudgetPolicy::Panic), for a
    /// breached budget, once the frame is handed to the GPU. wgpu panics
    /// here (under its default error handler) for a destination of
    /// another `wgpu::Instance`, and at `encoder.finish()` for one of
    /// another device; and for a writer leaked with `mem::forget` (its
    /// chunk's view is never given back, so the chunk cannot be
    /// unmapped).
    ///
    /// # Example
    ///
    /// ```
    /// # let Some((device, queue)) = tickarena::gpu::test_device() else { return };
    /// # let mut arena = tickarena::gpu::UploadArena::new(&device, Default::default());
    /// let mut encoder = device.create_command_encoder(&Default::default());
    /// let mut frame = arena.begin_frame().unwrap();
    /// let _ = frame.upload_slice(&[0u32; 8]).unwrap();
    /// let record = frame.finish(&mut encoder);
    /// arena.submitted(queue.submit([encoder.finish()]));
    /// assert_eq!((record.tick, record.arena_bytes), (1, 32));
    /// assert_eq!(arena.history().len(), 1);
    /// ```
    pub fn finish(mut self, encoder: &mut wgpu::CommandEncoder) -> FrameRecord {
        self.finished = true;
        let mut taken = self.arena.take_mut();
        let arena = &mut *taken;
        let slot = &mut arena.slots[self.slot];
        for copy in slot.copies.drain(..) {
            // (A copy from a chunk found unmapped after it was asked for
            // is dropped: that chunk is not handed to the GPU.)
            if slot.chunks[copy.chunk()].signal.get() != FAILED {
                record(encoder, &slot.chunks, copy);
            }
        }
        for chunk in &mut slot.chunks[..slot.bump.chunks_opened()] {
            // (A chunk found unmapped stays as it is, for the slot's next
            // frame to drop.)
            if chunk.signal.get() != FAILED {
                hand_to_gpu(chunk, encoder, arena.told);
            }
        }
        slot.awaiting_submission = slot.bump.chunks_opened() > 0;
        arena.uploads_together |= slot.bump.had_uploads_together();
        let bytes = slot.bump.closed_bytes();
        let needed = super::arena::needed(&slot.bump, arena.max_chunk);
        let mut tags = slot.tags;
        tags.judge();
        let breaches = arena.budgets.check(
            Some(arena.config.label),
            self.number,
            tags.over_budget(),
            saturating_usize(bytes),
        );
        let record = FrameRecord {
            tick: self.number,
            arena_bytes: saturating_usize(bytes),
            tags,
            frame_budget: arena.config.frame_budget.map(saturating_usize),
            over_frame_budget: arena.config.frame_budget.is_some_and(|b| bytes > b),
            ..FrameRecord::default()
        };
        arena.history.push(record);
        arena.frame_ended(bytes, needed);
        breaches.panic_unless_unwinding();
        record
    }
}

/// How a copy into a texture lays the upload out, once wgpu's own checks
/// of the destination and the rows pass.
struct TexelLayout {
    rows: Rows,
    /// Bytes per texel block, and its size in texels.
    block: u64,
    block_width: u32,
    block_height: u32,
    rows_per_image: u32,
    /// A depth or stencil copy: wgpu takes only the whole level, at once.
    whole_only: bool,
}

/// Checks a copy of `size` texels into `dst`, rows `bytes_per_row` apart,
/// as wgpu would, and says how it lays out the upload: a refusal here is
/// a `TextureCopy` error instead of wgpu's panic at the frame's finish.
fn texel_layout(
    dst: &wgpu::TexelCopyTextureInfo<'_>,
    bytes_per_row: u32,
    size: wgpu::Extent3d,
) -> Result<TexelLayout, UploadError> {
    let texture = dst.texture;
    if !texture.usage().contains(wgpu::TextureUsages::COPY_DST) {
        return Err(UploadError::DestinationNotCopyDst);
    }
    let refuse = |why| Err(UploadError::TextureCopy { why });
    let format = texture.format();
    // What wgpu checks of the destination itself.
    if texture.sample_count() != 1 {
        return refuse("the texture is multisampled");
    }
    match format.aspect_specific_format(dst.aspect) {
        None => return refuse("the texture has no such aspect"),
        Some(wgpu::TextureFormat::Depth24Plus | wgpu::TextureFormat::Depth32Float) => {
            return refuse("this depth aspect cannot be a copy destination");
        }
        Some(_) => {}
    }
    if dst.mip_level >= texture.mip_level_count() {
        return refuse("the mip level is past the texture's");
    }
    let extent = texture
        .size()
        .mip_level_size(dst.mip_level, texture.dimension())
        .physical_size(format);
    let fits = |origin: u32, len: u32, end: u32| origin.checked_add(len).is_some_and(|e| e <= end);
    if !fits(dst.origin.x, size.width, extent.width)
        || !fits(dst.origin.y, size.height, extent.height)
        || !fits(
            dst.origin.z,
            size.depth_or_array_layers,
            extent.depth_or_array_layers,
        )
    {
        return refuse("the copy overruns the texture's mip level");
    }
    let Some(block) = format.block_copy_size(Some(dst.aspect)) else {
        return refuse("the format has no single copy size for this aspect");
    };
    let block = u64::from(block);
    let (block_width, block_height) = format.block_dimensions();
    if !dst.origin.x.is_multiple_of(block_width)
        || !dst.origin.y.is_multiple_of(block_height)
        || !size.width.is_multiple_of(block_width)
        || !size.height.is_multiple_of(block_height)
    {
        return refuse("the copy's origin or size is not on the format's blocks");
    }
    let whole_only = format.is_depth_stencil_format();
    if whole_only
        && (dst.origin.x != 0
            || dst.origin.y != 0
            || size.width != extent.width
            || size.height != extent.height)
    {
        return refuse("a depth or stencil copy must cover the whole mip level");
    }
    let row = u64::from(size.width.div_ceil(block_width)) * block;
    let rows_per_image = size.height.div_ceil(block_height);
    let layers = u64::from(size.depth_or_array_layers);
    let rows = Rows {
        stride: u64::from(bytes_per_row),
        row,
        rows: u64::from(rows_per_image) * layers,
    };
    if !bytes_per_row.is_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) {
        return refuse("bytes_per_row is not a multiple of 256");
    }
    if row > rows.stride {
        return refuse("bytes_per_row is shorter than a row of the copy");
    }
    Ok(TexelLayout {
        rows,
        block,
        block_width,
        block_height,
        rows_per_image,
        whole_only,
    })
}

/// Records one of the frame's copies on `encoder`.
fn record(encoder: &mut wgpu::CommandEncoder, chunks: &[Chunk], copy: PendingCopy) {
    match copy {
        PendingCopy::Buffer {
            chunk,
            offset,
            size,
            dst,
            dst_offset,
        } => encoder.copy_buffer_to_buffer(
            &chunks[chunk as usize].buffer,
            offset,
            &dst,
            dst_offset,
            size,
        ),
        PendingCopy::Texture {
            chunk,
            offset,
            bytes_per_row,
            rows_per_image,
            dst,
            size,
        } => encoder.copy_buffer_to_texture(
            wgpu::TexelCopyBufferInfo {
                buffer: &chunks[chunk as usize].buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset,
                    bytes_per_row: Some(bytes_per_row),
                    rows_per_image: Some(rows_per_image),
                },
            },
            wgpu::TexelCopyTextureInfo {
                texture: &dst.texture,
                mip_level: dst.mip_level,
                origin: dst.origin,
                aspect: dst.aspect,
            },
            size,
        ),
    }
}

/// Unmaps a chunk the frame wrote to. Where the arena is told its
/// submissions (`told`), it maps the chunk again itself when told;
/// otherwise wgpu maps it again once the submission of `encoder` is done.
fn hand_to_gpu(chunk: &mut Chunk, encoder: &wgpu::CommandEncoder, told: bool) {
    // (Every view is gone: writers borrow the frame that is being
    // finished.)
    chunk.buffer.unmap();
    if told {
        chunk.signal.set(HANDED);
        return;
    }
    let notify = Notify::pending(&chunk.signal);
    encoder.map_buffer_on_submit(&chunk.buffer, wgpu::MapMode::Write, .., move |result| {
        notify.done(result)
    });
}

impl UploadFrame<'_> {
    /// Ends the frame without handing it to the GPU, on purpose (an early
    /// return on an error path): its uploads and its copies are discarded
    /// (none was recorded on any encoder: copies are recorded at
    /// [`finish`](Self::finish)), its chunks stay mapped for the next
    /// frame, and unlike a dropped frame the next
    /// [`begin_frame`](UploadArena::begin_frame) reports nothing.
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
        let mut arena = self.arena.take_mut();
        arena.slots[self.slot].copies.clear();
        arena.rewind(self.slot);
    }
}

impl Drop for UploadFrame<'_> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        self.abandon();
        self.arena.take_mut().abandoned = Some(self.number);
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
/// Leaking a writer (`mem::forget`) leaks the mapped view of the room it
/// was writing: wgpu then refuses to unmap that chunk, and the frame's
/// [`finish`](UploadFrame::finish) panics. A frame discarded (or dropped)
/// instead keeps the view alive: a later frame's upload whose room
/// overlaps it gets [`UploadError::MapFailed`], that chunk is handed to
/// no GPU copy, and the slot's next frame replaces it.
#[must_use = "finish the writer to get the Upload to copy; dropped, its data is never copied"]
pub struct UploadWriter<'w, 'a, T: Pod> {
    frame: &'w UploadFrame<'a>,
    tag: Tag,
    /// The upload: its room and what it has written, as last synced.
    open: Open,
    /// Its place in its room, kept here between writes (counted from the
    /// room's start); meaningful only while `view` is held.
    cursor: Cursor,
    /// The write-only view of its room, made when the room is claimed and
    /// dropped when the upload leaves it.
    view: Option<wgpu::BufferViewMut>,
    /// Closed already (by `finish`): its drop has nothing to do.
    closed: bool,
    _elements: PhantomData<fn(T)>,
}

/// The chunks of one slot, as the bump pointer opens them, borrowed
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
        if index >= self.chunks.len() {
            make_chunk(self)?;
            // A buffer made mapped that is not: its device is gone (wgpu
            // makes buffers of a lost device as invalid ones). Dropped at
            // once, before any room is claimed in it.
            let buffer = &self.chunks[index].buffer;
            if buffer.get_mapped_range_mut(..COPY_ALIGN).is_err() {
                if let Some(chunk) = self.chunks.pop() {
                    chunk.buffer.destroy();
                    self.stats.buffers_destroyed += 1;
                }
                *self.lost = true;
                return Err(UploadError::DeviceLost);
            }
        }
        Ok(self.chunks[index].buffer.size())
    }
}

impl Staging<'_> {
    /// The write-only view of `room`, from its view's start.
    fn view(&mut self, room: Room) -> Result<wgpu::BufferViewMut, UploadError> {
        let chunk = &self.chunks[room.chunk];
        chunk
            .buffer
            .get_mapped_range_mut(room.view_start()..room.end)
            .map_err(|_| {
                // Not mapped as its callback said: the slot's next frame
                // drops it (other uploads may still hold rooms in the
                // frame's chunks, whose places must not move now), and
                // this frame does not hand it to the GPU.
                chunk.signal.set(FAILED);
                UploadError::MapFailed
            })
    }
}

/// How a room's filling ended.
enum Filled<T> {
    /// The iterator ended within the room.
    Ended,
    /// The room is full, or none is open: the value taken that did not
    /// fit, if one was taken.
    Full(Option<T>),
}

/// Writes `values` into `window`, one slot of `N` bytes (the size of a
/// `T`) each, as long as both last: how many were written, and how it
/// ended (a value taken with no slot left is handed back in
/// [`Filled::Full`]).
#[inline(always)]
fn fill<T: Pod, const N: usize>(
    window: wgpu::WriteOnly<'_, [u8]>,
    values: &mut impl Iterator<Item = T>,
) -> (usize, Filled<T>) {
    let (slots, _) = window.into_chunks::<N>();
    let (least, most) = values.size_hint();
    if most == Some(least) {
        // A length known (a range mapped, a slice's iterator): the slot
        // first, so `zip` asks `values` only once it has one; the
        // compiler folds the two counts into one.
        let room = slots.len();
        let mut written = 0;
        for (slot, value) in slots.into_iter().zip(values.by_ref()) {
            slot.write(bytemuck::cast::<T, [u8; N]>(value));
            written += 1;
        }
        // Slots left: the values ran out. None left: the next value, if
        // any, is still in the iterator.
        let filled = if written < room {
            Filled::Ended
        } else {
            Filled::Full(None)
        };
        return (written, filled);
    }
    // Otherwise (a filter, a chain) the iterator's own `try_fold` drives
    // the loop, a slot taken per value and the value handed back where
    // none is left: asked one value at a time through `next`, a filter
    // over a range ran 4.4 times slower (LLVM searched each next match
    // with vector compares, through the stack: `examples/gpu_upload`
    // with a quarter culled, 73 µs a frame against 16.7).
    let mut slots = slots.into_iter();
    let room = slots.len();
    let flow = values.try_for_each(|value| match slots.next() {
        Some(slot) => {
            slot.write(bytemuck::cast::<T, [u8; N]>(value));
            ControlFlow::Continue(())
        }
        None => ControlFlow::Break(value),
    });
    match flow {
        ControlFlow::Continue(()) => (room - slots.len(), Filled::Ended),
        ControlFlow::Break(value) => (room, Filled::Full(Some(value))),
    }
}

/// [`fill`] for any size: `window` cut into `size` bytes per value.
#[inline(always)]
fn fill_bytes<T: Pod>(
    mut window: wgpu::WriteOnly<'_, [u8]>,
    size: usize,
    values: impl Iterator<Item = T>,
) -> usize {
    let mut written = 0;
    // The iterator's own `fold` (see `fill`).
    values.for_each(|value| {
        window
            .slice(written * size..(written + 1) * size)
            .copy_from_slice(bytemuck::bytes_of(&value));
        written += 1;
    });
    written
}

fn convert(error: BumpError<UploadError>) -> UploadError {
    match error {
        BumpError::ElementTooLarge { unit, chunk } => UploadError::ElementTooLarge {
            bytes: unit,
            chunk_size: chunk,
        },
        BumpError::Chunk(error) => error,
    }
}

impl<'a, T: Pod> UploadWriter<'_, 'a, T> {
    /// Leaves the room: its writes recorded in the upload, its view gone.
    fn leave_room(&mut self) {
        self.open.sync(&self.cursor);
        self.view = None;
        self.cursor = Cursor::default();
    }

    /// Claims a room with space for at least one more element (for
    /// `want` bytes where its chunk has them) and takes its view: the
    /// room is full, or none was claimed yet.
    fn claim_room(&mut self, want: u64) -> Result<(), UploadError> {
        self.leave_room();
        let mut arena = self.frame.arena.take();
        let blocks = arena.uploads_together;
        let (bump, segments, mut staging) = arena.parts(self.frame.slot);
        let room = bump
            .claim(&mut staging, segments, &mut self.open, want, blocks)
            .map_err(convert)?;
        match staging.view(room) {
            Ok(view) => {
                self.view = Some(view);
                self.cursor = Cursor::at_start(room);
                Ok(())
            }
            Err(error) => {
                // Nothing was written in the room: the upload keeps what
                // it wrote before it, and no room is claimed in that chunk
                // again this frame (its copies are refused).
                self.open.abandon_room();
                bump.leave_chunk();
                Err(error)
            }
        }
    }

    /// The slow path: what fits of `bytes` (whole elements) written in
    /// the room, and the rest in the rooms claimed after it.
    #[cold]
    #[inline(never)]
    fn write_bytes(&mut self, mut bytes: &[u8]) -> Result<(), UploadError> {
        loop {
            if let Some(view) = &mut self.view {
                let n = self.cursor.free().min(bytes.len() as u64);
                if let Some(at) = self.cursor.bump(n)
                    && n > 0
                {
                    let (now, rest) = bytes.split_at(n as usize);
                    let at = at as usize;
                    view.slice(at..at + now.len()).copy_from_slice(now);
                    bytes = rest;
                }
            }
            if bytes.is_empty() {
                return Ok(());
            }
            self.claim_room(bytes.len() as u64)?;
        }
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
            let at_least = values.size_hint().0;
            if at_least > 0 {
                self.open_first_room(at_least)?;
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
        match self.fill_room(&mut values) {
            Filled::Ended => Ok(()),
            Filled::Full(taken) => self.extend_room_by_room(taken, values),
        }
    }

    /// Claims the upload's first room, for as many elements as the
    /// iterator says it has at least: so that `extend`'s first pass
    /// writes from the first element.
    #[cold]
    #[inline(never)]
    fn open_first_room(&mut self, at_least: usize) -> Result<(), UploadError> {
        let size = core::mem::size_of::<T>() as u64;
        self.claim_room((at_least as u64).saturating_mul(size))
    }

    /// Writes elements of `values` into the room as long as both last:
    /// whether the iterator ended within it, or the room is full (or none
    /// is taken) with the value taken that did not fit, if any.
    #[inline(always)]
    fn fill_room(&mut self, values: &mut impl Iterator<Item = T>) -> Filled<T> {
        let size = core::mem::size_of::<T>();
        let Some(view) = &mut self.view else {
            return Filled::Full(None);
        };
        if size == 0 {
            return Filled::Full(None);
        }
        let fits = (self.cursor.free() / size as u64) as usize;
        let top = self.cursor.top() as usize;
        let window = view.slice(top..top + fits * size);
        // Elements of the common sizes go through slots of their size
        // (one store of the element each, no bounds check per element);
        // others through byte windows.
        let (written, filled) = match size {
            4 => fill::<T, 4>(window, values),
            8 => fill::<T, 8>(window, values),
            12 => fill::<T, 12>(window, values),
            16 => fill::<T, 16>(window, values),
            20 => fill::<T, 20>(window, values),
            24 => fill::<T, 24>(window, values),
            32 => fill::<T, 32>(window, values),
            48 => fill::<T, 48>(window, values),
            64 => fill::<T, 64>(window, values),
            _ => {
                let written = fill_bytes(window, size, values.by_ref().take(fits));
                // All it took was written: where the room is full, the
                // next value is still in the iterator.
                let filled = if written < fits {
                    Filled::Ended
                } else {
                    Filled::Full(None)
                };
                (written, filled)
            }
        };
        self.cursor.bump((written * size) as u64);
        filled
    }

    /// [`extend`](Self::extend) past the room: one element the way of
    /// [`push`](Self::push), which opens the next chunk, then the next
    /// room filled, and so on.
    #[inline(never)]
    fn extend_room_by_room(
        &mut self,
        mut taken: Option<T>,
        mut values: impl Iterator<Item = T>,
    ) -> Result<(), UploadError> {
        loop {
            let Some(value) = taken.take().or_else(|| values.next()) else {
                return Ok(());
            };
            self.push(value)?;
            match self.fill_room(&mut values) {
                Filled::Ended => return Ok(()),
                Filled::Full(value) => taken = value,
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
        let size = core::mem::size_of::<T>().max(1) as u64;
        (self.open.len_with(&self.cursor) / size) as usize
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
        self.closed = true;
        self.open.sync(&self.cursor);
        if let (Some(view), Some(padding)) = (&mut self.view, self.open.padding()) {
            view.slice(padding.start as usize..padding.end as usize)
                .fill(0);
        }
        self.view = None;
        self.cursor = Cursor::default();
        let frame = self.frame;
        let mut arena = frame.arena.take();
        let arena_id = arena.id;
        let slot = &mut arena.slots[frame.slot];
        let Closed {
            span,
            upload,
            count,
            len,
            padded,
        } = slot.bump.close(&mut slot.segments, self.open);
        slot.tags.charge(self.tag, saturating_usize(padded));
        Upload {
            arena: arena_id,
            frame: frame.number,
            span: span.start as u32..span.end as u32,
            number: upload,
            segment_count: count as u32,
            len: (len / (core::mem::size_of::<T>().max(1) as u64)) as usize,
            bytes: len,
            copy_size: padded,
            _frame: PhantomData,
        }
    }
}

impl<T: Pod> Drop for UploadWriter<'_, '_, T> {
    fn drop(&mut self) {
        if !self.closed {
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
