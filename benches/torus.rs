//! The neighbour lists of a game on a torus, as a game writes them (issue
//! 61's newcomer game): 5000 units on a 1024 × 1024 torus (positions in
//! 1/16ths), cells of 32 × 32, each unit's neighbours the units of the
//! 3 × 3 cells around it (wrapping at the edges) within 48 units, nearest
//! first, cut to 60. The key, the squared torus distance, is computed
//! where the candidate is found, as a game computes it; ties are broken by
//! id, so every version keeps the same rows. A burst frame has 4× the
//! units (about 4× the candidates a row, so the cut matters).
//!
//! * `hand_csr`: CSR in buffers kept across frames (`Resource`s), each
//!   row's `(distance, id)` pairs in a kept list, sorted, cut, the ids
//!   appended: what the newcomer wrote by hand;
//! * `hand_csr_select`: the same with `select_nth_unstable` before the
//!   sort (what `RankedRow` does), for the algorithm's share;
//! * `ranked_row`: `FrameRows::writer_in` and `open_ranked_row(60)`, the
//!   guide's form, the key the distance and the id in one `u64` (ties
//!   broken by id, as the pairs' sort breaks them); the cells by
//!   `from_pairs_in`; in a frame arena reset each frame;
//! * `open_row_sorted`: the guide's earlier form, the open row of ids as
//!   the sort's temporary, each comparison computing two distances;
//! * `builder_pairs_scoped`: `from_pairs_in` for the cells, `RowsBuilder`
//!   for the rows, the pairs sorted in a scope per row.
//!
//! Each frame's rows are read the same way by all (a checksum, compared
//! once before timing). Instructions: `scripts/torus-instructions`;
//! times: `scripts/bench-pairs torus torus_ordinary hand_csr ranked_row`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::{FrameArena, FrameRows, RowsBuilder};

/// The torus's side, in 1/16ths of a unit.
const WORLD: u32 = 1024 * 16;
/// Cells per side: cells of 32 × 32 units.
const SIDE: usize = 32;
const CELLS: usize = SIDE * SIDE;
const CELL: u32 = WORLD / SIDE as u32;
const UNITS: usize = 5000;
/// A burst frame has this many times the units.
const BURST: usize = 4;
/// Neighbours kept per unit at most.
const NEAREST: usize = 60;
/// The radius within which a unit is a neighbour, squared (48 units).
const RADIUS2: u64 = (48 * 16) * (48 * 16);

/// Each unit's position: a fixed pseudo-random scatter, clustered (half
/// the units in a quarter of the world), as a game's are.
fn positions(units: usize) -> Vec<(u32, u32)> {
    (0..units as u64)
        .map(|unit| {
            let h = unit.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let (x, y) = ((h >> 40) as u32 % WORLD, (h >> 16) as u32 % WORLD);
            if unit % 2 == 0 {
                (x / 2, y / 2)
            } else {
                (x, y)
            }
        })
        .collect()
}

fn cell_of(&(x, y): &(u32, u32)) -> u32 {
    (y / CELL) * SIDE as u32 + x / CELL
}

/// The squared distance on the torus: the sort key.
#[inline(always)]
fn torus_distance(at: &[(u32, u32)], a: usize, b: u32) -> u64 {
    let (ax, ay) = at[a];
    let (bx, by) = at[b as usize];
    let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
    let (dx, dy) = (u64::from(dx.min(WORLD - dx)), u64::from(dy.min(WORLD - dy)));
    dx * dx + dy * dy
}

/// Calls `found` with the units of each of the 3 × 3 cells around `home`,
/// wrapping at the torus's edges.
#[inline(always)]
fn for_each_candidate<'c>(
    cell: impl Fn(usize) -> &'c [u32],
    home: u32,
    mut found: impl FnMut(&'c [u32]),
) {
    let (x, y) = (home as usize % SIDE, home as usize / SIDE);
    for dy in [SIDE - 1, 0, 1] {
        for dx in [SIDE - 1, 0, 1] {
            found(cell((y + dy) % SIDE * SIDE + (x + dx) % SIDE));
        }
    }
}

/// Calls `near` with the distance and id of each other unit within the
/// radius, among the units of the 3 × 3 cells around `home`: a row's
/// candidates, each with its key computed where it is found.
#[inline(always)]
fn for_each_near<'c>(
    cell: impl Fn(usize) -> &'c [u32],
    at: &[(u32, u32)],
    unit: usize,
    home: u32,
    mut near: impl FnMut(u64, u32),
) {
    for_each_candidate(cell, home, |units| {
        for &other in units {
            let d = torus_distance(at, unit, other);
            if other as usize != unit && d <= RADIUS2 {
                near(d, other);
            }
        }
    });
}

/// What every version computes from its rows, out of line for all alike.
#[inline(never)]
fn checksum<'r>(rows: impl Iterator<Item = &'r [u32]>) -> u64 {
    rows.enumerate()
        .map(|(unit, near)| {
            near.iter()
                .enumerate()
                .map(|(k, &n)| u64::from(n ^ unit as u32).wrapping_mul(k as u64 + 1))
                .sum::<u64>()
        })
        .fold(0, u64::wrapping_add)
}

/// The buffers hand CSR keeps across frames.
#[derive(Default)]
struct Kept {
    cell_starts: Vec<u32>,
    cursor: Vec<u32>,
    cell_units: Vec<u32>,
    pairs: Vec<(u64, u32)>,
    near_starts: Vec<u32>,
    near_units: Vec<u32>,
}

/// Units grouped by cell into kept buffers: count, prefix sums, fill.
fn group_by_hand(
    cells: &[u32],
    starts: &mut Vec<u32>,
    cursor: &mut Vec<u32>,
    units: &mut Vec<u32>,
) {
    starts.clear();
    starts.resize(CELLS + 1, 0);
    for &cell in cells {
        starts[cell as usize + 1] += 1;
    }
    for cell in 0..CELLS {
        starts[cell + 1] += starts[cell];
    }
    units.clear();
    units.resize(cells.len(), 0);
    cursor.clear();
    cursor.extend_from_slice(&starts[..CELLS]);
    for (unit, &cell) in cells.iter().enumerate() {
        let at = &mut cursor[cell as usize];
        units[*at as usize] = unit as u32;
        *at += 1;
    }
}

fn hand<const SELECT: bool>(kept: &mut Kept, cells: &[u32], at: &[(u32, u32)]) -> u64 {
    let Kept {
        cell_starts,
        cursor,
        cell_units,
        pairs,
        near_starts,
        near_units,
    } = kept;
    group_by_hand(cells, cell_starts, cursor, cell_units);
    let cell = |c: usize| &cell_units[cell_starts[c] as usize..cell_starts[c + 1] as usize];
    near_starts.clear();
    near_units.clear();
    near_starts.push(0);
    for (unit, &home) in cells.iter().enumerate() {
        pairs.clear();
        for_each_near(cell, at, unit, home, |d, other| pairs.push((d, other)));
        if SELECT && pairs.len() > NEAREST {
            pairs.select_nth_unstable(NEAREST);
            pairs.truncate(NEAREST);
        }
        pairs.sort_unstable();
        near_units.extend(pairs.iter().take(NEAREST).map(|&(_, other)| other));
        near_starts.push(near_units.len() as u32);
    }
    checksum(
        near_starts
            .windows(2)
            .map(|w| &near_units[w[0] as usize..w[1] as usize]),
    )
}

fn hand_csr(kept: &mut Kept, cells: &[u32], at: &[(u32, u32)]) -> u64 {
    hand::<false>(kept, cells, at)
}

fn hand_csr_select(kept: &mut Kept, cells: &[u32], at: &[(u32, u32)]) -> u64 {
    hand::<true>(kept, cells, at)
}

fn cells_in<'f>(arena: &'f FrameArena, cells: &[u32]) -> FrameRows<'f, u32> {
    FrameRows::from_pairs_in(
        CELLS,
        cells
            .iter()
            .enumerate()
            .map(|(unit, &cell)| (cell as usize, unit as u32)),
        arena,
    )
}

/// The guide's form: each row gathered with its keys, cut to the nearest.
fn ranked_row(arena: &FrameArena, cells: &[u32], at: &[(u32, u32)]) -> u64 {
    let by_cell = cells_in(arena, cells);
    let mut near = FrameRows::writer_in(arena);
    for (unit, &home) in cells.iter().enumerate() {
        let mut row = near.open_ranked_row(NEAREST);
        // The distance and the id in one word: ties broken by id, as hand
        // CSR's sort of (distance, id) pairs breaks them, in a key that
        // compares at once.
        for_each_near(
            |c| &by_cell[c],
            at,
            unit,
            home,
            |d, other| {
                row.push(d << 32 | u64::from(other), other);
            },
        );
    }
    checksum(near.finish().iter())
}

/// The guide's earlier form: the open row of ids sorted in place, the
/// distances computed again at each comparison.
fn open_row_sorted(arena: &FrameArena, cells: &[u32], at: &[(u32, u32)]) -> u64 {
    let by_cell = cells_in(arena, cells);
    let mut near = FrameRows::writer_in(arena);
    for (unit, &home) in cells.iter().enumerate() {
        let mut row = near.open_row();
        for_each_candidate(
            |c| &by_cell[c],
            home,
            |units| {
                row.extend(units.iter().copied().filter(|&other| {
                    other as usize != unit && torus_distance(at, unit, other) <= RADIUS2
                }));
            },
        );
        row.sort_unstable_by_key(|&other| (torus_distance(at, unit, other), other));
        row.truncate(NEAREST);
    }
    checksum(near.finish().iter())
}

/// `RowsBuilder`, the pairs sorted in a scope per row.
fn builder_pairs_scoped(arena: &FrameArena, cells: &[u32], at: &[(u32, u32)]) -> u64 {
    let by_cell = cells_in(arena, cells);
    let mut near = RowsBuilder::with_capacity_in(cells.len(), cells.len() * 16, arena);
    for (unit, &home) in cells.iter().enumerate() {
        tickarena::scoped(|temp| {
            let mut pairs = Vec::with_capacity_in(64, temp);
            for_each_near(
                |c| &by_cell[c],
                at,
                unit,
                home,
                |d, other| pairs.push((d, other)),
            );
            pairs.sort_unstable();
            near.extend_row(unit, pairs.iter().take(NEAREST).map(|&(_, other)| other));
        });
    }
    checksum(near.finish().iter())
}

fn torus(c: &mut Criterion) {
    for (group, units) in [("torus_ordinary", UNITS), ("torus_burst", UNITS * BURST)] {
        let at = positions(units);
        let cells: Vec<u32> = at.iter().map(cell_of).collect();
        let mut arena = FrameArena::new();
        let mut kept = Kept::default();
        type Version = fn(&FrameArena, &[u32], &[(u32, u32)]) -> u64;
        let versions: [(&str, Version); 3] = [
            ("ranked_row", ranked_row),
            ("open_row_sorted", open_row_sorted),
            ("builder_pairs_scoped", builder_pairs_scoped),
        ];
        let mut kept_select = Kept::default();
        // Every version keeps the same rows (checked once; under callgrind,
        // `scripts/torus-instructions` skips the check, which would run
        // every version of both groups twice, and runs each once instead,
        // so that the frame it counts starts at the sizes of a frame
        // before, as a steady frame does).
        if std::env::var_os("TORUS_NO_CHECK").is_some() {
            hand_csr(&mut kept, &cells, &at);
            hand_csr_select(&mut kept_select, &cells, &at);
            for (_, version) in versions {
                version(&arena, &cells, &at);
                arena.reset();
            }
        } else {
            let expected = hand_csr(&mut kept, &cells, &at);
            assert_eq!(hand_csr_select(&mut Kept::default(), &cells, &at), expected);
            for (name, version) in versions {
                // Twice: the second frame starts at the first one's sizes.
                for _ in 0..2 {
                    assert_eq!(version(&arena, &cells, &at), expected, "{name}");
                    arena.reset();
                }
            }
        }
        let mut group = c.benchmark_group(group);
        group.bench_function("hand_csr", |b| {
            b.iter(|| black_box(hand_csr(&mut kept, black_box(&cells), &at)))
        });
        group.bench_function("hand_csr_select", |b| {
            b.iter(|| black_box(hand_csr_select(&mut kept_select, black_box(&cells), &at)))
        });
        for (name, version) in versions {
            group.bench_function(name, |b| {
                b.iter(|| {
                    black_box(version(&arena, black_box(&cells), &at));
                    arena.reset();
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, torus);
criterion_main!(benches);
