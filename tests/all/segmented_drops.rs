//! Drop accounting: every element dropped exactly once through every way
//! out of the list, including a panicking `clone` or `retain` predicate.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::SegmentedList;

thread_local! {
    static DROPS: Cell<usize> = const { Cell::new(0) };
    static CLONES_BEFORE_PANIC: Cell<usize> = const { Cell::new(usize::MAX) };
}

fn drops() -> usize {
    DROPS.with(Cell::get)
}

#[derive(Debug, PartialEq)]
struct Counted(u32);

impl Drop for Counted {
    fn drop(&mut self) {
        DROPS.with(|d| d.set(d.get() + 1));
    }
}

impl Clone for Counted {
    fn clone(&self) -> Self {
        CLONES_BEFORE_PANIC.with(|left| {
            assert!(left.get() > 0, "clone panics on purpose");
            left.set(left.get() - 1);
        });
        Counted(self.0)
    }
}

fn list_of(n: u32) -> SegmentedList<Counted> {
    (0..n).map(Counted).collect()
}

/// Runs `f` and returns how many `Counted` values were dropped meanwhile.
fn dropped_by(f: impl FnOnce()) -> usize {
    let before = drops();
    f();
    drops() - before
}

#[test]
fn each_removal_drops_exactly_once() {
    let mut list = list_of(100);
    assert_eq!(dropped_by(|| list.truncate(60)), 40);
    assert_eq!(dropped_by(|| drop(list.pop())), 1);
    assert_eq!(dropped_by(|| drop(list.swap_remove(3))), 1);
    // Left: 0..=58 without 3 (58 moved into its place); 28 of them are odd.
    assert_eq!(dropped_by(|| list.retain(|c| c.0 % 2 == 0)), 28);
    assert_eq!(list.len(), 30);
    assert_eq!(dropped_by(|| list.clear()), 30);
    let list = list_of(77);
    assert_eq!(dropped_by(|| drop(list)), 77);
}

#[test]
fn into_iter_drops_what_it_did_not_yield() {
    let list = list_of(50);
    let mut iter = list.into_iter();
    let taken: Vec<Counted> = iter.by_ref().take(10).collect();
    let from_back = iter.next_back().unwrap();
    assert_eq!(dropped_by(|| drop(iter)), 39);
    assert_eq!(dropped_by(|| drop((taken, from_back))), 11);
}

#[test]
fn clone_drops_independently() {
    let list = list_of(40);
    let copy = list.clone();
    assert_eq!(copy, list);
    assert_eq!(dropped_by(|| drop(list)), 40);
    assert_eq!(dropped_by(|| drop(copy)), 40);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn panicking_clone_drops_the_partial_copy_and_keeps_the_original() {
    let list = list_of(30);
    CLONES_BEFORE_PANIC.with(|left| left.set(17));
    let dropped = dropped_by(|| {
        let result = catch_unwind(AssertUnwindSafe(|| list.clone()));
        assert!(result.is_err());
    });
    CLONES_BEFORE_PANIC.with(|left| left.set(usize::MAX));
    assert_eq!(dropped, 17, "the 17 clones made before the panic");
    assert_eq!(list.len(), 30);
    assert_eq!(dropped_by(|| drop(list)), 30);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn panicking_retain_predicate_leaves_a_consistent_list() {
    let mut list = list_of(50);
    let mut visited = 0;
    let dropped = dropped_by(|| {
        let result = catch_unwind(AssertUnwindSafe(|| {
            list.retain(|c| {
                visited += 1;
                assert!(visited <= 30, "predicate panics on purpose");
                c.0 % 3 != 0
            })
        }));
        assert!(result.is_err());
    });
    // Elements 0..30 were visited: multiples of 3 among them (10) removed.
    assert_eq!(dropped, 10);
    assert_eq!(list.len(), 40);
    let expected: Vec<u32> = (0..30).filter(|x| x % 3 != 0).chain(30..50).collect();
    assert!(list.iter().map(|c| c.0).eq(expected));
    assert_eq!(dropped_by(|| drop(list)), 40);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_panicking_destructor_still_drops_the_rest() {
    struct Bomb<'a>(&'a Cell<usize>, bool);
    impl Drop for Bomb<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
            assert!(!self.1, "destructor panics on purpose");
        }
    }
    let count = Cell::new(0);
    let mut list = SegmentedList::new();
    for i in 0..100 {
        list.push(Bomb(&count, i == 5));
    }
    assert!(catch_unwind(AssertUnwindSafe(|| drop(list))).is_err());
    assert_eq!(
        count.get(),
        100,
        "every element dropped once, the bomb included"
    );
}
