//! The stable-address promise of `SegmentedList::get_ptr` (run under Miri
//! with Stacked and with Tree Borrows by `.ci/run`), and `try_reserve`
//! keeping nothing when it fails.

use std::alloc::{Allocator, Layout};
use std::ptr::NonNull;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, SegmentedList};

/// Pointers to the first `count` elements.
fn pointers<T>(list: &SegmentedList<T>, count: usize) -> Vec<NonNull<T>> {
    (0..count).map(|i| list.get_ptr(i).unwrap()).collect()
}

#[test]
fn pointers_survive_pushes_that_add_segments() {
    let mut list: SegmentedList<u64> = (0..20).collect();
    let kept = pointers(&list, 20);
    let pushes = if cfg!(miri) { 500 } else { 50_000 };
    list.extend(20..20 + pushes);
    for (i, ptr) in kept.iter().enumerate() {
        // SAFETY: element `i` is still in the list and was never moved.
        assert_eq!(unsafe { ptr.read() }, i as u64);
        assert_eq!(ptr.as_ptr().cast_const(), &list[i] as *const u64);
    }
}

#[test]
fn pointers_survive_mutable_access_to_other_elements() {
    let mut list: SegmentedList<u64> = (0..40).collect();
    let five = list.get_ptr(5).unwrap();
    // `iter_mut` makes `&mut` slices of whole segments, this one's included.
    for (i, value) in list.iter_mut().enumerate() {
        if i != 5 {
            *value += 1000;
        }
    }
    *list.get_mut(6).unwrap() = 6;
    for segment in list.segments_mut() {
        segment.last_mut().unwrap().clone_from(&0);
    }
    list.push(40);
    // SAFETY: element 5 is in the list, never moved, and no reference to it
    // is in use; the references made above are all dead.
    unsafe {
        assert_eq!(five.read(), 5);
        five.write(55);
    }
    assert_eq!(list[5], 55);
    assert_eq!(list[6], 6);
    assert_eq!(list[4], 1004);
}

#[test]
fn pointers_survive_mutable_access_to_their_own_element() {
    let mut list: SegmentedList<String> = (0..10).map(|i| i.to_string()).collect();
    let three = list.get_ptr(3).unwrap();
    list.get_mut(3).unwrap().push('!');
    list.iter_mut().for_each(|s| s.push('?'));
    // SAFETY: element 3 was neither removed nor moved; the `&mut`s to it
    // are no longer used.
    assert_eq!(unsafe { three.as_ref() }, "3!?");
    // SAFETY: as above; `list` is not borrowed while this reference lives.
    unsafe { (*three.as_ptr()).push('#') };
    assert_eq!(list[3], "3!?#");
}

#[test]
fn pointers_in_an_arena_list_survive_until_the_frame_ends() {
    let arena = FrameArena::new();
    let mut list = SegmentedList::new_in(&arena);
    list.extend([1.5f32, 2.5]);
    let first = list.get_ptr(0).unwrap();
    arena.alloc([0u8; 100]); // the arena moves on; the segment stays
    list.extend((0..100).map(|i| i as f32));
    list.iter_mut().skip(1).for_each(|x| *x *= 2.0);
    // SAFETY: element 0 is in the list, never moved, no reference in use.
    assert_eq!(unsafe { first.read() }, 1.5);
}

#[test]
fn what_moves_is_what_the_docs_say() {
    let mut list: SegmentedList<u32> = (0..10).collect();
    // swap_remove moves the last element into the hole.
    let last = list.get_ptr(9).unwrap();
    let hole = list.get_ptr(2).unwrap();
    assert_eq!(list.swap_remove(2), 2);
    assert_eq!(list[2], 9);
    assert_eq!(list.get_ptr(2), Some(hole));
    assert_ne!(list.get_ptr(2), Some(last));
    // retain moves every later kept element down.
    list.retain(|&x| x != 0);
    assert_eq!(list.to_vec(), [1, 9, 3, 4, 5, 6, 7, 8]);
    assert!(list.get_ptr(8).is_none());
}

#[test]
fn get_ptr_is_none_out_of_bounds_and_works_for_zero_sized_values() {
    let mut list: SegmentedList<()> = SegmentedList::new();
    assert!(list.get_ptr(0).is_none());
    list.push(());
    let unit = list.get_ptr(0).unwrap();
    // SAFETY: a zero-sized read through an aligned, non-null pointer.
    unsafe { unit.read() };
    assert!(list.get_ptr(1).is_none());
}

#[test]
fn an_impossible_reserve_fails_at_once_and_keeps_nothing() {
    let mut list: SegmentedList<u64> = (0..100).collect();
    let capacity = list.capacity();
    for additional in [
        usize::MAX,
        usize::MAX - 100,
        isize::MAX as usize / 8,
        usize::MAX / 16,
    ] {
        let error = list.try_reserve(additional).unwrap_err();
        assert!(
            error.to_string().contains("capacity exceeded"),
            "{additional}: {error}"
        );
        assert_eq!(
            list.capacity(),
            capacity,
            "reserving {additional} kept segments"
        );
    }
    list.push(100);
    assert_eq!(list.len(), 101);
}

#[test]
fn a_refused_reserve_gives_its_segments_back_to_the_arena() {
    let arena = FrameArena::builder().reserve(1 << 20).build().unwrap();
    let before = arena.alloc(7u64) as *const u64;
    let mut list = SegmentedList::<u64, _>::new_in(&arena);
    list.push(1);
    let used = arena.used();
    // 16 MiB of segments cannot fit in a 1 MiB arena: some segments are
    // allocated before the refusal, and must all be given back.
    assert!(list.try_reserve(2 << 20).is_err());
    assert_eq!(arena.used(), used, "the failed reserve kept arena bytes");
    assert_eq!(list.capacity(), 8);
    // The rest of the frame goes on: most of the arena is still free.
    let most = Layout::from_size_align(900 << 10, 1).unwrap();
    assert!(arena.allocate(most).is_ok());
    list.extend(2..=1000);
    assert_eq!(list.iter().sum::<u64>(), 500_500);
    // SAFETY: the frame has not ended; the value was never freed.
    assert_eq!(unsafe { *before }, 7);
}

/// What `get_ptr`'s docs forbid, as programs Miri must report as undefined
/// behaviour. Built only for Miri and ignored by its ordinary run: each is
/// run alone by `scripts/miri-counter-examples` (from `.ci/run`), which
/// expects Miri's "Undefined Behavior" report for each, under the borrow
/// model named in the test's name. Natively they would run and print
/// nothing, which is what makes such a bug dangerous.
#[cfg(miri)]
mod counter_examples {
    use tickarena::SegmentedList;

    #[test]
    #[ignore = "undefined behaviour on purpose: scripts/miri-counter-examples runs it"]
    fn read_through_the_pointer_while_a_mut_ref_is_in_use_stacked_and_tree() {
        let mut list: SegmentedList<u32> = (0..10).collect();
        let p = list.get_ptr(3).unwrap();
        let r = list.get_mut(3).unwrap();
        *r += 1;
        // SAFETY: none; `r` is used again below, which the docs forbid.
        let seen = unsafe { *p.as_ptr() };
        *r += 1;
        assert_eq!(seen, 4);
    }

    #[test]
    #[ignore = "undefined behaviour on purpose: scripts/miri-counter-examples runs it"]
    fn write_through_the_pointer_while_a_shared_ref_is_in_use_stacked_and_tree() {
        let list: SegmentedList<u32> = (0..10).collect();
        let p = list.get_ptr(3).unwrap();
        let r = &list[3];
        // SAFETY: none; `r` is read again below, which the docs forbid.
        unsafe { *p.as_ptr() = 30 };
        assert_eq!(*r, 30);
    }

    #[test]
    #[ignore = "undefined behaviour on purpose: scripts/miri-counter-examples runs it"]
    fn pointer_used_after_leak_then_the_leaked_slice_stacked() {
        let list: SegmentedList<u32> = (0..10).collect();
        let p = list.get_ptr(3).unwrap();
        let frozen = list.leak();
        // SAFETY: none; `leak` handed element 3 out as `&mut`, which the docs
        // say ends the pointer's use.
        let seen = unsafe { *p.as_ptr() };
        frozen[0][3] += 100;
        assert_eq!(seen, 3);
    }
}
