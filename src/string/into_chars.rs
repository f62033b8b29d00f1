//! [`IntoChars`]: a string's characters, by value.

use core::alloc::Allocator;
use core::fmt;
use core::iter::FusedIterator;

use super::String;
use super::cursor::Cursor;

impl<A: Allocator> String<A> {
    /// The string's characters, taking it by value (std's
    /// `String::into_chars`); what is left can be had back as a string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut chars = tickarena::String::from_str_in("añb", &arena).into_chars();
    /// assert_eq!(chars.next(), Some('a'));
    /// assert_eq!(chars.next_back(), Some('b'));
    /// assert_eq!(chars.into_string(), "ñ");
    /// ```
    pub fn into_chars(self) -> IntoChars<A> {
        IntoChars {
            left: Cursor::new(0, self.len()),
            string: self,
        }
    }
}

/// The characters of a [`String`], by value: made by
/// [`String::into_chars`].
///
/// # Example
///
/// ```
/// let upper: String = tickarena::String::from("abc")
///     .into_chars()
///     .map(|c| c.to_ascii_uppercase())
///     .collect();
/// assert_eq!(upper, "ABC");
/// ```
#[derive(Clone)]
pub struct IntoChars<A: Allocator = alloc::alloc::Global> {
    string: String<A>,
    /// The part not yet yielded.
    left: Cursor,
}

impl<A: Allocator> IntoChars<A> {
    /// The characters not yet yielded.
    ///
    /// # Example
    ///
    /// ```
    /// let mut chars = tickarena::String::from("xyz").into_chars();
    /// chars.next();
    /// assert_eq!(chars.as_str(), "yz");
    /// ```
    pub fn as_str(&self) -> &str {
        self.left.rest(&self.string)
    }

    /// The characters not yet yielded, as a string in the same buffer.
    ///
    /// # Example
    ///
    /// ```
    /// let mut chars = tickarena::String::from("xyz").into_chars();
    /// chars.next_back();
    /// assert_eq!(chars.into_string(), "xy");
    /// ```
    pub fn into_string(self) -> String<A> {
        let IntoChars { mut string, left } = self;
        let core::ops::Range {
            start: front,
            end: back,
        } = left.range();
        string.vec.truncate(back);
        string.vec.copy_within(front.., 0);
        string.vec.truncate(back - front);
        string
    }
}

impl<A: Allocator> Iterator for IntoChars<A> {
    type Item = char;

    #[inline]
    fn next(&mut self) -> Option<char> {
        self.left.next(&self.string)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.as_str().chars().size_hint()
    }

    fn last(mut self) -> Option<char> {
        self.next_back()
    }
}

impl<A: Allocator> DoubleEndedIterator for IntoChars<A> {
    #[inline]
    fn next_back(&mut self) -> Option<char> {
        self.left.next_back(&self.string)
    }
}

impl<A: Allocator> FusedIterator for IntoChars<A> {}

impl<A: Allocator> fmt::Debug for IntoChars<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("IntoChars").field(&self.as_str()).finish()
    }
}
