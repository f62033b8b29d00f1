//! [`String<A>`]: the std `String` API over any [`Allocator`], so frame code
//! can build text in the [`FrameArena`](crate::FrameArena) for the cost of a
//! bump.
//!
//! It wraps a `Vec<u8, A>` whose bytes are always valid UTF-8. Growth goes
//! through `try_reserve`, so when the allocator refuses (an exhausted arena,
//! say) the infallible methods panic with a message that says so instead of
//! aborting the process, and the `try_*` methods return the error.

mod conversions;
mod cursor;
mod decode;
mod format;
mod from_utf16_error;
mod from_utf8_error;
mod into_chars;
mod ranges;
mod traits;

use alloc::alloc::Global;
use alloc::boxed::Box;
use alloc::collections::TryReserveError;
use alloc::vec::Vec;
use core::alloc::{Allocator, Layout};
use core::ptr::NonNull;
use core::{fmt, str};

use crate::reserve_error;

pub use from_utf8_error::FromUtf8Error;
pub use from_utf16_error::FromUtf16Error;
pub use into_chars::IntoChars;
pub use ranges::Drain;

/// A growable UTF-8 string in allocator `A`: `alloc::string::String` for any
/// allocator, the arena first of all.
///
/// Create one with [`format_in!`](crate::format_in),
/// [`String::from_str_in`] or [`String::new_in`]. It has std's `String`
/// API: every method, with std's behaviour and panic messages; each of
/// std's constructors on the global allocator (`String::from`,
/// `from_utf16`, ...) with an `_in` form for any allocator; and std's
/// traits (`Deref<Target = str>`, `Index` by every range, `fmt::Write`,
/// `Hash` like `str`, comparison with `str`, `&str`, std's `String` and
/// `Cow<str>`, `From`/`Extend`/`FromIterator` of chars, strings, boxes and
/// cows). std's own tests for `String` pass over a `FrameArena`
/// (`tests/all/std_string.rs`).
///
/// One thing std's `String` has that no other crate's type can: std's
/// `Pattern` impl for `&String`, so `"x".contains(&s)` does not compile;
/// write `"x".contains(s.as_str())` (or `&*s`).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, String};
///
/// let arena = FrameArena::new();
/// let mut line = String::new_in(&arena);
/// line.push_str("hp ");
/// line += "42";
/// line.push('/');
/// line.extend(['9', '9']);
/// assert_eq!(line, "hp 42/99");
/// assert!(line.starts_with("hp"));
/// ```
pub struct String<A: Allocator = Global> {
    vec: Vec<u8, A>,
}

impl String {
    /// Creates an empty string on the global allocator, without allocating.
    ///
    /// # Example
    ///
    /// ```
    /// let s = tickarena::String::new();
    /// assert!(s.is_empty());
    /// ```
    pub const fn new() -> String {
        String { vec: Vec::new() }
    }

    /// Creates an empty string on the global allocator with room for
    /// `capacity` bytes.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve it.
    ///
    /// # Example
    ///
    /// ```
    /// let s = tickarena::String::with_capacity(16);
    /// assert!(s.is_empty() && s.capacity() >= 16);
    /// ```
    #[track_caller]
    pub fn with_capacity(capacity: usize) -> String {
        String::with_capacity_in(capacity, Global)
    }

    /// Takes the string apart: its buffer, length and capacity (std's
    /// `String::into_raw_parts`); [`from_raw_parts`](String::from_raw_parts)
    /// puts it back together.
    ///
    /// # Example
    ///
    /// ```
    /// let (ptr, len, capacity) = tickarena::String::from("hi").into_raw_parts();
    /// // SAFETY: the parts of a string on the global allocator, unchanged.
    /// let back = unsafe { tickarena::String::from_raw_parts(ptr, len, capacity) };
    /// assert_eq!(back, "hi");
    /// ```
    #[must_use = "losing the pointer leaks memory"]
    pub fn into_raw_parts(self) -> (*mut u8, usize, usize) {
        let (ptr, len, capacity, Global) = self.into_raw_parts_with_alloc();
        (ptr, len, capacity)
    }

    /// A string from its parts on the global allocator (std's
    /// `String::from_raw_parts`).
    ///
    /// # Safety
    ///
    /// As `Vec::from_raw_parts`, and the first `length` bytes must be
    /// valid UTF-8.
    ///
    /// # Example
    ///
    /// ```
    /// let mut bytes = std::mem::ManuallyDrop::new(b"ok".to_vec());
    /// // SAFETY: a Vec's own parts, UTF-8, handed over once.
    /// let s = unsafe {
    ///     tickarena::String::from_raw_parts(bytes.as_mut_ptr(), bytes.len(), bytes.capacity())
    /// };
    /// assert_eq!(s, "ok");
    /// ```
    pub unsafe fn from_raw_parts(buf: *mut u8, length: usize, capacity: usize) -> String {
        // SAFETY: the caller's guarantees.
        unsafe { String::from_raw_parts_in(buf, length, capacity, Global) }
    }
}

impl<A: Allocator> String<A> {
    /// Creates an empty string in `alloc`, without allocating.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::new_in(&arena);
    /// assert_eq!((s.len(), s.capacity()), (0, 0));
    /// ```
    pub fn new_in(alloc: A) -> String<A> {
        String {
            vec: Vec::new_in(alloc),
        }
    }

    /// Creates an empty string in `alloc` with room for `capacity` bytes.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve `capacity` bytes.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::with_capacity_in(100, &arena);
    /// assert!(s.capacity() >= 100);
    /// ```
    #[track_caller]
    pub fn with_capacity_in(capacity: usize, alloc: A) -> String<A> {
        let mut string = String::new_in(alloc);
        string.reserve(capacity);
        string
    }

    /// Copies `s` into a new string in `alloc`, with capacity exactly `s.len()`.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve `s.len()` bytes.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::from_str_in("spawn", &arena);
    /// assert_eq!((s.as_str(), s.capacity()), ("spawn", 5));
    /// ```
    #[track_caller]
    #[inline]
    pub fn from_str_in(s: &str, alloc: A) -> String<A> {
        match String::try_copy_in(s, alloc) {
            Ok(string) => string,
            Err(error) => refused_panic(s.len(), 0, error),
        }
    }

    /// `s` copied into a new string in `alloc` with capacity `s.len()`: one
    /// allocation and one copy, straight through the allocator (going
    /// through `Vec::reserve_exact` costs a call to its out-of-line growth
    /// path for every string).
    #[inline]
    fn try_copy_in(s: &str, alloc: A) -> Result<String<A>, TryReserveError> {
        if s.is_empty() {
            return Ok(String::new_in(alloc));
        }
        let layout = Layout::for_value(s.as_bytes());
        let block = alloc
            .allocate(layout)
            .map_err(|_| reserve_error::refused(layout))?;
        let ptr = block.cast::<u8>();
        // SAFETY: the block is fresh and `s.len()` bytes long, so it cannot
        // overlap `s`.
        unsafe { ptr.copy_from_nonoverlapping(NonNull::from(s.as_bytes()).cast(), s.len()) };
        // SAFETY: `ptr` was allocated by `alloc` with the layout of
        // `[u8; s.len()]`, and its `s.len()` bytes are initialised UTF-8.
        let vec = unsafe { Vec::from_raw_parts_in(ptr.as_ptr(), s.len(), s.len(), alloc) };
        Ok(String { vec })
    }

    /// Takes the string apart: its buffer, length, capacity and allocator;
    /// [`from_raw_parts_in`](String::from_raw_parts_in) puts it back.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::from_str_in("hp", &arena);
    /// let (ptr, len, capacity, alloc) = s.into_raw_parts_with_alloc();
    /// // SAFETY: the string's own parts, unchanged.
    /// let back = unsafe { tickarena::String::from_raw_parts_in(ptr, len, capacity, alloc) };
    /// assert_eq!(back, "hp");
    /// ```
    #[must_use = "losing the pointer leaks memory"]
    pub fn into_raw_parts_with_alloc(self) -> (*mut u8, usize, usize, A) {
        let mut bytes = core::mem::ManuallyDrop::new(self.vec);
        let (ptr, len, capacity) = (bytes.as_mut_ptr(), bytes.len(), bytes.capacity());
        // SAFETY: the allocator is moved out once; the vector it was in is
        // never used or dropped again.
        let alloc = unsafe { core::ptr::read(bytes.allocator()) };
        (ptr, len, capacity, alloc)
    }

    /// A string from its parts in `alloc`.
    ///
    /// # Safety
    ///
    /// As `Vec::from_raw_parts_in`, and the first `length` bytes must be
    /// valid UTF-8.
    ///
    /// # Example
    ///
    /// See [`into_raw_parts_with_alloc`](String::into_raw_parts_with_alloc).
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let (ptr, len, cap, alloc) = tickarena::String::from_str_in("x", &arena).into_raw_parts_with_alloc();
    /// // SAFETY: the string's own parts.
    /// assert_eq!(unsafe { tickarena::String::from_raw_parts_in(ptr, len, cap, alloc) }, "x");
    /// ```
    pub unsafe fn from_raw_parts_in(
        buf: *mut u8,
        length: usize,
        capacity: usize,
        alloc: A,
    ) -> String<A> {
        // SAFETY: the caller's guarantees.
        let vec = unsafe { Vec::from_raw_parts_in(buf, length, capacity, alloc) };
        String { vec }
    }

    /// The bytes of the string as its vector (std's `as_mut_vec`).
    ///
    /// # Safety
    ///
    /// The bytes must be valid UTF-8 again before the borrow ends (any
    /// use of the string assumes they are).
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("AB");
    /// // SAFETY: an ASCII byte keeps the bytes UTF-8.
    /// unsafe { s.as_mut_vec().push(b'C') };
    /// assert_eq!(s, "ABC");
    /// ```
    pub unsafe fn as_mut_vec(&mut self) -> &mut Vec<u8, A> {
        &mut self.vec
    }

    /// Turns UTF-8 bytes into a string without copying.
    ///
    /// # Errors
    ///
    /// [`FromUtf8Error`] (which gives the bytes back) if `bytes` is not UTF-8.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let bytes = tickarena::vec_in![&arena; b'o', b'k'];
    /// assert_eq!(tickarena::String::from_utf8(bytes).unwrap(), "ok");
    /// let bad = tickarena::vec_in![&arena; 0xFF];
    /// assert_eq!(tickarena::String::from_utf8(bad).unwrap_err().into_bytes(), [0xFF]);
    /// ```
    pub fn from_utf8(bytes: Vec<u8, A>) -> Result<String<A>, FromUtf8Error<A>> {
        match str::from_utf8(&bytes) {
            Ok(_) => Ok(String { vec: bytes }),
            Err(error) => Err(FromUtf8Error::new(bytes, error)),
        }
    }

    /// Appends one character.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the growth.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::new();
    /// s.push('é');
    /// assert_eq!((s.as_str(), s.len()), ("é", 2));
    /// ```
    #[track_caller]
    pub fn push(&mut self, ch: char) {
        match ch.len_utf8() {
            1 => {
                self.reserve(1);
                self.vec.push(ch as u8);
            }
            _ => self.push_str(ch.encode_utf8(&mut [0; 4])),
        }
    }

    /// Appends `s`.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the growth (see
    /// [`try_push_str`](Self::try_push_str)).
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::new();
    /// s.push_str("ab");
    /// s.push_str("c");
    /// assert_eq!(s, "abc");
    /// ```
    #[track_caller]
    pub fn push_str(&mut self, s: &str) {
        self.reserve(s.len());
        self.vec.extend_from_slice(s.as_bytes());
    }

    /// Appends `s`, or returns an error and leaves the string unchanged if
    /// the allocator cannot serve the growth.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the allocator refuses or the length overflows.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(4096).build().unwrap();
    /// let mut s = tickarena::String::new_in(&arena);
    /// assert!(s.try_push_str("fits").is_ok());
    /// assert!(s.try_push_str(&"x".repeat(8192)).is_err());
    /// assert_eq!(s, "fits");
    /// ```
    pub fn try_push_str(&mut self, s: &str) -> Result<(), TryReserveError> {
        reserve_error::handled(self.vec.try_reserve(s.len()))?;
        self.vec.extend_from_slice(s.as_bytes());
        Ok(())
    }

    /// Inserts `ch` at byte index `idx`.
    ///
    /// # Panics
    ///
    /// If `idx` is past the end or not on a char boundary, or the allocator
    /// cannot serve the growth.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("ac");
    /// s.insert(1, 'b');
    /// assert_eq!(s, "abc");
    /// ```
    #[track_caller]
    pub fn insert(&mut self, idx: usize, ch: char) {
        self.insert_str(idx, ch.encode_utf8(&mut [0; 4]));
    }

    /// Inserts `s` at byte index `idx`.
    ///
    /// # Panics
    ///
    /// If `idx` is past the end or not on a char boundary, or the allocator
    /// cannot serve the growth.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("ls | rm");
    /// s.insert_str(2, " -a");
    /// assert_eq!(s, "ls -a | rm");
    /// ```
    #[track_caller]
    pub fn insert_str(&mut self, idx: usize, s: &str) {
        // std's assertion, so its message is std's.
        assert!(self.is_char_boundary(idx));
        self.push_str(s);
        self.vec[idx..].rotate_right(s.len());
    }

    /// Removes the last character and returns it, or `None` if empty.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("añ");
    /// assert_eq!(s.pop(), Some('ñ'));
    /// assert_eq!(s.pop(), Some('a'));
    /// assert_eq!(s.pop(), None);
    /// ```
    pub fn pop(&mut self) -> Option<char> {
        let ch = self.chars().next_back()?;
        self.vec.truncate(self.len() - ch.len_utf8());
        Some(ch)
    }

    /// Removes the character at byte index `idx` and returns it.
    ///
    /// # Panics
    ///
    /// If `idx` is not the start of a character of the string.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("a→b");
    /// assert_eq!(s.remove(1), '→');
    /// assert_eq!(s, "ab");
    /// ```
    #[track_caller]
    pub fn remove(&mut self, idx: usize) -> char {
        // Slicing as std does, so an index off a boundary panics with
        // std's message (naming the character it falls inside).
        let Some(ch) = self.as_str()[idx..].chars().next() else {
            panic!("cannot remove a char from the end of a string")
        };
        // Not `Vec::drain`: on stable Rust it is only there for the
        // global allocator.
        let (end, len) = (idx + ch.len_utf8(), self.len());
        self.vec.copy_within(end..len, idx);
        self.vec.truncate(len - ch.len_utf8());
        ch
    }

    /// Shortens the string to `new_len` bytes; does nothing if it is longer
    /// than the string.
    ///
    /// # Panics
    ///
    /// If `new_len` is not on a char boundary.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("entity 42");
    /// s.truncate(6);
    /// assert_eq!(s, "entity");
    /// ```
    #[track_caller]
    pub fn truncate(&mut self, new_len: usize) {
        if new_len < self.len() {
            // std's assertion, so its message is std's.
            assert!(self.is_char_boundary(new_len));
            self.vec.truncate(new_len);
        }
    }

    /// Empties the string, keeping its capacity.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("x");
    /// s.clear();
    /// assert!(s.is_empty() && s.capacity() >= 1);
    /// ```
    pub fn clear(&mut self) {
        self.vec.clear();
    }

    /// Keeps only the characters for which `keep` returns `true`, in order.
    ///
    /// If `keep` panics, the string is what std's `String::retain` leaves:
    /// unchanged if `keep` had rejected nothing yet, otherwise the
    /// characters accepted so far.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("a1b2ç3");
    /// s.retain(|c| !c.is_ascii_digit());
    /// assert_eq!(s, "abç");
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(char) -> bool) {
        /// Accepted characters are moved down to `written`. Dropped (at
        /// the end, or on a panic in `keep`) once a character was
        /// rejected, it cuts the string after the accepted ones, so the
        /// bytes left are always whole characters.
        struct Compacting<'a, A: Allocator> {
            vec: &'a mut Vec<u8, A>,
            written: usize,
            read: usize,
        }
        impl<A: Allocator> Drop for Compacting<'_, A> {
            fn drop(&mut self) {
                if self.written < self.read {
                    self.vec.truncate(self.written);
                }
            }
        }
        let len = self.len();
        let mut compacting = Compacting {
            vec: &mut self.vec,
            written: 0,
            read: 0,
        };
        while compacting.read < len {
            let read = compacting.read;
            // Bytes from `read` on are untouched, so they are whole characters.
            let width = utf8_width(compacting.vec[read]);
            let ch = str::from_utf8(&compacting.vec[read..read + width])
                .ok()
                .and_then(|c| c.chars().next())
                .expect("the unread tail of a String is valid UTF-8");
            if keep(ch) {
                let written = compacting.written;
                compacting.vec.copy_within(read..read + width, written);
                compacting.written += width;
            }
            compacting.read += width;
        }
    }

    /// Makes room for at least `additional` more bytes.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the growth or the length overflows,
    /// with a message that names the bytes asked for.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::new();
    /// s.reserve(64);
    /// assert!(s.capacity() >= 64);
    /// ```
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if self.vec.capacity() - self.vec.len() < additional {
            self.grow_or_panic(additional);
        }
    }

    /// Grows the buffer, or panics with a message that says what was refused.
    /// Out of line but not `#[cold]`: the first push into an empty string
    /// comes here, which is ordinary; only the refusal is cold.
    #[inline(never)]
    #[track_caller]
    fn grow_or_panic(&mut self, additional: usize) {
        if let Err(error) = reserve_error::handled(self.vec.try_reserve(additional)) {
            refused_panic(additional, self.len(), error)
        }
    }

    /// Makes room for at least `additional` more bytes, or returns an error.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the allocator refuses or the length overflows.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::new();
    /// assert!(s.try_reserve(16).is_ok());
    /// assert!(s.try_reserve(usize::MAX).is_err());
    /// ```
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        reserve_error::handled(self.vec.try_reserve(additional))
    }

    /// Makes room for exactly `additional` more bytes (std's
    /// `reserve_exact`: no doubling).
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the growth or the length overflows.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut s = tickarena::String::from_str_in("ab", &arena);
    /// s.reserve_exact(10);
    /// assert_eq!(s.capacity(), 12);
    /// ```
    #[track_caller]
    pub fn reserve_exact(&mut self, additional: usize) {
        if let Err(error) = self.try_reserve_exact(additional) {
            refused_panic(additional, self.len(), error)
        }
    }

    /// Makes room for exactly `additional` more bytes, or returns an error.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the allocator refuses or the length overflows.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::new();
    /// assert!(s.try_reserve_exact(8).is_ok());
    /// assert!(s.try_reserve_exact(usize::MAX).is_err());
    /// ```
    pub fn try_reserve_exact(&mut self, additional: usize) -> Result<(), TryReserveError> {
        reserve_error::handled(self.vec.try_reserve_exact(additional))
    }

    /// Gives capacity above `min_capacity` (and the length) back to the
    /// allocator.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut s = tickarena::String::with_capacity_in(100, &arena);
    /// s.push_str("abc");
    /// s.shrink_to(10);
    /// assert_eq!(s.capacity(), 10);
    /// ```
    pub fn shrink_to(&mut self, min_capacity: usize) {
        self.vec.shrink_to(min_capacity);
    }

    /// Gives unused capacity back to the allocator (in place at the top of a
    /// `FrameArena`).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut s = tickarena::String::with_capacity_in(100, &arena);
    /// s.push_str("short");
    /// s.shrink_to_fit();
    /// assert_eq!((s.capacity(), arena.used()), (5, 5));
    /// ```
    pub fn shrink_to_fit(&mut self) {
        self.vec.shrink_to_fit();
    }

    /// Length in bytes.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from("né").len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.vec.len()
    }

    /// Bytes the string can hold without growing.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert_eq!(tickarena::String::with_capacity_in(10, &arena).capacity(), 10);
    /// ```
    pub fn capacity(&self) -> usize {
        self.vec.capacity()
    }

    /// Whether the string has no bytes.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::String::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.vec.is_empty()
    }

    /// The contents as a `&str`.
    ///
    /// # Example
    ///
    /// ```
    /// let s = tickarena::String::from("id");
    /// let view: &str = s.as_str();
    /// assert_eq!(view, "id");
    /// ```
    pub fn as_str(&self) -> &str {
        // SAFETY: every method keeps the bytes valid UTF-8 (the type's invariant).
        unsafe { str::from_utf8_unchecked(&self.vec) }
    }

    /// The contents as a `&mut str`.
    ///
    /// # Example
    ///
    /// ```
    /// let mut s = tickarena::String::from("up");
    /// s.as_mut_str().make_ascii_uppercase();
    /// assert_eq!(s, "UP");
    /// ```
    pub fn as_mut_str(&mut self) -> &mut str {
        // SAFETY: the bytes are valid UTF-8, and `&mut str` only allows
        // changes that keep them so.
        unsafe { str::from_utf8_unchecked_mut(&mut self.vec) }
    }

    /// The contents as bytes.
    ///
    /// # Example
    ///
    /// ```
    /// assert_eq!(tickarena::String::from("hi").as_bytes(), b"hi");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.vec
    }

    /// Turns the string into its bytes, without copying.
    ///
    /// # Example
    ///
    /// ```
    /// let bytes = tickarena::String::from("hi").into_bytes();
    /// assert_eq!(bytes, b"hi");
    /// ```
    pub fn into_bytes(self) -> Vec<u8, A> {
        self.vec
    }

    /// Turns the string into a `Box<str, A>`, giving spare capacity back.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let boxed = tickarena::format_in!(&arena, "{}-{}", 1, 2).into_boxed_str();
    /// assert_eq!(&*boxed, "1-2");
    /// ```
    pub fn into_boxed_str(self) -> Box<str, A> {
        let (bytes, alloc) = Box::into_raw_with_allocator(self.vec.into_boxed_slice());
        // SAFETY: the bytes are valid UTF-8, and `str` has the layout of
        // `[u8]`, so the box can be reinterpreted with the same allocator.
        unsafe { Box::from_raw_in(bytes as *mut str, alloc) }
    }

    /// Consumes the string and leaks its text: a `&'a mut str` for as long
    /// as the allocator's memory lives. In a frame arena this is how a
    /// string is frozen: the `&'f mut str` no longer holds the arena, so it
    /// can be sent to another thread or sealed with the frame
    /// ([`FrameArena::seal`](crate::FrameArena::seal)); its bytes are
    /// reclaimed with the frame. On the global allocator the memory is
    /// never freed (like std's `String::leak`).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let frozen: &mut str = tickarena::format_in!(&arena, "tick {}", 3).leak();
    /// frozen.make_ascii_uppercase();
    /// let sent = std::thread::scope(|s| s.spawn(|| frozen.len()).join().unwrap());
    /// assert_eq!((&*frozen, sent), ("TICK 3", 6));
    /// ```
    pub fn leak<'a>(self) -> &'a mut str
    where
        A: 'a,
    {
        let bytes = self.vec.leak();
        // SAFETY: the bytes are the string's, valid UTF-8.
        unsafe { core::str::from_utf8_unchecked_mut(bytes) }
    }

    /// The allocator the string lives in.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::new_in(&arena);
    /// assert!(std::ptr::eq(*s.allocator(), &arena));
    /// ```
    pub fn allocator(&self) -> &A {
        self.vec.allocator()
    }
}

/// The panic of a string whose allocator refused to grow it by `additional`
/// bytes from `len`.
#[cold]
#[inline(never)]
#[track_caller]
fn refused_panic(additional: usize, len: usize, error: TryReserveError) -> ! {
    // A length past `isize::MAX` fits no allocator: std's message, since
    // no reservation could help.
    if error == reserve_error::capacity_overflow() {
        panic!("capacity overflow");
    }
    panic!(
        "tickarena::String could not grow by {additional} bytes (length {len}): {error}; \
         if it lives in a FrameArena, raise FrameArena::builder().reserve(bytes)"
    )
}

/// Bytes in the UTF-8 character that starts with `lead`.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0x00..0x80 => 1,
        0xC0..0xE0 => 2,
        0xE0..0xF0 => 3,
        _ => 4,
    }
}

impl<A: Allocator> fmt::Write for String<A> {
    /// Appends `s`; returns `fmt::Error` (instead of panicking) when the
    /// allocator cannot serve the growth.
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.try_push_str(s).map_err(|_| fmt::Error)
    }

    fn write_char(&mut self, ch: char) -> fmt::Result {
        self.write_str(ch.encode_utf8(&mut [0; 4]))
    }
}
