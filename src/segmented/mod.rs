//! [`SegmentedList<T, A>`]: a growable list whose elements never move.
//!
//! Storage is a table of segments (segment `k` holds `8 << k` elements,
//! allocated the first time it is needed); growing adds a segment instead of
//! moving the elements to a bigger block. So `push` never copies, and a
//! pointer from [`SegmentedList::get_ptr`] stays valid until its element is
//! removed or moved: good for entity lists that other structures point into,
//! and for lists in a `FrameArena`, where a `Vec` that grows leaves its old
//! blocks behind.

pub(crate) mod index;
mod iter;
mod table;
mod traits;

use alloc::alloc::Global;
use alloc::collections::TryReserveError;
use alloc::vec::Vec;
use core::alloc::Allocator;
use core::marker::PhantomData;
use core::mem::ManuallyDrop;
use core::ptr::{self, NonNull};

use index::{segment_of, segment_start};
use table::SegmentTable;

pub use iter::{IntoIter, Iter, IterMut, Segments, SegmentsMut};

/// A growable list of `T` in allocator `A` whose elements never move.
///
/// Segment `k` holds `8 << k` elements and is allocated from `A` only when
/// first needed. Index → element is constant time (a leading-zeros count and
/// one table load). Iteration walks the segments as slices.
///
/// # Stable addresses
///
/// Growth never moves an element. What that gives you:
///
/// * A `&T` from `get`, `iter` or indexing lives as long as the shared
///   borrow of the list, as with any collection.
/// * A pointer from [`get_ptr`](Self::get_ptr) is derived from the segment
///   itself, not from a borrow of the list, so it outlives borrows: it stays
///   valid across `push`, `reserve`, `get_mut`/`iter_mut`/`segments_mut`
///   and any other `&mut` access, until **its** element is removed or moved
///   or the list is [`leak`](Self::leak)ed. One rule on top, as for any raw
///   pointer next to references: while a reference to **that element** is
///   still in use, do not access it through the pointer (no access at all
///   while a `&mut T` to it is in use, no write while a `&T` is). Use the
///   pointer before such a reference is made, or after its last use.
/// * What removes or moves elements: [`pop`](Self::pop) (the last),
///   [`truncate`](Self::truncate) and [`clear`](Self::clear) (those past the
///   new length), [`swap_remove`](Self::swap_remove) (removes one, moves the
///   last into its place), [`retain`](Self::retain)/[`retain_mut`](Self::retain_mut)
///   (remove some, move every later kept element down), and dropping the
///   list. Nothing else moves an element. [`leak`](Self::leak) moves
///   nothing, but hands every element out as `&mut`: from then on, reach
///   them through the leaked slices, not through earlier pointers.
/// * A pointer made by casting a `&T` (`&list[i] as *const T`) is only as
///   good as that shared borrow: any later `&mut` access to the element
///   (`iter_mut` included) ends it. Use `get_ptr` instead.
///
/// # Example
///
/// ```
/// use tickarena::SegmentedList;
///
/// let mut entities = SegmentedList::new();
/// for id in 0..100u64 {
///     entities.push(id);
/// }
/// let first = entities.get_ptr(0).unwrap();
/// entities.extend(100..10_000);
/// entities.iter_mut().skip(1).for_each(|id| *id += 1);
/// // SAFETY: element 0 is still in the list and was neither removed nor
/// // moved; no reference to it is in use.
/// assert_eq!(unsafe { *first.as_ptr() }, 0);
/// assert_eq!(entities.iter().sum::<u64>(), (0..10_000).sum::<u64>() + 9_999);
/// ```
pub struct SegmentedList<T, A: Allocator = Global> {
    /// Biased base (see `SegmentTable`) of the segment that index `len`
    /// falls in, so the next `push` writes at `write_base + len`; null when
    /// that segment is not allocated yet.
    write_base: *mut T,
    /// First index past that segment; equal to `len` when the next push
    /// needs a new segment, which sends `push` down its slow path.
    segment_end: usize,
    len: usize,
    table: SegmentTable<T, A>,
    /// The list owns its `T`s (for the drop checker).
    _owns: PhantomData<T>,
}

// SAFETY: the list owns its elements and its segments; sending it sends
// them, which is sound exactly when `T` and the allocator may be sent.
unsafe impl<T: Send, A: Allocator + Send> Send for SegmentedList<T, A> {}
// SAFETY: `&SegmentedList` only hands out `&T` (and `&A`).
unsafe impl<T: Sync, A: Allocator + Sync> Sync for SegmentedList<T, A> {}

impl<T> SegmentedList<T> {
    /// Creates an empty list on the global allocator, without allocating.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<u64> = tickarena::SegmentedList::new();
    /// assert_eq!((list.len(), list.capacity()), (0, 0));
    /// ```
    pub const fn new() -> Self {
        SegmentedList::new_in(Global)
    }
}

impl<T, A: Allocator> SegmentedList<T, A> {
    const IS_ZST: bool = size_of::<T>() == 0;

    /// Creates an empty list whose segments come from `alloc`, without
    /// allocating.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut scratch = tickarena::SegmentedList::new_in(&arena);
    /// scratch.push([1.0f32, 2.0]);
    /// assert_eq!(scratch[0][1], 2.0);
    /// ```
    pub const fn new_in(alloc: A) -> Self {
        SegmentedList {
            write_base: ptr::null_mut(),
            segment_end: 0,
            len: 0,
            table: SegmentTable::new_in(alloc),
            _owns: PhantomData,
        }
    }

    /// Creates an empty list in `alloc` with room for at least `capacity`
    /// elements.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the segments.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let list = tickarena::SegmentedList::<u8, _>::with_capacity_in(100, &arena);
    /// assert!(list.capacity() >= 100);
    /// ```
    #[track_caller]
    pub fn with_capacity_in(capacity: usize, alloc: A) -> Self {
        let mut list = SegmentedList::new_in(alloc);
        list.reserve(capacity);
        list
    }

    /// Number of elements.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (0..5).collect();
    /// assert_eq!(list.len(), 5);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list has no elements.
    ///
    /// # Example
    ///
    /// ```
    /// assert!(tickarena::SegmentedList::<u8>::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Elements the allocated segments can hold (`usize::MAX` for zero-sized
    /// `T`).
    ///
    /// # Example
    ///
    /// ```
    /// let mut list = tickarena::SegmentedList::new();
    /// list.push(1u8);
    /// assert_eq!(list.capacity(), 8); // segment 0
    /// list.extend([2; 8]);
    /// assert_eq!(list.capacity(), 24); // segments 0 and 1
    /// ```
    #[inline]
    pub fn capacity(&self) -> usize {
        self.table.capacity()
    }

    /// The allocator the segments come from.
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let list = tickarena::SegmentedList::<u8, _>::new_in(&arena);
    /// assert!(std::ptr::eq(*list.allocator(), &arena));
    /// ```
    pub fn allocator(&self) -> &A {
        self.table.allocator()
    }

    /// Appends `value`. Never moves the elements already in the list.
    ///
    /// # Panics
    ///
    /// If a new segment is needed and the allocator cannot serve it.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list = tickarena::SegmentedList::new();
    /// list.push("spawn");
    /// assert_eq!(list.last(), Some(&"spawn"));
    /// ```
    #[inline]
    #[track_caller]
    pub fn push(&mut self, value: T) {
        if self.len != self.segment_end {
            // SAFETY: `len < segment_end`, so index `len` lies in the
            // allocated segment `write_base` is biased for, and it is not
            // initialised yet.
            unsafe { self.write_base.wrapping_add(self.len).write(value) };
            self.len += 1;
        } else {
            self.push_at_segment_end(value);
        }
    }

    /// `push` when the current segment is full: allocate the next one.
    /// `#[cold]` because it is rare by construction: once per segment, and
    /// segments double, so `log2(len)` times over a list's life.
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn push_at_segment_end(&mut self, value: T) {
        if Self::IS_ZST {
            assert!(
                self.len < usize::MAX,
                "capacity overflow: a SegmentedList holds at most usize::MAX zero-sized elements"
            );
            core::mem::forget(value);
            self.len += 1;
            self.segment_end = self.len;
            return;
        }
        if self.len == self.capacity() {
            self.grow_or_panic();
        }
        self.reposition();
        self.push(value);
    }

    /// Allocates the next segment, or panics saying why it could not.
    #[cold]
    #[inline(never)]
    #[track_caller]
    fn grow_or_panic(&mut self) {
        if let Err(error) = self.table.try_grow() {
            panic!(
                "tickarena::SegmentedList could not allocate segment {} ({} elements of {} bytes): {error}",
                self.table.allocated(),
                index::segment_len(self.table.allocated()),
                size_of::<T>()
            );
        }
    }

    /// Points the write cursor at index `len` after `len` or the segments
    /// changed.
    #[inline]
    fn reposition(&mut self) {
        if !Self::IS_ZST && self.len < self.capacity() {
            let k = segment_of(self.len);
            self.write_base = self.table.biased_base(k);
            self.segment_end = segment_start(k + 1);
        } else {
            self.write_base = ptr::null_mut();
            self.segment_end = self.len;
        }
    }

    /// Removes the last element and returns it, or `None` if empty.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = [1, 2].into_iter().collect();
    /// assert_eq!(list.pop(), Some(2));
    /// assert_eq!(list.pop(), Some(1));
    /// assert_eq!(list.pop(), None);
    /// ```
    pub fn pop(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        let last = self.table.element_ptr(self.len);
        self.reposition();
        // SAFETY: the element was initialised and is now past `len`, so it
        // is read out exactly once.
        Some(unsafe { last.read() })
    }

    /// The element at `index`, or `None` if out of bounds.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (0..100).collect();
    /// assert_eq!(list.get(42), Some(&42));
    /// assert_eq!(list.get(100), None);
    /// ```
    #[inline]
    pub fn get(&self, index: usize) -> Option<&T> {
        if index < self.len {
            // SAFETY: elements below `len` are initialised; the shared
            // borrow of `self` keeps them from being changed or removed.
            Some(unsafe { &*self.table.element_ptr(index) })
        } else {
            None
        }
    }

    /// The element at `index` mutably, or `None` if out of bounds.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..10).collect();
    /// *list.get_mut(3).unwrap() = 30;
    /// assert_eq!(list[3], 30);
    /// ```
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        if index < self.len {
            // SAFETY: elements below `len` are initialised; the exclusive
            // borrow of `self` makes this the only reference.
            Some(unsafe { &mut *self.table.element_ptr(index) })
        } else {
            None
        }
    }

    /// A pointer to the element at `index` that stays valid until that
    /// element is removed or moved (see [Stable addresses](Self#stable-addresses)),
    /// or `None` if out of bounds.
    ///
    /// The pointer is derived from the segment's own allocation, not from
    /// this borrow of the list, so later `push`es and `&mut` access to the
    /// list (other elements, or this one through a reference whose last use
    /// is past) leave it valid, under both Stacked and Tree Borrows (Miri).
    ///
    /// # Safety of its use
    ///
    /// Reading or writing through the pointer needs the element to still be
    /// there (not removed or moved, the list not leaked), and no reference
    /// to that element in use across the access: a `&mut T` to it (from
    /// `get_mut`, `iter_mut`, `segments_mut`, `IndexMut`) must not be used
    /// after the pointer was, and for a write neither may a `&T`. This is
    /// undefined behaviour, which Miri reports (`tests/all/segmented_pointers.rs`,
    /// `counter_examples`):
    ///
    /// ```no_run
    /// let mut list: tickarena::SegmentedList<u32> = (0..10).collect();
    /// let p = list.get_ptr(3).unwrap();
    /// let r = list.get_mut(3).unwrap();
    /// *r += 1;
    /// // SAFETY: not met, on purpose: `r` is used again below, so this is UB.
    /// let seen = unsafe { *p.as_ptr() };
    /// *r += 1;
    /// # let _ = seen;
    /// ```
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..10).collect();
    /// let seven = list.get_ptr(7).unwrap();
    /// list.extend(10..1000);
    /// *list.get_mut(3).unwrap() = 30;
    /// // SAFETY: element 7 is in the list, never moved, and no reference
    /// // to it is in use.
    /// unsafe { *seven.as_ptr() += 70 };
    /// assert_eq!(list[7], 77);
    /// assert!(list.get_ptr(1000).is_none());
    /// ```
    #[inline]
    pub fn get_ptr(&self, index: usize) -> Option<NonNull<T>> {
        if index < self.len {
            NonNull::new(self.table.element_ptr(index))
        } else {
            None
        }
    }

    /// The first element, or `None` if empty.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (5..9).collect();
    /// assert_eq!(list.first(), Some(&5));
    /// ```
    pub fn first(&self) -> Option<&T> {
        self.get(0)
    }

    /// The last element, or `None` if empty.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (5..9).collect();
    /// assert_eq!(list.last(), Some(&8));
    /// ```
    pub fn last(&self) -> Option<&T> {
        self.get(self.len.checked_sub(1)?)
    }

    /// The first element mutably, or `None` if empty.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (5..9).collect();
    /// *list.first_mut().unwrap() = 0;
    /// assert_eq!(list[0], 0);
    /// ```
    pub fn first_mut(&mut self) -> Option<&mut T> {
        self.get_mut(0)
    }

    /// The last element mutably, or `None` if empty.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (5..9).collect();
    /// *list.last_mut().unwrap() = 0;
    /// assert_eq!(list[3], 0);
    /// ```
    pub fn last_mut(&mut self) -> Option<&mut T> {
        self.get_mut(self.len.checked_sub(1)?)
    }

    /// Makes room for at least `additional` more elements, allocating
    /// segments as needed.
    ///
    /// # Panics
    ///
    /// If the length would overflow or the allocator cannot serve a segment.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list = tickarena::SegmentedList::<u32>::new();
    /// list.reserve(1000);
    /// assert!(list.capacity() >= 1000);
    /// ```
    #[track_caller]
    pub fn reserve(&mut self, additional: usize) {
        if let Err(error) = self.try_reserve(additional) {
            panic!(
                "tickarena::SegmentedList could not reserve {additional} more elements: {error}"
            );
        }
    }

    /// Makes room for at least `additional` more elements, or returns an
    /// error and keeps nothing it allocated.
    ///
    /// A request that no address space could hold (more than `isize::MAX`
    /// bytes of segments in all) fails at once, before anything is
    /// allocated. When the allocator refuses a segment part way, the
    /// segments this call added are given back (in a `FrameArena`, at its
    /// top, so the frame's other allocations go on as before).
    ///
    /// # Errors
    ///
    /// [`TryReserveError`] with a capacity overflow when the length or the
    /// bytes would overflow, or with the refused layout when the allocator
    /// cannot serve a segment.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list = tickarena::SegmentedList::<u64>::new();
    /// assert!(list.try_reserve(100).is_ok());
    /// let capacity = list.capacity();
    /// assert!(list.try_reserve(usize::MAX).is_err());
    /// assert!(list.try_reserve(usize::MAX / 16).is_err()); // 2^63 bytes
    /// assert_eq!(list.capacity(), capacity); // nothing was kept
    /// ```
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), TryReserveError> {
        let overflow = crate::reserve_error::capacity_overflow;
        let needed = self.len.checked_add(additional).ok_or_else(overflow)?;
        if needed <= self.capacity() {
            return Ok(());
        }
        // Decide before allocating: all segments together must fit in the
        // address space, as one `Vec` of that capacity would have to.
        let segments = index::segments_for(needed).ok_or_else(overflow)?;
        let fits = segment_start(segments)
            .checked_mul(size_of::<T>())
            .is_some_and(|bytes| bytes <= isize::MAX as usize);
        if !fits {
            return Err(overflow());
        }
        let allocated_before = self.table.allocated();
        while self.table.allocated() < segments {
            if let Err(error) = self.table.try_grow() {
                self.table.free_from(allocated_before);
                return Err(error);
            }
        }
        self.reposition();
        Ok(())
    }

    /// Removes every element, keeping the segments.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..50).collect();
    /// list.clear();
    /// assert!(list.is_empty() && list.capacity() >= 50);
    /// ```
    pub fn clear(&mut self) {
        self.truncate(0);
    }

    /// Keeps the first `len` elements and drops the rest; does nothing if
    /// the list is not longer than `len`.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..50).collect();
    /// list.truncate(10);
    /// assert_eq!(list.len(), 10);
    /// assert_eq!(list.last(), Some(&9));
    /// ```
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let old_len = self.len;
        // Shorten first: if a destructor panics, the rest is leaked, never
        // dropped twice.
        self.len = len;
        self.reposition();
        drop_elements(&self.table, len, old_len);
    }

    /// Removes the element at `index` and returns it, moving the last
    /// element into its place (constant time, changes the order).
    ///
    /// # Panics
    ///
    /// If `index` is out of bounds.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = ["a", "b", "c", "d"].into_iter().collect();
    /// assert_eq!(list.swap_remove(1), "b");
    /// assert_eq!(list, ["a", "d", "c"]);
    /// ```
    #[track_caller]
    pub fn swap_remove(&mut self, index: usize) -> T {
        let len = self.len;
        if index >= len {
            panic!("swap_remove index (is {index}) should be < len (is {len})");
        }
        let hole = self.table.element_ptr(index);
        let last = self.table.element_ptr(len - 1);
        // SAFETY: both are initialised elements below `len`. The removed
        // value is read out once; the last element is moved (not copied)
        // into the hole, since `len` shrinks past it.
        let removed = unsafe {
            let removed = hole.read();
            ptr::copy(last, hole, 1);
            removed
        };
        self.len = len - 1;
        self.reposition();
        removed
    }

    /// Keeps only the elements for which `keep` returns `true`, in order.
    ///
    /// If `keep` panics, the list keeps every element not yet removed
    /// (none is dropped twice or lost).
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..100).collect();
    /// list.retain(|&x| x % 3 == 0);
    /// assert_eq!(list.len(), 34);
    /// assert_eq!(list[1], 3);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        self.retain_mut(|element| keep(element));
    }

    /// Like [`retain`](Self::retain), with mutable access to each element.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..10).collect();
    /// list.retain_mut(|x| {
    ///     *x *= 10;
    ///     *x < 50
    /// });
    /// assert_eq!(list, [0, 10, 20, 30, 40]);
    /// ```
    pub fn retain_mut(&mut self, mut keep: impl FnMut(&mut T) -> bool) {
        /// Owns the elements while they are compacted; when dropped (at the
        /// end, or on a panic in `keep`) it moves the unvisited tail down
        /// over the holes and sets the length.
        struct Compacting<'a, T, A: Allocator> {
            list: &'a mut SegmentedList<T, A>,
            visited: usize,
            removed: usize,
            original_len: usize,
        }
        impl<T, A: Allocator> Drop for Compacting<'_, T, A> {
            fn drop(&mut self) {
                if self.removed > 0 {
                    for i in self.visited..self.original_len {
                        let from = self.list.table.element_ptr(i);
                        let to = self.list.table.element_ptr(i - self.removed);
                        // SAFETY: `i` is an initialised element not yet
                        // visited; `i - removed` is a hole left by a
                        // removed or moved element.
                        unsafe { ptr::copy_nonoverlapping(from, to, 1) };
                    }
                }
                self.list.len = self.original_len - self.removed;
                self.list.reposition();
            }
        }
        let original_len = self.len;
        // While compacting, the guard owns the elements: a panic in `keep`
        // leaves `len` for the guard to fix, never a double drop.
        self.len = 0;
        let mut compacting = Compacting {
            list: self,
            visited: 0,
            removed: 0,
            original_len,
        };
        while compacting.visited < original_len {
            let current = compacting.list.table.element_ptr(compacting.visited);
            // SAFETY: `visited < original_len`, so the element is
            // initialised, and nothing else refers to it.
            if !keep(unsafe { &mut *current }) {
                compacting.visited += 1;
                compacting.removed += 1;
                // SAFETY: the element is initialised and, counted as
                // removed, is dropped exactly once.
                unsafe { ptr::drop_in_place(current) };
                continue;
            }
            if compacting.removed > 0 {
                let hole = compacting
                    .list
                    .table
                    .element_ptr(compacting.visited - compacting.removed);
                // SAFETY: `hole` is a removed or moved-from slot below
                // `current`, in allocated segments.
                unsafe { ptr::copy_nonoverlapping(current, hole, 1) };
            }
            compacting.visited += 1;
        }
    }

    /// The filled part of each segment, in order, as shared slices.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (0..30).collect();
    /// let lens: Vec<usize> = list.segments().map(|s| s.len()).collect();
    /// assert_eq!(lens, [8, 16, 6]);
    /// ```
    pub fn segments(&self) -> Segments<'_, T> {
        Segments::new(self.table.biased(), self.len)
    }

    /// The filled part of each segment, in order, as mutable slices.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (0..30).collect();
    /// for segment in list.segments_mut() {
    ///     segment.fill(1);
    /// }
    /// assert_eq!(list.iter().sum::<i32>(), 30);
    /// ```
    pub fn segments_mut(&mut self) -> SegmentsMut<'_, T> {
        SegmentsMut::new(self.table.biased(), self.len)
    }

    /// Consumes the list and leaks its elements, as one mutable slice per
    /// filled segment (in order), in an outer slice allocated with the
    /// list's allocator: nothing is moved or dropped. In a frame arena
    /// this freezes the list: the slices no longer hold the arena, so they
    /// can go to another thread or be sealed with the frame
    /// ([`FrameArena::seal`](crate::FrameArena::seal)), and their memory is
    /// reclaimed with the frame. On the global allocator it is never freed.
    ///
    /// # Panics
    ///
    /// If the allocator cannot serve the outer slice (one pointer pair per
    /// segment, at most 64).
    ///
    /// # Example
    ///
    /// ```
    /// let arena = tickarena::FrameArena::new();
    /// let mut list = tickarena::SegmentedList::new_in(&arena);
    /// list.extend(0..30u32);
    /// let frozen: &mut [&mut [u32]] = list.leak();
    /// assert_eq!(frozen.len(), 3); // 8 + 16 + 6
    /// let sum = std::thread::scope(|s| {
    ///     s.spawn(|| frozen.iter().flat_map(|seg| seg.iter()).sum::<u32>()).join().unwrap()
    /// });
    /// assert_eq!(sum, (0..30).sum::<u32>());
    /// ```
    pub fn leak<'a>(self) -> &'a mut [&'a mut [T]]
    where
        A: Copy + 'a,
        T: 'a,
    {
        let mut this = ManuallyDrop::new(self);
        let filled = this.segments().count();
        let mut outer = Vec::with_capacity_in(filled, *this.table.allocator());
        for segment in this.segments_mut() {
            // The list is never dropped (`ManuallyDrop`), so its segments
            // are never freed or reused by it, and nothing else refers to
            // them; the allocator's memory lives at least `'a` (`A: 'a`).
            // SAFETY: each slice is the only access to its elements for `'a`.
            outer.push(unsafe { &mut *ptr::from_mut::<[T]>(segment) });
        }
        outer.leak()
    }

    /// Iterates over shared references, segment by segment.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (1..=4).collect();
    /// assert_eq!(list.iter().rev().copied().collect::<Vec<_>>(), [4, 3, 2, 1]);
    /// ```
    pub fn iter(&self) -> Iter<'_, T> {
        Iter::new(self.segments())
    }

    /// Iterates over mutable references, segment by segment.
    ///
    /// # Example
    ///
    /// ```
    /// let mut list: tickarena::SegmentedList<_> = (1..=4).collect();
    /// list.iter_mut().for_each(|x| *x *= 2);
    /// assert_eq!(list, [2, 4, 6, 8]);
    /// ```
    pub fn iter_mut(&mut self) -> IterMut<'_, T> {
        IterMut::new(self.segments_mut())
    }

    /// Copies the elements into a `Vec` on the global allocator.
    ///
    /// # Example
    ///
    /// ```
    /// let list: tickarena::SegmentedList<_> = (0..20).collect();
    /// assert_eq!(list.to_vec(), (0..20).collect::<Vec<_>>());
    /// ```
    pub fn to_vec(&self) -> Vec<T>
    where
        T: Clone,
    {
        let mut vec = Vec::with_capacity(self.len);
        self.segments()
            .for_each(|segment| vec.extend_from_slice(segment));
        vec
    }
}

impl<T, A: Allocator> Drop for SegmentedList<T, A> {
    fn drop(&mut self) {
        drop_elements(&self.table, 0, self.len);
        // The table frees the segments when it is dropped next.
    }
}

/// Drops the elements `from..to`, segment by segment as slices. If one
/// destructor panics, the rest are still dropped (as a slice's are).
fn drop_elements<T, A: Allocator>(table: &SegmentTable<T, A>, from: usize, to: usize) {
    /// The elements not yet dropped; dropping it drops them.
    struct Remaining<'a, T, A: Allocator> {
        table: &'a SegmentTable<T, A>,
        next: usize,
        end: usize,
    }
    impl<T, A: Allocator> Remaining<'_, T, A> {
        fn drop_all(&mut self) {
            while self.next < self.end {
                let segment_end = segment_start(segment_of(self.next) + 1).min(self.end);
                let first = self.table.element_ptr(self.next);
                let count = segment_end - self.next;
                self.next = segment_end;
                // SAFETY: the elements `next..segment_end` are initialised,
                // contiguous in one segment, no longer counted by the list,
                // and passed over (`next` moved first) so never dropped twice.
                unsafe { ptr::drop_in_place(ptr::slice_from_raw_parts_mut(first, count)) };
            }
        }
    }
    impl<T, A: Allocator> Drop for Remaining<'_, T, A> {
        fn drop(&mut self) {
            // Reached with elements left only when a destructor panicked.
            self.drop_all();
        }
    }
    if core::mem::needs_drop::<T>() {
        Remaining {
            table,
            next: from,
            end: to,
        }
        .drop_all();
    }
}
