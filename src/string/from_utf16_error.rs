//! [`FromUtf16Error`]: UTF-16 input that does not decode.

use core::fmt;

/// The error of [`String::from_utf16`](crate::String::from_utf16) and its
/// relatives: a lone surrogate, or (from bytes) an odd number of bytes.
/// Its message is std's.
///
/// # Example
///
/// ```
/// let error = tickarena::String::from_utf16(&[0x61, 0xD800]).unwrap_err();
/// assert_eq!(error.to_string(), "invalid utf-16: lone surrogate found");
/// let odd = tickarena::String::from_utf16le(&[0x61, 0x00, 0x62]).unwrap_err();
/// assert_eq!(odd.to_string(), "invalid utf-16: odd number of bytes");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FromUtf16Error {
    odd_bytes: bool,
}

impl FromUtf16Error {
    pub(super) const LONE_SURROGATE: FromUtf16Error = FromUtf16Error { odd_bytes: false };
    pub(super) const ODD_BYTES: FromUtf16Error = FromUtf16Error { odd_bytes: true };
}

impl fmt::Display for FromUtf16Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.odd_bytes {
            "invalid utf-16: odd number of bytes"
        } else {
            "invalid utf-16: lone surrogate found"
        })
    }
}

impl core::error::Error for FromUtf16Error {}
