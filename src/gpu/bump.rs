//! Where a frame's uploads land in its staging chunks: the bump pointer,
//! the rooms it hands to the uploads being written, and the segments an
//! upload leaves in them. Plain arithmetic over offsets; the bytes go
//! through the writers' views of their rooms, which the wgpu side makes
//! over mapped memory (write-only) and the tests over ordinary buffers
//! (Miri runs them).
//!
//! Several uploads may be open at once (a renderer writes instances and
//! debug lines in one pass over its objects). Each writes only in its
//! *room*: bytes of one chunk claimed for it alone at the frame's top.
//! An upload alone in a frame that never had two open at once claims the
//! rest of its chunk, as a single bump pointer would; otherwise rooms are
//! claimed in blocks that grow with the upload (as a `Vec` grows), so
//! that the others find room beside it. A room that ends at the top is
//! grown in place; one that does not is left, and the upload goes on in
//! a new room, as a new segment.
//!
//! Mapped memory is never read, so data once written never moves. Every
//! segment starts on [`COPY_ALIGN`] and, but for an upload's last, is a
//! whole number of *units*: the least multiple of both the element's size
//! and [`COPY_ALIGN`]. So each segment holds whole elements and is a size
//! `copy_buffer_to_buffer` takes, and a segment's copy lands its elements
//! exactly where a single copy of the whole upload would. An upload's last
//! segment is padded with zeros to [`COPY_ALIGN`] (rooms end on a whole
//! unit, so the padding always fits).

#![forbid(unsafe_code)]

use alloc::vec::Vec;
use core::ops::Range;

/// wgpu's `COPY_BUFFER_ALIGNMENT`: copies start and end on multiples of 4.
pub(crate) const COPY_ALIGN: u64 = 4;

/// wgpu's `MAP_ALIGNMENT`: a view of mapped memory starts on a multiple
/// of 8. A new room starts there (its view is the writer's alone); a room
/// grown in place has its view start up to 4 bytes before it, in the
/// room the writer just left.
pub(crate) const MAP_ALIGN: u64 = 8;

/// The least room an upload claims when rooms are claimed in blocks.
pub(crate) const MIN_ROOM: u64 = 4096;

/// A part of an upload in one chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Segment {
    /// The chunk, by its place in the frame's list.
    pub(crate) chunk: u32,
    /// The upload it belongs to (the frame's uploads interleave their
    /// segments in the table when several are open at once).
    pub(crate) upload: u32,
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
}

/// Why a room was refused. The upload keeps what it wrote before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BumpError<E> {
    /// An element (with the padding to [`COPY_ALIGN`] its unit needs) is
    /// larger than a chunk: `unit` bytes against `chunk` bytes.
    ElementTooLarge { unit: u64, chunk: u64 },
    /// The chunk source refused the next chunk.
    Chunk(E),
}

/// Bytes `start..end` of chunk `chunk`, claimed for one upload alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Room {
    pub(crate) chunk: usize,
    pub(crate) start: u64,
    pub(crate) end: u64,
}

impl Room {
    /// Where its view starts: its start, on [`MAP_ALIGN`].
    pub(crate) fn view_start(&self) -> u64 {
        self.start / MAP_ALIGN * MAP_ALIGN
    }
}

/// The writer's place in its room, held between writes (in registers,
/// not re-read from the arena before each element), counted from the
/// room's start: the top and the room's end. A cursor with no room
/// (`top == limit`) sends every write to the slow path, which claims one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// Where the next element goes.
    top: u64,
    /// The end of the room.
    limit: u64,
}

impl Cursor {
    /// A cursor at the start of `room`, counted from its view's start.
    pub(crate) fn at_start(room: Room) -> Cursor {
        Cursor {
            top: room.start - room.view_start(),
            limit: room.end - room.view_start(),
        }
    }

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
    /// The top, in the current chunk: the end of the rooms claimed there.
    top: u64,
    /// The sizes of the chunks before the current one, summed.
    passed: u64,
    /// The room one chunk needs to hold this frame's closed uploads: the
    /// furthest an upload's whole units reach when laid one after the
    /// other from 0 (an upload's room ends on a whole unit).
    reach: u64,
    /// Bytes of uploads closed this frame, padding included.
    closed: u64,
    /// Where the next upload would start were the closed ones laid one
    /// after the other in one chunk, each from [`MAP_ALIGN`].
    laid: u64,
    /// Uploads open now.
    writers: u32,
    /// Uploads begun this frame: the next one's number.
    begun: u32,
    /// Whether two uploads were open at once this frame.
    together: bool,
}

/// An upload being written, held by its writer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Open {
    /// Its number in the frame (its segments carry it).
    id: u32,
    /// The least multiple of `elem` and [`COPY_ALIGN`].
    unit: u64,
    /// Index of its first segment in the frame's table.
    first_segment: usize,
    /// Its room, once it claimed one.
    room: Option<Room>,
    /// Where its segment in the room's chunk began.
    segment_start: u64,
    /// How far it wrote in the room's chunk, as last recorded.
    top: u64,
    /// Bytes written, no padding, as last recorded.
    len: u64,
}

impl Open {
    /// Records the writes made through `cursor` (a cursor of its room):
    /// the upload's length and top move up to the cursor's. Any number of
    /// times; only what is new counts.
    #[inline]
    pub(crate) fn sync(&mut self, cursor: &Cursor) {
        if let Some(room) = self.room {
            let top = room.view_start() + cursor.top;
            debug_assert!(top <= room.end, "expected the cursor in its room");
            if top > self.top {
                self.len += top - self.top;
                self.top = top;
            }
        }
    }

    /// Gives up the room just claimed, unwritten (its view was refused):
    /// the upload's next claim starts a new segment elsewhere, its bytes
    /// up to the room as they were.
    pub(crate) fn abandon_room(&mut self) {
        if let Some(room) = &mut self.room {
            debug_assert_eq!(self.top, room.start, "expected an unwritten room");
            room.end = room.start;
        }
    }

    /// Bytes written, with `cursor`'s writes not yet synced.
    pub(crate) fn len_with(&self, cursor: &Cursor) -> u64 {
        let pending = self.room.map_or(0, |room| {
            (room.view_start() + cursor.top).saturating_sub(self.top)
        });
        self.len + pending
    }

    /// The bytes of zeros its last segment needs to end on
    /// [`COPY_ALIGN`]: where they go, counted from its room's view (the
    /// writer writes them before [`Bump::close`]).
    pub(crate) fn padding(&self) -> Option<Range<u64>> {
        let view = self.room?.view_start();
        let end = self.top.next_multiple_of(COPY_ALIGN);
        (end > self.top).then(|| self.top - view..end - view)
    }
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
            laid: 0,
            writers: 0,
            begun: 0,
            together: false,
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

    /// Whether two uploads were open at once this frame.
    pub(crate) fn had_uploads_together(&self) -> bool {
        self.together
    }

    /// The room the frame took in its chunks as they were: the chunks it
    /// went past in full and its top in the last, so its uploads' bytes
    /// plus the ends of chunks where an element's unit did not fit and
    /// the rooms left unused beside uploads open at once (and never less
    /// than [`closed_bytes`](Self::closed_bytes)).
    pub(crate) fn spanned(&self) -> u64 {
        (self.passed + self.top).max(self.closed)
    }

    /// The least chunk that holds the frame's uploads in one piece: its
    /// bytes, and room for the last upload's whole last unit (a chunk
    /// takes an element only where its unit fits). The same figure
    /// whatever chunks the frame had.
    pub(crate) fn one_chunk(&self) -> u64 {
        self.reach.max(self.laid)
    }

    /// Opens an upload of elements of `elem` bytes (at least 1), its
    /// segments to follow `segments_len` in the frame's table. It has no
    /// room until it [`claim`](Self::claim)s one.
    pub(crate) fn begin<E>(
        &mut self,
        elem: u64,
        segments_len: usize,
    ) -> Result<Open, BumpError<E>> {
        let elem = elem.max(1);
        let unit = lcm(elem, COPY_ALIGN);
        if unit > self.chunk_size {
            return Err(BumpError::ElementTooLarge {
                unit,
                chunk: self.chunk_size,
            });
        }
        let id = self.begun;
        self.begun = self.begun.wrapping_add(1);
        self.writers += 1;
        self.together |= self.writers > 1;
        Ok(Open {
            id,
            unit,
            first_segment: segments_len,
            room: None,
            segment_start: 0,
            top: 0,
            len: 0,
        })
    }

    /// A room for `open` with space for at least one more element (and
    /// for `want` bytes where its chunk has them), its writes up to now
    /// synced into it and its room full (or none claimed yet). Where its
    /// room ends at the top, the room grows in place (the segment goes
    /// on); otherwise its segment ends and a new room is claimed at the
    /// top, in the next chunk where this one has no unit left. `blocks`:
    /// claim blocks that grow with the upload, not the rest of the chunk
    /// (uploads are open at once, or were in an earlier frame).
    pub(crate) fn claim<C: Chunks>(
        &mut self,
        chunks: &mut C,
        segments: &mut Vec<Segment>,
        open: &mut Open,
        want: u64,
        blocks: bool,
    ) -> Result<Room, BumpError<C::Error>> {
        let blocks = blocks || self.together;
        if let Some(room) = open.room {
            debug_assert_eq!(open.top, room.end, "expected a full room");
            if self.opened > 0 && room.chunk == self.chunk && room.end == self.top {
                let end = self.room_end(room.end, open, want, blocks);
                if end > room.end {
                    self.top = end;
                    let room = Room {
                        chunk: self.chunk,
                        start: room.end,
                        end,
                    };
                    open.room = Some(room);
                    return Ok(room);
                }
            }
            if open.top > open.segment_start {
                segments.push(Segment {
                    chunk: room.chunk as u32,
                    upload: open.id,
                    offset: open.segment_start,
                    size: open.top - open.segment_start,
                });
                // Ended: a close after a refused chunk adds it no more.
                open.segment_start = open.top;
            }
        }
        let aligned = self.top.next_multiple_of(MAP_ALIGN);
        if self.opened == 0 || units_end(aligned, open.unit, self.end) <= aligned {
            let next = self.opened;
            let size = chunks.open(next).map_err(BumpError::Chunk)?;
            if units_end(0, open.unit, size) == 0 {
                return Err(BumpError::ElementTooLarge {
                    unit: open.unit,
                    chunk: size,
                });
            }
            self.opened = next + 1;
            self.passed += self.end;
            self.chunk = next;
            self.end = size;
            self.top = 0;
        }
        let start = self.top.next_multiple_of(MAP_ALIGN);
        let end = self.room_end(start, open, want, blocks);
        self.top = end;
        let room = Room {
            chunk: self.chunk,
            start,
            end,
        };
        open.room = Some(room);
        open.segment_start = start;
        open.top = start;
        Ok(room)
    }

    /// Claims nothing more in the current chunk this frame: the next
    /// claim opens the next chunk.
    pub(crate) fn leave_chunk(&mut self) {
        self.top = self.end;
    }

    /// The end of a room from `start` in the current chunk: the rest of
    /// the chunk in whole units, or (in blocks) as much as `want`, the
    /// upload's length so far (so that rooms double as it grows) and
    /// [`MIN_ROOM`] ask, in whole units.
    fn room_end(&self, start: u64, open: &Open, want: u64, blocks: bool) -> u64 {
        let rest = units_end(start, open.unit, self.end);
        if !blocks {
            return rest;
        }
        let block = want.max(open.len).max(MIN_ROOM);
        let block = block.div_ceil(open.unit).saturating_mul(open.unit);
        rest.min(start.saturating_add(block))
    }

    /// Closes `open` (its writes synced, its padding written): its last
    /// segment, padded with zeros to [`COPY_ALIGN`], joins the table, the
    /// rest of its room goes back to the top where nothing was claimed
    /// after it, and it returns its segments' span in the table (those
    /// with its number) with their count, and its length in bytes,
    /// padding excluded.
    pub(crate) fn close(&mut self, segments: &mut Vec<Segment>, open: Open) -> Closed {
        self.writers -= 1;
        if let Some(room) = open.room {
            let end = open.top.next_multiple_of(COPY_ALIGN);
            debug_assert!(end <= room.end, "expected the padding in the room");
            if end > open.segment_start {
                segments.push(Segment {
                    chunk: room.chunk as u32,
                    upload: open.id,
                    offset: open.segment_start,
                    size: end - open.segment_start,
                });
            }
            if room.chunk == self.chunk && room.end == self.top {
                self.top = end;
            }
        }
        let (mut padded, mut count) = (0, 0);
        for segment in &segments[open.first_segment..] {
            if segment.upload == open.id {
                padded += segment.size;
                count += 1;
            }
        }
        // In one chunk the upload would start at `laid` (on MAP_ALIGN)
        // and need its whole units there.
        let units = open.len.div_ceil(open.unit).saturating_mul(open.unit);
        let start = self.laid.next_multiple_of(MAP_ALIGN);
        self.reach = self.reach.max(start.saturating_add(units));
        self.laid = start.saturating_add(padded);
        self.closed += padded;
        Closed {
            span: open.first_segment..segments.len(),
            upload: open.id,
            count,
            len: open.len,
            padded,
        }
    }
}

/// What [`Bump::close`] says of an upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Closed {
    /// The table's span that holds its segments (with others' between,
    /// where uploads were open at once).
    pub(crate) span: Range<usize>,
    /// Its number: its segments are those of the span that carry it.
    pub(crate) upload: u32,
    /// How many segments it has.
    pub(crate) count: usize,
    /// Its bytes, no padding.
    pub(crate) len: u64,
    /// Its bytes with padding: what copies of it write.
    pub(crate) padded: u64,
}

/// The segments of one upload in `table`, in order.
pub(crate) fn of_upload<'t>(
    table: &'t [Segment],
    span: Range<usize>,
    upload: u32,
) -> impl Iterator<Item = &'t Segment> + 't {
    table[span]
        .iter()
        .filter(move |segment| segment.upload == upload)
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
