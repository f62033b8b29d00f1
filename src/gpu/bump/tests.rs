//! The bump pointer over ordinary buffers (Miri runs these: `cargo miri
//! test --lib gpu`), and a property test against a naive model: each
//! upload's bytes as a `Vec<u8>` ledger, compared after every step with
//! what its segments hold.

use super::*;
use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Chunks as plain buffers, each a byte that marks "never written" so the
/// tests see every byte the bump pointer touched; at most `limit` chunks.
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

    /// What `segments` hold, in order, padding included.
    fn read(&self, segments: &[Segment]) -> Vec<u8> {
        let mut out = Vec::new();
        for s in segments {
            let chunk = &self.chunks[s.chunk as usize];
            out.extend_from_slice(&chunk[s.offset as usize..(s.offset + s.size) as usize]);
        }
        out
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
    fn write(&mut self, index: usize, offset: u64, bytes: &[u8]) {
        let offset = offset as usize;
        self.chunks[index][offset..offset + bytes.len()].copy_from_slice(bytes);
    }
    fn zero(&mut self, index: usize, offset: u64, len: u64) {
        let offset = offset as usize;
        self.chunks[index][offset..offset + len as usize].fill(0);
    }
}

fn upload(
    bump: &mut Bump,
    chunks: &mut Buffers,
    segments: &mut Vec<Segment>,
    elem: u64,
    data: &[u8],
) -> (Range<usize>, u64) {
    bump.begin::<Full>(elem, segments.len()).unwrap();
    bump.write(chunks, segments, data).unwrap();
    bump.close(chunks, segments)
}

#[test]
fn an_upload_that_fits_is_one_segment() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(64), Buffers::new(64, 4), Vec::new());
    let (range, len) = upload(
        &mut bump,
        &mut chunks,
        &mut segments,
        4,
        &[1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert_eq!((range, len), (0..1, 8));
    assert_eq!(
        segments[0],
        Segment {
            chunk: 0,
            offset: 0,
            size: 8
        }
    );
    assert_eq!(chunks.read(&segments), [1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn a_short_upload_is_padded_with_zeros_to_four_bytes() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(64), Buffers::new(64, 4), Vec::new());
    let (_, len) = upload(
        &mut bump,
        &mut chunks,
        &mut segments,
        2,
        &[7, 7, 9, 9, 5, 5],
    );
    assert_eq!(len, 6);
    assert_eq!(chunks.read(&segments), [7, 7, 9, 9, 5, 5, 0, 0]);
    // The next upload starts after the padding.
    let (range, _) = upload(&mut bump, &mut chunks, &mut segments, 4, &[1; 4]);
    assert_eq!(segments[range.start].offset, 8);
    assert_eq!(bump.closed_bytes(), 12);
}

#[test]
fn an_upload_across_a_chunk_end_continues_in_the_next_chunk() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(16), Buffers::new(16, 4), Vec::new());
    upload(&mut bump, &mut chunks, &mut segments, 4, &[1; 8]);
    let data: Vec<u8> = (0..24).collect();
    let (range, len) = upload(&mut bump, &mut chunks, &mut segments, 4, &data);
    assert_eq!(len, 24);
    assert_eq!(
        segments[range.clone()],
        [
            Segment {
                chunk: 0,
                offset: 8,
                size: 8
            },
            Segment {
                chunk: 1,
                offset: 0,
                size: 16
            }
        ]
    );
    assert_eq!(chunks.read(&segments[range]), data);
}

#[test]
fn segments_end_on_whole_elements_and_four_bytes() {
    // Elements of 6 bytes: units of 12. A chunk of 16 takes one unit, so
    // the second and third elements go to the next chunks... in units.
    let (mut bump, mut chunks, mut segments) = (Bump::new(16), Buffers::new(16, 8), Vec::new());
    let data: Vec<u8> = (0..30).collect();
    let (range, len) = upload(&mut bump, &mut chunks, &mut segments, 6, &data);
    assert_eq!(len, 30);
    for segment in &segments[range.start..range.end - 1] {
        assert_eq!(segment.size % 12, 0, "{segment:?}");
    }
    let read = chunks.read(&segments[range]);
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
    bump.begin::<Full>(4, 0).unwrap();
    let error = bump
        .write(&mut chunks, &mut segments, &[3; 24])
        .unwrap_err();
    assert_eq!(error, BumpError::Chunk(Full));
    assert_eq!(bump.open_len(), 16);
    assert!(bump.is_open(), "still open: the caller closes it");
    let (range, len) = bump.close(&mut chunks, &mut segments);
    assert!(!bump.is_open());
    assert_eq!(len, 16);
    assert_eq!(chunks.read(&segments[range]), [3; 16]);
}

#[test]
fn reset_starts_again_from_the_first_chunk() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(8), Buffers::new(8, 4), Vec::new());
    upload(&mut bump, &mut chunks, &mut segments, 4, &[1; 20]);
    assert_eq!(bump.chunks_opened(), 3);
    bump.reset();
    segments.clear();
    let (range, _) = upload(&mut bump, &mut chunks, &mut segments, 4, &[2; 4]);
    assert_eq!(
        segments[range],
        [Segment {
            chunk: 0,
            offset: 0,
            size: 4
        }]
    );
    assert_eq!(chunks.chunks.len(), 3, "no chunk made again");
}

/// The way `UploadWriter` writes: through a cursor held between writes
/// while it has room, else (synced first) through `write`, then a fresh
/// cursor. `None`: the cursor has no room (the writer holds no view).
struct Writer {
    cursor: Option<Cursor>,
}

impl Writer {
    fn new(bump: &Bump) -> Writer {
        let cursor = bump.cursor();
        Writer {
            cursor: (cursor.free() > 0).then_some(cursor),
        }
    }

    fn write(
        &mut self,
        bump: &mut Bump,
        chunks: &mut Buffers,
        segments: &mut Vec<Segment>,
        bytes: &[u8],
    ) {
        if let Some(cursor) = &mut self.cursor
            && let Some(at) = cursor.bump(bytes.len() as u64)
        {
            chunks.write(cursor.chunk, at, bytes);
            return;
        }
        self.sync(bump);
        bump.write(chunks, segments, bytes).unwrap();
        *self = Writer::new(bump);
    }

    fn sync(&mut self, bump: &mut Bump) {
        if let Some(cursor) = self.cursor.take() {
            bump.sync(&cursor);
        }
    }

    fn len(&self, bump: &Bump) -> u64 {
        match &self.cursor {
            Some(cursor) => bump.open_len_with(cursor),
            None => bump.open_len(),
        }
    }
}

#[test]
fn a_cursor_takes_only_what_fits_in_an_open_chunk() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(16), Buffers::new(16, 4), Vec::new());
    bump.begin::<Full>(4, 0).unwrap();
    assert_eq!(bump.cursor().free(), 0, "no chunk open yet");
    bump.write(&mut chunks, &mut segments, &[1; 4]).unwrap();
    let mut cursor = bump.cursor();
    assert_eq!((cursor.chunk, cursor.top(), cursor.free()), (0, 4, 12));
    assert_eq!(cursor.bump(4), Some(4));
    chunks.write(0, 4, &[2; 4]);
    assert_eq!(cursor.bump(8), Some(8));
    chunks.write(0, 8, &[3; 8]);
    assert_eq!(cursor.bump(4), None, "the chunk is full");
    assert_eq!(bump.open_len(), 4, "not synced yet");
    assert_eq!(bump.open_len_with(&cursor), 16);
    bump.sync(&cursor);
    bump.sync(&cursor);
    assert_eq!(bump.open_len(), 16, "a second sync adds nothing");
    bump.write(&mut chunks, &mut segments, &[4; 4]).unwrap();
    let (range, len) = bump.close(&mut chunks, &mut segments);
    assert_eq!(len, 20);
    assert_eq!(
        chunks.read(&segments[range]),
        [[1; 4], [2; 4], [3; 4], [3; 4], [4; 4]].concat()
    );
}

/// `UploadWriter::extend` opens the first chunk before its first write,
/// so that its first pass has room from the first element.
#[test]
fn opening_the_first_chunk_gives_the_cursor_room_before_any_write() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(16), Buffers::new(16, 4), Vec::new());
    bump.open_first(&mut chunks).unwrap();
    assert_eq!(bump.chunks_opened(), 0, "nothing to open for: no upload");
    bump.begin::<Full>(4, 0).unwrap();
    bump.open_first(&mut chunks).unwrap();
    assert_eq!(bump.chunks_opened(), 1);
    let mut cursor = bump.cursor();
    assert_eq!((cursor.chunk, cursor.top(), cursor.free()), (0, 0, 16));
    assert_eq!(cursor.bump(8), Some(0));
    chunks.write(0, 0, &[5; 8]);
    bump.sync(&cursor);
    bump.open_first(&mut chunks).unwrap();
    assert_eq!(bump.chunks_opened(), 1, "a second call opens nothing");
    assert_eq!(bump.cursor().top(), 8, "and leaves the top where it was");
    bump.write(&mut chunks, &mut segments, &[6; 12]).unwrap();
    let (range, len) = bump.close(&mut chunks, &mut segments);
    assert_eq!(len, 20);
    assert_eq!(
        chunks.read(&segments[range]),
        [[5; 8].as_slice(), &[6; 12]].concat()
    );
    // A chunk that cannot be had is the chunk's error.
    let (mut bump, mut none) = (Bump::new(16), Buffers::new(16, 0));
    bump.begin::<Full>(4, 0).unwrap();
    assert_eq!(bump.open_first(&mut none), Err(BumpError::Chunk(Full)));
    assert_eq!(bump.cursor().free(), 0);
}

/// A cursor held across a chunk's end: the writer syncs it, the slow
/// write opens the next chunk, and a fresh cursor goes on there; a
/// cursor never synced (a writer dropped mid-way gives it back the same
/// way) leaves the frame as its last sync did.
#[test]
fn a_cursor_survives_crossing_a_chunk_end() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(12), Buffers::new(12, 8), Vec::new());
    bump.begin::<Full>(4, 0).unwrap();
    let mut writer = Writer::new(&bump);
    for i in 0..7u8 {
        writer.write(&mut bump, &mut chunks, &mut segments, &[i; 4]);
        assert_eq!(writer.len(&bump), 4 * (u64::from(i) + 1));
    }
    assert_eq!(
        writer.cursor.map(|c| c.chunk),
        Some(2),
        "the cursor moved on to the third chunk"
    );
    writer.sync(&mut bump);
    let (range, len) = bump.close(&mut chunks, &mut segments);
    assert_eq!(len, 28);
    assert_eq!(segments[range.clone()].len(), 3);
    assert_eq!(
        chunks.read(&segments[range]),
        (0..7u8).flat_map(|i| [i; 4]).collect::<Vec<_>>()
    );
}

#[test]
fn lcm_of_element_sizes_and_four() {
    assert_eq!(lcm(1, 4), 4);
    assert_eq!(lcm(6, 4), 12);
    assert_eq!(lcm(32, 4), 32);
    assert_eq!(lcm(3, 4), 12);
}

/// One step of a frame: an upload of `count` elements of `elem` bytes,
/// written in pieces of `piece` elements.
#[derive(Clone, Debug)]
struct Step {
    elem: u64,
    count: usize,
    piece: usize,
    reset: bool,
    /// The first chunk opened before the upload's first write, as
    /// `UploadWriter::extend` does.
    open_first: bool,
}

fn step() -> impl Strategy<Value = Step> {
    (
        prop_oneof![
            Just(1u64),
            Just(2),
            Just(3),
            Just(4),
            Just(6),
            Just(8),
            Just(12),
            Just(32)
        ],
        0usize..if cfg!(miri) { 12 } else { 40 },
        1usize..9,
        proptest::bool::weighted(0.1),
        proptest::bool::ANY,
    )
        .prop_map(|(elem, count, piece, reset, open_first)| Step {
            elem,
            count,
            piece,
            reset,
            open_first,
        })
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

    /// After every step, each upload of the frame reads back (through its
    /// segments) as the ledger has it, padded with zeros to 4; segments
    /// start on 4 and all but the last are whole units; no two uploads
    /// share a byte; and what the frame counts is the sum of the padded
    /// uploads.
    #[test]
    fn segments_hold_what_the_ledger_holds(
        chunk_words in 3u64..20,
        grow in proptest::bool::ANY,
        steps in proptest::collection::vec(step(), 1..if cfg!(miri) { 8 } else { 24 }),
    ) {
        let chunk = chunk_words * 4;
        let (mut bump, mut chunks, mut segments) = (Bump::new(chunk), if grow { Buffers::growing(chunk as usize, 12) } else { Buffers::new(chunk as usize, 1000) }, Vec::new());
        // The model: each upload's bytes, and its segments' range.
        let mut ledger: Vec<(Vec<u8>, Range<usize>, u64)> = Vec::new();
        let mut seed = 1u8;
        for step in steps {
            if step.reset {
                bump.reset();
                segments.clear();
                ledger.clear();
            }
            let unit = lcm(step.elem, 4);
            if unit > chunk {
                prop_assert!(bump.begin::<Full>(step.elem, segments.len()).is_err());
                continue;
            }
            bump.begin::<Full>(step.elem, segments.len()).unwrap();
            if step.open_first {
                bump.open_first(&mut chunks).unwrap();
            }
            let mut writer = Writer::new(&bump);
            let mut model = Vec::new();
            let mut left = step.count;
            while left > 0 {
                let n = left.min(step.piece);
                let bytes: Vec<u8> = (0..n as u64 * step.elem).map(|_| { seed = seed.wrapping_mul(31).wrapping_add(7); seed }).collect();
                // As `UploadWriter` writes: through its cursor where the
                // piece fits, else synced and through `write`.
                writer.write(&mut bump, &mut chunks, &mut segments, &bytes);
                model.extend_from_slice(&bytes);
                left -= n;
                prop_assert_eq!(writer.len(&bump), model.len() as u64);
            }
            writer.sync(&mut bump);
            let (range, len) = bump.close(&mut chunks, &mut segments);
            prop_assert_eq!(len, model.len() as u64);
            ledger.push((model, range, unit));
            // Every upload of the frame, as the ledger has it.
            let mut claimed: Vec<(u32, u64, u64)> = Vec::new();
            let mut total = 0;
            for (model, range, unit) in &ledger {
                let mut expected = model.clone();
                expected.resize(model.len().next_multiple_of(4), 0);
                prop_assert_eq!(chunks.read(&segments[range.clone()]), expected);
                for (i, s) in segments[range.clone()].iter().enumerate() {
                    prop_assert_eq!(s.offset % 4, 0);
                    prop_assert!(s.offset + s.size <= chunks.chunks[s.chunk as usize].len() as u64);
                    if i + 1 < range.len() {
                        prop_assert_eq!(s.size % unit, 0, "segment {:?} of unit {}", s, unit);
                    }
                    claimed.push((s.chunk, s.offset, s.offset + s.size));
                    total += s.size;
                }
            }
            claimed.sort();
            for pair in claimed.windows(2) {
                prop_assert!(pair[0].0 != pair[1].0 || pair[0].2 <= pair[1].1, "overlap {:?}", pair);
            }
            prop_assert_eq!(bump.closed_bytes(), total);
        }
    }
}

/// Chunks that double (as the upload arena makes them): an upload goes
/// on in each larger chunk, its segments as large as each chunk allows.
#[test]
fn an_upload_across_growing_chunks_fills_each() {
    let (mut bump, mut chunks, mut segments) = (Bump::new(8), Buffers::growing(8, 4), Vec::new());
    let data: Vec<u8> = (0..40).collect();
    let (range, len) = upload(&mut bump, &mut chunks, &mut segments, 4, &data);
    assert_eq!(len, 40);
    assert_eq!(
        segments[range.clone()]
            .iter()
            .map(|s| (s.chunk, s.size))
            .collect::<Vec<_>>(),
        [(0, 8), (1, 16), (2, 16)]
    );
    assert_eq!(chunks.read(&segments[range]), data);
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
