//! Frames: reclaim/reset, stats, commit and decommit, alignment, zero sizes,
//! in-place growth, moving between threads.

use core::alloc::{Allocator, Layout};
use tickarena::FrameArena;

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

const MIB: usize = 1 << 20;
/// A frame well above the retained size; smaller under Miri, which
/// interprets every byte written.
const BURST: usize = if cfg!(miri) { 128 << 10 } else { 32 * MIB };
/// Committed bytes the test arenas keep across a reset.
const RETAIN: usize = if cfg!(miri) { 64 << 10 } else { MIB };

/// Gives pages above `RETAIN` back at every reset (`release_after(0)`),
/// so each test sees one frame's effect.
fn small_arena() -> FrameArena {
    FrameArena::builder()
        .reserve(64 * MIB)
        .retain(RETAIN)
        .release_after(0)
        .build()
        .unwrap()
}

#[test]
fn reclaim_rewinds_and_counts_frames() {
    let mut arena = small_arena();
    for frame in 1..=5u64 {
        let first = arena.alloc(frame) as *const u64;
        arena.alloc_slice_copy(&[0u8; 100]);
        assert_eq!(arena.used(), 108);
        let start = first as usize;
        arena = arena.reclaim();
        assert_eq!(arena.used(), 0);
        assert_eq!(arena.stats().frames, 2 * frame - 1);
        // The next frame starts at the same address: memory is reused.
        assert_eq!(arena.alloc(0u64) as *const u64 as usize, start);
        arena.reset();
    }
    assert_eq!(arena.stats().frames, 10);
}

#[test]
fn stats_track_high_water_across_frames() {
    let mut arena = small_arena();
    arena.alloc_slice_fill_with(5000, |i| i as u8);
    assert_eq!(arena.stats().high_water, 5000);
    arena.reset();
    arena.alloc_slice_fill_with(100, |i| i as u8);
    let stats = arena.stats();
    assert_eq!((stats.used, stats.high_water, stats.frames), (100, 5000, 1));
    assert_eq!(stats.reserved, 64 * MIB);
    arena.reset();
    arena.alloc_slice_fill_with(9000, |i| i as u8);
    assert_eq!(arena.stats().high_water, 9000);
}

/// A reset in the middle of a retention window updates only the window's
/// figures; the arena's count of frames and its high water must still be
/// right after every one, across window ends.
#[test]
fn frames_and_high_water_are_right_inside_and_across_retention_windows() {
    let mut arena = FrameArena::builder()
        .reserve(64 * MIB)
        .release_after(3)
        .build()
        .unwrap();
    let sizes = [100, 5000, 200, 50, 7000, 10, 10, 6000];
    let mut high_water = 0;
    for (frame, &size) in sizes.iter().enumerate() {
        arena.alloc_slice_fill_with(size, |i| i as u8);
        high_water = high_water.max(size);
        assert_eq!(arena.stats().high_water, high_water, "frame {frame}");
        arena.reset();
        let stats = arena.stats();
        assert_eq!(stats.frames, frame as u64 + 1);
        assert_eq!(stats.high_water, high_water, "after frame {frame}");
        assert_eq!(stats.used, 0);
    }
}

#[test]
fn peak_and_high_water_count_bytes_given_back_at_the_top() {
    let mut arena = small_arena();
    let mut scratch: Vec<u32, _> = Vec::new_in(&arena);
    scratch.extend(0..1000);
    assert_eq!(arena.used(), 4000, "grown in place at the top");
    drop(scratch);
    assert_eq!(arena.used(), 0, "the most recent block goes back at once");
    assert_eq!(arena.peak(), 4000);
    arena.alloc_slice_copy(&[0u8; 100]);
    assert_eq!((arena.used(), arena.peak()), (100, 4000));
    assert_eq!(arena.stats().high_water, 4000);
    arena.reset();
    assert_eq!(arena.peak(), 0, "a new frame starts a new peak");
    assert_eq!(arena.stats().high_water, 4000);
    arena.alloc_slice_copy(&[0u8; 6000]);
    assert_eq!(
        arena.peak(),
        6000,
        "without give-backs the peak is what is used"
    );
}

#[test]
fn commit_grows_with_use_and_stays_between_frames() {
    let mut arena = small_arena();
    assert_eq!(
        arena.stats().committed,
        0,
        "nothing is committed before the first allocation"
    );
    arena.alloc(1u8);
    let first = arena.stats().committed;
    assert!(
        first > 0 && first <= MIB,
        "first commit is a small step, got {first}"
    );
    arena.alloc_slice_copy(&vec![0xABu8; 3 * first]);
    assert!(arena.stats().committed > 3 * first);
    arena.reset();
    let kept = arena.stats().committed;
    assert!(kept > 0 && kept <= RETAIN);
    for _ in 0..10 {
        arena.alloc_slice_copy(&vec![1u8; kept / 2]);
        arena.reset();
        assert_eq!(
            arena.stats().committed,
            kept,
            "a steady frame commits nothing new"
        );
    }
}

#[test]
fn pages_above_retain_are_given_back_on_reset() {
    let mut arena = small_arena();
    let burst = arena.alloc_slice_copy(&vec![0x5Au8; BURST]);
    assert_eq!(burst[12345], 0x5A);
    assert!(arena.stats().committed >= BURST);
    arena.reset();
    assert!(
        arena.stats().committed <= RETAIN,
        "committed {} after reset",
        arena.stats().committed
    );
    // The memory given back is usable again, zeroed or not.
    let again = arena.alloc_slice_copy(&vec![7u8; BURST]);
    assert!(again.iter().all(|&b| b == 7));
}

/// Under AddressSanitizer the frame is poisoned for ASan instead, and that
/// read is reported: `asan_poison` tests it.
#[cfg(all(debug_assertions, not(tickarena_asan)))]
#[test]
fn debug_reclaim_poisons_the_frame() {
    let mut arena = small_arena();
    // A raw block from the allocator (no reference whose borrow ends).
    let stale = arena.allocate(Layout::new::<u64>()).unwrap().cast::<u64>();
    // SAFETY: the block is 8 writable bytes.
    unsafe { stale.write(0x0123_4567_89AB_CDEF) };
    arena.reset();
    // SAFETY: the region is still mapped and committed, and the pointer
    // carries its provenance; only the arena's contract says it is stale,
    // and the bytes must show it.
    let bytes = unsafe { stale.cast::<[u8; 8]>().read() };
    assert_eq!(bytes, [0xDB; 8]);
}

#[test]
fn alignments_up_to_one_mebibyte() {
    let arena = small_arena();
    for align in [1, 2, 8, 64, 4096, 65536, MIB] {
        arena.alloc(1u8); // misalign the top
        let layout = Layout::from_size_align(24, align).unwrap();
        let block = arena.allocate(layout).unwrap();
        let ptr = block.cast::<u8>();
        assert_eq!(ptr.addr().get() % align, 0, "align {align}");
        assert_eq!(block.len(), 24);
        // SAFETY: the block is 24 writable bytes.
        unsafe { ptr.write_bytes(0x5A, 24) };
    }
    #[repr(align(4096))]
    struct Page([u8; 4096]);
    let page = arena.alloc(Page([3; 4096]));
    assert_eq!(page as *const Page as usize % 4096, 0);
    assert_eq!(page.0[4095], 3);
}

#[test]
fn zero_sized_values_take_no_space() {
    let arena = small_arena();
    arena.alloc(1u8);
    let before = arena.used();
    let unit: &mut () = arena.alloc(());
    *unit = ();
    let empty = arena.alloc_slice_fill_with(1000, |_| ());
    assert_eq!(empty.len(), 1000);
    let big_align = Layout::from_size_align(0, MIB).unwrap();
    let block = arena.allocate(big_align).unwrap();
    assert_eq!(block.cast::<u8>().addr().get() % MIB, 0);
    // SAFETY: zero-sized, from this allocator.
    unsafe { arena.deallocate(block.cast(), big_align) };
    assert_eq!(
        arena.used(),
        before,
        "zero-sized allocations must not move the top"
    );
    assert_eq!(arena.alloc_str(""), "");
}

#[test]
fn vec_grows_in_place_at_the_top() {
    let arena = small_arena();
    let mut v: Vec<u64, &FrameArena> = Vec::new_in(&arena);
    let n = if cfg!(miri) { 10_000 } else { 1_000_000 };
    for i in 0..n {
        v.push(i);
    }
    let capacity_bytes = v.capacity() * 8;
    assert!(
        arena.used() <= capacity_bytes + 64,
        "used {} for a capacity of {capacity_bytes} bytes: growth copied instead of extending",
        arena.used()
    );
    assert_eq!(v.iter().sum::<u64>(), n * (n - 1) / 2);
}

#[test]
fn shrink_and_free_of_the_last_allocation_give_bytes_back() {
    let arena = small_arena();
    let mut v: Vec<u32, &FrameArena> = Vec::with_capacity_in(1000, &arena);
    v.extend(0..10);
    v.shrink_to_fit();
    assert_eq!(arena.used(), 40);
    drop(v);
    assert_eq!(arena.used(), 0);
    // Not the last allocation: freeing it leaves the top alone.
    let a = Box::new_in(1u64, &arena);
    let _b = Box::new_in(2u64, &arena);
    drop(a);
    assert_eq!(arena.used(), 16);
}

#[test]
fn interleaved_vectors_keep_their_contents() {
    let arena = small_arena();
    let mut a = Vec::new_in(&arena);
    let mut b = Vec::new_in(&arena);
    for i in 0..10_000u32 {
        a.push(i);
        b.push(u64::from(i) * 3);
    }
    assert!(a.iter().enumerate().all(|(i, &x)| x == i as u32));
    assert!(b.iter().enumerate().all(|(i, &x)| x == i as u64 * 3));
}

#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns threads")]
fn arena_moves_to_another_thread_and_back() {
    let arena = small_arena();
    arena.alloc(5u32);
    let arena = std::thread::spawn(move || {
        let label = arena.alloc_str("from the worker");
        assert_eq!(label.len(), 15);
        arena.reclaim()
    })
    .join()
    .unwrap();
    assert_eq!(arena.used(), 0);
    assert_eq!(arena.stats().frames, 1);
    assert_eq!(*arena.alloc(9u8), 9);
}

#[test]
fn huge_pages_arena_works() {
    let arena = FrameArena::builder()
        .reserve(64 * MIB)
        .huge_pages(true)
        .build()
        .unwrap();
    let block = arena.alloc_slice_copy(&vec![0u32; BURST / 8]);
    assert_eq!(block[1000], 0);
}
