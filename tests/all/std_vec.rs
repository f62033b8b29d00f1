//! std's own tests of `Vec` (`library/alloctests/tests/vec.rs` of the
//! pinned toolchain's rust-src, nightly-2026-10-29), ported so that every
//! vector they test is a `Vec<T, &FrameArena>` in a `FrameArena`. std's
//! assertions are unchanged; what changed is how each vector is made
//! (`Vec::new()` is `Vec::new_in(&arena)`, `Vec::with_capacity(n)` is
//! `Vec::with_capacity_in(n, &arena)`, `vec![..]` is
//! `vec_in![&arena; ..]`). Vectors that only hold expected values for a
//! comparison (`collect::<Vec<_>>()`) stay on the global allocator.
//!
//! Run with the `nightly` feature only (42 tests): on stable Rust 1.100,
//! `drain`, `splice`, `extract_if` and `peek_mut` exist for the global
//! allocator only (`allocator_ext`), and `TryReserveError::kind`,
//! `partition_dedup`, `next_chunk`, `advance_by` and `try_with_capacity_in`
//! are unstable: the `test_drain_*`, `test_splice_*`, `extract_if_*`,
//! `max_splice`, `test_peek_mut`, `test_stable_pointers` (drains),
//! `test_try_reserve*`, `test_vec_dedup`, `test_vec_dedup_long`,
//! `test_into_iter_next_chunk*`, `test_into_iter_advance_by`,
//! `test_into_iter_zst`, `test_try_with_capacity` and `test_try_remove`
//! tests.
//!
//! Skipped, with the reason (18 of std's 158):
//! * `test_from_iter_specialization`,
//!   `test_from_iter_partially_drained_in_place_specialization`,
//!   `test_from_iter_specialization_with_iterator_adapters`,
//!   `test_in_place_specialization_step_up_down`,
//!   `test_from_iter_specialization_head_tail_drop`,
//!   `test_from_iter_specialization_panic_during_iteration_drops`,
//!   `from_into_inner`: std's in-place `collect` into a `Vec` on the
//!   global allocator (reusing the source's buffer); needs the global
//!   allocator.
//! * `test_cow_from`, `test_from_cow`: `Cow<[T]>` owns a `Vec` on the
//!   global allocator; needs the global allocator.
//! * `const_heap`, `const_make_global_empty_or_zst_regression`,
//!   `const_heap_vec_macro`: a `Vec` built at compile time on the const
//!   heap (`const_make_global`, unstable, global allocator only).
//! * `test_into_iter_drop_allocator`, `test_box_zero_allocator`: bring an
//!   allocator of their own (that is what they test).
//! * `test_small_vec_struct`: `Vec<u8>` is three words on the global
//!   allocator; with `&FrameArena` it is four.
//! * `test_partition`, `test_into_iter_count`, `test_into_iter_clone`:
//!   test `Iterator::partition` into `Default` vectors and array
//!   iterators; no vector under test.
//!
//! A few `[]` literals compared with a vector carry their element type
//! (`[] as [i32; 0]`): another crate in this test binary implements
//! `PartialEq<_>` for `i32`, so the literal's type cannot be inferred here
//! as it is in std's test crate. Closures that catch a panic over a
//! `&FrameArena` are wrapped in `AssertUnwindSafe` (the arena has cells).

#![allow(clippy::all)]

#[cfg(feature = "nightly")]
use core::num::NonZero;
use core::{assert_eq, assert_ne};
use std::borrow::Cow;
use std::cell::Cell;
#[cfg(feature = "nightly")]
use std::collections::TryReserveErrorKind::*;
use std::fmt::Debug;
#[cfg(feature = "nightly")]
use std::hint;
use std::mem::swap;
#[cfg(feature = "nightly")]
use std::ops::Bound::*;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};
#[cfg(feature = "nightly")]
use std::vec::PeekMut;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, vec_in};

/// std's `assert_matches!` (unstable), as the tests use it.
#[cfg(feature = "nightly")]
macro_rules! assert_matches {
    ($value:expr, $pattern:pat $(,)?) => {
        assert!(matches!($value, $pattern))
    };
    ($value:expr, $pattern:pat, $($message:tt)+) => {
        assert!(matches!($value, $pattern), $($message)+)
    };
}

/// `collect::<Vec<_>>()` into the arena, for vectors under test that std
/// builds by collecting.
trait CollectIn: Iterator + Sized {
    fn collect_in(self, arena: &FrameArena) -> Vec<Self::Item, &FrameArena> {
        let mut vec = Vec::new_in(arena);
        vec.extend(self);
        vec
    }
}

impl<I: Iterator> CollectIn for I {}

// std's `struct_with_counted_drop!` (library/alloctests/testing/macros.rs).
macro_rules! struct_with_counted_drop {
    ($struct_name:ident $(( $( $elt_ty:ty ),+ ))?, $drop_counter:ident $( => $drop_stmt:expr )? ) => {
        thread_local! {static $drop_counter: ::core::cell::Cell<u32> = ::core::cell::Cell::new(0);}

        #[derive(Clone, Debug, PartialEq)]
        struct $struct_name $(( $( $elt_ty ),+ ))?;

        impl ::std::ops::Drop for $struct_name {
            fn drop(&mut self) {
                $drop_counter.set($drop_counter.get() + 1);

                $($drop_stmt(self))?
            }
        }
    };
    ($struct_name:ident $(( $( $elt_ty:ty ),+ ))?, $drop_counter:ident[ $drop_key:expr,$key_ty:ty ] $( => $drop_stmt:expr )? ) => {
        thread_local! {
            static $drop_counter: ::core::cell::RefCell<::std::collections::HashMap<$key_ty, u32>> =
                ::core::cell::RefCell::new(::std::collections::HashMap::new());
        }

        #[derive(Clone, Debug, PartialEq)]
        struct $struct_name $(( $( $elt_ty ),+ ))?;

        impl ::std::ops::Drop for $struct_name {
            fn drop(&mut self) {
                $drop_counter.with_borrow_mut(|counter| {
                    *counter.entry($drop_key(self)).or_default() += 1;
                });

                $($drop_stmt(self))?
            }
        }
    };
}

struct DropCounter<'a> {
    count: &'a mut u32,
}

impl Drop for DropCounter<'_> {
    fn drop(&mut self) {
        *self.count += 1;
    }
}

#[test]
fn test_double_drop() {
    let arena = FrameArena::new();
    struct TwoVec<'a, T> {
        x: Vec<T, &'a FrameArena>,
        y: Vec<T, &'a FrameArena>,
    }

    let (mut count_x, mut count_y) = (0, 0);
    {
        let mut tv = TwoVec {
            x: Vec::new_in(&arena),
            y: Vec::new_in(&arena),
        };
        tv.x.push(DropCounter {
            count: &mut count_x,
        });
        tv.y.push(DropCounter {
            count: &mut count_y,
        });

        // If Vec had a drop flag, here is where it would be zeroed.
        // Instead, it should rely on its internal state to prevent
        // doing anything significant when dropped multiple times.
        drop(tv.x);

        // Here tv goes out of scope, tv.y should be dropped, but not tv.x.
    }

    assert_eq!(count_x, 1);
    assert_eq!(count_y, 1);
}

#[test]
fn test_reserve() {
    let arena = FrameArena::new();
    let mut v = Vec::new_in(&arena);
    assert_eq!(v.capacity(), 0);

    v.reserve(2);
    assert!(v.capacity() >= 2);

    for i in 0..16 {
        v.push(i);
    }

    assert!(v.capacity() >= 16);
    v.reserve(16);
    assert!(v.capacity() >= 32);

    v.push(16);

    v.reserve(16);
    assert!(v.capacity() >= 33)
}

#[test]
fn test_zst_capacity() {
    let arena = FrameArena::new();
    assert_eq!(Vec::<(), _>::new_in(&arena).capacity(), usize::MAX);
}

#[test]
fn test_indexing() {
    let arena = FrameArena::new();
    let v: Vec<isize, &FrameArena> = vec_in![&arena; 10, 20];
    assert_eq!(v[0], 10);
    assert_eq!(v[1], 20);
    let mut x: usize = 0;
    assert_eq!(v[x], 10);
    assert_eq!(v[x + 1], 20);
    x = x + 1;
    assert_eq!(v[x], 20);
    assert_eq!(v[x - 1], 10);
}

#[test]
fn test_debug_fmt() {
    let arena = FrameArena::new();
    let vec1: Vec<isize, &FrameArena> = vec_in![&arena;];
    assert_eq!("[]", format!("{:?}", vec1));

    let vec2 = vec_in![&arena; 0, 1];
    assert_eq!("[0, 1]", format!("{:?}", vec2));

    let slice: &[isize] = &[4, 5];
    assert_eq!("[4, 5]", format!("{slice:?}"));
}

#[test]
fn test_push() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena;];
    v.push(1);
    assert_eq!(v, [1]);
    v.push(2);
    assert_eq!(v, [1, 2]);
    v.push(3);
    assert_eq!(v, [1, 2, 3]);
}

#[test]
fn test_extend() {
    let arena = FrameArena::new();
    let mut v = Vec::new_in(&arena);
    let mut w = Vec::new_in(&arena);

    v.extend(w.clone());
    assert_eq!(v, &[] as &[i32; 0]);

    v.extend(0..3);
    for i in 0..3 {
        w.push(i)
    }

    assert_eq!(v, w);

    v.extend(3..10);
    for i in 3..10 {
        w.push(i)
    }

    assert_eq!(v, w);

    v.extend(w.clone()); // specializes to `append`
    assert!(v.iter().eq(w.iter().chain(w.iter())));

    // Zero sized types
    #[derive(PartialEq, Debug)]
    struct Foo;

    let mut a = Vec::new_in(&arena);
    let b = vec_in![&arena; Foo, Foo];

    a.extend(b);
    assert_eq!(a, &[Foo, Foo]);

    // Double drop
    let mut count_x = 0;
    {
        let mut x = Vec::new_in(&arena);
        let y = vec_in![&arena; DropCounter { count: &mut count_x }];
        x.extend(y);
    }
    assert_eq!(count_x, 1);
}

#[test]
fn test_extend_from_slice() {
    let arena = FrameArena::new();
    let a: Vec<isize, &FrameArena> = vec_in![&arena; 1, 2, 3, 4, 5];
    let b: Vec<isize, &FrameArena> = vec_in![&arena; 6, 7, 8, 9, 0];

    let mut v: Vec<isize, &FrameArena> = a;

    v.extend_from_slice(&b);

    assert_eq!(v, [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]);
}

#[test]
fn test_extend_ref() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2];
    v.extend(&[3, 4, 5]);

    assert_eq!(v.len(), 5);
    assert_eq!(v, [1, 2, 3, 4, 5]);

    let w = vec_in![&arena; 6, 7];
    v.extend(&w);

    assert_eq!(v.len(), 7);
    assert_eq!(v, [1, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn test_slice_from_ref() {
    let arena = FrameArena::new();
    let values = vec_in![&arena; 1, 2, 3, 4, 5];
    let slice = &values[1..3];

    assert_eq!(slice, [2, 3]);
}

#[test]
fn test_slice_from_mut() {
    let arena = FrameArena::new();
    let mut values = vec_in![&arena; 1, 2, 3, 4, 5];
    {
        let slice = &mut values[2..];
        assert!(slice == [3, 4, 5]);
        for p in slice {
            *p += 2;
        }
    }

    assert!(values == [1, 2, 5, 6, 7]);
}

#[test]
fn test_slice_to_mut() {
    let arena = FrameArena::new();
    let mut values = vec_in![&arena; 1, 2, 3, 4, 5];
    {
        let slice = &mut values[..2];
        assert!(slice == [1, 2]);
        for p in slice {
            *p += 1;
        }
    }

    assert!(values == [2, 3, 3, 4, 5]);
}

#[test]
fn test_split_at_mut() {
    let arena = FrameArena::new();
    let mut values = vec_in![&arena; 1, 2, 3, 4, 5];
    {
        let (left, right) = values.split_at_mut(2);
        {
            let left: &[_] = left;
            assert!(&left[..left.len()] == &[1, 2]);
        }
        for p in left {
            *p += 1;
        }

        {
            let right: &[_] = right;
            assert!(&right[..right.len()] == &[3, 4, 5]);
        }
        for p in right {
            *p += 2;
        }
    }

    assert_eq!(values, [2, 3, 5, 6, 7]);
}

#[test]
fn test_clone() {
    let arena = FrameArena::new();
    let v: Vec<i32, &FrameArena> = vec_in![&arena;];
    let w = vec_in![&arena; 1, 2, 3];

    assert_eq!(v, v.clone());

    let z = w.clone();
    assert_eq!(w, z);
    // they should be disjoint in memory.
    assert!(w.as_ptr() != z.as_ptr())
}

#[test]
fn test_clone_from() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena;];
    let three: Vec<Box<_>, &FrameArena> = vec_in![&arena; Box::new(1), Box::new(2), Box::new(3)];
    let two: Vec<Box<_>, &FrameArena> = vec_in![&arena; Box::new(4), Box::new(5)];
    // zero, long
    v.clone_from(&three);
    assert_eq!(v, three);

    // equal
    v.clone_from(&three);
    assert_eq!(v, three);

    // long, short
    v.clone_from(&two);
    assert_eq!(v, two);

    // short, long
    v.clone_from(&three);
    assert_eq!(v, three)
}

#[test]
fn test_retain() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4];
    vec.retain(|&x| x % 2 == 0);
    assert_eq!(vec, [2, 4]);
}

#[test]
fn test_retain_predicate_order() {
    let arena = FrameArena::new();
    for to_keep in [true, false] {
        let mut number_of_executions = 0;
        let mut vec = vec_in![&arena; 1, 2, 3, 4];
        let mut next_expected = 1;
        vec.retain(|&x| {
            assert_eq!(next_expected, x);
            next_expected += 1;
            number_of_executions += 1;
            to_keep
        });
        assert_eq!(number_of_executions, 4);
    }
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_retain_pred_panic_with_hole() {
    let arena = FrameArena::new();
    let v = (0..5).map(Rc::new).collect_in(&arena);
    catch_unwind(AssertUnwindSafe(|| {
        let mut v = v.clone();
        v.retain(|r| match **r {
            0 => true,
            1 => false,
            2 => true,
            _ => panic!(),
        });
    }))
    .unwrap_err();
    // Everything is dropped when predicate panicked.
    assert!(v.iter().all(|r| Rc::strong_count(r) == 1));
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_retain_pred_panic_no_hole() {
    let arena = FrameArena::new();
    let v = (0..5).map(Rc::new).collect_in(&arena);
    catch_unwind(AssertUnwindSafe(|| {
        let mut v = v.clone();
        v.retain(|r| match **r {
            0 | 1 | 2 => true,
            _ => panic!(),
        });
    }))
    .unwrap_err();
    // Everything is dropped when predicate panicked.
    assert!(v.iter().all(|r| Rc::strong_count(r) == 1));
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_retain_drop_panic() {
    let arena = FrameArena::new();
    struct Wrap(Rc<i32>);

    impl Drop for Wrap {
        fn drop(&mut self) {
            if *self.0 == 3 {
                panic!();
            }
        }
    }

    let v = (0..5).map(|x| Rc::new(x)).collect::<Vec<_>>();
    catch_unwind(AssertUnwindSafe(|| {
        let mut v = v.iter().map(|r| Wrap(r.clone())).collect_in(&arena);
        v.retain(|w| match *w.0 {
            0 => true,
            1 => false,
            2 => true,
            3 => false, // Drop panic.
            _ => true,
        });
    }))
    .unwrap_err();
    // Other elements are dropped when `drop` of one element panicked.
    // The panicked wrapper also has its Rc dropped.
    assert!(v.iter().all(|r| Rc::strong_count(r) == 1));
}

#[test]
fn test_retain_maybeuninits() {
    let arena = FrameArena::new();
    // This test aimed to be run under miri.
    use core::mem::MaybeUninit;
    let mut vec: Vec<_, &FrameArena> = Vec::new_in(&arena);
    vec.extend([1i32, 2, 3, 4].map(|v| MaybeUninit::new(vec_in![&arena; v])));
    vec.retain(|x| {
        // SAFETY: Retain must visit every element of Vec in original order and exactly once.
        // Our values is initialized at creation of Vec.
        let v = unsafe { x.assume_init_ref()[0] };
        if v & 1 == 0 {
            return true;
        }
        // SAFETY: Value is initialized.
        // Value wouldn't be dropped by `Vec::retain`
        // because `MaybeUninit` doesn't drop content.
        drop(unsafe { x.assume_init_read() });
        false
    });
    let vec: Vec<i32> = vec
        .into_iter()
        .map(|x| unsafe {
            // SAFETY: All values dropped in retain predicate must be removed by `Vec::retain`.
            // Remaining values are initialized.
            x.assume_init()[0]
        })
        .collect();
    assert_eq!(vec, [2, 4]);
}

#[test]
fn test_dedup() {
    let arena = FrameArena::new();
    fn case(a: Vec<i32, &FrameArena>, b: Vec<i32, &FrameArena>) {
        let mut v = a;
        v.dedup();
        assert_eq!(v, b);
    }
    case(vec_in![&arena;], vec_in![&arena;]);
    case(vec_in![&arena; 1], vec_in![&arena; 1]);
    case(vec_in![&arena; 1, 1], vec_in![&arena; 1]);
    case(vec_in![&arena; 1, 2, 3], vec_in![&arena; 1, 2, 3]);
    case(vec_in![&arena; 1, 1, 2, 3], vec_in![&arena; 1, 2, 3]);
    case(vec_in![&arena; 1, 2, 2, 3], vec_in![&arena; 1, 2, 3]);
    case(vec_in![&arena; 1, 2, 3, 3], vec_in![&arena; 1, 2, 3]);
    case(
        vec_in![&arena; 1, 1, 2, 2, 2, 3, 3],
        vec_in![&arena; 1, 2, 3],
    );
}

#[test]
fn test_dedup_by_key() {
    let arena = FrameArena::new();
    fn case(a: Vec<i32, &FrameArena>, b: Vec<i32, &FrameArena>) {
        let mut v = a;
        v.dedup_by_key(|i| *i / 10);
        assert_eq!(v, b);
    }
    case(vec_in![&arena;], vec_in![&arena;]);
    case(vec_in![&arena; 10], vec_in![&arena; 10]);
    case(vec_in![&arena; 10, 11], vec_in![&arena; 10]);
    case(vec_in![&arena; 10, 20, 30], vec_in![&arena; 10, 20, 30]);
    case(vec_in![&arena; 10, 11, 20, 30], vec_in![&arena; 10, 20, 30]);
    case(vec_in![&arena; 10, 20, 21, 30], vec_in![&arena; 10, 20, 30]);
    case(vec_in![&arena; 10, 20, 30, 31], vec_in![&arena; 10, 20, 30]);
    case(
        vec_in![&arena; 10, 11, 20, 21, 22, 30, 31],
        vec_in![&arena; 10, 20, 30],
    );
}

#[test]
fn test_dedup_by() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; "foo", "bar", "Bar", "baz", "bar"];
    vec.dedup_by(|a, b| a.eq_ignore_ascii_case(b));

    assert_eq!(vec, ["foo", "bar", "baz", "bar"]);

    let mut vec = vec_in![&arena; ("foo", 1), ("foo", 2), ("bar", 3), ("bar", 4), ("bar", 5)];
    vec.dedup_by(|a, b| {
        a.0 == b.0 && {
            b.1 += a.1;
            true
        }
    });

    assert_eq!(vec, [("foo", 3), ("bar", 12)]);
}

#[test]
fn test_dedup_unique() {
    let arena = FrameArena::new();
    let mut v0: Vec<Box<_>, &FrameArena> =
        vec_in![&arena; Box::new(1), Box::new(1), Box::new(2), Box::new(3)];
    v0.dedup();
    let mut v1: Vec<Box<_>, &FrameArena> =
        vec_in![&arena; Box::new(1), Box::new(2), Box::new(2), Box::new(3)];
    v1.dedup();
    let mut v2: Vec<Box<_>, &FrameArena> =
        vec_in![&arena; Box::new(1), Box::new(2), Box::new(3), Box::new(3)];
    v2.dedup();
    // If the boxed pointers were leaked or otherwise misused, valgrind
    // and/or rt should raise errors.
}

#[test]
fn zero_sized_values() {
    let arena = FrameArena::new();
    let mut v = Vec::new_in(&arena);
    assert_eq!(v.len(), 0);
    v.push(());
    assert_eq!(v.len(), 1);
    v.push(());
    assert_eq!(v.len(), 2);
    assert_eq!(v.pop(), Some(()));
    assert_eq!(v.pop(), Some(()));
    assert_eq!(v.pop(), None);

    assert_eq!(v.iter().count(), 0);
    v.push(());
    assert_eq!(v.iter().count(), 1);
    v.push(());
    assert_eq!(v.iter().count(), 2);

    for &() in &v {}

    assert_eq!(v.iter_mut().count(), 2);
    v.push(());
    assert_eq!(v.iter_mut().count(), 3);
    v.push(());
    assert_eq!(v.iter_mut().count(), 4);

    for &mut () in &mut v {}
    unsafe {
        v.set_len(0);
    }
    assert_eq!(v.iter_mut().count(), 0);
}

#[test]
fn test_zip_unzip() {
    let arena = FrameArena::new();
    let z1 = vec_in![&arena; (1, 4), (2, 5), (3, 6)];

    let (left, right): (Vec<_>, Vec<_>) = z1.iter().cloned().unzip();

    assert_eq!((1, 4), (left[0], right[0]));
    assert_eq!((2, 5), (left[1], right[1]));
    assert_eq!((3, 6), (left[2], right[2]));
}

#[test]
fn test_cmp() {
    let arena = FrameArena::new();
    let x: &[isize] = &[1, 2, 3, 4, 5];
    let cmp: &[isize] = &[1, 2, 3, 4, 5];
    assert_eq!(&x[..], cmp);
    let cmp: &[isize] = &[3, 4, 5];
    assert_eq!(&x[2..], cmp);
    let cmp: &[isize] = &[1, 2, 3];
    assert_eq!(&x[..3], cmp);
    let cmp: &[isize] = &[2, 3, 4];
    assert_eq!(&x[1..4], cmp);

    let x: Vec<isize, &FrameArena> = vec_in![&arena; 1, 2, 3, 4, 5];
    let cmp: &[isize] = &[1, 2, 3, 4, 5];
    assert_eq!(&x[..], cmp);
    let cmp: &[isize] = &[3, 4, 5];
    assert_eq!(&x[2..], cmp);
    let cmp: &[isize] = &[1, 2, 3];
    assert_eq!(&x[..3], cmp);
    let cmp: &[isize] = &[2, 3, 4];
    assert_eq!(&x[1..4], cmp);
}

#[test]
fn test_vec_truncate_drop() {
    let arena = FrameArena::new();
    struct_with_counted_drop!(Elem(i32), DROPS);

    let mut v = vec_in![&arena; Elem(1), Elem(2), Elem(3), Elem(4), Elem(5)];

    assert_eq!(DROPS.get(), 0);
    v.truncate(3);
    assert_eq!(DROPS.get(), 2);
    v.truncate(0);
    assert_eq!(DROPS.get(), 5);
}

#[test]
#[should_panic]
fn test_vec_truncate_fail() {
    let arena = FrameArena::new();
    struct BadElem(i32);

    impl Drop for BadElem {
        fn drop(&mut self) {
            if let BadElem(0xbadbeef) = self {
                panic!("BadElem panic: 0xbadbeef")
            }
        }
    }

    let mut v = vec_in![&arena; BadElem(1), BadElem(2), BadElem(0xbadbeef), BadElem(4)];
    v.truncate(0);
}

#[test]
fn test_index() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 1, 2, 3];
    assert!(vec[1] == 2);
}

#[test]
#[should_panic]
fn test_index_out_of_bounds() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 1, 2, 3];
    let _ = vec[3];
}

#[test]
#[should_panic]
fn test_slice_out_of_bounds_1() {
    let arena = FrameArena::new();
    let x = vec_in![&arena; 1, 2, 3, 4, 5];
    let _ = &x[!0..];
}

#[test]
#[should_panic]
fn test_slice_out_of_bounds_2() {
    let arena = FrameArena::new();
    let x = vec_in![&arena; 1, 2, 3, 4, 5];
    let _ = &x[..6];
}

#[test]
#[should_panic]
fn test_slice_out_of_bounds_3() {
    let arena = FrameArena::new();
    let x = vec_in![&arena; 1, 2, 3, 4, 5];
    let _ = &x[!0..4];
}

#[test]
#[should_panic]
fn test_slice_out_of_bounds_4() {
    let arena = FrameArena::new();
    let x = vec_in![&arena; 1, 2, 3, 4, 5];
    let _ = &x[1..6];
}

#[test]
#[should_panic]
fn test_slice_out_of_bounds_5() {
    let arena = FrameArena::new();
    let x = vec_in![&arena; 1, 2, 3, 4, 5];
    let _ = &x[3..2];
}

#[test]
#[should_panic]
fn test_swap_remove_empty() {
    let arena = FrameArena::new();
    let mut vec = Vec::<i32, _>::new_in(&arena);
    vec.swap_remove(0);
}

#[test]
fn test_move_items() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 1, 2, 3];
    let mut vec2 = vec_in![&arena;];
    for i in vec {
        vec2.push(i);
    }
    assert_eq!(vec2, [1, 2, 3]);
}

#[test]
fn test_move_items_reverse() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 1, 2, 3];
    let mut vec2 = vec_in![&arena;];
    for i in vec.into_iter().rev() {
        vec2.push(i);
    }
    assert_eq!(vec2, [3, 2, 1]);
}

#[test]
fn test_move_items_zero_sized() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; (), (), ()];
    let mut vec2 = vec_in![&arena;];
    for i in vec {
        vec2.push(i);
    }
    assert_eq!(vec2, [(), (), ()]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_empty_vec() {
    let arena = FrameArena::new();
    let mut vec: Vec<i32, &FrameArena> = vec_in![&arena;];
    let mut vec2: Vec<i32, &FrameArena> = vec_in![&arena;];
    for i in vec.drain(..) {
        vec2.push(i);
    }
    assert!(vec.is_empty());
    assert!(vec2.is_empty());
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_items() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3];
    let mut vec2 = vec_in![&arena;];
    for i in vec.drain(..) {
        vec2.push(i);
    }
    assert_eq!(vec, [] as [i32; 0]);
    assert_eq!(vec2, [1, 2, 3]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_items_reverse() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3];
    let mut vec2 = vec_in![&arena;];
    for i in vec.drain(..).rev() {
        vec2.push(i);
    }
    assert_eq!(vec, [] as [i32; 0]);
    assert_eq!(vec2, [3, 2, 1]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_items_zero_sized() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; (), (), ()];
    let mut vec2 = vec_in![&arena;];
    for i in vec.drain(..) {
        vec2.push(i);
    }
    assert_eq!(vec, []);
    assert_eq!(vec2, [(), (), ()]);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_drain_out_of_bounds() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    v.drain(5..6);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_range() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    for _ in v.drain(4..) {}
    assert_eq!(v, &[1, 2, 3, 4]);

    let mut v: Vec<_> = (1..6).map(|x| x.to_string()).collect();
    for _ in v.drain(1..4) {}
    assert_eq!(v, &[1.to_string(), 5.to_string()]);

    let mut v: Vec<_> = (1..6).map(|x| x.to_string()).collect();
    for _ in v.drain(1..4).rev() {}
    assert_eq!(v, &[1.to_string(), 5.to_string()]);

    let mut v: Vec<_, &FrameArena> = vec_in![&arena; (); 5];
    for _ in v.drain(1..4).rev() {}
    assert_eq!(v, &[(), ()]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_inclusive_range() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 'a', 'b', 'c', 'd', 'e'];
    for _ in v.drain(1..=3) {}
    assert_eq!(v, &['a', 'e']);

    let mut v: Vec<_> = (0..=5).map(|x| x.to_string()).collect();
    for _ in v.drain(1..=5) {}
    assert_eq!(v, &["0".to_string()]);

    let mut v: Vec<String> = (0..=5).map(|x| x.to_string()).collect();
    for _ in v.drain(0..=5) {}
    assert_eq!(v, Vec::<String>::new());

    let mut v: Vec<_> = (0..=5).map(|x| x.to_string()).collect();
    for _ in v.drain(0..=3) {}
    assert_eq!(v, &["4".to_string(), "5".to_string()]);

    let mut v: Vec<_> = (0..=1).map(|x| x.to_string()).collect();
    for _ in v.drain(..=0) {}
    assert_eq!(v, &["1".to_string()]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_max_vec_size() {
    let arena = FrameArena::new();
    let mut v = Vec::<(), _>::with_capacity_in(usize::MAX, &arena);
    unsafe {
        v.set_len(usize::MAX);
    }
    for _ in v.drain(usize::MAX - 1..) {}
    assert_eq!(v.len(), usize::MAX - 1);

    let mut v = Vec::<(), _>::with_capacity_in(usize::MAX, &arena);
    unsafe {
        v.set_len(usize::MAX);
    }
    for _ in v.drain(usize::MAX - 1..=usize::MAX - 1) {}
    assert_eq!(v.len(), usize::MAX - 1);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_drain_index_overflow() {
    let arena = FrameArena::new();
    let mut v = Vec::<(), _>::with_capacity_in(usize::MAX, &arena);
    unsafe {
        v.set_len(usize::MAX);
    }
    v.drain(0..=usize::MAX);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_drain_inclusive_out_of_bounds() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    v.drain(5..=5);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_drain_start_overflow() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3];
    v.drain((Excluded(usize::MAX), Included(0)));
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_drain_end_overflow() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3];
    v.drain((Included(0), Included(usize::MAX)));
}

#[test]
#[cfg(feature = "nightly")]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_drain_leak() {
    let arena = FrameArena::new();
    struct_with_counted_drop!(D(u32, bool), DROPS => |this: &D| if this.1 { panic!("panic in `drop`"); });

    let mut v = vec_in![&arena;
        D(0, false),
        D(1, false),
        D(2, false),
        D(3, false),
        D(4, true),
        D(5, false),
        D(6, false),
    ];

    catch_unwind(AssertUnwindSafe(|| {
        v.drain(2..=5);
    }))
    .ok();

    assert_eq!(DROPS.get(), 4);
    assert_eq!(v, vec_in![&arena; D(0, false), D(1, false), D(6, false),]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_keep_rest() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0, 1, 2, 3, 4, 5, 6];
    let mut drain = v.drain(1..6);
    assert_eq!(drain.next(), Some(1));
    assert_eq!(drain.next_back(), Some(5));
    assert_eq!(drain.next(), Some(2));

    drain.keep_rest();
    assert_eq!(v, &[0, 3, 4, 6]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_keep_rest_all() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0, 1, 2, 3, 4, 5, 6];
    v.drain(1..6).keep_rest();
    assert_eq!(v, &[0, 1, 2, 3, 4, 5, 6]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_drain_keep_rest_none() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0, 1, 2, 3, 4, 5, 6];
    let mut drain = v.drain(1..6);

    drain.by_ref().for_each(drop);

    drain.keep_rest();
    assert_eq!(v, &[0, 6]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_splice() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    let a = [10, 11, 12];
    v.splice(2..4, a);
    assert_eq!(v, &[1, 2, 10, 11, 12, 5]);
    v.splice(1..3, Some(20));
    assert_eq!(v, &[1, 20, 11, 12, 5]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_splice_inclusive_range() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    let a = [10, 11, 12];
    let t1: Vec<_> = v.splice(2..=3, a).collect();
    assert_eq!(v, &[1, 2, 10, 11, 12, 5]);
    assert_eq!(t1, &[3, 4]);
    let t2: Vec<_> = v.splice(1..=2, Some(20)).collect();
    assert_eq!(v, &[1, 20, 11, 12, 5]);
    assert_eq!(t2, &[2, 10]);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_splice_out_of_bounds() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    let a = [10, 11, 12];
    v.splice(5..6, a);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn test_splice_inclusive_out_of_bounds() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    let a = [10, 11, 12];
    v.splice(5..=5, a);
}

#[test]
#[cfg(feature = "nightly")]
fn test_splice_items_zero_sized() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; (), (), ()];
    let vec2 = vec_in![&arena;];
    let t: Vec<_> = vec.splice(1..2, vec2.iter().cloned()).collect();
    assert_eq!(vec, &[(), ()]);
    assert_eq!(t, &[()]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_splice_unbounded() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4, 5];
    let t: Vec<_> = vec.splice(.., None).collect();
    assert_eq!(vec, &[] as &[i32; 0]);
    assert_eq!(t, &[1, 2, 3, 4, 5]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_splice_forget() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4, 5];
    let a = [10, 11, 12];
    std::mem::forget(v.splice(2..4, a));
    assert_eq!(v, &[1, 2]);
}

#[test]
fn test_into_boxed_slice() {
    let arena = FrameArena::new();
    let xs = vec_in![&arena; 1, 2, 3];
    let ys = xs.into_boxed_slice();
    assert_eq!(&*ys, [1, 2, 3]);
}

#[test]
fn test_append() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3];
    let mut vec2 = vec_in![&arena; 4, 5, 6];
    vec.append(&mut vec2);
    assert_eq!(vec, [1, 2, 3, 4, 5, 6]);
    assert_eq!(vec2, [] as [i32; 0]);
}

#[test]
fn test_split_off() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4, 5, 6];
    let orig_ptr = vec.as_ptr();
    let orig_capacity = vec.capacity();

    let split_off = vec.split_off(4);
    assert_eq!(vec, [1, 2, 3, 4]);
    assert_eq!(split_off, [5, 6]);
    assert_eq!(vec.capacity(), orig_capacity);
    assert_eq!(vec.as_ptr(), orig_ptr);
}

#[test]
fn test_split_off_take_all() {
    let arena = FrameArena::new();
    // Allocate enough capacity that we can tell whether the split-off vector's
    // capacity is based on its size, or (incorrectly) on the original capacity.
    let mut vec = Vec::with_capacity_in(1000, &arena);
    vec.extend([1, 2, 3, 4, 5, 6]);
    let orig_ptr = vec.as_ptr();
    let orig_capacity = vec.capacity();

    let split_off = vec.split_off(0);
    assert_eq!(vec, [] as [i32; 0]);
    assert_eq!(split_off, [1, 2, 3, 4, 5, 6]);
    assert_eq!(vec.capacity(), orig_capacity);
    assert_eq!(vec.as_ptr(), orig_ptr);

    // The split-off vector should be newly-allocated, and should not have
    // stolen the original vector's allocation.
    assert!(split_off.capacity() < orig_capacity);
    assert_ne!(split_off.as_ptr(), orig_ptr);
}

#[test]
fn test_into_iter_as_slice() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 'a', 'b', 'c'];
    let mut into_iter = vec.into_iter();
    assert_eq!(into_iter.as_slice(), &['a', 'b', 'c']);
    let _ = into_iter.next().unwrap();
    assert_eq!(into_iter.as_slice(), &['b', 'c']);
    let _ = into_iter.next().unwrap();
    let _ = into_iter.next().unwrap();
    assert_eq!(into_iter.as_slice(), &[]);
}

#[test]
fn test_into_iter_as_mut_slice() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 'a', 'b', 'c'];
    let mut into_iter = vec.into_iter();
    assert_eq!(into_iter.as_slice(), &['a', 'b', 'c']);
    into_iter.as_mut_slice()[0] = 'x';
    into_iter.as_mut_slice()[1] = 'y';
    assert_eq!(into_iter.next().unwrap(), 'x');
    assert_eq!(into_iter.as_slice(), &['y', 'c']);
}

#[test]
fn test_into_iter_debug() {
    let arena = FrameArena::new();
    let vec = vec_in![&arena; 'a', 'b', 'c'];
    let into_iter = vec.into_iter();
    let debug = format!("{into_iter:?}");
    assert_eq!(debug, "IntoIter(['a', 'b', 'c'])");
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_into_iter_leak() {
    let arena = FrameArena::new();
    struct_with_counted_drop!(D(bool), DROPS => |this: &D| if this.0 { panic!("panic in `drop`"); });

    let v = vec_in![&arena; D(false), D(true), D(false)];

    catch_unwind(AssertUnwindSafe(move || drop(v.into_iter()))).ok();

    assert_eq!(DROPS.get(), 3);
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_from_iter_specialization_panic_during_drop_doesnt_leak() {
    let arena = FrameArena::new();
    struct_with_counted_drop!(
        Old(usize), DROP_COUNTER_OLD[|this: &Old| this.0, usize] =>
            |this: &Old| {
                if this.0 == 3 { panic!(); } println!("Dropped Old: {}", this.0)
            }
    );
    struct_with_counted_drop!(
        New(usize), DROP_COUNTER_NEW[|this: &New| this.0, usize] =>
            |this: &New| println!("Dropped New: {}", this.0)
    );

    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let v = vec_in![&arena; Old(0), Old(1), Old(2), Old(3), Old(4)];
        let _ = v.into_iter().map(|x| New(x.0)).take(2).collect::<Vec<_>>();
    }));

    DROP_COUNTER_OLD.with_borrow(|c| assert_eq!(c.get(&0), Some(&1)));
    DROP_COUNTER_OLD.with_borrow(|c| assert_eq!(c.get(&1), Some(&1)));
    DROP_COUNTER_OLD.with_borrow(|c| assert_eq!(c.get(&2), Some(&1)));
    DROP_COUNTER_OLD.with_borrow(|c| assert_eq!(c.get(&3), Some(&1)));
    DROP_COUNTER_OLD.with_borrow(|c| assert_eq!(c.get(&4), Some(&1)));

    DROP_COUNTER_NEW.with_borrow(|c| assert_eq!(c.get(&0), Some(&1)));
    DROP_COUNTER_NEW.with_borrow(|c| assert_eq!(c.get(&1), Some(&1)));
}

// regression test for issue #85322. Peekable previously implemented InPlaceIterable,
// but due to an interaction with IntoIter's current Clone implementation it failed to uphold
// the contract.
#[test]
fn test_collect_after_iterator_clone() {
    let arena = FrameArena::new();
    let v = vec_in![&arena; 0; 5];
    let mut i = v.into_iter().map(|i| i + 1).peekable();
    i.peek();
    let v = i.clone().collect::<Vec<_>>();
    assert_eq!(v, [1, 1, 1, 1, 1]);
    assert!(v.len() <= v.capacity());
}

// regression test for #135103, similar to the one above Flatten/FlatMap had an unsound InPlaceIterable
// implementation.
#[test]
fn test_flatten_clone() {
    let arena = FrameArena::new();
    const S: String = String::new();

    let v = vec_in![&arena; [S, "Hello World!".into()], [S, S]];
    let mut i = v.into_iter().flatten();
    let _ = i.next();
    let result: Vec<String> = i.clone().collect();
    assert_eq!(result, ["Hello World!", "", ""]);
}

#[test]
fn test_partial_eq_cow_symmetric() {
    let arena = FrameArena::new();
    let v: Vec<i32, &FrameArena> = vec_in![&arena; 1, 2, 3];
    let c: Cow<'_, [i32]> = Cow::Borrowed(&[1, 2, 3]);

    assert_eq!(c, v);
    assert_eq!(v, c);

    let s: &[i32] = &[1, 2, 3];
    assert_eq!(s, c);

    let mut arr = [1, 2, 3];
    let ms: &mut [i32] = &mut arr;
    assert_eq!(ms, c);

    let v2: Vec<i32, &FrameArena> = vec_in![&arena; 1, 2, 4];
    assert!(v2 != c);
}

#[allow(dead_code)]
fn assert_covariance() {
    #[cfg(feature = "nightly")]
    fn drain<'new>(
        d: std::vec::Drain<'static, &'static str, &'static FrameArena>,
    ) -> std::vec::Drain<'new, &'new str, &'new FrameArena> {
        d
    }
    // Naming `IntoIter<T, A>` with an allocator is unstable on Rust 1.100.
    #[cfg(feature = "nightly")]
    fn into_iter<'new>(
        i: std::vec::IntoIter<&'static str, &'static FrameArena>,
    ) -> std::vec::IntoIter<&'new str, &'new FrameArena> {
        i
    }
}

#[test]
fn overaligned_allocations() {
    let arena = FrameArena::new();
    #[repr(align(256))]
    struct Foo(usize);
    let mut v = vec_in![&arena; Foo(273)];
    // (std's 0x1000 rounds natively; interpreted, an eighth of them.)
    for i in 0..if cfg!(miri) { 0x200 } else { 0x1000 } {
        v.reserve_exact(i);
        assert!(v[0].0 == 273);
        assert!(v.as_ptr().addr() & 0xff == 0);
        v.shrink_to_fit();
        assert!(v[0].0 == 273);
        assert!(v.as_ptr().addr() & 0xff == 0);
    }
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_empty() {
    let arena = FrameArena::new();
    let mut vec: Vec<i32, &FrameArena> = vec_in![&arena;];

    {
        let mut iter = vec.extract_if(.., |_| true);
        assert_eq!(iter.size_hint(), (0, Some(0)));
        assert_eq!(iter.next(), None);
        assert_eq!(iter.size_hint(), (0, Some(0)));
        assert_eq!(iter.next(), None);
        assert_eq!(iter.size_hint(), (0, Some(0)));
    }
    assert_eq!(vec.len(), 0);
    assert_eq!(vec, Vec::<i32, _>::new_in(&arena));
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_zst() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; (), (), (), (), ()];
    let initial_len = vec.len();
    let mut count = 0;
    {
        let mut iter = vec.extract_if(.., |_| true);
        assert_eq!(iter.size_hint(), (0, Some(initial_len)));
        while let Some(_) = iter.next() {
            count += 1;
            assert_eq!(iter.size_hint(), (0, Some(initial_len - count)));
        }
        assert_eq!(iter.size_hint(), (0, Some(0)));
        assert_eq!(iter.next(), None);
        assert_eq!(iter.size_hint(), (0, Some(0)));
    }

    assert_eq!(count, initial_len);
    assert_eq!(vec.len(), 0);
    assert_eq!(vec, vec_in![&arena;]);
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_false() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

    let initial_len = vec.len();
    let mut count = 0;
    {
        let mut iter = vec.extract_if(.., |_| false);
        assert_eq!(iter.size_hint(), (0, Some(initial_len)));
        for _ in iter.by_ref() {
            count += 1;
        }
        assert_eq!(iter.size_hint(), (0, Some(0)));
        assert_eq!(iter.next(), None);
        assert_eq!(iter.size_hint(), (0, Some(0)));
    }

    assert_eq!(count, 0);
    assert_eq!(vec.len(), initial_len);
    assert_eq!(vec, vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_true() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

    let initial_len = vec.len();
    let mut count = 0;
    {
        let mut iter = vec.extract_if(.., |_| true);
        assert_eq!(iter.size_hint(), (0, Some(initial_len)));
        while let Some(_) = iter.next() {
            count += 1;
            assert_eq!(iter.size_hint(), (0, Some(initial_len - count)));
        }
        assert_eq!(iter.size_hint(), (0, Some(0)));
        assert_eq!(iter.next(), None);
        assert_eq!(iter.size_hint(), (0, Some(0)));
    }

    assert_eq!(count, initial_len);
    assert_eq!(vec.len(), 0);
    assert_eq!(vec, Vec::<i32, _>::new_in(&arena));
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_ranges() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

    let mut count = 0;
    let it = vec.extract_if(1..=3, |_| {
        count += 1;
        true
    });
    assert_eq!(it.collect::<Vec<_>>(), vec_in![&arena; 1, 2, 3]);
    assert_eq!(vec, vec_in![&arena; 0, 4, 5, 6, 7, 8, 9, 10]);
    assert_eq!(count, 3);

    let it = vec.extract_if(1..=3, |_| false);
    assert_eq!(it.collect::<Vec<_>>(), Vec::<i32, _>::new_in(&arena));
    assert_eq!(vec, vec_in![&arena; 0, 4, 5, 6, 7, 8, 9, 10]);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn extract_if_out_of_bounds() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 0, 1];
    let _ = vec.extract_if(5.., |_| true).for_each(drop);
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_complex() {
    let arena = FrameArena::new();
    {
        //                [+xxx++++++xxxxx++++x+x++]
        let mut vec = vec_in![&arena;
            1, 2, 4, 6, 7, 9, 11, 13, 15, 17, 18, 20, 22, 24, 26, 27, 29, 31, 33, 34, 35, 36, 37,
            39,
        ];

        let removed = vec.extract_if(.., |x| *x % 2 == 0).collect::<Vec<_>>();
        assert_eq!(removed.len(), 10);
        assert_eq!(
            removed,
            vec_in![&arena; 2, 4, 6, 18, 20, 22, 24, 26, 34, 36]
        );

        assert_eq!(vec.len(), 14);
        assert_eq!(
            vec,
            vec_in![&arena; 1, 7, 9, 11, 13, 15, 17, 27, 29, 31, 33, 35, 37, 39]
        );
    }

    {
        //                [xxx++++++xxxxx++++x+x++]
        let mut vec = vec_in![&arena;
            2, 4, 6, 7, 9, 11, 13, 15, 17, 18, 20, 22, 24, 26, 27, 29, 31, 33, 34, 35, 36, 37, 39,
        ];

        let removed = vec.extract_if(.., |x| *x % 2 == 0).collect::<Vec<_>>();
        assert_eq!(removed.len(), 10);
        assert_eq!(
            removed,
            vec_in![&arena; 2, 4, 6, 18, 20, 22, 24, 26, 34, 36]
        );

        assert_eq!(vec.len(), 13);
        assert_eq!(
            vec,
            vec_in![&arena; 7, 9, 11, 13, 15, 17, 27, 29, 31, 33, 35, 37, 39]
        );
    }

    {
        //                [xxx++++++xxxxx++++x+x]
        let mut vec = vec_in![&arena; 2, 4, 6, 7, 9, 11, 13, 15, 17, 18, 20, 22, 24, 26, 27, 29, 31, 33, 34, 35, 36];

        let removed = vec.extract_if(.., |x| *x % 2 == 0).collect::<Vec<_>>();
        assert_eq!(removed.len(), 10);
        assert_eq!(
            removed,
            vec_in![&arena; 2, 4, 6, 18, 20, 22, 24, 26, 34, 36]
        );

        assert_eq!(vec.len(), 11);
        assert_eq!(
            vec,
            vec_in![&arena; 7, 9, 11, 13, 15, 17, 27, 29, 31, 33, 35]
        );
    }

    {
        //                [xxxxxxxxxx+++++++++++]
        let mut vec =
            vec_in![&arena; 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

        let removed = vec.extract_if(.., |x| *x % 2 == 0).collect::<Vec<_>>();
        assert_eq!(removed.len(), 10);
        assert_eq!(removed, vec_in![&arena; 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);

        assert_eq!(vec.len(), 10);
        assert_eq!(vec, vec_in![&arena; 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    }

    {
        //                [+++++++++++xxxxxxxxxx]
        let mut vec =
            vec_in![&arena; 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20];

        let removed = vec.extract_if(.., |x| *x % 2 == 0).collect::<Vec<_>>();
        assert_eq!(removed.len(), 10);
        assert_eq!(removed, vec_in![&arena; 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]);

        assert_eq!(vec.len(), 10);
        assert_eq!(vec, vec_in![&arena; 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
    }
}

#[test]
#[cfg(feature = "nightly")]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn extract_if_consumed_panic() {
    let arena = FrameArena::new();
    use std::rc::Rc;
    use std::sync::Mutex;

    struct Check {
        index: usize,
        drop_counts: Rc<Mutex<Vec<usize>>>,
    }

    impl Drop for Check {
        fn drop(&mut self) {
            self.drop_counts.lock().unwrap()[self.index] += 1;
            println!("drop: {}", self.index);
        }
    }

    let check_count = 10;
    let drop_counts = Rc::new(Mutex::new(vec![0_usize; check_count]));
    let mut data: Vec<Check, &FrameArena> = (0..check_count)
        .map(|index| Check {
            index,
            drop_counts: Rc::clone(&drop_counts),
        })
        .collect_in(&arena);

    let _ = std::panic::catch_unwind(AssertUnwindSafe(move || {
        let filter = |c: &mut Check| {
            if c.index == 2 {
                panic!("panic at index: {}", c.index);
            }
            // Verify that if the filter could panic again on another element
            // that it would not cause a double panic and all elements of the
            // vec would still be dropped exactly once.
            if c.index == 4 {
                panic!("panic at index: {}", c.index);
            }
            c.index < 6
        };
        let drain = data.extract_if(.., filter);

        // NOTE: The ExtractIf is explicitly consumed
        drain.for_each(drop);
    }));

    let drop_counts = drop_counts.lock().unwrap();
    assert_eq!(check_count, drop_counts.len());

    for (index, count) in drop_counts.iter().cloned().enumerate() {
        assert_eq!(
            1, count,
            "unexpected drop count at index: {} (count: {})",
            index, count
        );
    }
}

#[test]
#[cfg(feature = "nightly")]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn extract_if_unconsumed_panic() {
    let arena = FrameArena::new();
    use std::rc::Rc;
    use std::sync::Mutex;

    struct Check {
        index: usize,
        drop_counts: Rc<Mutex<Vec<usize>>>,
    }

    impl Drop for Check {
        fn drop(&mut self) {
            self.drop_counts.lock().unwrap()[self.index] += 1;
            println!("drop: {}", self.index);
        }
    }

    let check_count = 10;
    let drop_counts = Rc::new(Mutex::new(vec![0_usize; check_count]));
    let mut data: Vec<Check, &FrameArena> = (0..check_count)
        .map(|index| Check {
            index,
            drop_counts: Rc::clone(&drop_counts),
        })
        .collect_in(&arena);

    let _ = std::panic::catch_unwind(AssertUnwindSafe(move || {
        let filter = |c: &mut Check| {
            if c.index == 2 {
                panic!("panic at index: {}", c.index);
            }
            // Verify that if the filter could panic again on another element
            // that it would not cause a double panic and all elements of the
            // vec would still be dropped exactly once.
            if c.index == 4 {
                panic!("panic at index: {}", c.index);
            }
            c.index < 6
        };
        let _drain = data.extract_if(.., filter);

        // NOTE: The ExtractIf is dropped without being consumed
    }));

    let drop_counts = drop_counts.lock().unwrap();
    assert_eq!(check_count, drop_counts.len());

    for (index, count) in drop_counts.iter().cloned().enumerate() {
        assert_eq!(
            1, count,
            "unexpected drop count at index: {} (count: {})",
            index, count
        );
    }
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_unconsumed() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4];
    let drain = vec.extract_if(.., |&mut x| x % 2 != 0);
    drop(drain);
    assert_eq!(vec, [1, 2, 3, 4]);
}

#[test]
#[cfg(feature = "nightly")]
fn extract_if_debug() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8];
    let mut drain = vec.extract_if(1..5, |&mut x| x % 2 != 0);
    assert_eq!(
        format!("{drain:?}"),
        "ExtractIf { retained: [1], remainder: [2, 3, 4, 5], skipped_tail: [6, 7, 8], .. }"
    );
    drain.next().unwrap();
    assert_eq!(
        format!("{drain:?}"),
        "ExtractIf { retained: [1, 2], remainder: [4, 5], skipped_tail: [6, 7, 8], .. }"
    );
}

#[test]
fn test_reserve_exact() {
    let arena = FrameArena::new();
    // This is all the same as test_reserve

    let mut v = Vec::new_in(&arena);
    assert_eq!(v.capacity(), 0);

    v.reserve_exact(2);
    assert!(v.capacity() >= 2);

    for i in 0..16 {
        v.push(i);
    }

    assert!(v.capacity() >= 16);
    v.reserve_exact(16);
    assert!(v.capacity() >= 32);

    v.push(16);

    v.reserve_exact(16);
    assert!(v.capacity() >= 33)
}

#[test]
#[cfg(feature = "nightly")]
#[cfg_attr(miri, ignore)] // Miri does not support signalling OOM
fn test_try_reserve() {
    let arena = FrameArena::new();
    // These are the interesting cases:
    // * exactly isize::MAX should never trigger a CapacityOverflow (can be OOM)
    // * > isize::MAX should always fail
    //    * On 16/32-bit should CapacityOverflow
    //    * On 64-bit should OOM
    // * overflow may trigger when adding `len` to `cap` (in number of elements)
    // * overflow may trigger when multiplying `new_cap` by size_of::<T> (to get bytes)

    const MAX_CAP: usize = isize::MAX as usize;
    const MAX_USIZE: usize = usize::MAX;

    {
        // Note: basic stuff is checked by test_reserve
        let mut empty_bytes: Vec<u8, &FrameArena> = Vec::new_in(&arena);

        // Check isize::MAX doesn't count as an overflow
        if let Err(CapacityOverflow) = empty_bytes.try_reserve(MAX_CAP).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        // Play it again, frank! (just to be sure)
        if let Err(CapacityOverflow) = empty_bytes.try_reserve(MAX_CAP).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        // Check isize::MAX + 1 does count as overflow
        assert_matches!(
            empty_bytes.try_reserve(MAX_CAP + 1).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        // Check usize::MAX does count as overflow
        assert_matches!(
            empty_bytes.try_reserve(MAX_USIZE).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }

    {
        // Same basic idea, but with non-zero len
        let mut ten_bytes: Vec<u8, &FrameArena> = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

        if let Err(CapacityOverflow) = ten_bytes.try_reserve(MAX_CAP - 10).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = ten_bytes.try_reserve(MAX_CAP - 10).map_err(|e| e.kind()) {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            ten_bytes.try_reserve(MAX_CAP - 9).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        // Should always overflow in the add-to-len
        assert_matches!(
            ten_bytes.try_reserve(MAX_USIZE).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }

    {
        // Same basic idea, but with interesting type size
        let mut ten_u32s: Vec<u32, &FrameArena> = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

        if let Err(CapacityOverflow) = ten_u32s.try_reserve(MAX_CAP / 4 - 10).map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = ten_u32s.try_reserve(MAX_CAP / 4 - 10).map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            ten_u32s.try_reserve(MAX_CAP / 4 - 9).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        // Should fail in the mul-by-size
        assert_matches!(
            ten_u32s.try_reserve(MAX_USIZE - 20).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }
}

#[test]
#[cfg(feature = "nightly")]
#[cfg_attr(miri, ignore)] // Miri does not support signalling OOM
fn test_try_reserve_exact() {
    let arena = FrameArena::new();
    // This is exactly the same as test_try_reserve with the method changed.
    // See that test for comments.

    const MAX_CAP: usize = isize::MAX as usize;
    const MAX_USIZE: usize = usize::MAX;

    {
        let mut empty_bytes: Vec<u8, &FrameArena> = Vec::new_in(&arena);

        if let Err(CapacityOverflow) = empty_bytes.try_reserve_exact(MAX_CAP).map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = empty_bytes.try_reserve_exact(MAX_CAP).map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            empty_bytes
                .try_reserve_exact(MAX_CAP + 1)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        assert_matches!(
            empty_bytes
                .try_reserve_exact(MAX_USIZE)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }

    {
        let mut ten_bytes: Vec<u8, &FrameArena> = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

        if let Err(CapacityOverflow) = ten_bytes
            .try_reserve_exact(MAX_CAP - 10)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = ten_bytes
            .try_reserve_exact(MAX_CAP - 10)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            ten_bytes
                .try_reserve_exact(MAX_CAP - 9)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        assert_matches!(
            ten_bytes.try_reserve_exact(MAX_USIZE).map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }

    {
        let mut ten_u32s: Vec<u32, &FrameArena> = vec_in![&arena; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

        if let Err(CapacityOverflow) = ten_u32s
            .try_reserve_exact(MAX_CAP / 4 - 10)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }
        if let Err(CapacityOverflow) = ten_u32s
            .try_reserve_exact(MAX_CAP / 4 - 10)
            .map_err(|e| e.kind())
        {
            panic!("isize::MAX shouldn't trigger an overflow!");
        }

        assert_matches!(
            ten_u32s
                .try_reserve_exact(MAX_CAP / 4 - 9)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "isize::MAX + 1 should trigger an overflow!"
        );

        assert_matches!(
            ten_u32s
                .try_reserve_exact(MAX_USIZE - 20)
                .map_err(|e| e.kind()),
            Err(CapacityOverflow),
            "usize::MAX should trigger an overflow!"
        );
    }
}

#[test]
#[cfg(feature = "nightly")]
fn test_stable_pointers() {
    let arena = FrameArena::new();
    /// Pull an element from the iterator, then drop it.
    /// Useful to cover both the `next` and `drop` paths of an iterator.
    fn next_then_drop<I: Iterator>(mut i: I) {
        i.next().unwrap();
        drop(i);
    }

    // Test that, if we reserved enough space, adding and removing elements does not
    // invalidate references into the vector (such as `v0`). This test also
    // runs in Miri, which would detect such problems.
    // Note that this test does *not* constitute a stable guarantee that all these functions do not
    // reallocate! Only what is explicitly documented at
    // <https://doc.rust-lang.org/nightly/std/vec/struct.Vec.html#guarantees> is stably guaranteed.
    let mut v = Vec::with_capacity_in(128, &arena);
    v.push(13);

    // Laundering the lifetime -- we take care that `v` does not reallocate, so that's okay.
    let v0 = &mut v[0];
    let v0 = unsafe { &mut *(v0 as *mut _) };
    // Now do a bunch of things and occasionally use `v0` again to assert it is still valid.

    // Pushing/inserting and popping/removing
    v.push(1);
    v.push(2);
    v.insert(1, 1);
    assert_eq!(*v0, 13);
    v.remove(1);
    v.pop().unwrap();
    assert_eq!(*v0, 13);
    v.push(1);
    v.swap_remove(1);
    assert_eq!(v.len(), 2);
    v.swap_remove(1); // swap_remove the last element
    assert_eq!(*v0, 13);

    // Appending
    v.append(&mut vec_in![&arena; 27, 19]);
    assert_eq!(*v0, 13);

    // Extending
    v.extend_from_slice(&[1, 2]);
    v.extend(&[1, 2]); // `slice::Iter` (with `T: Copy`) specialization
    v.extend(vec_in![&arena; 2, 3]); // `vec::IntoIter` specialization
    v.extend(std::iter::once(3)); // `TrustedLen` specialization
    v.extend(std::iter::empty::<i32>()); // `TrustedLen` specialization with empty iterator
    v.extend(std::iter::once(3).filter(|_| true)); // base case
    v.extend(std::iter::once(&3)); // `cloned` specialization
    assert_eq!(*v0, 13);

    // Truncation
    v.truncate(2);
    assert_eq!(*v0, 13);

    // Resizing
    v.resize_with(v.len() + 10, || 42);
    assert_eq!(*v0, 13);
    v.resize_with(2, || panic!());
    assert_eq!(*v0, 13);

    // No-op reservation
    v.reserve(32);
    v.reserve_exact(32);
    assert_eq!(*v0, 13);

    // Partial draining
    v.resize_with(10, || 42);
    next_then_drop(v.drain(5..));
    assert_eq!(*v0, 13);

    // Splicing
    v.resize_with(10, || 42);
    next_then_drop(v.splice(5.., vec_in![&arena; 1, 2, 3, 4, 5])); // empty tail after range
    assert_eq!(*v0, 13);
    next_then_drop(v.splice(5..8, vec_in![&arena; 1])); // replacement is smaller than original range
    assert_eq!(*v0, 13);
    next_then_drop(v.splice(5..6, [1; 10].into_iter().filter(|_| true))); // lower bound not exact
    assert_eq!(*v0, 13);

    // spare_capacity_mut
    v.spare_capacity_mut();
    assert_eq!(*v0, 13);

    // Smoke test that would fire even outside Miri if an actual relocation happened.
    // Also ensures the pointer is still writeable after all this.
    *v0 -= 13;
    assert_eq!(v[0], 0);
}

// https://github.com/rust-lang/rust/pull/49496 introduced specialization based on:
//
// ```
// unsafe impl<T: ?Sized> IsZero for *mut T {
//     fn is_zero(&self) -> bool {
//         (*self).is_null()
//     }
// }
// ```
//
// … to call `RawVec::with_capacity_zeroed` for creating `Vec<*mut T>`,
// which is incorrect for fat pointers since `<*mut T>::is_null` only looks at the data component.
// That is, a fat pointer can be “null” without being made entirely of zero bits.
#[test]
fn vec_macro_repeating_null_raw_fat_pointer() {
    let arena = FrameArena::new();
    let raw_dyn = &mut (|| ()) as &mut dyn Fn() as *mut dyn Fn();
    let vtable = dbg!(ptr_metadata(raw_dyn));
    let null_raw_dyn = ptr_from_raw_parts(std::ptr::null_mut(), vtable);
    assert!(null_raw_dyn.is_null());

    let vec = vec_in![&arena; null_raw_dyn; 1];
    dbg!(ptr_metadata(vec[0]));
    assert!(std::ptr::eq(vec[0], null_raw_dyn));

    // Polyfill for https://github.com/rust-lang/rfcs/pull/2580

    fn ptr_metadata(ptr: *mut dyn Fn()) -> *mut () {
        unsafe { std::mem::transmute::<*mut dyn Fn(), DynRepr>(ptr).vtable }
    }

    fn ptr_from_raw_parts(data: *mut (), vtable: *mut ()) -> *mut dyn Fn() {
        unsafe { std::mem::transmute::<DynRepr, *mut dyn Fn()>(DynRepr { data, vtable }) }
    }

    #[repr(C)]
    struct DynRepr {
        data: *mut (),
        vtable: *mut (),
    }
}

// This test will likely fail if you change the capacities used in
// `RawVec::grow_amortized`.
#[test]
fn test_push_growth_strategy() {
    let arena = FrameArena::new();
    // If the element size is 1, we jump from 0 to 8, then double.
    {
        let mut v1: Vec<u8, &FrameArena> = vec_in![&arena;];
        assert_eq!(v1.capacity(), 0);

        for _ in 0..8 {
            v1.push(0);
            assert_eq!(v1.capacity(), 8);
        }

        for _ in 8..16 {
            v1.push(0);
            assert_eq!(v1.capacity(), 16);
        }

        for _ in 16..32 {
            v1.push(0);
            assert_eq!(v1.capacity(), 32);
        }

        for _ in 32..64 {
            v1.push(0);
            assert_eq!(v1.capacity(), 64);
        }
    }

    // If the element size is 2..=1024, we jump from 0 to 4, then double.
    {
        let mut v2: Vec<u16, &FrameArena> = vec_in![&arena;];
        let mut v1024: Vec<[u8; 1024], &FrameArena> = vec_in![&arena;];
        assert_eq!(v2.capacity(), 0);
        assert_eq!(v1024.capacity(), 0);

        for _ in 0..4 {
            v2.push(0);
            v1024.push([0; 1024]);
            assert_eq!(v2.capacity(), 4);
            assert_eq!(v1024.capacity(), 4);
        }

        for _ in 4..8 {
            v2.push(0);
            v1024.push([0; 1024]);
            assert_eq!(v2.capacity(), 8);
            assert_eq!(v1024.capacity(), 8);
        }

        for _ in 8..16 {
            v2.push(0);
            v1024.push([0; 1024]);
            assert_eq!(v2.capacity(), 16);
            assert_eq!(v1024.capacity(), 16);
        }

        for _ in 16..32 {
            v2.push(0);
            v1024.push([0; 1024]);
            assert_eq!(v2.capacity(), 32);
            assert_eq!(v1024.capacity(), 32);
        }

        for _ in 32..64 {
            v2.push(0);
            v1024.push([0; 1024]);
            assert_eq!(v2.capacity(), 64);
            assert_eq!(v1024.capacity(), 64);
        }
    }

    // If the element size is > 1024, we jump from 0 to 1, then double.
    {
        let mut v1025: Vec<[u8; 1025], &FrameArena> = vec_in![&arena;];
        assert_eq!(v1025.capacity(), 0);

        for _ in 0..1 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 1);
        }

        for _ in 1..2 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 2);
        }

        for _ in 2..4 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 4);
        }

        for _ in 4..8 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 8);
        }

        for _ in 8..16 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 16);
        }

        for _ in 16..32 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 32);
        }

        for _ in 32..64 {
            v1025.push([0; 1025]);
            assert_eq!(v1025.capacity(), 64);
        }
    }
}

macro_rules! generate_assert_eq_vec_and_prim {
    ($name:ident<$B:ident>($type:ty)) => {
        fn $name<A: PartialEq<$B> + Debug, $B: Debug>(a: Vec<A, &FrameArena>, b: $type) {
            assert!(a == b);
            assert_eq!(a, b);
        }
    };
}

generate_assert_eq_vec_and_prim! { assert_eq_vec_and_slice  <B>(&[B])   }
generate_assert_eq_vec_and_prim! { assert_eq_vec_and_array_3<B>([B; 3]) }

#[test]
fn partialeq_vec_and_prim() {
    let arena = FrameArena::new();
    assert_eq_vec_and_slice(vec_in![&arena; 1, 2, 3], &[1, 2, 3]);
    assert_eq_vec_and_array_3(vec_in![&arena; 1, 2, 3], [1, 2, 3]);
}

macro_rules! assert_partial_eq_valid {
    ($a2:expr, $a3:expr; $b2:expr, $b3: expr) => {
        assert!($a2 == $b2);
        assert!($a2 != $b3);
        assert!($a3 != $b2);
        assert!($a3 == $b3);
        assert_eq!($a2, $b2);
        assert_ne!($a2, $b3);
        assert_ne!($a3, $b2);
        assert_eq!($a3, $b3);
    };
}

#[test]
fn partialeq_vec_full() {
    let arena = FrameArena::new();
    let vec2: Vec<_, &FrameArena> = vec_in![&arena; 1, 2];
    let vec3: Vec<_, &FrameArena> = vec_in![&arena; 1, 2, 3];
    let slice2: &[_] = &[1, 2];
    let slice3: &[_] = &[1, 2, 3];
    let slicemut2: &[_] = &mut [1, 2];
    let slicemut3: &[_] = &mut [1, 2, 3];
    let array2: [_; 2] = [1, 2];
    let array3: [_; 3] = [1, 2, 3];
    let arrayref2: &[_; 2] = &[1, 2];
    let arrayref3: &[_; 3] = &[1, 2, 3];

    assert_partial_eq_valid!(vec2,vec3; vec2,vec3);
    assert_partial_eq_valid!(vec2,vec3; slice2,slice3);
    assert_partial_eq_valid!(vec2,vec3; slicemut2,slicemut3);
    assert_partial_eq_valid!(slice2,slice3; vec2,vec3);
    assert_partial_eq_valid!(slicemut2,slicemut3; vec2,vec3);
    assert_partial_eq_valid!(vec2,vec3; array2,array3);
    assert_partial_eq_valid!(vec2,vec3; arrayref2,arrayref3);
    assert_partial_eq_valid!(vec2,vec3; arrayref2[..],arrayref3[..]);
}

#[test]
fn test_vec_cycle() {
    let arena = FrameArena::new();
    #[derive(Debug)]
    // The arena's lifetime is its own: a `Vec`'s allocator must outlive
    // the vector, while the cycle's references need not.
    struct C<'a, 'f> {
        v: Vec<Cell<Option<&'a C<'a, 'f>>>, &'f FrameArena>,
    }

    impl<'a, 'f> C<'a, 'f> {
        fn new(arena: &'f FrameArena) -> C<'a, 'f> {
            C {
                v: Vec::new_in(arena),
            }
        }
    }

    let mut c1 = C::new(&arena);
    let mut c2 = C::new(&arena);
    let mut c3 = C::new(&arena);

    // Push
    c1.v.push(Cell::new(None));
    c1.v.push(Cell::new(None));

    c2.v.push(Cell::new(None));
    c2.v.push(Cell::new(None));

    c3.v.push(Cell::new(None));
    c3.v.push(Cell::new(None));

    // Set
    c1.v[0].set(Some(&c2));
    c1.v[1].set(Some(&c3));

    c2.v[0].set(Some(&c2));
    c2.v[1].set(Some(&c3));

    c3.v[0].set(Some(&c1));
    c3.v[1].set(Some(&c2));
}

#[test]
fn test_vec_cycle_wrapped() {
    let arena = FrameArena::new();
    // As in `test_vec_cycle`: the arena's lifetime is its own.
    struct Refs<'a, 'f> {
        v: Vec<Cell<Option<&'a C<'a, 'f>>>, &'f FrameArena>,
    }

    struct C<'a, 'f> {
        refs: Refs<'a, 'f>,
    }

    impl<'a, 'f> Refs<'a, 'f> {
        fn new(arena: &'f FrameArena) -> Refs<'a, 'f> {
            Refs {
                v: Vec::new_in(arena),
            }
        }
    }

    impl<'a, 'f> C<'a, 'f> {
        fn new(arena: &'f FrameArena) -> C<'a, 'f> {
            C {
                refs: Refs::new(arena),
            }
        }
    }

    let mut c1 = C::new(&arena);
    let mut c2 = C::new(&arena);
    let mut c3 = C::new(&arena);

    c1.refs.v.push(Cell::new(None));
    c1.refs.v.push(Cell::new(None));
    c2.refs.v.push(Cell::new(None));
    c2.refs.v.push(Cell::new(None));
    c3.refs.v.push(Cell::new(None));
    c3.refs.v.push(Cell::new(None));

    c1.refs.v[0].set(Some(&c2));
    c1.refs.v[1].set(Some(&c3));
    c2.refs.v[0].set(Some(&c2));
    c2.refs.v[1].set(Some(&c3));
    c3.refs.v[0].set(Some(&c1));
    c3.refs.v[1].set(Some(&c2));
}

#[test]
fn test_zero_sized_capacity() {
    let arena = FrameArena::new();
    for len in [0, 1, 2, 4, 8, 16, 32, 64, 128, 256] {
        let v = Vec::<(), _>::with_capacity_in(len, &arena);
        assert_eq!(v.len(), 0);
        assert_eq!(v.capacity(), usize::MAX);
    }
}

#[test]
fn test_zero_sized_vec_push() {
    let arena = FrameArena::new();
    const N: usize = 8;

    for len in 0..N {
        let mut tester = Vec::with_capacity_in(len, &arena);
        assert_eq!(tester.len(), 0);
        assert!(tester.capacity() >= len);
        for _ in 0..len {
            tester.push(());
        }
        assert_eq!(tester.len(), len);
        assert_eq!(tester.iter().count(), len);
        tester.clear();
    }
}

#[test]
fn test_vec_macro_repeat() {
    let arena = FrameArena::new();
    assert_eq!(vec_in![&arena; 1; 3], vec_in![&arena; 1, 1, 1]);
    assert_eq!(vec_in![&arena; 1; 2], vec_in![&arena; 1, 1]);
    assert_eq!(vec_in![&arena; 1; 1], vec_in![&arena; 1]);
    assert_eq!(vec_in![&arena; 1; 0], Vec::<i32, _>::new_in(&arena));

    // from_elem syntax (see RFC 832)
    let el = Box::new(1);
    let n = 3;
    assert_eq!(
        vec_in![&arena; el; n],
        vec_in![&arena; Box::new(1), Box::new(1), Box::new(1)]
    );
}

#[test]
fn test_vec_swap() {
    let arena = FrameArena::new();
    let mut a: Vec<isize, &FrameArena> = vec_in![&arena; 0, 1, 2, 3, 4, 5, 6];
    a.swap(2, 4);
    assert_eq!(a[2], 4);
    assert_eq!(a[4], 2);
    let mut n = 42;
    swap(&mut n, &mut a[0]);
    assert_eq!(a[0], 42);
    assert_eq!(n, 0);
}

#[test]
fn test_extend_from_within_clone() {
    let arena = FrameArena::new();
    let mut v =
        vec_in![&arena; String::from("sssss"), String::from("12334567890"), String::from("c")];
    v.extend_from_within(1..);

    assert_eq!(v, ["sssss", "12334567890", "c", "12334567890", "c"]);
}

#[test]
fn test_extend_from_within_complete_rande() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0, 1, 2, 3];
    v.extend_from_within(..);

    assert_eq!(v, [0, 1, 2, 3, 0, 1, 2, 3]);
}

#[test]
fn test_extend_from_within_empty_rande() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0, 1, 2, 3];
    v.extend_from_within(1..1);

    assert_eq!(v, [0, 1, 2, 3]);
}

#[test]
#[should_panic]
fn test_extend_from_within_out_of_rande() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0, 1];
    v.extend_from_within(..3);
}

#[test]
fn test_extend_from_within_zst() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; (); 8];
    v.extend_from_within(3..7);

    assert_eq!(v, [(); 12]);
}

#[test]
fn test_extend_from_within_empty_vec() {
    let arena = FrameArena::new();
    let mut v = Vec::<i32, _>::new_in(&arena);
    v.extend_from_within(..);

    assert_eq!(v, [] as [i32; 0]);
}

#[test]
fn test_extend_from_within() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; String::from("a"), String::from("b"), String::from("c")];
    v.extend_from_within(1..=2);
    v.extend_from_within(..=1);

    assert_eq!(v, ["a", "b", "c", "b", "c", "a", "b"]);
}

#[test]
fn test_vec_dedup_by() {
    let arena = FrameArena::new();
    let mut vec: Vec<i32, &FrameArena> = vec_in![&arena; 1, -1, 2, 3, 1, -5, 5, -2, 2];

    vec.dedup_by(|a, b| a.abs() == b.abs());

    assert_eq!(vec, [1, 2, 3, 1, -5, -2]);
}

#[test]
fn test_vec_dedup_empty() {
    let arena = FrameArena::new();
    let mut vec: Vec<i32, &FrameArena> = Vec::new_in(&arena);

    vec.dedup();

    assert_eq!(vec, [] as [i32; 0]);
}

#[test]
fn test_vec_dedup_one() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 12i32];

    vec.dedup();

    assert_eq!(vec, [12]);
}

#[test]
fn test_vec_dedup_multiple_ident() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 12, 12, 12, 12, 12, 11, 11, 11, 11, 11, 11];

    vec.dedup();

    assert_eq!(vec, [12, 11]);
}

#[test]
fn test_vec_dedup_partialeq() {
    let arena = FrameArena::new();
    #[derive(Debug)]
    struct Foo(i32, #[allow(dead_code)] i32);

    impl PartialEq for Foo {
        fn eq(&self, other: &Foo) -> bool {
            self.0 == other.0
        }
    }

    let mut vec = vec_in![&arena; Foo(0, 1), Foo(0, 5), Foo(1, 7), Foo(1, 9)];

    vec.dedup();
    assert_eq!(vec, [Foo(0, 1), Foo(1, 7)]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_vec_dedup() {
    let arena = FrameArena::new();
    let mut vec: Vec<bool, &FrameArena> = Vec::with_capacity_in(8, &arena);
    let mut template = vec.clone();

    for x in 0u8..255u8 {
        vec.clear();
        template.clear();

        let iter = (0..8).map(move |bit| (x >> bit) & 1 == 1);
        vec.extend(iter);
        template.extend_from_slice(&vec);

        let (dedup, _) = template.partition_dedup();
        vec.dedup();

        assert_eq!(vec, dedup);
    }
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_vec_dedup_panicking() {
    let arena = FrameArena::new();
    #[derive(Debug)]
    struct Panic<'a> {
        drop_counter: &'a Cell<u32>,
        value: bool,
        index: usize,
    }

    impl<'a> PartialEq for Panic<'a> {
        fn eq(&self, other: &Self) -> bool {
            self.value == other.value
        }
    }

    impl<'a> Drop for Panic<'a> {
        fn drop(&mut self) {
            self.drop_counter.set(self.drop_counter.get() + 1);
            if !std::thread::panicking() {
                assert!(self.index != 4);
            }
        }
    }

    let drop_counter = &Cell::new(0);
    let expected = [
        Panic {
            drop_counter,
            value: false,
            index: 0,
        },
        Panic {
            drop_counter,
            value: false,
            index: 5,
        },
        Panic {
            drop_counter,
            value: true,
            index: 6,
        },
        Panic {
            drop_counter,
            value: true,
            index: 7,
        },
    ];
    let mut vec = vec_in![&arena;
        Panic { drop_counter, value: false, index: 0 },
        // these elements get deduplicated
        Panic { drop_counter, value: false, index: 1 },
        Panic { drop_counter, value: false, index: 2 },
        Panic { drop_counter, value: false, index: 3 },
        Panic { drop_counter, value: false, index: 4 },
        // here it panics while dropping the item with index==4
        Panic { drop_counter, value: false, index: 5 },
        Panic { drop_counter, value: true, index: 6 },
        Panic { drop_counter, value: true, index: 7 },
    ];

    let _ = catch_unwind(AssertUnwindSafe(|| vec.dedup())).unwrap_err();

    assert_eq!(drop_counter.get(), 4);

    let ok = vec
        .iter()
        .zip(expected.iter())
        .all(|(x, y)| x.index == y.index);

    if !ok {
        panic!("expected: {expected:?}\ngot: {vec:?}\n");
    }
}

#[test]
#[cfg(feature = "nightly")]
fn test_vec_dedup_long() {
    let arena = FrameArena::new();
    fn check<T: Clone + Debug + PartialEq>(template: &[T]) {
        let mut expected = template.to_vec();
        let (kept, _) = expected.partition_dedup();
        let kept_len = kept.len();
        expected.truncate(kept_len);

        let mut vec = template.to_vec();
        vec.dedup();
        assert_eq!(vec, expected, "input: {template:?}");
    }

    macro_rules! check_type {
        ($ty:ty) => {
            for len in [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65] {
                let distinct: Vec<$ty> = (0..len).map(|x| x as $ty).collect();
                check(&distinct);
                check(&vec_in![&arena; 7 as $ty; len]);

                for dup_at in 1..len {
                    let mut v = distinct.clone();
                    v[dup_at] = v[dup_at - 1];
                    check(&v);

                    if dup_at + 1 < len {
                        let mut w = v.clone();
                        w[len - 1] = w[len - 2];
                        check(&w);
                    }
                }
            }
        };
    }

    check_type!(u8);
    check_type!(u16);
    check_type!(u32);
    check_type!(u64);
}

#[test]
fn test_vec_dedup_long_boxed() {
    let arena = FrameArena::new();
    for len in [9, 10, 16, 17, 24, 25, 33] {
        for dup_at in 1..len {
            let mut v: Vec<Box<u32>, &FrameArena> =
                (0..len as u32).map(Box::new).collect_in(&arena);
            v[dup_at] = Box::new(*v[dup_at - 1]);
            let expected: Vec<u32> = (0..len as u32).filter(|&x| x != dup_at as u32).collect();
            v.dedup();
            let got: Vec<u32> = v.iter().map(|b| **b).collect();
            assert_eq!(got, expected, "len={len} dup_at={dup_at}");
        }
    }
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_vec_dedup_eq_panics_for_simd_sized_type() {
    let arena = FrameArena::new();
    static EQ_COUNT: AtomicU32 = AtomicU32::new(0);
    static DROP_COUNT: AtomicU32 = AtomicU32::new(0);

    #[derive(Debug)]
    #[repr(transparent)]
    struct Panic(u32);

    impl PartialEq for Panic {
        fn eq(&self, other: &Self) -> bool {
            if EQ_COUNT.fetch_add(1, Ordering::SeqCst) == 2 {
                panic!("comparison panic");
            }
            self.0 == other.0
        }
    }

    impl Drop for Panic {
        fn drop(&mut self) {
            DROP_COUNT.fetch_add(1, Ordering::SeqCst);
        }
    }

    EQ_COUNT.store(0, Ordering::SeqCst);
    DROP_COUNT.store(0, Ordering::SeqCst);
    let mut vec: Vec<_, &FrameArena> = [0, 0, 1, 2, 3, 4, 5, 6, 7]
        .into_iter()
        .map(Panic)
        .collect_in(&arena);
    assert!(catch_unwind(AssertUnwindSafe(|| vec.dedup())).is_err());
    drop(vec);
    assert_eq!(DROP_COUNT.load(Ordering::SeqCst), 9);
}

// Regression test for issue #82533
#[test]
#[cfg_attr(not(panic = "unwind"), ignore = "test requires unwinding support")]
fn test_extend_from_within_panicking_clone() {
    let arena = FrameArena::new();
    struct Panic<'dc> {
        drop_count: &'dc AtomicU32,
        aaaaa: bool,
    }

    impl Clone for Panic<'_> {
        fn clone(&self) -> Self {
            if self.aaaaa {
                panic!("panic! at the clone");
            }

            Self { ..*self }
        }
    }

    impl Drop for Panic<'_> {
        fn drop(&mut self) {
            self.drop_count.fetch_add(1, Ordering::SeqCst);
        }
    }

    let count = core::sync::atomic::AtomicU32::new(0);
    let mut vec = vec_in![&arena;
        Panic { drop_count: &count, aaaaa: false },
        Panic { drop_count: &count, aaaaa: true },
        Panic { drop_count: &count, aaaaa: false },
    ];

    // This should clone&append one Panic{..} at the end, and then panic while
    // cloning second Panic{..}. This means that `Panic::drop` should be called
    // 4 times (3 for items already in vector, 1 for just appended).
    //
    // Previously just appended item was leaked, making drop_count = 3, instead of 4.
    std::panic::catch_unwind(AssertUnwindSafe(move || vec.extend_from_within(..))).unwrap_err();

    assert_eq!(count.load(Ordering::SeqCst), 4);
}

#[test]
#[should_panic = "the product of vec len and N shouldn't overflow"]
fn test_into_flattened_size_overflow() {
    let arena = FrameArena::new();
    let v = vec_in![&arena; [(); usize::MAX]; 2];
    let _ = v.into_flattened();
}

#[test]
fn test_vec_from_array_ref() {
    let arena = FrameArena::new();
    assert_eq!(Vec::from(&[1, 2, 3]), vec_in![&arena; 1, 2, 3]);
}

#[test]
fn test_vec_from_array_mut_ref() {
    let arena = FrameArena::new();
    assert_eq!(Vec::from(&mut [1, 2, 3]), vec_in![&arena; 1, 2, 3]);
}

#[test]
fn test_pop_if() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1, 2, 3, 4];
    let pred = |x: &mut i32| *x % 2 == 0;

    assert_eq!(v.pop_if(pred), Some(4));
    assert_eq!(v, [1, 2, 3]);

    assert_eq!(v.pop_if(pred), None);
    assert_eq!(v, [1, 2, 3]);
}

#[test]
fn test_pop_if_empty() {
    let arena = FrameArena::new();
    let mut v = Vec::<i32, _>::new_in(&arena);
    assert_eq!(v.pop_if(|_| true), None);
    assert!(v.is_empty());
}

#[test]
fn test_pop_if_mutates() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 1];
    let pred = |x: &mut i32| {
        *x += 1;
        false
    };
    assert_eq!(v.pop_if(pred), None);
    assert_eq!(v, [2]);
}

#[test]
#[cfg(feature = "nightly")]
fn test_peek_mut() {
    let arena = FrameArena::new();
    let mut vec = Vec::new_in(&arena);
    assert!(vec.peek_mut().is_none());
    vec.push(1);
    vec.push(2);
    let mut p = vec.peek_mut().unwrap();
    assert_eq!(*p, 2);
    *p = 0;
    assert_eq!(*p, 0);
    drop(p);
    assert_eq!(vec, vec_in![&arena; 1, 0]);
    let p = vec.peek_mut().unwrap();
    let p = PeekMut::pop(p);
    assert_eq!(p, 0);
    assert_eq!(vec, vec_in![&arena; 1]);
}

/// This assortment of tests, in combination with miri, verifies we handle UB on fishy arguments
/// in the stdlib. Draining and extending the allocation are fairly well-tested earlier, but
/// `vec.insert(usize::MAX, val)` once slipped by!
///
/// All code that manipulates the collection types should be tested with "trivially wrong" args.
#[test]
fn max_dont_panic() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0];
    let _ = v.get(usize::MAX);
    v.shrink_to(usize::MAX);
    v.truncate(usize::MAX);
}

#[test]
#[should_panic]
fn max_insert() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0];
    v.insert(usize::MAX, 1);
}

#[test]
#[should_panic]
fn max_remove() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0];
    v.remove(usize::MAX);
}

#[test]
#[cfg(feature = "nightly")]
#[should_panic]
fn max_splice() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0];
    v.splice(usize::MAX.., core::iter::once(1));
}

#[test]
#[should_panic]
fn max_swap_remove() {
    let arena = FrameArena::new();
    let mut v = vec_in![&arena; 0];
    v.swap_remove(usize::MAX);
}

// Regression test for #135338
#[test]
fn vec_null_ptr_roundtrip() {
    let arena = FrameArena::new();
    let ptr = std::ptr::from_ref(&42);
    let zero = ptr.with_addr(0);
    let roundtripped = vec_in![&arena; zero; 1].pop().unwrap();
    let new = roundtripped.with_addr(ptr.addr());
    unsafe { new.read() };
}

// Regression test for Undefined Behavior (UB) caused by IntoIter::nth_back (#148682)
// when dealing with high-aligned Zero-Sized Types (ZSTs).
use std::collections::{BTreeMap, BinaryHeap, HashMap, LinkedList, VecDeque};
#[test]
fn zst_collections_iter_nth_back_regression() {
    let arena = FrameArena::new();
    #[repr(align(8))]
    #[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Clone, Copy)]
    struct Thing;
    let v = vec_in![&arena; Thing, Thing];
    let _ = v.into_iter().nth_back(1);
    let mut d = VecDeque::new();
    d.push_back(Thing);
    d.push_back(Thing);
    let _ = d.into_iter().nth_back(1);
    let mut map = BTreeMap::new();
    map.insert(0, Thing);
    map.insert(1, Thing);
    let _ = map.into_values().nth_back(0);
    let mut hash_map = HashMap::new();
    hash_map.insert(1, Thing);
    hash_map.insert(2, Thing);
    let _ = hash_map.into_values().nth(1);
    let mut heap = BinaryHeap::new();
    heap.push(Thing);
    heap.push(Thing);
    let _ = heap.into_iter().nth_back(1);
    let mut list = LinkedList::new();
    list.push_back(Thing);
    list.push_back(Thing);
    let _ = list.into_iter().nth_back(1);
}

#[test]
#[cfg(feature = "nightly")]
fn test_try_remove() {
    let arena = FrameArena::new();
    let mut vec = vec_in![&arena; 1, 2, 3];
    // We are attempting to remove vec[0] which contains 1
    assert_eq!(vec.try_remove(0), Some(1));
    // Now `vec` looks like: [2, 3]
    // We will now try to remove vec[2] which does not exist
    // This should return `None`
    assert_eq!(vec.try_remove(2), None);

    // We will try the same thing with an empty vector
    let mut v: Vec<u8, &FrameArena> = vec_in![&arena;];
    assert!(v.try_remove(0).is_none());
}

#[test]
#[cfg(feature = "nightly")]
fn test_into_iter_next_chunk() {
    let arena = FrameArena::new();
    let mut iter = vec_in![&arena; b'l', b'o', b'r', b'e', b'm'].into_iter();

    assert_eq!(iter.next_chunk().unwrap(), [b'l', b'o']); // N is inferred as 2
    assert_eq!(iter.next_chunk().unwrap(), [b'r', b'e', b'm']); // N is inferred as 3
    assert_eq!(
        iter.next_chunk::<4>().unwrap_err().as_slice(),
        &[] as &[u8; 0]
    ); // N is explicitly 4
}

#[test]
#[cfg(feature = "nightly")]
fn test_into_iter_next_chunk_back() {
    let arena = FrameArena::new();
    let mut iter = vec_in![&arena; b'l', b'o', b'r', b'e', b'm'].into_iter();

    assert_eq!(iter.next_chunk_back().unwrap(), [b'e', b'm']); // N is inferred as 2
    assert_eq!(iter.next_chunk_back().unwrap(), [b'l', b'o', b'r']); // N is inferred as 3
    assert_eq!(
        iter.next_chunk_back::<4>().unwrap_err().as_slice(),
        &[] as &[u8; 0]
    ); // N is explicitly 4
}

#[test]
#[cfg(feature = "nightly")]
fn test_into_iter_advance_by() {
    let arena = FrameArena::new();
    let mut i = vec_in![&arena; 1, 2, 3, 4, 5].into_iter();
    assert_eq!(i.advance_by(0), Ok(()));
    assert_eq!(i.advance_back_by(0), Ok(()));
    assert_eq!(i.as_slice(), [1, 2, 3, 4, 5]);

    assert_eq!(i.advance_by(1), Ok(()));
    assert_eq!(i.advance_back_by(1), Ok(()));
    assert_eq!(i.as_slice(), [2, 3, 4]);

    assert_eq!(
        i.advance_back_by(usize::MAX),
        Err(NonZero::new(usize::MAX - 3).unwrap())
    );

    assert_eq!(
        i.advance_by(usize::MAX),
        Err(NonZero::new(usize::MAX).unwrap())
    );

    assert_eq!(i.advance_by(0), Ok(()));
    assert_eq!(i.advance_back_by(0), Ok(()));

    assert_eq!(i.len(), 0);
}

#[test]
#[cfg(feature = "nightly")]
fn test_into_iter_zst() {
    let arena = FrameArena::new();
    #[derive(Debug, Clone)]
    struct AlignedZstWithDrop([u64; 0]);
    impl Drop for AlignedZstWithDrop {
        fn drop(&mut self) {
            let addr = (self as *mut Self).addr();
            assert!(hint::black_box(addr) % align_of::<u64>() == 0);
        }
    }

    const C: AlignedZstWithDrop = AlignedZstWithDrop([0u64; 0]);

    for _ in vec_in![&arena; C].into_iter() {}
    for _ in vec_in![&arena; C; 5].into_iter().rev() {}

    let mut it = vec_in![&arena; C, C].into_iter();
    assert_eq!(it.advance_by(1), Ok(()));
    drop(it);

    let mut it = vec_in![&arena; C, C].into_iter();
    it.next_chunk::<1>().unwrap();
    drop(it);

    let mut it = vec_in![&arena; C, C].into_iter();
    it.next_chunk::<4>().unwrap_err();
    drop(it);

    let mut it = vec_in![&arena; C, C].into_iter();
    it.next_chunk_back::<1>().unwrap();
    drop(it);

    let mut it = vec_in![&arena; C, C].into_iter();
    it.next_chunk_back::<4>().unwrap_err();
    drop(it);
}

#[test]
#[cfg_attr(miri, ignore)] // Miri does not support signalling OOM
#[cfg(feature = "nightly")]
fn test_try_with_capacity() {
    let arena = FrameArena::new();
    let mut vec: Vec<u32, &FrameArena> = Vec::try_with_capacity_in(5, &arena).unwrap();
    assert_eq!(0, vec.len());
    assert!(vec.capacity() >= 5 && vec.capacity() <= isize::MAX as usize / 4);
    assert!(vec.spare_capacity_mut().len() >= 5);

    assert!(Vec::<u16, _>::try_with_capacity_in(isize::MAX as usize + 1, &arena).is_err());
}
