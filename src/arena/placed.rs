//! [`Placed`]: a value in the arena that is dropped, not freed, with its
//! handle. What the frame loop keeps each tick's actions in.
//!
//! A `Box<dyn Action, &FrameArena>` is three words (the value, its vtable,
//! the allocator) and frees its block on drop; the arena that holds a
//! frame's actions is known and reclaims all of them at once, so a handle
//! needs only the pointer: two words for a trait object, which the compiler
//! passes in registers instead of through the stack.

use core::marker::{PhantomData, Unsize};
use core::ops::{CoerceUnsized, Deref, DerefMut};
use core::ptr::NonNull;

use super::FrameArena;

/// Owns a `T` that lives in a [`FrameArena`] for `'a`: dropping the handle
/// runs `T`'s destructor; the memory goes back when the frame ends.
/// Coerces like a `Box` (`Placed<'a, Spawn>` to `Placed<'a, dyn Action>`).
pub(crate) struct Placed<'a, T: ?Sized> {
    ptr: NonNull<T>,
    /// Borrows the arena for `'a`, owns a `T` (for drop check), and is
    /// `Send`/`Sync` as `&mut T` would be.
    _owns: PhantomData<(&'a mut T, T)>,
}

impl FrameArena {
    /// Moves `value` into the arena, to be dropped with the handle; gives
    /// it back if the arena cannot serve.
    #[inline(always)]
    pub(crate) fn try_place<T>(&self, value: T) -> Result<Placed<'_, T>, T> {
        match self.alloc_type_layout(core::alloc::Layout::new::<T>()) {
            Ok(ptr) => {
                let ptr = ptr.cast::<T>();
                // SAFETY: fresh arena memory for one `T`, handed to nobody
                // else.
                unsafe { ptr.write(value) };
                Ok(Placed {
                    ptr,
                    _owns: PhantomData,
                })
            }
            Err(_) => Err(value),
        }
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

impl<'a, T: ?Sized + Unsize<U>, U: ?Sized> CoerceUnsized<Placed<'a, U>> for Placed<'a, T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::rc::Rc;

    #[test]
    fn dropping_the_handle_drops_the_value_once() {
        let arena = FrameArena::new();
        let counter = Rc::new(());
        let placed: Placed<'_, dyn Fn() -> usize> = {
            let counter = Rc::clone(&counter);
            arena
                .try_place(move || Rc::strong_count(&counter))
                .unwrap_or_else(|_| unreachable!("a fresh arena has room"))
        };
        assert_eq!(placed(), 2);
        drop(placed);
        assert_eq!(Rc::strong_count(&counter), 1);
    }

    #[test]
    fn a_full_arena_gives_the_value_back() {
        let arena = FrameArena::builder().reserve(4096).build().unwrap();
        let refused = arena.try_place([7u8; 8192]);
        assert!(matches!(refused, Err(value) if value[0] == 7));
    }
}
