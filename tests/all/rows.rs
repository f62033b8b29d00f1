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
    let pushes = if cfg!(miri) { 60 } else { 300 };
    prop::collection::vec((0u16..64, any::<u32>()), 0..pushes).prop_map(|mut pushes| {
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
        rows in 0..=if cfg!(miri) { 300 } else { u16::MAX },
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
    // Rows longer than any room left: the buffer grows within a row
    // (under Miri, past the first 64 KiB page run).
    let (first, last) = if cfg!(miri) {
        (500, 20_000)
    } else {
        (5000, 70_000)
    };
    let long = FrameRows::from_rows_in([0..first, 0..0, 7..9, 0..last], &arena);
    assert_eq!(
        long.iter().map(<[u32]>::len).collect::<Vec<_>>(),
        [first as usize, 0, 2, last as usize]
    );
    assert_eq!(long[2], [7, 8]);
    assert_eq!(long[3][last as usize - 1], last - 1);
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

/// Pairs that are walked twice and give `first` the first time, `second`
/// every time after.
#[derive(Clone)]
struct TwoFaced {
    first: &'static [(usize, u32)],
    second: &'static [(usize, u32)],
    walks: std::rc::Rc<std::cell::Cell<usize>>,
    at: usize,
}

impl TwoFaced {
    fn new(first: &'static [(usize, u32)], second: &'static [(usize, u32)]) -> Self {
        let walks = Default::default();
        TwoFaced {
            first,
            second,
            walks,
            at: 0,
        }
    }
}

impl Iterator for TwoFaced {
    type Item = (usize, u32);
    fn next(&mut self) -> Option<(usize, u32)> {
        if self.at == 0 {
            self.walks.set(self.walks.get() + 1);
        }
        let pairs = if self.walks.get() == 1 {
            self.first
        } else {
            self.second
        };
        let pair = pairs.get(self.at).copied();
        self.at += 1;
        pair
    }
}

/// The message of the panic of `build`.
fn panic_of(build: impl FnOnce()) -> String {
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(build)).unwrap_err();
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap()
}

const LIED: &str = "the pairs gave other rows the second time they were walked";

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn pairs_that_give_a_row_other_counts_the_second_time_panic() {
    let arena = FrameArena::new();
    let first: &[_] = &[(0, 1), (1, 2), (1, 3)];
    // A value moved to another row.
    let moved: &[_] = &[(0, 1), (0, 2), (1, 3)];
    // One pair more, one fewer.
    let longer: &[_] = &[(0, 1), (1, 2), (1, 3), (0, 4)];
    let shorter: &[_] = &[(0, 1), (1, 2)];
    // A row past the last (the first walk's rows were all in range).
    let past: &[_] = &[(0, 1), (1, 2), (2, 3)];
    // More values than counted for the last row, fewer in all.
    let last_overfull: &[_] = &[(1, 1), (1, 2), (1, 3)];
    for second in [moved, longer, shorter, past, last_overfull] {
        let message = panic_of(|| {
            FrameRows::from_pairs_in(2, TwoFaced::new(first, second), &arena);
        });
        assert!(message.contains(LIED), "{second:?}: {message}");
    }
    // `group_by_in`'s `row_of` may lie the same way.
    let calls = std::cell::Cell::new(0);
    let message = panic_of(|| {
        let row_of = |&v: &u32| {
            calls.set(calls.get() + 1);
            // The fourth call is the second walk's first value.
            if calls.get() == 4 { 1 } else { v as usize % 2 }
        };
        FrameRows::group_by_in(2, [0u32, 1, 2], row_of, &arena);
    });
    assert!(message.contains(LIED), "{message}");
}

#[test]
fn pairs_that_give_each_row_as_many_values_the_second_time_give_the_second_walk() {
    // What the check cannot see, as documented: the same count per row,
    // other values (here two swapped between rows). The rows hold the
    // second walk's values, each in the row it gave; nothing is lost,
    // duplicated or left unwritten.
    let arena = FrameArena::new();
    let first: &[_] = &[(0, 1), (1, 2), (1, 3)];
    let swapped: &[_] = &[(1, 1), (0, 2), (1, 3)];
    let rows = FrameRows::from_pairs_in(2, TwoFaced::new(first, swapped), &arena);
    assert_eq!(rows.starts(), [0, 1, 3]);
    assert_eq!(rows[0], [2]);
    assert_eq!(rows[1], [1, 3]);
}

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn a_row_past_the_last_or_too_many_rows_panic_with_the_numbers() {
    let arena = FrameArena::new();
    let message = panic_of(|| {
        FrameRows::from_pairs_in(3, [(0, 'a'), (usize::MAX, 'b')], &arena);
    });
    assert!(
        message.contains(&format!("row {} of FrameRows of 3 rows", usize::MAX)),
        "{message}"
    );
    let message = panic_of(|| {
        FrameRows::group_by_in(3, [4usize], |&v| v, &arena);
    });
    assert!(
        message.contains("row 4 of FrameRows of 3 rows"),
        "{message}"
    );
    // Too many rows: refused before anything is allocated.
    let arena = FrameArena::new();
    for rows in [u32::MAX as usize, usize::MAX] {
        let message = panic_of(|| {
            FrameRows::from_pairs_in(rows, [(0, 'a')], &arena);
        });
        assert!(
            message.contains(&format!(
                "FrameRows of {rows} rows: rows are counted in u32s"
            )),
            "{message}"
        );
    }
    assert_eq!(arena.used(), 0);
}

/// Rows, `rows` of them, each `[row]`, whose size hint says
/// `(lower, None)`.
struct Hinted {
    rows: u32,
    lower: usize,
}

impl Iterator for Hinted {
    type Item = core::iter::Once<u32>;
    fn next(&mut self) -> Option<Self::Item> {
        self.rows = self.rows.checked_sub(1)?;
        Some(core::iter::once(self.rows))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.lower, None)
    }
}

#[test]
fn rows_whose_size_hint_is_too_large_are_all_given() {
    // A lower bound of usize::MAX (an endless iterator's, `repeat`'s) or
    // of u32::MAX and more: no FrameRows has that many rows, so it sizes
    // nothing. The rows that do come are all there.
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    for lower in [usize::MAX, usize::MAX - 1, u32::MAX as usize] {
        let rows = FrameRows::from_rows_in(Hinted { rows: 3, lower }, &arena);
        assert_eq!(rows.items(), [2, 1, 0], "{lower}");
        assert_eq!(rows.starts(), [0, 1, 2, 3], "{lower}");
    }
    // The endless iterator itself: stopped by what follows it.
    let rows = FrameRows::from_rows_in(
        core::iter::repeat([7u8]).take_while(|_| true).take(5),
        &arena,
    );
    assert_eq!(rows.items(), [7; 5]);
}
