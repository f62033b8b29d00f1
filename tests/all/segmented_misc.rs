//! Pointer stability, zero-sized elements, lists in a reclaimed arena,
//! `Send`/`Sync`, formatting and hashing.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, SegmentedList};

#[test]
fn elements_never_move() {
    let mut list = SegmentedList::new();
    for i in 0..100u64 {
        list.push([i; 5]);
    }
    let early: Vec<*const [u64; 5]> = (0..100).map(|i| &list[i] as *const _).collect();
    let pushes = if cfg!(miri) { 2_000 } else { 200_000 };
    for i in 0..pushes {
        list.push([i; 5]);
    }
    for (i, &ptr) in early.iter().enumerate() {
        assert_eq!(ptr, &list[i] as *const _, "element {i} moved");
        // SAFETY: the element is still in the list and never moved.
        assert_eq!(unsafe { *ptr }, [i as u64; 5]);
    }
}

#[test]
fn zero_sized_elements_need_no_allocation() {
    let mut list = SegmentedList::new();
    for _ in 0..1000 {
        list.push(());
    }
    assert_eq!((list.len(), list.capacity()), (1000, usize::MAX));
    assert_eq!(list.iter().count(), 1000);
    assert_eq!(list.segments().map(<[()]>::len).sum::<usize>(), 1000);
    list.swap_remove(10);
    list.retain(|_| true);
    assert_eq!(list.pop(), Some(()));
    assert_eq!(list.into_iter().count(), 998);
    let arena = FrameArena::new();
    let mut in_arena = SegmentedList::new_in(&arena);
    in_arena.extend([(); 100]);
    assert_eq!(arena.used(), 0);
}

#[test]
fn lists_in_an_arena_across_reclaimed_frames() {
    let mut arena = FrameArena::builder()
        .reserve(32 << 20)
        .retain(4 << 20)
        .build()
        .unwrap();
    let frames = if cfg!(miri) { 30 } else { 300 };
    for frame in 0..frames {
        {
            let mut scratch = SegmentedList::new_in(&arena);
            for i in 0..(frame % 50) * 20 {
                scratch.push((frame, i));
            }
            let sum: u64 = scratch.iter().map(|&(_, i)| i).sum();
            let n = (frame % 50) * 20;
            assert_eq!(sum, n * n.saturating_sub(1) / 2);
        }
        arena = arena.reclaim();
    }
    assert!(arena.stats().high_water < 64 << 10);
}

#[test]
fn send_and_sync_follow_the_element_type() {
    fn send<T: Send>() {}
    fn sync<T: Sync>() {}
    send::<SegmentedList<u32>>();
    sync::<SegmentedList<u32>>();
    send::<SegmentedList<String>>();
    send::<SegmentedList<u8, &'static std::alloc::Global>>();
    send::<tickarena::segmented_iter::Iter<'static, u32>>();
    send::<tickarena::segmented_iter::IntoIter<u32>>();
    // `Rc` is neither Send nor Sync, so a list of them is neither: checked
    // by the compile-fail cases.
}

#[test]
fn debug_prints_like_a_vec_and_hash_is_consistent() {
    let list: SegmentedList<i32> = (0..20).collect();
    let vec: Vec<i32> = (0..20).collect();
    assert_eq!(format!("{list:?}"), format!("{vec:?}"));
    assert_eq!(format!("{:?}", SegmentedList::<u8>::new()), "[]");
    let hash = |value: &SegmentedList<i32>| {
        let mut hasher = DefaultHasher::new();
        value.hash(&mut hasher);
        hasher.finish()
    };
    assert_eq!(hash(&list), hash(&list.clone()));
    assert_eq!(list, vec);
    assert_eq!(vec, list);
    assert_eq!(list.to_vec(), vec);
}

#[test]
#[should_panic(expected = "index out of bounds: the len is 3 but the index is 3")]
fn index_out_of_bounds_panics_like_vec() {
    let list: SegmentedList<u8> = [1, 2, 3].into_iter().collect();
    let _ = list[3];
}

#[test]
#[should_panic(expected = "swap_remove index (is 5) should be < len (is 2)")]
fn swap_remove_out_of_bounds_panics_like_vec() {
    let mut list: SegmentedList<u8> = [1, 2].into_iter().collect();
    list.swap_remove(5);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn exhausted_arena_gives_a_clear_error() {
    let arena = FrameArena::builder().reserve(64 << 10).build().unwrap();
    let mut list = SegmentedList::<u64, _>::new_in(&arena);
    assert!(list.try_reserve(100_000).is_err());
    assert!(list.capacity() < 100_000);
    let message = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| list.reserve(100_000)))
        .unwrap_err()
        .downcast::<String>()
        .unwrap();
    assert!(message.contains("could not reserve"), "{message}");
}

#[test]
fn clone_from_copies_any_length_into_any_length_keeping_capacity() {
    // Lengths on both sides of segment boundaries, shorter and longer
    // (1000, seven segments, natively only: 81 pairs of lists of `String`s
    // take minutes interpreted; 100 spans four).
    let lengths: &[usize] = if cfg!(miri) {
        &[0, 1, 7, 8, 9, 24, 25, 100]
    } else {
        &[0, 1, 7, 8, 9, 24, 25, 100, 1000]
    };
    for &from in lengths {
        for &into in lengths {
            let source: SegmentedList<String> = (0..from).map(|i| format!("s{i}")).collect();
            let mut target: SegmentedList<String> = (0..into).map(|i| format!("t{i}")).collect();
            let capacity = target.capacity();
            target.clone_from(&source);
            assert!(target.iter().eq(source.iter()), "{into} <- {from}");
            assert_eq!(target.len(), from);
            if from <= into {
                assert_eq!(
                    target.capacity(),
                    capacity,
                    "no new segment for {into} <- {from}"
                );
            }
        }
    }
}
