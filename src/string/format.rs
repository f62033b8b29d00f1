//! `format_in!` and `try_format_in!`: `format!` into any allocator.
//!
//! In a `FrameArena` the string is written once: the buffer starts at the
//! top of the arena, grows in place while the formatting writes past it, and
//! shrinks in place to exactly the written length at the end, so the bytes
//! are never copied and the arena keeps no slack.

use alloc::collections::TryReserveError;
use alloc::vec::Vec;
use core::alloc::{Allocator, Layout};
use core::fmt;
use core::mem::ManuallyDrop;
use core::ptr::{self, NonNull};

use super::String;
use crate::reserve_error::{self, capacity_overflow};

/// First buffer size for a formatted string with arguments: enough for most
/// labels and log lines. In the arena the excess is given back in place.
const FIRST_CAPACITY: usize = 64;

/// The buffer `format_in!` writes into: a raw block from the allocator,
/// grown with `Allocator::grow` and trimmed with `Allocator::shrink`, so that
/// in a `FrameArena` (where both happen in place at the top) the formatted
/// bytes are written once and never copied. Frees the block if dropped
/// before [`finish`](Buffer::finish) (a panicking `Display`).
struct Buffer<A: Allocator> {
    ptr: NonNull<u8>,
    len: usize,
    capacity: usize,
    alloc: A,
    /// Why a write failed, if the allocator refused one (kept even if a
    /// later, shorter write succeeds).
    refused: Option<TryReserveError>,
}

impl<A: Allocator> Buffer<A> {
    fn with_capacity_in(capacity: usize, alloc: A) -> Result<Self, TryReserveError> {
        let layout = Layout::array::<u8>(capacity).map_err(|_| capacity_overflow())?;
        let block = alloc
            .allocate(layout)
            .map_err(|_| reserve_error::refused(layout))?;
        Ok(Buffer {
            ptr: block.cast(),
            len: 0,
            capacity,
            alloc,
            refused: None,
        })
    }

    /// Grows the block to hold `additional` more bytes: doubling, so a long
    /// string takes a logarithmic number of grows. Out of line (most strings
    /// fit their first block), but not `#[cold]`: strings past 64 bytes are
    /// ordinary, not errors.
    #[inline(never)]
    fn grow(&mut self, additional: usize) -> Result<(), TryReserveError> {
        let needed = self
            .len
            .checked_add(additional)
            .ok_or_else(capacity_overflow)?;
        let new_capacity = needed.max(self.capacity.saturating_mul(2));
        let new_layout = Layout::array::<u8>(new_capacity).map_err(|_| capacity_overflow())?;
        // SAFETY: `ptr` is a live block of `capacity` bytes from this
        // allocator (a valid `[u8]` layout), and the new one is no smaller.
        let block = unsafe { self.alloc.grow(self.ptr, self.layout(), new_layout) }
            .map_err(|_| reserve_error::refused(new_layout))?;
        self.ptr = block.cast();
        self.capacity = new_capacity;
        Ok(())
    }

    fn layout(&self) -> Layout {
        // `capacity` was checked by `Layout::array` when it was set.
        Layout::array::<u8>(self.capacity).expect("a capacity that was allocated")
    }

    /// Trims the block to the written length and hands it to a `String`.
    fn finish(self) -> String<A> {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped after the allocator is
        // moved out, so it is moved exactly once.
        let alloc = unsafe { ptr::read(&this.alloc) };
        let len = this.len;
        if len < this.capacity {
            let trimmed = Layout::array::<u8>(len).expect("smaller than the capacity");
            // SAFETY: the block is live with `capacity` bytes; `len` is smaller.
            // An allocator that refuses leaves the longer block, which is fine.
            if let Ok(block) = unsafe { alloc.shrink(this.ptr, this.layout(), trimmed) } {
                this.ptr = block.cast();
                this.capacity = len;
            }
        }
        // SAFETY: `ptr` is a block of `capacity` bytes from `alloc` (or
        // dangling with capacity 0 after a shrink to nothing, which `Vec`
        // never frees), its first `len` bytes were written by `write_str`
        // from `&str`s, so they are initialised UTF-8.
        let vec = unsafe { Vec::from_raw_parts_in(this.ptr.as_ptr(), len, this.capacity, alloc) };
        String { vec }
    }
}

impl<A: Allocator> Drop for Buffer<A> {
    fn drop(&mut self) {
        // SAFETY: the block is live with this layout and not handed out.
        unsafe { self.alloc.deallocate(self.ptr, self.layout()) };
    }
}

impl<A: Allocator> fmt::Write for Buffer<A> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.capacity - self.len < s.len()
            && let Err(error) = self.grow(s.len())
        {
            self.refused.get_or_insert(error);
            return Err(fmt::Error);
        }
        // SAFETY: the block has room for `s.len()` more bytes after `len`,
        // and `s` cannot overlap a block that only this buffer refers to.
        unsafe {
            self.ptr
                .add(self.len)
                .copy_from_nonoverlapping(NonNull::from(s.as_bytes()).cast(), s.len())
        };
        self.len += s.len();
        Ok(())
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        // `{}` of a char and integer padding write single chars: store an
        // ASCII one directly, without `encode_utf8` and a `write_str` call.
        if c.is_ascii() && self.len < self.capacity {
            // SAFETY: `len < capacity`, so the byte is inside the block;
            // an ASCII byte is a whole UTF-8 character.
            unsafe { self.ptr.add(self.len).write(c as u8) };
            self.len += 1;
            return Ok(());
        }
        self.write_str(c.encode_utf8(&mut [0; 4]))
    }
}

impl<A: Allocator> String<A> {
    /// Formats `args` into a new string in `alloc`: what
    /// [`format_in!`](crate::format_in) expands to.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the string (with a message that says
    /// so), or a `Display`/`Debug` implementation returns an error, as
    /// `format!` does.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::from_fmt_in(format_args!("{}+{}", 1, 2), &arena);
    /// assert_eq!(s, "1+2");
    /// ```
    #[inline]
    #[track_caller]
    pub fn from_fmt_in(args: fmt::Arguments<'_>, alloc: A) -> String<A> {
        match String::try_from_fmt_in(args, alloc) {
            Ok(string) => string,
            Err(error) => refused(error),
        }
    }

    /// Formats `args` into a new string in `alloc`, or returns the
    /// allocation error: what [`try_format_in!`](crate::try_format_in)
    /// expands to.
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] when the allocator cannot serve the string.
    ///
    /// # Panics
    ///
    /// If a `Display`/`Debug` implementation returns an error of its own.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let s = tickarena::String::try_from_fmt_in(format_args!("{:>4}", 7), &arena).unwrap();
    /// assert_eq!(s, "   7");
    /// ```
    // Inlined into `from_fmt_in`, which `format_in!` calls (and LLVM
    // inlines where it sees fit): out of line, its fixed cost (the first
    // block, the trim to the written length) is some 60 instructions a
    // string; inlined, the parity game (a label per request) ran 0.6 %
    // fewer instructions.
    #[inline(always)]
    pub fn try_from_fmt_in(
        args: fmt::Arguments<'_>,
        alloc: A,
    ) -> Result<String<A>, TryReserveError> {
        if let Some(literal) = args.as_str() {
            // No arguments: one exact copy.
            return String::try_copy_in(literal, alloc);
        }
        let mut buffer = Buffer::with_capacity_in(FIRST_CAPACITY, alloc)?;
        let written = fmt::write(&mut buffer, args);
        // A refusal is an error even when `fmt::write` says `Ok`: a `Display`
        // that ignores the result of its `write_str` would otherwise hand
        // back a string with text missing.
        if let Some(error) = buffer.refused.take() {
            return Err(error);
        }
        if written.is_err() {
            panic!(
                "a formatting trait implementation returned an error when the underlying \
                 stream did not"
            );
        }
        Ok(buffer.finish())
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn refused(error: TryReserveError) -> ! {
    panic!(
        "tickarena::format_in! could not allocate the string: {error}; if it lives in a \
         FrameArena, raise FrameArena::builder().reserve(bytes), or use try_format_in!"
    )
}

/// `format!` into an allocator: `format_in!(alloc, "fmt", args..)` returns a
/// [`String<A>`](crate::String) in `alloc`.
///
/// In a [`FrameArena`](crate::FrameArena) the string costs a bump: it is
/// written once, in place, and occupies exactly its length.
///
/// # Panics
///
/// Where `format!` would, and when the allocator cannot serve the string
/// (use [`try_format_in!`](crate::try_format_in) to get an error instead).
///
/// # Example
///
/// ```
/// let arena = tickarena::FrameArena::new();
/// let (id, pos) = (7, (1.5, -2.0));
/// let label = tickarena::format_in!(&arena, "entity {id} at {pos:?}");
/// assert_eq!(label, "entity 7 at (1.5, -2.0)");
/// assert_eq!(arena.used(), label.len());
/// ```
#[macro_export]
macro_rules! format_in {
    ($alloc:expr, $($arg:tt)+) => {
        $crate::String::from_fmt_in(::core::format_args!($($arg)+), $alloc)
    };
}

/// `format!` into an allocator that may refuse:
/// `try_format_in!(alloc, "fmt", args..)` returns
/// `Result<String<A>, TryReserveError>`.
///
/// # Example
///
/// ```
/// let arena = tickarena::FrameArena::builder().reserve(4096).build().unwrap();
/// assert!(tickarena::try_format_in!(&arena, "{}", 12).is_ok());
/// let too_long = tickarena::try_format_in!(&arena, "{:>9000}", 1);
/// assert!(too_long.is_err());
/// ```
#[macro_export]
macro_rules! try_format_in {
    ($alloc:expr, $($arg:tt)+) => {
        $crate::String::try_from_fmt_in(::core::format_args!($($arg)+), $alloc)
    };
}
