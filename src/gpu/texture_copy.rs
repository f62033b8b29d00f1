//! How a segment of an upload laid out row by row becomes copies into a
//! texture. The arena may split an upload between staging chunks anywhere
//! between two elements, and a buffer-to-texture copy takes whole rows
//! (or a part of one row). A segment becomes at most three copies: the
//! end of its first row, its whole rows, the start of its last row. Plain
//! arithmetic over byte offsets, with no `unsafe` (its tests run natively,
//! not under Miri); the wgpu calls are the frame's.

#![forbid(unsafe_code)]

/// The upload's layout: rows `stride` bytes apart, of which the first
/// `row` bytes are copied (the rest is padding to wgpu's 256), `rows`
/// rows in all.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rows {
    pub(crate) stride: u64,
    pub(crate) row: u64,
    pub(crate) rows: u64,
}

/// One buffer-to-texture copy of a segment: `width` bytes of each of
/// `height` rows, at byte `x` of row `y`, read from `offset` bytes into
/// the segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RowCopy {
    pub(crate) offset: u64,
    pub(crate) x: u64,
    pub(crate) y: u64,
    pub(crate) width: u64,
    pub(crate) height: u64,
}

/// The copies of the segment of `size` bytes that starts `start` bytes
/// into an upload laid out as `rows` says (padding is skipped, and so is
/// what lies past the last row's copied bytes).
pub(crate) fn row_copies(rows: Rows, start: u64, size: u64) -> impl Iterator<Item = RowCopy> {
    let stride = rows.stride.max(1);
    let row = rows.row.min(stride);
    let end = start.saturating_add(size);
    let mut at = start;
    core::iter::from_fn(move || {
        loop {
            let (y, x) = (at / stride, at % stride);
            if at >= end || y >= rows.rows || row == 0 {
                return None;
            }
            if x >= row {
                // Padding: the next row.
                at = (y + 1) * stride;
                continue;
            }
            let copy = if x == 0 && end - at >= row {
                let height = ((end - at - row) / stride + 1).min(rows.rows - y);
                RowCopy {
                    offset: at - start,
                    x: 0,
                    y,
                    width: row,
                    height,
                }
            } else {
                RowCopy {
                    offset: at - start,
                    x,
                    y,
                    width: (row - x).min(end - at),
                    height: 1,
                }
            };
            at = if copy.height > 1 || copy.x + copy.width == row {
                (y + copy.height) * stride
            } else {
                at + copy.width
            };
            return Some(copy);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every copied byte of every row is copied once, from where the
    /// upload holds it, whatever the cuts between segments.
    fn check(rows: Rows, cuts: &[u64]) {
        let mut seen = vec![0u8; (rows.stride * rows.rows) as usize];
        for run in cuts.windows(2) {
            let (start, size) = (run[0], run[1] - run[0]);
            let copies: Vec<RowCopy> = row_copies(rows, start, size).collect();
            assert!(copies.len() <= 3, "{copies:?}");
            for copy in copies {
                assert!(copy.x + copy.width <= rows.row);
                assert!(copy.height == 1 || (copy.x == 0 && copy.width == rows.row));
                for y in copy.y..copy.y + copy.height {
                    for x in copy.x..copy.x + copy.width {
                        let at = y * rows.stride + x;
                        // The copy reads the upload's byte `at` from the
                        // segment's `at - start`.
                        let from = start + copy.offset + (y - copy.y) * rows.stride + (x - copy.x);
                        assert_eq!(from, at);
                        assert!(at < run[1], "read past the segment");
                        seen[at as usize] += 1;
                    }
                }
            }
        }
        for y in 0..rows.rows {
            for x in 0..rows.stride {
                let expected = u8::from(x < rows.row);
                assert_eq!(
                    seen[(y * rows.stride + x) as usize],
                    expected,
                    "({x}, {y}) cuts {cuts:?}"
                );
            }
        }
    }

    #[test]
    fn segments_split_anywhere_copy_every_texel_once() {
        let tight = Rows {
            stride: 256,
            row: 256,
            rows: 9,
        };
        let padded = Rows {
            stride: 256,
            row: 200,
            rows: 9,
        };
        let last = 8 * 256;
        for cuts in [
            vec![0, last + 256],
            vec![0, 40, last + 256],
            vec![0, 256, 800, 804, 1320, last + 256],
            vec![0, 252, 516, 520, 2300, last + 256],
        ] {
            check(tight, &cuts);
        }
        for cuts in [
            vec![0, last + 200],
            vec![0, 40, last + 200],
            vec![0, 200, 256, 800, 804, 1320, last + 200],
            vec![0, 204, 252, 516, 520, 2200, last + 200],
        ] {
            check(padded, &cuts);
        }
    }

    #[test]
    fn an_empty_segment_copies_nothing() {
        let rows = Rows {
            stride: 256,
            row: 256,
            rows: 4,
        };
        assert_eq!(row_copies(rows, 280, 0).count(), 0);
        // A segment of padding alone, too.
        let padded = Rows {
            stride: 256,
            row: 128,
            rows: 4,
        };
        assert_eq!(row_copies(padded, 128, 128).count(), 0);
    }
}
