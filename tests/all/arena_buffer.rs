//! `FrameArena::from_buffer`: an arena over the caller's memory, as no_std
//! and console code use it. Each test lends its own `static` buffer, the way
//! such code does.

use core::alloc::{Allocator, Layout};
use core::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};

#[cfg(all(target_family = "wasm", target_os = "unknown"))]
use wasm_bindgen_test::wasm_bindgen_test as test;

use tickarena::{FrameArena, format_in};

/// A `static` buffer of `$len` bytes, lent once: `&'static mut`.
macro_rules! static_buffer {
    ($len:expr) => {{
        static mut BUFFER: [MaybeUninit<u8>; $len] = [MaybeUninit::uninit(); $len];
        // SAFETY: each expansion has its own `static`, and the test that
        // expands it runs once, so this is the only reference ever made.
        unsafe { &mut *(&raw mut BUFFER) }
    }};
}

#[test]
fn a_full_buffer_is_an_error_and_serves_again_after_reclaim() {
    let mut arena = FrameArena::from_buffer(static_buffer!(1024));
    let stats = arena.stats();
    assert_eq!(
        (stats.reserved, stats.committed, stats.used),
        (1024, 1024, 0)
    );
    for frame in 0..3 {
        let mut served = 0;
        while arena.try_alloc(frame as u64).is_ok() {
            served += 1;
        }
        // An unaligned buffer loses at most 7 bytes to alignment.
        assert!(
            (127..=128).contains(&served),
            "frame {frame}: {served} u64s"
        );
        // What is left (the alignment's slack) is smaller than 8 bytes.
        assert!(arena.try_alloc_str("8 bytes!").is_err());
        assert!(arena.allocate(Layout::new::<[u8; 8]>()).is_err());
        let mut v: Vec<u8, &FrameArena> = Vec::new_in(&arena);
        assert!(v.try_reserve(8).is_err());
        drop(v);
        arena = arena.reclaim();
        assert_eq!(
            arena.stats().committed,
            1024,
            "a lent buffer is never given back"
        );
    }
    assert_eq!(arena.stats().frames, 3);
}

#[test]
#[cfg_attr(
    target_family = "wasm",
    ignore = "catches a panic, and a panic aborts on wasm32"
)]
fn a_full_buffer_panics_saying_so() {
    let arena = FrameArena::from_buffer(static_buffer!(512));
    arena.alloc([0u8; 100]);
    let payload = catch_unwind(AssertUnwindSafe(|| {
        arena.alloc_slice_fill_with(1000, |_| 0u8);
    }))
    .unwrap_err();
    let message = payload.downcast_ref::<String>().unwrap();
    for part in [
        "buffer full",
        "1000 bytes",
        "100 of the buffer's 512",
        "from_buffer",
    ] {
        assert!(message.contains(part), "{part:?} missing from: {message}");
    }
    let text = catch_unwind(AssertUnwindSafe(|| format_in!(&arena, "{:>600}", 1))).unwrap_err();
    let text = text.downcast_ref::<String>().unwrap();
    assert!(text.contains("format_in!"), "{text}");
}

#[test]
fn any_alignment_of_the_buffer_works() {
    let base: *mut MaybeUninit<u8> = static_buffer!(4096 + 64).as_mut_ptr();
    for offset in [0, 1, 3, 7, 13, 31] {
        // SAFETY: every part lies inside the buffer, and each is lent only
        // after the arena over the one before was dropped.
        let part = unsafe { core::slice::from_raw_parts_mut(base.add(offset), 4096) };
        let arena = FrameArena::from_buffer(part);
        let byte = arena.alloc(1u8) as *const u8;
        assert_eq!(
            byte.addr(),
            base.addr() + offset,
            "the first byte is the buffer's"
        );
        let words = arena.alloc_slice_copy(&[u64::MAX; 8]);
        assert!(words.as_ptr().is_aligned());
        let aligned = arena
            .allocate(Layout::from_size_align(16, 1024).unwrap())
            .unwrap();
        assert_eq!(aligned.cast::<u8>().addr().get() % 1024, 0);
        assert_eq!(words, [u64::MAX; 8]);
    }
}

#[test]
fn large_alignments_fail_cleanly_when_they_do_not_fit() {
    let buffer = static_buffer!(256);
    // 1 MiB or more, with no address of the buffer on it: a fixed 1 MiB
    // would be met by a buffer that starts on it, which address space
    // randomization makes one run in a few hundred.
    let start = buffer.as_ptr().addr();
    let align = (20..usize::BITS - 2)
        .map(|bits| 1usize << bits)
        .find(|&align| start.next_multiple_of(align) - start > 256)
        .expect("an alignment no address of the buffer meets");
    let arena = FrameArena::from_buffer(buffer);
    let huge_align = Layout::from_size_align(8, align).unwrap();
    assert!(arena.allocate(huge_align).is_err());
    let absurd = Layout::from_size_align(isize::MAX as usize - 4095, 4096).unwrap();
    assert!(arena.allocate(absurd).is_err());
    assert_eq!(arena.used(), 0, "failures take nothing");
    assert_eq!(*arena.alloc(9u16), 9);
}

#[test]
fn zero_sized_values_and_an_empty_buffer() {
    // `&mut []` is the one mutable borrow the compiler makes `'static`.
    let arena = FrameArena::from_buffer(&mut []);
    assert_eq!(arena.stats().reserved, 0);
    let unit: &mut () = arena.alloc(());
    *unit = ();
    let empty: &mut [u64] = arena.alloc_slice_copy(&[]);
    assert!(empty.is_empty());
    let nothing: Vec<(), &FrameArena> = tickarena::vec_in![&arena; (); 1000];
    assert_eq!(nothing.len(), 1000);
    assert!(arena.try_alloc(1u8).is_err());
}

#[test]
fn collections_work_in_a_buffer() {
    let mut arena = FrameArena::from_buffer(static_buffer!(64 << 10));
    for frame in 0..4u32 {
        {
            let mut squares = Vec::new_in(&arena);
            squares.extend((0..1000).map(|i| i * frame));
            let label = format_in!(&arena, "frame {frame}: {}", squares.len());
            assert_eq!(label, format!("frame {frame}: 1000"));
            assert_eq!(squares[999], 999 * frame);
        }
        arena.reset();
    }
    assert!(arena.stats().high_water >= 4000);
}
