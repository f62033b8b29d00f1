//! [`Placed`]: a value in the arena that is dropped, not freed, with its
//! handle. What the frame loop keeps each tick's actions in.
//!
//! A `Box<dyn Action, &FrameArena>` is three words (the value, its vtable,
//! the allocator) and frees its block on drop; the arena that holds a
//! frame's actions is known and reclaims all of them at once, so a handle
//! needs only the pointer: two words for a trait object, which the compiler
//! passes in registers instead of through the stack.
//!
//! A handle of a trait object is made from the value's own `&mut`, which
//! coerces to `&mut dyn Trait` on stable Rust (a pointer type of our own
//! cannot: `CoerceUnsized` is unstable).

use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};
use core::ptr::{self, NonNull};

use super::FrameArena;

/// Owns a `T` that lives in a [`FrameArena`] for `'a`: dropping the handle
/// runs `T`'s destructor; the memory goes back when the frame ends. Made
/// by [`FrameArena::try_place`], as the value's type or unsized
/// (`Placed<'a, dyn Action>`).
pub(crate) struct Placed<'a, T: ?Sized> {
    ptr: NonNull<T>,
    /// Borrows the arena for `'a`, owns a `T` (for drop check), and is
    /// `Send`/`Sync` as `&mut T` would be.
    _owns: PhantomData<(&'a mut T, T)>,
}

impl FrameArena {
    /// Moves `value` into the arena, to be dropped with the handle, seen
    /// as `U` through `view` (the identity, or an unsizing coercion such as
    /// `|a| a as &mut dyn Action<W>`); gives the value back if the arena
    /// cannot serve.
    ///
    /// # Panics
    ///
    /// If `view` returns anything but the whole value it was given (another
    /// place, or a part of it), which the handle could not own.
    #[inline(always)]
    pub(crate) fn try_place<'a, T: 'a, U: ?Sized + 'a>(
        &'a self,
        value: T,
        view: impl FnOnce(&'a mut T) -> &'a mut U,
    ) -> Result<Placed<'a, U>, T> {
        let Ok(ptr) = self.alloc_type_layout(core::alloc::Layout::new::<T>()) else {
            return Err(value);
        };
        let ptr = ptr.cast::<T>();
        // SAFETY: fresh arena memory for one `T`, valid for `'a` (the arena
        // cannot be reset while borrowed) and handed to nobody else; the
        // `&mut` goes to `view` and comes back as the handle's pointer.
        let whole = unsafe {
            ptr.write(value);
            &mut *ptr.as_ptr()
        };
        let viewed = NonNull::from(view(whole));
        // The handle drops what it points to: it must be the value itself.
        // Both sides are constants after inlining for the coercions used.
        assert!(
            ptr::addr_eq(viewed.as_ptr(), ptr.as_ptr())
                // SAFETY: `viewed` comes from a live `&mut U`.
                && size_of_val(unsafe { viewed.as_ref() }) == size_of::<T>(),
            "Placed: the view must be the whole value"
        );
        Ok(Placed {
            ptr: viewed,
            _owns: PhantomData,
        })
    }
}

impl<T: ?Sized> Deref for Placed<'_, T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        // SAFETY: the handle owns an initialised `T` in memory that stays
        // valid for `'a` (the arena cannot be reset while it is borrowed).
        unsafe { self.ptr.as_ref() }
    }
}

impl<T: ?Sized> DerefMut for Placed<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { self.ptr.as_mut() }
    }
}

impl<T: ?Sized> Drop for Placed<'_, T> {
    #[inline]
    fn drop(&mut self) {
        // SAFETY: the handle owns the `T` and is dropped once, so the value
        // is dropped exactly once; its memory is the arena's to reclaim.
        unsafe { self.ptr.drop_in_place() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::rc::Rc;

    #[cfg(all(target_family = "wasm", target_os = "unknown"))]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn dropping_the_handle_drops_the_value_once() {
        let arena = FrameArena::new();
        let counter = Rc::new(());
        let placed: Placed<'_, dyn Fn() -> usize> = {
            let counter = Rc::clone(&counter);
            arena
                .try_place(
                    move || Rc::strong_count(&counter),
                    |f| f as &mut dyn Fn() -> usize,
                )
                .unwrap_or_else(|_| unreachable!("a fresh arena has room"))
        };
        assert_eq!(placed(), 2);
        drop(placed);
        assert_eq!(Rc::strong_count(&counter), 1);
    }

    #[test]
    fn a_full_arena_gives_the_value_back() {
        let arena = FrameArena::builder().reserve(4096).build().unwrap();
        let refused = arena.try_place([7u8; 8192], |a| a);
        assert!(matches!(refused, Err(value) if value[0] == 7));
    }

    #[test]
    #[should_panic(expected = "the view must be the whole value")]
    fn a_view_of_part_of_the_value_is_refused() {
        let arena = FrameArena::new();
        let _ = arena.try_place((1u32, 2u32), |pair| &mut pair.1);
    }
}
