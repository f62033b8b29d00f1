//! Strings decoded from bytes that may not be UTF-8, and from UTF-16: std's
//! constructors, each with an `_in` form for any allocator.

use alloc::alloc::Global;
use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::alloc::Allocator;
use core::char::{REPLACEMENT_CHARACTER, decode_utf16};

use super::{FromUtf8Error, FromUtf16Error, String};

impl String {
    /// std's `String::from_utf8_lossy`: the bytes as text, each invalid
    /// sequence replaced by U+FFFD; borrowed when they were valid UTF-8.
    /// [`from_utf8_lossy_in`](String::from_utf8_lossy_in) builds the text in
    /// an allocator of your choice.
    ///
    /// # Example
    ///
    /// ```
    /// let text = tickarena::String::from_utf8_lossy(b"hp\xFF 42");
    /// assert_eq!(text, "hp\u{FFFD} 42");
    /// ```
    pub fn from_utf8_lossy(bytes: &[u8]) -> Cow<'_, str> {
        alloc::string::String::from_utf8_lossy(bytes)
    }

    /// Decodes UTF-16 into a new string on the global allocator.
    ///
    /// # Errors
    ///
    /// [`FromUtf16Error`] if `units` holds a lone surrogate.
    ///
    /// # Example
    ///
    /// ```
    /// let units: Vec<u16> = "Héllo".encode_utf16().collect();
    /// assert_eq!(tickarena::String::from_utf16(&units).unwrap(), "Héllo");
    /// ```
    pub fn from_utf16(units: &[u16]) -> Result<String, FromUtf16Error> {
        String::from_utf16_in(units, Global)
    }

    /// Decodes UTF-16, with each lone surrogate replaced by U+FFFD.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from_utf16_lossy(&[0x61, 0xD800]), "a\u{FFFD}");
    /// ```
    pub fn from_utf16_lossy(units: &[u16]) -> String {
        String::from_utf16_lossy_in(units, Global)
    }

    /// Decodes little-endian UTF-16 bytes.
    ///
    /// # Errors
    ///
    /// [`FromUtf16Error`] for a lone surrogate or an odd number of bytes.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from_utf16le(&[0x68, 0, 0x69, 0]).unwrap(), "hi");
    /// ```
    pub fn from_utf16le(bytes: &[u8]) -> Result<String, FromUtf16Error> {
        String::from_utf16le_in(bytes, Global)
    }

    /// Decodes little-endian UTF-16 bytes, replacing invalid data (a lone
    /// surrogate, an odd last byte) by U+FFFD.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from_utf16le_lossy(&[0x68, 0, 0x69]), "h\u{FFFD}");
    /// ```
    pub fn from_utf16le_lossy(bytes: &[u8]) -> String {
        String::from_utf16le_lossy_in(bytes, Global)
    }

    /// Decodes big-endian UTF-16 bytes.
    ///
    /// # Errors
    ///
    /// [`FromUtf16Error`] for a lone surrogate or an odd number of bytes.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from_utf16be(&[0, 0x68, 0, 0x69]).unwrap(), "hi");
    /// ```
    pub fn from_utf16be(bytes: &[u8]) -> Result<String, FromUtf16Error> {
        String::from_utf16be_in(bytes, Global)
    }

    /// Decodes big-endian UTF-16 bytes, replacing invalid data by U+FFFD.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from_utf16be_lossy(&[0, 0x68, 0]), "h\u{FFFD}");
    /// ```
    pub fn from_utf16be_lossy(bytes: &[u8]) -> String {
        String::from_utf16be_lossy_in(bytes, Global)
    }
}

impl<A: Allocator> String<A> {
    /// The bytes as text in `alloc`, each invalid sequence replaced by
    /// U+FFFD (always a copy: the text lives in `alloc`).
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let text = tickarena::String::from_utf8_lossy_in(b"\xF0\x90\x80name", &arena);
    /// assert_eq!(text, "\u{FFFD}name");
    /// ```
    #[track_caller]
    pub fn from_utf8_lossy_in(bytes: &[u8], alloc: A) -> String<A> {
        let mut text = String::with_capacity_in(bytes.len(), alloc);
        push_utf8_lossy(&mut text, bytes);
        text
    }

    /// std's `String::from_utf8_lossy_owned`: the bytes as a string, taken
    /// over when they are valid UTF-8; otherwise a new string in the same
    /// allocator with each invalid sequence replaced by U+FFFD.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the new string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let bytes = tickarena::vec_in![&arena; b'o', 0xC0, b'k'];
    /// assert_eq!(tickarena::String::from_utf8_lossy_owned(bytes), "o\u{FFFD}k");
    /// ```
    #[track_caller]
    pub fn from_utf8_lossy_owned(bytes: Vec<u8, A>) -> String<A>
    where
        A: Clone,
    {
        match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(error) => error.into_utf8_lossy(),
        }
    }

    /// std's `String::from_utf8_unchecked`: the bytes as a string, unchecked.
    ///
    /// # Safety
    ///
    /// `bytes` must be valid UTF-8.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let bytes = tickarena::vec_in![&arena; b'o', b'k'];
    /// // SAFETY: ASCII is UTF-8.
    /// let text = unsafe { tickarena::String::from_utf8_unchecked(bytes) };
    /// assert_eq!(text, "ok");
    /// ```
    pub unsafe fn from_utf8_unchecked(bytes: Vec<u8, A>) -> String<A> {
        String { vec: bytes }
    }

    /// Decodes UTF-16 into a new string in `alloc`.
    ///
    /// # Errors
    ///
    /// [`FromUtf16Error`] if `units` holds a lone surrogate.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let units: Vec<u16> = "𝄞 clef".encode_utf16().collect();
    /// assert_eq!(tickarena::String::from_utf16_in(&units, &arena).unwrap(), "𝄞 clef");
    /// ```
    #[track_caller]
    pub fn from_utf16_in(units: &[u16], alloc: A) -> Result<String<A>, FromUtf16Error> {
        decode_strict(units.iter().copied(), units.len(), alloc)
    }

    /// Decodes UTF-16 into `alloc`, each lone surrogate replaced by U+FFFD.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let text = tickarena::String::from_utf16_lossy_in(&[0xDC00, 0x62], &arena);
    /// assert_eq!(text, "\u{FFFD}b");
    /// ```
    #[track_caller]
    pub fn from_utf16_lossy_in(units: &[u16], alloc: A) -> String<A> {
        decode_lossy(units.iter().copied(), units.len(), false, alloc)
    }

    /// Decodes little-endian UTF-16 bytes into `alloc`.
    ///
    /// # Errors
    ///
    /// [`FromUtf16Error`] for a lone surrogate or an odd number of bytes.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let text = tickarena::String::from_utf16le_in(&[0x6F, 0, 0x6B, 0], &arena);
    /// assert_eq!(text.unwrap(), "ok");
    /// ```
    #[track_caller]
    pub fn from_utf16le_in(bytes: &[u8], alloc: A) -> Result<String<A>, FromUtf16Error> {
        decode_bytes_strict(bytes, u16::from_le_bytes, alloc)
    }

    /// Decodes little-endian UTF-16 bytes into `alloc`, replacing invalid
    /// data (a lone surrogate, an odd last byte) by U+FFFD.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let text = tickarena::String::from_utf16le_lossy_in(&[0x6F, 0, 0x00, 0xD8], &arena);
    /// assert_eq!(text, "o\u{FFFD}");
    /// ```
    #[track_caller]
    pub fn from_utf16le_lossy_in(bytes: &[u8], alloc: A) -> String<A> {
        decode_bytes_lossy(bytes, u16::from_le_bytes, alloc)
    }

    /// Decodes big-endian UTF-16 bytes into `alloc`.
    ///
    /// # Errors
    ///
    /// [`FromUtf16Error`] for a lone surrogate or an odd number of bytes.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let text = tickarena::String::from_utf16be_in(&[0, 0x6F, 0, 0x6B], &arena);
    /// assert_eq!(text.unwrap(), "ok");
    /// ```
    #[track_caller]
    pub fn from_utf16be_in(bytes: &[u8], alloc: A) -> Result<String<A>, FromUtf16Error> {
        decode_bytes_strict(bytes, u16::from_be_bytes, alloc)
    }

    /// Decodes big-endian UTF-16 bytes into `alloc`, replacing invalid data
    /// by U+FFFD.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let text = tickarena::String::from_utf16be_lossy_in(&[0, 0x6F, 0xD8], &arena);
    /// assert_eq!(text, "o\u{FFFD}");
    /// ```
    #[track_caller]
    pub fn from_utf16be_lossy_in(bytes: &[u8], alloc: A) -> String<A> {
        decode_bytes_lossy(bytes, u16::from_be_bytes, alloc)
    }
}

impl<A: Allocator + Clone> FromUtf8Error<A> {
    /// std's `FromUtf8Error::into_utf8_lossy`: the bytes as text, each
    /// invalid sequence replaced by U+FFFD, in the bytes' allocator.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let bytes = tickarena::vec_in![&arena; b'h', 0xFF, b'p'];
    /// let text = tickarena::String::from_utf8(bytes).unwrap_or_else(|e| e.into_utf8_lossy());
    /// assert_eq!(text, "h\u{FFFD}p");
    /// ```
    #[track_caller]
    pub fn into_utf8_lossy(self) -> String<A> {
        let bytes = self.into_bytes();
        let mut text = String::with_capacity_in(bytes.len(), bytes.allocator().clone());
        push_utf8_lossy(&mut text, &bytes);
        text
    }
}

/// Appends `bytes` to `text`, each invalid UTF-8 sequence as U+FFFD.
#[track_caller]
fn push_utf8_lossy<A: Allocator>(text: &mut String<A>, bytes: &[u8]) {
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            text.push(REPLACEMENT_CHARACTER);
        }
    }
}

/// `units` (about `len` of them) decoded into a new string in `alloc`, or
/// the error at the first lone surrogate.
#[track_caller]
fn decode_strict<A: Allocator>(
    units: impl Iterator<Item = u16>,
    len: usize,
    alloc: A,
) -> Result<String<A>, FromUtf16Error> {
    let mut text = String::with_capacity_in(len, alloc);
    for decoded in decode_utf16(units) {
        text.push(decoded.map_err(|_| FromUtf16Error::LONE_SURROGATE)?);
    }
    Ok(text)
}

/// `units` decoded into a new string in `alloc`, lone surrogates (and an odd
/// last byte, when `odd_byte`) as U+FFFD.
#[track_caller]
fn decode_lossy<A: Allocator>(
    units: impl Iterator<Item = u16>,
    len: usize,
    odd_byte: bool,
    alloc: A,
) -> String<A> {
    let mut text = String::with_capacity_in(len, alloc);
    decode_utf16(units).for_each(|decoded| text.push(decoded.unwrap_or(REPLACEMENT_CHARACTER)));
    if odd_byte {
        text.push(REPLACEMENT_CHARACTER);
    }
    text
}

/// UTF-16 bytes, each pair read by `unit` (little- or big-endian), decoded
/// into a new string in `alloc`; an odd number of bytes is an error.
#[track_caller]
fn decode_bytes_strict<A: Allocator>(
    bytes: &[u8],
    unit: fn([u8; 2]) -> u16,
    alloc: A,
) -> Result<String<A>, FromUtf16Error> {
    let (units, []) = bytes.as_chunks::<2>() else {
        return Err(FromUtf16Error::ODD_BYTES);
    };
    decode_strict(units.iter().copied().map(unit), units.len(), alloc)
}

/// As [`decode_bytes_strict`], with invalid data (an odd last byte too) as
/// U+FFFD.
#[track_caller]
fn decode_bytes_lossy<A: Allocator>(bytes: &[u8], unit: fn([u8; 2]) -> u16, alloc: A) -> String<A> {
    let (units, odd) = bytes.as_chunks::<2>();
    decode_lossy(
        units.iter().copied().map(unit),
        units.len(),
        !odd.is_empty(),
        alloc,
    )
}
