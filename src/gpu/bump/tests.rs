//! The bump pointer over ordinary buffers (Miri runs these: `cargo miri
//! test --lib gpu`), and a property test against a naive model: each
//! upload's bytes as a `Vec<u8>` ledger, several uploads open at once and
//! written in turns, compared after every step with what its segments
//! hold.

use super::*;
use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Chunks as plain buffers, each a byte that marks "never written" so the
/// tests see every byte the writers touched; at most `limit` chunks.
struct Buffers {
    size: usize,
    chunks: Vec<Vec<u8>>,
    limit: usize,
    /// Each new chunk twice the last, as the upload arena grows them.
    grow: bool,
}

const UNWRITTEN: u8 = 0xAA;

impl Buffers {
    fn new(size: usize, limit: usize) -> Buffers {
        Buffers {
            size,
            chunks: Vec::new(),
            limit,
            grow: false,
        }
    }

    fn growing(size: usize, limit: usize) -> Buffers {
        Buffers {
            grow: true,
            ..Buffers::new(size, limit)
        }
    }

    /// What an upload's segments hold, in order, padding included.
    fn read(&self, table: &[Segment], closed: &Closed) -> Vec<u8> {
        let mut out = Vec::new();
        for s in of_upload(table, closed.span.clone(), closed.upload) {
            let chunk = &self.chunks[s.chunk as usize];
            out.extend_from_slice(&chunk[s.offset as usize..(s.offset + s.size) as usize]);
        }
        out
    }

    fn segments(&self, table: &[Segment], closed: &Closed) -> Vec<(u32, u64, u64)> {
        of_upload(table, closed.span.clone(), closed.upload)
            .map(|s| (s.chunk, s.offset, s.size))
            .collect()
    }
}

#[derive(Debug, PartialEq, Eq)]
struct Full;

impl Chunks for Buffers {
    type Error = Full;
    fn open(&mut self, index: usize) -> Result<u64, Full> {
        assert!(
            index <= self.chunks.len(),
            "chunk {index} opened out of order"
        );
        if index == self.chunks.len() {
            if index >= self.limit {
                return Err(Full);
            }
            let size = if self.grow {
                self.size << index
            } else {
                self.size
            };
            self.chunks.push(vec![UNWRITTEN; size]);
        }
        Ok(self.chunks[index].len() as u64)
    }
}

/// The way `UploadWriter` writes: through its cursor while its room has
/// space, else (synced) in a room it claims; its room's bytes are the
/// buffer's range `room.start..room.end` (the view).
struct Writer {
    open: Open,
    cursor: Cursor,
    blocks: bool,
}

impl Writer {
    fn begin(bump: &mut Bump, elem: u64, segments: &[Segment], blocks: bool) -> Writer {
        Writer {
            open: bump.begin::<Full>(elem, segments.len()).unwrap(),
            cursor: Cursor::default(),
            blocks,
        }
    }

    fn write(
        &mut self,
        bump: &mut Bump,
        chunks: &mut Buffers,
        segments: &mut Vec<Segment>,
        mut bytes: &[u8],
    ) -> Result<(), BumpError<Full>> {
        loop {
            let n = self.cursor.free().min(bytes.len() as u64);
            if n > 0 {
                let at = self.cursor.bump(n).unwrap();
                let room = self.open.room.unwrap();
                let at = (room.view_start() + at) as usize;
                chunks.chunks[room.chunk][at..at + n as usize]
                    .copy_from_slice(&bytes[..n as usize]);
                bytes = &bytes[n as usize..];
            }
            if bytes.is_empty() {
                return Ok(());
            }
            self.open.sync(&self.cursor);
            self.cursor = Cursor::default();
            let room = bump.claim(
                chunks,
                segments,
                &mut self.open,
                bytes.len() as u64,
                self.blocks,
            )?;
            self.cursor = Cursor::at_start(room);
        }
    }

    fn len(&self) -> u64 {
        self.open.len_with(&self.cursor)
    }

    fn close(
        mut self,
        bump: &mut Bump,
        chunks: &mut Buffers,
        segments: &mut Vec<Segment>,
    ) -> Closed {
        self.open.sync(&self.cursor);
        if let (Some(room), Some(padding)) = (self.open.room, self.open.padding()) {
            let from = (room.view_start() + padding.start) as usize;
            let to = (room.view_start() + padding.end) as usize;
            chunks.chunks[room.chunk][from..to].fill(0);
        }
        bump.close(segments, self.open)
    }
}

fn upload(
    bump: &mut Bump,
    chunks: &mut Buffers,
    segments: &mut Vec<Segment>,
    elem: u64,
    data: &[u8],
) -> Closed {
    let mut writer = Writer::begin(bump, elem, segments, false);
    writer.write(bump, chunks, segments, data).unwrap();
    writer.close(bump, chunks, segments)
}

#[test]
fn an_upload_that_fits_is_one_segment() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(64), Buffers::new(64, 4), Vec::new());
    let closed = upload(
        &mut bump,
        &mut chunks,
        &mut segments,
        4,
        &[1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert_eq!(
        (closed.span.clone(), closed.count, closed.len, closed.padded),
        (0..1, 1, 8, 8)
    );
    assert_eq!(chunks.segments(&segments, &closed), [(0, 0, 8)]);
    assert_eq!(chunks.read(&segments, &closed), [1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn a_short_upload_is_padded_with_zeros_to_four_bytes() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(64), Buffers::new(64, 4), Vec::new());
    let closed = upload(
        &mut bump,
        &mut chunks,
        &mut segments,
        2,
        &[7, 7, 9, 9, 5, 5],
    );
    assert_eq!(closed.len, 6);
    assert_eq!(chunks.read(&segments, &closed), [7, 7, 9, 9, 5, 5, 0, 0]);
    // The next upload starts after the padding: the rest of the first
    // one's room went back to the top.
    let next = upload(&mut bump, &mut chunks, &mut segments, 4, &[1; 4]);
    assert_eq!(chunks.segments(&segments, &next), [(0, 8, 4)]);
    assert_eq!(bump.closed_bytes(), 12);
}

#[test]
fn an_upload_across_a_chunk_end_continues_in_the_next_chunk() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(16), Buffers::new(16, 4), Vec::new());
    upload(&mut bump, &mut chunks, &mut segments, 4, &[1; 8]);
    let data: Vec<u8> = (0..24).collect();
    let closed = upload(&mut bump, &mut chunks, &mut segments, 4, &data);
    assert_eq!(closed.len, 24);
    assert_eq!(chunks.segments(&segments, &closed), [(0, 8, 8), (1, 0, 16)]);
    assert_eq!(chunks.read(&segments, &closed), data);
}

#[test]
fn segments_end_on_whole_elements_and_four_bytes() {
    // Elements of 6 bytes: units of 12. A chunk of 16 takes one unit, so
    // the second and third elements go to the next chunks... in units.
    let (mut bump, mut chunks, mut segments) = (Bump::new(16), Buffers::new(16, 8), Vec::new());
    let data: Vec<u8> = (0..30).collect();
    let closed = upload(&mut bump, &mut chunks, &mut segments, 6, &data);
    assert_eq!(closed.len, 30);
    let all = chunks.segments(&segments, &closed);
    for segment in &all[..all.len() - 1] {
        assert_eq!(segment.2 % 12, 0, "{segment:?}");
    }
    let read = chunks.read(&segments, &closed);
    assert_eq!(&read[..30], &data[..]);
    assert_eq!(&read[30..], [0, 0]);
}

#[test]
fn an_element_larger_than_a_chunk_is_refused() {
    let mut bump = Bump::new(16);
    let error = bump.begin::<Full>(20, 0).unwrap_err();
    assert_eq!(
        error,
        BumpError::ElementTooLarge {
            unit: 20,
            chunk: 16
        }
    );
    // 6-byte elements need units of 12; 3-byte ones 12 too; 10-byte ones 20.
    assert!(bump.begin::<Full>(10, 0).is_err());
    assert!(bump.begin::<Full>(3, 0).is_ok());
}

#[test]
fn a_refused_chunk_is_an_error_and_the_elements_before_stay() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(8), Buffers::new(8, 2), Vec::new());
    let mut writer = Writer::begin(&mut bump, 4, &segments, false);
    let error = writer
        .write(&mut bump, &mut chunks, &mut segments, &[3; 24])
        .unwrap_err();
    assert_eq!(error, BumpError::Chunk(Full));
    assert_eq!(writer.len(), 16);
    let closed = writer.close(&mut bump, &mut chunks, &mut segments);
    assert_eq!(closed.len, 16);
    assert_eq!(chunks.read(&segments, &closed), [3; 16]);
}

#[test]
fn reset_starts_again_from_the_first_chunk() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(8), Buffers::new(8, 4), Vec::new());
    upload(&mut bump, &mut chunks, &mut segments, 4, &[1; 20]);
    assert_eq!(bump.chunks_opened(), 3);
    bump.reset();
    segments.clear();
    let closed = upload(&mut bump, &mut chunks, &mut segments, 4, &[2; 4]);
    assert_eq!(chunks.segments(&segments, &closed), [(0, 0, 4)]);
    assert_eq!(chunks.chunks.len(), 3, "no chunk made again");
}

/// An upload alone takes the rest of its chunk in one room; in blocks it
/// takes `MIN_ROOM` first, then rooms as large as what it wrote, each
/// grown in place at the top: one segment either way.
#[test]
fn an_upload_alone_grows_in_place() {
    // Interpreted, a write costs about 2 ms: Miri sees the first three
    // rooms (4 KiB, 4, 8), a native run all five (4 KiB, 4, 8, 16, 32).
    let (writes, rooms_in_blocks): (u32, u32) = if cfg!(miri) { (2_100, 3) } else { (10_000, 5) };
    for blocks in [false, true] {
        let size = 64 * 1024;
        let (mut bump, mut chunks, mut segments) =
            (Bump::new(size), Buffers::new(size as usize, 2), Vec::new());
        let mut writer = Writer::begin(&mut bump, 4, &segments, blocks);
        let mut rooms = 0;
        for i in 0..writes {
            if writer.cursor.free() == 0 {
                rooms += 1;
            }
            writer
                .write(&mut bump, &mut chunks, &mut segments, &i.to_le_bytes())
                .unwrap();
        }
        let closed = writer.close(&mut bump, &mut chunks, &mut segments);
        assert_eq!(closed.count, 1, "blocks: {blocks}");
        assert_eq!(rooms, if blocks { rooms_in_blocks } else { 1 });
        let expected: Vec<u8> = (0..writes).flat_map(u32::to_le_bytes).collect();
        assert_eq!(chunks.read(&segments, &closed), expected);
        assert_eq!(
            bump.spanned(),
            4 * u64::from(writes),
            "the room's rest went back"
        );
    }
}

/// Two uploads open at once, written in turns: each in rooms of its own,
/// their segments interleaved in the table, each reading back whole.
#[test]
fn two_uploads_open_at_once_keep_their_bytes_apart() {
    let size = 16 * 1024;
    let (mut bump, mut chunks, mut segments) =
        (Bump::new(size), Buffers::new(size as usize, 8), Vec::new());
    let mut instances = Writer::begin(&mut bump, 48, &segments, false);
    let mut lines = Writer::begin(&mut bump, 12, &segments, false);
    assert!(bump.had_uploads_together());
    let (mut want_instances, mut want_lines) = (Vec::new(), Vec::new());
    for i in 0..1000u32 {
        let instance = [i as u8; 48];
        instances
            .write(&mut bump, &mut chunks, &mut segments, &instance)
            .unwrap();
        want_instances.extend_from_slice(&instance);
        if i % 3 == 0 {
            let line = [(i % 251) as u8; 24];
            lines
                .write(&mut bump, &mut chunks, &mut segments, &line)
                .unwrap();
            want_lines.extend_from_slice(&line);
        }
    }
    let lines = lines.close(&mut bump, &mut chunks, &mut segments);
    let instances = instances.close(&mut bump, &mut chunks, &mut segments);
    assert_eq!(chunks.read(&segments, &instances), want_instances);
    assert_eq!(chunks.read(&segments, &lines), want_lines);
    assert!(instances.count > 1 && lines.count > 1, "interleaved rooms");
    assert_eq!(
        bump.closed_bytes(),
        (want_instances.len() + want_lines.len()) as u64
    );
    assert!(bump.spanned() >= bump.closed_bytes());
}

#[test]
fn lcm_of_element_sizes_and_four() {
    assert_eq!(lcm(1, 4), 4);
    assert_eq!(lcm(6, 4), 12);
    assert_eq!(lcm(32, 4), 32);
    assert_eq!(lcm(3, 4), 12);
}

/// One step of a frame: a write of `count` elements to open upload
/// `writer % open`, a new upload of `elem`-byte elements, or a close.
#[derive(Clone, Debug)]
enum Step {
    Begin { elem: u64 },
    Write { writer: usize, count: usize },
    Close { writer: usize },
    Reset,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => prop_oneof![
            Just(1u64), Just(2), Just(3), Just(4), Just(6), Just(8), Just(12), Just(32)
        ]
        .prop_map(|elem| Step::Begin { elem }),
        6 => (0usize..4, 0usize..if cfg!(miri) { 12 } else { 600 })
            .prop_map(|(writer, count)| Step::Write { writer, count }),
        2 => (0usize..4).prop_map(|writer| Step::Close { writer }),
        1 => Just(Step::Reset),
    ]
}

fn cases() -> u32 {
    let default = if cfg!(miri) { 4 } else { 256 };
    std::env::var("TICKARENA_PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// After every step, each closed upload of the frame reads back
    /// (through its segments) as the ledger has it, padded with zeros to
    /// 4; each open one has the ledger's length; segments start on 4 and
    /// all but the last are whole units; no two uploads share a byte;
    /// and what the frame counts is the sum of the padded uploads.
    #[test]
    fn segments_hold_what_the_ledger_holds(
        chunk_words in 3u64..2000,
        grow in proptest::bool::ANY,
        blocks in proptest::bool::ANY,
        steps in proptest::collection::vec(step(), 1..if cfg!(miri) { 10 } else { 40 }),
    ) {
        let chunk = chunk_words * 4;
        let (mut bump, mut chunks, mut segments) = (Bump::new(chunk), if grow { Buffers::growing(chunk as usize, 12) } else { Buffers::new(chunk as usize, 100_000) }, Vec::new());
        // The model: each open upload's bytes; each closed one's bytes,
        // where its segments are, and its unit.
        let mut open: Vec<(Writer, Vec<u8>, u64, u64)> = Vec::new();
        let mut ledger: Vec<(Vec<u8>, Closed, u64)> = Vec::new();
        let mut seed = 1u8;
        for step in steps {
            match step {
                Step::Reset => {
                    if !open.is_empty() {
                        continue; // a frame ends with its writers closed
                    }
                    bump.reset();
                    segments.clear();
                    ledger.clear();
                }
                Step::Begin { elem } => {
                    let unit = lcm(elem, 4);
                    if unit > chunk {
                        prop_assert!(bump.begin::<Full>(elem, segments.len()).is_err());
                        continue;
                    }
                    open.push((Writer::begin(&mut bump, elem, &segments, blocks), Vec::new(), elem, unit));
                }
                Step::Write { writer, count } => {
                    if open.is_empty() {
                        continue;
                    }
                    let i = writer % open.len();
                    let (writer, model, elem, _) = &mut open[i];
                    let bytes: Vec<u8> = (0..count as u64 * *elem).map(|_| { seed = seed.wrapping_mul(31).wrapping_add(7); seed }).collect();
                    // Chunks as large as the arena allows (growing ones
                    // stop at 12): a refusal keeps what fitted.
                    match writer.write(&mut bump, &mut chunks, &mut segments, &bytes) {
                        Ok(()) => model.extend_from_slice(&bytes),
                        Err(error) => {
                            prop_assert_eq!(error, BumpError::Chunk(Full));
                            let kept = writer.len() as usize - model.len();
                            model.extend_from_slice(&bytes[..kept]);
                        }
                    }
                    prop_assert_eq!(writer.len(), model.len() as u64);
                }
                Step::Close { writer } => {
                    if open.is_empty() {
                        continue;
                    }
                    let (writer, model, _, unit) = open.remove(writer % open.len());
                    let closed = writer.close(&mut bump, &mut chunks, &mut segments);
                    prop_assert_eq!(closed.len, model.len() as u64);
                    ledger.push((model, closed, unit));
                }
            }
            // Every closed upload of the frame, as the ledger has it.
            let mut claimed: Vec<(u32, u64, u64)> = Vec::new();
            let mut total = 0;
            for (model, closed, unit) in &ledger {
                let mut expected = model.clone();
                expected.resize(model.len().next_multiple_of(4), 0);
                prop_assert_eq!(chunks.read(&segments, closed), expected);
                let all = chunks.segments(&segments, closed);
                prop_assert_eq!(all.len(), closed.count);
                for (i, &(chunk_index, offset, size)) in all.iter().enumerate() {
                    prop_assert_eq!(offset % 4, 0);
                    prop_assert!(offset + size <= chunks.chunks[chunk_index as usize].len() as u64);
                    if i + 1 < all.len() {
                        prop_assert_eq!(size % unit, 0, "segment {:?} of unit {}", (chunk_index, offset, size), unit);
                    }
                    claimed.push((chunk_index, offset, offset + size));
                    total += size;
                }
            }
            // The open uploads' rooms, as far as written, are theirs too.
            for (writer, _, _, _) in &open {
                if let Some(room) = writer.open.room {
                    let top = room.view_start() + writer.cursor.top();
                    if top > room.start {
                        claimed.push((room.chunk as u32, room.start, top));
                    }
                }
            }
            claimed.sort();
            for pair in claimed.windows(2) {
                prop_assert!(pair[0].0 != pair[1].0 || pair[0].2 <= pair[1].1, "overlap {:?}", pair);
            }
            prop_assert_eq!(bump.closed_bytes(), total);
            prop_assert!(bump.spanned() >= total);
        }
    }
}

/// Chunks that double (as the upload arena makes them): an upload goes
/// on in each larger chunk, its segments as large as each chunk allows.
#[test]
fn an_upload_across_growing_chunks_fills_each() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(8), Buffers::growing(8, 4), Vec::new());
    let data: Vec<u8> = (0..40).collect();
    let closed = upload(&mut bump, &mut chunks, &mut segments, 4, &data);
    assert_eq!(closed.len, 40);
    assert_eq!(
        chunks.segments(&segments, &closed),
        [(0, 0, 8), (1, 0, 16), (2, 0, 16)]
    );
    assert_eq!(chunks.read(&segments, &closed), data);
    assert_eq!(
        chunks.chunks.iter().map(Vec::len).collect::<Vec<_>>(),
        [8, 16, 32]
    );
}

/// The room a frame needs: in one chunk, its bytes and its last upload's
/// whole last unit, the same figure whatever chunks it had; as laid out,
/// the chunks it went past plus its top in the last.
#[test]
fn the_room_a_frame_needs_counts_the_unit_that_did_not_fit() {
    for size in [1024, 2048] {
        let (mut bump, mut chunks, mut segments) =
            (Bump::new(1024), Buffers::growing(size, 4), Vec::new());
        upload(&mut bump, &mut chunks, &mut segments, 1, &[1; 1016]);
        // One 6-byte element (8 with its padding): its 12-byte unit does
        // not fit at 1016 in a chunk of 1024.
        upload(&mut bump, &mut chunks, &mut segments, 6, &[2; 6]);
        assert_eq!(bump.closed_bytes(), 1024);
        assert_eq!(bump.one_chunk(), 1028, "chunks of {size}");
        let spanned = if size == 1024 { 1024 + 8 } else { 1024 };
        assert_eq!(bump.spanned(), spanned, "chunks of {size}");
        assert_eq!(bump.chunks_opened(), if size == 1024 { 2 } else { 1 });
    }
}

/// A room whose view is refused is given up unwritten, and no room is
/// claimed in its chunk again: the upload goes on in the next chunk, in a
/// new segment, its length and bytes as written.
#[test]
fn a_room_given_up_unwritten_leaves_the_upload_as_it_was() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(64), Buffers::new(64, 4), Vec::new());
    let mut writer = Writer::begin(&mut bump, 4, &segments, false);
    writer
        .write(&mut bump, &mut chunks, &mut segments, &[1; 8])
        .unwrap();
    // Its room is full up to 64: the next claim grows nothing (the chunk
    // ends), so it is a new room in the next chunk; given up there.
    writer
        .write(&mut bump, &mut chunks, &mut segments, &[2; 56])
        .unwrap();
    writer.open.sync(&writer.cursor);
    writer.cursor = Cursor::default();
    let room = bump
        .claim(&mut chunks, &mut segments, &mut writer.open, 4, false)
        .unwrap();
    assert_eq!(room.chunk, 1);
    writer.open.abandon_room();
    bump.leave_chunk();
    assert_eq!(writer.len(), 64);
    writer
        .write(&mut bump, &mut chunks, &mut segments, &[3; 4])
        .unwrap();
    let closed = writer.close(&mut bump, &mut chunks, &mut segments);
    assert_eq!(chunks.segments(&segments, &closed), [(0, 0, 64), (2, 0, 4)]);
    let mut want = vec![1; 8];
    want.extend([2; 56]);
    want.extend([3; 4]);
    assert_eq!(chunks.read(&segments, &closed), want);
}
