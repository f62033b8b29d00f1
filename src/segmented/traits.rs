//! The std traits of [`SegmentedList`]: indexing, extension, collection,
//! cloning, formatting like a `Vec`, comparison with slices and `Vec`s.

use core::alloc::Allocator;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::{Index, IndexMut};

use alloc::vec::Vec;

use super::SegmentedList;

impl<T, A: Allocator> Index<usize> for SegmentedList<T, A> {
    type Output = T;

    #[inline]
    #[track_caller]
    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(element) => element,
            None => out_of_bounds(index, self.len()),
        }
    }
}

impl<T, A: Allocator> IndexMut<usize> for SegmentedList<T, A> {
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, index: usize) -> &mut T {
        let len = self.len();
        match self.get_mut(index) {
            Some(element) => element,
            None => out_of_bounds(index, len),
        }
    }
}

/// The panic of an out-of-bounds index, worded as `Vec`'s.
#[cold]
#[inline(never)]
#[track_caller]
fn out_of_bounds(index: usize, len: usize) -> ! {
    panic!("index out of bounds: the len is {len} but the index is {index}")
}

impl<T, A: Allocator> Extend<T> for SegmentedList<T, A> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        let iter = iter.into_iter();
        self.reserve(iter.size_hint().0);
        iter.for_each(|element| self.push(element));
    }
}

impl<'a, T: Copy + 'a, A: Allocator> Extend<&'a T> for SegmentedList<T, A> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.extend(iter.into_iter().copied());
    }
}

impl<T> FromIterator<T> for SegmentedList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut list = SegmentedList::new();
        list.extend(iter);
        list
    }
}

impl<T: Clone, A: Allocator + Clone> Clone for SegmentedList<T, A> {
    /// A copy with the same elements, in a clone of the allocator.
    fn clone(&self) -> Self {
        let mut copy = SegmentedList::new_in(self.allocator().clone());
        copy.extend(self.iter().cloned());
        copy
    }

    /// Makes `self` a copy of `source` in the segments it already has:
    /// no allocation when it has room (a rollback snapshot's slot, a
    /// buffer reused every frame).
    fn clone_from(&mut self, source: &Self) {
        self.truncate(source.len());
        let shared = self.len();
        // A segment's place depends on the index alone, so both lists cut
        // the shared prefix at the same points: it is copied segment
        // against segment (`clone_from_slice`: a `memcpy` for `Copy`).
        for (mine, theirs) in self.segments_mut().zip(source.segments()) {
            mine.clone_from_slice(&theirs[..mine.len()]);
        }
        // Then what `self` lacks, pushed.
        let mut seen = 0;
        for theirs in source.segments() {
            let start = shared.saturating_sub(seen).min(theirs.len());
            seen += theirs.len();
            self.extend(theirs[start..].iter().cloned());
        }
    }
}

impl<T: fmt::Debug, A: Allocator> fmt::Debug for SegmentedList<T, A> {
    /// Prints like a `Vec`: `[1, 2, 3]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T, A: Allocator + Default> Default for SegmentedList<T, A> {
    /// An empty list, without allocating.
    fn default() -> Self {
        SegmentedList::new_in(A::default())
    }
}

impl<T: Hash, A: Allocator> Hash for SegmentedList<T, A> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        self.iter().for_each(|element| element.hash(state));
    }
}

/// Element-wise equality of two sequences of known lengths.
fn equal<'a, T: PartialEq<U> + 'a, U: 'a>(
    left: impl ExactSizeIterator<Item = &'a T>,
    right: impl ExactSizeIterator<Item = &'a U>,
) -> bool {
    left.len() == right.len() && left.zip(right).all(|(a, b)| a == b)
}

impl<T: PartialEq<U>, U, A: Allocator, B: Allocator> PartialEq<SegmentedList<U, B>>
    for SegmentedList<T, A>
{
    fn eq(&self, other: &SegmentedList<U, B>) -> bool {
        equal(self.iter(), other.iter())
    }
}

impl<T: Eq, A: Allocator> Eq for SegmentedList<T, A> {}

impl<T: PartialEq<U>, U, A: Allocator> PartialEq<[U]> for SegmentedList<T, A> {
    fn eq(&self, other: &[U]) -> bool {
        equal(self.iter(), other.iter())
    }
}

impl<T: PartialEq<U>, U, A: Allocator> PartialEq<&[U]> for SegmentedList<T, A> {
    fn eq(&self, other: &&[U]) -> bool {
        equal(self.iter(), other.iter())
    }
}

impl<T: PartialEq<U>, U, A: Allocator, const N: usize> PartialEq<[U; N]> for SegmentedList<T, A> {
    fn eq(&self, other: &[U; N]) -> bool {
        equal(self.iter(), other.iter())
    }
}

impl<T: PartialEq<U>, U, A: Allocator, B: Allocator> PartialEq<Vec<U, B>> for SegmentedList<T, A> {
    fn eq(&self, other: &Vec<U, B>) -> bool {
        equal(self.iter(), other.iter())
    }
}

impl<T: PartialEq<U>, U, A: Allocator, B: Allocator> PartialEq<SegmentedList<U, B>> for Vec<T, A> {
    fn eq(&self, other: &SegmentedList<U, B>) -> bool {
        equal(self.iter(), other.iter())
    }
}

impl<T: PartialEq<U>, U, A: Allocator> PartialEq<SegmentedList<U, A>> for [T] {
    fn eq(&self, other: &SegmentedList<U, A>) -> bool {
        equal(self.iter(), other.iter())
    }
}
