//! [`RowsWriter`]: [`FrameRows`] written one row at a time, each row built
//! in place at the end of the packed buffer (pushed, sorted, cut, then
//! closed), as a hand-written CSR appends: `values.extend(..)`, then
//! `starts.push(values.len())`.
//!
//! Two buffers: the start offsets, allocated first, and the values, the
//! arena's newest allocation, which grows in place while the rows are
//! written. Both start at the size the writer made at the same call site
//! needed lately ([`FrameRows::writer_in`]), so a steady frame grows
//! neither. A temporary a row's search needs goes in a scope
//! ([`scoped`](crate::scoped), another arena) or in the open row itself:
//! anything allocated in the writer's arena meanwhile would sit above
//! the values and make their next growth a copy.

use core::fmt;
use core::ops::{Deref, DerefMut};
use core::panic::Location;

use alloc::vec::Vec;

use crate::arena::FrameArena;
use crate::rows::{FrameRows, grow, reserve};

mod ranked;

pub use ranked::RankedRow;

/// Writes [`FrameRows`] row after row, each row built in place
/// ([`open_row`](Self::open_row)), then [`finish`](Self::finish)es them.
///
/// # Example
///
/// Each unit's neighbours, nearest first, at most 2: the open row is the
/// search's temporary (every candidate pushed, sorted, cut).
///
/// ```
/// use tickarena::{FrameArena, FrameRows};
///
/// let arena = FrameArena::new();
/// let at = [0i32, 5, 1, 9, 3];
/// let mut near = FrameRows::writer_in(&arena);
/// for (unit, &x) in at.iter().enumerate() {
///     let mut row = near.open_row();
///     row.extend((0..at.len() as u32).filter(|&other| other as usize != unit));
///     row.sort_unstable_by_key(|&other| at[other as usize].abs_diff(x));
///     row.truncate(2);
/// } // the row closes when `row` goes
/// let near = near.finish();
/// assert_eq!(near[0], [2, 4]);
/// assert_eq!(near[3], [1, 4]);
/// assert_eq!(near.starts(), [0, 2, 4, 6, 8, 10]);
/// ```
pub struct RowsWriter<'a, T> {
    /// The closed rows' offsets, from 0: allocated first, below `items`.
    starts: Vec<u32, &'a FrameArena>,
    /// The values of the closed rows, then of the open one: the arena's
    /// newest allocation.
    items: Vec<T, &'a FrameArena>,
    /// The most values `items` held at once (before a row was cut): what
    /// the call site needed.
    most: usize,
    /// The most candidates a [`RankedRow`] held: the room its next
    /// candidates start with.
    most_candidates: usize,
    /// Where the sizes are remembered, for a writer from `writer_in`.
    site: Option<&'static Location<'static>>,
    /// A row dropped that could not be closed (its values taken back):
    /// the panic the writer's next use raises, as a drop must not panic.
    failed: Option<Unclosed>,
}

/// Why a row dropped open could not be closed.
#[derive(Clone, Copy, Debug)]
enum Unclosed {
    /// Its end was past what a `u32` offset holds.
    Offsets(usize),
    /// The arena refused room for another offset.
    Refused,
}

impl<'a, T> FrameRows<'a, T> {
    /// A writer of rows, its buffers starting at the size the writer made
    /// at this call site needed lately (none the first time): the most
    /// rows and values it held in this retention window or the one before
    /// (see [`FrameArena::vec_at_last_size`], which keeps a vector's size
    /// the same way). So a steady frame grows nothing. The room counts
    /// as used, as `vec_at_last_size`'s does (a frame budget sees a
    /// burst's room in the frames that follow it, within the window);
    /// [`with_capacity_in`](RowsWriter::with_capacity_in) sizes by hand.
    ///
    /// # Panics
    ///
    /// If the arena cannot hold the remembered sizes (the message says
    /// which arena and what to raise).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameRows};
    ///
    /// let mut arena = FrameArena::new();
    /// for frame in 0..3 {
    ///     let mut rows = FrameRows::writer_in(&arena);
    ///     for row in 0..100u32 {
    ///         rows.push_row(0..row % 7);
    ///     }
    ///     let rows = rows.finish();
    ///     assert_eq!(rows.len(), 100);
    ///     assert_eq!(rows[8], [0]);
    ///     let used = arena.used();
    ///     arena.reset();
    ///     if frame > 0 {
    ///         // Both buffers started at their size: nothing grew, nothing
    ///         // was left behind by a growth.
    ///         assert_eq!(used, 101 * 4 + 295 * 4);
    ///     }
    /// }
    /// ```
    #[inline]
    #[track_caller]
    pub fn writer_in(arena: &'a FrameArena) -> RowsWriter<'a, T> {
        let site = Location::caller();
        let rows = arena.last_size((site, 1));
        let values = arena.last_size((site, 2));
        let mut writer = RowsWriter::with_capacity_in(rows, values, arena);
        writer.most_candidates = arena.last_size((site, 3));
        writer.site = Some(site);
        writer
    }
}

impl<'a, T> RowsWriter<'a, T> {
    /// A writer with room for `rows` rows and `values` values before its
    /// buffers grow (a wrong guess costs a copy or some room, never a
    /// wrong result). Remembers nothing across frames: see
    /// [`FrameRows::writer_in`] for a writer that does.
    ///
    /// # Panics
    ///
    /// If the arena cannot hold that room (the message says which arena
    /// and what to raise).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::RowsWriter::with_capacity_in(2, 6, &arena);
    /// rows.push_row([1, 2, 3]);
    /// rows.push_row([4, 5, 6]);
    /// let used = arena.used();
    /// assert_eq!(rows.finish()[1], [4, 5, 6]);
    /// assert_eq!(used, 3 * 4 + 6 * 4); // the offsets, then the values
    /// ```
    #[track_caller]
    pub fn with_capacity_in(rows: usize, values: usize, arena: &'a FrameArena) -> Self {
        let mut starts = Vec::new_in(arena);
        reserve(&mut starts, rows.saturating_add(1));
        starts.push(0);
        let mut items = Vec::new_in(arena);
        if values > 0 {
            reserve(&mut items, values);
        }
        RowsWriter {
            starts,
            items,
            most: 0,
            most_candidates: 0,
            site: None,
            failed: None,
        }
    }

    /// Opens a row at the end of the packed buffer: the returned
    /// [`OpenRow`] is the row, to push to, sort and cut; it closes when it
    /// is dropped (or by [`OpenRow::finish_row`]), and
    /// [`OpenRow::abandon`] takes it back whole.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.extend([5, 3, 9, 1]);
    /// row.sort_unstable();
    /// row.truncate(3);
    /// row.finish_row();
    /// rows.open_row().push(7);
    /// let rows = rows.finish();
    /// assert_eq!(rows[0], [1, 3, 5]);
    /// assert_eq!(rows[1], [7]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn open_row(&mut self) -> OpenRow<'_, 'a, T> {
        self.check();
        // From the last offset rather than the length: values a forgotten
        // row (`mem::forget`) left behind join the next row, as its slice
        // shows them.
        let start = self.starts.last().map_or(0, |&start| start as usize);
        OpenRow {
            writer: self,
            start,
        }
    }

    /// Appends a row of `values`: [`open_row`](Self::open_row), extend,
    /// close.
    ///
    /// # Panics
    ///
    /// If the rows come to `u32::MAX` values or more, or the arena cannot
    /// hold them (the message says which arena and what to raise).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row("ab".chars());
    /// rows.push_row([]);
    /// let rows = rows.finish();
    /// assert_eq!(rows.len(), 2);
    /// assert_eq!(rows[0], ['a', 'b']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push_row(&mut self, values: impl IntoIterator<Item = T>) {
        self.open_row().extend(values);
    }

    /// Rows closed so far.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row([1u8]);
    /// assert_eq!(rows.rows(), 1);
    /// ```
    pub fn rows(&self) -> usize {
        self.starts.len() - 1
    }

    /// Values in the closed rows.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row([1u8, 2]);
    /// assert_eq!(rows.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether no value was written yet (empty rows may have been).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row(Vec::<u8>::new());
    /// assert!(rows.is_empty() && rows.rows() == 1);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The rows written, packed, for the rest of the frame; their sizes
    /// remembered for the call site of [`FrameRows::writer_in`].
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row([1, 2]);
    /// rows.push_row([3]);
    /// let rows = rows.finish();
    /// assert_eq!(rows.items(), [1, 2, 3]);
    /// assert_eq!(rows.starts(), [0, 2, 3]);
    /// ```
    ///
    /// # Panics
    ///
    /// If a row dropped open could not be closed (see
    /// [`OpenRow::finish_row`]'s panics): it was taken back, and the rows
    /// are not what was written.
    #[track_caller]
    pub fn finish(self) -> FrameRows<'a, T> {
        self.check();
        let RowsWriter {
            starts,
            items,
            most,
            most_candidates,
            site,
            failed: _,
        } = self;
        if let Some(site) = site {
            let arena = *items.allocator();
            arena.record_size((site, 1), starts.len() - 1);
            arena.record_size((site, 2), most.max(items.len()));
            arena.record_size((site, 3), most_candidates);
        }
        FrameRows::from_parts(starts.leak(), items.leak())
    }

    /// Closes the open row (its end offset appended), or says why not
    /// without a panic, for a drop.
    #[inline]
    fn try_close_row(&mut self) -> Result<(), Unclosed> {
        let end = self.items.len();
        if end > self.most {
            self.most = end;
        }
        let end = u32::try_from(end).map_err(|_| Unclosed::Offsets(end))?;
        if self.starts.len() == self.starts.capacity() {
            let capacity = self.starts.capacity().saturating_mul(2).max(4);
            self.starts
                .try_reserve_exact(capacity - self.starts.len())
                .map_err(|_| Unclosed::Refused)?;
        }
        self.starts.push(end);
        Ok(())
    }

    /// Panics if a row dropped open could not be closed.
    #[inline]
    #[track_caller]
    fn check(&self) {
        if let Some(why) = self.failed {
            unclosed(why);
        }
    }
}

/// The panic of a row that could not be closed.
#[cold]
#[inline(never)]
#[track_caller]
fn unclosed(why: Unclosed) -> ! {
    match why {
        Unclosed::Offsets(len) => panic!("tickarena: FrameRows of {len} values: offsets are u32s"),
        Unclosed::Refused => panic!(
            "tickarena: RowsWriter: the arena refused room for another row's offset \
             (raise the arena's reserve)"
        ),
    }
}

impl<T: fmt::Debug> fmt::Debug for RowsWriter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items = &self.items;
        f.debug_list()
            .entries(
                self.starts
                    .windows(2)
                    .map(|pair| &items[pair[0] as usize..pair[1] as usize]),
            )
            .finish()
    }
}

/// The row a [`RowsWriter`] is writing, in place at the end of its packed
/// buffer: a slice of the row's values so far (`Deref<Target = [T]>`, so
/// `sort_unstable_by_key`, `iter`, indexing), plus `push`, `extend`,
/// `truncate`, `pop` and `clear`. Closes the row when dropped; values cut
/// off or taken back are dropped then, as a `Vec`'s are.
///
/// It borrows the writer, so nothing else writes to it meanwhile, and the
/// open row cannot outlive the writer:
///
/// ```compile_fail,E0505
/// let arena = tickarena::FrameArena::new();
/// let mut rows = tickarena::FrameRows::<u32>::writer_in(&arena);
/// let mut row = rows.open_row();
/// let done = rows.finish(); // the row is still open
/// row.push(1);
/// ```
///
/// # Example
///
/// ```
/// let arena = tickarena::FrameArena::new();
/// let mut rows = tickarena::FrameRows::writer_in(&arena);
/// // A search that needs a temporary of its own: a scope, another arena.
/// for unit in 0..3u32 {
///     let mut row = rows.open_row();
///     tickarena::scoped(|temp| {
///         let mut seen = Vec::with_capacity_in(8, temp);
///         seen.extend((0..8).map(|k| (k * 5 + unit) % 8));
///         seen.sort_unstable();
///         row.extend(seen.iter().copied().take(2));
///     });
/// }
/// let rows = rows.finish();
/// assert_eq!(rows[2], [0, 1]);
/// assert_eq!(rows.len(), 3);
/// ```
pub struct OpenRow<'w, 'a, T> {
    writer: &'w mut RowsWriter<'a, T>,
    /// Where the row starts in the writer's values.
    start: usize,
}

impl<T> OpenRow<'_, '_, T> {
    /// Appends `value` to the row.
    ///
    /// # Panics
    ///
    /// If the arena cannot hold it (the message says which arena and what
    /// to raise).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.push('x');
    /// assert_eq!(*row, ['x']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        let items = &mut self.writer.items;
        // Grown here, where a refusal becomes the arena's panic: `Vec`'s
        // own growth would abort.
        if items.len() == items.capacity() {
            grow(items);
        }
        items.push(value);
    }

    /// Appends every value of `values` to the row.
    ///
    /// # Panics
    ///
    /// As [`push`](Self::push).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.extend(1..=3);
    /// row.extend([9]);
    /// assert_eq!(*row, [1, 2, 3, 9]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn extend(&mut self, values: impl IntoIterator<Item = T>) {
        let items = &mut self.writer.items;
        // Value by value, as `Vec::extend` does for an iterator of unknown
        // length (a filter, a search): a row is a few values, and this
        // loop has no setup to pay per call.
        for value in values {
            if items.len() == items.capacity() {
                grow(items);
            }
            items.push(value);
        }
    }

    /// Cuts the row to its first `len` values (dropping the rest); a
    /// longer `len` changes nothing.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.extend([4, 1, 3]);
    /// row.truncate(2);
    /// assert_eq!(*row, [4, 1]);
    /// row.truncate(5);
    /// assert_eq!(row.len(), 2);
    /// ```
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        let writer = &mut *self.writer;
        let held = writer.items.len();
        if held > writer.most {
            writer.most = held;
        }
        writer.items.truncate(self.start.saturating_add(len));
    }

    /// Drops every value of the row (it stays open, empty).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row([1]);
    /// let mut row = rows.open_row();
    /// row.extend([2, 3]);
    /// row.clear();
    /// row.push(4);
    /// drop(row);
    /// assert_eq!(rows.finish().items(), [1, 4]);
    /// ```
    #[inline]
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Takes the row's last value out, if it has one.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// rows.push_row([1]);
    /// let mut row = rows.open_row();
    /// assert_eq!(row.pop(), None); // not the row before's
    /// row.push(2);
    /// assert_eq!(row.pop(), Some(2));
    /// ```
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.writer.items.len() > self.start {
            self.writer.items.pop()
        } else {
            None
        }
    }

    /// Closes the row now (as dropping it does).
    ///
    /// # Panics
    ///
    /// If the rows come to `u32::MAX` values or more, or the arena cannot
    /// hold another offset; the row is taken back first. (Dropped, a row
    /// that cannot be closed is taken back too, and the writer's next use
    /// panics: a drop must not.)
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.push(1u8);
    /// row.finish_row();
    /// assert_eq!(rows.rows(), 1);
    /// ```
    #[inline]
    #[track_caller]
    pub fn finish_row(self) {
        let closed = self.writer.try_close_row();
        if closed.is_err() {
            self.writer.items.truncate(self.start);
        }
        // Closed (or taken back) here: the guard's drop must not close it
        // again, and holds nothing else to drop.
        core::mem::forget(self);
        if let Err(why) = closed {
            unclosed(why);
        }
    }

    /// Takes the row back: its values are dropped and no row is added.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.push(1u8);
    /// row.abandon();
    /// assert_eq!((rows.rows(), rows.len()), (0, 0));
    /// ```
    #[inline]
    pub fn abandon(mut self) {
        self.clear();
        // Nothing to close; the guard holds nothing else to drop.
        core::mem::forget(self);
    }

    /// The row's values, mutable (as `DerefMut` gives them).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_row();
    /// row.extend([1, 2]);
    /// row.as_mut_slice()[0] = 5;
    /// assert_eq!(*row, [5, 2]);
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.writer.items[self.start..]
    }
}

impl<T> Deref for OpenRow<'_, '_, T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        &self.writer.items[self.start..]
    }
}

impl<T> DerefMut for OpenRow<'_, '_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T> Drop for OpenRow<'_, '_, T> {
    /// Closes the row. A drop must not panic (it may run while a panic
    /// unwinds): a row that cannot be closed is taken back and the
    /// writer's next use panics.
    #[inline]
    fn drop(&mut self) {
        if let Err(why) = self.writer.try_close_row() {
            self.writer.items.truncate(self.start);
            self.writer.failed = Some(why);
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for OpenRow<'_, '_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}
