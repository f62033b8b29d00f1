//! `allocator_api2::alloc::Allocator` for `FrameArena`, and so (through
//! allocator-api2's impl for references) for `&FrameArena` (cargo feature
//! `allocator-api2`): the trait that hashbrown and other crates written for
//! stable Rust take allocators through. Every method hands over to the
//! arena's `core::alloc::Allocator` impl; only the error type differs.

use allocator_api2::alloc::{AllocError, Allocator};
use core::alloc::Layout;
use core::ptr::NonNull;

use super::FrameArena;

/// core's allocation error as allocator-api2's.
#[inline(always)]
fn api2(
    result: Result<NonNull<[u8]>, core::alloc::AllocError>,
) -> Result<NonNull<[u8]>, AllocError> {
    result.map_err(|_| AllocError)
}

// SAFETY: every method is the core `Allocator` impl's, whose contract this
// trait repeats word for word.
unsafe impl Allocator for FrameArena {
    #[inline(always)]
    fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
        api2(core::alloc::Allocator::allocate(self, layout))
    }

    #[inline]
    unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's guarantees are those of the core trait.
        unsafe { core::alloc::Allocator::deallocate(self, ptr, layout) }
    }

    #[inline]
    unsafe fn grow(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        api2(unsafe { core::alloc::Allocator::grow(self, ptr, old_layout, new_layout) })
    }

    #[inline]
    unsafe fn grow_zeroed(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        api2(unsafe { core::alloc::Allocator::grow_zeroed(self, ptr, old_layout, new_layout) })
    }

    #[inline]
    unsafe fn shrink(
        &self,
        ptr: NonNull<u8>,
        old_layout: Layout,
        new_layout: Layout,
    ) -> Result<NonNull<[u8]>, AllocError> {
        // SAFETY: as in `deallocate`.
        api2(unsafe { core::alloc::Allocator::shrink(self, ptr, old_layout, new_layout) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn allocator_api2_collections_grow_in_place_in_the_arena() {
        let arena = FrameArena::new();
        let mut numbers = allocator_api2::vec::Vec::new_in(&arena);
        numbers.extend(0..1000u32);
        assert_eq!(numbers.iter().sum::<u32>(), 499_500);
        assert_eq!(
            arena.used(),
            numbers.capacity() * 4,
            "grown in place, never copied"
        );
    }
}
