//! Where a frame's uploads land in its staging chunks: the bump pointer,
//! an open upload growing at the top, and the segments it leaves when it
//! crosses a chunk's end. Plain arithmetic over offsets; the bytes go
//! through [`Chunks`], which the wgpu side implements over mapped memory
//! (write-only) and the tests over ordinary buffers (Miri runs them).
//!
//! Mapped memory is never read, so data once written never moves: an
//! upload that does not fit in the rest of its chunk continues at the start
//! of the next one, as a second segment. Every segment starts on
//! [`COPY_ALIGN`] and, but for an upload's last, is a whole number of
//! *units*: the least multiple of both the element's size and
//! [`COPY_ALIGN`]. So each segment holds whole elements and is a size
//! `copy_buffer_to_buffer` takes, and a segment's copy lands its elements
//! exactly where a single copy of the whole upload would. An upload's last
//! segment is padded with zeros to [`COPY_ALIGN`] (its unit was kept free
//! for it, so the padding always fits).

#![forbid(unsafe_code)]

use alloc::vec::Vec;
use core::ops::Range;

/// wgpu's `COPY_BUFFER_ALIGNMENT`: copies start and end on multiples of 4.
pub(crate) const COPY_ALIGN: u64 = 4;

/// A part of an upload in one chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// The chunk, by its place in the frame's list.
    pub(crate) chunk: u32,
    /// Where it starts in the chunk (a multiple of [`COPY_ALIGN`]).
    pub(crate) offset: u64,
    /// Its bytes, padding included (a multiple of [`COPY_ALIGN`]).
    pub(crate) size: u64,
}

/// The chunks of one frame, as the bump pointer sees them.
pub(crate) trait Chunks {
    /// Why a chunk could not be had.
    type Error;
    /// Makes chunk `index` ready for writing: the frame's next chunk when
    /// `index` is one past the last it has. Returns its size in bytes (a
    /// multiple of [`COPY_ALIGN`]; chunks may differ in size).
    fn open(&mut self, index: usize) -> Result<u64, Self::Error>;
    /// Writes `bytes` at `offset` of chunk `index` (opened, in bounds).
    fn write(&mut self, index: usize, offset: u64, bytes: &[u8]);
    /// Writes `len` zeros at `offset` of chunk `index` (opened, in bounds).
    fn zero(&mut self, index: usize, offset: u64, len: u64);
}

/// Why a write was refused. The frame is left as it was before the write
/// started, but for the whole elements already written (see
/// [`Bump::write`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BumpError<E> {
    /// An element (with the padding to [`COPY_ALIGN`] its unit needs) is
    /// larger than a chunk: `unit` bytes against `chunk` bytes.
    ElementTooLarge { unit: u64, chunk: u64 },
    /// The chunk source refused the next chunk.
    Chunk(E),
}

/// The open upload's room in its current chunk, held by its writer
/// between writes (in registers, not re-read from the arena before each
/// element): the chunk, the top, and the end of the segment's whole
/// units. Writes through it are recorded in the [`Bump`] by
/// [`Bump::sync`]; a cursor with no room (`top == limit`) sends every
/// write to [`Bump::write`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The chunk the room is in.
    pub(crate) chunk: usize,
    /// Where the next element goes.
    top: u64,
    /// The end of the room.
    limit: u64,
}

impl Cursor {
    /// Takes `n` bytes at the top when they fit in the room: where they
    /// go. `None` (nothing taken) when they do not.
    #[inline(always)]
    pub(crate) fn bump(&mut self, n: u64) -> Option<u64> {
        if n > self.limit - self.top {
            return None;
        }
        let at = self.top;
        self.top += n;
        Some(at)
    }

    /// The top: where the next element goes.
    #[inline(always)]
    pub(crate) fn top(&self) -> u64 {
        self.top
    }

    /// Bytes free in the room.
    #[inline(always)]
    pub(crate) fn free(&self) -> u64 {
        self.limit - self.top
    }
}

/// The bump pointer of one frame in flight.
#[derive(Clone, Debug)]
pub(crate) struct Bump {
    /// The smallest chunk: no element may be larger.
    chunk_size: u64,
    /// The size of the chunk the top is in (0 before the first is opened).
    end: u64,
    /// The chunk the top is in.
    chunk: usize,
    /// Chunks opened this frame: `0..opened` are ready.
    opened: usize,
    /// The top, in the current chunk.
    top: u64,
    /// The sizes of the chunks before the current one, summed.
    passed: u64,
    /// The room one chunk needs to hold this frame's closed uploads: the
    /// furthest an upload's whole units reach when laid one after the
    /// other from 0 (an upload's room ends on a whole unit).
    reach: u64,
    /// Bytes of uploads closed this frame, padding included.
    closed: u64,
    /// The open upload, if any.
    open: Option<Open>,
}

/// An upload being written.
#[derive(Clone, Copy, Debug)]
struct Open {
    /// Bytes per element.
    elem: u64,
    /// The least multiple of `elem` and [`COPY_ALIGN`].
    unit: u64,
    /// Where its segment in the current chunk began.
    segment_start: u64,
    /// The end of the whole units from `segment_start` that fit in the
    /// chunk: the bytes up to it are free for this upload (computed once
    /// per segment, so that a write makes no division).
    limit: u64,
    /// Index of its first segment in the frame's table.
    first_segment: usize,
    /// Bytes written, no padding.
    len: u64,
}

impl Bump {
    /// A frame with no chunk opened yet, over chunks of at least
    /// `chunk_size` bytes (a multiple of [`COPY_ALIGN`], at least one).
    pub(crate) fn new(chunk_size: u64) -> Bump {
        debug_assert!(
            chunk_size >= COPY_ALIGN && chunk_size.is_multiple_of(COPY_ALIGN),
            "expected the chunk size ({chunk_size}) to be a positive multiple of {COPY_ALIGN}"
        );
        Bump {
            chunk_size,
            end: 0,
            chunk: 0,
            opened: 0,
            top: 0,
            passed: 0,
            reach: 0,
            closed: 0,
            open: None,
        }
    }

    /// Starts the frame again from its first chunk (its chunks stay, to
    /// be opened again).
    pub(crate) fn reset(&mut self) {
        *self = Bump::new(self.chunk_size);
    }

    /// Chunks opened this frame.
    pub(crate) fn chunks_opened(&self) -> usize {
        self.opened
    }

    /// Bytes of the uploads closed this frame, padding included.
    pub(crate) fn closed_bytes(&self) -> u64 {
        self.closed
    }

    /// The room the frame took in its chunks as they were: the chunks it
    /// went past in full and its top in the last, so its uploads' bytes
    /// plus the ends of chunks where an element's unit did not fit (and
    /// never less than [`closed_bytes`](Self::closed_bytes)).
    pub(crate) fn spanned(&self) -> u64 {
        (self.passed + self.top).max(self.closed)
    }

    /// The least chunk that holds the frame's uploads in one piece: its
    /// bytes, and room for the last upload's whole last unit (a chunk
    /// takes an element only where its unit fits). The same figure
    /// whatever chunks the frame had.
    pub(crate) fn one_chunk(&self) -> u64 {
        self.reach.max(self.closed)
    }

    /// Bytes written so far into the open upload (none: 0).
    pub(crate) fn open_len(&self) -> u64 {
        self.open.map_or(0, |open| open.len)
    }

    /// Whether an upload is open.
    pub(crate) fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Opens an upload of elements of `elem` bytes (at least 1) at the
    /// top. An open upload must be closed first.
    pub(crate) fn begin<E>(&mut self, elem: u64, segments_len: usize) -> Result<(), BumpError<E>> {
        debug_assert!(self.open.is_none(), "expected no open upload");
        let elem = elem.max(1);
        let unit = lcm(elem, COPY_ALIGN);
        if unit > self.chunk_size {
            return Err(BumpError::ElementTooLarge {
                unit,
                chunk: self.chunk_size,
            });
        }
        self.open = Some(Open {
            elem,
            unit,
            segment_start: self.top,
            limit: units_end(self.top, unit, self.end),
            first_segment: segments_len,
            len: 0,
        });
        Ok(())
    }

    /// The open upload's room as a [`Cursor`], for its writer to bump
    /// until it is full: no room while no chunk is opened (or no upload
    /// is open). Give it back with [`sync`](Self::sync) before any other
    /// call on the frame.
    #[inline]
    pub(crate) fn cursor(&self) -> Cursor {
        match &self.open {
            Some(open) if self.opened > 0 => Cursor {
                chunk: self.chunk,
                top: self.top,
                limit: open.limit,
            },
            _ => Cursor {
                chunk: self.chunk,
                top: self.top,
                limit: self.top,
            },
        }
    }

    /// Records the bytes written through `cursor` (taken by
    /// [`cursor`](Self::cursor) since the last change of chunk): the top
    /// moves to the cursor's, and the open upload grows by as much. Any
    /// number of times; only the bytes since the last sync count.
    #[inline]
    pub(crate) fn sync(&mut self, cursor: &Cursor) {
        debug_assert!(
            cursor.chunk == self.chunk && cursor.top >= self.top,
            "expected a cursor of the current chunk at or above the top"
        );
        if let Some(open) = &mut self.open
            && cursor.chunk == self.chunk
            && cursor.top >= self.top
        {
            debug_assert!(cursor.top <= open.limit, "expected the cursor in its room");
            open.len += cursor.top - self.top;
            self.top = cursor.top;
        }
    }

    /// The open upload's length with `cursor`'s writes not yet synced.
    pub(crate) fn open_len_with(&self, cursor: &Cursor) -> u64 {
        let pending = if cursor.chunk == self.chunk {
            cursor.top.saturating_sub(self.top)
        } else {
            0
        };
        self.open_len() + pending
    }

    /// Opens the frame's first chunk for the open upload, where no chunk
    /// is opened yet: then [`cursor`](Self::cursor) has room before the
    /// upload's first write. Nothing where a chunk is opened (or no upload
    /// is).
    pub(crate) fn open_first<C: Chunks>(
        &mut self,
        chunks: &mut C,
    ) -> Result<(), BumpError<C::Error>> {
        let Some(open) = &mut self.open else {
            return Ok(());
        };
        if self.opened > 0 {
            return Ok(());
        }
        let size = chunks.open(0).map_err(BumpError::Chunk)?;
        if units_end(0, open.unit, size) == 0 {
            return Err(BumpError::ElementTooLarge {
                unit: open.unit,
                chunk: size,
            });
        }
        self.opened = 1;
        self.end = size;
        open.limit = units_end(self.top, open.unit, size);
        Ok(())
    }

    /// Writes `bytes` (whole elements of the open upload) at the top,
    /// continuing in the next chunk where this one ends. On an error the
    /// elements that fitted before it stay written.
    #[inline]
    pub(crate) fn write<C: Chunks>(
        &mut self,
        chunks: &mut C,
        segments: &mut Vec<Segment>,
        mut bytes: &[u8],
    ) -> Result<(), BumpError<C::Error>> {
        if !bytes.is_empty() {
            self.open_first(chunks)?;
        }
        let Some(mut open) = self.open else {
            debug_assert!(false, "expected an open upload");
            return Ok(());
        };
        debug_assert!(
            (bytes.len() as u64).is_multiple_of(open.elem),
            "expected whole elements of {} bytes, got {}",
            open.elem,
            bytes.len()
        );
        while !bytes.is_empty() {
            let free = open.limit - self.top;
            let n = free.min(bytes.len() as u64);
            if n > 0 {
                let (now, rest) = bytes.split_at(n as usize);
                chunks.write(self.chunk, self.top, now);
                self.top += n;
                open.len += n;
                bytes = rest;
            }
            if bytes.is_empty() {
                break;
            }
            // The chunk is full for this upload: its segment ends here (a
            // whole number of units) and it goes on in the next chunk.
            let next = self.chunk + 1;
            debug_assert_eq!(
                next, self.opened,
                "expected the top in the last chunk opened"
            );
            let size = match chunks.open(next) {
                Ok(size) if units_end(0, open.unit, size) > 0 => size,
                Ok(size) => {
                    self.open = Some(open);
                    return Err(BumpError::ElementTooLarge {
                        unit: open.unit,
                        chunk: size,
                    });
                }
                Err(error) => {
                    self.open = Some(open);
                    return Err(BumpError::Chunk(error));
                }
            };
            self.opened = next + 1;
            if self.top > open.segment_start {
                segments.push(Segment {
                    chunk: self.chunk as u32,
                    offset: open.segment_start,
                    size: self.top - open.segment_start,
                });
            }
            self.chunk = next;
            self.passed += self.end;
            self.end = size;
            self.top = 0;
            open.segment_start = 0;
            open.limit = units_end(0, open.unit, size);
        }
        self.open = Some(open);
        Ok(())
    }

    /// Closes the open upload: pads its last segment with zeros to
    /// [`COPY_ALIGN`], and returns its segments (indices into the frame's
    /// table) and its length in bytes, padding excluded.
    pub(crate) fn close<C: Chunks>(
        &mut self,
        chunks: &mut C,
        segments: &mut Vec<Segment>,
    ) -> (Range<usize>, u64) {
        let Some(open) = self.open.take() else {
            debug_assert!(false, "expected an open upload");
            return (segments.len()..segments.len(), 0);
        };
        let end = self.top.next_multiple_of(COPY_ALIGN);
        if end > self.top {
            chunks.zero(self.chunk, self.top, end - self.top);
        }
        if end > open.segment_start {
            segments.push(Segment {
                chunk: self.chunk as u32,
                offset: open.segment_start,
                size: end - open.segment_start,
            });
        }
        let padded: u64 = segments[open.first_segment..]
            .iter()
            .map(|segment| segment.size)
            .sum();
        // In one chunk the upload would start at `closed` and need its
        // whole units there.
        let units = open.len.div_ceil(open.unit).saturating_mul(open.unit);
        self.reach = self.reach.max(self.closed.saturating_add(units));
        self.closed += padded;
        self.top = end;
        (open.first_segment..segments.len(), open.len)
    }
}

/// The end of the whole units of `unit` bytes from `start` that fit in a
/// chunk of `chunk_size` bytes.
const fn units_end(start: u64, unit: u64, chunk_size: u64) -> u64 {
    start + chunk_size.saturating_sub(start) / unit * unit
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The least common multiple of two positive numbers.
pub(crate) const fn lcm(a: u64, b: u64) -> u64 {
    a / gcd(a, b) * b
}

#[cfg(test)]
mod tests;
