//! How a run of an image's texels, laid out row by row, is copied into a
//! texture: the upload arena may split an upload between staging chunks
//! anywhere between two texels, and a buffer-to-texture copy takes whole
//! rows (or a part of one row). A run becomes at most three copies: the
//! end of its first row, the whole rows, the start of its last row.

/// One buffer-to-texture copy of a run: `width` x `height` texels at
/// (`x`, `y`) in the texture, from `offset` bytes into the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowCopy {
    pub offset: u64,
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

/// The copies of `texels` texels of 4 bytes, the first being texel
/// `first` of an image `row` texels wide.
pub fn row_copies(first: u64, texels: u64, row: u32) -> impl Iterator<Item = RowCopy> {
    let row = u64::from(row.max(1));
    let end = first + texels;
    let mut at = first;
    std::iter::from_fn(move || {
        if at >= end {
            return None;
        }
        let (x, y) = (at % row, at / row);
        let (width, height) = if x == 0 && end - at >= row {
            (row, (end - at) / row)
        } else {
            ((row - x).min(end - at), 1)
        };
        let copy = RowCopy {
            offset: (at - first) * 4,
            x: x as u32,
            y: y as u32,
            width: width as u32,
            height: height as u32,
        };
        at += width * height;
        Some(copy)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_split_anywhere_copy_every_texel_once() {
        let (row, rows) = (64u32, 9u64);
        let texels = u64::from(row) * rows;
        // The image split into runs at every kind of place: mid-row, at a
        // row's end, a run shorter than a row, a run within one row.
        for cuts in [
            vec![0, texels],
            vec![0, 10, texels],
            vec![0, 64, 200, 201, 330, texels],
            vec![0, 63, 129, 130, 575, texels],
        ] {
            let mut seen = vec![0u8; texels as usize];
            for run in cuts.windows(2) {
                let (first, len) = (run[0], run[1] - run[0]);
                let copies: Vec<RowCopy> = row_copies(first, len, row).collect();
                assert!(copies.len() <= 3, "{copies:?}");
                let mut offset = 0;
                for copy in copies {
                    assert_eq!(copy.offset, offset, "copies follow each other in the run");
                    assert!(copy.x + copy.width <= row);
                    assert!(copy.height == 1 || (copy.x == 0 && copy.width == row));
                    for y in copy.y..copy.y + copy.height {
                        for x in copy.x..copy.x + copy.width {
                            seen[(u64::from(y) * u64::from(row) + u64::from(x)) as usize] += 1;
                        }
                    }
                    offset += u64::from(copy.width * copy.height) * 4;
                }
                assert_eq!(offset, len * 4);
            }
            assert!(seen.iter().all(|&n| n == 1), "cuts {cuts:?}");
        }
    }

    #[test]
    fn an_empty_run_copies_nothing() {
        assert_eq!(row_copies(70, 0, 64).count(), 0);
    }
}
