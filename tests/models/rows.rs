//! `RowsBuilder`/`FrameRows` against `Vec<Vec<T>>` as the model: pushes to
//! random rows (in order or not), whole rows, and other allocations in the
//! arena between pushes (so the builder's list cannot always grow in
//! place); then every row, the packed buffer and the offsets agree, and
//! `FrameRows::from_rows_in`/`from_pairs_in` build the same rows.

use tickarena::{FrameArena, FrameRows, RowsBuilder};

/// One step of building. Rows are reduced into range by [`run`], so any
/// value is valid.
#[derive(Clone, Debug)]
#[cfg_attr(fuzzing, derive(arbitrary::Arbitrary))]
pub enum Op {
    Push(u16, u32),
    ExtendRow(u16, Vec<u32>),
    /// Another allocation in the arena, of this many bytes.
    Elsewhere(u16),
}

/// Builds `rows` rows (at least one) with `ops` in an arena and in the
/// model, then compares them; the arena is reused for a second frame with
/// the same steps, which must give the same rows.
pub fn run(rows: u16, ops: &[Op]) {
    let rows = usize::from(rows % 512) + 1;
    let mut arena = FrameArena::builder().reserve(64 << 20).build().unwrap();
    for _frame in 0..2 {
        let mut model = vec![Vec::new(); rows];
        let mut builder = RowsBuilder::new_in(rows, &arena);
        for op in ops {
            match op {
                Op::Push(row, value) => {
                    let row = usize::from(*row) % rows;
                    builder.push(row, *value);
                    model[row].push(*value);
                }
                Op::ExtendRow(row, values) => {
                    let row = usize::from(*row) % rows;
                    builder.extend_row(row, values.iter().copied());
                    model[row].extend_from_slice(values);
                }
                Op::Elsewhere(bytes) => {
                    arena.alloc_slice_fill_with(usize::from(*bytes % 4096), |_| 0xA5u8);
                }
            }
            assert_eq!(builder.len(), model.iter().map(Vec::len).sum::<usize>());
        }
        let built = builder.finish();
        assert_eq!(built.len(), rows);
        assert!(built.iter().eq(model.iter().map(Vec::as_slice)));
        for (row, values) in model.iter().enumerate() {
            assert_eq!(&built[row], values.as_slice());
        }
        assert_eq!(built.get(rows), None);
        assert_eq!(built.items(), model.concat().as_slice());
        let mut start = 0;
        for (row, values) in model.iter().enumerate() {
            assert_eq!(built.starts()[row] as usize, start);
            start += values.len();
        }
        assert_eq!(built.starts()[rows] as usize, start);
        // The same rows given whole, one after the other, with another
        // allocation before every few (the buffer then moves as it grows),
        // and as (row, value) pairs.
        let elsewhere = ops
            .iter()
            .filter(|op| matches!(op, Op::Elsewhere(_)))
            .count();
        let given = FrameRows::from_rows_in(
            model.iter().enumerate().map(|(row, values)| {
                if elsewhere > 0 && row % (elsewhere + 1) == 0 {
                    arena.alloc_slice_fill_with(row % 61, |_| 0x5Au8);
                }
                values.iter().copied()
            }),
            &arena,
        );
        assert!(given.iter().eq(model.iter().map(Vec::as_slice)));
        assert_eq!(given.starts(), built.starts());
        let pairs = model
            .iter()
            .enumerate()
            .flat_map(|(row, values)| values.iter().map(move |&value| (row, value)));
        let paired = FrameRows::from_pairs_in(rows, pairs, &arena);
        assert_eq!(paired.items(), built.items());
        assert_eq!(paired.starts(), built.starts());
        arena.reset();
    }
}
