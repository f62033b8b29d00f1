//! What the upload arena refuses, and why.

use core::fmt;

/// Why the upload arena refused a frame, a write or a copy. The arena
/// stays usable after each (see each variant for what it left behind).
///
/// # Example
///
/// ```
/// use tickarena::gpu::UploadError;
/// let error = UploadError::ElementTooLarge { bytes: 300, chunk_size: 256 };
/// assert!(error.to_string().contains("300"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UploadError {
    /// One element (padded to the 4 bytes copies go by) is larger than a
    /// staging chunk: uploads longer than a chunk go on in the next
    /// chunk, but an element is never split. Nothing was written; make
    /// the chunks larger ([`UploadConfig::chunk_size`](super::UploadConfig::chunk_size)).
    ElementTooLarge {
        /// The element's bytes, with that padding.
        bytes: u64,
        /// The chunk size.
        chunk_size: u64,
    },
    /// The frame would need more staging memory than
    /// [`UploadConfig::max_frame_bytes`](super::UploadConfig::max_frame_bytes).
    /// The elements written before the limit stay in the upload.
    FrameTooLarge {
        /// The frame's limit.
        max_frame_bytes: u64,
    },
    /// Every frame in flight is still with the GPU
    /// ([`UploadArena::try_begin_frame`](super::UploadArena::try_begin_frame)):
    /// the GPU is that far behind. Try again later, or wait with
    /// [`begin_frame`](super::UploadArena::begin_frame).
    AllInFlight {
        /// Frames in flight.
        frames: usize,
    },
    /// wgpu could not map a staging chunk for writing again after the GPU
    /// used it. The chunk is dropped (its buffer destroyed); the next frame
    /// makes a new one.
    MapFailed,
    /// The device is lost (destroyed, reset, or the driver gone): a new
    /// staging chunk could not be mapped. Every later frame says so too.
    /// Make a new device and a new arena. (A lost device's first sign may
    /// be a [`MapFailed`](Self::MapFailed): wgpu's map callback does not
    /// say why a map failed.)
    DeviceLost,
    /// A frame's staging memory was never submitted: the frame was dropped
    /// without [`UploadFrame::finish`](super::UploadFrame::finish), or the
    /// encoder given to `finish` was dropped without being submitted. Its
    /// uploads were discarded and its chunks are ready again; reported
    /// once, by the next [`begin_frame`](super::UploadArena::begin_frame)
    /// that reaches that frame's slot.
    NotSubmitted {
        /// The frame's number (see [`UploadFrame::number`](super::UploadFrame::number)).
        frame: u64,
    },
    /// An [`Upload`](super::Upload) of another arena, or of another frame.
    ForeignUpload,
    /// A [`SharedUploadArena`](super::SharedUploadArena) was asked for
    /// its frame, or to finish it, with none open: before its first
    /// [`begin_frame`](super::SharedUploadArena::begin_frame), after its
    /// `finish`, or after the arena's own `begin_frame` took its slot.
    /// Nothing was done.
    NoFrameOpen,
    /// The copy's destination buffer was not made with
    /// `wgpu::BufferUsages::COPY_DST`: wgpu would refuse the copy (a
    /// validation panic under its default error handler). Nothing was
    /// recorded.
    DestinationNotCopyDst,
    /// An upload of a zero-sized type: it would have no bytes and no
    /// length to count. Nothing was opened; upload something with bytes.
    ZeroSizedElement,
    /// A copy into a texture that wgpu would refuse
    /// ([`UploadFrame::copy_to_texture`](super::UploadFrame::copy_to_texture)
    /// says each case). Nothing was recorded.
    TextureCopy {
        /// What is wrong with it.
        why: &'static str,
    },
    /// wgpu could not allocate a staging chunk: the device is out of
    /// memory. Nothing of the write that needed the chunk was lost but
    /// what the error of that write says; a later frame tries again.
    OutOfMemory {
        /// The chunk's bytes.
        bytes: u64,
    },
    /// A copy's destination offset is not a multiple of 4, or the
    /// destination is too small for the upload (padded to 4 bytes).
    BadDestination {
        /// The destination offset asked for.
        offset: u64,
        /// The bytes the copy writes.
        bytes: u64,
        /// The destination buffer's size.
        buffer_size: u64,
    },
}

impl fmt::Display for UploadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UploadError::ElementTooLarge { bytes, chunk_size } => write!(
                f,
                "an element of {bytes} bytes is larger than a staging chunk ({chunk_size} bytes): \
                 make UploadConfig::chunk_size larger"
            ),
            UploadError::FrameTooLarge { max_frame_bytes } => write!(
                f,
                "the frame's uploads need more than UploadConfig::max_frame_bytes \
                 ({max_frame_bytes} bytes) of staging memory"
            ),
            UploadError::AllInFlight { frames } => {
                write!(
                    f,
                    "all {frames} frames in flight are still with the GPU (or the encoder \
                     given to a frame's finish was never submitted)"
                )
            }
            UploadError::MapFailed => {
                f.write_str("wgpu could not map a staging chunk for writing again; it was dropped")
            }
            UploadError::DeviceLost => {
                f.write_str("the wgpu device is lost: make a new device and upload arena")
            }
            UploadError::NotSubmitted { frame } => write!(
                f,
                "upload frame {frame} was never submitted (dropped without finish, or its \
                 encoder was dropped); its uploads were discarded"
            ),
            UploadError::ForeignUpload => {
                f.write_str("an upload of another arena or frame was given to this frame")
            }
            UploadError::NoFrameOpen => f.write_str(
                "the shared upload arena has no frame open: call begin_frame first (a system \
                 that runs before the one that writes)",
            ),
            UploadError::DestinationNotCopyDst => f.write_str(
                "the copy's destination buffer lacks wgpu::BufferUsages::COPY_DST; nothing was \
                 recorded",
            ),
            UploadError::ZeroSizedElement => f.write_str(
                "uploads of a zero-sized type have no bytes to copy: upload something with bytes",
            ),
            UploadError::TextureCopy { why } => {
                write!(
                    f,
                    "the copy into a texture would be refused: {why}; nothing was recorded"
                )
            }
            UploadError::OutOfMemory { bytes } => write!(
                f,
                "the device is out of memory for a staging chunk of {bytes} bytes"
            ),
            UploadError::BadDestination {
                offset,
                bytes,
                buffer_size,
            } => write!(
                f,
                "cannot copy {bytes} bytes to offset {offset} of a buffer of {buffer_size} bytes \
                 (the offset must be a multiple of 4, and the copy fit in the buffer)"
            ),
        }
    }
}

impl std::error::Error for UploadError {}
