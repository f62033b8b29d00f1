//! `vec_in!`: `vec!` into any allocator.

use core::alloc::Allocator;

use alloc::vec::Vec;

/// `vec!` into an allocator: `vec_in![alloc; a, b, c]`,
/// `vec_in![alloc; elem; n]` or `vec_in![alloc;]` makes a `Vec<T, A>`.
///
/// # Panics
///
/// When the allocator cannot serve the vector.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, vec_in};
///
/// let arena = FrameArena::new();
/// let ids: Vec<u32, &FrameArena> = vec_in![&arena; 1, 2, 3];
/// let zeros = vec_in![&arena; 0u8; 16];
/// let mut empty: Vec<u64, _> = vec_in![&arena;];
/// empty.push(9);
/// assert_eq!((ids.len(), zeros.len(), empty[0]), (3, 16, 9));
/// ```
#[macro_export]
macro_rules! vec_in {
    ($alloc:expr;) => {
        $crate::__vec_new_in($alloc)
    };
    ($alloc:expr; $elem:expr; $n:expr) => {
        $crate::__vec_from_elem_in($elem, $n, $alloc)
    };
    ($alloc:expr; $($x:expr),+ $(,)?) => {
        $crate::__vec_from_array_in([$($x),+], $alloc)
    };
}

/// `vec_in![alloc;]`, as a function so the macro's expansion names only
/// this crate's items.
#[doc(hidden)]
pub fn __vec_new_in<T, A: Allocator>(alloc: A) -> Vec<T, A> {
    Vec::new_in(alloc)
}

/// `vec_in![alloc; elem; n]`.
#[doc(hidden)]
#[track_caller]
pub fn __vec_from_elem_in<T: Clone, A: Allocator>(elem: T, n: usize, alloc: A) -> Vec<T, A> {
    let mut vec = with_capacity_or_panic(n, alloc);
    vec.resize(n, elem);
    vec
}

/// `vec_in![alloc; a, b, c]`: one allocation of exactly `N` elements.
#[doc(hidden)]
#[track_caller]
pub fn __vec_from_array_in<T, A: Allocator, const N: usize>(array: [T; N], alloc: A) -> Vec<T, A> {
    let mut vec = with_capacity_or_panic(N, alloc);
    vec.extend(array);
    vec
}

/// An empty vector with room for `n` elements, or a panic that says the
/// allocator refused (where `Vec::with_capacity_in` would abort).
#[track_caller]
fn with_capacity_or_panic<T, A: Allocator>(n: usize, alloc: A) -> Vec<T, A> {
    let mut vec = Vec::new_in(alloc);
    if let Err(error) = vec.try_reserve_exact(n) {
        panic!(
            "tickarena::vec_in! could not allocate {n} elements of {} bytes: {error}; if it \
             lives in a FrameArena, raise FrameArena::builder().reserve(bytes)",
            size_of::<T>()
        );
    }
    vec
}
