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

use core::alloc::Layout;
use core::fmt;
use core::mem::MaybeUninit;
use core::ops::Index;
use core::panic::Location;

use alloc::vec::Vec;

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
    /// The rows of a start-offset table (`rows + 1` offsets into `items`,
    /// from 0 to `items.len()`, not decreasing) and their packed values.
    pub(crate) fn from_parts(starts: &'a [u32], items: &'a [T]) -> Self {
        debug_assert!(
            starts.first() == Some(&0)
                && starts.last().map(|&end| end as usize) == Some(items.len())
                && starts.is_sorted(),
            "expected offsets from 0 to {} (the values), not decreasing: {starts:?}",
            items.len()
        );
        FrameRows { starts, items }
    }

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
    /// the arena's newest allocation and grows in place. The offsets start
    /// at least at the rows this call site made lately (as
    /// [`FrameArena::vec_at_last_size`]'s vectors start), so a steady frame
    /// never grows them. A row whose values need a temporary (sorted,
    /// cut), or values that should start at their last size too:
    /// [`writer_in`](Self::writer_in). The hint only
    /// sizes that first block: a wrong one costs a copy or some room, not
    /// a wrong result, and a lower bound of `u32::MAX` or more (an endless
    /// iterator's; no `FrameRows` has that many rows) reserves nothing
    /// ahead.
    ///
    /// # Panics
    ///
    /// If there are `u32::MAX` values or more, or the arena cannot hold
    /// them (the message says which arena and what to raise).
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
    #[track_caller]
    pub fn from_rows_in<R>(rows: R, arena: &'a FrameArena) -> Self
    where
        R: IntoIterator,
        R::Item: IntoIterator<Item = T>,
    {
        let rows = rows.into_iter();
        let (hint, _) = rows.size_hint();
        // No `hint + 1` past what a FrameRows can hold or an address space
        // can: it would overflow for `usize::MAX`, and no arena serves the
        // rest (on 32 bits a `u32::MAX - 1` hint is already past `isize`).
        let most = (u32::MAX as usize).min(isize::MAX as usize / size_of::<u32>());
        let offsets = if hint < most { hint + 1 } else { 1 };
        // The offsets, below the values, start at least at the rows this
        // call site made lately (see `FrameArena::vec_at_last_size`), so
        // that a steady frame never grows them (which would copy them to
        // the top, and then the values at their next growth). The values,
        // at the top, grow in place and are not sized ahead: room held for
        // a burst would count against every later frame's budget.
        let site = Location::caller();
        let mut starts = Vec::new_in(arena);
        reserve(&mut starts, offsets.max(arena.last_size((site, 1)) + 1));
        starts.push(0u32);
        let mut items = Vec::new_in(arena);
        append_rows(&mut starts, &mut items, rows);
        offset(items.len());
        arena.record_size((site, 1), starts.len() - 1);
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
    #[track_caller]
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
    /// The two walks must give the same pairs. What the result's layout
    /// rests on is checked: a second walk that gives any row more or fewer
    /// values than the first panics. One that gives each row as many
    /// values as the first, but other ones (values swapped between rows,
    /// other values) is not seen: the rows then hold the second walk's
    /// values, each in the row the second walk gave it.
    ///
    /// # Panics
    ///
    /// If a row is not below `rows`, if there are `u32::MAX` rows or values
    /// or more, if the second walk gives a row another number of values
    /// than the first, or if the arena cannot hold them (the message says
    /// which arena and what to raise).
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
    #[track_caller]
    pub fn from_pairs_in<I>(rows: usize, pairs: I, arena: &'a FrameArena) -> Self
    where
        I: IntoIterator<Item = (usize, T)>,
        I::IntoIter: Clone,
    {
        let pairs = pairs.into_iter();
        let (starts, len) = counted_starts(arena, rows, pairs.clone().map(|(row, _)| row));
        let items = place(arena, starts, len, pairs);
        FrameRows { starts, items }
    }
}

/// Appends each row's values to `items` and its end offset to `starts`.
#[inline]
#[track_caller]
fn append_rows<T, R>(starts: &mut Vec<u32, &FrameArena>, items: &mut Vec<T, &FrameArena>, rows: R)
where
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
            // Full: grown only if a value is left (a steady frame's last
            // row fills the room it starts with exactly).
            let Some(value) = row.next() else { break };
            grow(items);
            items.push(value);
        }
        if starts.len() == starts.capacity() {
            grow(starts);
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

/// Grows `list`, full, as `Vec`'s own growth does (to twice its
/// capacity, at least 4), or panics with its arena's message where `Vec`'s
/// growth would abort the process.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn grow<T>(list: &mut Vec<T, &FrameArena>) {
    let capacity = list.capacity().saturating_mul(2).max(4);
    reserve(list, capacity);
}

/// Makes room in `list` for `capacity` values in all, or panics with its
/// arena's message (which arena, what to raise), where
/// `Vec::with_capacity_in` and `Vec::reserve` abort the process.
#[inline(never)]
#[track_caller]
pub(crate) fn reserve<T>(list: &mut Vec<T, &FrameArena>, capacity: usize) {
    let additional = capacity.saturating_sub(list.len());
    if list.try_reserve_exact(additional).is_err() {
        refused::<T>(list.allocator(), capacity);
    }
}

/// The panic of an arena that refused room for `capacity` values of `T`.
#[cold]
#[inline(never)]
#[track_caller]
fn refused<T>(arena: &FrameArena, capacity: usize) -> ! {
    // The refusal is reported here: the alloc-error hook has nothing to say.
    crate::arena::refusal_handled();
    match Layout::array::<T>(capacity) {
        Ok(layout) => arena.out_of_memory(layout),
        // No address space holds it; no reservation could help.
        Err(_) => panic!("capacity overflow"),
    }
}

/// `len` as an offset.
#[inline]
#[track_caller]
pub(crate) fn offset(len: usize) -> u32 {
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
/// arena until the frame ends. Rows pushed in order (all of row 0, then
/// row 1, …) skip the counting sort: one pass to count, one copy. Each
/// push stores a `(u32, T)` pair: for rows built one after the other,
/// [`FrameRows::writer_in`] writes each value once, in place.
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
    pairs: Vec<(u32, T), &'a FrameArena>,
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
    #[track_caller]
    pub fn new_in(rows: usize, arena: &'a FrameArena) -> Self {
        Self::with_capacity_in(rows, 0, arena)
    }

    /// A builder of `rows` rows with room for `values` pushes before its
    /// list grows.
    ///
    /// # Panics
    ///
    /// As [`new_in`](Self::new_in); and if the arena cannot hold `values`
    /// pushes (the message says which arena and what to raise).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsBuilder::with_capacity_in(4096, 5000, &arena);
    /// rows.push(4095, 1u32);
    /// assert_eq!(rows.finish()[4095], [1]);
    /// ```
    #[track_caller]
    pub fn with_capacity_in(rows: usize, values: usize, arena: &'a FrameArena) -> Self {
        assert!(
            rows < u32::MAX as usize,
            "tickarena: RowsBuilder of {rows} rows: rows are counted in u32s"
        );
        let mut pairs = Vec::new_in(arena);
        if values > 0 {
            reserve(&mut pairs, values);
        }
        RowsBuilder { pairs, rows, arena }
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
    #[track_caller]
    pub fn push(&mut self, row: usize, value: T) {
        assert!(
            row < self.rows,
            "tickarena: push to row {row} of a RowsBuilder of {} rows",
            self.rows
        );
        // Grown here, where a refusal becomes the arena's panic: `Vec`'s
        // own growth would abort.
        if self.pairs.len() == self.pairs.capacity() {
            grow(&mut self.pairs);
        }
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
    #[track_caller]
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
    /// hold the result (the message says which arena and what to raise).
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
    #[track_caller]
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
#[track_caller]
fn counted_starts(
    arena: &FrameArena,
    rows: usize,
    rows_of_values: impl Iterator<Item = usize>,
) -> (&mut [u32], usize) {
    assert!(
        rows < u32::MAX as usize,
        "tickarena: FrameRows of {rows} rows: rows are counted in u32s"
    );
    let starts = arena.alloc_zeroed_slice::<u32>(rows + 1);
    let mut len = 0;
    for row in rows_of_values {
        if row >= rows {
            row_past_the_last(row, rows);
        }
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
/// `starts` counted for it, and no more pairs: else it panics (some slots
/// would be unwritten, or values dropped unseen).
#[inline]
#[track_caller]
fn place<'a, T>(
    arena: &'a FrameArena,
    starts: &[u32],
    len: usize,
    mut pairs: impl Iterator<Item = (usize, T)>,
) -> &'a [T] {
    let rows = starts.len() - 1;
    let slots = arena.alloc_uninit_slice::<T>(len);
    let cursor = arena.alloc_slice_copy(&starts[..rows]);
    let mut written = 0;
    // At most `len` pairs: a row given more values than counted runs into
    // the next row's slots (seen below), never past the buffer's end
    // unchecked.
    for (row, value) in pairs.by_ref().take(len) {
        // `get_mut`s rather than indexing, which would check the same,
        // so that a second walk that lies gets the message below.
        let Some(at) = cursor.get_mut(row) else {
            other_rows()
        };
        let Some(slot) = slots.get_mut(*at as usize) else {
            other_rows()
        };
        *slot = MaybeUninit::new(value);
        *at += 1;
        written += 1;
    }
    // Every row got as many values as counted, and there is no pair more:
    // each row's cursor went from its start to its end, one step per value
    // written to it, and `written` steps in all. (Values that overran
    // their row were overwritten, unseen: never dropped, as any value here.)
    let filled = written == len
        && (0..rows).all(|row| cursor[row] == starts[row + 1])
        && pairs.next().is_none();
    if !filled {
        other_rows();
    }
    // SAFETY: row r's cursor started at `starts[r]` and ended at
    // `starts[r + 1]` (checked above), one step per value written to it:
    // each row's slots were written once each, and the rows' ranges tile
    // `0..len`.
    unsafe { slots.assume_init_mut() }
}

/// A row at or past `rows` in pairs or in `group_by_in`'s `row_of`.
#[cold]
#[inline(never)]
#[track_caller]
fn row_past_the_last(row: usize, rows: usize) -> ! {
    panic!("tickarena: row {row} of FrameRows of {rows} rows")
}

/// Pairs walked twice that gave a row another number of values the
/// second time.
#[cold]
#[inline(never)]
#[track_caller]
fn other_rows() -> ! {
    panic!("tickarena: FrameRows: the pairs gave other rows the second time they were walked")
}

impl<T: fmt::Debug> fmt::Debug for RowsBuilder<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowsBuilder")
            .field("rows", &self.rows)
            .field("pairs", &self.pairs)
            .finish()
    }
}
