//! Typed helpers: place values, slices and strings in the arena.
//!
//! Values placed here are never dropped: the frame's memory is reused
//! without running destructors, as in `bumpalo`. Use `Box::new_in` or
//! `Vec::new_in` for values whose `Drop` must run.

use core::alloc::AllocError;
use core::alloc::Layout;
use core::ptr::NonNull;

use alloc::vec::Vec;

use super::FrameArena;
use super::uninit::slice_layout;

// Handing out `&mut T` from `&self` is the point of an arena: each call
// returns fresh memory that nothing else refers to.
#[allow(
    clippy::mut_from_ref,
    reason = "every call returns fresh, unaliased memory"
)]
impl FrameArena {
    /// Moves `value` into the arena and returns a reference to it for the
    /// rest of the frame. Its destructor never runs.
    ///
    /// # Panics
    ///
    /// When the reservation is exhausted or the OS refuses to commit more
    /// memory; the message says which and what to configure.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let health = arena.alloc(100u32);
    /// *health -= 30;
    /// assert_eq!(*health, 70);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn alloc<T>(&self, value: T) -> &mut T {
        self.alloc_with(|| value)
    }

    /// Like [`alloc`](Self::alloc), but returns an error instead of
    /// panicking when the arena cannot serve (`value` is dropped then).
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the reservation is exhausted or the OS refuses to
    /// commit more memory.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(64 << 10).build().unwrap();
    /// assert!(arena.try_alloc([0u8; 1024]).is_ok());
    /// assert!(arena.try_alloc([0u8; 128 << 10]).is_err());
    /// ```
    #[inline(always)]
    pub fn try_alloc<T>(&self, value: T) -> Result<&mut T, AllocError> {
        self.try_alloc_with(|| value)
    }

    /// `value` in a `Box` in this arena (dropped with the box), or the
    /// refusal: `Box::try_new_in` is not stable on Rust 1.100, and
    /// `Box::new_in` aborts the process when the arena cannot serve.
    #[cfg(feature = "serde")]
    pub(crate) fn try_boxed<T>(
        &self,
        value: T,
    ) -> Result<alloc::boxed::Box<T, &FrameArena>, AllocError> {
        let slot: *mut T = self.try_alloc_uninit::<T>()?.write(value);
        // SAFETY: `slot` was allocated by this arena with `Layout::new::<T>()`
        // (what the box frees it with, through `&FrameArena`) and holds an
        // initialised `T` that nothing else refers to.
        Ok(unsafe { alloc::boxed::Box::from_raw_in(slot, self) })
    }

    /// Allocates room for a `T`, then calls `f` and moves its value there.
    ///
    /// The value is made before it is moved in (on the stack, for a large
    /// one, unless the optimiser writes it in place, which is not
    /// guaranteed): for values of many kilobytes, use
    /// [`alloc_uninit`](Self::alloc_uninit) or
    /// [`alloc_zeroed`](Self::alloc_zeroed), which never build the value
    /// outside the arena.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc); and if `f` panics (the room stays used
    /// until the frame ends).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let grid = arena.alloc_with(|| [[0u8; 64]; 64]);
    /// grid[3][4] = 1;
    /// assert_eq!(grid.iter().flatten().map(|&c| c as u32).sum::<u32>(), 1);
    /// ```
    #[inline(always)]
    #[track_caller]
    pub fn alloc_with<T>(&self, f: impl FnOnce() -> T) -> &mut T {
        let layout = Layout::new::<T>();
        // A `match`, not `unwrap_or_else`: a closure would not pass on the
        // caller's location, and the panic would name this file.
        let ptr = match self.alloc_type_layout(layout) {
            Ok(ptr) => ptr,
            Err(AllocError) => self.out_of_memory(layout),
        };
        // SAFETY: `ptr` is fresh arena memory for one `T`.
        unsafe { write_value(ptr.cast(), f()) }
    }

    /// Like [`alloc_with`](Self::alloc_with), but returns an error instead of
    /// panicking when the arena cannot serve (`f` is not called then).
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let ids = arena.try_alloc_with(|| [7u16; 4]).unwrap();
    /// assert_eq!(ids, &[7; 4]);
    /// ```
    #[inline(always)]
    pub fn try_alloc_with<T>(&self, f: impl FnOnce() -> T) -> Result<&mut T, AllocError> {
        let ptr = self.alloc_type_layout(Layout::new::<T>())?;
        // SAFETY: `ptr` is fresh arena memory for one `T`.
        Ok(unsafe { write_value(ptr.cast(), f()) })
    }

    /// Copies `s` into the arena.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let name = arena.alloc_str("player one");
    /// name.make_ascii_uppercase();
    /// assert_eq!(name, "PLAYER ONE");
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_str(&self, s: &str) -> &mut str {
        let bytes = self.alloc_slice_copy(s.as_bytes());
        // SAFETY: the bytes were copied from a `str`, so they are UTF-8.
        unsafe { core::str::from_utf8_unchecked_mut(bytes) }
    }

    /// Like [`alloc_str`](Self::alloc_str), but returns an error instead of
    /// panicking.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert_eq!(arena.try_alloc_str("ok").unwrap(), "ok");
    /// ```
    #[inline]
    pub fn try_alloc_str(&self, s: &str) -> Result<&mut str, AllocError> {
        let bytes = self.try_alloc_slice_copy(s.as_bytes())?;
        // SAFETY: the bytes were copied from a `str`, so they are UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked_mut(bytes) })
    }

    /// Copies the slice `src` into the arena.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let path = arena.alloc_slice_copy(&[3u32, 1, 2]);
    /// path.sort();
    /// assert_eq!(path, &[1, 2, 3]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_copy<T: Copy>(&self, src: &[T]) -> &mut [T] {
        let layout = Layout::for_value(src);
        // A `match`, not `unwrap_or_else`: a closure would not pass on the
        // caller's location, and the panic would name this file.
        let ptr = match self.alloc_type_layout(layout) {
            Ok(ptr) => ptr,
            Err(AllocError) => self.out_of_memory(layout),
        };
        // SAFETY: `ptr` is fresh arena memory for `src.len()` values of `T`.
        unsafe { copy_slice(ptr.cast(), src) }
    }

    /// Like [`alloc_slice_copy`](Self::alloc_slice_copy), but returns an
    /// error instead of panicking.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert_eq!(arena.try_alloc_slice_copy(&[1, 2]).unwrap(), &[1, 2]);
    /// ```
    #[inline]
    pub fn try_alloc_slice_copy<T: Copy>(&self, src: &[T]) -> Result<&mut [T], AllocError> {
        let ptr = self.alloc_type_layout(Layout::for_value(src))?;
        // SAFETY: `ptr` is fresh arena memory for `src.len()` values of `T`.
        Ok(unsafe { copy_slice(ptr.cast(), src) })
    }

    /// Clones every element of `src` into the arena. The clones are never
    /// dropped: clones that own heap memory (a `String`, a `Vec`) leak it,
    /// so keep this to types without a destructor or use `Vec::new_in`.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc); and if a `clone` panics.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let spans = arena.alloc_slice_clone(&[0..3, 5..8]);
    /// spans[1].start += 1;
    /// assert_eq!(spans, &[0..3, 6..8]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_clone<T: Clone>(&self, src: &[T]) -> &mut [T] {
        self.alloc_slice_fill_with(src.len(), |i| src[i].clone())
    }

    /// Like [`alloc_slice_clone`](Self::alloc_slice_clone), but returns an
    /// error instead of panicking when the arena cannot serve.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert_eq!(arena.try_alloc_slice_clone(&[1..2]).unwrap(), &[1..2]);
    /// ```
    #[inline]
    pub fn try_alloc_slice_clone<T: Clone>(&self, src: &[T]) -> Result<&mut [T], AllocError> {
        self.try_alloc_slice_fill_with(src.len(), |i| src[i].clone())
    }

    /// Allocates a slice of `len` elements, element `i` being `f(i)`.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc); when `len` elements of `T` would not fit
    /// in `isize::MAX` bytes; and if `f` panics.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let squares = arena.alloc_slice_fill_with(5, |i| i * i);
    /// assert_eq!(squares, &[0, 1, 4, 9, 16]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_with<T>(&self, len: usize, f: impl FnMut(usize) -> T) -> &mut [T] {
        let layout = slice_layout::<T>(len);
        // A `match`, not `unwrap_or_else`: a closure would not pass on the
        // caller's location, and the panic would name this file.
        let ptr = match self.alloc_type_layout(layout) {
            Ok(ptr) => ptr,
            Err(AllocError) => self.out_of_memory(layout),
        };
        // SAFETY: `ptr` is fresh arena memory for `len` values of `T`.
        unsafe { fill_slice(ptr.cast(), len, f) }
    }

    /// Allocates a slice of the items of `iter`, which knows its length:
    /// one bump of the exact size, with no growing (where `Vec::new_in`
    /// and `extend` would go through the `Vec`'s reserve path).
    ///
    /// # Panics
    ///
    /// Like [`alloc_slice_fill_with`](Self::alloc_slice_fill_with); and if
    /// the iterator yields fewer items than its `len()` said (more are left
    /// unread).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let path = arena.alloc_slice_fill_iter((0..4).map(|k| (k, 2 * k)));
    /// assert_eq!(path, &[(0, 0), (1, 2), (2, 4), (3, 6)]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_slice_fill_iter<T, I>(&self, iter: I) -> &mut [T]
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        let iter = iter.into_iter();
        let len = iter.len();
        let layout = slice_layout::<T>(len);
        // A `match`, not `unwrap_or_else`: a closure would not pass on the
        // caller's location, and the panic would name this file.
        let ptr = match self.alloc_type_layout(layout) {
            Ok(ptr) => ptr,
            Err(AllocError) => self.out_of_memory(layout),
        };
        // SAFETY: `ptr` is fresh arena memory for `len` values of `T`.
        unsafe { fill_slice_from_iter(ptr.cast(), len, iter) }
    }

    /// Like [`alloc_slice_fill_with`](Self::alloc_slice_fill_with), but
    /// returns an error instead of panicking when the arena cannot serve or
    /// the size overflows (`f` is not called then).
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve or `len` elements would
    /// not fit in `isize::MAX` bytes.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert!(arena.try_alloc_slice_fill_with(usize::MAX, |_| 0u64).is_err());
    /// assert_eq!(arena.try_alloc_slice_fill_with(2, |i| i).unwrap(), &[0, 1]);
    /// ```
    #[inline]
    pub fn try_alloc_slice_fill_with<T>(
        &self,
        len: usize,
        f: impl FnMut(usize) -> T,
    ) -> Result<&mut [T], AllocError> {
        let layout = self.try_array_layout::<T>(len)?;
        let ptr = self.alloc_type_layout(layout)?;
        // SAFETY: `ptr` is fresh arena memory for `len` values of `T`.
        Ok(unsafe { fill_slice(ptr.cast(), len, f) })
    }
}

/// Writes the first `len` items of `iter` from `ptr` on (by internal
/// iteration, which the compiler turns into a plain loop) and returns them
/// as a slice; panics if `iter` has fewer (at the caller's location).
///
/// # Safety
///
/// `ptr` is valid for writes of `len` values of `T` and not aliased for
/// `'a`.
#[track_caller]
unsafe fn fill_slice_from_iter<'a, T>(
    ptr: NonNull<T>,
    len: usize,
    iter: impl Iterator<Item = T>,
) -> &'a mut [T] {
    let mut written = 0;
    iter.take(len).for_each(|item| {
        // SAFETY: `take(len)`: `written < len`, inside the caller's block.
        unsafe { ptr.add(written).write(item) };
        written += 1;
    });
    if written < len {
        // The items written so far are leaked, as a panicking `f` leaves
        // them in `fill_slice`: the arena's memory goes with its frame.
        short_iterator();
    }
    // SAFETY: all `len` elements are initialised; see the caller's promise.
    unsafe { NonNull::slice_from_raw_parts(ptr, len).as_mut() }
}

/// An `ExactSizeIterator` ran out before its `len()`.
#[cold]
#[inline(never)]
#[track_caller]
fn short_iterator() -> ! {
    panic!("alloc_slice_fill_iter: the iterator yielded fewer items than its len() said")
}

impl FrameArena {
    /// An empty vector with room for `capacity` values, allocated
    /// directly (one bump, as `Vec::with_capacity_in`, where reserving
    /// room in an empty vector goes through `RawVec`'s out-of-line
    /// growth), or `None` where the arena cannot serve it now: the caller
    /// then asks again by its own path, which counts the refusal and says
    /// why (this try counts nothing).
    #[inline]
    pub(crate) fn try_vec_with_room<T>(&self, capacity: usize) -> Option<Vec<T, &FrameArena>> {
        if capacity == 0 || size_of::<T>() == 0 {
            return Some(Vec::new_in(self));
        }
        let layout = Layout::array::<T>(capacity).ok()?;
        let ptr = self.alloc_layout_uncounted(layout).ok()?;
        // SAFETY: `ptr` is a fresh block of this arena of `layout`: aligned
        // for `T`, room for `capacity` values (not zero-sized), none of
        // them initialised (length 0); the `Vec` gives it back to this
        // arena with the same layout.
        Some(unsafe { Vec::from_raw_parts_in(ptr.cast::<T>().as_ptr(), 0, capacity, self) })
    }
}

/// Writes `value` to `ptr` and returns it as a reference.
///
/// # Safety
///
/// `ptr` must be valid for writes of one `T`, aligned, and handed out by the
/// arena to nobody else for as long as `'a` lasts.
#[inline(always)]
unsafe fn write_value<'a, T>(ptr: NonNull<T>, value: T) -> &'a mut T {
    // SAFETY: guaranteed by the caller.
    unsafe {
        ptr.write(value);
        &mut *ptr.as_ptr()
    }
}

/// Copies `src` to `ptr` and returns the copy.
///
/// # Safety
///
/// As for [`write_value`], for `src.len()` values of `T`.
#[inline(always)]
unsafe fn copy_slice<'a, T: Copy>(ptr: NonNull<T>, src: &[T]) -> &'a mut [T] {
    // SAFETY: guaranteed by the caller; fresh arena memory cannot overlap `src`.
    unsafe {
        ptr.copy_from_nonoverlapping(NonNull::from(src).cast(), src.len());
        NonNull::slice_from_raw_parts(ptr, src.len()).as_mut()
    }
}

/// Fills `len` elements at `ptr` with `f(0)..f(len)` and returns the slice.
/// If `f` panics, the elements written so far are leaked, never exposed.
///
/// # Safety
///
/// As for [`write_value`], for `len` values of `T`.
#[inline(always)]
unsafe fn fill_slice<'a, T>(
    ptr: NonNull<T>,
    len: usize,
    mut f: impl FnMut(usize) -> T,
) -> &'a mut [T] {
    for i in 0..len {
        // SAFETY: `i < len`, so the element is inside the block the caller
        // vouched for.
        unsafe { ptr.add(i).write(f(i)) };
    }
    // SAFETY: all `len` elements are initialised; see the caller's promise.
    unsafe { NonNull::slice_from_raw_parts(ptr, len).as_mut() }
}
