//! Std collections in the arena, and drops counted: `Box::new_in` and
//! `Vec::new_in` drop their contents, `alloc*` values are never dropped.
//! `VecDeque`, `BTreeMap` and `Rc` take allocators on nightly only (the
//! `nightly` feature's tests).

use std::cell::Cell;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::FrameArena;

struct CountsDrops<'a>(&'a Cell<usize>);

impl Drop for CountsDrops<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

#[test]
fn box_and_vec_drop_their_contents() {
    let drops = Cell::new(0);
    let arena = FrameArena::new();
    {
        let _boxed = Box::new_in(CountsDrops(&drops), &arena);
        let mut v = Vec::new_in(&arena);
        for _ in 0..100 {
            v.push(CountsDrops(&drops));
        }
        v.truncate(60);
        assert_eq!(drops.get(), 40);
    }
    assert_eq!(drops.get(), 101);
}

#[test]
fn alloc_helpers_never_drop() {
    let drops = Cell::new(0);
    let mut arena = FrameArena::new();
    arena.alloc(CountsDrops(&drops));
    arena.alloc_with(|| CountsDrops(&drops));
    arena.alloc_slice_fill_with(10, |_| CountsDrops(&drops));
    arena.reset();
    drop(arena);
    assert_eq!(drops.get(), 0);
}

#[cfg(feature = "nightly")]
#[test]
fn vecdeque_btreemap_and_rc_work() {
    use std::collections::{BTreeMap, VecDeque};
    use std::rc::Rc;

    let arena = FrameArena::new();
    let mut queue = VecDeque::new_in(&arena);
    for i in 0..1000 {
        queue.push_back(i);
        if i % 3 == 0 {
            queue.pop_front();
        }
    }
    assert_eq!(queue.len(), 666);
    let mut map = BTreeMap::new_in(&arena);
    for i in 0..500u32 {
        map.insert(i.wrapping_mul(2_654_435_761) % 1000, i);
    }
    assert!(map.keys().is_sorted());
    let shared = Rc::new_in(vec![1, 2, 3], &arena);
    let other = Rc::clone(&shared);
    assert_eq!(Rc::strong_count(&other), 2);
    assert_eq!(other.iter().sum::<i32>(), 6);
}

#[test]
fn collections_across_many_frames() {
    let drops = Cell::new(0);
    let mut arena = FrameArena::builder().reserve(16 << 20).build().unwrap();
    let frames = if cfg!(miri) { 20 } else { 200 };
    for frame in 0..frames {
        let mut names = Vec::new_in(&arena);
        for i in 0..50 {
            names.push((Box::new_in(CountsDrops(&drops), &arena), frame * 100 + i));
        }
        assert_eq!(names.last().unwrap().1, frame * 100 + 49);
        drop(names);
        arena = arena.reclaim();
    }
    assert_eq!(drops.get(), frames * 50);
    assert!(arena.stats().high_water < 16 << 10);
}

#[test]
fn a_collection_may_own_its_arena() {
    // `Allocator` is implemented for the arena itself (and so for
    // references to it): a `Vec` can carry its arena along, and the arena
    // lives, unreset, for as long as the `Vec` does.
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    let mut owned = Vec::new_in(arena);
    owned.extend(0..1000u64);
    assert_eq!(
        owned.allocator().used(),
        owned.capacity() * 8,
        "grown in place"
    );
    assert_eq!(owned.iter().sum::<u64>(), 499_500);
}
