//! [`RankedRow`]: a row whose values are gathered with a sort key beside
//! each (a distance computed once, where the candidate is found), and
//! which keeps the values of least key, in key order, when it closes:
//! "each unit's 60 nearest" as hand CSR sorts `(distance, id)` pairs in a
//! reused list, then appends the ids.
//!
//! The pairs go in a list of the writer's arena, allocated at the top,
//! above the values: it grows in place, and once the row is closed it is
//! the arena's newest allocation and gives its bytes back, so the values
//! grow in place again for the next row.

use alloc::vec::Vec;
use core::fmt;

use super::RowsWriter;
use crate::arena::FrameArena;
use crate::rows::{grow, reserve};

/// A row being gathered with a key beside each value, opened by
/// [`RowsWriter::open_ranked_row`]: when it closes (dropped, or
/// [`finish_row`](Self::finish_row)), the `keep` values of least key are
/// appended to the writer as its next row, in key order (values of equal
/// keys in no set order: make the key break ties, `(distance, id)`, for
/// one order). The key is computed once per value, where it is found, not
/// at each comparison of a sort.
///
/// # Example
///
/// Each unit's two nearest on a line, the distance computed once per
/// candidate:
///
/// ```
/// use tickarena::{FrameArena, FrameRows};
///
/// let arena = FrameArena::new();
/// let x = [0i32, 40, 3, 90, 7, 41];
/// let mut near = FrameRows::writer_in(&arena);
/// for (unit, &at) in x.iter().enumerate() {
///     let mut row = near.open_ranked_row(2);
///     for (other, &there) in x.iter().enumerate() {
///         if other != unit {
///             row.push((at.abs_diff(there), other as u32), other as u32);
///         }
///     }
/// } // each row keeps its 2 nearest when `row` goes
/// let near = near.finish();
/// assert_eq!(near[0], [2, 4]);
/// assert_eq!(near[1], [5, 4]);
/// ```
pub struct RankedRow<'w, 'a, K: Ord, T> {
    writer: &'w mut RowsWriter<'a, T>,
    keep: usize,
    /// The candidates and their keys: the arena's newest allocation while
    /// the row is open.
    candidates: Vec<(K, T), &'a FrameArena>,
    /// Closed (or abandoned) already: its drop has nothing to do.
    done: bool,
}

impl<'a, T> RowsWriter<'a, T> {
    /// Opens a row gathered as `(key, value)` pairs, which keeps the
    /// `keep` values of least key, in key order, when it closes: the form
    /// for rows that are sorted and cut ("the 60 nearest"), with a key
    /// that costs something to compute (it is computed once per value,
    /// where the value is found). For a row sorted by the values
    /// themselves, or by a key that costs nothing (a field), sort an
    /// [`open_row`](Self::open_row) in place.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_ranked_row(3);
    /// row.extend([(5, 'e'), (1, 'a'), (4, 'd'), (2, 'b')]);
    /// assert_eq!(row.len(), 4);
    /// row.finish_row();
    /// assert_eq!(rows.finish()[0], ['a', 'b', 'd']);
    /// ```
    #[inline]
    #[track_caller]
    pub fn open_ranked_row<K: Ord>(&mut self, keep: usize) -> RankedRow<'_, 'a, K, T> {
        self.check();
        let arena = *self.items.allocator();
        let mut candidates = Vec::new_in(arena);
        if self.most_candidates > 0 {
            reserve(&mut candidates, self.most_candidates);
        }
        RankedRow {
            writer: self,
            keep,
            candidates,
            done: false,
        }
    }
}

impl<K: Ord, T> RankedRow<'_, '_, K, T> {
    /// Adds `value` as a candidate, ranked by `key`.
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
    /// let mut row = rows.open_ranked_row(1);
    /// row.push(2.5f32.to_bits(), "far");
    /// row.push(0.5f32.to_bits(), "near"); // (positive f32s order as their bits)
    /// drop(row);
    /// assert_eq!(rows.finish()[0], ["near"]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, key: K, value: T) {
        let candidates = &mut self.candidates;
        if candidates.len() == candidates.capacity() {
            grow(candidates);
        }
        candidates.push((key, value));
    }

    /// Adds every `(key, value)` of `pairs` as a candidate.
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
    /// let mut row = rows.open_ranked_row(10);
    /// row.extend((0..5u32).map(|i| (5 - i, i)));
    /// drop(row);
    /// assert_eq!(rows.finish()[0], [4, 3, 2, 1, 0]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn extend(&mut self, pairs: impl IntoIterator<Item = (K, T)>) {
        for (key, value) in pairs {
            self.push(key, value);
        }
    }

    /// Candidates gathered so far (before the cut).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_ranked_row(1);
    /// row.extend([(1, 'a'), (2, 'b')]);
    /// assert_eq!(row.len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    /// Whether no candidate was gathered yet.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::<u8>::writer_in(&arena);
    /// assert!(rows.open_ranked_row::<u32>(4).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// Closes the row now (as dropping it does): the `keep` values of
    /// least key join the writer, in key order.
    ///
    /// # Panics
    ///
    /// As [`OpenRow::finish_row`](super::OpenRow::finish_row).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_ranked_row(2);
    /// row.extend([(3, 30), (1, 10), (2, 20)]);
    /// row.finish_row();
    /// assert_eq!((rows.rows(), rows.len()), (1, 2));
    /// ```
    #[inline]
    #[track_caller]
    pub fn finish_row(mut self) {
        self.done = true;
        self.keep_least();
        let mut row = self.writer.open_row();
        while let Some((_, value)) = self.candidates.pop() {
            row.push(value);
        }
        row.finish_row();
    }

    /// Takes the row back: its candidates are dropped and no row is added.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut rows = tickarena::FrameRows::writer_in(&arena);
    /// let mut row = rows.open_ranked_row(2);
    /// row.push(1, 'a');
    /// row.abandon();
    /// assert_eq!((rows.rows(), rows.len()), (0, 0));
    /// ```
    pub fn abandon(mut self) {
        self.done = true;
        self.candidates.clear();
    }

    /// Cuts the candidates to the `keep` of least key, sorted by key from
    /// the last (so that popping them gives them in key order).
    fn keep_least(&mut self) {
        let candidates = &mut self.candidates;
        let held = candidates.len();
        if held > self.writer.most_candidates {
            self.writer.most_candidates = held;
        }
        if held > self.keep {
            // The `keep` least first (in no order), then only they sorted:
            // a whole sort of the candidates orders values the cut drops.
            candidates.select_nth_unstable_by(self.keep, |a, b| a.0.cmp(&b.0));
            candidates.truncate(self.keep);
        }
        candidates.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    }
}

impl<K: Ord, T> Drop for RankedRow<'_, '_, K, T> {
    /// Closes the row as [`finish_row`](RankedRow::finish_row) does,
    /// unless it was finished or abandoned. A drop must not panic: a row
    /// that cannot be closed is taken back and the writer's next use
    /// panics, as an [`OpenRow`](super::OpenRow)'s drop does.
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.keep_least();
        let mut row = self.writer.open_row();
        while let Some((_, value)) = self.candidates.pop() {
            row.push(value);
        }
    }
}

impl<K: Ord, T: fmt::Debug> fmt::Debug for RankedRow<'_, '_, K, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RankedRow")
            .field("candidates", &self.candidates.len())
            .field("keep", &self.keep)
            .finish_non_exhaustive()
    }
}
