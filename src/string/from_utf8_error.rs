//! [`FromUtf8Error`]: bytes that were not UTF-8, given back.

use alloc::alloc::Global;
use alloc::vec::Vec;
use core::alloc::Allocator;
use core::fmt;
use core::str::Utf8Error;

/// The error of [`String::from_utf8`](crate::String::from_utf8): the bytes
/// were not UTF-8. Holds them so they can be taken back.
///
/// # Example
///
/// ```
/// let error = tickarena::String::from_utf8(vec![b'a', 0xC3]).unwrap_err();
/// assert_eq!(error.utf8_error().valid_up_to(), 1);
/// assert_eq!(error.into_bytes(), [b'a', 0xC3]);
/// ```
pub struct FromUtf8Error<A: Allocator = Global> {
    bytes: Vec<u8, A>,
    error: Utf8Error,
}

impl<A: Allocator> FromUtf8Error<A> {
    pub(super) fn new(bytes: Vec<u8, A>, error: Utf8Error) -> Self {
        FromUtf8Error { bytes, error }
    }

    /// The bytes that were not UTF-8.
    ///
    /// # Example
    ///
    /// ```
    /// let error = tickarena::String::from_utf8(vec![0xFF]).unwrap_err();
    /// assert_eq!(error.as_bytes(), [0xFF]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Gives the bytes back.
    ///
    /// # Example
    ///
    /// ```
    /// let error = tickarena::String::from_utf8(vec![0xFF]).unwrap_err();
    /// assert_eq!(error.into_bytes(), vec![0xFF]);
    /// ```
    pub fn into_bytes(self) -> Vec<u8, A> {
        self.bytes
    }

    /// Where and why the bytes stop being UTF-8.
    ///
    /// # Example
    ///
    /// ```
    /// let error = tickarena::String::from_utf8(vec![b'o', b'k', 0xFF]).unwrap_err();
    /// assert_eq!(error.utf8_error().valid_up_to(), 2);
    /// ```
    pub fn utf8_error(&self) -> Utf8Error {
        self.error
    }
}

impl<A: Allocator + Clone> Clone for FromUtf8Error<A> {
    /// A copy of the bytes in the same allocator.
    fn clone(&self) -> Self {
        FromUtf8Error {
            bytes: self.bytes.clone(),
            error: self.error,
        }
    }
}

impl<A: Allocator, B: Allocator> PartialEq<FromUtf8Error<B>> for FromUtf8Error<A> {
    /// The same bytes (and so the same error).
    fn eq(&self, other: &FromUtf8Error<B>) -> bool {
        self.bytes[..] == other.bytes[..] && self.error == other.error
    }
}

impl<A: Allocator> Eq for FromUtf8Error<A> {}

impl<A: Allocator> fmt::Debug for FromUtf8Error<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FromUtf8Error")
            .field("bytes", &self.bytes.as_slice())
            .field("error", &self.error)
            .finish()
    }
}

impl<A: Allocator> fmt::Display for FromUtf8Error<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl<A: Allocator> core::error::Error for FromUtf8Error<A> {}
