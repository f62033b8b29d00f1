//! `TryReserveError` values for the crate's own collections ([`String`],
//! [`SegmentedList`]), which report failures the way std's do.
//!
//! std builds them from `TryReserveErrorKind`, which is unstable. On stable
//! Rust the only way to get one is to ask a `Vec` for what cannot be had:
//! capacity past `isize::MAX` gives a capacity overflow, and a reservation
//! from an allocator that refuses everything gives an allocation error for
//! that many bytes. The kind is the same; only the alignment inside the
//! error's (unstable, unreadable on stable) layout is lost, which the
//! `nightly` feature keeps. This module is the one place that differs.
//!
//! [`String`]: crate::String
//! [`SegmentedList`]: crate::SegmentedList

use alloc::collections::TryReserveError;
use core::alloc::Layout;

/// The error of a capacity that does not fit the address space.
#[cold]
pub(crate) fn capacity_overflow() -> TryReserveError {
    #[cfg(feature = "nightly")]
    {
        alloc::collections::TryReserveErrorKind::CapacityOverflow.into()
    }
    #[cfg(not(feature = "nightly"))]
    {
        match alloc::vec::Vec::<u8>::new().try_reserve(usize::MAX) {
            Err(error) => error,
            Ok(()) => unreachable!("no Vec holds usize::MAX bytes"),
        }
    }
}

/// The error of an allocator that refused `layout`. The refusal is handled
/// here (it becomes an error value), so an arena's report of it is dropped.
#[cold]
pub(crate) fn refused(layout: Layout) -> TryReserveError {
    crate::arena::refusal_handled();
    #[cfg(feature = "nightly")]
    {
        alloc::collections::TryReserveErrorKind::AllocError {
            layout,
            non_exhaustive: (),
        }
        .into()
    }
    #[cfg(not(feature = "nightly"))]
    {
        stable::refused(layout)
    }
}

/// `result` of a reservation made through std's `Vec`: a refusal in it is
/// handled from here on (the caller gets the error), so an arena's report
/// of it is dropped.
pub(crate) fn handled<T>(result: Result<T, TryReserveError>) -> Result<T, TryReserveError> {
    if result.is_err() {
        crate::arena::refusal_handled();
    }
    result
}

#[cfg(not(feature = "nightly"))]
mod stable {
    use alloc::collections::TryReserveError;
    use alloc::vec::Vec;
    use core::alloc::{AllocError, Allocator, Layout};
    use core::ptr::NonNull;

    /// An allocator that refuses every request: a `Vec` in it turns any
    /// reservation into an allocation error.
    struct RefuseAll;

    // SAFETY: it never hands out memory, so there is nothing to keep valid
    // and nothing `deallocate` could be given.
    unsafe impl Allocator for RefuseAll {
        fn allocate(&self, _: Layout) -> Result<NonNull<[u8]>, AllocError> {
            Err(AllocError)
        }

        unsafe fn deallocate(&self, _: NonNull<u8>, _: Layout) {
            unreachable!("RefuseAll never allocates")
        }
    }

    pub(super) fn refused(layout: Layout) -> TryReserveError {
        // A layout's size is at most `isize::MAX`, so the `Vec` asks the
        // allocator (and is refused) rather than reporting an overflow; a
        // zero-sized request is never refused, so asks for at least a byte.
        let bytes = layout.size().max(1);
        match Vec::<u8, RefuseAll>::new_in(RefuseAll).try_reserve_exact(bytes) {
            Err(error) => error,
            Ok(()) => unreachable!("RefuseAll refuses every reservation"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn the_errors_say_what_failed_like_std() {
        let overflow = format!("{}", capacity_overflow());
        assert!(overflow.contains("capacity exceeded"), "{overflow}");
        let refused = refused(Layout::from_size_align(100, 8).unwrap());
        assert!(
            format!("{refused}").contains("memory allocator"),
            "{refused}"
        );
        assert!(format!("{refused:?}").contains("100"), "{refused:?}");
    }
}
