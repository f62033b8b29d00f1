//! Room without a value: uninitialised or zeroed memory in the arena, for
//! values too large to be built on the stack first.
//!
//! `alloc(value)` and `alloc_with(f)` move a `T` that exists somewhere
//! first (in registers or on the stack), which overflows the stack for
//! values of megabytes. These hand out the memory itself: the caller writes
//! it in place, or takes it zeroed when all-zero bytes are a valid `T`
//! ([`Zeroable`]).

use core::alloc::{AllocError, Layout};
use core::mem::MaybeUninit;
use core::ptr::NonNull;

use super::FrameArena;

/// Types for which all-zero bytes are a valid value: integers, floats,
/// `bool`, `char`, raw pointers, `Option` of a reference, and arrays and
/// tuples of them. What [`FrameArena::alloc_zeroed`] can hand out without
/// building a value first.
///
/// # Safety
///
/// A value of the type whose bytes are all zero must be a valid value (no
/// reference, no `NonNull`, no enum without a zero discriminant, no
/// padding-sensitive invariant).
///
/// # Example
///
/// ```
/// #[derive(Clone, Copy)]
/// #[repr(C)]
/// struct Particle {
///     position: [f32; 3],
///     age: u16,
/// }
/// // SAFETY: floats and integers are valid when zero, and so is a struct
/// // of them.
/// unsafe impl tickarena::Zeroable for Particle {}
///
/// let arena = tickarena::FrameArena::new();
/// let particles = arena.alloc_zeroed_slice::<Particle>(1000);
/// assert!(particles.iter().all(|p| p.age == 0 && p.position == [0.0; 3]));
/// ```
pub unsafe trait Zeroable {}

macro_rules! zeroable {
    ($($t:ty),* $(,)?) => {
        $(
            // SAFETY: zero is a valid value of this primitive type.
            unsafe impl Zeroable for $t {}
        )*
    };
}

zeroable!(
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    bool,
    char,
    ()
);

// SAFETY: a null raw pointer (to a sized type: no metadata) is valid.
unsafe impl<T> Zeroable for *const T {}
// SAFETY: as above.
unsafe impl<T> Zeroable for *mut T {}
// SAFETY: `None` is represented by the null pointer (the guaranteed
// null-pointer optimisation of `Option<&T>`).
unsafe impl<T> Zeroable for Option<&T> {}
// SAFETY: as above.
unsafe impl<T> Zeroable for Option<&mut T> {}
// SAFETY: as above, for `Option<NonNull<T>>`.
unsafe impl<T> Zeroable for Option<NonNull<T>> {}
// SAFETY: any bytes are a valid `MaybeUninit`.
unsafe impl<T> Zeroable for MaybeUninit<T> {}
// SAFETY: an array of zeroable elements has no bytes but theirs.
unsafe impl<T: Zeroable, const N: usize> Zeroable for [T; N] {}

macro_rules! zeroable_tuples {
    ($(($($t:ident),+)),* $(,)?) => {
        $(
            // SAFETY: a tuple's fields are each valid when zero; its
            // padding may hold any bytes.
            unsafe impl<$($t: Zeroable),+> Zeroable for ($($t,)+) {}
        )*
    };
}

zeroable_tuples!((A), (A, B), (A, B, C), (A, B, C, D));

// Handing out `&mut` from `&self` is the point of an arena: each call
// returns fresh memory that nothing else refers to.
#[allow(
    clippy::mut_from_ref,
    reason = "every call returns fresh, unaliased memory"
)]
impl FrameArena {
    /// Room for one `T`, uninitialised: write it in place (a large value
    /// never passes through the stack), then
    /// [`assume_init_mut`](MaybeUninit::assume_init_mut).
    ///
    /// [`alloc_with`](Self::alloc_with) builds its value first and moves
    /// it; for megabytes that overflows the stack, this does not.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// // Written in place, row by row: the same for a grid of megabytes.
    /// let heights = arena.alloc_uninit::<[[f32; 64]; 64]>();
    /// // SAFETY: an array of `MaybeUninit` needs no initialisation.
    /// let rows = unsafe {
    ///     &mut *heights.as_mut_ptr().cast::<[[core::mem::MaybeUninit<f32>; 64]; 64]>()
    /// };
    /// for (y, row) in rows.iter_mut().enumerate() {
    ///     for (x, cell) in row.iter_mut().enumerate() {
    ///         cell.write((x + y) as f32);
    ///     }
    /// }
    /// // SAFETY: every element was written above.
    /// let heights = unsafe { heights.assume_init_mut() };
    /// assert_eq!(heights[63][63], 126.0);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_uninit<T>(&self) -> &mut MaybeUninit<T> {
        let layout = Layout::new::<T>();
        match self.alloc_type_layout(layout) {
            // SAFETY: fresh arena memory for one `T`, which `MaybeUninit`
            // allows to hold any bytes.
            Ok(ptr) => unsafe { ptr.cast().as_mut() },
            Err(AllocError) => self.out_of_memory(layout),
        }
    }

    /// Like [`alloc_uninit`](Self::alloc_uninit), but returns an error
    /// instead of panicking when the arena cannot serve.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the reservation is exhausted or the OS refuses to
    /// commit more memory.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(1 << 20).build().unwrap();
    /// assert!(arena.try_alloc_uninit::<[u8; 4 << 20]>().is_err());
    /// let slot = arena.try_alloc_uninit::<u64>().unwrap();
    /// assert_eq!(*slot.write(9), 9);
    /// ```
    #[inline]
    pub fn try_alloc_uninit<T>(&self) -> Result<&mut MaybeUninit<T>, AllocError> {
        let ptr = self.alloc_type_layout(Layout::new::<T>())?;
        // SAFETY: as in `alloc_uninit`.
        Ok(unsafe { ptr.cast().as_mut() })
    }

    /// Room for `len` values of `T`, uninitialised.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc), and when `len` values of `T` would not
    /// fit in `isize::MAX` bytes.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let slots = arena.alloc_uninit_slice::<u32>(3);
    /// for (i, slot) in slots.iter_mut().enumerate() {
    ///     slot.write(i as u32 * 10);
    /// }
    /// // SAFETY: every element was written above.
    /// let values = unsafe { slots.assume_init_mut() };
    /// assert_eq!(values, &[0, 10, 20]);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_uninit_slice<T>(&self, len: usize) -> &mut [MaybeUninit<T>] {
        let layout = slice_layout::<T>(len);
        match self.alloc_type_layout(layout) {
            // SAFETY: fresh arena memory for `len` values of `T`.
            Ok(ptr) => unsafe { NonNull::slice_from_raw_parts(ptr.cast(), len).as_mut() },
            Err(AllocError) => self.out_of_memory(layout),
        }
    }

    /// Like [`alloc_uninit_slice`](Self::alloc_uninit_slice), but returns
    /// an error instead of panicking.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve or `len` values would not
    /// fit in `isize::MAX` bytes.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert!(arena.try_alloc_uninit_slice::<u64>(usize::MAX).is_err());
    /// assert_eq!(arena.try_alloc_uninit_slice::<u64>(4).unwrap().len(), 4);
    /// ```
    #[inline]
    pub fn try_alloc_uninit_slice<T>(
        &self,
        len: usize,
    ) -> Result<&mut [MaybeUninit<T>], AllocError> {
        let layout = self.try_array_layout::<T>(len)?;
        let ptr = self.alloc_type_layout(layout)?;
        // SAFETY: fresh arena memory for `len` values of `T`.
        Ok(unsafe { NonNull::slice_from_raw_parts(ptr.cast(), len).as_mut() })
    }

    /// A `T` with all bytes zero, written in place: a large zeroed value
    /// (a grid, a histogram) never passes through the stack.
    ///
    /// # Panics
    ///
    /// Like [`alloc`](Self::alloc).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let histogram = arena.alloc_zeroed::<[u32; 4096]>();
    /// histogram[7] += 1;
    /// assert_eq!(histogram.iter().sum::<u32>(), 1);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_zeroed<T: Zeroable>(&self) -> &mut T {
        zeroed(self.alloc_uninit::<T>())
    }

    /// Like [`alloc_zeroed`](Self::alloc_zeroed), but returns an error
    /// instead of panicking.
    ///
    /// # Errors
    ///
    /// [`AllocError`] when the arena cannot serve.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::builder().reserve(1 << 20).build().unwrap();
    /// assert!(arena.try_alloc_zeroed::<[u8; 4 << 20]>().is_err());
    /// assert_eq!(*arena.try_alloc_zeroed::<u64>().unwrap(), 0);
    /// ```
    #[inline]
    pub fn try_alloc_zeroed<T: Zeroable>(&self) -> Result<&mut T, AllocError> {
        self.try_alloc_uninit::<T>().map(zeroed)
    }

    /// `len` values of `T` with all bytes zero.
    ///
    /// # Panics
    ///
    /// Like [`alloc_uninit_slice`](Self::alloc_uninit_slice).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let counts = arena.alloc_zeroed_slice::<u16>(64 * 64);
    /// counts[5] += 2;
    /// assert_eq!(counts.iter().map(|&c| u32::from(c)).sum::<u32>(), 2);
    /// ```
    #[inline]
    #[track_caller]
    pub fn alloc_zeroed_slice<T: Zeroable>(&self, len: usize) -> &mut [T] {
        zeroed_slice(self.alloc_uninit_slice::<T>(len))
    }

    /// Like [`alloc_zeroed_slice`](Self::alloc_zeroed_slice), but returns
    /// an error instead of panicking.
    ///
    /// # Errors
    ///
    /// As [`try_alloc_uninit_slice`](Self::try_alloc_uninit_slice).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// assert!(arena.try_alloc_zeroed_slice::<u32>(usize::MAX).is_err());
    /// assert_eq!(arena.try_alloc_zeroed_slice::<u32>(2).unwrap(), &[0, 0]);
    /// ```
    #[inline]
    pub fn try_alloc_zeroed_slice<T: Zeroable>(&self, len: usize) -> Result<&mut [T], AllocError> {
        self.try_alloc_uninit_slice::<T>(len).map(zeroed_slice)
    }
}

/// The layout of `[T; len]`, or the panic that says it does not fit.
#[track_caller]
pub(super) fn slice_layout<T>(len: usize) -> Layout {
    match Layout::array::<T>(len) {
        Ok(layout) => layout,
        Err(_) => panic!(
            "tickarena: a slice of {len} elements of {} bytes does not fit in isize::MAX bytes",
            size_of::<T>()
        ),
    }
}

/// Fills `slot` with zero bytes and returns the `T` that makes.
fn zeroed<T: Zeroable>(slot: &mut MaybeUninit<T>) -> &mut T {
    // SAFETY: `slot` is valid for writes of one `T`, and zero bytes are a
    // valid `T` (the promise of `Zeroable`).
    unsafe {
        slot.as_mut_ptr().write_bytes(0, 1);
        slot.assume_init_mut()
    }
}

/// Fills `slots` with zero bytes and returns the `T`s that makes.
fn zeroed_slice<T: Zeroable>(slots: &mut [MaybeUninit<T>]) -> &mut [T] {
    // SAFETY: `slots` is valid for writes of `slots.len()` values of `T`,
    // and zero bytes are a valid `T` (the promise of `Zeroable`).
    unsafe {
        slots.as_mut_ptr().write_bytes(0, slots.len());
        slots.assume_init_mut()
    }
}
