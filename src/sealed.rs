//! [`Sealed`]: a frame's arena and the data built in it, as one value that
//! can outlive the code that built it and move to another thread, for
//! frames in flight (simulation builds frame N+1 while rendering still
//! reads frame N).
//!
//! # Why this is sound
//!
//! The data of a sealed frame borrows the arena it was built in, so its
//! type names a lifetime: `D::Of<'f>`. Inside a [`Sealed`] that lifetime is
//! erased (stored as `D::Of<'static>`) and comes back only as a fresh,
//! higher-ranked lifetime in [`Sealed::with`], the way `yoke` keeps a
//! borrowed value next to its owner. Four things make this sound:
//!
//! 1. **The memory outlives the data.** The data points into the arena's
//!    region (reserved memory, a heap block or a lent buffer), which does
//!    not move when the `FrameArena` struct moves into the `Sealed` and is
//!    neither reset nor freed while the `Sealed` holds it: the data is
//!    dropped first ([`Sealed::unseal`], [`Sealed::reclaim`], `Drop`), and
//!    only then is the arena handed back or dropped. (`yoke` wraps its
//!    borrowed value in `MaybeUninit` because its owner is often a `Box`,
//!    whose move would assert uniqueness of memory the value points into;
//!    an arena holds its region through raw pointers, which a move does
//!    not retag. Miri checks this under Stacked and Tree Borrows.)
//! 2. **The data cannot point at the arena struct itself.** That struct
//!    moves with the `Sealed`. Everything that holds a `&FrameArena` (an
//!    arena `Vec`, `Box`, `String`, `SegmentedList`) is `!Send`, because
//!    `FrameArena` is `!Sync`; sealing requires `for<'f> D::Of<'f>: Send`,
//!    so such data does not compile. Frozen forms (`Vec::leak`,
//!    [`String::leak`](crate::String::leak), [`SegmentedList::leak`](crate::SegmentedList::leak))
//!    point only into the region.
//! 3. **No `'static` escapes.** The stored `D::Of<'static>` is only ever
//!    dropped (drop glue cannot depend on a lifetime) or lent to a closure
//!    that is generic over the lifetime (`for<'f> FnOnce(&D::Of<'f>) -> R`):
//!    it cannot assume `'f: 'static`, and `R` cannot name `'f` or the borrow
//!    of the `Sealed`. What it can store into the data (through a
//!    `Cell<&'f T>`, say) outlives `'f` whatever `'f` is: the data's own
//!    values, or `'static` ones (`cell.set("static")` compiles, and is
//!    sound: a `'static` value outlives the frame). Nothing that lives
//!    shorter than the frame can go in. Invariant data is therefore fine
//!    too, which `yoke`'s covariant `get` would not allow.
//! 4. **Threads.** `Sealed<D>` is `Send` when every `D::Of<'f>` is (the
//!    arena is `Send`), and `Sync` when every `D::Of<'f>` is `Sync`: through
//!    `&Sealed` only the data is reachable (read-only), never the arena.

use core::mem::ManuallyDrop;
use core::ptr;

use crate::arena::FrameArena;

/// Names the type of a frame's data for any frame lifetime, so that it can
/// be sealed with its arena: `impl FrameData for Render { type Of<'f> =
/// RenderList<'f>; }`. `Render` itself is only a name (an empty type).
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameData};
///
/// /// What the renderer gets each frame: sprites and text in the arena.
/// struct RenderList<'f> {
///     sprites: &'f [[f32; 2]],
///     title: &'f str,
/// }
/// struct Render;
/// impl FrameData for Render {
///     type Of<'f> = RenderList<'f>;
/// }
///
/// let sealed = FrameArena::new().seal::<Render>(|arena| RenderList {
///     sprites: arena.alloc_slice_fill_with(3, |i| [i as f32, 0.0]),
///     title: arena.alloc_str("frame 1"),
/// });
/// let on_render_thread = std::thread::spawn(move || {
///     sealed.with(|list| assert_eq!((list.sprites.len(), list.title), (3, "frame 1")));
///     sealed.reclaim() // the arena comes back, empty
/// });
/// assert_eq!(on_render_thread.join().unwrap().used(), 0);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not name a frame's data",
    label = "`seal::<D>` and `Sealed<D>` need `D: FrameData`",
    note = "name the data's type for any frame lifetime: `struct Render; impl FrameData for Render {{ type Of<'f> = MyData<'f>; }}`, then `arena.seal::<Render>(..)`"
)]
pub trait FrameData {
    /// The data's type when the frame's arena is borrowed for `'f`.
    type Of<'f>;
}

/// [`FrameData`] whose type is covariant in its lifetime (references,
/// slices, `str`s, and tuples, arrays and structs of those: what frozen
/// frame data usually is), so that it can be lent for as long as a borrow
/// of the [`Sealed`] lasts, without a closure: [`Sealed::get`].
///
/// Implement [`shorten`](Self::shorten) as `{ data }`: the compiler accepts
/// that body only when `Of<'f>` is covariant in `'f` (data with a
/// `Cell<&'f T>` in it is not, and keeps [`Sealed::with`]). With the
/// `derive` feature, `#[derive(FrameData)]` on the data's own type writes
/// both impls (see [`FrameData`](macro@crate::FrameData)); by hand, for a
/// struct with a lifetime, they are:
///
/// ```
/// use tickarena::{CovariantFrameData, FrameArena, FrameData};
///
/// /// Each cell's neighbours, frozen in the arena.
/// struct HoodOf<'f> {
///     cells: &'f [&'f [u32]],
/// }
/// /// The kind: the data's type at `'static` (or any empty type).
/// type Hood = HoodOf<'static>;
/// impl FrameData for Hood {
///     type Of<'f> = HoodOf<'f>;
/// }
/// impl CovariantFrameData for Hood {
///     // `HoodOf<'long>` is a `HoodOf<'short>`: `{ data }` compiles because
///     // `HoodOf` is covariant in its lifetime.
///     fn shorten<'short, 'long: 'short>(data: &'short HoodOf<'long>) -> &'short HoodOf<'short> {
///         data
///     }
/// }
///
/// let sealed = FrameArena::new().seal::<Hood>(|arena| {
///     let cells = [&*arena.alloc_slice_copy(&[1, 2]), &*arena.alloc_slice_copy(&[])];
///     HoodOf { cells: arena.alloc_slice_copy(&cells) }
/// });
/// assert_eq!(sealed.get().cells[0], [1, 2]);
/// ```
///
/// # Example
///
/// ```
/// use tickarena::{CovariantFrameData, FrameArena, FrameData};
///
/// struct Labels;
/// impl FrameData for Labels {
///     type Of<'f> = &'f [&'f str];
/// }
/// impl CovariantFrameData for Labels {
///     fn shorten<'short, 'long: 'short>(data: &'short &'long [&'long str]) -> &'short &'short [&'short str] {
///         data
///     }
/// }
///
/// let sealed = FrameArena::new().seal::<Labels>(|arena| {
///     let labels = [&*arena.alloc_str("a"), &*arena.alloc_str("b")];
///     &*arena.alloc_slice_copy(&labels)
/// });
/// let labels: &[&str] = sealed.get(); // no closure
/// assert_eq!(labels.join("+"), "a+b");
/// ```
///
/// Data that is not covariant does not compile:
///
/// ```compile_fail
/// use std::cell::Cell;
/// use tickarena::{CovariantFrameData, FrameData};
/// struct Slot;
/// impl FrameData for Slot {
///     type Of<'f> = &'f Cell<&'f str>;
/// }
/// impl CovariantFrameData for Slot {
///     fn shorten<'short, 'long: 'short>(
///         data: &'short &'long Cell<&'long str>,
///     ) -> &'short &'short Cell<&'short str> {
///         data
///     }
/// }
/// ```
pub trait CovariantFrameData: FrameData {
    /// `data` itself, for a shorter lifetime: write `{ data }`.
    fn shorten<'short, 'long: 'short>(data: &'short Self::Of<'long>) -> &'short Self::Of<'short>;
}

/// A frame's arena and a value built in it, as one piece: it may outlive
/// the code that built it and move to another thread (with the data), and
/// gives the arena back when the data is done with. Made by
/// [`FrameArena::seal`].
///
/// Dropping a `Sealed` drops the data, then the arena.
///
/// # Example
///
/// ```
/// use tickarena::{FrameArena, FrameData};
///
/// struct Log;
/// impl FrameData for Log {
///     type Of<'f> = &'f [&'f str];
/// }
///
/// let mut arena = FrameArena::new();
/// let sealed = arena.seal::<Log>(|arena| {
///     let lines: [&str; 2] = [arena.alloc_str("built"), arena.alloc_str("then read")];
///     arena.alloc_slice_copy(&lines)
/// });
/// let lines = sealed.with(|lines| lines.join(" "));
/// assert_eq!(lines, "built then read");
/// arena = sealed.reclaim();
/// assert_eq!(arena.used(), 0);
/// ```
pub struct Sealed<D: FrameData> {
    /// The data, its arena lifetime erased (see the module docs); dropped
    /// before the arena.
    data: ManuallyDrop<D::Of<'static>>,
    arena: ManuallyDrop<FrameArena>,
    /// The arena's bytes in use when sealed (it cannot change while sealed).
    used: usize,
}

// SAFETY: through `&Sealed` only the data is reachable, and only as a shared
// reference (`with`); the arena is used only through `self` or `&mut self`.
// So sharing a `Sealed` shares the data and nothing else.
unsafe impl<D: FrameData> Sync for Sealed<D> where for<'f> D::Of<'f>: Sync {}

impl FrameArena {
    /// Builds a frame's data in this arena and seals the two together, so
    /// that the data can outlive this code and move to another thread
    /// (rendering frame N there while this thread builds frame N+1).
    ///
    /// `build` gets the arena and returns the data. The data may hold
    /// references into the arena (`&'f T`, `&'f str`, `&'f [T]`), but not
    /// the arena itself: an arena `Vec`, `Box`, `String` or
    /// `SegmentedList` holds a `&FrameArena`, which is not `Send`, and is
    /// rejected. Freeze those first: `vec.leak()`,
    /// [`String::leak`](crate::String::leak),
    /// [`SegmentedList::leak`](crate::SegmentedList::leak),
    /// [`Box::leak`].
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameData, format_in};
    ///
    /// struct Labels;
    /// impl FrameData for Labels {
    ///     type Of<'f> = &'f [&'f str];
    /// }
    ///
    /// let sealed = FrameArena::new().seal::<Labels>(|arena| {
    ///     let mut labels = Vec::new_in(arena);
    ///     for id in 0..3 {
    ///         labels.push(&*format_in!(arena, "entity {id}").leak());
    ///     }
    ///     labels.leak() // frozen: a slice, no longer a Vec holding the arena
    /// });
    /// assert_eq!(sealed.with(|labels| labels[2].to_owned()), "entity 2");
    /// ```
    // Inlined, with `Sealed::build`, so that the call of `build` is in the
    // caller's function, where LLVM can inline its body among the caller's
    // own locals (the game of `tickarena-bevy/examples/parity`: 1.8 %
    // fewer instructions).
    #[inline(always)]
    pub fn seal<D: FrameData>(
        self,
        build: impl for<'f> FnOnce(&'f FrameArena) -> D::Of<'f>,
    ) -> Sealed<D>
    where
        for<'f> D::Of<'f>: Send,
    {
        Sealed::build(&mut Some(self), build)
    }
}

impl<D: FrameData> Sealed<D> {
    /// Builds the data in the arena of `slot` and seals the two; the arena
    /// leaves the slot only once `build` has returned, so a panic in
    /// `build` leaves it there for the caller (the frames-in-flight
    /// channel puts it back in the circle).
    ///
    /// # Panics
    ///
    /// If `slot` is empty.
    #[inline(always)]
    pub(crate) fn build(
        slot: &mut Option<FrameArena>,
        build: impl for<'f> FnOnce(&'f FrameArena) -> D::Of<'f>,
    ) -> Sealed<D>
    where
        for<'f> D::Of<'f>: Send,
    {
        let arena = slot.as_ref().expect("an arena to seal");
        let data = ManuallyDrop::new(build(arena));
        // The erased lifetime is sound as the module docs argue: the data
        // points into the arena's region, never at the `FrameArena` struct
        // (it is `Send`), and is dropped before the arena is reset or freed.
        // SAFETY: same type but for a lifetime (one layout), read once from a `ManuallyDrop`.
        let data: D::Of<'static> = unsafe { ptr::read((&raw const *data).cast()) };
        let arena = slot.take().expect("the arena is still in its slot");
        Sealed {
            data: ManuallyDrop::new(data),
            used: arena.used(),
            arena: ManuallyDrop::new(arena),
        }
    }

    /// Reads the data, on any thread that has the `Sealed` (or, when the
    /// data is `Sync`, a reference to it). Nothing borrowed from the data
    /// can leave `read`.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameData};
    /// struct Total;
    /// impl FrameData for Total {
    ///     type Of<'f> = &'f [u64];
    /// }
    /// let sealed = FrameArena::new().seal::<Total>(|a| &*a.alloc_slice_copy(&[1, 2, 3]));
    /// let shared = &sealed;
    /// let sums: Vec<u64> = std::thread::scope(|s| {
    ///     let readers: Vec<_> = (0..2)
    ///         .map(|_| s.spawn(move || shared.with(|v| v.iter().sum::<u64>())))
    ///         .collect();
    ///     readers.into_iter().map(|r| r.join().unwrap()).collect()
    /// });
    /// assert_eq!(sums, [6, 6]);
    /// ```
    pub fn with<R>(&self, read: impl for<'f> FnOnce(&D::Of<'f>) -> R) -> R {
        // `'f = 'static` here; `read` is generic over `'f`, so it cannot
        // tell (see the module docs, point 3).
        read(&self.data)
    }

    /// The data, for as long as this borrow of the `Sealed` lasts: no
    /// closure needed, for data whose type is covariant in its lifetime
    /// (see [`CovariantFrameData`]).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{CovariantFrameData, FrameArena, FrameData};
    /// struct Path;
    /// impl FrameData for Path {
    ///     type Of<'f> = &'f [(i32, i32)];
    /// }
    /// impl CovariantFrameData for Path {
    ///     fn shorten<'s, 'l: 's>(data: &'s &'l [(i32, i32)]) -> &'s &'s [(i32, i32)] {
    ///         data
    ///     }
    /// }
    /// let sealed = FrameArena::new().seal::<Path>(|a| &*a.alloc_slice_copy(&[(0, 0), (1, 2)]));
    /// let path = sealed.get();
    /// assert_eq!(path.last(), Some(&(1, 2)));
    /// ```
    pub fn get(&self) -> &D::Of<'_>
    where
        D: CovariantFrameData,
    {
        // The stored `Of<'static>` is valid while `self` is borrowed (the
        // module docs); `shorten`, safe code the compiler accepted for this
        // type, makes it an `Of` of that borrow.
        D::shorten(&self.data)
    }

    /// Drops the data and gives the arena back, its bytes still allocated
    /// (the frame goes on: reclaim it when you are done with it).
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameData};
    /// struct Bytes;
    /// impl FrameData for Bytes {
    ///     type Of<'f> = &'f [u8];
    /// }
    /// let sealed = FrameArena::new().seal::<Bytes>(|a| &*a.alloc_slice_copy(&[0u8; 100]));
    /// let arena = sealed.unseal();
    /// assert!(arena.used() >= 100);
    /// assert_eq!(arena.reclaim().used(), 0);
    /// ```
    pub fn unseal(self) -> FrameArena {
        let mut this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used again but for taking the arena, so
        // the data is dropped exactly once, before the arena leaves.
        unsafe { ManuallyDrop::drop(&mut this.data) };
        // SAFETY: taken once; `this` is not dropped (it is `ManuallyDrop`).
        unsafe { ManuallyDrop::take(&mut this.arena) }
    }

    /// Drops the data and reclaims the arena: [`unseal`](Self::unseal),
    /// then [`FrameArena::reclaim`].
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameData};
    /// struct Name;
    /// impl FrameData for Name {
    ///     type Of<'f> = &'f str;
    /// }
    /// let mut arena = FrameArena::new();
    /// for frame in 0..3 {
    ///     let sealed = arena.seal::<Name>(|a| &*a.alloc_str("frame"));
    ///     arena = sealed.reclaim();
    /// }
    /// assert_eq!(arena.stats().frames, 3);
    /// ```
    pub fn reclaim(self) -> FrameArena {
        self.unseal().reclaim()
    }

    /// Bytes the frame holds in its arena.
    ///
    /// # Example
    ///
    /// ```
    /// use tickarena::{FrameArena, FrameData};
    /// struct Grid;
    /// impl FrameData for Grid {
    ///     type Of<'f> = &'f [u32];
    /// }
    /// let sealed = FrameArena::new().seal::<Grid>(|a| &*a.alloc_slice_fill_with(256, |i| i as u32));
    /// assert_eq!(sealed.used(), 1024);
    /// ```
    pub fn used(&self) -> usize {
        self.used
    }
}

impl<D: FrameData> Drop for Sealed<D> {
    fn drop(&mut self) {
        // SAFETY: dropped once each, the data first: it points into the
        // arena's memory. Neither field is used after this.
        unsafe {
            ManuallyDrop::drop(&mut self.data);
            ManuallyDrop::drop(&mut self.arena);
        }
    }
}

impl<D: FrameData> core::fmt::Debug for Sealed<D> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Sealed")
            .field("used", &self.used())
            .finish_non_exhaustive()
    }
}
