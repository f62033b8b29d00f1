//! `FrameRows` built by `RowsBuilder` against `Vec<Vec<u32>>`
//! (`tests/models/rows.rs`) on random pushes, and what the type promises
//! beside: values never dropped, readers on several threads, frame data.

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::models::rows::{Op, run};
use tickarena::{FrameArena, FrameData, FrameRows, RowsBuilder};

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        20 => (any::<u16>(), any::<u32>()).prop_map(|(row, value)| Op::Push(row, value)),
        3 => (any::<u16>(), prop::collection::vec(any::<u32>(), 0..20))
            .prop_map(|(row, values)| Op::ExtendRow(row, values)),
        2 => any::<u16>().prop_map(Op::Elsewhere),
    ]
}

/// In order: the rows pushed one after the other (the path without a sort).
fn in_order() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec((0u16..64, any::<u32>()), 0..300).prop_map(|mut pushes| {
        pushes.sort_by_key(|&(row, _)| row);
        pushes
            .into_iter()
            .map(|(row, value)| Op::Push(row, value))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(300)))]

    #[test]
    fn rows_match_vecs_of_vecs(
        rows in any::<u16>(),
        ops in prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 400 }),
    ) {
        run(rows, &ops);
    }

    #[test]
    fn rows_pushed_in_order_match_too(ops in in_order()) {
        run(63, &ops);
    }
}

static DROPS: AtomicUsize = AtomicUsize::new(0);

struct Counted(u32);

impl Drop for Counted {
    fn drop(&mut self) {
        DROPS.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn values_in_rows_are_moved_not_dropped_or_copied() {
    let arena = FrameArena::new();
    for in_order in [true, false] {
        let before = DROPS.load(Ordering::Relaxed);
        let mut rows = RowsBuilder::new_in(3, &arena);
        for value in 0..30u32 {
            let row = if in_order {
                value as usize / 10
            } else {
                value as usize % 3
            };
            rows.push(row, Counted(value));
        }
        let rows = rows.finish();
        assert_eq!(DROPS.load(Ordering::Relaxed), before, "a value was dropped");
        assert_eq!(rows.items().len(), 30);
        // Row 1: 10..20 in order, the values 1 mod 3 otherwise; 145 either way.
        assert_eq!(rows[1].iter().map(|c| c.0).sum::<u32>(), 145);
    }
}

#[test]
#[should_panic(expected = "push to row 3 of a RowsBuilder of 3 rows")]
fn a_row_past_the_last_panics_with_both_numbers() {
    let arena = FrameArena::new();
    RowsBuilder::new_in(3, &arena).push(3, 0u8);
}

#[test]
fn rows_given_whole_may_be_long_empty_zero_sized_or_lie_about_their_size() {
    let arena = FrameArena::new();
    // Rows longer than any room left: the buffer grows within a row.
    let long = FrameRows::from_rows_in([0..5000u32, 0..0, 7..9, 0..70_000], &arena);
    assert_eq!(
        long.iter().map(<[u32]>::len).collect::<Vec<_>>(),
        [5000, 0, 2, 70_000]
    );
    assert_eq!(long[2], [7, 8]);
    assert_eq!(long[3][69_999], 69_999);
    // Zero-sized values are counted.
    let units =
        FrameRows::from_rows_in([3usize, 0, 2].map(|n| core::iter::repeat_n((), n)), &arena);
    assert_eq!(units.starts(), [0, 3, 3, 5]);
    // A row whose size hint is wrong still gives all its values.
    struct Liar(u32);
    impl Iterator for Liar {
        type Item = u32;
        fn next(&mut self) -> Option<u32> {
            self.0 = self.0.checked_sub(1)?;
            Some(self.0)
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (0, Some(1))
        }
    }
    let lied = FrameRows::from_rows_in([Liar(3), Liar(0), Liar(40)], &arena);
    assert_eq!(lied[0], [2, 1, 0]);
    assert_eq!(lied[2].len(), 40);
}

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn a_row_that_panics_midway_leaves_the_arena_usable() {
    let mut arena = FrameArena::new();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        FrameRows::from_rows_in(
            (0..4u32).map(|row| {
                (0..10u32).map(move |v| {
                    if row == 2 && v == 5 {
                        panic!("row 2")
                    } else {
                        Counted(v)
                    }
                })
            }),
            &arena,
        );
    }));
    assert!(caught.is_err());
    arena.reset();
    let rows = FrameRows::from_rows_in([[1u8, 2], [3, 4]], &arena);
    assert_eq!(rows.items(), [1, 2, 3, 4]);
}

struct Cells;
impl FrameData for Cells {
    type Of<'f> = FrameRows<'f, u32>;
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn frozen_rows_are_frame_data_read_by_several_threads_without_a_copy() {
    let arena = FrameArena::new();
    let sealed = arena.seal::<Cells>(|arena| {
        let mut cells = RowsBuilder::new_in(64, arena);
        for unit in 0..1000u32 {
            cells.push((unit * 7 % 64) as usize, unit);
        }
        cells.finish()
    });
    let items_at = sealed.with(|cells| cells.items().as_ptr() as usize);
    let sums: Vec<u64> = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..2)
            .map(|half| {
                let sealed = &sealed;
                scope.spawn(move || {
                    sealed.with(|cells| {
                        assert_eq!(cells.items().as_ptr() as usize, items_at);
                        cells
                            .iter()
                            .skip(half * 32)
                            .take(32)
                            .flatten()
                            .map(|&unit| u64::from(unit))
                            .sum::<u64>()
                    })
                })
            })
            .collect();
        readers
            .into_iter()
            .map(|reader| reader.join().unwrap())
            .collect()
    });
    assert_eq!(sums.iter().sum::<u64>(), (0..1000u64).sum::<u64>());
}

mod freeze {
    //! `Freeze::freeze`: a frame `Vec` into a slice, its unused room given
    //! back at the arena's top.

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tickarena::{FrameArena, Freeze};

    #[test]
    fn at_the_top_the_unused_room_goes_back() {
        let arena = FrameArena::new();
        let mut list = Vec::with_capacity_in(10, &arena);
        list.extend([1u32, 2]);
        let frozen = list.freeze();
        assert_eq!(frozen, [1, 2]);
        assert_eq!(arena.used(), 8);
        // The next allocation follows the frozen slice.
        let next = arena.alloc(0u32) as *const u32 as usize;
        assert_eq!(next, frozen.as_ptr() as usize + 8);
    }

    #[test]
    fn below_the_top_it_stays_where_it_is_without_a_copy() {
        let arena = FrameArena::new();
        let mut list = Vec::with_capacity_in(10, &arena);
        list.extend([1u64, 2, 3]);
        let at = list.as_ptr() as usize;
        arena.alloc(9u8); // now the list is not the newest allocation
        let frozen = list.freeze();
        assert_eq!((frozen.as_ptr() as usize, &*frozen), (at, &[1, 2, 3][..]));
        assert_eq!(arena.used(), 81);
    }

    #[test]
    fn empty_and_zero_sized_lists_freeze_to_empty_or_counted_slices() {
        let arena = FrameArena::new();
        assert!(
            Vec::<u64, _>::with_capacity_in(4, &arena)
                .freeze()
                .is_empty()
        );
        assert_eq!(arena.used(), 0);
        let mut units = Vec::new_in(&arena);
        units.extend([(), (), ()]);
        assert_eq!(units.freeze().len(), 3);
    }
}
