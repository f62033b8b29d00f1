//! Lists of lists, the newcomer trial's hot structure: 5000 units on a grid
//! of 4096 cells, each frame building the per-cell unit lists (units pushed
//! in unit order, so into cells in turn) and the per-unit neighbour lists
//! (the other units of its cell, up to 8; rows in order), then reading
//! both. Every 10th round is a 10× burst (50 000 units). Four ways:
//!
//! * `rows`: tickarena's `FrameRows` (`from_pairs_in` for the cells, a
//!   count and a fill; `from_rows_in` for the neighbours, appended row after
//!   row), in a frame arena reset each frame;
//! * `rows_pushed`: the same through `RowsBuilder`'s pushes, as to a
//!   `Vec<Vec<u32>>` (any order; sorted at `finish`);
//! * `frame_vecs`: a `FrameVec` of `FrameVec`s, in the same kind of arena;
//! * `nested_reuse`: a `Vec<Vec<u32>>` kept across frames, each inner list
//!   cleared and refilled (careful `Local` reuse);
//! * `hand_csr`: hand-flattened CSR in buffers kept across frames: a count
//!   pass, prefix sums, a fill pass.
//!
//! A second pair of groups, `nearest_ordinary` and `nearest_burst`, is the
//! case a game has: each unit's neighbours are the units of the 3 × 3 cells
//! around it, sorted nearest-first and cut to 60, so each row needs a
//! temporary (here the row itself: every candidate pushed, sorted, cut).
//!
//! A burst frame there has 4× the units (each row's candidates grow with
//! them).
//!
//! * `hand_csr`: hand CSR in buffers kept across frames (a `Resource`):
//!   `extend`, `sort`, `truncate`, `push(len)`;
//! * `rows_writer`: `FrameRows::writer_in`, each row built in place
//!   (`open_row`, `extend`, a sort nearest-first, `truncate`), the cells
//!   by `from_pairs_in`, in a frame arena reset each frame;
//! * `rows_pushed_scoped`: what `RowsBuilder` allowed before, a scope per
//!   row for the sort (`scoped`, `extend_row`);
//! * `csr_arena_grown`: the hand CSR in frame-arena `Vec`s grown from empty
//!   each frame; `csr_arena_sized`: the same from `vec_at_last_size`.
//!
//! Each frame's result is read the same way by all (a checksum, compared
//! once before timing). Compare them as a user would, each in its own
//! process, alternating: `scripts/bench-pairs nested nested_ordinary
//! hand_csr rows` (and `nested_burst`; `nearest_ordinary hand_csr
//! rows_writer`, `nearest_burst`).

use std::alloc::Allocator;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tickarena::{FrameArena, FrameRows, FrameVec, RowsBuilder};

const CELLS: usize = 4096;
const UNITS: usize = 5000;
/// A burst frame has this many times the units.
const BURST: usize = 10;
/// Neighbours kept per unit at most.
const NEIGHBOURS: usize = 8;
/// The grid's side, in cells (`CELLS` = `SIDE` × `SIDE`).
const SIDE: usize = 64;
/// Nearest neighbours kept per unit at most, in the `nearest` groups.
const NEAREST: usize = 60;
/// A burst frame of the `nearest` groups has this many times the units
/// (their rows grow with the units too: 4× is about 130 candidates a row).
const NEAREST_BURST: usize = 4;

/// The cell of each unit: a fixed pseudo-random scatter over the grid,
/// clustered (a quarter of the cells hold most units), as a game's are.
fn cells_of(units: usize) -> Vec<u32> {
    (0..units as u64)
        .map(|unit| {
            let h = unit.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let cell = if h % 4 == 0 {
                h
            } else {
                h % (CELLS as u64 / 4)
            };
            (cell % CELLS as u64) as u32
        })
        .collect()
}

/// What every version computes from its lists: read as a game would. Out
/// of line for every contender alike (the compiler inlined it into some and
/// not others).
#[inline(never)]
fn checksum<'r>(
    cells: impl Iterator<Item = &'r [u32]>,
    neighbours: impl Iterator<Item = &'r [u32]>,
) -> u64 {
    let crowded = cells.filter(|units| units.len() > 4).count() as u64;
    let near: u64 = neighbours
        .enumerate()
        .map(|(unit, near)| {
            near.iter()
                .map(|&n| u64::from(n ^ unit as u32))
                .sum::<u64>()
        })
        .sum();
    crowded.wrapping_mul(31).wrapping_add(near)
}

fn with_rows(arena: &FrameArena, cell_of: &[u32]) -> u64 {
    let units = cell_of.iter().enumerate();
    let cells = FrameRows::from_pairs_in(
        CELLS,
        units.map(|(unit, &cell)| (cell as usize, unit as u32)),
        arena,
    );
    let neighbours = FrameRows::from_rows_in(
        cell_of.iter().enumerate().map(|(unit, &cell)| {
            let others = cells[cell as usize]
                .iter()
                .filter(move |&&n| n as usize != unit);
            others.take(NEIGHBOURS).copied()
        }),
        arena,
    );
    checksum(cells.iter(), neighbours.iter())
}

fn with_rows_pushed(arena: &FrameArena, cell_of: &[u32]) -> u64 {
    let mut cells = RowsBuilder::with_capacity_in(CELLS, cell_of.len(), arena);
    for (unit, &cell) in cell_of.iter().enumerate() {
        cells.push(cell as usize, unit as u32);
    }
    let cells: FrameRows<'_, u32> = cells.finish();
    let mut neighbours = RowsBuilder::with_capacity_in(cell_of.len(), cell_of.len() * 4, arena);
    for (unit, &cell) in cell_of.iter().enumerate() {
        let near = cells[cell as usize].iter().filter(|&&n| n as usize != unit);
        neighbours.extend_row(unit, near.take(NEIGHBOURS).copied());
    }
    let neighbours = neighbours.finish();
    checksum(cells.iter(), neighbours.iter())
}

fn with_frame_vecs(arena: &FrameArena, cell_of: &[u32]) -> u64 {
    let mut cells = Vec::with_capacity_in(CELLS, arena);
    cells.resize_with(CELLS, || Vec::new_in(arena));
    for (unit, &cell) in cell_of.iter().enumerate() {
        cells[cell as usize].push(unit as u32);
    }
    let mut neighbours = Vec::with_capacity_in(cell_of.len(), arena);
    for (unit, &cell) in cell_of.iter().enumerate() {
        let mut near = Vec::new_in(arena);
        let others = cells[cell as usize].iter().filter(|&&n| n as usize != unit);
        near.extend(others.take(NEIGHBOURS).copied());
        neighbours.push(near);
    }
    checksum(
        cells.iter().map(Vec::as_slice),
        neighbours.iter().map(Vec::as_slice),
    )
}

/// Nested lists kept across frames.
#[derive(Default)]
struct Nested {
    cells: Vec<Vec<u32>>,
    neighbours: Vec<Vec<u32>>,
}

fn with_nested_reuse(kept: &mut Nested, cell_of: &[u32]) -> u64 {
    kept.cells.resize_with(CELLS, Vec::new);
    kept.cells.iter_mut().for_each(Vec::clear);
    for (unit, &cell) in cell_of.iter().enumerate() {
        kept.cells[cell as usize].push(unit as u32);
    }
    if kept.neighbours.len() < cell_of.len() {
        kept.neighbours.resize_with(cell_of.len(), Vec::new);
    }
    for (unit, &cell) in cell_of.iter().enumerate() {
        let near = &mut kept.neighbours[unit];
        near.clear();
        let others = kept.cells[cell as usize]
            .iter()
            .filter(|&&n| n as usize != unit);
        near.extend(others.take(NEIGHBOURS).copied());
    }
    checksum(
        kept.cells.iter().map(Vec::as_slice),
        kept.neighbours[..cell_of.len()].iter().map(Vec::as_slice),
    )
}

/// CSR buffers kept across frames: starts (rows + 1) and items.
#[derive(Default)]
struct Csr {
    cell_starts: Vec<u32>,
    cursor: Vec<u32>,
    cell_units: Vec<u32>,
    near_starts: Vec<u32>,
    near_units: Vec<u32>,
}

/// Units grouped by cell, by hand, into buffers kept across frames: count,
/// prefix sums, fill (a cursor per cell).
#[inline(always)]
fn group_by_hand<A: Allocator>(
    cell_of: &[u32],
    cell_starts: &mut Vec<u32, A>,
    cursor: &mut Vec<u32, A>,
    cell_units: &mut Vec<u32, A>,
) {
    cell_starts.clear();
    cell_starts.resize(CELLS + 1, 0);
    for &cell in cell_of {
        cell_starts[cell as usize + 1] += 1;
    }
    for cell in 0..CELLS {
        cell_starts[cell + 1] += cell_starts[cell];
    }
    cell_units.clear();
    cell_units.resize(cell_of.len(), 0);
    cursor.clear();
    cursor.extend_from_slice(&cell_starts[..CELLS]);
    for (unit, &cell) in cell_of.iter().enumerate() {
        let at = &mut cursor[cell as usize];
        cell_units[*at as usize] = unit as u32;
        *at += 1;
    }
}

fn with_hand_csr(kept: &mut Csr, cell_of: &[u32]) -> u64 {
    let Csr {
        cell_starts,
        cursor,
        cell_units,
        near_starts,
        near_units,
    } = kept;
    group_by_hand(cell_of, cell_starts, cursor, cell_units);
    let cell = |c: usize| &cell_units[cell_starts[c] as usize..cell_starts[c + 1] as usize];
    // Neighbours: rows in order, appended.
    near_starts.clear();
    near_units.clear();
    near_starts.push(0);
    for (unit, &c) in cell_of.iter().enumerate() {
        let others = cell(c as usize).iter().filter(|&&n| n as usize != unit);
        near_units.extend(others.take(NEIGHBOURS).copied());
        near_starts.push(near_units.len() as u32);
    }
    checksum(
        cell_starts
            .windows(2)
            .map(|w| &cell_units[w[0] as usize..w[1] as usize]),
        near_starts
            .windows(2)
            .map(|w| &near_units[w[0] as usize..w[1] as usize]),
    )
}

/// Each unit's position, in 1/1024ths of a cell: inside its cell.
fn positions_of(cell_of: &[u32]) -> Vec<(u32, u32)> {
    cell_of
        .iter()
        .enumerate()
        .map(|(unit, &cell)| {
            let h = (unit as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 32;
            let (x, y) = (cell as usize % SIDE, cell as usize / SIDE);
            (
                (x as u32) << 10 | (h as u32 & 1023),
                (y as u32) << 10 | ((h >> 10) as u32 & 1023),
            )
        })
        .collect()
}

/// The squared distance between units `a` and `b`: the sort key.
#[inline(always)]
fn distance(at: &[(u32, u32)], a: usize, b: u32) -> u64 {
    let (ax, ay) = at[a];
    let (bx, by) = at[b as usize];
    let (dx, dy) = (u64::from(ax.abs_diff(bx)), u64::from(ay.abs_diff(by)));
    dx * dx + dy * dy
}

/// Sorts `row`, unit `unit`'s candidates, nearest first. One function for
/// every version, out of line: the sort is most of a frame, and a copy of
/// it per version (a closure in a generic function is one per allocator)
/// would put each at its own place in the binary, whose alignment alone
/// moves a version's time by a percent or so; shared, the versions
/// differ only in their buffers.
#[inline(never)]
fn nearest_first(row: &mut [u32], at: &[(u32, u32)], unit: usize) {
    row.sort_unstable_by_key(|&n| distance(at, unit, n));
}

/// Calls `found` with the units of each of the 3 × 3 cells around `home`.
#[inline(always)]
fn for_each_candidate<'c>(
    cell: impl Fn(usize) -> &'c [u32],
    home: u32,
    mut found: impl FnMut(&'c [u32]),
) {
    let (x, y) = (home as usize % SIDE, home as usize / SIDE);
    for cy in y.saturating_sub(1)..(y + 2).min(SIDE) {
        for cx in x.saturating_sub(1)..(x + 2).min(SIDE) {
            found(cell(cy * SIDE + cx));
        }
    }
}

/// The nearest-first rows by hand: CSR in buffers kept across frames.
#[inline(never)]
fn nearest_hand_csr(kept: &mut Csr, cell_of: &[u32], at: &[(u32, u32)]) -> u64 {
    let Csr {
        cell_starts,
        cursor,
        cell_units,
        near_starts,
        near_units,
    } = kept;
    nearest_csr(
        cell_of,
        at,
        [cell_starts, cell_units, cursor, near_starts, near_units],
    )
}

/// The nearest-first rows with `FrameRows::writer_in`, each row in place.
#[inline(never)]
fn nearest_rows_writer(arena: &FrameArena, cell_of: &[u32], at: &[(u32, u32)]) -> u64 {
    let units = cell_of.iter().enumerate();
    let cells = FrameRows::from_pairs_in(
        CELLS,
        units.map(|(unit, &cell)| (cell as usize, unit as u32)),
        arena,
    );
    let mut near = FrameRows::writer_in(arena);
    for (unit, &home) in cell_of.iter().enumerate() {
        let mut row = near.open_row();
        for_each_candidate(
            |c| &cells[c],
            home,
            |units| {
                row.extend(units.iter().copied().filter(|&n| n as usize != unit));
            },
        );
        nearest_first(&mut row, at, unit);
        row.truncate(NEAREST);
    }
    let near = near.finish();
    checksum(cells.iter(), near.iter())
}

/// The nearest-first rows as `RowsBuilder` allowed them before: a scope
/// per row for the sort.
#[inline(never)]
fn nearest_rows_pushed_scoped(arena: &FrameArena, cell_of: &[u32], at: &[(u32, u32)]) -> u64 {
    let units = cell_of.iter().enumerate();
    let cells = FrameRows::from_pairs_in(
        CELLS,
        units.map(|(unit, &cell)| (cell as usize, unit as u32)),
        arena,
    );
    let mut near = RowsBuilder::with_capacity_in(cell_of.len(), cell_of.len() * 16, arena);
    for (unit, &home) in cell_of.iter().enumerate() {
        tickarena::scoped(|temp| {
            let mut found = Vec::with_capacity_in(64, temp);
            for_each_candidate(
                |c| &cells[c],
                home,
                |units| {
                    found.extend(units.iter().copied().filter(|&n| n as usize != unit));
                },
            );
            nearest_first(&mut found, at, unit);
            near.extend_row(unit, found.iter().copied().take(NEAREST));
        });
    }
    let near = near.finish();
    checksum(cells.iter(), near.iter())
}

/// The nearest-first rows as hand CSR writes them, in buffers of any
/// allocator: kept across frames (a `Resource`'s), or frame-arena buffers
/// (grown from empty, or with room for the call site's last size).
#[inline(always)]
fn nearest_csr<A: Allocator>(
    cell_of: &[u32],
    at: &[(u32, u32)],
    [cell_starts, cell_units, cursor, near_starts, near_units]: [&mut Vec<u32, A>; 5],
) -> u64 {
    group_by_hand(cell_of, cell_starts, cursor, cell_units);
    let cell = |c: usize| &cell_units[cell_starts[c] as usize..cell_starts[c + 1] as usize];
    near_starts.clear();
    near_units.clear();
    near_starts.push(0);
    for (unit, &home) in cell_of.iter().enumerate() {
        let start = near_units.len();
        for_each_candidate(cell, home, |units| {
            near_units.extend(units.iter().filter(|&&n| n as usize != unit));
        });
        nearest_first(&mut near_units[start..], at, unit);
        near_units.truncate(start + NEAREST);
        near_starts.push(near_units.len() as u32);
    }
    checksum(
        cell_starts
            .windows(2)
            .map(|w| &cell_units[w[0] as usize..w[1] as usize]),
        near_starts
            .windows(2)
            .map(|w| &near_units[w[0] as usize..w[1] as usize]),
    )
}

#[inline(never)]
fn nearest_csr_arena_grown(arena: &FrameArena, cell_of: &[u32], at: &[(u32, u32)]) -> u64 {
    let mut buffers: [FrameVec<'_, u32>; 5] = core::array::from_fn(|_| Vec::new_in(arena));
    nearest_csr(cell_of, at, buffers.each_mut())
}

#[inline(never)]
fn nearest_csr_arena_sized(arena: &FrameArena, cell_of: &[u32], at: &[(u32, u32)]) -> u64 {
    // One call site per buffer: each keeps its own size. (The near units
    // are cut after each row: the capacity they grew to is what is kept.)
    let mut cell_starts = arena.vec_at_last_size();
    let mut cell_units = arena.vec_at_last_size();
    let mut cursor = arena.vec_at_last_size();
    let mut near_starts = arena.vec_at_last_size();
    let mut near_units = arena.vec_at_last_size();
    nearest_csr(
        cell_of,
        at,
        [
            &mut cell_starts,
            &mut cell_units,
            &mut cursor,
            &mut near_starts,
            &mut near_units,
        ],
    )
}

fn nested(c: &mut Criterion) {
    for (group, units) in [("nested_ordinary", UNITS), ("nested_burst", UNITS * BURST)] {
        let cell_of = cells_of(units);
        let mut arena = FrameArena::new();
        let mut nested_kept = Nested::default();
        let mut csr_kept = Csr::default();
        let expected = with_hand_csr(&mut csr_kept, &cell_of);
        assert_eq!(with_rows(&arena, &cell_of), expected);
        arena.reset();
        assert_eq!(with_rows_pushed(&arena, &cell_of), expected);
        arena.reset();
        assert_eq!(with_frame_vecs(&arena, &cell_of), expected);
        arena.reset();
        assert_eq!(with_nested_reuse(&mut nested_kept, &cell_of), expected);
        let mut group = c.benchmark_group(group);
        group.bench_function("rows", |b| {
            b.iter(|| {
                black_box(with_rows(&arena, black_box(&cell_of)));
                arena.reset();
            })
        });
        group.bench_function("rows_pushed", |b| {
            b.iter(|| {
                black_box(with_rows_pushed(&arena, black_box(&cell_of)));
                arena.reset();
            })
        });
        group.bench_function("frame_vecs", |b| {
            b.iter(|| {
                black_box(with_frame_vecs(&arena, black_box(&cell_of)));
                arena.reset();
            })
        });
        group.bench_function("nested_reuse", |b| {
            b.iter(|| black_box(with_nested_reuse(&mut nested_kept, black_box(&cell_of))))
        });
        group.bench_function("hand_csr", |b| {
            b.iter(|| black_box(with_hand_csr(&mut csr_kept, black_box(&cell_of))))
        });
        group.finish();
    }
}

fn nearest(c: &mut Criterion) {
    for (group, units) in [
        ("nearest_ordinary", UNITS),
        ("nearest_burst", UNITS * NEAREST_BURST),
    ] {
        let cell_of = cells_of(units);
        let at = positions_of(&cell_of);
        let mut arena = FrameArena::new();
        let mut csr_kept = Csr::default();
        let expected = nearest_hand_csr(&mut csr_kept, &cell_of, &at);
        type Version = fn(&FrameArena, &[u32], &[(u32, u32)]) -> u64;
        let versions: [(&str, Version); 4] = [
            ("rows_writer", nearest_rows_writer),
            ("rows_pushed_scoped", nearest_rows_pushed_scoped),
            ("csr_arena_grown", nearest_csr_arena_grown),
            ("csr_arena_sized", nearest_csr_arena_sized),
        ];
        for (name, version) in versions {
            // Twice: the second frame starts at the first one's sizes.
            for _ in 0..2 {
                assert_eq!(version(&arena, &cell_of, &at), expected, "{name}");
                arena.reset();
            }
        }
        let mut group = c.benchmark_group(group);
        group.bench_function("hand_csr", |b| {
            b.iter(|| black_box(nearest_hand_csr(&mut csr_kept, black_box(&cell_of), &at)))
        });
        for (name, version) in versions {
            group.bench_function(name, |b| {
                b.iter(|| {
                    black_box(version(&arena, black_box(&cell_of), &at));
                    arena.reset();
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, nested, nearest);
criterion_main!(benches);
