//! `RankedRow` (rows gathered with a key beside each value, cut to the
//! least keys) against a naive ledger: every candidate in a `Vec`, sorted
//! by key, cut, after every row; rows mixed with plain rows and other
//! allocations in the arena; values dropped exactly once; a steady frame
//! grows nothing.

use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, FrameRows};

#[derive(Clone, Debug)]
enum Row {
    /// Candidates `(key, value)`, the `keep` least kept; `finish` closes
    /// it by `finish_row` (else by its drop).
    Ranked {
        candidates: Vec<(u16, u32)>,
        keep: u8,
        finish: bool,
    },
    Plain(Vec<u32>),
    Abandoned(Vec<(u16, u32)>),
    /// Another allocation in the writer's arena between rows.
    Elsewhere(u16),
}

fn row() -> impl Strategy<Value = Row> {
    prop_oneof![
        6 => (prop::collection::vec((0u16..50, any::<u32>()), 0..if cfg!(miri) { 24 } else { 120 }), any::<u8>(), any::<bool>())
            .prop_map(|(candidates, keep, finish)| Row::Ranked { candidates, keep: keep % 70, finish }),
        2 => prop::collection::vec(any::<u32>(), 0..30).prop_map(Row::Plain),
        1 => prop::collection::vec((0u16..50, any::<u32>()), 0..30).prop_map(Row::Abandoned),
        1 => (0u16..600).prop_map(Row::Elsewhere),
    ]
}

/// The `keep` least of `candidates` by key, in key order; values of equal
/// keys may come in any order, so the ledger sorts each run of equal keys
/// by value, and so does the check.
fn naive(candidates: &[(u16, u32)], keep: usize) -> Vec<(u16, u32)> {
    let mut sorted = candidates.to_vec();
    sorted.sort_by_key(|&(key, _)| key);
    let cut_key = sorted.get(keep.saturating_sub(1)).map(|&(key, _)| key);
    let mut kept: Vec<_> = sorted.iter().copied().take(keep).collect();
    // Ties at the cut: any of the candidates of the last kept key may be
    // kept, so the check compares keys, and the values of keys below it.
    if let Some(cut) = cut_key {
        kept.retain(|&(key, _)| key < cut);
        kept.extend(
            sorted
                .iter()
                .filter(|&&(key, _)| key == cut)
                .copied()
                .take(keep - kept.len()),
        );
    }
    kept
}

fn run(rows: &[Row]) {
    let arena = FrameArena::new();
    for _frame in 0..2 {
        let mut writer = FrameRows::writer_in(&arena);
        // What each closed row must hold: its keys, and per key its values
        // (as sets: ties come in any order).
        let mut ledger: Vec<Vec<(u16, u32)>> = Vec::new();
        let mut keys_of: Vec<Option<Vec<(u16, u32)>>> = Vec::new();
        for row in rows {
            match row {
                Row::Ranked {
                    candidates,
                    keep,
                    finish,
                } => {
                    let mut open = writer.open_ranked_row(usize::from(*keep));
                    open.extend(candidates.iter().copied());
                    assert_eq!(open.len(), candidates.len());
                    if *finish {
                        open.finish_row();
                    } else {
                        drop(open);
                    }
                    let kept = naive(candidates, usize::from(*keep));
                    ledger.push(kept.iter().map(|&(_, v)| (0, v)).collect());
                    keys_of.push(Some(candidates.clone()));
                }
                Row::Plain(values) => {
                    writer.push_row(values.iter().copied());
                    ledger.push(values.iter().map(|&v| (0, v)).collect());
                    keys_of.push(None);
                }
                Row::Abandoned(candidates) => {
                    let mut open = writer.open_ranked_row(5);
                    open.extend(candidates.iter().copied());
                    open.abandon();
                }
                Row::Elsewhere(bytes) => {
                    arena.alloc_slice_fill_with(usize::from(*bytes), |i| i as u8);
                }
            }
            assert_eq!(writer.rows(), ledger.len());
        }
        let rows_written = writer.finish();
        assert_eq!(rows_written.len(), ledger.len());
        for (i, (got, want)) in rows_written.iter().zip(&ledger).enumerate() {
            match &keys_of[i] {
                None => assert!(
                    got.iter().copied().eq(want.iter().map(|&(_, v)| v)),
                    "row {i}"
                ),
                Some(candidates) => {
                    // Same length; keys in order; each value a candidate of
                    // its key; the keys are the naive cut's keys.
                    assert_eq!(got.len(), want.len(), "row {i}");
                    let key = |v: u32| {
                        candidates
                            .iter()
                            .filter(|&&(_, c)| c == v)
                            .map(|&(k, _)| k)
                            .collect::<Vec<_>>()
                    };
                    let naive_keys: Vec<u16> = naive(candidates, got.len())
                        .iter()
                        .map(|&(k, _)| k)
                        .collect();
                    let mut used = vec![false; candidates.len()];
                    let mut got_keys = Vec::new();
                    for &v in got {
                        // The least-keyed unused candidate with this value.
                        let at = candidates
                            .iter()
                            .enumerate()
                            .filter(|&(j, &(_, c))| c == v && !used[j])
                            .min_by_key(|&(_, &(k, _))| k)
                            .map(|(j, _)| j)
                            .unwrap_or_else(|| {
                                panic!("row {i}: {v} is no candidate ({:?})", key(v))
                            });
                        used[at] = true;
                        got_keys.push(candidates[at].0);
                    }
                    let mut sorted = got_keys.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, naive_keys, "row {i}: the least keys kept");
                    assert!(
                        got_keys.windows(2).all(|w| w[0] <= w[1]),
                        "row {i}: in key order: {got_keys:?}"
                    );
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::proptest_cases(200)))]

    #[test]
    fn ranked_rows_keep_what_a_sort_and_a_cut_keep(
        rows in prop::collection::vec(row(), 0..if cfg!(miri) { 6 } else { 60 }),
    ) {
        run(&rows);
    }
}

/// Keys unique: the row is exactly the naive sort's first `keep`.
#[test]
fn with_unique_keys_a_ranked_row_is_the_sorted_cut() {
    let arena = FrameArena::new();
    let units = if cfg!(miri) { 6 } else { 50 };
    let mut writer = FrameRows::writer_in(&arena);
    for unit in 0..units {
        let mut row = writer.open_ranked_row(7);
        let candidates: Vec<(u32, u32)> =
            (0..40).map(|k| ((k * 37 + unit * 11) % 101, k)).collect();
        row.extend(candidates.iter().copied());
        drop(row);
    }
    let rows = writer.finish();
    for unit in 0..units {
        let mut candidates: Vec<(u32, u32)> =
            (0..40).map(|k| ((k * 37 + unit * 11) % 101, k)).collect();
        candidates.sort_unstable();
        let want: Vec<u32> = candidates.iter().take(7).map(|&(_, v)| v).collect();
        assert_eq!(rows[unit as usize], want[..], "unit {unit}");
    }
}

#[test]
fn cut_and_abandoned_candidates_are_dropped_once_and_kept_ones_not() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    struct Counted(#[allow(dead_code)] u32);
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    let arena = FrameArena::new();
    let mut rows = FrameRows::writer_in(&arena);
    let mut row = rows.open_ranked_row(4);
    row.extend((0..10).map(|i| (10 - i, Counted(i))));
    row.finish_row();
    assert_eq!(DROPS.load(Ordering::Relaxed), 6, "the 6 cut");
    let mut row = rows.open_ranked_row(4);
    row.extend((0..3).map(|i| (i, Counted(i))));
    row.abandon();
    assert_eq!(DROPS.load(Ordering::Relaxed), 9);
    let mut row = rows.open_ranked_row(1);
    row.extend((0..3).map(|i| (i, Counted(i))));
    drop(row);
    assert_eq!(DROPS.load(Ordering::Relaxed), 11);
    let rows = rows.finish();
    assert_eq!((rows.len(), rows.items().len()), (2, 5));
    assert_eq!(DROPS.load(Ordering::Relaxed), 11, "values in rows are kept");
}

/// After the first frame, the values, the offsets and the candidates all
/// start at the most they held: nothing grows, nothing is left behind.
#[test]
fn a_steady_frame_of_ranked_rows_grows_nothing() {
    let mut arena = FrameArena::new();
    let mut used = Vec::new();
    let units: u32 = if cfg!(miri) { 40 } else { 500 };
    for _frame in 0..4 {
        let mut rows = FrameRows::writer_in(&arena);
        for unit in 0..units {
            let mut row = rows.open_ranked_row(10);
            row.extend((0..40u32).map(|k| (((unit * 31 + k * 17) % 1000).abs_diff(unit), k)));
        }
        let rows = rows.finish();
        assert!(rows.iter().all(|row| row.len() == 10));
        used.push(arena.used());
        arena.reset();
    }
    let units = units as usize;
    let steady = (units + 1) * 4 + units * 10 * 4;
    assert_eq!(used[1..], [steady; 3]);
    assert!(used[0] > steady, "{used:?}");
}
