//! `RowsWriter`/`OpenRow` (rows built in place) against a naive ledger,
//! `Vec<Vec<u32>>`, checked after every step: random pushes, extends,
//! sorts, cuts, pops, closes and abandons, other allocations in the arena
//! while a row is open (so the values cannot always grow in place), and
//! searches in a scope. And `FrameArena::vec_at_last_size`: sizes kept per
//! call site, following the retention windows.

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, FrameRows, RowsWriter};

#[derive(Clone, Debug)]
enum Op {
    Push(u32),
    Extend(Vec<u32>),
    /// Sorted one way (`true`: descending).
    Sort(bool),
    Truncate(u8),
    Pop,
    Clear,
    /// Values found in a scope's temporary, sorted there, the first `.1`
    /// kept.
    Scoped(Vec<u32>, u8),
    /// Another allocation in the writer's arena, of this many bytes.
    Elsewhere(u16),
    Close,
    Abandon,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        20 => any::<u32>().prop_map(Op::Push),
        5 => prop::collection::vec(any::<u32>(), 0..40).prop_map(Op::Extend),
        3 => any::<bool>().prop_map(Op::Sort),
        3 => any::<u8>().prop_map(|len| Op::Truncate(len % 48)),
        2 => Just(Op::Pop),
        1 => Just(Op::Clear),
        2 => (prop::collection::vec(any::<u32>(), 0..40), any::<u8>())
            .prop_map(|(values, keep)| Op::Scoped(values, keep % 32)),
        2 => (0u16..600).prop_map(Op::Elsewhere),
        6 => Just(Op::Close),
        2 => Just(Op::Abandon),
    ]
}

/// The closed rows the writer shows (its `Debug` lists them) against the
/// ledger's.
fn check_closed(writer: &RowsWriter<'_, u32>, closed: &[Vec<u32>]) {
    assert_eq!(writer.rows(), closed.len());
    assert_eq!(writer.len(), closed.iter().map(Vec::len).sum::<usize>());
    assert_eq!(format!("{writer:?}"), format!("{closed:?}"));
}

/// Runs `ops` in two frames of one arena (the second starts at the first's
/// sizes), each checked step by step against the ledger; a row still open
/// at the end is closed.
fn run(ops: &[Op]) {
    let mut arena = FrameArena::builder().reserve(64 << 20).build().unwrap();
    for _frame in 0..2 {
        let mut closed: Vec<Vec<u32>> = Vec::new();
        let mut writer = FrameRows::writer_in(&arena);
        let mut at = 0;
        while at < ops.len() {
            match &ops[at] {
                Op::Elsewhere(bytes) => {
                    arena.alloc_slice_fill_with(usize::from(*bytes), |i| i as u8);
                    at += 1;
                }
                Op::Abandon => at += 1, // no row open: nothing to take back
                _ => {
                    // A row opens for the steps up to its close or abandon.
                    let mut row = writer.open_row();
                    let mut model: Vec<u32> = Vec::new();
                    let mut abandoned = false;
                    while at < ops.len() {
                        let step = &ops[at];
                        at += 1;
                        match step {
                            Op::Push(value) => {
                                row.push(*value);
                                model.push(*value);
                            }
                            Op::Extend(values) => {
                                row.extend(values.iter().copied());
                                model.extend_from_slice(values);
                            }
                            Op::Sort(descending) => {
                                if *descending {
                                    row.sort_unstable_by(|a, b| b.cmp(a));
                                    model.sort_unstable_by(|a, b| b.cmp(a));
                                } else {
                                    row.sort_unstable();
                                    model.sort_unstable();
                                }
                            }
                            Op::Truncate(len) => {
                                row.truncate(usize::from(*len));
                                model.truncate(usize::from(*len));
                            }
                            Op::Pop => assert_eq!(row.pop(), model.pop()),
                            Op::Clear => {
                                row.clear();
                                model.clear();
                            }
                            Op::Scoped(values, keep) => {
                                tickarena::scoped(|temp| {
                                    let mut found = Vec::with_capacity_in(4, temp);
                                    found.extend_from_slice(values);
                                    found.sort_unstable();
                                    row.extend(found.iter().copied().take(usize::from(*keep)));
                                });
                                let mut found = values.clone();
                                found.sort_unstable();
                                model.extend(found.into_iter().take(usize::from(*keep)));
                            }
                            Op::Elsewhere(bytes) => {
                                arena.alloc_slice_fill_with(usize::from(*bytes), |i| i as u8);
                            }
                            Op::Close => break,
                            Op::Abandon => {
                                abandoned = true;
                                break;
                            }
                        }
                        assert_eq!(*row, model[..], "the open row after {step:?}");
                        assert_eq!(row.len(), model.len());
                    }
                    if abandoned {
                        row.abandon();
                    } else {
                        row.finish_row();
                        closed.push(model);
                    }
                }
            }
            check_closed(&writer, &closed);
        }
        let rows = writer.finish();
        assert_eq!(rows.len(), closed.len());
        for (row, model) in rows.iter().zip(&closed) {
            assert_eq!(row, &model[..]);
        }
        let mut end = 0;
        for (r, model) in closed.iter().enumerate() {
            assert_eq!(rows.starts()[r] as usize, end);
            end += model.len();
        }
        assert_eq!(rows.starts().last().copied(), Some(end as u32));
        assert_eq!(rows.items().len(), end);
        arena.reset();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(300)))]

    #[test]
    fn rows_written_in_place_match_vecs_of_vecs(
        ops in prop::collection::vec(op(), 0..if cfg!(miri) { 40 } else { 300 }),
    ) {
        run(&ops);
    }
}

#[test]
fn a_steady_frame_grows_nothing_and_leaves_nothing_behind() {
    let mut arena = FrameArena::new();
    let mut used = Vec::new();
    let units: u32 = if cfg!(miri) { 60 } else { 500 };
    for _frame in 0..4 {
        let mut rows = FrameRows::writer_in(&arena);
        for unit in 0..units {
            let mut row = rows.open_row();
            // 40 candidates, the nearest 10 kept: the row is the temporary.
            row.extend((0..40).map(|k| (unit * 31 + k * 17) % 1000));
            row.sort_unstable_by_key(|&other| other.abs_diff(unit));
            row.truncate(10);
        }
        let rows = rows.finish();
        assert_eq!(rows.len(), units as usize);
        assert!(rows.iter().all(|row| row.len() == 10));
        used.push(arena.used());
        arena.reset();
    }
    // The first frame grew both buffers (copies left behind); the later
    // ones start at the most they held (the last row's 40 candidates
    // before its cut included) and grow nothing.
    let units = units as usize;
    let steady = (units + 1) * 4 + ((units - 1) * 10 + 40) * 4;
    assert_eq!(used[1..], [steady; 3]);
    assert!(used[0] > steady, "{used:?}");
}

#[test]
fn values_cut_popped_or_abandoned_are_dropped_and_the_rest_are_not() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    struct Counted(#[allow(dead_code)] u32);
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    let arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    let mut row = rows.open_row();
    row.extend((0..10).map(Counted));
    row.truncate(6);
    assert_eq!(DROPS.load(Ordering::Relaxed), 4);
    drop(row.pop());
    assert_eq!(DROPS.load(Ordering::Relaxed), 5);
    row.finish_row();
    let mut row = rows.open_row();
    row.extend((0..3).map(Counted));
    row.abandon();
    assert_eq!(DROPS.load(Ordering::Relaxed), 8);
    let rows = rows.finish();
    assert_eq!(rows.items().len(), 5);
    assert_eq!(DROPS.load(Ordering::Relaxed), 8, "values in rows are kept");
}

#[test]
fn a_writer_dropped_unfinished_drops_its_values() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    struct Counted;
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    let arena = FrameArena::new();
    let mut rows = RowsWriter::with_capacity_in(4, 4, &arena);
    rows.push_row([Counted, Counted]);
    rows.open_row().push(Counted);
    drop(rows);
    assert_eq!(DROPS.load(Ordering::Relaxed), 3);
}

#[test]
fn a_forgotten_row_joins_the_next_one_and_nothing_is_lost() {
    let arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    rows.push_row([1u32]);
    let mut row = rows.open_row();
    row.push(2);
    core::mem::forget(row);
    let mut row = rows.open_row();
    assert_eq!(*row, [2], "the next row shows what the forgotten one left");
    row.push(3);
    drop(row);
    let rows = rows.finish();
    assert_eq!(rows.starts(), [0, 1, 3]);
    assert_eq!(rows[1], [2, 3]);
}

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn a_row_that_panics_midway_is_closed_and_the_arena_stays_usable() {
    let mut arena = FrameArena::new();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut rows = FrameRows::writer_in(&arena);
        for unit in 0..4u32 {
            rows.open_row().extend((0..10).map(|v| {
                if unit == 2 && v == 5 {
                    panic!("row 2")
                } else {
                    v
                }
            }));
        }
    }));
    assert!(caught.is_err());
    arena.reset();
    let mut rows = FrameRows::writer_in(&arena);
    rows.push_row([1u8, 2]);
    assert_eq!(rows.finish().items(), [1, 2]);
}

/// A helper that makes a vector for its caller: `#[track_caller]`, so each
/// caller keeps its own size.
#[track_caller]
fn made_for_caller(arena: &FrameArena) -> tickarena::LastSizeVec<'_, u8> {
    arena.vec_at_last_size()
}

#[test]
fn last_sizes_are_kept_per_call_site_and_follow_the_retention_window() {
    let mut arena = FrameArena::builder().release_after(4).build().unwrap();
    let mut seen = Vec::new();
    // 16 frames: a burst of 1000 at frame 2, 100 otherwise.
    for frame in 0..16 {
        let mut list = arena.vec_at_last_size::<u32>();
        seen.push(list.capacity());
        list.extend(0..if frame == 2 { 1000 } else { 100 });
        drop(list);
        arena.reset();
    }
    // Windows of 4 frames: the burst's window (0..4) and the next (4..8)
    // start at 1000; from frame 8 the burst is forgotten.
    assert_eq!(seen[0], 0);
    assert_eq!(seen[1..3], [100, 100]);
    assert!(seen[3..8].iter().all(|&room| room == 1000), "{seen:?}");
    assert!(seen[8..].iter().all(|&room| room == 100), "{seen:?}");

    // Two callers of one helper: each its own size.
    let mut rooms = Vec::new();
    for _frame in 0..2 {
        let mut small = made_for_caller(&arena);
        let mut large = made_for_caller(&arena);
        rooms.push((small.capacity(), large.capacity()));
        small.extend([1; 20]);
        large.extend([0; 300]);
        drop((small, large));
        arena.reset();
    }
    assert_eq!(rooms, [(0, 0), (20, 300)]);
}

#[test]
fn a_vector_that_grew_records_its_capacity_and_a_cut_one_its_length() {
    let mut arena = FrameArena::new();
    let mut room = Vec::new();
    for frame in 0..3 {
        let mut list = arena.vec_at_last_size::<u64>();
        room.push(list.capacity());
        list.extend(0..600);
        if frame == 1 {
            list.truncate(10); // did not grow: records 10
        }
        drop(list);
        arena.reset();
    }
    // Frame 0 grew (to a capacity of at least 600): recorded; the window
    // keeps the most, so frame 1's 10 does not lower frame 2's start.
    assert_eq!(room[0], 0);
    assert!(room[1] >= 600 && room[2] == room[1], "{room:?}");
}

/// One frame of a search loop: one list for the frame, cleared before
/// each search, as a `Local<Vec<_>>` is; `searches` gives each search's
/// count. The capacity the list started at.
fn searches_in_one_list(arena: &FrameArena, searches: &[u32]) -> usize {
    let mut near = arena.vec_at_last_size::<u32>();
    let room = near.capacity();
    for &found in searches {
        near.clear();
        near.extend(0..found);
    }
    room
}

#[test]
fn a_list_cleared_before_each_search_starts_at_the_most_a_search_needed() {
    // Windows of 2 frames: a size kept only as the previous window's peak
    // is lost after one window if a frame records less than it held.
    let mut arena = FrameArena::builder().release_after(2).build().unwrap();
    let mut rooms = Vec::new();
    for _frame in 0..8 {
        rooms.push(searches_in_one_list(&arena, &[40, 300, 2]));
        arena.reset();
    }
    assert_eq!(rooms[0], 0);
    assert!(rooms[1..].iter().all(|&room| room >= 300), "{rooms:?}");
}

#[test]
fn a_list_cleared_before_each_search_follows_a_burst_down() {
    // A burst's search needs 5000 at frame 1; the size stays for its
    // window (frames 0..4) and the next (4..8), then goes back to the
    // ordinary searches' 300, as the retention gives the burst's pages
    // back: a burst does not keep every later frame's list large.
    let mut arena = FrameArena::builder().release_after(4).build().unwrap();
    let mut rooms = Vec::new();
    for frame in 0..16 {
        let burst: &[u32] = if frame == 1 {
            &[300, 5000, 7]
        } else {
            &[40, 300, 2]
        };
        rooms.push(searches_in_one_list(&arena, burst));
        arena.reset();
    }
    assert!(rooms[2..8].iter().all(|&room| room >= 5000), "{rooms:?}");
    assert!(
        rooms[8..].iter().all(|&room| (300..5000).contains(&room)),
        "{rooms:?}"
    );
}

/// A panic's message.
fn panic_text(payload: Box<dyn std::any::Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(text) => *text,
        Err(payload) => payload.downcast_ref::<&str>().unwrap().to_string(),
    }
}

/// A writer whose values have room for 16 bytes and whose offsets have
/// room for none more, in an arena with no room left.
fn full_writer(arena: &FrameArena) -> RowsWriter<'_, u8> {
    let writer = RowsWriter::with_capacity_in(0, 16, arena);
    let left = arena.stats().reserved - arena.used();
    arena
        .try_alloc_uninit_slice::<u8>(left)
        .expect("the rest of the reservation");
    writer
}

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn a_row_that_cannot_be_closed_is_taken_back_and_named() {
    let arena = FrameArena::builder().reserve(1 << 16).build().unwrap();
    // Closed by `finish_row`: it panics there, the row taken back.
    let mut rows = full_writer(&arena);
    let mut row = rows.open_row();
    row.push(1); // fits the values' room; the offsets have room for none
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| row.finish_row()));
    let message = panic_text(caught.unwrap_err());
    assert!(
        message.contains("refused room for another row's offset"),
        "{message}"
    );
    assert_eq!((rows.rows(), rows.len()), (0, 0));
}

#[test]
#[cfg_attr(panic = "abort", ignore = "unwinds")]
fn a_row_dropped_that_cannot_be_closed_panics_at_the_next_use_not_in_the_drop() {
    let arena = FrameArena::builder().reserve(1 << 16).build().unwrap();
    let mut rows = full_writer(&arena);
    rows.open_row().push(1); // dropped: no panic in the drop
    assert_eq!((rows.rows(), rows.len()), (0, 0), "taken back");
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        rows.open_row();
    }));
    let message = panic_text(caught.unwrap_err());
    assert!(
        message.contains("refused room for another row's offset"),
        "{message}"
    );
}
