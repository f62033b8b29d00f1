//! Editing a [`String`] by byte range: `drain`, `replace_range`,
//! `split_off`, `extend_from_within`. On stable Rust `Vec::drain` and
//! `Vec::splice` are only there for the global allocator, so these move the
//! bytes themselves (`copy_within`, `truncate`), in safe code.

use core::alloc::Allocator;
use core::fmt;
use core::iter::FusedIterator;
use core::ops::{Bound, Range, RangeBounds};

use super::String;
use super::cursor::Cursor;

/// `range` checked against a string of `len` bytes, with std's panics (the
/// slice index's own): each bound is read once, so a `RangeBounds` that
/// answers differently each time is seen as one range.
#[track_caller]
fn checked<R: RangeBounds<usize>>(range: R, bytes: &[u8]) -> Range<usize> {
    let bounds: (Bound<usize>, Bound<usize>) =
        (range.start_bound().cloned(), range.end_bound().cloned());
    // Panics as slicing does: "range end index 6 out of range for slice of
    // length 5", "slice index starts at 3 but ends at 2", ...
    let _ = &bytes[bounds];
    // In range, so neither `+ 1` can overflow.
    let start = match bounds.0 {
        Bound::Included(start) => start,
        Bound::Excluded(start) => start + 1,
        Bound::Unbounded => 0,
    };
    let end = match bounds.1 {
        Bound::Included(end) => end + 1,
        Bound::Excluded(end) => end,
        Bound::Unbounded => bytes.len(),
    };
    start..end
}

impl<A: Allocator> String<A> {
    /// Removes the characters in the byte range `range` and returns them
    /// as an iterator; they are removed when it is dropped, whether or not
    /// it was used up (if it is leaked, the string keeps them).
    ///
    /// # Panics
    ///
    /// As std's: if the range is out of bounds or its ends are not on char
    /// boundaries.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut s = tickarena::String::from_str_in("αβγ", &arena);
    /// assert_eq!(s.drain(2..4).collect::<String>(), "β");
    /// assert_eq!(s, "αγ");
    /// ```
    #[track_caller]
    pub fn drain<R: RangeBounds<usize>>(&mut self, range: R) -> Drain<'_, A> {
        let Range { start, end } = checked(range, self.as_bytes());
        assert!(self.is_char_boundary(start));
        assert!(self.is_char_boundary(end));
        Drain {
            string: self,
            start,
            end,
            left: Cursor::new(start, end),
        }
    }

    /// Replaces the byte range `range` with `replace_with`.
    ///
    /// # Panics
    ///
    /// As std's: if the range is out of bounds, if its start or end is not
    /// on a char boundary ("start of range should be a character
    /// boundary"), or if the allocator cannot serve the growth.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut s = tickarena::String::from_str_in("Hello, world!", &arena);
    /// s.replace_range(7..12, "世界");
    /// assert_eq!(s, "Hello, 世界!");
    /// ```
    #[track_caller]
    pub fn replace_range<R: RangeBounds<usize>>(&mut self, range: R, replace_with: &str) {
        let Range { start, end } = checked(range, self.as_bytes());
        assert!(
            self.is_char_boundary(start),
            "start of range should be a character boundary"
        );
        assert!(
            self.is_char_boundary(end),
            "end of range should be a character boundary"
        );
        let (len, with) = (self.len(), replace_with.as_bytes());
        let new_end = start + with.len();
        // Nothing below can panic once the room is there, so the bytes are
        // valid UTF-8 again before anyone can see them.
        if new_end > end {
            self.reserve(new_end - end);
            self.vec.resize(len + (new_end - end), 0);
            self.vec.copy_within(end..len, new_end);
        } else {
            self.vec.copy_within(end..len, new_end);
            self.vec.truncate(len - (end - new_end));
        }
        self.vec[start..new_end].copy_from_slice(with);
    }

    /// Splits the string at byte `at`: this keeps `[0, at)`, the returned
    /// string (in a clone of the allocator) holds `[at, len)`.
    ///
    /// # Panics
    ///
    /// If `at` is not on a char boundary or past the end, or if the
    /// allocator cannot serve the new string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut name = tickarena::String::from_str_in("unit-42", &arena);
    /// let id = name.split_off(5);
    /// assert_eq!((name.as_str(), id.as_str()), ("unit-", "42"));
    /// ```
    #[track_caller]
    #[must_use = "use `.truncate()` if you don't need the other half"]
    pub fn split_off(&mut self, at: usize) -> String<A>
    where
        A: Clone,
    {
        assert!(self.is_char_boundary(at));
        let mut tail = String::with_capacity_in(self.len() - at, self.allocator().clone());
        tail.push_str(&self[at..]);
        self.vec.truncate(at);
        tail
    }

    /// Appends a copy of the byte range `src` of this string to its end.
    ///
    /// # Panics
    ///
    /// If the range is out of bounds or its ends are not on char
    /// boundaries, or if the allocator cannot serve the growth.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut s = tickarena::String::from_str_in("ab", &arena);
    /// s.extend_from_within(..);
    /// s.extend_from_within(1..3);
    /// assert_eq!(s, "ababba");
    /// ```
    #[track_caller]
    pub fn extend_from_within<R: RangeBounds<usize>>(&mut self, src: R) {
        let src = checked(src, self.as_bytes());
        assert!(self.is_char_boundary(src.start));
        assert!(self.is_char_boundary(src.end));
        self.reserve(src.len());
        self.vec.extend_from_within(src);
    }
}

/// The characters of a byte range of a [`String`], removed from it when
/// this is dropped: made by [`String::drain`].
///
/// # Example
///
/// ```
/// let mut s = tickarena::String::from("hello");
/// let mut drain = s.drain(1..4);
/// assert_eq!(drain.as_str(), "ell");
/// assert_eq!(drain.next_back(), Some('l'));
/// drop(drain);
/// assert_eq!(s, "ho");
/// ```
pub struct Drain<'a, A: Allocator = alloc::alloc::Global> {
    string: &'a mut String<A>,
    /// The range removed on drop.
    start: usize,
    end: usize,
    /// The part not yet yielded.
    left: Cursor,
}

impl<A: Allocator> Drain<'_, A> {
    /// The characters not yet yielded.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("abc");
    /// let mut drain = s.drain(..);
    /// drain.next();
    /// assert_eq!(drain.as_str(), "bc");
    /// ```
    pub fn as_str(&self) -> &str {
        self.left.rest(self.string)
    }
}

impl<A: Allocator> Iterator for Drain<'_, A> {
    type Item = char;

    #[inline]
    fn next(&mut self) -> Option<char> {
        self.left.next(self.string)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.as_str().chars().size_hint()
    }

    fn last(mut self) -> Option<char> {
        self.next_back()
    }
}

impl<A: Allocator> DoubleEndedIterator for Drain<'_, A> {
    #[inline]
    fn next_back(&mut self) -> Option<char> {
        self.left.next_back(self.string)
    }
}

impl<A: Allocator> FusedIterator for Drain<'_, A> {}

impl<A: Allocator> AsRef<str> for Drain<'_, A> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<A: Allocator> AsRef<[u8]> for Drain<'_, A> {
    fn as_ref(&self) -> &[u8] {
        self.as_str().as_bytes()
    }
}

impl<A: Allocator> fmt::Debug for Drain<'_, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Drain").field(&self.as_str()).finish()
    }
}

impl<A: Allocator> Drop for Drain<'_, A> {
    fn drop(&mut self) {
        let (start, end, len) = (self.start, self.end, self.string.len());
        // Both on char boundaries (checked in `drain`): what is left is
        // whole characters.
        self.string.vec.copy_within(end..len, start);
        self.string.vec.truncate(len - (end - start));
    }
}
