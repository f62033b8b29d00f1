//! Iterators of [`SegmentedList`](super::SegmentedList): over segments as
//! slices, and over elements by walking those slices, so that `fold`-based
//! consumers (`sum`, `for_each`, `count`...) run slice loops that vectorize.

use core::alloc::Allocator;
use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::{fmt, mem, slice};

use super::SegmentedList;
use super::index::{SLOTS, segment_of, segment_start, slot_of_segment};

/// The filled segments of a list, as (first element, filled length) pairs,
/// from both ends. Borrows nothing itself: the typed iterators below carry
/// the lifetime.
struct RawSegments<T> {
    biased: *const [*mut T; SLOTS],
    len: usize,
    /// Segments `front..back` are still to be yielded.
    front: usize,
    back: usize,
}

impl<T> RawSegments<T> {
    fn new(biased: &[*mut T; SLOTS], len: usize) -> Self {
        let filled = if len == 0 { 0 } else { segment_of(len - 1) + 1 };
        RawSegments {
            biased,
            len,
            front: 0,
            back: filled,
        }
    }

    /// First element and filled length of segment `k` (which has elements).
    #[inline]
    fn segment(&self, k: usize) -> (*mut T, usize) {
        let start = segment_start(k);
        let filled = segment_start(k + 1).min(self.len) - start;
        if size_of::<T>() == 0 {
            return (core::ptr::NonNull::dangling().as_ptr(), filled);
        }
        // SAFETY: `biased` points into the table of a list borrowed for as
        // long as the typed iterator that owns this lives.
        let biased = unsafe { (*self.biased)[slot_of_segment(k)] };
        (biased.wrapping_add(start), filled)
    }

    #[inline]
    fn next(&mut self) -> Option<(*mut T, usize)> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.segment(self.front - 1)
        })
    }

    #[inline]
    fn next_back(&mut self) -> Option<(*mut T, usize)> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.segment(self.back)
        })
    }

    fn remaining(&self) -> usize {
        self.back - self.front
    }

    /// Elements in the segments still to be yielded.
    fn remaining_elements(&self) -> usize {
        if self.front < self.back {
            segment_start(self.back).min(self.len) - segment_start(self.front)
        } else {
            0
        }
    }
}

/// Iterator over the filled part of each segment as `&[T]`; from
/// [`SegmentedList::segments`].
///
/// # Example
///
/// ```
/// let list: tickarena::SegmentedList<_> = (0..10).collect();
/// let mut segments = list.segments();
/// assert_eq!(segments.next(), Some(&[0, 1, 2, 3, 4, 5, 6, 7][..]));
/// assert_eq!(segments.next(), Some(&[8, 9][..]));
/// assert_eq!(segments.next(), None);
/// ```
pub struct Segments<'a, T> {
    raw: RawSegments<T>,
    _borrow: PhantomData<&'a [T]>,
}

impl<'a, T> Segments<'a, T> {
    pub(super) fn new(biased: &'a [*mut T; SLOTS], len: usize) -> Self {
        Segments {
            raw: RawSegments::new(biased, len),
            _borrow: PhantomData,
        }
    }
}

impl<T> Segments<'_, T> {
    /// Elements in the segments not yet yielded.
    fn remaining_elements(&self) -> usize {
        self.raw.remaining_elements()
    }
}

impl<T> SegmentsMut<'_, T> {
    /// Elements in the segments not yet yielded.
    fn remaining_elements(&self) -> usize {
        self.raw.remaining_elements()
    }
}

impl<'a, T> Iterator for Segments<'a, T> {
    type Item = &'a [T];

    #[inline]
    fn next(&mut self) -> Option<&'a [T]> {
        let (first, len) = self.raw.next()?;
        // SAFETY: a filled segment's elements are initialised, and the list
        // is borrowed shared for `'a`.
        Some(unsafe { slice::from_raw_parts(first, len) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.raw.remaining(), Some(self.raw.remaining()))
    }
}

impl<'a, T> DoubleEndedIterator for Segments<'a, T> {
    #[inline]
    fn next_back(&mut self) -> Option<&'a [T]> {
        let (first, len) = self.raw.next_back()?;
        // SAFETY: as in `next`.
        Some(unsafe { slice::from_raw_parts(first, len) })
    }
}

impl<T> ExactSizeIterator for Segments<'_, T> {}
impl<T> FusedIterator for Segments<'_, T> {}

/// Iterator over the filled part of each segment as `&mut [T]`; from
/// [`SegmentedList::segments_mut`].
///
/// # Example
///
/// ```
/// let mut list: tickarena::SegmentedList<_> = (0..10).collect();
/// list.segments_mut().for_each(|segment| segment.reverse());
/// assert_eq!(list[0], 7);
/// ```
pub struct SegmentsMut<'a, T> {
    raw: RawSegments<T>,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<'a, T> SegmentsMut<'a, T> {
    pub(super) fn new(biased: &'a [*mut T; SLOTS], len: usize) -> Self {
        SegmentsMut {
            raw: RawSegments::new(biased, len),
            _borrow: PhantomData,
        }
    }
}

impl<'a, T> Iterator for SegmentsMut<'a, T> {
    type Item = &'a mut [T];

    #[inline]
    fn next(&mut self) -> Option<&'a mut [T]> {
        let (first, len) = self.raw.next()?;
        // SAFETY: a filled segment's elements are initialised, the list is
        // borrowed exclusively for `'a`, and each segment is yielded once.
        Some(unsafe { slice::from_raw_parts_mut(first, len) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.raw.remaining(), Some(self.raw.remaining()))
    }
}

impl<'a, T> DoubleEndedIterator for SegmentsMut<'a, T> {
    #[inline]
    fn next_back(&mut self) -> Option<&'a mut [T]> {
        let (first, len) = self.raw.next_back()?;
        // SAFETY: as in `next`.
        Some(unsafe { slice::from_raw_parts_mut(first, len) })
    }
}

impl<T> ExactSizeIterator for SegmentsMut<'_, T> {}
impl<T> FusedIterator for SegmentsMut<'_, T> {}

// SAFETY: these iterators hand out `&T` / `&mut T` as the borrows they
// stand for would: `Segments` is `&[T]`-like, `SegmentsMut` `&mut [T]`-like.
unsafe impl<T: Sync> Send for Segments<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for Segments<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Send for SegmentsMut<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for SegmentsMut<'_, T> {}

/// Defines an element iterator over a segment iterator: the current front
/// and back slices plus the segments between them.
///
/// `fold` and `rfold` (which `sum`, `for_each`, `count`, `max`... reach)
/// run one slice loop per segment, which vectorizes as a `Vec`'s does.
/// `next` (what a `for` loop reaches) counts nothing per element (the
/// length is derived from the slices and the segments left) and moves to
/// the next segment inline: no compiler vectorizes a loop across that, so a
/// `for` loop runs at scalar speed (see `guide` and docs/BENCHMARKS.md).
macro_rules! element_iter {
    ($(#[$doc:meta])* $name:ident, $segments:ident, $slice_iter:ident, $item:ty) => {
        $(#[$doc])*
        pub struct $name<'a, T> {
            front: slice::$slice_iter<'a, T>,
            back: slice::$slice_iter<'a, T>,
            segments: $segments<'a, T>,
        }

        impl<'a, T> $name<'a, T> {
            pub(super) fn new(segments: $segments<'a, T>) -> Self {
                $name {
                    front: Default::default(),
                    back: Default::default(),
                    segments,
                }
            }
        }

        impl<'a, T> Iterator for $name<'a, T> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<$item> {
                loop {
                    if let Some(element) = self.front.next() {
                        return Some(element);
                    }
                    match self.segments.next() {
                        Some(segment) => self.front = segment.into_iter(),
                        None => return self.back.next(),
                    }
                }
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                let len = self.len();
                (len, Some(len))
            }

            #[inline]
            fn fold<B, F: FnMut(B, $item) -> B>(self, init: B, mut f: F) -> B {
                let mut acc = self.front.fold(init, &mut f);
                for segment in self.segments {
                    acc = segment.into_iter().fold(acc, &mut f);
                }
                self.back.fold(acc, f)
            }
        }

        impl<'a, T> DoubleEndedIterator for $name<'a, T> {
            #[inline]
            fn next_back(&mut self) -> Option<$item> {
                loop {
                    if let Some(element) = self.back.next_back() {
                        return Some(element);
                    }
                    match self.segments.next_back() {
                        Some(segment) => self.back = segment.into_iter(),
                        None => return self.front.next_back(),
                    }
                }
            }

            #[inline]
            fn rfold<B, F: FnMut(B, $item) -> B>(self, init: B, mut f: F) -> B {
                let mut acc = self.back.rfold(init, &mut f);
                for segment in self.segments.rev() {
                    acc = segment.into_iter().rfold(acc, &mut f);
                }
                self.front.rfold(acc, f)
            }
        }

        impl<T> ExactSizeIterator for $name<'_, T> {
            #[inline]
            fn len(&self) -> usize {
                self.front.len() + self.segments.remaining_elements() + self.back.len()
            }
        }
        impl<T> FusedIterator for $name<'_, T> {}
    };
}

element_iter!(
    /// Iterator over `&T`; from [`SegmentedList::iter`].
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (0..100u64).collect();
    /// let mut iter = list.iter();
    /// assert_eq!((iter.next(), iter.next_back(), iter.len()), (Some(&0), Some(&99), 98));
    /// ```
    Iter,
    Segments,
    Iter,
    &'a T
);

element_iter!(
    /// Iterator over `&mut T`; from [`SegmentedList::iter_mut`].
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..100u64).collect();
    /// for x in list.iter_mut().rev().take(10) {
    ///     *x = 0;
    /// }
    /// assert_eq!(list.iter().sum::<u64>(), (0..90).sum::<u64>());
    /// ```
    IterMut,
    SegmentsMut,
    IterMut,
    &'a mut T
);

impl<T: fmt::Debug> fmt::Debug for Iter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Iter")
            .field("remaining", &self.len())
            .finish_non_exhaustive()
    }
}

/// Owning iterator over the elements; from `SegmentedList::into_iter`.
/// Elements not taken are dropped with it.
///
/// # Example
///
/// ```
/// let list: tickarena::SegmentedList<_> = ["a", "b", "c"].into_iter().collect();
/// let mut iter = list.into_iter();
/// assert_eq!(iter.next_back(), Some("c"));
/// assert_eq!(iter.collect::<Vec<_>>(), ["a", "b"]);
/// ```
pub struct IntoIter<T, A: Allocator = alloc::alloc::Global> {
    /// Holds the segments; its `len` is 0, so it drops no element itself.
    list: SegmentedList<T, A>,
    /// Elements `front..back` are still to be yielded.
    front: usize,
    back: usize,
}

impl<T, A: Allocator> IntoIter<T, A> {
    pub(super) fn new(mut list: SegmentedList<T, A>) -> Self {
        let back = mem::take(&mut list.len);
        list.reposition();
        IntoIter {
            list,
            front: 0,
            back,
        }
    }
}

impl<T, A: Allocator> Iterator for IntoIter<T, A> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        (self.front < self.back).then(|| {
            let element = self.list.table.element_ptr(self.front);
            self.front += 1;
            // SAFETY: elements `front..back` are initialised and owned by
            // the iterator; `front` moved past this one, so it is read once.
            unsafe { element.read() }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.back - self.front, Some(self.back - self.front))
    }
}

impl<T, A: Allocator> DoubleEndedIterator for IntoIter<T, A> {
    fn next_back(&mut self) -> Option<T> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            // SAFETY: as in `next`; `back` moved below this one.
            unsafe { self.list.table.element_ptr(self.back).read() }
        })
    }
}

impl<T, A: Allocator> ExactSizeIterator for IntoIter<T, A> {}
impl<T, A: Allocator> FusedIterator for IntoIter<T, A> {}

impl<T, A: Allocator> Drop for IntoIter<T, A> {
    fn drop(&mut self) {
        super::drop_elements(&self.list.table, self.front, self.back);
    }
}

impl<T, A: Allocator> IntoIterator for SegmentedList<T, A> {
    type Item = T;
    type IntoIter = IntoIter<T, A>;
    fn into_iter(self) -> IntoIter<T, A> {
        IntoIter::new(self)
    }
}

impl<'a, T, A: Allocator> IntoIterator for &'a SegmentedList<T, A> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T, A: Allocator> IntoIterator for &'a mut SegmentedList<T, A> {
    type Item = &'a mut T;
    type IntoIter = IterMut<'a, T>;
    fn into_iter(self) -> IterMut<'a, T> {
        self.iter_mut()
    }
}
