//! The wasm32 backend as a browser (or Node) runs it: one block of linear
//! memory, 16 MiB unless `reserve` says otherwise, taken once and reused
//! every frame. Linear memory only ever grows, so the checks here read its
//! size (`memory.size`, in 64 KiB pages) around frames that refill the
//! arena. Run by `.ci/run` under wasm-bindgen-test in Node.

#![cfg(all(target_family = "wasm", target_os = "unknown"))]

use core::alloc::AllocError;
use core::arch::wasm32::memory_size;
use core::mem::MaybeUninit;

use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, SegmentedList, format_in};

const MIB: usize = 1 << 20;
/// The default block (`FrameArena::new()` on wasm32).
const DEFAULT_BLOCK: usize = 16 * MIB;

/// Linear memory, in bytes.
fn linear_memory() -> usize {
    memory_size::<0>() * 64 * 1024
}

/// Allocates `bytes` and writes their first and last byte (writing them
/// all would take the debug build seconds a frame).
fn fill(arena: &FrameArena, bytes: usize) -> Result<(), AllocError> {
    let block = arena.try_alloc_uninit_slice::<u8>(bytes)?;
    block[0].write(1);
    block[bytes - 1].write(2);
    Ok(())
}

#[test]
fn the_default_arena_is_one_block_of_sixteen_mebibytes_all_usable() {
    let arena = FrameArena::new();
    let stats = arena.stats();
    assert_eq!(stats.reserved, DEFAULT_BLOCK);
    fill(&arena, DEFAULT_BLOCK - 64).expect("all but a few bytes fit");
    assert_eq!(arena.stats().committed, DEFAULT_BLOCK, "all of it usable");
    assert!(fill(&arena, 128).is_err(), "and no more");
}

#[test]
fn reserve_raises_the_block() {
    let arena = FrameArena::builder()
        .reserve(64 * MIB)
        .build()
        .expect("64 MiB of linear memory");
    assert_eq!(arena.stats().reserved, 64 * MIB);
    fill(&arena, 48 * MIB).expect("three times the default block");
    assert!(arena.used() >= 48 * MIB);
}

#[test]
fn a_full_frame_is_an_error_and_the_next_frame_has_it_all_again() {
    let mut arena = FrameArena::builder().reserve(4 * MIB).build().unwrap();
    for frame in 0..3 {
        fill(&arena, 3 * MIB).unwrap();
        assert!(
            fill(&arena, 2 * MIB).is_err(),
            "frame {frame}: over the block"
        );
        assert!(
            arena.try_alloc([0u64; 1024]).is_ok(),
            "small values still fit"
        );
        let mut list: SegmentedList<u64, &FrameArena> = SegmentedList::new_in(&arena);
        assert!(list.try_reserve(MIB).is_err(), "8 MiB of elements do not");
        drop(list);
        arena = arena.reclaim();
        assert_eq!(arena.used(), 0);
    }
}

#[test]
#[should_panic(expected = "frame arena reservation exhausted: asked for 2097152 bytes")]
fn a_full_frame_panics_naming_the_sizes_and_the_setting() {
    let arena = FrameArena::builder().reserve(MIB).build().unwrap();
    arena.alloc_slice_fill_with(2 * MIB, |_| 0u8);
}

#[test]
#[should_panic(expected = "raise FrameArena::builder().reserve(bytes), or use try_format_in!")]
fn a_string_that_does_not_fit_panics_saying_how_to_fix_it() {
    let arena = FrameArena::builder().reserve(64 * 1024).build().unwrap();
    let long = "x".repeat(128 * 1024);
    format_in!(&arena, "{long}");
}

#[test]
fn steady_frames_never_grow_linear_memory() {
    let mut arena = FrameArena::new();
    // The first frame settles the global allocator's own bookkeeping.
    fill(&arena, 12 * MIB).unwrap();
    arena = arena.reclaim();
    let before = linear_memory();
    for frame in 0..200 {
        fill(&arena, 12 * MIB).unwrap();
        let text = format_in!(&arena, "frame {frame}");
        assert!(text.ends_with(&frame.to_string()));
        let mut list: SegmentedList<u32, &FrameArena> = SegmentedList::new_in(&arena);
        list.extend(0..10_000);
        assert_eq!(list.len(), 10_000);
        drop((text, list));
        arena = arena.reclaim();
    }
    assert_eq!(
        linear_memory(),
        before,
        "200 frames of 12 MiB reuse the same block"
    );
    assert_eq!(arena.stats().frames, 201);
}

#[test]
fn a_dropped_arenas_block_serves_the_next_arena_without_growing_memory() {
    let arena = FrameArena::builder().reserve(32 * MIB).build().unwrap();
    let grown = linear_memory();
    drop(arena);
    // The freed block serves the next arena: memory does not grow again.
    let again = FrameArena::builder().reserve(32 * MIB).build().unwrap();
    assert_eq!(linear_memory(), grown);
    drop(again);
}

#[test]
fn a_lent_buffer_takes_no_linear_memory_of_its_own() {
    static mut BUFFER: [MaybeUninit<u8>; 256 * 1024] = [MaybeUninit::uninit(); 256 * 1024];
    let before = linear_memory();
    // SAFETY: this test is the only code that names BUFFER, and it runs once.
    let mut arena = FrameArena::from_buffer(unsafe { &mut *(&raw mut BUFFER) });
    for _ in 0..10 {
        fill(&arena, 200 * 1024).unwrap();
        assert!(fill(&arena, 64 * 1024).is_err(), "the buffer is full");
        arena = arena.reclaim();
    }
    assert_eq!(arena.stats().reserved, 256 * 1024);
    assert_eq!(linear_memory(), before, "the buffer is in the data segment");
}
