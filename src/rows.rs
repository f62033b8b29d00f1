//! [`FrameRows`]: lists of lists in the frame arena, packed like
//! hand-flattened CSR buffers (one element buffer and a start-offset
//! table), built as easily as pushing to a `Vec<Vec<T>>`
//! ([`RowsBuilder`]).
//!
//! Why not a `Vec` per row: many rows filled in turn (a unit into its
//! cell's list, cell after cell) cannot all grow in place, so each growth
//! copies its row and leaves the old block behind; the rows end up spread
//! over the arena. The builder instead appends `(row, value)` pairs to one
//! list, which is the arena's newest allocation while it is filled and
//! grows in place, and [`finish`](RowsBuilder::finish) counts each row,
//! turns the counts into start offsets and places every value in its row:
//! the counting sort a hand-written CSR does, in two sequential passes.
//! Rows pushed in order skip the sort (one copy).

use core::fmt;
use core::mem::MaybeUninit;
use core::ops::Index;

use crate::arena::FrameArena;

/// Lists of lists in a frame arena, frozen: row `r` is
/// `items[starts[r]..starts[r + 1]]`, the rows packed one after the other
/// in one buffer. `Copy`, `Send` and `Sync` (when `T` is `Sync`), so
/// parallel readers share it, and frame data as it is (its parts are
/// slices of the arena). Values in it are never dropped, as with the
/// arena's `alloc*` methods.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, RowsBuilder};
///
/// let arena = FrameArena::new();
/// // Units into the cells of a grid, in any order.
/// let mut cells = RowsBuilder::new_in(4, &arena);
/// for (unit, cell) in [(10u32, 2), (11, 0), (12, 2), (13, 3)] {
///     cells.push(cell, unit);
/// }
/// let cells = cells.finish();
/// assert_eq!(cells.len(), 4);
/// assert_eq!(cells[2], [10, 12]);
/// assert!(cells[1].is_empty());
/// assert_eq!(cells.iter().map(<[u32]>::len).collect::<Vec<_>>(), [1, 0, 2, 1]);
/// assert_eq!(cells.items(), [11, 10, 12, 13]); // packed, row after row
/// ```
pub struct FrameRows<'a, T> {
    /// `rows + 1` offsets into `items`, from 0 to `items.len()`.
    starts: &'a [u32],
    items: &'a [T],
}

impl<T> Clone for FrameRows<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for FrameRows<'_, T> {}

impl<'a, T> FrameRows<'a, T> {
    /// Rows (empty ones included).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let rows = tickarena::RowsBuilder::<u8>::new_in(3, &arena).finish();
    /// assert_eq!(rows.len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there is no row.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert!(tickarena::RowsBuilder::<u8>::new_in(0, &arena).finish().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `row`, or `None` past the last.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(2, &arena);
    /// rows.push(1, 'x');
    /// let rows = rows.finish();
    /// assert_eq!(rows.get(1), Some(&['x'][..]));
    /// assert_eq!(rows.get(2), None);
    /// ```
    #[inline]
    pub fn get(&self, row: usize) -> Option<&'a [T]> {
        let start = *self.starts.get(row)? as usize;
        let end = *self.starts.get(row + 1)? as usize;
        Some(&self.items[start..end])
    }

    /// Every row, in order.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(2, &arena);
    /// rows.extend_row(0, [1, 2]);
    /// rows.push(1, 3);
    /// let total: i32 = rows.finish().iter().map(|row| row.iter().sum::<i32>()).sum();
    /// assert_eq!(total, 6);
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &'a [T]> + DoubleEndedIterator + 'a {
        let items = self.items;
        self.starts
            .windows(2)
            .map(move |pair| &items[pair[0] as usize..pair[1] as usize])
    }

    /// Every value, row after row: the packed buffer.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(2, &arena);
    /// rows.push(1, "b");
    /// rows.push(0, "a");
    /// assert_eq!(rows.finish().items(), ["a", "b"]);
    /// ```
    pub fn items(&self) -> &'a [T] {
        self.items
    }

    /// The start-offset table: `len() + 1` offsets into
    /// [`items`](Self::items), for code that wants the CSR parts.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(3, &arena);
    /// rows.push(2, 7u8);
    /// assert_eq!(rows.finish().starts(), [0, 0, 0, 1]);
    /// ```
    pub fn starts(&self) -> &'a [u32] {
        self.starts
    }
}

impl<'a, T> FrameRows<'a, T> {
    /// Rows given one after the other, each an iterator of its values:
    /// appended to one buffer, with a start offset per row, as a
    /// hand-written CSR appends. The offsets are allocated first (room for
    /// the rows `rows`' size hint promises) so that the values' buffer is
    /// the arena's newest allocation and grows in place.
    ///
    /// # Panics
    ///
    /// If there are `u32::MAX` rows or values or more, or the arena cannot
    /// hold them.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameRows};
    ///
    /// let arena = FrameArena::new();
    /// let units = [3u32, 8, 9, 20];
    /// // Each unit's neighbours: the others within 5.
    /// let near = FrameRows::from_rows_in(
    ///     units.iter().map(|&a| units.iter().copied().filter(move |&b| b != a && a.abs_diff(b) <= 5)),
    ///     &arena,
    /// );
    /// assert_eq!(near[0], [8]);
    /// assert_eq!(near[1], [3, 9]);
    /// assert!(near[3].is_empty());
    /// ```
    #[inline]
    pub fn from_rows_in<R>(rows: R, arena: &'a FrameArena) -> Self
    where
        R: IntoIterator,
        R::Item: IntoIterator<Item = T>,
    {
        let rows = rows.into_iter();
        let mut starts = alloc::vec::Vec::with_capacity_in(rows.size_hint().0 + 1, arena);
        starts.push(0u32);
        let mut items = alloc::vec::Vec::new_in(arena);
        append_rows(&mut starts, &mut items, rows);
        offset(items.len());
        FrameRows {
            starts: starts.leak(),
            items: items.leak(),
        }
    }

    /// `rows` rows of the values of `source`, each in the row `row_of`
    /// gives it, in `source`'s order within a row (see
    /// [`from_pairs_in`](Self::from_pairs_in), which this calls with
    /// `(row_of(&value), value)` pairs).
    ///
    /// # Panics
    ///
    /// As [`from_pairs_in`](Self::from_pairs_in).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameRows};
    ///
    /// let arena = FrameArena::new();
    /// let words = ["apple", "bee", "avocado", "cat"];
    /// // Words by their first letter, a to c.
    /// let by_letter = FrameRows::group_by_in(3, words, |w| (w.as_bytes()[0] - b'a') as usize, &arena);
    /// assert_eq!(by_letter[0], ["apple", "avocado"]);
    /// assert_eq!(by_letter[2], ["cat"]);
    /// ```
    #[inline]
    pub fn group_by_in<I, F>(rows: usize, source: I, row_of: F, arena: &'a FrameArena) -> Self
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: Clone,
        F: Fn(&T) -> usize + Clone,
    {
        let pairs = source.into_iter().map(move |value| (row_of(&value), value));
        Self::from_pairs_in(rows, pairs, arena)
    }

    /// `rows` rows of the values of `(row, value)` pairs, in the pairs'
    /// order within a row: a count pass over `pairs`, prefix sums, a fill
    /// pass, the counting sort a hand-written CSR does, straight into the
    /// arena. `pairs` is walked twice (a slice's iterator mapped, a range,
    /// a query's iterator cloned); nothing else is allocated but the rows
    /// and one cursor per row.
    ///
    /// # Panics
    ///
    /// If a row is not below `rows`, if there are `u32::MAX` rows or values
    /// or more, if the second walk gives other rows than the first, or if
    /// the arena cannot hold them.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameRows};
    ///
    /// let arena = FrameArena::new();
    /// let cell_of = [2u32, 0, 2, 3];
    /// // The units of each of 4 cells.
    /// let pairs = cell_of.iter().enumerate().map(|(unit, &cell)| (cell as usize, unit as u32));
    /// let cells = FrameRows::from_pairs_in(4, pairs, &arena);
    /// assert_eq!(cells[2], [0, 2]);
    /// assert_eq!(cells.starts(), [0, 1, 1, 3, 4]);
    /// ```
    #[inline]
    pub fn from_pairs_in<I>(rows: usize, pairs: I, arena: &'a FrameArena) -> Self
    where
        I: IntoIterator<Item = (usize, T)>,
        I::IntoIter: Clone,
    {
        let pairs = pairs.into_iter();
        let (starts, len) = counted_starts(arena, rows, pairs.clone().map(|(row, _)| row));
        let items = place(arena, starts, len, pairs.take(len));
        FrameRows { starts, items }
    }
}

/// Appends each row's values to `items` and its end offset to `starts`.
#[inline]
fn append_rows<T, R>(
    starts: &mut alloc::vec::Vec<u32, &FrameArena>,
    items: &mut alloc::vec::Vec<T, &FrameArena>,
    rows: R,
) where
    R: Iterator,
    R::Item: IntoIterator<Item = T>,
{
    for row in rows {
        let mut row = row.into_iter();
        loop {
            let (written, ended) = fill(items.spare_capacity_mut(), &mut row);
            // SAFETY: `fill` wrote the first `written` slots past the length.
            unsafe { items.set_len(items.len() + written) };
            if ended {
                break;
            }
            items.reserve(1);
        }
        // Truncated past u32::MAX: then the caller's check panics.
        starts.push(items.len() as u32);
    }
}

/// Writes `values` into `slots` until either runs out: how many were
/// written, and whether `values` ended. A `&mut` slice, so the compiler
/// knows these stores change nothing else the caller's iterator reads
/// (its captures are not reloaded after each value).
#[inline(always)]
fn fill<T>(slots: &mut [MaybeUninit<T>], values: &mut impl Iterator<Item = T>) -> (usize, bool) {
    for (written, slot) in slots.iter_mut().enumerate() {
        match values.next() {
            Some(value) => {
                slot.write(value);
            }
            None => return (written, true),
        }
    }
    (slots.len(), false)
}

/// `len` as an offset.
#[inline]
fn offset(len: usize) -> u32 {
    match u32::try_from(len) {
        Ok(offset) => offset,
        Err(_) => panic!("tickarena: FrameRows of {len} values: offsets are u32s"),
    }
}

impl<T> Index<usize> for FrameRows<'_, T> {
    type Output = [T];

    /// Row `row`.
    ///
    /// # Panics
    ///
    /// Past the last row (an index out of bounds of the offsets).
    #[inline]
    fn index(&self, row: usize) -> &[T] {
        // Plain indexing: no message of its own, whose formatting code
        // would sit in every inlined lookup.
        &self.items[self.starts[row] as usize..self.starts[row + 1] as usize]
    }
}

impl<T: fmt::Debug> fmt::Debug for FrameRows<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Builds [`FrameRows`] in a frame arena: `push(row, value)` in any order,
/// as to a `Vec<Vec<T>>`, then [`finish`](Self::finish). The pushes go to
/// one list of `(row, value)` pairs, which grows in place while nothing
/// else is allocated in the arena meanwhile (else each growth copies it,
/// as a `Vec`'s does; [`with_capacity_in`](Self::with_capacity_in) avoids
/// that). Finishing places the values row by row: each value is copied
/// once (twice counting the pairs), and the pairs' memory stays in the
/// arena until the frame ends.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, RowsBuilder};
///
/// let arena = FrameArena::new();
/// let positions = [(0.5f32, 0.5f32), (3.2, 0.1), (0.9, 0.2), (3.9, 3.9)];
/// // 4 × 4 cells of size 1: each unit into its cell's list.
/// let mut cells = RowsBuilder::with_capacity_in(16, positions.len(), &arena);
/// for (unit, &(x, y)) in positions.iter().enumerate() {
///     cells.push(y as usize * 4 + x as usize, unit as u32);
/// }
/// let cells = cells.finish();
/// assert_eq!(cells[0], [0, 2]);
/// assert_eq!(cells[3], [1]);
/// assert_eq!(cells[15], [3]);
/// ```
pub struct RowsBuilder<'a, T> {
    pairs: alloc::vec::Vec<(u32, T), &'a FrameArena>,
    rows: usize,
    arena: &'a FrameArena,
}

impl<'a, T> RowsBuilder<'a, T> {
    /// A builder of `rows` rows, all empty.
    ///
    /// # Panics
    ///
    /// If `rows` is `u32::MAX` or more (rows and offsets are `u32`s, as a
    /// CSR's usually are: a frame's lists of lists fit).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let rows = tickarena::RowsBuilder::<u64>::new_in(5, &arena);
    /// assert_eq!((rows.rows(), rows.len()), (5, 0));
    /// ```
    pub fn new_in(rows: usize, arena: &'a FrameArena) -> Self {
        Self::with_capacity_in(rows, 0, arena)
    }

    /// A builder of `rows` rows with room for `values` pushes before its
    /// list grows.
    ///
    /// # Panics
    ///
    /// As [`new_in`](Self::new_in).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::with_capacity_in(4096, 5000, &arena);
    /// rows.push(4095, 1u32);
    /// assert_eq!(rows.finish()[4095], [1]);
    /// ```
    pub fn with_capacity_in(rows: usize, values: usize, arena: &'a FrameArena) -> Self {
        assert!(
            rows < u32::MAX as usize,
            "tickarena: RowsBuilder of {rows} rows: rows are counted in u32s"
        );
        RowsBuilder {
            pairs: alloc::vec::Vec::with_capacity_in(values, arena),
            rows,
            arena,
        }
    }

    /// Rows the result will have.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert_eq!(tickarena::RowsBuilder::<u8>::new_in(9, &arena).rows(), 9);
    /// ```
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Values pushed so far, over all rows.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(2, &arena);
    /// rows.extend_row(1, [1, 2, 3]);
    /// assert_eq!(rows.len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether nothing was pushed yet.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert!(tickarena::RowsBuilder::<u8>::new_in(2, &arena).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Appends `value` to row `row`.
    ///
    /// # Panics
    ///
    /// If `row` is not below [`rows`](Self::rows), or the arena cannot
    /// hold the list (its message says which arena and what to raise).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(2, &arena);
    /// rows.push(1, "late");
    /// rows.push(0, "early");
    /// rows.push(1, "later");
    /// assert_eq!(rows.finish()[1], ["late", "later"]);
    /// ```
    #[inline]
    pub fn push(&mut self, row: usize, value: T) {
        assert!(
            row < self.rows,
            "tickarena: push to row {row} of a RowsBuilder of {} rows",
            self.rows
        );
        // Nothing else per push (whether the rows came in order is seen
        // at `finish`): a flag kept here costs a store on every push.
        self.pairs.push((row as u32, value));
    }

    /// Appends every value of `values` to row `row`.
    ///
    /// # Panics
    ///
    /// As [`push`](Self::push).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut neighbours = tickarena::RowsBuilder::new_in(3, &arena);
    /// for unit in 0..3u32 {
    ///     neighbours.extend_row(unit as usize, (0..3).filter(|&n| n != unit));
    /// }
    /// assert_eq!(neighbours.finish()[1], [0, 2]);
    /// ```
    pub fn extend_row(&mut self, row: usize, values: impl IntoIterator<Item = T>) {
        for value in values {
            self.push(row, value);
        }
    }

    /// The rows, packed: each row's values in the order they were pushed.
    ///
    /// # Panics
    ///
    /// If more than `u32::MAX` values were pushed, or the arena cannot
    /// hold the result.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::new_in(3, &arena);
    /// rows.push(2, 'c');
    /// rows.push(0, 'a');
    /// rows.push(2, 'd');
    /// let rows = rows.finish();
    /// assert_eq!(rows.items(), ['a', 'c', 'd']);
    /// assert_eq!(rows.starts(), [0, 1, 1, 3]);
    /// ```
    pub fn finish(self) -> FrameRows<'a, T> {
        let RowsBuilder { pairs, rows, arena } = self;
        let (starts, len) = counted_starts(arena, rows, pairs.iter().map(|&(row, _)| row as usize));
        if pairs.is_sorted_by_key(|&(row, _)| row) {
            // Already row after row: one copy.
            let items = arena.alloc_slice_fill_iter(pairs.into_iter().map(|(_, value)| value));
            return FrameRows { starts, items };
        }
        let items = place(
            arena,
            starts,
            len,
            pairs.into_iter().map(|(row, value)| (row as usize, value)),
        );
        FrameRows { starts, items }
    }
}

/// The start offsets of `rows` rows holding the values whose rows
/// `rows_of_values` gives (a count per row, then their prefix sums), and
/// the number of values: the count pass of a counting sort.
#[inline]
fn counted_starts(
    arena: &FrameArena,
    rows: usize,
    rows_of_values: impl Iterator<Item = usize>,
) -> (&mut [u32], usize) {
    let starts = arena.alloc_zeroed_slice::<u32>(rows + 1);
    let mut len = 0;
    for row in rows_of_values {
        starts[row + 1] += 1;
        len += 1;
    }
    offset(len);
    for row in 0..rows {
        starts[row + 1] += starts[row];
    }
    (starts, len)
}

/// Places each value of `pairs` in its row's next free slot of a new
/// buffer of `len` values, row `r` at `starts[r]..starts[r + 1]`: the fill
/// pass of a counting sort. `pairs` must give each row as many values as
/// `starts` counted for it (else it panics: nothing it could hand back
/// would be initialized).
#[inline]
fn place<'a, T>(
    arena: &'a FrameArena,
    starts: &[u32],
    len: usize,
    pairs: impl Iterator<Item = (usize, T)>,
) -> &'a [T] {
    let rows = starts.len() - 1;
    let slots = arena.alloc_uninit_slice::<T>(len);
    let cursor = arena.alloc_slice_copy(&starts[..rows]);
    let mut written = 0;
    for (row, value) in pairs {
        let at = &mut cursor[row];
        slots[*at as usize] = MaybeUninit::new(value);
        *at += 1;
        written += 1;
    }
    // Every row must have got as many values as counted (pairs walked
    // twice that change between the walks would leave slots unwritten).
    let filled = written == len && (0..rows).all(|row| cursor[row] == starts[row + 1]);
    assert!(
        filled,
        "tickarena: FrameRows: the pairs gave other rows the second time they were walked"
    );
    // SAFETY: row r's cursor started at `starts[r]` and ended at
    // `starts[r + 1]`, one step per value written to it: each row's slots
    // were written once each, and the rows' ranges tile `0..len`.
    unsafe { slots.assume_init_mut() }
}

impl<T: fmt::Debug> fmt::Debug for RowsBuilder<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowsBuilder")
            .field("rows", &self.rows)
            .field("pairs", &self.pairs)
            .finish()
    }
}
